/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The statistics of cuzk-bench synth-ab (tools/cuzk-bench/ab_stats.c) on fixed inputs: medians
 * (odd, even, unsorted, input untouched), the ratio of the medians, the spread of the per-pair
 * ratios, and each verdict: B faster/slower only when every pair is on the same side of 1 (beyond
 * the minimum effect), no difference when the pairs straddle 1, undefined for A = 0 or no pairs. */
#include <math.h>
#include <string.h>

#include "ab_stats.h"
#include "check.h"

#define NEAR(x, y) (fabs((x) - (y)) < 1e-12)

static void test_median(void) {
  double odd[] = {5, 1, 3};
  CHECK(ab_median(odd, 3) == 3);
  CHECK(odd[0] == 5 && odd[1] == 1 && odd[2] == 3); /* not sorted in place */
  double even[] = {4, 1, 3, 2};
  CHECK(ab_median(even, 4) == 2.5);
  double one[] = {7.25};
  CHECK(ab_median(one, 1) == 7.25);
  CHECK(isnan(ab_median(one, 0)));
  double dup[] = {2, 2, 9, 2, 1};
  CHECK(ab_median(dup, 5) == 2);
}

static void test_verdicts(void) {
  ab_summary s;
  /* every pair faster in B: ratios 0.9, 0.95, 0.8 -> B lower, spread 0.8..0.95 */
  double a1[] = {10, 20, 10}, b1[] = {9, 19, 8};
  ab_summarize(&s, a1, b1, 3, 0);
  CHECK(s.n == 3 && s.median_a == 10 && s.median_b == 9);
  CHECK(NEAR(s.ratio, 0.9));
  CHECK(NEAR(s.ratio_min, 0.8) && NEAR(s.ratio_max, 0.95));
  CHECK(s.verdict == AB_B_LOWER);
  CHECK(!strcmp(ab_verdict_text(s.verdict, true), "B faster"));
  CHECK(!strcmp(ab_verdict_text(s.verdict, false), "B lower"));

  /* every pair slower in B */
  double a2[] = {100, 100}, b2[] = {101, 130};
  ab_summarize(&s, a2, b2, 2, 0);
  CHECK(NEAR(s.ratio, 115.5 / 100) && NEAR(s.ratio_min, 1.01) && NEAR(s.ratio_max, 1.3));
  CHECK(s.verdict == AB_B_HIGHER);
  CHECK(!strcmp(ab_verdict_text(s.verdict, true), "B slower"));
  CHECK(!strcmp(ab_verdict_text(s.verdict, false), "B higher"));

  /* the medians differ a lot but one pair goes the other way: no verdict */
  double a3[] = {10, 10, 10, 10, 10}, b3[] = {5, 5, 5, 5, 11};
  ab_summarize(&s, a3, b3, 5, 0);
  CHECK(NEAR(s.ratio, 0.5) && NEAR(s.ratio_min, 0.5) && NEAR(s.ratio_max, 1.1));
  CHECK(s.verdict == AB_NO_DIFFERENCE);
  CHECK(!strcmp(ab_verdict_text(s.verdict, true), "no significant difference"));

  /* a pair exactly at 1 is on neither side */
  double a4[] = {10, 10}, b4[] = {9, 10};
  ab_summarize(&s, a4, b4, 2, 0);
  CHECK(s.verdict == AB_NO_DIFFERENCE && s.ratio_max == 1);

  /* identical counts up to 1e-7 (callgrind run to run): a verdict without a minimum effect, none
   * with 0.1 %; a real 1 % change still gets one with 0.1 % */
  double a5[] = {559162585, 559162585}, b5[] = {559162586, 559162640};
  ab_summarize(&s, a5, b5, 2, 0);
  CHECK(s.verdict == AB_B_HIGHER);
  ab_summarize(&s, a5, b5, 2, 0.001);
  CHECK(s.verdict == AB_NO_DIFFERENCE);
  double b6[] = {553570959, 553570960}; /* -1.0 % */
  ab_summarize(&s, a5, b6, 2, 0.001);
  CHECK(s.verdict == AB_B_LOWER && NEAR(s.ratio_max, 553570960.0 / 559162585));
  double b7[] = {559000000, 559000000}; /* -0.03 %: within 0.1 % */
  ab_summarize(&s, a5, b7, 2, 0.001);
  CHECK(s.verdict == AB_NO_DIFFERENCE);

  /* 0 / 0 is no change; x / 0 has no ratio */
  double z[] = {0, 0}, zb[] = {0, 0}, nzb[] = {0, 24};
  ab_summarize(&s, z, zb, 2, 0);
  CHECK(s.ratio == 1 && s.ratio_min == 1 && s.ratio_max == 1 && s.verdict == AB_NO_DIFFERENCE);
  ab_summarize(&s, z, nzb, 2, 0);
  CHECK(s.verdict == AB_UNDEFINED && isnan(s.ratio_min) && isnan(s.ratio_max));
  CHECK(!strcmp(ab_verdict_text(s.verdict, true), "undefined (A is 0)"));

  /* no pairs */
  ab_summarize(&s, z, zb, 0, 0);
  CHECK(s.n == 0 && s.verdict == AB_UNDEFINED && isnan(s.ratio) && isnan(s.median_a));

  /* even n: medians are the mean of the middle two, ratio of those */
  double a8[] = {4, 2, 3, 1}, b8[] = {2, 1, 1.5, 0.5};
  ab_summarize(&s, a8, b8, 4, 0);
  CHECK(s.median_a == 2.5 && s.median_b == 1.25 && NEAR(s.ratio, 0.5));
  CHECK(NEAR(s.ratio_min, 0.5) && NEAR(s.ratio_max, 0.5) && s.verdict == AB_B_LOWER);
}

/* one pair's ratio, as the summary and the plot take it */
static void test_ratio(void) {
  CHECK(ab_ratio(2, 1) == 0.5 && ab_ratio(4, 6) == 1.5);
  CHECK(ab_ratio(0, 0) == 1);   /* no change */
  CHECK(isnan(ab_ratio(0, 3))); /* no ratio */
  CHECK(ab_ratio(5, 0) == 0);
}

int main(void) {
  test_median();
  test_ratio();
  test_verdicts();
  return check_summary("test_ab_stats");
}
