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
 * "g1 batch add" is one flush of BATCH_K batched affine additions on distinct accumulators
 * (msm/batch_ifma.h against batch_affine.inc's scalar flush; both include their share of the
 * inversion, the scalar side also a copy of its accumulators in and out), ns per addition.
 * "g1 msm flush" is the flush the MSM runs (msm_g1_batch_add_lanes: the lanes on the scalar-form
 * points, no conversion) against the same scalar flush, both with the copies.
 *
 *   usage: fp_ifma [--runs N] [--kernel adx|portable]
 */
#include "bench_util.h"

#include <stdio.h>
#include <string.h>

#include "cuzk/curve/curve.h"
#include "cuzk/field/field.h"
#include "field/fp_ifma.h"
#include "msm/batch_ifma.h"

#if CUZK_FP_IFMA

#define ITERS 4096 /* operations per chain and timed batch */
#define NCH 4
#define OPS_X4 (NCH * ITERS)

static cuzk_fp fa[NCH], fb;
static fp52x8 va[NCH], vb;
static cuzk_fp conv[8];

/* The batched affine additions: BATCH_K accumulators, each += one of the points. */
#define BATCH_K 512
static cuzk_g1_affine b_acc[BATCH_K], b_pts[BATCH_K];
static const cuzk_g1_affine *b_pt[BATCH_K];
static msm_g1_aff52 *b_acc52, *b_pts52;
static const msm_g1_aff52 *b_pt52[BATCH_K];
static uint32_t b_idx[BATCH_K];
static uint8_t b_skip[BATCH_K];
static void *b_scratch;

static void s_batch(void) {
  for (int r = 0; r < 4; r++)
    msm_g1_batch_add_scalar(b_acc, BATCH_K, b_idx, b_pt, BATCH_K, b_skip);
}
static void v_batch(void) {
  for (int r = 0; r < 4; r++)
    msm_g1_batch_add_ifma(b_acc52, b_idx, b_pt52, BATCH_K, b_skip, b_scratch);
}

static void l_batch(void) {
  for (int r = 0; r < 4; r++)
    msm_g1_batch_add_lanes(b_acc, BATCH_K, b_idx, b_pt, BATCH_K, b_skip);
}

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
  double ops;   /* operations per call, scalar side */
  double lanes; /* of them per IFMA operation: 8 for the field, 1 for the batch (per addition) */
} pair;

static const pair pairs[] = {
    {"mul chain", s_mul_chain, v_mul_chain, ITERS, 8},
    {"mul x4", s_mul_x4, v_mul_x4, OPS_X4, 8},
    {"sqr chain", s_sqr_chain, v_sqr_chain, ITERS, 8},
    {"sqr x4", s_sqr_x4, v_sqr_x4, OPS_X4, 8},
    {"add chain", s_add_chain, v_add_chain, ITERS, 8},
    {"sub chain", s_sub_chain, v_sub_chain, ITERS, 8},
    {"g1 batch add", s_batch, v_batch, 4 * BATCH_K, 1},
    {"g1 msm flush", s_batch, l_batch, 4 * BATCH_K, 1},
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
  /* points: multiples of the generator (distinct x), accumulators from the other half */
  cuzk_g1 g, j;
  cuzk_g1_generator(&g);
  j = g;
  cuzk_g1 *all = malloc(sizeof *all * 2 * BATCH_K);
  b_acc52 = aligned_alloc(64, sizeof *b_acc52 * BATCH_K);
  b_pts52 = aligned_alloc(64, sizeof *b_pts52 * BATCH_K);
  b_scratch = aligned_alloc(64, (msm_g1_batch_ifma_scratch(BATCH_K) + 63) & ~(size_t)63);
  if (!all || !b_acc52 || !b_pts52 || !b_scratch) exit(1);
  for (int i = 0; i < 2 * BATCH_K; i++) {
    all[i] = j;
    cuzk_g1_add(&j, &j, &g);
  }
  cuzk_g1_affine *aff = malloc(sizeof *aff * 2 * BATCH_K);
  if (!aff) exit(1);
  cuzk_g1_batch_to_affine(aff, all, 2 * BATCH_K);
  for (int i = 0; i < BATCH_K; i++) {
    b_pts[i] = aff[2 * i];
    b_acc[i] = aff[2 * i + 1];
    b_pt[i] = &b_pts[i];
    b_pt52[i] = &b_pts52[i];
    b_idx[i] = (uint32_t)((i * 7) % BATCH_K) | (i & 1 ? MSM_IFMA_NEG_BIT : 0);
  }
  msm_g1_aff52_from(b_pts52, b_pts, BATCH_K);
  msm_g1_aff52_from(b_acc52, b_acc, BATCH_K);
  free(all);
  free(aff);
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
      ts[(p * 2 + 1) * (size_t)runs + (size_t)r] = b / (pairs[p].lanes * pairs[p].ops);
    }
    if (r < cruns) tc[r] = time_ns(v_convert) / (8.0 * ITERS);
  }
  printf("# fp_ifma --runs %d: scalar kernel %s; ns per lane operation, median (min) of %d "
         "interleaved batches\n",
         runs, cuzk_field_active_kernel() == CUZK_KERNEL_ADX ? "adx" : "portable", runs);
  printf("%-12s %18s %18s %8s\n", "op", "scalar", "ifma", "ratio");
  for (size_t p = 0; p < np; p++) {
    double *s = ts + (p * 2) * (size_t)runs, *v = ts + (p * 2 + 1) * (size_t)runs;
    double sm = bench_median(s, runs), vm = bench_median(v, runs);
    printf("%-12s %9.2f (%6.2f) %9.2f (%6.2f) %8.3f\n", pairs[p].name, sm, s[0], vm, v[0], vm / sm);
  }
  double cm = bench_median(tc, cruns);
  printf("%-12s %18s %9.2f (%6.2f)\n", "load+store", "", cm, tc[0]);
  free(ts);
  return 0;
}

#else

int main(void) {
  fprintf(stderr, "fp_ifma: not an x86-64 build\n");
  return 1;
}

#endif
