/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The proving daemon as a program runs it (docs/server.md, docs/config.md): a configuration read
 * from the command line and cuzk.toml, then the running service on it, the engine with
 * cuzk.v1.ProvingEngine served over gRPC on every listen address (unix sockets guarded by a lock
 * file) and, if configured, HTTP /metrics and /status. The program keeps what only a program
 * does: signals, where log lines go, exit codes.
 *
 * Library code: nothing is printed; errors come back as messages, log lines through the caller's
 * cuzk_log_fn (include/cuzk/engine/engine.h), each with its job id.
 */
#ifndef CUZK_SERVER_H
#define CUZK_SERVER_H

#include <stdbool.h>
#include <stddef.h>

#include "cuzk/engine/engine.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cuzk_daemon cuzk_daemon;

typedef enum {
  CUZK_DAEMON_ARGS_OK,      /* *out is configured, not yet started */
  CUZK_DAEMON_ARGS_HELP,    /* -h/--help: print cuzk_daemon_usage() and exit 0 */
  CUZK_DAEMON_ARGS_VERSION, /* --version: print the build (cuzk/server/version.h) and exit 0 */
  CUZK_DAEMON_ARGS_ERROR    /* msg says why */
} cuzk_daemon_args;

/* The configuration of the daemon's command line: the built-in defaults, -c/--config FILE,
 * -l/--listen ADDR (repeatable; replaces daemon.listen), --log-level LEVEL, -h/--help, --version.
 * Unknown or
 * unused keys become warnings, logged by cuzk_daemon_start. Never prints or exits. */
cuzk_daemon_args cuzk_daemon_configure(cuzk_daemon **out, int argc, char *const argv[], char *msg,
                                       size_t msg_len);
/* Usage text for -h (a static string). */
const char *cuzk_daemon_usage(void);

/* [logging]: the least severe level to print and whether lines are JSON (else text). */
cuzk_log_level cuzk_daemon_log_level(const cuzk_daemon *d);
bool cuzk_daemon_log_json(const cuzk_daemon *d);

/* Logs the configuration's warnings, starts the engine, serves gRPC on every listen address and
 * HTTP status if configured, logs where it listens and loads the preloaded parameters (a failed
 * preload is logged, not fatal). false with msg ("cannot start the engine: ...", "cannot serve:
 * ...", "cannot serve HTTP status on ADDR: ...") if any part failed; nothing is left running. */
bool cuzk_daemon_start(cuzk_daemon *d, cuzk_log_fn log, void *log_user, char *msg, size_t msg_len);

/* The stop signal `why` ("SIGTERM") came: logs it, stops accepting jobs, lets running ones finish
 * or cancels them (daemon.shutdown, bounded by daemon.shutdown_grace) while the transport stays
 * up so waiting callers get their results, then stops the transport, the HTTP server and the
 * engine, and frees d. */
void cuzk_daemon_stop(cuzk_daemon *d, const char *why);

/* Pauses the pipeline (pause true: SIGUSR1) or resumes it (false: SIGUSR2); `why` names the
 * signal in the log. Paused, jobs are still taken and queued, but none is prepared and no
 * partition is handed out, WinningPoSt's included; work already started runs to its end
 * (cuzk_engine_hold SYNTHESIS, docs/deployment.md "Pausing"). */
void cuzk_daemon_pause(cuzk_daemon *d, bool pause, const char *why);

/* One log entry as one line, '\n' included (docs/config.md logging.format): text
 * "WHEN LEVEL [JOB] MSG" or JSON {"ts","level","job_id","msg"}. Written into out like snprintf
 * (cut at cap - 1 bytes, NUL-terminated if cap > 0); returns the length the whole line needs.
 * Whatever job_id (may be NULL) and msg hold stays on the line and inert: text lines write
 * control characters (below 0x20, 0x7f, the C1 controls U+0080..U+009F) and bytes that are not
 * UTF-8 as \xNN, a backslash as \\; JSON lines write controls as \u00NN and bytes that are not
 * UTF-8 as \ufffd. */
size_t cuzk_log_line_format(char *out, size_t cap, bool json, const char *when,
                            cuzk_log_level level, const char *job_id, const char *msg);

/* Frees a daemon that was configured but is not running (never started, or failed to). NULL is a
 * no-op. */
void cuzk_daemon_free(cuzk_daemon *d);

#ifdef __cplusplus
}
#endif
#endif
