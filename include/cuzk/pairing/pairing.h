/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The BLS12-381 optimal ate pairing e: G1 x G2 -> GT, GT the order-r subgroup of Fp12^*
 * (docs/spec/groth16.md §1.3, §5): a Miller loop over |z| = 0xd201000000010000 (z is negative, so
 * the loop's value is conjugated), then the final exponentiation.
 *
 * GT convention: the same value as blst and @noble/curves, which is the CUBE of the textbook
 * reduced pairing f^((p^12-1)/r): the hard part of the final exponentiation raises to
 * 3(p^4-p^2+1)/r (tests/ref/bls12_381.py explains this). Cubing is an automorphism of GT, so
 * the result is still bilinear and non-degenerate; compare with the reference model's value ^3.
 *
 * Inputs are assumed validated (on the curve, in the subgroup). A point at infinity on either
 * side makes its pair contribute 1. The raw Miller loop value is only meaningful after
 * cuzk_final_exp (it is defined up to factors in proper subfields, which that removes).
 */
#ifndef CUZK_PAIRING_H
#define CUZK_PAIRING_H

#include "cuzk/curve/curve.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Lines in one Miller loop: one per doubling (63: bits 62..0 of |z|) and one per set bit below
 * the top one (5). */
#define CUZK_MILLER_LINES 68

/* A line through points of the twist, evaluated at P = (xp, yp) in G1 as the sparse Fp12
 * element c0 + (c1 xp) v + (c4 yp) v w (the shape cuzk_fp12_mul_014 takes). */
typedef struct {
  cuzk_fp2 c0, c1, c4;
} cuzk_miller_line;

/* Line coefficients of the Miller loop for a fixed G2 point (a prepared verifying key):
 * the lines in loop order (the doubling line of each step, then its addition line if the bit of
 * |z| is set). When infinity is set the lines are not filled in and the pair contributes 1. */
typedef struct {
  cuzk_miller_line lines[CUZK_MILLER_LINES];
  bool infinity;
} cuzk_g2_prepared; /* fixed-size, no heap */

void cuzk_g2_prepare(cuzk_g2_prepared *r, const cuzk_g2_affine *q);

/* r = the Miller loop value f_{z,Q}(P) (lines computed on the fly). */
void cuzk_miller_loop(cuzk_fp12 *r, const cuzk_g1_affine *p, const cuzk_g2_affine *q);

/* Product of n Miller loops sharing the squarings (one Fp12 squaring per step for all pairs). */
void cuzk_multi_miller_loop(cuzk_fp12 *r, const cuzk_g1_affine *p, const cuzk_g2_prepared *q,
                            size_t n);

/* Raises a Miller loop value f (f != 0) to 3(p^12 - 1)/r, r the group order; may alias. */
void cuzk_final_exp(cuzk_fp12 *r, const cuzk_fp12 *f);

/* r = e(P, Q) = cuzk_final_exp(cuzk_miller_loop(P, Q)). */
void cuzk_pairing(cuzk_fp12 *r, const cuzk_g1_affine *p, const cuzk_g2_affine *q);

/* true iff prod e(p[i], q[i]) == 1 (one multi-Miller loop + one final exponentiation). */
bool cuzk_pairing_product_is_one(const cuzk_g1_affine *p, const cuzk_g2_prepared *q, size_t n);

#ifdef __cplusplus
}
#endif
#endif
