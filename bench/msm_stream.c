/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The streamed MSM (cuzk/msm/msm.h, docs/msm.md "Streamed bases") at sizes whose bases would not
 * fit in memory: the bases repeat with period T (base i is table[i mod T], T random points encoded
 * as in a .params file and decoded by the source as the in-place parameters are), so that
 *   sum_i s_i P_(i mod T) = sum_j (sum_{i = j mod T} s_i) P_j
 * gives the expected point from a resident MSM over T points: a check of the streamed MSM's
 * indices at 2^27 and its speed there. With --resident (sizes whose bases fit), the resident MSM
 * over the expanded bases is timed in the same run, interleaved, for the ratio.
 *
 *   usage: msm_stream [--g1 LOG] [--g2 LOG] [--period LOG] [--threads N] [--runs R] [--resident]
 *   (--threads 0, the default: one per CPU)
 */
#include "bench_util.h" /* first: its feature macro */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/curve/curve.h"
#include "cuzk/field/field.h"
#include "cuzk/msm/msm.h"
#include "cuzk/util/pool.h"

typedef struct {
  const uint8_t *enc; /* T encoded points */
  size_t period, size;
  bool g2;
} table_src;

static void fill(const void *ctx, size_t first, size_t count, void *out) {
  const table_src *t = ctx;
  for (size_t i = 0; i < count; i++) {
    const uint8_t *in = t->enc + ((first + i) % t->period) * t->size;
    if (t->g2) {
      cuzk_g2_affine *r = (cuzk_g2_affine *)out + i;
      cuzk_fp_from_bytes(&r->x.c1, in);
      cuzk_fp_from_bytes(&r->x.c0, in + 48);
      cuzk_fp_from_bytes(&r->y.c1, in + 96);
      cuzk_fp_from_bytes(&r->y.c0, in + 144);
    } else {
      cuzk_g1_affine *r = (cuzk_g1_affine *)out + i;
      cuzk_fp_from_bytes(&r->x, in);
      cuzk_fp_from_bytes(&r->y, in + 48);
    }
  }
}

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t next(void) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return rng;
}
static void random_fr(cuzk_fr *r) {
  uint64_t l[4];
  do {
    for (int i = 0; i < 4; i++)
      l[i] = next();
    l[3] >>= 1;
  } while (!cuzk_fr_from_canonical(r, l));
}

#define RUN(G, AFF, JAC, BYTES)                                                             \
  static void run_##G(unsigned lg, unsigned lt, cuzk_pool *pool, int runs, bool resident) { \
    size_t n = (size_t)1 << lg, T = (size_t)1 << lt;                                        \
    AFF *tab = malloc(T * sizeof *tab);                                                     \
    uint8_t *enc = malloc(T * BYTES);                                                       \
    cuzk_fr *s = malloc(n * sizeof *s), *fold = calloc(T, sizeof *fold);                    \
    if (!tab || !enc || !s || !fold) {                                                      \
      fprintf(stderr, "msm_stream: out of memory\n");                                       \
      exit(1);                                                                              \
    }                                                                                       \
    JAC g, p;                                                                               \
    cuzk_##G##_generator(&g);                                                               \
    for (size_t j = 0; j < T; j++) {                                                        \
      cuzk_fr k;                                                                            \
      random_fr(&k);                                                                        \
      cuzk_##G##_mul(&p, &g, &k);                                                           \
      cuzk_##G##_to_affine(&tab[j], &p);                                                    \
      cuzk_##G##_to_uncompressed(enc + j * BYTES, &tab[j]);                                 \
    }                                                                                       \
    for (size_t i = 0; i < n; i++) {                                                        \
      random_fr(&s[i]);                                                                     \
      cuzk_fr_add(&fold[i % T], &fold[i % T], &s[i]);                                       \
    }                                                                                       \
    cuzk_msm_opts o = {.pool = pool};                                                       \
    JAC want, got;                                                                          \
    cuzk_##G##_msm(&want, tab, fold, T, &o);                                                \
    AFF *full = NULL;                                                                       \
    if (resident && (full = malloc(n * sizeof *full)))                                      \
      for (size_t i = 0; i < n; i++)                                                        \
        full[i] = tab[i % T];                                                               \
    table_src ts = {enc, T, BYTES, BYTES == CUZK_G2_UNCOMPRESSED_BYTES};                    \
    cuzk_msm_source src = {.fill = fill, .ctx = &ts};                                       \
    for (int r = 0; r < runs; r++) {                                                        \
      double t0 = bench_now_ns();                                                           \
      cuzk_msm_err e = cuzk_##G##_msm_stream(&got, &src, s, n, &o);                         \
      double ts_s = (bench_now_ns() - t0) / 1e9;                                            \
      bool ok = e == CUZK_MSM_OK && cuzk_##G##_eq(&got, &want);                             \
      printf(#G " 2^%u streamed (period 2^%u): %.2f s, %.0f points/s, %s", lg, lt, ts_s,    \
             (double)n / ts_s, ok ? "the expected point" : "WRONG POINT");                  \
      if (full) {                                                                           \
        t0 = bench_now_ns();                                                                \
        cuzk_##G##_msm(&got, full, s, n, &o);                                               \
        double tr = (bench_now_ns() - t0) / 1e9;                                            \
        printf("; resident %.2f s, streamed/resident %.3f", tr, ts_s / tr);                 \
      }                                                                                     \
      printf("\n");                                                                         \
      fflush(stdout);                                                                       \
      if (!ok) exit(1);                                                                     \
    }                                                                                       \
    free(full);                                                                             \
    free(tab);                                                                              \
    free(enc);                                                                              \
    free(s);                                                                                \
    free(fold);                                                                             \
  }
RUN(g1, cuzk_g1_affine, cuzk_g1, CUZK_G1_UNCOMPRESSED_BYTES)
RUN(g2, cuzk_g2_affine, cuzk_g2, CUZK_G2_UNCOMPRESSED_BYTES)

int main(int argc, char **argv) {
  unsigned g1 = 0, g2 = 0, period = 16, threads = 0;
  int runs = 1;
  bool resident = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--g1") && v)
      g1 = (unsigned)atoi(argv[++i]);
    else if (!strcmp(a, "--g2") && v)
      g2 = (unsigned)atoi(argv[++i]);
    else if (!strcmp(a, "--period") && v)
      period = (unsigned)atoi(argv[++i]);
    else if (!strcmp(a, "--threads") && v)
      threads = (unsigned)atoi(argv[++i]);
    else if (!strcmp(a, "--runs") && v)
      runs = atoi(argv[++i]);
    else if (!strcmp(a, "--resident"))
      resident = true;
    else {
      fprintf(stderr,
              "usage: %s [--g1 LOG] [--g2 LOG] [--period LOG] [--threads N] [--runs R] "
              "[--resident]\n",
              argv[0]);
      return 2;
    }
  }
  if ((g1 && (g1 > 30 || period > g1)) || (g2 && (g2 > 30 || period > g2)) || period > 24) {
    fprintf(stderr, "msm_stream: LOG at most 30, the period at most LOG and 24\n");
    return 2;
  }
  if (!threads) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    threads = n > 0 ? (unsigned)n : 1;
  }
  cuzk_pool *pool = NULL;
  if (cuzk_pool_create(&pool, threads) != CUZK_POOL_OK) return 1;
  if (g1) run_g1(g1, period, pool, runs, resident);
  if (g2) run_g2(g2, period, pool, runs, resident);
  cuzk_pool_destroy(pool);
  return 0;
}
