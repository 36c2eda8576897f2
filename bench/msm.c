/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * MSM benchmark: seconds and ns per point of cuzk's Pippenger (G1, G2) and witness-aware MSM,
 * each next to a baseline run in the same process:
 *   plain    vs a bellperson-style bucket method (docs/spec/groth16.md §11.1: unsigned digits,
 *            window ceil(ln n), Jacobian buckets with mixed additions, one task per window) and
 *            vs the blst figures of the issue (reference VM: G1 2^20 6.5 s / 3.26 s on 1 / 2
 *            threads, G2 2^18 5.2 s / 2.6 s);
 *   witness  (70 % zeros, 25 % ones, 5 % random) vs the plain MSM on the same scalars, and vs
 *            the plain MSM on dense random scalars of the same size.
 *   --ifma   the same MSMs with the 8-lane IFMA batched addition on and off
 *            (cuzk_field_use_ifma), each with its own plan, results compared byte for byte.
 *   --vs-blst (built with -DCUZK_BLST_DIR only) blst's Pippenger on the same bases and random
 *            scalars, on one thread and split into two halves on two threads, interleaved with
 *            cuzk's plain MSM, results compared byte for byte (bench/msm_blst.h).
 * Variants are timed interleaved (A, B, A, B, ...); the median and the minimum are printed.
 *
 *   usage: msm [--g1 LOGS] [--g2 LOGS] [--threads T] [--runs R] [--baseline-max LOG]
 *              [--method auto|affine|xyzz] [--window C] [--sweep] [--no-witness] [--cpu]
 *              [--ifma] [--vs-blst] [--sweep-only] [--radius R] [--calibration FILE]
 *   LOGS: comma-separated log2 sizes ("" for none); defaults --g1 16,20 --g2 14,18.
 *   --sweep times the plan's pick (with the built-in costs, and with --calibration FILE's: a
 *   cuzk-bench calibrate file) against both bucket methods (or --method's) at every window
 *   within --radius R (default 2) of --window (default: the built-in plan's), interleaved
 *   round by round, each as a ratio to the best; the other rows are then automatic.
 *   --sweep-only leaves the other rows out.
 *   --cpu measures process CPU time rather than wall time (for 1-thread tuning on a busy box).
 */
#include "bench_util.h" /* first: it sets _POSIX_C_SOURCE */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/curve/curve.h"
#include "cuzk/field/field.h"
#include "cuzk/msm/msm.h"
#include "cuzk/msm/msm_calibration.h"
#include "cuzk/util/pool.h"
#ifdef CUZK_BENCH_BLST
#include "msm_blst.h"
#endif

/* --cpu: process CPU time instead of wall time, steadier on a shared machine (1 thread only). */
static clockid_t bench_clock = CLOCK_MONOTONIC;

static double now_s(void) {
  struct timespec ts;
  clock_gettime(bench_clock, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng_state = 0x5eed;
static uint64_t rng(void) { return bench_rng(&rng_state); }
static void rand_fr(cuzk_fr *r) { bench_rand_fr(&rng_state, r); }

static void dense_scalars(cuzk_fr *k, size_t n) {
  for (size_t i = 0; i < n; i++)
    rand_fr(&k[i]);
}

static void witness_scalars(cuzk_fr *k, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned u = (unsigned)(rng() % 100);
    if (u < 70)
      k[i] = cuzk_fr_zero;
    else if (u < 95)
      k[i] = cuzk_fr_one;
    else
      rand_fr(&k[i]);
  }
}

static cuzk_pool *pool;
static unsigned threads = 2;

/* ---- per-group code, written once ---------------------------------------------------------- */

#define BENCH_GROUP(G, AFF, JAC)                                                               \
  /* Bases: per segment of 2^14, a random multiple of the generator, then P_i = P_(i-1) + R_j  \
   * (one addition per point), normalised with one inversion per 1024 points. Generated once   \
   * for the largest size (the segments on the pool) and reused by every smaller size. */      \
  static AFF *G##_bases;                                                                       \
  static size_t G##_nbases;                                                                    \
  static JAC G##_steps[16];                                                                    \
  static void G##_gen_range(void *ctx, size_t begin, size_t end) {                             \
    (void)ctx;                                                                                 \
    JAC buf[1024], g, p;                                                                       \
    cuzk_##G##_generator(&g);                                                                  \
    for (size_t seg = begin; seg < end; seg++) {                                               \
      uint64_t k[4] = {0x9e3779b97f4a7c15ULL * (seg + 1), seg, 0, 0};                          \
      cuzk_##G##_mul_limbs(&p, &g, k, 4);                                                      \
      size_t lo = seg << 14, hi = lo + (1u << 14) < G##_nbases ? lo + (1u << 14) : G##_nbases; \
      for (size_t i = lo; i < hi; i += 1024) {                                                 \
        size_t m = hi - i < 1024 ? hi - i : 1024;                                              \
        for (size_t j = 0; j < m; j++) {                                                       \
          cuzk_##G##_add(&p, &p, &G##_steps[(i + j) & 15]);                                    \
          buf[j] = p;                                                                          \
        }                                                                                      \
        cuzk_##G##_batch_to_affine(&G##_bases[i], buf, m);                                     \
      }                                                                                        \
    }                                                                                          \
  }                                                                                            \
  static void G##_gen(size_t n) {                                                              \
    if (n <= G##_nbases) return;                                                               \
    free(G##_bases);                                                                           \
    G##_bases = malloc(n * sizeof(AFF));                                                       \
    G##_nbases = n;                                                                            \
    JAC g;                                                                                     \
    cuzk_##G##_generator(&g);                                                                  \
    for (int i = 0; i < 16; i++) {                                                             \
      cuzk_fr k;                                                                               \
      rand_fr(&k);                                                                             \
      cuzk_##G##_mul(&G##_steps[i], &g, &k);                                                   \
    }                                                                                          \
    double t0 = now_s();                                                                       \
    cuzk_parallel_for(pool, (n + (1u << 14) - 1) >> 14, 1, G##_gen_range, NULL, 0);            \
    fprintf(stderr, "# %s: %zu bases generated in %.2f s\n", #G, n, now_s() - t0);             \
  }                                                                                            \
                                                                                               \
  /* The baseline: unsigned c-bit digits, 2^c - 1 Jacobian buckets, mixed additions, running   \
   * sums; one window per task. */                                                             \
  typedef struct {                                                                             \
    const AFF *b;                                                                              \
    const uint64_t (*k)[4];                                                                    \
    size_t n;                                                                                  \
    unsigned c;                                                                                \
    JAC *win;                                                                                  \
  } G##_naive_ctx;                                                                             \
  static void G##_naive_window(void *vctx, size_t begin, size_t end) {                         \
    G##_naive_ctx *x = vctx;                                                                   \
    size_t nb = ((size_t)1 << x->c) - 1;                                                       \
    JAC *bk = malloc(nb * sizeof(JAC)), run, sum;                                              \
    for (size_t w = begin; w < end; w++) {                                                     \
      for (size_t b = 0; b < nb; b++)                                                          \
        cuzk_##G##_set_infinity(&bk[b]);                                                       \
      unsigned off = (unsigned)w * x->c;                                                       \
      for (size_t i = 0; i < x->n; i++) {                                                      \
        const uint64_t *s = x->k[i];                                                           \
        uint64_t v = s[off / 64] >> (off % 64);                                                \
        if (off % 64 + x->c > 64 && off / 64 < 3) v |= s[off / 64 + 1] << (64 - off % 64);     \
        v &= ((uint64_t)1 << x->c) - 1;                                                        \
        if (v) cuzk_##G##_add_affine(&bk[v - 1], &bk[v - 1], &x->b[i]);                        \
      }                                                                                        \
      cuzk_##G##_set_infinity(&run);                                                           \
      cuzk_##G##_set_infinity(&sum);                                                           \
      for (size_t b = nb; b-- > 0;) {                                                          \
        cuzk_##G##_add(&run, &run, &bk[b]);                                                    \
        cuzk_##G##_add(&sum, &sum, &run);                                                      \
      }                                                                                        \
      x->win[w] = sum;                                                                         \
    }                                                                                          \
    free(bk);                                                                                  \
  }                                                                                            \
  static void G##_naive_msm(JAC *r, const AFF *b, const cuzk_fr *k, size_t n) {                \
    unsigned c = 3;                                                                            \
    if (n >= 32) /* ceil(ln n) */                                                              \
      for (double l = 0, e = 1; e < (double)n; c = (unsigned)++l)                              \
        e *= 2.718281828459045;                                                                \
    unsigned nwin = (255 + c - 1) / c;                                                         \
    uint64_t(*kc)[4] = malloc(n * sizeof *kc);                                                 \
    JAC *win = malloc(nwin * sizeof(JAC));                                                     \
    for (size_t i = 0; i < n; i++)                                                             \
      cuzk_fr_to_canonical(kc[i], &k[i]);                                                      \
    G##_naive_ctx x = {b, (const uint64_t(*)[4])kc, n, c, win};                                \
    cuzk_parallel_for(pool, nwin, 1, G##_naive_window, &x, 0);                                 \
    cuzk_##G##_set_infinity(r);                                                                \
    for (unsigned w = nwin; w-- > 0;) {                                                        \
      for (unsigned j = 0; j < c; j++)                                                         \
        cuzk_##G##_dbl(r, r);                                                                  \
      cuzk_##G##_add(r, r, &win[w]);                                                           \
    }                                                                                          \
    free(kc);                                                                                  \
    free(win);                                                                                 \
  }                                                                                            \
                                                                                               \
  typedef enum { G##_PLAIN, G##_WITNESS, G##_BASELINE } G##_kind;                              \
  static double G##_time(G##_kind kind, JAC *r, size_t n, const cuzk_fr *k,                    \
                         const cuzk_msm_opts *o) {                                             \
    double t0 = now_s();                                                                       \
    cuzk_msm_err e = CUZK_MSM_OK;                                                              \
    if (kind == G##_PLAIN)                                                                     \
      e = cuzk_##G##_msm(r, G##_bases, k, n, o);                                               \
    else if (kind == G##_WITNESS)                                                              \
      e = cuzk_##G##_msm_witness(r, G##_bases, n, k, n, NULL, o);                              \
    else                                                                                       \
      G##_naive_msm(r, G##_bases, k, n);                                                       \
    double t = now_s() - t0;                                                                   \
    if (e != CUZK_MSM_OK) {                                                                    \
      fprintf(stderr, "msm: %s\n", cuzk_msm_strerror(e));                                      \
      exit(1);                                                                                 \
    }                                                                                          \
    return t;                                                                                  \
  }                                                                                            \
  static void G##_differ(const char *what) {                                                   \
    fprintf(stderr, "msm: %s %s results differ in their bytes\n", #G, what);                   \
    exit(1);                                                                                   \
  }                                                                                            \
  static void G##_same(const JAC *a, const JAC *b, const char *what) {                         \
    if (!cuzk_##G##_eq(a, b)) {                                                                \
      fprintf(stderr, "msm: %s %s results differ\n", #G, what);                                \
      exit(1);                                                                                 \
    }                                                                                          \
  }

BENCH_GROUP(g1, cuzk_g1_affine, cuzk_g1)
BENCH_GROUP(g2, cuzk_g2_affine, cuzk_g2)

/* ---- driver ---------------------------------------------------------------------------------- */

static int runs = 3, sweep = 0, sweep_only = 0, do_witness = 1, ifma_ab = 0, vs_blst = 0;
static unsigned baseline_max = 20, window = 0, radius = 2;
static bool have_cal; /* --calibration FILE read into cal */
static cuzk_msm_calibration cal;
static cuzk_msm_method method = CUZK_MSM_AUTO;

/* One result: median (min) seconds and ns per point, then the baseline and its ratio. */
static void row(const char *g, const char *what, unsigned lg, double t, double tmin,
                const char *base, double tb, double blst) {
  double n = (double)((size_t)1 << lg);
  printf("%-3s %-22s 2^%-3u %8.3f s (min %7.3f) %8.1f ns/pt", g, what, lg, t, tmin, t * 1e9 / n);
  if (tb > 0) printf("   %-18s %8.3f s  x%5.2f", base, tb, tb / t);
  if (blst > 0) printf("   blst %5.2f s  x%5.2f", blst, blst / t);
  printf("\n");
  fflush(stdout);
}

/* blst on the reference VM (issue text): G1 2^20, G2 2^18, on 1 and 2 threads. */
static double blst_ref(int g2, unsigned lg) {
  if (!g2 && lg == 20) return threads == 1 ? 6.5 : threads == 2 ? 3.26 : 0;
  if (g2 && lg == 18) return threads == 1 ? 5.2 : threads == 2 ? 2.6 : 0;
  return 0;
}

#ifdef CUZK_BENCH_BLST
/* cuzk's plain MSM (r, already computed on these scalars), blst on one thread and blst in two
 * halves on two threads, interleaved round by round; ratios cuzk / blst. */
#define BENCH_BLST(G, AFF, JAC, BYTES)                                                            \
  static void G##_vs_blst(unsigned lg, const cuzk_fr *k, const cuzk_msm_opts *o, const JAC *r) {  \
    size_t n = (size_t)1 << lg;                                                                   \
    double t0 = now_s();                                                                          \
    msm_blst_##G##_bases(G##_bases, n);                                                           \
    msm_blst_scalars(k, n);                                                                       \
    fprintf(stderr, "# %s: bases and scalars converted for blst in %.2f s\n", #G, now_s() - t0);  \
    AFF a;                                                                                        \
    uint8_t want[BYTES], got[BYTES];                                                              \
    cuzk_##G##_to_affine(&a, r);                                                                  \
    cuzk_##G##_to_uncompressed(want, &a);                                                         \
    double tc[64], t1[64], t2[64];                                                                \
    JAC rc;                                                                                       \
    for (int i = 0; i < runs; i++) {                                                              \
      tc[i] = G##_time(G##_PLAIN, &rc, n, k, o);                                                  \
      G##_same(&rc, r, "plain/plain");                                                            \
      double s = now_s();                                                                         \
      msm_blst_##G(got, n, 0);                                                                    \
      t1[i] = now_s() - s;                                                                        \
      if (memcmp(got, want, BYTES)) G##_differ("cuzk/blst (1 thread)");                           \
      s = now_s();                                                                                \
      msm_blst_##G(got, n, 1);                                                                    \
      t2[i] = now_s() - s;                                                                        \
      if (memcmp(got, want, BYTES)) G##_differ("cuzk/blst (2 halves)");                           \
    }                                                                                             \
    double mc = bench_median(tc, runs), m1 = bench_median(t1, runs), m2 = bench_median(t2, runs); \
    printf("%-3s %-22s 2^%-3u cuzk %u thr %8.3f s   blst 1 thr %8.3f s (cuzk/blst %5.2f)   "      \
           "blst 2 halves %8.3f s (cuzk/blst %5.2f)\n",                                           \
           #G, "vs blst, same points", lg, threads, mc, m1, mc / m1, m2, mc / m2);                \
    fflush(stdout);                                                                               \
  }
BENCH_BLST(g1, cuzk_g1_affine, cuzk_g1, 96)
BENCH_BLST(g2, cuzk_g2_affine, cuzk_g2, 192)
#define VS_BLST(G, lg, k, o, r) G##_vs_blst(lg, k, o, r)
#else
#define VS_BLST(G, lg, k, o, r) ((void)0)
#endif

/* --sweep: the plan's pick with the built-in costs (and with --calibration's) against every
 * window within --radius of it, each bucket method (or --method's), interleaved round by round;
 * each row's ratio is its median over the best forced window's. */
#define BENCH_SWEEP(G, JAC)                                                                        \
  static void G##_sweep(unsigned lg, size_t n, const cuzk_fr *k, const JAC *want) {                \
    enum { NV = 2 + 2 * (CUZK_MSM_MAX_WINDOW + 1) };                                               \
    static double t[NV][64];                                                                       \
    char msg[512];                                                                                 \
    cuzk_msm_opts oa = {.pool = pool};                                                             \
    cuzk_msm_calibration_use(NULL, msg, sizeof msg);                                               \
    cuzk_msm_plan_info plan[2] = {cuzk_##G##_msm_plan(n, &oa), {0}};                               \
    if (have_cal) {                                                                                \
      cuzk_msm_calibration_use(&cal, msg, sizeof msg);                                             \
      plan[1] = cuzk_##G##_msm_plan(n, &oa);                                                       \
      cuzk_msm_calibration_use(NULL, msg, sizeof msg);                                             \
    }                                                                                              \
    unsigned c0 = window ? window : plan[0].window ? plan[0].window : 1;                           \
    unsigned clo = c0 > radius ? c0 - radius : 1;                                                  \
    unsigned chi = c0 + radius < CUZK_MSM_MAX_WINDOW ? c0 + radius : CUZK_MSM_MAX_WINDOW;          \
    JAC r;                                                                                         \
    for (int i = 0; i < runs; i++)                                                                 \
      for (int v = 0; v < NV; v++) {                                                               \
        int m = (v - 2) / (CUZK_MSM_MAX_WINDOW + 1);                                               \
        unsigned c = (unsigned)(v - 2) % (CUZK_MSM_MAX_WINDOW + 1);                                \
        cuzk_msm_method mm = m ? CUZK_MSM_XYZZ : CUZK_MSM_AFFINE;                                  \
        if (v == 1 && !have_cal) continue;                                                         \
        if (v >= 2 && (c < clo || c > chi || (method != CUZK_MSM_AUTO && method != mm))) continue; \
        cuzk_msm_opts o = {.pool = pool};                                                          \
        if (v >= 2) o = (cuzk_msm_opts){.pool = pool, .method = mm, .window = c};                  \
        if (v == 1) cuzk_msm_calibration_use(&cal, msg, sizeof msg);                               \
        t[v][i] = G##_time(G##_PLAIN, &r, n, k, &o);                                               \
        if (v == 1) cuzk_msm_calibration_use(NULL, msg, sizeof msg);                               \
        G##_same(&r, want, "sweep");                                                               \
      }                                                                                            \
    double best = 1e300;                                                                           \
    int bv = 2;                                                                                    \
    for (int v = 2; v < NV; v++) {                                                                 \
      int m = (v - 2) / (CUZK_MSM_MAX_WINDOW + 1);                                                 \
      unsigned c = (unsigned)(v - 2) % (CUZK_MSM_MAX_WINDOW + 1);                                  \
      if (c < clo || c > chi ||                                                                    \
          (method != CUZK_MSM_AUTO && method != (m ? CUZK_MSM_XYZZ : CUZK_MSM_AFFINE)))            \
        continue;                                                                                  \
      double med = bench_median(t[v], runs);                                                       \
      if (med < best) best = med, bv = v;                                                          \
    }                                                                                              \
    for (int v = 0; v < NV; v++) {                                                                 \
      int m = (v - 2) / (CUZK_MSM_MAX_WINDOW + 1);                                                 \
      unsigned c = (unsigned)(v - 2) % (CUZK_MSM_MAX_WINDOW + 1);                                  \
      char what[48];                                                                               \
      if (v < 2) {                                                                                 \
        if (v == 1 && !have_cal) continue;                                                         \
        snprintf(what, sizeof what, "plan %s %s %u x%u", v ? "calib" : "built-in",                 \
                 plan[v].method == CUZK_MSM_XYZZ ? "xyzz" : "affine", plan[v].window,              \
                 plan[v].ranges);                                                                  \
      } else {                                                                                     \
        if (c < clo || c > chi ||                                                                  \
            (method != CUZK_MSM_AUTO && method != (m ? CUZK_MSM_XYZZ : CUZK_MSM_AFFINE)))          \
          continue;                                                                                \
        snprintf(what, sizeof what, "%s c=%u%s", m ? "xyzz" : "affine", c,                         \
                 v == bv ? " best" : "");                                                          \
      }                                                                                            \
      double med = bench_median(t[v], runs), mn = t[v][0];                                         \
      for (int i = 1; i < runs; i++)                                                               \
        mn = t[v][i] < mn ? t[v][i] : mn;                                                          \
      printf("%-3s %-26s 2^%-3u %8.3f s (min %7.3f)   x%5.3f of the best\n", #G, what, lg, med,    \
             mn, med / best);                                                                      \
    }                                                                                              \
    fflush(stdout);                                                                                \
  }
BENCH_SWEEP(g1, cuzk_g1)
BENCH_SWEEP(g2, cuzk_g2)

#define BENCH_SIZE(G, JAC, IS_G2)                                                               \
  static void G##_bench(unsigned lg) {                                                          \
    size_t n = (size_t)1 << lg;                                                                 \
    G##_gen(n);                                                                                 \
    cuzk_fr *kd = malloc(n * sizeof *kd), *kw = malloc(n * sizeof *kw);                         \
    dense_scalars(kd, n);                                                                       \
    witness_scalars(kw, n);                                                                     \
    cuzk_msm_opts o = {.pool = pool, /* with --sweep the other rows are automatic */            \
                       .method = sweep ? CUZK_MSM_AUTO : method,                                \
                       .window = sweep ? 0 : window};                                           \
    JAC r0, r1, r2, r3;                                                                         \
    double tp[64], tb[64], tw[64], tpw[64];                                                     \
    int base = lg <= baseline_max;                                                              \
    for (int i = 0; i < (sweep_only ? 1 : runs); i++) { /* interleaved */                       \
      tp[i] = G##_time(G##_PLAIN, &r0, n, kd, &o);                                              \
      if (sweep_only) break;                                                                    \
      if (base) {                                                                               \
        tb[i] = G##_time(G##_BASELINE, &r1, n, kd, &o);                                         \
        G##_same(&r0, &r1, "plain/baseline");                                                   \
      }                                                                                         \
      if (do_witness) {                                                                         \
        tw[i] = G##_time(G##_WITNESS, &r2, n, kw, &o);                                          \
        tpw[i] = G##_time(G##_PLAIN, &r3, n, kw, &o);                                           \
        G##_same(&r2, &r3, "witness/plain");                                                    \
      }                                                                                         \
    }                                                                                           \
    double mp = bench_median(tp, sweep_only ? 1 : runs);                                        \
    if (!sweep_only)                                                                            \
      row(#G, "plain random", lg, mp, tp[0], "bellperson-style",                                \
          base ? bench_median(tb, runs) : 0, blst_ref(IS_G2, lg));                              \
    if (do_witness && !sweep_only) {                                                            \
      double mw = bench_median(tw, runs);                                                       \
      row(#G, "witness 70/25/5", lg, mw, tw[0], "plain, same scalars", bench_median(tpw, runs), \
          0);                                                                                   \
      row(#G, "witness 70/25/5", lg, mw, tw[0], "plain, random", mp, 0);                        \
    }                                                                                           \
    if (vs_blst) VS_BLST(G, lg, kd, &o, &r0);                                                   \
    if (ifma_ab) {                                                                              \
      double ti[64], ts[64], tiw[64], tsw[64];                                                  \
      for (int i = 0; i < runs; i++) { /* interleaved: IFMA, scalar, IFMA, scalar, ... */       \
        cuzk_field_use_ifma(true);                                                              \
        ti[i] = G##_time(G##_PLAIN, &r1, n, kd, &o);                                            \
        if (do_witness) tiw[i] = G##_time(G##_WITNESS, &r2, n, kw, &o);                         \
        cuzk_field_use_ifma(false);                                                             \
        ts[i] = G##_time(G##_PLAIN, &r3, n, kd, &o);                                            \
        if (memcmp(&r1, &r3, sizeof r1)) G##_differ("plain IFMA/scalar");                       \
        if (do_witness) {                                                                       \
          tsw[i] = G##_time(G##_WITNESS, &r3, n, kw, &o);                                       \
          if (memcmp(&r2, &r3, sizeof r2)) G##_differ("witness IFMA/scalar");                   \
        }                                                                                       \
      }                                                                                         \
      cuzk_field_use_ifma(true);                                                                \
      double mi = bench_median(ti, runs), ms = bench_median(ts, runs);                          \
      row(#G, "plain IFMA", lg, mi, ti[0], "scalar kernels", ms, 0);                            \
      if (do_witness) {                                                                         \
        mi = bench_median(tiw, runs);                                                           \
        ms = bench_median(tsw, runs);                                                           \
        row(#G, "witness IFMA", lg, mi, tiw[0], "scalar kernels", ms, 0);                       \
      }                                                                                         \
    }                                                                                           \
    if (sweep) G##_sweep(lg, n, kd, &r0);                                                       \
    free(kd);                                                                                   \
    free(kw);                                                                                   \
  }

BENCH_SIZE(g1, cuzk_g1, 0)
BENCH_SIZE(g2, cuzk_g2, 1)

static int parse_logs(const char *s, unsigned *out, int max) {
  int n = 0;
  while (*s && n < max) {
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (end == s || v < 1 || v > 28) return -1;
    out[n++] = (unsigned)v;
    s = *end == ',' ? end + 1 : end;
    if (*end && *end != ',') return -1;
  }
  return n;
}

int main(int argc, char **argv) {
  unsigned g1l[16] = {16, 20}, g2l[16] = {14, 18};
  int ng1 = 2, ng2 = 2;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--g1") && v) {
      ng1 = parse_logs(argv[++i], g1l, 16);
    } else if (!strcmp(a, "--g2") && v) {
      ng2 = parse_logs(argv[++i], g2l, 16);
    } else if (!strcmp(a, "--threads") && v) {
      threads = (unsigned)atoi(argv[++i]);
    } else if (!strcmp(a, "--runs") && v) {
      runs = atoi(argv[++i]);
    } else if (!strcmp(a, "--baseline-max") && v) {
      baseline_max = (unsigned)atoi(argv[++i]);
    } else if (!strcmp(a, "--window") && v) {
      window = (unsigned)atoi(argv[++i]);
    } else if (!strcmp(a, "--method") && v) {
      ++i;
      method = !strcmp(v, "affine") ? CUZK_MSM_AFFINE
               : !strcmp(v, "xyzz") ? CUZK_MSM_XYZZ
                                    : CUZK_MSM_AUTO;
    } else if (!strcmp(a, "--sweep")) {
      sweep = 1;
    } else if (!strcmp(a, "--sweep-only")) {
      sweep = sweep_only = 1;
    } else if (!strcmp(a, "--radius") && v) {
      radius = (unsigned)atoi(argv[++i]);
    } else if (!strcmp(a, "--calibration") && v) {
      char msg[1024];
      if (cuzk_msm_calibration_read(&cal, argv[++i], msg, sizeof msg) != CUZK_MSM_OK) {
        fprintf(stderr, "msm: %s\n", msg);
        return 2;
      }
      have_cal = true;
    } else if (!strcmp(a, "--cpu")) {
      bench_clock = CLOCK_PROCESS_CPUTIME_ID;
    } else if (!strcmp(a, "--no-witness")) {
      do_witness = 0;
    } else if (!strcmp(a, "--ifma")) {
      ifma_ab = 1;
    } else if (!strcmp(a, "--vs-blst")) {
      vs_blst = 1;
    } else {
      fprintf(
          stderr,
          "usage: %s [--g1 LOGS] [--g2 LOGS] [--threads T] [--runs R] [--baseline-max LOG]\n"
          "          [--method auto|affine|xyzz] [--window C] [--sweep] [--no-witness] [--cpu]\n"
          "          [--ifma] [--vs-blst] [--sweep-only] [--radius R] [--calibration FILE]\n",
          argv[0]);
      return 2;
    }
  }
  if (ng1 < 0 || ng2 < 0 || runs < 1 || runs > 64 || threads < 1 || threads > 1024 ||
      window > CUZK_MSM_MAX_WINDOW || radius > CUZK_MSM_MAX_WINDOW) {
    fprintf(stderr, "msm: bad argument\n");
    return 2;
  }
  if (ifma_ab && !cuzk_field_ifma_enabled()) {
    fprintf(stderr, "msm: --ifma needs the IFMA kernel enabled (CPU support, no CUZK_NO_IFMA)\n");
    return 2;
  }
#ifndef CUZK_BENCH_BLST
  if (vs_blst) {
    fprintf(stderr, "msm: --vs-blst needs a build configured with -DCUZK_BLST_DIR\n");
    return 2;
  }
#endif
  if (cuzk_pool_create(&pool, threads) != CUZK_POOL_OK) {
    fprintf(stderr, "msm: cannot create the pool\n");
    return 1;
  }
  printf("#");
  for (int i = 0; i < argc; i++)
    printf(" %s", argv[i]);
  printf("\n# %u threads, median (min) of %d interleaved runs, %s time; ratio = baseline / cuzk\n",
         threads, runs, bench_clock == CLOCK_MONOTONIC ? "wall" : "CPU");
  for (int i = 0; i < ng1; i++)
    g1_bench(g1l[i]);
  for (int i = 0; i < ng2; i++)
    g2_bench(g2l[i]);
  free(g1_bases);
  free(g2_bases);
#ifdef CUZK_BENCH_BLST
  msm_blst_free();
#endif
  cuzk_pool_destroy(pool);
  return 0;
}
