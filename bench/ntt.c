/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * NTT benchmark: seconds and ns per butterfly of cuzk's transforms, next to a baseline run in the
 * same process: a plain radix-2 iterative NTT (bit reversal, then log n passes over a
 * precomputed table of ω^j, one thread), built from the same field kernels as the library
 * (Montgomery product through the kernel table, branch-free additions), i.e. what a direct
 * port of a blst-based NTT does. The reference on the 2-core VM: that NTT on 2^20 takes
 * 0.30 s on one thread, 0.175 s on two; the goal is <= 0.12 s for ours on two threads, and 2^24
 * within 1.1 x (n log n) of the 2^20 figure.
 *
 * cuzk runs AVX-512 IFMA butterflies where the CPU has them (--scalar: the scalar ones).
 *
 * Variants are timed interleaved (baseline, ours on 1 thread, ours on T threads, baseline, ...)
 * and the median and minimum of --runs rounds are printed. ns/bfly = time / ((n/2)·log2 n) per
 * transform (the H chain counts its 7 transforms).
 *
 *   usage: ntt [--threads T] [--runs R] [--max-workers W] [--kinds LIST] [--no-baseline]
 *              [--pass-lg P] [--tile-lg L] [--scalar] LOG2 ...
 *   LIST: comma-separated of fwd (natural order), nr (natural -> bit-reversed, no permutation),
 *         inv, coset, h (the prover's quotient chain); default fwd. Default sizes: 16 20.
 *   --pass-lg, --tile-lg: engine tuning (levels per pass, log2 entries per strided tile).
 *   --scalar: the scalar butterflies even where the AVX-512 IFMA kernels could run.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "cuzk/ntt/ntt.h"
#include "cuzk/util/pool.h"
#include "ntt/fr_bfly.h"
#include "ntt/ntt_internal.h"
#include "ntt/pass.h"

static double now_s(void) { return bench_now_ns() * 1e-9; }
static double median(double *t, int n) { return bench_median(t, n); }

static uint64_t rng_state = 0x6e7474;
static void rand_fr(cuzk_fr *r) { bench_rand_fr(&rng_state, r); }

/* ---- the baseline ------------------------------------------------------------------------- */

static void baseline_roots(cuzk_fr *roots, unsigned k) {
  cuzk_fr w;
  cuzk_ntt_root(&w, k);
  roots[0] = cuzk_fr_one;
  for (size_t j = 1; j < ((size_t)1 << k) / 2; j++)
    cuzk_fr_mul(&roots[j], &roots[j - 1], &w);
}

/* Natural order in and out: bit-reverse, then DIT stages of length 2, 4, ..., n. */
static void baseline_ntt(cuzk_fr *v, unsigned k, const cuzk_fr *roots) {
  const size_t n = (size_t)1 << k;
  ntt_mul_fn mul = ntt_mul_kernel();
  for (size_t i = 0; i < n; i++) {
    size_t j = ntt_bitrev(i, k);
    if (i < j) {
      cuzk_fr t = v[i];
      v[i] = v[j];
      v[j] = t;
    }
  }
  for (size_t len = 2; len <= n; len <<= 1) {
    const size_t half = len / 2, step = n / len;
    for (size_t b = 0; b < n; b += len)
      for (size_t j = 0; j < half; j++) {
        cuzk_fr t;
        mul(t.l, v[b + j + half].l, roots[j * step].l);
        ntt_fr_addsub(&v[b + j], &v[b + j + half], &v[b + j], &t);
      }
  }
}

/* ---- variants ----------------------------------------------------------------------------- */

enum { V_BASE, V_FWD, V_NR, V_INV, V_COSET, V_H, V_COUNT };
static const char *vname[V_COUNT] = {"baseline radix-2", "forward NN",   "forward NR",
                                     "inverse NN",       "coset fwd NN", "H chain (7 NTT)"};
static const char *vkey[V_COUNT] = {"", "fwd", "nr", "inv", "coset", "h"};

typedef struct {
  cuzk_fr *a, *b, *c, *roots;
  unsigned k;
} bench_data;

static int run_variant(int v, bench_data *d, cuzk_pool *pool, unsigned mw) {
  size_t n = (size_t)1 << d->k;
  cuzk_ntt_err e = CUZK_NTT_OK;
  switch (v) {
  case V_BASE: baseline_ntt(d->a, d->k, d->roots); break;
  case V_FWD: e = cuzk_ntt_forward(d->a, n, pool, mw); break;
  case V_NR: e = cuzk_ntt(d->a, n, CUZK_NTT_FORWARD, CUZK_NTT_NR, pool, mw); break;
  case V_INV: e = cuzk_ntt_inverse(d->a, n, pool, mw); break;
  case V_COSET: e = cuzk_ntt_coset_forward(d->a, n, pool, mw); break;
  case V_H: e = cuzk_ntt_h(d->a, d->b, d->c, n, pool, mw); break;
  }
  if (e != CUZK_NTT_OK) {
    fprintf(stderr, "ntt: %s\n", cuzk_ntt_strerror(e));
    return -1;
  }
  return 0;
}

int main(int argc, char **argv) {
  unsigned threads = 2, mw = 0, pass_lg = 0, tile_lg = 0;
  int runs = 5;
  bool baseline = true, want[V_COUNT] = {false};
  unsigned sizes[32], nsizes = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
      threads = (unsigned)atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
      runs = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--max-workers") && i + 1 < argc) {
      mw = (unsigned)atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--pass-lg") && i + 1 < argc) {
      pass_lg = (unsigned)atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--tile-lg") && i + 1 < argc) {
      tile_lg = (unsigned)atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--scalar")) {
      ntt_ifma_enable(false);
    } else if (!strcmp(argv[i], "--no-baseline")) {
      baseline = false;
    } else if (!strcmp(argv[i], "--kinds") && i + 1 < argc) {
      char list[256]; /* strtok writes into its input; keep argv intact for the header line */
      snprintf(list, sizeof list, "%s", argv[++i]);
      for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
        int v = 1;
        while (v < V_COUNT && strcmp(tok, vkey[v]))
          v++;
        if (v == V_COUNT) {
          fprintf(stderr, "ntt: unknown kind '%s' (fwd, nr, inv, coset, h)\n", tok);
          return 2;
        }
        want[v] = true;
      }
    } else if (argv[i][0] != '-' && nsizes < 32) {
      sizes[nsizes++] = (unsigned)atoi(argv[i]);
    } else {
      fprintf(stderr,
              "usage: %s [--threads T] [--runs R] [--max-workers W] [--kinds fwd,nr,inv,coset,h]"
              " [--no-baseline] [--pass-lg P] [--tile-lg L] [--scalar] LOG2 ...\n",
              argv[0]);
      return 2;
    }
  }
  if (nsizes == 0) sizes[nsizes++] = 16, sizes[nsizes++] = 20;
  bool any = false;
  for (int v = 1; v < V_COUNT; v++)
    any |= want[v];
  if (!any) want[V_FWD] = true;
  want[V_BASE] = baseline;
  if (threads < 1 || threads > 1024 || runs < 1 || runs > 1000) {
    fprintf(stderr, "ntt: --threads must be 1..1024 and --runs 1..1000\n");
    return 2;
  }
  for (unsigned s = 0; s < nsizes; s++)
    if (sizes[s] < 1 || sizes[s] > CUZK_NTT_MAX_LG) {
      fprintf(stderr, "ntt: sizes are log2 values 1..%d\n", CUZK_NTT_MAX_LG);
      return 2;
    }
  if (pass_lg || tile_lg) ntt_set_tuning(pass_lg, 255, tile_lg);

  cuzk_pool *pool = NULL;
  if (threads > 1 && cuzk_pool_create(&pool, threads) != CUZK_POOL_OK) {
    fprintf(stderr, "ntt: cannot create a pool of %u threads\n", threads);
    return 1;
  }
  printf("# cuzk bench/ntt:");
  for (int i = 0; i < argc; i++)
    printf(" %s", argv[i]);
  printf("\n# field kernel %s, NTT butterflies %s; median (min) of %d interleaved runs; ratio = "
         "baseline median / median\n",
         cuzk_field_active_kernel() == CUZK_KERNEL_ADX ? "adx" : "portable",
         ntt_ifma_enabled() ? "AVX-512 IFMA" : "scalar", runs);
  printf("%-4s %-18s %7s %10s %10s %9s %8s\n", "lg", "variant", "threads", "median s", "min s",
         "ns/bfly", "ratio");

  double *t = malloc(sizeof(double) * (size_t)runs * V_COUNT * 2);
  if (!t) return 1;
  for (unsigned s = 0; s < nsizes; s++) {
    const unsigned k = sizes[s];
    const size_t n = (size_t)1 << k;
    bench_data d = {.k = k};
    d.a = cuzk_buffer_get(n * sizeof(cuzk_fr));
    d.b = cuzk_buffer_get(n * sizeof(cuzk_fr));
    d.c = cuzk_buffer_get(n * sizeof(cuzk_fr));
    d.roots = baseline ? cuzk_buffer_get(n / 2 * sizeof(cuzk_fr)) : NULL;
    if (!d.a || !d.b || !d.c || (baseline && !d.roots)) {
      fprintf(stderr, "ntt: out of memory for 2^%u\n", k);
      return 1;
    }
    for (size_t i = 0; i < n; i++) {
      rand_fr(&d.a[i]);
      rand_fr(&d.b[i]);
      rand_fr(&d.c[i]);
    }
    if (baseline) baseline_roots(d.roots, k);
    if (cuzk_ntt_prepare(k) != CUZK_NTT_OK) return 1;
    /* slots: variant v on 1 thread at [v][0], on T threads at [v][1] */
    for (int r = 0; r < runs; r++) {
      for (int v = 0; v < V_COUNT; v++) {
        if (!want[v]) continue;
        for (int par = 0; par < (v == V_BASE || threads == 1 ? 1 : 2); par++) {
          if (r == 0 && run_variant(v, &d, par ? pool : NULL, mw)) return 1; /* warm-up */
          double t0 = now_s();
          if (run_variant(v, &d, par ? pool : NULL, mw)) return 1;
          t[((size_t)v * 2 + (size_t)par) * (size_t)runs + (size_t)r] = now_s() - t0;
        }
      }
    }
    const double bfly = (double)n / 2 * k;
    double base_med = 0;
    for (int v = 0; v < V_COUNT; v++) {
      if (!want[v]) continue;
      for (int par = 0; par < (v == V_BASE || threads == 1 ? 1 : 2); par++) {
        double *tv = t + ((size_t)v * 2 + (size_t)par) * (size_t)runs;
        double med = median(tv, runs), mn = tv[0]; /* sorted by median() */
        double per = med * 1e9 / (bfly * (v == V_H ? 7 : 1));
        if (v == V_BASE) base_med = med;
        printf("%-4u %-18s %7u %10.4f %10.4f %9.2f", k, vname[v], par ? threads : 1, med, mn, per);
        if (v != V_BASE && base_med > 0 && v != V_H)
          printf(" %7.2fx\n", base_med / med);
        else
          printf(" %8s\n", "-");
      }
    }
    cuzk_buffer_put(d.a);
    cuzk_buffer_put(d.b);
    cuzk_buffer_put(d.c);
    cuzk_buffer_put(d.roots);
  }
  free(t);
  cuzk_pool_destroy(pool);
  return 0;
}
