/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * SHA-256 constants from their definition (FIPS 180-4 §4.2.2, §5.3.3): K[i] is the first 32 bits
 * of the fractional part of the cube root of the i-th prime (i = 0..63), H(0)[i] the same for the
 * square root of the first 8 primes. With 128-bit integers both are exact integer roots:
 * floor(cbrt(p) * 2^32) = floor(cbrt(p * 2^96)), floor(sqrt(p) * 2^32) = floor(sqrt(p * 2^64)),
 * and the low 32 bits of that are the fractional bits (the integer part is below 18).
 */
#include "hashes/sha256_internal.h"

#include <stdbool.h>

uint32_t cuzk_sha256_k[64];
uint32_t cuzk_sha256_h0[8];

typedef unsigned __int128 u128;

/* Largest x with x^k <= n, for k = 2 or 3 and n < 2^110 (so x < 2^37 and x^3 fits). */
static uint64_t iroot(u128 n, unsigned k) {
  uint64_t lo = 0, hi = (uint64_t)1 << 37;
  while (hi - lo > 1) {
    uint64_t mid = lo + (hi - lo) / 2;
    u128 p = (u128)mid * mid;
    if (k == 3) p *= mid;
    if (p <= n)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

static bool is_prime(unsigned n) {
  for (unsigned d = 2; d * d <= n; d++)
    if (n % d == 0) return false;
  return n >= 2;
}

void cuzk_sha256_consts_init(void) {
  unsigned i = 0;
  for (unsigned p = 2; i < 64; p++) {
    if (!is_prime(p)) continue;
    cuzk_sha256_k[i] = (uint32_t)iroot((u128)p << 96, 3);
    if (i < 8) cuzk_sha256_h0[i] = (uint32_t)iroot((u128)p << 64, 2);
    i++;
  }
}
