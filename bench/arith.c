/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Arithmetic micro-benchmark: ns per operation (median of --runs timed batches) for the field,
 * curve and pairing primitives, next to blst's figure on the reference machine (issue #2; a
 * 2-core AMD EPYC Zen 5 VM) and the ratio of our median to it; the minimum is printed too, the
 * better A/B statistic on a noisy machine. Field multiplications are timed as
 * dependent chains (latency), which is how the curve formulas use them.
 *
 *   usage: arith [--runs N] [--kernel adx|portable] [--filter SUBSTRING]
 */
#include "bench_util.h"

#include <stdio.h>
#include <string.h>

#include "cuzk/curve/curve.h"
#include "cuzk/field/field.h"
#include "cuzk/pairing/pairing.h"

static uint64_t rng_state = 0x1234567;
static uint64_t rng(void) { return bench_rng(&rng_state); }
static void rand_fp(cuzk_fp *r) {
  uint64_t x[6];
  do {
    for (int i = 0; i < 6; i++)
      x[i] = rng();
    x[5] &= 0x1fffffffffffffffULL;
  } while (!cuzk_fp_from_canonical(r, x));
}
static void rand_fr(cuzk_fr *r) { bench_rand_fr(&rng_state, r); }

/* Shared state the timed bodies work on (kept global so the compiler cannot drop the work). */
static cuzk_fp fa, fb;
static cuzk_fr ra, rb;
static cuzk_g1 p1, acc1;
static cuzk_g1_affine a1;
static cuzk_g2 p2, acc2;
static cuzk_g2_affine a2;
static cuzk_fr scalar;
static unsigned char c1[48], c2[96];
static cuzk_g2_prepared prep[3];
static cuzk_g1_affine pp[3];
static cuzk_fp12 gt;
static volatile int sink;

static void op_fp_add(void) { cuzk_fp_add(&fa, &fa, &fb); }
static void op_fp_sub(void) { cuzk_fp_sub(&fa, &fa, &fb); }
static void op_fp_mul(void) { cuzk_fp_mul(&fa, &fa, &fb); }
static void op_fp_sqr(void) { cuzk_fp_sqr(&fa, &fa); }
static void op_fr_add(void) { cuzk_fr_add(&ra, &ra, &rb); }
static void op_fr_mul(void) { cuzk_fr_mul(&ra, &ra, &rb); }
static void op_fr_sqr(void) { cuzk_fr_sqr(&ra, &ra); }
static void op_fp_inv(void) { cuzk_fp_inv(&fa, &fa); }
static void op_fr_inv(void) { cuzk_fr_inv(&ra, &ra); }
static void op_fp_sqrt(void) { sink += cuzk_fp_sqrt(&fb, &fa); }
static void op_g1_madd(void) { cuzk_g1_add_affine(&acc1, &acc1, &a1); }
static void op_g1_add(void) { cuzk_g1_add(&acc1, &acc1, &p1); }
static void op_g1_dbl(void) { cuzk_g1_dbl(&acc1, &acc1); }
static void op_g2_madd(void) { cuzk_g2_add_affine(&acc2, &acc2, &a2); }
static void op_g2_add(void) { cuzk_g2_add(&acc2, &acc2, &p2); }
static void op_g2_dbl(void) { cuzk_g2_dbl(&acc2, &acc2); }
static void op_g1_mul(void) { cuzk_g1_mul(&acc1, &acc1, &scalar); }
static void op_g2_mul(void) { cuzk_g2_mul(&acc2, &acc2, &scalar); }
static void op_g1_compress(void) { cuzk_g1_to_compressed(c1, &a1); }
/* blst's figure is blst_p1_uncompress: on-curve check, no subgroup check */
static void op_g1_decompress(void) { sink += (int)cuzk_g1_from_compressed_unchecked(&a1, c1); }
static void op_g1_decompress_checked(void) { sink += (int)cuzk_g1_from_compressed(&a1, c1); }
static void op_g2_compress(void) { cuzk_g2_to_compressed(c2, &a2); }
static void op_g2_decompress(void) { sink += (int)cuzk_g2_from_compressed_unchecked(&a2, c2); }
static void op_g1_subgroup(void) { sink += cuzk_g1_affine_is_in_subgroup(&a1); }
static void op_g2_subgroup(void) { sink += cuzk_g2_affine_is_in_subgroup(&a2); }
static void op_pairing(void) { cuzk_pairing(&gt, &a1, &a2); }
static void op_pairing3(void) { sink += cuzk_pairing_product_is_one(pp, prep, 3); }

typedef struct {
  const char *name;
  void (*fn)(void);
  unsigned iters; /* per timed batch */
  double blst_ns; /* reference figure from the issue, 0 if none */
} bench_op;

static const bench_op ops[] = {
    {"fp_add", op_fp_add, 500000, 0},
    {"fp_sub", op_fp_sub, 500000, 0},
    {"fp_mul", op_fp_mul, 200000, 28},
    {"fp_sqr", op_fp_sqr, 200000, 0},
    {"fr_add", op_fr_add, 500000, 0},
    {"fr_mul", op_fr_mul, 200000, 15},
    {"fr_sqr", op_fr_sqr, 200000, 0},
    {"fp_inv", op_fp_inv, 5000, 2100},
    {"fr_inv", op_fr_inv, 5000, 0},
    {"fp_sqrt", op_fp_sqrt, 500, 0},
    {"g1_add_affine", op_g1_madd, 20000, 430},
    {"g1_add", op_g1_add, 20000, 0},
    {"g1_dbl", op_g1_dbl, 20000, 250},
    {"g2_add_affine", op_g2_madd, 10000, 1000},
    {"g2_add", op_g2_add, 10000, 0},
    {"g2_dbl", op_g2_dbl, 10000, 570},
    {"g1_mul", op_g1_mul, 100, 0},
    {"g2_mul", op_g2_mul, 50, 0},
    {"g1_compress", op_g1_compress, 2000, 0},
    {"g1_decompress", op_g1_decompress, 500, 12000},
    {"g1_decompress_checked", op_g1_decompress_checked, 300, 0},
    {"g2_compress", op_g2_compress, 2000, 0},
    {"g2_decompress", op_g2_decompress, 200, 0},
    {"g1_subgroup_check", op_g1_subgroup, 300, 45000},
    {"g2_subgroup_check", op_g2_subgroup, 200, 0},
    {"pairing", op_pairing, 20, 750000},
    {"pairing_product_3", op_pairing3, 20, 1100000},
};

static void setup(void) {
  rand_fp(&fa);
  rand_fp(&fb);
  rand_fr(&ra);
  rand_fr(&rb);
  rand_fr(&scalar);
  cuzk_g1_generator(&p1);
  cuzk_g1_mul(&p1, &p1, &scalar);
  cuzk_g1_to_affine(&a1, &p1);
  acc1 = p1;
  cuzk_g2_generator(&p2);
  cuzk_g2_mul(&p2, &p2, &scalar);
  cuzk_g2_to_affine(&a2, &p2);
  acc2 = p2;
  cuzk_g1_to_compressed(c1, &a1);
  cuzk_g2_to_compressed(c2, &a2);
  /* e(aP, Q) e(-P, aQ) e(P, Q)^0... three pairs whose product is not one, like a verifier's */
  for (int i = 0; i < 3; i++) {
    cuzk_fr k;
    cuzk_g1 x;
    cuzk_g2 y;
    cuzk_g2_affine ya;
    rand_fr(&k);
    cuzk_g1_mul(&x, &p1, &k);
    cuzk_g1_to_affine(&pp[i], &x);
    cuzk_g2_mul(&y, &p2, &k);
    cuzk_g2_to_affine(&ya, &y);
    cuzk_g2_prepare(&prep[i], &ya);
  }
}

int main(int argc, char **argv) {
  int runs = 7;
  const char *filter = NULL, *kernel = "default";
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
      runs = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--filter") && i + 1 < argc) {
      filter = argv[++i];
    } else if (!strcmp(argv[i], "--kernel") && i + 1 < argc) {
      kernel = argv[++i];
      cuzk_field_kernel k = !strcmp(kernel, "portable") ? CUZK_KERNEL_PORTABLE : CUZK_KERNEL_ADX;
      if ((strcmp(kernel, "portable") && strcmp(kernel, "adx")) || !cuzk_field_use_kernel(k)) {
        fprintf(stderr, "arith: --kernel must be adx or portable, and supported by this CPU\n");
        return 2;
      }
    } else {
      fprintf(stderr, "usage: %s [--runs N] [--kernel adx|portable] [--filter SUBSTRING]\n",
              argv[0]);
      return 2;
    }
  }
  if (runs < 1 || runs > 1000) {
    fprintf(stderr, "arith: --runs must be 1..1000\n");
    return 2;
  }
  setup();
  printf("# command:");
  for (int i = 0; i < argc; i++)
    printf(" %s", argv[i]);
  printf("\n");
  printf("# cuzk bench/arith, kernel %s, median of %d runs; blst = reference figure (issue #2)\n",
         cuzk_field_active_kernel() == CUZK_KERNEL_ADX ? "adx" : "portable", runs);
  printf("%-24s %12s %12s %12s %8s\n", "op", "median ns", "min ns", "blst ns", "ratio");
  for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
    if (filter && !strstr(ops[o].name, filter)) continue;
    double med, min;
    if (bench_time_op(ops[o].fn, ops[o].iters, runs, &med, &min) != 0) return 1;
    if (ops[o].blst_ns > 0)
      printf("%-24s %12.1f %12.1f %12.1f %8.2f\n", ops[o].name, med, min, ops[o].blst_ns,
             med / ops[o].blst_ns);
    else
      printf("%-24s %12.1f %12.1f %12s %8s\n", ops[o].name, med, min, "-", "-");
  }
  return 0;
}
