/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* A synthetic C1 for benchmarks (cuzk/porep/c1.h cuzk_c1_new_synthetic, docs/porep.md "Synthetic C1
 * for benchmarks"): the shape of a registered proof's C1 filled with made-up values that pass the
 * circuit's own input checks (cuzk_stacked_check_c1), so a production-size partition can be
 * synthesized on a machine that cannot seal a production-size sector. */
#include <string.h>

#include "cuzk/porep/c1.h"

typedef struct {
  uint64_t s;
} rng;

static uint64_t next(rng *r) { /* splitmix64 */
  uint64_t z = (r->s += UINT64_C(0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}

/* A canonical field element's bytes: below 2^254 < r. */
static void value(rng *r, cuzk_c1_b32 b) {
  for (int i = 0; i < 32; i += 8) {
    uint64_t x = next(r);
    memcpy(b + i, &x, 8);
  }
  b[31] &= 0x3f;
}

static void values(rng *r, cuzk_c1_b32_vec *v) {
  for (size_t i = 0; i < v->n; i++)
    value(r, v->v[i]);
}

/* Siblings made up, positions spelling leaf `pos` (each element's arity is its siblings + 1). */
static void path(rng *r, cuzk_c1_path *p, uint64_t *pos) {
  for (size_t l = 0; l < p->n; l++) {
    uint64_t arity = p->v[l].hashes.n + 1;
    values(r, &p->v[l].hashes);
    p->v[l].index = *pos % arity;
    *pos /= arity;
  }
}

static void merkle(rng *r, cuzk_c1_merkle_proof *m, uint64_t leaf, const uint8_t root[32]) {
  memcpy(m->root, root, 32);
  value(r, m->leaf);
  path(r, &m->base, &leaf);
  path(r, &m->sub, &leaf);
  path(r, &m->top, &leaf);
}

static void column(rng *r, cuzk_c1_column_proof *c, uint64_t node, const uint8_t comm_c[32]) {
  c->index = (uint32_t)node;
  values(r, &c->rows);
  merkle(r, &c->inclusion_proof, node, comm_c);
}

cuzk_c1 *cuzk_c1_new_synthetic(uint32_t registered_proof, uint64_t seed) {
  cuzk_c1 *c1 = cuzk_c1_new_shaped(registered_proof);
  if (!c1) return NULL;
  const cuzk_c1_proof_info *pi = cuzk_c1_proof_info_get(registered_proof);
  uint64_t nodes = pi->sector_size / 32;
  rng r = {seed};
  c1->synthetic_for_bench = 1;
  value(&r, c1->comm_r);
  value(&r, c1->comm_d);
  value(&r, c1->replica_id);
  value(&r, c1->seed);
  value(&r, c1->ticket);
  for (size_t k = 0; k < c1->vanilla_proofs.n; k++) {
    cuzk_c1_b32 comm_c, comm_r_last; /* the circuit takes one of each per partition */
    value(&r, comm_c);
    value(&r, comm_r_last);
    for (size_t i = 0; i < c1->vanilla_proofs.v[k].n; i++) {
      cuzk_c1_challenge_proof *p = &c1->vanilla_proofs.v[k].v[i];
      cuzk_c1_replica_column_proof *rc = &p->replica_column_proofs;
      uint64_t x = next(&r) % nodes;
      merkle(&r, &p->comm_d_proofs, x, c1->comm_d);
      merkle(&r, &p->comm_r_last_proof, x, comm_r_last);
      column(&r, &rc->c_x, x, comm_c);
      for (size_t j = 0; j < rc->drg_parents.n; j++)
        column(&r, &rc->drg_parents.v[j], next(&r) % nodes, comm_c);
      for (size_t j = 0; j < rc->exp_parents.n; j++)
        column(&r, &rc->exp_parents.v[j], next(&r) % nodes, comm_c);
      for (size_t l = 0; l < p->labeling_proofs.n; l++) {
        values(&r, &p->labeling_proofs.v[l].parents);
        p->labeling_proofs.v[l].node = x;
      }
      values(&r, &p->encoding_proof.parents);
      p->encoding_proof.node = x;
    }
  }
  return c1;
}
