/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The daemon assembled (include/cuzk/server/server.h): the configuration (config.c) mapped onto the
 * engine, the service (service.c) on the gRPC transport (grpc_transport.c), the HTTP status
 * server (http_status.c), and their orderly start and stop.
 */
#define _POSIX_C_SOURCE 200809L
#include "cuzk/server/server.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/server/version.h"
#include "cuzk/util/errmsg.h"
#include "server/config.h"
#include "server/grpc_transport.h"
#include "server/http_status.h"
#include "server/service.h"

struct cuzk_daemon {
  cuzk_daemon_config cfg;
  cuzk_config_warnings warn;
  cuzk_log_fn log;
  void *log_user;
  cuzk_engine *engine;
  cuzk_service *svc;
  cuzk_rpc_server *srv;
  cuzk_http_server *http;
};

#define dlog(d, lv, ...) cuzk_logf((d)->log, (d)->log_user, lv, NULL, __VA_ARGS__)

/* ---- configuration --------------------------------------------------------------------------- */

cuzk_daemon_args cuzk_daemon_configure(cuzk_daemon **out, int argc, char *const argv[], char *msg,
                                       size_t msg_len) {
  *out = NULL;
  cuzk_daemon *d = calloc(1, sizeof *d);
  if (!d) return CUZK_FAIL(msg, msg_len, CUZK_DAEMON_ARGS_ERROR, "out of memory");
  char err[CUZK_CONFIG_ERR_LEN];
  switch (cuzk_config_from_args(&d->cfg, argc, argv, &d->warn, err)) {
  case CUZK_CONFIG_ARGS_HELP: free(d); return CUZK_DAEMON_ARGS_HELP;
  case CUZK_CONFIG_ARGS_VERSION: free(d); return CUZK_DAEMON_ARGS_VERSION;
  case CUZK_CONFIG_ARGS_ERROR:
    free(d);
    return CUZK_FAIL(msg, msg_len, CUZK_DAEMON_ARGS_ERROR, "%s", err);
  case CUZK_CONFIG_ARGS_OK: break;
  }
  *out = d;
  return CUZK_DAEMON_ARGS_OK;
}

const char *cuzk_daemon_usage(void) { return cuzk_config_usage(); }

cuzk_log_level cuzk_daemon_log_level(const cuzk_daemon *d) {
  cuzk_cfg_level l = d->cfg.log_level;
  return l <= CUZK_CFG_DEBUG  ? CUZK_LOG_DEBUG
         : l == CUZK_CFG_INFO ? CUZK_LOG_INFO
         : l == CUZK_CFG_WARN ? CUZK_LOG_WARN
                              : CUZK_LOG_ERROR;
}

bool cuzk_daemon_log_json(const cuzk_daemon *d) { return d->cfg.log_format == CUZK_LOG_JSON; }

/* The engine's configuration from the daemon's: 0 (auto) workers and queues become 1, the
 * partition budget defaults to what the total leaves after the margin and the SRS. */
static void engine_config(cuzk_engine_config *ec, const cuzk_daemon *d) {
  const cuzk_daemon_config *cfg = &d->cfg;
  cuzk_engine_config_default(ec);
  ec->threads = cfg->threads;
  ec->precompiled = !cfg->synthesis_prove_mode;
  ec->read_in_place = (cuzk_engine_in_place)cfg->read_in_place;
  ec->pce_file = cfg->pce_file;
  ec->synthesis_workers = cfg->synthesis_workers ? cfg->synthesis_workers : 1;
  ec->prove_workers = cfg->prove_workers ? cfg->prove_workers : 1;
  ec->prove_queue = cfg->queue_depth ? cfg->queue_depth : 1;
  ec->memory_budget = cfg->partition_budget;
  if (!ec->memory_budget && cfg->total_budget > cfg->safety_margin + cfg->srs_budget)
    ec->memory_budget = cfg->total_budget - cfg->safety_margin - cfg->srs_budget;
  ec->srs_budget = cfg->srs_budget;
  ec->idle_release_ms = (unsigned)cfg->idle_release_ms; /* at most 7 days */
  ec->warm_budget =
      cfg->warm_budget == CUZK_CONFIG_WARM_AUTO ? CUZK_ENGINE_WARM_AUTO : cfg->warm_budget;
  ec->param_cache = cfg->param_cache;
  ec->generate_test_params = cfg->generate_test_params;
  ec->test_params_dir = cfg->test_params_dir;
  ec->test_deterministic_seed = cfg->test_deterministic_seed;
  ec->allow_synthetic = cfg->allow_synthetic_inputs;
  ec->batch_max = cfg->max_batch_size ? cfg->max_batch_size : 1;
  ec->batch_wait_ms = (unsigned)cfg->max_batch_wait_ms; /* <= CUZK_ENGINE_MAX_BATCH_WAIT_MS */
  /* admission (docs/engine.md "Admission"); 0 = the engine's defaults */
  ec->queue_max = cfg->max_queued_jobs;
  ec->input_budget = cfg->max_queued_bytes;
  ec->result_max = cfg->max_results;
  ec->log = d->log;
  ec->log_user = d->log_user;
  ec->log_level = cuzk_daemon_log_level(d);
}

/* ---- start and stop -------------------------------------------------------------------------- */

/* cuzk_build_info: the build as labels on a constant 1, the Prometheus way of exporting what runs
 * (docs/metrics.md), in the engine's registry so that /metrics and GetMetrics both carry it. */
static const char *const build_labels[] = {"version", "commit", "compiler", "kernels"};

static bool register_build_info(cuzk_engine *e) {
  cuzk_build_info b;
  cuzk_build_info_get(&b);
  char commit[64], kernels[32];
  cuzk_build_commit(&b, commit, sizeof commit);
  cuzk_build_kernels(&b, kernels, sizeof kernels);
  cuzk_prom_metric *m = NULL;
  if (cuzk_prom_register(cuzk_engine_prom(e), CUZK_PROM_GAUGE, "cuzk_build_info",
                         "The daemon's build: version, git commit (-dirty when tracked files "
                         "differed), compiler and the CPU kernels in use; always 1",
                         build_labels, sizeof build_labels / sizeof *build_labels, NULL, 0, &m))
    return false;
  const char *values[sizeof build_labels / sizeof *build_labels] = {b.version, commit, b.compiler,
                                                                    kernels};
  cuzk_prom_series *s = cuzk_prom_series_get(m, values);
  cuzk_prom_set(s, 1);
  return s != NULL;
}

static char *http_metrics(void *ctx, size_t *len) {
  char *t = cuzk_engine_metrics_text(ctx);
  if (t) *len = strlen(t);
  return t;
}

static char *http_status(void *ctx, size_t *len) {
  char *t = cuzk_engine_status_json(ctx);
  if (t) *len = strlen(t);
  return t;
}

/* Stops and frees what runs: the transport (in-flight calls get grace_ms), the service, the HTTP
 * server, the engine. */
static void teardown(cuzk_daemon *d, unsigned grace_ms) {
  if (d->srv) cuzk_rpc_server_shutdown(d->srv, grace_ms);
  cuzk_service_destroy(d->svc);
  cuzk_http_stop(d->http);
  cuzk_engine_destroy(d->engine);
  d->srv = NULL;
  d->svc = NULL;
  d->http = NULL;
  d->engine = NULL;
}

bool cuzk_daemon_start(cuzk_daemon *d, cuzk_log_fn log, void *log_user, char *msg, size_t msg_len) {
  const cuzk_daemon_config *cfg = &d->cfg;
  d->log = log;
  d->log_user = log_user;
  /* first, so that every log names the build that wrote it (docs/deployment.md "Which build
   * answers") */
  cuzk_build_info b;
  cuzk_build_info_get(&b);
  char line[256];
  cuzk_build_info_line(&b, line, sizeof line);
  dlog(d, CUZK_LOG_INFO, "cuzk-daemon %s", line);
  for (size_t i = 0; i < d->warn.n; i++)
    dlog(d, CUZK_LOG_WARN, "config: %s", d->warn.msg[i]);
  if (d->warn.dropped) dlog(d, CUZK_LOG_WARN, "config: %zu more warnings", d->warn.dropped);

  cuzk_engine_config ec;
  engine_config(&ec, d);
  char why[512] = "";
  if (cuzk_engine_create(&d->engine, &ec, why, sizeof why))
    return CUZK_FAIL(msg, msg_len, false, "cannot start the engine: %s", why);
  if (!register_build_info(d->engine)) {
    teardown(d, 0);
    return CUZK_FAIL(msg, msg_len, false, "cannot start the engine: out of memory");
  }
  cuzk_service_opts so = {d->engine, cfg->on_disconnect == CUZK_POLICY_CANCEL, log, log_user};
  d->svc = cuzk_service_create(&so);
  const char *listen[CUZK_CONFIG_MAX_LISTEN];
  for (size_t i = 0; i < cfg->n_listen; i++)
    listen[i] = cfg->listen[i];
  cuzk_rpc_server_opts ro = {listen,
                             cfg->n_listen,
                             cfg->socket_mode,
                             (size_t)cfg->max_message_size,
                             0,
                             cuzk_rpc_proving_engine_methods,
                             CUZK_RPC_N_METHODS,
                             cuzk_service_handle,
                             d->svc,
                             cfg->tls_cert[0] ? cfg->tls_cert : NULL,
                             cfg->tls_key[0] ? cfg->tls_key : NULL,
                             cfg->tls_client_ca[0] ? cfg->tls_client_ca : NULL,
                             cfg->tls_require_client_cert};
  if (!d->svc || cuzk_rpc_server_start(&d->srv, &ro, why, sizeof why)) {
    cuzk_errmsg(msg, msg_len, "cannot serve: %s", d->svc ? why : "out of memory");
    teardown(d, 0);
    return false;
  }
  if (cfg->status_listen[0]) {
    cuzk_http_options ho = {cfg->status_listen, http_metrics, http_status, d->engine, 0, 0};
    cuzk_http_err he = cuzk_http_start(&d->http, &ho);
    if (he) {
      cuzk_errmsg(msg, msg_len, "cannot serve HTTP status on %s: %s", cfg->status_listen,
                  cuzk_http_strerror(he));
      teardown(d, 0);
      return false;
    }
    dlog(d, CUZK_LOG_INFO, "HTTP /metrics and /status on port %u", cuzk_http_port(d->http));
  }
  for (size_t i = 0; i < cfg->n_listen; i++) {
    int port = cuzk_rpc_server_bound_port(d->srv, i);
    if (port)
      dlog(d, CUZK_LOG_INFO, "listening on %s (port %d)%s", cfg->listen[i], port,
           cfg->tls_cert[0] ? ", TLS" : "");
    else
      dlog(d, CUZK_LOG_INFO, "listening on %s", cfg->listen[i]);
  }
  for (size_t i = 0; i < cfg->n_listen; i++) { /* plaintext beyond this machine, as allowed */
    cuzk_listen_addr a;
    if (!cfg->tls_cert[0] && cuzk_listen_parse(cfg->listen[i], &a, why) && !a.is_unix &&
        !a.loopback)
      dlog(d, CUZK_LOG_WARN,
           "%s: plaintext gRPC on a non-loopback address (daemon.allow_plaintext): anyone who can "
           "reach the port can submit, cancel and evict",
           cfg->listen[i]);
  }
  for (size_t i = 0; i < cfg->n_preload; i++) {
    bool already;
    uint64_t ms = 0;
    if (cuzk_engine_preload(d->engine, cfg->preload[i], &already, &ms, why, sizeof why))
      dlog(d, CUZK_LOG_ERROR, "preload %s: %s", cfg->preload[i], why);
  }
  return true;
}

void cuzk_daemon_pause(cuzk_daemon *d, bool pause, const char *why) {
  dlog(d, CUZK_LOG_INFO, "%s: %s", why,
       pause ? "paused: jobs are queued, none starts until SIGUSR2" : "resumed");
  cuzk_engine_hold(d->engine, CUZK_ENGINE_HOLD_SYNTHESIS, pause);
}

void cuzk_daemon_stop(cuzk_daemon *d, const char *why) {
  const cuzk_daemon_config *cfg = &d->cfg;
  bool cancel = cfg->shutdown == CUZK_POLICY_CANCEL;
  dlog(d, CUZK_LOG_INFO, "%s: shutting down (running jobs: %s, grace %llu ms)", why,
       cancel ? "cancel" : "finish", (unsigned long long)cfg->shutdown_grace_ms);
  /* the RPC server stays up meanwhile, so waiting callers get their results */
  unsigned grace =
      cfg->shutdown_grace_ms > 86400000u ? 86400000u : (unsigned)cfg->shutdown_grace_ms;
  if (!cuzk_engine_shutdown(d->engine, cancel, grace ? grace : 1))
    dlog(d, CUZK_LOG_WARN, "shutdown grace passed: the remaining jobs were cancelled");
  teardown(d, 2000);
  free(d);
}

void cuzk_daemon_free(cuzk_daemon *d) {
  if (!d) return;
  teardown(d, 0);
  free(d);
}
