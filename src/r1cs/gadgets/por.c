/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Merkle inclusion, storage-proofs-core PoRCircuit (gadgets/por.rs; docs/spec/porep-circuit.md §3)
 * with the leaf and the root as existing variables. Per level, leaf level first (base levels, then
 * the sub level, then the top level): the index bits (LSB first), the siblings, insert and the
 * level hash (Poseidon of the level's arity, or SHA-256 of two leaves). Then one public input
 * packing all index bits (the leaf index) and (computed root ; ONE ; root).
 */
#include "cuzk/r1cs/gadgets.h"

#define MAX_PATH_BITS 254 /* one packed input; any real tree needs far fewer */

unsigned cuzk_por_levels(const cuzk_por_shape *s) {
  return s->base_levels + (s->sub_arity != 0) + (s->top_arity != 0);
}

static unsigned log2_arity(unsigned a) { return a == 2 ? 1 : a == 4 ? 2 : a == 8 ? 3 : 0; }

static unsigned level_arity(const cuzk_por_shape *s, unsigned l) {
  if (l < s->base_levels) return s->base_arity;
  if (l == s->base_levels && s->sub_arity) return s->sub_arity;
  return s->top_arity;
}

/* The shape's own rules: arities 2, 4 or 8 (0 for an absent sub/top level); SHA-256 trees are
 * binary without sub or top levels (comm_d). */
static bool shape_ok(const cuzk_por_shape *s) {
  if (!log2_arity(s->base_arity)) return false;
  if (s->sub_arity && !log2_arity(s->sub_arity)) return false;
  if (s->top_arity && !log2_arity(s->top_arity)) return false;
  if (s->hash == CUZK_POR_SHA256) return s->base_arity == 2 && !s->sub_arity && !s->top_arity;
  return s->hash == CUZK_POR_POSEIDON;
}

/* The Poseidon constants of every level's arity (params indexed by arity), fetched before the
 * first allocation so that an error leaves the system untouched; the bit count of the path. */
static cuzk_r1cs_err prepare(const cuzk_por_shape *s, const cuzk_poseidon_params *params[9],
                             unsigned *nbits) {
  if (!shape_ok(s) || s->base_levels > MAX_PATH_BITS) return CUZK_R1CS_EINVAL;
  *nbits = 0;
  for (unsigned l = 0; l < cuzk_por_levels(s); l++) {
    unsigned ar = level_arity(s, l);
    *nbits += log2_arity(ar);
    if (s->hash == CUZK_POR_POSEIDON && !params[ar] &&
        cuzk_poseidon_params_get(&params[ar], ar) != CUZK_HASH_OK)
      return CUZK_R1CS_ENOMEM;
  }
  return *nbits > MAX_PATH_BITS ? CUZK_R1CS_EINVAL : CUZK_R1CS_OK;
}

/* One level: the running node inserted among the siblings at the position the bits spell, then
 * the level hash. */
static cuzk_num level_hash(cuzk_cs *cs, const cuzk_por_shape *s,
                           const cuzk_poseidon_params *const params[9], unsigned ar,
                           const cuzk_num *cur, const cuzk_bool *bits, const cuzk_num *sib) {
  cuzk_num in[8];
  cuzk_gadget_insert(cs, in, cur, bits, sib, ar); /* cannot fail: arity checked */
  cuzk_cs_push(cs, "computation of commitment hash");
  cuzk_num out = s->hash == CUZK_POR_POSEIDON ? cuzk_gadget_poseidon(cs, params[ar], in)
                                              : cuzk_gadget_sha256_leaves(cs, in, ar);
  cuzk_cs_pop(cs);
  return out;
}

cuzk_r1cs_err cuzk_gadget_por(cuzk_cs *cs, const cuzk_por_shape *s, const cuzk_num *leaf,
                              const cuzk_num *root, const cuzk_por_level *path) {
  if (!s || !leaf || !root) return CUZK_R1CS_EINVAL;
  const bool hv = cuzk_cs_has_values(cs);
  const cuzk_poseidon_params *params[9] = {0};
  unsigned nbits;
  cuzk_r1cs_err e = prepare(s, params, &nbits);
  if (e) return e;
  const unsigned levels = cuzk_por_levels(s);
  for (unsigned l = 0; hv && l < levels; l++)
    if (!path || path[l].index >= level_arity(s, l) || !path[l].siblings) return CUZK_R1CS_EINVAL;

  cuzk_bool bits[MAX_PATH_BITS];
  cuzk_num cur = *leaf;
  nbits = 0;
  for (unsigned l = 0; l < levels; l++) {
    const unsigned ar = level_arity(s, l), k = log2_arity(ar);
    cuzk_cs_push(cs, "merkle tree hash %u", l);
    for (unsigned i = 0; i < k; i++)
      bits[nbits + i] = cuzk_bit_alloc(cs, hv && ((path[l].index >> i) & 1));
    cuzk_num sib[7];
    for (unsigned j = 0; j + 1 < ar; j++)
      sib[j] = cuzk_num_alloc(cs, hv ? &path[l].siblings[j] : NULL);
    cur = level_hash(cs, s, params, ar, &cur, &bits[nbits], sib);
    nbits += k;
    cuzk_cs_pop(cs);
  }
  cuzk_cs_push(cs, "path");
  cuzk_multipack_pack_into_inputs(cs, bits, nbits);
  cuzk_cs_pop(cs);
  cuzk_gadget_equal(cs, &cur, root);
  if (s->public_root) cuzk_num_inputize(cs, root);
  return CUZK_R1CS_OK;
}

cuzk_r1cs_err cuzk_gadget_por_bits(cuzk_cs *cs, const cuzk_por_shape *s, const cuzk_num *leaf,
                                   const cuzk_num *root, const cuzk_bool *bits, unsigned nbits,
                                   const cuzk_num *siblings) {
  if (!s || !leaf || !root || !bits || !siblings) return CUZK_R1CS_EINVAL;
  const cuzk_poseidon_params *params[9] = {0};
  unsigned want;
  cuzk_r1cs_err e = prepare(s, params, &want);
  if (e) return e;
  if (nbits != want) return CUZK_R1CS_EINVAL; /* every bit used, none left over */
  cuzk_num cur = *leaf;
  for (unsigned l = 0; l < cuzk_por_levels(s); l++) {
    const unsigned ar = level_arity(s, l);
    cuzk_cs_push(cs, "merkle tree hash %u", l);
    cur = level_hash(cs, s, params, ar, &cur, bits, siblings);
    bits += log2_arity(ar);
    siblings += ar - 1;
    cuzk_cs_pop(cs);
  }
  cuzk_gadget_equal(cs, &cur, root);
  return CUZK_R1CS_OK;
}
