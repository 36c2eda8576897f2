/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The SHA-256 compression function in portable C (FIPS 180-4 §6.2.2). The message schedule is a
 * rolling window of 16 words: W[t] only depends on W[t-16..t-1].
 */
#include "hashes/sha256_internal.h"

static inline uint32_t rotr(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

static inline uint32_t load_be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

void cuzk_sha256_blocks_portable(uint32_t state[8], const uint8_t *blocks, size_t n) {
  const uint32_t *k = cuzk_sha256_k;
  for (; n > 0; n--, blocks += 64) {
    uint32_t w[16];
    for (int i = 0; i < 16; i++)
      w[i] = load_be32(blocks + 4 * i);
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
#pragma GCC unroll 16
    for (int t = 0; t < 64; t++) {
      uint32_t wt;
      if (t < 16) {
        wt = w[t];
      } else {
        /* W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16], in place of W[t-16] */
        uint32_t w15 = w[(t - 15) & 15], w2 = w[(t - 2) & 15];
        uint32_t s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >> 3);
        uint32_t s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >> 10);
        wt = w[t & 15] = s1 + w[(t - 7) & 15] + s0 + w[t & 15];
      }
      uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + k[t] + wt;
      uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      h = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
  }
}
