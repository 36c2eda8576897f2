/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Deterministic test randomness (splitmix64) and random field elements by rejection. */
#ifndef CUZK_TESTS_RNG_H
#define CUZK_TESTS_RNG_H

#include <stdint.h>

#include "cuzk/field/field.h"

static inline uint64_t rng_next(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static inline void rng_fp(uint64_t *s, cuzk_fp *r) {
  uint64_t x[6];
  do {
    for (int i = 0; i < 6; i++)
      x[i] = rng_next(s);
    x[5] &= 0x1fffffffffffffffULL; /* 381 bits: accept about 80% */
  } while (!cuzk_fp_from_canonical(r, x));
}

static inline void rng_fr(uint64_t *s, cuzk_fr *r) {
  uint64_t x[4];
  do {
    for (int i = 0; i < 4; i++)
      x[i] = rng_next(s);
    x[3] &= 0x7fffffffffffffffULL;
  } while (!cuzk_fr_from_canonical(r, x));
}

#endif
