/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* cuzk-bench's progress line (progress.h). */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <stdlib.h>
#include <unistd.h>

#include "cli.h"

bool cli_quiet;

void cli_progress_start(cli_progress *p, const char *what, const char *unit, bool per_minute) {
  *p = (cli_progress){.what = what, .unit = unit, .per_minute = per_minute, .out = stderr};
  p->quiet = cli_quiet;
  p->tty = isatty(fileno(p->out));
  const char *iv = getenv("CUZK_PROGRESS_INTERVAL");
  char *end;
  double v = iv && *iv ? strtod(iv, &end) : 5.0;
  p->interval = iv && *iv && (*end || v < 0) ? 5.0 : v;
  p->t0 = cli_now_s();
  p->last = -1; /* the first update is always shown */
}

/* 1234 -> "1234", 12345 -> "12.3k", 1.2e7 -> "12.3M" */
static void human(char *out, size_t len, double v) {
  if (v >= 1e6)
    snprintf(out, len, "%.1fM", v / 1e6);
  else if (v >= 1e4)
    snprintf(out, len, "%.1fk", v / 1e3);
  else if (v >= 10 || v == 0)
    snprintf(out, len, "%.0f", v);
  else
    snprintf(out, len, "%.2f", v);
}

void cli_progress_update(cli_progress *p, const char *step, uint64_t done, uint64_t total) {
  if (p->quiet) return;
  double now = cli_now_s(), dt = now - p->t0;
  bool last = done >= total;
  /* a terminal is redrawn at most 10 times a second; plain lines every interval */
  double every = p->tty ? 0.1 : p->interval;
  if (p->last >= 0 && !last && now - p->last < every) return;
  p->last = now;
  char line[256], rate[32] = "", left[48] = "";
  int n = snprintf(line, sizeof line, "%s: %3.0f%% %llu/%llu %s", p->what,
                   total ? 100.0 * (double)done / (double)total : 100.0, (unsigned long long)done,
                   (unsigned long long)total, p->unit);
  if (step && *step && n > 0 && (size_t)n < sizeof line)
    snprintf(line + n, sizeof line - (size_t)n, " (%s)", step);
  if (done > 0 && dt > 0) {
    double r = (double)done / dt * (p->per_minute ? 60.0 : 1.0);
    char h[16];
    human(h, sizeof h, r);
    snprintf(rate, sizeof rate, ", %s %s/%s", h, p->unit, p->per_minute ? "min" : "s");
    if (!last)
      snprintf(left, sizeof left, ", %.0f s left", (double)(total - done) * dt / (double)done);
    else
      snprintf(left, sizeof left, ", %.1f s", dt);
  }
  if (p->tty) {
    fprintf(p->out, "\r%s%s%s\033[K", line, rate, left);
    p->shown = !last;
    if (last) fputc('\n', p->out);
  } else {
    fprintf(p->out, "%s%s%s\n", line, rate, left);
  }
  fflush(p->out);
  p->last_done = done;
}

void cli_progress_end(cli_progress *p) {
  if (p->shown) fputc('\n', p->out);
  p->shown = false;
}

static void cb(void *ctx, const char *step, uint64_t done, uint64_t total) {
  cli_progress_update(ctx, step, done, total);
}

cuzk_progress cli_progress_cb(cli_progress *p) { return (cuzk_progress){cb, p, NULL}; }
