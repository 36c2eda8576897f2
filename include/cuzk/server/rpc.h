/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Talking to the daemon: one blocking unary call of cuzk.v1.ProvingEngine (proto/cuzk/v1/
 * proving.proto, messages in cuzk/v1/proving.pb-c.h), addressed as Curio's Go client addresses
 * the daemon, with the transport's error codes and the protocol's status codes. The client half
 * of the gRPC transport (src/server/grpc_transport.c, docs/server.md "gRPC transport"); the
 * server half is internal to the server layer.
 *
 * Library code: errors come back as codes and messages, nothing is printed.
 */
#ifndef CUZK_RPC_H
#define CUZK_RPC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

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

#define CUZK_RPC_CLIENT_MAX_MESSAGE ((size_t)256 << 20) /* client, both directions (as Curio) */

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

#ifdef __cplusplus
}
#endif
#endif
