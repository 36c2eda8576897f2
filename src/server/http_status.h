/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The daemon's optional HTTP status server (daemon.status_listen): GET /metrics answers with
 * Prometheus text (Content-Type "text/plain; version=0.0.4") and GET /status with JSON
 * ("application/json", plus "Access-Control-Allow-Origin: *" for browser dashboards), each from a
 * callback of the caller. Other paths get 404, other methods (than GET and HEAD) 405.
 *
 * libmicrohttpd runs it on one internal thread with a small connection limit; callbacks run on
 * that thread, so they must be thread-safe with respect to the rest of the daemon. The server
 * never prints.
 */
#ifndef CUZK_SERVER_HTTP_STATUS_H
#define CUZK_SERVER_HTTP_STATUS_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
  CUZK_HTTP_OK = 0,
  CUZK_HTTP_EADDR,   /* listen address is not IP:port */
  CUZK_HTTP_ESOCKET, /* socket, bind or listen failed (errno is kept) */
  CUZK_HTTP_ENOMEM,
  CUZK_HTTP_ESTART /* libmicrohttpd refused to start */
} cuzk_http_err;

const char *cuzk_http_strerror(cuzk_http_err e);

/* Returns the body as a malloc'd string (the server frees it) and its length in *len, or NULL for
 * a 500 answer. */
typedef char *(*cuzk_http_text_fn)(void *ctx, size_t *len);

typedef struct {
  const char *listen;        /* "IP:port" or "[IPv6]:port"; port 0 picks a free port */
  cuzk_http_text_fn metrics; /* GET /metrics; NULL = 404 */
  cuzk_http_text_fn status;  /* GET /status; NULL = 404 */
  void *ctx;                 /* passed to both */
  /* Idle connections cost a slot until their timeout, not the polling thread's time: enough
   * slots that scrapers and idle keep-alives never hold a /metrics request in the backlog. */
  unsigned connection_limit; /* 0 = 256 */
  unsigned timeout_s;        /* idle connection timeout; 0 = 5 */
} cuzk_http_options;

typedef struct cuzk_http_server cuzk_http_server;

/* Binds, listens and starts serving. On CUZK_HTTP_ESOCKET errno says why. */
cuzk_http_err cuzk_http_start(cuzk_http_server **out, const cuzk_http_options *opt);
uint16_t cuzk_http_port(const cuzk_http_server *s); /* the bound port (useful with port 0) */
/* Stops accepting, waits for the thread (answers in progress finish), closes the socket and
 * frees s. NULL is a no-op. */
void cuzk_http_stop(cuzk_http_server *s);

#endif
