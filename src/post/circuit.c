/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* FallbackPoStCircuit (docs/post.md "Circuit"): per sector block the comm_r check, then one
 * Merkle inclusion proof per challenge into tree_r_last, in the reference's exact order. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin/bincode.h"
#include "cuzk/r1cs/gadgets.h"
#include "post/post_internal.h"

typedef struct {
  cuzk_cs *cs;
  const cuzk_post_proof *p;
  const cuzk_post_request *rq; /* NULL: the blank circuit */
  const cuzk_poseidon_params *p2;
  cuzk_por_shape shape;
  unsigned levels;
  cuzk_fr sib[CUZK_POST_MAX_LEVELS][CUZK_POST_MAX_SIBLINGS];
  cuzk_por_level path[CUZK_POST_MAX_LEVELS];
} synth;

/* The witness of block b, challenge c: Winning unrolls its one sector's 66 proofs into 66 blocks
 * of one challenge; a short Window partition repeats its last sector. */
static const cuzk_post_sector_proof *block_sector(const synth *s, size_t b) {
  size_t n = s->rq->n_sectors;
  return &s->rq->sectors[s->p->type == CUZK_POST_WINNING ? 0 : (b < n ? b : n - 1)];
}

static const cuzk_post_merkle_proof *block_proof(const synth *s, size_t b, unsigned c) {
  return &block_sector(s, b)->proofs[s->p->type == CUZK_POST_WINNING ? b : c];
}

static cuzk_r1cs_err por(synth *s, const cuzk_num *root, const cuzk_post_merkle_proof *mp) {
  cuzk_num leaf =
      cuzk_num_alloc_bytes(s->cs, mp ? mp->leaf : NULL); /* Root::Val: allocated, unconstrained */
  if (!mp) return cuzk_gadget_por(s->cs, &s->shape, &leaf, root, NULL);
  for (unsigned l = 0; l < s->levels; l++) {
    unsigned arity = cuzk_post_level_arity(s->p, l);
    for (unsigned j = 0; j + 1 < arity; j++)
      if (!cuzk_fr_from_bytes(&s->sib[l][j], mp->hashes[l][j])) memset(&s->sib[l][j], 0, 32);
    s->path[l].index = mp->index[l];
    s->path[l].siblings = s->sib[l];
  }
  return cuzk_gadget_por(s->cs, &s->shape, &leaf, root, s->path);
}

static cuzk_r1cs_err block(synth *s, size_t b) {
  const cuzk_post_sector_proof *sp = s->rq ? block_sector(s, b) : NULL;
  cuzk_num comm_r_last = cuzk_num_alloc_bytes(s->cs, sp ? sp->comm_r_last : NULL);
  cuzk_num comm_c = cuzk_num_alloc_bytes(s->cs, sp ? sp->comm_c : NULL);
  cuzk_num comm_r = cuzk_num_alloc_bytes(s->cs, sp ? sp->comm_r : NULL);
  cuzk_num_inputize(s->cs, &comm_r);
  cuzk_num pre[2] = {comm_c, comm_r_last};
  cuzk_num h = cuzk_gadget_poseidon(s->cs, s->p2, pre);
  cuzk_gadget_equal(s->cs, &comm_r, &h);
  for (unsigned c = 0; c < s->p->challenge_count; c++) {
    cuzk_r1cs_err e = por(s, &comm_r_last, sp ? block_proof(s, b, c) : NULL);
    if (e) return e;
  }
  return CUZK_R1CS_OK;
}

/* Sector block b on cs (the partition's system or a segment's view of it), with scratch of its
 * own. */
static cuzk_r1cs_err block_segment(cuzk_cs *cs, unsigned b, void *arg) {
  synth *s = malloc(sizeof *s);
  if (!s) return CUZK_R1CS_ENOMEM;
  *s = *(const synth *)arg;
  s->cs = cs;
  cuzk_r1cs_err e = block(s, b);
  free(s);
  return e;
}

cuzk_post_err cuzk_post_synthesize(cuzk_cs *cs, const cuzk_post_proof *p,
                                   const cuzk_post_request *rq, char *msg, size_t len) {
  if (!cs || !p) return cuzk_post_fail(msg, len, CUZK_POST_EINVAL, "PoSt circuit: NULL argument");
  bool vals = cuzk_cs_has_values(cs);
  if (vals && (!rq || rq->proof != p || !rq->n_sectors))
    return cuzk_post_fail(msg, len, CUZK_POST_EINVAL,
                          "PoSt circuit: the %s constraint system needs a checked request of %s",
                          cuzk_cs_mode_name(cuzk_cs_mode_of(cs)), p->name);
  synth *s = calloc(1, sizeof *s);
  if (!s) return cuzk_post_fail(msg, len, CUZK_POST_ENOMEM, "PoSt circuit: out of memory");
  s->cs = cs;
  s->p = p;
  s->rq = vals ? rq : NULL;
  s->levels = cuzk_post_path_levels(p);
  const cuzk_sector_info *si = p->sector;
  cuzk_merkle_shape mr; /* tree_r_last's levels: the base ones, then one each for sub and top */
  cuzk_merkle_shape_tree_r(&mr, si);
  s->shape = (cuzk_por_shape){CUZK_POR_POSEIDON, si->base_arity,     si->sub_arity,
                              si->top_arity,     mr.levels - mr.tag, false};
  cuzk_post_err pe = CUZK_POST_OK;
  if (cuzk_poseidon_params_get(&s->p2, 2) != CUZK_HASH_OK) {
    pe = cuzk_post_fail(msg, len, CUZK_POST_ENOMEM, "PoSt circuit: Poseidon constants");
    goto out;
  }
  /* the sector blocks are segments (docs/r1cs.md "Parallel witness"): each allocates its own
   * commitments and reads nothing of another */
  unsigned failed = 0;
  cuzk_r1cs_err e = cuzk_cs_segments(cs, p->sector_count, block_segment, s, &failed);
  if (e)
    pe = cuzk_post_fail(msg, len, e == CUZK_R1CS_ENOMEM ? CUZK_POST_ENOMEM : CUZK_POST_EINVAL,
                        "PoSt circuit: sector block %u: %s", failed, cuzk_r1cs_strerror(e));
out:
  free(s);
  return pe;
}
