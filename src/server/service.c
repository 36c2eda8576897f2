/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* cuzk.v1.ProvingEngine: requests decoded with protobuf-c, mapped onto the engine; see service.h.
 */
#include "server/service.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/server/version.h"
#include "cuzk/v1/proving.pb-c.h"

/* The engine's kinds and priorities are the proto's values (cuzk/kinds/kinds.h): the casts below
 * rely on it. tests/server/test_kinds_proto.c checks the names too. */
#define SAME_VALUE(ours, proto) _Static_assert((int)(ours) == (int)(proto), #ours " is " #proto)
SAME_VALUE(CUZK_KIND_UNSPECIFIED, CUZK__V1__PROOF_KIND__PROOF_KIND_UNSPECIFIED);
SAME_VALUE(CUZK_KIND_POREP_SEAL_COMMIT, CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT);
SAME_VALUE(CUZK_KIND_SNAP_DEALS_UPDATE, CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE);
SAME_VALUE(CUZK_KIND_WINDOW_POST_PARTITION, CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION);
SAME_VALUE(CUZK_KIND_WINNING_POST, CUZK__V1__PROOF_KIND__WINNING_POST);
SAME_VALUE(CUZK_PRIORITY_DEFAULT, CUZK__V1__PRIORITY__PRIORITY_UNSPECIFIED);
SAME_VALUE(CUZK_PRIORITY_LOW, CUZK__V1__PRIORITY__LOW);
SAME_VALUE(CUZK_PRIORITY_NORMAL, CUZK__V1__PRIORITY__NORMAL);
SAME_VALUE(CUZK_PRIORITY_HIGH, CUZK__V1__PRIORITY__HIGH);
SAME_VALUE(CUZK_PRIORITY_CRITICAL, CUZK__V1__PRIORITY__CRITICAL);

struct cuzk_service {
  cuzk_service_opts o;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  pthread_t admin;
  bool quit;
  struct admin_item {
    cuzk_rpc_call *call;
    char circuit_id[64];
    struct admin_item *next;
  } * admin_head, **admin_tail;
};

#define slog(s, lv, job, ...) cuzk_logf((s)->o.log, (s)->o.log_user, lv, job, __VA_ARGS__)

/* Packs msg and answers OK with it (or INTERNAL if memory ran out). */
static void reply_msg(cuzk_rpc_call *call, const ProtobufCMessage *msg) {
  size_t n = protobuf_c_message_get_packed_size(msg);
  uint8_t *buf = malloc(n ? n : 1);
  if (!buf) {
    cuzk_rpc_reply(call, CUZK_RPC_STATUS_INTERNAL, "out of memory", NULL, 0);
    return;
  }
  protobuf_c_message_pack(msg, buf);
  cuzk_rpc_reply_owned(call, CUZK_RPC_STATUS_OK, NULL, buf, n);
}

static void reply_error(cuzk_rpc_call *call, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void reply_error(cuzk_rpc_call *call, int status, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  cuzk_rpc_reply(call, status, msg, NULL, 0);
}

/* ---- submission ------------------------------------------------------------------------------ */

/* Submits r; on success job_id is set, else the call has been answered. */
static bool submit(cuzk_service *s, cuzk_rpc_call *call, const Cuzk__V1__SubmitProofRequest *r,
                   char job_id[CUZK_JOB_ID_LEN], uint32_t *pos) {
  cuzk_job_request j;
  memset(&j, 0, sizeof j);
  j.request_id = r->request_id;
  j.kind = (cuzk_proof_kind)r->proof_kind;
  j.priority = (cuzk_priority)r->priority;
  j.sector_size = r->sector_size;
  j.registered_proof = r->registered_proof;
  j.vanilla_proof = r->vanilla_proof.data;
  j.vanilla_proof_len = r->vanilla_proof.len;
  j.sector_number = r->sector_number;
  j.miner_id = r->miner_id;
  j.randomness = r->randomness.data;
  j.randomness_len = r->randomness.len;
  j.partition_index = r->partition_index;
  j.comm_r_old = r->comm_r_old.data;
  j.comm_r_old_len = r->comm_r_old.len;
  j.comm_r_new = r->comm_r_new.data;
  j.comm_r_new_len = r->comm_r_new.len;
  j.comm_d_new = r->comm_d_new.data;
  j.comm_d_new_len = r->comm_d_new.len;
  /* the engine copies the pieces; these arrays only point at the message's */
  const uint8_t **pieces = NULL;
  size_t *lens = NULL;
  if (r->n_vanilla_proofs) {
    pieces = malloc(r->n_vanilla_proofs * sizeof *pieces);
    lens = malloc(r->n_vanilla_proofs * sizeof *lens);
    if (!pieces || !lens) {
      free(pieces);
      free(lens);
      reply_error(call, CUZK_RPC_STATUS_RESOURCE_EXHAUSTED, "out of memory for %zu vanilla proofs",
                  r->n_vanilla_proofs);
      return false;
    }
    for (size_t i = 0; i < r->n_vanilla_proofs; i++) {
      pieces[i] = r->vanilla_proofs[i].data;
      lens[i] = r->vanilla_proofs[i].len;
    }
  }
  j.vanilla_proofs = pieces;
  j.vanilla_proofs_len = lens;
  j.n_vanilla_proofs = r->n_vanilla_proofs;
  char msg[256] = "";
  cuzk_engine_err e = cuzk_engine_submit(s->o.engine, &j, job_id, pos, msg, sizeof msg);
  free(pieces);
  free(lens);
  if (e == CUZK_ENGINE_OK) return true;
  int status = e == CUZK_ENGINE_EINVAL      ? CUZK_RPC_STATUS_INVALID_ARGUMENT
               : e == CUZK_ENGINE_ESHUTDOWN ? CUZK_RPC_STATUS_UNAVAILABLE
               : e == CUZK_ENGINE_EBUSY     ? CUZK_RPC_STATUS_RESOURCE_EXHAUSTED
                                            : CUZK_RPC_STATUS_INTERNAL;
  reply_error(call, status, "%s", msg[0] ? msg : cuzk_engine_strerror(e));
  return false;
}

/* ---- bounds before decoding -------------------------------------------------------------------
 * protobuf-c unpacks a message whole: for every element of a repeated field it records where the
 * element lies, then fills an array entry, before the service sees any of it. A list of millions of
 * empty elements (2 bytes each on the wire) would so cost tens of bytes each in the daemon before
 * the engine could refuse it. The wire bytes are therefore walked first — a loop over the fields'
 * keys and lengths, nothing allocated — and a list longer than its kind can use is refused at
 * once (docs/server.md "The service"). The walk only counts; protobuf-c still judges the message,
 * and the engine checks the decoded list again (cuzk_engine_check_vanilla_count). */
typedef struct {
  uint64_t kind, proof; /* proof_kind (2), registered_proof (4): the last value on the wire */
  size_t n_list;        /* elements of vanilla_proofs (11) */
} wire_scan;

static bool wire_varint(const uint8_t **p, const uint8_t *end, uint64_t *v) {
  uint64_t x = 0;
  for (unsigned shift = 0; shift < 64 && *p < end; shift += 7) {
    uint8_t b = *(*p)++;
    x |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *v = x;
      return true;
    }
  }
  return false;
}

/* The fields of one message in [p, end): a SubmitProofRequest's, or (prove) a ProveRequest's,
 * whose field 1 is walked as a SubmitProofRequest. false if the bytes are not a message. */
static bool scan_fields(const uint8_t *p, const uint8_t *end, bool prove, wire_scan *w) {
  while (p < end) {
    uint64_t key, v;
    if (!wire_varint(&p, end, &key)) return false;
    uint64_t field = key >> 3;
    switch (key & 7) {
    case 0: /* varint */
      if (!wire_varint(&p, end, &v)) return false;
      if (!prove && field == 2) w->kind = v;
      if (!prove && field == 4) w->proof = v;
      break;
    case 1: /* 64-bit */
      if (end - p < 8) return false;
      p += 8;
      break;
    case 5: /* 32-bit */
      if (end - p < 4) return false;
      p += 4;
      break;
    case 2: /* length-delimited */
      if (!wire_varint(&p, end, &v) || v > (uint64_t)(end - p)) return false;
      if (prove && field == 1 && !scan_fields(p, p + v, false, w)) return false;
      if (!prove && field == 11) w->n_list++;
      p += v;
      break;
    default: return false; /* groups: left to protobuf-c */
    }
  }
  return true;
}

/* true if the call was answered: the request's vanilla_proofs are more than its kind can use. */
static bool refuse_long_list(cuzk_rpc_call *call, const uint8_t *req, size_t len, bool prove) {
  wire_scan w = {0, 0, 0};
  if (!scan_fields(req, req + len, prove, &w)) return false; /* protobuf-c will refuse it */
  /* a value no kind has is checked by nothing here: submit refuses it */
  cuzk_proof_kind k =
      w.kind < CUZK_NUM_PROOF_KINDS ? (cuzk_proof_kind)w.kind : CUZK_KIND_UNSPECIFIED;
  char msg[256];
  if (!cuzk_engine_check_vanilla_count(k, w.proof, w.n_list, msg, sizeof msg)) return false;
  reply_error(call, CUZK_RPC_STATUS_INVALID_ARGUMENT, "%s", msg);
  return true;
}

/* ---- waiting (Prove, AwaitProof) --------------------------------------------------------------
 */

typedef struct {
  cuzk_service *svc;
  cuzk_rpc_call *call;
  bool prove; /* answer ProveResponse (else AwaitProofResponse) */
  char job_id[CUZK_JOB_ID_LEN];
} waiter;

static void fill_result(Cuzk__V1__AwaitProofResponse *m, const cuzk_job_result *r) {
  m->job_id = (char *)r->job_id;
  m->status = (Cuzk__V1__AwaitProofResponse__Status)r->status;
  m->proof.data = r->proof;
  m->proof.len = r->status == CUZK_JOB_COMPLETED ? r->proof_len : 0;
  m->error_message = (char *)r->error;
  if (r->status == CUZK_JOB_COMPLETED) {
    m->queue_wait_ms = r->queue_wait_ms;
    m->srs_load_ms = r->srs_load_ms;
    m->synthesis_ms = r->synthesis_ms;
    m->gpu_compute_ms = r->prove_ms;
    m->total_ms = r->total_ms;
    m->batch_wait_ms = r->batch_wait_ms;
  }
}

/* The engine's completion callback: the answer (the transport frees a call already cancelled). */
static void on_done(void *user, const cuzk_job_result *r) {
  waiter *w = user;
  Cuzk__V1__AwaitProofResponse res = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
  fill_result(&res, r);
  if (w->prove) {
    Cuzk__V1__ProveResponse pr = CUZK__V1__PROVE_RESPONSE__INIT;
    pr.result = &res;
    reply_msg(w->call, &pr.base);
  } else {
    reply_msg(w->call, &res.base);
  }
  free(w); /* reply returned: the cancel callback is not running and will not run */
}

/* The caller went away before the answer (cancel, disconnect, deadline). */
static void on_gone(void *user) {
  waiter *w = user;
  if (w->prove && w->svc->o.cancel_on_disconnect) {
    slog(w->svc, CUZK_LOG_INFO, w->job_id, "the Prove caller is gone: cancelling its job");
    cuzk_engine_cancel(w->svc->o.engine, w->job_id, NULL);
  } else if (w->prove) {
    slog(w->svc, CUZK_LOG_INFO, w->job_id, "the Prove caller is gone: the job goes on");
  }
}

static void wait_for(cuzk_service *s, cuzk_rpc_call *call, const char *job_id, bool prove,
                     uint64_t timeout_ms) {
  waiter *w = calloc(1, sizeof *w);
  if (!w) {
    cuzk_rpc_reply(call, CUZK_RPC_STATUS_INTERNAL, "out of memory", NULL, 0);
    return;
  }
  w->svc = s;
  w->call = call;
  w->prove = prove;
  snprintf(w->job_id, sizeof w->job_id, "%s", job_id);
  cuzk_rpc_call_on_cancel(call, on_gone, w); /* before the watch: it may answer at once */
  cuzk_engine_err e = cuzk_engine_watch(s->o.engine, job_id, timeout_ms, on_done, w, NULL);
  if (e == CUZK_ENGINE_OK) return; /* w now belongs to on_done */
  if (e == CUZK_ENGINE_ENOTFOUND)
    reply_error(call, CUZK_RPC_STATUS_NOT_FOUND, "job not found: %s", w->job_id);
  else
    reply_error(call, CUZK_RPC_STATUS_INTERNAL, "%s", cuzk_engine_strerror(e));
  free(w); /* after the reply: on_gone may have been reading it until then */
}

/* ---- the RPCs ---------------------------------------------------------------------------------
 */

static void rpc_submit(cuzk_service *s, cuzk_rpc_call *call, const uint8_t *req, size_t len) {
  if (refuse_long_list(call, req, len, false)) return;
  Cuzk__V1__SubmitProofRequest *r = cuzk__v1__submit_proof_request__unpack(NULL, len, req);
  if (!r) {
    reply_error(call, CUZK_RPC_STATUS_INVALID_ARGUMENT, "SubmitProofRequest: malformed message");
    return;
  }
  char id[CUZK_JOB_ID_LEN];
  uint32_t pos = 0;
  if (submit(s, call, r, id, &pos)) {
    Cuzk__V1__SubmitProofResponse res = CUZK__V1__SUBMIT_PROOF_RESPONSE__INIT;
    res.job_id = id;
    res.queue_position = pos;
    reply_msg(call, &res.base);
  }
  cuzk__v1__submit_proof_request__free_unpacked(r, NULL);
}

static void rpc_prove(cuzk_service *s, cuzk_rpc_call *call, const uint8_t *req, size_t len) {
  if (refuse_long_list(call, req, len, true)) return;
  Cuzk__V1__ProveRequest *r = cuzk__v1__prove_request__unpack(NULL, len, req);
  if (!r) {
    reply_error(call, CUZK_RPC_STATUS_INVALID_ARGUMENT, "ProveRequest: malformed message");
    return;
  }
  char id[CUZK_JOB_ID_LEN];
  if (!r->submit)
    reply_error(call, CUZK_RPC_STATUS_INVALID_ARGUMENT, "missing submit field");
  else if (submit(s, call, r->submit, id, NULL))
    wait_for(s, call, id, true, 0);
  cuzk__v1__prove_request__free_unpacked(r, NULL);
}

static void rpc_await(cuzk_service *s, cuzk_rpc_call *call, const uint8_t *req, size_t len) {
  Cuzk__V1__AwaitProofRequest *r = cuzk__v1__await_proof_request__unpack(NULL, len, req);
  if (!r) {
    reply_error(call, CUZK_RPC_STATUS_INVALID_ARGUMENT, "AwaitProofRequest: malformed message");
    return;
  }
  wait_for(s, call, r->job_id, false, r->timeout_ms);
  cuzk__v1__await_proof_request__free_unpacked(r, NULL);
}

static void rpc_cancel(cuzk_service *s, cuzk_rpc_call *call, const uint8_t *req, size_t len) {
  Cuzk__V1__CancelProofRequest *r = cuzk__v1__cancel_proof_request__unpack(NULL, len, req);
  if (!r) {
    reply_error(call, CUZK_RPC_STATUS_INVALID_ARGUMENT, "CancelProofRequest: malformed message");
    return;
  }
  bool was = false;
  cuzk_engine_err e = cuzk_engine_cancel(s->o.engine, r->job_id, &was);
  if (e == CUZK_ENGINE_ENOTFOUND) {
    reply_error(call, CUZK_RPC_STATUS_NOT_FOUND, "job not found: %s", r->job_id);
  } else {
    Cuzk__V1__CancelProofResponse res = CUZK__V1__CANCEL_PROOF_RESPONSE__INIT;
    res.was_running = was;
    reply_msg(call, &res.base);
  }
  cuzk__v1__cancel_proof_request__free_unpacked(r, NULL);
}

static void rpc_status(cuzk_service *s, cuzk_rpc_call *call) {
  cuzk_engine_status st;
  if (cuzk_engine_get_status(s->o.engine, &st)) {
    cuzk_rpc_reply(call, CUZK_RPC_STATUS_INTERNAL, "out of memory", NULL, 0);
    return;
  }
  Cuzk__V1__GetStatusResponse res = CUZK__V1__GET_STATUS_RESPONSE__INIT;
  Cuzk__V1__SRSStatus *srs = calloc(st.n_srs ? st.n_srs : 1, sizeof *srs);
  Cuzk__V1__SRSStatus **srs_p = calloc(st.n_srs ? st.n_srs : 1, sizeof *srs_p);
  Cuzk__V1__JobStatus *jobs = calloc(st.n_jobs ? st.n_jobs : 1, sizeof *jobs);
  Cuzk__V1__JobStatus **jobs_p = calloc(st.n_jobs ? st.n_jobs : 1, sizeof *jobs_p);
  if (!srs || !srs_p || !jobs || !jobs_p) {
    free(srs);
    free(srs_p);
    free(jobs);
    free(jobs_p);
    cuzk_engine_status_free(&st);
    cuzk_rpc_reply(call, CUZK_RPC_STATUS_INTERNAL, "out of memory", NULL, 0);
    return;
  }
  Cuzk__V1__QueueStatus q[CUZK_NUM_PROOF_KINDS], *q_p[CUZK_NUM_PROOF_KINDS];
  for (size_t i = 0; i < st.n_srs; i++) {
    Cuzk__V1__SRSStatus x = CUZK__V1__SRSSTATUS__INIT;
    x.circuit_id = st.srs[i].circuit_id;
    x.tier = (Cuzk__V1__SRSStatus__Tier)st.srs[i].tier;
    x.size_bytes = st.srs[i].bytes;
    x.ref_count = st.srs[i].refs;
    srs[i] = x;
    srs_p[res.n_loaded_srs++] = &srs[i];
  }
  res.loaded_srs = srs_p;
  /* the reference's display names (cuzk_kind.wire); a kind is listed while it has queued or
   * running jobs */
  const cuzk_kind *kind;
  for (size_t i = 0; (kind = cuzk_kind_at(i)); i++) {
    if (!st.pending[kind->id] && !st.running[kind->id]) continue;
    Cuzk__V1__QueueStatus x = CUZK__V1__QUEUE_STATUS__INIT;
    x.proof_kind = (char *)kind->wire;
    x.pending = st.pending[kind->id];
    x.in_progress = st.running[kind->id];
    q[res.n_queues] = x;
    q_p[res.n_queues] = &q[res.n_queues];
    res.n_queues++;
  }
  res.queues = q_p;
  for (size_t i = 0; i < st.n_jobs; i++) {
    const cuzk_job_info *j = &st.jobs[i];
    Cuzk__V1__JobStatus x = CUZK__V1__JOB_STATUS__INIT;
    x.job_id = (char *)j->job_id;
    kind = cuzk_kind_of(j->kind);
    x.proof_kind = (char *)(kind ? kind->wire : "");
    x.priority = (Cuzk__V1__Priority)j->priority;
    x.stage = (char *)cuzk_job_stage_name(j->stage);
    x.total_partitions = j->partitions;
    x.partitions_done = j->partitions_done;
    x.current_partition = j->partition;
    x.submitted_ms_ago = j->submitted_ms_ago;
    jobs[i] = x;
    jobs_p[res.n_jobs++] = &jobs[i];
  }
  res.jobs = jobs_p;
  res.total_proofs_completed = st.completed;
  res.total_proofs_failed = st.failed;
  res.uptime_seconds = st.uptime_s;
  /* cuzk's addition: the build answering (docs/deployment.md "Which build answers") */
  cuzk_build_info b;
  cuzk_build_info_get(&b);
  Cuzk__V1__BuildInfo build = CUZK__V1__BUILD_INFO__INIT;
  build.version = (char *)b.version;
  build.commit = (char *)b.commit;
  build.dirty = b.dirty;
  build.compiler = (char *)b.compiler;
  build.adx = b.adx;
  build.ifma = b.ifma;
  build.sha_ni = b.sha_ni;
  res.build = &build;
  reply_msg(call, &res.base);
  free(srs);
  free(srs_p);
  free(jobs);
  free(jobs_p);
  cuzk_engine_status_free(&st);
}

static void rpc_metrics(cuzk_service *s, cuzk_rpc_call *call) {
  char *text = cuzk_engine_metrics_text(s->o.engine);
  if (!text) {
    cuzk_rpc_reply(call, CUZK_RPC_STATUS_INTERNAL, "out of memory", NULL, 0);
    return;
  }
  Cuzk__V1__GetMetricsResponse res = CUZK__V1__GET_METRICS_RESPONSE__INIT;
  res.prometheus_text = text;
  reply_msg(call, &res.base);
  free(text);
}

static void rpc_evict(cuzk_service *s, cuzk_rpc_call *call, const uint8_t *req, size_t len) {
  Cuzk__V1__EvictSrsRequest *r = cuzk__v1__evict_srs_request__unpack(NULL, len, req);
  if (!r) {
    reply_error(call, CUZK_RPC_STATUS_INVALID_ARGUMENT, "EvictSrsRequest: malformed message");
    return;
  }
  bool was = false;
  uint64_t freed = 0;
  if (cuzk_engine_evict(s->o.engine, r->circuit_id, &was, &freed) == CUZK_ENGINE_ENOTFOUND) {
    reply_error(call, CUZK_RPC_STATUS_NOT_FOUND, "unknown circuit id: %s", r->circuit_id);
  } else {
    Cuzk__V1__EvictSrsResponse res = CUZK__V1__EVICT_SRS_RESPONSE__INIT;
    res.was_loaded = was;
    res.freed_bytes = freed;
    reply_msg(call, &res.base);
  }
  cuzk__v1__evict_srs_request__free_unpacked(r, NULL);
}

/* PreloadSRS may read gigabytes: queued for the admin thread. */
static void rpc_preload(cuzk_service *s, cuzk_rpc_call *call, const uint8_t *req, size_t len) {
  Cuzk__V1__PreloadSrsRequest *r = cuzk__v1__preload_srs_request__unpack(NULL, len, req);
  if (!r) {
    reply_error(call, CUZK_RPC_STATUS_INVALID_ARGUMENT, "PreloadSrsRequest: malformed message");
    return;
  }
  struct admin_item *it = calloc(1, sizeof *it);
  if (!it) {
    cuzk_rpc_reply(call, CUZK_RPC_STATUS_INTERNAL, "out of memory", NULL, 0);
  } else {
    it->call = call;
    snprintf(it->circuit_id, sizeof it->circuit_id, "%s", r->circuit_id);
    pthread_mutex_lock(&s->mu);
    *s->admin_tail = it;
    s->admin_tail = &it->next;
    pthread_cond_signal(&s->cv);
    pthread_mutex_unlock(&s->mu);
  }
  cuzk__v1__preload_srs_request__free_unpacked(r, NULL);
}

static void preload(cuzk_service *s, struct admin_item *it) {
  bool already = false;
  uint64_t ms = 0;
  char msg[512] = "";
  cuzk_engine_err e =
      cuzk_engine_preload(s->o.engine, it->circuit_id, &already, &ms, msg, sizeof msg);
  if (e == CUZK_ENGINE_ENOTFOUND) {
    reply_error(it->call, CUZK_RPC_STATUS_NOT_FOUND, "%s", msg);
  } else if (e) {
    reply_error(it->call, CUZK_RPC_STATUS_FAILED_PRECONDITION, "%s",
                msg[0] ? msg : cuzk_engine_strerror(e));
  } else {
    Cuzk__V1__PreloadSrsResponse res = CUZK__V1__PRELOAD_SRS_RESPONSE__INIT;
    res.already_loaded = already;
    res.load_time_ms = ms;
    reply_msg(it->call, &res.base);
  }
}

static void *admin_main(void *arg) {
  cuzk_service *s = arg;
  pthread_mutex_lock(&s->mu);
  for (;;) {
    while (!s->admin_head && !s->quit)
      pthread_cond_wait(&s->cv, &s->mu);
    if (!s->admin_head) break;
    struct admin_item *it = s->admin_head;
    s->admin_head = it->next;
    if (!s->admin_head) s->admin_tail = &s->admin_head;
    bool quit = s->quit;
    pthread_mutex_unlock(&s->mu);
    if (quit)
      cuzk_rpc_reply(it->call, CUZK_RPC_STATUS_UNAVAILABLE, "the daemon is shutting down", NULL, 0);
    else
      preload(s, it);
    free(it);
    pthread_mutex_lock(&s->mu);
  }
  pthread_mutex_unlock(&s->mu);
  return NULL;
}

void cuzk_service_handle(void *user, cuzk_rpc_call *call, unsigned method, const uint8_t *req,
                         size_t len) {
  cuzk_service *s = user;
  switch (method) {
  case CUZK_RPC_SUBMIT_PROOF: rpc_submit(s, call, req, len); return;
  case CUZK_RPC_AWAIT_PROOF: rpc_await(s, call, req, len); return;
  case CUZK_RPC_PROVE: rpc_prove(s, call, req, len); return;
  case CUZK_RPC_CANCEL_PROOF: rpc_cancel(s, call, req, len); return;
  case CUZK_RPC_GET_STATUS: rpc_status(s, call); return;
  case CUZK_RPC_GET_METRICS: rpc_metrics(s, call); return;
  case CUZK_RPC_PRELOAD_SRS: rpc_preload(s, call, req, len); return;
  case CUZK_RPC_EVICT_SRS: rpc_evict(s, call, req, len); return;
  }
  cuzk_rpc_reply(call, CUZK_RPC_STATUS_UNIMPLEMENTED, "unknown method", NULL, 0);
}

cuzk_service *cuzk_service_create(const cuzk_service_opts *o) {
  cuzk_service *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->o = *o;
  s->admin_tail = &s->admin_head;
  if (pthread_mutex_init(&s->mu, NULL) || pthread_cond_init(&s->cv, NULL) ||
      pthread_create(&s->admin, NULL, admin_main, s)) {
    free(s);
    return NULL;
  }
  return s;
}

void cuzk_service_destroy(cuzk_service *s) {
  if (!s) return;
  pthread_mutex_lock(&s->mu);
  s->quit = true;
  pthread_cond_signal(&s->cv);
  pthread_mutex_unlock(&s->mu);
  pthread_join(s->admin, NULL);
  pthread_mutex_destroy(&s->mu);
  pthread_cond_destroy(&s->cv);
  free(s);
}
