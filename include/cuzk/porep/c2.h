/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * PoRep C2 around the StackedCircuit: what seal_commit_phase2 does besides proving.
 *  - the parameter files' names (rust-fil-proofs parameter_cache: v28-<prefix>-<sha256(id)>);
 *  - the checks it makes before proving (docs/spec/sdr-vanilla.md §10), plus cheap consistency
 *    checks that turn a C1 which could only give invalid proofs into a clear error before any
 *    work;
 *  - the public inputs of every partition re-derived from the commitments (never from the C1's
 *    vanilla proofs), and verification of the partition proofs (its final verify_seal).
 * Used by cuzk-bench (prove/verify) and by the engine. Thread-safe: a context is read-only after
 * cuzk_c2_ctx_init.
 */
#ifndef CUZK_C2_H
#define CUZK_C2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/filecoin/sdr_graph.h"
#include "cuzk/groth16/groth16.h"
#include "cuzk/porep/c1.h"
#include "cuzk/porep/porep.h"
#include "cuzk/porep/stacked_circuit.h"
#include "cuzk/util/file_map.h"

#ifdef __cplusplus
extern "C" {
#endif

/* DIR/v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-S-T-sha256_hasher-<hash>,
 * without extension; false if it does not fit in len. */
bool cuzk_c2_param_base(char *out, size_t len, const char *dir, const cuzk_seal_proof *p);

/*
 * Writes TEST parameters for p's circuit (FOR TESTS AND LOCAL DEVELOPMENT ONLY: the toxic waste is
 * derived from the file name, so anyone can forge proofs) as DIR/<base>.params, .vk and .meta;
 * DIR is created if missing.
 * EINVAL/ENOMEM/EPROOF with msg; *gen_s (may be NULL) gets the generation time; progress (may be
 * NULL) is the generator's (cuzk_g16_generate).
 */
cuzk_porep_err cuzk_c2_setup_test_params(const cuzk_seal_proof *p, const char *dir, cuzk_pool *pool,
                                         const cuzk_progress *progress, double *gen_s, char *msg,
                                         size_t msg_len);

/* Everything C2 needs about one C1, derived once. */
typedef struct {
  const cuzk_c1 *c1;
  const cuzk_seal_proof *proof;
  cuzk_stacked_config cfg;
  cuzk_sdr_graph graph; /* parents of re-derived challenges */
  unsigned partitions;
  size_t num_inputs; /* per partition, without ONE */
} cuzk_c2_ctx;

/* The identity a caller may state (Curio sends sector number and miner id): when given, the C1's
 * replica_id must be the one derived from them (verify_seal recomputes it). */
typedef struct {
  uint64_t miner_id;
  uint64_t sector_number;
} cuzk_c2_sector;

/*
 * Derives ctx from c1, checking what public inputs and verification rely on
 * (docs/spec/sdr-vanilla.md §10): a known registered proof whose VanillaSealProof variant has its
 * sector size; not NI-PoRep (its C2 output is a SnarkPack aggregate: not supported); comm_d, comm_r
 * and seed not all zero; replica_id, comm_d and comm_r canonical Fr; the proof's partition count.
 * Errors (msg names the field): EPROOF, EINVAL.
 */
cuzk_porep_err cuzk_c2_ctx_init(cuzk_c2_ctx *ctx, const cuzk_c1 *c1, char *msg, size_t msg_len);

/*
 * The rest of what must hold before proving (seal_commit_phase2_circuit_proofs), plus the cheap
 * checks that turn a C1 which could only give invalid proofs into a clear error before any work:
 * in every partition the StackedCircuit's shape checks (challenge count, paths, columns,
 * comm_r_last/comm_c shared by all proofs), the challenged nodes equal to the ones re-derived from
 * replica_id/seed/comm_r and the parent columns to the graph's parents; with `sector`, replica_id
 * derived from its prover id, sector number, the ticket and comm_d; finally the vanilla proofs
 * themselves (cuzk_vanilla_verify: labels, encodings, column and Merkle hashes), which C2 does not
 * re-check but which would otherwise only show as an invalid proof. EINVAL, ENOMEM.
 */
cuzk_porep_err cuzk_c2_check(const cuzk_c2_ctx *ctx, const cuzk_c2_sector *sector, char *msg,
                             size_t msg_len);

/* The public inputs of partition k (ctx->num_inputs entries), re-derived: challenges by the
 * proof's kind from the C1's replica_id, seed and comm_r; parents from the graph. */
cuzk_porep_err cuzk_c2_public_inputs(cuzk_fr *out, const cuzk_c2_ctx *ctx, unsigned k);

/* Verifies proofs[i] as partition first + i for i < count; ok[i] per partition (may be NULL),
 * *all_ok for all. EINVAL for a bad range, ENOMEM. */
cuzk_porep_err cuzk_c2_verify(bool *all_ok, bool *ok, const cuzk_c2_ctx *ctx,
                              const cuzk_g16_pvk *pvk, const cuzk_g16_proof *proofs, unsigned first,
                              unsigned count);

#ifdef __cplusplus
}
#endif
#endif
