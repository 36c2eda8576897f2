/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Progress of long work (TEST-parameter generation, sealing a test sector): the library calls
 * the caller's function as it finishes each step, and the caller decides what to show
 * (cuzk-bench draws one updating line, or plain lines in logs; a daemon would log). The library
 * never prints.
 *
 * fn(ctx, step, done, total): done of total units of the whole task are finished; step names the
 * part now running, a fixed string the function documents ("h", "layer", "tree_c"). done never
 * decreases, total stays the same, and the last call has done == total (step "done"). Called on
 * the thread that runs the task, between steps, never concurrently for one task; fn must return
 * quickly. A NULL cuzk_progress, or a NULL fn, reports nothing.
 *
 * cancel (may be NULL): once the caller sets it nonzero, from any thread, the task stops at its
 * next check — between chunks of its work, within about a second at most sizes — and fails with
 * its library's "cancelled" error, leaving no partial result behind (no file is written). The
 * functions that honour it say so.
 */
#ifndef CUZK_PROGRESS_H
#define CUZK_PROGRESS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*cuzk_progress_fn)(void *ctx, const char *step, uint64_t done, uint64_t total);
typedef struct {
  cuzk_progress_fn fn;
  void *ctx;
  const _Atomic int *cancel;
} cuzk_progress;

/* Whether the task of p was asked to stop (cancel set). */
static inline bool cuzk_progress_cancelled(const cuzk_progress *p) {
  return p && p->cancel && atomic_load_explicit(p->cancel, memory_order_relaxed);
}

static inline void cuzk_progress_report(const cuzk_progress *p, const char *step, uint64_t done,
                                        uint64_t total) {
  if (p && p->fn) p->fn(p->ctx, step, done, total);
}

#ifdef __cplusplus
}
#endif
#endif
