/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The one owner of a C1's shape rules (docs/spec/sdr-vanilla.md §9.2): how many challenge proofs a
 * partition holds and, in each, the Merkle variants, path levels, siblings and indices of comm_d,
 * comm_r_last and the 15 column proofs, the rows of every column and the labeling and encoding
 * proofs. The reader checks a whole C1 against its registered proof (cuzk_c1_check_shape); the
 * StackedCircuit checks the partition it synthesizes against its configuration
 * (cuzk_stacked_check_c1, which adds the rules only the circuit needs: canonical values, the
 * paths' positions, one comm_c and comm_r_last per partition). Every message starts with the
 * JSON path of the offending value.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "porep/c1.h"

typedef struct {
  const cuzk_c1_shape *sh;
  char *msg;
  size_t msg_len;
  char path[256];
} shape_ctx;

static cuzk_porep_err shape_fail(shape_ctx *s, const char *suffix, const char *fmt, size_t want,
                                 size_t got) {
  char what[160];
  snprintf(what, sizeof what, fmt, want, got);
  return cuzk_porep_fail(s->msg, s->msg_len, CUZK_POREP_EINVAL, "%s%s: %s (%s)", s->path, suffix,
                         what, s->sh->name);
}

static cuzk_porep_err check_path(shape_ctx *s, const char *name, const cuzk_c1_path *p,
                                 size_t levels, size_t arity) {
  char suffix[64];
  snprintf(suffix, sizeof suffix, ".%s.path", name);
  if (p->n != levels)
    return shape_fail(s, suffix, "expected %zu path elements, got %zu", levels, p->n);
  for (size_t i = 0; i < levels; i++) {
    snprintf(suffix, sizeof suffix, ".%s.path[%zu]", name, i);
    if (p->v[i].hashes.n != arity - 1)
      return shape_fail(s, suffix, "expected %zu hashes, got %zu", arity - 1, p->v[i].hashes.n);
    if (p->v[i].index >= arity)
      return shape_fail(s, suffix, "expected index < %zu, got %zu", arity, (size_t)p->v[i].index);
  }
  return CUZK_POREP_OK;
}

static const char *const MP_NAMES[3] = {"Single", "Sub", "Top"};

/* s->path ends at the MerkleProof; `d` selects the tree_d shape (a binary Single tree), else
 * tree_c / tree_r_last: Single, Sub or Top by the sub and top arities. A level a variant does not
 * have must be empty. */
static cuzk_porep_err check_mp(shape_ctx *s, const cuzk_c1_merkle_proof *m, int d) {
  const cuzk_c1_shape *sh = s->sh;
  uint32_t want = d               ? CUZK_C1_MP_SINGLE
                  : sh->top_arity ? CUZK_C1_MP_TOP
                  : sh->sub_arity ? CUZK_C1_MP_SUB
                                  : CUZK_C1_MP_SINGLE;
  if (m->kind != want)
    return cuzk_porep_fail(s->msg, s->msg_len, CUZK_POREP_EINVAL,
                           "%s.data: expected variant %s, got %s (%s)", s->path, MP_NAMES[want],
                           m->kind < 3 ? MP_NAMES[m->kind] : "?", sh->name);
  size_t len = strlen(s->path);
  snprintf(s->path + len, sizeof s->path - len, ".data.%s", MP_NAMES[want]);
  bool sub = want != CUZK_C1_MP_SINGLE, top = want == CUZK_C1_MP_TOP;
  cuzk_porep_err e;
  if (d)
    e = check_path(s, "path", &m->base, sh->tree_d_levels, 2);
  else
    e = check_path(s, sub ? "base_proof" : "path", &m->base, sh->base_levels, sh->base_arity);
  if (!e) e = check_path(s, "sub_proof", &m->sub, sub ? 1 : 0, sh->sub_arity);
  if (!e) e = check_path(s, "top_proof", &m->top, top ? 1 : 0, sh->top_arity);
  s->path[len] = 0;
  return e;
}

static cuzk_porep_err check_column(shape_ctx *s, const cuzk_c1_column_proof *c) {
  if (c->rows.n != s->sh->layers)
    return shape_fail(s, ".column.rows", "expected %zu rows, got %zu", s->sh->layers, c->rows.n);
  size_t len = strlen(s->path);
  snprintf(s->path + len, sizeof s->path - len, ".inclusion_proof");
  cuzk_porep_err e = check_mp(s, &c->inclusion_proof, 0);
  s->path[len] = 0;
  return e;
}

static cuzk_porep_err check_labeling(shape_ctx *s, const cuzk_c1_labeling_proof *l,
                                     uint32_t layer) {
  if (l->parents.n != 37)
    return shape_fail(s, ".parents", "expected %zu parents, got %zu", 37, l->parents.n);
  if (l->layer_index != layer)
    return shape_fail(s, ".layer_index", "expected %zu, got %zu", layer, l->layer_index);
  return CUZK_POREP_OK;
}

static cuzk_porep_err check_proof(shape_ctx *s, const cuzk_c1_challenge_proof *p) {
  size_t len = strlen(s->path);
  cuzk_porep_err e = CUZK_POREP_OK;
#define SUB(...) snprintf(s->path + len, sizeof s->path - len, __VA_ARGS__)
  SUB(".comm_d_proofs");
  if ((e = check_mp(s, &p->comm_d_proofs, 1))) goto out;
  SUB(".comm_r_last_proof");
  if ((e = check_mp(s, &p->comm_r_last_proof, 0))) goto out;
  const cuzk_c1_replica_column_proof *r = &p->replica_column_proofs;
  SUB(".replica_column_proofs.c_x");
  if ((e = check_column(s, &r->c_x))) goto out;
  SUB(".replica_column_proofs");
  if (r->drg_parents.n != 6) {
    e = shape_fail(s, ".drg_parents", "expected %zu column proofs, got %zu", 6, r->drg_parents.n);
    goto out;
  }
  if (r->exp_parents.n != 8) {
    e = shape_fail(s, ".exp_parents", "expected %zu column proofs, got %zu", 8, r->exp_parents.n);
    goto out;
  }
  for (size_t i = 0; i < 6; i++) {
    SUB(".replica_column_proofs.drg_parents[%zu]", i);
    if ((e = check_column(s, &r->drg_parents.v[i]))) goto out;
  }
  for (size_t i = 0; i < 8; i++) {
    SUB(".replica_column_proofs.exp_parents[%zu]", i);
    if ((e = check_column(s, &r->exp_parents.v[i]))) goto out;
  }
  s->path[len] = 0;
  if (p->labeling_proofs.n != s->sh->layers) {
    e = shape_fail(s, ".labeling_proofs", "expected %zu labeling proofs, got %zu", s->sh->layers,
                   p->labeling_proofs.n);
    goto out;
  }
  for (uint32_t l = 0; l < s->sh->layers; l++) {
    SUB(".labeling_proofs[%u]", l);
    if ((e = check_labeling(s, &p->labeling_proofs.v[l], l + 1))) goto out;
  }
  SUB(".encoding_proof");
  e = check_labeling(s, &p->encoding_proof, s->sh->layers);
#undef SUB
out:
  s->path[len] = 0;
  return e;
}

/* s->path: "vanilla_proofs.<variant>"; appends "[k]" for the partition's messages. */
static cuzk_porep_err check_partition(shape_ctx *s, const cuzk_c1_partition *part, size_t k) {
  size_t len = strlen(s->path);
  snprintf(s->path + len, sizeof s->path - len, "[%zu]", k);
  cuzk_porep_err e = CUZK_POREP_OK;
  if (part->n != s->sh->challenges)
    e = shape_fail(s, "", "expected %zu challenge proofs, got %zu", s->sh->challenges, part->n);
  size_t len2 = strlen(s->path);
  for (size_t i = 0; !e && i < part->n; i++) {
    snprintf(s->path + len2, sizeof s->path - len2, "[%zu]", i);
    e = check_proof(s, &part->v[i]);
  }
  s->path[len] = 0;
  return e;
}

cuzk_porep_err cuzk_c1_check_partition(const cuzk_c1 *c1, size_t k, const cuzk_c1_shape *shape,
                                       char *msg, size_t msg_len) {
  if (!c1 || !shape || k >= c1->vanilla_proofs.n)
    return cuzk_porep_fail(msg, msg_len, CUZK_POREP_EINVAL, "C1 partition check: no partition %zu",
                           k);
  const char *variant = cuzk_c1_variant_name(c1->vanilla_variant);
  shape_ctx s = {.sh = shape, .msg = msg, .msg_len = msg_len};
  snprintf(s.path, sizeof s.path, "vanilla_proofs.%s", variant ? variant : "?");
  return check_partition(&s, &c1->vanilla_proofs.v[k], k);
}

cuzk_porep_err cuzk_c1_check_shape(const cuzk_c1 *c1, char *msg, size_t msg_len) {
  if (!c1) return cuzk_porep_fail(msg, msg_len, CUZK_POREP_EINVAL, "NULL C1");
  const cuzk_c1_proof_info *pi = cuzk_c1_proof_info_get(c1->registered_proof);
  if (!pi)
    return cuzk_porep_fail(msg, msg_len, CUZK_POREP_EINVAL, "registered_proof: unknown id %u",
                           c1->registered_proof);
  uint32_t want = cuzk_c1_variant_of_proof(c1->registered_proof);
  if (c1->vanilla_variant != want) {
    const char *got = cuzk_c1_variant_name(c1->vanilla_variant);
    return cuzk_porep_fail(msg, msg_len, CUZK_POREP_EINVAL,
                           "vanilla_proofs: variant %s does not match registered_proof %s "
                           "(expected %s)",
                           got ? got : "?", pi->name, cuzk_c1_variant_name(want));
  }
  /* every registered proof's tree_c and tree_r_last are oct trees */
  cuzk_c1_shape sh = {pi->name, pi->challenges,  pi->layers,    pi->tree_d_depth,
                      8,        pi->base_levels, pi->sub_arity, pi->top_arity};
  shape_ctx s = {.sh = &sh, .msg = msg, .msg_len = msg_len};
  snprintf(s.path, sizeof s.path, "vanilla_proofs.%s", cuzk_c1_variant_name(want));
  if (c1->vanilla_proofs.n != pi->partitions)
    return shape_fail(&s, "", "expected %zu partitions, got %zu", pi->partitions,
                      c1->vanilla_proofs.n);
  for (size_t k = 0; k < c1->vanilla_proofs.n; k++) {
    cuzk_porep_err e = check_partition(&s, &c1->vanilla_proofs.v[k], k);
    if (e) return e;
  }
  return CUZK_POREP_OK;
}
