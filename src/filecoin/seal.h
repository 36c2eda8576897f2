/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Sealing after the graph (docs/spec/sdr-vanilla.md §6-§7): SDR labels of every layer, the replica
 * encoding, Poseidon oct trees with Filecoin's compound (sub/top) roots for tree_c and
 * tree_r_last, and comm_r: the steps under include/cuzk/filecoin/seal.h, internal to the filecoin
 * layer (PoRep's vanilla proofs open the trees; PoSt and SnapDeals build their test replicas with
 * them). Domain values are 32-byte little-endian canonical Fr encodings, as on disk.
 */
#ifndef CUZK_FILECOIN_SEAL_INTERNAL_H
#define CUZK_FILECOIN_SEAL_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/field/field.h"
#include "cuzk/filecoin/sdr_graph.h"
#include "cuzk/filecoin/seal.h"
#include "cuzk/util/pool.h"

/* ---- labels (sdr_labels.c, docs/spec/sdr-vanilla.md §6) -------------------------------------- */
/* The label of node v in layer l (1-based): SHA-256 of replica_id, (l BE32, v BE64, 20 zero
 * bytes) and, for v >= 1, the 37 parent labels of docs/spec/sdr-vanilla.md §6 (base parents from
 * cur, expanders from prev), truncated to 254 bits. cur holds layer l's labels of nodes < v; prev
 * layer l-1 (NULL for l = 1).
 */
void cuzk_sdr_label(uint8_t out[32], const uint8_t replica_id[32], unsigned layer, uint64_t v,
                    const uint32_t parents[CUZK_SDR_DEGREE], const uint8_t *cur,
                    const uint8_t *prev);

/* All layers: labels[(l-1) N 32 + 32 v] for l = 1..layers. parents holds the 14 parents of every
 * node (the parent cache: 14 N values); layers run in order, nodes in order (each label needs
 * the earlier ones). */
void cuzk_sdr_label_layers(uint8_t *labels, const uint8_t replica_id[32], unsigned layers,
                           const uint32_t *parents, uint64_t n);
/* Layer l alone (1..layers; layer l - 1 already labelled). */
void cuzk_sdr_label_layer(uint8_t *labels, const uint8_t replica_id[32], unsigned l,
                          const uint32_t *parents, uint64_t n);

/* ---- encoding (docs/spec/sdr-vanilla.md §7.1) ------------------------------------------------ */
/* replica[v] = key[v] + data[v] mod r for n nodes; false if a data node is not a canonical Fr
 * (Fr32 padding guarantees it) or a key is not. replica may alias data. */
bool cuzk_sdr_encode(uint8_t *replica, const uint8_t *key, const uint8_t *data, uint64_t n);
/* data[v] = replica[v] - key[v] mod r (unsealing). */
bool cuzk_sdr_decode(uint8_t *data, const uint8_t *key, const uint8_t *replica, uint64_t n);

/* ---- Poseidon trees (sdr_tree.c, docs/spec/sdr-vanilla.md §7.2-§7.4) ------------------------- */
/* cuzk_sdr_tree, the tree itself: include/cuzk/filecoin/seal.h. */

/* Builds the tree over leaves[0..n) (n = base_trees * 8^k, k >= 1) on pool (NULL: inline);
 * false on a bad shape or out of memory. The caller frees with cuzk_sdr_tree_free. */
bool cuzk_sdr_tree_build(cuzk_sdr_tree *t, const cuzk_fr *leaves, uint64_t n, unsigned base_trees,
                         unsigned sub_arity, unsigned top_arity, cuzk_pool *pool);
void cuzk_sdr_tree_free(cuzk_sdr_tree *t);

/* Opening leaf x (a Merkle inclusion proof), level by level from the leaves: the base tree's
 * levels, then the sub level (over base roots), then the top level (over sub roots). At each
 * level the running node sits at `pos` among the `arity` values of its group, `row` (row[pos] is
 * the node itself); the path element's siblings are the others in ascending position. Shared by
 * the C1 proofs (src/porep/vanilla.c) and PoSt's vanilla proofs (src/post/replica.c). */
#define CUZK_SDR_TREE_MAX_LEVELS 12
typedef struct {
  unsigned arity, pos;
  cuzk_fr row[8];
} cuzk_sdr_tree_level;
/* levels gets cuzk_sdr_tree_levels(t) entries; *leaf the leaf's value. */
unsigned cuzk_sdr_tree_levels(const cuzk_sdr_tree *t);
void cuzk_sdr_tree_open(const cuzk_sdr_tree *t, uint64_t x, cuzk_fr *leaf,
                        cuzk_sdr_tree_level *levels);
/* The arity - 1 siblings of one opened level into out, as 32-byte LE encodings. */
void cuzk_sdr_tree_siblings(uint8_t (*out)[32], const cuzk_sdr_tree_level *lv);
/* Opening leaf x as a MerkleProof's bytes (docs/bincode.md "MerkleProof"): leaf and root,
 * index[l] per level, and the siblings of every level one after another in sib (the flat order
 * of cuzk_merkle_view). Used by PoSt's and SnapDeals' test replicas. */
void cuzk_sdr_tree_open_bytes(const cuzk_sdr_tree *t, uint64_t x, uint8_t leaf[32],
                              uint8_t root[32], uint8_t *index, uint8_t (*sib)[32]);

/* The column hashes of tree_c: out[v] = Poseidon_L(label_1[v], ..., label_L[v]) (arity L = 2
 * or 11). false if a label is not canonical or L has no parameters. */
bool cuzk_sdr_column_hashes(cuzk_fr *out, const uint8_t *labels, unsigned layers, uint64_t n,
                            cuzk_pool *pool);

/* comm_r = Poseidon_2(comm_c, comm_r_last). */
void cuzk_sdr_comm_r(cuzk_fr *comm_r, const cuzk_fr *comm_c, const cuzk_fr *comm_r_last);

#endif
