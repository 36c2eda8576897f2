/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The engine's public face (include/cuzk/engine/engine.h): configuration, threads, submission,
 * watches, cancellation, status, shutdown. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/msm/msm_calibration.h"
#include "engine/engine_internal.h"

const char *cuzk_engine_strerror(cuzk_engine_err e) {
  switch (e) {
  case CUZK_ENGINE_OK: return "success";
  case CUZK_ENGINE_EINVAL: return "invalid argument";
  case CUZK_ENGINE_ENOMEM: return "out of memory";
  case CUZK_ENGINE_ENOTFOUND: return "not found";
  case CUZK_ENGINE_ESHUTDOWN: return "the engine is shutting down";
  case CUZK_ENGINE_ETHREAD: return "cannot create a thread";
  case CUZK_ENGINE_EIO: return "cannot read the parameter files";
  case CUZK_ENGINE_EBUSY: return "a queue limit is reached";
  }
  return "unknown engine error";
}

const char *cuzk_priority_label(cuzk_priority p) {
  switch (p) {
  case CUZK_PRIORITY_LOW: return "low";
  case CUZK_PRIORITY_NORMAL: return "normal";
  case CUZK_PRIORITY_HIGH: return "high";
  case CUZK_PRIORITY_CRITICAL: return "critical";
  case CUZK_PRIORITY_DEFAULT: break;
  }
  return NULL;
}

const char *cuzk_job_stage_name(cuzk_job_stage s) {
  switch (s) {
  case CUZK_STAGE_QUEUED: return "queued";
  case CUZK_STAGE_PREPARING: return "preparing";
  case CUZK_STAGE_SYNTHESIZING: return "synthesizing";
  case CUZK_STAGE_PROVING: return "proving";
  case CUZK_STAGE_WAITING: return "waiting";
  case CUZK_STAGE_VERIFYING: return "verifying";
  }
  return NULL;
}

void cuzk_engine_config_default(cuzk_engine_config *c) {
  memset(c, 0, sizeof *c);
  c->synthesis_workers = 1;
  c->prove_workers = 1;
  c->prove_queue = 1;
  c->batch_max = 1;
  c->batch_wait_ms = 0;
  c->result_ttl_s = 3600;
  c->idle_release_ms = 30000;
  c->precompiled = true;
  c->pce_file = true;
  c->verify_proofs = true;
  c->warm_budget = CUZK_ENGINE_WARM_AUTO;
  c->log_level = CUZK_LOG_INFO;
}

static void *thread_main_synth(void *a) { return eng_synth_main(a); }
static void *thread_main_prove(void *a) { return eng_prove_main(a); }
static void *thread_main_timer(void *a) { return eng_timer_main(a); }

static bool init_sync(cuzk_engine *e) {
  pthread_condattr_t ca;
  if (pthread_condattr_init(&ca) || pthread_condattr_setclock(&ca, CLOCK_MONOTONIC)) return false;
  pthread_cond_t *cvs[] = {&e->work_cv,  &e->prove_cv, &e->space_cv, &e->timer_cv,
                           &e->watch_cv, &e->srs_cv,   &e->idle_cv};
  bool ok = pthread_mutex_init(&e->mu, NULL) == 0;
  for (size_t i = 0; ok && i < sizeof cvs / sizeof cvs[0]; i++)
    ok = pthread_cond_init(cvs[i], &ca) == 0;
  pthread_condattr_destroy(&ca);
  return ok;
}

static void join_all(cuzk_engine *e) {
  pthread_mutex_lock(&e->mu);
  e->quitting = true;
  pthread_cond_broadcast(&e->work_cv);
  pthread_cond_broadcast(&e->prove_cv);
  pthread_cond_broadcast(&e->space_cv);
  pthread_cond_broadcast(&e->timer_cv);
  pthread_mutex_unlock(&e->mu);
  for (unsigned i = 0; i < e->n_threads; i++)
    pthread_join(e->threads[i], NULL);
  e->n_threads = 0;
}

static void free_engine(cuzk_engine *e) {
  for (unsigned b = 0; b < ENG_BUCKETS; b++)
    for (eng_job *j = e->buckets[b], *n; j; j = n) {
      n = j->hnext;
      if (j->srs) eng_srs_release(e, j->srs);
      eng_free_job(j);
    }
  for (prove_item *it = e->pq, *n; it; it = n) {
    n = it->next;
    cuzk_cs_destroy(it->cs);
    free(it);
  }
  for (unsigned i = 0; i < e->n_free_cs; i++)
    cuzk_cs_destroy(e->free_cs[i]);
  free(e->free_cs);
  eng_srs_free_all(e);
  cuzk_prom_registry_destroy(e->prom);
  cuzk_pool_destroy(e->pool);
  free(e->threads);
  free(e->workers);
  free(e);
}

cuzk_engine_err cuzk_engine_create(cuzk_engine **out, const cuzk_engine_config *cfg, char *msg,
                                   size_t len) {
  if (!out || !cfg) return CUZK_ENGINE_EINVAL;
  *out = NULL;
  if (!cfg->synthesis_workers || !cfg->prove_workers || !cfg->prove_queue || !cfg->batch_max ||
      cfg->synthesis_workers > CUZK_ENGINE_MAX_SYNTH_WORKERS ||
      cfg->prove_workers > CUZK_ENGINE_MAX_PROVE_WORKERS ||
      cfg->prove_queue > CUZK_ENGINE_MAX_PROVE_QUEUE || cfg->batch_max > CUZK_ENGINE_MAX_BATCH ||
      cfg->queue_max > CUZK_ENGINE_MAX_QUEUED_JOBS || cfg->result_max > CUZK_ENGINE_MAX_RESULTS ||
      cfg->batch_wait_ms > CUZK_ENGINE_MAX_BATCH_WAIT_MS) {
    snprintf(msg, len,
             "engine: synthesis_workers (1..%d), prove_workers (1..%d), prove_queue (1..%d), "
             "batch_max (1..%d), batch_wait_ms (0..%d), queue_max (0..%d) or result_max (0..%d) "
             "out of range",
             CUZK_ENGINE_MAX_SYNTH_WORKERS, CUZK_ENGINE_MAX_PROVE_WORKERS,
             CUZK_ENGINE_MAX_PROVE_QUEUE, CUZK_ENGINE_MAX_BATCH, CUZK_ENGINE_MAX_BATCH_WAIT_MS,
             CUZK_ENGINE_MAX_QUEUED_JOBS, CUZK_ENGINE_MAX_RESULTS);
    return CUZK_ENGINE_EINVAL;
  }
  cuzk_engine *e = calloc(1, sizeof *e);
  if (!e) return CUZK_ENGINE_ENOMEM;
  e->cfg = *cfg;
  const char *dir = cfg->param_cache;
  if (!dir || !*dir) dir = getenv("FIL_PROOFS_PARAMETER_CACHE");
  if (!dir || !*dir) dir = "/var/tmp/filecoin-proof-parameters";
  const char *tdir = cfg->test_params_dir && *cfg->test_params_dir ? cfg->test_params_dir : dir;
  /* room for the parameter file names after the directories */
  if (strlen(dir) >= sizeof e->param_cache - 256 || strlen(tdir) >= sizeof e->param_cache - 256) {
    free(e);
    snprintf(msg, len, "engine: param_cache or test_params_dir: path too long");
    return CUZK_ENGINE_EINVAL;
  }
  snprintf(e->param_cache, sizeof e->param_cache, "%s", dir);
  snprintf(e->test_params_dir, sizeof e->test_params_dir, "%s", tdir);
  e->cfg.param_cache = e->param_cache;
  e->cfg.test_params_dir = e->test_params_dir;
  e->cfg.log_level = cfg->log ? cfg->log_level : CUZK_LOG_ERROR;
  /* the MSM costs measured on this machine, beside the parameters (docs/msm.md "Calibration"),
   * chosen before any worker plans an MSM; a bad file costs speed, never a proof */
  char cal[512] = "";
  bool cal_used = false;
  cuzk_msm_err cal_err = cuzk_msm_calibration_use_dir(e->param_cache, &cal_used, cal, sizeof cal);
  if (!init_sync(e)) {
    free(e);
    return CUZK_ENGINE_ENOMEM;
  }
  long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
  uint64_t phys = pages > 0 && psize > 0 ? (uint64_t)pages * (uint64_t)psize : UINT64_C(8) << 30;
  e->phys_bytes = phys;
  e->mem_budget = cfg->memory_budget ? cfg->memory_budget : phys / 4 * 3;
  e->warm_budget = cfg->warm_budget == CUZK_ENGINE_WARM_AUTO ? phys / 4 : cfg->warm_budget;
  e->input_budget = cfg->input_budget ? cfg->input_budget : phys / 8;
  e->queue_max = cfg->queue_max ? cfg->queue_max : 1000;
  e->result_max = cfg->result_max ? cfg->result_max : 10000;
  atomic_init(&e->input_used, 0);
  unsigned threads = cfg->threads;
  if (!threads) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    threads = n > 0 ? (unsigned)n : 1;
  }
  e->n_synth = cfg->synthesis_workers + 1; /* + the CRITICAL lane */
  e->n_prove = cfg->prove_workers + 1;
  e->max_free_cs = e->n_synth + cfg->prove_queue + e->n_prove * cfg->batch_max;
  e->free_cs = calloc(e->max_free_cs, sizeof *e->free_cs);
  e->threads = calloc(e->n_synth + e->n_prove + 1, sizeof *e->threads);
  e->workers = calloc(e->n_synth + e->n_prove, sizeof *e->workers);
  e->t_created = eng_now();
  eng_srs_init(e);
  if (!eng_metrics_init(e)) {
    free_engine(e);
    return CUZK_ENGINE_ENOMEM;
  }
  if (!e->free_cs || !e->threads || !e->workers ||
      cuzk_pool_create(&e->pool, threads) != CUZK_POOL_OK) {
    free_engine(e);
    snprintf(msg, len, "engine: cannot create the worker pool of %u threads", threads);
    return CUZK_ENGINE_ENOMEM;
  }
  for (unsigned i = 0; i < e->n_synth + e->n_prove + 1; i++) {
    void *(*fn)(void *) = i < e->n_synth                ? thread_main_synth
                          : i < e->n_synth + e->n_prove ? thread_main_prove
                                                        : thread_main_timer;
    void *arg = e;
    if (i < e->n_synth + e->n_prove) {
      /* the last synthesis and the last prove thread are the CRITICAL lane */
      bool lane = i == e->n_synth - 1 || i == e->n_synth + e->n_prove - 1;
      e->workers[i] = (eng_worker){e, lane};
      arg = &e->workers[i];
    }
    if (pthread_create(&e->threads[i], NULL, fn, arg)) {
      join_all(e);
      free_engine(e);
      snprintf(msg, len, "engine: cannot create its threads");
      return CUZK_ENGINE_ETHREAD;
    }
    e->n_threads++;
  }
  eng_log(e, CUZK_LOG_INFO, NULL,
          "engine: %u pool threads, %u synthesis and %u prove workers (+1 each for CRITICAL "
          "work), prove queue %u, batch %u (%u ms), memory budget %.1f GiB, parameters in %s",
          threads, e->n_synth - 1, e->n_prove - 1, cfg->prove_queue, cfg->batch_max,
          cfg->batch_wait_ms, (double)e->mem_budget / 1073741824.0, e->param_cache);
  eng_log(e, cal_err == CUZK_MSM_OK ? CUZK_LOG_INFO : CUZK_LOG_WARN, NULL, "engine: %s%s", cal,
          cal_err == CUZK_MSM_OK ? "" : " (run cuzk-bench calibrate to measure this machine)");
  if (cfg->test_deterministic_seed)
    eng_log(e, CUZK_LOG_WARN, NULL,
            "engine: deterministic r, s (seed %llu) for proofs with TEST parameters: the same "
            "r, s on two witnesses of one circuit reveal the witness; never in production",
            (unsigned long long)cfg->test_deterministic_seed);
  *out = e;
  return CUZK_ENGINE_OK;
}

/* What a waiting job holds (docs/engine.md "Admission"): its input bytes, one length per piece
 * (copy_inputs), its request_id and the job record; all of it counted until eng_free_input. */
uint64_t cuzk_engine_input_charge(const cuzk_job_request *r) {
  if (!r) return 0;
  uint64_t n = r->vanilla_proof_len + sizeof(eng_job);
  for (size_t i = 0; i < r->n_vanilla_proofs; i++)
    n += r->vanilla_proofs_len[i];
  n += (uint64_t)(r->n_vanilla_proofs + (r->vanilla_proof_len ? 1 : 0)) * sizeof(size_t);
  n += (r->request_id ? strlen(r->request_id) : 0) + 1;
  return n;
}

cuzk_engine_err cuzk_engine_check_vanilla_count(cuzk_proof_kind kind, uint64_t registered_proof,
                                                size_t n, char *msg, size_t len) {
  const cuzk_kind *k = cuzk_kind_of(kind);
  if (!k) return CUZK_ENGINE_OK; /* not a kind: submit says so */
  char what[160];
  size_t most = k->max_list(registered_proof, what, sizeof what);
  if (n <= most) return CUZK_ENGINE_OK;
  snprintf(msg, len, "vanilla_proofs: %zu elements, at most %zu for %s", n, most, what);
  return CUZK_ENGINE_EINVAL;
}

static const char *prio_name(cuzk_priority p) {
  static const char *const n[] = {"default", "LOW", "NORMAL", "HIGH", "CRITICAL"};
  return (unsigned)p < 5 ? n[p] : "?";
}

/* locked: whether a job of priority prio holding bytes of input may wait now (docs/engine.md
 * "Admission"); EBUSY naming the limit otherwise. */
static cuzk_engine_err admit(cuzk_engine *e, cuzk_priority prio, uint64_t bytes, char *msg,
                             size_t len) {
  unsigned waiting = 0;
  for (eng_job *a = e->active; a; a = a->anext)
    waiting += a->state == JOB_QUEUED && a->prio == prio;
  if (waiting >= e->queue_max) {
    snprintf(msg, len, "queue full: %u %s jobs are waiting, the limit (scheduler.max_queued_jobs)",
             waiting, prio_name(prio));
    return CUZK_ENGINE_EBUSY;
  }
  /* everything but CRITICAL stops at 3/4 of the budget: a WinningPoSt always finds room */
  uint64_t limit = prio == CUZK_PRIORITY_CRITICAL ? e->input_budget : e->input_budget / 4 * 3;
  uint64_t used = atomic_load(&e->input_used);
  if (used + bytes > limit) {
    snprintf(msg, len,
             "input budget: %llu bytes of waiting inputs + this request's %llu exceed the %llu "
             "bytes %s jobs may use (scheduler.max_queued_bytes)",
             (unsigned long long)used, (unsigned long long)bytes, (unsigned long long)limit,
             prio_name(prio));
    return CUZK_ENGINE_EBUSY;
  }
  return CUZK_ENGINE_OK;
}

/* The request's vanilla proof(s) into one buffer: the C1, or every sector's bytes in order. */
static bool copy_inputs(eng_job *j, const cuzk_job_request *r) {
  size_t n = r->vanilla_proof_len ? 1 : 0, total = r->vanilla_proof_len;
  for (size_t i = 0; i < r->n_vanilla_proofs; i++)
    total += r->vanilla_proofs_len[i];
  n += r->n_vanilla_proofs;
  if (!n) return true;
  j->input = malloc(total ? total : 1);
  j->input_lens = malloc(n * sizeof *j->input_lens);
  if (!j->input || !j->input_lens) return false;
  size_t at = 0, k = 0;
  if (r->vanilla_proof_len) {
    memcpy(j->input, r->vanilla_proof, r->vanilla_proof_len);
    at = j->input_lens[k++] = r->vanilla_proof_len;
  }
  for (size_t i = 0; i < r->n_vanilla_proofs; i++) {
    if (r->vanilla_proofs_len[i])
      memcpy(j->input + at, r->vanilla_proofs[i], r->vanilla_proofs_len[i]);
    at += j->input_lens[k++] = r->vanilla_proofs_len[i];
  }
  j->input_len = total;
  j->n_inputs = n;
  j->n_list_inputs = r->n_vanilla_proofs;
  return true;
}

cuzk_engine_err cuzk_engine_submit(cuzk_engine *e, const cuzk_job_request *r,
                                   char job_id[CUZK_JOB_ID_LEN], uint32_t *queue_position,
                                   char *msg, size_t len) {
  if (!e || !r || !job_id || (r->vanilla_proof_len && !r->vanilla_proof) ||
      (r->n_vanilla_proofs && (!r->vanilla_proofs || !r->vanilla_proofs_len)) ||
      (r->randomness_len && !r->randomness) || (r->comm_r_old_len && !r->comm_r_old) ||
      (r->comm_r_new_len && !r->comm_r_new) || (r->comm_d_new_len && !r->comm_d_new)) {
    snprintf(msg, len, "submit: NULL argument");
    return CUZK_ENGINE_EINVAL;
  }
  const cuzk_kind *kind = cuzk_kind_of(r->kind);
  if (!kind) {
    snprintf(msg, len, "invalid proof_kind: %d", (int)r->kind);
    return CUZK_ENGINE_EINVAL;
  }
  if (r->priority < CUZK_PRIORITY_DEFAULT || r->priority > CUZK_PRIORITY_CRITICAL) {
    snprintf(msg, len, "invalid priority: %d", (int)r->priority);
    return CUZK_ENGINE_EINVAL;
  }
  size_t rid = r->request_id ? strlen(r->request_id) : 0;
  if (rid > CUZK_REQUEST_ID_MAX) {
    snprintf(msg, len, "request_id: %zu bytes, at most %d", rid, CUZK_REQUEST_ID_MAX);
    return CUZK_ENGINE_EINVAL;
  }
  /* before anything is counted or copied: a list no job of this kind can use */
  cuzk_engine_err bad =
      cuzk_engine_check_vanilla_count(r->kind, r->registered_proof, r->n_vanilla_proofs, msg, len);
  if (bad) return bad;
  cuzk_priority prio = r->priority ? r->priority : kind->default_priority;
  uint64_t bytes = cuzk_engine_input_charge(r);
  pthread_mutex_lock(&e->mu); /* refused before anything is copied */
  cuzk_engine_err busy = admit(e, prio, bytes, msg, len);
  pthread_mutex_unlock(&e->mu);
  if (busy) return busy;
  eng_job *j = calloc(1, sizeof *j);
  if (!j) return CUZK_ENGINE_ENOMEM;
  j->kind = r->kind;
  j->ops = kind;
  j->prio = prio;
  j->registered_proof = r->registered_proof;
  j->sector_size = r->sector_size;
  j->miner_id = r->miner_id;
  j->sector_number = r->sector_number;
  j->partition_index = r->partition_index;
  j->randomness_len = r->randomness_len;
  memcpy(j->randomness, r->randomness ? r->randomness : j->randomness,
         r->randomness_len < 32 ? r->randomness_len : 32);
  const uint8_t *comm[3] = {r->comm_r_old, r->comm_r_new, r->comm_d_new};
  const size_t comm_len[3] = {r->comm_r_old_len, r->comm_r_new_len, r->comm_d_new_len};
  for (int c = 0; c < 3; c++) {
    j->comm_len[c] = comm_len[c];
    if (comm[c]) memcpy(j->comm[c], comm[c], comm_len[c] < 32 ? comm_len[c] : 32);
  }
  j->request_id = strdup(r->request_id ? r->request_id : "");
  if (!j->request_id || !copy_inputs(j, r) || !eng_new_id(j->id)) {
    eng_free_job(j);
    snprintf(msg, len, "submit: out of memory");
    return CUZK_ENGINE_ENOMEM;
  }
  atomic_init(&j->cancel, 0);
  j->t_submit = eng_now();

  pthread_mutex_lock(&e->mu);
  cuzk_engine_err refused = e->stopping ? CUZK_ENGINE_ESHUTDOWN : admit(e, prio, bytes, msg, len);
  if (refused) { /* another submission took the room while this one was copied */
    pthread_mutex_unlock(&e->mu);
    eng_free_job(j);
    if (refused == CUZK_ENGINE_ESHUTDOWN) snprintf(msg, len, "the daemon is shutting down");
    return refused;
  }
  j->input_meter = &e->input_used;
  j->input_charge = bytes;
  atomic_fetch_add(&e->input_used, bytes);
  j->seq = e->next_seq++;
  uint32_t ahead = 0;
  for (eng_job *a = e->active; a; a = a->anext)
    ahead += a->state == JOB_QUEUED && a->prio >= j->prio;
  eng_insert(e, j);
  memcpy(job_id, j->id, CUZK_JOB_ID_LEN);
  eng_log(e, CUZK_LOG_INFO, j->id,
          "submitted: %s, priority %d, %zu bytes in %zu piece(s), request_id '%s'", kind->label,
          (int)j->prio, j->input_len, j->n_inputs, j->request_id);
  pthread_cond_broadcast(&e->work_cv);
  pthread_cond_broadcast(&e->space_cv); /* a worker held by backpressure may be outranked now */
  pthread_mutex_unlock(&e->mu);
  if (queue_position) *queue_position = ahead;
  return CUZK_ENGINE_OK;
}

cuzk_engine_err cuzk_engine_watch(cuzk_engine *e, const char *job_id, uint64_t timeout_ms,
                                  cuzk_job_done_fn fn, void *user, uint64_t *watch_id) {
  if (!e || !job_id || !fn) return CUZK_ENGINE_EINVAL;
  pthread_mutex_lock(&e->mu);
  eng_job *j = eng_find(e, job_id);
  if (!j) {
    pthread_mutex_unlock(&e->mu);
    return CUZK_ENGINE_ENOTFOUND;
  }
  watch *w = calloc(1, sizeof *w);
  if (!w) {
    pthread_mutex_unlock(&e->mu);
    return CUZK_ENGINE_ENOMEM;
  }
  w->id = ++e->next_watch;
  if (watch_id) *watch_id = w->id;
  w->job = j;
  w->fn = fn;
  w->user = user;
  if (j->state == JOB_ENDED) { /* at once, on this thread */
    w->state = W_FIRING;
    j->refs++;
    pthread_mutex_unlock(&e->mu);
    fn(user, &j->result);
    pthread_mutex_lock(&e->mu);
    j->refs--;
    free(w);
    pthread_mutex_unlock(&e->mu);
    return CUZK_ENGINE_OK;
  }
  w->deadline = timeout_ms ? eng_now() + (double)timeout_ms / 1000.0 : 0;
  w->next = e->watches;
  e->watches = w;
  pthread_cond_broadcast(&e->timer_cv);
  pthread_mutex_unlock(&e->mu);
  return CUZK_ENGINE_OK;
}

void cuzk_engine_unwatch(cuzk_engine *e, uint64_t id) {
  if (!e) return;
  pthread_mutex_lock(&e->mu);
  for (;;) {
    watch **p = &e->watches;
    while (*p && (*p)->id != id)
      p = &(*p)->next;
    watch *w = *p;
    if (!w) break; /* fired and gone, or never existed */
    if (w->state == W_FIRING) {
      pthread_cond_wait(&e->watch_cv, &e->mu);
      continue;
    }
    *p = w->next;
    cuzk_job_result r;
    memset(&r, 0, sizeof r);
    memcpy(r.job_id, w->job->id, sizeof r.job_id);
    r.status = CUZK_JOB_UNKNOWN;
    snprintf(r.error, sizeof r.error, "the wait was dropped");
    pthread_mutex_unlock(&e->mu);
    w->fn(w->user, &r);
    free(w);
    return;
  }
  pthread_mutex_unlock(&e->mu);
}

typedef struct {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  bool done;
  cuzk_job_result *out;
  bool oom;
} await_ctx;

static void await_done(void *user, const cuzk_job_result *r) {
  await_ctx *a = user;
  pthread_mutex_lock(&a->mu);
  *a->out = *r;
  a->out->proof = NULL;
  if (r->proof_len) {
    a->out->proof = malloc(r->proof_len);
    if (a->out->proof)
      memcpy(a->out->proof, r->proof, r->proof_len);
    else
      a->oom = true;
  }
  a->done = true;
  pthread_cond_signal(&a->cv);
  pthread_mutex_unlock(&a->mu);
}

cuzk_engine_err cuzk_engine_await(cuzk_engine *e, const char *job_id, uint64_t timeout_ms,
                                  cuzk_job_result *out) {
  if (!out) return CUZK_ENGINE_EINVAL;
  memset(out, 0, sizeof *out);
  await_ctx a = {.done = false, .out = out, .oom = false};
  pthread_mutex_init(&a.mu, NULL);
  pthread_cond_init(&a.cv, NULL);
  cuzk_engine_err err = cuzk_engine_watch(e, job_id, timeout_ms, await_done, &a, NULL);
  if (!err) {
    pthread_mutex_lock(&a.mu);
    while (!a.done)
      pthread_cond_wait(&a.cv, &a.mu);
    pthread_mutex_unlock(&a.mu);
  }
  pthread_mutex_destroy(&a.mu);
  pthread_cond_destroy(&a.cv);
  return err ? err : a.oom ? CUZK_ENGINE_ENOMEM : CUZK_ENGINE_OK;
}

void cuzk_job_result_clear(cuzk_job_result *r) {
  if (!r) return;
  free(r->proof);
  memset(r, 0, sizeof *r);
}

/* locked: sets j's cancel flag; a job waiting for a parameter set stops waiting, and a load
 * nobody else wants is abandoned (docs/engine.md "Cancellation"). */
static void cancel_job(cuzk_engine *e, eng_job *j) {
  atomic_store(&j->cancel, 1);
  eng_srs_job_cancelled(e, j);
}

cuzk_engine_err cuzk_engine_cancel(cuzk_engine *e, const char *job_id, bool *was_running) {
  if (!e || !job_id) return CUZK_ENGINE_EINVAL;
  pthread_mutex_lock(&e->mu);
  eng_job *j = eng_find(e, job_id);
  if (!j) {
    pthread_mutex_unlock(&e->mu);
    return CUZK_ENGINE_ENOTFOUND;
  }
  bool running = j->state == JOB_PREPARING || j->state == JOB_RUNNING;
  if (j->state != JOB_ENDED && j->state != JOB_FINISHING) {
    cancel_job(e, j);
    if (j->state == JOB_QUEUED)
      eng_end(e, j, CUZK_JOB_CANCELLED, "cancelled while queued");
    else
      eng_maybe_finish(e, j); /* nothing in flight: ends now */
    eng_log(e, CUZK_LOG_INFO, job_id, "cancel requested (%s)", running ? "running" : "queued");
  }
  pthread_cond_broadcast(&e->work_cv);
  pthread_mutex_unlock(&e->mu);
  if (was_running) *was_running = running;
  return CUZK_ENGINE_OK;
}

void cuzk_engine_hold(cuzk_engine *e, unsigned stages, bool hold) {
  if (!e) return;
  pthread_mutex_lock(&e->mu);
  if (stages & CUZK_ENGINE_HOLD_SYNTHESIS) e->hold_synth = hold;
  if (stages & CUZK_ENGINE_HOLD_PROVING) e->hold_prove = hold;
  pthread_cond_broadcast(&e->work_cv);
  pthread_cond_broadcast(&e->prove_cv);
  bool synth = e->hold_synth, prove = e->hold_prove;
  pthread_mutex_unlock(&e->mu);
  eng_log(e, CUZK_LOG_INFO, NULL, "pipeline: synthesis %s, proving %s", synth ? "held" : "running",
          prove ? "held" : "running");
}

cuzk_engine_err cuzk_engine_get_status(cuzk_engine *e, cuzk_engine_status *s) {
  if (!e || !s) return CUZK_ENGINE_EINVAL;
  memset(s, 0, sizeof *s);
  s->srs = calloc(e->n_srs, sizeof *s->srs);
  if (!s->srs) return CUZK_ENGINE_ENOMEM;
  pthread_mutex_lock(&e->mu);
  for (unsigned i = 0; i < e->n_srs; i++) {
    const srs_set *x = &e->srs[i];
    cuzk_srs_info *o = &s->srs[s->n_srs++];
    snprintf(o->circuit_id, sizeof o->circuit_id, "%s", x->circ->id);
    o->tier = eng_srs_tier(x);
    o->bytes = x->set ? x->bytes : x->warm.len;
    o->refs = x->refs;
  }
  size_t n_active = 0;
  for (eng_job *j = e->active; j; j = j->anext) {
    n_active++;
    if (j->state == JOB_QUEUED)
      s->pending[j->kind]++;
    else
      s->running[j->kind]++;
  }
  /* allocated under the lock: the list may change once it is released (an allocation cheap next
   * to what the jobs hold) */
  s->jobs = n_active ? calloc(n_active, sizeof *s->jobs) : NULL;
  double now = eng_now();
  for (eng_job *j = e->active; j && s->jobs; j = j->anext) {
    cuzk_job_info *o = &s->jobs[s->n_jobs++];
    memcpy(o->job_id, j->id, sizeof o->job_id);
    o->kind = j->kind;
    o->priority = j->prio;
    int part;
    o->stage = eng_job_stage(j, &part);
    o->partition = part;
    o->partitions = j->part_state ? j->parts : 0; /* parts is set without the lock before */
    o->partitions_done = j->proved;
    o->submitted_ms_ago = (uint64_t)((now - j->t_submit) * 1000.0);
  }
  s->completed = (uint64_t)cuzk_prom_value(e->m_completed_total);
  s->failed = (uint64_t)cuzk_prom_value(e->m_failed_total);
  s->cancelled = (uint64_t)cuzk_prom_value(e->m_cancelled_total);
  s->uptime_s = (uint64_t)(eng_now() - e->t_created);
  s->memory_used = e->mem_used + e->srs_bytes;
  s->memory_budget = e->mem_budget;
  pthread_mutex_unlock(&e->mu);
  if (n_active && !s->jobs) {
    cuzk_engine_status_free(s);
    return CUZK_ENGINE_ENOMEM;
  }
  return CUZK_ENGINE_OK;
}

void cuzk_engine_status_free(cuzk_engine_status *s) {
  if (!s) return;
  free(s->srs);
  free(s->jobs);
  memset(s, 0, sizeof *s);
}

bool cuzk_engine_shutdown(cuzk_engine *e, bool cancel, unsigned grace_ms) {
  if (!e) return true;
  pthread_mutex_lock(&e->mu);
  e->stopping = true;
  if (cancel)
    for (eng_job *j = e->active, *n; j; j = n) {
      n = j->anext;
      cancel_job(e, j);
      if (j->state == JOB_QUEUED) eng_end(e, j, CUZK_JOB_CANCELLED, "the daemon is shutting down");
    }
  pthread_cond_broadcast(&e->work_cv);
  struct timespec until;
  clock_gettime(CLOCK_MONOTONIC, &until);
  until.tv_sec += grace_ms / 1000;
  until.tv_nsec += (long)(grace_ms % 1000) * 1000000L;
  if (until.tv_nsec >= 1000000000L) {
    until.tv_sec++;
    until.tv_nsec -= 1000000000L;
  }
  bool in_time = true;
  while (e->active) {
    if (!grace_ms || !in_time) {
      pthread_cond_wait(&e->idle_cv, &e->mu);
    } else if (pthread_cond_timedwait(&e->idle_cv, &e->mu, &until)) {
      in_time = false; /* past the grace: cancel what is left, wait for its boundaries */
      for (eng_job *j = e->active, *n; j; j = n) {
        n = j->anext;
        cancel_job(e, j);
        if (j->state == JOB_QUEUED)
          eng_end(e, j, CUZK_JOB_CANCELLED, "the daemon is shutting down");
      }
      pthread_cond_broadcast(&e->work_cv);
    }
  }
  pthread_mutex_unlock(&e->mu);
  return in_time;
}

void cuzk_engine_destroy(cuzk_engine *e) {
  if (!e) return;
  cuzk_engine_shutdown(e, true, 0);
  join_all(e); /* the timer fires the remaining watches (UNKNOWN) before it exits */
  free_engine(e);
}
