/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Per-arity Poseidon constants, generated on first use and cached for the process.
 *
 * Thread safety: a published pointer is read with acquire ordering, so a reader that sees it also
 * sees the filled arrays; generation runs under one mutex, so it happens once per arity even if
 * many threads ask at the same time. A failed generation (out of memory) publishes nothing and
 * the next call tries again. The cache is never freed (it lives as long as the process).
 */
#define _POSIX_C_SOURCE 200809L /* pthread mutexes under -std=c17 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "hashes/poseidon_internal.h"

/* R_P per arity: neptune's calc_round_numbers with the security margin, hard-coded as
 * docs/spec/poseidon.md §2 recommends (supraseal does the same). R_F is 8 for all. */
static const struct {
  unsigned arity, partial_rounds;
} ROUNDS[] = {{2, 55}, {4, 56}, {8, 57}, {11, 57}, {16, 59}, {24, 59}, {36, 60}};
#define NARITIES (sizeof ROUNDS / sizeof ROUNDS[0])

static _Atomic(const cuzk_poseidon_params *) cache[NARITIES];
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

static int arity_index(unsigned arity) {
  for (unsigned i = 0; i < NARITIES; i++)
    if (ROUNDS[i].arity == arity) return (int)i;
  return -1;
}

unsigned cuzk_poseidon_partial_rounds(unsigned arity) {
  int i = arity_index(arity);
  return i < 0 ? 0 : ROUNDS[i].partial_rounds;
}

bool cuzk_poseidon_arity_supported(unsigned arity) { return arity_index(arity) >= 0; }

/* dst[j*t + i] = src[i*t + j] * 2^64 */
static void transpose_scale(cuzk_fr *dst, const cuzk_fr *src, unsigned t, const cuzk_fr *two64) {
  for (unsigned i = 0; i < t; i++)
    for (unsigned j = 0; j < t; j++)
      cuzk_fr_mul(&dst[j * t + i], &src[i * t + j], two64);
}

/* One allocation: the struct, then its arrays. */
static cuzk_hash_err generate(const cuzk_poseidon_params **out, unsigned arity) {
  const unsigned t = arity + 1, rf = POSEIDON_FULL_ROUNDS;
  const unsigned rp = cuzk_poseidon_partial_rounds(arity);
  const size_t n_rc = (size_t)(rf + rp) * t, n_mds = (size_t)t * t;
  const size_t n_c = (size_t)rf * t + rp, n_sparse = (size_t)rp * (2 * t - 1);
  const size_t total = n_rc + n_mds + n_c + n_mds + n_sparse + 2 * n_mds + (size_t)rp * t;
  poseidon_params_impl *x = malloc(sizeof *x + total * sizeof(cuzk_fr));
  if (!x) return CUZK_HASH_ENOMEM;
  cuzk_fr *rc = (cuzk_fr *)(x + 1), *mds = rc + n_rc, *c = mds + n_mds, *pre = c + n_c;
  cuzk_fr *sparse = pre + n_mds, *mds_t64 = sparse + n_sparse, *pre_t64 = mds_t64 + n_mds;
  cuzk_fr *w_hat64 = pre_t64 + n_mds;
  cuzk_poseidon_params *p = &x->pub;
  *p = (cuzk_poseidon_params){.arity = arity,
                              .width = t,
                              .full_rounds = rf,
                              .partial_rounds = rp,
                              .round_constants = rc,
                              .mds = mds,
                              .compressed_constants = c,
                              .pre_sparse = pre,
                              .sparse = sparse};
  x->mds_t64 = mds_t64;
  x->pre_t64 = pre_t64;
  x->w_hat64 = w_hat64;
  cuzk_poseidon_tag_merkle(&p->merkle_tag, arity);

  cuzk_poseidon_grain(rc, n_rc, t, rf, rp);
  /* Cauchy matrix with x_i = i, y_j = t + j: M[i][j] = 1 / (i + j + t)
   * (docs/spec/poseidon.md §4.1) */
  for (unsigned i = 0; i < t; i++)
    for (unsigned j = 0; j < t; j++) {
      cuzk_fr d;
      cuzk_fr_from_u64(&d, i + j + t);
      cuzk_fr_inv(&mds[i * t + j], &d);
    }
  cuzk_hash_err err = cuzk_poseidon_static_constants(p, c, pre, sparse);
  if (err != CUZK_HASH_OK) {
    free(x);
    return err;
  }
  cuzk_fr two64;
  (void)cuzk_fr_from_canonical(&two64, (const uint64_t[4]){0, 1, 0, 0});
  transpose_scale(mds_t64, mds, t, &two64);
  transpose_scale(pre_t64, pre, t, &two64);
  for (unsigned k = 0; k < rp; k++)
    for (unsigned i = 0; i < t; i++)
      cuzk_fr_mul(&w_hat64[k * t + i], &sparse[(size_t)k * (2 * t - 1) + i], &two64);
  *out = p;
  return CUZK_HASH_OK;
}

cuzk_hash_err cuzk_poseidon_params_get(const cuzk_poseidon_params **out, unsigned arity) {
  if (!out) return CUZK_HASH_EINVAL;
  int i = arity_index(arity);
  if (i < 0) return CUZK_HASH_EARITY;
  const cuzk_poseidon_params *p = atomic_load_explicit(&cache[i], memory_order_acquire);
  if (p) {
    *out = p;
    return CUZK_HASH_OK;
  }
  cuzk_hash_err err = CUZK_HASH_OK;
  pthread_mutex_lock(&cache_lock);
  p = atomic_load_explicit(&cache[i], memory_order_relaxed);
  if (!p) {
    err = generate(&p, arity);
    if (err == CUZK_HASH_OK) atomic_store_explicit(&cache[i], p, memory_order_release);
  }
  pthread_mutex_unlock(&cache_lock);
  if (err == CUZK_HASH_OK) *out = p;
  return err;
}
