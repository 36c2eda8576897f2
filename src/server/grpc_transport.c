/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The gRPC transport on the gRPC C core (grpc_transport.h; the API sequence and its pitfalls are
 * in docs/server.md, "gRPC transport").
 *
 * Server: one completion queue (CQ) drained by a few threads that only dispatch. Each call is a
 * heap context whose embedded tags name the operation that completed:
 *
 *   NEW    a call arrived: post a replacement request, start CLOSE, then RECV (or, for an unknown
 *          method, SEND with UNIMPLEMENTED)
 *   RECV   the request message: flatten it and hand it to the handler — a request of
 *          CUZK_RPC_BULK_BYTES or more on a bulk thread, so that copying and decoding it never
 *          holds a CQ thread (the CQ threads also drive the sockets: busy in two large requests,
 *          they would leave every other call, GetStatus too, unread until both were done)
 *   CLOSE  RECV_CLOSE_ON_SERVER, posted at call start so that a cancel, disconnect or deadline is
 *          seen while the application still works on the call: fires the cancel callback
 *   SEND   the reply (initial metadata, message, status), started by cuzk_rpc_reply
 *
 * One server mutex guards every call's state; calls are rare and the critical sections short
 * (copies of large messages happen outside it). A context is freed when no tag is outstanding
 * and the application no longer holds it. Shutdown waits until no tag is outstanding anywhere
 * before it destroys the server and the CQ (starting a batch on a call after the CQ shut down
 * aborts the process); calls the application still holds then become orphans, which keep the
 * server's memory (not its gRPC objects) alive until cuzk_rpc_reply frees them.
 */
#define _DEFAULT_SOURCE /* flock */
#include "server/grpc_transport.h"
#include "server/tls_pem.h"

#include "cuzk/util/errmsg.h"

#include <grpc/byte_buffer.h>
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/slice.h>
#include <grpc/status.h>
#include <grpc/support/alloc.h>
#include <grpc/support/log.h>
#include <grpc/support/time.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

_Static_assert(CUZK_RPC_STATUS_OK == (int)GRPC_STATUS_OK, "status codes");
_Static_assert(CUZK_RPC_STATUS_DEADLINE_EXCEEDED == (int)GRPC_STATUS_DEADLINE_EXCEEDED, "status");
_Static_assert(CUZK_RPC_STATUS_RESOURCE_EXHAUSTED == (int)GRPC_STATUS_RESOURCE_EXHAUSTED, "status");
_Static_assert(CUZK_RPC_STATUS_UNIMPLEMENTED == (int)GRPC_STATUS_UNIMPLEMENTED, "status");
_Static_assert(CUZK_RPC_STATUS_UNAUTHENTICATED == (int)GRPC_STATUS_UNAUTHENTICATED, "status");

const char *const cuzk_rpc_proving_engine_methods[CUZK_RPC_N_METHODS] = {
    [CUZK_RPC_SUBMIT_PROOF] = "/cuzk.v1.ProvingEngine/SubmitProof",
    [CUZK_RPC_AWAIT_PROOF] = "/cuzk.v1.ProvingEngine/AwaitProof",
    [CUZK_RPC_PROVE] = "/cuzk.v1.ProvingEngine/Prove",
    [CUZK_RPC_CANCEL_PROOF] = "/cuzk.v1.ProvingEngine/CancelProof",
    [CUZK_RPC_GET_STATUS] = "/cuzk.v1.ProvingEngine/GetStatus",
    [CUZK_RPC_GET_METRICS] = "/cuzk.v1.ProvingEngine/GetMetrics",
    [CUZK_RPC_PRELOAD_SRS] = "/cuzk.v1.ProvingEngine/PreloadSRS",
    [CUZK_RPC_EVICT_SRS] = "/cuzk.v1.ProvingEngine/EvictSRS",
};

const char *cuzk_rpc_strerror(cuzk_rpc_err e) {
  switch (e) {
  case CUZK_RPC_OK: return "ok";
  case CUZK_RPC_EINVAL: return "invalid argument";
  case CUZK_RPC_EADDR: return "bad address";
  case CUZK_RPC_ELOCKED: return "socket in use by another server";
  case CUZK_RPC_ELISTEN: return "cannot listen";
  case CUZK_RPC_ESYS: return "system call failed";
  case CUZK_RPC_ENOMEM: return "out of memory";
  case CUZK_RPC_EGRPC: return "gRPC core error";
  }
  return "unknown error";
}

const char *cuzk_rpc_status_name(int status) {
  static const char *const names[] = {"OK",
                                      "CANCELLED",
                                      "UNKNOWN",
                                      "INVALID_ARGUMENT",
                                      "DEADLINE_EXCEEDED",
                                      "NOT_FOUND",
                                      "ALREADY_EXISTS",
                                      "PERMISSION_DENIED",
                                      "RESOURCE_EXHAUSTED",
                                      "FAILED_PRECONDITION",
                                      "ABORTED",
                                      "OUT_OF_RANGE",
                                      "UNIMPLEMENTED",
                                      "INTERNAL",
                                      "UNAVAILABLE",
                                      "DATA_LOSS",
                                      "UNAUTHENTICATED"};
  return status >= 0 && status < (int)(sizeof names / sizeof names[0]) ? names[status] : "?";
}

/* Formats the message into err (if err && errlen) and evaluates to the code
 * (cuzk/util/errmsg.h). */
#define fail CUZK_FAIL

static uint64_t mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- gRPC's own log ---------------------------------------------------------------------- */

static _Atomic(cuzk_rpc_log_fn) log_sink;

static void log_trampoline(gpr_log_func_args *a) {
  cuzk_rpc_log_fn fn = atomic_load(&log_sink);
  if (fn) fn((int)a->severity, a->file, a->line, a->message);
}

void cuzk_rpc_set_log(cuzk_rpc_log_fn fn) {
  atomic_store(&log_sink, fn);
  gpr_set_log_function(log_trampoline);
}

/* ---- addresses ---------------------------------------------------------------------------- */

/* A parsed listen address: unix socket path, or a TCP address passed to gRPC as written. */
typedef struct {
  bool is_unix;
  char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
} listen_addr;

static bool parse_port(const char *p) {
  size_t n = strlen(p);
  if (n == 0 || n > 5 || strspn(p, "0123456789") != n) return false;
  return atoi(p) <= 65535;
}

static cuzk_rpc_err parse_listen(const char *addr, listen_addr *a, char *err, size_t errlen) {
  memset(a, 0, sizeof *a);
  if (!addr || !*addr) return fail(err, errlen, CUZK_RPC_EADDR, "empty listen address");
  if (strncmp(addr, "unix:", 5) == 0) {
    const char *p = addr + 5;
    if (strncmp(p, "//", 2) == 0) {
      if (p[2] != '/')
        return fail(err, errlen, CUZK_RPC_EADDR,
                    "listen address '%s': unix:// takes an absolute path (unix:///path)", addr);
      p += 2;
    }
    if (!*p) return fail(err, errlen, CUZK_RPC_EADDR, "listen address '%s': empty path", addr);
    if (strlen(p) >= sizeof a->path)
      return fail(err, errlen, CUZK_RPC_EADDR, "listen address '%s': path longer than %zu bytes",
                  addr, sizeof a->path - 1);
    a->is_unix = true;
    strcpy(a->path, p);
    return CUZK_RPC_OK;
  }
  if (strstr(addr, "://") || strncmp(addr, "unix-abstract:", 14) == 0)
    return fail(err, errlen, CUZK_RPC_EADDR,
                "listen address '%s': use unix:///path, unix:path, IP:port, [IPv6]:port or "
                "host:port",
                addr);
  const char *colon;
  if (addr[0] == '[') {
    const char *close = strchr(addr, ']');
    size_t n = close ? (size_t)(close - addr - 1) : 0;
    if (!close || n == 0 || strspn(addr + 1, "0123456789abcdefABCDEF:.%") < n || close[1] != ':')
      return fail(err, errlen, CUZK_RPC_EADDR, "listen address '%s': expected [IPv6]:port", addr);
    colon = close + 1;
  } else {
    colon = strrchr(addr, ':');
    size_t n = colon ? (size_t)(colon - addr) : 0;
    if (!colon || n == 0 ||
        strspn(addr, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_") < n)
      return fail(err, errlen, CUZK_RPC_EADDR,
                  "listen address '%s': expected IP:port, [IPv6]:port, host:port or unix:path",
                  addr);
  }
  if (!parse_port(colon + 1))
    return fail(err, errlen, CUZK_RPC_EADDR, "listen address '%s': bad port '%s'", addr, colon + 1);
  return CUZK_RPC_OK;
}

cuzk_rpc_err cuzk_rpc_listen_address_check(const char *addr, char *err, size_t errlen) {
  listen_addr a;
  return parse_listen(addr, &a, err, errlen);
}

cuzk_rpc_err cuzk_rpc_client_target(const char *addr, char *out, size_t outlen) {
  if (!addr || !*addr || !out) return CUZK_RPC_EADDR;
  int n;
  if (strncmp(addr, "http://", 7) == 0) {
    const char *hp = addr + 7;
    size_t len = strcspn(hp, "/");
    if (len == 0 || hp[len + (hp[len] == '/')] != '\0') return CUZK_RPC_EADDR;
    n = snprintf(out, outlen, "dns:///%.*s", (int)len, hp);
  } else if (strstr(addr, "://") || strncmp(addr, "unix:", 5) == 0) {
    n = snprintf(out, outlen, "%s", addr);
  } else {
    n = snprintf(out, outlen, "dns:///%s", addr);
  }
  return n < 0 || (size_t)n >= outlen ? CUZK_RPC_EADDR : CUZK_RPC_OK;
}

/* mkdir -p of the directory part of path (mode 0755); 0 or -1 with errno. */
static int make_parents(const char *path) {
  char dir[sizeof(((struct sockaddr_un *)0)->sun_path)];
  snprintf(dir, sizeof dir, "%s", path);
  char *slash = strrchr(dir, '/');
  if (!slash || slash == dir) return 0;
  *slash = '\0';
  for (char *p = dir + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) return -1;
    *p = '/';
  }
  return mkdir(dir, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

/* A PEM file, NUL-terminated (at most 1 MiB: certificates and keys are a few KiB); NULL with
 * *why (errno's text, or the size) if it cannot be read whole. */
static char *read_pem(const char *path, const char **why) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    *why = strerror(errno);
    return NULL;
  }
  char *buf = malloc((1u << 20) + 1);
  size_t n = buf ? fread(buf, 1, 1u << 20, f) : 0;
  *why = !buf ? "out of memory" : ferror(f) ? strerror(errno) : !feof(f) ? "over 1 MiB" : NULL;
  fclose(f);
  if (*why) {
    free(buf);
    return NULL;
  }
  buf[n] = 0;
  return buf;
}

/* SSL server credentials from the options' PEM files, checked first (tls_pem.h); errors name the
 * option and its file. */
static cuzk_rpc_err tls_credentials(grpc_server_credentials **out, const cuzk_rpc_server_opts *o,
                                    char *err, size_t errlen) {
  const char *paths[3] = {o->tls_cert, o->tls_key, o->tls_client_ca};
  const char *opt[3] = {"tls_cert", "tls_key", "tls_client_ca"};
  char *pem[3] = {NULL, NULL, NULL};
  cuzk_rpc_err e = CUZK_RPC_OK;
  for (int k = 0; k < 3 && !e; k++) {
    const char *why = NULL;
    if (paths[k] && !(pem[k] = read_pem(paths[k], &why)))
      e = fail(err, errlen, CUZK_RPC_ESYS, "%s '%s': cannot read it: %s", opt[k], paths[k], why);
  }
  if (!e) e = cuzk_tls_pem_check(paths[0], pem[0], paths[1], pem[1], paths[2], pem[2], err, errlen);
  if (!e) {
    grpc_ssl_pem_key_cert_pair pair = {pem[1], pem[0]};
    grpc_ssl_client_certificate_request_type req =
        !pem[2]                      ? GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE
        : o->tls_require_client_cert ? GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY
                                     : GRPC_SSL_REQUEST_CLIENT_CERTIFICATE_AND_VERIFY;
    *out = grpc_ssl_server_credentials_create_ex(pem[2], &pair, 1, req, NULL);
    if (!*out) e = fail(err, errlen, CUZK_RPC_EGRPC, "TLS: the certificate or key is not usable");
  }
  for (int k = 0; k < 3; k++)
    free(pem[k]);
  return e;
}

/* Whether a server accepts connections on the unix socket at path. */
static bool socket_answers(const char *path) {
  int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (s < 0) return false;
  struct sockaddr_un a;
  memset(&a, 0, sizeof a);
  a.sun_family = AF_UNIX;
  snprintf(a.sun_path, sizeof a.sun_path, "%s", path);
  bool live = connect(s, (struct sockaddr *)&a, sizeof a) == 0; /* refused: nobody listens */
  close(s);
  return live;
}

/* Takes "<path>.lock" and removes a stale socket at path. Returns the lock's fd or -1. */
static int lock_socket(const char *path, cuzk_rpc_err *e, char *err, size_t errlen) {
  char lock[sizeof(((struct sockaddr_un *)0)->sun_path) + 8];
  snprintf(lock, sizeof lock, "%s.lock", path);
  if (make_parents(path) != 0) {
    *e = fail(err, errlen, CUZK_RPC_ESYS, "cannot create the directory of unix socket %s: %s", path,
              strerror(errno));
    return -1;
  }
  int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) {
    *e = fail(err, errlen, CUZK_RPC_ESYS, "cannot open lock file %s: %s", lock, strerror(errno));
    return -1;
  }
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int en = errno;
    close(fd);
    if (en == EWOULDBLOCK)
      *e = fail(err, errlen, CUZK_RPC_ELOCKED, "unix socket %s is in use: another server holds %s",
                path, lock);
    else
      *e = fail(err, errlen, CUZK_RPC_ESYS, "cannot lock %s: %s", lock, strerror(en));
    return -1;
  }
  struct stat st;
  if (lstat(path, &st) == 0) {
    if (!S_ISSOCK(st.st_mode)) {
      close(fd);
      *e = fail(err, errlen, CUZK_RPC_EADDR, "%s exists and is not a socket", path);
      return -1;
    }
    /* The lock can be lost (its file deleted: the next server locks a new one), so a socket is
     * stale only if nothing answers on it: a connection that succeeds means a live server. */
    if (socket_answers(path)) {
      close(fd);
      *e = fail(err, errlen, CUZK_RPC_ELOCKED,
                "unix socket %s is in use: a server answers on it (its lock file %s was removed)",
                path, lock);
      return -1;
    }
    if (unlink(path) != 0) {
      close(fd);
      *e = fail(err, errlen, CUZK_RPC_ESYS, "cannot remove stale socket %s: %s", path,
                strerror(errno));
      return -1;
    }
  }
  return fd;
}

/* ---- server state ------------------------------------------------------------------------- */

enum tag_kind { TAG_NEW, TAG_RECV, TAG_CLOSE, TAG_SEND, TAG_SHUTDOWN };
struct op_tag {
  enum tag_kind kind;
};

struct cuzk_rpc_call {
  cuzk_rpc_server *srv;
  cuzk_rpc_call *prev, *next; /* srv->live */
  grpc_call *call;
  grpc_call_details details;
  grpc_metadata_array md;
  grpc_byte_buffer *req, *resp;
  int close_cancelled; /* written by RECV_CLOSE_ON_SERVER */
  struct op_tag t_new, t_recv, t_close, t_send;
  unsigned method;      /* index into srv->methods; n_methods if unknown */
  uint64_t deadline_ns; /* CLOCK_MONOTONIC; UINT64_MAX: none */
  unsigned pending;     /* tags outstanding */
  bool app;             /* handed to the handler and not answered yet */
  bool replied;
  bool closed, cancelled; /* CLOSE completed; with a cancel */
  bool orphan;            /* outlived the server's gRPC objects */
  bool cb_fired, cb_running;
  pthread_t cb_thread;
  void (*on_cancel)(void *);
  void *on_cancel_user;
  cuzk_rpc_call *bulk_next; /* srv's bulk queue */
  size_t bulk_bytes;        /* its request's size while queued for or held by a bulk thread */
};

enum phase { RUNNING, DRAINING, CLOSED };

struct cuzk_rpc_server {
  pthread_mutex_t mu;
  pthread_cond_t cv; /* CLOCK_MONOTONIC; tags, shutdown_notified, cb_running changes */
  unsigned refs;     /* the owner until shutdown, plus one per orphan */
  enum phase phase;
  size_t tags; /* call tags outstanding in the CQ */
  bool shutdown_notified;
  struct op_tag t_shutdown;
  cuzk_rpc_call *live;

  grpc_server *server;
  grpc_completion_queue *cq;
  bool grpc_inited;
  pthread_t *threads;
  unsigned n_threads;

  /* Requests of CUZK_RPC_BULK_BYTES or more wait here for the bulk threads (RECV tag still
   * outstanding). bulk_bytes: their sizes, queued or in a handler; at most bulk_cap, beyond which
   * a CQ thread waits for room (the one backpressure left: memory stays bounded). */
  pthread_t bulk[CUZK_RPC_BULK_THREADS];
  unsigned n_bulk;
  pthread_cond_t bulk_cv; /* the queue has work, or bulk_quit */
  cuzk_rpc_call *bulk_head, **bulk_tail;
  size_t bulk_bytes, bulk_cap;
  bool bulk_quit;

  char **methods;
  unsigned n_methods;
  cuzk_rpc_handler_fn handler;
  void *user;

  size_t n_listen;
  int *ports;    /* bound TCP port per address, 0 for unix */
  int *lock_fds; /* per address, -1 for TCP */
};

#define CALL_OF(tag, member) ((cuzk_rpc_call *)((char *)(tag)-offsetof(cuzk_rpc_call, member)))

static void call_free_locked(cuzk_rpc_call *c) {
  cuzk_rpc_server *s = c->srv;
  if (!c->orphan) {
    if (c->prev)
      c->prev->next = c->next;
    else
      s->live = c->next;
    if (c->next) c->next->prev = c->prev;
    if (c->req) grpc_byte_buffer_destroy(c->req);
    if (c->resp) grpc_byte_buffer_destroy(c->resp);
    if (c->call) grpc_call_unref(c->call);
    grpc_call_details_destroy(&c->details);
    grpc_metadata_array_destroy(&c->md);
  }
  free(c);
}

/* Frees c once no tag, callback or application refers to it. An orphan also drops its
 * reference to the server's memory: true means that was the last one (server_free_memory). */
static bool call_settle_locked(cuzk_rpc_call *c) {
  if (c->pending || c->app) return false;
  if (!c->orphan) {
    call_free_locked(c);
    return false;
  }
  cuzk_rpc_server *s = c->srv;
  free(c);
  return --s->refs == 0;
}

/* Drops one outstanding tag of c and frees c if nothing else refers to it. Tags exist only
 * while the server's gRPC objects do, so c is never an orphan here. */
static void call_release_tag_locked(cuzk_rpc_call *c) {
  cuzk_rpc_server *s = c->srv;
  c->pending--;
  if (--s->tags == 0 && s->phase != RUNNING) pthread_cond_broadcast(&s->cv);
  call_settle_locked(c);
}

static grpc_call_error start_locked(cuzk_rpc_call *c, const grpc_op *ops, size_t n,
                                    struct op_tag *tag) {
  c->pending++;
  c->srv->tags++;
  grpc_call_error ge = grpc_call_start_batch(c->call, ops, n, tag, NULL);
  if (ge != GRPC_CALL_OK) {
    c->pending--;
    c->srv->tags--;
  }
  return ge;
}

/* The final batch: initial metadata, the message (if bb), the status. */
static void send_status_locked(cuzk_rpc_call *c, int status, const char *msg,
                               grpc_byte_buffer *bb) {
  grpc_op ops[3];
  size_t n = 0;
  memset(ops, 0, sizeof ops);
  ops[n++].op = GRPC_OP_SEND_INITIAL_METADATA;
  if (bb) {
    ops[n].op = GRPC_OP_SEND_MESSAGE;
    ops[n++].data.send_message.send_message = bb;
  }
  grpc_slice details = grpc_empty_slice();
  if (msg && *msg) details = grpc_slice_from_copied_string(msg);
  ops[n].op = GRPC_OP_SEND_STATUS_FROM_SERVER;
  ops[n].data.send_status_from_server.status = (grpc_status_code)status;
  ops[n++].data.send_status_from_server.status_details = msg && *msg ? &details : NULL;
  c->replied = true;
  if (start_locked(c, ops, n, &c->t_send) == GRPC_CALL_OK)
    c->resp = bb;
  else if (bb)
    grpc_byte_buffer_destroy(bb);
  grpc_slice_unref(details); /* start_batch took its own reference */
}

/* Posts one grpc_server_request_call; false if that failed. */
static bool post_request_locked(cuzk_rpc_server *s) {
  cuzk_rpc_call *c = calloc(1, sizeof *c);
  if (!c) return false;
  c->srv = s;
  c->t_new.kind = TAG_NEW;
  c->t_recv.kind = TAG_RECV;
  c->t_close.kind = TAG_CLOSE;
  c->t_send.kind = TAG_SEND;
  grpc_call_details_init(&c->details);
  grpc_metadata_array_init(&c->md);
  c->next = s->live;
  if (s->live) s->live->prev = c;
  s->live = c;
  c->pending = 1;
  s->tags++;
  if (grpc_server_request_call(s->server, &c->call, &c->details, &c->md, s->cq, s->cq, &c->t_new) !=
      GRPC_CALL_OK) {
    call_release_tag_locked(c);
    return false;
  }
  return true;
}

static uint64_t deadline_of(gpr_timespec d) {
  if (gpr_time_cmp(d, gpr_inf_future(d.clock_type)) == 0) return UINT64_MAX;
  gpr_timespec left = gpr_time_sub(d, gpr_now(d.clock_type));
  if (left.tv_sec > 1000000000) return UINT64_MAX; /* over 30 years ("grpc-timeout: 99999999H") */
  int64_t ns = left.tv_sec * 1000000000 + left.tv_nsec;
  return mono_ns() + (ns > 0 ? (uint64_t)ns : 0);
}

/* Runs the cancel callback if c is cancelled, still held by the application, and the callback
 * is registered and unfired. Called and returns with the lock held; drops it around fn. The
 * caller settles c afterwards. */
static void maybe_fire_cancel_locked(cuzk_rpc_call *c) {
  if (!c->cancelled || !c->app || !c->on_cancel || c->cb_fired) return;
  c->cb_fired = c->cb_running = true;
  c->cb_thread = pthread_self();
  void (*fn)(void *) = c->on_cancel;
  void *user = c->on_cancel_user;
  c->pending++; /* fn may answer the call: keep c until we are back */
  pthread_mutex_unlock(&c->srv->mu);
  fn(user);
  pthread_mutex_lock(&c->srv->mu);
  c->pending--;
  c->cb_running = false;
  pthread_cond_broadcast(&c->srv->cv);
}

static void on_new(cuzk_rpc_server *s, cuzk_rpc_call *c, bool ok) {
  pthread_mutex_lock(&s->mu);
  if (!ok) { /* the server is shutting down: the request is withdrawn */
    call_release_tag_locked(c);
    pthread_mutex_unlock(&s->mu);
    return;
  }
  if (s->phase == RUNNING) post_request_locked(s);
  c->deadline_ns = deadline_of(c->details.deadline);
  c->method = s->n_methods;
  for (unsigned i = 0; i < s->n_methods; i++)
    if (grpc_slice_str_cmp(c->details.method, s->methods[i]) == 0) c->method = i;

  grpc_op op;
  memset(&op, 0, sizeof op);
  op.op = GRPC_OP_RECV_CLOSE_ON_SERVER;
  op.data.recv_close_on_server.cancelled = &c->close_cancelled;
  if (start_locked(c, &op, 1, &c->t_close) != GRPC_CALL_OK) {
    grpc_call_cancel(c->call, NULL); /* cannot watch it: drop it */
  } else if (c->method == s->n_methods) {
    char *path = grpc_slice_to_c_string(c->details.method);
    char msg[256];
    snprintf(msg, sizeof msg, "unknown method %s", path ? path : "?");
    gpr_free(path);
    send_status_locked(c, GRPC_STATUS_UNIMPLEMENTED, msg, NULL);
  } else {
    memset(&op, 0, sizeof op);
    op.op = GRPC_OP_RECV_MESSAGE;
    op.data.recv_message.recv_message = &c->req;
    if (start_locked(c, &op, 1, &c->t_recv) != GRPC_CALL_OK)
      send_status_locked(c, GRPC_STATUS_INTERNAL, "cannot receive the request", NULL);
  }
  call_release_tag_locked(c);
  pthread_mutex_unlock(&s->mu);
}

/* The request of c to the handler, then the RECV tag released: on a CQ thread for small
 * requests, on a bulk thread for large ones. */
static void handle_request(cuzk_rpc_server *s, cuzk_rpc_call *c, bool ok) {
  grpc_slice flat = grpc_empty_slice();
  bool have = ok && c->req;
  if (have) { /* flatten outside the lock: protobuf-c needs contiguous bytes */
    grpc_byte_buffer_reader r;
    if (grpc_byte_buffer_reader_init(&r, c->req)) {
      flat = grpc_byte_buffer_reader_readall(&r);
      grpc_byte_buffer_reader_destroy(&r);
    } else {
      have = false;
    }
    grpc_byte_buffer_destroy(c->req); /* lowers the peak for large requests */
    c->req = NULL;
  }
  pthread_mutex_lock(&s->mu);
  bool run = have && !c->cancelled;
  if (run)
    c->app = true;
  else if (!c->closed && !c->replied) /* a client that sent no message, or a failed read */
    send_status_locked(c, GRPC_STATUS_INTERNAL, have ? "call cancelled" : "no request message",
                       NULL);
  pthread_mutex_unlock(&s->mu);
  if (run) s->handler(s->user, c, c->method, GRPC_SLICE_START_PTR(flat), GRPC_SLICE_LENGTH(flat));
  grpc_slice_unref(flat);
  pthread_mutex_lock(&s->mu);
  call_release_tag_locked(c);
  pthread_mutex_unlock(&s->mu);
}

static void on_recv(cuzk_rpc_server *s, cuzk_rpc_call *c, bool ok) {
  size_t n = ok && c->req ? grpc_byte_buffer_length(c->req) : 0;
  if (n < CUZK_RPC_BULK_BYTES || !s->n_bulk) {
    handle_request(s, c, ok);
    return;
  }
  pthread_mutex_lock(&s->mu);
  while (s->bulk_bytes && s->bulk_bytes + n > s->bulk_cap)
    pthread_cond_wait(&s->cv, &s->mu);
  s->bulk_bytes += n;
  c->bulk_bytes = n;
  c->bulk_next = NULL;
  *s->bulk_tail = c;
  s->bulk_tail = &c->bulk_next;
  pthread_cond_signal(&s->bulk_cv);
  pthread_mutex_unlock(&s->mu);
}

static void *bulk_thread(void *arg) {
  cuzk_rpc_server *s = arg;
  pthread_mutex_lock(&s->mu);
  for (;;) {
    while (!s->bulk_head && !s->bulk_quit)
      pthread_cond_wait(&s->bulk_cv, &s->mu);
    cuzk_rpc_call *c = s->bulk_head;
    if (!c) break;
    s->bulk_head = c->bulk_next;
    if (!s->bulk_head) s->bulk_tail = &s->bulk_head;
    size_t n = c->bulk_bytes; /* c may be freed once handled */
    pthread_mutex_unlock(&s->mu);
    handle_request(s, c, true);
    pthread_mutex_lock(&s->mu);
    s->bulk_bytes -= n;
    pthread_cond_broadcast(&s->cv); /* room for a CQ thread waiting to queue */
  }
  pthread_mutex_unlock(&s->mu);
  return NULL;
}

/* Once no tag is outstanding (the queue is empty): the bulk threads exit. */
static void stop_bulk(cuzk_rpc_server *s) {
  pthread_mutex_lock(&s->mu);
  s->bulk_quit = true;
  pthread_cond_broadcast(&s->bulk_cv);
  pthread_mutex_unlock(&s->mu);
  for (unsigned i = 0; i < s->n_bulk; i++)
    pthread_join(s->bulk[i], NULL);
  s->n_bulk = 0;
}

static void on_close(cuzk_rpc_server *s, cuzk_rpc_call *c, bool ok) {
  pthread_mutex_lock(&s->mu);
  c->closed = true;
  c->cancelled = c->close_cancelled != 0 || !ok;
  maybe_fire_cancel_locked(c);
  call_release_tag_locked(c);
  pthread_mutex_unlock(&s->mu);
}

static void on_send(cuzk_rpc_server *s, cuzk_rpc_call *c) {
  pthread_mutex_lock(&s->mu);
  if (c->resp) grpc_byte_buffer_destroy(c->resp);
  c->resp = NULL;
  call_release_tag_locked(c);
  pthread_mutex_unlock(&s->mu);
}

static void *cq_thread(void *arg) {
  cuzk_rpc_server *s = arg;
  for (;;) {
    grpc_event ev = grpc_completion_queue_next(s->cq, gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
    if (ev.type == GRPC_QUEUE_SHUTDOWN) break;
    if (ev.type != GRPC_OP_COMPLETE) continue;
    struct op_tag *t = ev.tag;
    bool ok = ev.success != 0;
    switch (t->kind) {
    case TAG_NEW: on_new(s, CALL_OF(t, t_new), ok); break;
    case TAG_RECV: on_recv(s, CALL_OF(t, t_recv), ok); break;
    case TAG_CLOSE: on_close(s, CALL_OF(t, t_close), ok); break;
    case TAG_SEND: on_send(s, CALL_OF(t, t_send)); break;
    case TAG_SHUTDOWN:
      pthread_mutex_lock(&s->mu);
      s->shutdown_notified = true;
      pthread_cond_broadcast(&s->cv);
      pthread_mutex_unlock(&s->mu);
      break;
    }
  }
  return NULL;
}

/* ---- calls: the application's side -------------------------------------------------------- */

static void server_free_memory(cuzk_rpc_server *s) {
  pthread_cond_destroy(&s->bulk_cv);
  pthread_cond_destroy(&s->cv);
  pthread_mutex_destroy(&s->mu);
  free(s);
}

void cuzk_rpc_reply_owned(cuzk_rpc_call *c, int status, const char *msg, uint8_t *resp,
                          size_t len) {
  if (!c) {
    free(resp);
    return;
  }
  cuzk_rpc_server *s = c->srv;
  pthread_mutex_lock(&s->mu);
  while (c->cb_running && !pthread_equal(c->cb_thread, pthread_self()))
    pthread_cond_wait(&s->cv, &s->mu);
  if (c->replied || !c->app) { /* a second reply: ignore it rather than corrupt the call */
    pthread_mutex_unlock(&s->mu);
    free(resp);
    return;
  }
  c->app = false;
  c->replied = true;
  if (c->orphan || c->closed || status != GRPC_STATUS_OK) {
    free(resp); /* cancelled (nobody listens any more), or an error status: no message */
    resp = NULL;
  }
  if (c->orphan || c->closed) {
    bool last = call_settle_locked(c);
    pthread_mutex_unlock(&s->mu);
    if (last) server_free_memory(s);
    return;
  }
  grpc_byte_buffer *bb = NULL;
  if (status == GRPC_STATUS_OK) { /* the slice takes resp: no copy */
    grpc_slice slice = resp ? grpc_slice_new(resp, len, free) : grpc_empty_slice();
    bb = grpc_raw_byte_buffer_create(&slice, 1);
    grpc_slice_unref(slice);
  }
  send_status_locked(c, status, msg, bb);
  call_settle_locked(c);
  pthread_mutex_unlock(&s->mu);
}

void cuzk_rpc_reply(cuzk_rpc_call *c, int status, const char *msg, const uint8_t *resp,
                    size_t len) {
  uint8_t *copy = NULL;
  if (status == GRPC_STATUS_OK && len) {
    if (!(copy = malloc(len))) {
      cuzk_rpc_reply_owned(c, GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory for the reply", NULL,
                           0);
      return;
    }
    memcpy(copy, resp, len);
  }
  cuzk_rpc_reply_owned(c, status, msg, copy, len);
}

void cuzk_rpc_call_on_cancel(cuzk_rpc_call *c, void (*fn)(void *user), void *user) {
  if (!c) return;
  cuzk_rpc_server *s = c->srv;
  pthread_mutex_lock(&s->mu);
  if (!c->cb_fired) {
    c->on_cancel = fn;
    c->on_cancel_user = user;
    maybe_fire_cancel_locked(c);
  }
  bool last = call_settle_locked(c);
  pthread_mutex_unlock(&s->mu);
  if (last) server_free_memory(s);
}

uint64_t cuzk_rpc_call_deadline_ms(const cuzk_rpc_call *c) {
  if (c->deadline_ns == UINT64_MAX) return UINT64_MAX;
  uint64_t now = mono_ns();
  return c->deadline_ns > now ? (c->deadline_ns - now) / 1000000 : 0;
}

/* ---- server start and shutdown ------------------------------------------------------------ */

static void wait_locked(cuzk_rpc_server *s, uint64_t until_ns) {
  if (until_ns == UINT64_MAX) {
    pthread_cond_wait(&s->cv, &s->mu);
    return;
  }
  struct timespec ts = {(time_t)(until_ns / 1000000000u), (long)(until_ns % 1000000000u)};
  pthread_cond_timedwait(&s->cv, &s->mu, &ts);
}

/* Shuts the gRPC server down (grace, then cancel all), waits for every outstanding tag, makes
 * orphans of the calls the application holds, and destroys the server, threads and CQ. */
static void stop_grpc(cuzk_rpc_server *s, unsigned grace_ms) {
  pthread_mutex_lock(&s->mu);
  s->phase = DRAINING;
  pthread_mutex_unlock(&s->mu);
  grpc_server_shutdown_and_notify(s->server, s->cq, &s->t_shutdown);
  if (s->n_threads == 0) { /* failed start: no calls; drain the notification here */
    for (;;) {
      grpc_event ev = grpc_completion_queue_next(s->cq, gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
      if (ev.type == GRPC_OP_COMPLETE && ev.tag == &s->t_shutdown) break;
    }
  } else {
    uint64_t until = mono_ns() + (uint64_t)grace_ms * 1000000u;
    pthread_mutex_lock(&s->mu);
    while (!s->shutdown_notified && mono_ns() < until)
      wait_locked(s, until);
    bool notified = s->shutdown_notified;
    pthread_mutex_unlock(&s->mu);
    if (!notified) grpc_server_cancel_all_calls(s->server);
    pthread_mutex_lock(&s->mu);
    while (!s->shutdown_notified || s->tags > 0)
      wait_locked(s, UINT64_MAX);
    /* No tag is outstanding, so every call left is held by the application: orphan it. */
    s->phase = CLOSED;
    for (cuzk_rpc_call *c = s->live, *next; c; c = next) {
      next = c->next;
      if (c->call) grpc_call_unref(c->call);
      grpc_call_details_destroy(&c->details);
      grpc_metadata_array_destroy(&c->md);
      c->call = NULL;
      c->orphan = c->cancelled = c->closed = true;
      s->refs++;
    }
    s->live = NULL;
    pthread_mutex_unlock(&s->mu);
  }
  stop_bulk(s);
  grpc_server_destroy(s->server);
  s->server = NULL;
  grpc_completion_queue_shutdown(s->cq);
  for (unsigned i = 0; i < s->n_threads; i++)
    pthread_join(s->threads[i], NULL);
  if (s->n_threads == 0)
    while (grpc_completion_queue_next(s->cq, gpr_inf_future(GPR_CLOCK_REALTIME), NULL).type !=
           GRPC_QUEUE_SHUTDOWN) {
    }
  grpc_completion_queue_destroy(s->cq);
  s->cq = NULL;
}

/* Frees everything but the memory orphans still need; the last reference frees that. */
static void server_release(cuzk_rpc_server *s) {
  if (s->server) {
    stop_grpc(s, 0);
  } else if (s->cq) { /* the server was never created: nothing can be queued */
    grpc_completion_queue_shutdown(s->cq);
    while (grpc_completion_queue_next(s->cq, gpr_inf_future(GPR_CLOCK_REALTIME), NULL).type !=
           GRPC_QUEUE_SHUTDOWN) {
    }
    grpc_completion_queue_destroy(s->cq);
  }
  if (s->grpc_inited) grpc_shutdown();
  for (size_t i = 0; s->lock_fds && i < s->n_listen; i++)
    if (s->lock_fds[i] >= 0) close(s->lock_fds[i]); /* the lock file stays: see docs */
  for (unsigned i = 0; s->methods && i < s->n_methods; i++)
    free(s->methods[i]);
  free(s->methods);
  free(s->lock_fds);
  free(s->ports);
  free(s->threads);
  pthread_mutex_lock(&s->mu);
  bool last = --s->refs == 0;
  pthread_mutex_unlock(&s->mu);
  if (last) server_free_memory(s);
}

static cuzk_rpc_err check_opts(const cuzk_rpc_server_opts *o, char *err, size_t errlen) {
  if (!o || !o->listen || o->n_listen == 0)
    return fail(err, errlen, CUZK_RPC_EINVAL, "no listen address");
  if (!o->methods || o->n_methods == 0 || !o->handler)
    return fail(err, errlen, CUZK_RPC_EINVAL, "no methods or no handler");
  for (unsigned i = 0; i < o->n_methods; i++)
    if (!o->methods[i] || o->methods[i][0] != '/')
      return fail(err, errlen, CUZK_RPC_EINVAL, "method %u: expected a path /pkg.Service/Method",
                  i);
  if (o->max_message_bytes > INT_MAX)
    return fail(err, errlen, CUZK_RPC_EINVAL, "max message size %zu is over 2 GiB - 1",
                o->max_message_bytes);
  if (o->cq_threads > 64)
    return fail(err, errlen, CUZK_RPC_EINVAL, "%u transport threads (at most 64)", o->cq_threads);
  if (o->socket_mode > 07777)
    return fail(err, errlen, CUZK_RPC_EINVAL, "socket mode %o is not a file mode", o->socket_mode);
  /* the TLS options as a whole: a client CA without a certificate once meant plaintext served */
  if (!o->tls_cert && (o->tls_key || o->tls_client_ca || o->tls_require_client_cert))
    return fail(err, errlen, CUZK_RPC_EINVAL, "%s without tls_cert and tls_key",
                o->tls_key         ? "tls_key"
                : o->tls_client_ca ? "tls_client_ca"
                                   : "tls_require_client_cert");
  if (o->tls_cert && !o->tls_key)
    return fail(err, errlen, CUZK_RPC_EINVAL, "tls_cert without tls_key");
  if (o->tls_require_client_cert && !o->tls_client_ca)
    return fail(err, errlen, CUZK_RPC_EINVAL, "tls_require_client_cert without tls_client_ca");
  return CUZK_RPC_OK;
}

cuzk_rpc_err cuzk_rpc_server_start(cuzk_rpc_server **out, const cuzk_rpc_server_opts *o, char *err,
                                   size_t errlen) {
  if (err && errlen) err[0] = '\0';
  if (!out) return fail(err, errlen, CUZK_RPC_EINVAL, "no output handle");
  *out = NULL;
  cuzk_rpc_err e = check_opts(o, err, errlen);
  if (e) return e;
  listen_addr *addrs = calloc(o->n_listen, sizeof *addrs);
  if (!addrs) return fail(err, errlen, CUZK_RPC_ENOMEM, "out of memory");
  for (size_t i = 0; i < o->n_listen; i++)
    if ((e = parse_listen(o->listen[i], &addrs[i], err, errlen))) {
      free(addrs);
      return e;
    }

  cuzk_rpc_server *s = calloc(1, sizeof *s);
  if (!s) {
    free(addrs);
    return fail(err, errlen, CUZK_RPC_ENOMEM, "out of memory");
  }
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&s->cv, &ca);
  pthread_condattr_destroy(&ca);
  pthread_cond_init(&s->bulk_cv, NULL);
  pthread_mutex_init(&s->mu, NULL);
  s->bulk_tail = &s->bulk_head;
  s->refs = 1;
  s->t_shutdown.kind = TAG_SHUTDOWN;
  s->handler = o->handler;
  s->user = o->user;
  s->n_listen = o->n_listen;
  s->ports = calloc(o->n_listen, sizeof *s->ports);
  s->lock_fds = malloc(o->n_listen * sizeof *s->lock_fds);
  s->methods = calloc(o->n_methods, sizeof *s->methods);
  unsigned nthreads = o->cq_threads ? o->cq_threads : 2;
  s->threads = calloc(nthreads, sizeof *s->threads);
  if (!s->ports || !s->lock_fds || !s->methods || !s->threads) {
    e = fail(err, errlen, CUZK_RPC_ENOMEM, "out of memory");
    goto out;
  }
  for (size_t i = 0; i < o->n_listen; i++)
    s->lock_fds[i] = -1;
  for (s->n_methods = 0; s->n_methods < o->n_methods; s->n_methods++)
    if (!(s->methods[s->n_methods] = strdup(o->methods[s->n_methods]))) {
      e = fail(err, errlen, CUZK_RPC_ENOMEM, "out of memory");
      goto out;
    }

  /* Lock files first: a second daemon must fail before gRPC removes the first one's socket. */
  for (size_t i = 0; i < o->n_listen; i++)
    if (addrs[i].is_unix && (s->lock_fds[i] = lock_socket(addrs[i].path, &e, err, errlen)) < 0)
      goto out;

  grpc_init();
  s->grpc_inited = true;
  int max = o->max_message_bytes ? (int)o->max_message_bytes : (int)CUZK_RPC_DEFAULT_MAX_MESSAGE;
  grpc_arg args[3] = {
      {.type = GRPC_ARG_INTEGER, .key = GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH, .value.integer = max},
      {.type = GRPC_ARG_INTEGER, .key = GRPC_ARG_MAX_SEND_MESSAGE_LENGTH, .value.integer = max},
      /* Without this a second server on the same TCP port binds too and takes half the
       * connections. */
      {.type = GRPC_ARG_INTEGER, .key = GRPC_ARG_ALLOW_REUSEPORT, .value.integer = 0},
  };
  grpc_channel_args cargs = {.num_args = 3, .args = args};
  s->server = grpc_server_create(&cargs, NULL);
  s->cq = grpc_completion_queue_create_for_next(NULL);
  if (!s->server || !s->cq) {
    e = fail(err, errlen, CUZK_RPC_EGRPC, "cannot create the gRPC server");
    goto out;
  }
  grpc_server_register_completion_queue(s->server, s->cq, NULL);

  grpc_server_credentials *creds = grpc_insecure_server_credentials_create();
  grpc_server_credentials *tls = NULL;
  if (o->tls_cert && (e = tls_credentials(&tls, o, err, errlen))) {
    grpc_server_credentials_release(creds);
    goto out;
  }
  for (size_t i = 0; i < o->n_listen && !e; i++) {
    char target[sizeof addrs[i].path + 8];
    if (addrs[i].is_unix)
      snprintf(target, sizeof target, "unix:%s", addrs[i].path);
    else
      snprintf(target, sizeof target, "%s", o->listen[i]);
    int port =
        grpc_server_add_http2_port(s->server, target, tls && !addrs[i].is_unix ? tls : creds);
    if (port <= 0)
      e = fail(err, errlen, CUZK_RPC_ELISTEN,
               "cannot listen on '%s' (address in use, not local, or not resolvable)",
               o->listen[i]);
    else if (!addrs[i].is_unix)
      s->ports[i] = port;
    else if (o->socket_mode && chmod(addrs[i].path, (mode_t)o->socket_mode) != 0)
      e = fail(err, errlen, CUZK_RPC_ESYS, "cannot chmod %o unix socket %s: %s", o->socket_mode,
               addrs[i].path, strerror(errno));
  }
  grpc_server_credentials_release(creds);
  if (tls) grpc_server_credentials_release(tls);
  if (e) goto out;

  /* large requests' queue: 4 of the largest at once, then CQ threads wait for room */
  s->bulk_cap = 4 * (size_t)max;
  for (; s->n_bulk < CUZK_RPC_BULK_THREADS; s->n_bulk++)
    if (pthread_create(&s->bulk[s->n_bulk], NULL, bulk_thread, s) != 0) {
      e = fail(err, errlen, CUZK_RPC_ESYS, "cannot start bulk thread %u", s->n_bulk);
      goto out;
    }
  for (; s->n_threads < nthreads; s->n_threads++)
    if (pthread_create(&s->threads[s->n_threads], NULL, cq_thread, s) != 0) {
      e = fail(err, errlen, CUZK_RPC_ESYS, "cannot start transport thread %u", s->n_threads);
      goto out;
    }
  grpc_server_start(s->server);
  /* Requests waiting for calls: each new call posts its replacement at once. */
  pthread_mutex_lock(&s->mu);
  unsigned posted = 0;
  for (unsigned i = 0; i < 4 * nthreads + 8; i++)
    posted += post_request_locked(s);
  pthread_mutex_unlock(&s->mu);
  if (!posted) {
    e = fail(err, errlen, CUZK_RPC_EGRPC, "cannot request calls from the gRPC server");
    goto out;
  }
  free(addrs);
  *out = s;
  return CUZK_RPC_OK;

out:
  free(addrs);
  server_release(s);
  return e;
}

int cuzk_rpc_server_bound_port(const cuzk_rpc_server *s, size_t i) {
  return s && i < s->n_listen ? s->ports[i] : 0;
}

void cuzk_rpc_server_shutdown(cuzk_rpc_server *s, unsigned grace_ms) {
  if (!s) return;
  stop_grpc(s, grace_ms);
  server_release(s);
}

/* ---- client ------------------------------------------------------------------------------- */

static void keep_caller_buffer(void *p) { (void)p; }

cuzk_rpc_err cuzk_rpc_client_call(const char *addr, const char *method_path, const uint8_t *req,
                                  size_t len, uint64_t timeout_ms, uint8_t **resp, size_t *resp_len,
                                  int *grpc_status, char *msg, size_t msglen) {
  if (msg && msglen) msg[0] = '\0';
  if (!resp || !resp_len || !grpc_status || !method_path || (len && !req))
    return fail(msg, msglen, CUZK_RPC_EINVAL, "missing argument");
  *resp = NULL;
  *resp_len = 0;
  *grpc_status = GRPC_STATUS_UNKNOWN;
  if (len > CUZK_RPC_CLIENT_MAX_MESSAGE)
    return fail(msg, msglen, CUZK_RPC_EINVAL, "request of %zu bytes is over the 256 MiB limit",
                len);
  char target[4096];
  if (cuzk_rpc_client_target(addr, target, sizeof target))
    return fail(msg, msglen, CUZK_RPC_EADDR, "bad daemon address '%s'", addr ? addr : "");

  grpc_init();
  cuzk_rpc_err e = CUZK_RPC_OK;
  grpc_arg args[2] = {
      {.type = GRPC_ARG_INTEGER,
       .key = GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH,
       .value.integer = (int)CUZK_RPC_CLIENT_MAX_MESSAGE},
      {.type = GRPC_ARG_INTEGER,
       .key = GRPC_ARG_MAX_SEND_MESSAGE_LENGTH,
       .value.integer = (int)CUZK_RPC_CLIENT_MAX_MESSAGE},
  };
  grpc_channel_args cargs = {.num_args = 2, .args = args};
  grpc_channel_credentials *creds = grpc_insecure_credentials_create();
  grpc_channel *ch = grpc_channel_create(target, creds, &cargs);
  grpc_channel_credentials_release(creds);
  grpc_completion_queue *cq = grpc_completion_queue_create_for_next(NULL);
  gpr_timespec deadline = gpr_inf_future(GPR_CLOCK_REALTIME);
  if (timeout_ms)
    deadline = gpr_time_add(
        gpr_now(GPR_CLOCK_MONOTONIC),
        gpr_time_from_millis(timeout_ms > INT64_MAX / 2 ? INT64_MAX / 2 : (int64_t)timeout_ms,
                             GPR_TIMESPAN));
  grpc_call *call = ch && cq ? grpc_channel_create_call(ch, NULL, GRPC_PROPAGATE_DEFAULTS, cq,
                                                        grpc_slice_from_static_string(method_path),
                                                        NULL, deadline, NULL)
                             : NULL;
  /* The request is sent from the caller's buffer without a copy: this function returns only
   * after the call has completed and every gRPC object that could refer to it is gone. */
  grpc_slice slice =
      len ? grpc_slice_new((void *)req, len, keep_caller_buffer) : grpc_empty_slice();
  grpc_byte_buffer *req_bb = grpc_raw_byte_buffer_create(&slice, 1);
  grpc_slice_unref(slice);
  grpc_byte_buffer *resp_bb = NULL;
  grpc_metadata_array initial_md, trailing_md;
  grpc_metadata_array_init(&initial_md);
  grpc_metadata_array_init(&trailing_md);
  grpc_status_code status = GRPC_STATUS_UNKNOWN;
  grpc_slice details = grpc_empty_slice();

  grpc_op ops[6];
  memset(ops, 0, sizeof ops);
  ops[0].op = GRPC_OP_SEND_INITIAL_METADATA;
  ops[1].op = GRPC_OP_SEND_MESSAGE;
  ops[1].data.send_message.send_message = req_bb;
  ops[2].op = GRPC_OP_SEND_CLOSE_FROM_CLIENT;
  ops[3].op = GRPC_OP_RECV_INITIAL_METADATA;
  ops[3].data.recv_initial_metadata.recv_initial_metadata = &initial_md;
  ops[4].op = GRPC_OP_RECV_MESSAGE;
  ops[4].data.recv_message.recv_message = &resp_bb;
  ops[5].op = GRPC_OP_RECV_STATUS_ON_CLIENT;
  ops[5].data.recv_status_on_client.trailing_metadata = &trailing_md;
  ops[5].data.recv_status_on_client.status = &status;
  ops[5].data.recv_status_on_client.status_details = &details;
  if (!call || grpc_call_start_batch(call, ops, 6, ops, NULL) != GRPC_CALL_OK) {
    e = fail(msg, msglen, CUZK_RPC_EGRPC, "cannot start the call to '%s'", target);
  } else {
    grpc_event ev;
    do
      ev = grpc_completion_queue_next(cq, gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
    while (ev.type != GRPC_OP_COMPLETE || ev.tag != ops);
    *grpc_status = (int)status;
    if (msg && msglen)
      snprintf(msg, msglen, "%.*s", (int)GRPC_SLICE_LENGTH(details),
               (const char *)GRPC_SLICE_START_PTR(details));
    if (status == GRPC_STATUS_OK && resp_bb) { /* one copy, slice by slice, into malloc */
      size_t n = grpc_byte_buffer_length(resp_bb), off = 0;
      grpc_byte_buffer_reader r;
      if (n && !(*resp = malloc(n))) {
        e = fail(msg, msglen, CUZK_RPC_ENOMEM, "out of memory for a %zu-byte response", n);
      } else if (n && !grpc_byte_buffer_reader_init(&r, resp_bb)) {
        e = fail(msg, msglen, CUZK_RPC_EGRPC, "cannot read the response");
      } else if (n) {
        grpc_slice sl;
        while (grpc_byte_buffer_reader_next(&r, &sl)) {
          size_t k = GRPC_SLICE_LENGTH(sl);
          if (k > n - off) k = n - off;
          memcpy(*resp + off, GRPC_SLICE_START_PTR(sl), k);
          off += k;
          grpc_slice_unref(sl);
        }
        grpc_byte_buffer_reader_destroy(&r);
        *resp_len = off;
      }
      if (e) {
        free(*resp);
        *resp = NULL;
      }
    }
  }
  if (resp_bb) grpc_byte_buffer_destroy(resp_bb);
  grpc_byte_buffer_destroy(req_bb);
  grpc_slice_unref(details);
  grpc_metadata_array_destroy(&initial_md);
  grpc_metadata_array_destroy(&trailing_md);
  if (call) grpc_call_unref(call);
  if (ch) grpc_channel_destroy(ch);
  if (cq) {
    grpc_completion_queue_shutdown(cq);
    while (grpc_completion_queue_next(cq, gpr_inf_future(GPR_CLOCK_REALTIME), NULL).type !=
           GRPC_QUEUE_SHUTDOWN) {
    }
    grpc_completion_queue_destroy(cq);
  }
  grpc_shutdown();
  return e;
}
