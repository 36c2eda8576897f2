/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The worker pool: its threads, its job list and the scheduler that decides which thread works
 * on which job (slots and shares, see pool_impl.h). The front ends are parallel_for.c and
 * task_group.c.
 *
 * Locking: one mutex per pool guards the job list, the slot count and every join and leave.
 * The work itself (claiming chunks, popping tasks) never takes it. Two condition variables:
 * work_cv for idle workers, wait_cv for submitters waiting to join their job, for it to finish,
 * or for a slot.
 */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "util/pool_impl.h"

#define CUZK_POOL_MAX_THREADS 1024u
/* Iterations of the pause instruction an idle thread spins (~10 us) before it sleeps. */
#define SPIN_ITERS 256

struct cuzk_pool {
  pthread_mutex_t mu;
  pthread_cond_t work_cv;  /* idle workers */
  pthread_cond_t wait_cv;  /* submitters waiting to join, for completion, or for a slot */
  cuzk_job *head, *tail;   /* jobs in submission order */
  unsigned nthreads;       /* slots: callers and workers in sessions, at most this many */
  unsigned busy;           /* slots taken */
  unsigned waiters;        /* threads blocked on wait_cv */
  unsigned parked;         /* threads of outranked work waiting at a yield point */
  _Atomic int top_prio;    /* highest priority among live top-level jobs; INT_MIN if none */
  pthread_cond_t spare_cv; /* spare workers (they wait for parked threads) */
  unsigned spare_idle;
  bool shutdown;
  _Atomic unsigned idle;  /* workers asleep on work_cv, or about to be */
  _Atomic unsigned epoch; /* bumped when a job is published; spinning workers watch it */
  unsigned nworkers;      /* the first nthreads - 1 regular, the rest spare */
  pthread_t *workers;
  struct worker_arg {
    cuzk_pool *p;
    bool spare; /* works only while some thread is parked at a yield point */
  } * worker_args;
};

/* The pools the calling thread is in a session of, innermost first (frames on its stack). */
static _Thread_local cuzk_slot_frame *tls_frames;
/* The priority of the top-level work this thread submits. */
static _Thread_local int tls_prio;

void cuzk_pool_set_priority(int prio) { tls_prio = prio; }
int cuzk_pool_priority(void) { return tls_prio; }

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

const char *cuzk_pool_strerror(cuzk_pool_err e) {
  switch (e) {
  case CUZK_POOL_OK: return "ok";
  case CUZK_POOL_EINVAL: return "pool: invalid argument";
  case CUZK_POOL_ENOMEM: return "pool: out of memory";
  case CUZK_POOL_ETHREAD: return "pool: could not create a worker thread";
  }
  return "pool: unknown error";
}

unsigned cuzk_pool_threads(const cuzk_pool *p) { return p ? p->nthreads : 1; }

bool cuzk_pool_in_session(const cuzk_pool *p) {
  for (const cuzk_slot_frame *f = tls_frames; f; f = f->up)
    if (f->pool == p) return true;
  return false;
}

static unsigned job_active(const cuzk_job *j) {
  return atomic_load_explicit(&j->active, memory_order_relaxed);
}

static unsigned job_share(const cuzk_job *j) {
  return atomic_load_explicit(&j->share, memory_order_relaxed);
}

void cuzk_job_init(cuzk_job *j, unsigned cap) {
  j->prev = j->next = NULL;
  j->cap = cap;
  j->top = j->live = false;
  j->prio = 0;
  atomic_init(&j->share, cap);
  atomic_init(&j->active, 0);
}

/* ---- shares ------------------------------------------------------------------------------ */

static unsigned fill_at(const cuzk_pool *p, unsigned level, int top) {
  unsigned sum = 0;
  for (const cuzk_job *j = p->head; j; j = j->next)
    if (j->live && j->prio == top) sum += j->cap < level ? j->cap : level;
  return sum;
}

/* Water-filling among the live top-level jobs of the highest priority: the largest level L with
 * sum(min(cap, L)) <= nthreads; each gets min(cap, L), and what is left of nthreads goes one by
 * one to the oldest jobs whose cap is above L; live jobs of lower priority get 0. O(jobs * log
 * nthreads), run when a top-level job comes or goes. */
static void shares_recompute(cuzk_pool *p) {
  int top = INT_MIN;
  for (const cuzk_job *j = p->head; j; j = j->next)
    if (j->live && j->prio > top) top = j->prio;
  atomic_store_explicit(&p->top_prio, top, memory_order_relaxed);
  unsigned lo = 0, hi = p->nthreads;
  while (lo < hi) {
    unsigned mid = lo + (hi - lo + 1) / 2;
    if (fill_at(p, mid, top) <= p->nthreads)
      lo = mid;
    else
      hi = mid - 1;
  }
  unsigned left = p->nthreads - fill_at(p, lo, top);
  for (cuzk_job *j = p->head; j; j = j->next) {
    if (!j->live) continue;
    if (j->prio != top) {
      atomic_store_explicit(&j->share, 0, memory_order_relaxed);
      continue;
    }
    unsigned s = j->cap < lo ? j->cap : lo;
    if (j->cap > lo && left > 0) {
      s++;
      left--;
    }
    atomic_store_explicit(&j->share, s, memory_order_relaxed);
  }
}

/* ---- joining and leaving (pool mutex held) ------------------------------------------------ */

static bool any_pending_locked(const cuzk_pool *p) {
  for (cuzk_job *j = p->head; j; j = j->next)
    if (j->pending(j)) return true;
  return false;
}

/* After shares grew: everyone who might now join a job. Idle workers are woken only when some
 * job has work, so a finished range does not wake the whole pool for nothing. */
static void wake_all_locked(cuzk_pool *p) {
  if (atomic_load(&p->idle) > 0 && any_pending_locked(p)) pthread_cond_broadcast(&p->work_cv);
  if (p->waiters > 0) pthread_cond_broadcast(&p->wait_cv);
}

/* While threads are parked, the spare workers may take the slots and work they left. */
static void wake_spares_locked(cuzk_pool *p) {
  if (p->parked && p->spare_idle) pthread_cond_broadcast(&p->spare_cv);
}

static void slot_release_locked(cuzk_pool *p) {
  wake_spares_locked(p);
  bool was_full = p->busy == p->nthreads;
  p->busy--;
  if (was_full) {
    /* Someone may have been kept out only by the slot limit. */
    if (atomic_load(&p->idle) > 0 && any_pending_locked(p)) pthread_cond_signal(&p->work_cv);
    if (p->waiters > 0) pthread_cond_broadcast(&p->wait_cv);
  }
}

static bool can_join(const cuzk_pool *p, cuzk_job *j, bool has_slot) {
  return (has_slot || p->busy < p->nthreads) && job_active(j) < job_share(j) && j->pending(j);
}

static void join_locked(cuzk_pool *p, cuzk_job *j, cuzk_slot_frame *f, bool take_slot) {
  atomic_fetch_add(&j->active, 1);
  if (take_slot) p->busy++;
  f->pool = p;
  f->job = j;
  f->up = tls_frames;
  tls_frames = f;
}

static void leave_locked(cuzk_pool *p, cuzk_job *j, cuzk_slot_frame *f, bool took_slot) {
  tls_frames = f->up;
  /* seq_cst: pairs with the spawner's queue increment and load of `active` in cuzk_job_notify,
   * so either the spawner sees this thread gone and wakes a worker, or this thread (back in the
   * worker loop) sees the new task. */
  unsigned left = atomic_fetch_sub(&j->active, 1) - 1;
  if (took_slot) slot_release_locked(p);
  bool pending = j->pending(j);
  if (j->live && j->drains_once && !pending) {
    /* A range with every chunk claimed no longer needs its share: give it to the others. */
    j->live = false;
    shares_recompute(p);
    wake_all_locked(p);
  }
  if (left == 0 && !pending && p->waiters > 0) pthread_cond_broadcast(&p->wait_cv);
}

static void session_run(cuzk_pool *p, cuzk_job *j, bool owner, bool take_slot) {
  cuzk_slot_frame f;
  join_locked(p, j, &f, take_slot);
  pthread_mutex_unlock(&p->mu);
  j->run(j, owner);
  pthread_mutex_lock(&p->mu);
  leave_locked(p, j, &f, take_slot);
}

/* ---- the job list ------------------------------------------------------------------------ */

/* The innermost session frame of p on this thread, NULL if none. */
static const cuzk_slot_frame *frame_of(const cuzk_pool *p) {
  for (const cuzk_slot_frame *f = tls_frames; f; f = f->up)
    if (f->pool == p) return f;
  return NULL;
}

static void publish_locked(cuzk_pool *p, cuzk_job *j) {
  const cuzk_slot_frame *f = frame_of(p);
  j->top = f == NULL;
  j->prio = f && f->job ? f->job->prio : tls_prio; /* nested work runs at its parent's */
  j->prev = p->tail;
  j->next = NULL;
  if (p->tail)
    p->tail->next = j;
  else
    p->head = j;
  p->tail = j;
  if (j->top) {
    j->live = true;
    shares_recompute(p);
  } else {
    atomic_store_explicit(&j->share, j->cap, memory_order_relaxed);
  }
  atomic_fetch_add_explicit(&p->epoch, 1, memory_order_relaxed);
  wake_spares_locked(p);
  /* Wake as many sleepers as the job can take besides its owner. */
  unsigned want = job_share(j) > 1 ? job_share(j) - 1 : 0;
  unsigned idle = atomic_load(&p->idle);
  if (want >= idle) {
    if (idle > 0) pthread_cond_broadcast(&p->work_cv);
  } else {
    for (unsigned i = 0; i < want; i++)
      pthread_cond_signal(&p->work_cv);
  }
}

static void unlink_locked(cuzk_pool *p, cuzk_job *j) {
  if (j->prev)
    j->prev->next = j->next;
  else
    p->head = j->next;
  if (j->next)
    j->next->prev = j->prev;
  else
    p->tail = j->prev;
  j->prev = j->next = NULL;
  if (j->live) {
    j->live = false;
    shares_recompute(p);
    wake_all_locked(p);
  }
}

/* Owner side, mutex held on entry and released on return. */
static void complete_locked(cuzk_pool *p, cuzk_job *j) {
  bool has_slot = cuzk_pool_in_session(p);
  bool spun = false;
  for (;;) {
    if (can_join(p, j, has_slot)) {
      session_run(p, j, true, !has_slot);
      spun = false;
      continue;
    }
    bool pending = j->pending(j);
    if (!pending && job_active(j) == 0) break;
    if (!pending && !spun) {
      /* Only chunks in flight on other threads remain; they are usually about to finish. */
      pthread_mutex_unlock(&p->mu);
      for (int i = 0; i < SPIN_ITERS && job_active(j) > 0; i++)
        cpu_relax();
      pthread_mutex_lock(&p->mu);
      spun = true;
      continue;
    }
    p->waiters++;
    pthread_cond_wait(&p->wait_cv, &p->mu);
    p->waiters--;
    spun = false;
  }
  unlink_locked(p, j);
  pthread_mutex_unlock(&p->mu);
}

void cuzk_job_publish(cuzk_pool *p, cuzk_job *j) {
  pthread_mutex_lock(&p->mu);
  publish_locked(p, j);
  pthread_mutex_unlock(&p->mu);
}

void cuzk_job_complete(cuzk_pool *p, cuzk_job *j) {
  pthread_mutex_lock(&p->mu);
  complete_locked(p, j);
}

void cuzk_job_run(cuzk_pool *p, cuzk_job *j) {
  pthread_mutex_lock(&p->mu);
  publish_locked(p, j);
  complete_locked(p, j);
}

void cuzk_job_notify(cuzk_pool *p, cuzk_job *j) {
  if (atomic_load(&p->idle) == 0 || job_active(j) >= job_share(j)) return;
  pthread_mutex_lock(&p->mu);
  pthread_cond_signal(&p->work_cv);
  pthread_mutex_unlock(&p->mu);
}

bool cuzk_pool_slot_try_acquire(cuzk_pool *p, cuzk_slot_frame *f) {
  pthread_mutex_lock(&p->mu);
  bool got = p->busy < p->nthreads;
  if (got) {
    p->busy++;
    f->pool = p;
    f->job = NULL;
    f->up = tls_frames;
    tls_frames = f;
  }
  pthread_mutex_unlock(&p->mu);
  return got;
}

void cuzk_pool_slot_release(cuzk_pool *p, cuzk_slot_frame *f) {
  pthread_mutex_lock(&p->mu);
  tls_frames = f->up;
  slot_release_locked(p);
  pthread_mutex_unlock(&p->mu);
}

/* ---- workers ----------------------------------------------------------------------------- */

/* The joinable job with the fewest threads in it, the oldest on ties; NULL if none. */
static cuzk_job *pick_locked(cuzk_pool *p) {
  if (p->busy >= p->nthreads) return NULL;
  cuzk_job *best = NULL;
  int top = atomic_load_explicit(&p->top_prio, memory_order_relaxed);
  for (cuzk_job *j = p->head; j; j = j->next)
    if (j->prio >= top && can_join(p, j, false) && (!best || job_active(j) < job_active(best)))
      best = j;
  return best;
}

/* ---- yield points ------------------------------------------------------------------------- */

/* The calling thread's session job is outranked: give the slot back, wait until no higher
 * priority is live and a slot is free, take it again. The job keeps counting this thread as
 * active, so its owner waits for it as for any chunk in flight. */
static void park_locked(cuzk_pool *p, int prio) {
  p->parked++;
  slot_release_locked(p); /* wakes the spares */
  while (prio < atomic_load_explicit(&p->top_prio, memory_order_relaxed) ||
         p->busy >= p->nthreads) {
    p->waiters++;
    pthread_cond_wait(&p->wait_cv, &p->mu);
    p->waiters--;
  }
  p->parked--;
  p->busy++;
}

void cuzk_pool_yield_point(cuzk_pool *p) {
  const cuzk_slot_frame *f = p ? frame_of(p) : NULL;
  if (!f || !f->job) return;
  int prio = f->job->prio;
  if (prio >= atomic_load_explicit(&p->top_prio, memory_order_relaxed)) return; /* the usual case */
  pthread_mutex_lock(&p->mu);
  if (prio < atomic_load_explicit(&p->top_prio, memory_order_relaxed)) park_locked(p, prio);
  pthread_mutex_unlock(&p->mu);
}

void cuzk_job_yield(void) {
  if (tls_frames) cuzk_pool_yield_point((cuzk_pool *)(uintptr_t)tls_frames->pool);
}

static void *worker_main(void *arg) {
  const struct worker_arg *wa = arg;
  cuzk_pool *p = wa->p;
  bool spare = wa->spare;
  bool spun = false;
  pthread_mutex_lock(&p->mu);
  for (;;) {
    cuzk_job *j = !spare || p->parked ? pick_locked(p) : NULL;
    if (j) {
      session_run(p, j, false, true);
      spun = false;
      continue;
    }
    if (p->shutdown && !p->head) break;
    if (spare) { /* no spinning: woken only when threads park, work is published or slots free */
      p->spare_idle++;
      pthread_cond_wait(&p->spare_cv, &p->mu);
      p->spare_idle--;
      continue;
    }
    if (!spun) {
      unsigned e = atomic_load_explicit(&p->epoch, memory_order_relaxed);
      pthread_mutex_unlock(&p->mu);
      for (int i = 0; i < SPIN_ITERS && atomic_load_explicit(&p->epoch, memory_order_relaxed) == e;
           i++)
        cpu_relax();
      pthread_mutex_lock(&p->mu);
      spun = true;
      continue;
    }
    /* Announce before the last look (seq_cst), so a spawner that queues a task after that look
     * sees idle > 0 and signals; the signal needs the mutex, which we hold until we wait. */
    atomic_fetch_add(&p->idle, 1);
    if (!pick_locked(p) && !(p->shutdown && !p->head)) pthread_cond_wait(&p->work_cv, &p->mu);
    atomic_fetch_sub(&p->idle, 1);
    spun = false;
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

/* ---- lifetime ---------------------------------------------------------------------------- */

static void stop_workers(cuzk_pool *p, unsigned started) {
  pthread_mutex_lock(&p->mu);
  p->shutdown = true;
  pthread_cond_broadcast(&p->work_cv);
  pthread_cond_broadcast(&p->spare_cv);
  pthread_mutex_unlock(&p->mu);
  for (unsigned i = 0; i < started; i++)
    pthread_join(p->workers[i], NULL);
}

static void free_pool(cuzk_pool *p) {
  pthread_cond_destroy(&p->spare_cv);
  pthread_cond_destroy(&p->wait_cv);
  pthread_cond_destroy(&p->work_cv);
  pthread_mutex_destroy(&p->mu);
  free(p->workers);
  free(p->worker_args);
  free(p);
}

cuzk_pool_err cuzk_pool_create(cuzk_pool **out, unsigned nthreads) {
  if (!out) return CUZK_POOL_EINVAL;
  *out = NULL;
  if (nthreads == 0 || nthreads > CUZK_POOL_MAX_THREADS) return CUZK_POOL_EINVAL;
  cuzk_pool *p = calloc(1, sizeof *p);
  if (!p) return CUZK_POOL_ENOMEM;
  p->nthreads = nthreads;
  p->nworkers = 2 * (nthreads - 1); /* half of them spare: see "priorities" in pool_impl.h */
  atomic_init(&p->idle, 0);
  atomic_init(&p->top_prio, INT_MIN);
  atomic_init(&p->epoch, 0);
  if (p->nworkers > 0 && (!(p->workers = calloc(p->nworkers, sizeof *p->workers)) ||
                          !(p->worker_args = calloc(p->nworkers, sizeof *p->worker_args)))) {
    free(p->workers);
    free(p->worker_args);
    free(p);
    return CUZK_POOL_ENOMEM;
  }
  if (pthread_mutex_init(&p->mu, NULL) != 0) goto fail_mutex;
  if (pthread_cond_init(&p->work_cv, NULL) != 0) goto fail_work_cv;
  if (pthread_cond_init(&p->wait_cv, NULL) != 0) goto fail_wait_cv;
  if (pthread_cond_init(&p->spare_cv, NULL) != 0) goto fail_spare_cv;
  for (unsigned i = 0; i < p->nworkers; i++) {
    p->worker_args[i] = (struct worker_arg){p, i >= nthreads - 1};
    if (pthread_create(&p->workers[i], NULL, worker_main, &p->worker_args[i]) != 0) {
      stop_workers(p, i);
      free_pool(p);
      return CUZK_POOL_ETHREAD;
    }
  }
  *out = p;
  return CUZK_POOL_OK;

fail_spare_cv:
  pthread_cond_destroy(&p->wait_cv);
fail_wait_cv:
  pthread_cond_destroy(&p->work_cv);
fail_work_cv:
  pthread_mutex_destroy(&p->mu);
fail_mutex:
  free(p->workers);
  free(p->worker_args);
  free(p);
  return CUZK_POOL_ENOMEM;
}

void cuzk_pool_destroy(cuzk_pool *p) {
  if (!p) return;
  stop_workers(p, p->nworkers);
  free_pool(p);
}
