/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Sparse, region-uniform Merkle trees (filecoin/sparse_tree.h): the synthetic sectors' tree_d,
 * tree_c and tree_r_last (PoRep) and TreeD / TreeR (SnapDeals) at any size. */
#include "filecoin/sparse_tree.h"

#include <stdlib.h>
#include <string.h>

#include "cuzk/field/field.h"
#include "cuzk/hashes/poseidon.h"

void cuzk_sparse_free(cuzk_sparse_tree *t) {
  if (!t) return;
  for (unsigned l = 0; l <= CUZK_SPARSE_MAX_LEVELS; l++) {
    free(t->def[l]);
    free(t->nodes[l]);
  }
  memset(t, 0, sizeof *t);
}

static bool is_pow2(uint64_t v) { return v && !(v & (v - 1)); }

bool cuzk_sparse_init(cuzk_sparse_tree *t, bool sha, uint64_t leaves, unsigned base_levels,
                      unsigned sub_arity, unsigned top_arity, const uint8_t (*region_values)[32],
                      unsigned regions) {
  memset(t, 0, sizeof *t);
  if (!is_pow2(leaves) || !region_values || !is_pow2(regions) || regions > leaves ||
      regions > CUZK_SPARSE_MAX_REGIONS)
    return false;
  t->sha = sha;
  t->leaves = leaves;
  if (sha) {
    while ((UINT64_C(1) << t->levels) < leaves)
      t->arity[t->levels++] = 2;
  } else {
    if (base_levels + 2 > CUZK_SPARSE_MAX_LEVELS) return false;
    for (unsigned l = 0; l < base_levels; l++)
      t->arity[t->levels++] = 8;
    if (sub_arity) t->arity[t->levels++] = sub_arity;
    if (top_arity) t->arity[t->levels++] = top_arity;
  }
  t->span[0] = 1;
  for (unsigned l = 0; l < t->levels; l++)
    t->span[l + 1] = t->span[l] * t->arity[l];
  if (t->span[t->levels] != leaves) return false;
  t->regions = regions;
  t->region = leaves / regions;
  for (unsigned l = 0; l <= t->levels && t->span[l] <= t->region; l++)
    if (!(t->def[l] = malloc((size_t)regions * 32))) {
      cuzk_sparse_free(t);
      return false;
    }
  memcpy(t->def[0], region_values, (size_t)regions * 32);
  return true;
}

bool cuzk_sparse_init_sector(cuzk_sparse_tree *t, const cuzk_sector_info *si,
                             const uint8_t (*region_values)[32], unsigned regions) {
  if (!si || !si->base_trees) return false;
  unsigned base_levels = 0;
  for (uint64_t w = si->nodes / si->base_trees; w > 1; w /= 8)
    base_levels++;
  return cuzk_sparse_init(t, false, si->nodes, base_levels, si->sub_arity, si->top_arity,
                          region_values, regions);
}

/* Index of the node idx in level lvl's explicit list, or -1. */
static ptrdiff_t find(const cuzk_sparse_tree *t, unsigned lvl, uint64_t idx) {
  size_t lo = 0, hi = t->n[lvl];
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (t->nodes[lvl][mid].idx < idx)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < t->n[lvl] && t->nodes[lvl][lo].idx == idx ? (ptrdiff_t)lo : -1;
}

void cuzk_sparse_get(const cuzk_sparse_tree *t, unsigned lvl, uint64_t idx, uint8_t out[32]) {
  ptrdiff_t i = find(t, lvl, idx);
  if (i >= 0)
    memcpy(out, t->nodes[lvl][i].val, 32);
  else if (t->def[lvl])
    memcpy(out, t->def[lvl][idx * t->span[lvl] / t->region], 32);
  else
    memset(out, 0, 32); /* not reached: such levels hold every node explicitly */
}

static bool push(cuzk_sparse_tree *t, unsigned lvl, uint64_t idx, const uint8_t v[32]) {
  if (t->n[lvl] == t->cap[lvl]) {
    size_t cap = t->cap[lvl] ? 2 * t->cap[lvl] : 64;
    cuzk_sparse_node *p = realloc(t->nodes[lvl], cap * sizeof *p);
    if (!p) return false;
    t->nodes[lvl] = p;
    t->cap[lvl] = cap;
  }
  t->nodes[lvl][t->n[lvl]].idx = idx;
  memcpy(t->nodes[lvl][t->n[lvl]].val, v, 32);
  t->n[lvl]++;
  return true;
}

bool cuzk_sparse_set(cuzk_sparse_tree *t, uint64_t x, const uint8_t v[32]) {
  if (x >= t->leaves) return false;
  for (size_t i = 0; i < t->n[0]; i++)
    if (t->nodes[0][i].idx == x) {
      memcpy(t->nodes[0][i].val, v, 32);
      return true;
    }
  return push(t, 0, x, v);
}

static int by_idx(const void *a, const void *b) {
  uint64_t x = ((const cuzk_sparse_node *)a)->idx, y = ((const cuzk_sparse_node *)b)->idx;
  return x < y ? -1 : x > y;
}

static void hash(const cuzk_sparse_tree *t, unsigned arity, uint8_t (*in)[32], uint8_t out[32]) {
  if (t->sha) {
    cuzk_porep_tree_d_node(out, in[0], in[1]);
    return;
  }
  cuzk_fr f[8], r;
  for (unsigned q = 0; q < arity; q++)
    (void)cuzk_fr_from_bytes(&f[q], in[q]); /* canonical: leaves checked, hashes reduced */
  (void)cuzk_poseidon_hash(&r, arity, f);
  cuzk_fr_to_bytes(out, &r);
}

/* Parent j of level lvl + 1 from its children in level lvl. */
static void parent(const cuzk_sparse_tree *t, unsigned lvl, uint64_t j, uint8_t out[32]) {
  uint8_t in[8][32];
  unsigned a = t->arity[lvl];
  for (unsigned q = 0; q < a; q++)
    cuzk_sparse_get(t, lvl, j * a + q, in[q]);
  hash(t, a, in, out);
}

bool cuzk_sparse_build(cuzk_sparse_tree *t) {
  for (unsigned l = 1; l <= t->levels; l++)
    t->n[l] = 0;
  if (t->n[0]) qsort(t->nodes[0], t->n[0], sizeof *t->nodes[0], by_idx);
  for (unsigned l = 0; l < t->levels; l++) {
    unsigned a = t->arity[l];
    uint8_t v[32];
    if (t->def[l + 1]) {
      for (unsigned g = 0; g < t->regions; g++) {
        uint8_t in[8][32];
        for (unsigned q = 0; q < a; q++)
          memcpy(in[q], t->def[l][g], 32);
        hash(t, a, in, t->def[l + 1][g]);
      }
      for (size_t i = 0; i < t->n[l]; i++) {
        uint64_t j = t->nodes[l][i].idx / a;
        if (t->n[l + 1] && t->nodes[l + 1][t->n[l + 1] - 1].idx == j) continue;
        parent(t, l, j, v);
        if (!push(t, l + 1, j, v)) return false;
      }
    } else { /* nodes spanning regions: every one, in order */
      for (uint64_t j = 0; j < t->leaves / t->span[l + 1]; j++) {
        parent(t, l, j, v);
        if (!push(t, l + 1, j, v)) return false;
      }
    }
  }
  cuzk_sparse_get(t, t->levels, 0, t->root);
  return true;
}

void cuzk_sparse_open(const cuzk_sparse_tree *t, uint64_t x, uint8_t leaf[32], unsigned *pos,
                      uint8_t (*sib)[32]) {
  cuzk_sparse_get(t, 0, x, leaf);
  for (unsigned l = 0; l < t->levels; l++) {
    unsigned a = t->arity[l];
    pos[l] = (unsigned)(x % a);
    for (unsigned q = 0; q < a; q++)
      if (q != pos[l]) cuzk_sparse_get(t, l, x - pos[l] + q, *sib++);
    x /= a;
  }
}
