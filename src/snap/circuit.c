/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * EmptySectorUpdateCircuit (docs/spec/snap-circuit.md §7): the public inputs and their bits,
 * phi, the private globals and both comm_r checks, the apex tree up to comm_d_new, the challenge
 * bits from Poseidon digests of comm_r_new, then per challenge rho, the encoding of the leaf and
 * three inclusion proofs (TreeR old and new to their roots, TreeD to its apex leaf). The
 * allocation and constraint order is the reference's: the parameters depend on it.
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/r1cs/gadgets.h"
#include "snap/snap_internal.h"

#define KH_BITS_MAX (4 + CUZK_SNAP_HS) /* pbl <= 4, then the six h_select bits */
#define R_SIBLINGS (12 * CUZK_MERKLE_MAX_SIBLINGS)

typedef struct {
  cuzk_cs *cs;
  const cuzk_snap_proof *p;
  const cuzk_snap_partition_proof *pp; /* NULL: the blank circuit */
  unsigned k;
  const cuzk_poseidon_params *p2;
  cuzk_fr tag_gen;
  cuzk_por_shape shape_r, shape_d;
  unsigned r_siblings;
  cuzk_bool khbits[KH_BITS_MAX];
  cuzk_bool *gen; /* challenges x rb random bits */
  cuzk_num part, phi, comm_c, root_r_old, root_r_new;
  cuzk_num apex[CUZK_SNAP_MAX_APEX];
  unsigned failed; /* the challenge whose segment failed, + 1; 0: none */
} synth;

static cuzk_num alloc_u64(synth *s, uint64_t v) {
  cuzk_fr f;
  cuzk_fr_from_u64(&f, v);
  return cuzk_num_alloc(s->cs, s->pp ? &f : NULL);
}

static cuzk_num hash_gen(synth *s, const cuzk_num *a, const cuzk_num *b) {
  cuzk_num in[2] = {*a, *b};
  return cuzk_gadget_poseidon_tagged(s->cs, s->p2, &s->tag_gen, in);
}

static cuzk_num hash_mt(synth *s, const cuzk_num *a, const cuzk_num *b) {
  cuzk_num in[2] = {*a, *b};
  return cuzk_gadget_poseidon(s->cs, s->p2, in);
}

static cuzk_num sha2(synth *s, const cuzk_num *a, const cuzk_num *b) {
  cuzk_num in[2] = {*a, *b};
  return cuzk_gadget_sha256_leaves(s->cs, in, 2);
}

/* n allocated bits of x's value, LSB first, then (Σ 2^i b_i ; ONE ; x): the decomposition shape
 * of this circuit (PoRep's to_bits_le puts everything in C instead). */
static void decompose(synth *s, cuzk_bool *bits, unsigned n, const cuzk_num *x) {
  uint64_t w[4] = {0};
  if (s->pp) cuzk_fr_to_canonical(w, &x->value);
  for (unsigned i = 0; i < n; i++)
    bits[i] = cuzk_bit_alloc(s->cs, (w[i / 64] >> (i % 64)) & 1);
  cuzk_lc a, b, c;
  cuzk_lc_init3(&a, &b, &c, s->cs);
  if (cuzk_lc_active(&a)) {
    for (unsigned i = 0; i < n; i++)
      cuzk_lc_add_bool_pow2(&a, bits[i], i);
    cuzk_lc_add(&b, CUZK_VAR_ONE, NULL);
    cuzk_lc_add(&c, x->var, NULL);
  }
  cuzk_cs_enforce(s->cs, "binary decomposition", &a, &b, &c);
}

/* ---- §7.1: inputs, phi, globals, comm_r checks ---------------------------------------------- */
static void globals(synth *s, cuzk_num *comm_r_old, cuzk_num *comm_d_new, cuzk_num *comm_r_new,
                    const cuzk_snap_request *rq) {
  const cuzk_snap_proof *p = s->p;
  cuzk_cs *cs = s->cs;
  cuzk_num kh = alloc_u64(s, (uint64_t)s->k | (uint64_t)p->h_select << p->pbl);
  cuzk_num_inputize(cs, &kh);
  decompose(s, s->khbits, p->pbl + CUZK_SNAP_HS, &kh);
  s->part = cuzk_multipack_pack_bits(cs, s->khbits, p->pbl);
  *comm_r_old = cuzk_num_alloc_bytes(s->cs, rq ? rq->comm_r_old : NULL);
  cuzk_num_inputize(cs, comm_r_old);
  *comm_d_new = cuzk_num_alloc_bytes(s->cs, rq ? rq->comm_d_new : NULL);
  cuzk_num_inputize(cs, comm_d_new);
  *comm_r_new = cuzk_num_alloc_bytes(s->cs, rq ? rq->comm_r_new : NULL);
  cuzk_num_inputize(cs, comm_r_new);
  s->phi = hash_gen(s, comm_d_new, comm_r_old);
  const cuzk_snap_partition_proof *pp = s->pp;
  s->comm_c = cuzk_num_alloc_bytes(s->cs, pp ? pp->comm_c : NULL);
  s->root_r_old = cuzk_num_alloc_bytes(s->cs, pp ? pp->proofs[0].r_old.root : NULL);
  s->root_r_new = cuzk_num_alloc_bytes(s->cs, pp ? pp->proofs[0].r_new.root : NULL);
  for (unsigned a = 0; a < p->apex_leaves; a++)
    s->apex[a] = cuzk_num_alloc_bytes(s->cs, pp ? pp->apex[a] : NULL);
}

/* ---- §7.3: the apex tree, then the partition path to comm_d_new ----------------------------- */
static cuzk_r1cs_err apex_por(synth *s, const cuzk_num *ppath, const cuzk_num *comm_d_new) {
  const cuzk_snap_proof *p = s->p;
  cuzk_num row[CUZK_SNAP_MAX_APEX];
  memcpy(row, s->apex, p->apex_leaves * sizeof *row);
  for (unsigned w = p->apex_leaves; w > 1; w /= 2)
    for (unsigned i = 0; i < w / 2; i++)
      row[i] = sha2(s, &row[2 * i], &row[2 * i + 1]);
  cuzk_por_shape top = s->shape_d;
  top.base_levels = p->pbl;
  return cuzk_gadget_por_bits(s->cs, &top, &row[0], comm_d_new, s->khbits, p->pbl, ppath);
}

/* ---- §7.4: the challenges' random bits ------------------------------------------------------ */
static void gen_challenge_bits(synth *s, const cuzk_num *comm_r_new) {
  const cuzk_snap_proof *p = s->p;
  cuzk_cs *cs = s->cs;
  unsigned taken = 0;
  for (unsigned j = 0; j < p->digests; j++) {
    cuzk_num di = alloc_u64(s, (uint64_t)s->k * p->digests + j);
    cuzk_lc a, b, c;
    cuzk_lc_init3(&a, &b, &c, cs);
    if (cuzk_lc_active(&a)) {
      cuzk_fr d, jf;
      cuzk_fr_from_u64(&d, p->digests);
      cuzk_fr_from_u64(&jf, j);
      cuzk_lc_add(&a, s->part.var, &d);
      if (j) cuzk_lc_add_const(&a, &jf); /* j = 0: a zero coefficient, no term */
      cuzk_lc_add(&b, CUZK_VAR_ONE, NULL);
      cuzk_lc_add(&c, di.var, NULL);
    }
    cuzk_cs_enforce(cs, "digest index", &a, &b, &c);
    cuzk_num dg = hash_gen(s, comm_r_new, &di);
    cuzk_bool bits[255];
    decompose(s, bits, 255, &dg);
    unsigned take = j + 1 == p->digests ? p->challenges - taken : p->cpd;
    for (unsigned i = 0; i < take; i++, taken++)
      memcpy(&s->gen[(size_t)taken * p->rb], &bits[i * p->rb], p->rb * sizeof *bits);
  }
}

/* ---- §7.6: rho's index, c >> (cbl - h), for whichever h the h_select bits name --------------- */
static cuzk_num high_bits(synth *s, const cuzk_bool *cbits) {
  const cuzk_snap_proof *p = s->p;
  cuzk_cs *cs = s->cs;
  const cuzk_bool *hsel = &s->khbits[p->pbl];
  cuzk_num hz[CUZK_SNAP_HS];
  cuzk_fr sum = cuzk_fr_zero;
  for (unsigned t = 0; t < CUZK_SNAP_HS; t++) {
    cuzk_num hv = cuzk_multipack_pack_bits(cs, &cbits[p->cbl - p->hs[t]], p->hs[t]);
    hz[t] = cuzk_num_alloc(cs, s->pp ? (hsel[t].value ? &hv.value : &cuzk_fr_zero) : NULL);
    if (s->pp) cuzk_fr_add(&sum, &sum, &hz[t].value);
    cuzk_lc a, b, c;
    cuzk_lc_init3(&a, &b, &c, cs);
    if (cuzk_lc_active(&a)) {
      cuzk_lc_add(&a, hv.var, NULL);
      cuzk_lc_add(&b, hsel[t].var, NULL);
      cuzk_lc_add(&c, hz[t].var, NULL);
    }
    cuzk_cs_enforce(cs, "high bits", &a, &b, &c);
  }
  cuzk_num sel = cuzk_num_alloc(cs, s->pp ? &sum : NULL);
  cuzk_lc a, b, c;
  cuzk_lc_init3(&a, &b, &c, cs);
  if (cuzk_lc_active(&a)) {
    for (unsigned t = 0; t < CUZK_SNAP_HS; t++)
      cuzk_lc_add(&a, hz[t].var, NULL);
    cuzk_lc_add(&b, CUZK_VAR_ONE, NULL);
    cuzk_lc_add(&c, sel.var, NULL);
  }
  cuzk_cs_enforce(cs, "selected high bits", &a, &b, &c);
  return sel;
}

/* ---- §7.2: one challenge -------------------------------------------------------------------- */
static cuzk_r1cs_err tree_r(synth *s, const cuzk_snap_path_r *path, const cuzk_bool *cbits,
                            const cuzk_num *leaf, const cuzk_num *root) {
  cuzk_num sib[R_SIBLINGS];
  for (unsigned i = 0; i < s->r_siblings; i++)
    sib[i] = cuzk_num_alloc_bytes(s->cs, path ? path->sib[i] : NULL);
  return cuzk_gadget_por_bits(s->cs, &s->shape_r, leaf, root, cbits, s->p->cbl, sib);
}

static cuzk_r1cs_err challenge(synth *s, unsigned ci) {
  const cuzk_snap_proof *p = s->p;
  cuzk_cs *cs = s->cs;
  const cuzk_snap_challenge_proof *cp = s->pp ? &s->pp->proofs[ci] : NULL;
  cuzk_bool cbits[32]; /* the random bits, then the partition bits: c, LSB first */
  memcpy(cbits, &s->gen[(size_t)ci * p->rb], p->rb * sizeof *cbits);
  memcpy(&cbits[p->rb], s->khbits, p->pbl * sizeof *cbits);
  cuzk_num chigh = high_bits(s, cbits);
  cuzk_num rho = hash_gen(s, &s->phi, &chigh);
  cuzk_num lro = cuzk_num_alloc_bytes(s->cs, cp ? cp->r_old.leaf : NULL);
  cuzk_num ldn = cuzk_num_alloc_bytes(s->cs, cp ? cp->d_new.leaf : NULL);
  cuzk_num t = cuzk_num_mul(cs, &ldn, &rho);
  cuzk_num lrn = cuzk_gadget_add(cs, &lro, &t);
  cuzk_r1cs_err e;
  if ((e = tree_r(s, cp ? &cp->r_old : NULL, cbits, &lro, &s->root_r_old)) ||
      (e = tree_r(s, cp ? &cp->r_new : NULL, cbits, &lrn, &s->root_r_new)))
    return e;
  cuzk_num apex_leaf;
  if ((e = cuzk_gadget_select(cs, &apex_leaf, s->apex, &cbits[p->tree_d_low], p->abl))) return e;
  cuzk_num sib[32];
  for (unsigned l = 0; l < p->tree_d_low; l++)
    sib[l] = cuzk_num_alloc_bytes(s->cs, cp ? cp->d_new.sib[l] : NULL);
  cuzk_por_shape low = s->shape_d;
  low.base_levels = p->tree_d_low;
  return cuzk_gadget_por_bits(cs, &low, &ldn, &apex_leaf, cbits, p->tree_d_low, sib);
}

/* Challenge ci as a segment (docs/r1cs.md "Parallel witness"): it reads what run allocated
 * before the loop and nothing of another challenge; its own copy of the state points at its
 * view of the system. */
static cuzk_r1cs_err challenge_segment(cuzk_cs *cs, unsigned ci, void *arg) {
  synth *s = malloc(sizeof *s);
  if (!s) return CUZK_R1CS_ENOMEM;
  *s = *(const synth *)arg;
  s->cs = cs;
  cuzk_r1cs_err e = challenge(s, ci);
  free(s);
  return e;
}

static cuzk_r1cs_err run(synth *s, const cuzk_snap_request *rq) {
  const cuzk_snap_proof *p = s->p;
  cuzk_num comm_r_old, comm_d_new, comm_r_new;
  globals(s, &comm_r_old, &comm_d_new, &comm_r_new, rq);
  cuzk_num ppath[4];
  for (unsigned l = 0; l < p->pbl; l++) /* the partition path: the top pbl siblings, lowest first */
    ppath[l] =
        cuzk_num_alloc_bytes(s->cs, s->pp ? s->pp->proofs[0].d_new.sib[p->cbl - p->pbl + l] : NULL);
  cuzk_num x = hash_mt(s, &s->comm_c, &s->root_r_old);
  cuzk_gadget_equal(s->cs, &x, &comm_r_old);
  cuzk_num y = hash_mt(s, &s->comm_c, &s->root_r_new);
  cuzk_gadget_equal(s->cs, &y, &comm_r_new);
  cuzk_r1cs_err e = apex_por(s, ppath, &comm_d_new);
  if (e) return e;
  gen_challenge_bits(s, &comm_r_new);
  unsigned failed = 0;
  e = cuzk_cs_segments(s->cs, p->challenges, challenge_segment, s, &failed);
  if (e) s->failed = failed + 1;
  return e;
}

cuzk_snap_err cuzk_snap_synthesize(cuzk_cs *cs, const cuzk_snap_proof *p,
                                   const cuzk_snap_request *rq, unsigned k, char *msg, size_t len) {
  if (!cs || !p || !p->sector)
    return cuzk_snap_fail(msg, len, CUZK_SNAP_EINVAL, "update circuit: NULL argument");
  if (k >= p->partitions)
    return cuzk_snap_fail(msg, len, CUZK_SNAP_EINVAL, "update circuit: partition %u of %u", k,
                          p->partitions);
  bool vals = cuzk_cs_has_values(cs);
  if (vals && (!rq || rq->proof != p || !rq->parts[k].proofs))
    return cuzk_snap_fail(msg, len, CUZK_SNAP_EINVAL,
                          "update circuit: the %s constraint system needs a checked request of %s",
                          cuzk_cs_mode_name(cuzk_cs_mode_of(cs)), p->name);
  synth *s = calloc(1, sizeof *s);
  if (s) s->gen = calloc((size_t)p->challenges * p->rb, sizeof *s->gen);
  if (!s || !s->gen) {
    if (s) free(s->gen);
    free(s);
    return cuzk_snap_fail(msg, len, CUZK_SNAP_ENOMEM, "update circuit: out of memory");
  }
  s->cs = cs;
  s->p = p;
  s->k = k;
  s->pp = vals ? &rq->parts[k] : NULL;
  const cuzk_sector_info *si = p->sector;
  cuzk_merkle_shape mr;
  snap_shape_r(&mr, p);
  s->r_siblings = cuzk_merkle_siblings(&mr);
  /* the base levels: all but the sub and top level, one each (their count is the variant tag) */
  s->shape_r = (cuzk_por_shape){CUZK_POR_POSEIDON, si->base_arity,     si->sub_arity,
                                si->top_arity,     mr.levels - mr.tag, false};
  s->shape_d = (cuzk_por_shape){CUZK_POR_SHA256, 2, 0, 0, 0, false};
  cuzk_snap_err se = CUZK_SNAP_OK;
  if (cuzk_poseidon_params_get(&s->p2, 2) != CUZK_HASH_OK ||
      cuzk_poseidon_tag_custom(&s->tag_gen, 1) != CUZK_HASH_OK) {
    se = cuzk_snap_fail(msg, len, CUZK_SNAP_ENOMEM, "update circuit: Poseidon constants");
  } else {
    cuzk_r1cs_err e = run(s, vals ? rq : NULL);
    if (e == CUZK_R1CS_OK) e = cuzk_cs_error(cs);
    if (e && s->failed)
      se = cuzk_snap_fail(msg, len, e == CUZK_R1CS_ENOMEM ? CUZK_SNAP_ENOMEM : CUZK_SNAP_EINVAL,
                          "update circuit: partition %u: challenge %u: %s", k, s->failed - 1,
                          cuzk_r1cs_strerror(e));
    else if (e)
      se = cuzk_snap_fail(msg, len, e == CUZK_R1CS_ENOMEM ? CUZK_SNAP_ENOMEM : CUZK_SNAP_EINVAL,
                          "update circuit: partition %u: %s", k, cuzk_r1cs_strerror(e));
  }
  free(s->gen);
  free(s);
  return se;
}
