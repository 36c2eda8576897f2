/*
 * Running a list of independent tasks ("tiles") on the pool with per-worker scratch: `slots`
 * workers each pull the next tile from a shared atomic counter (blst's and sppark's scheme) and
 * run it with their own slot number, so a slot's scratch is never used by two tiles at once.
 * Tiles may run in any order; callers write each tile's result to its own place.
 */
#ifndef CUZK_MSM_WORKERS_H
#define CUZK_MSM_WORKERS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "cuzk/pool.h"

typedef void (*msm_tile_fn)(void *ctx, size_t tile, unsigned slot);

void msm_run_tiles(cuzk_pool *pool, unsigned slots, size_t ntiles, msm_tile_fn fn, void *ctx);

/* The caller's cancel flag (cuzk_msm_opts.cancel), raised? Tiles poll it; the flag only ever
 * goes up, so a call that sees it down after its tiles have all returned knows none gave up. */
static inline bool msm_cancelled(const _Atomic int *flag) {
  return flag && atomic_load_explicit(flag, memory_order_relaxed);
}

#endif
