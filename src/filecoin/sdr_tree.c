/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Replica encoding, tree_c / tree_r_last as Filecoin builds them (Poseidon oct trees with sub/top
 * compound roots, docs/spec/sdr-vanilla.md §7) and comm_r. Tree levels are hashed in parallel
 * slices with cuzk_poseidon_hash_many: a level's children are contiguous, arity by arity. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/hashes/poseidon.h"
#include "filecoin/seal.h"

bool cuzk_sdr_encode(uint8_t *replica, const uint8_t *key, const uint8_t *data, uint64_t n) {
  for (uint64_t v = 0; v < n; v++) {
    cuzk_fr k, d;
    if (!cuzk_fr_from_bytes(&k, key + 32 * v) || !cuzk_fr_from_bytes(&d, data + 32 * v))
      return false;
    cuzk_fr_add(&d, &d, &k);
    cuzk_fr_to_bytes(replica + 32 * v, &d);
  }
  return true;
}

bool cuzk_sdr_decode(uint8_t *data, const uint8_t *key, const uint8_t *replica, uint64_t n) {
  for (uint64_t v = 0; v < n; v++) {
    cuzk_fr k, r;
    if (!cuzk_fr_from_bytes(&k, key + 32 * v) || !cuzk_fr_from_bytes(&r, replica + 32 * v))
      return false;
    cuzk_fr_sub(&r, &r, &k);
    cuzk_fr_to_bytes(data + 32 * v, &r);
  }
  return true;
}

/* ---- one level: out[j] = Poseidon_arity(in[arity j .. arity j + arity)) ------------------- */
typedef struct {
  cuzk_fr *out;
  const cuzk_fr *in;
  const cuzk_poseidon_params *p;
} level_job;

static void level_range(void *ctx, size_t begin, size_t end) {
  level_job *j = ctx;
  cuzk_poseidon_hash_many(j->out + begin, j->p, &j->p->merkle_tag, j->in + j->p->arity * begin,
                          end - begin);
}

static void hash_level(cuzk_fr *out, const cuzk_fr *in, uint64_t nout,
                       const cuzk_poseidon_params *p, cuzk_pool *pool) {
  level_job j = {out, in, p};
  if (pool)
    cuzk_parallel_for(pool, nout, 256, level_range, &j, 0);
  else
    level_range(&j, 0, nout);
}

void cuzk_sdr_tree_free(cuzk_sdr_tree *t) {
  free(t->nodes);
  t->nodes = NULL;
}

bool cuzk_sdr_tree_build(cuzk_sdr_tree *t, const cuzk_fr *leaves, uint64_t n, unsigned base_trees,
                         unsigned sub_arity, unsigned top_arity, cuzk_pool *pool) {
  memset(t, 0, sizeof *t);
  /* the shapes of docs/spec/sdr-vanilla.md §2.1: 1, 2 (sub 2), 8 (sub 8), 16 (sub 8, top 2) */
  bool shape = (base_trees == 1 && !sub_arity && !top_arity) ||
               (base_trees == 2 && sub_arity == 2 && !top_arity) ||
               (base_trees == 8 && sub_arity == 8 && !top_arity) ||
               (base_trees == 16 && sub_arity == 8 && top_arity == 2);
  if (!shape || !leaves || n % base_trees) return false;
  uint64_t per = n / base_trees, total = 0;
  unsigned levels = 0;
  for (uint64_t w = per; w > 1; w /= 8) {
    if (w % 8) return false;
    total += w;
    levels++;
  }
  if (levels == 0) return false;
  total += 1;
  const cuzk_poseidon_params *p8, *p2;
  if (cuzk_poseidon_params_get(&p8, 8) || cuzk_poseidon_params_get(&p2, 2)) return false;
  t->nodes = malloc(base_trees * total * sizeof(cuzk_fr));
  if (!t->nodes) return false;
  t->leaves = n;
  t->base_trees = base_trees;
  t->sub_arity = sub_arity;
  t->top_arity = top_arity;
  t->base_levels = levels;
  t->per_tree = total;
  cuzk_fr roots[16];
  for (unsigned b = 0; b < base_trees; b++) {
    cuzk_fr *lvl = t->nodes + b * total;
    memcpy(lvl, leaves + b * per, per * sizeof(cuzk_fr));
    for (uint64_t w = per; w > 1; w /= 8) {
      hash_level(lvl + w, lvl, w / 8, p8, pool);
      lvl += w;
    }
    roots[b] = lvl[0];
  }
  if (base_trees == 1) {
    t->root = roots[0];
  } else if (!top_arity) {
    cuzk_poseidon_hash_many(&t->root, sub_arity == 2 ? p2 : p8,
                            sub_arity == 2 ? &p2->merkle_tag : &p8->merkle_tag, roots, 1);
  } else {
    cuzk_poseidon_hash_many(t->sub_roots, p8, &p8->merkle_tag, roots, 2);
    cuzk_poseidon_hash_many(&t->root, p2, &p2->merkle_tag, t->sub_roots, 1);
  }
  return true;
}

/* ---- tree_c leaves ------------------------------------------------------------------------- */
typedef struct {
  cuzk_fr *out;
  const uint8_t *labels;
  unsigned layers;
  uint64_t n;
  const cuzk_poseidon_params *p;
  atomic_bool ok; /* cleared by any worker that meets a non-canonical label */
} column_job;

static void column_range(void *ctx, size_t begin, size_t end) {
  column_job *j = ctx;
  cuzk_fr col[CUZK_POSEIDON_MAX_ARITY];
  for (size_t v = begin; v < end; v++) {
    for (unsigned l = 0; l < j->layers; l++)
      if (!cuzk_fr_from_bytes(&col[l], j->labels + ((uint64_t)l * j->n + v) * 32))
        atomic_store(&j->ok, false);
    cuzk_poseidon_hash_many(&j->out[v], j->p, &j->p->merkle_tag, col, 1);
  }
}

bool cuzk_sdr_column_hashes(cuzk_fr *out, const uint8_t *labels, unsigned layers, uint64_t n,
                            cuzk_pool *pool) {
  column_job j = {out, labels, layers, n, NULL, true};
  if (cuzk_poseidon_params_get(&j.p, layers) != CUZK_HASH_OK) return false;
  if (pool)
    cuzk_parallel_for(pool, n, 256, column_range, &j, 0);
  else
    column_range(&j, 0, n);
  return atomic_load(&j.ok);
}

void cuzk_sdr_comm_r(cuzk_fr *comm_r, const cuzk_fr *comm_c, const cuzk_fr *comm_r_last) {
  cuzk_fr in[2] = {*comm_c, *comm_r_last};
  const cuzk_poseidon_params *p2;
  if (cuzk_poseidon_params_get(&p2, 2) != CUZK_HASH_OK) return;
  cuzk_poseidon_hash_many(comm_r, p2, &p2->merkle_tag, in, 1);
}

/* Level lvl of base tree b in the layout above (each base tree's levels, leaves first). */
static const cuzk_fr *tree_level(const cuzk_sdr_tree *t, unsigned b, unsigned lvl) {
  uint64_t per = t->leaves / t->base_trees, off = 0;
  for (unsigned i = 0; i < lvl; i++, per /= 8)
    off += per;
  return t->nodes + b * t->per_tree + off;
}

unsigned cuzk_sdr_tree_levels(const cuzk_sdr_tree *t) {
  return t->base_levels + (t->sub_arity ? 1 : 0) + (t->top_arity ? 1 : 0);
}

void cuzk_sdr_tree_open(const cuzk_sdr_tree *t, uint64_t x, cuzk_fr *leaf,
                        cuzk_sdr_tree_level *levels) {
  uint64_t per = t->leaves / t->base_trees, li = x % per;
  unsigned b = (unsigned)(x / per), L = t->base_levels;
  *leaf = tree_level(t, b, 0)[li];
  for (unsigned lvl = 0; lvl < L; lvl++, li /= 8) {
    cuzk_sdr_tree_level *lv = &levels[lvl];
    lv->arity = 8;
    lv->pos = (unsigned)(li % 8);
    memcpy(lv->row, tree_level(t, b, lvl) + (li - lv->pos), 8 * sizeof *lv->row);
  }
  if (!t->sub_arity) return;
  /* the sub level hashes base roots (one group of sub_arity per sub root), the top sub roots */
  unsigned group = t->top_arity ? b / t->sub_arity : 0;
  cuzk_sdr_tree_level *sub = &levels[L];
  sub->arity = t->sub_arity;
  sub->pos = b % t->sub_arity;
  for (unsigned q = 0; q < t->sub_arity; q++)
    sub->row[q] = tree_level(t, group * t->sub_arity + q, L)[0];
  if (!t->top_arity) return;
  cuzk_sdr_tree_level *top = &levels[L + 1];
  top->arity = t->top_arity;
  top->pos = group;
  memcpy(top->row, t->sub_roots, t->top_arity * sizeof *top->row);
}

void cuzk_sdr_tree_siblings(uint8_t (*out)[32], const cuzk_sdr_tree_level *lv) {
  for (unsigned q = 0, m = 0; q < lv->arity; q++)
    if (q != lv->pos) cuzk_fr_to_bytes(out[m++], &lv->row[q]);
}

void cuzk_sdr_tree_open_bytes(const cuzk_sdr_tree *t, uint64_t x, uint8_t leaf[32],
                              uint8_t root[32], uint8_t *index, uint8_t (*sib)[32]) {
  cuzk_sdr_tree_level lv[CUZK_SDR_TREE_MAX_LEVELS];
  cuzk_fr l;
  cuzk_sdr_tree_open(t, x, &l, lv);
  cuzk_fr_to_bytes(leaf, &l);
  cuzk_fr_to_bytes(root, &t->root);
  for (unsigned k = 0; k < cuzk_sdr_tree_levels(t); k++) {
    cuzk_sdr_tree_siblings(sib, &lv[k]);
    sib += lv[k].arity - 1;
    index[k] = (uint8_t)lv[k].pos;
  }
}
