/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* G2 = the order-r subgroup of E'(Fp2): y^2 = x^3 + 4(u+1). Group law and codec from the shared
 * templates; the subgroup test uses the untwist-Frobenius-twist endomorphism psi. */
#include <string.h>

#include "cuzk/curve/curve.h"
#include "field/consts.h"
#include "field/fp_inline.h"
#include "field/limbs.h"

/* An Fp2 coordinate is written c1 first, then c0 (docs/spec/groth16.md §1.5). */
static bool fp2_read(cuzk_fp2 *r, const uint8_t in[96]) {
  return cuzk_fp_from_bytes(&r->c1, in) && cuzk_fp_from_bytes(&r->c0, in + 48);
}
static void fp2_write(uint8_t out[96], const cuzk_fp2 *a) {
  cuzk_fp_to_bytes(out, &a->c1);
  cuzk_fp_to_bytes(out + 48, &a->c0);
}

#define EC(x) cuzk_g2_##x
#define EC_JAC cuzk_g2
#define EC_AFF cuzk_g2_affine
#define F(x) cuzk_fp2_##x
#define F_T cuzk_fp2
#define EC_B (&CUZK_G2_B)
#define EC_GEN_X (&CUZK_G2_GEN_X)
#define EC_GEN_Y (&CUZK_G2_GEN_Y)
#define EC_FBYTES 96
#define EC_FREAD fp2_read
#define EC_FWRITE fp2_write
#define EC_FSGN cuzk_fp2_sgn
#include "curve/ec_codec.inc"
#include "curve/ec_ops.inc"

/* psi(X, Y, Z) = (conj(X) cx, conj(Y) cy, conj(Z)): conjugation is the p-power Frobenius, a ring
 * map, so applying it to Jacobian coordinates commutes with the division by Z^2, Z^3. */
static void psi(cuzk_g2 *r, const cuzk_g2 *p) {
  cuzk_fp2_conj(&r->x, &p->x);
  cuzk_fp2_mul(&r->x, &r->x, &CUZK_G2_PSI_CX);
  cuzk_fp2_conj(&r->y, &p->y);
  cuzk_fp2_mul(&r->y, &r->y, &CUZK_G2_PSI_CY);
  cuzk_fp2_conj(&r->z, &p->z);
}

/* A point on E' lies in G2 iff psi(P) = [z] P = -[|z|] P (Scott 2021; blst). */
bool cuzk_g2_is_in_subgroup(const cuzk_g2 *p) {
  if (cuzk_g2_is_infinity(p)) return true;
  cuzk_g2 q, s;
  cuzk_g2_mul_by_z_abs(&q, p);
  cuzk_g2_neg(&q, &q);
  psi(&s, p);
  return cuzk_g2_eq(&s, &q);
}

bool cuzk_g2_affine_is_in_subgroup(const cuzk_g2_affine *a) {
  cuzk_g2 p;
  cuzk_g2_from_affine(&p, a);
  return cuzk_g2_is_in_subgroup(&p);
}
