/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Sealing a test-size sector in memory and its C1 vanilla proofs (docs/spec/sdr-vanilla.md §4-§9):
 * the sealed state (data, tree_d, parents, labels, replica, tree_c, tree_r_last, the commitments),
 * the proofs of every partition's challenges into a C1 (c1.h), and the native verification of a
 * C1 — recomputed challenges, labels, encodings and Merkle roots, the checks C1 itself makes and
 * the circuit enforces. Internal header of the porep layer.
 */
#ifndef CUZK_POREP_VANILLA_H
#define CUZK_POREP_VANILLA_H

#include "cuzk/porep.h"
#include "porep/c1.h"
#include "porep/seal.h"

typedef struct {
  const cuzk_seal_proof *proof;
  uint64_t n; /* nodes */
  unsigned layers;
  uint64_t sector_id;
  uint8_t prover_id[32], ticket[32], porep_id[32];
  uint8_t replica_id[32], comm_d[32], comm_c[32], comm_r_last[32], comm_r[32];
  uint8_t *data;     /* N nodes, Fr32-padded sector */
  uint8_t *tree_d;   /* cuzk_porep_tree_d_build layout */
  uint32_t *parents; /* 14 per node */
  uint8_t *labels;   /* layers x N x 32 */
  uint8_t *replica;  /* N nodes */
  cuzk_sdr_tree tree_c, tree_r;
} cuzk_sealed_sector;

/* Seals data (the sector's N padded nodes) for proof p: replica_id, graph and parents, labels
 * (PC1), encoding, tree_c, tree_r_last, comm_r (PC2). Memory ~ (layers + 4) x sector size:
 * meant for the test sizes. */
cuzk_porep_err cuzk_seal_sector(cuzk_sealed_sector *s, const cuzk_seal_proof *p,
                                const uint8_t *data, const uint8_t prover_id[32],
                                uint64_t sector_id, const uint8_t ticket[32], cuzk_pool *pool);
void cuzk_sealed_sector_free(cuzk_sealed_sector *s);

/* The C1 output for seed: every partition's challenges (docs/spec/sdr-vanilla.md §8 by the proof's
 * kind) and their proofs (§9.1). */
cuzk_porep_err cuzk_vanilla_prove(cuzk_c1 **out, const cuzk_sealed_sector *s,
                                  const uint8_t seed[32]);

/* Verifies every proof of c1 natively (docs/spec/sdr-vanilla.md §9.1 "Vanilla verification" + the
 * consistency the circuit requires: labeling parents equal the parent columns' rows). EINVAL with a
 * message naming the partition, the challenge and the part on the first failure. */
cuzk_porep_err cuzk_vanilla_verify(const cuzk_c1 *c1, char *msg, size_t msg_len);

#endif
