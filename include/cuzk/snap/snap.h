/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * SnapDeals, the replica-update proof ("EmptySectorUpdate", docs/snap.md): the registered update
 * proofs and their per-size constants, the encoding of new data into a sealed CC sector (phi,
 * rho, TreeD new, TreeR new, comm_r_new) and its decoding, challenge derivation, the bincode
 * PartitionProof Curio sends, its native verification, test sectors that produce it, and
 * EmptySectorUpdateCircuit with its public inputs and parameter files.
 *
 * Contract: tables are static and read-only; every function is thread-safe on distinct outputs.
 * Every input that can come from outside is validated and answered with a cuzk_snap_err and,
 * where a msg buffer is taken, a one-line message naming the field; nothing aborts. 32-byte
 * values are little-endian field encodings and must be canonical.
 */
#ifndef CUZK_SNAP_H
#define CUZK_SNAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/field/field.h"
#include "cuzk/filecoin/bincode.h"
#include "cuzk/filecoin/sector.h"
#include "cuzk/groth16/groth16.h"
#include "cuzk/r1cs/r1cs.h"
#include "cuzk/util/pool.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  CUZK_SNAP_OK = 0,
  CUZK_SNAP_EINVAL,  /* NULL pointer, unusable argument, value out of range */
  CUZK_SNAP_EPROOF,  /* unknown registered update proof id or name */
  CUZK_SNAP_EFORMAT, /* bincode malformed: truncated, trailing bytes, wrong count, tag, index or
                        a non-canonical field element */
  CUZK_SNAP_EVERIFY, /* a vanilla proof that does not hold */
  CUZK_SNAP_ENOMEM,
} cuzk_snap_err;
const char *cuzk_snap_strerror(cuzk_snap_err e);

/* ---- Registered update proofs and their constants (docs/spec/snap-circuit.md §1-§2) ------- */
#define CUZK_SNAP_NUM_PROOFS 5
#define CUZK_SNAP_MAX_PARTITIONS 16
#define CUZK_SNAP_MAX_CHALLENGES 86
#define CUZK_SNAP_MAX_APEX 128
#define CUZK_SNAP_HS 6 /* entries of hs */

typedef struct {
  unsigned id;      /* abi.RegisteredUpdateProof */
  const char *name; /* "StackedDrg32GiBV1" */
  const cuzk_sector_info *sector;
  unsigned cbl;         /* log2(nodes): challenge bits */
  unsigned partitions;  /* 1, 4 or 16 */
  unsigned pbl;         /* log2(partitions) */
  unsigned challenges;  /* per partition: 10 or 86 */
  unsigned apex_leaves; /* 8 or 128 */
  unsigned abl;         /* log2(apex_leaves) */
  unsigned hs[CUZK_SNAP_HS];
  unsigned h;          /* hs[3]: the high bits that select rho */
  unsigned h_select;   /* 1 << (first index of h in hs) */
  unsigned rb;         /* random bits per challenge: cbl - pbl */
  unsigned cpd;        /* challenges per digest: 254 / rb */
  unsigned digests;    /* per partition: ceil(challenges / cpd) */
  unsigned tree_d_low; /* L: TreeD levels below the apex leaves, cbl - pbl - abl */
} cuzk_snap_proof;

const cuzk_snap_proof *cuzk_snap_proof_at(size_t i); /* i = id < CUZK_SNAP_NUM_PROOFS */
cuzk_snap_err cuzk_snap_proof_by_id(const cuzk_snap_proof **p, uint64_t id);
cuzk_snap_err cuzk_snap_proof_by_name(const cuzk_snap_proof **p, const char *name);
cuzk_snap_err cuzk_snap_proof_for(const cuzk_snap_proof **p, uint64_t sector_bytes);

/* ---- phi, rho, challenges (docs/spec/snap-circuit.md §3-§4) ----------------------------- */
/* Poseidon arity 2 with the custom domain tag 2^40 (Poseidon2_GEN). */
void cuzk_snap_hash_gen(cuzk_fr *out, const cuzk_fr *a, const cuzk_fr *b);
/* phi = H_GEN(comm_d_new, comm_r_old); false if either is not canonical. */
bool cuzk_snap_phi(cuzk_fr *phi, const uint8_t comm_d_new[32], const uint8_t comm_r_old[32]);
/* rho(high) = H_GEN(phi, high). */
void cuzk_snap_rho(cuzk_fr *rho, const cuzk_fr *phi, uint64_t high);
/* The p->challenges node indices of partition k, in order; false if comm_r_new is not
 * canonical or k >= p->partitions. */
bool cuzk_snap_challenges(uint64_t *out, const cuzk_snap_proof *p, const uint8_t comm_r_new[32],
                          unsigned k);

/* ---- Encoding (docs/spec/snap-circuit.md §3) --------------------------------------------- */
/* new_replica[i] = sector_key[i] + data[i] * rho(i >> (cbl - h)) over nodes() nodes (32-byte LE
 * each). EINVAL if a node of either input is not canonical (naming it). */
cuzk_snap_err cuzk_snap_encode(uint8_t *new_replica, const cuzk_snap_proof *p,
                               const uint8_t *sector_key, const uint8_t *data,
                               const uint8_t comm_d_new[32], const uint8_t comm_r_old[32],
                               cuzk_pool *pool, char *msg, size_t msg_len);
/* data[i] = (new_replica[i] - sector_key[i]) / rho(...). */
cuzk_snap_err cuzk_snap_decode(uint8_t *data, const cuzk_snap_proof *p, const uint8_t *new_replica,
                               const uint8_t *sector_key, const uint8_t comm_d_new[32],
                               const uint8_t comm_r_old[32], cuzk_pool *pool, char *msg,
                               size_t msg_len);

/* ---- PartitionProof (docs/spec/snap-circuit.md §5) --------------------------------------- */
typedef struct {
  uint8_t root[32], leaf[32];
  uint8_t index[CUZK_MERKLE_MAX_LEVELS];
  uint8_t sib[CUZK_MERKLE_MAX_LEVELS][32];
} cuzk_snap_path_d; /* TreeD: binary SHA-256, cbl levels */

typedef struct {
  uint8_t root[32], leaf[32];
  uint8_t index[12];
  uint8_t sib[12 * CUZK_MERKLE_MAX_SIBLINGS][32];
} cuzk_snap_path_r; /* TreeR: Poseidon 8-S-T */

typedef struct {
  cuzk_snap_path_r r_old;
  cuzk_snap_path_d d_new;
  cuzk_snap_path_r r_new;
} cuzk_snap_challenge_proof;

typedef struct {
  uint8_t comm_c[32];
  uint8_t apex[CUZK_SNAP_MAX_APEX][32]; /* p->apex_leaves used */
  cuzk_snap_challenge_proof *proofs;    /* p->challenges, malloc'd */
} cuzk_snap_partition_proof;
void cuzk_snap_partition_free(cuzk_snap_partition_proof *pp);

size_t cuzk_snap_vanilla_size(const cuzk_snap_proof *p); /* bytes of one partition's bincode */
/* Strict bincode::deserialize of one PartitionProof of p's shape; EFORMAT naming the field and
 * byte ("challenge_proofs[3].proof_d_new.path[2].index: 2, expected < 2 (at byte 123)"). */
cuzk_snap_err cuzk_snap_vanilla_read(cuzk_snap_partition_proof *out, const cuzk_snap_proof *p,
                                     const uint8_t *buf, size_t len, char *msg, size_t msg_len);
/* out has cuzk_snap_vanilla_size(p) bytes. */
cuzk_snap_err cuzk_snap_vanilla_write(uint8_t *out, const cuzk_snap_proof *p,
                                      const cuzk_snap_partition_proof *pp);

/*
 * Native verification of partition k (EmptySectorUpdate::verify plus what the circuit needs):
 * comm_r_old / comm_r_new = H(comm_c, the first challenge's TreeR roots); every proof's roots
 * equal those roots and comm_d_new; every path hashes to its root and opens the challenge of
 * docs/spec/snap-circuit.md §4; leaf_r_new = leaf_r_old + leaf_d_new * rho; the apex leaves hash
 * to comm_d_new along the first challenge's top path, and each path passes through the apex
 * leaf at its position. EVERIFY naming the partition, the challenge and the tree.
 */
cuzk_snap_err cuzk_snap_vanilla_verify(const cuzk_snap_proof *p, unsigned k,
                                       const uint8_t comm_r_old[32], const uint8_t comm_d_new[32],
                                       const uint8_t comm_r_new[32],
                                       const cuzk_snap_partition_proof *pp, char *msg,
                                       size_t msg_len);

/* ---- Test sectors (docs/snap.md "Test sectors") ------------------------------------------ */
typedef struct cuzk_snap_sector cuzk_snap_sector;
/*
 * A CC sector of a test size (2 KiB, 8 MiB, 512 MiB) sealed in memory with the V1_1 seal proof,
 * then updated with data (the sector's padded bytes; NULL: zeros): TreeD new, the encoded
 * replica, TreeR new, comm_r_new with the old comm_c. progress (may be NULL; cuzk/util/progress.h)
 * counts cuzk_seal_sector's layers + 5 steps and 3 more: its steps, then "tree_d_new",
 * "encode_new", "tree_r_new", "done".
 */
cuzk_snap_err cuzk_snap_sector_update(cuzk_snap_sector **out, const cuzk_snap_proof *p,
                                      const uint8_t *data, const uint8_t prover_id[32],
                                      uint64_t sector_id, const uint8_t ticket[32], cuzk_pool *pool,
                                      const cuzk_progress *progress, char *msg, size_t msg_len);
void cuzk_snap_sector_free(cuzk_snap_sector *s);
void cuzk_snap_sector_comms(const cuzk_snap_sector *s, uint8_t comm_r_old[32],
                            uint8_t comm_d_new[32], uint8_t comm_r_new[32], uint8_t comm_c[32]);
const uint8_t *cuzk_snap_sector_key(const cuzk_snap_sector *s);     /* old replica, nodes*32 B */
const uint8_t *cuzk_snap_sector_replica(const cuzk_snap_sector *s); /* new replica */
/* prove_inner for partition k. */
cuzk_snap_err cuzk_snap_vanilla_generate(cuzk_snap_partition_proof *out, const cuzk_snap_proof *p,
                                         const cuzk_snap_sector *s, unsigned k);

/* ---- Synthetic updates (docs/snap.md "Synthetic updates") ------------------------------- */
/*
 * A consistent update of a synthetic CC sector of any size (64 GiB too) in milliseconds: the
 * sector key one value on every node, the new data one value on every node (both drawn from
 * sector_id), TreeR old, TreeD new and TreeR new sparse trees of uniform regions; comm_c the
 * synthetic marker (cuzk_snap_synthetic_comm_c). parts gets p->partitions proofs (free each
 * with cuzk_snap_partition_free) that pass cuzk_snap_request_init and whose proofs verify
 * against the returned commitments; no stored data stands behind them.
 */
cuzk_snap_err cuzk_snap_synthetic_update(cuzk_snap_partition_proof *parts, uint8_t comm_r_old[32],
                                         uint8_t comm_d_new[32], uint8_t comm_r_new[32],
                                         const cuzk_snap_proof *p, uint64_t sector_id, char *msg,
                                         size_t msg_len);
/* The marker: trunc254(SHA-256("cuzk synthetic sector comm_c (SnapDeals)" ‖ comm_r_last_old)). */
void cuzk_snap_synthetic_comm_c(uint8_t out[32], const uint8_t comm_r_last_old[32]);
/* Whether a partition proof is of a synthetic sector: its comm_c is the marker of its TreeR old
 * root. A sealed sector's comm_c is a Poseidon root over its columns and cannot equal it. */
bool cuzk_snap_is_synthetic(const cuzk_snap_proof *p, const cuzk_snap_partition_proof *pp);

/* ---- A request: its vanilla proofs checked (docs/snap.md "Requests") -------------------- */
typedef struct {
  const cuzk_snap_proof *proof;
  uint8_t comm_r_old[32], comm_d_new[32], comm_r_new[32];
  cuzk_snap_partition_proof parts[CUZK_SNAP_MAX_PARTITIONS]; /* proof->partitions, k order */
} cuzk_snap_request;

/* Exactly p->partitions vanilla proofs, the commitments canonical, each element read strictly
 * and verified natively as partition k = its position. Errors name the element
 * ("vanilla_proofs[2] (partition 2): ..."). */
cuzk_snap_err cuzk_snap_request_init(cuzk_snap_request *rq, const cuzk_snap_proof *p,
                                     const uint8_t comm_r_old[32], const uint8_t comm_d_new[32],
                                     const uint8_t comm_r_new[32], const uint8_t *const *vanilla,
                                     const size_t *vanilla_len, size_t n, char *msg,
                                     size_t msg_len);
void cuzk_snap_request_free(cuzk_snap_request *rq);

/* ---- The circuit (docs/spec/snap-circuit.md §7-§8) --------------------------------------- */
#define CUZK_SNAP_PUBLIC_INPUTS 4 /* without ONE */
/* [k | h_select << pbl, comm_r_old, comm_d_new, comm_r_new]; EINVAL if not canonical. */
cuzk_snap_err cuzk_snap_public_inputs(cuzk_fr out[CUZK_SNAP_PUBLIC_INPUTS],
                                      const cuzk_snap_proof *p, unsigned k,
                                      const uint8_t comm_r_old[32], const uint8_t comm_d_new[32],
                                      const uint8_t comm_r_new[32]);
/* EmptySectorUpdateCircuit::synthesize for partition k of rq, exact order; rq NULL: the blank
 * circuit. Input constraints not appended. */
cuzk_snap_err cuzk_snap_synthesize(cuzk_cs *cs, const cuzk_snap_proof *p,
                                   const cuzk_snap_request *rq, unsigned k, char *msg,
                                   size_t msg_len);

/* ---- Parameters and verification (docs/spec/snap-circuit.md §9) ------------------------ */
/* "empty-sector-update-merkletree-poseidon_hasher-8-S-T-<sha256 hex of the identifier>" */
cuzk_snap_err cuzk_snap_cache_id(char *out, size_t len, const cuzk_snap_proof *p);
bool cuzk_snap_param_base(char *out, size_t len, const char *dir, const cuzk_snap_proof *p);
cuzk_snap_err cuzk_snap_setup_test_params(const cuzk_snap_proof *p, const char *dir,
                                          cuzk_pool *pool, const cuzk_progress *progress,
                                          double *gen_s, char *msg, size_t msg_len);
/* All partitions' proofs (proofs[k] for k < partitions) in one batch check. */
cuzk_snap_err cuzk_snap_verify(bool *ok, const cuzk_snap_request *rq, const cuzk_g16_pvk *pvk,
                               const cuzk_g16_proof *proofs);

#ifdef __cplusplus
}
#endif
#endif
