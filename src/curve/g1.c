/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* G1 = the order-r subgroup of E(Fp): y^2 = x^3 + 4. Group law and codec from the shared
 * templates; the subgroup test uses the GLV endomorphism. */
#include <string.h>

#include "cuzk/curve/curve.h"
#include "field/consts.h"
#include "field/fp_inline.h"
#include "field/limbs.h"

#define EC(x) cuzk_g1_##x
#define EC_JAC cuzk_g1
#define EC_AFF cuzk_g1_affine
#define F(x) cuzk_fp_##x
#define F_T cuzk_fp
#define EC_B (&CUZK_G1_B)
#define EC_GEN_X (&CUZK_G1_GEN_X)
#define EC_GEN_Y (&CUZK_G1_GEN_Y)
#define EC_FBYTES 48
#define EC_FREAD cuzk_fp_from_bytes
#define EC_FWRITE cuzk_fp_to_bytes
#define EC_FSGN cuzk_fp_sgn
#define EC_CUSTOM_MUL
#include "curve/ec_codec.inc"
#include "curve/ec_ops.inc"

/*
 * Scott (2021): with sigma(x, y) = (beta x, y), beta a primitive cube root of unity, a point P on
 * E lies in G1 iff sigma(sigma(P)) = [-z^2] P. [-z^2] P = -[|z|]([|z|] P), two 64-bit
 * multiplications by a weight-6 scalar instead of one by the 255-bit r.
 */
bool cuzk_g1_is_in_subgroup(const cuzk_g1 *p) {
  if (cuzk_g1_is_infinity(p)) return true;
  cuzk_g1 q, s;
  cuzk_g1_mul_by_z_abs(&q, p);
  cuzk_g1_mul_by_z_abs(&q, &q);
  cuzk_g1_neg(&q, &q);
  s = *p; /* sigma^2 scales X by beta^2 (Z untouched: X/Z^2 scales the same way) */
  cuzk_fp_mul(&s.x, &s.x, &CUZK_G1_BETA);
  cuzk_fp_mul(&s.x, &s.x, &CUZK_G1_BETA);
  return cuzk_g1_eq(&s, &q);
}

/*
 * GLV scalar multiplication. sigma acts on G1 as multiplication by lambda = z^2 - 1 (its square,
 * -z^2, is the eigenvalue of sigma^2 in the subgroup test above), and r = lambda^2 + lambda + 1.
 * So k = k1 + k2 lambda with k2 = floor(k / lambda), k1 = k mod lambda, both below 2^128, and
 * k P = k1 P + k2 sigma(P): one 128-bit double-and-add pass over two interleaved wNAF digit
 * strings, half the doublings of the plain method. sigma of the table is free (x times beta).
 */
static const uint64_t GLV_LAMBDA[2] = {0x00000000ffffffffULL, 0xac45a4010001a402ULL};

/* k = k2 lambda + k1 by restoring division, one quotient bit per bit of the low half; the high
 * half k >> 128 starts as the remainder, already below lambda since k < r < 2^128 lambda. */
static void glv_split(uint64_t k1[2], uint64_t k2[2], const uint64_t k[4]) {
  cuzk_u128 lam = ((cuzk_u128)GLV_LAMBDA[1] << 64) | GLV_LAMBDA[0];
  cuzk_u128 rem = ((cuzk_u128)k[3] << 64) | k[2], lo = ((cuzk_u128)k[1] << 64) | k[0], q = 0;
  for (int i = 127; i >= 0; i--) {
    uint64_t top = (uint64_t)(rem >> 127); /* the bit shifted out: rem * 2 may exceed 2^128 */
    rem = (rem << 1) | (cuzk_u128)((lo >> i) & 1);
    q <<= 1;
    if (top || rem >= lam) {
      rem -= lam; /* wraps correctly when top is set: the true value is < 2 lambda */
      q |= 1;
    }
  }
  k1[0] = (uint64_t)rem;
  k1[1] = (uint64_t)(rem >> 64);
  k2[0] = (uint64_t)q;
  k2[1] = (uint64_t)(q >> 64);
}

void cuzk_g1_mul(cuzk_g1 *r, const cuzk_g1 *p, const cuzk_fr *s) {
  uint64_t k[4], k1[2], k2[2];
  int8_t d1[2 * 64 + 2], d2[2 * 64 + 2];
  cuzk_fr_to_canonical(k, s);
  glv_split(k1, k2, k);
  size_t n1 = cuzk_g1_wnaf_digits(d1, k1, 2), n2 = cuzk_g1_wnaf_digits(d2, k2, 2);
  size_t n = n1 > n2 ? n1 : n2;
  if (n == 0 || cuzk_g1_is_infinity(p)) {
    cuzk_g1_set_infinity(r);
    return;
  }
  cuzk_g1_affine t1[EC_WNAF_TABLE], t2[EC_WNAF_TABLE];
  cuzk_g1_wnaf_table(t1, p);
  for (size_t i = 0; i < EC_WNAF_TABLE; i++) {
    cuzk_fp_mul(&t2[i].x, &t1[i].x, &CUZK_G1_BETA);
    t2[i].y = t1[i].y;
  }
  cuzk_g1 acc;
  cuzk_g1_set_infinity(&acc);
  for (size_t i = n; i-- > 0;) {
    cuzk_g1_dbl(&acc, &acc);
    if (i < n1) cuzk_g1_wnaf_add(&acc, t1, d1[i]);
    if (i < n2) cuzk_g1_wnaf_add(&acc, t2, d2[i]);
  }
  *r = acc;
}

bool cuzk_g1_affine_is_in_subgroup(const cuzk_g1_affine *a) {
  cuzk_g1 p;
  cuzk_g1_from_affine(&p, a);
  return cuzk_g1_is_in_subgroup(&p);
}
