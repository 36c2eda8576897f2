/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * cuzk.v1.ProvingEngine on top of the engine: each RPC's protobuf request decoded, mapped onto
 * include/cuzk/engine/engine.h, and answered through the gRPC transport. Waiting RPCs (Prove,
 * AwaitProof) hold no thread: they answer from the engine's completion callback. PreloadSRS,
 * which may read gigabytes, runs on the service's one admin thread. Failures of a job are
 * in-band (status FAILED + error_message); gRPC errors are kept for requests that cannot be a job
 * (INVALID_ARGUMENT), unknown job ids (NOT_FOUND) and shutdown (UNAVAILABLE).
 */
#ifndef CUZK_SERVER_SERVICE_H
#define CUZK_SERVER_SERVICE_H

#include <stdbool.h>

#include "cuzk/engine/engine.h"
#include "server/grpc_transport.h"

typedef struct cuzk_service cuzk_service;

typedef struct {
  cuzk_engine *engine;
  /* a Prove caller that disconnects or whose deadline passes: cancel its job (else it finishes
   * and its result stays retrievable with AwaitProof) */
  bool cancel_on_disconnect;
  cuzk_log_fn log; /* may be NULL */
  void *log_user;
} cuzk_service_opts;

/* NULL if memory or the admin thread could not be had. */
cuzk_service *cuzk_service_create(const cuzk_service_opts *o);
/* The transport handler (cuzk_rpc_server_opts.handler, user = the service). */
void cuzk_service_handle(void *user, cuzk_rpc_call *call, unsigned method, const uint8_t *req,
                         size_t len);
/* Answers queued admin calls UNAVAILABLE and joins the admin thread. Call after the transport
 * has shut down (no new calls). */
void cuzk_service_destroy(cuzk_service *s);

#endif
