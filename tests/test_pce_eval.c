/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The evaluator's kernel (src/r1cs/pce_eval.c, docs/r1cs.md "The SpMV kernel": its own
 * add and subtract mod r in assembly) on the rows its carries and shortcuts could get wrong,
 * against PROVE mode (the field layer's arithmetic) through tests/pce_check.h: a row of 70,000
 * terms of value -1, the same subtracted, and multiplied by -2; positive and negative sums that
 * cancel or wrap below zero; a 255-bit packing of ones; the stored limbs r - 1, r - 1 and 2 (each
 * addition's sum at or above r: 2r - 2, then r); rows of one term of every kind (1, -1, a
 * coefficient times 0, 1 and a full value); empty rows; terms over inputs; integer parts (bits
 * times small coefficients) at the edges of the kernel's table and far beyond it either way; large
 * coefficients on bits whose stored forms sum to r. On one
 * thread and on a pool of 3 (the rows split across workers).
 */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "cuzk/r1cs/pce.h"
#include "cuzk/util/pool.h"
#include "field/consts.h"
#include "pce_check.h"

#define LONG_ROW 70000

static bool synth(cuzk_cs *cs, void *ctx, bool hv) {
  (void)ctx;
  cuzk_fr minus_one, minus_two, zero = cuzk_fr_zero, two, big, seven;
  cuzk_fr_neg(&minus_one, &cuzk_fr_one);
  cuzk_fr_from_u64(&two, 2);
  cuzk_fr_neg(&minus_two, &two);
  cuzk_fr_from_u64(&seven, 7);
  cuzk_fr_from_u64(&big, UINT64_C(0x9e3779b97f4a7c15));
  cuzk_fr_mul(&big, &big, &big); /* a full-width value */
  cuzk_fr_mul(&big, &big, &big);
  cuzk_var in_big = cuzk_cs_alloc_input(cs, hv ? &big : NULL);
  cuzk_var in_m1 = cuzk_cs_alloc_input(cs, hv ? &minus_one : NULL);
  cuzk_var v_zero = cuzk_cs_alloc(cs, hv ? &zero : NULL);
  cuzk_var v_one = cuzk_cs_alloc(cs, hv ? &cuzk_fr_one : NULL);
  cuzk_var v_big = cuzk_cs_alloc(cs, hv ? &big : NULL);
  cuzk_var m1[LONG_ROW], bits[255];
  for (int i = 0; i < LONG_ROW; i++)
    m1[i] = cuzk_cs_alloc(cs, hv ? &minus_one : NULL);
  for (int i = 0; i < 255; i++)
    bits[i] = cuzk_cs_alloc(cs, hv ? &cuzk_fr_one : NULL);
  cuzk_var zbits[12];
  for (int i = 0; i < 12; i++)
    zbits[i] = cuzk_cs_alloc(cs, hv ? (i % 3 ? &cuzk_fr_one : &zero) : NULL);
  /* stored forms r - 1 and 2 (the kernel adds the stored limbs): r - 1 + r - 1 + 2 = 2r */
  cuzk_fr top = {{CUZK_R[0] - 1, CUZK_R[1], CUZK_R[2], CUZK_R[3]}}, small = {{2, 0, 0, 0}};
  cuzk_var v_top = cuzk_cs_alloc(cs, hv ? &top : NULL),
           v_top2 = cuzk_cs_alloc(cs, hv ? &top : NULL);
  cuzk_var v_small = cuzk_cs_alloc(cs, hv ? &small : NULL);
  cuzk_lc a, b, c;
  cuzk_lc_init3(&a, &b, &c, cs);
  cuzk_lc_add(&a, v_top, NULL);
  cuzk_lc_add(&a, v_top2, NULL);
  cuzk_lc_add(&a, v_small, NULL);
  cuzk_lc_add(&c, v_top, &minus_one);
  cuzk_lc_add(&c, v_top2, &minus_one);
  cuzk_lc_add(&c, v_small, &minus_one);
  cuzk_cs_enforce(cs, "exactly 2r", &a, &b, &c);

  /* the long sums: + (r - 1) each, - (r - 1) each, -2 (r - 1) each */
  cuzk_lc_init3(&a, &b, &c, cs);
  for (int i = 0; i < LONG_ROW; i++) {
    cuzk_lc_add(&a, m1[i], NULL);
    cuzk_lc_add(&b, m1[i], &minus_one);
    cuzk_lc_add(&c, m1[i], &minus_two);
  }
  cuzk_cs_enforce(cs, "long", &a, &b, &c);
  /* a positive and a negative sum that cancel (a), that wrap below zero (b), mixed with a
   * multiplication and a coefficient on a 1 (c) */
  cuzk_lc_init3(&a, &b, &c, cs);
  for (int i = 0; i < 100; i++) {
    cuzk_lc_add(&a, m1[i], NULL);
    cuzk_lc_add(&a, m1[LONG_ROW - 1 - i], &minus_one);
    cuzk_lc_add(&b, m1[i], i < 10 ? NULL : &minus_one);
  }
  cuzk_lc_add(&c, v_big, &seven);
  cuzk_lc_add(&c, v_one, &big);
  cuzk_lc_add(&c, v_zero, &big);
  cuzk_lc_add(&c, in_m1, &minus_one);
  cuzk_lc_add(&c, in_big, NULL);
  cuzk_cs_enforce(cs, "cancel, wrap, mixed", &a, &b, &c);
  /* 2^0 + ... + 2^254 over bits of value 1: below 2^256 but above r; (r - 1) + 1 = r */
  cuzk_lc_init3(&a, &b, &c, cs);
  for (int i = 0; i < 255; i++)
    cuzk_lc_add(&a, bits[i], &cuzk_pow2[i]);
  cuzk_lc_add(&b, m1[0], NULL);
  cuzk_lc_add(&b, v_one, NULL);
  cuzk_cs_enforce(cs, "packing, exactly r", &a, &b, &c);
  /* a row's integer part (bits times small coefficients) at the edges of the table of small
   * sums (127, 128, -128, -129), far beyond them either way (coefficients +-(2^31 - 1), the
   * largest small ones), beside large coefficients on bits (2^31, its negative) and a field part;
   * zbits[i] is 0 for i % 3 == 0, else 1 */
  cuzk_fr max31, big31, mmax31, mbig31;
  cuzk_fr_from_u64(&max31, (UINT64_C(1) << 31) - 1);
  cuzk_fr_from_u64(&big31, UINT64_C(1) << 31);
  cuzk_fr_neg(&mmax31, &max31);
  cuzk_fr_neg(&mbig31, &big31);
  const int counts[4] = {127, 128, 128, 129};
  for (int r = 0; r < 4; r++) {
    cuzk_lc_init3(&a, &b, &c, cs);
    for (int i = 0; i < counts[r]; i++)
      cuzk_lc_add(r < 2 ? &a : &c, bits[i], r < 2 ? NULL : &minus_one);
    cuzk_cs_enforce(cs, "integer part at the table's edge", &a, &b, &c);
  }
  cuzk_lc_init3(&a, &b, &c, cs);
  for (int i = 0; i < 12; i++) {
    cuzk_lc_add(&a, zbits[i], &max31);
    cuzk_lc_add(&b, zbits[i], &mmax31);
    cuzk_lc_add(&c, zbits[i], i % 2 ? &big31 : &mbig31);
  }
  cuzk_lc_add(&b, v_big, &seven);
  cuzk_lc_add(&c, m1[7], NULL);
  cuzk_cs_enforce(cs, "integer part far from 0", &a, &b, &c);
  /* large coefficients on bits of value 1 whose stored forms are 1 and r - 1 (their sum, r, is
   * where the kernel's one-step reduction of such sums must still subtract r) */
  const cuzk_fr stored_one = {{1, 0, 0, 0}};
  cuzk_lc_init3(&a, &b, &c, cs);
  cuzk_lc_add(&a, bits[0], &stored_one);
  cuzk_lc_add(&a, bits[1], &top);
  cuzk_lc_add(&c, bits[2], &top);
  cuzk_lc_add(&c, bits[3], &top);
  cuzk_lc_add(&c, bits[4], &stored_one);
  cuzk_lc_add(&c, bits[5], &stored_one);
  cuzk_cs_enforce(cs, "large coefficients summing to r", &a, &b, &c);
  /* one term of each kind, and empty rows */
  const cuzk_var single_v[] = {v_big, v_big, v_zero, v_one, v_big, in_big, in_m1, m1[5]};
  const cuzk_fr *single_k[] = {NULL, &minus_one, &seven, &seven, &seven, &big, &minus_one, &two};
  for (size_t i = 0; i < sizeof single_v / sizeof single_v[0]; i++) {
    cuzk_lc_init3(&a, &b, &c, cs);
    cuzk_lc_add(&a, single_v[i], single_k[i]);
    cuzk_lc_add(&c, single_v[(i + 3) % 8], single_k[(i + 5) % 8]);
    cuzk_cs_enforce(cs, "one term", &a, &b, &c);
    cuzk_lc_init3(&a, &b, &c, cs);
    cuzk_cs_enforce(cs, "empty", &a, &b, &c);
  }
  return true;
}

int main(void) {
  pce_check("hostile rows, one thread", synth, NULL, NULL);
  cuzk_pool *pool = NULL;
  CHECK(cuzk_pool_create(&pool, 3) == CUZK_POOL_OK);
  if (pool) pce_check("hostile rows, a pool of 3", synth, NULL, pool);
  cuzk_pool_destroy(pool);
  return check_summary("test_pce_eval");
}
