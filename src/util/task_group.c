/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Task groups: a bounded FIFO ring of (fn, arg) per group, filled by cuzk_task_spawn and
 * drained by workers and, in cuzk_task_group_wait, by the owner. The ring has a small mutex of
 * its own; the pool mutex is taken only to wake an idle worker.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "util/pool_impl.h"

typedef struct {
  cuzk_task_fn fn;
  void *arg;
} task;

struct cuzk_task_group {
  cuzk_job job;    /* first: the scheduler hands back &job */
  cuzk_pool *pool; /* NULL: every task runs inline in spawn (no pool, or a pool of 1) */
  pthread_mutex_t mu;
  unsigned head, count;    /* ring state (mu) */
  _Atomic unsigned queued; /* == count, readable without mu */
  task ring[];             /* CUZK_TASK_QUEUE_CAP entries when pool != NULL */
};

static bool group_pending(cuzk_job *j) {
  cuzk_task_group *g = (cuzk_task_group *)j;
  return atomic_load(&g->queued) > 0;
}

static bool pop(cuzk_task_group *g, task *t) {
  pthread_mutex_lock(&g->mu);
  bool got = g->count > 0;
  if (got) {
    *t = g->ring[g->head];
    g->head = (g->head + 1) % CUZK_TASK_QUEUE_CAP;
    g->count--;
    atomic_fetch_sub(&g->queued, 1);
  }
  pthread_mutex_unlock(&g->mu);
  return got;
}

static void group_run(cuzk_job *j, bool owner) {
  cuzk_task_group *g = (cuzk_task_group *)j;
  task t;
  while (pop(g, &t)) {
    t.fn(t.arg);
    if (!owner && cuzk_job_over_share(j)) return;
    cuzk_job_yield();
  }
}

cuzk_task_group *cuzk_task_group_begin(cuzk_pool *p) {
  bool inline_only = cuzk_pool_threads(p) == 1;
  size_t size = sizeof(cuzk_task_group) + (inline_only ? 0 : CUZK_TASK_QUEUE_CAP * sizeof(task));
  cuzk_task_group *g = malloc(size);
  if (!g) return NULL;
  g->pool = NULL;
  if (inline_only) return g;
  if (pthread_mutex_init(&g->mu, NULL) != 0) {
    free(g);
    return NULL;
  }
  g->pool = p;
  g->head = g->count = 0;
  atomic_init(&g->queued, 0);
  cuzk_job_init(&g->job, cuzk_pool_threads(p));
  g->job.pending = group_pending;
  g->job.run = group_run;
  g->job.drains_once = false;
  cuzk_job_publish(p, &g->job);
  return g;
}

void cuzk_task_spawn(cuzk_task_group *g, cuzk_task_fn fn, void *arg) {
  if (!g || !g->pool) {
    fn(arg);
    return;
  }
  pthread_mutex_lock(&g->mu);
  if (g->count == CUZK_TASK_QUEUE_CAP) {
    pthread_mutex_unlock(&g->mu);
    fn(arg); /* full: the spawner does the work itself rather than wait or allocate */
    return;
  }
  g->ring[(g->head + g->count) % CUZK_TASK_QUEUE_CAP] = (task){fn, arg};
  g->count++;
  atomic_fetch_add(&g->queued, 1); /* seq_cst, before cuzk_job_notify reads `idle` */
  pthread_mutex_unlock(&g->mu);
  cuzk_job_notify(g->pool, &g->job);
}

void cuzk_task_group_wait(cuzk_task_group *g) {
  if (!g) return;
  if (g->pool) {
    cuzk_job_complete(g->pool, &g->job);
    pthread_mutex_destroy(&g->mu);
  }
  free(g);
}
