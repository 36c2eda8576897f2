/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * xcheck_dump SEED N: prints, one JSON object per line, values computed by cuzk for
 * tests/noble/xcheck.mjs to compare with @noble/curves (an independent implementation).
 *
 *   {"k": K, "g1c": .., "g1u": .., "g2c": .., "g2u": ..}   K·G1 and K·G2 in the ZCash encodings
 *   {"a": A, "b": B, "eab": ..}                              e(A·G1, B·G2) as cuzk_fp12_to_bytes
 *   {"done": true, "scalars": S, "pairings": P}              last line, so truncation is detected
 *
 * Scalars are 32-byte big-endian hex (noble parses them with BigInt('0x' + ...)). Everything is
 * derived from SEED by splitmix64, so a failing run can be replayed exactly.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h" /* to_hex */
#include "cuzk/curve/curve.h"
#include "cuzk/field/field.h"
#include "cuzk/pairing/pairing.h"

/* Random pairings in addition to e(G1, G2): each costs noble a pairing and an Fp12 power. */
#define XCHECK_PAIRINGS 6

static uint64_t rng_state;
static unsigned long pairings_printed;

/* splitmix64 (Steele, Lea, Flood 2014): tiny, full-period, and good enough to pick test inputs. */
static uint64_t rng_next(void) {
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/* Uniform in [0, r): draw 255 bits and retry while >= r (accepts ~90% of draws), so there is no
 * modular bias and the top bits are exercised as often as the bottom ones. */
static void random_fr(cuzk_fr *out) {
  for (;;) {
    uint64_t l[4];
    for (int i = 0; i < 4; i++)
      l[i] = rng_next();
    l[3] &= UINT64_MAX >> 1;
    if (cuzk_fr_from_canonical(out, l)) return;
  }
}

/* Scalars go out big-endian; cuzk_fr_to_bytes is little-endian (Scalar::to_repr). */
static void fr_hex(char out[65], const cuzk_fr *k) {
  uint8_t le[32], be[32];
  cuzk_fr_to_bytes(le, k);
  for (int i = 0; i < 32; i++)
    be[i] = le[31 - i];
  to_hex(out, be, 32);
}

static void print_scalar_line(const cuzk_fr *k) {
  cuzk_g1 g1, p1;
  cuzk_g2 g2, p2;
  cuzk_g1_affine a1;
  cuzk_g2_affine a2;
  cuzk_g1_generator(&g1);
  cuzk_g2_generator(&g2);
  cuzk_g1_mul(&p1, &g1, k);
  cuzk_g2_mul(&p2, &g2, k);
  cuzk_g1_to_affine(&a1, &p1);
  cuzk_g2_to_affine(&a2, &p2);

  uint8_t g1c[CUZK_G1_COMPRESSED_BYTES], g1u[CUZK_G1_UNCOMPRESSED_BYTES];
  uint8_t g2c[CUZK_G2_COMPRESSED_BYTES], g2u[CUZK_G2_UNCOMPRESSED_BYTES];
  cuzk_g1_to_compressed(g1c, &a1);
  cuzk_g1_to_uncompressed(g1u, &a1);
  cuzk_g2_to_compressed(g2c, &a2);
  cuzk_g2_to_uncompressed(g2u, &a2);

  char kh[65], h1c[2 * sizeof g1c + 1], h1u[2 * sizeof g1u + 1], h2c[2 * sizeof g2c + 1],
      h2u[2 * sizeof g2u + 1];
  fr_hex(kh, k);
  to_hex(h1c, g1c, sizeof g1c);
  to_hex(h1u, g1u, sizeof g1u);
  to_hex(h2c, g2c, sizeof g2c);
  to_hex(h2u, g2u, sizeof g2u);
  printf("{\"k\":\"%s\",\"g1c\":\"%s\",\"g1u\":\"%s\",\"g2c\":\"%s\",\"g2u\":\"%s\"}\n", kh, h1c,
         h1u, h2c, h2u);
}

static void print_pairing_line(const cuzk_fr *a, const cuzk_fr *b) {
  cuzk_g1 g1, p1;
  cuzk_g2 g2, p2;
  cuzk_g1_affine a1;
  cuzk_g2_affine a2;
  cuzk_g1_generator(&g1);
  cuzk_g2_generator(&g2);
  cuzk_g1_mul(&p1, &g1, a);
  cuzk_g2_mul(&p2, &g2, b);
  cuzk_g1_to_affine(&a1, &p1);
  cuzk_g2_to_affine(&a2, &p2);

  cuzk_fp12 e;
  cuzk_pairing(&e, &a1, &a2);
  uint8_t eb[576];
  cuzk_fp12_to_bytes(eb, &e);

  char ah[65], bh[65], eh[2 * sizeof eb + 1];
  fr_hex(ah, a);
  fr_hex(bh, b);
  to_hex(eh, eb, sizeof eb);
  printf("{\"a\":\"%s\",\"b\":\"%s\",\"eab\":\"%s\"}\n", ah, bh, eh);
  pairings_printed++;
}

static int parse_u64(const char *s, uint64_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 0);
  if (errno || end == s || *end || *s == '-') return -1;
  *out = (uint64_t)v;
  return 0;
}

int main(int argc, char **argv) {
  uint64_t seed, n;
  if (argc != 3 || parse_u64(argv[1], &seed) || parse_u64(argv[2], &n) || n > 1000000) {
    fprintf(stderr, "usage: %s SEED N   (N random scalars, at most 1000000)\n", argv[0]);
    return 2;
  }
  rng_state = seed;

  /* Edge scalars first: 0 (both infinity encodings), 1 and 2 (the generator itself and one
   * doubling), r - 1 (-G: the same x as G, so only the sign bit tells them apart). */
  cuzk_fr edges[4];
  cuzk_fr_from_u64(&edges[0], 0);
  cuzk_fr_from_u64(&edges[1], 1);
  cuzk_fr_from_u64(&edges[2], 2);
  cuzk_fr_neg(&edges[3], &cuzk_fr_one);
  unsigned long scalars = 0;
  for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++, scalars++)
    print_scalar_line(&edges[i]);
  for (uint64_t i = 0; i < n; i++, scalars++) {
    cuzk_fr k;
    random_fr(&k);
    print_scalar_line(&k);
  }

  /* e(G1, G2) itself pins the GT convention (final exponentiation, tower layout) directly. */
  print_pairing_line(&cuzk_fr_one, &cuzk_fr_one);
  /* The point at infinity on either side contributes 1 (pairing.h). */
  print_pairing_line(&cuzk_fr_zero, &cuzk_fr_one);
  print_pairing_line(&cuzk_fr_one, &cuzk_fr_zero);
  for (int i = 0; i < XCHECK_PAIRINGS; i++) {
    cuzk_fr a, b;
    random_fr(&a);
    random_fr(&b);
    print_pairing_line(&a, &b);
  }
  printf("{\"done\":true,\"scalars\":%lu,\"pairings\":%lu}\n", scalars, pairings_printed);
  return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
