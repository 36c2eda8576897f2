/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * cuzk-bench: request files for the kinds whose whole input is a request (PoSt, SnapDeals: the
 * kinds whose descriptor reads vanilla_proofs, request_file_kind). A
 * request is Curio's cuzk.v1 SubmitProofRequest written in proto3's JSON mapping with the proto
 * field names, so that Python's google.protobuf.json_format.ParseDict (and every other proto3
 * JSON reader) accepts it as is:
 *
 *   PoSt: {"proof_kind": "WINNING_POST" | "WINDOW_POST_PARTITION", "registered_proof": 3,
 *          "sector_size": 34359738368, "miner_id": 1000, "randomness": "<base64 of 32 bytes>",
 *          "partition_index": 0, "vanilla_proofs": ["<base64 of one sector's bincode>", ...]}
 *   SnapDeals: {"proof_kind": "SNAP_DEALS_UPDATE", "registered_proof": 1, "sector_size": 8388608,
 *          "miner_id": 1000, "sector_number": 7, "comm_r_old": "<base64 of 32 bytes>",
 *          "comm_r_new": "...", "comm_d_new": "...", "vanilla_proofs": ["<base64 of one
 *          partition's bincode>", ...]}
 *
 * The reader is strict about meaning, as lenient as proto3 JSON about spelling: every field of
 * the kind, each once (by proto or lowerCamelCase JSON name), of its type (integers as JSON
 * integers or proto3's decimal strings, the enum by name or number, bytes as padded standard
 * base64); request_id and priority are ignored, the other SubmitProofRequest fields accepted
 * only with their default value (a writer may emit defaults), anything else refused. Messages
 * name the field: "randomness: not base64 ...", "vanilla_proofs[2]: not base64 ...",
 * "proof_kind: unknown value ...", "miner_id: missing".
 */
#ifndef CUZK_TOOLS_BENCH_REQUEST_FILE_H
#define CUZK_TOOLS_BENCH_REQUEST_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/kinds/kinds.h"

/* Whether requests of kind k are request files: its input is vanilla_proofs (docs/kinds.md). */
bool request_file_kind(const cuzk_kind *k);

/* The request's fields as the file gives them (no kind's rule checked yet). */
typedef struct {
  const cuzk_kind *kind; /* proof_kind */
  uint64_t registered_proof, sector_size, miner_id, sector_number;
  uint32_t partition_index;
  uint8_t *randomness; /* malloc'd, any length (checked with the request) */
  size_t randomness_len;
  uint8_t *comm[3]; /* SnapDeals: comm_r_old, comm_r_new, comm_d_new; malloc'd, any length */
  size_t comm_len[3];
  uint8_t **vanilla; /* n_vanilla malloc'd proofs */
  size_t *vanilla_len, n_vanilla;
} request_file;

/* Parses JSON text (len bytes, not necessarily NUL-terminated) into f; false with msg naming the
 * field. f is empty on failure; request_file_free releases it on success. */
bool request_file_parse(request_file *f, const uint8_t *json, size_t len, char *msg,
                        size_t msg_len);
void request_file_free(request_file *f);
/* Writes f as a request file of its kind (one field a line, one vanilla proof a line); false if
 * the file cannot be written. */
bool request_file_write(const char *path, const request_file *f);

/* A checked request: its kind's prepare done (cuzk/kinds/kinds.h), so what cuzk checks before
 * proving — every field the kind reads, the vanilla proofs read strictly and verified natively —
 * holds. The commands call the kind's functions on p.work and p.circuit. */
typedef struct {
  const cuzk_kind *kind;
  cuzk_kind_prepared p;
} bench_request;

/* f through its kind's prepare (the messages the daemon gives). rq is the caller's
 * (bench_request_free). */
bool bench_request_check(bench_request *rq, const request_file *f, char *msg, size_t msg_len);
/* Reads, parses and checks the request file at path; messages start with the path. f (may be
 * NULL) keeps the parsed fields on success. */
bool bench_request_load(bench_request *rq, request_file *f, const char *path, char *msg,
                        size_t msg_len);
void bench_request_free(bench_request *rq);
/* Partition k of the request, or its circuit without a witness (blank), as a cli_synth_fn (ctx:
 * the bench_request). */
bool bench_request_synth(cuzk_cs *cs, const void *ctx, unsigned k, bool blank, char *msg,
                         size_t len);

#endif
