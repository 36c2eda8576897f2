/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The statistics of cuzk-bench synth-ab (see ab_stats.h). */
#include "ab_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *pa, const void *pb) {
  double a = *(const double *)pa, b = *(const double *)pb;
  return (a > b) - (a < b);
}

double ab_median(const double *x, size_t n) {
  if (!n) return NAN;
  double *t = malloc(n * sizeof *t);
  if (!t) return NAN;
  memcpy(t, x, n * sizeof *t);
  qsort(t, n, sizeof *t, cmp_double);
  double m = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
  free(t);
  return m;
}

double ab_ratio(double a, double b) {
  if (a == 0) return b == 0 ? 1.0 : NAN;
  return b / a;
}

void ab_summarize(ab_summary *s, const double *a, const double *b, size_t n, double min_effect) {
  memset(s, 0, sizeof *s);
  s->n = n;
  s->median_a = ab_median(a, n);
  s->median_b = ab_median(b, n);
  s->ratio = n ? ab_ratio(s->median_a, s->median_b) : NAN;
  s->ratio_min = s->ratio_max = NAN;
  s->verdict = AB_UNDEFINED;
  if (!n) return;
  bool all_below = true, all_above = true;
  for (size_t i = 0; i < n; i++) {
    double r = ab_ratio(a[i], b[i]);
    if (isnan(r)) {
      s->ratio_min = s->ratio_max = NAN;
      return;
    }
    if (i == 0 || r < s->ratio_min) s->ratio_min = r;
    if (i == 0 || r > s->ratio_max) s->ratio_max = r;
    all_below &= r < 1.0 - min_effect;
    all_above &= r > 1.0 + min_effect;
  }
  s->verdict = all_below ? AB_B_LOWER : all_above ? AB_B_HIGHER : AB_NO_DIFFERENCE;
}

const char *ab_verdict_text(ab_verdict v, bool lower_is_faster) {
  switch (v) {
  case AB_B_LOWER: return lower_is_faster ? "B faster" : "B lower";
  case AB_B_HIGHER: return lower_is_faster ? "B slower" : "B higher";
  case AB_NO_DIFFERENCE: return "no significant difference";
  default: return "undefined (A is 0)";
  }
}
