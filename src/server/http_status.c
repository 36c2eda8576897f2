/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * HTTP status server (http_status.h) on libmicrohttpd. We bind the listening socket ourselves so
 * that bind errors keep their errno and port 0 can be read back with getsockname, then hand it to
 * libmicrohttpd (MHD_OPTION_LISTEN_SOCKET), which polls it on its internal thread.
 */
#define _POSIX_C_SOURCE 200809L
#include "server/http_status.h"

#include "server/config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

struct cuzk_http_server {
  struct MHD_Daemon *mhd;
  int fd;
  uint16_t port;
  cuzk_http_text_fn metrics, status;
  void *ctx;
};

const char *cuzk_http_strerror(cuzk_http_err e) {
  switch (e) {
  case CUZK_HTTP_OK: return "ok";
  case CUZK_HTTP_EADDR: return "listen address is not IP:port";
  case CUZK_HTTP_ESOCKET: return "cannot listen on the address";
  case CUZK_HTTP_ENOMEM: return "out of memory";
  case CUZK_HTTP_ESTART: return "libmicrohttpd failed to start";
  }
  return "unknown error";
}

static enum MHD_Result respond(struct MHD_Connection *c, unsigned code, const char *type,
                               char *body, size_t len, bool owned, bool cors) {
  struct MHD_Response *r = MHD_create_response_from_buffer(
      len, body, owned ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT);
  if (!r) {
    if (owned) free(body);
    return MHD_NO;
  }
  MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
  MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
  if (cors) MHD_add_response_header(r, MHD_HTTP_HEADER_ACCESS_CONTROL_ALLOW_ORIGIN, "*");
  if (code == MHD_HTTP_METHOD_NOT_ALLOWED)
    MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
  enum MHD_Result ret = MHD_queue_response(c, code, r);
  MHD_destroy_response(r);
  return ret;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *upload_data,
                              size_t *upload_data_size, void **con_cls) {
  (void)version, (void)upload_data, (void)upload_data_size, (void)con_cls;
  cuzk_http_server *s = cls;
  static char not_found[] = "404 Not Found\n";
  static char not_allowed[] = "405 Method Not Allowed\n";
  static char failed_text[] = "500 Internal Server Error\n";
  static char failed_json[] = "{\"error\":\"status unavailable\"}\n";
  bool is_metrics = strcmp(url, "/metrics") == 0 && s->metrics;
  bool is_status = strcmp(url, "/status") == 0 && s->status;
  if (!is_metrics && !is_status)
    return respond(c, MHD_HTTP_NOT_FOUND, "text/plain; charset=utf-8", not_found,
                   sizeof not_found - 1, false, false);
  if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
    return respond(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain; charset=utf-8", not_allowed,
                   sizeof not_allowed - 1, false, false);
  size_t len = 0;
  char *body = (is_metrics ? s->metrics : s->status)(s->ctx, &len);
  if (is_metrics) {
    if (!body)
      return respond(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "text/plain; charset=utf-8", failed_text,
                     sizeof failed_text - 1, false, false);
    return respond(c, MHD_HTTP_OK, "text/plain; version=0.0.4", body, len, true, false);
  }
  if (!body)
    return respond(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "application/json", failed_json,
                   sizeof failed_json - 1, false, true);
  return respond(c, MHD_HTTP_OK, "application/json", body, len, true, true);
}

/* A socket bound to addr and listening; -1 with errno set on failure. */
static int listen_on(const cuzk_listen_addr *a, uint16_t *port) {
  union {
    struct sockaddr sa;
    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
  } u;
  memset(&u, 0, sizeof u);
  socklen_t len;
  if (a->ipv6) {
    u.v6.sin6_family = AF_INET6;
    u.v6.sin6_port = htons(a->port);
    inet_pton(AF_INET6, a->host, &u.v6.sin6_addr);
    len = sizeof u.v6;
  } else {
    u.v4.sin_family = AF_INET;
    u.v4.sin_port = htons(a->port);
    inet_pton(AF_INET, a->host, &u.v4.sin_addr);
    len = sizeof u.v4;
  }
  int fd = socket(u.sa.sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (a->ipv6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
  if (bind(fd, &u.sa, len) != 0 || listen(fd, 16) != 0) goto fail;
  len = sizeof u;
  if (getsockname(fd, &u.sa, &len) != 0) goto fail;
  *port = ntohs(a->ipv6 ? u.v6.sin6_port : u.v4.sin_port);
  return fd;
fail:;
  int saved = errno;
  close(fd);
  errno = saved;
  return -1;
}

cuzk_http_err cuzk_http_start(cuzk_http_server **out, const cuzk_http_options *opt) {
  *out = NULL;
  cuzk_listen_addr a;
  char why[CUZK_CONFIG_ERR_LEN];
  if (!opt->listen || !cuzk_listen_parse(opt->listen, &a, why) || a.is_unix) return CUZK_HTTP_EADDR;
  cuzk_http_server *s = calloc(1, sizeof *s);
  if (!s) return CUZK_HTTP_ENOMEM;
  s->metrics = opt->metrics;
  s->status = opt->status;
  s->ctx = opt->ctx;
  s->fd = listen_on(&a, &s->port);
  if (s->fd < 0) {
    int saved = errno;
    free(s);
    errno = saved;
    return CUZK_HTTP_ESOCKET;
  }
  unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ITC | (a.ipv6 ? MHD_USE_IPv6 : 0);
  s->mhd = MHD_start_daemon(
      flags, 0, NULL, NULL, handle, s, MHD_OPTION_LISTEN_SOCKET, s->fd, MHD_OPTION_CONNECTION_LIMIT,
      opt->connection_limit ? opt->connection_limit : 256u, MHD_OPTION_CONNECTION_TIMEOUT,
      opt->timeout_s ? opt->timeout_s : 5u, MHD_OPTION_END);
  if (!s->mhd) {
    close(s->fd);
    free(s);
    return CUZK_HTTP_ESTART;
  }
  *out = s;
  return CUZK_HTTP_OK;
}

uint16_t cuzk_http_port(const cuzk_http_server *s) { return s ? s->port : 0; }

void cuzk_http_stop(cuzk_http_server *s) {
  if (!s) return;
  /* quiesce hands the listening socket back to us, so closing it is ours to do once the thread
   * is gone; if it could not, MHD_stop_daemon closes it */
  MHD_socket fd = MHD_quiesce_daemon(s->mhd);
  MHD_stop_daemon(s->mhd);
  if (fd != MHD_INVALID_SOCKET) close(fd);
  free(s);
}
