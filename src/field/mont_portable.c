/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Portable Montgomery kernels (C with unsigned __int128): the reference the assembly is tested
 * against, and the path on CPUs without BMI2/ADX. */
#include "field/consts.h"
#include "field/limbs.h"
#include "field/mont.h"

void cuzk_fp_mul_portable(uint64_t r[6], const uint64_t a[6], const uint64_t b[6]) {
  limbs_mont_mul(r, a, b, CUZK_P, CUZK_P_N0, 6);
}
void cuzk_fp_sqr_portable(uint64_t r[6], const uint64_t a[6]) {
  limbs_mont_mul(r, a, a, CUZK_P, CUZK_P_N0, 6);
}
void cuzk_fr_mul_portable(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) {
  limbs_mont_mul(r, a, b, CUZK_R, CUZK_R_N0, 4);
}
void cuzk_fr_sqr_portable(uint64_t r[4], const uint64_t a[4]) {
  limbs_mont_mul(r, a, a, CUZK_R, CUZK_R_N0, 4);
}

/* Fp2 = Fp[u]/(u^2 + 1), elements c0 then c1. Karatsuba, 3M:
 * (a0 + a1 u)(b0 + b1 u) = a0b0 - a1b1 + ((a0+a1)(b0+b1) - a0b0 - a1b1) u.
 * Every read of a and b comes before the first write of r, so r may alias them. */
void cuzk_fp2_mul_portable(uint64_t r[12], const uint64_t a[12], const uint64_t b[12]) {
  uint64_t t0[6], t1[6], sa[6], sb[6], m[6];
  limbs_add_mod(sa, a, a + 6, CUZK_P, 6);
  limbs_add_mod(sb, b, b + 6, CUZK_P, 6);
  cuzk_fp_mul_portable(t0, a, b);
  cuzk_fp_mul_portable(t1, a + 6, b + 6);
  cuzk_fp_mul_portable(m, sa, sb);
  limbs_sub_mod(m, m, t0, CUZK_P, 6);
  limbs_sub_mod(r + 6, m, t1, CUZK_P, 6);
  limbs_sub_mod(r, t0, t1, CUZK_P, 6);
}

/* Complex squaring, 2M: (a0 + a1 u)^2 = (a0+a1)(a0-a1) + 2 a0 a1 u. */
void cuzk_fp2_sqr_portable(uint64_t r[12], const uint64_t a[12]) {
  uint64_t s[6], d[6], m[6];
  limbs_add_mod(s, a, a + 6, CUZK_P, 6);
  limbs_sub_mod(d, a, a + 6, CUZK_P, 6);
  cuzk_fp_mul_portable(m, a, a + 6);
  cuzk_fp_mul_portable(r, s, d);
  limbs_add_mod(r + 6, m, m, CUZK_P, 6);
}
