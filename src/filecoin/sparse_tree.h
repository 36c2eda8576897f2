/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Sparse Merkle trees of any sector size (docs/porep.md "Synthetic sectors"): the leaves are
 * region-uniform — every leaf of region g (2^k equal, aligned regions) holds the region's value —
 * except a few set leaves. A node whose subtree lies in one region and holds no set leaf has the
 * region's value of its level, computed once per level; only the set leaves' paths, and the levels
 * whose nodes span more than one region, are hashed node by node. Building and opening a 64 GiB
 * tree costs the touched paths, not the sector. The shapes are tree_d (binary SHA-256, 254-bit
 * truncation) and tree_c / tree_r_last (Poseidon oct base trees with sub and top levels): the
 * same roots and openings as sdr_tree.c and comm_d.c build over the full leaves (tested there).
 * Values are 32-byte LE canonical field elements.
 */
#ifndef CUZK_FILECOIN_SPARSE_TREE_H
#define CUZK_FILECOIN_SPARSE_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/filecoin/sector.h"

#define CUZK_SPARSE_MAX_LEVELS 40
#define CUZK_SPARSE_MAX_REGIONS 4096

typedef struct {
  uint64_t idx;
  uint8_t val[32];
} cuzk_sparse_node;

typedef struct {
  bool sha;        /* tree_d: binary SHA-256; else Poseidon */
  uint64_t leaves; /* N, a power of two */
  unsigned levels; /* hash levels (the root is at level `levels`) */
  unsigned arity[CUZK_SPARSE_MAX_LEVELS];
  uint64_t span[CUZK_SPARSE_MAX_LEVELS + 1]; /* leaves under one node of the level */
  uint64_t region;                           /* leaves per region (N / regions) */
  unsigned regions;
  /* per level: the regions' value (levels whose span <= region) */
  uint8_t (*def[CUZK_SPARSE_MAX_LEVELS + 1])[32];
  /* per level: explicit nodes, sorted by index */
  cuzk_sparse_node *nodes[CUZK_SPARSE_MAX_LEVELS + 1];
  size_t n[CUZK_SPARSE_MAX_LEVELS + 1], cap[CUZK_SPARSE_MAX_LEVELS + 1];
  uint8_t root[32];
} cuzk_sparse_tree;

/* A tree of `leaves` leaves: tree_d (sha: log2 N binary levels) or the Poseidon shape of a
 * sector (base_levels oct levels per base tree, then sub_arity and top_arity levels when
 * nonzero). region_values: `regions` values (a power of two dividing N), region g covering leaves
 * [g N/regions, (g+1) N/regions). false on a bad shape or no memory. */
bool cuzk_sparse_init(cuzk_sparse_tree *t, bool sha, uint64_t leaves, unsigned base_levels,
                      unsigned sub_arity, unsigned top_arity, const uint8_t (*region_values)[32],
                      unsigned regions);
/* The Poseidon shape of a sector (si's base/sub/top arities). */
bool cuzk_sparse_init_sector(cuzk_sparse_tree *t, const cuzk_sector_info *si,
                             const uint8_t (*region_values)[32], unsigned regions);
/* Leaf x takes value v (before build; setting one leaf twice keeps the last value). */
bool cuzk_sparse_set(cuzk_sparse_tree *t, uint64_t x, const uint8_t v[32]);
/* Hashes the touched paths up to the root (t->root). false on no memory. */
bool cuzk_sparse_build(cuzk_sparse_tree *t);
/* The value of node idx of level lvl (after build). */
void cuzk_sparse_get(const cuzk_sparse_tree *t, unsigned lvl, uint64_t idx, uint8_t out[32]);
/* Opening leaf x: leaf, and per level l the position pos[l] of the running node in its group
 * and its arity[l] - 1 siblings in ascending position, level by level into sib (flat). */
void cuzk_sparse_open(const cuzk_sparse_tree *t, uint64_t x, uint8_t leaf[32], unsigned *pos,
                      uint8_t (*sib)[32]);
void cuzk_sparse_free(cuzk_sparse_tree *t);

#endif
