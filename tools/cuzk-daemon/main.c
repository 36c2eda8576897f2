/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * cuzk-daemon: the proving service. Reads the configuration (built-in defaults, -c FILE,
 * -l/--listen, --log-level), starts the engine, serves cuzk.v1.ProvingEngine over gRPC on every
 * listen address (unix sockets are guarded by a lock file: a second daemon refuses to start) and,
 * if configured, HTTP /metrics and /status. SIGINT/SIGTERM: stop accepting jobs, let running ones
 * finish or cancel them (daemon.shutdown, bounded by daemon.shutdown_grace), answer the waiting
 * callers, exit 0. Logs go to stderr, as text or JSON lines, each with its job id.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuzk/engine.h"
#include "server/config.h"
#include "server/grpc_transport.h"
#include "server/http_status.h"
#include "server/service.h"

/* ---- logging --------------------------------------------------------------------------------- */

static pthread_mutex_t log_mu = PTHREAD_MUTEX_INITIALIZER;
static cuzk_log_level log_max = CUZK_LOG_INFO;
static bool log_json;

static const char *level_name(cuzk_log_level l) {
  static const char *const n[] = {"ERROR", "WARN", "INFO", "DEBUG"};
  return (unsigned)l < 4 ? n[l] : "INFO";
}

static void json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(f, "\\%c", c);
    else if (c < 0x20)
      fprintf(f, "\\u%04x", c);
    else
      fputc(c, f);
  }
  fputc('"', f);
}

static void log_line(void *user, cuzk_log_level lv, const char *job, const char *msg) {
  (void)user;
  if (lv > log_max) return;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  struct tm tm;
  gmtime_r(&ts.tv_sec, &tm);
  char when[40];
  size_t n = strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm);
  snprintf(when + n, sizeof when - n, ".%03ldZ", ts.tv_nsec / 1000000L);
  pthread_mutex_lock(&log_mu);
  if (log_json) {
    fprintf(stderr, "{\"ts\":\"%s\",\"level\":\"%s\",\"job_id\":", when, level_name(lv));
    json_str(stderr, job ? job : "");
    fputs(",\"msg\":", stderr);
    json_str(stderr, msg);
    fputs("}\n", stderr);
  } else {
    fprintf(stderr, "%s %-5s %s%s%s%s\n", when, level_name(lv), job ? "[" : "", job ? job : "",
            job ? "] " : "", msg);
  }
  fflush(stderr);
  pthread_mutex_unlock(&log_mu);
}

__attribute__((format(printf, 2, 3))) static void logf_(cuzk_log_level lv, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  log_line(NULL, lv, NULL, msg);
}

static void grpc_log(int severity, const char *file, int line, const char *msg) {
  logf_(severity >= 2 ? CUZK_LOG_WARN : CUZK_LOG_DEBUG, "grpc %s:%d: %s", file, line, msg);
}

/* ---- HTTP status callbacks ------------------------------------------------------------------- */

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

/* ---- main ------------------------------------------------------------------------------------ */

static cuzk_log_level engine_level(cuzk_cfg_level l) {
  return l <= CUZK_CFG_DEBUG  ? CUZK_LOG_DEBUG
         : l == CUZK_CFG_INFO ? CUZK_LOG_INFO
         : l == CUZK_CFG_WARN ? CUZK_LOG_WARN
                              : CUZK_LOG_ERROR;
}

int main(int argc, char **argv) {
  /* before any thread exists: every thread inherits the mask and main waits in sigwait */
  sigset_t sigs;
  sigemptyset(&sigs);
  sigaddset(&sigs, SIGINT);
  sigaddset(&sigs, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &sigs, NULL);
  signal(SIGPIPE, SIG_IGN);

  static cuzk_daemon_config cfg;
  cuzk_config_warnings warn;
  memset(&warn, 0, sizeof warn);
  char err[CUZK_CONFIG_ERR_LEN];
  switch (cuzk_config_from_args(&cfg, argc, argv, &warn, err)) {
  case CUZK_CONFIG_ARGS_HELP: fputs(cuzk_config_usage(), stdout); return 0;
  case CUZK_CONFIG_ARGS_ERROR: fprintf(stderr, "cuzk-daemon: %s\n", err); return 2;
  case CUZK_CONFIG_ARGS_OK: break;
  }
  log_max = engine_level(cfg.log_level);
  log_json = cfg.log_format == CUZK_LOG_JSON;
  for (size_t i = 0; i < warn.n; i++)
    logf_(CUZK_LOG_WARN, "config: %s", warn.msg[i]);
  if (warn.dropped) logf_(CUZK_LOG_WARN, "config: %zu more warnings", warn.dropped);
  cuzk_rpc_set_log(grpc_log);

  cuzk_engine_config ec;
  cuzk_engine_config_default(&ec);
  ec.threads = cfg.threads;
  ec.synthesis_workers = cfg.synthesis_workers ? cfg.synthesis_workers : 1;
  ec.prove_workers = cfg.prove_workers ? cfg.prove_workers : 1;
  ec.prove_queue = cfg.queue_depth ? cfg.queue_depth : 1;
  ec.memory_budget = cfg.partition_budget;
  if (!ec.memory_budget && cfg.total_budget > cfg.safety_margin + cfg.srs_budget)
    ec.memory_budget = cfg.total_budget - cfg.safety_margin - cfg.srs_budget;
  ec.srs_budget = cfg.srs_budget;
  ec.warm_budget =
      cfg.warm_budget == CUZK_CONFIG_WARM_AUTO ? CUZK_ENGINE_WARM_AUTO : cfg.warm_budget;
  ec.param_cache = cfg.param_cache;
  ec.generate_test_params = cfg.generate_test_params;
  ec.test_params_dir = cfg.test_params_dir;
  ec.batch_max = cfg.max_batch_size ? cfg.max_batch_size : 1;
  ec.batch_wait_ms = cfg.max_batch_wait_ms > 600000 ? 600000 : (unsigned)cfg.max_batch_wait_ms;
  ec.log = log_line;
  ec.log_level = log_max;
  cuzk_engine *engine = NULL;
  char msg[512] = "";
  if (cuzk_engine_create(&engine, &ec, msg, sizeof msg)) {
    logf_(CUZK_LOG_ERROR, "cannot start the engine: %s", msg);
    return 1;
  }
  cuzk_service_opts so = {engine, cfg.on_disconnect == CUZK_POLICY_CANCEL, log_line, NULL};
  cuzk_service *svc = cuzk_service_create(&so);
  const char *listen[CUZK_CONFIG_MAX_LISTEN];
  for (size_t i = 0; i < cfg.n_listen; i++)
    listen[i] = cfg.listen[i];
  cuzk_rpc_server_opts ro = {listen,
                             cfg.n_listen,
                             cfg.socket_mode,
                             (size_t)cfg.max_message_size,
                             0,
                             cuzk_rpc_proving_engine_methods,
                             CUZK_RPC_N_METHODS,
                             cuzk_service_handle,
                             svc};
  cuzk_rpc_server *srv = NULL;
  if (!svc || cuzk_rpc_server_start(&srv, &ro, msg, sizeof msg)) {
    logf_(CUZK_LOG_ERROR, "cannot serve: %s", svc ? msg : "out of memory");
    cuzk_service_destroy(svc);
    cuzk_engine_destroy(engine);
    return 1;
  }
  cuzk_http_server *http = NULL;
  if (cfg.status_listen[0]) {
    cuzk_http_options ho = {cfg.status_listen, http_metrics, http_status, engine, 0, 0};
    cuzk_http_err he = cuzk_http_start(&http, &ho);
    if (he) {
      logf_(CUZK_LOG_ERROR, "cannot serve HTTP status on %s: %s", cfg.status_listen,
            cuzk_http_strerror(he));
      cuzk_rpc_server_shutdown(srv, 0);
      cuzk_service_destroy(svc);
      cuzk_engine_destroy(engine);
      return 1;
    }
    logf_(CUZK_LOG_INFO, "HTTP /metrics and /status on port %u", cuzk_http_port(http));
  }
  for (size_t i = 0; i < cfg.n_listen; i++) {
    int port = cuzk_rpc_server_bound_port(srv, i);
    if (port)
      logf_(CUZK_LOG_INFO, "listening on %s (port %d)", cfg.listen[i], port);
    else
      logf_(CUZK_LOG_INFO, "listening on %s", cfg.listen[i]);
  }
  for (size_t i = 0; i < cfg.n_preload; i++) {
    bool already;
    uint64_t ms = 0;
    if (cuzk_engine_preload(engine, cfg.preload[i], &already, &ms, msg, sizeof msg))
      logf_(CUZK_LOG_ERROR, "preload %s: %s", cfg.preload[i], msg);
  }
  logf_(CUZK_LOG_INFO, "ready");

  int sig = 0;
  sigwait(&sigs, &sig);
  bool cancel = cfg.shutdown == CUZK_POLICY_CANCEL;
  logf_(CUZK_LOG_INFO, "%s: shutting down (running jobs: %s, grace %llu ms)",
        sig == SIGTERM ? "SIGTERM" : "SIGINT", cancel ? "cancel" : "finish",
        (unsigned long long)cfg.shutdown_grace_ms);
  /* the RPC server stays up meanwhile, so waiting callers get their results */
  unsigned grace = cfg.shutdown_grace_ms > 86400000u ? 86400000u : (unsigned)cfg.shutdown_grace_ms;
  if (!cuzk_engine_shutdown(engine, cancel, grace ? grace : 1))
    logf_(CUZK_LOG_WARN, "shutdown grace passed: the remaining jobs were cancelled");
  cuzk_rpc_server_shutdown(srv, 2000);
  cuzk_service_destroy(svc);
  cuzk_http_stop(http);
  cuzk_engine_destroy(engine);
  logf_(CUZK_LOG_INFO, "stopped");
  return 0;
}
