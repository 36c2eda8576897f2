/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Poseidon round constants from the Grain LFSR in self-shrinking mode, exactly as neptune's
 * round_constants.rs (docs/spec/poseidon.md §3; the reference is the Poseidon authors'
 * create_rcs_grain.sage with arguments 1 1 255 t R_F R_P).
 *
 * 80-bit register, seeded MSB-first with: field = 1 (2 bits, prime field), sbox = 1 (4 bits, the
 * encoding neptune uses for x^5), field size 255 (12 bits), t (12), R_F (10), R_P (10), thirty 1s.
 * Each clock appends s[62]^s[51]^s[38]^s[23]^s[13]^s[0] and drops s[0]; 160 warm-up clocks are
 * discarded. An output bit takes clock pairs (x, y) until x = 1 and yields y. A candidate is the
 * next 255 output bits read MSB first; candidates >= r are dropped whole (never reduced).
 */
#include <string.h>

#include "hashes/poseidon_internal.h"

typedef struct {
  unsigned char b[80]; /* ring buffer; s[i] = b[(head + i) % 80], s[0] the oldest bit */
  unsigned head;
} grain;

static unsigned grain_clock(grain *g) {
#define S(i) g->b[(g->head + (i)) % 80]
  unsigned bit = S(62) ^ S(51) ^ S(38) ^ S(23) ^ S(13) ^ S(0);
#undef S
  g->b[g->head] = (unsigned char)bit; /* overwrites s[0]; becomes s[79] once head moves */
  g->head = (g->head + 1) % 80;
  return bit;
}

static unsigned grain_bit(grain *g) {
  for (;;) {
    unsigned x = grain_clock(g), y = grain_clock(g);
    if (x) return y;
  }
}

static void grain_push(grain *g, unsigned *n, unsigned value, unsigned bits) {
  for (unsigned i = bits; i-- > 0;)
    g->b[(*n)++] = (unsigned char)((value >> i) & 1);
}

void cuzk_poseidon_grain(cuzk_fr *out, size_t count, unsigned t, unsigned rf, unsigned rp) {
  grain g = {.head = 0};
  unsigned n = 0;
  grain_push(&g, &n, 1, 2);
  grain_push(&g, &n, 1, 4);
  grain_push(&g, &n, 255, 12);
  grain_push(&g, &n, t, 12);
  grain_push(&g, &n, rf, 10);
  grain_push(&g, &n, rp, 10);
  while (n < 80)
    g.b[n++] = 1;
  for (int i = 0; i < 160; i++)
    grain_clock(&g);

  for (size_t k = 0; k < count;) {
    uint64_t x[4] = {0};
    for (int bit = 254; bit >= 0; bit--)
      x[bit / 64] |= (uint64_t)grain_bit(&g) << (bit % 64);
    if (cuzk_fr_from_canonical(&out[k], x)) k++; /* rejects x >= r */
  }
}
