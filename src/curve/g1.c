/* G1 = the order-r subgroup of E(Fp): y^2 = x^3 + 4. Group law and codec from the shared
 * templates; the subgroup test uses the GLV endomorphism. */
#include <string.h>

#include "cuzk/curve.h"
#include "field/consts.h"
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

bool cuzk_g1_affine_is_in_subgroup(const cuzk_g1_affine *a) {
  cuzk_g1 p;
  cuzk_g1_from_affine(&p, a);
  return cuzk_g1_is_in_subgroup(&p);
}
