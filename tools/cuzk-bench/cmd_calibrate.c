/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * cuzk-bench calibrate: the MSM window plan's costs measured on this machine and written beside
 * the parameter files, where prove and the daemon find them (docs/msm.md "Calibration"). Prints
 * the measured costs against the built-in ones, and the plans each gives.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cuzk/msm/msm_calibration.h"
#include "cuzk/util/pool.h"
#include "progress.h"

static const char *method_name(cuzk_msm_method m) {
  return m == CUZK_MSM_AFFINE ? "affine" : m == CUZK_MSM_XYZZ ? "xyzz" : "naive";
}

/* The plans at every size of the table on the pool's workers with the table now in use (or
 * the model's). */
static void plans(cuzk_msm_plan_info out[2][CUZK_MSM_CAL_SIZES], cuzk_pool *pool) {
  cuzk_msm_opts o = {.pool = pool};
  for (unsigned i = 0; i < CUZK_MSM_CAL_SIZES; i++) {
    size_t n = (size_t)1 << (CUZK_MSM_CAL_MIN_LOG + 2 * i);
    out[0][i] = cuzk_g1_msm_plan(n, &o);
    out[1][i] = cuzk_g2_msm_plan(n, &o);
  }
}

int cmd_calibrate(int argc, char **argv) {
  static const int ids[] = {O_HELP, O_PARAM_CACHE, O_OUT, O_THREADS, O_QUIET, 0};
  const char *dir = getenv("FIL_PROOFS_PARAMETER_CACHE"), *out = NULL;
  unsigned threads = 0;
  for (int i = 1; i < argc; i++) {
    const char *v;
    int id = cli_next_opt(ids, argc, argv, &i, &v);
    uint64_t x;
    switch (id) {
    case O_HELP:
      printf("usage: cuzk-bench calibrate [--param-cache DIR] [-o FILE] [--threads T] [-q]\n"
             "Times the MSMs at 2^10..2^22 points (G2: to 2^20) on T threads (default: all\n"
             "cores; give what the prover will use) at the cost model's window and three\n"
             "either side, and writes the fastest of each size to DIR/%s\n"
             "(or FILE), which prove and cuzk-daemon read from their parameter cache and use\n"
             "on the same CPU model, kernel and thread count. Minutes; run it on an idle\n"
             "machine.\n",
             CUZK_MSM_CALIBRATION_FILE);
      return 0;
    case O_PARAM_CACHE: dir = v; break;
    case O_OUT: out = v; break;
    case O_THREADS:
      if (!cli_u64(&x, v) || x > 1024) return cli_fail(2, "--threads: 0..1024, not %s", v);
      threads = (unsigned)x;
      break;
    case O_QUIET: cli_quiet = true; break;
    case CLI_MISSING: return 2;
    default: return cli_fail(2, "calibrate: unexpected argument '%s'", argv[i]);
    }
  }
  char path[4200];
  if (!out && !dir) return cli_fail(2, "calibrate: --param-cache DIR (or -o FILE) is required");
  if (!out) snprintf(path, sizeof path, "%s/%s", dir, CUZK_MSM_CALIBRATION_FILE);
  const char *dest = out ? out : path;

  cuzk_msm_plan_info before[2][CUZK_MSM_CAL_SIZES], after[2][CUZK_MSM_CAL_SIZES];
  char msg[1024];
  cuzk_pool *pool = cli_pool(threads);
  if (!pool) return cli_fail(1, "calibrate: no thread pool");
  cuzk_msm_calibration_use(NULL, msg, sizeof msg); /* the model's picks, for the comparison */
  plans(before, pool);
  cli_progress bar;
  cli_progress_start(&bar, "calibrate", "MSMs", false);
  cuzk_progress cb = cli_progress_cb(&bar);
  double t0 = cli_now_s();
  cuzk_msm_calibration c;
  cuzk_msm_err e = cuzk_msm_calibrate(&c, pool, 0, &cb);
  cli_progress_end(&bar);
  double took = cli_now_s() - t0;
  if (e != CUZK_MSM_OK) msg[0] = 0;
  if (e == CUZK_MSM_OK) e = cuzk_msm_calibration_write(&c, dest, msg, sizeof msg);
  if (e == CUZK_MSM_OK) e = cuzk_msm_calibration_use(&c, msg, sizeof msg);
  if (e == CUZK_MSM_OK) plans(after, pool);
  unsigned nthreads = cuzk_pool_threads(pool);
  cuzk_pool_destroy(pool);
  if (e != CUZK_MSM_OK) return cli_fail(1, "calibrate: %s", msg[0] ? msg : cuzk_msm_strerror(e));

  printf("MSM calibration of \"%s\", %s kernels, %u threads, in %.1f s, written to %s\n", c.cpu,
         c.ifma ? "IFMA" : "scalar", nthreads, took, dest);
  printf("size      model's plan (method window x ranges)  ->  measured\n");
  for (int g = 0; g < 2; g++)
    for (unsigned i = 0; i < CUZK_MSM_CAL_SIZES; i++) {
      const cuzk_msm_plan_info *b = &before[g][i], *a = &after[g][i];
      if (!a->calibrated) continue;
      printf("%s 2^%-2u  %-6s %2u x %u  ->  %-6s %2u x %u\n", g ? "g2" : "g1",
             CUZK_MSM_CAL_MIN_LOG + 2 * i, method_name(b->method), b->window, b->ranges,
             method_name(a->method), a->window, a->ranges);
    }
  return 0;
}
