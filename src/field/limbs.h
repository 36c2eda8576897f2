/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Multi-limb helpers shared by Fp (6 limbs) and Fr (4 limbs). Written once for n limbs; callers
 * pass a constant n, so after inlining the loops unroll into straight-line carry chains.
 */
#ifndef CUZK_FIELD_LIMBS_H
#define CUZK_FIELD_LIMBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef unsigned __int128 cuzk_u128;

/*
 * Carry-chain primitives. On x86-64 the ADC/SBB intrinsics let gcc and clang emit straight carry
 * chains; the unsigned __int128 formulation elsewhere is correct but compiles to ~3x the code.
 */
#if defined(__x86_64__)
#include <x86intrin.h>
static inline uint8_t limb_addc(uint8_t c, uint64_t a, uint64_t b, uint64_t *out) {
  unsigned long long o;
  c = _addcarry_u64(c, a, b, &o);
  *out = o;
  return c;
}
static inline uint8_t limb_subb(uint8_t c, uint64_t a, uint64_t b, uint64_t *out) {
  unsigned long long o;
  c = _subborrow_u64(c, a, b, &o);
  *out = o;
  return c;
}
#else
static inline uint8_t limb_addc(uint8_t c, uint64_t a, uint64_t b, uint64_t *out) {
  cuzk_u128 v = (cuzk_u128)a + b + c;
  *out = (uint64_t)v;
  return (uint8_t)(v >> 64);
}
static inline uint8_t limb_subb(uint8_t c, uint64_t a, uint64_t b, uint64_t *out) {
  cuzk_u128 v = (cuzk_u128)a - b - c;
  *out = (uint64_t)v;
  return (uint8_t)((v >> 64) & 1);
}
#endif

/*
 * c ? x : y without a branch. Compilers turn a plain ternary into a conditional jump for some limb
 * counts (gcc 12 does for 4 limbs), which mispredicts half the time on random field elements
 * (11 ns instead of 2 per Fr addition); cmov in inline assembly cannot be turned into a jump.
 */
static inline uint64_t limb_select(uint64_t c, uint64_t x, uint64_t y) {
#if defined(__x86_64__)
  __asm__("test %[c], %[c]\n\tcmovz %[y], %[x]" : [x] "+r"(x) : [c] "r"(c), [y] "r"(y) : "cc");
  return x;
#else
  uint64_t mask = 0 - (uint64_t)(c != 0);
  return (x & mask) | (y & ~mask);
#endif
}

/* r = a + b mod m, for a, b < m and m < 2^(64n-1) (both moduli leave a spare top bit, so the
 * sum never carries out of the top limb). */
static inline void limbs_add_mod(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                 const uint64_t *m, size_t n) {
  uint64_t s[8], t[8];
  uint8_t c = 0;
  for (size_t i = 0; i < n; i++)
    c = limb_addc(c, a[i], b[i], &s[i]);
  c = 0;
  for (size_t i = 0; i < n; i++)
    c = limb_subb(c, s[i], m[i], &t[i]);
  /* s < m: keep s. (A mask-and-or select here gets vectorized by gcc through stack spills.) */
  for (size_t i = 0; i < n; i++)
    r[i] = limb_select(c, s[i], t[i]);
}

/* r = a - b mod m, for a, b < m. The masked modulus is formed before the second carry chain (with
 * the AND inside it gcc 12 emits extra setb/add instructions; within noise on G1 MSM 2^18). */
static inline void limbs_sub_mod(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                 const uint64_t *m, size_t n) {
  uint64_t d[8], mm[8];
  uint8_t c = 0;
#pragma GCC unroll 8
  for (size_t i = 0; i < n; i++)
    c = limb_subb(c, a[i], b[i], &d[i]);
  uint64_t mask = 0 - (uint64_t)c; /* add m back if a < b */
#pragma GCC unroll 8
  for (size_t i = 0; i < n; i++)
    mm[i] = m[i] & mask;
  c = 0;
#pragma GCC unroll 8
  for (size_t i = 0; i < n; i++)
    c = limb_addc(c, d[i], mm[i], &r[i]);
}

/* r = -a mod m (0 stays 0). */
static inline void limbs_neg_mod(uint64_t *r, const uint64_t *a, const uint64_t *m, size_t n) {
  uint64_t nz = 0;
  for (size_t i = 0; i < n; i++)
    nz |= a[i];
  uint64_t mask = 0 - (uint64_t)(nz != 0);
  uint8_t c = 0;
  for (size_t i = 0; i < n; i++)
    c = limb_subb(c, m[i] & mask, a[i], &r[i]);
}

static inline bool limbs_eq(const uint64_t *a, const uint64_t *b, size_t n) {
  uint64_t d = 0;
  for (size_t i = 0; i < n; i++)
    d |= a[i] ^ b[i];
  return d == 0;
}

static inline bool limbs_is_zero(const uint64_t *a, size_t n) {
  uint64_t d = 0;
  for (size_t i = 0; i < n; i++)
    d |= a[i];
  return d == 0;
}

/* a < b as plain integers. */
static inline bool limbs_lt(const uint64_t *a, const uint64_t *b, size_t n) {
  uint64_t d;
  uint8_t c = 0;
  for (size_t i = 0; i < n; i++)
    c = limb_subb(c, a[i], b[i], &d);
  return c != 0;
}

/*
 * Montgomery product r = a*b*2^(-64n) mod m by CIOS (Koc, Acar, Kaliski 1996): interleave one row
 * of the product with one reduction step so the accumulator stays n+1 limbs. With m below
 * 2^(64n-1), each row's total stays below 2m * 2^64, so t[n] absorbs every carry and the result
 * before the final subtraction is < 2m. Loops carry unroll pragmas: called with constant n, they
 * become straight-line code.
 */
static inline void limbs_mont_mul(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                  const uint64_t *m, uint64_t n0, size_t n) {
  uint64_t t[9] = {0};
#pragma GCC unroll 8
  for (size_t i = 0; i < n; i++) {
    uint64_t c = 0;
    cuzk_u128 v;
#pragma GCC unroll 8
    for (size_t j = 0; j < n; j++) {
      v = (cuzk_u128)a[j] * b[i] + t[j] + c;
      t[j] = (uint64_t)v;
      c = (uint64_t)(v >> 64);
    }
    t[n] += c;

    uint64_t q = t[0] * n0;
    v = (cuzk_u128)q * m[0] + t[0];
    c = (uint64_t)(v >> 64);
#pragma GCC unroll 8
    for (size_t j = 1; j < n; j++) {
      v = (cuzk_u128)q * m[j] + t[j] + c;
      t[j - 1] = (uint64_t)v;
      c = (uint64_t)(v >> 64);
    }
    t[n - 1] = t[n] + c;
    t[n] = 0;
  }
  uint64_t d[8];
  uint8_t borrow = 0;
#pragma GCC unroll 8
  for (size_t i = 0; i < n; i++)
    borrow = limb_subb(borrow, t[i], m[i], &d[i]);
    /* t < m: keep t */
#pragma GCC unroll 8
  for (size_t i = 0; i < n; i++)
    r[i] = limb_select(borrow, t[i], d[i]);
}

#endif
