/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The prover's quotient h = (A·B - C) / Z (docs/spec/groth16.md §4.2), and its pointwise step.
 *
 * bellperson: iFFT(a,b,c); distribute powers of g; FFT; a = (a·b - c)·Z^-1; iFFT; times g^-i.
 * Here every step is one engine pass sequence with the scalings fused and no permutation until
 * the very end:
 *   X <- DIF^-1(X), output scaled by g^i/n        (coefficients of X(g·x), bit-reversed)
 *   X <- DIT(X)                                    (X at g·ω^i, natural)          for X = a, b, c
 *   a <- a·b - c                                   (the 1/Z moves into the last scaling)
 *   a <- DIF^-1(a), output scaled by g^-i/(n·Z)    (coefficients of h, bit-reversed)
 *   a <- bitrev(a)
 * Field arithmetic is exact, so the result equals bellperson's entry for entry.
 */
#include "ntt/fr_bfly.h"
#include "ntt/ntt_internal.h"

typedef struct {
  cuzk_fr *a;
  const cuzk_fr *b, *c; /* NULL: no product, no difference (the staged form) */
  const cuzk_fr *zinv;  /* NULL: no division */
} hp_ctx;

static void hp_range(void *ctx, size_t begin, size_t end) {
  const hp_ctx *H = ctx;
  ntt_mul_fn mul = ntt_mul_kernel();
  for (size_t i = begin; i < end; i++) {
    cuzk_fr t = H->a[i];
    if (H->b) mul(t.l, H->a[i].l, H->b[i].l);
    if (H->c) ntt_fr_sub(&t, &t, &H->c[i]);
    if (H->zinv)
      mul(H->a[i].l, t.l, H->zinv->l);
    else
      H->a[i] = t;
  }
}

static void h_pointwise(cuzk_fr *a, const cuzk_fr *b, const cuzk_fr *c, size_t n,
                        const cuzk_fr *zinv, cuzk_pool *pool, unsigned max_workers) {
  hp_ctx H = {a, b, c, zinv};
  cuzk_parallel_for(n >= 4096 ? pool : NULL, n, 0, hp_range, &H, max_workers);
}

/* 1 / (g^n - 1): Z on the coset. g = 7 is a non-residue, so g^n != 1 for n | 2^32. */
static void z_inverse(cuzk_fr *zinv, size_t n) {
  cuzk_fr z;
  ntt_fr_pow_u64(&z, &CUZK_FR_GENERATOR, n);
  cuzk_fr_sub(&z, &z, &cuzk_fr_one);
  cuzk_fr_inv(zinv, &z);
}

cuzk_ntt_err cuzk_ntt_h_pointwise(cuzk_fr *a, const cuzk_fr *b, const cuzk_fr *c, size_t n,
                                  cuzk_pool *pool, unsigned max_workers) {
  if (!a || !b || !c) return CUZK_NTT_ENULL;
  unsigned k;
  cuzk_ntt_err err = ntt_check_size(n, &k);
  if (err != CUZK_NTT_OK) return err;
  if (a == b || a == c) return CUZK_NTT_EINVAL;
  cuzk_fr zinv;
  z_inverse(&zinv, n);
  h_pointwise(a, b, c, n, &zinv, pool, max_workers);
  return CUZK_NTT_OK;
}

cuzk_ntt_err cuzk_ntt_h(cuzk_fr *a, cuzk_fr *b, cuzk_fr *c, size_t n, cuzk_pool *pool,
                        unsigned max_workers) {
  return cuzk_ntt_h_cancellable(a, b, c, n, pool, max_workers, NULL);
}

/* X <- X(g·ω^i): the evaluations over the domain to the coset's (the first two transforms). */
cuzk_ntt_err cuzk_ntt_h_coset(cuzk_fr *x, size_t n, cuzk_pool *pool, unsigned max_workers,
                              const _Atomic int *cancel) {
  if (!x) return CUZK_NTT_ENULL;
  unsigned k;
  cuzk_ntt_err err = ntt_check_size(n, &k);
  if (err != CUZK_NTT_OK) return err;
  cuzk_fr ninv;
  cuzk_fr_from_u64(&ninv, n);
  cuzk_fr_inv(&ninv, &ninv);
  ntt_job inv = {.x = x, .k = k, .inverse = true, .pool = pool, .max_workers = max_workers};
  inv.post = (ntt_scale){NTT_SCALE_REV, ninv, CUZK_FR_GENERATOR};
  ntt_job fwd = {.x = x, .k = k, .dit = true, .pool = pool, .max_workers = max_workers};
  if (cuzk_cancelled(cancel)) return CUZK_NTT_ECANCELLED;
  if ((err = ntt_run(&inv)) != CUZK_NTT_OK) return err;
  if (cuzk_cancelled(cancel)) return CUZK_NTT_ECANCELLED;
  return ntt_run(&fwd);
}

/* a <- a·b (b non-NULL) or a <- a - c (c non-NULL), pointwise on coset evaluations. */
static cuzk_ntt_err staged_pointwise(cuzk_fr *a, const cuzk_fr *b, const cuzk_fr *c, size_t n,
                                     cuzk_pool *pool, unsigned max_workers) {
  if (!a || (!b && !c)) return CUZK_NTT_ENULL;
  unsigned k;
  cuzk_ntt_err err = ntt_check_size(n, &k);
  if (err != CUZK_NTT_OK) return err;
  if (a == b || a == c) return CUZK_NTT_EINVAL;
  h_pointwise(a, b, c, n, NULL, pool, max_workers);
  return CUZK_NTT_OK;
}

cuzk_ntt_err cuzk_ntt_h_mul(cuzk_fr *a, const cuzk_fr *b, size_t n, cuzk_pool *pool,
                            unsigned max_workers) {
  return b ? staged_pointwise(a, b, NULL, n, pool, max_workers) : CUZK_NTT_ENULL;
}

cuzk_ntt_err cuzk_ntt_h_sub(cuzk_fr *a, const cuzk_fr *c, size_t n, cuzk_pool *pool,
                            unsigned max_workers) {
  return c ? staged_pointwise(a, NULL, c, n, pool, max_workers) : CUZK_NTT_ENULL;
}

/* a <- the coefficients of a / Z: the last inverse transform, scaled by g^-i/(n·Z), and the one
 * bit-reversal. */
cuzk_ntt_err cuzk_ntt_h_finish(cuzk_fr *a, size_t n, cuzk_pool *pool, unsigned max_workers,
                               const _Atomic int *cancel) {
  if (!a) return CUZK_NTT_ENULL;
  unsigned k;
  cuzk_ntt_err err = ntt_check_size(n, &k);
  if (err != CUZK_NTT_OK) return err;
  if (cuzk_cancelled(cancel)) return CUZK_NTT_ECANCELLED;
  cuzk_fr ninv, ginv, zinv;
  cuzk_fr_from_u64(&ninv, n);
  cuzk_fr_inv(&ninv, &ninv);
  cuzk_fr_inv(&ginv, &CUZK_FR_GENERATOR);
  z_inverse(&zinv, n);
  ntt_job last = {.x = a, .k = k, .inverse = true, .pool = pool, .max_workers = max_workers};
  last.post = (ntt_scale){NTT_SCALE_REV, ninv, ginv};
  cuzk_fr_mul(&last.post.K, &ninv, &zinv);
  if ((err = ntt_run(&last)) != CUZK_NTT_OK) return err;
  ntt_bitreverse(a, k, pool, max_workers);
  return CUZK_NTT_OK;
}

cuzk_ntt_err cuzk_ntt_h_cancellable(cuzk_fr *a, cuzk_fr *b, cuzk_fr *c, size_t n, cuzk_pool *pool,
                                    unsigned max_workers, const _Atomic int *cancel) {
  if (!a || !b || !c) return CUZK_NTT_ENULL;
  unsigned k;
  cuzk_ntt_err err = ntt_check_size(n, &k);
  if (err != CUZK_NTT_OK) return err;
  if (a == b || a == c || b == c) return CUZK_NTT_EINVAL;
  cuzk_fr *vec[3] = {a, b, c};
  for (int i = 0; i < 3; i++)
    if ((err = cuzk_ntt_h_coset(vec[i], n, pool, max_workers, cancel)) != CUZK_NTT_OK) return err;
  if (cuzk_cancelled(cancel)) return CUZK_NTT_ECANCELLED;
  h_pointwise(a, b, c, n, NULL, pool, max_workers);
  return cuzk_ntt_h_finish(a, n, pool, max_workers, cancel);
}
