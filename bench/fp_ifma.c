/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The 8-lane IFMA Fp kernel (src/field/fp_ifma.h) against the scalar cuzk_fp kernel, same run,
 * interleaved: each of --runs rounds times every variant once, in turn, so that a slow phase of
 * a shared machine hits all of them; the table gives the median (and minimum) ns per lane
 * operation and the ratio IFMA / scalar of the medians.
 *
 * Two shapes per operation: "chain", one dependent chain (the latency: a prefix-product chain,
 * a formula's next step), and "x4", four independent chains interleaved (the throughput the
 * batched affine addition can reach with lanes to spare). An IFMA lane operation is one eighth of
 * a vector operation. "load+store" is the conversion of one element in and out (two products).
 *
 *   usage: fp_ifma [--runs N] [--kernel adx|portable]
 */
#include "bench_util.h"

#include <stdio.h>
#include <string.h>

#include "cuzk/field.h"
#include "field/fp_ifma.h"

#if CUZK_FP_IFMA

#define ITERS 4096 /* operations per chain and timed batch */
#define NCH 4

static cuzk_fp fa[NCH], fb;
static fp52x8 va[NCH], vb;
static cuzk_fp conv[8];

static void s_mul_chain(void) {
  cuzk_fp a = fa[0];
  for (int i = 0; i < ITERS; i++)
    cuzk_fp_mul(&a, &a, &fb);
  fa[0] = a;
}
static void s_mul_x4(void) {
  cuzk_fp a = fa[0], b = fa[1], c = fa[2], d = fa[3];
  for (int i = 0; i < ITERS; i++) {
    cuzk_fp_mul(&a, &a, &fb);
    cuzk_fp_mul(&b, &b, &fb);
    cuzk_fp_mul(&c, &c, &fb);
    cuzk_fp_mul(&d, &d, &fb);
  }
  fa[0] = a, fa[1] = b, fa[2] = c, fa[3] = d;
}
static void s_sqr_chain(void) {
  cuzk_fp a = fa[0];
  for (int i = 0; i < ITERS; i++)
    cuzk_fp_sqr(&a, &a);
  fa[0] = a;
}
static void s_sqr_x4(void) {
  cuzk_fp a = fa[0], b = fa[1], c = fa[2], d = fa[3];
  for (int i = 0; i < ITERS; i++) {
    cuzk_fp_sqr(&a, &a);
    cuzk_fp_sqr(&b, &b);
    cuzk_fp_sqr(&c, &c);
    cuzk_fp_sqr(&d, &d);
  }
  fa[0] = a, fa[1] = b, fa[2] = c, fa[3] = d;
}
static void s_add_chain(void) {
  cuzk_fp a = fa[0];
  for (int i = 0; i < ITERS; i++)
    cuzk_fp_add(&a, &a, &fb);
  fa[0] = a;
}
static void s_sub_chain(void) {
  cuzk_fp a = fa[0];
  for (int i = 0; i < ITERS; i++)
    cuzk_fp_sub(&a, &a, &fb);
  fa[0] = a;
}

FP52_FN static void v_mul_chain(void) {
  fp52x8 a = va[0];
  for (int i = 0; i < ITERS; i++)
    fp52x8_mul(&a, &a, &vb);
  va[0] = a;
}
FP52_FN static void v_mul_x4(void) {
  fp52x8 a = va[0], b = va[1], c = va[2], d = va[3];
  for (int i = 0; i < ITERS; i++) {
    fp52x8_mul(&a, &a, &vb);
    fp52x8_mul(&b, &b, &vb);
    fp52x8_mul(&c, &c, &vb);
    fp52x8_mul(&d, &d, &vb);
  }
  va[0] = a, va[1] = b, va[2] = c, va[3] = d;
}
FP52_FN static void v_sqr_chain(void) {
  fp52x8 a = va[0];
  for (int i = 0; i < ITERS; i++)
    fp52x8_sqr(&a, &a);
  va[0] = a;
}
FP52_FN static void v_sqr_x4(void) {
  fp52x8 a = va[0], b = va[1], c = va[2], d = va[3];
  for (int i = 0; i < ITERS; i++) {
    fp52x8_sqr(&a, &a);
    fp52x8_sqr(&b, &b);
    fp52x8_sqr(&c, &c);
    fp52x8_sqr(&d, &d);
  }
  va[0] = a, va[1] = b, va[2] = c, va[3] = d;
}
FP52_FN static void v_add_chain(void) {
  fp52x8 a = va[0];
  for (int i = 0; i < ITERS; i++)
    fp52x8_add(&a, &a, &vb);
  va[0] = a;
}
FP52_FN static void v_sub_chain(void) {
  fp52x8 a = va[0];
  for (int i = 0; i < ITERS; i++)
    fp52x8_sub(&a, &a, &vb);
  va[0] = a;
}
FP52_FN static void v_convert(void) {
  fp52x8 a;
  for (int i = 0; i < ITERS; i++) {
    fp52x8_load(&a, conv);
    fp52x8_store(conv, &a);
  }
}

typedef struct {
  const char *name;
  void (*scalar)(void), (*ifma)(void);
  double ops; /* lane operations per call, scalar side (IFMA: the same number of lanes) */
} pair;

static const pair pairs[] = {
    {"mul chain", s_mul_chain, v_mul_chain, ITERS}, {"mul x4", s_mul_x4, v_mul_x4, NCH *ITERS},
    {"sqr chain", s_sqr_chain, v_sqr_chain, ITERS}, {"sqr x4", s_sqr_x4, v_sqr_x4, NCH *ITERS},
    {"add chain", s_add_chain, v_add_chain, ITERS}, {"sub chain", s_sub_chain, v_sub_chain, ITERS},
};
#define NPAIRS (sizeof pairs / sizeof pairs[0])

static double time_ns(void (*fn)(void)) {
  double t0 = bench_now_ns();
  fn();
  return bench_now_ns() - t0;
}

FP52_FN static void setup(void) {
  uint64_t s = 0xf9;
  for (int k = 0; k < 8; k++) {
    uint64_t x[6];
    do {
      for (int i = 0; i < 6; i++)
        x[i] = bench_rng(&s);
      x[5] &= 0x1fffffffffffffffULL;
    } while (!cuzk_fp_from_canonical(&conv[k], x));
  }
  for (int c = 0; c < NCH; c++) {
    fa[c] = conv[c];
    fp52x8_load(&va[c], conv);
  }
  fb = conv[4];
  fp52x8_load(&vb, conv);
}

int main(int argc, char **argv) {
  int runs = 31;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
      runs = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--kernel") && i + 1 < argc) {
      const char *k = argv[++i];
      if (!cuzk_field_use_kernel(strcmp(k, "portable") ? CUZK_KERNEL_ADX : CUZK_KERNEL_PORTABLE)) {
        fprintf(stderr, "fp_ifma: kernel %s not supported here\n", k);
        return 1;
      }
    } else {
      fprintf(stderr, "usage: fp_ifma [--runs N] [--kernel adx|portable]\n");
      return 2;
    }
  }
  if (runs < 1) runs = 1;
  if (!cuzk_field_ifma_supported()) {
    fprintf(stderr, "fp_ifma: this CPU has no AVX-512 IFMA\n");
    return 1;
  }
  setup();
  const size_t np = NPAIRS;
  double *ts = malloc(sizeof(double) * (size_t)runs * np * 2), tc[64];
  if (!ts) return 1;
  for (size_t p = 0; p < np; p++) { /* warm up */
    pairs[p].scalar();
    pairs[p].ifma();
  }
  const int cruns = runs < 64 ? runs : 64;
  for (int r = 0; r < runs; r++) {
    for (size_t p = 0; p < np; p++) {
      double a = time_ns(pairs[p].scalar), b = time_ns(pairs[p].ifma);
      ts[(p * 2) * (size_t)runs + (size_t)r] = a / pairs[p].ops;
      ts[(p * 2 + 1) * (size_t)runs + (size_t)r] = b / (8 * pairs[p].ops);
    }
    if (r < cruns) tc[r] = time_ns(v_convert) / (8.0 * ITERS);
  }
  printf("# fp_ifma --runs %d: scalar kernel %s; ns per lane operation, median (min) of %d "
         "interleaved batches\n",
         runs, cuzk_field_active_kernel() == CUZK_KERNEL_ADX ? "adx" : "portable", runs);
  printf("%-10s %18s %18s %8s\n", "op", "scalar", "ifma", "ratio");
  for (size_t p = 0; p < np; p++) {
    double *s = ts + (p * 2) * (size_t)runs, *v = ts + (p * 2 + 1) * (size_t)runs;
    double sm = bench_median(s, runs), vm = bench_median(v, runs);
    printf("%-10s %9.2f (%6.2f) %9.2f (%6.2f) %8.3f\n", pairs[p].name, sm, s[0], vm, v[0], vm / sm);
  }
  double cm = bench_median(tc, cruns);
  printf("%-10s %18s %9.2f (%6.2f)\n", "load+store", "", cm, tc[0]);
  free(ts);
  return 0;
}

#else

int main(void) {
  fprintf(stderr, "fp_ifma: not an x86-64 build\n");
  return 1;
}

#endif
