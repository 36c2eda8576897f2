/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Miller loop of the optimal ate pairing over |z| = 0xd201000000010000.
 *
 * T runs over multiples of Q on the twist E': y^2 = x^3 + b', b' = 4(1 + u), in homogeneous
 * projective coordinates (x, y) = (X/Z, Y/Z). The untwist E' -> E(Fp12) is
 * (x, y) -> (x / w^2, y / w^3). A line through T with slope lam on E', evaluated at P = (xp, yp)
 * and multiplied by w^3 (which lies in Fp4, so the final exponentiation removes it), is
 *     (lam xT - yT) - lam xp v + yp v w,
 * sparse with the shape c0 + c1 v + c4 v w of cuzk_fp12_mul_014. Each step's line is scaled
 * by whatever Fp2 factor clears its denominators; Fp2 factors are removed by the final
 * exponentiation too. Vertical lines (in Fp6) are left out for the same reason.
 *
 * z < 0: the loop runs over |z| and conjugates at the end (conj f = 1/f after the easy part).
 */
#include <assert.h>

#include "cuzk/pairing/pairing.h"
#include "field/consts.h"
#include "field/fp_inline.h"

/* Bits 62..0 of |z| drive the loop; bit 63 (the top one) is the starting T = Q. */
#define MILLER_TOP_BIT 62

static inline bool z_bit(int i) { return (CUZK_Z_ABS >> i) & 1; }

/* r = 3 b' a = 12 (1 + u) a. */
static void mul_by_3b(cuzk_fp2 *r, const cuzk_fp2 *a) {
  cuzk_fp2 t, t3;
  cuzk_fp2_mul_nonres_i(&t, a);
  cuzk_fp2_dbl_i(&t3, &t);
  cuzk_fp2_add_i(&t3, &t3, &t);
  cuzk_fp2_dbl_i(&t3, &t3);
  cuzk_fp2_dbl_i(r, &t3);
}

/*
 * T = 2T and the tangent line at T; 3m + 6s (Fp2), no inversion, no halving.
 *
 * Tangent slope lam = 3X^2 / (2YZ). The line (lam xT - yT, -lam, 1) times 2YZ^2 is
 * (3X^3 - 2Y^2 Z, -3X^2 Z, 2YZ^2); with X^3 = Y^2 Z - b' Z^3 and divided by Z:
 *     c0 = Y^2 - 3b'Z^2,  c1 = -3X^2,  c4 = 2YZ.
 * Doubling (Costello-Lange-Naehrig 2010, a = 0), written for (4X3 : 4Y3 : 4Z3) so nothing is
 * halved: with A = XY, B = Y^2, C = Z^2, E = 3b'C, F = 3E, H = (Y+Z)^2 - B - C = 2YZ,
 *     X3 = 2A(B - F),  Y3 = (B + F)^2 - 12E^2,  Z3 = 4BH.
 */
static void dbl_step(cuzk_miller_line *l, cuzk_g2 *t) {
  cuzk_fp2 a, b, c, e, f, h, s;

  cuzk_fp2_mul_i(&a, &t->x, &t->y);
  cuzk_fp2_sqr_i(&b, &t->y);
  cuzk_fp2_sqr_i(&c, &t->z);
  cuzk_fp2_add_i(&h, &t->y, &t->z);
  cuzk_fp2_sqr_i(&h, &h);
  cuzk_fp2_sub_i(&h, &h, &b);
  cuzk_fp2_sub_i(&h, &h, &c);
  mul_by_3b(&e, &c);
  cuzk_fp2_dbl_i(&f, &e);
  cuzk_fp2_add_i(&f, &f, &e);

  /* The line, from the old T. */
  cuzk_fp2_sub_i(&l->c0, &b, &e);
  cuzk_fp2_sqr_i(&s, &t->x);
  cuzk_fp2_dbl_i(&l->c1, &s);
  cuzk_fp2_add_i(&l->c1, &l->c1, &s);
  cuzk_fp2_neg_i(&l->c1, &l->c1);
  l->c4 = h;

  cuzk_fp2_sub_i(&s, &b, &f);
  cuzk_fp2_mul_i(&t->x, &a, &s);
  cuzk_fp2_dbl_i(&t->x, &t->x);

  cuzk_fp2_add_i(&s, &b, &f);
  cuzk_fp2_sqr_i(&s, &s);
  cuzk_fp2_sqr_i(&e, &e);
  cuzk_fp2_dbl_i(&f, &e);
  cuzk_fp2_add_i(&f, &f, &e);
  cuzk_fp2_dbl_i(&f, &f);
  cuzk_fp2_dbl_i(&f, &f);
  cuzk_fp2_sub_i(&t->y, &s, &f);

  cuzk_fp2_mul_i(&t->z, &b, &h);
  cuzk_fp2_dbl_i(&t->z, &t->z);
  cuzk_fp2_dbl_i(&t->z, &t->z);
}

/*
 * T = T + Q (Q affine) and the line through T and Q; 11m + 2s (Fp2).
 *
 * With theta = Y - yq Z and lam = X - xq Z the slope is theta/lam; the line taken through Q,
 * (theta/lam xq - yq, -theta/lam, 1), times lam:
 *     c0 = theta xq - lam yq,  c1 = -theta,  c4 = lam.
 * Mixed addition: C = theta^2, D = lam^2, E = lam D, F = Z C, G = X D, H = E + F - 2G,
 *     X3 = lam H,  Y3 = theta (G - H) - E Y,  Z3 = Z E.
 * T never equals +-Q here: T = kQ with 1 < k < |z| < r.
 */
static void add_step(cuzk_miller_line *l, cuzk_g2 *t, const cuzk_g2_affine *q) {
  cuzk_fp2 theta, lam, c, d, e, f, g, h;

  cuzk_fp2_mul_i(&theta, &q->y, &t->z);
  cuzk_fp2_sub_i(&theta, &t->y, &theta);
  cuzk_fp2_mul_i(&lam, &q->x, &t->z);
  cuzk_fp2_sub_i(&lam, &t->x, &lam);

  cuzk_fp2_sqr_i(&c, &theta);
  cuzk_fp2_sqr_i(&d, &lam);
  cuzk_fp2_mul_i(&e, &lam, &d);
  cuzk_fp2_mul_i(&f, &t->z, &c);
  cuzk_fp2_mul_i(&g, &t->x, &d);
  cuzk_fp2_add_i(&h, &e, &f);
  cuzk_fp2_sub_i(&h, &h, &g);
  cuzk_fp2_sub_i(&h, &h, &g);

  cuzk_fp2_mul_i(&t->x, &lam, &h);
  cuzk_fp2_sub_i(&g, &g, &h);
  cuzk_fp2_mul_i(&g, &theta, &g);
  cuzk_fp2_mul_i(&t->y, &e, &t->y);
  cuzk_fp2_sub_i(&t->y, &g, &t->y);
  cuzk_fp2_mul_i(&t->z, &t->z, &e);

  cuzk_fp2_mul_i(&c, &theta, &q->x);
  cuzk_fp2_mul_i(&d, &lam, &q->y);
  cuzk_fp2_sub_i(&l->c0, &c, &d);
  cuzk_fp2_neg_i(&l->c1, &theta);
  l->c4 = lam;
}

/* f = f * l(P): 4M to evaluate, then the sparse product (13 Fp2 multiplications). */
static void mul_line(cuzk_fp12 *f, const cuzk_miller_line *l, const cuzk_g1_affine *p) {
  cuzk_fp2 c1, c4;
  cuzk_fp2_mul_fp(&c1, &l->c1, &p->x);
  cuzk_fp2_mul_fp(&c4, &l->c4, &p->y);
  cuzk_fp12_mul_014(f, f, &l->c0, &c1, &c4);
}

/* f = l(P), for the first line of a loop (f was 1). */
static void set_line(cuzk_fp12 *f, const cuzk_miller_line *l, const cuzk_g1_affine *p) {
  f->c0.c0 = l->c0;
  cuzk_fp2_mul_fp(&f->c0.c1, &l->c1, &p->x);
  f->c0.c2 = cuzk_fp2_zero;
  f->c1.c0 = cuzk_fp2_zero;
  cuzk_fp2_mul_fp(&f->c1.c1, &l->c4, &p->y);
  f->c1.c2 = cuzk_fp2_zero;
}

static void start_point(cuzk_g2 *t, const cuzk_g2_affine *q) {
  t->x = q->x;
  t->y = q->y;
  t->z = cuzk_fp2_one;
}

void cuzk_g2_prepare(cuzk_g2_prepared *r, const cuzk_g2_affine *q) {
  r->infinity = cuzk_g2_affine_is_infinity(q);
  if (r->infinity) return;
  cuzk_g2 t;
  size_t k = 0;
  start_point(&t, q);
  for (int i = MILLER_TOP_BIT; i >= 0; i--) {
    dbl_step(&r->lines[k++], &t);
    if (z_bit(i)) add_step(&r->lines[k++], &t, q);
  }
  assert(k == CUZK_MILLER_LINES);
}

void cuzk_miller_loop(cuzk_fp12 *r, const cuzk_g1_affine *p, const cuzk_g2_affine *q) {
  if (cuzk_g1_affine_is_infinity(p) || cuzk_g2_affine_is_infinity(q)) {
    *r = cuzk_fp12_one;
    return;
  }
  cuzk_g2 t;
  cuzk_miller_line l;
  cuzk_fp12 f;
  start_point(&t, q);
  /* First step: f = 1, so f^2 l = l. */
  dbl_step(&l, &t);
  set_line(&f, &l, p);
  if (z_bit(MILLER_TOP_BIT)) {
    add_step(&l, &t, q);
    mul_line(&f, &l, p);
  }
  for (int i = MILLER_TOP_BIT - 1; i >= 0; i--) {
    cuzk_fp12_sqr(&f, &f);
    dbl_step(&l, &t);
    mul_line(&f, &l, p);
    if (z_bit(i)) {
      add_step(&l, &t, q);
      mul_line(&f, &l, p);
    }
  }
  cuzk_fp12_conj(r, &f);
}

/* f = f * prod_j line k of pair j, skipping pairs with a point at infinity; *started says
 * whether f holds anything yet (before that f is 1 and the first line is stored directly). */
static void mul_lines(cuzk_fp12 *f, bool *started, const cuzk_g1_affine *p,
                      const cuzk_g2_prepared *q, size_t n, size_t k) {
  for (size_t j = 0; j < n; j++) {
    if (q[j].infinity || cuzk_g1_affine_is_infinity(&p[j])) continue;
    if (*started) {
      mul_line(f, &q[j].lines[k], &p[j]);
    } else {
      set_line(f, &q[j].lines[k], &p[j]);
      *started = true;
    }
  }
}

void cuzk_multi_miller_loop(cuzk_fp12 *r, const cuzk_g1_affine *p, const cuzk_g2_prepared *q,
                            size_t n) {
  cuzk_fp12 f = cuzk_fp12_one;
  bool started = false;
  size_t k = 0;
  for (int i = MILLER_TOP_BIT; i >= 0; i--) {
    if (started) cuzk_fp12_sqr(&f, &f);
    mul_lines(&f, &started, p, q, n, k++);
    if (z_bit(i)) mul_lines(&f, &started, p, q, n, k++);
  }
  assert(k == CUZK_MILLER_LINES);
  cuzk_fp12_conj(r, &f);
}
