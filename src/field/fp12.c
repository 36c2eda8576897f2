/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Fp12 = Fp6[w]/(w^2 - v), the target group's field. */
#include "cuzk/field/field.h"
#include "field/consts.h"
#include "field/fp_inline.h"

void cuzk_fp12_add(cuzk_fp12 *r, const cuzk_fp12 *a, const cuzk_fp12 *b) {
  cuzk_fp6_add(&r->c0, &a->c0, &b->c0);
  cuzk_fp6_add(&r->c1, &a->c1, &b->c1);
}

void cuzk_fp12_sub(cuzk_fp12 *r, const cuzk_fp12 *a, const cuzk_fp12 *b) {
  cuzk_fp6_sub(&r->c0, &a->c0, &b->c0);
  cuzk_fp6_sub(&r->c1, &a->c1, &b->c1);
}

/* Karatsuba, 3 Fp6 products: c0 = a0b0 + v a1b1, c1 = (a0+a1)(b0+b1) - a0b0 - a1b1. */
void cuzk_fp12_mul(cuzk_fp12 *r, const cuzk_fp12 *a, const cuzk_fp12 *b) {
  cuzk_fp6 t0, t1, x, y;
  cuzk_fp6_mul(&t0, &a->c0, &b->c0);
  cuzk_fp6_mul(&t1, &a->c1, &b->c1);
  cuzk_fp6_add(&x, &a->c0, &a->c1);
  cuzk_fp6_add(&y, &b->c0, &b->c1);
  cuzk_fp6_mul(&r->c1, &x, &y);
  cuzk_fp6_sub(&r->c1, &r->c1, &t0);
  cuzk_fp6_sub(&r->c1, &r->c1, &t1);
  cuzk_fp6_mul_nonres(&t1, &t1);
  cuzk_fp6_add(&r->c0, &t0, &t1);
}

/* Complex-method squaring, 2 Fp6 products: with t = a0a1,
 * c0 = (a0 + a1)(a0 + v a1) - t - v t, c1 = 2t. */
void cuzk_fp12_sqr(cuzk_fp12 *r, const cuzk_fp12 *a) {
  cuzk_fp6 t, x, y;
  cuzk_fp6_mul(&t, &a->c0, &a->c1);
  cuzk_fp6_add(&x, &a->c0, &a->c1);
  cuzk_fp6_mul_nonres(&y, &a->c1);
  cuzk_fp6_add(&y, &y, &a->c0);
  cuzk_fp6_mul(&x, &x, &y);
  cuzk_fp6_sub(&x, &x, &t);
  cuzk_fp6_mul_nonres(&y, &t);
  cuzk_fp6_sub(&r->c0, &x, &y);
  cuzk_fp6_add(&r->c1, &t, &t);
}

/* a * (B0 + B1 w) with B0 = c0 + c1 v and B1 = c4 v: 13 Fp2 products instead of 18. */
void cuzk_fp12_mul_014(cuzk_fp12 *r, const cuzk_fp12 *a, const cuzk_fp2 *c0, const cuzk_fp2 *c1,
                       const cuzk_fp2 *c4) {
  cuzk_fp6 t0, t1, s;
  cuzk_fp2 b1;
  cuzk_fp6_mul_01(&t0, &a->c0, c0, c1);
  cuzk_fp6_mul_1(&t1, &a->c1, c4);
  cuzk_fp2_add_i(&b1, c1, c4);
  cuzk_fp6_add(&s, &a->c0, &a->c1);
  cuzk_fp6_mul_01(&r->c1, &s, c0, &b1);
  cuzk_fp6_sub(&r->c1, &r->c1, &t0);
  cuzk_fp6_sub(&r->c1, &r->c1, &t1);
  cuzk_fp6_mul_nonres(&t1, &t1);
  cuzk_fp6_add(&r->c0, &t0, &t1);
}

/* 1/(a0 + a1 w) = (a0 - a1 w) / (a0^2 - v a1^2). */
bool cuzk_fp12_inv(cuzk_fp12 *r, const cuzk_fp12 *a) {
  cuzk_fp6 t0, t1;
  cuzk_fp6_sqr(&t0, &a->c0);
  cuzk_fp6_sqr(&t1, &a->c1);
  cuzk_fp6_mul_nonres(&t1, &t1);
  cuzk_fp6_sub(&t0, &t0, &t1);
  if (!cuzk_fp6_inv(&t0, &t0)) {
    *r = (cuzk_fp12){cuzk_fp6_zero, cuzk_fp6_zero};
    return false;
  }
  cuzk_fp6_mul(&r->c0, &a->c0, &t0);
  cuzk_fp6_mul(&r->c1, &a->c1, &t0);
  cuzk_fp6_neg(&r->c1, &r->c1);
  return true;
}

void cuzk_fp12_conj(cuzk_fp12 *r, const cuzk_fp12 *a) {
  r->c0 = a->c0;
  cuzk_fp6_neg(&r->c1, &a->c1);
}

/* w^(p^k) = w xi^((p^k - 1)/6): Frobenius on both Fp6 halves, then scale c1 by that Fp2. */
void cuzk_fp12_frobenius(cuzk_fp12 *r, const cuzk_fp12 *a, unsigned k) {
  const cuzk_fp2 *g = &CUZK_FROB12[k - 1];
  cuzk_fp6_frobenius(&r->c0, &a->c0, k);
  cuzk_fp6_frobenius(&r->c1, &a->c1, k);
  cuzk_fp2_mul_i(&r->c1.c0, &r->c1.c0, g);
  cuzk_fp2_mul_i(&r->c1.c1, &r->c1.c1, g);
  cuzk_fp2_mul_i(&r->c1.c2, &r->c1.c2, g);
}

/* Squares in Fp4 = Fp2[s]/(s^2 - xi): (a + b s)^2 = (a^2 + xi b^2) + ((a+b)^2 - a^2 - b^2) s. */
static void fp4_sqr(cuzk_fp2 *c0, cuzk_fp2 *c1, const cuzk_fp2 *a, const cuzk_fp2 *b) {
  cuzk_fp2 t0, t1, t2;
  cuzk_fp2_sqr_i(&t0, a);
  cuzk_fp2_sqr_i(&t1, b);
  cuzk_fp2_mul_nonres_i(&t2, &t1);
  cuzk_fp2_add_i(c0, &t2, &t0);
  cuzk_fp2_add_i(&t2, a, b);
  cuzk_fp2_sqr_i(&t2, &t2);
  cuzk_fp2_sub_i(&t2, &t2, &t0);
  cuzk_fp2_sub_i(c1, &t2, &t1);
}

/* r = 3t - 2z (minus = true) or 3t + 2z: the Granger-Scott recombination. */
static void gs_combine(cuzk_fp2 *z, const cuzk_fp2 *t, bool minus) {
  cuzk_fp2 x;
  if (minus)
    cuzk_fp2_sub_i(&x, t, z);
  else
    cuzk_fp2_add_i(&x, t, z);
  cuzk_fp2_dbl_i(&x, &x);
  cuzk_fp2_add_i(z, &x, t);
}

/*
 * Granger-Scott (2010) squaring in the cyclotomic subgroup, 9 Fp2 squarings: viewing Fp12 as
 * Fp4^3, the pairs (g0, g4'), (g3, g2'), (g1, g5') below are each squared in Fp4 and recombined.
 */
void cuzk_fp12_cyclotomic_sqr(cuzk_fp12 *r, const cuzk_fp12 *a) {
  cuzk_fp2 z0 = a->c0.c0, z4 = a->c0.c1, z3 = a->c0.c2;
  cuzk_fp2 z2 = a->c1.c0, z1 = a->c1.c1, z5 = a->c1.c2;
  cuzk_fp2 t0, t1, t2, t3;

  fp4_sqr(&t0, &t1, &z0, &z1);
  gs_combine(&z0, &t0, true);
  gs_combine(&z1, &t1, false);

  fp4_sqr(&t0, &t1, &z2, &z3);
  fp4_sqr(&t2, &t3, &z4, &z5);
  gs_combine(&z4, &t0, true);
  gs_combine(&z5, &t1, false);
  cuzk_fp2_mul_nonres_i(&t0, &t3);
  gs_combine(&z2, &t0, false);
  gs_combine(&z3, &t2, true);

  r->c0.c0 = z0;
  r->c0.c1 = z4;
  r->c0.c2 = z3;
  r->c1.c0 = z2;
  r->c1.c1 = z1;
  r->c1.c2 = z5;
}

bool cuzk_fp12_eq(const cuzk_fp12 *a, const cuzk_fp12 *b) {
  return cuzk_fp6_eq(&a->c0, &b->c0) && cuzk_fp6_eq(&a->c1, &b->c1);
}

bool cuzk_fp12_is_one(const cuzk_fp12 *a) { return cuzk_fp12_eq(a, &cuzk_fp12_one); }

void cuzk_fp12_to_bytes(uint8_t out[576], const cuzk_fp12 *a) {
  const cuzk_fp6 *h[2] = {&a->c0, &a->c1};
  for (int i = 0; i < 2; i++) {
    const cuzk_fp2 *c[3] = {&h[i]->c0, &h[i]->c1, &h[i]->c2};
    for (int j = 0; j < 3; j++) {
      cuzk_fp_to_bytes(out + (i * 6 + j * 2) * 48, &c[j]->c0);
      cuzk_fp_to_bytes(out + (i * 6 + j * 2 + 1) * 48, &c[j]->c1);
    }
  }
}
