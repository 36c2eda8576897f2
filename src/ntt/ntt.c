/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The public transforms: each kind and order maps to one engine run (DIF for natural input, DIT
 * for bit-reversed input) plus, for natural-to-natural, one bit-reversal pass. The 1/n factor and
 * the coset powers are element scalings fused into the engine's first or last pass:
 *
 *   kind           input scaling         output scaling
 *   forward        -                     -
 *   inverse        -                     1/n
 *   coset forward  g^i  (entry i)        -
 *   coset inverse  -                     g^-i / n  (entry i)
 *
 * With bit-reversed data "entry i" sits at position bitrev(i), hence the REV scaling kind.
 */
#include "field/consts.h"
#include "ntt/ntt_internal.h"

static cuzk_fr fr_inv_u64(uint64_t v) {
  cuzk_fr x, r;
  cuzk_fr_from_u64(&x, v);
  cuzk_fr_inv(&r, &x);
  return r;
}

cuzk_ntt_err cuzk_ntt(cuzk_fr *v, size_t n, cuzk_ntt_kind kind, cuzk_ntt_order order,
                      cuzk_pool *pool, unsigned max_workers) {
  if (!v) return CUZK_NTT_ENULL;
  if ((unsigned)kind > CUZK_NTT_COSET_INVERSE || (unsigned)order > CUZK_NTT_RN)
    return CUZK_NTT_EINVAL;
  unsigned k;
  cuzk_ntt_err err = ntt_check_size(n, &k);
  if (err != CUZK_NTT_OK) return err;

  ntt_job job = {.x = v, .k = k, .pool = pool, .max_workers = max_workers};
  job.dit = order == CUZK_NTT_RN; /* the data is bit-reversed going in */
  job.inverse = kind == CUZK_NTT_INVERSE || kind == CUZK_NTT_COSET_INVERSE;
  /* Where the coefficients sit: going in for a forward kind, coming out for an inverse one. The
   * engine's output is bit-reversed for DIF (NN and NR), natural for DIT. */
  const bool coef_rev = job.inverse ? !job.dit : job.dit;
  const ntt_scale_kind by_entry = coef_rev ? NTT_SCALE_REV : NTT_SCALE_NAT;
  switch (kind) {
  case CUZK_NTT_FORWARD: break;
  case CUZK_NTT_INVERSE:
    job.post.kind = NTT_SCALE_CONST;
    job.post.K = fr_inv_u64(n);
    break;
  case CUZK_NTT_COSET_FORWARD:
    job.pre.kind = by_entry;
    job.pre.K = cuzk_fr_one;
    job.pre.s = CUZK_FR_GENERATOR;
    break;
  case CUZK_NTT_COSET_INVERSE:
    job.post.kind = by_entry;
    job.post.K = fr_inv_u64(n);
    cuzk_fr_inv(&job.post.s, &CUZK_FR_GENERATOR);
    break;
  }
  err = ntt_run(&job);
  if (err == CUZK_NTT_OK && order == CUZK_NTT_NN) ntt_bitreverse(v, k, pool, max_workers);
  return err;
}

cuzk_ntt_err cuzk_ntt_forward(cuzk_fr *v, size_t n, cuzk_pool *pool, unsigned max_workers) {
  return cuzk_ntt(v, n, CUZK_NTT_FORWARD, CUZK_NTT_NN, pool, max_workers);
}

cuzk_ntt_err cuzk_ntt_inverse(cuzk_fr *v, size_t n, cuzk_pool *pool, unsigned max_workers) {
  return cuzk_ntt(v, n, CUZK_NTT_INVERSE, CUZK_NTT_NN, pool, max_workers);
}

cuzk_ntt_err cuzk_ntt_coset_forward(cuzk_fr *v, size_t n, cuzk_pool *pool, unsigned max_workers) {
  return cuzk_ntt(v, n, CUZK_NTT_COSET_FORWARD, CUZK_NTT_NN, pool, max_workers);
}

cuzk_ntt_err cuzk_ntt_coset_inverse(cuzk_fr *v, size_t n, cuzk_pool *pool, unsigned max_workers) {
  return cuzk_ntt(v, n, CUZK_NTT_COSET_INVERSE, CUZK_NTT_NN, pool, max_workers);
}

cuzk_ntt_err cuzk_ntt_bitreverse(cuzk_fr *v, size_t n, cuzk_pool *pool, unsigned max_workers) {
  if (!v) return CUZK_NTT_ENULL;
  unsigned k;
  cuzk_ntt_err err = ntt_check_size(n, &k);
  if (err != CUZK_NTT_OK) return err;
  ntt_bitreverse(v, k, pool, max_workers);
  return CUZK_NTT_OK;
}
