/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* StackedCircuit (docs/spec/porep-circuit.md §4) and its public inputs (§5); see
 * cuzk/porep/stacked_circuit.h. */
#include "cuzk/porep/stacked_circuit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/hashes/poseidon.h"
#include "cuzk/r1cs/gadgets.h"
#include "porep/c1.h"

#define NPARENTS (CUZK_STACKED_DRG_PARENTS + CUZK_STACKED_EXP_PARENTS) /* 14 */
#define TOTAL_PARENTS 37
#define LABEL_BITS (39 * 256) /* 9,984 message bits of create_label */
#define MAX_LEVELS 64
#define MAX_SIBLINGS 7

/* log_base(x) if x is an exact power of base (base >= 2), else -1. */
static int ilog(uint64_t x, unsigned base) {
  int k = 0;
  if (x == 0) return -1;
  while (x > 1) {
    if (x % base) return -1;
    x /= base;
    k++;
  }
  return k;
}

static bool arity_ok(unsigned a, bool zero_ok) {
  return (zero_ok && a == 0) || a == 2 || a == 4 || a == 8;
}

cuzk_porep_err cuzk_stacked_config_init(cuzk_stacked_config *cfg, uint64_t nodes, unsigned layers,
                                        unsigned challenges, unsigned base_arity,
                                        unsigned sub_arity, unsigned top_arity, char *msg,
                                        size_t msg_len) {
  if (!cfg) return cuzk_porep_fail(msg, msg_len, CUZK_POREP_EINVAL, "stacked config: NULL");
  memset(cfg, 0, sizeof *cfg);
  int dl = ilog(nodes, 2);
  if (dl < 1 || dl > 40)
    return cuzk_porep_fail(msg, msg_len, CUZK_POREP_EINVAL,
                           "stacked config: nodes %llu is not a power of two in 2..2^40",
                           (unsigned long long)nodes);
  if (layers < 1 || layers > CUZK_STACKED_MAX_LAYERS || !cuzk_poseidon_arity_supported(layers))
    return cuzk_porep_fail(
        msg, msg_len, CUZK_POREP_EINVAL,
        "stacked config: %u layers (the column hash needs a Poseidon arity: 2, 4, 8, 11)", layers);
  if (challenges < 1 || challenges > 1000)
    return cuzk_porep_fail(msg, msg_len, CUZK_POREP_EINVAL,
                           "stacked config: %u challenges per partition", challenges);
  if (!arity_ok(base_arity, false) || !arity_ok(sub_arity, true) || !arity_ok(top_arity, true) ||
      (top_arity && !sub_arity))
    return cuzk_porep_fail(
        msg, msg_len, CUZK_POREP_EINVAL,
        "stacked config: tree arities %u-%u-%u (base 2/4/8; sub, top 0/2/4/8; top needs "
        "sub)",
        base_arity, sub_arity, top_arity);
  uint64_t div = (uint64_t)(sub_arity ? sub_arity : 1) * (top_arity ? top_arity : 1);
  int bl = nodes % div ? -1 : ilog(nodes / div, base_arity);
  if (bl < 1)
    return cuzk_porep_fail(msg, msg_len, CUZK_POREP_EINVAL,
                           "stacked config: %llu nodes do not make %u-%u-%u trees",
                           (unsigned long long)nodes, base_arity, sub_arity, top_arity);
  cfg->nodes = nodes;
  cfg->layers = layers;
  cfg->challenges = challenges;
  cfg->base_arity = base_arity;
  cfg->sub_arity = sub_arity;
  cfg->top_arity = top_arity;
  cfg->base_levels = (unsigned)bl;
  cfg->comm_d_levels = (unsigned)dl;
  return CUZK_POREP_OK;
}

cuzk_porep_err cuzk_stacked_config_from_proof(cuzk_stacked_config *cfg, uint32_t registered_proof) {
  const cuzk_seal_proof *p;
  if (!cfg) return CUZK_POREP_EINVAL;
  cuzk_porep_err e = cuzk_seal_proof_by_id(&p, registered_proof);
  if (e != CUZK_POREP_OK) return e;
  const cuzk_sector_info *s = p->sector;
  return cuzk_stacked_config_init(cfg, s->nodes, s->layers,
                                  cuzk_seal_proof_challenges_per_partition(p), s->base_arity,
                                  s->sub_arity, s->top_arity, NULL, 0);
}

size_t cuzk_stacked_num_public_inputs(const cuzk_stacked_config *cfg) {
  return 3 + (size_t)(2 + NPARENTS + 2) * cfg->challenges;
}

/* ---- C1 validation --------------------------------------------------------------------------- */
/* The shape (counts, Merkle variants, levels, indices) is c1_check.c's; here what only the circuit
 * needs on top: canonical field elements, the paths' positions, one comm_c and comm_r_last. */

static bool b32_fr_ok(const uint8_t b[32]) {
  cuzk_fr f;
  return cuzk_fr_from_bytes(&f, b);
}

static cuzk_porep_err check_siblings(const cuzk_c1_path *p, const char *what, const char *part,
                                     unsigned ch, char *msg, size_t len) {
  for (size_t l = 0; l < p->n; l++)
    for (size_t j = 0; j < p->v[l].hashes.n; j++)
      if (!b32_fr_ok(p->v[l].hashes.v[j]))
        return cuzk_porep_fail(msg, len, CUZK_POREP_EINVAL,
                               "challenge %u: %s: %s level %zu sibling %zu is not a field element",
                               ch, what, part, l, j);
  return CUZK_POREP_OK;
}

static cuzk_porep_err check_mp_values(const cuzk_c1_merkle_proof *mp, const char *what, unsigned ch,
                                      char *msg, size_t len) {
  cuzk_porep_err e;
  if ((e = check_siblings(&mp->base, what, "base", ch, msg, len))) return e;
  if ((e = check_siblings(&mp->sub, what, "sub", ch, msg, len))) return e;
  return check_siblings(&mp->top, what, "top", ch, msg, len);
}

/* The leaf position a Merkle proof's path indices spell (leaf level first). */
static uint64_t mp_position(const cuzk_c1_merkle_proof *mp, bool sha,
                            const cuzk_stacked_config *c) {
  uint64_t pos = 0, scale = 1;
  const cuzk_c1_path *parts[3] = {&mp->base, &mp->sub, &mp->top};
  unsigned ar[3] = {sha ? 2 : c->base_arity, c->sub_arity, c->top_arity};
  for (int k = 0; k < 3; k++)
    for (size_t l = 0; l < parts[k]->n; l++) {
      pos += parts[k]->v[l].index * scale;
      scale *= ar[k];
    }
  return pos;
}

static cuzk_porep_err check_column(const cuzk_c1_column_proof *col, const cuzk_stacked_config *c,
                                   const char *what, unsigned ch, char *msg, size_t len) {
  for (size_t r = 0; r < col->rows.n; r++)
    if (!b32_fr_ok(col->rows.v[r]))
      return cuzk_porep_fail(msg, len, CUZK_POREP_EINVAL,
                             "challenge %u: %s: row %zu is not a field element", ch, what, r);
  cuzk_porep_err e = check_mp_values(&col->inclusion_proof, what, ch, msg, len);
  if (e) return e;
  uint64_t pos = mp_position(&col->inclusion_proof, false, c);
  if (pos != col->index)
    return cuzk_porep_fail(msg, len, CUZK_POREP_EINVAL,
                           "challenge %u: %s: column index %u but its path is for leaf %llu", ch,
                           what, col->index, (unsigned long long)pos);
  return CUZK_POREP_OK;
}

cuzk_porep_err cuzk_stacked_check_c1(const cuzk_stacked_config *c, const cuzk_c1 *c1,
                                     unsigned partition, char *msg, size_t len) {
  cuzk_porep_err e;
  char what[64];
  if (!c || !c1)
    return cuzk_porep_fail(msg, len, CUZK_POREP_EINVAL, "stacked circuit: NULL config or C1");
  if (partition >= c1->vanilla_proofs.n)
    return cuzk_porep_fail(msg, len, CUZK_POREP_EPARTITION,
                           "partition %u: the C1 has %zu partitions", partition,
                           c1->vanilla_proofs.n);
  char name[96];
  snprintf(name, sizeof name, "the circuit of %llu nodes, %u layers, %u-%u-%u trees",
           (unsigned long long)c->nodes, c->layers, c->base_arity, c->sub_arity, c->top_arity);
  const cuzk_c1_shape shape = {name,          c->challenges,  c->layers,    c->comm_d_levels,
                               c->base_arity, c->base_levels, c->sub_arity, c->top_arity};
  if ((e = cuzk_c1_check_partition(c1, partition, &shape, msg, len))) return e;
  const cuzk_c1_partition *pp = &c1->vanilla_proofs.v[partition];
  if (!b32_fr_ok(c1->replica_id) || !b32_fr_ok(c1->comm_d) || !b32_fr_ok(c1->comm_r))
    return cuzk_porep_fail(msg, len, CUZK_POREP_EINVAL,
                           "replica_id, comm_d or comm_r is not a canonical field element");
  for (unsigned i = 0; i < pp->n; i++) {
    const cuzk_c1_challenge_proof *cp = &pp->v[i];
    const cuzk_c1_replica_column_proof *rc = &cp->replica_column_proofs;
    if ((e = check_mp_values(&cp->comm_d_proofs, "comm_d_proofs", i, msg, len))) return e;
    if (!b32_fr_ok(cp->comm_d_proofs.leaf))
      return cuzk_porep_fail(msg, len, CUZK_POREP_EINVAL,
                             "challenge %u: comm_d_proofs: leaf is not a field element", i);
    if ((e = check_mp_values(&cp->comm_r_last_proof, "comm_r_last_proof", i, msg, len))) return e;
    if ((e = check_mp_values(&rc->c_x.inclusion_proof, "c_x", i, msg, len))) return e;
    for (unsigned p = 0; p < CUZK_STACKED_DRG_PARENTS; p++) {
      snprintf(what, sizeof what, "drg_parents[%u]", p);
      if ((e = check_column(&rc->drg_parents.v[p], c, what, i, msg, len))) return e;
    }
    for (unsigned q = 0; q < CUZK_STACKED_EXP_PARENTS; q++) {
      snprintf(what, sizeof what, "exp_parents[%u]", q);
      if ((e = check_column(&rc->exp_parents.v[q], c, what, i, msg, len))) return e;
    }
    if (cp->labeling_proofs.v[0].node >= c->nodes)
      return cuzk_porep_fail(msg, len, CUZK_POREP_EINVAL, "challenge %u: node %llu >= %llu nodes",
                             i, (unsigned long long)cp->labeling_proofs.v[0].node,
                             (unsigned long long)c->nodes);
    /* the PoR inputs are the paths' positions: they must be the challenged node */
    uint64_t node = cp->labeling_proofs.v[0].node;
    const struct {
      const cuzk_c1_merkle_proof *mp;
      bool sha;
      const char *what;
    } paths[3] = {{&cp->comm_d_proofs, true, "comm_d_proofs"},
                  {&cp->comm_r_last_proof, false, "comm_r_last_proof"},
                  {&rc->c_x.inclusion_proof, false, "c_x"}};
    for (int k = 0; k < 3; k++) {
      uint64_t pos = mp_position(paths[k].mp, paths[k].sha, c);
      if (pos != node)
        return cuzk_porep_fail(
            msg, len, CUZK_POREP_EINVAL,
            "challenge %u: %s: path is for leaf %llu, the challenge (labeling_proofs[0]."
            "node) is %llu",
            i, paths[k].what, (unsigned long long)pos, (unsigned long long)node);
    }
    /* the two private globals come from proof 0; every proof must agree
     * (docs/spec/porep-circuit.md §4.4) */
    if (memcmp(cp->comm_r_last_proof.root, pp->v[0].comm_r_last_proof.root, 32) ||
        memcmp(rc->c_x.inclusion_proof.root,
               pp->v[0].replica_column_proofs.c_x.inclusion_proof.root, 32))
      return cuzk_porep_fail(msg, len, CUZK_POREP_EINVAL,
                             "challenge %u: comm_r_last or comm_c root differs from challenge 0's",
                             i);
  }
  if (!b32_fr_ok(pp->v[0].comm_r_last_proof.root) ||
      !b32_fr_ok(pp->v[0].replica_column_proofs.c_x.inclusion_proof.root))
    return cuzk_porep_fail(msg, len, CUZK_POREP_EINVAL,
                           "comm_r_last or comm_c is not a field element");
  return CUZK_POREP_OK;
}

/* ---- synthesis --------------------------------------------------------------------------------
 */

typedef struct {
  cuzk_cs *cs;
  const cuzk_stacked_config *cfg;
  bool vals;
  const cuzk_poseidon_params *p2, *pl;
  cuzk_bool *msg_bits;    /* LABEL_BITS */
  cuzk_bool *pbits;       /* 14 x 256: this layer's parent bits */
  cuzk_fr *sib;           /* MAX_LEVELS x MAX_SIBLINGS */
  cuzk_por_level *levels; /* MAX_LEVELS */
} synth;

static cuzk_fr fr_of(const uint8_t b[32]) {
  cuzk_fr f;
  if (!cuzk_fr_from_bytes(&f, b)) memset(&f, 0, sizeof f); /* checked beforehand */
  return f;
}

static void add_levels(synth *s, unsigned *at, const cuzk_c1_path *p) {
  for (size_t l = 0; l < p->n; l++, (*at)++) {
    cuzk_fr *sib = &s->sib[(size_t)*at * MAX_SIBLINGS];
    for (size_t j = 0; j < p->v[l].hashes.n; j++)
      sib[j] = fr_of(p->v[l].hashes.v[j]);
    s->levels[*at].index = (unsigned)p->v[l].index;
    s->levels[*at].siblings = sib;
  }
}

static cuzk_r1cs_err por(synth *s, bool sha, const cuzk_num *leaf, const cuzk_num *root,
                         const cuzk_c1_merkle_proof *mp) {
  const cuzk_stacked_config *c = s->cfg;
  cuzk_por_shape sh;
  memset(&sh, 0, sizeof sh);
  if (sha) {
    sh.hash = CUZK_POR_SHA256;
    sh.base_arity = 2;
    sh.base_levels = c->comm_d_levels;
  } else {
    sh.hash = CUZK_POR_POSEIDON;
    sh.base_arity = c->base_arity;
    sh.sub_arity = c->sub_arity;
    sh.top_arity = c->top_arity;
    sh.base_levels = c->base_levels;
  }
  sh.public_root = false;
  if (!s->vals) return cuzk_gadget_por(s->cs, &sh, leaf, root, NULL);
  unsigned at = 0;
  add_levels(s, &at, &mp->base);
  add_levels(s, &at, &mp->sub);
  add_levels(s, &at, &mp->top);
  return cuzk_gadget_por(s->cs, &sh, leaf, root, s->levels);
}

/* create_label_circuit (docs/spec/porep-circuit.md §4.3) over the np (6 or 14) parents' bits in
 * s->pbits. */
static cuzk_r1cs_err create_label(synth *s, cuzk_num *label, const cuzk_bool rid_bits[256],
                                  unsigned np, unsigned layer, const cuzk_bool challenge[64]) {
  cuzk_bool *m = s->msg_bits;
  memcpy(m, rid_bits, 256 * sizeof *m);
  cuzk_u32 lw;
  cuzk_u32_const(&lw, layer);
  cuzk_u32_into_bits_be(m + 256, &lw);
  for (unsigned i = 0; i < 64; i++)
    m[288 + i] = challenge[63 - i]; /* node.to_bits_be() */
  for (unsigned i = 352; i < 512; i++)
    m[i] = cuzk_bool_const(false);
  for (unsigned k = 0; k < TOTAL_PARENTS; k++)
    memcpy(m + 512 + (size_t)k * 256, s->pbits + (size_t)(k % np) * 256, 256 * sizeof *m);
  cuzk_bool digest[256];
  cuzk_r1cs_err e = cuzk_gadget_sha256(s->cs, digest, m, LABEL_BITS);
  if (e != CUZK_R1CS_OK) return e;
  *label = cuzk_sha256_digest_to_num(s->cs, digest);
  return CUZK_R1CS_OK;
}

static cuzk_r1cs_err synth_challenge(synth *s, const cuzk_c1_challenge_proof *cp,
                                     const cuzk_bool rid_bits[256], const cuzk_num *comm_d,
                                     const cuzk_num *comm_r_last, const cuzk_num *comm_c) {
  cuzk_cs *cs = s->cs;
  const unsigned L = s->cfg->layers;
  const cuzk_c1_replica_column_proof *rc = cp ? &cp->replica_column_proofs : NULL;
  cuzk_r1cs_err e;
  cuzk_num data_leaf = cuzk_num_alloc_bytes(s->cs, cp ? cp->comm_d_proofs.leaf : NULL);
  if ((e = por(s, true, &data_leaf, comm_d, cp ? &cp->comm_d_proofs : NULL))) return e;

  cuzk_num col[NPARENTS][CUZK_STACKED_MAX_LAYERS];
  for (unsigned p = 0; p < NPARENTS; p++) {
    const cuzk_c1_column_proof *cpp = !rc ? NULL
                                      : p < CUZK_STACKED_DRG_PARENTS
                                          ? &rc->drg_parents.v[p]
                                          : &rc->exp_parents.v[p - CUZK_STACKED_DRG_PARENTS];
    for (unsigned r = 0; r < L; r++)
      col[p][r] = cuzk_num_alloc_bytes(s->cs, cpp ? cpp->rows.v[r] : NULL);
    cuzk_num hc = cuzk_gadget_poseidon(cs, s->pl, col[p]);
    if ((e = por(s, false, &hc, comm_c, cpp ? &cpp->inclusion_proof : NULL))) return e;
  }

  cuzk_bool challenge[64];
  cuzk_u64_alloc(cs, challenge, cp ? cp->labeling_proofs.v[0].node : 0);
  cuzk_u64_pack_into_input(cs, challenge);

  cuzk_num label[CUZK_STACKED_MAX_LAYERS];
  for (unsigned layer = 1; layer <= L; layer++) {
    unsigned np = CUZK_STACKED_DRG_PARENTS;
    for (unsigned p = 0; p < CUZK_STACKED_DRG_PARENTS; p++)
      cuzk_num_to_sha256_bits(cs, s->pbits + (size_t)p * 256, &col[p][layer - 1]);
    if (layer > 1) {
      for (unsigned q = 0; q < CUZK_STACKED_EXP_PARENTS; q++)
        cuzk_num_to_sha256_bits(cs, s->pbits + (size_t)(CUZK_STACKED_DRG_PARENTS + q) * 256,
                                &col[CUZK_STACKED_DRG_PARENTS + q][layer - 2]);
      np = NPARENTS;
    }
    if ((e = create_label(s, &label[layer - 1], rid_bits, np, layer, challenge))) return e;
  }

  cuzk_num encoded = cuzk_gadget_add(cs, &label[L - 1], &data_leaf);
  if ((e = por(s, false, &encoded, comm_r_last, cp ? &cp->comm_r_last_proof : NULL))) return e;
  cuzk_num cx = cuzk_gadget_poseidon(cs, s->pl, label);
  return por(s, false, &cx, comm_c, rc ? &rc->c_x.inclusion_proof : NULL);
}

typedef struct {
  const synth *s; /* the circuit's settings; each segment has its own scratch */
  const cuzk_c1_partition *pp;
  const cuzk_bool *rid_bits;
  const cuzk_num *comm_d, *comm_r_last, *comm_c;
} challenges_ctx;

/* Challenge i of the partition on cs (the partition's system, or a segment's view of it). */
static cuzk_r1cs_err challenge_segment(cuzk_cs *cs, unsigned i, void *arg) {
  const challenges_ctx *c = arg;
  synth s = *c->s;
  s.cs = cs;
  s.msg_bits = malloc(LABEL_BITS * sizeof *s.msg_bits);
  s.pbits = malloc((size_t)NPARENTS * 256 * sizeof *s.pbits);
  s.sib = malloc((size_t)MAX_LEVELS * MAX_SIBLINGS * sizeof *s.sib);
  s.levels = malloc(MAX_LEVELS * sizeof *s.levels);
  cuzk_r1cs_err e = CUZK_R1CS_ENOMEM;
  if (s.msg_bits && s.pbits && s.sib && s.levels)
    e = synth_challenge(&s, c->pp ? &c->pp->v[i] : NULL, c->rid_bits, c->comm_d, c->comm_r_last,
                        c->comm_c);
  free(s.msg_bits);
  free(s.pbits);
  free(s.sib);
  free(s.levels);
  return e;
}

cuzk_porep_err cuzk_stacked_synthesize(cuzk_cs *cs, const cuzk_stacked_config *cfg,
                                       const cuzk_c1 *c1, unsigned partition, char *msg,
                                       size_t len) {
  if (!cs || !cfg)
    return cuzk_porep_fail(msg, len, CUZK_POREP_EINVAL, "stacked circuit: NULL argument");
  if (cfg->layers < 1 || cfg->layers > CUZK_STACKED_MAX_LAYERS || cfg->challenges < 1 ||
      cfg->base_levels + 2 > MAX_LEVELS || cfg->comm_d_levels > MAX_LEVELS)
    return cuzk_porep_fail(msg, len, CUZK_POREP_EINVAL,
                           "stacked circuit: bad config (use config_init)");
  synth s;
  memset(&s, 0, sizeof s);
  s.cs = cs;
  s.cfg = cfg;
  s.vals = cuzk_cs_has_values(cs);
  if (s.vals && !c1)
    return cuzk_porep_fail(msg, len, CUZK_POREP_EINVAL,
                           "stacked circuit: the %s constraint system needs a C1 for its witness",
                           cuzk_cs_mode_name(cuzk_cs_mode_of(cs)));
  cuzk_porep_err pe;
  if (c1 && (pe = cuzk_stacked_check_c1(cfg, c1, partition, msg, len))) return pe;
  if (cuzk_poseidon_params_get(&s.p2, 2) != CUZK_HASH_OK ||
      cuzk_poseidon_params_get(&s.pl, cfg->layers) != CUZK_HASH_OK)
    return cuzk_porep_fail(msg, len, CUZK_POREP_EINVAL, "stacked circuit: no Poseidon arity %u",
                           cfg->layers);
  const cuzk_c1_partition *pp = c1 && s.vals ? &c1->vanilla_proofs.v[partition] : NULL;

  /* docs/spec/porep-circuit.md §4.1 */
  cuzk_num rid = cuzk_num_alloc_bytes(s.cs, pp ? c1->replica_id : NULL);
  cuzk_num_inputize(cs, &rid);
  cuzk_bool rid_bits[256];
  cuzk_num_to_sha256_bits(cs, rid_bits, &rid);
  cuzk_num comm_d = cuzk_num_alloc_bytes(s.cs, pp ? c1->comm_d : NULL);
  cuzk_num_inputize(cs, &comm_d);
  cuzk_num comm_r = cuzk_num_alloc_bytes(s.cs, pp ? c1->comm_r : NULL);
  cuzk_num_inputize(cs, &comm_r);
  cuzk_num comm_r_last = cuzk_num_alloc_bytes(s.cs, pp ? pp->v[0].comm_r_last_proof.root : NULL);
  cuzk_num comm_c = cuzk_num_alloc_bytes(
      s.cs, pp ? pp->v[0].replica_column_proofs.c_x.inclusion_proof.root : NULL);
  cuzk_num pre[2] = {comm_c, comm_r_last};
  cuzk_num h = cuzk_gadget_poseidon(cs, s.p2, pre);
  cuzk_gadget_equal(cs, &comm_r, &h);

  /* docs/spec/porep-circuit.md §4.2; the challenges are segments (docs/r1cs.md "Parallel
   * witness"): each reads only what was allocated above */
  challenges_ctx cc = {&s, pp, rid_bits, &comm_d, &comm_r_last, &comm_c};
  unsigned failed = 0;
  cuzk_r1cs_err e = cuzk_cs_segments(cs, cfg->challenges, challenge_segment, &cc, &failed);
  if (e != CUZK_R1CS_OK) {
    pe = cuzk_porep_fail(msg, len, e == CUZK_R1CS_ENOMEM ? CUZK_POREP_ENOMEM : CUZK_POREP_EINVAL,
                         "stacked circuit: challenge %u: %s", failed, cuzk_r1cs_strerror(e));
    goto out;
  }
  pe = CUZK_POREP_OK;
  if (cuzk_cs_error(cs) != CUZK_R1CS_OK)
    pe = cuzk_porep_fail(msg, len, CUZK_POREP_EINVAL, "stacked circuit: %s",
                         cuzk_r1cs_strerror(cuzk_cs_error(cs)));
out:
  return pe;
}

/* ---- public inputs (docs/spec/porep-circuit.md §5) ------------------------------------------- */

cuzk_porep_err cuzk_stacked_public_inputs_c1(cuzk_fr *out, const cuzk_stacked_config *cfg,
                                             const cuzk_c1 *c1, unsigned partition, char *msg,
                                             size_t msg_len) {
  cuzk_porep_err e = cuzk_stacked_check_c1(cfg, c1, partition, msg, msg_len);
  if (e) return e;
  const cuzk_c1_partition *pp = &c1->vanilla_proofs.v[partition];
  uint64_t *ch = malloc(cfg->challenges * sizeof *ch);
  uint32_t *par = malloc((size_t)cfg->challenges * NPARENTS * sizeof *par);
  if (!ch || !par) {
    free(ch);
    free(par);
    return cuzk_porep_fail(msg, msg_len, CUZK_POREP_ENOMEM, "stacked public inputs: out of memory");
  }
  for (unsigned i = 0; i < cfg->challenges; i++) {
    const cuzk_c1_replica_column_proof *rc = &pp->v[i].replica_column_proofs;
    ch[i] = pp->v[i].labeling_proofs.v[0].node;
    for (unsigned p = 0; p < CUZK_STACKED_DRG_PARENTS; p++)
      par[(size_t)i * NPARENTS + p] = rc->drg_parents.v[p].index;
    for (unsigned q = 0; q < CUZK_STACKED_EXP_PARENTS; q++)
      par[(size_t)i * NPARENTS + CUZK_STACKED_DRG_PARENTS + q] = rc->exp_parents.v[q].index;
  }
  e = cuzk_stacked_public_inputs(out, cfg, c1->replica_id, c1->comm_d, c1->comm_r, ch, par);
  free(ch);
  free(par);
  return e;
}

cuzk_porep_err cuzk_stacked_public_inputs(cuzk_fr *out, const cuzk_stacked_config *cfg,
                                          const uint8_t replica_id[32], const uint8_t comm_d[32],
                                          const uint8_t comm_r[32], const uint64_t *challenges,
                                          const uint32_t *parents) {
  if (!out || !cfg || !replica_id || !comm_d || !comm_r || !challenges || !parents)
    return CUZK_POREP_EINVAL;
  if (!cuzk_fr_from_bytes(&out[0], replica_id) || !cuzk_fr_from_bytes(&out[1], comm_d) ||
      !cuzk_fr_from_bytes(&out[2], comm_r))
    return CUZK_POREP_EINVAL;
  size_t k = 3;
  for (unsigned i = 0; i < cfg->challenges; i++) {
    uint64_t c = challenges[i];
    cuzk_fr_from_u64(&out[k++], c); /* comm_d path */
    for (unsigned p = 0; p < NPARENTS; p++)
      cuzk_fr_from_u64(&out[k++], parents[(size_t)i * NPARENTS + p]); /* column paths */
    cuzk_fr_from_u64(&out[k++], c);                                   /* UInt64 challenge */
    cuzk_fr_from_u64(&out[k++], c);                                   /* comm_r_last path */
    cuzk_fr_from_u64(&out[k++], c);                                   /* c_x path */
  }
  return CUZK_POREP_OK;
}
