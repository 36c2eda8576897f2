/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* cuzk-bench's progress line for work that takes more than a few seconds (setup, gen-vanilla,
 * prove, batch), on stderr so that stdout keeps the results:
 *   setup porep-2k: 45% 123456/274345 points (h), 9.1k points/s, 16 s left
 * On a terminal one line updated in place (\r); otherwise (CI, pipes, logs) a plain line at most
 * every CUZK_PROGRESS_INTERVAL seconds (default 5; 0 = every update), plus the first and the last
 * (100%). -q/--quiet (cli_quiet) silences it. The rate is the average since the start; the time
 * left is the rest at that rate. */
#ifndef CUZK_TOOLS_BENCH_PROGRESS_H
#define CUZK_TOOLS_BENCH_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cuzk/util/progress.h"

/* Set by -q/--quiet of the commands that show progress. */
extern bool cli_quiet;

typedef struct {
  const char *what, *unit; /* "setup porep-2k", "points" */
  bool per_minute;         /* the rate in units per minute (proofs), else per second */
  bool tty, quiet, shown;  /* shown: a \r line is on the terminal */
  double interval, t0, last;
  uint64_t last_done;
  FILE *out;
} cli_progress;

/* what and unit must outlive the progress. */
void cli_progress_start(cli_progress *p, const char *what, const char *unit, bool per_minute);
void cli_progress_update(cli_progress *p, const char *step, uint64_t done, uint64_t total);
/* Ends the terminal's line (before other output, and at the end). */
void cli_progress_end(cli_progress *p);
/* The library's callback (cuzk/util/progress.h) drawing into p. */
cuzk_progress cli_progress_cb(cli_progress *p);

#endif
