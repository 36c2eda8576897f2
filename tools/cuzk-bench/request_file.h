/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * cuzk-bench: request files for the kinds whose whole input is a request (PoSt, SnapDeals). A
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

#include "cuzk/groth16.h"
#include "cuzk/post.h"
#include "cuzk/snap.h"

/* cuzk.v1.ProofKind values of the request kinds. */
#define SNAP_KIND 2         /* SNAP_DEALS_UPDATE */
#define POST_KIND_WINDOW 3  /* WINDOW_POST_PARTITION */
#define POST_KIND_WINNING 4 /* WINNING_POST */

/* The request's fields as the file gives them (no kind's rule checked yet). */
typedef struct {
  unsigned proof_kind;
  uint64_t registered_proof, sector_size, miner_id, sector_number;
  uint32_t partition_index;
  uint8_t *randomness; /* malloc'd, any length (checked with the request) */
  size_t randomness_len;
  uint8_t *comm[3]; /* SnapDeals: comm_r_old, comm_r_new, comm_d_new; malloc'd, any length */
  size_t comm_len[3];
  uint8_t **vanilla; /* n_vanilla malloc'd proofs */
  size_t *vanilla_len, n_vanilla;
} request_file;

/* The proto enum name of a request kind, and the kind of a PoSt type. */
const char *request_kind_name(unsigned proof_kind);
unsigned post_kind_of(cuzk_post_type t);

/* Parses JSON text (len bytes, not necessarily NUL-terminated) into f; false with msg naming the
 * field. f is empty on failure; request_file_free releases it on success. */
bool request_file_parse(request_file *f, const uint8_t *json, size_t len, char *msg,
                        size_t msg_len);
void request_file_free(request_file *f);
/* Writes f as a request file of its kind (one field a line, one vanilla proof a line); false if
 * the file cannot be written. */
bool request_file_write(const char *path, const request_file *f);

/* A checked request of either kind: what cuzk checks before proving, done. */
typedef struct {
  unsigned proof_kind;
  const char *name;    /* the registered proof's name */
  unsigned partitions; /* proofs it answers: PoSt 1, SnapDeals 1, 4 or 16 */
  cuzk_post_request post;
  cuzk_snap_request snap;
} bench_request;

/*
 * PoSt: registered_proof a PoSt proof of proof_kind's type whose sector size is sector_size,
 * randomness 32 bytes, then cuzk_post_request_init. SnapDeals: registered_proof an update proof
 * whose sector size is sector_size (0: taken from it, as Curio's PSProve sends), the three
 * commitments 32 bytes, then cuzk_snap_request_init (exactly one partition proof per partition,
 * each parsed strictly and verified natively). rq is the caller's (bench_request_free).
 */
bool bench_request_check(bench_request *rq, const request_file *f, char *msg, size_t msg_len);
/* Reads, parses and checks the request file at path; messages start with the path. f (may be
 * NULL) keeps the parsed fields on success. */
bool bench_request_load(bench_request *rq, request_file *f, const char *path, char *msg,
                        size_t msg_len);
void bench_request_free(bench_request *rq);

/* The partition index the proof of position k answers (PoSt: the request's partition_index). */
unsigned bench_request_partition(const bench_request *rq, unsigned k);
bool bench_request_param_base(char *out, size_t len, const char *dir, const bench_request *rq);
/* Synthesizes the proof of position k < rq->partitions into cs. */
/* The request's circuit without a witness (RECORD mode: cli_record_pce). */
bool bench_request_blank(cuzk_cs *cs, const bench_request *rq, char *msg, size_t msg_len);
bool bench_request_synthesize(cuzk_cs *cs, const bench_request *rq, unsigned k, char *msg,
                              size_t msg_len);
/* Both as a cli_synth_fn (ctx: the bench_request). */
bool bench_request_synth(cuzk_cs *cs, const void *ctx, unsigned k, bool blank, char *msg,
                         size_t len);
/* Public inputs of position k, re-derived from the request (never from the vanilla proofs);
 * *n their count. malloc'd; NULL on failure. */
cuzk_fr *bench_request_inputs(const bench_request *rq, unsigned k, size_t *n);
/* proofs[0 .. partitions) against their re-derived inputs; false if the check could not run. */
bool bench_request_verify(bool *ok, const bench_request *rq, const cuzk_g16_pvk *pvk,
                          const cuzk_g16_proof *proofs);

#endif
