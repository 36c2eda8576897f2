/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The C1 output (API-level SealCommitPhase1Output of rust-filecoin-proofs-api,
 * docs/spec/sdr-vanilla.md §9): data model, serde-compatible JSON writer, streaming JSON reader and
 * the Curio envelope {"SectorNum","Phase1Out"(base64 of the C1 JSON),"SectorSize"} (§9.6).
 *
 * Memory: every array reachable from a cuzk_c1 lives in the cuzk_c1's own arena; one call to
 * cuzk_c1_free releases all of it. Vectors are {pointer, count} pairs (the *_vec types).
 */
#ifndef CUZK_C1_H
#define CUZK_C1_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/porep/porep.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- errors ---------------------------------------------------------------------------- */
/* The porep layer's codes (cuzk_porep_err, cuzk/filecoin/sector.h): EFORMAT for a malformed
 * document or envelope (not JSON, wrong types, lengths or ranges, missing, duplicate or unknown
 * fields and variants, invalid base64, a payload that is not C1 JSON); EINVAL for a NULL or
 * unusable argument and for a well-typed C1 whose counts do not match its registered proof
 * (docs/spec/sdr-vanilla.md §9.2); ENOMEM; ECRYPTO. With msg (msg_len > 0; may be NULL) an error
 * also leaves a one-line message that starts with the JSON path of the offending value, e.g.
 * "vanilla_proofs.StackedDrg2KiBV1[0][1].comm_d_proofs.data.Single.root: expected an array of 32
 * numbers, got 31 (at byte 1234)". */

/* ---- registered proofs (docs/spec/sdr-vanilla.md §2.2) --------------------------------------- */

#define CUZK_C1_NUM_PROOFS 20 /* ids 0..19 */

typedef struct {
  const char *name;      /* exact JSON spelling, e.g. "StackedDrg2KiBV1_1" */
  const char *variant;   /* VanillaSealProof variant, e.g. "StackedDrg2KiBV1" */
  uint64_t sector_size;  /* bytes */
  uint32_t layers;       /* L */
  uint32_t partitions;   /* P: 1/10, NI 13/126 */
  uint32_t challenges;   /* per partition: 2 or 18 */
  uint32_t tree_d_depth; /* log2 N = comm_d path length */
  uint32_t base_levels;  /* oct levels of one base tree_c / tree_r_last */
  uint32_t sub_arity;    /* 0, 2 or 8 */
  uint32_t top_arity;    /* 0 or 2 */
} cuzk_c1_proof_info;

/* NULL for an id outside 0..19. */
const cuzk_c1_proof_info *cuzk_c1_proof_info_get(uint32_t registered_proof);
/* -1 if the name is not one of the 20 registered proof spellings. */
int cuzk_c1_proof_id_from_name(const char *name, size_t len);

/* ---- data model (docs/spec/sdr-vanilla.md §9.1, §9.2) ---------------------------------------- */

typedef uint8_t cuzk_c1_b32[32]; /* a 32-byte domain element, byte 0 first (LE Fr repr) */

typedef struct {
  cuzk_c1_b32 *v;
  size_t n;
} cuzk_c1_b32_vec;

/* PathElement {hashes, index}: arity-1 siblings in ascending position order without the
 * current node, index = position of the current node in its group (usize in Rust). */
typedef struct {
  cuzk_c1_b32_vec hashes;
  uint64_t index;
} cuzk_c1_path_elem;

/* InclusionPath {path}: elements from the leaf level upward. */
typedef struct {
  cuzk_c1_path_elem *v;
  size_t n;
} cuzk_c1_path;

/* MerkleProof variants (cuzk_c1_merkle_proof.kind). */
enum { CUZK_C1_MP_SINGLE = 0, CUZK_C1_MP_SUB = 1, CUZK_C1_MP_TOP = 2 };

/* MerkleProof {data: Single{root,leaf,path} | Sub{base_proof,sub_proof,root,leaf} |
 * Top{base_proof,sub_proof,top_proof,root,leaf}}. For Single, `base` holds "path" and sub/top
 * are empty; for Sub/Top root is the compound root and leaf the base leaf. */
typedef struct {
  uint32_t kind; /* CUZK_C1_MP_* */
  cuzk_c1_b32 root, leaf;
  cuzk_c1_path base, sub, top;
} cuzk_c1_merkle_proof;

/* Column {index (u32), rows [L values], _h: null} + ColumnProof {column, inclusion_proof}. */
typedef struct {
  uint32_t index;
  cuzk_c1_b32_vec rows;
  cuzk_c1_merkle_proof inclusion_proof; /* tree_c proof of leaf `index` */
} cuzk_c1_column_proof;

typedef struct {
  cuzk_c1_column_proof *v;
  size_t n;
} cuzk_c1_column_proof_vec;

/* ReplicaColumnProof {c_x, drg_parents (6), exp_parents (8)}. */
typedef struct {
  cuzk_c1_column_proof c_x;
  cuzk_c1_column_proof_vec drg_parents, exp_parents;
} cuzk_c1_replica_column_proof;

/* LabelingProof / EncodingProof {parents (37 labels), layer_index (u32, 1-based), node (u64)}. */
typedef struct {
  cuzk_c1_b32_vec parents;
  uint32_t layer_index;
  uint64_t node;
} cuzk_c1_labeling_proof;

typedef struct {
  cuzk_c1_labeling_proof *v;
  size_t n;
} cuzk_c1_labeling_proof_vec;

/* Proof for one challenge {comm_d_proofs, comm_r_last_proof, replica_column_proofs,
 * labeling_proofs (L), encoding_proof}. */
typedef struct {
  cuzk_c1_merkle_proof comm_d_proofs;
  cuzk_c1_merkle_proof comm_r_last_proof;
  cuzk_c1_replica_column_proof replica_column_proofs;
  cuzk_c1_labeling_proof_vec labeling_proofs;
  cuzk_c1_labeling_proof encoding_proof;
} cuzk_c1_challenge_proof;

/* One partition: its challenges' proofs in challenge order. */
typedef struct {
  cuzk_c1_challenge_proof *v;
  size_t n;
} cuzk_c1_partition;

typedef struct {
  cuzk_c1_partition *v;
  size_t n;
} cuzk_c1_partition_vec;

typedef struct cuzk_c1_arena cuzk_c1_arena;

/* SealCommitPhase1Output (API level): JSON key order registered_proof, vanilla_proofs, comm_r,
 * comm_d, replica_id, seed, ticket. `vanilla_variant` is the VanillaSealProof variant by sector
 * size (0 = StackedDrg2KiBV1, 1 = 8MiB, 2 = 512MiB, 3 = 32GiB, 4 = 64GiB); the reader keeps what
 * the document says, the shape check requires it to match registered_proof. */
typedef struct {
  uint32_t registered_proof; /* docs/spec/sdr-vanilla.md §2.2 id 0..19 */
  uint32_t vanilla_variant;  /* 0..4 */
  cuzk_c1_partition_vec vanilla_proofs;
  cuzk_c1_b32 comm_r, comm_d, replica_id, seed, ticket;
  /* Nonzero: made up for benchmarks by cuzk_c1_new_synthetic, no sealed sector behind it. The
   * JSON carries it as "cuzk_synthetic_for_bench": 1 after the serde keys (absent otherwise;
   * Filecoin's own readers skip it as an unknown field); C2 refuses such a C1. */
  uint32_t synthetic_for_bench;
  /* Nonzero: the C1 of a synthetic sector (cuzk_c1_new_synthetic_sector): consistent, its proof
   * verifies against its own commitments, but no sector's data stands behind it. The JSON carries
   * it as "cuzk_synthetic_sector": 1 (absent otherwise; Curio's C1, serde's serialization of
   * SealCommitPhase1Output, never has it). C2 proves it; the daemon refuses it unless
   * daemon.allow_synthetic_inputs (docs/config.md). */
  uint32_t synthetic_sector;
  cuzk_c1_arena *arena; /* owns every array above */
} cuzk_c1;

#define CUZK_C1_NUM_VARIANTS 5
/* "StackedDrg2KiBV1" ... for 0..4, NULL otherwise. */
const char *cuzk_c1_variant_name(uint32_t variant);
/* Variant (0..4) of a registered proof; its sector size decides. */
uint32_t cuzk_c1_variant_of_proof(uint32_t registered_proof);

/* ---- construction and release ------------------------------------------------------------ */

/* An empty C1 (all zero, no proofs) with its arena; NULL on allocation failure. */
cuzk_c1 *cuzk_c1_new(void);
void cuzk_c1_free(cuzk_c1 *c1);

/* Zeroed memory from c1's arena (8-byte aligned), freed with the C1; NULL on failure. */
void *cuzk_c1_alloc(cuzk_c1 *c1, size_t bytes);

/* A C1 of the exact shape a registered proof's C1 has (docs/spec/sdr-vanilla.md §2.1, §9.2): P
 * partitions × c challenges, all paths/columns/parents allocated with the right counts and Merkle
 * variants, layer_index fields set (1..L, encoding L), every 32-byte value and index zero, for a
 * generator to fill in. NULL for an unknown id or on allocation failure. */
cuzk_c1 *cuzk_c1_new_shaped(uint32_t registered_proof);

/* A C1 of a registered proof's exact shape with made-up contents, for benchmarks at sizes that
 * cannot be sealed here (docs/porep.md "Synthetic C1 for benchmarks"): values canonical field
 * elements drawn from seed, each challenge's paths spelling its node, parents' paths their index,
 * one comm_c and comm_r_last root per partition — what circuit synthesis needs, so a partition
 * synthesizes with the real circuit's counts and work; synthetic_for_bench is set. Not a proof of
 * anything: its paths do not hash to their roots. NULL for an unknown id or without memory. */
cuzk_c1 *cuzk_c1_new_synthetic(uint32_t registered_proof, uint64_t seed);

/* The C1 of a synthetic sector of any size, 32 GiB and 64 GiB included, in milliseconds and
 * kilobytes of work (docs/porep.md "Synthetic sectors"): a CC sector (comm_d of zeros) of the
 * miner's prover_id, sector_id and ticket, challenged with seed; the challenged nodes' labels
 * computed by the real labeling function from made-up parent labels, the replica nodes key + data,
 * tree_c and tree_r_last sparse trees whose untouched leaves are zero. Consistent: it passes
 * cuzk_vanilla_verify and C2's checks, and its proofs verify against its own comm_r and comm_d.
 * synthetic_sector is set. Interactive proofs only (EINVAL for SyntheticPoRep and NI, whose
 * challenges depend on comm_r). */
cuzk_porep_err cuzk_c1_new_synthetic_sector(cuzk_c1 **out, uint32_t registered_proof,
                                            const uint8_t prover_id[32], uint64_t sector_id,
                                            const uint8_t ticket[32], const uint8_t seed[32],
                                            char *msg, size_t msg_len);

/* Checks the counts and Merkle variants against registered_proof (the shape of
 * cuzk_c1_new_shaped), the variant against the sector size, path element indices < arity and
 * layer_index values. */
cuzk_porep_err cuzk_c1_check_shape(const cuzk_c1 *c1, char *msg, size_t msg_len);

/* ---- JSON (serde_json compact, docs/spec/sdr-vanilla.md §9.4) -------------------------------- */

/* Writes the compact JSON serde_json::to_vec produces: declared key order, 32-byte values as
 * arrays of 32 numbers, "_h":null in every Column. *out is malloc'd (caller frees). */
cuzk_porep_err cuzk_c1_write_json(const cuzk_c1 *c1, uint8_t **out, size_t *out_len, char *msg,
                                  size_t msg_len);

/* Read flags. */
#define CUZK_C1_READ_NO_SHAPE_CHECK 1u /* accept any counts (types are always checked) */

/* Streaming parse of the C1 JSON straight into a new cuzk_c1 (no DOM). Accepts any key order,
 * ignores unknown keys (as serde does), tolerates a missing "_h"; rejects duplicate keys, wrong
 * types/lengths, numbers outside the field's range, missing fields, unknown registered-proof or
 * variant names, truncated input and trailing non-whitespace. Then cuzk_c1_check_shape unless
 * CUZK_C1_READ_NO_SHAPE_CHECK. On error *out is NULL. */
cuzk_porep_err cuzk_c1_read_json(cuzk_c1 **out, const uint8_t *data, size_t len, unsigned flags,
                                 char *msg, size_t msg_len);

/* ---- Curio envelope (docs/spec/sdr-vanilla.md §9.6) ------------------------------------------ */

/* {"SectorNum":<int64>,"Phase1Out":"<standard padded base64 of c1_json>","SectorSize":<u64>}
 * as Go's encoding/json writes it (that key order, compact). *out is malloc'd. */
cuzk_porep_err cuzk_c1_envelope_write(const uint8_t *c1_json, size_t c1_len, int64_t sector_num,
                                      uint64_t sector_size, uint8_t **out, size_t *out_len,
                                      char *msg, size_t msg_len);

/* Parses the envelope; *c1_json (malloc'd) receives the decoded Phase1Out bytes. Keys in any
 * order, all three required. Error paths start with "SectorNum", "Phase1Out", "SectorSize". */
cuzk_porep_err cuzk_c1_envelope_read(const uint8_t *data, size_t len, int64_t *sector_num,
                                     uint64_t *sector_size, uint8_t **c1_json, size_t *c1_len,
                                     char *msg, size_t msg_len);

typedef enum { CUZK_C1_SRC_JSON = 0, CUZK_C1_SRC_ENVELOPE = 1 } cuzk_c1_source;

typedef struct {
  cuzk_c1_source source; /* what the input was */
  int64_t sector_num;    /* envelope only, else 0 */
  uint64_t sector_size;  /* envelope only, else 0 */
} cuzk_c1_read_info;

/* One entry point for what cuzk receives: a raw C1 JSON document or a Curio envelope, told
 * apart by the first key of the top-level object. For an envelope the decoded Phase1Out is
 * parsed as C1 JSON (error paths then start with "Phase1Out: "), and SectorSize must equal the
 * registered proof's sector size. info may be NULL. */
cuzk_porep_err cuzk_c1_read(cuzk_c1 **out, const uint8_t *data, size_t len, unsigned flags,
                            cuzk_c1_read_info *info, char *msg, size_t msg_len);

#ifdef __cplusplus
}
#endif
#endif
