/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Timing helpers shared by the benchmark programs: a monotonic clock, and ns per call of a
 * function as the median and minimum over timed batches (the minimum is the steadier A/B
 * statistic on a shared machine). */
#ifndef CUZK_BENCH_UTIL_H
#define CUZK_BENCH_UTIL_H

#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "cuzk/field/field.h"

static inline double bench_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static inline int bench_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Sorts t[0..runs) and returns the median; t[0] is then the minimum. */
static inline double bench_median(double *t, int runs) {
  qsort(t, (size_t)runs, sizeof(double), bench_cmp_double);
  return t[runs / 2];
}

/* ns per call of fn over `runs` batches of `iters` calls (iters = 0: sized to >= 20 ms a batch).
 * Returns 0 on success, -1 if out of memory. */
static inline int bench_time_op(void (*fn)(void), unsigned iters, int runs, double *med,
                                double *min) {
  if (iters == 0) {
    iters = 1;
    for (;;) {
      double t0 = bench_now_ns();
      for (unsigned i = 0; i < iters; i++)
        fn();
      if (bench_now_ns() - t0 >= 2e7 || iters >= (1u << 30)) break;
      iters *= 2;
    }
  } else {
    fn(); /* warm up */
  }
  double *t = malloc(sizeof(double) * (size_t)runs);
  if (!t) return -1;
  for (int r = 0; r < runs; r++) {
    double t0 = bench_now_ns();
    for (unsigned i = 0; i < iters; i++)
      fn();
    t[r] = (bench_now_ns() - t0) / iters;
  }
  *med = bench_median(t, runs);
  *min = t[0];
  free(t);
  return 0;
}

/* splitmix64: deterministic inputs for the benchmarks. */
static inline uint64_t bench_rng(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* A uniformly random Fr element (rejection sampling on 255-bit values). */
static inline void bench_rand_fr(uint64_t *s, cuzk_fr *r) {
  uint64_t x[4];
  do {
    for (int i = 0; i < 4; i++)
      x[i] = bench_rng(s);
    x[3] &= 0x7fffffffffffffffULL;
  } while (!cuzk_fr_from_canonical(r, x));
}

#endif
