/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* C1 vanilla proofs of a sector sealed in memory and their native verification
 * (include/cuzk/porep/vanilla.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/hashes/poseidon.h"
#include "cuzk/hashes/sha256.h"
#include "cuzk/porep/vanilla.h"
#include "filecoin/seal.h"
#include "porep/c1.h"

/* ---- proofs ------------------------------------------------------------------------------- */

/* A Poseidon tree proof of leaf x into the shaped mp (kind and counts already set). */
static void poseidon_proof(cuzk_c1_merkle_proof *mp, const cuzk_sdr_tree *t, uint64_t x) {
  cuzk_sdr_tree_level lv[CUZK_SDR_TREE_MAX_LEVELS];
  cuzk_fr leaf;
  cuzk_sdr_tree_open(t, x, &leaf, lv);
  cuzk_fr_to_bytes(mp->leaf, &leaf);
  cuzk_fr_to_bytes(mp->root, &t->root);
  unsigned L = t->base_levels;
  for (unsigned l = 0; l < cuzk_sdr_tree_levels(t); l++) {
    cuzk_c1_path_elem *pe = l < L ? &mp->base.v[l] : l == L ? &mp->sub.v[0] : &mp->top.v[0];
    cuzk_sdr_tree_siblings(pe->hashes.v, &lv[l]);
    pe->index = lv[l].pos;
  }
}

static void column_proof(cuzk_c1_column_proof *cp, const cuzk_sealed_sector *s, uint64_t node) {
  cp->index = (uint32_t)node;
  for (unsigned l = 0; l < s->layers; l++)
    memcpy(cp->rows.v[l], s->labels + ((uint64_t)l * s->n + node) * 32, 32);
  poseidon_proof(&cp->inclusion_proof, &s->tree_c, node);
}

/* The 37 labels hashed for (layer, x), docs/spec/sdr-vanilla.md §6; `label(layer, node)` reads
 * them. */
static void label_parents(cuzk_c1_b32 *out, const cuzk_sealed_sector *s, unsigned layer,
                          uint64_t x) {
  const uint32_t *par = s->parents + CUZK_SDR_DEGREE * x;
  unsigned deg = layer == 1 ? CUZK_SDR_BASE_DEGREE : CUZK_SDR_DEGREE;
  for (unsigned k = 0; k < 37; k++) {
    unsigned i = k % deg, src = i < CUZK_SDR_BASE_DEGREE ? layer : layer - 1;
    memcpy(out[k], s->labels + ((uint64_t)(src - 1) * s->n + par[i]) * 32, 32);
  }
}

static void challenge_proof(cuzk_c1_challenge_proof *cp, const cuzk_sealed_sector *s, uint64_t x) {
  /* tree_d: binary, leaves first */
  cuzk_c1_merkle_proof *d = &cp->comm_d_proofs;
  memcpy(d->root, s->comm_d, 32);
  memcpy(d->leaf, s->data + 32 * x, 32);
  for (unsigned lvl = 0; lvl < d->base.n; lvl++) {
    uint64_t node = x >> lvl;
    uint64_t at = cuzk_porep_tree_d_level_start(s->n, lvl) + (node ^ 1);
    memcpy(d->base.v[lvl].hashes.v[0], s->tree_d + 32 * at, 32);
    d->base.v[lvl].index = node & 1;
  }
  poseidon_proof(&cp->comm_r_last_proof, &s->tree_r, x);
  column_proof(&cp->replica_column_proofs.c_x, s, x);
  const uint32_t *par = s->parents + CUZK_SDR_DEGREE * x;
  for (unsigned j = 0; j < CUZK_SDR_BASE_DEGREE; j++)
    column_proof(&cp->replica_column_proofs.drg_parents.v[j], s, par[j]);
  for (unsigned j = 0; j < CUZK_SDR_EXP_DEGREE; j++)
    column_proof(&cp->replica_column_proofs.exp_parents.v[j], s, par[CUZK_SDR_BASE_DEGREE + j]);
  for (unsigned l = 1; l <= s->layers; l++) {
    cuzk_c1_labeling_proof *lp = &cp->labeling_proofs.v[l - 1];
    label_parents(lp->parents.v, s, l, x);
    lp->layer_index = l;
    lp->node = x;
  }
  label_parents(cp->encoding_proof.parents.v, s, s->layers, x);
  cp->encoding_proof.layer_index = s->layers;
  cp->encoding_proof.node = x;
}

cuzk_porep_err cuzk_vanilla_prove(cuzk_c1 **out, const cuzk_sealed_sector *s,
                                  const uint8_t seed[32]) {
  *out = NULL;
  if (!s || !s->proof || !seed) return CUZK_POREP_EINVAL;
  cuzk_c1 *c1 = cuzk_c1_new_shaped(s->proof->id);
  if (!c1) return CUZK_POREP_ENOMEM;
  memcpy(c1->comm_r, s->comm_r, 32);
  memcpy(c1->comm_d, s->comm_d, 32);
  memcpy(c1->replica_id, s->replica_id, 32);
  memcpy(c1->seed, seed, 32);
  memcpy(c1->ticket, s->ticket, 32);
  uint64_t xs[CUZK_POREP_MAX_CHALLENGES_PER_PARTITION];
  for (size_t k = 0; k < c1->vanilla_proofs.n; k++) {
    cuzk_porep_err e =
        cuzk_porep_challenges(xs, s->proof, s->replica_id, seed, s->comm_r, (unsigned)k);
    if (e) {
      cuzk_c1_free(c1);
      return e;
    }
    cuzk_c1_partition *part = &c1->vanilla_proofs.v[k];
    for (size_t i = 0; i < part->n; i++)
      challenge_proof(&part->v[i], s, xs[i]);
  }
  *out = c1;
  return CUZK_POREP_OK;
}

/* ---- verification --------------------------------------------------------------------------- */

typedef struct {
  char *msg;
  size_t len;
} report;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static cuzk_porep_err
fail(report *r, const char *fmt, ...) {
  if (r->msg && r->len) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->msg, r->len, fmt, ap);
    va_end(ap);
  }
  return CUZK_POREP_EINVAL;
}

static bool to_fr(cuzk_fr *o, const uint8_t b[32]) { return cuzk_fr_from_bytes(o, b); }

/* Hashes a path up from leaf; false on a malformed element. Sets *index to the leaf index. */
static bool walk(cuzk_fr *cur, uint64_t *index, const cuzk_c1_path *path, unsigned arity,
                 uint64_t scale) {
  uint64_t mul = scale;
  for (size_t e = 0; e < path->n; e++, mul *= arity) {
    const cuzk_c1_path_elem *pe = &path->v[e];
    if (pe->hashes.n != arity - 1 || pe->index >= arity) return false;
    cuzk_fr in[8];
    for (unsigned q = 0, m = 0; q < arity; q++)
      if (q == pe->index)
        in[q] = *cur;
      else if (!to_fr(&in[q], pe->hashes.v[m++]))
        return false;
    if (cuzk_poseidon_hash(cur, arity, in) != CUZK_HASH_OK) return false;
    *index += pe->index * mul;
  }
  return true;
}

/* A Poseidon tree proof: its leaf sits at x and hashes up to its root. */
static bool poseidon_ok(const cuzk_c1_merkle_proof *mp, uint64_t x, const cuzk_sector_info *si) {
  cuzk_fr cur, root;
  uint64_t index = 0;
  if (!to_fr(&cur, mp->leaf) || !to_fr(&root, mp->root)) return false;
  if (!walk(&cur, &index, &mp->base, 8, 1)) return false;
  if (si->sub_arity && !walk(&cur, &index, &mp->sub, si->sub_arity, si->leaves_per_base_tree))
    return false;
  if (si->top_arity &&
      !walk(&cur, &index, &mp->top, si->top_arity, si->leaves_per_base_tree * si->sub_arity))
    return false;
  return index == x && cuzk_fr_eq(&cur, &root);
}

/* tree_d: binary SHA-256 with 254-bit truncation. */
static bool tree_d_ok(const cuzk_c1_merkle_proof *mp, uint64_t x) {
  uint8_t cur[32], buf[64];
  uint64_t index = 0;
  memcpy(cur, mp->leaf, 32);
  for (size_t e = 0; e < mp->base.n; e++) {
    const cuzk_c1_path_elem *pe = &mp->base.v[e];
    if (pe->hashes.n != 1 || pe->index > 1) return false;
    memcpy(buf + 32 * pe->index, cur, 32);
    memcpy(buf + 32 * (1 - pe->index), pe->hashes.v[0], 32);
    cuzk_sha256_trunc254(cur, buf, 64);
    index |= pe->index << e;
  }
  return index == x && memcmp(cur, mp->root, 32) == 0;
}

static bool column_ok(const cuzk_c1_column_proof *cp, uint64_t node, unsigned layers,
                      const cuzk_fr *comm_c, const cuzk_sector_info *si) {
  cuzk_fr rows[CUZK_POSEIDON_MAX_ARITY], h, leaf, root;
  if (cp->index != node || cp->rows.n != layers) return false;
  for (unsigned l = 0; l < layers; l++)
    if (!to_fr(&rows[l], cp->rows.v[l])) return false;
  if (cuzk_poseidon_hash(&h, layers, rows) != CUZK_HASH_OK) return false;
  if (!to_fr(&leaf, cp->inclusion_proof.leaf) || !cuzk_fr_eq(&leaf, &h)) return false;
  if (!to_fr(&root, cp->inclusion_proof.root) || !cuzk_fr_eq(&root, comm_c)) return false;
  return poseidon_ok(&cp->inclusion_proof, node, si);
}

cuzk_porep_err cuzk_vanilla_verify(const cuzk_c1 *c1, char *msg, size_t msg_len) {
  report r = {msg, msg_len};
  const cuzk_seal_proof *p;
  if (!c1 || cuzk_seal_proof_by_id(&p, c1->registered_proof)) return fail(&r, "registered proof");
  char eb[512];
  if (cuzk_c1_check_shape(c1, eb, sizeof eb)) return fail(&r, "shape: %s", eb);
  const cuzk_sector_info *si = p->sector;
  unsigned L = si->layers;
  uint8_t porep_id[32];
  cuzk_seal_proof_porep_id(p, porep_id);
  cuzk_sdr_graph g;
  if (cuzk_sdr_graph_init(&g, porep_id, (cuzk_sdr_api)p->api, si->nodes)) return fail(&r, "graph");
  cuzk_fr comm_r;
  if (!to_fr(&comm_r, c1->comm_r)) return fail(&r, "comm_r: not a canonical field element");
  uint64_t xs[CUZK_POREP_MAX_CHALLENGES_PER_PARTITION];
  for (size_t k = 0; k < c1->vanilla_proofs.n; k++) {
    const cuzk_c1_partition *part = &c1->vanilla_proofs.v[k];
    if (cuzk_porep_challenges(xs, p, c1->replica_id, c1->seed, c1->comm_r, (unsigned)k))
      return fail(&r, "partition %zu: challenges", k);
    cuzk_fr comm_c, comm_r_last, cr;
    if (!part->n || !to_fr(&comm_c, part->v[0].replica_column_proofs.c_x.inclusion_proof.root) ||
        !to_fr(&comm_r_last, part->v[0].comm_r_last_proof.root))
      return fail(&r, "partition %zu: no proofs or bad roots", k);
    cuzk_sdr_comm_r(&cr, &comm_c, &comm_r_last);
    if (!cuzk_fr_eq(&cr, &comm_r))
      return fail(&r, "partition %zu: Poseidon(comm_c, comm_r_last) != comm_r", k);
    for (size_t i = 0; i < part->n; i++) {
      const cuzk_c1_challenge_proof *cp = &part->v[i];
      const cuzk_c1_replica_column_proof *rc = &cp->replica_column_proofs;
      uint64_t x = xs[i];
#define BAD(...)                                                                                \
  do {                                                                                          \
    char what_[256];                                                                            \
    snprintf(what_, sizeof what_, __VA_ARGS__);                                                 \
    return fail(&r, "partition %zu challenge %zu (node %llu): %s", k, i, (unsigned long long)x, \
                what_);                                                                         \
  } while (0)
      if (memcmp(cp->comm_d_proofs.root, c1->comm_d, 32) || !tree_d_ok(&cp->comm_d_proofs, x))
        BAD("comm_d_proofs does not open comm_d at the challenge");
      cuzk_fr rl;
      if (!to_fr(&rl, cp->comm_r_last_proof.root) || !cuzk_fr_eq(&rl, &comm_r_last) ||
          !poseidon_ok(&cp->comm_r_last_proof, x, si))
        BAD("comm_r_last_proof does not open comm_r_last at the challenge");
      if (!column_ok(&rc->c_x, x, L, &comm_c, si)) BAD("replica_column_proofs.c_x");
      uint32_t par[CUZK_SDR_DEGREE];
      cuzk_sdr_graph_parents(&g, x, par);
      for (unsigned j = 0; j < CUZK_SDR_BASE_DEGREE; j++)
        if (!column_ok(&rc->drg_parents.v[j], par[j], L, &comm_c, si))
          BAD("replica_column_proofs.drg_parents[%u]", j);
      for (unsigned j = 0; j < CUZK_SDR_EXP_DEGREE; j++)
        if (!column_ok(&rc->exp_parents.v[j], par[CUZK_SDR_BASE_DEGREE + j], L, &comm_c, si))
          BAD("replica_column_proofs.exp_parents[%u]", j);
      uint8_t label[32];
      for (unsigned l = 1; l <= L; l++) {
        const cuzk_c1_labeling_proof *lp = &cp->labeling_proofs.v[l - 1];
        if (lp->node != x || lp->layer_index != l) BAD("labeling_proofs[%u]: node/layer", l - 1);
        /* the parents must be the parent columns' rows, in the order of
         * docs/spec/sdr-vanilla.md §6 */
        unsigned deg = l == 1 ? CUZK_SDR_BASE_DEGREE : CUZK_SDR_DEGREE;
        for (unsigned q = 0; q < 37; q++) {
          unsigned j = q % deg;
          const uint8_t *want = j < CUZK_SDR_BASE_DEGREE
                                    ? rc->drg_parents.v[j].rows.v[l - 1]
                                    : rc->exp_parents.v[j - CUZK_SDR_BASE_DEGREE].rows.v[l - 2];
          if (memcmp(lp->parents.v[q], want, 32)) BAD("labeling_proofs[%u].parents[%u]", l - 1, q);
        }
        /* relabel from the proof's own parents: the parent indices of cuzk_sdr_label index an
         * array we build here */
        uint8_t cur[37 * 32];
        uint32_t idx[CUZK_SDR_DEGREE];
        for (unsigned j = 0; j < CUZK_SDR_DEGREE; j++)
          idx[j] = j;
        for (unsigned j = 0; j < deg; j++)
          memcpy(cur + 32 * j, lp->parents.v[j], 32);
        cuzk_sdr_label(label, c1->replica_id, l, x, idx, cur, cur);
        if (memcmp(label, rc->c_x.rows.v[l - 1], 32)) BAD("labeling_proofs[%u]: label", l - 1);
      }
      const cuzk_c1_labeling_proof *ep = &cp->encoding_proof;
      if (ep->node != x || ep->layer_index != L) BAD("encoding_proof: node/layer");
      for (unsigned q = 0; q < 37; q++)
        if (memcmp(ep->parents.v[q], cp->labeling_proofs.v[L - 1].parents.v[q], 32))
          BAD("encoding_proof.parents[%u]", q);
      uint8_t replica_node[32];
      if (!cuzk_sdr_encode(replica_node, label, cp->comm_d_proofs.leaf, 1) ||
          memcmp(replica_node, cp->comm_r_last_proof.leaf, 32))
        BAD("encoding: key + data != replica node");
#undef BAD
    }
  }
  return CUZK_POREP_OK;
}
