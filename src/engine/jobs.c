/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Jobs: server-generated ids, the job table, the active list in scheduling order, the end of a
 * job, and the timer thread that fires watches and forgets expired results; the log formatter. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "engine/engine_internal.h"

double eng_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void cuzk_vlogf(cuzk_log_fn fn, void *user, cuzk_log_level level, const char *job_id,
                const char *fmt, va_list ap) {
  if (!fn) return;
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  fn(user, level, job_id, msg);
}

void cuzk_logf(cuzk_log_fn fn, void *user, cuzk_log_level level, const char *job_id,
               const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  cuzk_vlogf(fn, user, level, job_id, fmt, ap);
  va_end(ap);
}

void eng_log(cuzk_engine *e, cuzk_log_level lv, const char *job_id, const char *fmt, ...) {
  if (lv > e->cfg.log_level) return;
  va_list ap;
  va_start(ap, fmt);
  cuzk_vlogf(e->cfg.log, e->cfg.log_user, lv, job_id, fmt, ap);
  va_end(ap);
}

/* A UUIDv4 (RFC 4122 §4.4): 122 random bits, version 4, variant 10. */
bool eng_new_id(char id[CUZK_JOB_ID_LEN]) {
  uint8_t b[16];
  size_t got = 0;
  while (got < sizeof b) {
    ssize_t n = getrandom(b + got, sizeof b - got, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    got += (size_t)n;
  }
  b[6] = (uint8_t)((b[6] & 0x0f) | 0x40);
  b[8] = (uint8_t)((b[8] & 0x3f) | 0x80);
  snprintf(id, CUZK_JOB_ID_LEN,
           "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2],
           b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
  return true;
}

static unsigned bucket_of(const char *id) {
  uint32_t h = 2166136261u; /* FNV-1a */
  for (; *id; id++)
    h = (h ^ (uint8_t)*id) * 16777619u;
  return h % ENG_BUCKETS;
}

eng_job *eng_find(cuzk_engine *e, const char *id) {
  for (eng_job *j = e->buckets[bucket_of(id)]; j; j = j->hnext)
    if (!strcmp(j->id, id)) return j;
  return NULL;
}

bool eng_job_before(const eng_job *a, const eng_job *b) {
  return a->prio != b->prio ? a->prio > b->prio : a->seq < b->seq;
}

void eng_insert(cuzk_engine *e, eng_job *j) {
  unsigned b = bucket_of(j->id);
  j->hnext = e->buckets[b];
  e->buckets[b] = j;
  eng_job **p = &e->active;
  while (*p && !eng_job_before(j, *p))
    p = &(*p)->anext;
  j->anext = *p;
  *p = j;
}

static void unlink_active(cuzk_engine *e, eng_job *j) {
  for (eng_job **p = &e->active; *p; p = &(*p)->anext)
    if (*p == j) {
      *p = j->anext;
      j->anext = NULL;
      return;
    }
}

static void unlink_table(cuzk_engine *e, eng_job *j) {
  for (eng_job **p = &e->buckets[bucket_of(j->id)]; *p; p = &(*p)->hnext)
    if (*p == j) {
      *p = j->hnext;
      return;
    }
}

static uint64_t ms(double s) { return s > 0 ? (uint64_t)(s * 1000.0 + 0.5) : 0; }

static void trim_results(cuzk_engine *e);

void eng_end(cuzk_engine *e, eng_job *j, cuzk_job_status status, const char *msg) {
  if (j->state == JOB_ENDED) return;
  double now = eng_now();
  j->state = JOB_ENDED;
  j->t_end = now;
  unlink_active(e, j);
  e->n_ended++;
  trim_results(e);
  cuzk_job_result *r = &j->result;
  memcpy(r->job_id, j->id, sizeof r->job_id);
  r->status = status;
  if (status != CUZK_JOB_COMPLETED) {
    free(r->proof);
    r->proof = NULL;
    r->proof_len = 0;
    snprintf(r->error, sizeof r->error, "%s", msg ? msg : "");
  }
  double start = j->t_start > 0 ? j->t_start : now;
  r->queue_wait_ms = ms(start - j->t_submit);
  r->srs_load_ms = ms(j->srs_s);
  r->synthesis_ms = ms(j->synth_s);
  r->prove_ms = ms(j->prove_s);
  r->total_ms = ms(now - j->t_submit);
  r->batch_wait_ms = ms(j->batch_wait_s);
  if (j->srs) {
    eng_srs_release(e, j->srs);
    j->srs = NULL;
  }
  if (j->ops && j->work) j->ops->free_work(j->work);
  j->work = NULL;
  free(j->proofs);
  j->proofs = NULL;
  free(j->part_state);
  j->part_state = NULL;
  uint64_t input = j->input_meter ? j->input_charge : 0; /* not prepared: its input still held */
  eng_free_input(j);
  unsigned k = (unsigned)j->kind < CUZK_NUM_PROOF_KINDS ? (unsigned)j->kind : 0;
  if (status == CUZK_JOB_COMPLETED) {
    cuzk_prom_inc(e->m_completed_total);
    cuzk_prom_inc(e->m_completed[k]);
    cuzk_prom_observe(e->m_duration[k], now - j->t_submit);
  } else if (status == CUZK_JOB_CANCELLED) {
    cuzk_prom_inc(e->m_cancelled_total);
  } else {
    cuzk_prom_inc(e->m_failed_total);
    cuzk_prom_inc(e->m_failed[k]);
    if ((unsigned)j->fail_reason < ENG_NUM_FAIL_REASONS)
      cuzk_prom_inc(e->m_failed_reason[j->fail_reason]);
  }
  eng_log(e, status == CUZK_JOB_FAILED ? CUZK_LOG_WARN : CUZK_LOG_INFO, j->id,
          "%s in %.2f s (queue %.2f, synthesis %.2f, batch wait %.2f, prove %.2f)%s%s",
          status == CUZK_JOB_COMPLETED   ? "completed"
          : status == CUZK_JOB_CANCELLED ? "cancelled"
                                         : "failed",
          now - j->t_submit, start - j->t_submit, j->synth_s, j->batch_wait_s, j->prove_s,
          msg ? ": " : "", msg ? msg : "");
  /* idle: keep one constraint system warm for the next job, give the others' memory back; the
   * timer releases the rest after idle_release_ms (idle_release) */
  while (!e->active && e->n_free_cs > 1)
    cuzk_cs_destroy(e->free_cs[--e->n_free_cs]);
  if (!e->active) e->idle_since = now;
  /* the inputs of jobs that will never run — a flood cancelled, requests that did not parse —
   * go back to the system now, not at idle_release: malloc keeps freed heap pages unless asked
   * (docs/engine.md "Memory given back") */
  if (status != CUZK_JOB_COMPLETED && input) {
    e->trim_bytes += input;
    e->trim_at = now + ENG_TRIM_DELAY_S;
  }
  if (e->trim_bytes && (e->trim_bytes >= ENG_TRIM_BYTES || !e->active)) e->trim_at = now;
  pthread_cond_broadcast(&e->timer_cv); /* its watches fire */
  pthread_cond_broadcast(&e->idle_cv);
  pthread_cond_broadcast(&e->work_cv);
}

/* locked: an ended job nobody holds (no reference, no watch) may be forgotten. */
static bool forgettable(const cuzk_engine *e, const eng_job *j) {
  if (j->state != JOB_ENDED || j->refs) return false;
  for (const watch *w = e->watches; w; w = w->next)
    if (w->job == j) return false;
  return true;
}

/* locked: beyond result_max ended results, the oldest forgettable ones go (results are bounded
 * by count, and so by bytes: each holds at most a 16-partition proof, a request_id of
 * CUZK_REQUEST_ID_MAX bytes and its fixed-size error text). */
static void trim_results(cuzk_engine *e) {
  while (e->n_ended > e->result_max) {
    eng_job *oldest = NULL;
    for (unsigned b = 0; b < ENG_BUCKETS; b++)
      for (eng_job *j = e->buckets[b]; j; j = j->hnext)
        if (forgettable(e, j) && (!oldest || j->t_end < oldest->t_end)) oldest = j;
    if (!oldest) return; /* all held: they go when released */
    unlink_table(e, oldest);
    eng_free_job(oldest);
    e->n_ended--;
  }
}

void eng_free_input(eng_job *j) {
  if (j->input_meter) atomic_fetch_sub(j->input_meter, j->input_charge);
  j->input_meter = NULL;
  free(j->input);
  free(j->input_lens);
  j->input = NULL;
  j->input_lens = NULL;
  j->input_len = j->n_inputs = j->n_list_inputs = 0;
}

void eng_free_job(eng_job *j) {
  if (j->ops && j->work) j->ops->free_work(j->work);
  free(j->proofs);
  free(j->part_state);
  eng_free_input(j);
  free(j->request_id);
  free(j->result.proof);
  free(j);
}

const char *const eng_part_state_names[ENG_NUM_PART_STATES] = {
    "pending", "synthesizing", "synthesized", "proving", "proven", "dropped"};

cuzk_job_stage eng_job_stage(const eng_job *j, int *partition) {
  *partition = -1;
  switch (j->state) {
  case JOB_QUEUED: return CUZK_STAGE_QUEUED;
  case JOB_PREPARING: return CUZK_STAGE_PREPARING;
  case JOB_FINISHING:
  case JOB_ENDED: return CUZK_STAGE_VERIFYING;
  case JOB_RUNNING: break;
  }
  if (!j->part_state) return CUZK_STAGE_PREPARING; /* a RUNNING job is being ended */
  /* the furthest stage any partition has reached, and the lowest partition in it */
  static const struct {
    eng_part_state part;
    cuzk_job_stage stage;
  } order[] = {{PART_PROVING, CUZK_STAGE_PROVING},
               {PART_SYNTHESIZING, CUZK_STAGE_SYNTHESIZING},
               {PART_SYNTHESIZED, CUZK_STAGE_WAITING}};
  for (size_t o = 0; o < sizeof order / sizeof order[0]; o++)
    for (unsigned k = 0; k < j->parts; k++)
      if (j->part_state[k] == order[o].part) {
        *partition = (int)k;
        return order[o].stage;
      }
  return CUZK_STAGE_WAITING;
}

/* ---- the timer thread ------------------------------------------------------------------------ */

/* Fires one due watch (job ended or deadline passed); true if it did (the lock was dropped). */
static bool fire_one(cuzk_engine *e, double now) {
  for (watch **p = &e->watches; *p; p = &(*p)->next) {
    watch *w = *p;
    if (w->state != W_WAITING) continue;
    bool ended = w->job->state == JOB_ENDED;
    if (!ended && !(w->deadline > 0 && w->deadline <= now) && !e->quitting) continue;
    w->state = W_FIRING;
    eng_job *j = w->job;
    j->refs++;
    cuzk_job_result r;
    const cuzk_job_result *rp = &j->result;
    if (!ended) {
      memset(&r, 0, sizeof r);
      memcpy(r.job_id, j->id, sizeof r.job_id);
      r.status = e->quitting ? CUZK_JOB_UNKNOWN : CUZK_JOB_TIMEOUT;
      snprintf(r.error, sizeof r.error, "%s",
               e->quitting ? "the engine is shutting down" : "timed out waiting for the job");
      rp = &r;
    }
    pthread_mutex_unlock(&e->mu);
    w->fn(w->user, rp);
    pthread_mutex_lock(&e->mu);
    for (watch **q = &e->watches; *q; q = &(*q)->next)
      if (*q == w) {
        *q = w->next;
        break;
      }
    free(w);
    j->refs--;
    pthread_cond_broadcast(&e->watch_cv);
    return true;
  }
  return false;
}

/* Forgets ended jobs whose result is older than the TTL and that nobody references. */
static double expire(cuzk_engine *e, double now) {
  double next = 0, ttl = e->cfg.result_ttl_s;
  for (unsigned b = 0; b < ENG_BUCKETS; b++) {
    for (eng_job **p = &e->buckets[b]; *p;) {
      eng_job *j = *p;
      if (j->state == JOB_ENDED && j->refs == 0) {
        if (forgettable(e, j) && j->t_end + ttl <= now) {
          unlink_table(e, j);
          eng_free_job(j);
          e->n_ended--;
          continue;
        }
        if (next == 0 || j->t_end + ttl < next) next = j->t_end + ttl;
      }
      p = &j->hnext;
    }
  }
  return next;
}

/* locked: once the engine has been idle for idle_release_ms, the warm constraint system and the
 * prover's cached buffers are given back (docs/engine.md "Memory given back"); returns when to
 * look again (0: nothing pending). */
static double idle_release(cuzk_engine *e, double now) {
  if (e->active || e->idle_since == 0 || e->cfg.idle_release_ms == CUZK_ENGINE_IDLE_KEEP) return 0;
  double at = e->idle_since + e->cfg.idle_release_ms / 1000.0;
  if (now < at) return at;
  while (e->n_free_cs)
    cuzk_cs_destroy(e->free_cs[--e->n_free_cs]);
  eng_give_back_memory();
  eng_log(e, CUZK_LOG_DEBUG, NULL, "idle for %.1f s: cached prover memory given back",
          now - e->idle_since);
  e->idle_since = 0;
  return 0;
}

void *eng_timer_main(void *arg) {
  cuzk_engine *e = arg;
  pthread_mutex_lock(&e->mu);
  for (;;) {
    double now = eng_now();
    if (fire_one(e, now)) continue;
    if (e->trim_at > 0 && e->trim_at <= now) { /* without the lock: a trim walks the heap */
      e->trim_at = 0;
      e->trim_bytes = 0;
      pthread_mutex_unlock(&e->mu);
      eng_trim_heap();
      pthread_mutex_lock(&e->mu);
      continue;
    }
    if (e->quitting && !e->watches) break;
    double next = expire(e, now), release = idle_release(e, now);
    if (release > 0 && (next == 0 || release < next)) next = release;
    if (e->trim_at > 0 && (next == 0 || e->trim_at < next)) next = e->trim_at;
    for (watch *w = e->watches; w; w = w->next)
      if (w->state == W_WAITING && w->deadline > 0 && (next == 0 || w->deadline < next))
        next = w->deadline;
    if (next == 0 || next > now + 1.0) next = now + 1.0;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts); /* the engine's condition variables use it */
    double wait = next - now;
    long long ns = ts.tv_nsec + (long long)(wait * 1e9);
    ts.tv_sec += (time_t)(ns / 1000000000LL);
    ts.tv_nsec = (long)(ns % 1000000000LL);
    pthread_cond_timedwait(&e->timer_cv, &e->mu, &ts);
  }
  pthread_mutex_unlock(&e->mu);
  return NULL;
}
