/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* cuzk-bench synth-ab: the statistics of an interleaved A/B run (medians, B/A ratio, the spread of
 * the per-pair ratios and the verdict), separate so that tests/test_ab_stats.c can check them. */
#ifndef CUZK_TOOLS_BENCH_AB_STATS_H
#define CUZK_TOOLS_BENCH_AB_STATS_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
  AB_NO_DIFFERENCE, /* the per-pair ratios straddle 1 (or stay within the minimum effect) */
  AB_B_LOWER,       /* every pair's B/A ratio is below 1 - min_effect */
  AB_B_HIGHER,      /* every pair's B/A ratio is above 1 + min_effect */
  AB_UNDEFINED      /* no pairs, or a pair with A = 0 and B != 0 (no ratio) */
} ab_verdict;

typedef struct {
  size_t n;                    /* pairs */
  double median_a, median_b;   /* medians of each side (mean of the middle two for even n) */
  double ratio;                /* median_b / median_a; NaN when median_a is 0 (1 if both are 0) */
  double ratio_min, ratio_max; /* min/max of the per-pair ratios b[i]/a[i] (0/0 counts as 1) */
  ab_verdict verdict;
} ab_summary;

/* The ratio b / a of one pair (or of the medians), with 0 / 0 = 1 (no change) and x / 0 = NaN (no
 * ratio). */
double ab_ratio(double a, double b);

/* Median of x[0..n) (x is not modified); NaN for n = 0 or out of memory. */
double ab_median(const double *x, size_t n);

/* Summary of n pairs (a[i], b[i]), measured interleaved. The verdict is B_LOWER / B_HIGHER only
 * when every per-pair ratio lies on the same side of 1 by more than min_effect (a fraction: 0.001 =
 * 0.1 %), i.e. when the spread [ratio_min, ratio_max] excludes [1 - min_effect, 1 + min_effect]. */
void ab_summarize(ab_summary *s, const double *a, const double *b, size_t n, double min_effect);

/* "B faster" / "B slower" when lower is faster (times, instruction counts), otherwise "B lower" /
 * "B higher"; "no significant difference"; "undefined (A is 0)". */
const char *ab_verdict_text(ab_verdict v, bool lower_is_faster);

#endif
