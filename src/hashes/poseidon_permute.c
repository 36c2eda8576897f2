/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The two Poseidon permutations (docs/spec/poseidon.md §4.2 and §4.3). Both compute the same
 * function on the whole state; tests/test_poseidon.c checks that on random states for every arity.
 *
 * Cost per permutation, in Fr multiplications (t = width, R_F = 8):
 *   reference: 3 per S-box (t*R_F + R_P S-boxes) + t^2 per round (R_F + R_P rounds)
 *   static:    the same S-boxes + t^2 per full round + (2t - 1) per partial round
 * e.g. arity 11: 9819 vs 2922 (2790 when the hash only needs state[1] from the last mix).
 * The static form also sums each dot product unreduced and reduces once (fr_ops.h), which makes
 * its t-term dot products about half as expensive (measured 1.15x faster overall at arity 2,
 * 1.5x at 11, 1.8x at 36 than the same form with a Montgomery product per term).
 */
#include <string.h>

#include "hashes/fr_ops.h"
#include "hashes/poseidon_internal.h"

/* s = s * A (row vector times matrix): s'[j] = sum_i s[i] A[i][j]. Equals A * s for symmetric A. */
static void mix_dense(cuzk_fr *s, const cuzk_fr *a, unsigned t) {
  cuzk_fr out[CUZK_POSEIDON_MAX_WIDTH], x;
  for (unsigned j = 0; j < t; j++) {
    hfr_mul(&out[j], &s[0], &a[j]);
    for (unsigned i = 1; i < t; i++) {
      hfr_mul(&x, &s[i], &a[i * t + j]);
      hfr_add(&out[j], &out[j], &x);
    }
  }
  memcpy(s, out, t * sizeof(cuzk_fr));
}

/* Lazy form of mix_dense for the static permutation: at[j*t + i] = A[i][j] * 2^64 (fr_ops.h). */
static void mix_dense_lazy(cuzk_fr *s, const cuzk_fr *at, unsigned t) {
  cuzk_fr out[CUZK_POSEIDON_MAX_WIDTH];
  for (unsigned j = 0; j < t; j++, at += t) {
    uint64_t acc[9] = {0};
    for (unsigned i = 0; i < t; i++)
      hfr_mac(acc, &s[i], &at[i]);
    hfr_redc320(&out[j], acc);
  }
  memcpy(s, out, t * sizeof(cuzk_fr));
}

/* s = s * S for a sparse matrix given as w_hat (column 0, scaled by 2^64) and v_rest (row 0
 * without its first entry): s'[0] = sum_i w_hat[i] s[i]; s'[j] = s[j] + v_rest[j-1] s[0]. */
static void mix_sparse(cuzk_fr *s, const cuzk_fr *w_hat64, const cuzk_fr *v, unsigned t) {
  uint64_t acc[9] = {0};
  cuzk_fr x;
  hfr_mac(acc, &s[0], &w_hat64[0]);
  for (unsigned i = 1; i < t; i++) {
    hfr_mac(acc, &s[i], &w_hat64[i]);
    hfr_mul(&x, &s[0], &v[i - 1]);
    hfr_add(&s[i], &s[i], &x);
  }
  hfr_redc320(&s[0], acc);
}

void cuzk_poseidon_permute_reference(const cuzk_poseidon_params *p, cuzk_fr *s) {
  const unsigned t = p->width, half = p->full_rounds / 2,
                 rounds = p->full_rounds + p->partial_rounds;
  const cuzk_fr *rc = p->round_constants;
  for (unsigned r = 0; r < rounds; r++, rc += t) {
    bool full = r < half || r >= half + p->partial_rounds;
    for (unsigned i = 0; i < t; i++)
      hfr_add(&s[i], &s[i], &rc[i]); /* all t constants, even in partial rounds */
    for (unsigned i = 0; i < (full ? t : 1); i++)
      hfr_pow5(&s[i], &s[i]);
    mix_dense(s, p->mds, t);
  }
}

void cuzk_poseidon_permute_static(const cuzk_poseidon_params *p, cuzk_fr *s, bool only_s1) {
  const poseidon_params_impl *x = poseidon_impl(p);
  const unsigned t = p->width, half = p->full_rounds / 2;
  const cuzk_fr *c = p->compressed_constants, *v = p->sparse + t, *w = x->w_hat64;
  for (unsigned i = 0; i < t; i++)
    hfr_add(&s[i], &s[i], &c[i]);
  c += t;
  /* first half: S-box, post key, mix; the last of them mixes with the pre-sparse matrix */
  for (unsigned r = 0; r < half; r++, c += t) {
    for (unsigned i = 0; i < t; i++) {
      hfr_pow5(&s[i], &s[i]);
      hfr_add(&s[i], &s[i], &c[i]);
    }
    mix_dense_lazy(s, r + 1 == half ? x->pre_t64 : x->mds_t64, t);
  }
  for (unsigned r = 0; r < p->partial_rounds; r++, c++, w += t, v += 2 * t - 1) {
    hfr_pow5(&s[0], &s[0]);
    hfr_add(&s[0], &s[0], c);
    mix_sparse(s, w, v, t);
  }
  for (unsigned r = 0; r + 1 < half; r++, c += t) {
    for (unsigned i = 0; i < t; i++) {
      hfr_pow5(&s[i], &s[i]);
      hfr_add(&s[i], &s[i], &c[i]);
    }
    mix_dense_lazy(s, x->mds_t64, t);
  }
  /* last full round: no key */
  for (unsigned i = 0; i < t; i++)
    hfr_pow5(&s[i], &s[i]);
  if (!only_s1) {
    mix_dense_lazy(s, x->mds_t64, t);
    return;
  }
  uint64_t acc[9] = {0}; /* s'[1] = sum_i s[i] M[i][1]: row 1 of the transposed matrix */
  for (unsigned i = 0; i < t; i++)
    hfr_mac(acc, &s[i], &x->mds_t64[t + i]);
  hfr_redc320(&s[1], acc);
}

void cuzk_poseidon_permute(const cuzk_poseidon_params *p, cuzk_fr *state) {
  cuzk_poseidon_permute_static(p, state, false);
}
