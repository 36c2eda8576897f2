/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* C1 output: registered-proof table, arena, construction and release (the shape check is
 * c1_check.c). */
#include "porep/c1.h"
#include "cuzk/porep/porep.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- registered proofs (docs/spec/sdr-vanilla.md §2.1, §2.2) ---- */

/* The C1 view of the registered proofs, derived once (before main) from the filecoin layer's one
 * table (include/cuzk/filecoin/sector.h), so the two can never disagree. */
static cuzk_c1_proof_info PROOFS[CUZK_C1_NUM_PROOFS];

__attribute__((constructor)) static void proofs_init(void) {
  for (uint32_t id = 0; id < CUZK_C1_NUM_PROOFS; id++) {
    const cuzk_seal_proof *p = cuzk_seal_proof_at(id);
    if (!p) continue;
    const cuzk_sector_info *si = p->sector;
    uint32_t levels = 0;
    for (uint64_t w = si->leaves_per_base_tree; w > 1; w /= 8)
      levels++;
    PROOFS[id] = (cuzk_c1_proof_info){p->name,
                                      p->vanilla_variant,
                                      si->bytes,
                                      si->layers,
                                      cuzk_seal_proof_partitions(p),
                                      cuzk_seal_proof_challenges_per_partition(p),
                                      si->tree_d_depth,
                                      levels,
                                      si->sub_arity,
                                      si->top_arity};
  }
}

static const char *const VARIANTS[CUZK_C1_NUM_VARIANTS] = {
    "StackedDrg2KiBV1", "StackedDrg8MiBV1", "StackedDrg512MiBV1", "StackedDrg32GiBV1",
    "StackedDrg64GiBV1"};

const cuzk_c1_proof_info *cuzk_c1_proof_info_get(uint32_t id) {
  return id < CUZK_C1_NUM_PROOFS ? &PROOFS[id] : NULL;
}

int cuzk_c1_proof_id_from_name(const char *name, size_t len) {
  for (int i = 0; i < CUZK_C1_NUM_PROOFS; i++)
    if (strlen(PROOFS[i].name) == len && memcmp(PROOFS[i].name, name, len) == 0) return i;
  return -1;
}

const char *cuzk_c1_variant_name(uint32_t v) {
  return v < CUZK_C1_NUM_VARIANTS ? VARIANTS[v] : NULL;
}

uint32_t cuzk_c1_variant_of_proof(uint32_t id) {
  if (id >= CUZK_C1_NUM_PROOFS) return UINT32_MAX;
  for (uint32_t v = 0; v < CUZK_C1_NUM_VARIANTS; v++)
    if (strcmp(PROOFS[id].variant, VARIANTS[v]) == 0) return v;
  return UINT32_MAX;
}

/* ---- arena: a list of chunks, bump allocation, freed all at once ---- */

/* Chunks start small (a fuzz-sized C1 needs a few KiB) and double up to ARENA_CHUNK. */
#define ARENA_FIRST ((size_t)8 << 10)
#define ARENA_CHUNK ((size_t)1 << 20)

typedef struct chunk {
  struct chunk *next;
  size_t used, size;
  _Alignas(16) unsigned char data[];
} chunk;

struct cuzk_c1_arena {
  chunk *head;
  size_t next_size;
};

void *cuzk_c1_alloc(cuzk_c1 *c1, size_t bytes) {
  if (!c1 || !c1->arena) return NULL;
  cuzk_c1_arena *a = c1->arena;
  if (bytes == 0) bytes = 1;
  size_t need = (bytes + 15) & ~(size_t)15;
  if (need < bytes || need > SIZE_MAX - sizeof(chunk)) return NULL;
  chunk *c = a->head;
  if (!c || c->size - c->used < need) {
    size_t chunk_size = a->next_size ? a->next_size : ARENA_FIRST;
    size_t size = need > chunk_size / 4 ? need : chunk_size;
    chunk *n = malloc(sizeof(chunk) + size);
    if (!n) return NULL;
    n->used = 0;
    n->size = size;
    if (size == chunk_size && chunk_size < ARENA_CHUNK) a->next_size = chunk_size * 2;
    if (size == need && c) { /* big block: keep the current chunk at the head for small ones */
      n->next = c->next;
      c->next = n;
    } else {
      n->next = c;
      a->head = n;
    }
    c = n;
  }
  void *p = c->data + c->used;
  c->used += need;
  memset(p, 0, bytes);
  return p;
}

cuzk_c1 *cuzk_c1_new(void) {
  cuzk_c1 *c1 = calloc(1, sizeof *c1);
  if (!c1) return NULL;
  c1->arena = calloc(1, sizeof *c1->arena);
  if (!c1->arena) {
    free(c1);
    return NULL;
  }
  return c1;
}

void cuzk_c1_free(cuzk_c1 *c1) {
  if (!c1) return;
  if (c1->arena) {
    chunk *c = c1->arena->head;
    while (c) {
      chunk *n = c->next;
      free(c);
      c = n;
    }
    free(c1->arena);
  }
  free(c1);
}

/* ---- shaped construction ---- */

static int alloc_b32(cuzk_c1 *c1, cuzk_c1_b32_vec *v, size_t n) {
  v->n = n;
  v->v = cuzk_c1_alloc(c1, n * sizeof(cuzk_c1_b32));
  return v->v ? 0 : -1;
}

static int alloc_path(cuzk_c1 *c1, cuzk_c1_path *p, size_t levels, size_t hashes) {
  p->n = levels;
  p->v = cuzk_c1_alloc(c1, levels * sizeof *p->v);
  if (!p->v) return -1;
  for (size_t i = 0; i < levels; i++)
    if (alloc_b32(c1, &p->v[i].hashes, hashes)) return -1;
  return 0;
}

static int shape_tree_c_r(cuzk_c1 *c1, const cuzk_c1_proof_info *pi, cuzk_c1_merkle_proof *m) {
  m->kind = pi->top_arity ? CUZK_C1_MP_TOP : pi->sub_arity ? CUZK_C1_MP_SUB : CUZK_C1_MP_SINGLE;
  if (alloc_path(c1, &m->base, pi->base_levels, 7)) return -1;
  if (pi->sub_arity && alloc_path(c1, &m->sub, 1, pi->sub_arity - 1)) return -1;
  if (pi->top_arity && alloc_path(c1, &m->top, 1, pi->top_arity - 1)) return -1;
  return 0;
}

static int shape_column(cuzk_c1 *c1, const cuzk_c1_proof_info *pi, cuzk_c1_column_proof *c) {
  if (alloc_b32(c1, &c->rows, pi->layers)) return -1;
  return shape_tree_c_r(c1, pi, &c->inclusion_proof);
}

static int shape_columns(cuzk_c1 *c1, const cuzk_c1_proof_info *pi, cuzk_c1_column_proof_vec *v,
                         size_t n) {
  v->n = n;
  v->v = cuzk_c1_alloc(c1, n * sizeof *v->v);
  if (!v->v) return -1;
  for (size_t i = 0; i < n; i++)
    if (shape_column(c1, pi, &v->v[i])) return -1;
  return 0;
}

static int shape_proof(cuzk_c1 *c1, const cuzk_c1_proof_info *pi, cuzk_c1_challenge_proof *p) {
  p->comm_d_proofs.kind = CUZK_C1_MP_SINGLE;
  if (alloc_path(c1, &p->comm_d_proofs.base, pi->tree_d_depth, 1)) return -1;
  if (shape_tree_c_r(c1, pi, &p->comm_r_last_proof)) return -1;
  cuzk_c1_replica_column_proof *r = &p->replica_column_proofs;
  if (shape_column(c1, pi, &r->c_x) || shape_columns(c1, pi, &r->drg_parents, 6) ||
      shape_columns(c1, pi, &r->exp_parents, 8))
    return -1;
  p->labeling_proofs.n = pi->layers;
  p->labeling_proofs.v = cuzk_c1_alloc(c1, pi->layers * sizeof *p->labeling_proofs.v);
  if (!p->labeling_proofs.v) return -1;
  for (uint32_t l = 0; l < pi->layers; l++) {
    p->labeling_proofs.v[l].layer_index = l + 1;
    if (alloc_b32(c1, &p->labeling_proofs.v[l].parents, 37)) return -1;
  }
  p->encoding_proof.layer_index = pi->layers;
  return alloc_b32(c1, &p->encoding_proof.parents, 37);
}

cuzk_c1 *cuzk_c1_new_shaped(uint32_t id) {
  const cuzk_c1_proof_info *pi = cuzk_c1_proof_info_get(id);
  if (!pi) return NULL;
  cuzk_c1 *c1 = cuzk_c1_new();
  if (!c1) return NULL;
  c1->registered_proof = id;
  c1->vanilla_variant = cuzk_c1_variant_of_proof(id);
  cuzk_c1_partition_vec *pv = &c1->vanilla_proofs;
  pv->n = pi->partitions;
  pv->v = cuzk_c1_alloc(c1, pv->n * sizeof *pv->v);
  if (!pv->v) goto fail;
  for (size_t k = 0; k < pv->n; k++) {
    pv->v[k].n = pi->challenges;
    pv->v[k].v = cuzk_c1_alloc(c1, pi->challenges * sizeof *pv->v[k].v);
    if (!pv->v[k].v) goto fail;
    for (size_t i = 0; i < pi->challenges; i++)
      if (shape_proof(c1, pi, &pv->v[k].v[i])) goto fail;
  }
  return c1;
fail:
  cuzk_c1_free(c1);
  return NULL;
}
