/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The engine's metrics (Prometheus text: the reference daemon's names,
 * docs/spec/cuzk-interface.md §4.14.2, plus per-stage duration histograms, queue depths, memory and
 * parameter bytes) and the /status JSON (§4.14.3's shape, with what a CPU engine has). */
#define _POSIX_C_SOURCE 200809L /* sysconf */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine_internal.h"

static const double duration_buckets[] = {0.1, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300, 600, 1800};
static const double stage_buckets[] = {0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1,
                                       2.5,   5,    10,   30,  60,   300};
static const char *const tier_names[3] = {"hot", "warm", "cold"};
static const char *const stage_names[ENG_NUM_STAGES] = {"queue",      "srs_load", "synthesis",
                                                        "batch_wait", "prove",    "verify"};
static const char *const fail_reason_names[ENG_NUM_FAIL_REASONS] = {
    "invalid_request", "vanilla_check", "parameters", "synthesis",
    "proving",         "verification",  "memory"};
#define NB(a) (sizeof a / sizeof a[0])

static cuzk_prom_series *plain(cuzk_engine *e, cuzk_prom_type t, const char *name, const char *help,
                               bool *ok) {
  cuzk_prom_metric *m = NULL;
  if (cuzk_prom_register(e->prom, t, name, help, NULL, 0, NULL, 0, &m)) {
    *ok = false;
    return NULL;
  }
  cuzk_prom_series *s = cuzk_prom_series_get(m, NULL);
  if (!s) *ok = false;
  return s;
}

static cuzk_prom_metric *family(cuzk_engine *e, cuzk_prom_type t, const char *name,
                                const char *help, const char *label, const double *b, size_t nb,
                                bool *ok) {
  cuzk_prom_metric *m = NULL;
  const char *labels[1] = {label};
  if (cuzk_prom_register(e->prom, t, name, help, labels, 1, b, nb, &m)) *ok = false;
  return m;
}

static cuzk_prom_series *labelled(cuzk_prom_metric *m, const char *value, bool *ok) {
  const char *v[1] = {value};
  cuzk_prom_series *s = m ? cuzk_prom_series_get(m, v) : NULL;
  if (!s) *ok = false;
  return s;
}

bool eng_metrics_init(cuzk_engine *e) {
  if (cuzk_prom_registry_create(&e->prom)) return false;
  bool ok = true;
  /* the reference's families, in its order */
  e->m_completed_total =
      plain(e, CUZK_PROM_COUNTER, "cuzk_proofs_completed_total", "Total proofs completed", &ok);
  e->m_failed_total =
      plain(e, CUZK_PROM_COUNTER, "cuzk_proofs_failed_total", "Total proofs failed", &ok);
  e->m_uptime = plain(e, CUZK_PROM_GAUGE, "cuzk_uptime_seconds", "Daemon uptime", &ok);
  e->m_queue_depth = plain(e, CUZK_PROM_GAUGE, "cuzk_queue_depth", "Current queue depth", &ok);
  cuzk_prom_metric *comp = family(e, CUZK_PROM_COUNTER, "cuzk_proofs_completed",
                                  "Per proof-kind completions", "proof_kind", NULL, 0, &ok);
  cuzk_prom_metric *fail = family(e, CUZK_PROM_COUNTER, "cuzk_proofs_failed",
                                  "Per proof-kind failures", "proof_kind", NULL, 0, &ok);
  cuzk_prom_metric *dur =
      family(e, CUZK_PROM_HISTOGRAM, "cuzk_proof_duration_seconds", "Proof duration", "proof_kind",
             duration_buckets, NB(duration_buckets), &ok);
  const cuzk_kind *kind;
  for (size_t i = 0; (kind = cuzk_kind_at(i)); i++) {
    e->m_completed[kind->id] = labelled(comp, kind->label, &ok);
    e->m_failed[kind->id] = labelled(fail, kind->label, &ok);
    e->m_duration[kind->id] = labelled(dur, kind->label, &ok);
  }
  e->m_running = plain(e, CUZK_PROM_GAUGE, "cuzk_running_jobs", "Currently running proofs", &ok);
  e->m_workers = plain(e, CUZK_PROM_GAUGE, "cuzk_gpu_workers",
                       "Number of GPU workers (on the CPU backend: prove workers)", &ok);
  /* cuzk's own */
  e->m_cancelled_total =
      plain(e, CUZK_PROM_COUNTER, "cuzk_proofs_cancelled_total", "Total proofs cancelled", &ok);
  cuzk_prom_metric *st =
      family(e, CUZK_PROM_HISTOGRAM, "cuzk_stage_duration_seconds",
             "Time per stage: queue wait, parameter load, synthesis and prove per partition or "
             "batch, verification",
             "stage", stage_buckets, NB(stage_buckets), &ok);
  for (int i = 0; i < ENG_NUM_STAGES; i++)
    e->m_stage[i] = labelled(st, stage_names[i], &ok);
  e->m_prove_queue = plain(e, CUZK_PROM_GAUGE, "cuzk_prove_queue_depth",
                           "Synthesized partitions waiting for a prove worker", &ok);
  e->m_synth_active =
      plain(e, CUZK_PROM_GAUGE, "cuzk_synthesis_active", "Partitions being synthesized", &ok);
  e->m_synth_held =
      plain(e, CUZK_PROM_GAUGE, "cuzk_synthesis_held",
            "1 while the pipeline is paused: no job prepared, no partition handed out", &ok);
  e->m_prove_active =
      plain(e, CUZK_PROM_GAUGE, "cuzk_prove_active", "Prove workers computing a proof", &ok);
  e->m_mem_used = plain(e, CUZK_PROM_GAUGE, "cuzk_memory_in_use_bytes",
                        "Memory reserved by in-flight partitions", &ok);
  e->m_mem_budget = plain(e, CUZK_PROM_GAUGE, "cuzk_memory_budget_bytes",
                          "Memory budget for in-flight partitions", &ok);
  e->m_input_used = plain(e, CUZK_PROM_GAUGE, "cuzk_input_bytes",
                          "Bytes of submitted inputs held by jobs not yet prepared", &ok);
  e->m_input_budget = plain(e, CUZK_PROM_GAUGE, "cuzk_input_budget_bytes",
                            "Budget for submitted inputs held by jobs not yet prepared", &ok);
  e->m_srs_bytes =
      plain(e, CUZK_PROM_GAUGE, "cuzk_srs_loaded_bytes", "Bytes of loaded parameter sets", &ok);
  e->m_warm_bytes = plain(e, CUZK_PROM_GAUGE, "cuzk_srs_warm_bytes",
                          "Bytes of parameter files kept mapped after eviction (WARM tier)", &ok);
  e->m_rss = plain(e, CUZK_PROM_GAUGE, "process_resident_memory_bytes",
                   "Resident memory of the daemon process (Linux /proc/self/statm)", &ok);
  e->f_srs_loaded = family(e, CUZK_PROM_GAUGE, "cuzk_srs_loaded",
                           "1 if the parameter set is loaded", "circuit_id", NULL, 0, &ok);
  for (unsigned i = 0; i < e->n_srs; i++)
    labelled(e->f_srs_loaded, e->srs[i].circ->id, &ok);
  cuzk_prom_metric *qp =
      family(e, CUZK_PROM_GAUGE, "cuzk_queue_depth_by_priority",
             "Jobs waiting for the scheduler, per priority", "priority", NULL, 0, &ok);
  for (int p = CUZK_PRIORITY_LOW; p <= CUZK_PRIORITY_CRITICAL; p++)
    e->m_queued_prio[p] = labelled(qp, cuzk_priority_label((cuzk_priority)p), &ok);
  cuzk_prom_metric *fr =
      family(e, CUZK_PROM_COUNTER, "cuzk_proofs_failed_by_reason_total",
             "Proofs failed, per class of reason (the message is in the log and the result)",
             "reason", NULL, 0, &ok);
  for (int r = 0; r < ENG_NUM_FAIL_REASONS; r++)
    e->m_failed_reason[r] = labelled(fr, fail_reason_names[r], &ok);
  return ok;
}

void eng_stage(cuzk_engine *e, int stage, double seconds) {
  cuzk_prom_observe(e->m_stage[stage], seconds);
}

/* The process's resident bytes: statm's second field (pages); 0 where /proc is not there. What
 * the engine accounts (partitions, parameters) is a part of it; this is what the OOM killer sees.
 */
static double resident_bytes(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  unsigned long long size = 0, resident = 0;
  bool ok = f && fscanf(f, "%llu %llu", &size, &resident) == 2;
  if (f) fclose(f);
  long page = sysconf(_SC_PAGESIZE);
  return ok && page > 0 ? (double)resident * (double)page : 0;
}

cuzk_prom_registry *cuzk_engine_prom(cuzk_engine *e) { return e->prom; }

char *cuzk_engine_metrics_text(cuzk_engine *e) {
  if (!e) return NULL;
  double rss = resident_bytes();
  pthread_mutex_lock(&e->mu);
  unsigned queued = 0, running = 0, by_prio[CUZK_PRIORITY_CRITICAL + 1] = {0};
  for (eng_job *j = e->active; j; j = j->anext) {
    queued += j->state == JOB_QUEUED;
    running += j->state != JOB_QUEUED;
    if (j->state == JOB_QUEUED) by_prio[j->prio]++; /* prio is LOW..CRITICAL once submitted */
  }
  for (int p = CUZK_PRIORITY_LOW; p <= CUZK_PRIORITY_CRITICAL; p++)
    cuzk_prom_set(e->m_queued_prio[p], by_prio[p]);
  cuzk_prom_set(e->m_uptime, (double)(uint64_t)(eng_now() - e->t_created));
  cuzk_prom_set(e->m_queue_depth, queued);
  cuzk_prom_set(e->m_running, running);
  cuzk_prom_set(e->m_workers, e->n_prove);
  cuzk_prom_set(e->m_prove_queue, e->pq_len);
  cuzk_prom_set(e->m_synth_active, e->synth_active);
  cuzk_prom_set(e->m_synth_held, e->hold_synth);
  cuzk_prom_set(e->m_prove_active, e->prove_active);
  cuzk_prom_set(e->m_mem_used, (double)e->mem_used);
  cuzk_prom_set(e->m_mem_budget, (double)e->mem_budget);
  cuzk_prom_set(e->m_input_used, (double)atomic_load(&e->input_used));
  cuzk_prom_set(e->m_input_budget, (double)e->input_budget);
  cuzk_prom_set(e->m_srs_bytes, (double)e->srs_bytes);
  cuzk_prom_set(e->m_warm_bytes, (double)e->warm_bytes);
  cuzk_prom_set(e->m_rss, rss);
  for (unsigned i = 0; i < e->n_srs; i++) {
    const char *v[1] = {e->srs[i].circ->id};
    cuzk_prom_set(cuzk_prom_series_get(e->f_srs_loaded, v), e->srs[i].set ? 1 : 0);
  }
  pthread_mutex_unlock(&e->mu);
  return cuzk_prom_render(e->prom, NULL);
}

/* ---- /status JSON ---------------------------------------------------------------------------- */

typedef struct {
  char *p;
  size_t len, cap;
  bool oom;
} sbuf;

__attribute__((format(printf, 2, 3))) static void put(sbuf *b, const char *fmt, ...) {
  if (b->oom) return;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    if (n < 0) {
      b->oom = true;
      return;
    }
    if ((size_t)n < b->cap - b->len) {
      b->len += (size_t)n;
      return;
    }
    size_t cap = (b->cap + (size_t)n + 1) * 2;
    char *q = realloc(b->p, cap);
    if (!q) {
      b->oom = true;
      return;
    }
    b->p = q;
    b->cap = cap;
  }
}

/* Job ids are generated here and request ids are not printed, so no string needs escaping
 * beyond these fixed identifiers. */
static const char *state_name(job_state s) {
  switch (s) {
  case JOB_QUEUED: return "queued";
  case JOB_PREPARING: return "preparing";
  case JOB_RUNNING: return "running";
  case JOB_FINISHING: return "verifying";
  case JOB_ENDED: return "ended";
  }
  return "?";
}

char *cuzk_engine_status_json(cuzk_engine *e) {
  if (!e) return NULL;
  sbuf b = {malloc(4096), 0, 4096, false};
  if (!b.p) return NULL;
  pthread_mutex_lock(&e->mu);
  double now = eng_now();
  uint64_t done = (uint64_t)cuzk_prom_value(e->m_completed_total),
           failed = (uint64_t)cuzk_prom_value(e->m_failed_total),
           cancelled = (uint64_t)cuzk_prom_value(e->m_cancelled_total);
  unsigned queued = 0;
  for (eng_job *j = e->active; j; j = j->anext)
    queued += j->state == JOB_QUEUED;
  put(&b, "{\"uptime_secs\":%llu,", (unsigned long long)(now - e->t_created));
  put(&b,
      "\"memory\":{\"budget_bytes\":%llu,\"used_bytes\":%llu,\"srs_bytes\":%llu,"
      "\"warm_bytes\":%llu,\"warm_budget_bytes\":%llu},",
      (unsigned long long)e->mem_budget, (unsigned long long)e->mem_used,
      (unsigned long long)e->srs_bytes, (unsigned long long)e->warm_bytes,
      (unsigned long long)e->warm_budget);
  put(&b, "\"synthesis\":{\"workers\":%u,\"active\":%u},", e->n_synth, e->synth_active);
  put(&b, "\"prove\":{\"workers\":%u,\"active\":%u,\"queued_partitions\":%u},", e->n_prove,
      e->prove_active, e->pq_len);
  put(&b, "\"pipelines\":[");
  bool first = true;
  for (eng_job *j = e->active; j; j = j->anext) {
    int part;
    cuzk_job_stage stage = eng_job_stage(j, &part);
    unsigned parts = j->part_state ? j->parts : 0; /* set without the lock before */
    char cur[16] = "null";
    if (part >= 0) snprintf(cur, sizeof cur, "%d", part);
    put(&b,
        "%s{\"job_id\":\"%s\",\"proof_kind\":\"%s\",\"priority\":%d,\"state\":\"%s\","
        "\"stage\":\"%s\",\"current_partition\":%s,\"submitted_secs_ago\":%.1f,"
        "\"total_partitions\":%u,\"partitions_dispatched\":%u,\"partitions_done\":%u,"
        "\"partitions\":[",
        first ? "" : ",", j->id, j->ops->label, (int)j->prio, state_name(j->state),
        cuzk_job_stage_name(stage), cur, now - j->t_submit, parts, j->next_part, j->proved);
    for (unsigned k = 0; k < parts; k++)
      put(&b, "%s{\"index\":%u,\"state\":\"%s\"}", k ? "," : "", k,
          eng_part_state_names[j->part_state[k]]);
    put(&b, "]}");
    first = false;
  }
  put(&b, "],\"allocations\":{\"srs\":[");
  for (unsigned i = 0; i < e->n_srs; i++) {
    const srs_set *s = &e->srs[i];
    put(&b,
        "%s{\"circuit_id\":\"%s\",\"loaded\":%s,\"tier\":\"%s\",\"bytes\":%llu,"
        "\"warm_file_bytes\":%llu,\"warm_resident_bytes\":%llu,\"refs\":%u,"
        "\"partition_bytes\":%llu,\"partition_bytes_measured\":%s}",
        i ? "," : "", s->circ->id, s->set ? "true" : "false", tier_names[eng_srs_tier(s)],
        (unsigned long long)s->bytes, (unsigned long long)s->warm.len,
        (unsigned long long)cuzk_file_map_resident(&s->warm), s->refs,
        (unsigned long long)s->part_bytes, s->part_measured ? "true" : "false");
  }
  put(&b,
      "]},\"counters\":{\"total_completed\":%llu,\"total_failed\":%llu,"
      "\"total_cancelled\":%llu,\"queue_depth\":%u}}\n",
      (unsigned long long)done, (unsigned long long)failed, (unsigned long long)cancelled, queued);
  pthread_mutex_unlock(&e->mu);
  if (b.oom) {
    free(b.p);
    return NULL;
  }
  return b.p;
}
