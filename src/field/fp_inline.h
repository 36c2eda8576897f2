/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Inline Fp and Fp2 additions for the hot loops of higher layers (curve formulas, MSM buckets):
 * the same functions as cuzk_fp_add & co. in field.h, without the call. An addition is ~5 ns and a
 * call ~1-2 ns, so formulas with a dozen additions per point gain 5-10 %.
 */
#ifndef CUZK_FIELD_FP_INLINE_H
#define CUZK_FIELD_FP_INLINE_H

#include "cuzk/field/field.h"
#include "field/consts.h"
#include "field/limbs.h"
#include "field/mont.h"

/* Multiplications go straight to the kernel table, skipping the cuzk_fp_mul wrapper's call. */
static inline void cuzk_fp_mul_i(cuzk_fp *r, const cuzk_fp *a, const cuzk_fp *b) {
  cuzk_mont.fp_mul(r->l, a->l, b->l);
}
static inline void cuzk_fp_sqr_i(cuzk_fp *r, const cuzk_fp *a) { cuzk_mont.fp_sqr(r->l, a->l); }

static inline void cuzk_fp_add_i(cuzk_fp *r, const cuzk_fp *a, const cuzk_fp *b) {
  limbs_add_mod(r->l, a->l, b->l, CUZK_P, 6);
}
static inline void cuzk_fp_sub_i(cuzk_fp *r, const cuzk_fp *a, const cuzk_fp *b) {
  limbs_sub_mod(r->l, a->l, b->l, CUZK_P, 6);
}
static inline void cuzk_fp_dbl_i(cuzk_fp *r, const cuzk_fp *a) {
  limbs_add_mod(r->l, a->l, a->l, CUZK_P, 6);
}
static inline void cuzk_fp_neg_i(cuzk_fp *r, const cuzk_fp *a) {
  limbs_neg_mod(r->l, a->l, CUZK_P, 6);
}

static inline void cuzk_fp2_add_i(cuzk_fp2 *r, const cuzk_fp2 *a, const cuzk_fp2 *b) {
  cuzk_fp_add_i(&r->c0, &a->c0, &b->c0);
  cuzk_fp_add_i(&r->c1, &a->c1, &b->c1);
}
static inline void cuzk_fp2_sub_i(cuzk_fp2 *r, const cuzk_fp2 *a, const cuzk_fp2 *b) {
  cuzk_fp_sub_i(&r->c0, &a->c0, &b->c0);
  cuzk_fp_sub_i(&r->c1, &a->c1, &b->c1);
}
static inline void cuzk_fp2_dbl_i(cuzk_fp2 *r, const cuzk_fp2 *a) {
  cuzk_fp_dbl_i(&r->c0, &a->c0);
  cuzk_fp_dbl_i(&r->c1, &a->c1);
}
static inline void cuzk_fp2_neg_i(cuzk_fp2 *r, const cuzk_fp2 *a) {
  cuzk_fp_neg_i(&r->c0, &a->c0);
  cuzk_fp_neg_i(&r->c1, &a->c1);
}

/* (a0 + a1 u)(1 + u) = (a0 - a1) + (a0 + a1) u */
static inline void cuzk_fp2_mul_nonres_i(cuzk_fp2 *r, const cuzk_fp2 *a) {
  cuzk_fp t;
  cuzk_fp_sub_i(&t, &a->c0, &a->c1);
  cuzk_fp_add_i(&r->c1, &a->c0, &a->c1);
  r->c0 = t;
}

/* Fp2 products also go straight to their kernels (lazy-reduction assembly on x86-64). */
static inline void cuzk_fp2_mul_i(cuzk_fp2 *r, const cuzk_fp2 *a, const cuzk_fp2 *b) {
  cuzk_mont.fp2_mul((uint64_t *)r, (const uint64_t *)a, (const uint64_t *)b);
}
static inline void cuzk_fp2_sqr_i(cuzk_fp2 *r, const cuzk_fp2 *a) {
  cuzk_mont.fp2_sqr((uint64_t *)r, (const uint64_t *)a);
}

#endif
