/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The Groth16 prover, bellperson's algorithm stage by stage (docs/spec/groth16.md §4): for each
 * circuit of the batch, append the per-input constraints, compute H (iNTT, coset NTT, quotient,
 * inverse coset NTT: cuzk_ntt_h), run the MSMs with the density rules (H dense; L, A, B
 * witness-aware, A/B consuming their bases in density order), and assemble
 *   A = alpha_1 + A_sum + r delta_1,   B = beta_2 + B2_sum + s delta_2,
 *   C = s A_sum + r B1_sum + (r s) delta_1 + s alpha_1 + r beta_1 + H + L.
 * The bases are the parameter set's, shared read-only by every proof.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuzk/groth16.h"
#include "cuzk/msm.h"
#include "cuzk/ntt.h"
#include "cuzk/pce.h"
#include "cuzk/pool.h"
#include "groth16/g16_internal.h"

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Fr::random: 255 random bits, rejected while >= r. */
static cuzk_g16_err random_fr(cuzk_fr *out) {
  for (int tries = 0; tries < 64; tries++) {
    uint64_t x[4];
    if (!g16_os_random(x, sizeof x)) return CUZK_G16_ERANDOM;
    x[3] &= 0x7fffffffffffffffULL;
    if (cuzk_fr_from_canonical(out, x)) return CUZK_G16_OK;
  }
  return CUZK_G16_ERANDOM;
}

typedef struct {
  size_t inputs, aux, cons, a_aux, b_in, b_aux;
} prove_shape;

static void shape_get(prove_shape *s, const cuzk_cs_result *r) {
  s->inputs = r->num_inputs;
  s->aux = r->num_aux;
  s->cons = r->num_constraints;
  s->a_aux = r->a_aux.count;
  s->b_in = r->b_input.count;
  s->b_aux = r->b_aux.count;
}

static cuzk_g16_err msm_err(cuzk_msm_err e) {
  switch (e) {
  case CUZK_MSM_OK: return CUZK_G16_OK;
  case CUZK_MSM_ENOMEM: return CUZK_G16_ENOMEM;
  case CUZK_MSM_ECANCELLED: return CUZK_G16_ECANCELLED;
  case CUZK_MSM_EINVAL: break;
  }
  return CUZK_G16_EINVAL;
}

/* H with two domain vectors (docs/groth16.md "Pre-compiled constraints: H with two vectors"):
 * A's and B's values to the coset and multiplied, then C's values computed into B's memory. */
static cuzk_ntt_err h_precompiled(const cuzk_pce *pce, const cuzk_cs_result *w, size_t m,
                                  cuzk_fr *bufs[3], const cuzk_msm_opts *mo,
                                  const _Atomic int *cancel) {
  cuzk_pool *pool = mo->pool;
  unsigned mw = mo->max_workers;
  cuzk_ntt_err e;
  for (int k = 0; k < 2; k++) {
    cuzk_pce_eval_matrix(pce, k, w->inputs, w->aux, w->aux_kind, bufs[k], m, pool, mw);
    if ((e = cuzk_ntt_h_coset(bufs[k], m, pool, mw, cancel))) return e;
  }
  if ((e = cuzk_ntt_h_mul(bufs[0], bufs[1], m, pool, mw))) return e;
  cuzk_pce_eval_matrix(pce, 2, w->inputs, w->aux, w->aux_kind, bufs[1], m, pool, mw);
  if ((e = cuzk_ntt_h_coset(bufs[1], m, pool, mw, cancel))) return e;
  if ((e = cuzk_ntt_h_sub(bufs[0], bufs[1], m, pool, mw))) return e;
  return cuzk_ntt_h_finish(bufs[0], m, pool, mw, cancel);
}

/* One circuit: H and the MSMs into the accumulators, then the assembly into *proof. a, b, c
 * come from w (PROVE mode) or, with pce, from the pre-compiled matrices times w's witness. */
static cuzk_g16_err prove_one(cuzk_g16_proof *proof, const cuzk_cs_result *w, const cuzk_pce *pce,
                              size_t m, cuzk_fr *bufs[3], const cuzk_g16_params *p,
                              const cuzk_fr *r, const cuzk_fr *s, const cuzk_msm_opts *mo,
                              const _Atomic int *cancel, cuzk_g16_timings *t) {
#define STAGE_END                                           \
  do {                                                      \
    if (cuzk_cancelled(cancel)) return CUZK_G16_ECANCELLED; \
  } while (0)
  double t0 = now_s();
  /* a, b, c zero-padded to the domain; h's coefficients end in bufs[0] */
  cuzk_ntt_err ne;
  if (pce) {
    ne = h_precompiled(pce, w, m, bufs, mo, cancel);
  } else {
    const cuzk_fr *abc[3] = {w->a, w->b, w->c};
    for (int k = 0; k < 3; k++) {
      memcpy(bufs[k], abc[k], w->num_constraints * sizeof(cuzk_fr));
      memset(bufs[k] + w->num_constraints, 0, (m - w->num_constraints) * sizeof(cuzk_fr));
    }
    ne = cuzk_ntt_h_cancellable(bufs[0], bufs[1], bufs[2], m, mo->pool, mo->max_workers, cancel);
  }
  if (ne == CUZK_NTT_ECANCELLED) return CUZK_G16_ECANCELLED;
  if (ne != CUZK_NTT_OK) return CUZK_G16_ENOMEM;
  double t1 = now_s();
  t->h_s += t1 - t0;
  STAGE_END;

  cuzk_g1 h, l, a_in, a_aux, b1_in, b1_aux;
  cuzk_g2 b2_in, b2_aux;
  cuzk_g16_err e;
  if ((e = msm_err(cuzk_g1_msm(&h, p->h, bufs[0], m - 1, mo)))) return e;
  double t2 = now_s();
  t->msm_h_s += t2 - t1;
  STAGE_END;
  if ((e = msm_err(cuzk_g1_msm_witness(&l, p->l, p->n_l, w->aux, w->num_aux, NULL, mo)))) return e;
  double t3 = now_s();
  t->msm_l_s += t3 - t2;
  STAGE_END;
  size_t ni = w->num_inputs;
  if ((e = msm_err(cuzk_g1_msm_witness(&a_in, p->a, ni, w->inputs, ni, NULL, mo)))) return e;
  if ((e = msm_err(cuzk_g1_msm_witness(&a_aux, p->a + ni, p->n_a - ni, w->aux, w->num_aux,
                                       w->a_aux.bits, mo))))
    return e;
  double t4 = now_s();
  t->msm_a_s += t4 - t3;
  STAGE_END;
  size_t bi = w->b_input.count;
  if ((e = msm_err(cuzk_g1_msm_witness(&b1_in, p->b_g1, bi, w->inputs, ni, w->b_input.bits, mo))))
    return e;
  if ((e = msm_err(cuzk_g1_msm_witness(&b1_aux, p->b_g1 + bi, p->n_b1 - bi, w->aux, w->num_aux,
                                       w->b_aux.bits, mo))))
    return e;
  double t5 = now_s();
  t->msm_b1_s += t5 - t4;
  STAGE_END;
  if ((e = msm_err(cuzk_g2_msm_witness(&b2_in, p->b_g2, bi, w->inputs, ni, w->b_input.bits, mo))))
    return e;
  if ((e = msm_err(cuzk_g2_msm_witness(&b2_aux, p->b_g2 + bi, p->n_b2 - bi, w->aux, w->num_aux,
                                       w->b_aux.bits, mo))))
    return e;
  double t6 = now_s();
  t->msm_b2_s += t6 - t5;
  STAGE_END;

  /* assembly */
  cuzk_g1 alpha1, beta1, delta1, a_sum, b1_sum, acc, tmp;
  cuzk_g2 beta2, delta2, b2_sum, acc2, tmp2;
  cuzk_g1_from_affine(&alpha1, &p->vk.alpha_g1);
  cuzk_g1_from_affine(&beta1, &p->vk.beta_g1);
  cuzk_g1_from_affine(&delta1, &p->vk.delta_g1);
  cuzk_g2_from_affine(&beta2, &p->vk.beta_g2);
  cuzk_g2_from_affine(&delta2, &p->vk.delta_g2);
  cuzk_g1_add(&a_sum, &a_in, &a_aux);
  cuzk_g1_add(&b1_sum, &b1_in, &b1_aux);
  cuzk_g2_add(&b2_sum, &b2_in, &b2_aux);

  cuzk_g1_mul(&tmp, &delta1, r); /* A = alpha_1 + A_sum + r delta_1 */
  cuzk_g1_add(&acc, &alpha1, &a_sum);
  cuzk_g1_add(&acc, &acc, &tmp);
  cuzk_g1_to_affine(&proof->a, &acc);

  cuzk_g2_mul(&tmp2, &delta2, s); /* B = beta_2 + B2_sum + s delta_2 */
  cuzk_g2_add(&acc2, &beta2, &b2_sum);
  cuzk_g2_add(&acc2, &acc2, &tmp2);
  cuzk_g2_to_affine(&proof->b, &acc2);

  cuzk_fr rs;
  cuzk_fr_mul(&rs, r, s);
  cuzk_g1_add(&acc, &h,
              &l); /* C = H + L + s A_sum + r B1_sum + rs delta_1 + s alpha_1 + r beta_1 */
  cuzk_g1_mul(&tmp, &a_sum, s);
  cuzk_g1_add(&acc, &acc, &tmp);
  cuzk_g1_mul(&tmp, &b1_sum, r);
  cuzk_g1_add(&acc, &acc, &tmp);
  cuzk_g1_mul(&tmp, &delta1, &rs);
  cuzk_g1_add(&acc, &acc, &tmp);
  cuzk_g1_mul(&tmp, &alpha1, s);
  cuzk_g1_add(&acc, &acc, &tmp);
  cuzk_g1_mul(&tmp, &beta1, r);
  cuzk_g1_add(&acc, &acc, &tmp);
  cuzk_g1_to_affine(&proof->c, &acc);
  t->assembly_s += now_s() - t6;
  return CUZK_G16_OK;
#undef STAGE_END
}

/* A delta at infinity makes every proof forgeable: refused before any input is touched. */
static bool delta_degenerate(const cuzk_g16_params *p) {
  return cuzk_g1_affine_is_infinity(&p->vk.delta_g1) || cuzk_g2_affine_is_infinity(&p->vk.delta_g2);
}

/* The batch: ws[i] is circuit i's prover view (num_constraints with the per-input constraints),
 * all of one shape matching the parameters. */
static cuzk_g16_err prove_batch(cuzk_g16_proof *proofs, const cuzk_cs_result *ws, size_t n,
                                const cuzk_pce *pce, const cuzk_g16_params *p,
                                const cuzk_g16_prove_opts *opts, cuzk_g16_timings *timings,
                                double t_start) {
  cuzk_g16_timings t;
  memset(&t, 0, sizeof t);
  prove_shape sh = {0};
  for (size_t i = 0; i < n; i++) {
    prove_shape si;
    shape_get(&si, &ws[i]);
    if (i == 0)
      sh = si;
    else if (memcmp(&si, &sh, sizeof sh) != 0)
      return CUZK_G16_ESHAPE;
  }
  size_t m = cuzk_g16_domain_size(sh.cons);
  if (m == 0) return CUZK_G16_ESHAPE;
  if (p->vk.n_ic != sh.inputs || p->n_h != m - 1 || p->n_l != sh.aux ||
      p->n_a != sh.inputs + sh.a_aux || p->n_b1 != sh.b_in + sh.b_aux || p->n_b2 != p->n_b1)
    return CUZK_G16_ECOUNT;

  cuzk_fr *bufs[3] = {0};
  cuzk_g16_err e = CUZK_G16_OK;
  for (int k = 0; k < (pce ? 2 : 3) && !e; k++) /* pre-compiled: two vectors (h_precompiled) */
    if (!(bufs[k] = cuzk_buffer_get(m * sizeof(cuzk_fr)))) e = CUZK_G16_ENOMEM;
  /* the cancel flag reaches into the MSMs: the H MSM alone takes seconds */
  cuzk_msm_opts mo = {opts ? opts->pool : NULL, opts ? opts->max_workers : 0, CUZK_MSM_AUTO, 0,
                      opts ? opts->cancel : NULL};
  for (size_t i = 0; i < n && !e; i++) {
    cuzk_fr r, s;
    if (opts && opts->r && opts->s) {
      r = opts->r[i];
      s = opts->s[i];
    } else if ((e = random_fr(&r)) || (e = random_fr(&s))) {
      break;
    }
    e = prove_one(&proofs[i], &ws[i], pce, m, bufs, p, &r, &s, &mo, opts ? opts->cancel : NULL, &t);
  }
  for (int k = 0; k < 3; k++)
    cuzk_buffer_put(bufs[k]);
  t.total_s = now_s() - t_start;
  if (timings) *timings = t;
  return e;
}

cuzk_g16_err cuzk_g16_prove(cuzk_g16_proof *proofs, cuzk_cs *const *cs, size_t n,
                            const cuzk_g16_params *p, const cuzk_g16_prove_opts *opts,
                            cuzk_g16_timings *timings) {
  double t_start = now_s();
  if (!proofs || !cs || !p || n == 0) return CUZK_G16_EINVAL;
  for (size_t i = 0; i < n; i++)
    if (!cs[i] || cuzk_cs_mode_of(cs[i]) != CUZK_CS_PROVE || cuzk_cs_error(cs[i]))
      return CUZK_G16_ESYNTH;
  if (delta_degenerate(p)) return CUZK_G16_EIDENTITY;
  cuzk_cs_result *ws = malloc(n * sizeof *ws);
  if (!ws) return CUZK_G16_ENOMEM;
  cuzk_g16_err e = CUZK_G16_OK;
  for (size_t i = 0; i < n && !e; i++) { /* the per-input constraints, as bellperson appends them */
    cuzk_cs_enforce_input_constraints(cs[i]);
    if (cuzk_cs_error(cs[i]))
      e = CUZK_G16_ESYNTH;
    else
      cuzk_cs_result_get(cs[i], &ws[i]);
  }
  if (!e) e = prove_batch(proofs, ws, n, NULL, p, opts, timings, t_start);
  free(ws);
  return e;
}

cuzk_g16_err cuzk_g16_prove_pce(cuzk_g16_proof *proofs, cuzk_cs *const *witness, size_t n,
                                const cuzk_pce *pce, const cuzk_g16_params *p,
                                const cuzk_g16_prove_opts *opts, cuzk_g16_timings *timings) {
  double t_start = now_s();
  if (!proofs || !witness || !pce || !p || n == 0) return CUZK_G16_EINVAL;
  if (delta_degenerate(p)) return CUZK_G16_EIDENTITY;
  cuzk_cs_result *ws = malloc(n * sizeof *ws);
  if (!ws) return CUZK_G16_ENOMEM;
  cuzk_g16_err e = CUZK_G16_OK;
  for (size_t i = 0; i < n && !e; i++) {
    if (!witness[i] || cuzk_cs_mode_of(witness[i]) != CUZK_CS_WITNESS ||
        cuzk_cs_error(witness[i]) || cuzk_pce_result(pce, witness[i], &ws[i]))
      e = CUZK_G16_ESYNTH;
    else /* the evaluator appends the per-input constraints */
      ws[i].num_constraints += ws[i].num_inputs;
  }
  if (!e) e = prove_batch(proofs, ws, n, pce, p, opts, timings, t_start);
  free(ws);
  return e;
}
