/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Fp6 = Fp2[v]/(v^3 - xi), xi = u + 1. Counts in Fp2 multiplications (m) and squarings (s). */
#include "cuzk/field/field.h"
#include "field/consts.h"
#include "field/fp_inline.h"

void cuzk_fp6_add(cuzk_fp6 *r, const cuzk_fp6 *a, const cuzk_fp6 *b) {
  cuzk_fp2_add_i(&r->c0, &a->c0, &b->c0);
  cuzk_fp2_add_i(&r->c1, &a->c1, &b->c1);
  cuzk_fp2_add_i(&r->c2, &a->c2, &b->c2);
}

void cuzk_fp6_sub(cuzk_fp6 *r, const cuzk_fp6 *a, const cuzk_fp6 *b) {
  cuzk_fp2_sub_i(&r->c0, &a->c0, &b->c0);
  cuzk_fp2_sub_i(&r->c1, &a->c1, &b->c1);
  cuzk_fp2_sub_i(&r->c2, &a->c2, &b->c2);
}

void cuzk_fp6_neg(cuzk_fp6 *r, const cuzk_fp6 *a) {
  cuzk_fp2_neg_i(&r->c0, &a->c0);
  cuzk_fp2_neg_i(&r->c1, &a->c1);
  cuzk_fp2_neg_i(&r->c2, &a->c2);
}

/*
 * Karatsuba over three coefficients, 6m (Devegili, O hEigeartaigh, Scott, Dahab 2006):
 *   c0 = a0b0 + xi((a1+a2)(b1+b2) - a1b1 - a2b2)
 *   c1 = (a0+a1)(b0+b1) - a0b0 - a1b1 + xi a2b2
 *   c2 = (a0+a2)(b0+b2) - a0b0 - a2b2 + a1b1
 */
void cuzk_fp6_mul(cuzk_fp6 *r, const cuzk_fp6 *a, const cuzk_fp6 *b) {
  cuzk_fp2 t0, t1, t2, x, y, c0, c1, c2;
  cuzk_fp2_mul_i(&t0, &a->c0, &b->c0);
  cuzk_fp2_mul_i(&t1, &a->c1, &b->c1);
  cuzk_fp2_mul_i(&t2, &a->c2, &b->c2);

  cuzk_fp2_add_i(&x, &a->c1, &a->c2);
  cuzk_fp2_add_i(&y, &b->c1, &b->c2);
  cuzk_fp2_mul_i(&c0, &x, &y);
  cuzk_fp2_sub_i(&c0, &c0, &t1);
  cuzk_fp2_sub_i(&c0, &c0, &t2);
  cuzk_fp2_mul_nonres_i(&c0, &c0);
  cuzk_fp2_add_i(&c0, &c0, &t0);

  cuzk_fp2_add_i(&x, &a->c0, &a->c1);
  cuzk_fp2_add_i(&y, &b->c0, &b->c1);
  cuzk_fp2_mul_i(&c1, &x, &y);
  cuzk_fp2_sub_i(&c1, &c1, &t0);
  cuzk_fp2_sub_i(&c1, &c1, &t1);
  cuzk_fp2_mul_nonres_i(&x, &t2);
  cuzk_fp2_add_i(&c1, &c1, &x);

  cuzk_fp2_add_i(&x, &a->c0, &a->c2);
  cuzk_fp2_add_i(&y, &b->c0, &b->c2);
  cuzk_fp2_mul_i(&c2, &x, &y);
  cuzk_fp2_sub_i(&c2, &c2, &t0);
  cuzk_fp2_sub_i(&c2, &c2, &t2);
  cuzk_fp2_add_i(&c2, &c2, &t1);

  r->c0 = c0;
  r->c1 = c1;
  r->c2 = c2;
}

/*
 * Chung-Hasan SQR2, 2m + 3s: s0 = a0^2, s1 = 2a0a1, s2 = (a0 - a1 + a2)^2, s3 = 2a1a2, s4 = a2^2;
 * c0 = s0 + xi s3, c1 = s1 + xi s4, c2 = s1 + s2 + s3 - s0 - s4.
 */
void cuzk_fp6_sqr(cuzk_fp6 *r, const cuzk_fp6 *a) {
  cuzk_fp2 s0, s1, s2, s3, s4, t;
  cuzk_fp2_sqr_i(&s0, &a->c0);
  cuzk_fp2_mul_i(&s1, &a->c0, &a->c1);
  cuzk_fp2_dbl_i(&s1, &s1);
  cuzk_fp2_sub_i(&t, &a->c0, &a->c1);
  cuzk_fp2_add_i(&t, &t, &a->c2);
  cuzk_fp2_sqr_i(&s2, &t);
  cuzk_fp2_mul_i(&s3, &a->c1, &a->c2);
  cuzk_fp2_dbl_i(&s3, &s3);
  cuzk_fp2_sqr_i(&s4, &a->c2);

  cuzk_fp2_add_i(&r->c2, &s1, &s2);
  cuzk_fp2_add_i(&r->c2, &r->c2, &s3);
  cuzk_fp2_sub_i(&r->c2, &r->c2, &s0);
  cuzk_fp2_sub_i(&r->c2, &r->c2, &s4);
  cuzk_fp2_mul_nonres_i(&t, &s3);
  cuzk_fp2_add_i(&r->c0, &s0, &t);
  cuzk_fp2_mul_nonres_i(&t, &s4);
  cuzk_fp2_add_i(&r->c1, &s1, &t);
}

/* (c0 + c1 v + c2 v^2) v = xi c2 + c0 v + c1 v^2. */
void cuzk_fp6_mul_nonres(cuzk_fp6 *r, const cuzk_fp6 *a) {
  cuzk_fp2 t;
  cuzk_fp2_mul_nonres_i(&t, &a->c2);
  r->c2 = a->c1;
  r->c1 = a->c0;
  r->c0 = t;
}

/* a (b0 + b1 v), 5m: the Karatsuba product above with b2 = 0. */
void cuzk_fp6_mul_01(cuzk_fp6 *r, const cuzk_fp6 *a, const cuzk_fp2 *b0, const cuzk_fp2 *b1) {
  cuzk_fp2 t0, t1, x, y, c0, c1, c2;
  cuzk_fp2_mul_i(&t0, &a->c0, b0);
  cuzk_fp2_mul_i(&t1, &a->c1, b1);

  cuzk_fp2_add_i(&x, &a->c1, &a->c2);
  cuzk_fp2_mul_i(&c0, &x, b1);
  cuzk_fp2_sub_i(&c0, &c0, &t1);
  cuzk_fp2_mul_nonres_i(&c0, &c0);
  cuzk_fp2_add_i(&c0, &c0, &t0);

  cuzk_fp2_add_i(&x, &a->c0, &a->c1);
  cuzk_fp2_add_i(&y, b0, b1);
  cuzk_fp2_mul_i(&c1, &x, &y);
  cuzk_fp2_sub_i(&c1, &c1, &t0);
  cuzk_fp2_sub_i(&c1, &c1, &t1);

  cuzk_fp2_add_i(&x, &a->c0, &a->c2);
  cuzk_fp2_mul_i(&c2, &x, b0);
  cuzk_fp2_sub_i(&c2, &c2, &t0);
  cuzk_fp2_add_i(&c2, &c2, &t1);

  r->c0 = c0;
  r->c1 = c1;
  r->c2 = c2;
}

/* a (b1 v) = xi a2 b1 + a0 b1 v + a1 b1 v^2, 3m. */
void cuzk_fp6_mul_1(cuzk_fp6 *r, const cuzk_fp6 *a, const cuzk_fp2 *b1) {
  cuzk_fp2 c0, c1, c2;
  cuzk_fp2_mul_i(&c0, &a->c2, b1);
  cuzk_fp2_mul_nonres_i(&c0, &c0);
  cuzk_fp2_mul_i(&c1, &a->c0, b1);
  cuzk_fp2_mul_i(&c2, &a->c1, b1);
  r->c0 = c0;
  r->c1 = c1;
  r->c2 = c2;
}

/*
 * Inverse through the adjugate: t0 = a0^2 - xi a1a2, t1 = xi a2^2 - a0a1, t2 = a1^2 - a0a2,
 * N = a0t0 + xi(a2t1 + a1t2) in Fp2; a^-1 = (t0 + t1 v + t2 v^2) / N.
 */
bool cuzk_fp6_inv(cuzk_fp6 *r, const cuzk_fp6 *a) {
  cuzk_fp2 t0, t1, t2, x, n;
  cuzk_fp2_sqr_i(&t0, &a->c0);
  cuzk_fp2_mul_i(&x, &a->c1, &a->c2);
  cuzk_fp2_mul_nonres_i(&x, &x);
  cuzk_fp2_sub_i(&t0, &t0, &x);

  cuzk_fp2_sqr_i(&t1, &a->c2);
  cuzk_fp2_mul_nonres_i(&t1, &t1);
  cuzk_fp2_mul_i(&x, &a->c0, &a->c1);
  cuzk_fp2_sub_i(&t1, &t1, &x);

  cuzk_fp2_sqr_i(&t2, &a->c1);
  cuzk_fp2_mul_i(&x, &a->c0, &a->c2);
  cuzk_fp2_sub_i(&t2, &t2, &x);

  cuzk_fp2_mul_i(&n, &a->c2, &t1);
  cuzk_fp2_mul_i(&x, &a->c1, &t2);
  cuzk_fp2_add_i(&n, &n, &x);
  cuzk_fp2_mul_nonres_i(&n, &n);
  cuzk_fp2_mul_i(&x, &a->c0, &t0);
  cuzk_fp2_add_i(&n, &n, &x);
  if (!cuzk_fp2_inv(&n, &n)) {
    *r = cuzk_fp6_zero;
    return false;
  }
  cuzk_fp2_mul_i(&r->c0, &t0, &n);
  cuzk_fp2_mul_i(&r->c1, &t1, &n);
  cuzk_fp2_mul_i(&r->c2, &t2, &n);
  return true;
}

/* (c0 + c1 v + c2 v^2)^(p^k) = c0' + c1' gamma1 v + c2' gamma2 v^2, with c' = c^(p^k) in Fp2
 * (conjugation for odd k) and gamma_j = xi^(j(p^k - 1)/3). */
void cuzk_fp6_frobenius(cuzk_fp6 *r, const cuzk_fp6 *a, unsigned k) {
  cuzk_fp2 c0 = a->c0, c1 = a->c1, c2 = a->c2;
  if (k & 1) {
    cuzk_fp2_conj(&c0, &c0);
    cuzk_fp2_conj(&c1, &c1);
    cuzk_fp2_conj(&c2, &c2);
  }
  cuzk_fp2_mul_i(&r->c1, &c1, &CUZK_FROB6_C1[k - 1]);
  cuzk_fp2_mul_i(&r->c2, &c2, &CUZK_FROB6_C2[k - 1]);
  r->c0 = c0;
}

bool cuzk_fp6_eq(const cuzk_fp6 *a, const cuzk_fp6 *b) {
  return cuzk_fp2_eq(&a->c0, &b->c0) && cuzk_fp2_eq(&a->c1, &b->c1) && cuzk_fp2_eq(&a->c2, &b->c2);
}
bool cuzk_fp6_is_zero(const cuzk_fp6 *a) {
  return cuzk_fp2_is_zero(&a->c0) && cuzk_fp2_is_zero(&a->c1) && cuzk_fp2_is_zero(&a->c2);
}
