/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The C side of tests/server/test_proto_wire.py: serves cuzk.v1.ProvingEngine on the addresses
 * given as arguments with answers derived from what protobuf-c decoded, so that the Python
 * client can check both directions of every message. Prints "READY <port of each address>" once
 * listening and shuts down when stdin closes.
 *
 *   SubmitProof  -> job_id = request_id, queue_position = partition_index,
 *                   assigned_gpu = "kind=K prio=P"
 *   Prove        -> result: job_id = request_id, status COMPLETED, proof = vanilla_proof,
 *                   queue_wait_ms = sector_size, srs_load_ms = registered_proof,
 *                   synthesis_ms = sector_number, gpu_compute_ms = miner_id,
 *                   total_ms = partition_index, error_message = a summary of the other fields;
 *                   INVALID_ARGUMENT "missing submit field" without submit
 *   AwaitProof   -> job_id, status TIMEOUT if timeout_ms else UNKNOWN, total_ms = timeout_ms
 *   CancelProof  -> was_running = (job_id == "running")
 *   GetStatus    -> a fixed GetStatusResponse (two GPUs, one SRS, one queue, counters 7..11,
 *                   two jobs: cuzk's addition)
 *   GetMetrics   -> "cuzk_up 1\n"
 *   PreloadSRS   -> already_loaded = (circuit_id == "porep-32g"), load_time_ms = its length
 *   EvictSRS     -> was_loaded = true, freed_bytes = 1000 * its length
 */
#define _DEFAULT_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/v1/proving.pb-c.h"
#include "server/grpc_transport.h"

static void reply(cuzk_rpc_call *call, const ProtobufCMessage *m) {
  size_t n = protobuf_c_message_get_packed_size(m);
  uint8_t *buf = malloc(n ? n : 1);
  if (!buf) {
    cuzk_rpc_reply(call, CUZK_RPC_STATUS_RESOURCE_EXHAUSTED, "out of memory", NULL, 0);
    return;
  }
  protobuf_c_message_pack(m, buf);
  cuzk_rpc_reply_owned(call, CUZK_RPC_STATUS_OK, NULL, buf, n);
}

static void hex(char *out, ProtobufCBinaryData b) {
  for (size_t i = 0; i < b.len; i++)
    sprintf(out + 2 * i, "%02x", b.data[i]);
  out[2 * b.len] = '\0';
}

static void on_prove(cuzk_rpc_call *call, const Cuzk__V1__ProveRequest *pr) {
  const Cuzk__V1__SubmitProofRequest *r = pr->submit;
  if (!r) {
    cuzk_rpc_reply(call, CUZK_RPC_STATUS_INVALID_ARGUMENT, "missing submit field", NULL, 0);
    return;
  }
  /* kind, priority, the 32-byte fields in hex, and each vanilla_proofs element in hex. */
  size_t cap =
      256 + 2 * (r->randomness.len + r->comm_r_old.len + r->comm_r_new.len + r->comm_d_new.len);
  for (size_t i = 0; i < r->n_vanilla_proofs; i++)
    cap += 2 * r->vanilla_proofs[i].len + 1;
  char *sum = malloc(cap), *p = sum;
  p += sprintf(p, "kind=%d prio=%d rand=", (int)r->proof_kind, (int)r->priority);
  hex(p, r->randomness);
  p += strlen(p);
  p += sprintf(p, " r_old=");
  hex(p, r->comm_r_old);
  p += strlen(p);
  p += sprintf(p, " r_new=");
  hex(p, r->comm_r_new);
  p += strlen(p);
  p += sprintf(p, " d_new=");
  hex(p, r->comm_d_new);
  p += strlen(p);
  p += sprintf(p, " vps=");
  for (size_t i = 0; i < r->n_vanilla_proofs; i++) {
    if (i) *p++ = ',';
    hex(p, r->vanilla_proofs[i]);
    p += strlen(p);
  }
  Cuzk__V1__AwaitProofResponse a = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
  a.job_id = r->request_id;
  a.status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED;
  a.proof = r->vanilla_proof;
  a.error_message = sum;
  a.queue_wait_ms = r->sector_size;
  a.srs_load_ms = r->registered_proof;
  a.synthesis_ms = r->sector_number;
  a.gpu_compute_ms = r->miner_id;
  a.total_ms = r->partition_index;
  Cuzk__V1__ProveResponse resp = CUZK__V1__PROVE_RESPONSE__INIT;
  resp.result = &a;
  reply(call, &resp.base);
  free(sum);
}

static void on_status(cuzk_rpc_call *call) {
  Cuzk__V1__GPUStatus g0 = CUZK__V1__GPUSTATUS__INIT, g1 = CUZK__V1__GPUSTATUS__INIT;
  g0.ordinal = 0;
  g0.name = "gpu-a";
  g0.vram_total_bytes = 25769803776u;
  g0.vram_free_bytes = 1u << 30;
  g0.current_job_id = "job-1";
  g0.current_proof_kind = "porep-c2";
  g1.ordinal = 1;
  g1.name = "gpu-b";
  Cuzk__V1__GPUStatus *gpus[] = {&g0, &g1};
  Cuzk__V1__SRSStatus srs = CUZK__V1__SRSSTATUS__INIT;
  srs.circuit_id = "porep-32g";
  srs.tier = CUZK__V1__SRSSTATUS__TIER__COLD;
  srs.size_bytes = (uint64_t)1 << 35;
  srs.ref_count = 3;
  Cuzk__V1__SRSStatus *srss[] = {&srs};
  Cuzk__V1__QueueStatus q = CUZK__V1__QUEUE_STATUS__INIT;
  q.proof_kind = "window-post";
  q.pending = 2;
  q.in_progress = 1;
  Cuzk__V1__QueueStatus *qs[] = {&q};
  Cuzk__V1__JobStatus j0 = CUZK__V1__JOB_STATUS__INIT, j1 = CUZK__V1__JOB_STATUS__INIT;
  j0.job_id = "job-2";
  j0.proof_kind = "porep-c2";
  j0.priority = CUZK__V1__PRIORITY__HIGH;
  j0.stage = "proving";
  j0.total_partitions = 10;
  j0.partitions_done = 3;
  j0.current_partition = 4;
  j0.submitted_ms_ago = ((uint64_t)1 << 40) + 1;
  j1.job_id = "job-3";
  j1.proof_kind = "winning-post";
  j1.priority = CUZK__V1__PRIORITY__CRITICAL;
  j1.stage = "queued";
  j1.current_partition = -1;
  Cuzk__V1__JobStatus *jobs[] = {&j0, &j1};
  Cuzk__V1__GetStatusResponse r = CUZK__V1__GET_STATUS_RESPONSE__INIT;
  r.n_jobs = 2;
  r.jobs = jobs;
  r.n_gpus = 2;
  r.gpus = gpus;
  r.n_loaded_srs = 1;
  r.loaded_srs = srss;
  r.n_queues = 1;
  r.queues = qs;
  r.total_proofs_completed = 7;
  r.total_proofs_failed = 8;
  r.uptime_seconds = 9;
  r.pinned_memory_bytes = 10;
  r.pinned_memory_limit_bytes = 11;
  reply(call, &r.base);
}

/* Unpacks req as descriptor d, or answers INVALID_ARGUMENT and returns NULL. */
static ProtobufCMessage *unpack(cuzk_rpc_call *call, const ProtobufCMessageDescriptor *d,
                                const uint8_t *req, size_t len) {
  ProtobufCMessage *m = protobuf_c_message_unpack(d, NULL, len, req);
  if (!m) cuzk_rpc_reply(call, CUZK_RPC_STATUS_INVALID_ARGUMENT, "cannot decode", NULL, 0);
  return m;
}

static void handler(void *user, cuzk_rpc_call *call, unsigned method, const uint8_t *req,
                    size_t len) {
  (void)user;
  ProtobufCMessage *m = NULL;
  switch (method) {
  case CUZK_RPC_SUBMIT_PROOF:
    if ((m = unpack(call, &cuzk__v1__submit_proof_request__descriptor, req, len))) {
      Cuzk__V1__SubmitProofRequest *r = (Cuzk__V1__SubmitProofRequest *)m;
      char gpu[64];
      snprintf(gpu, sizeof gpu, "kind=%d prio=%d", (int)r->proof_kind, (int)r->priority);
      Cuzk__V1__SubmitProofResponse s = CUZK__V1__SUBMIT_PROOF_RESPONSE__INIT;
      s.job_id = r->request_id;
      s.queue_position = r->partition_index;
      s.assigned_gpu = gpu;
      reply(call, &s.base);
    }
    break;
  case CUZK_RPC_PROVE:
    if ((m = unpack(call, &cuzk__v1__prove_request__descriptor, req, len)))
      on_prove(call, (Cuzk__V1__ProveRequest *)m);
    break;
  case CUZK_RPC_AWAIT_PROOF:
    if ((m = unpack(call, &cuzk__v1__await_proof_request__descriptor, req, len))) {
      Cuzk__V1__AwaitProofRequest *r = (Cuzk__V1__AwaitProofRequest *)m;
      Cuzk__V1__AwaitProofResponse a = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
      a.job_id = r->job_id;
      a.status = r->timeout_ms ? CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__TIMEOUT
                               : CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__UNKNOWN;
      a.total_ms = r->timeout_ms;
      reply(call, &a.base);
    }
    break;
  case CUZK_RPC_CANCEL_PROOF:
    if ((m = unpack(call, &cuzk__v1__cancel_proof_request__descriptor, req, len))) {
      Cuzk__V1__CancelProofResponse c = CUZK__V1__CANCEL_PROOF_RESPONSE__INIT;
      c.was_running = strcmp(((Cuzk__V1__CancelProofRequest *)m)->job_id, "running") == 0;
      reply(call, &c.base);
    }
    break;
  case CUZK_RPC_GET_STATUS:
    if ((m = unpack(call, &cuzk__v1__get_status_request__descriptor, req, len))) on_status(call);
    break;
  case CUZK_RPC_GET_METRICS:
    if ((m = unpack(call, &cuzk__v1__get_metrics_request__descriptor, req, len))) {
      Cuzk__V1__GetMetricsResponse g = CUZK__V1__GET_METRICS_RESPONSE__INIT;
      g.prometheus_text = "cuzk_up 1\n";
      reply(call, &g.base);
    }
    break;
  case CUZK_RPC_PRELOAD_SRS:
    if ((m = unpack(call, &cuzk__v1__preload_srs_request__descriptor, req, len))) {
      const char *id = ((Cuzk__V1__PreloadSrsRequest *)m)->circuit_id;
      Cuzk__V1__PreloadSrsResponse p = CUZK__V1__PRELOAD_SRS_RESPONSE__INIT;
      p.already_loaded = strcmp(id, "porep-32g") == 0;
      p.load_time_ms = strlen(id);
      reply(call, &p.base);
    }
    break;
  case CUZK_RPC_EVICT_SRS:
    if ((m = unpack(call, &cuzk__v1__evict_srs_request__descriptor, req, len))) {
      Cuzk__V1__EvictSrsResponse e = CUZK__V1__EVICT_SRS_RESPONSE__INIT;
      e.was_loaded = true;
      e.freed_bytes = 1000 * strlen(((Cuzk__V1__EvictSrsRequest *)m)->circuit_id);
      reply(call, &e.base);
    }
    break;
  default: cuzk_rpc_reply(call, CUZK_RPC_STATUS_INTERNAL, "unexpected method", NULL, 0);
  }
  if (m) protobuf_c_message_free_unpacked(m, NULL);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s LISTEN_ADDRESS...\n", argv[0]);
    return 2;
  }
  cuzk_rpc_server_opts o = {
      .listen = (const char *const *)argv + 1,
      .n_listen = (size_t)argc - 1,
      .methods = cuzk_rpc_proving_engine_methods,
      .n_methods = CUZK_RPC_N_METHODS,
      .handler = handler,
  };
  cuzk_rpc_server *srv;
  char err[512];
  cuzk_rpc_err e = cuzk_rpc_server_start(&srv, &o, err, sizeof err);
  if (e) {
    fprintf(stderr, "rpc_wire_server: %s: %s\n", cuzk_rpc_strerror(e), err);
    return 1;
  }
  printf("READY");
  for (size_t i = 0; i < o.n_listen; i++)
    printf(" %d", cuzk_rpc_server_bound_port(srv, i));
  printf("\n");
  fflush(stdout);
  while (getchar() != EOF) {
  }
  cuzk_rpc_server_shutdown(srv, 2000);
  return 0;
}
