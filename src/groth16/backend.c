/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * What every prover backend shares (docs/backends.md): attaching a parameter set to a backend,
 * letting it go, asking it for memory, and the batch MSM entry as its single entries one after the
 * other, for a backend that does not overlap them.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cuzk/groth16/g16_backend.h"

cuzk_g16_err cuzk_g16_attach(cuzk_g16_set **out, const cuzk_g16_backend *be,
                             const cuzk_g16_source *src, const cuzk_g16_exec *x, char *msg,
                             size_t msg_len) {
  if (!out || !src) return CUZK_G16_EINVAL;
  *out = NULL;
  if (!be) be = cuzk_g16_backend_cpu();
  cuzk_g16_set *s = calloc(1, sizeof *s);
  if (!s) return CUZK_G16_ENOMEM;
  s->backend = be;
  cuzk_g16_exec none = {0};
  char ignored[1];
  if (!msg || !msg_len) msg = ignored, msg_len = sizeof ignored;
  msg[0] = 0;
  cuzk_g16_err e = be->attach(be, s, src, x ? x : &none, msg, msg_len);
  if (e) {
    if (!msg[0]) snprintf(msg, msg_len, "%s backend: %s", be->name, cuzk_g16_strerror(e));
    free(s);
    return e;
  }
  *out = s;
  return CUZK_G16_OK;
}

void cuzk_g16_detach(cuzk_g16_set *set) {
  if (!set) return;
  set->backend->detach(set->backend, set);
  free(set);
}

void cuzk_g16_estimate(const cuzk_g16_set *set, bool precompiled, cuzk_g16_mem *out) {
  set->backend->estimate(set->backend, set, precompiled, out);
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The order of bellperson's prover (docs/spec/groth16.md §4.3): H dense; L over the aux values;
 * A and B split at the inputs, their aux bases consumed in density order. */
cuzk_g16_err cuzk_g16_msms_each(const cuzk_g16_backend *be, const cuzk_g16_set *set,
                                const cuzk_g16_domain *d, const cuzk_cs_result *w,
                                const cuzk_g16_exec *x, cuzk_g16_msm_sums *o, cuzk_g16_timings *t) {
#define STEP(call)            \
  do {                        \
    cuzk_g16_err e_ = (call); \
    if (e_) return e_;        \
  } while (0)
#define STAGE_END(field)                                       \
  do {                                                         \
    double t_ = now_s();                                       \
    if (t) t->field += t_ - t0;                                \
    t0 = t_;                                                   \
    if (cuzk_cancelled(x->cancel)) return CUZK_G16_ECANCELLED; \
  } while (0)
  size_t ni = w->num_inputs, na = w->num_aux, bi = w->b_input.count;
  double t0 = now_s();
  STEP(be->msm_g1(be, set, CUZK_G16_Q_H, 0, set->n_h, d, x, &o->h));
  STAGE_END(msm_h_s);
  STEP(be->msm_g1_witness(be, set, CUZK_G16_Q_L, 0, set->n_l, w->aux, na, NULL, x, &o->l));
  STAGE_END(msm_l_s);
  STEP(be->msm_g1_witness(be, set, CUZK_G16_Q_A, 0, ni, w->inputs, ni, NULL, x, &o->a_in));
  STEP(be->msm_g1_witness(be, set, CUZK_G16_Q_A, ni, set->n_a - ni, w->aux, na, w->a_aux.bits, x,
                          &o->a_aux));
  STAGE_END(msm_a_s);
  STEP(be->msm_g1_witness(be, set, CUZK_G16_Q_B_G1, 0, bi, w->inputs, ni, w->b_input.bits, x,
                          &o->b1_in));
  STEP(be->msm_g1_witness(be, set, CUZK_G16_Q_B_G1, bi, set->n_b1 - bi, w->aux, na, w->b_aux.bits,
                          x, &o->b1_aux));
  STAGE_END(msm_b1_s);
  STEP(be->msm_g2_witness(be, set, CUZK_G16_Q_B_G2, 0, bi, w->inputs, ni, w->b_input.bits, x,
                          &o->b2_in));
  STEP(be->msm_g2_witness(be, set, CUZK_G16_Q_B_G2, bi, set->n_b2 - bi, w->aux, na, w->b_aux.bits,
                          x, &o->b2_aux));
  STAGE_END(msm_b2_s);
  return CUZK_G16_OK;
#undef STEP
#undef STAGE_END
}
