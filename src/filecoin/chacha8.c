/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* ChaCha with 8 rounds (djb's original layout: 64-bit counter, 64-bit nonce) and the
 * rand_chacha 0.3 ChaCha8Rng stream the DRG sampler draws from (docs/spec/sdr-vanilla.md §5.2). */
#include <string.h>

#include "filecoin/graph.h"

static inline uint32_t rotl32(uint32_t x, unsigned r) { return (x << r) | (x >> (32 - r)); }

static inline uint32_t load32_le(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void store32_le(uint8_t *p, uint32_t x) {
  p[0] = (uint8_t)x;
  p[1] = (uint8_t)(x >> 8);
  p[2] = (uint8_t)(x >> 16);
  p[3] = (uint8_t)(x >> 24);
}

#define QR(a, b, c, d)     \
  do {                     \
    a += b;                \
    d = rotl32(d ^ a, 16); \
    c += d;                \
    b = rotl32(b ^ c, 12); \
    a += b;                \
    d = rotl32(d ^ a, 8);  \
    c += d;                \
    b = rotl32(b ^ c, 7);  \
  } while (0)

void cuzk_chacha8_block(uint8_t out[64], const uint8_t key[32], uint64_t counter, uint64_t nonce) {
  uint32_t in[16];
  in[0] = 0x61707865; /* "expand 32-byte k" */
  in[1] = 0x3320646e;
  in[2] = 0x79622d32;
  in[3] = 0x6b206574;
  for (int i = 0; i < 8; i++)
    in[4 + i] = load32_le(key + 4 * i);
  in[12] = (uint32_t)counter;
  in[13] = (uint32_t)(counter >> 32);
  in[14] = (uint32_t)nonce;
  in[15] = (uint32_t)(nonce >> 32);

  uint32_t x[16];
  memcpy(x, in, sizeof x);
  for (int r = 0; r < 8; r += 2) {
    QR(x[0], x[4], x[8], x[12]); /* column round */
    QR(x[1], x[5], x[9], x[13]);
    QR(x[2], x[6], x[10], x[14]);
    QR(x[3], x[7], x[11], x[15]);
    QR(x[0], x[5], x[10], x[15]); /* diagonal round */
    QR(x[1], x[6], x[11], x[12]);
    QR(x[2], x[7], x[8], x[13]);
    QR(x[3], x[4], x[9], x[14]);
  }
  for (int i = 0; i < 16; i++)
    store32_le(out + 4 * i, x[i] + in[i]);
}

void cuzk_chacha8_rng_init(cuzk_chacha8_rng *rng, const uint8_t seed[32]) {
  memcpy(rng->key, seed, 32);
  rng->counter = 0;
  rng->pos = 64;
}

uint64_t cuzk_chacha8_rng_next_u64(cuzk_chacha8_rng *rng) {
  if (rng->pos + 8 > 64) {
    /* pos is a multiple of 8 here (only u64 draws), so no partial word is left behind */
    cuzk_chacha8_block(rng->buf, rng->key, rng->counter++, 0);
    rng->pos = 0;
  }
  const uint8_t *p = rng->buf + rng->pos;
  rng->pos += 8;
  return (uint64_t)load32_le(p) | (uint64_t)load32_le(p + 4) << 32;
}
