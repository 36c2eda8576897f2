/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The options every client command of cuzk-bench takes (-a/--addr, --timeout-ms, --log-level;
 * also before the command name: `cuzk-bench -a ADDR status`) and its one unary call to the
 * daemon. Used by the proof commands (cmd_client_prove.c) and the queries (cmd_client_query.c).
 */
#ifndef CUZK_BENCH_CLIENT_CONN_H
#define CUZK_BENCH_CLIENT_CONN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CONN_ADDR_LEN 4096

enum { LOG_ERROR, LOG_WARN, LOG_INFO, LOG_DEBUG, LOG_TRACE };

typedef struct {
  char addr[CONN_ADDR_LEN];
  uint64_t timeout_ms;
  int log_level;
} conn_opts;

/* The ids of the options every client command takes (in an id list of cli_next_opt). */
#define CONN_OPTS O_HELP, O_ADDR, O_TIMEOUT, O_LOG_LEVEL

/* Their help lines, for a command's --help. */
extern const char conn_addr_help[];

/* The defaults: the reference's address, timeout_ms, log level info. */
void conn_init(conn_opts *c, uint64_t timeout_ms);
/* Applies a shared option; false after a usage error naming the flag. */
bool conn_apply(conn_opts *c, int id, const char *v);
/* One unary call. true with the response (free() it) on gRPC OK; false with why = "STATUS: msg"
 * (or the local failure) and *status (may be NULL) = the gRPC status, -1 for a local failure. */
bool conn_call(const conn_opts *c, unsigned method, const uint8_t *req, size_t len, uint8_t **resp,
               size_t *resp_len, int *status_out, char *why, size_t whylen);

#endif
