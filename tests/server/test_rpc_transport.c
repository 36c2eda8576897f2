/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * gRPC transport tests (src/server/grpc_transport.h), an in-process server and client over a unix
 * socket and over TCP 127.0.0.1:0: a full SubmitProofRequest -> AwaitProofResponse round trip
 * packed with protobuf-c (every field compared on both sides), a reply sent from another thread
 * after a delay (and the client's deadline seen by the server), 50 concurrent delayed calls, a
 * 100 MiB bytes field both ways (argv[1] MiB; 32 under the sanitizers), an over-limit request
 * (RESOURCE_EXHAUSTED, and the server goes on), an unknown method (UNIMPLEMENTED, the handler not
 * called), a client deadline shorter than the reply (DEADLINE_EXCEEDED at the client, the cancel
 * callback at the server, the late reply harmless), a second server on the same socket or port
 * refused, and shutdown with calls still pending (grace, cancel, replies after shutdown); while
 * three large requests (CUZK_RPC_BULK_BYTES and more) are held in their handler, every bulk thread
 * busy and one waiting, small calls are still answered (the handlers of large requests run on the
 * bulk threads, never on the threads that drive the sockets). Also:
 * address checks, client targets, option checks, socket mode, stale socket removal, a failed
 * start that leaves nothing behind, relative unix paths, gRPC log redirection.
 */
#define _DEFAULT_SOURCE
#include <limits.h>
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "cuzk/v1/proving.pb-c.h"
#include "server/grpc_transport.h"

/* The test server's methods: the real service's paths (cuzk_rpc_proving_engine_methods), with
 * test behaviours:
 *   SubmitProof  SubmitProofRequest -> AwaitProofResponse at once, from the handler: checks the
 *                request against the sample (or, for "big", echoes vanilla_proof as proof)
 *   AwaitProof   AwaitProofRequest -> AwaitProofResponse{job_id} from another thread after
 *                timeout_ms; records the deadline it saw and counts cancel callbacks
 *   CancelProof  held: the call is stored for the test to answer later
 */
#define MAX_MESSAGE ((size_t)101 << 20) /* 100 MiB fits, the over-limit request does not */

/* check.h's counters are plain integers: checks made on client threads go through this lock. */
static pthread_mutex_t check_mu = PTHREAD_MUTEX_INITIALIZER;
#define TCHECK_MSG(cond, ...)        \
  do {                               \
    pthread_mutex_lock(&check_mu);   \
    CHECK_MSG(cond, __VA_ARGS__);    \
    pthread_mutex_unlock(&check_mu); \
  } while (0)
#define TCHECK(cond) TCHECK_MSG(cond, "%s", "")

static atomic_uint handler_calls, cancels, delayed_outstanding, grpc_errors_logged;

/* gRPC's own diagnostics, counted instead of printed (cuzk_rpc_set_log). */
static void count_log(int severity, const char *file, int line, const char *msg) {
  (void)file, (void)line, (void)msg;
  if (severity >= 2) atomic_fetch_add(&grpc_errors_logged, 1);
}
static _Atomic uint64_t last_deadline_ms;

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void sleep_ms(unsigned ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000};
  nanosleep(&ts, NULL);
}

/* ---- the sample request ------------------------------------------------------------------- */

static uint8_t rnd[32], c_old[32], c_new[32], d_new[32];
static uint8_t vp0[] = "vanilla-0", vp1[] = {0, 1, 2, 0, 255}, vp2[1];
static ProtobufCBinaryData vps[3];

/* Fills the sample's byte fields; once, in main, before any thread runs. */
static void sample_init(void) {
  for (int i = 0; i < 32; i++) {
    rnd[i] = (uint8_t)i;
    c_old[i] = (uint8_t)(0x80 + i);
    c_new[i] = (uint8_t)(0xc0 ^ i);
    d_new[i] = (uint8_t)(255 - i);
  }
  vps[0] = (ProtobufCBinaryData){sizeof vp0 - 1, vp0};
  vps[1] = (ProtobufCBinaryData){sizeof vp1, vp1};
  vps[2] = (ProtobufCBinaryData){0, vp2};
}

static Cuzk__V1__SubmitProofRequest sample_request(void) {
  Cuzk__V1__SubmitProofRequest r = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
  r.request_id = "porep-1000-42";
  r.proof_kind = CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION;
  r.sector_size = 34359738368u;
  r.registered_proof = 13;
  r.priority = CUZK__V1__PRIORITY__CRITICAL;
  r.vanilla_proof = (ProtobufCBinaryData){11, (uint8_t *)"{\"json\":1}\n"};
  r.n_vanilla_proofs = 3;
  r.vanilla_proofs = vps;
  r.sector_number = UINT64_MAX;
  r.miner_id = 1000;
  r.randomness = (ProtobufCBinaryData){32, rnd};
  r.partition_index = 7;
  r.comm_r_old = (ProtobufCBinaryData){32, c_old};
  r.comm_r_new = (ProtobufCBinaryData){32, c_new};
  r.comm_d_new = (ProtobufCBinaryData){32, d_new};
  return r;
}

static bool bin_eq(ProtobufCBinaryData a, ProtobufCBinaryData b) {
  return a.len == b.len && (a.len == 0 || memcmp(a.data, b.data, a.len) == 0);
}

/* The first differing field's name, or NULL if r equals the sample. */
static const char *sample_diff(const Cuzk__V1__SubmitProofRequest *r) {
  Cuzk__V1__SubmitProofRequest e = sample_request();
  if (strcmp(r->request_id, e.request_id)) return "request_id";
  if (r->proof_kind != e.proof_kind) return "proof_kind";
  if (r->sector_size != e.sector_size) return "sector_size";
  if (r->registered_proof != e.registered_proof) return "registered_proof";
  if (r->priority != e.priority) return "priority";
  if (!bin_eq(r->vanilla_proof, e.vanilla_proof)) return "vanilla_proof";
  if (r->n_vanilla_proofs != e.n_vanilla_proofs) return "n_vanilla_proofs";
  for (size_t i = 0; i < e.n_vanilla_proofs; i++)
    if (!bin_eq(r->vanilla_proofs[i], e.vanilla_proofs[i])) return "vanilla_proofs";
  if (r->sector_number != e.sector_number) return "sector_number";
  if (r->miner_id != e.miner_id) return "miner_id";
  if (!bin_eq(r->randomness, e.randomness)) return "randomness";
  if (r->partition_index != e.partition_index) return "partition_index";
  if (!bin_eq(r->comm_r_old, e.comm_r_old)) return "comm_r_old";
  if (!bin_eq(r->comm_r_new, e.comm_r_new)) return "comm_r_new";
  if (!bin_eq(r->comm_d_new, e.comm_d_new)) return "comm_d_new";
  return NULL;
}

/* ---- the test server ---------------------------------------------------------------------- */

static void reply_msg(cuzk_rpc_call *call, const ProtobufCMessage *m) {
  size_t n = protobuf_c_message_get_packed_size(m);
  uint8_t *buf = malloc(n ? n : 1);
  protobuf_c_message_pack(m, buf);
  cuzk_rpc_reply_owned(call, CUZK_RPC_STATUS_OK, NULL, buf, n);
}

/* SubmitProof with request_id "block": the handler waits until blocks_open (test_bulk). */
static pthread_mutex_t block_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t block_cv = PTHREAD_COND_INITIALIZER;
static unsigned blocked_now, blocked_total;
static bool blocks_open;

static void block_in_handler(void) {
  pthread_mutex_lock(&block_mu);
  blocked_now++;
  blocked_total++;
  pthread_cond_broadcast(&block_cv);
  while (!blocks_open)
    pthread_cond_wait(&block_cv, &block_mu);
  blocked_now--;
  pthread_mutex_unlock(&block_mu);
}

static void on_submit(cuzk_rpc_call *call, const uint8_t *req, size_t len) {
  Cuzk__V1__SubmitProofRequest *r = cuzk__v1__submit_proof_request__unpack(NULL, len, req);
  if (!r) {
    cuzk_rpc_reply(call, CUZK_RPC_STATUS_INVALID_ARGUMENT, "cannot decode", NULL, 0);
    return;
  }
  Cuzk__V1__AwaitProofResponse a = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
  a.job_id = r->request_id;
  if (strcmp(r->request_id, "block") == 0) {
    block_in_handler();
    a.status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED;
    reply_msg(call, &a.base);
  } else if (strcmp(r->request_id, "big") == 0) {
    a.status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED;
    a.proof = r->vanilla_proof;
    reply_msg(call, &a.base);
  } else if (sample_diff(r)) {
    char msg[128];
    snprintf(msg, sizeof msg, "field %s differs", sample_diff(r));
    cuzk_rpc_reply(call, CUZK_RPC_STATUS_INVALID_ARGUMENT, msg, NULL, 0);
  } else {
    a.status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED;
    a.proof = r->comm_r_new;
    a.error_message = "all fields equal";
    a.queue_wait_ms = r->sector_size;
    a.srs_load_ms = r->registered_proof;
    a.synthesis_ms = r->sector_number;
    a.gpu_compute_ms = r->miner_id;
    a.total_ms = r->partition_index;
    reply_msg(call, &a.base);
  }
  cuzk__v1__submit_proof_request__free_unpacked(r, NULL);
}

typedef struct {
  cuzk_rpc_call *call;
  unsigned delay_ms;
  char job[64];
} delayed;

static void count_cancel(void *user) {
  (void)user;
  atomic_fetch_add(&cancels, 1);
}

static void *delayed_reply(void *arg) {
  delayed *d = arg;
  sleep_ms(d->delay_ms);
  Cuzk__V1__AwaitProofResponse a = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
  a.job_id = d->job;
  a.status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED;
  reply_msg(d->call, &a.base); /* also after a cancel: must be harmless */
  free(d);
  atomic_fetch_sub(&delayed_outstanding, 1);
  return NULL;
}

static void on_await(cuzk_rpc_call *call, const uint8_t *req, size_t len) {
  Cuzk__V1__AwaitProofRequest *r = cuzk__v1__await_proof_request__unpack(NULL, len, req);
  if (!r) {
    cuzk_rpc_reply(call, CUZK_RPC_STATUS_INVALID_ARGUMENT, "cannot decode", NULL, 0);
    return;
  }
  atomic_store(&last_deadline_ms, cuzk_rpc_call_deadline_ms(call));
  cuzk_rpc_call_on_cancel(call, count_cancel, NULL);
  delayed *d = calloc(1, sizeof *d);
  d->call = call;
  d->delay_ms = (unsigned)r->timeout_ms;
  snprintf(d->job, sizeof d->job, "%s", r->job_id);
  cuzk__v1__await_proof_request__free_unpacked(r, NULL);
  atomic_fetch_add(&delayed_outstanding, 1);
  pthread_t t;
  pthread_attr_t at;
  pthread_attr_init(&at);
  pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
  if (pthread_create(&t, &at, delayed_reply, d) != 0) {
    atomic_fetch_sub(&delayed_outstanding, 1);
    free(d);
    cuzk_rpc_reply(call, CUZK_RPC_STATUS_INTERNAL, "no thread", NULL, 0);
  }
  pthread_attr_destroy(&at);
}

static pthread_mutex_t held_mu = PTHREAD_MUTEX_INITIALIZER;
static cuzk_rpc_call *held[4];
static unsigned n_held;

static unsigned held_count(void) {
  pthread_mutex_lock(&held_mu);
  unsigned n = n_held;
  pthread_mutex_unlock(&held_mu);
  return n;
}

static void held_reset(void) {
  pthread_mutex_lock(&held_mu);
  n_held = 0;
  pthread_mutex_unlock(&held_mu);
}

static void on_hold(cuzk_rpc_call *call) {
  cuzk_rpc_call_on_cancel(call, count_cancel, NULL);
  pthread_mutex_lock(&held_mu);
  if (n_held < 4)
    held[n_held++] = call;
  else
    cuzk_rpc_reply(call, CUZK_RPC_STATUS_RESOURCE_EXHAUSTED, "too many held", NULL, 0);
  pthread_mutex_unlock(&held_mu);
}

static void handler(void *user, cuzk_rpc_call *call, unsigned method, const uint8_t *req,
                    size_t len) {
  (void)user;
  atomic_fetch_add(&handler_calls, 1);
  switch (method) {
  case CUZK_RPC_SUBMIT_PROOF: on_submit(call, req, len); break;
  case CUZK_RPC_AWAIT_PROOF: on_await(call, req, len); break;
  case CUZK_RPC_CANCEL_PROOF: on_hold(call); break;
  default: cuzk_rpc_reply(call, CUZK_RPC_STATUS_UNIMPLEMENTED, "not in this test", NULL, 0);
  }
}

static cuzk_rpc_err start(cuzk_rpc_server **srv, const char *addr, char *err, size_t errlen) {
  const char *listen[] = {addr};
  cuzk_rpc_server_opts o = {
      .listen = listen,
      .n_listen = 1,
      .socket_mode = 0660,
      .max_message_bytes = MAX_MESSAGE,
      .methods = cuzk_rpc_proving_engine_methods,
      .n_methods = CUZK_RPC_N_METHODS,
      .handler = handler,
  };
  return cuzk_rpc_server_start(srv, &o, err, errlen);
}

static void wait_delayed(void) {
  for (int i = 0; i < 500 && atomic_load(&delayed_outstanding); i++)
    sleep_ms(10);
  CHECK(atomic_load(&delayed_outstanding) == 0);
}

/* ---- client helpers ----------------------------------------------------------------------- */

/* Packs m, calls method, returns the status; *out (unpacked AwaitProofResponse) on OK. */
static int call_await_resp(const char *addr, unsigned method, const ProtobufCMessage *m,
                           uint64_t timeout_ms, Cuzk__V1__AwaitProofResponse **out, char *msg,
                           size_t msglen) {
  size_t n = protobuf_c_message_get_packed_size(m);
  uint8_t *buf = malloc(n ? n : 1);
  protobuf_c_message_pack(m, buf);
  uint8_t *resp = NULL;
  size_t resp_len = 0;
  int status = -1;
  cuzk_rpc_err e = cuzk_rpc_client_call(addr, cuzk_rpc_proving_engine_methods[method], buf, n,
                                        timeout_ms, &resp, &resp_len, &status, msg, msglen);
  TCHECK_MSG(e == CUZK_RPC_OK, "client_call %s: %s", addr, cuzk_rpc_strerror(e));
  free(buf);
  if (out) *out = NULL;
  if (status == CUZK_RPC_STATUS_OK && out) {
    *out = cuzk__v1__await_proof_response__unpack(NULL, resp_len, resp);
    TCHECK(*out != NULL);
  }
  free(resp);
  return status;
}

static int raw_call(const char *addr, const char *path, size_t len, uint64_t timeout_ms) {
  uint8_t *req = calloc(1, len ? len : 1), *resp = NULL;
  size_t resp_len = 0;
  int status = -1;
  char msg[256];
  cuzk_rpc_err e =
      cuzk_rpc_client_call(addr, path, req, len, timeout_ms, &resp, &resp_len, &status, msg, 256);
  TCHECK_MSG(e == CUZK_RPC_OK, "client_call: %s", cuzk_rpc_strerror(e));
  free(req);
  free(resp);
  return status;
}

/* ---- scenarios ---------------------------------------------------------------------------- */

static void test_roundtrip(const char *addr) {
  Cuzk__V1__SubmitProofRequest r = sample_request();
  Cuzk__V1__AwaitProofResponse *a = NULL;
  char msg[256];
  int st = call_await_resp(addr, CUZK_RPC_SUBMIT_PROOF, &r.base, 5000, &a, msg, sizeof msg);
  CHECK_MSG(st == CUZK_RPC_STATUS_OK, "%s: roundtrip %s: %s", addr, cuzk_rpc_status_name(st), msg);
  if (!a) return;
  CHECK(strcmp(a->job_id, "porep-1000-42") == 0);
  CHECK(a->status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED);
  CHECK(a->proof.len == 32 && memcmp(a->proof.data, c_new, 32) == 0);
  CHECK(strcmp(a->error_message, "all fields equal") == 0);
  CHECK(a->queue_wait_ms == 34359738368u && a->srs_load_ms == 13);
  CHECK(a->synthesis_ms == UINT64_MAX && a->gpu_compute_ms == 1000 && a->total_ms == 7);
  cuzk__v1__await_proof_response__free_unpacked(a, NULL);
}

static int await_call(const char *addr, const char *job, unsigned delay_ms, uint64_t timeout_ms,
                      bool check_job) {
  Cuzk__V1__AwaitProofRequest r = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
  r.job_id = (char *)job;
  r.timeout_ms = delay_ms;
  Cuzk__V1__AwaitProofResponse *a = NULL;
  char msg[256];
  int st = call_await_resp(addr, CUZK_RPC_AWAIT_PROOF, &r.base, timeout_ms, &a, msg, sizeof msg);
  if (a) {
    if (check_job) TCHECK_MSG(strcmp(a->job_id, job) == 0, "job %s got %s", job, a->job_id);
    TCHECK(a->status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED);
    cuzk__v1__await_proof_response__free_unpacked(a, NULL);
  }
  return st;
}

static void test_delayed(const char *addr) {
  double t0 = now_s();
  int st = await_call(addr, "late", 300, 5000, true);
  double dt = now_s() - t0;
  CHECK_MSG(st == CUZK_RPC_STATUS_OK, "delayed: %s", cuzk_rpc_status_name(st));
  CHECK_MSG(dt >= 0.29 && dt < 3.0, "delayed reply took %.3f s", dt);
  uint64_t dl = atomic_load(&last_deadline_ms);
  CHECK_MSG(dl > 3000 && dl <= 5100, "server saw deadline %llu ms", (unsigned long long)dl);
  st = await_call(addr, "no-deadline", 0, 0, true);
  CHECK(st == CUZK_RPC_STATUS_OK);
  CHECK(atomic_load(&last_deadline_ms) == UINT64_MAX);
  wait_delayed();
}

typedef struct {
  const char *addr;
  char job[32];
  int status;
} conc_arg;

static void *conc_client(void *p) {
  conc_arg *c = p;
  c->status = await_call(c->addr, c->job, 200, 20000, true);
  return NULL;
}

static void test_concurrent(const char *addr) {
  enum { N = 50 };
  conc_arg args[N];
  pthread_t th[N];
  double t0 = now_s();
  for (int i = 0; i < N; i++) {
    args[i].addr = addr;
    snprintf(args[i].job, sizeof args[i].job, "job-%d", i);
    args[i].status = -1;
    pthread_create(&th[i], NULL, conc_client, &args[i]);
  }
  int ok = 0;
  for (int i = 0; i < N; i++) {
    pthread_join(th[i], NULL);
    ok += args[i].status == CUZK_RPC_STATUS_OK;
  }
  double dt = now_s() - t0;
  CHECK_MSG(ok == N, "%d of %d concurrent calls OK", ok, N);
  CHECK_MSG(dt < 5.0, "50 concurrent 200 ms calls took %.2f s (serial: 10 s)", dt);
  printf("  %s: 50 concurrent 200 ms calls in %.3f s\n", addr, dt);
  wait_delayed();
}

static size_t big_mib = 100; /* argv[1]: smaller under the sanitizers (tests/server/rpc.cmake) */

static void test_big(const char *addr) {
  size_t n = big_mib << 20;
  uint8_t *blob = malloc(n);
  for (size_t i = 0; i < n; i++)
    blob[i] = (uint8_t)(i * 2654435761u >> 13);
  Cuzk__V1__SubmitProofRequest r = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
  r.request_id = "big";
  r.vanilla_proof = (ProtobufCBinaryData){n, blob};
  Cuzk__V1__AwaitProofResponse *a = NULL;
  char msg[256];
  double t0 = now_s();
  int st = call_await_resp(addr, CUZK_RPC_SUBMIT_PROOF, &r.base, 60000, &a, msg, sizeof msg);
  double dt = now_s() - t0;
  CHECK_MSG(st == CUZK_RPC_STATUS_OK, "%zu MiB: %s: %s", big_mib, cuzk_rpc_status_name(st), msg);
  if (a) {
    CHECK(a->proof.len == n && memcmp(a->proof.data, blob, n) == 0);
    cuzk__v1__await_proof_response__free_unpacked(a, NULL);
  }
  printf("  %s: %zu MiB request + %zu MiB response in %.3f s\n", addr, big_mib, big_mib, dt);
  free(blob);

  /* Over the server's limit: RESOURCE_EXHAUSTED, and the next call works. */
  unsigned before = atomic_load(&handler_calls);
  t0 = now_s();
  st = raw_call(addr, cuzk_rpc_proving_engine_methods[CUZK_RPC_SUBMIT_PROOF], MAX_MESSAGE + 1,
                60000);
  CHECK_MSG(st == CUZK_RPC_STATUS_RESOURCE_EXHAUSTED, "over limit: %s", cuzk_rpc_status_name(st));
  CHECK(atomic_load(&handler_calls) == before);
  printf("  %s: over-limit request refused in %.3f s\n", addr, now_s() - t0);
  test_roundtrip(addr);
}

typedef struct {
  const char *addr;
  int status;
} bulk_arg;

static void *bulk_client(void *p) {
  bulk_arg *b = p;
  size_t n = CUZK_RPC_BULK_BYTES + 4096;
  uint8_t *blob = calloc(1, n);
  Cuzk__V1__SubmitProofRequest r = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
  r.request_id = "block";
  r.vanilla_proof = (ProtobufCBinaryData){n, blob};
  char msg[256];
  b->status =
      call_await_resp(b->addr, CUZK_RPC_SUBMIT_PROOF, &r.base, 60000, NULL, msg, sizeof msg);
  free(blob);
  return NULL;
}

/* Large requests held in their handlers (every bulk thread, and one more queued) leave the
 * threads that drive the sockets free: small calls are answered meanwhile. Ordering only: the
 * small calls run while the state says the handlers are held; a transport that ran those handlers
 * on its socket threads would answer nothing until they were released (DEADLINE_EXCEEDED). */
static void test_bulk(const char *addr) {
  enum { N = CUZK_RPC_BULK_THREADS + 1 };
  bulk_arg args[N];
  pthread_t th[N];
  pthread_mutex_lock(&block_mu);
  blocks_open = false;
  blocked_total = 0;
  pthread_mutex_unlock(&block_mu);
  for (int i = 0; i < N; i++) {
    args[i] = (bulk_arg){addr, -1};
    pthread_create(&th[i], NULL, bulk_client, &args[i]);
  }
  /* until the handlers hold every bulk thread (state, not time: 60 s is only a safety net) */
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += 60;
  pthread_mutex_lock(&block_mu);
  while (blocked_now < CUZK_RPC_BULK_THREADS &&
         pthread_cond_timedwait(&block_cv, &block_mu, &until) == 0) {
  }
  unsigned held_now = blocked_now;
  pthread_mutex_unlock(&block_mu);
  CHECK_MSG(held_now == CUZK_RPC_BULK_THREADS, "%u large requests reached their handler", held_now);
  /* the bulk threads are all held: small calls go on (held again checked after them) */
  for (int i = 0; i < 3; i++)
    test_roundtrip(addr);
  pthread_mutex_lock(&block_mu);
  CHECK_MSG(blocked_now == CUZK_RPC_BULK_THREADS && blocked_total == CUZK_RPC_BULK_THREADS,
            "held %u, reached %u while the small calls ran", blocked_now, blocked_total);
  blocks_open = true;
  pthread_cond_broadcast(&block_cv);
  pthread_mutex_unlock(&block_mu);
  int ok = 0;
  for (int i = 0; i < N; i++) {
    pthread_join(th[i], NULL);
    ok += args[i].status == CUZK_RPC_STATUS_OK;
  }
  CHECK_MSG(ok == N, "%d of %d large requests answered", ok, N);
  CHECK(blocked_total == N); /* the queued one ran once a bulk thread was free */
}

static void test_unknown(const char *addr) {
  unsigned before = atomic_load(&handler_calls);
  CHECK(raw_call(addr, "/cuzk.v1.ProvingEngine/NoSuchMethod", 3, 5000) ==
        CUZK_RPC_STATUS_UNIMPLEMENTED);
  CHECK(raw_call(addr, "/other.Service/Prove", 0, 5000) == CUZK_RPC_STATUS_UNIMPLEMENTED);
  CHECK(atomic_load(&handler_calls) == before);
}

static void test_deadline(const char *addr) {
  unsigned c0 = atomic_load(&cancels);
  double t0 = now_s();
  int st = await_call(addr, "slow", 1000, 400, true);
  double dt = now_s() - t0;
  CHECK_MSG(st == CUZK_RPC_STATUS_DEADLINE_EXCEEDED, "deadline: %s", cuzk_rpc_status_name(st));
  CHECK_MSG(dt < 5.0, "deadline call returned after %.3f s", dt);
  for (int i = 0; i < 400 && atomic_load(&cancels) == c0; i++)
    sleep_ms(5);
  CHECK_MSG(atomic_load(&cancels) == c0 + 1, "cancel callbacks: %u", atomic_load(&cancels) - c0);
  wait_delayed(); /* the late reply to the cancelled call */
  test_roundtrip(addr);
}

static void test_second_server(const char *addr, bool is_unix) {
  cuzk_rpc_server *s2 = NULL;
  char err[512];
  cuzk_rpc_err e = start(&s2, addr, err, sizeof err);
  CHECK_MSG(e == (is_unix ? CUZK_RPC_ELOCKED : CUZK_RPC_ELISTEN), "second server on %s: %s (%s)",
            addr, cuzk_rpc_strerror(e), err);
  CHECK(s2 == NULL);
  if (is_unix)
    CHECK_MSG(strstr(err, ".lock") != NULL, "message: %s", err);
  else
    CHECK_MSG(strstr(err, addr) != NULL, "message: %s", err);
  test_roundtrip(addr); /* the first one still serves */
}

#define TIMED(call)                                  \
  do {                                               \
    double t_ = now_s();                             \
    call;                                            \
    printf("  %-40s %.3f s\n", #call, now_s() - t_); \
  } while (0)

static void run_transport(const char *addr, bool is_unix) {
  printf("transport %s\n", addr);
  TIMED(test_roundtrip(addr));
  TIMED(test_delayed(addr));
  TIMED(test_concurrent(addr));
  TIMED(test_big(addr));
  TIMED(test_bulk(addr));
  TIMED(test_unknown(addr));
  TIMED(test_deadline(addr));
  TIMED(test_second_server(addr, is_unix));
}

/* ---- shutdown ----------------------------------------------------------------------------- */

typedef struct {
  const char *addr;
  unsigned method, delay_ms;
  int status;
} bg_call;

static void *bg_client(void *p) {
  bg_call *b = p;
  if (b->method == CUZK_RPC_AWAIT_PROOF) {
    b->status = await_call(b->addr, "drain", b->delay_ms, 30000, true);
  } else {
    Cuzk__V1__CancelProofRequest r = CUZK__V1__CANCEL_PROOF_REQUEST__INIT;
    r.job_id = "held";
    char msg[256];
    b->status = call_await_resp(b->addr, b->method, &r.base, 30000, NULL, msg, sizeof msg);
  }
  return NULL;
}

static void test_shutdown(const char *addr) {
  cuzk_rpc_server *srv = NULL;
  char err[512];
  cuzk_rpc_err e = start(&srv, addr, err, sizeof err);
  CHECK_MSG(e == CUZK_RPC_OK, "start %s: %s", addr, err);
  if (e) return;
  /* Idle shutdown is quick. */
  double t0 = now_s();
  cuzk_rpc_server_shutdown(srv, 5000);
  CHECK_MSG(now_s() - t0 < 1.0, "idle shutdown took %.3f s", now_s() - t0);

  e = start(&srv, addr, err, sizeof err); /* the lock was released */
  CHECK_MSG(e == CUZK_RPC_OK, "restart %s: %s", addr, err);
  if (e) return;
  unsigned c0 = atomic_load(&cancels);
  held_reset();
  bg_call held_call = {addr, CUZK_RPC_CANCEL_PROOF, 0, -1};
  bg_call drain_call = {addr, CUZK_RPC_AWAIT_PROOF, 150, -1};
  pthread_t th[2];
  pthread_create(&th[0], NULL, bg_client, &held_call);
  for (int i = 0; i < 400 && !held_count(); i++)
    sleep_ms(5);
  CHECK(held_count() == 1);
  pthread_create(&th[1], NULL, bg_client, &drain_call);
  /* Shut down once the drain call is in its handler: its reply comes during the grace. */
  for (int i = 0; i < 400 && !atomic_load(&delayed_outstanding); i++)
    sleep_ms(5);
  CHECK(atomic_load(&delayed_outstanding) == 1);
  t0 = now_s();
  cuzk_rpc_server_shutdown(srv, 400);
  double dt = now_s() - t0;
  CHECK_MSG(dt >= 0.35 && dt < 3.0, "shutdown with a held call took %.3f s (grace 0.4 s)", dt);
  pthread_join(th[0], NULL);
  pthread_join(th[1], NULL);
  CHECK_MSG(drain_call.status == CUZK_RPC_STATUS_OK, "drained call: %s",
            cuzk_rpc_status_name(drain_call.status));
  CHECK_MSG(held_call.status == CUZK_RPC_STATUS_UNAVAILABLE ||
                held_call.status == CUZK_RPC_STATUS_CANCELLED,
            "held call at shutdown: %s", cuzk_rpc_status_name(held_call.status));
  CHECK_MSG(atomic_load(&cancels) == c0 + 1, "cancel callbacks: %u", atomic_load(&cancels) - c0);
  printf("  held call at shutdown: %s\n", cuzk_rpc_status_name(held_call.status));
  /* The held call outlived the server: answering it only frees it. */
  CHECK(cuzk_rpc_call_deadline_ms(held[0]) > 0);
  cuzk_rpc_call_on_cancel(held[0], count_cancel, NULL); /* already fired: no second time */
  CHECK(atomic_load(&cancels) == c0 + 1);
  cuzk_rpc_reply(held[0], CUZK_RPC_STATUS_OK, NULL, (const uint8_t *)"x", 1);
  held_reset();
  wait_delayed();

  /* A server that is shut down while its held call is answered from another thread. */
  e = start(&srv, addr, err, sizeof err);
  CHECK_MSG(e == CUZK_RPC_OK, "restart %s: %s", addr, err);
  if (e) return;
  pthread_create(&th[0], NULL, bg_client, &held_call);
  for (int i = 0; i < 400 && !held_count(); i++)
    sleep_ms(5);
  CHECK(held_count() == 1);
  delayed *d = calloc(1, sizeof *d);
  d->call = held[0];
  d->delay_ms = 20;
  snprintf(d->job, sizeof d->job, "racing");
  atomic_fetch_add(&delayed_outstanding, 1);
  pthread_t racer;
  pthread_create(&racer, NULL, delayed_reply, d);
  cuzk_rpc_server_shutdown(srv, 0);
  pthread_join(racer, NULL);
  pthread_join(th[0], NULL);
  held_reset();
}

/* ---- addresses and options ---------------------------------------------------------------- */

static void test_addresses(void) {
  const char *good[] = {"unix:///run/cuzk/cuzk.sock",
                        "unix:rel/path.sock",
                        "unix:/abs.sock",
                        "127.0.0.1:9820",
                        "0.0.0.0:0",
                        "[::1]:9820",
                        "[::]:1",
                        "localhost:9820",
                        "my-host.example:65535"};
  const char *bad[] = {"",
                       "unix:",
                       "unix://",
                       "unix://host/x.sock",
                       "unix-abstract:x",
                       "http://127.0.0.1:9820",
                       "127.0.0.1",
                       "127.0.0.1:",
                       ":9820",
                       "127.0.0.1:65536",
                       "127.0.0.1:x",
                       "::1:9820",
                       "[::1]9820",
                       "[]:1",
                       "a b:1"};
  char err[256];
  for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
    CHECK_MSG(cuzk_rpc_listen_address_check(good[i], err, sizeof err) == CUZK_RPC_OK, "%s: %s",
              good[i], err);
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    err[0] = 0;
    CHECK_MSG(cuzk_rpc_listen_address_check(bad[i], err, sizeof err) == CUZK_RPC_EADDR,
              "'%s' accepted", bad[i]);
    CHECK_MSG(!*bad[i] || strstr(err, bad[i]), "error for '%s' does not name it: %s", bad[i], err);
  }
  char path[PATH_MAX];
  memset(path, 'a', sizeof path);
  memcpy(path, "unix:///", 8);
  path[8 + 108] = 0;
  CHECK(cuzk_rpc_listen_address_check(path, err, sizeof err) == CUZK_RPC_EADDR);

  struct {
    const char *in, *out;
  } targets[] = {
      {"unix:///run/curio/cuzk.sock", "unix:///run/curio/cuzk.sock"},
      {"unix:rel.sock", "unix:rel.sock"},
      {"127.0.0.1:9820", "dns:///127.0.0.1:9820"},
      {"localhost:9820", "dns:///localhost:9820"},
      {"http://127.0.0.1:9820", "dns:///127.0.0.1:9820"},
      {"http://127.0.0.1:9820/", "dns:///127.0.0.1:9820"},
      {"dns:///h:1", "dns:///h:1"},
      {"ipv4:127.0.0.1:1", "dns:///ipv4:127.0.0.1:1"}, /* as Go: no "://", not "unix:" */
  };
  for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
    char t[256];
    CHECK(cuzk_rpc_client_target(targets[i].in, t, sizeof t) == CUZK_RPC_OK);
    CHECK_MSG(strcmp(t, targets[i].out) == 0, "%s -> %s", targets[i].in, t);
  }
  char t[8];
  CHECK(cuzk_rpc_client_target("", t, sizeof t) == CUZK_RPC_EADDR);
  CHECK(cuzk_rpc_client_target("127.0.0.1:9820", t, sizeof t) == CUZK_RPC_EADDR); /* too long */

  /* Options. */
  cuzk_rpc_server *srv = (cuzk_rpc_server *)&srv;
  const char *listen[] = {"127.0.0.1:0"};
  cuzk_rpc_server_opts o = {.listen = listen, .n_listen = 1, .methods = NULL};
  CHECK(cuzk_rpc_server_start(&srv, &o, err, sizeof err) == CUZK_RPC_EINVAL && srv == NULL);
  o.methods = cuzk_rpc_proving_engine_methods;
  o.n_methods = CUZK_RPC_N_METHODS;
  o.handler = handler;
  o.max_message_bytes = (size_t)INT_MAX + 1;
  CHECK(cuzk_rpc_server_start(&srv, &o, err, sizeof err) == CUZK_RPC_EINVAL);
  o.max_message_bytes = 0;
  const char *bad_listen[] = {"127.0.0.1:0", "nonsense"};
  o.listen = bad_listen;
  o.n_listen = 2;
  CHECK(cuzk_rpc_server_start(&srv, &o, err, sizeof err) == CUZK_RPC_EADDR);
  CHECK_MSG(strstr(err, "'nonsense'") != NULL, "%s", err);
  /* An address gRPC cannot bind: the error names it and the earlier port is released. */
  const char *unbindable[] = {"127.0.0.1:0", "192.0.2.1:9"};
  o.listen = unbindable;
  unsigned logged = atomic_load(&grpc_errors_logged);
  CHECK(cuzk_rpc_server_start(&srv, &o, err, sizeof err) == CUZK_RPC_ELISTEN);
  CHECK_MSG(strstr(err, "192.0.2.1:9") != NULL, "%s", err);
  CHECK(atomic_load(&grpc_errors_logged) > logged); /* gRPC's reason went to the log sink */

  /* Client errors. */
  uint8_t *resp;
  size_t rl;
  int st;
  char msg[128];
  CHECK(cuzk_rpc_client_call("", "/a.B/C", NULL, 0, 100, &resp, &rl, &st, msg, sizeof msg) ==
        CUZK_RPC_EADDR);
  CHECK(cuzk_rpc_client_call("127.0.0.1:1", "/a.B/C", NULL, 0, 2000, &resp, &rl, &st, msg,
                             sizeof msg) == CUZK_RPC_OK);
  CHECK_MSG(st == CUZK_RPC_STATUS_UNAVAILABLE, "no server: %s", cuzk_rpc_status_name(st));
}

/* The socket mode, a stale socket file left by a crash, a file that is not a socket, and a
 * relative unix path. */
static void test_unix_files(const char *dir) {
  char sock[256], addr[300], err[512];
  snprintf(sock, sizeof sock, "%s/sub/dir/stale.sock", dir);
  snprintf(addr, sizeof addr, "unix://%s", sock);
  cuzk_rpc_server *srv = NULL;
  CHECK(start(&srv, addr, err, sizeof err) == CUZK_RPC_OK); /* creates sub/dir */
  struct stat st;
  CHECK(stat(sock, &st) == 0 && S_ISSOCK(st.st_mode) && (st.st_mode & 0777) == 0660);
  cuzk_rpc_server_shutdown(srv, 1000);

  int fd = socket(AF_UNIX, SOCK_STREAM, 0); /* a stale socket file */
  struct sockaddr_un sa = {.sun_family = AF_UNIX};
  CHECK(strlen(sock) < sizeof sa.sun_path);
  memcpy(sa.sun_path, sock, strlen(sock) + 1 < sizeof sa.sun_path ? strlen(sock) + 1 : 0);
  CHECK(bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0);
  close(fd);
  CHECK(stat(sock, &st) == 0);
  srv = NULL;
  CHECK_MSG(start(&srv, addr, err, sizeof err) == CUZK_RPC_OK, "over a stale socket: %s", err);
  test_roundtrip(addr);
  cuzk_rpc_server_shutdown(srv, 1000);

  snprintf(sock, sizeof sock, "%s/regular", dir);
  FILE *f = fopen(sock, "w");
  fclose(f);
  snprintf(addr, sizeof addr, "unix:%s", sock);
  CHECK(start(&srv, addr, err, sizeof err) == CUZK_RPC_EADDR);
  CHECK(stat(sock, &st) == 0 && S_ISREG(st.st_mode)); /* not removed */

  /* A start that fails on its second address leaves neither the first socket nor its lock. */
  snprintf(sock, sizeof sock, "%s/partial.sock", dir);
  snprintf(addr, sizeof addr, "unix://%s", sock);
  const char *partial[] = {addr, "192.0.2.1:9"};
  cuzk_rpc_server_opts o = {.listen = partial,
                            .n_listen = 2,
                            .methods = cuzk_rpc_proving_engine_methods,
                            .n_methods = CUZK_RPC_N_METHODS,
                            .handler = handler};
  CHECK(cuzk_rpc_server_start(&srv, &o, err, sizeof err) == CUZK_RPC_ELISTEN);
  CHECK_MSG(stat(sock, &st) != 0, "%s left behind", sock);
  CHECK_MSG(start(&srv, addr, err, sizeof err) == CUZK_RPC_OK, "after a failed start: %s", err);
  cuzk_rpc_server_shutdown(srv, 1000);
  CHECK_MSG(stat(sock, &st) != 0, "%s left after shutdown", sock);

  char cwd[PATH_MAX];
  CHECK(getcwd(cwd, sizeof cwd) != NULL);
  CHECK(chdir(dir) == 0);
  CHECK(start(&srv, "unix:rel.sock", err, sizeof err) == CUZK_RPC_OK);
  test_roundtrip("unix:rel.sock");
  cuzk_rpc_server_shutdown(srv, 1000);
  CHECK(chdir(cwd) == 0);
}

int main(int argc, char **argv) {
  if (argc > 1) big_mib = strtoul(argv[1], NULL, 10);
  if (big_mib < 1 || big_mib > 100) {
    fprintf(stderr, "usage: %s [MiB of the large message, 1..100]\n", argv[0]);
    return 2;
  }
  /* Keep freed memory for the next large message instead of returning it to the kernel: fresh
   * pages cost about 12 us each to fault in on the test VMs (docs/server.md). No effect under
   * AddressSanitizer, which has its own allocator. */
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_ARENA_MAX, 1);
  sample_init();
  char dir[] = "/tmp/cuzk-rpc-XXXXXX";
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  cuzk_rpc_set_log(count_log);
  TIMED(test_addresses());
  TIMED(test_unix_files(dir));

  char unix_addr[300], tcp_addr[64], err[512];
  snprintf(unix_addr, sizeof unix_addr, "unix://%s/cuzk.sock", dir);
  cuzk_rpc_server *us = NULL, *ts = NULL;
  CHECK_MSG(start(&us, unix_addr, err, sizeof err) == CUZK_RPC_OK, "%s", err);
  CHECK_MSG(start(&ts, "127.0.0.1:0", err, sizeof err) == CUZK_RPC_OK, "%s", err);
  if (!us || !ts) return check_summary("test_rpc_transport");
  CHECK(cuzk_rpc_server_bound_port(us, 0) == 0);
  int port = cuzk_rpc_server_bound_port(ts, 0);
  CHECK(port > 0);
  snprintf(tcp_addr, sizeof tcp_addr, "127.0.0.1:%d", port);

  run_transport(unix_addr, true);
  run_transport(tcp_addr, false);
  cuzk_rpc_server_shutdown(us, 1000);
  cuzk_rpc_server_shutdown(ts, 1000);

  TIMED(test_shutdown(unix_addr));
  TIMED(test_shutdown(tcp_addr));

  char cmd[400];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
  return check_summary("test_rpc_transport");
}
