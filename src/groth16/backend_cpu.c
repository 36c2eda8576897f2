/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Backend one (docs/backends.md "The CPU backend"): the bases of a parameter set decoded in
 * process memory, the domain vectors from the buffer cache, the H chain on the NTT layer, the
 * MSMs on the MSM layer, everything on the caller's pool.
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/groth16/g16_backend.h"
#include "cuzk/msm/msm.h"
#include "cuzk/ntt/ntt.h"
#include "groth16/g16_internal.h"

/* A set's bases: the caller's decoded set, one decoded from a mapping (owned), or the file read
 * in place (ip: the MSMs stream the bases from it). */
typedef struct {
  const cuzk_g16_params *p;
  cuzk_g16_params *owned;
  g16_in_place *ip;
} cpu_set;

/* Two vectors with pre-compiled constraints (C's values are formed only once A·B is), else
 * three. */
struct cuzk_g16_domain {
  size_t m;
  unsigned count;
  cuzk_fr *v[3];
};

static unsigned domain_vectors(bool precompiled) { return precompiled ? 2 : 3; }

static cuzk_g16_err cpu_attach(const cuzk_g16_backend *be, cuzk_g16_set *set,
                               const cuzk_g16_source *src, const cuzk_g16_exec *x, char *msg,
                               size_t msg_len) {
  (void)be;
  cpu_set *c = calloc(1, sizeof *c);
  if (!c) return CUZK_G16_ENOMEM;
  cuzk_g16_err e = CUZK_G16_OK;
  switch (src->kind) {
  case CUZK_G16_SOURCE_DECODED:
    if (!(c->p = src->params)) e = CUZK_G16_EINVAL;
    break;
  case CUZK_G16_SOURCE_MAPPED:
    if (src->in_place) { /* the file stays mapped; each MSM decodes its bases as it goes */
      e = src->path ? g16_in_place_open(&c->ip, src->path, src->check_subgroup, x->pool, x->cancel,
                                        src->progress, NULL, msg, msg_len)
                    : CUZK_G16_EINVAL;
      break;
    }
    /* else decode the mapping once */
    if (!src->file || !src->path)
      e = CUZK_G16_EINVAL;
    else if (!(e = cuzk_g16_params_decode(src->file, src->path, x->pool, x->cancel, &c->owned, msg,
                                          msg_len)))
      c->p = c->owned;
    break;
  default: e = CUZK_G16_EINVAL;
  }
  if (e) {
    free(c);
    return e;
  }
  if (c->ip) {
    set->vk = c->ip->vk;
    set->n_h = c->ip->n[CUZK_G16_Q_H];
    set->n_l = c->ip->n[CUZK_G16_Q_L];
    set->n_a = c->ip->n[CUZK_G16_Q_A];
    set->n_b1 = c->ip->n[CUZK_G16_Q_B_G1];
    set->n_b2 = c->ip->n[CUZK_G16_Q_B_G2];
  } else {
    set->vk = &c->p->vk;
    set->n_h = c->p->n_h;
    set->n_l = c->p->n_l;
    set->n_a = c->p->n_a;
    set->n_b1 = c->p->n_b1;
    set->n_b2 = c->p->n_b2;
  }
  set->impl = c;
  return CUZK_G16_OK;
}

static void cpu_detach(const cuzk_g16_backend *be, cuzk_g16_set *set) {
  (void)be;
  cpu_set *c = set->impl;
  cuzk_g16_params_free(c->owned);
  g16_in_place_free(c->ip);
  free(c);
  set->impl = NULL;
}

/* The domain vectors; the MSM scratch (buckets, a window's digits) is small next to them. */
static void cpu_estimate(const cuzk_g16_backend *be, const cuzk_g16_set *set, bool precompiled,
                         cuzk_g16_mem *out) {
  (void)be;
  const cpu_set *c = set->impl;
  out->host_bytes = (uint64_t)domain_vectors(precompiled) * sizeof(cuzk_fr) * (set->n_h + 1);
  /* read in place: an MSM's chunk of G2 bases and scalars, and its buckets at their bound */
  if (c && c->ip)
    out->host_bytes += CUZK_MSM_STREAM_CHUNK * (sizeof(cuzk_g2_affine) + sizeof(cuzk_fr)) +
                       CUZK_MSM_STREAM_BUCKET_BYTES;
  out->device_bytes = 0;
}

static void cpu_domain_put(const cuzk_g16_backend *be, cuzk_g16_domain *d) {
  (void)be;
  if (!d) return;
  for (unsigned k = 0; k < d->count; k++)
    cuzk_buffer_put(d->v[k]);
  free(d);
}

static cuzk_g16_err cpu_domain_get(const cuzk_g16_backend *be, size_t m, bool precompiled,
                                   cuzk_g16_domain **out) {
  cuzk_g16_domain *d = calloc(1, sizeof *d);
  if (!d) return CUZK_G16_ENOMEM;
  d->m = m;
  d->count = domain_vectors(precompiled);
  for (unsigned k = 0; k < d->count; k++)
    if (!(d->v[k] = cuzk_buffer_get(m * sizeof(cuzk_fr)))) {
      cpu_domain_put(be, d);
      return CUZK_G16_ENOMEM;
    }
  *out = d;
  return CUZK_G16_OK;
}

static cuzk_g16_err cpu_h_from_abc(const cuzk_g16_backend *be, cuzk_g16_domain *d,
                                   const cuzk_cs_result *w, const cuzk_g16_exec *x) {
  (void)be;
  size_t m = d->m, n = w->num_constraints;
  if (d->count < 3 || n > m) return CUZK_G16_EINVAL;
  const cuzk_fr *abc[3] = {w->a, w->b, w->c};
  for (int k = 0; k < 3; k++) {
    memcpy(d->v[k], abc[k], n * sizeof(cuzk_fr));
    memset(d->v[k] + n, 0, (m - n) * sizeof(cuzk_fr));
  }
  return g16_from_ntt(
      cuzk_ntt_h_cancellable(d->v[0], d->v[1], d->v[2], m, x->pool, x->max_workers, x->cancel));
}

/* H with two domain vectors (docs/groth16.md "Pre-compiled constraints: H with two vectors"):
 * A's and B's values to the coset and multiplied, then C's values computed into B's memory. */
static cuzk_g16_err cpu_h_from_pce(const cuzk_g16_backend *be, cuzk_g16_domain *d,
                                   const cuzk_pce *pce, const cuzk_cs_result *w,
                                   const cuzk_g16_exec *x) {
  (void)be;
  size_t m = d->m;
  if (d->count < 2) return CUZK_G16_EINVAL;
  cuzk_pool *pool = x->pool;
  unsigned mw = x->max_workers;
  cuzk_fr **v = d->v;
  cuzk_ntt_err e;
  for (int k = 0; k < 2; k++) {
    cuzk_pce_eval_matrix(pce, k, w->inputs, w->aux, w->aux_kind, v[k], m, pool, mw);
    if ((e = cuzk_ntt_h_coset(v[k], m, pool, mw, x->cancel))) return g16_from_ntt(e);
  }
  if ((e = cuzk_ntt_h_mul(v[0], v[1], m, pool, mw))) return g16_from_ntt(e);
  cuzk_pce_eval_matrix(pce, 2, w->inputs, w->aux, w->aux_kind, v[1], m, pool, mw);
  if ((e = cuzk_ntt_h_coset(v[1], m, pool, mw, x->cancel))) return g16_from_ntt(e);
  if ((e = cuzk_ntt_h_sub(v[0], v[1], m, pool, mw))) return g16_from_ntt(e);
  return g16_from_ntt(cuzk_ntt_h_finish(v[0], m, pool, mw, x->cancel));
}

/* Bases first .. first + n - 1 of q, NULL when they run past the vector. */
static const void *bases(const cuzk_g16_params *p, cuzk_g16_query q, size_t first, size_t n) {
  const void *v = NULL;
  size_t len = 0, size = sizeof(cuzk_g1_affine);
  switch (q) {
  case CUZK_G16_Q_H: v = p->h, len = p->n_h; break;
  case CUZK_G16_Q_L: v = p->l, len = p->n_l; break;
  case CUZK_G16_Q_A: v = p->a, len = p->n_a; break;
  case CUZK_G16_Q_B_G1: v = p->b_g1, len = p->n_b1; break;
  case CUZK_G16_Q_B_G2: v = p->b_g2, len = p->n_b2, size = sizeof(cuzk_g2_affine); break;
  }
  if (!v || first > len || n > len - first) return NULL;
  return (const uint8_t *)v + first * size;
}

static cuzk_msm_opts msm_opts(const cuzk_g16_exec *x) {
  cuzk_msm_opts o = {x->pool, x->max_workers, CUZK_MSM_AUTO, 0, x->cancel};
  return o;
}

static cuzk_g16_err cpu_msm_g1(const cuzk_g16_backend *be, const cuzk_g16_set *set,
                               cuzk_g16_query q, size_t first, size_t n, const cuzk_g16_domain *d,
                               const cuzk_g16_exec *x, cuzk_g1 *out) {
  (void)be;
  const cpu_set *c = set->impl;
  cuzk_msm_opts o = msm_opts(x);
  if (c->ip) {
    g16_in_place_src ctx;
    cuzk_msm_source src;
    if (q == CUZK_G16_Q_B_G2 || n > d->m || !g16_in_place_source(c->ip, q, first, n, &ctx, &src))
      return CUZK_G16_EINVAL;
    return g16_from_msm(cuzk_g1_msm_stream(out, &src, d->v[0], n, &o));
  }
  const cuzk_g1_affine *b = q == CUZK_G16_Q_B_G2 ? NULL : bases(c->p, q, first, n);
  if (!b || n > d->m) return CUZK_G16_EINVAL;
  return g16_from_msm(cuzk_g1_msm(out, b, d->v[0], n, &o));
}

static cuzk_g16_err cpu_msm_g1_witness(const cuzk_g16_backend *be, const cuzk_g16_set *set,
                                       cuzk_g16_query q, size_t first, size_t nbases,
                                       const cuzk_fr *scalars, size_t n, const uint64_t *density,
                                       const cuzk_g16_exec *x, cuzk_g1 *out) {
  (void)be;
  const cpu_set *c = set->impl;
  cuzk_msm_opts o = msm_opts(x);
  if (c->ip) {
    g16_in_place_src ctx;
    cuzk_msm_source src;
    if (q == CUZK_G16_Q_B_G2 || !g16_in_place_source(c->ip, q, first, nbases, &ctx, &src))
      return CUZK_G16_EINVAL;
    return g16_from_msm(cuzk_g1_msm_witness_stream(out, &src, nbases, scalars, n, density, &o));
  }
  const cuzk_g1_affine *b = q == CUZK_G16_Q_B_G2 ? NULL : bases(c->p, q, first, nbases);
  if (!b) return CUZK_G16_EINVAL;
  return g16_from_msm(cuzk_g1_msm_witness(out, b, nbases, scalars, n, density, &o));
}

static cuzk_g16_err cpu_msm_g2_witness(const cuzk_g16_backend *be, const cuzk_g16_set *set,
                                       cuzk_g16_query q, size_t first, size_t nbases,
                                       const cuzk_fr *scalars, size_t n, const uint64_t *density,
                                       const cuzk_g16_exec *x, cuzk_g2 *out) {
  (void)be;
  const cpu_set *c = set->impl;
  cuzk_msm_opts o = msm_opts(x);
  if (c->ip) {
    g16_in_place_src ctx;
    cuzk_msm_source src;
    if (q != CUZK_G16_Q_B_G2 || !g16_in_place_source(c->ip, q, first, nbases, &ctx, &src))
      return CUZK_G16_EINVAL;
    return g16_from_msm(cuzk_g2_msm_witness_stream(out, &src, nbases, scalars, n, density, &o));
  }
  const cuzk_g2_affine *b = q == CUZK_G16_Q_B_G2 ? bases(c->p, q, first, nbases) : NULL;
  if (!b) return CUZK_G16_EINVAL;
  return g16_from_msm(cuzk_g2_msm_witness(out, b, nbases, scalars, n, density, &o));
}

static const cuzk_g16_backend cpu_backend = {
    .name = "cpu",
    .ctx = NULL,
    .attach = cpu_attach,
    .detach = cpu_detach,
    .estimate = cpu_estimate,
    .domain_get = cpu_domain_get,
    .domain_put = cpu_domain_put,
    .h_from_abc = cpu_h_from_abc,
    .h_from_pce = cpu_h_from_pce,
    .msm_g1 = cpu_msm_g1,
    .msm_g1_witness = cpu_msm_g1_witness,
    .msm_g2_witness = cpu_msm_g2_witness,
    .msms = cuzk_g16_msms_each,
};

const cuzk_g16_backend *cuzk_g16_backend_cpu(void) { return &cpu_backend; }
