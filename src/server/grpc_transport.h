/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The gRPC transport: unary calls over HTTP/2 cleartext on unix sockets and TCP, server and
 * client, on the gRPC C core (docs/server.md, "gRPC transport"). Every grpc_* and gpr_* call of
 * the project lives behind this header, so the rest of the daemon sees bytes in, bytes out, and
 * the protocol's status codes.
 *
 * Server: the handler receives each call's request bytes on a transport thread and returns at
 * once; the reply comes later from any thread, exactly once, with cuzk_rpc_reply. A call whose
 * client cancels, disconnects or passes its deadline first is reported through
 * cuzk_rpc_call_on_cancel; replying to it afterwards is harmless. Unknown methods get
 * UNIMPLEMENTED and requests over the size limit RESOURCE_EXHAUSTED without reaching the handler.
 *
 * Client: one blocking unary call, addressed as Curio's Go client addresses the daemon.
 *
 * Library code: errors come back as codes and messages, nothing is printed.
 */
#ifndef CUZK_SERVER_GRPC_TRANSPORT_H
#define CUZK_SERVER_GRPC_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
  CUZK_RPC_OK = 0,
  CUZK_RPC_EINVAL,  /* bad options or arguments */
  CUZK_RPC_EADDR,   /* a listen or target address is malformed or unsupported */
  CUZK_RPC_ELOCKED, /* another server holds the unix socket's lock file */
  CUZK_RPC_ELISTEN, /* gRPC could not bind or listen on an address */
  CUZK_RPC_ESYS,    /* a system call failed (the message has errno's text) */
  CUZK_RPC_ENOMEM,  /* out of memory */
  CUZK_RPC_EGRPC,   /* the gRPC core refused an operation */
} cuzk_rpc_err;

const char *cuzk_rpc_strerror(cuzk_rpc_err e);

/* gRPC status codes: the numbers are the protocol's (grpc/status.h). */
typedef enum {
  CUZK_RPC_STATUS_OK = 0,
  CUZK_RPC_STATUS_CANCELLED = 1,
  CUZK_RPC_STATUS_UNKNOWN = 2,
  CUZK_RPC_STATUS_INVALID_ARGUMENT = 3,
  CUZK_RPC_STATUS_DEADLINE_EXCEEDED = 4,
  CUZK_RPC_STATUS_NOT_FOUND = 5,
  CUZK_RPC_STATUS_ALREADY_EXISTS = 6,
  CUZK_RPC_STATUS_PERMISSION_DENIED = 7,
  CUZK_RPC_STATUS_RESOURCE_EXHAUSTED = 8,
  CUZK_RPC_STATUS_FAILED_PRECONDITION = 9,
  CUZK_RPC_STATUS_ABORTED = 10,
  CUZK_RPC_STATUS_OUT_OF_RANGE = 11,
  CUZK_RPC_STATUS_UNIMPLEMENTED = 12,
  CUZK_RPC_STATUS_INTERNAL = 13,
  CUZK_RPC_STATUS_UNAVAILABLE = 14,
  CUZK_RPC_STATUS_DATA_LOSS = 15,
  CUZK_RPC_STATUS_UNAUTHENTICATED = 16,
} cuzk_rpc_status;

/* "OK", "CANCELLED", ...; "?" outside 0..16. */
const char *cuzk_rpc_status_name(int status);

/* gRPC core writes its own diagnostics (a failed bind, a broken connection) to stderr. After
 * cuzk_rpc_set_log they go to fn instead (severity 0 debug, 1 info, 2 error), or nowhere if fn is
 * NULL. Process-wide; fn may run on any thread. GRPC_VERBOSITY=DEBUG|INFO|ERROR|NONE still
 * filters them. */
typedef void (*cuzk_rpc_log_fn)(int severity, const char *file, int line, const char *msg);
void cuzk_rpc_set_log(cuzk_rpc_log_fn fn);

/* The methods of cuzk.v1.ProvingEngine (proto/cuzk/v1/proving.proto): index and HTTP/2 path. */
enum {
  CUZK_RPC_SUBMIT_PROOF,
  CUZK_RPC_AWAIT_PROOF,
  CUZK_RPC_PROVE,
  CUZK_RPC_CANCEL_PROOF,
  CUZK_RPC_GET_STATUS,
  CUZK_RPC_GET_METRICS,
  CUZK_RPC_PRELOAD_SRS,
  CUZK_RPC_EVICT_SRS,
  CUZK_RPC_N_METHODS
};
extern const char *const cuzk_rpc_proving_engine_methods[CUZK_RPC_N_METHODS];

#define CUZK_RPC_DEFAULT_MAX_MESSAGE ((size_t)128 << 20) /* server, both directions */
#define CUZK_RPC_CLIENT_MAX_MESSAGE ((size_t)256 << 20)  /* client, both directions (as Curio) */

/* ---- server ------------------------------------------------------------------------------- */

typedef struct cuzk_rpc_server cuzk_rpc_server;
typedef struct cuzk_rpc_call cuzk_rpc_call;

/* Called on a transport thread for each call to a known method, with the request's serialized
 * message (valid only during the call); several calls may be in handlers at once. Must return
 * quickly (the transport threads also drive the sockets): hand the work on, and answer later
 * with cuzk_rpc_reply from any thread. */
typedef void (*cuzk_rpc_handler_fn)(void *user, cuzk_rpc_call *call, unsigned method,
                                    const uint8_t *req, size_t len);

typedef struct {
  /* Listen addresses: "unix:///abs/path", "unix:rel/path", "unix:/abs/path", "IPv4:port",
   * "[IPv6]:port", "host:port". Port 0 picks a free port (cuzk_rpc_server_bound_port). */
  const char *const *listen;
  size_t n_listen;
  unsigned socket_mode;       /* chmod of unix sockets after bind; 0 keeps the umask's mode */
  size_t max_message_bytes;   /* receive and send limit; 0 = CUZK_RPC_DEFAULT_MAX_MESSAGE */
  unsigned cq_threads;        /* transport threads; 0 = 2 */
  const char *const *methods; /* HTTP/2 paths, e.g. cuzk_rpc_proving_engine_methods; copied */
  unsigned n_methods;
  cuzk_rpc_handler_fn handler; /* gets the index into methods */
  void *user;
} cuzk_rpc_server_opts;

/* Checks one listen address's form (no system calls). On error, err names the address and why. */
cuzk_rpc_err cuzk_rpc_listen_address_check(const char *addr, char *err, size_t errlen);

/* Validates the options, takes the lock file "<socket path>.lock" of every unix address (flock,
 * held until shutdown; a held lock fails with CUZK_RPC_ELOCKED), creates missing parent
 * directories, removes a stale socket file, binds every address and starts serving. On error
 * *out is NULL, no thread, socket or lock is left (created directories and lock files stay), and
 * err says which address or option failed. */
cuzk_rpc_err cuzk_rpc_server_start(cuzk_rpc_server **out, const cuzk_rpc_server_opts *o, char *err,
                                   size_t errlen);

/* The TCP port bound for listen address i (the chosen one for port 0); 0 for unix sockets. */
int cuzk_rpc_server_bound_port(const cuzk_rpc_server *srv, size_t i);

/* Stops accepting, lets in-flight calls finish for up to grace_ms, then cancels the rest (their
 * clients see UNAVAILABLE and their cancel callbacks fire), joins the threads and frees the
 * server. Calls still unanswered stay valid: a later cuzk_rpc_reply on them only frees them.
 * Call once; srv is invalid afterwards. Must not be called from a handler or cancel callback. */
void cuzk_rpc_server_shutdown(cuzk_rpc_server *srv, unsigned grace_ms);

/* Answers a call, exactly once, from any thread (also from inside the handler). With status OK
 * the response message is resp[0..len) (copied; len 0 sends the empty message), otherwise no
 * message is sent and msg (may be NULL) becomes the status message. Frees the call: do not use it
 * afterwards. A call that was already cancelled is just freed. When it returns, the call's cancel
 * callback is not running and will not run: if that callback is running on another thread, this
 * waits for it, so do not reply while holding a lock the callback takes. */
void cuzk_rpc_reply(cuzk_rpc_call *call, int status, const char *msg, const uint8_t *resp,
                    size_t len);

/* As cuzk_rpc_reply, but takes resp, a malloc()ed buffer (or NULL), and frees it once sent:
 * no copy of a large response. */
void cuzk_rpc_reply_owned(cuzk_rpc_call *call, int status, const char *msg, uint8_t *resp,
                          size_t len);

/* Registers fn(user), run at most once if the call is cancelled (client cancel, disconnect,
 * deadline, server shutdown) before it is answered: on a transport thread, or at once in this
 * thread if that already happened. fn must not block; it may call cuzk_rpc_reply. Registering
 * again replaces an unfired callback. */
void cuzk_rpc_call_on_cancel(cuzk_rpc_call *call, void (*fn)(void *user), void *user);

/* Milliseconds left until the client's deadline (0 once passed), UINT64_MAX if it set none. */
uint64_t cuzk_rpc_call_deadline_ms(const cuzk_rpc_call *call);

/* ---- client ------------------------------------------------------------------------------- */

/* The gRPC target for a daemon address, as Curio's Go client derives it: an address containing
 * "://" or starting with "unix:" is used as is, "http://host:port" (cuzk-bench's historical form)
 * and a bare "host:port" become "dns:///host:port". */
cuzk_rpc_err cuzk_rpc_client_target(const char *addr, char *out, size_t outlen);

/* One blocking unary call of method_path (e.g. "/cuzk.v1.ProvingEngine/Prove") with the
 * serialized request req[0..len). timeout_ms 0 means no deadline. Returns CUZK_RPC_OK whenever
 * the call ended with a gRPC status, which is then in *grpc_status (UNAVAILABLE when the server
 * cannot be reached) with its message in msg; with status OK, *resp (free() it; NULL when empty)
 * and *resp_len hold the response. Other codes are local failures (bad address, no memory). */
cuzk_rpc_err cuzk_rpc_client_call(const char *addr, const char *method_path, const uint8_t *req,
                                  size_t len, uint64_t timeout_ms, uint8_t **resp, size_t *resp_len,
                                  int *grpc_status, char *msg, size_t msglen);

#endif
