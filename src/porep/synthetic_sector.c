/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The C1 of a synthetic sector of any size (cuzk/porep/c1.h cuzk_c1_new_synthetic_sector,
 * docs/porep.md "Synthetic sectors"): a CC sector (all-zero data) whose labels are real only where
 * a proof looks. Every challenged node's L labels are computed with the real labeling function
 * (cuzk_sdr_label) from its 14 parents' labels, layer by layer; a parent that is not itself
 * challenged gets made-up labels (a hash of replica_id, node and layer). The replica node is key +
 * data as sealing makes it. tree_d, tree_c and tree_r_last are sparse trees
 * (filecoin/sparse_tree.h) whose untouched leaves are zero: tree_d is all zero (comm_d is the CC
 * sector's), tree_c holds the column hashes of the challenged nodes and their parents, tree_r_last
 * the challenged replica nodes. Every relation C2 checks then holds — paths hash to comm_c,
 * comm_r_last and comm_d, comm_r = H(comm_c, comm_r_last), the labels are their parents', the
 * encoding — while almost the whole sector was never computed. Only the interactive proofs: their
 * challenges come from replica_id and seed, not from comm_r, which is only known once the trees are
 * built.
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/hashes/poseidon.h"
#include "cuzk/hashes/sha256.h"
#include "cuzk/porep/c1.h"
#include "cuzk/porep/porep.h"
#include "filecoin/seal.h"
#include "filecoin/sparse_tree.h"
#include "porep/c1.h"

typedef struct {
  uint64_t node;
  bool challenged;
  uint8_t (*labels)[32]; /* L labels, layer 1 first */
} syn_node;

typedef struct {
  const cuzk_seal_proof *p;
  unsigned L;
  uint8_t replica_id[32];
  cuzk_sdr_graph g;
  syn_node *nodes;
  size_t n;
  uint8_t (*labels)[32];
  cuzk_sparse_tree tree_d, tree_c, tree_r;
} syn;

static int by_node(const void *a, const void *b) {
  uint64_t x = ((const syn_node *)a)->node, y = ((const syn_node *)b)->node;
  return x < y ? -1 : x > y;
}

static syn_node *lookup(const syn *s, uint64_t node) {
  syn_node key = {.node = node};
  return bsearch(&key, s->nodes, s->n, sizeof *s->nodes, by_node);
}

static void put_le(uint8_t *p, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; i++, v >>= 8)
    p[i] = (uint8_t)v;
}

/* A made-up label: trunc254(SHA-256(tag ‖ replica_id ‖ node u64 LE ‖ layer u32 LE)). */
static void made_up(uint8_t out[32], const uint8_t replica_id[32], uint64_t node, unsigned l) {
  static const char tag[] = "cuzk synthetic sector label";
  uint8_t buf[sizeof tag - 1 + 32 + 12];
  memcpy(buf, tag, sizeof tag - 1);
  memcpy(buf + sizeof tag - 1, replica_id, 32);
  put_le(buf + sizeof tag - 1 + 32, node, 8);
  put_le(buf + sizeof tag - 1 + 40, l, 4);
  cuzk_sha256_trunc254(out, buf, sizeof buf);
}

/* The 37 labels hashed for (layer l, node x): parents[k % deg], base parents from layer l,
 * expander parents from layer l - 1 (docs/spec/sdr-vanilla.md §6). */
static void label_parents(const syn *s, uint8_t (*out)[32], unsigned l, uint64_t x) {
  uint32_t par[CUZK_SDR_DEGREE];
  cuzk_sdr_graph_parents(&s->g, x, par);
  unsigned deg = l == 1 ? CUZK_SDR_BASE_DEGREE : CUZK_SDR_DEGREE;
  for (unsigned k = 0; k < 37; k++) {
    unsigned i = k % deg, src = i < CUZK_SDR_BASE_DEGREE ? l : l - 1;
    memcpy(out[k], lookup(s, par[i])->labels[src - 1], 32);
  }
}

/* The labels of every node the proofs show: the others made up, the challenged ones computed
 * layer by layer (expander parents, any node, read the layer below) and in each layer in
 * ascending order (base parents come before their node). */
static void label_nodes(syn *s) {
  for (size_t i = 0; i < s->n; i++)
    if (!s->nodes[i].challenged)
      for (unsigned l = 1; l <= s->L; l++)
        made_up(s->nodes[i].labels[l - 1], s->replica_id, s->nodes[i].node, l);
  uint32_t idx[CUZK_SDR_DEGREE];
  for (unsigned j = 0; j < CUZK_SDR_DEGREE; j++)
    idx[j] = j;
  for (unsigned l = 1; l <= s->L; l++)
    for (size_t i = 0; i < s->n; i++) {
      syn_node *v = &s->nodes[i];
      if (!v->challenged) continue;
      uint8_t par[37][32];
      if (v->node) label_parents(s, par, l, v->node);
      /* cuzk_sdr_label reads parents through idx from one array: the first deg of the 37 */
      cuzk_sdr_label(v->labels[l - 1], s->replica_id, l, v->node, idx, &par[0][0], &par[0][0]);
    }
}

/* The challenged nodes of every partition and their parents, sorted, each once. */
static cuzk_porep_err collect(syn *s, const uint8_t seed[32], uint64_t **xs_out) {
  unsigned parts = cuzk_seal_proof_partitions(s->p),
           c = cuzk_seal_proof_challenges_per_partition(s->p);
  uint64_t *xs = malloc((size_t)parts * c * sizeof *xs);
  size_t cap = (size_t)parts * c * (1 + CUZK_SDR_DEGREE);
  s->nodes = malloc(cap * sizeof *s->nodes);
  if (!xs || !s->nodes) {
    free(xs);
    return CUZK_POREP_ENOMEM;
  }
  uint8_t no_comm_r[32] = {0}; /* interactive challenges do not read it */
  for (unsigned k = 0; k < parts; k++) {
    cuzk_porep_err e =
        cuzk_porep_challenges(xs + (size_t)k * c, s->p, s->replica_id, seed, no_comm_r, k);
    if (e) {
      free(xs);
      return e;
    }
  }
  size_t n = 0;
  for (size_t i = 0; i < (size_t)parts * c; i++) {
    uint32_t par[CUZK_SDR_DEGREE];
    cuzk_sdr_graph_parents(&s->g, xs[i], par);
    s->nodes[n++] = (syn_node){.node = xs[i], .challenged = true};
    for (unsigned j = 0; j < CUZK_SDR_DEGREE; j++)
      s->nodes[n++] = (syn_node){.node = par[j]};
  }
  qsort(s->nodes, n, sizeof *s->nodes, by_node);
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    if (m && s->nodes[m - 1].node == s->nodes[i].node) {
      s->nodes[m - 1].challenged |= s->nodes[i].challenged;
      continue;
    }
    s->nodes[m++] = s->nodes[i];
  }
  s->n = m;
  s->labels = malloc(m * s->L * 32);
  if (!s->labels) {
    free(xs);
    return CUZK_POREP_ENOMEM;
  }
  for (size_t i = 0; i < m; i++)
    s->nodes[i].labels = s->labels + i * s->L;
  *xs_out = xs;
  return CUZK_POREP_OK;
}

/* tree_c: the column hashes of every shown node; tree_r_last: key + data (zero) of the
 * challenged ones. */
static bool build_trees(syn *s) {
  const uint8_t zero[1][32] = {{0}};
  const cuzk_sector_info *si = s->p->sector;
  if (!cuzk_sparse_init(&s->tree_d, true, si->nodes, 0, 0, 0, zero, 1) ||
      !cuzk_sparse_init_sector(&s->tree_c, si, zero, 1) ||
      !cuzk_sparse_init_sector(&s->tree_r, si, zero, 1))
    return false;
  for (size_t i = 0; i < s->n; i++) {
    const syn_node *v = &s->nodes[i];
    cuzk_fr rows[CUZK_POSEIDON_MAX_ARITY], h;
    for (unsigned l = 0; l < s->L; l++)
      (void)cuzk_fr_from_bytes(&rows[l], v->labels[l]); /* labels are truncated to 254 bits */
    if (cuzk_poseidon_hash(&h, s->L, rows) != CUZK_HASH_OK) return false;
    uint8_t leaf[32];
    cuzk_fr_to_bytes(leaf, &h);
    if (!cuzk_sparse_set(&s->tree_c, v->node, leaf)) return false;
    if (v->challenged) {
      uint8_t replica[32];
      if (!cuzk_sdr_encode(replica, v->labels[s->L - 1], zero[0], 1) ||
          !cuzk_sparse_set(&s->tree_r, v->node, replica))
        return false;
    }
  }
  return cuzk_sparse_build(&s->tree_d) && cuzk_sparse_build(&s->tree_c) &&
         cuzk_sparse_build(&s->tree_r);
}

/* A Poseidon MerkleProof of leaf x (kind and counts already shaped). */
static void poseidon_proof(cuzk_c1_merkle_proof *mp, const cuzk_sparse_tree *t, uint64_t x) {
  unsigned pos[CUZK_SPARSE_MAX_LEVELS];
  uint8_t sib[CUZK_SPARSE_MAX_LEVELS * 7][32];
  cuzk_sparse_open(t, x, mp->leaf, pos, sib);
  memcpy(mp->root, t->root, 32);
  unsigned L = (unsigned)mp->base.n, at = 0;
  for (unsigned l = 0; l < t->levels; l++) {
    cuzk_c1_path_elem *pe = l < L ? &mp->base.v[l] : l == L ? &mp->sub.v[0] : &mp->top.v[0];
    for (unsigned q = 0; q + 1 < t->arity[l]; q++)
      memcpy(pe->hashes.v[q], sib[at++], 32);
    pe->index = pos[l];
  }
}

static void column_proof(cuzk_c1_column_proof *cp, const syn *s, uint64_t node) {
  const syn_node *v = lookup(s, node);
  cp->index = (uint32_t)node;
  for (unsigned l = 0; l < s->L; l++)
    memcpy(cp->rows.v[l], v->labels[l], 32);
  poseidon_proof(&cp->inclusion_proof, &s->tree_c, node);
}

static void challenge_proof(cuzk_c1_challenge_proof *cp, const syn *s, uint64_t x) {
  cuzk_c1_merkle_proof *d = &cp->comm_d_proofs;
  unsigned pos[CUZK_SPARSE_MAX_LEVELS];
  uint8_t sib[CUZK_SPARSE_MAX_LEVELS][32];
  cuzk_sparse_open(&s->tree_d, x, d->leaf, pos, sib);
  memcpy(d->root, s->tree_d.root, 32);
  for (unsigned l = 0; l < d->base.n; l++) {
    memcpy(d->base.v[l].hashes.v[0], sib[l], 32);
    d->base.v[l].index = pos[l];
  }
  poseidon_proof(&cp->comm_r_last_proof, &s->tree_r, x);
  uint32_t par[CUZK_SDR_DEGREE];
  cuzk_sdr_graph_parents(&s->g, x, par);
  column_proof(&cp->replica_column_proofs.c_x, s, x);
  for (unsigned j = 0; j < CUZK_SDR_BASE_DEGREE; j++)
    column_proof(&cp->replica_column_proofs.drg_parents.v[j], s, par[j]);
  for (unsigned j = 0; j < CUZK_SDR_EXP_DEGREE; j++)
    column_proof(&cp->replica_column_proofs.exp_parents.v[j], s, par[CUZK_SDR_BASE_DEGREE + j]);
  for (unsigned l = 1; l <= s->L; l++) {
    cuzk_c1_labeling_proof *lp = &cp->labeling_proofs.v[l - 1];
    label_parents(s, lp->parents.v, l, x);
    lp->layer_index = l;
    lp->node = x;
  }
  label_parents(s, cp->encoding_proof.parents.v, s->L, x);
  cp->encoding_proof.layer_index = s->L;
  cp->encoding_proof.node = x;
}

static void syn_free(syn *s) {
  free(s->nodes);
  free(s->labels);
  cuzk_sparse_free(&s->tree_d);
  cuzk_sparse_free(&s->tree_c);
  cuzk_sparse_free(&s->tree_r);
}

cuzk_porep_err cuzk_c1_new_synthetic_sector(cuzk_c1 **out, uint32_t registered_proof,
                                            const uint8_t prover_id[32], uint64_t sector_id,
                                            const uint8_t ticket[32], const uint8_t seed[32],
                                            char *msg, size_t len) {
  if (!out) return cuzk_porep_fail(msg, len, CUZK_POREP_EINVAL, "synthetic sector: no output");
  *out = NULL;
  syn s = {0};
  if (!prover_id || !ticket || !seed || cuzk_seal_proof_by_id(&s.p, registered_proof))
    return cuzk_porep_fail(msg, len, CUZK_POREP_EINVAL,
                           "synthetic sector: unknown registered proof %u or a missing argument",
                           registered_proof);
  if (cuzk_seal_proof_challenge_kind(s.p) != CUZK_CHALLENGES_INTERACTIVE)
    return cuzk_porep_fail(msg, len, CUZK_POREP_EINVAL,
                           "synthetic sector: %s draws its challenges from comm_r, which a "
                           "synthetic sector only knows once its challenged nodes are chosen; "
                           "use an interactive proof (V1 or V1_1)",
                           s.p->name);
  const cuzk_sector_info *si = s.p->sector;
  s.L = si->layers;
  uint8_t porep_id[32], comm_d[32];
  cuzk_seal_proof_porep_id(s.p, porep_id);
  if (cuzk_sdr_graph_init(&s.g, porep_id, (cuzk_sdr_api)s.p->api, si->nodes))
    return cuzk_porep_fail(msg, len, CUZK_POREP_EINVAL, "synthetic sector: no graph for %s",
                           s.p->name);
  /* comm_d first: the CC sector's (tree_d all zero), then replica_id, then the challenges */
  if (cuzk_porep_comm_d_zero(comm_d, si->bytes))
    return cuzk_porep_fail(msg, len, CUZK_POREP_EINVAL, "synthetic sector: no comm_d for %s",
                           si->name);
  cuzk_porep_replica_id(s.replica_id, prover_id, sector_id, ticket, comm_d, porep_id);
  uint64_t *xs = NULL;
  cuzk_porep_err e = collect(&s, seed, &xs);
  cuzk_c1 *c1 = NULL;
  if (!e) {
    label_nodes(&s);
    e = build_trees(&s) ? CUZK_POREP_OK : CUZK_POREP_ENOMEM;
  }
  if (!e && memcmp(s.tree_d.root, comm_d, 32)) e = CUZK_POREP_EINVAL; /* not reached */
  if (!e && !(c1 = cuzk_c1_new_shaped(registered_proof))) e = CUZK_POREP_ENOMEM;
  if (!e) {
    cuzk_fr comm_c, comm_r_last, comm_r;
    (void)cuzk_fr_from_bytes(&comm_c, s.tree_c.root);
    (void)cuzk_fr_from_bytes(&comm_r_last, s.tree_r.root);
    cuzk_sdr_comm_r(&comm_r, &comm_c, &comm_r_last);
    cuzk_fr_to_bytes(c1->comm_r, &comm_r);
    memcpy(c1->comm_d, comm_d, 32);
    memcpy(c1->replica_id, s.replica_id, 32);
    memcpy(c1->seed, seed, 32);
    memcpy(c1->ticket, ticket, 32);
    c1->synthetic_sector = 1;
    unsigned c = cuzk_seal_proof_challenges_per_partition(s.p);
    for (size_t k = 0; k < c1->vanilla_proofs.n; k++)
      for (size_t i = 0; i < c1->vanilla_proofs.v[k].n; i++)
        challenge_proof(&c1->vanilla_proofs.v[k].v[i], &s, xs[k * c + i]);
  }
  free(xs);
  syn_free(&s);
  if (e) {
    cuzk_c1_free(c1);
    return cuzk_porep_fail(msg, len, e, "synthetic sector: %s", cuzk_porep_strerror(e));
  }
  *out = c1;
  return CUZK_POREP_OK;
}
