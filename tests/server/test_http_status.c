/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The HTTP status server (src/server/http_status.h) against a real TCP client: GET /metrics and
 * /status (status line, content type, body), HEAD, 404, 405, a failing callback (500), port 0,
 * address errors, a port already in use, and a clean stop. */
#define _POSIX_C_SOURCE 200809L
#include "server/http_status.h"

#include "check.h"
#include "cuzk/util/prom.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static cuzk_prom_registry *registry;
static bool status_fails;

static char *metrics_cb(void *ctx, size_t *len) {
  CHECK(ctx == &registry);
  return cuzk_prom_render(registry, len);
}

static char *status_cb(void *ctx, size_t *len) {
  (void)ctx;
  if (status_fails) return NULL;
  const char *json = "{\"uptime_secs\":1}";
  *len = strlen(json);
  char *s = malloc(*len + 1);
  memcpy(s, json, *len + 1);
  return s;
}

/* Sends one raw request and reads the whole answer (the server closes after HTTP/1.0). */
static char *request(uint16_t port, const char *req) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
  inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
  if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
    close(fd);
    return NULL;
  }
  size_t n = strlen(req);
  CHECK(write(fd, req, n) == (ssize_t)n);
  size_t cap = 65536, got = 0;
  char *buf = malloc(cap);
  ssize_t r;
  while ((r = read(fd, buf + got, cap - 1 - got)) > 0)
    got += (size_t)r;
  buf[got] = 0;
  close(fd);
  return buf;
}

static const char *body_of(const char *resp) {
  const char *b = strstr(resp, "\r\n\r\n");
  return b ? b + 4 : "";
}

static void test_serving(void) {
  cuzk_prom_metric *m;
  CHECK(cuzk_prom_registry_create(&registry) == CUZK_PROM_OK);
  CHECK(cuzk_prom_register(registry, CUZK_PROM_COUNTER, "cuzk_proofs_completed_total",
                           "Total proofs completed", NULL, 0, NULL, 0, &m) == CUZK_PROM_OK);
  cuzk_prom_add(cuzk_prom_series_get(m, NULL), 3);

  cuzk_http_server *s;
  cuzk_http_options o = {
      .listen = "127.0.0.1:0", .metrics = metrics_cb, .status = status_cb, .ctx = &registry};
  CHECK(cuzk_http_start(&s, &o) == CUZK_HTTP_OK);
  uint16_t port = cuzk_http_port(s);
  CHECK(port != 0);

  char *r = request(port, "GET /metrics HTTP/1.0\r\n\r\n");
  CHECK_MSG(r && strncmp(r, "HTTP/1.1 200 OK\r\n", 17) == 0, "%s", r ? r : "(null)");
  CHECK(r && strstr(r, "\r\nContent-Type: text/plain; version=0.0.4\r\n"));
  CHECK(r && strcmp(body_of(r), "# HELP cuzk_proofs_completed_total Total proofs completed\n"
                                "# TYPE cuzk_proofs_completed_total counter\n"
                                "cuzk_proofs_completed_total 3\n") == 0);
  free(r);

  r = request(port, "GET /status?x=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  CHECK_MSG(r && strncmp(r, "HTTP/1.1 200 OK\r\n", 17) == 0, "%s", r ? r : "(null)");
  CHECK(r && strstr(r, "\r\nContent-Type: application/json\r\n"));
  CHECK(r && strstr(r, "\r\nAccess-Control-Allow-Origin: *\r\n"));
  CHECK(r && strcmp(body_of(r), "{\"uptime_secs\":1}") == 0);
  free(r);

  r = request(port, "HEAD /metrics HTTP/1.0\r\n\r\n");
  CHECK(r && strncmp(r, "HTTP/1.1 200 OK\r\n", 17) == 0 && strcmp(body_of(r), "") == 0);
  free(r);

  r = request(port, "GET /nope HTTP/1.0\r\n\r\n");
  CHECK_MSG(r && strncmp(r, "HTTP/1.1 404 Not Found\r\n", 24) == 0, "%s", r ? r : "(null)");
  CHECK(r && strcmp(body_of(r), "404 Not Found\n") == 0);
  free(r);
  r = request(port, "GET /metrics/ HTTP/1.0\r\n\r\n");
  CHECK(r && strncmp(r, "HTTP/1.1 404", 12) == 0);
  free(r);

  r = request(port, "POST /metrics HTTP/1.0\r\nContent-Length: 3\r\n\r\nabc");
  CHECK_MSG(r && strncmp(r, "HTTP/1.1 405 Method Not Allowed\r\n", 33) == 0, "%s",
            r ? r : "(null)");
  CHECK(r && strstr(r, "\r\nAllow: GET, HEAD\r\n"));
  free(r);
  r = request(port, "DELETE /status HTTP/1.0\r\n\r\n");
  CHECK(r && strncmp(r, "HTTP/1.1 405", 12) == 0);
  free(r);

  status_fails = true;
  r = request(port, "GET /status HTTP/1.0\r\n\r\n");
  CHECK_MSG(r && strncmp(r, "HTTP/1.1 500 Internal Server Error\r\n", 36) == 0, "%s",
            r ? r : "(null)");
  CHECK(r && strcmp(body_of(r), "{\"error\":\"status unavailable\"}\n") == 0);
  free(r);

  /* the same port again is in use */
  char addr[32];
  snprintf(addr, sizeof addr, "127.0.0.1:%u", port);
  cuzk_http_server *s2;
  cuzk_http_options o2 = {.listen = addr, .metrics = metrics_cb};
  errno = 0;
  CHECK(cuzk_http_start(&s2, &o2) == CUZK_HTTP_ESOCKET && errno == EADDRINUSE && s2 == NULL);

  cuzk_http_stop(s);
  r = request(port, "GET /metrics HTTP/1.0\r\n\r\n");
  CHECK(r == NULL); /* refused: the socket is closed */
  free(r);

  /* after the stop the port can be bound again */
  CHECK(cuzk_http_start(&s2, &o2) == CUZK_HTTP_OK && cuzk_http_port(s2) == port);
  r = request(port, "GET /status HTTP/1.0\r\n\r\n");
  CHECK(r && strncmp(r, "HTTP/1.1 404", 12) == 0); /* no status callback: 404 */
  free(r);
  cuzk_http_stop(s2);
  cuzk_prom_registry_destroy(registry);
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int count(const char *s, const char *needle) {
  int n = 0;
  for (const char *p = s; (p = strstr(p, needle)); p++)
    n++;
  return n;
}

/* 40 idle connections held open do not delay /metrics (they held all 16 slots for 10 s before):
 * with a 60 s idle timeout, an answer well inside it cannot have waited for them to be reaped
 * (no tight time bound: the sanitizer build on a busy 2-core VM takes about a second);
 * two pipelined requests on one connection are answered, or the second refused cleanly. */
static void test_idle_and_pipelined(void) {
  cuzk_http_server *s;
  cuzk_http_options o = {.listen = "127.0.0.1:0",
                         .metrics = metrics_cb,
                         .status = status_cb,
                         .ctx = &registry,
                         .timeout_s = 60};
  CHECK(cuzk_prom_registry_create(&registry) == CUZK_PROM_OK);
  CHECK(cuzk_http_start(&s, &o) == CUZK_HTTP_OK);
  uint16_t port = cuzk_http_port(s);
  int idle[40];
  for (int i = 0; i < 40; i++) {
    idle[i] = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    CHECK(connect(idle[i], (struct sockaddr *)&a, sizeof a) == 0);
  }
  double t0 = now_s();
  char *r = request(port, "GET /metrics HTTP/1.0\r\n\r\n");
  double dt = now_s() - t0;
  CHECK_MSG(r && strncmp(r, "HTTP/1.1 200 OK\r\n", 17) == 0 && dt < 30.0,
            "/metrics beside 40 idle connections: %.2f s", dt);
  free(r);
  r = request(port, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"
                    "GET /status HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  /* libmicrohttpd answers the first and closes the connection saying so (Connection: close),
   * which tells an HTTP/1.1 client to send the rest again: both answered, or that clean refusal */
  int answers = r ? count(r, "HTTP/1.1 200 OK\r\n") : 0;
  CHECK_MSG(answers == 2 ? strstr(r, "application/json") != NULL
                         : answers == 1 && strstr(r, "\r\nConnection: close\r\n"),
            "pipelined: %s", r ? r : "(null)");
  free(r);
  for (int i = 0; i < 40; i++)
    close(idle[i]);
  cuzk_http_stop(s);
  cuzk_prom_registry_destroy(registry);
  registry = NULL;
}

static void test_bad_addresses(void) {
  cuzk_http_server *s = (cuzk_http_server *)1;
  const char *bad[] = {"localhost:0", "127.0.0.1", "unix:///tmp/x", "", "1.2.3.4:99999"};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    cuzk_http_options o = {.listen = bad[k]};
    CHECK_MSG(cuzk_http_start(&s, &o) == CUZK_HTTP_EADDR && s == NULL, "%s", bad[k]);
  }
  cuzk_http_options o = {.listen = NULL};
  CHECK(cuzk_http_start(&s, &o) == CUZK_HTTP_EADDR);
  /* IPv6 loopback, when the host has it */
  cuzk_http_options o6 = {.listen = "[::1]:0", .status = status_cb};
  cuzk_http_err e = cuzk_http_start(&s, &o6);
  CHECK(e == CUZK_HTTP_OK || e == CUZK_HTTP_ESOCKET);
  if (e == CUZK_HTTP_OK) {
    CHECK(cuzk_http_port(s) != 0);
    cuzk_http_stop(s);
  }
  cuzk_http_stop(NULL);
  CHECK(strcmp(cuzk_http_strerror(CUZK_HTTP_EADDR), "listen address is not IP:port") == 0);
}

int main(void) {
  test_serving();
  test_idle_and_pipelined();
  test_bad_addresses();
  return check_summary("test_http_status");
}
