/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Tile runner (workers.h): one parallel-for index per slot; each pulls tiles until none remain.
 * If the pool runs two slot indices on one thread one after the other, the first simply takes
 * every tile: correctness never depends on how many slots actually run concurrently. */
#include "msm/workers.h"

#include <stdatomic.h>

typedef struct {
  atomic_size_t next;
  cuzk_pool *pool;
  size_t ntiles;
  msm_tile_fn fn;
  void *ctx;
} runner;

static void run_slots(void *vctx, size_t begin, size_t end) {
  runner *r = vctx;
  for (size_t slot = begin; slot < end; slot++)
    for (size_t t;
         (t = atomic_fetch_add_explicit(&r->next, 1, memory_order_relaxed)) < r->ntiles;) {
      r->fn(r->ctx, t, (unsigned)slot);
      cuzk_pool_yield_point(r->pool); /* a slot is one long chunk: let higher priorities in */
    }
}

void msm_run_tiles(cuzk_pool *pool, unsigned slots, size_t ntiles, msm_tile_fn fn, void *ctx) {
  runner r = {.pool = pool, .ntiles = ntiles, .fn = fn, .ctx = ctx};
  atomic_init(&r.next, 0);
  if (slots <= 1 || ntiles <= 1 || !pool) {
    run_slots(&r, 0, 1);
    return;
  }
  cuzk_parallel_for(pool, slots, 1, run_slots, &r, slots);
}
