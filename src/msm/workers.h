/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Running a list of independent tasks ("tiles") on the pool with per-worker scratch: `slots`
 * workers each pull the next tile from a shared atomic counter (blst's and sppark's scheme) and
 * run it with their own slot number, so a slot's scratch is never used by two tiles at once.
 * Tiles may run in any order; callers write each tile's result to its own place.
 */
#ifndef CUZK_MSM_WORKERS_H
#define CUZK_MSM_WORKERS_H

#include <stddef.h>

#include "cuzk/util/pool.h"

typedef void (*msm_tile_fn)(void *ctx, size_t tile, unsigned slot);

void msm_run_tiles(cuzk_pool *pool, unsigned slots, size_t ntiles, msm_tile_fn fn, void *ctx);

#endif
