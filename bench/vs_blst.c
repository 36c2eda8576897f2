/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Same-run comparison of cuzk and blst, interleaved op by op, so the ratio holds whatever the
 * VM's clock does (it moves by 1.4x between quiet and busy periods here). blst is not a Debian
 * package and is never vendored: build it from its public source outside this tree (its
 * build.sh makes libblst.a) and configure with -DCUZK_BLST_DIR=/path/to/blst to build this
 * program. Usage: vs_blst [ROUNDS]
 */
#define _POSIX_C_SOURCE 200809L
#include "blst.h"
#include "cuzk/curve/curve.h"
#include "cuzk/pairing/pairing.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}
static int cmpd(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static cuzk_fp cfa, cfb;
static blst_fp bfa, bfb;
static cuzk_fr cra, crb;
static blst_fr bra, brb;
static cuzk_g1 cacc1;
static cuzk_g1_affine ca1;
static blst_p1 bacc1;
static blst_p1_affine ba1;
static cuzk_g2 cacc2;
static cuzk_g2_affine ca2;
static blst_p2 bacc2;
static blst_p2_affine ba2;
static unsigned char c48[48];
static cuzk_fp12 cgt;
static blst_fp12 bgt;
static cuzk_g1_affine cps[3];
static cuzk_g2_affine cqs[3];
static cuzk_g2_prepared cprep[3];
static blst_p1_affine bps[3];
static blst_p2_affine bqs[3];
static volatile int sink;

static void c_fpmul(void) { cuzk_fp_mul(&cfa, &cfa, &cfb); }
static void b_fpmul(void) { blst_fp_mul(&bfa, &bfa, &bfb); }
static void c_frmul(void) { cuzk_fr_mul(&cra, &cra, &crb); }
static void b_frmul(void) { blst_fr_mul(&bra, &bra, &brb); }
static void c_fpinv(void) { cuzk_fp_inv(&cfa, &cfa); }
static void b_fpinv(void) { blst_fp_inverse(&bfa, &bfa); }
static void c_g1madd(void) { cuzk_g1_add_affine(&cacc1, &cacc1, &ca1); }
static void b_g1madd(void) { blst_p1_add_or_double_affine(&bacc1, &bacc1, &ba1); }
static void c_g1dbl(void) { cuzk_g1_dbl(&cacc1, &cacc1); }
static void b_g1dbl(void) { blst_p1_double(&bacc1, &bacc1); }
static void c_g2madd(void) { cuzk_g2_add_affine(&cacc2, &cacc2, &ca2); }
static void b_g2madd(void) { blst_p2_add_or_double_affine(&bacc2, &bacc2, &ba2); }
static void c_g2dbl(void) { cuzk_g2_dbl(&cacc2, &cacc2); }
static void b_g2dbl(void) { blst_p2_double(&bacc2, &bacc2); }
static void c_dec(void) {
  cuzk_g1_affine t;
  sink += cuzk_g1_from_compressed_unchecked(&t, c48);
}
static void b_dec(void) {
  blst_p1_affine t;
  sink += blst_p1_uncompress(&t, c48);
}
static void c_sub(void) { sink += cuzk_g1_affine_is_in_subgroup(&ca1); }
static void b_sub(void) { sink += blst_p1_affine_in_g1(&ba1); }
static void c_pair(void) { cuzk_pairing(&cgt, &ca1, &ca2); }
static void b_pair(void) {
  blst_fp12 f;
  blst_miller_loop(&f, &ba2, &ba1);
  blst_final_exp(&bgt, &f);
}
static void c_prod3(void) {
  for (int i = 0; i < 3; i++)
    cuzk_g2_prepare(&cprep[i], &cqs[i]);
  sink += cuzk_pairing_product_is_one(cps, cprep, 3);
}
static void c_prod3p(void) { sink += cuzk_pairing_product_is_one(cps, cprep, 3); }
static void b_prod3(void) {
  const blst_p1_affine *P[3] = {&bps[0], &bps[1], &bps[2]};
  const blst_p2_affine *Q[3] = {&bqs[0], &bqs[1], &bqs[2]};
  blst_fp12 f;
  blst_miller_loop_n(&f, Q, P, 3);
  blst_final_exp(&f, &f);
  sink += blst_fp12_is_one(&f);
}

/* 4096 affine points summed (cuzk_g1_affine_sum against blst_p1s_add: batched affine additions
 * in rounds, the issue #16 oddity). */
#define SUM_N 4096
static cuzk_g1_affine csum[SUM_N];
static blst_p1_affine bsum[SUM_N];
static void c_sum(void) { cuzk_g1_affine_sum(&cacc1, csum, SUM_N); }
static void b_sum(void) {
  const blst_p1_affine *pp[2] = {bsum, NULL};
  blst_p1s_add(&bacc1, pp, SUM_N);
}

static double t1(void (*f)(void), unsigned it) {
  double t0 = now();
  for (unsigned i = 0; i < it; i++)
    f();
  return (now() - t0) / it;
}
static void cmp(const char *name, void (*c)(void), void (*b)(void), unsigned it, int rounds,
                double blst_ref) {
  double tc[64], tb[64];
  c();
  b();
  for (int r = 0; r < rounds; r++) {
    tc[r] = t1(c, it);
    tb[r] = t1(b, it);
  }
  qsort(tc, rounds, sizeof(double), cmpd);
  qsort(tb, rounds, sizeof(double), cmpd);
  printf("%-22s %12.1f %12.1f %7.2f   %10.1f\n", name, tc[rounds / 2], tb[rounds / 2],
         tc[rounds / 2] / tb[rounds / 2], blst_ref);
}
int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 11;
  if (rounds > 64) rounds = 64;
  uint64_t x[6] = {0x1234, 0x5678, 0x9abc, 0xdef0, 0x1111, 0x0123};
  cuzk_fp_from_canonical(&cfa, x);
  x[0] = 99;
  cuzk_fp_from_canonical(&cfb, x);
  memcpy(&bfa, &cfa, 48);
  memcpy(&bfb, &cfb, 48);
  uint64_t y[4] = {5, 6, 7, 0x0123};
  cuzk_fr_from_canonical(&cra, y);
  y[0] = 77;
  cuzk_fr_from_canonical(&crb, y);
  memcpy(&bra, &cra, 32);
  memcpy(&brb, &crb, 32);
  unsigned char u[192];
  cuzk_g1 g;
  cuzk_g1_generator(&g);
  cuzk_fr k;
  cuzk_fr_from_canonical(&k, y);
  cuzk_g1_mul(&g, &g, &k);
  cuzk_g1_to_affine(&ca1, &g);
  cacc1 = g;
  cuzk_g1_to_uncompressed(u, &ca1);
  blst_p1_deserialize(&ba1, u);
  blst_p1_from_affine(&bacc1, &ba1);

  cuzk_g1_to_compressed(c48, &ca1);
  cuzk_g2 h;
  cuzk_g2_generator(&h);
  cuzk_g2_mul(&h, &h, &k);
  cuzk_g2_to_affine(&ca2, &h);
  cacc2 = h;
  cuzk_g2_to_uncompressed(u, &ca2);
  blst_p2_deserialize(&ba2, u);
  blst_p2_from_affine(&bacc2, &ba2);
  for (int i = 0; i < 3; i++) {
    cuzk_fr kk;
    y[0] = 1000 + i;
    cuzk_fr_from_canonical(&kk, y);
    cuzk_g1 a;
    cuzk_g1_mul(&a, &g, &kk);
    cuzk_g1_to_affine(&cps[i], &a);
    cuzk_g1_to_uncompressed(u, &cps[i]);
    blst_p1_deserialize(&bps[i], u);
    cuzk_g2 b2;
    cuzk_g2_mul(&b2, &h, &kk);
    cuzk_g2_to_affine(&cqs[i], &b2);
    cuzk_g2_to_uncompressed(u, &cqs[i]);
    blst_p2_deserialize(&bqs[i], u);
    cuzk_g2_prepare(&cprep[i], &cqs[i]);
  }
  { /* the points to sum: P_i = (i + 1) * 7919 G, distinct, none the negative of another */
    cuzk_g1 acc, step;
    cuzk_fr k7;
    uint64_t s7[4] = {7919, 0, 0, 0};
    cuzk_fr_from_canonical(&k7, s7);
    cuzk_g1_mul(&step, &g, &k7);
    acc = step;
    static cuzk_g1 jac[SUM_N];
    for (int i = 0; i < SUM_N; i++) {
      jac[i] = acc;
      cuzk_g1_add(&acc, &acc, &step);
    }
    cuzk_g1_batch_to_affine(csum, jac, SUM_N);
    for (int i = 0; i < SUM_N; i++) {
      cuzk_g1_to_uncompressed(u, &csum[i]);
      blst_p1_deserialize(&bsum[i], u);
    }
    c_sum();
    b_sum();
    cuzk_g1_affine ca;
    blst_p1_affine ba;
    unsigned char cu[96], bu[96];
    cuzk_g1_to_affine(&ca, &cacc1);
    cuzk_g1_to_uncompressed(cu, &ca);
    blst_p1_to_affine(&ba, &bacc1);
    blst_p1_affine_serialize(bu, &ba);
    printf("# affine sums of %d points equal: %s\n", SUM_N, memcmp(cu, bu, 96) ? "NO" : "yes");
  }
  /* sanity: same pairing value */
  c_pair();
  b_pair();
  unsigned char e1[576];
  cuzk_fp12_to_bytes(e1, &cgt);
  printf("# same-run cuzk vs blst (interleaved, median of %d rounds); e(P,Q) identical in memory: "
         "%s\n",
         rounds, memcmp(&cgt, &bgt, 576) == 0 ? "yes" : "NO");
  printf("%-22s %12s %12s %7s   %10s\n", "op", "cuzk ns", "blst ns", "ratio", "issue blst");
  cmp("fp_mul", c_fpmul, b_fpmul, 200000, rounds, 28);
  cmp("fr_mul", c_frmul, b_frmul, 200000, rounds, 15);
  cmp("fp_inverse", c_fpinv, b_fpinv, 5000, rounds, 2100);
  cmp("g1_add_affine", c_g1madd, b_g1madd, 20000, rounds, 430);
  cmp("g1_dbl", c_g1dbl, b_g1dbl, 20000, rounds, 250);
  cmp("g2_add_affine", c_g2madd, b_g2madd, 10000, rounds, 1000);
  cmp("g2_dbl", c_g2dbl, b_g2dbl, 10000, rounds, 570);
  cmp("g1_decompress", c_dec, b_dec, 500, rounds, 12000);
  cmp("g1_subgroup_check", c_sub, b_sub, 300, rounds, 45000);
  cmp("g1_affine_sum_4096", c_sum, b_sum, 20, rounds, 0);
  cmp("pairing", c_pair, b_pair, 20, rounds, 750000);
  cmp("pairing_product_3", c_prod3, b_prod3, 20, rounds, 1100000);
  cmp("product_3_prepared", c_prod3p, b_prod3, 20, rounds, 1100000);
  return 0;
}
