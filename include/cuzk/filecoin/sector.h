/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Filecoin sectors (docs/spec/sdr-vanilla.md §2-§4; docs/porep.md), the base PoRep, PoSt and
 * SnapDeals share: the parameters of every sector size and registered seal proof, porep_id, Fr32
 * padding, tree_d / comm_d, pieces and replica_id, and the error codes of the filecoin and porep
 * layers. The PoRep challenges are the porep layer's (include/cuzk/porep/porep.h).
 *
 * Contract: the tables are static and read-only (thread-safe, pointers valid for the process).
 * Every input that can come from outside (sizes, proof ids, names, lengths, partition numbers) is
 * validated and answered with a cuzk_porep_err; nothing aborts. Byte conventions are Filecoin's:
 * 32-byte nodes and commitments are little-endian Fr encodings, SHA-256 outputs are "Fr-safe"
 * truncated (byte 31 &= 0x3f) where docs/spec/sdr-vanilla.md §1 says so. Lengths are in bytes
 * unless named nodes.
 */
#ifndef CUZK_FILECOIN_SECTOR_H
#define CUZK_FILECOIN_SECTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/util/pool.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Errors -------------------------------------------------------------------------------- */
/* One enum for the filecoin and porep layers, under its PoRep name: these functions return it,
 * C1 and C2 (porep) report with the same codes (EFORMAT is C1's), and PoSt and SnapDeals translate
 * it into their own (docs/architecture.md "The filecoin layer"). */
typedef enum {
  CUZK_POREP_OK = 0,
  CUZK_POREP_EINVAL,     /* NULL pointer, bad length, malformed text, value out of range */
  CUZK_POREP_ESIZE,      /* a sector size this library has no parameters for */
  CUZK_POREP_EPROOF,     /* unknown registered seal proof id or name */
  CUZK_POREP_ENOPROOF,   /* the sector size has no registered proof (test-only sizes) */
  CUZK_POREP_EPARTITION, /* partition number >= the proof's partition count */
  CUZK_POREP_ENOTFR32,   /* a data node has bit 254 or 255 set (not Fr32-padded) */
  CUZK_POREP_ENOMEM,     /* allocation failed */
  CUZK_POREP_ECRYPTO,    /* libsodium failed to initialise */
  CUZK_POREP_EFORMAT,    /* a C1 document or Curio envelope is malformed: not JSON, a value of the
                            wrong type, length or range, a missing, duplicate or unknown field or
                            variant, invalid base64, a payload that is not C1 JSON */
} cuzk_porep_err;

const char *cuzk_porep_strerror(cuzk_porep_err e);

/* ---- Constants (docs/spec/sdr-vanilla.md §1, §2.1) ------------------------------------------- */
#define CUZK_POREP_NODE_BYTES 32
#define CUZK_POREP_BASE_DEGREE 6 /* DRG parents */
#define CUZK_POREP_EXP_DEGREE 8  /* expander parents */
#define CUZK_POREP_DEGREE 14
#define CUZK_POREP_TOTAL_PARENTS 37 /* parents hashed per label */
#define CUZK_POREP_MAX_CHALLENGES_PER_PARTITION 18
#define CUZK_POREP_SINGLE_PARTITION_PROOF_LEN 192
#define CUZK_POREP_MAX_SYNTH_CHALLENGES (1u << 18)
#define CUZK_POREP_NUM_SECTOR_SIZES 10
#define CUZK_POREP_NUM_SEAL_PROOFS 20

/* ---- Sector sizes (docs/spec/sdr-vanilla.md §2.1) -------------------------------------------- */
typedef struct {
  const char *name; /* "2KiB", "8MiB", ..., "64GiB" */
  uint64_t bytes;
  uint64_t nodes; /* bytes / 32 */
  unsigned layers;
  bool registered; /* has registered seal proofs (2KiB, 8MiB, 512MiB, 32GiB, 64GiB) */
  /* Challenges. Interactive and synthetic share partitions and counts; per partition =
   * ceil(minimum / partitions). */
  unsigned min_challenges, partitions, challenges_per_partition;
  unsigned ni_min_challenges, ni_partitions, ni_challenges_per_partition;
  uint64_t synth_challenges; /* min(nodes, 2^18) */
  /* tree_c and tree_r_last shape: base arity 8, sub/top arity 0 when absent. */
  unsigned base_arity, sub_arity, top_arity;
  unsigned base_trees; /* max(sub,1) * max(top,1) separate base trees */
  uint64_t leaves_per_base_tree;
  unsigned tree_d_depth;    /* log2(nodes) */
  unsigned rows_to_discard; /* default for tree_r_last (docs/spec/sdr-vanilla.md §7.5) */
} cuzk_sector_info;

/* All sizes, smallest first; i < CUZK_POREP_NUM_SECTOR_SIZES, NULL otherwise. */
const cuzk_sector_info *cuzk_sector_at(size_t i);
/* ESIZE if no sector has exactly this many bytes. */
cuzk_porep_err cuzk_sector_by_bytes(const cuzk_sector_info **s, uint64_t bytes);
/* Parses a decimal count with an optional binary unit, "2048", "2KiB", "8MiB", "32GiB", "1TiB"
 * (unit case-insensitive; no sign, spaces, decimals or SI units), into bytes. EINVAL on malformed
 * text or overflow. Any value parses; cuzk_sector_parse also requires a known sector size. */
cuzk_porep_err cuzk_porep_parse_size(uint64_t *bytes, const char *text);
cuzk_porep_err cuzk_sector_parse(const cuzk_sector_info **s, const char *text);

/* ---- Registered seal proofs (docs/spec/sdr-vanilla.md §2.2, §2.3) ---------------------------- */
typedef enum {
  CUZK_API_V1_0_0 = 0,
  CUZK_API_V1_1_0 = 1,
  CUZK_API_V1_2_0 = 2,
} cuzk_api_version;

typedef enum {
  CUZK_POREP_FEAT_NONE = 0,
  CUZK_POREP_FEAT_SYNTHETIC = 1,       /* "SyntheticPoRep" */
  CUZK_POREP_FEAT_NON_INTERACTIVE = 2, /* "NonInteractivePoRep" */
} cuzk_porep_feature;

typedef enum {
  CUZK_CHALLENGES_INTERACTIVE = 0, /* docs/spec/sdr-vanilla.md §8.1, seed-based */
  CUZK_CHALLENGES_NON_INTERACTIVE, /* docs/spec/sdr-vanilla.md §8.2 */
  CUZK_CHALLENGES_SYNTHETIC,       /* docs/spec/sdr-vanilla.md §8.3 */
} cuzk_challenge_kind;

typedef struct {
  unsigned id;      /* abi.RegisteredSealProof = FFI ordinal = porep_id[0..8] */
  const char *name; /* exact JSON spelling, e.g. "StackedDrg2KiBV1_1" */
  /* The VanillaSealProof variant in C1 JSON: the size's V1 name for every version
   * (docs/spec/sdr-vanilla.md §9.3). */
  const char *vanilla_variant;
  const cuzk_sector_info *sector;
  cuzk_api_version api;
  cuzk_porep_feature feature;
} cuzk_seal_proof;

/* i < CUZK_POREP_NUM_SEAL_PROOFS (which is also the id), NULL otherwise. */
const cuzk_seal_proof *cuzk_seal_proof_at(size_t i);
cuzk_porep_err cuzk_seal_proof_by_id(const cuzk_seal_proof **p, uint64_t id);
/* Exact, case-sensitive name. */
cuzk_porep_err cuzk_seal_proof_by_name(const cuzk_seal_proof **p, const char *name);
/* The default proof of a size: StackedDrg<size>V1_1. ESIZE for an unknown size, ENOPROOF for a
 * test-only size. */
cuzk_porep_err cuzk_seal_proof_by_sector(const cuzk_seal_proof **p, uint64_t sector_bytes);

const char *cuzk_api_version_str(cuzk_api_version v);     /* "1.0.0" ...; NULL if invalid */
const char *cuzk_porep_feature_str(cuzk_porep_feature f); /* "" for none; NULL if invalid */
/* For a NULL p: interactive, 0, 0. */
cuzk_challenge_kind cuzk_seal_proof_challenge_kind(const cuzk_seal_proof *p);
unsigned cuzk_seal_proof_partitions(const cuzk_seal_proof *p); /* NI partitions for NI proofs */
unsigned cuzk_seal_proof_challenges_per_partition(const cuzk_seal_proof *p);

/* porep_id = id u64 LE ‖ nonce u64 LE ‖ 16 zero bytes (nonce 0 for every proof today). */
void cuzk_porep_id_make(uint8_t out[32], uint64_t proof_id, uint64_t nonce);
void cuzk_seal_proof_porep_id(const cuzk_seal_proof *p, uint8_t out[32]);

/* ---- Fr32 padding (docs/spec/sdr-vanilla.md §3.1): 254 data bits per 32-byte node ---------------
 * Size helpers, bit-exact as fr32::to_padded_bytes / to_unpadded_bytes (127 <-> 128). */
uint64_t cuzk_fr32_padded_size(uint64_t unpadded);
uint64_t cuzk_fr32_unpadded_size(uint64_t padded);
/* Bytes cuzk_fr32_pad writes: whole nodes, ceil(8*len/254)*32 (Fr32Reader). */
uint64_t cuzk_fr32_pad_output_len(uint64_t unpadded_len);
/* Pads in[0..in_len) into out (out_cap >= cuzk_fr32_pad_output_len(in_len)); a trailing partial
 * node is zero-filled. in and out must not overlap. */
cuzk_porep_err cuzk_fr32_pad(uint8_t *out, size_t out_cap, const uint8_t *in, size_t in_len);
/* Writes out_len bytes of the unpadded stream starting at unpadded byte offset `offset`, read
 * from the padded in[0..in_len) (bits 254, 255 of each node are ignored). EINVAL if the bytes
 * asked for lie beyond the whole nodes of in. */
cuzk_porep_err cuzk_fr32_unpad(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len,
                               uint64_t offset);

/* ---- tree_d and comm_d (docs/spec/sdr-vanilla.md §3.3, §3.4) ------------------------------------
 * Binary SHA-256 tree: leaves are the padded data nodes as they are, parent =
 * trunc254(SHA-256(left ‖ right)), comm_d = root. */
#define CUZK_POREP_ZERO_COMMITMENTS 32 /* Z_0 (32 B) .. Z_31 (64GiB) */
/* Z_k = root of 32*2^k zero bytes (table, no hashing); EINVAL if k >= 32. */
cuzk_porep_err cuzk_porep_zero_commitment(uint8_t out[32], unsigned k);
/* comm_d of an all-zero (CC) sector / zero piece of `bytes` bytes (power of two, 32 .. 64GiB). */
cuzk_porep_err cuzk_porep_comm_d_zero(uint8_t out[32], uint64_t bytes);
/* comm_d of data[0..len) (len a power of two, >= 32), O(log) memory. ENOTFR32 if a node is not
 * Fr32-padded. */
cuzk_porep_err cuzk_porep_comm_d(uint8_t out[32], const uint8_t *data, size_t len);
/* The whole tree as stored in sc-02-data-tree-d.dat: all levels, leaves first, 2N-1 nodes.
 * tree has cuzk_porep_tree_d_bytes(len) bytes; the root is its last node. */
uint64_t cuzk_porep_tree_d_bytes(uint64_t len);
cuzk_porep_err cuzk_porep_tree_d_build(uint8_t *tree, const uint8_t *data, size_t len);
/* The same on a worker pool (NULL: the calling thread); identical results. */
cuzk_porep_err cuzk_porep_comm_d_pool(cuzk_pool *pool, uint8_t out[32], const uint8_t *data,
                                      size_t len);
cuzk_porep_err cuzk_porep_tree_d_build_pool(cuzk_pool *pool, uint8_t *tree, const uint8_t *data,
                                            size_t len);
/* One parent node of the tree: trunc254(SHA-256(left ‖ right)). */
void cuzk_porep_tree_d_node(uint8_t out[32], const uint8_t left[32], const uint8_t right[32]);
/* Node index (not byte offset) of the first node of `level` (0 = leaves) in that layout. */
uint64_t cuzk_porep_tree_d_level_start(uint64_t nodes, unsigned level);

/* ---- Pieces (docs/spec/sdr-vanilla.md §3.2, §3.3) -----------------------------------------------
 * A piece of L unpadded bytes written after `written` unpadded bytes occupies the next
 * 127 * 2^k >= L bytes (k >= 0), starting at a multiple of that size: `left` zero bytes, the piece,
 * `right` zero bytes (pieces.rs::get_piece_alignment). EINVAL beyond 64GiB sectors. */
cuzk_porep_err cuzk_porep_piece_alignment(uint64_t *left, uint64_t *right, uint64_t written,
                                          uint64_t piece_bytes);
/* Unpadded byte where a piece starts after the pieces prior[0..n) (get_piece_start_byte). */
cuzk_porep_err cuzk_porep_piece_start(uint64_t *start, const uint64_t *prior, size_t n,
                                      uint64_t piece_bytes);
/* comm_d from piece commitments (compute_comm_d): pieces in order, padded sizes powers of two
 * >= 128, total <= sector (a power of two, 128 .. 64GiB), at most one piece per 127 unpadded
 * bytes; no pieces gives the zero commitment. Like Rust, zero pieces are only added until one
 * root is left: a lone piece smaller than the sector yields its own commitment. */
typedef struct {
  uint8_t comm_p[32];
  uint64_t padded_size;
} cuzk_porep_piece;
cuzk_porep_err cuzk_porep_comm_d_from_pieces(uint8_t out[32], uint64_t sector_bytes,
                                             const cuzk_porep_piece *pieces, size_t n);

/* ---- replica_id (docs/spec/sdr-vanilla.md §4) ------------------------------------------------ */
/* trunc254(SHA-256(prover_id ‖ sector_id u64 BE ‖ ticket ‖ comm_d ‖ porep_id)). */
void cuzk_porep_replica_id(uint8_t out[32], const uint8_t prover_id[32], uint64_t sector_id,
                           const uint8_t ticket[32], const uint8_t comm_d[32],
                           const uint8_t porep_id[32]);
/* Lotus/Curio prover_id of a miner actor id: unsigned LEB128, left-aligned in 32 zero bytes. */
void cuzk_porep_prover_id(uint8_t out[32], uint64_t actor_id);

#ifdef __cplusplus
}
#endif
#endif
