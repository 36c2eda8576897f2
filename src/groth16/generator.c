/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Test-parameter generator (docs/spec/groth16.md §6, bellperson generator.rs) with the standard
 * generators g1, g2 and toxic waste derived from a seed. FOR TESTS ONLY: the seed reveals the
 * trapdoor.
 *
 * Every scalar multiplication has a fixed base (g1 or g2): a table of d·2^(c·w)·g for the
 * c-bit windows w and digits d = 1..2^c - 1 (c from fb_width, up to 12) turns each into one
 * addition per window, done in affine form for a chunk of scalars at once with one inversion per
 * window (Montgomery's trick): cuzk/msm/msm.h's batched affine sums, on the IFMA lanes where
 * enabled.
 */
#define _POSIX_C_SOURCE 200809L /* pwrite */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/hashes/sha256.h"
#include "cuzk/msm/msm.h"
#include "cuzk/ntt/ntt.h"
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
  /* A chunk's results accumulate as cuzk/msm/msm.h's batched affine sums, window by window: \
   * one window's additions share one inversion and run on the IFMA lanes where enabled. */  \
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

/* The toxic waste of a seed, for both generators (the same draws, so the same parameters):
 * alpha, beta, gamma, delta, then tau redrawn until it lies outside the domain of size m
 * (tau^m != 1, so that Z(tau) != 0); the inverses and (tau^m - 1) / delta the H query needs. */
typedef struct {
  cuzk_fr alpha, beta, gamma, delta, tau, gamma_inv, delta_inv, tau_m, coeff_h;
} toxic_waste;

static void draw_toxic_waste(toxic_waste *t, const uint8_t seed[32], size_t m) {
  uint32_t ctr = 0;
  derive_fr(&t->alpha, seed, "alpha", &ctr);
  derive_fr(&t->beta, seed, "beta", &ctr);
  derive_fr(&t->gamma, seed, "gamma", &ctr);
  derive_fr(&t->delta, seed, "delta", &ctr);
  for (;;) {
    derive_fr(&t->tau, seed, "tau", &ctr);
    uint64_t e = m;
    cuzk_fr_pow(&t->tau_m, &t->tau, &e, 1);
    if (!cuzk_fr_is_one(&t->tau_m)) break;
  }
  cuzk_fr_inv(&t->gamma_inv, &t->gamma);
  cuzk_fr_inv(&t->delta_inv, &t->delta);
  cuzk_fr_sub(&t->coeff_h, &t->tau_m, &cuzk_fr_one);
  cuzk_fr_mul(&t->coeff_h, &t->coeff_h, &t->delta_inv);
}

/* The verifying key's six fixed points from the generators' tables: alpha, beta, delta in G1;
 * beta, gamma, delta in G2. false if out of memory. */
static bool vk_fixed_points(cuzk_g16_vk *vk, const g1_fb *t1, const g2_fb *t2,
                            const toxic_waste *tw) {
  cuzk_fr vk1[3] = {tw->alpha, tw->beta, tw->delta}, vk2[3] = {tw->beta, tw->gamma, tw->delta};
  cuzk_g1_affine r1[3];
  cuzk_g2_affine r2[3];
  if (g1_fb_mul_many(r1, t1, vk1, 3, NULL, 1, NULL) ||
      g2_fb_mul_many(r2, t2, vk2, 3, NULL, 1, NULL))
    return false;
  vk->alpha_g1 = r1[0], vk->beta_g1 = r1[1], vk->delta_g1 = r1[2];
  vk->beta_g2 = r2[0], vk->gamma_g2 = r2[1], vk->delta_g2 = r2[2];
  return true;
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

  toxic_waste tw;
  draw_toxic_waste(&tw, seed, m);
  cuzk_fr alpha = tw.alpha, beta = tw.beta, tau = tw.tau, gamma_inv = tw.gamma_inv,
          delta_inv = tw.delta_inv, coeff_h = tw.coeff_h;

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
  if (!vk_fixed_points(&p->vk, &s.t1, &s.t2, &tw)) goto done;

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

/* ---- the streaming generator (docs/groth16.md "TEST parameters written as they are made") ----
 * The same parameters as cuzk_g16_generate, computed from the recorded matrices (cuzk/r1cs/pce.h)
 * and written straight into the file at their final offsets: nothing of the size of a query vector
 * is ever held. The variables are taken in ranges ("passes"): a pass zeroes a(tau), b(tau), c(tau)
 * for its range, walks every row of the three matrices adding coefficient x L_row(tau) for the
 * columns inside the range (the Lagrange values computed a block of rows at a time, never stored
 * whole), then turns its range into the l (or ic), a, b_g1 and b_g2 points it owns. The vector
 * lengths (hence every file offset) are known before the first point: a variable is in the a
 * query iff its column of A (with the input constraints) holds a nonzero coefficient, likewise b
 * — exactly when a(tau), b(tau) are nonzero unless tau is a root of that column's polynomial
 * (probability below 2^-220), which the pass checks and refuses (ESHAPE) rather than write a file
 * that would differ from cuzk_g16_generate's. Field sums are exact, so the order of the additions
 * changes no byte. */
#define GS_CHUNK ((size_t)1 << 16)  /* points computed and written together */
#define GS_ROWS ((size_t)1 << 16)   /* rows whose Lagrange values are computed together */
#define GS_LAG_GRAIN ((size_t)4096) /* rows per batch inversion */
#define G1U CUZK_G1_UNCOMPRESSED_BYTES
#define G2U CUZK_G2_UNCOMPRESSED_BYTES

static bool bit_get(const uint64_t *b, size_t i) { return b[i / 64] >> (i % 64) & 1; }

static bool pwrite_all(int fd, const void *buf, size_t n, uint64_t off) {
  const uint8_t *p = buf;
  while (n) {
    ssize_t w = pwrite(fd, p, n, (off_t)off);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w, n -= (size_t)w, off += (uint64_t)w;
  }
  return true;
}

static void be32_put(uint8_t b[4], uint64_t n) {
  b[0] = (uint8_t)(n >> 24), b[1] = (uint8_t)(n >> 16), b[2] = (uint8_t)(n >> 8), b[3] = (uint8_t)n;
}

/* The pattern of A (with the input constraints) and B: one bit per variable. */
typedef struct {
  cuzk_pce_matrix mat[3];
  size_t n_in, n_aux, n_vars, rows, n, m;
  uint64_t *in_a, *in_b;
  uint8_t *coef_kind; /* per dictionary entry: 0 zero, 1 one, 2 minus one, 3 other */
  cuzk_g16_gen_plan plan;
} gs_shape;

static void gs_shape_free(gs_shape *s) {
  free(s->in_a);
  free(s->in_b);
  free(s->coef_kind);
}

static cuzk_g16_err gs_shape_build(gs_shape *s, const cuzk_pce *pce) {
  memset(s, 0, sizeof *s);
  for (int k = 0; k < 3; k++)
    if (cuzk_pce_matrix_get(pce, k, &s->mat[k]) != CUZK_R1CS_OK) return CUZK_G16_EINVAL;
  s->n_in = cuzk_pce_num_inputs(pce), s->n_aux = cuzk_pce_num_aux(pce);
  s->n_vars = s->n_in + s->n_aux, s->rows = cuzk_pce_num_constraints(pce);
  s->n = s->rows + s->n_in;
  if (s->n > ((size_t)1 << CUZK_NTT_MAX_LG) || s->n_in == 0) return CUZK_G16_ESHAPE;
  s->m = 1;
  while (s->m < s->n)
    s->m <<= 1;
  size_t words = s->n_vars / 64 + 1, nd = cuzk_pce_num_coefficients(pce);
  s->in_a = calloc(words, sizeof(uint64_t));
  s->in_b = calloc(words, sizeof(uint64_t));
  s->coef_kind = malloc(nd ? nd : 1);
  if (!s->in_a || !s->in_b || !s->coef_kind) return CUZK_G16_ENOMEM;
  cuzk_fr minus_one;
  cuzk_fr_neg(&minus_one, &cuzk_fr_one);
  for (size_t i = 0; i < nd; i++) {
    const cuzk_fr *c = &s->mat[0].dict[i];
    s->coef_kind[i] = cuzk_fr_is_zero(c)          ? 0
                      : cuzk_fr_is_one(c)         ? 1
                      : cuzk_fr_eq(c, &minus_one) ? 2
                                                  : 3;
  }
  for (size_t v = 0; v < s->n_in; v++) /* input constraint v: A holds input v with 1 */
    s->in_a[v / 64] |= UINT64_C(1) << (v % 64);
  for (int k = 0; k < 2; k++) {
    const cuzk_pce_matrix *mt = &s->mat[k];
    uint64_t *bits = k ? s->in_b : s->in_a;
    for (size_t r0 = 0; r0 < s->rows; r0 += GS_ROWS) {
      size_t r1 = s->rows - r0 < GS_ROWS ? s->rows : r0 + GS_ROWS;
      for (size_t t = mt->row_ptr[r0]; t < mt->row_ptr[r1]; t++)
        if (s->coef_kind[mt->coef[t]]) bits[mt->cols[t] / 64] |= UINT64_C(1) << (mt->cols[t] % 64);
      cuzk_pce_release_rows(pce, r0 ? r0 - GS_ROWS : 0, r1); /* the block before too: pce.h */
    }
  }
  cuzk_pce_release_rows(pce, 0, s->rows);
  cuzk_g16_gen_plan *p = &s->plan;
  p->n_ic = s->n_in, p->n_l = s->n_aux, p->n_h = s->m - 1;
  for (size_t w = 0; w < words; w++) {
    p->n_a += (size_t)__builtin_popcountll(s->in_a[w]);
    p->n_b += (size_t)__builtin_popcountll(s->in_b[w]);
  }
  if (p->n_ic > UINT32_MAX || p->n_l > UINT32_MAX || p->n_h > UINT32_MAX) return CUZK_G16_ESHAPE;
  p->ic_off = 3 * G1U + 3 * G2U;
  p->vk_bytes = p->ic_off + 4 + G1U * (uint64_t)p->n_ic;
  p->h_off = p->vk_bytes;
  p->l_off = p->h_off + 4 + G1U * (uint64_t)p->n_h;
  p->a_off = p->l_off + 4 + G1U * (uint64_t)p->n_l;
  p->b1_off = p->a_off + 4 + G1U * (uint64_t)p->n_a;
  p->b2_off = p->b1_off + 4 + G1U * (uint64_t)p->n_b;
  p->params_bytes = p->b2_off + 4 + G2U * (uint64_t)p->n_b;
  return CUZK_G16_OK;
}

cuzk_g16_err cuzk_g16_gen_plan_of(const cuzk_pce *pce, cuzk_g16_gen_plan *out) {
  if (!pce || !out) return CUZK_G16_EINVAL;
  gs_shape s;
  cuzk_g16_err e = gs_shape_build(&s, pce);
  if (!e) *out = s.plan;
  gs_shape_free(&s);
  return e;
}

/* Points of one vector, a chunk at a time: computed on the pool, encoded, written at off. */
typedef struct {
  int fd;
  cuzk_pool *pool;
  unsigned max_workers;
  const cuzk_progress *progress;
  uint64_t done, total;
  g1_fb t1;
  g2_fb t2;
  cuzk_g1_affine *p1;
  cuzk_g2_affine *p2;
  uint8_t *bytes; /* GS_CHUNK G2 encodings */
} gs_out;

typedef struct {
  const void *pts;
  uint8_t *bytes;
  bool g2;
} gs_enc;

static void gs_encode_range(void *ctx, size_t begin, size_t end) {
  const gs_enc *e = ctx;
  for (size_t i = begin; i < end; i++) {
    if (e->g2)
      cuzk_g2_to_uncompressed(e->bytes + i * G2U, (const cuzk_g2_affine *)e->pts + i);
    else
      cuzk_g1_to_uncompressed(e->bytes + i * G1U, (const cuzk_g1_affine *)e->pts + i);
  }
}

/* k[i]·g (G2 if g2) for i < n into the file at off + i·size; keep (may be NULL) gets the G1
 * points too. */
static cuzk_g16_err gs_put(gs_out *o, const char *step, const cuzk_fr *k, size_t n, uint64_t off,
                           bool g2, cuzk_g1_affine *keep) {
  size_t sz = g2 ? G2U : G1U;
  for (size_t i = 0; i < n; i += GS_CHUNK) {
    size_t c = n - i < GS_CHUNK ? n - i : GS_CHUNK;
    cuzk_progress_report(o->progress, step, o->done, o->total);
    cuzk_g16_err e =
        g2 ? g2_fb_mul_many(o->p2, &o->t2, k + i, c, o->pool, o->max_workers, o->progress)
           : g1_fb_mul_many(o->p1, &o->t1, k + i, c, o->pool, o->max_workers, o->progress);
    if (e) return e;
    if (keep) memcpy(keep + i, o->p1, c * sizeof *keep);
    gs_enc enc = {g2 ? (const void *)o->p2 : (const void *)o->p1, o->bytes, g2};
    cuzk_parallel_for(o->pool, c, 4096, gs_encode_range, &enc, o->max_workers);
    if (!pwrite_all(o->fd, o->bytes, c * sz, off + (uint64_t)i * sz)) return CUZK_G16_EIO;
    o->done += c;
  }
  return CUZK_G16_OK;
}

/* One pass: a(tau), b(tau), c(tau) of the variables v0 .. v0 + nv - 1. */
typedef struct {
  const gs_shape *s;
  const cuzk_pce *pce;
  size_t v0, nv, r0; /* lag[i] is row r0 + i */
  cuzk_fr *acc[3];
  cuzk_fr *lag;
  cuzk_fr c, tau, w_inv;
  unsigned shards;
  atomic_bool failed;
} gs_pass;

/* lag[i] = L_{r0+i}(tau) = c / (tau·ω^-(r0+i) - 1), c = (tau^m - 1)/m, for i in [begin, end). */
static void gs_lag_range(void *ctx, size_t begin, size_t end) {
  gs_pass *P = ctx;
  size_t n = end - begin;
  cuzk_fr *d = malloc(2 * n * sizeof *d);
  if (!d) {
    atomic_store(&P->failed, true);
    return;
  }
  uint64_t e = P->r0 + begin;
  cuzk_fr u;
  cuzk_fr_pow(&u, &P->w_inv, &e, 1);
  cuzk_fr_mul(&u, &u, &P->tau);
  for (size_t i = 0; i < n; i++) {
    cuzk_fr_sub(&d[i], &u, &cuzk_fr_one);
    cuzk_fr_mul(&u, &u, &P->w_inv);
  }
  cuzk_fr_batch_inv(P->lag + begin, d, n, d + n);
  for (size_t i = 0; i < n; i++)
    cuzk_fr_mul(&P->lag[begin + i], &P->lag[begin + i], &P->c);
  free(d);
}

/* Shard s adds the terms of rows r0 .. r0 + count - 1 whose column (>> 4) is s mod shards. */
typedef struct {
  gs_pass *P;
  size_t count;
} gs_acc_job;

static void gs_acc_range(void *ctx, size_t begin, size_t end) {
  const gs_acc_job *J = ctx;
  gs_pass *P = J->P;
  const gs_shape *s = P->s;
  size_t r0 = P->r0, r1 = r0 + J->count, rec_end = r1 < s->rows ? r1 : s->rows;
  for (size_t sh = begin; sh < end; sh++) {
    for (int k = 0; k < 3; k++) {
      const cuzk_pce_matrix *mt = &s->mat[k];
      cuzk_fr *acc = P->acc[k];
      for (size_t row = r0; row < rec_end; row++) {
        const cuzk_fr *l = &P->lag[row - r0];
        for (uint32_t t = mt->row_ptr[row]; t < mt->row_ptr[row + 1]; t++) {
          size_t col = mt->cols[t], x = col - P->v0;
          if (x >= P->nv || (col >> 4) % P->shards != sh) continue;
          cuzk_fr prod;
          switch (s->coef_kind[mt->coef[t]]) {
          case 0: break;
          case 1: cuzk_fr_add(&acc[x], &acc[x], l); break;
          case 2: cuzk_fr_sub(&acc[x], &acc[x], l); break;
          default:
            cuzk_fr_mul(&prod, &mt->dict[mt->coef[t]], l);
            cuzk_fr_add(&acc[x], &acc[x], &prod);
          }
        }
      }
    }
    /* the input constraints: row rows + i holds input i in A with coefficient 1 */
    for (size_t row = rec_end > r0 ? rec_end : r0; row < r1; row++) {
      size_t col = row - s->rows, x = col - P->v0;
      if (x < P->nv && (col >> 4) % P->shards == sh)
        cuzk_fr_add(&P->acc[0][x], &P->acc[0][x], &P->lag[row - r0]);
    }
  }
}

/* ext = (beta·at + alpha·bt + ct)·(gamma or delta)^-1 in place of ct. */
typedef struct {
  gs_pass *P;
  cuzk_fr alpha, beta, gamma_inv, delta_inv;
  atomic_bool unconstrained, root;
} gs_ext_job;

static void gs_ext_range(void *ctx, size_t begin, size_t end) {
  gs_ext_job *J = ctx;
  gs_pass *P = J->P;
  const gs_shape *s = P->s;
  for (size_t x = begin; x < end; x++) {
    size_t v = P->v0 + x;
    cuzk_fr t, u;
    cuzk_fr_mul(&t, &J->beta, &P->acc[0][x]);
    cuzk_fr_mul(&u, &J->alpha, &P->acc[1][x]);
    cuzk_fr_add(&t, &t, &u);
    cuzk_fr_add(&t, &t, &P->acc[2][x]);
    cuzk_fr_mul(&P->acc[2][x], &t, v < s->n_in ? &J->gamma_inv : &J->delta_inv);
    if (v >= s->n_in && cuzk_fr_is_zero(&P->acc[2][x])) atomic_store(&J->unconstrained, true);
    if (cuzk_fr_is_zero(&P->acc[0][x]) == bit_get(s->in_a, v) ||
        cuzk_fr_is_zero(&P->acc[1][x]) == bit_get(s->in_b, v))
      atomic_store(&J->root, true);
  }
}

cuzk_g16_err cuzk_g16_generate_fd(const cuzk_pce *pce, const uint8_t seed[32], int fd,
                                  cuzk_g16_vk **vk_out, const cuzk_g16_gen_opts *opts) {
  if (!pce || !seed || fd < 0 || !vk_out) return CUZK_G16_EINVAL;
  *vk_out = NULL;
  cuzk_g16_gen_opts o = {0};
  if (opts) o = *opts;
  gs_shape s;
  gs_out out = {.fd = fd, .pool = o.pool, .max_workers = o.max_workers, .progress = o.progress};
  gs_pass P = {.s = &s, .pce = pce};
  atomic_init(&P.failed, false);
  cuzk_g16_vk *vk = NULL;
  cuzk_g16_err err = gs_shape_build(&s, pce);
  if (err) goto done;
  const cuzk_g16_gen_plan *pl = &s.plan;
  const size_t n_in = s.n_in, n_vars = s.n_vars, m = s.m;

  toxic_waste tw;
  draw_toxic_waste(&tw, seed, m);
  cuzk_fr alpha = tw.alpha, beta = tw.beta, tau = tw.tau, gamma_inv = tw.gamma_inv,
          delta_inv = tw.delta_inv, tau_m = tw.tau_m, coeff_h = tw.coeff_h;
  unsigned lg = 0;
  while (((size_t)1 << lg) < m)
    lg++;
  cuzk_fr w, m_fr;
  if (cuzk_ntt_root(&w, lg) != CUZK_NTT_OK) {
    err = CUZK_G16_ESHAPE;
    goto done;
  }
  cuzk_fr_inv(&P.w_inv, &w);
  cuzk_fr_from_u64(&m_fr, m);
  cuzk_fr_inv(&P.c, &m_fr);
  cuzk_fr_sub(&tau_m, &tau_m, &cuzk_fr_one);
  cuzk_fr_mul(&P.c, &P.c, &tau_m); /* (tau^m - 1)/m */
  P.tau = tau;

  /* the pass size from the memory budget: three scalars a variable */
  size_t budget = o.mem_bytes ? o.mem_bytes : CUZK_G16_GEN_MEM_DEFAULT;
  size_t per_pass = budget / (3 * sizeof(cuzk_fr));
  if (per_pass < 16) per_pass = 16;
  if (per_pass > n_vars) per_pass = n_vars;
  err = CUZK_G16_ENOMEM;
  vk = g16_vk_alloc(n_in);
  for (int k = 0; k < 3; k++)
    P.acc[k] = cuzk_buffer_get(per_pass * sizeof(cuzk_fr));
  P.lag = malloc(GS_ROWS * sizeof(cuzk_fr));
  out.p1 = malloc(GS_CHUNK * sizeof *out.p1);
  out.p2 = malloc(GS_CHUNK * sizeof *out.p2);
  out.bytes = malloc(GS_CHUNK * G2U);
  cuzk_fr *hk = malloc(GS_CHUNK * sizeof *hk);
  if (!vk || !P.acc[0] || !P.acc[1] || !P.acc[2] || !P.lag || !out.p1 || !out.p2 || !out.bytes ||
      !hk)
    goto done_h;

  out.total = (uint64_t)n_vars + (m - 1) + pl->n_a + 2 * (uint64_t)pl->n_b;
  cuzk_progress_report(o.progress, "tables", 0, out.total);
  if (cuzk_progress_cancelled(o.progress)) {
    err = CUZK_G16_ECANCELLED;
    goto done_h;
  }
  cuzk_g1 g1;
  cuzk_g2 g2;
  cuzk_g1_generator(&g1);
  cuzk_g2_generator(&g2);
  if (!g1_fb_build(&out.t1, &g1, n_vars + pl->n_a + pl->n_b + m, o.pool, o.max_workers,
                   o.progress) ||
      !g2_fb_build(&out.t2, &g2, pl->n_b + 3, o.pool, o.max_workers, o.progress)) {
    err = cuzk_progress_cancelled(o.progress) ? CUZK_G16_ECANCELLED : CUZK_G16_ENOMEM;
    goto done_h;
  }

  /* the verifying key's fixed points, then the counts */
  if (!vk_fixed_points(vk, &out.t1, &out.t2, &tw)) goto done_h;
  uint8_t head[3 * G1U + 3 * G2U], *q = head;
  cuzk_g1_to_uncompressed(q, &vk->alpha_g1), q += G1U;
  cuzk_g1_to_uncompressed(q, &vk->beta_g1), q += G1U;
  cuzk_g2_to_uncompressed(q, &vk->beta_g2), q += G2U;
  cuzk_g2_to_uncompressed(q, &vk->gamma_g2), q += G2U;
  cuzk_g1_to_uncompressed(q, &vk->delta_g1), q += G1U;
  cuzk_g2_to_uncompressed(q, &vk->delta_g2);
  err = CUZK_G16_EIO;
  if (!pwrite_all(fd, head, sizeof head, 0)) goto done_h;
  const struct {
    uint64_t off;
    size_t n;
  } counts[6] = {{pl->ic_off, pl->n_ic}, {pl->h_off, pl->n_h},  {pl->l_off, pl->n_l},
                 {pl->a_off, pl->n_a},   {pl->b1_off, pl->n_b}, {pl->b2_off, pl->n_b}};
  for (int i = 0; i < 6; i++) {
    uint8_t b[4];
    be32_put(b, counts[i].n);
    if (!pwrite_all(fd, b, 4, counts[i].off)) goto done_h;
  }

  /* h: tau^i·(tau^m - 1)/delta for i < m - 1, a chunk of scalars at a time */
  for (size_t i = 0; i + 1 < m; i += GS_CHUNK) {
    size_t c = m - 1 - i < GS_CHUNK ? m - 1 - i : GS_CHUNK;
    uint64_t e = i;
    cuzk_fr_pow(&hk[0], &tau, &e, 1);
    cuzk_fr_mul(&hk[0], &hk[0], &coeff_h);
    for (size_t j = 1; j < c; j++)
      cuzk_fr_mul(&hk[j], &hk[j - 1], &tau);
    if ((err = gs_put(&out, "h", hk, c, pl->h_off + 4 + (uint64_t)i * G1U, false, NULL)))
      goto done_h;
  }

  /* the variables, a pass at a time */
  P.shards = o.pool ? cuzk_pool_threads(o.pool) : 1;
  if (o.max_workers && P.shards > o.max_workers) P.shards = o.max_workers;
  size_t a_done = 0, b_done = 0;
  for (size_t v0 = 0; v0 < n_vars; v0 += per_pass) {
    P.v0 = v0;
    P.nv = n_vars - v0 < per_pass ? n_vars - v0 : per_pass;
    for (int k = 0; k < 3; k++)
      memset(P.acc[k], 0, P.nv * sizeof(cuzk_fr));
    cuzk_progress_report(o.progress, "matrices", out.done, out.total);
    for (size_t r0 = 0; r0 < s.n; r0 += GS_ROWS) {
      if (cuzk_progress_cancelled(o.progress)) {
        err = CUZK_G16_ECANCELLED;
        goto done_h;
      }
      size_t cnt = s.n - r0 < GS_ROWS ? s.n - r0 : GS_ROWS;
      P.r0 = r0;
      cuzk_parallel_for(o.pool, cnt, GS_LAG_GRAIN, gs_lag_range, &P, o.max_workers);
      if (atomic_load(&P.failed)) {
        err = CUZK_G16_ENOMEM;
        goto done_h;
      }
      gs_acc_job J = {&P, cnt};
      cuzk_parallel_for(o.pool, P.shards, 1, gs_acc_range, &J, o.max_workers);
      if (r0 < s.rows) /* the block before too: pce.h */
        cuzk_pce_release_rows(pce, r0 ? r0 - GS_ROWS : 0, r0 + cnt < s.rows ? r0 + cnt : s.rows);
    }
    cuzk_pce_release_rows(pce, 0, s.rows);
    gs_ext_job X = {
        .P = &P, .alpha = alpha, .beta = beta, .gamma_inv = gamma_inv, .delta_inv = delta_inv};
    atomic_init(&X.unconstrained, false);
    atomic_init(&X.root, false);
    cuzk_parallel_for(o.pool, P.nv, 0, gs_ext_range, &X, o.max_workers);
    if (atomic_load(&X.unconstrained)) {
      err = CUZK_G16_EUNCONSTRAINED;
      goto done_h;
    }
    if (atomic_load(&X.root)) { /* tau is a root of a column's polynomial: see above */
      err = CUZK_G16_ESHAPE;
      goto done_h;
    }
    /* ic / l from ext */
    size_t n_ic = v0 < n_in ? (n_in - v0 < P.nv ? n_in - v0 : P.nv) : 0;
    if (n_ic && (err = gs_put(&out, "ic", P.acc[2], n_ic, pl->ic_off + 4 + (uint64_t)v0 * G1U,
                              false, vk->ic + v0)))
      goto done_h;
    if (P.nv > n_ic &&
        (err = gs_put(&out, "l", P.acc[2] + n_ic, P.nv - n_ic,
                      pl->l_off + 4 + (uint64_t)(v0 + n_ic - n_in) * G1U, false, NULL)))
      goto done_h;
    /* the a and b queries: zero evaluations removed, in variable order */
    size_t na = 0, nb = 0;
    for (size_t x = 0; x < P.nv; x++) {
      if (!cuzk_fr_is_zero(&P.acc[0][x])) P.acc[0][na++] = P.acc[0][x];
      if (!cuzk_fr_is_zero(&P.acc[1][x])) P.acc[1][nb++] = P.acc[1][x];
    }
    if ((err = gs_put(&out, "a", P.acc[0], na, pl->a_off + 4 + (uint64_t)a_done * G1U, false,
                      NULL)) ||
        (err = gs_put(&out, "b_g1", P.acc[1], nb, pl->b1_off + 4 + (uint64_t)b_done * G1U, false,
                      NULL)) ||
        (err = gs_put(&out, "b_g2", P.acc[1], nb, pl->b2_off + 4 + (uint64_t)b_done * G2U, true,
                      NULL)))
      goto done_h;
    a_done += na, b_done += nb;
  }
  if (a_done != pl->n_a || b_done != pl->n_b) { /* unreachable: the pass checks each variable */
    err = CUZK_G16_ESHAPE;
    goto done_h;
  }
  cuzk_progress_report(o.progress, "done", out.done, out.total);
  *vk_out = vk;
  vk = NULL;
  err = CUZK_G16_OK;
done_h:
  free(hk);
done:
  cuzk_g16_vk_free(vk);
  for (int k = 0; k < 3; k++)
    cuzk_buffer_put(P.acc[k]);
  free(P.lag);
  free(out.p1);
  free(out.p2);
  free(out.bytes);
  free(out.t1.t);
  free(out.t2.t);
  gs_shape_free(&s);
  return err;
}
