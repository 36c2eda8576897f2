/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Fp2 = Fp[u]/(u^2 + 1). Operation counts in Fp multiplications (M) and squarings (S). */
#include "cuzk/field/field.h"
#include "field/consts.h"
#include "field/mont.h"

#include <stddef.h>

void cuzk_fp2_add(cuzk_fp2 *r, const cuzk_fp2 *a, const cuzk_fp2 *b) {
  cuzk_fp_add(&r->c0, &a->c0, &b->c0);
  cuzk_fp_add(&r->c1, &a->c1, &b->c1);
}

void cuzk_fp2_sub(cuzk_fp2 *r, const cuzk_fp2 *a, const cuzk_fp2 *b) {
  cuzk_fp_sub(&r->c0, &a->c0, &b->c0);
  cuzk_fp_sub(&r->c1, &a->c1, &b->c1);
}

void cuzk_fp2_dbl(cuzk_fp2 *r, const cuzk_fp2 *a) {
  cuzk_fp_dbl(&r->c0, &a->c0);
  cuzk_fp_dbl(&r->c1, &a->c1);
}

void cuzk_fp2_neg(cuzk_fp2 *r, const cuzk_fp2 *a) {
  cuzk_fp_neg(&r->c0, &a->c0);
  cuzk_fp_neg(&r->c1, &a->c1);
}

void cuzk_fp2_conj(cuzk_fp2 *r, const cuzk_fp2 *a) {
  r->c0 = a->c0;
  cuzk_fp_neg(&r->c1, &a->c1);
}

/* Products go to the Fp2 kernels of cuzk_mont (mont.h): Karatsuba multiplication (3M) and
 * complex squaring (2M), with lazy reduction in the assembly. An Fp2 is c0 then c1, 12 limbs. */
_Static_assert(sizeof(cuzk_fp2) == 12 * sizeof(uint64_t) && offsetof(cuzk_fp2, c1) == 48,
               "cuzk_fp2 must be the 12 limbs the kernels take");

void cuzk_fp2_mul(cuzk_fp2 *r, const cuzk_fp2 *a, const cuzk_fp2 *b) {
  cuzk_mont.fp2_mul((uint64_t *)r, (const uint64_t *)a, (const uint64_t *)b);
}

void cuzk_fp2_sqr(cuzk_fp2 *r, const cuzk_fp2 *a) {
  cuzk_mont.fp2_sqr((uint64_t *)r, (const uint64_t *)a);
}

void cuzk_fp2_mul_fp(cuzk_fp2 *r, const cuzk_fp2 *a, const cuzk_fp *b) {
  cuzk_fp_mul(&r->c0, &a->c0, b);
  cuzk_fp_mul(&r->c1, &a->c1, b);
}

/* (a0 + a1 u)(1 + u) = (a0 - a1) + (a0 + a1) u. */
void cuzk_fp2_mul_nonres(cuzk_fp2 *r, const cuzk_fp2 *a) {
  cuzk_fp t;
  cuzk_fp_sub(&t, &a->c0, &a->c1);
  cuzk_fp_add(&r->c1, &a->c0, &a->c1);
  r->c0 = t;
}

void cuzk_fp2_pow(cuzk_fp2 *r, const cuzk_fp2 *a, const uint64_t *e, size_t nlimbs) {
  cuzk_fp2 acc = cuzk_fp2_one, base = *a;
  for (size_t i = nlimbs * 64; i-- > 0;) {
    cuzk_fp2_sqr(&acc, &acc);
    if ((e[i / 64] >> (i % 64)) & 1) cuzk_fp2_mul(&acc, &acc, &base);
  }
  *r = acc;
}

/* 1/(a0 + a1 u) = (a0 - a1 u) / (a0^2 + a1^2): one Fp inversion. */
bool cuzk_fp2_inv(cuzk_fp2 *r, const cuzk_fp2 *a) {
  cuzk_fp n, t;
  cuzk_fp_sqr(&n, &a->c0);
  cuzk_fp_sqr(&t, &a->c1);
  cuzk_fp_add(&n, &n, &t);
  if (!cuzk_fp_inv(&n, &n)) {
    *r = cuzk_fp2_zero;
    return false;
  }
  cuzk_fp_mul(&r->c0, &a->c0, &n);
  cuzk_fp_mul(&r->c1, &a->c1, &n);
  cuzk_fp_neg(&r->c1, &r->c1);
  return true;
}

/* Batch inversion through the norms: the 2n Fp of scratch hold the n norms and the Fp batch
 * inversion's own scratch. */
void cuzk_fp2_batch_inv(cuzk_fp2 *out, const cuzk_fp2 *in, size_t n, cuzk_fp2 *scratch) {
  cuzk_fp *norms = (cuzk_fp *)scratch, *tmp = norms + n;
  for (size_t i = 0; i < n; i++) {
    cuzk_fp t;
    cuzk_fp_sqr(&norms[i], &in[i].c0);
    cuzk_fp_sqr(&t, &in[i].c1);
    cuzk_fp_add(&norms[i], &norms[i], &t);
  }
  cuzk_fp_batch_inv(norms, norms, n, tmp);
  for (size_t i = 0; i < n; i++) {
    cuzk_fp_mul(&out[i].c0, &in[i].c0, &norms[i]);
    cuzk_fp_mul(&out[i].c1, &in[i].c1, &norms[i]);
    cuzk_fp_neg(&out[i].c1, &out[i].c1);
  }
}

/*
 * Square root through the norm (p = 3 mod 4): if x = x0 + x1 u squares to a, then
 * x0^2 = (a0 ± sqrt(a0^2 + a1^2)) / 2 and x1 = a1 / (2 x0). Costs up to three Fp exponentiations.
 */
bool cuzk_fp2_sqrt(cuzk_fp2 *r, const cuzk_fp2 *a) {
  if (cuzk_fp_is_zero(&a->c1)) {
    cuzk_fp s;
    if (cuzk_fp_sqrt(&s, &a->c0)) { /* a0 is a square in Fp */
      r->c0 = s;
      r->c1 = cuzk_fp_zero;
      return true;
    }
    cuzk_fp_neg(&s, &a->c0); /* else (sqrt(-a0) u)^2 = a0 */
    if (!cuzk_fp_sqrt(&r->c1, &s)) return false;
    r->c0 = cuzk_fp_zero;
    return true;
  }
  cuzk_fp n, t, x0, x1;
  cuzk_fp_sqr(&n, &a->c0);
  cuzk_fp_sqr(&t, &a->c1);
  cuzk_fp_add(&n, &n, &t);
  if (!cuzk_fp_sqrt(&n, &n)) return false; /* the norm of a square is a square */
  cuzk_fp_add(&t, &a->c0, &n);
  cuzk_fp_mul(&t, &t, &CUZK_FP_INV2);
  if (!cuzk_fp_sqrt(&x0, &t)) {
    cuzk_fp_sub(&t, &a->c0, &n);
    cuzk_fp_mul(&t, &t, &CUZK_FP_INV2);
    if (!cuzk_fp_sqrt(&x0, &t)) return false;
  }
  cuzk_fp_dbl(&x1, &x0);
  cuzk_fp_inv(&x1, &x1);
  cuzk_fp_mul(&x1, &x1, &a->c1);
  cuzk_fp2 x = {x0, x1}, chk;
  cuzk_fp2_sqr(&chk, &x);
  if (!cuzk_fp2_eq(&chk, a)) return false;
  *r = x;
  return true;
}

bool cuzk_fp2_eq(const cuzk_fp2 *a, const cuzk_fp2 *b) {
  return cuzk_fp_eq(&a->c0, &b->c0) && cuzk_fp_eq(&a->c1, &b->c1);
}
bool cuzk_fp2_is_zero(const cuzk_fp2 *a) {
  return cuzk_fp_is_zero(&a->c0) && cuzk_fp_is_zero(&a->c1);
}
bool cuzk_fp2_is_one(const cuzk_fp2 *a) {
  return cuzk_fp_is_one(&a->c0) && cuzk_fp_is_zero(&a->c1);
}
bool cuzk_fp2_sgn(const cuzk_fp2 *a) {
  return cuzk_fp_is_zero(&a->c1) ? cuzk_fp_sgn(&a->c0) : cuzk_fp_sgn(&a->c1);
}
