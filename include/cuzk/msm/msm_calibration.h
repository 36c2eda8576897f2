/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The MSM window measured on the machine at hand (docs/msm.md "Calibration").
 *
 * The plan (window, bucket method, point ranges) comes from a cost model whose per-operation
 * costs are built in, measured on the reference VM. cuzk_msm_calibrate times the MSM itself, on
 * the pool it is given, at every window near the model's pick for sizes 2^10 .. 2^22 (G2 to
 * 2^20), and keeps the fastest (method, window) of each size. `cuzk-bench calibrate` writes that
 * table beside the parameter files (CUZK_MSM_CALIBRATION_FILE in the parameter cache); the daemon
 * and cuzk-bench read it from there. A plan then takes the table's method and window for its size
 * (the nearest measured one, within a factor of two) when the table was measured on this CPU
 * model, on the kernel now enabled and with as many workers as the call has; otherwise, and
 * beyond the table's sizes, the model decides. The point ranges always come from the model.
 *
 * The table in use is process-wide: cuzk_msm_calibration_use switches it and must not run while
 * an MSM is being planned on another thread (call it at start-up).
 */
#ifndef CUZK_MSM_CALIBRATION_H
#define CUZK_MSM_CALIBRATION_H

#include <stdbool.h>
#include <stddef.h>

#include "cuzk/msm/msm.h"
#include "cuzk/util/pool.h"
#include "cuzk/util/progress.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUZK_MSM_CALIBRATION_FILE "cuzk-msm-calibration.txt"
#define CUZK_MSM_CAL_MIN_LOG 10 /* sizes measured: 2^10, 2^12, ..., 2^22 (G2: to 2^20) */
#define CUZK_MSM_CAL_MAX_LOG_G1 22
#define CUZK_MSM_CAL_MAX_LOG_G2 20
#define CUZK_MSM_CAL_SIZES 7 /* (22 - 10) / 2 + 1 */

typedef struct {
  cuzk_msm_method method; /* AFFINE or XYZZ; AUTO: not measured (the model decides) */
  unsigned window;
} cuzk_msm_cal_pick;

typedef struct {
  char cpu[128];    /* the CPU model it was measured on (cuzk_cpu_model) */
  bool ifma;        /* measured on the IFMA lanes (else the scalar kernels) */
  unsigned threads; /* workers the MSMs ran on */
  /* [i]: n = 2^(CUZK_MSM_CAL_MIN_LOG + 2i) */
  cuzk_msm_cal_pick g1[CUZK_MSM_CAL_SIZES], g2[CUZK_MSM_CAL_SIZES];
} cuzk_msm_calibration;

/* Times the MSMs on pool (its threads; NULL: one) with the kernel now enabled: every size of the
 * table up to 2^max_log (0: the whole table; smaller for quick checks), AFFINE at the model's
 * window and three either side (XYZZ too up to 2^14), the faster of two interleaved rounds. A
 * few minutes on two cores. Progress step: "g1" or "g2" (units: timed MSMs); cancel honoured
 * between MSMs. Sizes above max_log are left AUTO. */
cuzk_msm_err cuzk_msm_calibrate(cuzk_msm_calibration *out, cuzk_pool *pool, unsigned max_log,
                                const cuzk_progress *progress);

/* The file (a "key value" text, docs/msm.md "Calibration"), written to PATH.tmp and renamed.
 * msg (may be NULL) gets the reason on failure, naming the file, line and key. */
cuzk_msm_err cuzk_msm_calibration_write(const cuzk_msm_calibration *c, const char *path, char *msg,
                                        size_t msg_len);
cuzk_msm_err cuzk_msm_calibration_read(cuzk_msm_calibration *c, const char *path, char *msg,
                                       size_t msg_len);

/* The table the plans use from now on: c's (refused with CUZK_MSM_EOTHERCPU, the model kept,
 * when c was measured on another CPU model), or none for NULL. */
cuzk_msm_err cuzk_msm_calibration_use(const cuzk_msm_calibration *c, char *msg, size_t msg_len);

/* Reads DIR/CUZK_MSM_CALIBRATION_FILE and uses it: *used tells whether it now is. No file is
 * not an error (CUZK_MSM_OK, *used false, the model alone); a bad or foreign one is, the model
 * kept. msg says what happened either way. */
cuzk_msm_err cuzk_msm_calibration_use_dir(const char *dir, bool *used, char *msg, size_t msg_len);

/* Whether a table is in use. */
bool cuzk_msm_calibration_in_use(void);

/* The plan a call with these options would run (docs/msm.md "Window and grid"). */
typedef struct {
  cuzk_msm_method method; /* AFFINE, XYZZ or NAIVE */
  unsigned window;        /* bits; 0 for NAIVE */
  unsigned ranges;        /* point ranges of the grid */
  bool calibrated;        /* method and window from the table in use */
} cuzk_msm_plan_info;
cuzk_msm_plan_info cuzk_g1_msm_plan(size_t n, const cuzk_msm_opts *opts);
cuzk_msm_plan_info cuzk_g2_msm_plan(size_t n, const cuzk_msm_opts *opts);

#ifdef __cplusplus
}
#endif
#endif
