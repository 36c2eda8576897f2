/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * cuzk-bench status / preload / evict / metrics: the daemon's queries, with the reference
 * cuzk-bench's output (docs/spec/cuzk-interface.md §3.2), and the client options given before
 * the command name (`cuzk-bench -a ADDR status`):
 *   status                                      GetStatus
 *   preload -c CIRCUIT_ID                       PreloadSRS
 *   evict   -c CIRCUIT_ID                       EvictSRS
 *   metrics                                     GetMetrics (Prometheus text as is)
 * Exit codes: 0 the query answered, 1 otherwise, 2 usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "client_conn.h"
#include "cuzk/server/rpc.h"
#include "cuzk/server/version.h"
#include "cuzk/v1/proving.pb-c.h"

/* ---- status, preload, metrics ---------------------------------------------------------------
 */

/* The options of status and metrics; preload and evict also take -c/--circuit-id. */
static const int query_opts[] = {CONN_OPTS, 0};
static const int circuit_query_opts[] = {CONN_OPTS, O_CIRCUIT_ID, 0};

/* Parses a query command's options (the shared ones, plus -c for preload); -1 to go on, else the
 * exit code. */
static int parse_query(conn_opts *c, const char **circuit, uint64_t timeout_ms, int argc,
                       char **argv, const char *usage) {
  conn_init(c, timeout_ms);
  for (int i = 1; i < argc; i++) {
    const char *k = argv[i], *v = NULL;
    int id = cli_next_opt(circuit ? circuit_query_opts : query_opts, argc, argv, &i, &v);
    if (id == CLI_MISSING) return 2;
    if (id == O_HELP) {
      printf("%s%s", usage, conn_addr_help);
      return 0;
    }
    if (id <= 0)
      return cli_fail(2, "unknown option '%s' for %s (see 'cuzk-bench %s --help')", k, argv[0],
                      argv[0]);
    if (id == O_CIRCUIT_ID) {
      if (!*v) return cli_fail(2, "-c/--circuit-id: empty");
      *circuit = v;
    } else if (!conn_apply(c, id, v)) {
      return 2;
    }
  }
  if (circuit && !*circuit) return cli_fail(2, "-c/--circuit-id is required (e.g. porep-32g)");
  return -1;
}

/* An empty request's call; the response or NULL after the error message. */
static uint8_t *query(const conn_opts *c, unsigned method, const uint8_t *req, size_t len,
                      size_t *resp_len, const char *what) {
  uint8_t *resp = NULL;
  char why[1200];
  if (!conn_call(c, method, req, len, &resp, resp_len, NULL, why, sizeof why)) {
    cli_fail(1, "%s RPC failed: %s", what, why);
    return NULL;
  }
  if (!resp) resp = calloc(1, 1); /* the empty message */
  return resp;
}

int cmd_status(int argc, char **argv) {
  conn_opts c;
  int rc = parse_query(&c, NULL, 30000, argc, argv,
                       "usage: cuzk-bench status [options]\n"
                       "The daemon's GetStatus: its build (version, commit, compiler, CPU "
                       "kernels), uptime, proof counters, GPUs, loaded parameter "
                       "sets, queues, and each job queued or running: its stage (queued, "
                       "preparing, synthesizing, proving, waiting, verifying), the partition "
                       "worked on, partitions proven of the total.\n"
                       "(--timeout-ms defaults to 30000 here)\n");
  if (rc >= 0) return rc;
  size_t n = 0;
  uint8_t *resp = query(&c, CUZK_RPC_GET_STATUS, NULL, 0, &n, "GetStatus");
  if (!resp) return 1;
  Cuzk__V1__GetStatusResponse *r = cuzk__v1__get_status_response__unpack(NULL, n, resp);
  free(resp);
  if (!r) return cli_fail(1, "GetStatus: malformed response");
  printf("=== cuzk daemon status ===\n");
  if (r->build) { /* cuzk's addition: the line the daemon's --version prints */
    const Cuzk__V1__BuildInfo *w = r->build;
    cuzk_build_info b = {.version = w->version,
                         .commit = w->commit,
                         .dirty = w->dirty,
                         .compiler = w->compiler,
                         .adx = w->adx,
                         .ifma = w->ifma,
                         .sha_ni = w->sha_ni};
    char line[512];
    cuzk_build_info_line(&b, line, sizeof line);
    printf("build:            %s\n", line);
  }
  printf("uptime:           %llus\n", (unsigned long long)r->uptime_seconds);
  printf("proofs completed: %llu\n", (unsigned long long)r->total_proofs_completed);
  printf("proofs failed:    %llu\n", (unsigned long long)r->total_proofs_failed);
  printf("pinned memory:    %llu / %llu bytes\n", (unsigned long long)r->pinned_memory_bytes,
         (unsigned long long)r->pinned_memory_limit_bytes);
  if (r->n_gpus) printf("\nGPUs:\n");
  for (size_t i = 0; i < r->n_gpus; i++) {
    const Cuzk__V1__GPUStatus *g = r->gpus[i];
    printf("  [%u] %s — %llu MiB / %llu MiB VRAM — ", g->ordinal, g->name,
           (unsigned long long)(g->vram_free_bytes >> 20),
           (unsigned long long)(g->vram_total_bytes >> 20));
    if (!g->current_job_id[0])
      printf("idle\n");
    else
      printf("proving %s (%.8s)\n", g->current_proof_kind, g->current_job_id);
  }
  if (r->n_loaded_srs) printf("\nLoaded SRS:\n");
  for (size_t i = 0; i < r->n_loaded_srs; i++) {
    const Cuzk__V1__SRSStatus *s = r->loaded_srs[i];
    printf("  %s (tier=%d, size=%llu bytes, refs=%u)\n", s->circuit_id, (int)s->tier,
           (unsigned long long)s->size_bytes, s->ref_count);
  }
  if (r->n_queues) printf("\nQueues:\n");
  for (size_t i = 0; i < r->n_queues; i++)
    printf("  %s: pending=%u, in_progress=%u\n", r->queues[i]->proof_kind, r->queues[i]->pending,
           r->queues[i]->in_progress);
  /* cuzk's addition to GetStatus: one line per job, in scheduling order */
  if (r->n_jobs) printf("\nJobs:\n");
  for (size_t i = 0; i < r->n_jobs; i++) {
    const Cuzk__V1__JobStatus *j = r->jobs[i];
    static const char *const prios[] = {"?", "low", "normal", "high", "critical"};
    unsigned p = (unsigned)j->priority < 5 ? (unsigned)j->priority : 0;
    printf("  %s %s %s %s", j->job_id, j->proof_kind, prios[p], j->stage);
    if (j->current_partition >= 0) printf(" partition %d", j->current_partition);
    if (j->total_partitions) printf(", %u of %u proven", j->partitions_done, j->total_partitions);
    printf(", submitted %.1f s ago\n", (double)j->submitted_ms_ago / 1000.0);
  }
  fflush(stdout);
  cuzk__v1__get_status_response__free_unpacked(r, NULL);
  return 0;
}

/* A PreloadSRS/EvictSRS call after parsing the command's options: the request (circuit_id,
 * field 1, set in *m) packed and sent; the response, or NULL with *rc the exit code. */
static uint8_t *circuit_query(int argc, char **argv, uint64_t timeout_ms, const char *usage,
                              ProtobufCMessage *m, char **circuit_id, unsigned method,
                              const char *what, size_t *resp_len, int *rc) {
  conn_opts c;
  const char *id = NULL;
  if ((*rc = parse_query(&c, &id, timeout_ms, argc, argv, usage)) >= 0) return NULL;
  *circuit_id = (char *)id;
  uint8_t req[512];
  size_t len = protobuf_c_message_get_packed_size(m);
  if (len > sizeof req) {
    *rc = cli_fail(2, "-c/--circuit-id: too long");
    return NULL;
  }
  protobuf_c_message_pack(m, req);
  uint8_t *resp = query(&c, method, req, len, resp_len, what);
  *rc = 1;
  return resp;
}

int cmd_preload(int argc, char **argv) {
  Cuzk__V1__PreloadSrsRequest q = CUZK__V1__PRELOAD_SRS_REQUEST__INIT;
  size_t n = 0;
  int rc;
  uint8_t *resp = circuit_query(
      argc, argv, 0,
      "usage: cuzk-bench preload -c CIRCUIT_ID [options]\n"
      "The daemon's PreloadSRS: load a parameter set now (porep-2k, porep-8m, porep-512m,\n"
      "porep-32g, porep-64g).\n"
      "  -c, --circuit-id ID   the parameter set\n"
      "(no deadline unless --timeout-ms: 32 GiB parameters take minutes)\n",
      &q.base, &q.circuit_id, CUZK_RPC_PRELOAD_SRS, "PreloadSRS", &n, &rc);
  if (!resp) return rc;
  const char *id = q.circuit_id;
  Cuzk__V1__PreloadSrsResponse *r = cuzk__v1__preload_srs_response__unpack(NULL, n, resp);
  free(resp);
  if (!r) return cli_fail(1, "PreloadSRS: malformed response");
  if (r->already_loaded)
    printf("%s already loaded\n", id);
  else
    printf("%s loaded in %llu ms\n", id, (unsigned long long)r->load_time_ms);
  fflush(stdout);
  cuzk__v1__preload_srs_response__free_unpacked(r, NULL);
  return 0;
}

int cmd_evict(int argc, char **argv) {
  Cuzk__V1__EvictSrsRequest q = CUZK__V1__EVICT_SRS_REQUEST__INIT;
  size_t n = 0;
  int rc;
  uint8_t *resp = circuit_query(
      argc, argv, 30000,
      "usage: cuzk-bench evict -c CIRCUIT_ID [options]\n"
      "The daemon's EvictSRS: a parameter set no job is using leaves memory (it goes WARM,\n"
      "its file kept mapped, if the daemon's warm_budget allows, else COLD); a WARM set goes "
      "COLD.\n"
      "  -c, --circuit-id ID   the parameter set\n"
      "(--timeout-ms defaults to 30000 here)\n",
      &q.base, &q.circuit_id, CUZK_RPC_EVICT_SRS, "EvictSRS", &n, &rc);
  if (!resp) return rc;
  const char *id = q.circuit_id;
  Cuzk__V1__EvictSrsResponse *r = cuzk__v1__evict_srs_response__unpack(NULL, n, resp);
  free(resp);
  if (!r) return cli_fail(1, "EvictSRS: malformed response");
  if (r->was_loaded)
    printf("%s evicted, %llu bytes freed\n", id, (unsigned long long)r->freed_bytes);
  else
    printf("%s was not in memory (COLD, or WARM: now COLD) or is in use\n", id);
  fflush(stdout);
  cuzk__v1__evict_srs_response__free_unpacked(r, NULL);
  return 0;
}

int cmd_metrics(int argc, char **argv) {
  conn_opts c;
  int rc = parse_query(&c, NULL, 30000, argc, argv,
                       "usage: cuzk-bench metrics [options]\n"
                       "The daemon's GetMetrics: its Prometheus text, as is.\n"
                       "(--timeout-ms defaults to 30000 here)\n");
  if (rc >= 0) return rc;
  size_t n = 0;
  uint8_t *resp = query(&c, CUZK_RPC_GET_METRICS, NULL, 0, &n, "GetMetrics");
  if (!resp) return 1;
  Cuzk__V1__GetMetricsResponse *r = cuzk__v1__get_metrics_response__unpack(NULL, n, resp);
  free(resp);
  if (!r) return cli_fail(1, "GetMetrics: malformed response");
  fputs(r->prometheus_text, stdout);
  fflush(stdout);
  cuzk__v1__get_metrics_response__free_unpacked(r, NULL);
  return 0;
}

/* ---- options before the command name ---------------------------------------------------------
 */

bool cli_client_global_opt(const char *arg) {
  static const int global_opts[] = {O_ADDR, O_TIMEOUT, O_LOG_LEVEL, 0};
  return cli_is_opt(global_opts, arg);
}

int cmd_client_global(int argc, char **argv) {
  /* argv[0] is the program; the shared options come first, then the command: move them after */
  int i = 1;
  while (i < argc && cli_client_global_opt(argv[i]))
    i += strchr(argv[i], '=') ? 1 : 2;
  if (i >= argc)
    return cli_fail(2, "%s: no command follows (single, batch, status, preload, evict, metrics)",
                    argv[1]);
  static const struct {
    const char *name;
    int (*fn)(int, char **);
  } cmds[] = {{"single", cmd_single},   {"batch", cmd_batch}, {"status", cmd_status},
              {"preload", cmd_preload}, {"evict", cmd_evict}, {"metrics", cmd_metrics}};
  for (size_t k = 0; k < sizeof cmds / sizeof cmds[0]; k++) {
    if (strcmp(argv[i], cmds[k].name)) continue;
    char **v = calloc((size_t)argc + 1, sizeof *v);
    if (!v) return cli_fail(1, "out of memory");
    int n = 0;
    v[n++] = argv[i];
    for (int j = 1; j < i; j++) /* the shared options, then the command's own */
      v[n++] = argv[j];
    for (int j = i + 1; j < argc; j++)
      v[n++] = argv[j];
    int rc = cmds[k].fn(n, v);
    free(v);
    return rc;
  }
  return cli_fail(2,
                  "-a/--addr, --timeout-ms and --log-level go with the daemon's client "
                  "commands (single, batch, status, preload, evict, metrics), not '%s'",
                  argv[i]);
}
