/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The worker pool's scheduler, shared by its two front ends (parallel_for.c, task_group.c).
 * Internal to src/util; tests include it for CUZK_TASK_QUEUE_CAP.
 *
 * A job is anything threads can work on: a parallel-for range or a task group's queue. It has
 * two operations, `pending` (is there unclaimed work? lock-free) and `run` (claim and run work
 * until there is none left, or until the thread should move elsewhere). The pool keeps the
 * jobs in submission order in one list; a thread working on a job is "in a session" of it.
 *
 * Two limits, both enforced under the pool mutex when a thread joins a job:
 *   - slots: at most nthreads threads are in sessions of the pool at once, callers and workers
 *     together. A thread already in a session (a task that submits nested work) keeps its slot
 *     for the nested job and never waits for one, so nesting cannot deadlock: a thread that waits
 *     for a slot holds none, and every slot holder is running a chunk or waiting on a job whose
 *     in-flight chunks are being run by slot holders one level deeper.
 *   - shares: a job never has more than `share` threads, share <= cap (its max_workers). Nested
 *     jobs get share = cap. Top-level jobs (submitted by a thread holding no slot) split the pool
 *     by water-filling: each gets min(cap, L) with L the largest level at which the shares fit in
 *     nthreads, the remainder going one each to the oldest jobs. When a new top-level job lowers
 *     the shares, threads above their job's share leave it after their current chunk (the owner
 *     never leaves its own job) and pick the job with the fewest threads; when a job runs out of
 *     work the others' shares grow back.
 *   - priorities: only the live top-level jobs of the highest priority take part in the
 *     water-filling; the others get share 0 (their non-owner threads leave after the current
 *     chunk), workers do not join any job below that priority, and a thread in a session of a
 *     lower-priority job that reaches a yield point (every chunk of a range or task group, every
 *     MSM tile) hands its slot back and waits until no higher priority is live. The pool has
 *     nthreads - 1 spare workers beyond the usual nthreads - 1, so that the higher-priority work
 *     gets every slot even while the threads of the work it interrupted are parked; the slot
 *     limit still keeps the running threads at nthreads.
 */
#ifndef CUZK_UTIL_POOL_IMPL_H
#define CUZK_UTIL_POOL_IMPL_H

#include <stdatomic.h>
#include <stdbool.h>

#include "cuzk/util/pool.h"

/* Slots in a task group's queue; spawn runs the task inline when they are all taken. */
#define CUZK_TASK_QUEUE_CAP 1024

typedef struct cuzk_job cuzk_job;
struct cuzk_job {
  cuzk_job *prev, *next;                /* the pool's job list (pool mutex) */
  bool (*pending)(cuzk_job *j);         /* unclaimed work exists; any thread, no lock */
  void (*run)(cuzk_job *j, bool owner); /* claim and run work; called in a session */
  unsigned cap;                         /* max threads in sessions at once, 1..nthreads */
  bool top;                             /* from outside the pool: gets a water-filled share */
  bool live;                            /* top and counted when shares are computed */
  bool drains_once;                     /* pending() never turns true again (ranges) */
  int prio;                             /* top-level: the submitter's; nested: its parent's */
  _Atomic unsigned share;               /* current limit on active, <= cap */
  _Atomic unsigned active;              /* threads in a session of it (changed under mutex) */
};

/* Sets up j's scheduling fields; the caller fills pending, run and drains_once. */
void cuzk_job_init(cuzk_job *j, unsigned cap);

/* Adds j to p's job list and wakes workers for it. */
void cuzk_job_publish(cuzk_pool *p, cuzk_job *j);

/* Called by j's owner (the thread that published it): joins j whenever it may, runs work, and
 * returns once j has no pending work and no thread in a session of it; j is then off the list
 * and no other thread touches it again. The owner runs in the thread's existing slot when it is
 * in a session of p (nested work), else it must get a free slot to join, and may only wait. */
void cuzk_job_complete(cuzk_pool *p, cuzk_job *j);

/* cuzk_job_publish then cuzk_job_complete under one lock, so the owner joins first. */
void cuzk_job_run(cuzk_pool *p, cuzk_job *j);

/* True when a thread running j (not its owner) should stop after its current piece of work
 * because j has more threads than its share. Two relaxed loads. */
static inline bool cuzk_job_over_share(const cuzk_job *j) {
  return atomic_load_explicit(&j->active, memory_order_relaxed) >
         atomic_load_explicit(&j->share, memory_order_relaxed);
}

/* A yield point for the run functions, between chunks: parks the calling thread while its
 * innermost session's job is outranked (cuzk_pool_yield_point on that session's pool). */
void cuzk_job_yield(void);

/* Spawn-side wake-up: new work was queued on j outside the pool mutex. Cheap when no worker is
 * idle. The queue update must be a seq_cst read-modify-write before this call. */
void cuzk_job_notify(cuzk_pool *p, cuzk_job *j);

/* Whether the calling thread is in a session of p (and so holds one of its slots). */
bool cuzk_pool_in_session(const cuzk_pool *p);

/* Takes a free slot of p, if there is one, for work the caller runs inline from outside the
 * pool; cuzk_pool_slot_release gives it back. Between the two the thread is in a session. */
typedef struct cuzk_slot_frame {
  const cuzk_pool *pool;
  const cuzk_job *job; /* the job of the session; NULL for a slot taken for inline work */
  struct cuzk_slot_frame *up;
} cuzk_slot_frame;
bool cuzk_pool_slot_try_acquire(cuzk_pool *p, cuzk_slot_frame *f);
void cuzk_pool_slot_release(cuzk_pool *p, cuzk_slot_frame *f);

#endif
