/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The Groth16 prover, bellperson's algorithm stage by stage (docs/spec/groth16.md §4): for each
 * circuit of the batch, append the per-input constraints, compute H (iNTT, coset NTT, quotient,
 * inverse coset NTT: cuzk_ntt_h), run the MSMs with the density rules (H dense; L, A, B
 * witness-aware, A/B consuming their bases in density order), and assemble
 *   A = alpha_1 + A_sum + r delta_1,   B = beta_2 + B2_sum + s delta_2,
 *   C = s A_sum + r B1_sum + (r s) delta_1 + s alpha_1 + r beta_1 + H + L.
 * The prover decides the stages and their order; the work runs on the parameter set's backend
 * (cuzk/groth16/g16_backend.h, docs/backends.md), which alone knows where the bases and the domain
 * vectors live. cuzk_g16_prove and cuzk_g16_prove_pce are the CPU backend on a decoded set.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuzk/groth16/g16_backend.h"
#include "cuzk/groth16/groth16.h"
#include "cuzk/r1cs/pce.h"
#include "cuzk/util/pool.h"
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

/* One circuit: H and the MSMs through the backend, then the assembly into *proof. a, b, c come
 * from w (PROVE mode) or, with pce, from the pre-compiled matrices times w's witness. */
static cuzk_g16_err prove_one(cuzk_g16_proof *proof, const cuzk_cs_result *w, const cuzk_pce *pce,
                              cuzk_g16_domain *d, const cuzk_g16_set *set, const cuzk_fr *r,
                              const cuzk_fr *s, const cuzk_g16_exec *x, cuzk_g16_timings *t) {
  const cuzk_g16_backend *be = set->backend;
  double t0 = now_s();
  /* h's coefficients end in the domain buffers, where the H MSM reads them */
  cuzk_g16_err e = pce ? be->h_from_pce(be, d, pce, w, x) : be->h_from_abc(be, d, w, x);
  if (e) return e;
  double t1 = now_s();
  t->h_s += t1 - t0;
  if (cuzk_cancelled(x->cancel)) return CUZK_G16_ECANCELLED;

  cuzk_g16_msm_sums m;
  if ((e = be->msms(be, set, d, w, x, &m, t))) return e;
  if (cuzk_cancelled(x->cancel)) return CUZK_G16_ECANCELLED;
  double t2 = now_s();

  /* assembly */
  const cuzk_g16_vk *vk = set->vk;
  cuzk_g1 alpha1, beta1, delta1, a_sum, b1_sum, acc, tmp;
  cuzk_g2 beta2, delta2, b2_sum, acc2, tmp2;
  cuzk_g1_from_affine(&alpha1, &vk->alpha_g1);
  cuzk_g1_from_affine(&beta1, &vk->beta_g1);
  cuzk_g1_from_affine(&delta1, &vk->delta_g1);
  cuzk_g2_from_affine(&beta2, &vk->beta_g2);
  cuzk_g2_from_affine(&delta2, &vk->delta_g2);
  cuzk_g1_add(&a_sum, &m.a_in, &m.a_aux);
  cuzk_g1_add(&b1_sum, &m.b1_in, &m.b1_aux);
  cuzk_g2_add(&b2_sum, &m.b2_in, &m.b2_aux);

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
  cuzk_g1_add(&acc, &m.h,
              &m.l); /* C = H + L + s A_sum + r B1_sum + rs delta_1 + s alpha_1 + r beta_1 */
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
  t->assembly_s += now_s() - t2;
  return CUZK_G16_OK;
}

/* A delta at infinity makes every proof forgeable: refused before any input is touched. */
static bool delta_degenerate(const cuzk_g16_vk *vk) {
  return cuzk_g1_affine_is_infinity(&vk->delta_g1) || cuzk_g2_affine_is_infinity(&vk->delta_g2);
}

/* The batch: ws[i] is circuit i's prover view (num_constraints with the per-input constraints),
 * all of one shape matching the parameters. */
static cuzk_g16_err prove_batch(cuzk_g16_proof *proofs, const cuzk_cs_result *ws, size_t n,
                                const cuzk_pce *pce, const cuzk_g16_set *set,
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
  if (set->vk->n_ic != sh.inputs || set->n_h != m - 1 || set->n_l != sh.aux ||
      set->n_a != sh.inputs + sh.a_aux || set->n_b1 != sh.b_in + sh.b_aux || set->n_b2 != set->n_b1)
    return CUZK_G16_ECOUNT;

  const cuzk_g16_backend *be = set->backend;
  /* the cancel flag reaches into the backend's steps: the H MSM alone takes seconds */
  cuzk_g16_exec x = {opts ? opts->pool : NULL, opts ? opts->max_workers : 0,
                     opts ? opts->cancel : NULL};
  cuzk_g16_domain *d = NULL; /* one set of domain vectors for the whole batch */
  cuzk_g16_err e = be->domain_get(be, m, pce != NULL, &d);
  for (size_t i = 0; i < n && !e; i++) {
    cuzk_fr r, s;
    if (opts && opts->r && opts->s) {
      r = opts->r[i];
      s = opts->s[i];
    } else if ((e = random_fr(&r)) || (e = random_fr(&s))) {
      break;
    }
    e = prove_one(&proofs[i], &ws[i], pce, d, set, &r, &s, &x, &t);
  }
  be->domain_put(be, d);
  t.total_s = now_s() - t_start;
  if (timings) *timings = t;
  return e;
}

cuzk_g16_err cuzk_g16_prove_set(cuzk_g16_proof *proofs, cuzk_cs *const *cs, size_t n,
                                const cuzk_g16_set *set, const cuzk_g16_prove_opts *opts,
                                cuzk_g16_timings *timings) {
  double t_start = now_s();
  if (!proofs || !cs || !set || n == 0) return CUZK_G16_EINVAL;
  for (size_t i = 0; i < n; i++)
    if (!cs[i] || cuzk_cs_mode_of(cs[i]) != CUZK_CS_PROVE || cuzk_cs_error(cs[i]))
      return CUZK_G16_ESYNTH;
  if (delta_degenerate(set->vk)) return CUZK_G16_EIDENTITY;
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
  if (!e) e = prove_batch(proofs, ws, n, NULL, set, opts, timings, t_start);
  free(ws);
  return e;
}

cuzk_g16_err cuzk_g16_prove_pce_set(cuzk_g16_proof *proofs, cuzk_cs *const *witness, size_t n,
                                    const cuzk_pce *pce, const cuzk_g16_set *set,
                                    const cuzk_g16_prove_opts *opts, cuzk_g16_timings *timings) {
  double t_start = now_s();
  if (!proofs || !witness || !pce || !set || n == 0) return CUZK_G16_EINVAL;
  if (delta_degenerate(set->vk)) return CUZK_G16_EIDENTITY;
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
  if (!e) e = prove_batch(proofs, ws, n, pce, set, opts, timings, t_start);
  free(ws);
  return e;
}

/* A decoded set on the CPU backend for the length of one call: the attachment borrows p. */
static cuzk_g16_err with_cpu(const cuzk_g16_params *p, cuzk_g16_set **set) {
  if (!p) return CUZK_G16_EINVAL;
  cuzk_g16_source src = {CUZK_G16_SOURCE_DECODED, p, NULL, NULL, false, false, NULL};
  return cuzk_g16_attach(set, cuzk_g16_backend_cpu(), &src, NULL, NULL, 0);
}

cuzk_g16_err cuzk_g16_prove(cuzk_g16_proof *proofs, cuzk_cs *const *cs, size_t n,
                            const cuzk_g16_params *p, const cuzk_g16_prove_opts *opts,
                            cuzk_g16_timings *timings) {
  cuzk_g16_set *set = NULL;
  cuzk_g16_err e = with_cpu(p, &set);
  if (!e) e = cuzk_g16_prove_set(proofs, cs, n, set, opts, timings);
  cuzk_g16_detach(set);
  return e;
}

cuzk_g16_err cuzk_g16_prove_pce(cuzk_g16_proof *proofs, cuzk_cs *const *witness, size_t n,
                                const cuzk_pce *pce, const cuzk_g16_params *p,
                                const cuzk_g16_prove_opts *opts, cuzk_g16_timings *timings) {
  cuzk_g16_set *set = NULL;
  cuzk_g16_err e = with_cpu(p, &set);
  if (!e) e = cuzk_g16_prove_pce_set(proofs, witness, n, pce, set, opts, timings);
  cuzk_g16_detach(set);
  return e;
}
