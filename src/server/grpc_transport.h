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
 * Client: one blocking unary call, addressed as Curio's Go client addresses the daemon; it and
 * the codes both halves share are public (include/cuzk/server/rpc.h).
 *
 * Library code: errors come back as codes and messages, nothing is printed.
 */
#ifndef CUZK_SERVER_GRPC_TRANSPORT_H
#define CUZK_SERVER_GRPC_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/server/rpc.h"

#define CUZK_RPC_DEFAULT_MAX_MESSAGE ((size_t)128 << 20) /* server, both directions */
/* Requests of this size or more reach the handler on one of CUZK_RPC_BULK_THREADS threads of
 * their own, never on a thread that drives the sockets (docs/server.md "How a call flows"). */
#define CUZK_RPC_BULK_BYTES ((size_t)1 << 20)
#define CUZK_RPC_BULK_THREADS 2

/* ---- server ------------------------------------------------------------------------------- */

typedef struct cuzk_rpc_server cuzk_rpc_server;
typedef struct cuzk_rpc_call cuzk_rpc_call;

/* Called on a transport thread for each call to a known method, with the request's serialized
 * message (valid only during the call); several calls may be in handlers at once. Must return
 * quickly (the transport threads also drive the sockets): hand the work on, and answer later
 * with cuzk_rpc_reply from any thread. A request of CUZK_RPC_BULK_BYTES or more comes on a bulk
 * thread instead, which drives no socket: decoding and copying it there holds up no other call. */
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
  /* TLS on the TCP addresses (unix sockets stay plaintext): PEM files of the server's
   * certificate chain and key; with client_ca, clients must present a certificate signed by it
   * (require_client_cert) or may (otherwise). NULL cert: plaintext, and then key, client_ca and
   * require_client_cert must be unset (EINVAL). The files are read and checked at start
   * (tls_pem.h): a bad one is EINVAL naming the option and the fault. */
  const char *tls_cert, *tls_key, *tls_client_ca;
  bool tls_require_client_cert;
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

#endif
