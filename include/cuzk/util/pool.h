/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The process's shared worker pool (one per process, sized by configuration) and the large-buffer
 * allocator. Every parallel stage of cuzk (MSM windows, NTT passes, synthesis of several circuits)
 * runs on one cuzk_pool: no thread is created per call, and when several proofs run at once they
 * share the same workers instead of oversubscribing the cores.
 *
 * Work is submitted as a parallel-for over an index range or as a group of tasks. The submitting
 * thread helps run the work while it waits, so nested use (a task that itself runs a parallel-for)
 * cannot deadlock. A call may cap its share of the pool (max_workers) so that concurrent jobs
 * split the workers between them.
 */
#ifndef CUZK_POOL_H
#define CUZK_POOL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  CUZK_POOL_OK = 0,
  CUZK_POOL_EINVAL, /* bad argument (e.g. zero or absurd thread count) */
  CUZK_POOL_ENOMEM, /* allocation failed */
  CUZK_POOL_ETHREAD /* the OS refused to create a worker thread */
} cuzk_pool_err;

const char *cuzk_pool_strerror(cuzk_pool_err e);

typedef struct cuzk_pool cuzk_pool;

/* nthreads: total threads doing work, the calling thread included (so 1 = run inline, no
 * workers). At most 1024. nthreads is also a hard limit across callers: however many threads
 * submit at once, at most nthreads of them (callers and workers together) run the pool's work
 * at any moment; a caller that finds the pool full waits while workers run its job. */
cuzk_pool_err cuzk_pool_create(cuzk_pool **out, unsigned nthreads);
void cuzk_pool_destroy(cuzk_pool *p);           /* waits for queued work, joins the workers */
unsigned cuzk_pool_threads(const cuzk_pool *p); /* 1 for NULL */

/* fn(ctx, begin, end) over [0, n) in chunks of about `grain` indices (0 = chosen from n and the
 * thread count), on at most max_workers threads at once (0 = the whole pool). Returns when every
 * chunk has run. Chunks may run in any order and on any thread; p may be NULL (runs inline).
 * Chunks are exactly `grain` indices (the last one shorter); the default is about 8 chunks per
 * thread. With one thread (p NULL, a pool of 1, max_workers 1) or one chunk, chunks run one at a
 * time in order, on the caller (on a worker only when the pool is busy with other calls). Calls
 * from outside the pool running at the same time split it: each gets min(max_workers, level)
 * threads with the level set so the shares fill the pool, and threads over their call's share move
 * to another call after their current chunk. */
typedef void (*cuzk_range_fn)(void *ctx, size_t begin, size_t end);
void cuzk_parallel_for(cuzk_pool *p, size_t n, size_t grain, cuzk_range_fn fn, void *ctx,
                       unsigned max_workers);

/* A task group: spawn independent tasks, then wait for all of them. begin allocates the group
 * (with its bounded queue) and wait frees it; begin, spawn and wait belong to one thread, and the
 * group's own tasks may spawn into it too. spawn never blocks and never allocates per task beyond
 * that bounded internal queue: it runs the task inline when the queue is full, and always when
 * the pool has a single thread or p is NULL. A NULL group (failed begin) runs tasks inline and
 * waits for nothing. Inline runs in spawn are the caller's own work, not counted against the
 * pool's thread limit. */
typedef void (*cuzk_task_fn)(void *arg);
typedef struct cuzk_task_group cuzk_task_group;
cuzk_task_group *cuzk_task_group_begin(cuzk_pool *p); /* NULL only on allocation failure */
void cuzk_task_spawn(cuzk_task_group *g, cuzk_task_fn fn, void *arg);
void cuzk_task_group_wait(cuzk_task_group *g); /* runs queued tasks while waiting; frees g */

/* Priorities (docs/engine.md "Priorities"): pool work submitted by a thread carries that
 * thread's priority (default 0; nested work its parent's). While work of a higher priority is
 * live, lower-priority work stops at its next chunk boundary (or yield point) and gives its
 * threads to the higher one; it resumes where it stopped when that is done. The engine runs a
 * WinningPoSt this way while a PoRep proof waits, its memory kept. */
void cuzk_pool_set_priority(int prio); /* the calling thread's, for what it submits from now */
int cuzk_pool_priority(void);
/* Long work inside one chunk (the MSM's tile loops) calls this between pieces: if the calling
 * thread's pool work is outranked, it parks here, its slot given away, until it is not. A no-op
 * outside a session of p. */
void cuzk_pool_yield_point(cuzk_pool *p);

/* ---- large buffers ------------------------------------------------------------------------ */
/* Page-aligned buffers for bases, scalars, buckets and NTT vectors: mmap'ed with MADV_HUGEPAGE
 * (first touch of fresh 4 KiB pages costs ~14 us each on this VM) and kept in a free list on
 * release, so steady-state proving reuses memory instead of faulting it in again. Thread-safe.
 * Sizes are rounded up to a multiple of 2 MiB and buffers are 2 MiB-aligned. get reuses the
 * smallest cached buffer of at least the rounded size if it is at most twice that size, else
 * maps a new one. The cache holds at most min(64 GiB, half the RAM) by default (the limit and
 * counters are in util/buffer.h); past it, put unmaps the least recently returned buffers. */
void *cuzk_buffer_get(size_t bytes); /* NULL on failure; contents unspecified */
void cuzk_buffer_put(void *buf);     /* returns it to the cache (NULL is a no-op; a pointer that
                                        is not a live buffer from get aborts) */
void cuzk_buffer_trim(void);         /* unmaps every cached buffer */

/* Cooperative cancellation of long parallel work (the MSMs, the H chain, the prover): a flag
 * another thread may raise, NULL for none. It only ever goes up, so work that finds it down after
 * all its parts returned knows that none of them gave up. */
static inline bool cuzk_cancelled(const _Atomic int *flag) {
  return flag && atomic_load_explicit(flag, memory_order_relaxed);
}

#ifdef __cplusplus
}
#endif
#endif
