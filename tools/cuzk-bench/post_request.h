/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * cuzk-bench: PoSt request files. A request is Curio's cuzk.v1 SubmitProofRequest for a PoSt
 * proof, written in proto3's JSON mapping with the proto field names, so that Python's
 * google.protobuf.json_format.ParseDict (and every other proto3 JSON reader) accepts it as is:
 *
 *   {"proof_kind": "WINNING_POST" | "WINDOW_POST_PARTITION", "registered_proof": 3,
 *    "sector_size": 34359738368, "miner_id": 1000, "randomness": "<base64 of 32 bytes>",
 *    "partition_index": 0, "vanilla_proofs": ["<base64 of one sector's bincode>", ...]}
 *
 * The reader is strict about meaning, as lenient as proto3 JSON about spelling: all seven fields,
 * each once (by proto or lowerCamelCase JSON name), of its type (integers as JSON integers or
 * proto3's decimal strings, the enum by name or number, bytes as padded standard base64);
 * request_id and priority are ignored, the other SubmitProofRequest fields (PoRep's, SnapDeals')
 * accepted only with their default value (a writer may emit defaults), anything else refused.
 * Messages name the field: "randomness: not base64 ...", "vanilla_proofs[2]: not base64 ...",
 * "proof_kind: unknown value ...", "miner_id: missing".
 */
#ifndef CUZK_TOOLS_BENCH_POST_REQUEST_H
#define CUZK_TOOLS_BENCH_POST_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/post.h"

/* cuzk.v1.ProofKind values of the two PoSt kinds. */
#define POST_KIND_WINDOW 3  /* WINDOW_POST_PARTITION */
#define POST_KIND_WINNING 4 /* WINNING_POST */

/* The request's fields as the file gives them (no PoSt rule checked yet). */
typedef struct {
  unsigned proof_kind; /* POST_KIND_WINDOW or POST_KIND_WINNING */
  uint64_t registered_proof, sector_size, miner_id;
  uint32_t partition_index;
  uint8_t *randomness; /* malloc'd, any length (a request is checked by post_request_check) */
  size_t randomness_len;
  uint8_t **vanilla; /* n_vanilla malloc'd proofs */
  size_t *vanilla_len, n_vanilla;
} post_request_file;

/* The proto enum name of a PoSt kind, and the kind of a PoSt type. */
const char *post_kind_name(unsigned proof_kind);
unsigned post_kind_of(cuzk_post_type t);

/* Parses JSON text (len bytes, not necessarily NUL-terminated) into f; false with msg naming the
 * field. f is empty on failure; post_request_file_free releases it on success. */
bool post_request_parse(post_request_file *f, const uint8_t *json, size_t len, char *msg,
                        size_t msg_len);
void post_request_file_free(post_request_file *f);

/* Writes f as a request file (one field a line, one vanilla proof a line); false if the file
 * cannot be written. */
bool post_request_write(const char *path, const post_request_file *f);

/*
 * What cuzk checks before proving: registered_proof a PoSt proof of proof_kind's type whose
 * sector size is sector_size, randomness 32 bytes; then cuzk_post_request_init (WinningPoSt
 * partition 0, vanilla proofs parsed strictly and verified natively). rq is owned by
 * the caller (cuzk_post_request_free) on success.
 */
bool post_request_check(cuzk_post_request *rq, const post_request_file *f, char *msg,
                        size_t msg_len);

/* Reads, parses and checks the request file at path; messages start with the path. f (may be
 * NULL) keeps the parsed fields on success. */
bool post_request_load(cuzk_post_request *rq, post_request_file *f, const char *path, char *msg,
                       size_t msg_len);

#endif
