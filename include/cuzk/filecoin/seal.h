/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Sealing a test-size sector in memory (docs/spec/sdr-vanilla.md §4-§7): the sealed state (data,
 * tree_d, parents, labels, replica, tree_c, tree_r_last, the commitments) and the Poseidon trees
 * it holds. PoRep proves challenges of it into a C1 (include/cuzk/porep/vanilla.h); PoSt and
 * SnapDeals build their test replicas from it. The steps (labels, encoding, tree building and
 * opening) are internal to the filecoin layer (src/filecoin/seal.h).
 */
#ifndef CUZK_FILECOIN_SEAL_H
#define CUZK_FILECOIN_SEAL_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/field/field.h"
#include "cuzk/filecoin/sector.h"
#include "cuzk/util/pool.h"
#include "cuzk/util/progress.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A Filecoin Poseidon tree: `base_trees` oct trees over equal contiguous slices of the leaves
 * (all levels kept, leaves first), then the compound root: the base root itself (1 tree), a
 * sub level of arity 2 or 8 over the base roots, and optionally a top level of arity 2 over the
 * sub roots (16 base trees: 8-8-2). Values in Montgomery form. A sealed sector holds two (tree_c,
 * tree_r_last); building and opening them is internal to the filecoin layer.
 */
typedef struct {
  uint64_t leaves;               /* all leaves, base_trees * leaves_per_tree */
  unsigned base_trees;           /* 1, 2, 8 or 16 */
  unsigned sub_arity, top_arity; /* 0 when absent */
  unsigned base_levels;          /* levels of one base tree above its leaves (log8) */
  uint64_t per_tree;             /* nodes stored per base tree (all its levels) */
  cuzk_fr *nodes;                /* base_trees * per_tree: tree i at [i * per_tree] */
  cuzk_fr sub_roots[2];          /* with a top level: the two sub roots */
  cuzk_fr root;
} cuzk_sdr_tree;

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
 * meant for the test sizes. progress (may be NULL; cuzk/util/progress.h) counts layers + 5 steps:
 * "tree_d", "parents", "layer" (once per layer), "encode", "tree_c", "tree_r_last", "done". */
cuzk_porep_err cuzk_seal_sector(cuzk_sealed_sector *s, const cuzk_seal_proof *p,
                                const uint8_t *data, const uint8_t prover_id[32],
                                uint64_t sector_id, const uint8_t ticket[32], cuzk_pool *pool,
                                const cuzk_progress *progress);
void cuzk_sealed_sector_free(cuzk_sealed_sector *s);

#ifdef __cplusplus
}
#endif
#endif
