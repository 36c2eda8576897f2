/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Poseidon internals: constant generation (Grain, matrices, the static form) and the
 * permutation kernel shared by the public hash functions. */
#ifndef CUZK_HASHES_POSEIDON_INTERNAL_H
#define CUZK_HASHES_POSEIDON_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "cuzk/hashes/poseidon.h"

#define POSEIDON_FULL_ROUNDS 8

/*
 * What the library allocates behind a cuzk_poseidon_params: the public struct first, then the
 * matrices re-laid out for the lazy dot products (fr_ops.h): transposed, so that every output
 * element reads one contiguous row, and scaled by 2^64 for hfr_redc320.
 */
typedef struct {
  cuzk_poseidon_params pub;
  const cuzk_fr *mds_t64; /* t*t: [j*t + i] = M[i][j] * 2^64 */
  const cuzk_fr *pre_t64; /* t*t: [j*t + i] = P[i][j] * 2^64 */
  const cuzk_fr *w_hat64; /* R_P*t: each sparse matrix's column 0 times 2^64 */
} poseidon_params_impl;

static inline const poseidon_params_impl *poseidon_impl(const cuzk_poseidon_params *p) {
  return (const poseidon_params_impl *)p; /* pub is the first member */
}

/* R_P for an arity (docs/spec/poseidon.md §2), 0 if unsupported. */
unsigned cuzk_poseidon_partial_rounds(unsigned arity);

/* The first count round constants of width t from the Grain LFSR (docs/spec/poseidon.md §3),
 * Montgomery. */
void cuzk_poseidon_grain(cuzk_fr *out, size_t count, unsigned t, unsigned rf, unsigned rp);

/* Dense n x n matrices over Fr, row-major. */
void cuzk_pmat_mul(cuzk_fr *r, const cuzk_fr *a, const cuzk_fr *b, unsigned n); /* r = a*b */
void cuzk_pmat_vec(cuzk_fr *r, const cuzk_fr *m, const cuzk_fr *v, unsigned n); /* r = m*v */
/* r = a^-1 by Gauss-Jordan; EINVAL if singular, ENOMEM. r may alias a. */
cuzk_hash_err cuzk_pmat_inv(cuzk_fr *r, const cuzk_fr *a, unsigned n);

/* The static form's constants (docs/spec/poseidon.md §4.3) from p's round constants and MDS:
 * compressed constants c (R_F*t + R_P), pre-sparse matrix pre (t*t), sparse matrices sparse
 * (R_P*(2t-1)). */
cuzk_hash_err cuzk_poseidon_static_constants(const cuzk_poseidon_params *p, cuzk_fr *c,
                                             cuzk_fr *pre, cuzk_fr *sparse);

/* The static-form permutation; with only_s1, the last mix computes state[1] alone (the hash
 * output) and leaves the rest of the state unspecified. */
void cuzk_poseidon_permute_static(const cuzk_poseidon_params *p, cuzk_fr *s, bool only_s1);

#endif
