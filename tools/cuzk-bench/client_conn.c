/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The options every client command of cuzk-bench takes and its one unary call (client_conn.h). */
#define _POSIX_C_SOURCE 200809L /* getcwd */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli.h"
#include "client_conn.h"
#include "cuzk/server/rpc.h"

#define DEFAULT_ADDR "http://127.0.0.1:9820" /* the reference's */

const char conn_addr_help[] =
    "  -a, --addr ADDR       daemon address: unix:///abs/path, unix://rel/path (from the current\n"
    "                        directory), host:port or http://host:port (default " DEFAULT_ADDR ",\n"
    "                        the reference's). cuzk-daemon's built-in default listens on\n"
    "                        unix://<its working directory>/cuzk.sock.\n"
    "  --timeout-ms MS       gRPC deadline of each call (0 = none)\n"
    "  --log-level LEVEL     error|warn|info|debug|trace (default info; info notes the inputs on\n"
    "                        stderr, debug also each request)\n";

/* The address as the transport takes it: "unix://rel" made absolute from the current directory
 * (as the daemon's config reads it), checked. false with a message naming the flag. */
static bool set_addr(conn_opts *c, const char *a) {
  if (!strncmp(a, "https://", 8)) {
    cli_fail(2, "-a/--addr: '%s': TLS is not supported (the daemon speaks cleartext HTTP/2)", a);
    return false;
  }
  int n;
  if (!strncmp(a, "unix://", 7) && a[7] != '/') {
    char cwd[CONN_ADDR_LEN / 2];
    if (!a[7] || !getcwd(cwd, sizeof cwd)) {
      cli_fail(2, "-a/--addr: '%s': no socket path", a);
      return false;
    }
    n = snprintf(c->addr, sizeof c->addr, "unix://%s%s%s", cwd, strcmp(cwd, "/") ? "/" : "", a + 7);
  } else {
    n = snprintf(c->addr, sizeof c->addr, "%s", a);
  }
  char target[CONN_ADDR_LEN];
  if (n < 0 || (size_t)n >= sizeof c->addr ||
      cuzk_rpc_client_target(c->addr, target, sizeof target)) {
    cli_fail(
        2, "-a/--addr: bad address '%s' (expected unix:///path, host:port or http://host:port)", a);
    return false;
  }
  return true;
}

bool conn_apply(conn_opts *c, int id, const char *v) {
  if (id == O_ADDR) return set_addr(c, v);
  if (id == O_TIMEOUT) {
    if (cli_u64(&c->timeout_ms, v)) return true;
    cli_fail(2, "--timeout-ms: bad value '%s' (milliseconds, 0 = no deadline)", v);
    return false;
  }
  static const char *const names[] = {"error", "warn", "info", "debug", "trace"};
  for (int k = 0; k < 5; k++)
    if (!strcasecmp(v, names[k])) {
      c->log_level = k;
      return true;
    }
  cli_fail(2, "--log-level: bad value '%s' (error, warn, info, debug or trace)", v);
  return false;
}

void conn_init(conn_opts *c, uint64_t timeout_ms) {
  memset(c, 0, sizeof *c);
  snprintf(c->addr, sizeof c->addr, "%s", DEFAULT_ADDR);
  c->timeout_ms = timeout_ms;
  c->log_level = LOG_INFO;
}

bool conn_call(const conn_opts *c, unsigned method, const uint8_t *req, size_t len, uint8_t **resp,
               size_t *resp_len, int *status_out, char *why, size_t whylen) {
  int status = CUZK_RPC_STATUS_UNKNOWN, dummy;
  if (!status_out) status_out = &dummy;
  *status_out = -1;
  char msg[1024];
  cuzk_rpc_err e = cuzk_rpc_client_call(c->addr, cuzk_rpc_proving_engine_methods[method], req, len,
                                        c->timeout_ms, resp, resp_len, &status, msg, sizeof msg);
  if (e) {
    snprintf(why, whylen, "%s: %s", cuzk_rpc_strerror(e), msg);
    return false;
  }
  *status_out = status;
  if (status != CUZK_RPC_STATUS_OK) {
    snprintf(why, whylen, "%s: %s%s", cuzk_rpc_status_name(status), msg,
             status == CUZK_RPC_STATUS_UNAVAILABLE ? " (is the daemon listening on -a/--addr?)"
                                                   : "");
    free(*resp);
    *resp = NULL;
    return false;
  }
  return true;
}
