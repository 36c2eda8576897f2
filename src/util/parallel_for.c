/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * cuzk_parallel_for: an index range cut into chunks of `grain` indices, claimed in order by an
 * atomic counter (one fetch_add per chunk, no lock) by the caller and up to cap - 1 workers.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdatomic.h>
#include <stdint.h>

#include "util/pool_impl.h"

/* With no grain given, aim at this many chunks per thread: enough to even out uneven chunks and
 * threads that join late, few enough that the counter is not contended. */
#define CHUNKS_PER_THREAD 8

typedef struct {
  cuzk_job job; /* first: the scheduler hands back &job */
  cuzk_range_fn fn;
  void *ctx;
  size_t n, grain;
  _Atomic size_t next; /* first unclaimed index; may run past n by one grain per thread */
} range_job;

static bool range_pending(cuzk_job *j) {
  const range_job *r = (const range_job *)j;
  return atomic_load(&r->next) < r->n;
}

static void range_run(cuzk_job *j, bool owner) {
  range_job *r = (range_job *)j;
  for (;;) {
    size_t b = atomic_fetch_add_explicit(&r->next, r->grain, memory_order_relaxed);
    if (b >= r->n) return;
    size_t e = r->n - b > r->grain ? b + r->grain : r->n;
    r->fn(r->ctx, b, e);
    if (!owner && cuzk_job_over_share(j)) return;
    cuzk_job_yield();
  }
}

static void run_chunks(size_t n, size_t grain, cuzk_range_fn fn, void *ctx) {
  for (size_t b = 0; b < n; b += grain)
    fn(ctx, b, n - b > grain ? b + grain : n);
}

void cuzk_parallel_for(cuzk_pool *p, size_t n, size_t grain, cuzk_range_fn fn, void *ctx,
                       unsigned max_workers) {
  if (n == 0) return;
  unsigned nt = cuzk_pool_threads(p);
  unsigned cap = max_workers == 0 || max_workers > nt ? nt : max_workers;
  if (grain == 0) {
    size_t chunks = (size_t)cap * CHUNKS_PER_THREAD;
    grain = n / chunks + (n % chunks != 0);
  }
  /* grain <= n keeps `next` from overflowing: it ends below n + (nthreads + 1) * grain. */
  if (grain > n) grain = n;

  if (!p || cap == 1 || grain == n) {
    /* One thread: run here, in order. Outside the pool that needs a free slot, so that
     * concurrent callers together stay within the pool's size; if there is none, the job below
     * gets a share of the pool like any other call. */
    if (!p || cuzk_pool_in_session(p)) {
      run_chunks(n, grain, fn, ctx);
      return;
    }
    cuzk_slot_frame f;
    if (cuzk_pool_slot_try_acquire(p, &f)) {
      run_chunks(n, grain, fn, ctx);
      cuzk_pool_slot_release(p, &f);
      return;
    }
  }

  range_job r;
  cuzk_job_init(&r.job, cap);
  r.job.pending = range_pending;
  r.job.run = range_run;
  r.job.drains_once = true;
  r.fn = fn;
  r.ctx = ctx;
  r.n = n;
  r.grain = grain;
  atomic_init(&r.next, 0);
  cuzk_job_run(p, &r.job);
}
