/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The calibration (docs/msm.md "Calibration"): at each size of the table, the MSM timed on the
 * caller's pool at the model's window and three either side, and the fastest kept. Measuring the
 * MSM itself, rather than fitting the model's per-operation costs, also captures what the model
 * leaves out (bucket collisions inside a batch, the caches at the large windows, two workers
 * sharing a core's resources), which moved its pick by up to 1.3x from the best on this VM.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <string.h>
#include <time.h>

#include "cuzk/curve/curve.h"
#include "cuzk/field/field.h"
#include "cuzk/msm/msm_calibration.h"
#include "cuzk/util/cpu.h"
#include "cuzk/util/pool.h"
#include "msm/plan.h"

#define CAL_ROUNDS 2    /* the faster of two interleaved rounds */
#define CAL_RADIUS 3    /* windows either side of the model's */
#define CAL_XYZZ_LOG 14 /* XYZZ is timed up to 2^14 points (above, AFFINE always wins here) */

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* n distinct points: a fixed multiple of the generator plus a walk over 16 fixed steps, made
 * affine 1024 at a time. */
#define CAL_BASES(G, JAC, AFF)                                                  \
  static AFF *G##_bases(size_t n, uint64_t *s) {                                \
    AFF *out = cuzk_buffer_get(n * sizeof *out);                                \
    if (!out) return NULL;                                                      \
    JAC g, p, step[16], buf[1024];                                              \
    cuzk_##G##_generator(&g);                                                   \
    for (int i = 0; i < 16; i++) {                                              \
      uint64_t k[2] = {splitmix(s), splitmix(s)};                               \
      cuzk_##G##_mul_limbs(&step[i], &g, k, 2);                                 \
    }                                                                           \
    uint64_t k0[4] = {splitmix(s), splitmix(s), splitmix(s), splitmix(s) >> 2}; \
    cuzk_##G##_mul_limbs(&p, &g, k0, 4);                                        \
    for (size_t i = 0; i < n; i += 1024) {                                      \
      size_t m = n - i < 1024 ? n - i : 1024;                                   \
      for (size_t j = 0; j < m; j++) {                                          \
        cuzk_##G##_add(&p, &p, &step[(i + j) & 15]);                            \
        buf[j] = p;                                                             \
      }                                                                         \
      cuzk_##G##_batch_to_affine(&out[i], buf, m);                              \
    }                                                                           \
    return out;                                                                 \
  }
CAL_BASES(g1, cuzk_g1, cuzk_g1_affine)
CAL_BASES(g2, cuzk_g2, cuzk_g2_affine)

/* The candidates at one size: (method, window) pairs. */
typedef struct {
  cuzk_msm_method m[4 * CAL_RADIUS + 2];
  unsigned c[4 * CAL_RADIUS + 2], count;
} cal_candidates;

static void candidates(cal_candidates *k, bool g2, size_t n, unsigned workers) {
  msm_plan pl;
  cuzk_msm_opts affine = {.method = CUZK_MSM_AFFINE};
  msm_plan_model(&pl, n, workers, msm_costs_for(g2), &affine, 0);
  unsigned c0 = pl.c, lo = c0 > CAL_RADIUS ? c0 - CAL_RADIUS : 1;
  unsigned hi = c0 + CAL_RADIUS < CUZK_MSM_MAX_WINDOW ? c0 + CAL_RADIUS : CUZK_MSM_MAX_WINDOW;
  k->count = 0;
  for (int x = 0; x < 2; x++) {
    if (x && n > ((size_t)1 << CAL_XYZZ_LOG)) break;
    for (unsigned c = lo; c <= hi; c++) {
      k->m[k->count] = x ? CUZK_MSM_XYZZ : CUZK_MSM_AFFINE;
      k->c[k->count++] = c;
    }
  }
}

cuzk_msm_err cuzk_msm_calibrate(cuzk_msm_calibration *out, cuzk_pool *pool, unsigned max_log,
                                const cuzk_progress *progress) {
  if (!out) return CUZK_MSM_EINVAL;
  memset(out, 0, sizeof *out);
  unsigned workers = cuzk_pool_threads(pool);
  unsigned top[2] = {CUZK_MSM_CAL_MAX_LOG_G1, CUZK_MSM_CAL_MAX_LOG_G2};
  for (int g = 0; g < 2; g++)
    if (max_log && max_log < top[g]) top[g] = max_log;
  /* the work, for the progress: every timed MSM */
  uint64_t total = 0, done = 0;
  for (int g = 0; g < 2; g++)
    for (unsigned s = CUZK_MSM_CAL_MIN_LOG; s <= top[g]; s += 2) {
      cal_candidates k;
      candidates(&k, g, (size_t)1 << s, workers);
      total += (uint64_t)k.count * CAL_ROUNDS;
    }
  size_t n1 = (size_t)1 << top[0], n2 = (size_t)1 << top[1], nk = n1 > n2 ? n1 : n2;
  uint64_t seed = 0xca11b7a7e;
  cuzk_fr *sc = top[0] >= CUZK_MSM_CAL_MIN_LOG ? cuzk_buffer_get(nk * sizeof *sc) : NULL;
  cuzk_g1_affine *b1 = sc ? g1_bases(n1, &seed) : NULL;
  cuzk_g2_affine *b2 = b1 ? g2_bases(n2, &seed) : NULL;
  cuzk_msm_err e = b2                              ? CUZK_MSM_OK
                   : top[0] < CUZK_MSM_CAL_MIN_LOG ? CUZK_MSM_EINVAL
                                                   : CUZK_MSM_ENOMEM;
  for (size_t i = 0; e == CUZK_MSM_OK && i < nk; i++) {
    uint64_t x[4];
    do {
      for (int j = 0; j < 4; j++)
        x[j] = splitmix(&seed);
      x[3] >>= 1;
    } while (!cuzk_fr_from_canonical(&sc[i], x));
  }
  for (int g = 0; g < 2 && e == CUZK_MSM_OK; g++)
    for (unsigned s = CUZK_MSM_CAL_MIN_LOG; s <= top[g] && e == CUZK_MSM_OK; s += 2) {
      size_t n = (size_t)1 << s;
      cal_candidates k;
      candidates(&k, g, n, workers);
      double best[4 * CAL_RADIUS + 2];
      for (unsigned v = 0; v < k.count; v++)
        best[v] = 1e300;
      for (int r = 0; r < CAL_ROUNDS && e == CUZK_MSM_OK; r++)
        for (unsigned v = 0; v < k.count && e == CUZK_MSM_OK; v++) {
          if (cuzk_progress_cancelled(progress)) {
            e = CUZK_MSM_ECANCELLED;
            break;
          }
          cuzk_msm_opts o = {.pool = pool, .method = k.m[v], .window = k.c[v]};
          cuzk_g1 p1;
          cuzk_g2 p2;
          double t0 = now_s();
          e = g ? cuzk_g2_msm(&p2, b2, sc, n, &o) : cuzk_g1_msm(&p1, b1, sc, n, &o);
          double t = now_s() - t0;
          if (t < best[v]) best[v] = t;
          cuzk_progress_report(progress, g ? "g2" : "g1", ++done, total);
        }
      unsigned w = 0;
      for (unsigned v = 1; v < k.count; v++)
        if (best[v] < best[w]) w = v;
      (g ? out->g2 : out->g1)[(s - CUZK_MSM_CAL_MIN_LOG) / 2] = (cuzk_msm_cal_pick){k.m[w], k.c[w]};
    }
  cuzk_buffer_put(b2);
  cuzk_buffer_put(b1);
  cuzk_buffer_put(sc);
  if (e != CUZK_MSM_OK) {
    memset(out, 0, sizeof *out);
    return e;
  }
  out->ifma = cuzk_field_ifma_enabled();
  out->threads = workers;
  cuzk_cpu_model(out->cpu, sizeof out->cpu);
  cuzk_progress_report(progress, "done", total, total);
  return CUZK_MSM_OK;
}
