/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Proof of Spacetime (WinningPoSt and WindowPoSt, Filecoin's "fallback" PoSt; docs/post.md): the
 * registered PoSt proofs, challenge derivation, the bincode vanilla proofs Curio sends
 * (FallbackPoStSectorProof), their native verification, test replicas that produce them, and the
 * FallbackPoStCircuit with its public inputs and parameter files.
 *
 * Contract: tables are static and read-only; every function is thread-safe on distinct outputs.
 * Every input that can come from outside (ids, byte strings, counts, partition numbers) is
 * validated and answered with a cuzk_post_err and, where a msg buffer is taken, a one-line
 * message naming the field; nothing aborts. 32-byte values are little-endian Fr encodings (the
 * bytes Filecoin writes), and must be canonical (< r).
 */
#ifndef CUZK_POST_H
#define CUZK_POST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/field/field.h"
#include "cuzk/filecoin/sector.h"
#include "cuzk/groth16/groth16.h"
#include "cuzk/r1cs/r1cs.h"
#include "cuzk/util/pool.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Errors ---------------------------------------------------------------------------------- */
typedef enum {
  CUZK_POST_OK = 0,
  CUZK_POST_EINVAL,  /* NULL pointer, unusable argument, value out of range */
  CUZK_POST_EPROOF,  /* unknown registered PoSt proof id or name */
  CUZK_POST_EFORMAT, /* bincode malformed: truncated, trailing bytes, wrong count, tag, index or
                        a non-canonical field element */
  CUZK_POST_EVERIFY, /* a vanilla proof that does not hold: comm_r, a root, a path, a challenge */
  CUZK_POST_ENOMEM,  /* allocation failed */
} cuzk_post_err;
const char *cuzk_post_strerror(cuzk_post_err e);

/* ---- Registered PoSt proofs (docs/post.md "Registered proofs") ------------------------------- */
typedef enum { CUZK_POST_WINNING = 0, CUZK_POST_WINDOW = 1 } cuzk_post_type;

#define CUZK_POST_NUM_PROOFS 15         /* ids 0..14 */
#define CUZK_POST_WINNING_CHALLENGES 66 /* WINNING_POST_CHALLENGE_COUNT */
#define CUZK_POST_WINDOW_CHALLENGES 10  /* WINDOW_POST_CHALLENGE_COUNT, per sector */
#define CUZK_POST_MAX_LEVELS 11         /* 64 GiB: 9 oct levels, the sub (8) and top (2) level */
#define CUZK_POST_MAX_SIBLINGS 7        /* arity 8 */

typedef struct {
  unsigned id;          /* abi.RegisteredPoStProof = the FFI ordinal Curio sends */
  const char *name;     /* Go/FFI name, e.g. "StackedDrgWindow32GiBV1_1" */
  const char *api_name; /* rust-filecoin-proofs-api name ("...V1_2" for ids 10-14) */
  cuzk_post_type type;
  const cuzk_sector_info *sector; /* its tree_r_last shape: sector->base/sub/top_arity */
  cuzk_api_version api;           /* V1_0_0 (ids 0-9) or V1_2_0 (10-14): challenge indices */
  /* The circuit's configuration (fallback::PublicParams): Winning 66 sector blocks of 1
   * challenge, Window S_w sectors of 10 challenges. */
  unsigned sector_count, challenge_count;
  /* The vanilla (API) configuration: challenges in one sector's vanilla proof (66 / 10) and
   * sectors per partition (1 / S_w). */
  unsigned vanilla_challenges, vanilla_sectors;
} cuzk_post_proof;

/* i < CUZK_POST_NUM_PROOFS (which is also the id), NULL otherwise. */
const cuzk_post_proof *cuzk_post_proof_at(size_t i);
cuzk_post_err cuzk_post_proof_by_id(const cuzk_post_proof **p, uint64_t id);
/* Exact name: the Go/FFI one or the proofs-api one. */
cuzk_post_err cuzk_post_proof_by_name(const cuzk_post_proof **p, const char *name);
/* The id the chain uses today for a type and sector size: Winning 0-4, Window V1_1 10-14. EPROOF
 * for a size without registered PoSt proofs. */
cuzk_post_err cuzk_post_proof_for(const cuzk_post_proof **p, cuzk_post_type type,
                                  uint64_t sector_bytes);
const char *cuzk_post_type_name(cuzk_post_type t); /* "winning-post" / "window-post" */

/* Levels of one inclusion path (base levels, then sub, then top) and the arity of level l. */
unsigned cuzk_post_path_levels(const cuzk_post_proof *p);
unsigned cuzk_post_level_arity(const cuzk_post_proof *p, unsigned level);

/* ---- Challenges (docs/post.md "Challenges") -------------------------------------------------- */
/* The leaf of challenge index ci: u64 LE of SHA-256(randomness ‖ sector_id u64 LE ‖ ci u64 LE)
 * [0..8], mod nodes (a power of two). */
uint64_t cuzk_post_leaf_challenge(const uint8_t randomness[32], uint64_t sector_id,
                                  uint64_t challenge_index, uint64_t nodes);
/* get_challenge_index: V1_0_0/V1_1_0 sector_index * per_sector + n, V1_2_0 n. */
uint64_t cuzk_post_challenge_index(cuzk_api_version v, uint64_t sector_index, unsigned per_sector,
                                   unsigned n);
/* The p->vanilla_challenges leaves one sector's vanilla proof must open, in order, for the
 * sector at position sector_index of the proven list (partition_index * p->vanilla_sectors + i;
 * Winning: 0). */
void cuzk_post_sector_challenges(uint64_t *out, const cuzk_post_proof *p,
                                 const uint8_t randomness[32], uint64_t sector_id,
                                 uint64_t sector_index);
/* Winning sector selection (done by the chain): u64 LE of SHA-256(prover_id ‖ randomness ‖ n u64
 * LE)[0..8] mod sector_set_len (0 if the set is empty). */
uint64_t cuzk_post_winning_sector(const uint8_t prover_id[32], const uint8_t randomness[32],
                                  uint64_t n, uint64_t sector_set_len);

/* ---- Vanilla proofs (docs/post.md "Vanilla proof bytes") --------------------------------------
 */
/* One MerkleProof of tree_r_last: levels leaf level first; at level l the running node's position
 * index[l] (0..arity-1) and its arity - 1 siblings in ascending position order. */
typedef struct {
  uint8_t root[32], leaf[32];
  uint8_t index[CUZK_POST_MAX_LEVELS];
  uint8_t hashes[CUZK_POST_MAX_LEVELS][CUZK_POST_MAX_SIBLINGS][32];
} cuzk_post_merkle_proof;

/* FallbackPoStSectorProof with its one SectorProof: what Curio sends per sector. */
typedef struct {
  uint64_t sector_id;
  uint8_t comm_r[32];
  uint8_t comm_c[32], comm_r_last[32];
  size_t n_proofs;                /* p->vanilla_challenges */
  cuzk_post_merkle_proof *proofs; /* malloc'd; cuzk_post_sector_proof_free */
} cuzk_post_sector_proof;
void cuzk_post_sector_proof_free(cuzk_post_sector_proof *sp);

/* Bytes of one sector's bincode for p (fixed by its shape and challenge count). */
size_t cuzk_post_vanilla_size(const cuzk_post_proof *p);
/*
 * bincode::deserialize of a FallbackPoStSectorProof for p's tree shape, strictly: exactly one
 * SectorProof, p->vanilla_challenges inclusion proofs, the MerkleProof variant of the shape
 * (Single/Sub/Top), every count, index and 32-byte value checked, no trailing bytes. EFORMAT with
 * msg naming the field and its byte offset, e.g. "sectors[0].inclusion_proofs[3].path[2].hashes:
 * count 6, expected 7 (at byte 1234)"; ENOMEM.
 */
cuzk_post_err cuzk_post_vanilla_read(cuzk_post_sector_proof *out, const cuzk_post_proof *p,
                                     const uint8_t *buf, size_t len, char *msg, size_t msg_len);
/* bincode::serialize: out has cuzk_post_vanilla_size(p) bytes. EINVAL if sp does not have p's
 * shape (proof count, indices). */
cuzk_post_err cuzk_post_vanilla_write(uint8_t *out, const cuzk_post_proof *p,
                                      const cuzk_post_sector_proof *sp);

/*
 * Native verification of one sector's vanilla proof (FallbackPoSt::verify plus what the circuit
 * relies on): comm_r = Poseidon2(comm_c, comm_r_last); every inclusion proof's root equals
 * comm_r_last; every path hashes from its leaf to that root; every path's leaf index equals the
 * challenge re-derived from randomness, sector_id and sector_index (cuzk_post_sector_challenges).
 * EVERIFY with msg naming the sector id, the challenge and what failed.
 */
cuzk_post_err cuzk_post_vanilla_verify(const cuzk_post_proof *p, const uint8_t randomness[32],
                                       uint64_t sector_index, const cuzk_post_sector_proof *sp,
                                       char *msg, size_t msg_len);

/* ---- Test replicas that produce vanilla proofs (docs/post.md "Test sectors") ------------------
 */
typedef struct cuzk_post_replica cuzk_post_replica;
/* A sector of a test size (2 KiB, 8 MiB, 512 MiB) sealed in memory by the filecoin layer (seal
 * proof the V1_1 one of p's size); data has the sector's padded bytes (NULL: zeros). */
cuzk_post_err cuzk_post_replica_seal(cuzk_post_replica **out, const cuzk_post_proof *p,
                                     const uint8_t *data, const uint8_t prover_id[32],
                                     uint64_t sector_id, const uint8_t ticket[32], cuzk_pool *pool,
                                     char *msg, size_t msg_len);
/* The synthetic marker of a synthetic replica's comm_c (docs/post.md "Test sectors"):
 * trunc254(SHA-256("cuzk-bench synthetic comm_c" ‖ sector_id u64 LE)), what cuzk-bench
 * gen-vanilla gives its synthetic replicas. A sealed sector's comm_c is a Poseidon root over its
 * columns and cannot equal it: cuzk_post_sector_is_synthetic tells a synthetic sector proof from a
 * real one (the daemon refuses those unless daemon.allow_synthetic_inputs). */
void cuzk_post_synthetic_comm_c(uint8_t out[32], uint64_t sector_id);
bool cuzk_post_sector_is_synthetic(const cuzk_post_sector_proof *sp);
/* A synthetic replica of any size (production ones included) whose leaves are all zero: every
 * level of tree_r_last has one value, so paths cost one hash per level and nothing is
 * materialized. comm_c is given (any canonical value); comm_r = Poseidon2(comm_c, comm_r_last). */
cuzk_post_err cuzk_post_replica_synthetic(cuzk_post_replica **out, const cuzk_post_proof *p,
                                          uint64_t sector_id, const uint8_t comm_c[32]);
/* A replica given as its bytes (nodes * 32, canonical nodes) and the comm_c it was sealed with:
 * tree_r_last is built over it and comm_r = Poseidon2(comm_c, its root). This is how a sector
 * updated by SnapDeals is proven: its new replica, the old comm_c, comm_r_new (docs/snap.md). */
cuzk_post_err cuzk_post_replica_from_bytes(cuzk_post_replica **out, const cuzk_post_proof *p,
                                           const uint8_t *replica, const uint8_t comm_c[32],
                                           uint64_t sector_id, cuzk_pool *pool);
void cuzk_post_replica_free(cuzk_post_replica *r);
void cuzk_post_replica_comm_r(const cuzk_post_replica *r, uint8_t comm_r[32]);
uint64_t cuzk_post_replica_sector_id(const cuzk_post_replica *r);
/* generate_single_vanilla_proof: the replica's proof of the challenges for (randomness,
 * sector_index); p must have the replica's sector size. */
cuzk_post_err cuzk_post_vanilla_generate(cuzk_post_sector_proof *out, const cuzk_post_proof *p,
                                         const cuzk_post_replica *r, const uint8_t randomness[32],
                                         uint64_t sector_index);

/* ---- A request: its vanilla proofs checked, one partition's circuit (docs/post.md "Circuit") --
 */
typedef struct {
  const cuzk_post_proof *proof;
  uint8_t randomness[32];
  unsigned partition_index; /* Window: V1_0 challenge indices of the sectors (the circuit proves
                               the received sectors whatever it is) */
  cuzk_post_sector_proof *sectors; /* in received order */
  size_t n_sectors;
} cuzk_post_request;

/*
 * Everything before proving (generate_winning_post_with_vanilla /
 * generate_single_window_post_with_vanilla): randomness canonical; Winning exactly one sector
 * proof and partition 0, Window 1..S_w sectors in strictly ascending id order (the chain's
 * order); each element parsed strictly
 * (cuzk_post_vanilla_read) and verified natively (cuzk_post_vanilla_verify). Errors name the
 * element ("vanilla_proofs[2] (sector 17): ..."): EINVAL, EPROOF, EFORMAT, EVERIFY, ENOMEM.
 */
cuzk_post_err cuzk_post_request_init(cuzk_post_request *rq, const cuzk_post_proof *p,
                                     const uint8_t randomness[32], unsigned partition_index,
                                     const uint8_t *const *vanilla, const size_t *vanilla_len,
                                     size_t n, char *msg, size_t msg_len);
void cuzk_post_request_free(cuzk_post_request *rq);

/* The circuit's public inputs without ONE: p->sector_count * (1 + p->challenge_count). */
size_t cuzk_post_num_public_inputs(const cuzk_post_proof *p);
/*
 * FallbackPoStCompound::generate_public_inputs for the sectors (id, comm_r) in proven order, from
 * the commitments and the randomness only (never from the vanilla paths): per sector comm_r, then
 * its challenge leaves; the last sector block repeated up to p->sector_count. Winning takes one
 * sector and expands it to 66 blocks whose challenge indices are 0..65. EINVAL (non-canonical
 * comm_r, count 0 or above the circuit's).
 */
cuzk_post_err cuzk_post_public_inputs(cuzk_fr *out, const cuzk_post_proof *p,
                                      const uint8_t randomness[32], const uint64_t *sector_ids,
                                      const uint8_t (*comm_r)[32], size_t n,
                                      unsigned partition_index);
/* The same for a checked request. */
cuzk_post_err cuzk_post_request_public_inputs(cuzk_fr *out, const cuzk_post_request *rq);

/*
 * FallbackPoStCircuit::synthesize, exact allocation and constraint order. rq NULL: the blank
 * circuit (parameter generation, shape counts; the constraint system must not keep values).
 * The input constraints are not appended (the prover does that). EINVAL with msg.
 */
cuzk_post_err cuzk_post_synthesize(cuzk_cs *cs, const cuzk_post_proof *p,
                                   const cuzk_post_request *rq, char *msg, size_t msg_len);

/* ---- Parameters and verification (docs/post.md "Parameters") ------------------------------ */
/* "proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-V-W-<sha256 hex of the identifier>"
 * (the v28 files add "v28-" and .params/.vk/.meta). */
cuzk_post_err cuzk_post_cache_id(char *out, size_t len, const cuzk_post_proof *p);
/* DIR/v28-<cache id> without extension; false if it does not fit. */
bool cuzk_post_param_base(char *out, size_t len, const char *dir, const cuzk_post_proof *p);
/* TEST parameters (seeded, insecure: anyone can forge proofs) for p's circuit as
 * DIR/<base>.params, .vk, .meta; DIR created if missing. *gen_s (may be NULL) = seconds. */
cuzk_post_err cuzk_post_setup_test_params(const cuzk_post_proof *p, const char *dir,
                                          cuzk_pool *pool, const cuzk_progress *progress,
                                          double *gen_s, char *msg, size_t msg_len);
/* Verifies one 192-byte-proof partition against the request's re-derived public inputs. */
cuzk_post_err cuzk_post_verify(bool *ok, const cuzk_post_request *rq, const cuzk_g16_pvk *pvk,
                               const cuzk_g16_proof *proof);
/* proofs[i] against rqs[i] for i < n, in one randomized batch check (a deadline's partitions, as
 * the chain checks them): *ok only if every one verifies. All requests must be of one circuit
 * (the same type and sector size; EINVAL otherwise). */
cuzk_post_err cuzk_post_verify_batch(bool *ok, const cuzk_post_request *const *rqs,
                                     const cuzk_g16_pvk *pvk, const cuzk_g16_proof *proofs,
                                     size_t n);

#ifdef __cplusplus
}
#endif
#endif
