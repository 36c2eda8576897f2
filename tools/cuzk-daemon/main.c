/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * cuzk-daemon: the proving service. Reads the configuration (built-in defaults, -c FILE,
 * -l/--listen, --log-level), starts the engine, serves cuzk.v1.ProvingEngine over gRPC on every
 * listen address (unix sockets are guarded by a lock file: a second daemon refuses to start) and,
 * if configured, HTTP /metrics and /status. SIGINT/SIGTERM: stop accepting jobs, let running ones
 * finish or cancel them (daemon.shutdown, bounded by daemon.shutdown_grace), answer the waiting
 * callers, exit 0. SIGUSR1 pauses the pipeline (jobs queue, none starts), SIGUSR2 resumes it
 * (docs/deployment.md "Pausing"). Logs go to stderr, as text or JSON lines, each with its job id.
 * --version prints the build (cuzk/server/version.h) and exits.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuzk/engine/engine.h"
#include "cuzk/server/rpc.h"
#include "cuzk/server/server.h"
#include "cuzk/server/version.h"

/* ---- logging --------------------------------------------------------------------------------- */

static pthread_mutex_t log_mu = PTHREAD_MUTEX_INITIALIZER;
static cuzk_log_level log_max = CUZK_LOG_INFO;
static bool log_json;

/* One line per entry, escaped by cuzk_log_line_format (a request_id is the client's string); a line
 * longer than the stack buffer is formatted again into one of its size. */
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
  char small[4096], *line = small;
  size_t len = cuzk_log_line_format(small, sizeof small, log_json, when, lv, job, msg);
  if (len >= sizeof small && (line = malloc(len + 1)) != NULL)
    cuzk_log_line_format(line, len + 1, log_json, when, lv, job, msg);
  if (!line) { /* out of memory: the cut line, its newline restored */
    line = small;
    len = sizeof small - 1;
    small[len - 1] = '\n';
  }
  pthread_mutex_lock(&log_mu);
  fwrite(line, 1, len, stderr);
  fflush(stderr);
  pthread_mutex_unlock(&log_mu);
  if (line != small) free(line);
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

/* ---- main ------------------------------------------------------------------------------------ */

int main(int argc, char **argv) {
  /* before any thread exists: every thread inherits the mask and main waits in sigwait */
  sigset_t sigs;
  sigemptyset(&sigs);
  sigaddset(&sigs, SIGINT);
  sigaddset(&sigs, SIGTERM);
  sigaddset(&sigs, SIGUSR1);
  sigaddset(&sigs, SIGUSR2);
  pthread_sigmask(SIG_BLOCK, &sigs, NULL);
  signal(SIGPIPE, SIG_IGN);

  cuzk_daemon *d = NULL;
  char msg[1024];
  switch (cuzk_daemon_configure(&d, argc, argv, msg, sizeof msg)) {
  case CUZK_DAEMON_ARGS_HELP: fputs(cuzk_daemon_usage(), stdout); return 0;
  case CUZK_DAEMON_ARGS_VERSION: {
    cuzk_build_info b;
    cuzk_build_info_get(&b);
    char line[256];
    cuzk_build_info_line(&b, line, sizeof line);
    printf("cuzk-daemon %s\n", line);
    return 0;
  }
  case CUZK_DAEMON_ARGS_ERROR: fprintf(stderr, "cuzk-daemon: %s\n", msg); return 2;
  case CUZK_DAEMON_ARGS_OK: break;
  }
  log_max = cuzk_daemon_log_level(d);
  log_json = cuzk_daemon_log_json(d);
  cuzk_rpc_set_log(grpc_log);
  if (!cuzk_daemon_start(d, log_line, NULL, msg, sizeof msg)) {
    logf_(CUZK_LOG_ERROR, "%s", msg);
    cuzk_daemon_free(d);
    return 1;
  }
  logf_(CUZK_LOG_INFO, "ready");

  int sig = 0;
  while (sigwait(&sigs, &sig) == 0 && (sig == SIGUSR1 || sig == SIGUSR2))
    cuzk_daemon_pause(d, sig == SIGUSR1, sig == SIGUSR1 ? "SIGUSR1" : "SIGUSR2");
  cuzk_daemon_stop(d, sig == SIGTERM ? "SIGTERM" : "SIGINT");
  logf_(CUZK_LOG_INFO, "stopped");
  return 0;
}
