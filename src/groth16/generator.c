/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Test-parameter generator (docs/spec/groth16.md §6, bellperson generator.rs) with the standard
 * generators g1, g2 and toxic waste derived from a seed. FOR TESTS ONLY: the seed reveals the
 * trapdoor.
 *
 * Every scalar multiplication has a fixed base (g1 or g2): a table of d·2^(c·w)·g for the
 * c-bit windows w and digits d = 1..2^c - 1 (c from fb_width, up to 12) turns each into one
 * addition per window, done in affine form for a chunk of scalars at once with one inversion per
 * window (Montgomery's trick): cuzk/msm.h's batched affine sums, on the IFMA lanes where enabled.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/msm.h"
#include "cuzk/ntt.h"
#include "cuzk/sha256.h"
#include "groth16/g16_internal.h"

#define FB_CHUNK 256 /* results normalized together */

/* ---- fixed-base tables ----------------------------------------------------------------------- */
/* The window width c (4..12 bits) minimizing table size plus additions for n multiplications. */
static unsigned fb_width(size_t n) {
  unsigned best = 4;
  double best_cost = 0;
  for (unsigned c = 4; c <= 12; c++) {
    double windows = (double)((255 + c - 1) / c);
    double cost = windows * ((double)((1u << c) - 1) + (double)n);
    if (c == 4 || cost < best_cost) {
      best = c;
      best_cost = cost;
    }
  }
  return best;
}

/* Window w (bits w·c .. w·c + c - 1) of a canonical 255-bit scalar. */
static unsigned fb_digit(const uint64_t x[4], unsigned c, unsigned w) {
  unsigned bit = w * c, limb = bit / 64, off = bit % 64;
  uint64_t v = x[limb] >> off;
  if (off + c > 64 && limb + 1 < 4) v |= x[limb + 1] << (64 - off);
  return (unsigned)v & ((1u << c) - 1);
}

/* t[w·(2^c - 1) + d - 1] = d·2^(c·w)·base (affine), for the windows w covering 255 bits. */
#define FB_DEFINE(G, AFF, JAC, F)                                                            \
  typedef struct {                                                                           \
    AFF *t;                                                                                  \
    unsigned c, windows;                                                                     \
    size_t digits;                                                                           \
    JAC *bases;                    /* 2^(c·w)·base, while building */                      \
    const cuzk_progress *progress; /* while building: its cancel flag, read per window */    \
    atomic_bool failed;                                                                      \
  } G##_fb;                                                                                  \
                                                                                             \
  static void G##_fb_build_range(void *ctx, size_t begin, size_t end) {                      \
    G##_fb *f = ctx;                                                                         \
    JAC *row = malloc(f->digits * sizeof *row);                                              \
    if (!row) {                                                                              \
      atomic_store(&f->failed, true);                                                        \
      return;                                                                                \
    }                                                                                        \
    for (size_t w = begin; w < end && !cuzk_progress_cancelled(f->progress); w++) {          \
      row[0] = f->bases[w];                                                                  \
      for (size_t d = 1; d < f->digits; d++)                                                 \
        cuzk_##G##_add(&row[d], &row[d - 1], &f->bases[w]);                                  \
      cuzk_##G##_batch_to_affine(f->t + w * f->digits, row, f->digits);                      \
    }                                                                                        \
    free(row);                                                                               \
  }                                                                                          \
                                                                                             \
  /* false if out of memory or cancelled (cuzk_progress_cancelled tells which) */            \
  static bool G##_fb_build(G##_fb *f, const JAC *base, size_t n, cuzk_pool *pool,            \
                           unsigned max_workers, const cuzk_progress *progress) {            \
    f->c = fb_width(n);                                                                      \
    f->windows = (255 + f->c - 1) / f->c;                                                    \
    f->digits = ((size_t)1 << f->c) - 1;                                                     \
    f->t = malloc(f->windows * f->digits * sizeof *f->t);                                    \
    f->bases = malloc(f->windows * sizeof *f->bases);                                        \
    atomic_init(&f->failed, false);                                                          \
    f->progress = progress;                                                                  \
    if (!f->t || !f->bases) {                                                                \
      free(f->bases);                                                                        \
      return false;                                                                          \
    }                                                                                        \
    f->bases[0] = *base;                                                                     \
    for (unsigned w = 1; w < f->windows; w++) {                                              \
      f->bases[w] = f->bases[w - 1];                                                         \
      for (unsigned i = 0; i < f->c; i++)                                                    \
        cuzk_##G##_dbl(&f->bases[w], &f->bases[w]);                                          \
    }                                                                                        \
    cuzk_parallel_for(pool, f->windows, 1, G##_fb_build_range, f, max_workers);              \
    free(f->bases);                                                                          \
    f->bases = NULL;                                                                         \
    f->progress = NULL;                                                                      \
    return !atomic_load(&f->failed) && !cuzk_progress_cancelled(progress);                   \
  }                                                                                          \
                                                                                             \
  typedef struct {                                                                           \
    const G##_fb *f;                                                                         \
    const cuzk_fr *k;                                                                        \
    AFF *out;                                                                                \
    const cuzk_progress *progress; /* its cancel flag, read between chunks */                \
    atomic_bool failed, cancelled;                                                           \
  } G##_fb_job;                                                                              \
                                                                                             \
  /* A chunk's results accumulate as cuzk/msm.h's batched affine sums, window by window: the \
   * additions of one window share one inversion and run on the IFMA lanes where enabled. */ \
  typedef struct {                                                                           \
    uint64_t x[FB_CHUNK][4];                                                                 \
    uint32_t idx[FB_CHUNK];                                                                  \
    const AFF *pt[FB_CHUNK];                                                                 \
  } G##_fb_lanes;                                                                            \
                                                                                             \
  static void G##_fb_range(void *ctx, size_t begin, size_t end) {                            \
    G##_fb_job *j = ctx;                                                                     \
    const G##_fb *f = j->f;                                                                  \
    G##_fb_lanes *L = malloc(sizeof *L);                                                     \
    cuzk_##G##_sums *sums = cuzk_##G##_sums_new(FB_CHUNK);                                   \
    if (!L || !sums) {                                                                       \
      atomic_store(&j->failed, true);                                                        \
      goto out;                                                                              \
    }                                                                                        \
    for (size_t i = begin; i < end; i += FB_CHUNK) {                                         \
      if (cuzk_progress_cancelled(j->progress)) {                                            \
        atomic_store(&j->cancelled, true);                                                   \
        break;                                                                               \
      }                                                                                      \
      size_t n = end - i < FB_CHUNK ? end - i : FB_CHUNK;                                    \
      for (size_t q = 0; q < n; q++)                                                         \
        cuzk_fr_to_canonical(L->x[q], &j->k[i + q]);                                         \
      for (unsigned w = 0; w < f->windows; w++) {                                            \
        const AFF *row = f->t + (size_t)w * f->digits;                                       \
        size_t m = 0;                                                                        \
        for (size_t q = 0; q < n; q++) {                                                     \
          unsigned d = fb_digit(L->x[q], f->c, w);                                           \
          if (!d) continue;                                                                  \
          L->idx[m] = (uint32_t)q;                                                           \
          L->pt[m++] = &row[d - 1];                                                          \
        }                                                                                    \
        cuzk_##G##_sums_add(sums, L->idx, L->pt, m);                                         \
      }                                                                                      \
      cuzk_##G##_sums_take(sums, j->out + i, n);                                             \
    }                                                                                        \
  out:                                                                                       \
    cuzk_##G##_sums_free(sums);                                                              \
    free(L);                                                                                 \
  }                                                                                          \
                                                                                             \
  /* out[i] = k[i]·base for i < n; ENOMEM, or ECANCELLED once progress's cancel is set (out \
   * then partly written). */                                                                \
  static cuzk_g16_err G##_fb_mul_many(AFF *out, const G##_fb *f, const cuzk_fr *k, size_t n, \
                                      cuzk_pool *pool, unsigned max_workers,                 \
                                      const cuzk_progress *progress) {                       \
    if (!n) return CUZK_G16_OK;                                                              \
    G##_fb_job j = {.f = f, .k = k, .out = out, .progress = progress};                       \
    atomic_init(&j.failed, false);                                                           \
    atomic_init(&j.cancelled, false);                                                        \
    cuzk_parallel_for(pool, n, 4 * FB_CHUNK, G##_fb_range, &j, max_workers);                 \
    return atomic_load(&j.failed)      ? CUZK_G16_ENOMEM                                     \
           : atomic_load(&j.cancelled) ? CUZK_G16_ECANCELLED                                 \
                                       : CUZK_G16_OK;                                        \
  }

FB_DEFINE(g1, cuzk_g1_affine, cuzk_g1, fp)
FB_DEFINE(g2, cuzk_g2_affine, cuzk_g2, fp2)

/* ---- toxic waste ----------------------------------------------------------------------------- */
/* A nonzero Fr from SHA-256(seed ‖ label ‖ counter): 255 bits, rejection sampling. */
static void derive_fr(cuzk_fr *r, const uint8_t seed[32], const char *label, uint32_t *counter) {
  for (;;) {
    uint8_t ctr[4] = {(uint8_t)*counter, (uint8_t)(*counter >> 8), (uint8_t)(*counter >> 16),
                      (uint8_t)(*counter >> 24)};
    (*counter)++;
    cuzk_sha256_ctx ctx;
    uint8_t d[32];
    cuzk_sha256_init(&ctx);
    cuzk_sha256_update(&ctx, "cuzk-g16-testgen", 16);
    cuzk_sha256_update(&ctx, seed, 32);
    cuzk_sha256_update(&ctx, label, strlen(label));
    cuzk_sha256_update(&ctx, ctr, sizeof ctr);
    cuzk_sha256_final(&ctx, d);
    d[31] &= 0x7f;
    if (cuzk_fr_from_bytes(r, d) && !cuzk_fr_is_zero(r)) return;
  }
}

/* ---- the generator --------------------------------------------------------------------------- */
typedef struct {
  cuzk_fr *powers, *at, *bt, *ct, *ext, *sa, *sb;
  g1_fb t1;
  g2_fb t2;
} gen_scratch;

static void scratch_free(gen_scratch *s) {
  cuzk_buffer_put(s->powers);
  free(s->at);
  free(s->bt);
  free(s->ct);
  free(s->ext);
  free(s->sa);
  free(s->sb);
  free(s->t1.t);
  free(s->t2.t);
}

/* X[col] += val·lag[row] over the matrix. */
static void eval_matrix(cuzk_fr *x, const cuzk_csr *m, const cuzk_fr *lag) {
  for (size_t row = 0; row < m->rows; row++) {
    for (uint32_t k = m->row_ptr[row]; k < m->row_ptr[row + 1]; k++) {
      cuzk_fr t;
      cuzk_fr_mul(&t, &m->vals[k], &lag[row]);
      cuzk_fr_add(&x[m->cols[k]], &x[m->cols[k]], &t);
    }
  }
}

cuzk_g16_err cuzk_g16_generate(cuzk_g16_params **out, cuzk_cs *cs, const uint8_t seed[32],
                               cuzk_pool *pool, unsigned max_workers,
                               const cuzk_progress *progress) {
  if (!out || !cs || !seed) return CUZK_G16_EINVAL;
  *out = NULL;
  cuzk_cs_mode mode = cuzk_cs_mode_of(cs);
  if ((mode != CUZK_CS_RECORD && mode != CUZK_CS_CHECK) || cuzk_cs_error(cs) != CUZK_R1CS_OK)
    return CUZK_G16_ESYNTH;
  cuzk_cs_enforce_input_constraints(cs);
  if (cuzk_cs_finish(cs) != CUZK_R1CS_OK || cuzk_cs_error(cs) != CUZK_R1CS_OK)
    return CUZK_G16_ESYNTH;
  cuzk_csr mat[3];
  for (int i = 0; i < 3; i++)
    if (cuzk_cs_matrix(cs, i, &mat[i]) != CUZK_R1CS_OK) return CUZK_G16_ESYNTH;

  const size_t n_in = cuzk_cs_num_inputs(cs), n_aux = cuzk_cs_num_aux(cs);
  const size_t n_vars = n_in + n_aux, n = cuzk_cs_num_constraints(cs);
  if (n > ((size_t)1 << CUZK_NTT_MAX_LG)) return CUZK_G16_ESHAPE;
  size_t m = 1; /* cuzk_g16_domain_size(n), kept local to the layer's own file */
  while (m < n)
    m <<= 1;

  /* Toxic waste; tau outside the domain (tau^m != 1) so that Z(tau) != 0. */
  uint32_t ctr = 0;
  cuzk_fr alpha, beta, gamma, delta, tau, gamma_inv, delta_inv, tau_m, coeff_h;
  derive_fr(&alpha, seed, "alpha", &ctr);
  derive_fr(&beta, seed, "beta", &ctr);
  derive_fr(&gamma, seed, "gamma", &ctr);
  derive_fr(&delta, seed, "delta", &ctr);
  for (;;) {
    derive_fr(&tau, seed, "tau", &ctr);
    uint64_t e = m;
    cuzk_fr_pow(&tau_m, &tau, &e, 1);
    if (!cuzk_fr_is_one(&tau_m)) break;
  }
  cuzk_fr_inv(&gamma_inv, &gamma);
  cuzk_fr_inv(&delta_inv, &delta);
  cuzk_fr_sub(&coeff_h, &tau_m, &cuzk_fr_one);
  cuzk_fr_mul(&coeff_h, &coeff_h, &delta_inv);

  gen_scratch s = {0};
  cuzk_g16_err err = CUZK_G16_ENOMEM;
  cuzk_g16_params *p = NULL;
  s.powers = cuzk_buffer_get(m * sizeof(cuzk_fr));
  s.at = calloc(n_vars, sizeof(cuzk_fr));
  s.bt = calloc(n_vars, sizeof(cuzk_fr));
  s.ct = calloc(n_vars, sizeof(cuzk_fr));
  s.ext = malloc(n_vars * sizeof(cuzk_fr));
  if (!s.powers || !s.at || !s.bt || !s.ct || !s.ext) goto done;

  /* lag[j] = L_j(tau) = iNTT(powers of tau)[j]; the Lagrange values live in ext for now. */
  s.powers[0] = cuzk_fr_one;
  for (size_t i = 1; i < m; i++)
    cuzk_fr_mul(&s.powers[i], &s.powers[i - 1], &tau);
  cuzk_fr *lag = cuzk_buffer_get(m * sizeof(cuzk_fr));
  if (!lag) goto done;
  memcpy(lag, s.powers, m * sizeof(cuzk_fr));
  if (cuzk_ntt_inverse(lag, m, pool, max_workers) != CUZK_NTT_OK) {
    cuzk_buffer_put(lag);
    goto done;
  }
  eval_matrix(s.at, &mat[0], lag);
  eval_matrix(s.bt, &mat[1], lag);
  eval_matrix(s.ct, &mat[2], lag);
  cuzk_buffer_put(lag);

  /* ext = (beta·at + alpha·bt + ct)·inv; an aux variable with ext = 0 is unconstrained. */
  size_t n_a = 0, n_b = 0;
  for (size_t v = 0; v < n_vars; v++) {
    cuzk_fr t, u;
    cuzk_fr_mul(&t, &beta, &s.at[v]);
    cuzk_fr_mul(&u, &alpha, &s.bt[v]);
    cuzk_fr_add(&t, &t, &u);
    cuzk_fr_add(&t, &t, &s.ct[v]);
    cuzk_fr_mul(&s.ext[v], &t, v < n_in ? &gamma_inv : &delta_inv);
    if (v >= n_in && cuzk_fr_is_zero(&s.ext[v])) {
      err = CUZK_G16_EUNCONSTRAINED;
      goto done;
    }
    n_a += !cuzk_fr_is_zero(&s.at[v]);
    n_b += !cuzk_fr_is_zero(&s.bt[v]);
  }
  /* The a and b queries: identities (zero evaluations) removed, inputs first. */
  s.sa = malloc((n_a ? n_a : 1) * sizeof(cuzk_fr));
  s.sb = malloc((n_b ? n_b : 1) * sizeof(cuzk_fr));
  if (!s.sa || !s.sb) goto done;
  for (size_t v = 0, ia = 0, ib = 0; v < n_vars; v++) {
    if (!cuzk_fr_is_zero(&s.at[v])) s.sa[ia++] = s.at[v];
    if (!cuzk_fr_is_zero(&s.bt[v])) s.sb[ib++] = s.bt[v];
  }
  /* h scalars: tau^i·(tau^m - 1)/delta, i < m - 1 (in place over the powers). */
  for (size_t i = 0; i + 1 < m; i++)
    cuzk_fr_mul(&s.powers[i], &s.powers[i], &coeff_h);

  /* progress in points of the query vectors, reported vector by vector */
  const uint64_t total = (uint64_t)n_vars + (m - 1) + n_a + 2 * (uint64_t)n_b;
  cuzk_progress_report(progress, "tables", 0, total);
  if (cuzk_progress_cancelled(progress)) {
    err = CUZK_G16_ECANCELLED;
    goto done;
  }
  p = g16_params_alloc(n_in, m - 1, n_aux, n_a, n_b, n_b);
  cuzk_g1 g1;
  cuzk_g2 g2;
  cuzk_g1_generator(&g1);
  cuzk_g2_generator(&g2);
  if (!p || !g1_fb_build(&s.t1, &g1, n_vars + n_a + n_b + m, pool, max_workers, progress) ||
      !g2_fb_build(&s.t2, &g2, n_b + 3, pool, max_workers, progress)) {
    if (cuzk_progress_cancelled(progress)) err = CUZK_G16_ECANCELLED;
    goto done;
  }

  /* The verifying key. */
  cuzk_fr vk1[3] = {alpha, beta, delta}, vk2[3] = {beta, gamma, delta};
  cuzk_g1_affine r1[3];
  cuzk_g2_affine r2[3];
  if (g1_fb_mul_many(r1, &s.t1, vk1, 3, NULL, 1, NULL) ||
      g2_fb_mul_many(r2, &s.t2, vk2, 3, NULL, 1, NULL))
    goto done;
  p->vk.alpha_g1 = r1[0];
  p->vk.beta_g1 = r1[1];
  p->vk.delta_g1 = r1[2];
  p->vk.beta_g2 = r2[0];
  p->vk.gamma_g2 = r2[1];
  p->vk.delta_g2 = r2[2];

  /* the query vectors, each reported as it starts; written counts their points done; a cancel
   * (progress->cancel) stops them between chunks */
  uint64_t written = 0;
#define GEN_VECTOR(name, mul, dst, t, k, cnt)                                      \
  do {                                                                             \
    cuzk_progress_report(progress, name, written, total);                          \
    if ((err = mul(dst, t, k, cnt, pool, max_workers, progress)) != CUZK_G16_OK) { \
      goto done;                                                                   \
    }                                                                              \
    written += (cnt);                                                              \
  } while (0)
  GEN_VECTOR("ic", g1_fb_mul_many, p->vk.ic, &s.t1, s.ext, n_in);
  GEN_VECTOR("l", g1_fb_mul_many, p->l, &s.t1, s.ext + n_in, n_aux);
  GEN_VECTOR("h", g1_fb_mul_many, p->h, &s.t1, s.powers, m - 1);
  GEN_VECTOR("a", g1_fb_mul_many, p->a, &s.t1, s.sa, n_a);
  GEN_VECTOR("b_g1", g1_fb_mul_many, p->b_g1, &s.t1, s.sb, n_b);
  GEN_VECTOR("b_g2", g2_fb_mul_many, p->b_g2, &s.t2, s.sb, n_b);
#undef GEN_VECTOR
  cuzk_progress_report(progress, "done", written, total);
  *out = p;
  p = NULL;
  err = CUZK_G16_OK;
done:
  cuzk_g16_params_free(p);
  scratch_free(&s);
  return err;
}
