/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The partition pipeline. Synthesis workers take work in scheduling order: a queued job is
 * prepared (C1 parsed and checked, parameters acquired) by the first free worker; a running job
 * hands out its partitions one by one, each admitted only when its measured memory cost fits the
 * budget. A synthesized partition goes to the bounded prove queue (a full queue stops synthesis:
 * backpressure). Prove workers take the queue's first partition, plus up to batch_max - 1 more of
 * the same circuit (waiting up to batch_wait_ms for them while one is on its way: partner_coming),
 * prove them with the shared pool and hand the proofs back to their jobs; the last partition of a
 * job has its proofs verified and answers the callers. Synthesis runs as a one-thread task of the
 * shared pool, so synthesis and proving together never use more threads than the pool has.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine_internal.h"

/* ---- constraint systems kept for reuse ------------------------------------------------------- */

static cuzk_cs *take_cs(cuzk_engine *e) {
  if (e->n_free_cs) return e->free_cs[--e->n_free_cs];
  cuzk_cs_opts o;
  /* pre-compiled: the witness only, a, b, c come from the set's recorded matrices */
  cuzk_cs_opts_default(&o, e->cfg.precompiled ? CUZK_CS_WITNESS : CUZK_CS_PROVE);
  cuzk_cs *cs = NULL;
  if (cuzk_cs_create(&cs, &o) != CUZK_R1CS_OK) return NULL;
  return cs;
}

static void put_cs(cuzk_engine *e, cuzk_cs *cs) {
  if (!cs) return;
  if (e->n_free_cs < e->max_free_cs) {
    cuzk_cs_reset(cs);
    e->free_cs[e->n_free_cs++] = cs;
  } else {
    cuzk_cs_destroy(cs);
  }
}

static void release_mem(cuzk_engine *e, uint64_t bytes) {
  e->mem_used -= bytes < e->mem_used ? bytes : e->mem_used;
  pthread_cond_broadcast(&e->work_cv);
}

/* ---- finishing a job ------------------------------------------------------------------------- */

void eng_maybe_finish(cuzk_engine *e, eng_job *j) {
  if (j->state != JOB_RUNNING || j->in_flight) return;
  if (atomic_load(&j->cancel)) {
    eng_end(e, j, CUZK_JOB_CANCELLED, "cancelled");
    return;
  }
  if (j->failed) {
    eng_end(e, j, CUZK_JOB_FAILED, j->error);
    return;
  }
  if (j->next_part < j->parts || j->proved < j->parts) return;
  j->state = JOB_FINISHING;
  j->refs++;
  pthread_mutex_unlock(&e->mu);
  char msg[512];
  bool ok = eng_finish_job(e, j, msg, sizeof msg);
  pthread_mutex_lock(&e->mu);
  j->refs--;
  eng_end(e, j, ok ? CUZK_JOB_COMPLETED : CUZK_JOB_FAILED, ok ? NULL : msg);
}

/* locked: a partition leaves the pipeline without a proof (its job failed or was cancelled, or
 * this partition failed): its resources go back and its job may end. */
static void drop_partition(cuzk_engine *e, eng_job *j, unsigned part, cuzk_cs *cs, uint64_t bytes) {
  j->part_state[part] = PART_DROPPED;
  put_cs(e, cs);
  release_mem(e, bytes);
  j->in_flight--;
  j->refs--;
  eng_maybe_finish(e, j);
}

static void fail_job(eng_job *j, eng_fail_reason reason, const char *fmt, unsigned part,
                     const char *why) {
  if (!j->failed) {
    j->failed = true;
    j->fail_reason = reason;
    snprintf(j->error, sizeof j->error, fmt, part, why);
  }
}

/* ---- synthesis workers ----------------------------------------------------------------------- */

typedef struct {
  cuzk_cs *cs;
  const eng_job *job;
  unsigned part;
  bool ok;
  char msg[384];
} synth_task;

static void synth_chunk(void *ctx, size_t begin, size_t end) {
  (void)begin;
  (void)end;
  synth_task *t = ctx;
  t->ok = t->job->ops->synthesize(t->job->work, t->cs, t->part, t->msg, sizeof t->msg);
}

enum { PICK_NONE, PICK_PREPARE, PICK_PARTITION };

/* locked: the next piece of synthesis work in scheduling order. A partition that does not fit
 * the memory budget stops the scan (later jobs may not overtake it), unless nothing at all is in
 * flight (a partition larger than the whole budget still runs, alone). */
static int pick(cuzk_engine *e, bool critical_only, eng_job **out, unsigned *part,
                uint64_t *bytes) {
  for (eng_job *j = e->active; j; j = j->anext) {
    if (critical_only && j->prio != CUZK_PRIORITY_CRITICAL) return PICK_NONE; /* sorted */
    if (j->state == JOB_QUEUED) {
      *out = j;
      return PICK_PREPARE;
    }
    if (j->state != JOB_RUNNING || j->failed || atomic_load(&j->cancel) || j->next_part >= j->parts)
      continue;
    uint64_t need = j->srs->part_bytes;
    if (e->mem_used && e->mem_used + need > e->mem_budget) return PICK_NONE;
    e->mem_used += need;
    *out = j;
    *part = j->next_part++;
    j->part_state[*part] = PART_SYNTHESIZING;
    *bytes = need;
    j->in_flight++;
    j->refs++;
    return PICK_PARTITION;
  }
  return PICK_NONE;
}

static void prepare(cuzk_engine *e, eng_job *j) {
  j->state = JOB_PREPARING;
  j->t_start = eng_now();
  j->refs++;
  pthread_mutex_unlock(&e->mu);
  char msg[512] = "";
  bool ok = !atomic_load(&j->cancel) && eng_prepare_job(e, j, msg, sizeof msg);
  pthread_mutex_lock(&e->mu);
  j->refs--;
  eng_stage(e, ST_QUEUE, j->t_start - j->t_submit);
  j->state = JOB_RUNNING;
  if (atomic_load(&j->cancel))
    eng_end(e, j, CUZK_JOB_CANCELLED, "cancelled");
  else if (!ok)
    eng_end(e, j, CUZK_JOB_FAILED, msg);
  else {
    j->ops->describe(j->work, msg, sizeof msg);
    eng_log(e, CUZK_LOG_INFO, j->id, "%s, parameters %s", msg, j->srs->circ->id);
  }
  pthread_cond_broadcast(&e->work_cv);
}

/* Backpressure with priorities (docs/engine.md "Priorities"): a full prove queue stops a
 * synthesis worker, except that a partition of higher priority than every queued one goes in
 * anyway (it will be proven next), and a worker holding a partition while a job of higher
 * priority waits for synthesis queues it anyway and goes to serve that job. Each exception lets
 * a worker exceed the bound by one partition; the memory budget still admits every one. */
static bool heads_queue(const cuzk_engine *e, const eng_job *j) {
  return !e->pq || j->prio > e->pq->job->prio;
}

static bool outranked(const cuzk_engine *e, const eng_job *j) {
  for (const eng_job *a = e->active; a && a != j; a = a->anext)
    if (a->prio > j->prio && !a->failed && !atomic_load(&a->cancel) &&
        (a->state == JOB_QUEUED || (a->state == JOB_RUNNING && a->next_part < a->parts)))
      return true;
  return false;
}

/* locked: inserts it behind the items of jobs scheduled before or with its job */
static void pq_push(cuzk_engine *e, prove_item *it) {
  prove_item **p = &e->pq;
  while (*p && ((*p)->job == it->job || eng_job_before((*p)->job, it->job)))
    p = &(*p)->next;
  it->next = *p;
  *p = it;
  e->pq_len++;
  pthread_cond_broadcast(&e->prove_cv);
}

void *eng_synth_main(void *arg) {
  const eng_worker *w = arg;
  cuzk_engine *e = w->e;
  pthread_mutex_lock(&e->mu);
  while (!e->quitting) {
    eng_job *j = NULL;
    unsigned part = 0;
    uint64_t bytes = 0;
    int what = e->hold_synth ? PICK_NONE : pick(e, w->critical_lane, &j, &part, &bytes);
    if (what == PICK_NONE) {
      pthread_cond_wait(&e->work_cv, &e->mu);
      continue;
    }
    if (what == PICK_PREPARE) {
      prepare(e, j);
      continue;
    }
    cuzk_cs *cs = take_cs(e);
    e->synth_active++;
    pthread_mutex_unlock(&e->mu);

    /* pre-compiled: the witness at the circuit's size, not grown by doubling (docs/r1cs.md) */
    if (cs && j->srs->pce) {
      cuzk_cs_reserve_aux(cs, cuzk_pce_num_aux(j->srs->pce));
      /* the recording's segments (a partition's challenges) run at once (docs/r1cs.md) */
      const cuzk_cs_mark *marks;
      size_t n_marks = cuzk_pce_marks(j->srs->pce, &marks);
      cuzk_cs_set_layout(cs, marks, n_marks, e->pool);
    }
    double t0 = eng_now();
    synth_task t = {cs, j, part, false, "out of memory"};
    cuzk_pool_set_priority((int)j->prio); /* pool work of lower priority waits for it */
    if (cs && !atomic_load(&j->cancel)) cuzk_parallel_for(e->pool, 1, 1, synth_chunk, &t, 1);
    double dt = eng_now() - t0;

    pthread_mutex_lock(&e->mu);
    e->synth_active--;
    j->synth_s += dt;
    bool ok = cs && t.ok && !atomic_load(&j->cancel) && !j->failed;
    if (!cs) /* no constraint system: the partition cannot run, nor can its job finish */
      fail_job(j, ENG_FAIL_MEMORY, "partition %u: %s", part, "out of memory");
    else if (!t.ok && !atomic_load(&j->cancel))
      fail_job(j, ENG_FAIL_SYNTHESIS, "partition %u: synthesis: %s", part, t.msg);
    if (!ok) {
      drop_partition(e, j, part, cs, bytes);
      continue;
    }
    j->part_state[part] = PART_SYNTHESIZED;
    eng_stage(e, ST_SYNTHESIS, dt);
    /* measured admission cost: this system's buffers plus what the prover's backend says one
     * proof takes (docs/backends.md "Memory") */
    srs_set *s = j->srs;
    cuzk_g16_mem pm;
    cuzk_g16_estimate(s->set, s->pce != NULL, &pm);
    uint64_t measured = cuzk_cs_memory_bytes(cs) + pm.host_bytes;
    if (!s->part_measured || measured > s->part_bytes) {
      e->mem_used = e->mem_used - bytes + measured; /* bytes is part of mem_used */
      bytes = measured;
      s->part_bytes = measured;
      s->part_measured = true;
    }
    eng_log(e, CUZK_LOG_DEBUG, j->id, "partition %u synthesized in %.2f s (%.1f MiB)", part, dt,
            (double)bytes / 1048576.0);
    /* room for a whole batch: a prove worker waiting to fill one holds its first partitions in
     * the queue, so a queue shorter than batch_max would never let the rest in */
    unsigned room = e->cfg.prove_queue > e->cfg.batch_max ? e->cfg.prove_queue : e->cfg.batch_max;
    while (e->pq_len >= room && !e->quitting && !heads_queue(e, j) && !outranked(e, j))
      pthread_cond_wait(&e->space_cv, &e->mu);
    prove_item *it = malloc(sizeof *it);
    if (!it) {
      fail_job(j, ENG_FAIL_MEMORY, "partition %u: %s", part, "out of memory");
      drop_partition(e, j, part, cs, bytes);
      continue;
    }
    *it = (prove_item){j, part, cs, bytes, eng_now(), NULL};
    pq_push(e, it);
  }
  pthread_mutex_unlock(&e->mu);
  return NULL;
}

/* ---- prove workers --------------------------------------------------------------------------- */

/* locked: removes and returns the first item and up to max - 1 more of the same parameter set */
static unsigned pq_take(cuzk_engine *e, prove_item **batch, unsigned max) {
  unsigned n = 0;
  srs_set *s = e->pq->job->srs;
  for (prove_item **p = &e->pq; *p && n < max;) {
    if ((*p)->job->srs == s) {
      batch[n++] = *p;
      *p = (*p)->next;
      e->pq_len--;
    } else {
      p = &(*p)->next;
    }
  }
  pthread_cond_broadcast(&e->space_cv);
  return n;
}

static unsigned pq_count(cuzk_engine *e, srs_set *s) {
  unsigned n = 0;
  for (prove_item *it = e->pq; it; it = it->next)
    n += it->job->srs == s;
  return n;
}

/* locked: true if a partition that could join head's batch is on its way (docs/engine.md
 * "Batching"). Partitions already in the prove queue, the head's own among them, never count:
 * they are taken with it. Any job's partition of the same set in synthesis counts. For NORMAL
 * and LOW work also one not handed out yet while the memory budget admits it (one that must wait
 * for this batch's memory would never come), and a job of the same kind and registered proof
 * queued or being prepared (it has no parameter set yet; one-partition kinds batch across jobs
 * only through this). CRITICAL and HIGH work waits for nothing else: a deadline proof is never
 * held for a partner that may not come. */
static bool partner_coming(const cuzk_engine *e, const eng_job *head) {
  const srs_set *s = head->srs;
  bool urgent = head->prio >= CUZK_PRIORITY_HIGH;
  bool admits = e->mem_used + s->part_bytes <= e->mem_budget;
  for (const eng_job *j = e->active; j; j = j->anext) {
    if (j->failed || atomic_load(&j->cancel)) continue;
    if (j->srs == s && j->state == JOB_RUNNING && j->part_state) {
      for (unsigned k = 0; k < j->parts; k++)
        if (j->part_state[k] == PART_SYNTHESIZING) return true;
      if (!urgent && admits && j->next_part < j->parts) return true;
    }
    if (!urgent && (j->state == JOB_QUEUED || j->state == JOB_PREPARING) && j->kind == head->kind &&
        j->registered_proof == head->registered_proof)
      return true;
  }
  return false;
}

/* locked: a batch was held from wait_from for partners: each item waited from then or from when
 * it was queued, whichever is later; a job is charged its longest item (docs/engine.md
 * "Batching"). */
static void note_batch_wait(cuzk_engine *e, prove_item **batch, unsigned n, double wait_from) {
  double now = eng_now();
  eng_stage(e, ST_BATCH_WAIT, now - wait_from);
  for (unsigned i = 0; i < n; i++) {
    bool first = true; /* of its job in the batch: the job's longest wait is charged once */
    for (unsigned k = 0; k < i && first; k++)
      first = batch[k]->job != batch[i]->job;
    if (!first) continue;
    double longest = 0;
    for (unsigned k = i; k < n; k++) {
      if (batch[k]->job != batch[i]->job) continue;
      double from = batch[k]->t_ready > wait_from ? batch[k]->t_ready : wait_from;
      if (now - from > longest) longest = now - from;
    }
    batch[i]->job->batch_wait_s += longest;
  }
}

static void deadline_in(struct timespec *ts, unsigned ms) {
  clock_gettime(CLOCK_MONOTONIC, ts);
  long long ns = ts->tv_nsec + (long long)ms * 1000000LL;
  ts->tv_sec += (time_t)(ns / 1000000000LL);
  ts->tv_nsec = (long)(ns % 1000000000LL);
}

/* locked: the prove queue has an item for this worker (the CRITICAL lane: a CRITICAL one; the
 * queue is in priority order) */
static bool has_item(const cuzk_engine *e, bool critical_only) {
  return e->pq && !e->hold_prove && (!critical_only || e->pq->job->prio == CUZK_PRIORITY_CRITICAL);
}

void *eng_prove_main(void *arg) {
  const eng_worker *w = arg;
  cuzk_engine *e = w->e;
  unsigned max = e->cfg.batch_max ? e->cfg.batch_max : 1;
  prove_item **batch = calloc(max, sizeof *batch);
  cuzk_cs **css = calloc(max, sizeof *css);
  cuzk_g16_proof *proofs = calloc(max, sizeof *proofs);
  cuzk_fr *rs = calloc(2 * (size_t)max, sizeof *rs); /* seeded r[0..max), s[max..2max) */
  pthread_mutex_lock(&e->mu);
  while (batch && css && proofs && rs) {
    while (!has_item(e, w->critical_lane) && !e->quitting)
      pthread_cond_wait(&e->prove_cv, &e->mu);
    if (!has_item(e, w->critical_lane)) break; /* quitting with nothing queued for it */
    /* a batch: wait a little for partitions of the same circuit if a partner is on its way */
    double wait_from = 0;
    if (max > 1 && e->cfg.batch_wait_ms && !e->quitting) {
      srs_set *s = e->pq->job->srs;
      struct timespec until;
      deadline_in(&until, e->cfg.batch_wait_ms);
      double t0 = eng_now();
      while (!e->quitting && has_item(e, w->critical_lane) && e->pq->job->srs == s &&
             pq_count(e, s) < max && partner_coming(e, e->pq->job)) {
        if (wait_from == 0) /* the event tests wait for (docs/engine.md "Batching") */
          eng_log(e, CUZK_LOG_DEBUG, e->pq->job->id, "%u partition(s) wait for partners (%s)",
                  pq_count(e, s), s->circ->id);
        wait_from = t0;
        if (pthread_cond_timedwait(&e->prove_cv, &e->mu, &until)) break;
      }
      if (!has_item(e, w->critical_lane)) continue;
    }
    unsigned n = pq_take(e, batch, max), live = 0;
    if (wait_from > 0) note_batch_wait(e, batch, n, wait_from);
    for (unsigned i = 0; i < n; i++) {
      eng_job *j = batch[i]->job;
      if (atomic_load(&j->cancel) || j->failed) { /* dropped: its job ends without it */
        prove_item *it = batch[i];
        drop_partition(e, j, it->part, it->cs, it->bytes);
        free(it);
        continue;
      }
      j->part_state[batch[i]->part] = PART_PROVING;
      batch[live++] = batch[i];
    }
    if (!live) continue;
    for (unsigned i = 0; i < live; i++)
      css[i] = batch[i]->cs;
    const cuzk_g16_set *set = batch[0]->job->srs->set;
    const cuzk_pce *pce = batch[0]->job->srs->pce;
    /* TEST parameters with a deterministic seed: r, s from it and the partition (one set for the
     * whole batch: its items share their parameters) */
    bool seeded = batch[0]->job->srs->seeded;
    for (unsigned i = 0; seeded && i < live; i++)
      cuzk_g16_seeded_rs(&rs[i], &rs[max + i], e->cfg.test_deterministic_seed, batch[i]->part);
    /* one job: its cancel flag stops the prover between stages; a batch runs to its end */
    const _Atomic int *cancel = live == 1 ? &batch[0]->job->cancel : NULL;
    e->prove_active++;
    /* the queue is in priority order: batch[0]'s job has the batch's highest priority, and a
     * proof of lower priority running meanwhile pauses at its next chunk or MSM tile */
    cuzk_pool_set_priority((int)batch[0]->job->prio);
    pthread_mutex_unlock(&e->mu);

    double t0 = eng_now();
    cuzk_g16_prove_opts po = {e->pool, 0, seeded ? rs : NULL, seeded ? rs + max : NULL, cancel};
    cuzk_g16_err err = pce ? cuzk_g16_prove_pce_set(proofs, css, live, pce, set, &po, NULL)
                           : cuzk_g16_prove_set(proofs, css, live, set, &po, NULL);
    double dt = eng_now() - t0;

    pthread_mutex_lock(&e->mu);
    e->prove_active--;
    eng_stage(e, ST_PROVE, dt);
    for (unsigned i = 0; i < live; i++) {
      prove_item *it = batch[i];
      eng_job *j = it->job;
      j->prove_s += dt / live;
      j->part_state[it->part] = err == CUZK_G16_OK ? PART_PROVEN : PART_DROPPED;
      if (err == CUZK_G16_OK) {
        j->proofs[it->part] = proofs[i];
        j->proved++;
      } else if (err != CUZK_G16_ECANCELLED) {
        fail_job(j, err == CUZK_G16_ENOMEM ? ENG_FAIL_MEMORY : ENG_FAIL_PROVING,
                 "partition %u: prover: %s", it->part, cuzk_g16_strerror(err));
      }
      eng_log(e, CUZK_LOG_DEBUG, j->id, "partition %u proven in %.2f s (batch of %u)", it->part, dt,
              live);
      put_cs(e, it->cs);
      release_mem(e, it->bytes);
      j->in_flight--;
    }
    /* each item still holds a reference on its job, so none can go away while another's
     * finishing drops the lock; eng_maybe_finish does nothing for a job already ended */
    for (unsigned i = 0; i < live; i++) {
      eng_maybe_finish(e, batch[i]->job);
      batch[i]->job->refs--;
      free(batch[i]);
    }
  }
  pthread_mutex_unlock(&e->mu);
  free(batch);
  free(css);
  free(proofs);
  free(rs);
  return NULL;
}
