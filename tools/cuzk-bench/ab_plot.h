/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* cuzk-bench synth-ab --plot: the run drawn as one self-contained SVG file (no scripts, fonts,
 * links or external references). One row per figure: on the left each side's sample per pair
 * (A and B against the pair index, each pair joined by a line, dashed lines at the two medians),
 * on the right the per-pair ratios B/A with a line at 1, the band 1 +/- min_effect, the B/A ratio
 * of the medians (dashed) and the verdict as synth-ab prints it. Every point carries a class
 * (sample-a, sample-b, ratio) inside a <g class="metric" data-metric="NAME"> so that tests can
 * count them; a sample or ratio that is not finite is left out. */
#ifndef CUZK_TOOLS_BENCH_AB_PLOT_H
#define CUZK_TOOLS_BENCH_AB_PLOT_H

#include <stdbool.h>
#include <stddef.h>

#include "ab_stats.h"

/* One figure of the run. */
typedef struct {
  const char *name;    /* "wall", "synth", "Ir", a perf counter */
  bool seconds;        /* the samples are seconds (else counts) */
  const double *a, *b; /* the samples of side A and B, [pairs], in pair order */
  const ab_summary *sum;
  const char *verdict; /* as printed in the summary */
} ab_plot_metric;

/* The run's description for the title. */
typedef struct {
  const char *side_a, *side_b; /* the sides' options as given (--a, --b) */
  const char *counter;         /* time, perf, callgrind */
  size_t pairs;
  double min_effect; /* a fraction */
} ab_plot_run;

/* Writes the SVG to path; false (errno set) if the file cannot be written. */
bool ab_plot_svg(const char *path, const ab_plot_run *run, const ab_plot_metric *m, size_t nm);

#endif
