/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Test replicas that produce PoSt vanilla proofs (docs/post.md "Test sectors"): a test-size
 * sector sealed in memory by the filecoin layer (its tree_r_last kept), or a synthetic replica of
 * all-zero leaves whose tree has one value per level; and generate_single_vanilla_proof. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin/seal.h"
#include "cuzk/hashes/poseidon.h"
#include "cuzk/hashes/sha256.h"
#include "filecoin/seal.h"
#include "post/post_internal.h"

struct cuzk_post_replica {
  const cuzk_sector_info *sector;
  uint64_t sector_id;
  uint8_t comm_c[32], comm_r_last[32], comm_r[32];
  bool sealed;
  cuzk_sdr_tree tree;                      /* sealed: tree_r_last */
  cuzk_fr level[CUZK_POST_MAX_LEVELS + 1]; /* synthetic: each level's one value, leaves first */
};

/* Sealing keeps every layer in memory ((layers + 4) x the sector): only the test sizes. */
#define MAX_SEAL_BYTES (UINT64_C(512) << 20)

cuzk_post_err cuzk_post_replica_seal(cuzk_post_replica **out, const cuzk_post_proof *p,
                                     const uint8_t *data, const uint8_t prover_id[32],
                                     uint64_t sector_id, const uint8_t ticket[32], cuzk_pool *pool,
                                     char *msg, size_t msg_len) {
  if (!out) return cuzk_post_fail(msg, msg_len, CUZK_POST_EINVAL, "no output");
  *out = NULL;
  if (!p || !p->sector || !prover_id || !ticket)
    return cuzk_post_fail(msg, msg_len, CUZK_POST_EINVAL, "missing argument");
  if (p->sector->bytes > MAX_SEAL_BYTES)
    return cuzk_post_fail(msg, msg_len, CUZK_POST_EINVAL,
                          "sealing in memory is for 2KiB, 8MiB and 512MiB sectors, not %s",
                          p->sector->name);
  const cuzk_seal_proof *sealp;
  if (cuzk_seal_proof_by_sector(&sealp, p->sector->bytes) != CUZK_POREP_OK)
    return cuzk_post_fail(msg, msg_len, CUZK_POST_EINVAL, "no seal proof for %s", p->sector->name);
  uint8_t *zeros = data ? NULL : calloc(p->sector->nodes, 32);
  cuzk_post_replica *r = calloc(1, sizeof *r);
  if (!r || (!data && !zeros)) {
    free(zeros);
    free(r);
    return cuzk_post_fail(msg, msg_len, CUZK_POST_ENOMEM, "out of memory");
  }
  cuzk_sealed_sector ss;
  cuzk_porep_err pe =
      cuzk_seal_sector(&ss, sealp, data ? data : zeros, prover_id, sector_id, ticket, pool, NULL);
  free(zeros);
  if (pe != CUZK_POREP_OK) {
    free(r);
    return cuzk_post_fail(msg, msg_len,
                          pe == CUZK_POREP_ENOMEM ? CUZK_POST_ENOMEM : CUZK_POST_EINVAL, "seal: %s",
                          cuzk_porep_strerror(pe));
  }
  /* keep tree_r_last and the commitments; the labels, tree_c and the rest go */
  r->sector = p->sector;
  r->sector_id = sector_id;
  r->sealed = true;
  r->tree = ss.tree_r;
  ss.tree_r.nodes = NULL;
  memcpy(r->comm_c, ss.comm_c, 32);
  memcpy(r->comm_r_last, ss.comm_r_last, 32);
  memcpy(r->comm_r, ss.comm_r, 32);
  cuzk_sealed_sector_free(&ss);
  *out = r;
  return CUZK_POST_OK;
}

cuzk_post_err cuzk_post_replica_synthetic(cuzk_post_replica **out, const cuzk_post_proof *p,
                                          uint64_t sector_id, const uint8_t comm_c[32]) {
  if (!out) return CUZK_POST_EINVAL;
  *out = NULL;
  cuzk_fr c;
  if (!p || !p->sector || !comm_c || !cuzk_fr_from_bytes(&c, comm_c)) return CUZK_POST_EINVAL;
  cuzk_post_replica *r = calloc(1, sizeof *r);
  if (!r) return CUZK_POST_ENOMEM;
  r->sector = p->sector;
  r->sector_id = sector_id;
  /* all-zero leaves: every node of level l + 1 hashes arity copies of level l's one value */
  r->level[0] = cuzk_fr_zero;
  unsigned levels = cuzk_post_path_levels(p);
  for (unsigned l = 0; l < levels; l++) {
    unsigned arity = cuzk_post_level_arity(p, l);
    const cuzk_poseidon_params *pp;
    if (cuzk_poseidon_params_get(&pp, arity) != CUZK_HASH_OK) {
      free(r);
      return CUZK_POST_ENOMEM;
    }
    cuzk_fr in[CUZK_POST_MAX_SIBLINGS + 1];
    for (unsigned k = 0; k < arity; k++)
      in[k] = r->level[l];
    cuzk_poseidon_hash_tagged(&r->level[l + 1], pp, &pp->merkle_tag, in);
  }
  cuzk_fr comm_r;
  cuzk_sdr_comm_r(&comm_r, &c, &r->level[levels]);
  memcpy(r->comm_c, comm_c, 32);
  cuzk_fr_to_bytes(r->comm_r_last, &r->level[levels]);
  cuzk_fr_to_bytes(r->comm_r, &comm_r);
  *out = r;
  return CUZK_POST_OK;
}

void cuzk_post_synthetic_comm_c(uint8_t out[32], uint64_t sector_id) {
  static const char tag[] = "cuzk-bench synthetic comm_c";
  uint8_t buf[sizeof tag - 1 + 8];
  memcpy(buf, tag, sizeof tag - 1);
  for (int i = 0; i < 8; i++)
    buf[sizeof tag - 1 + i] = (uint8_t)(sector_id >> (8 * i));
  cuzk_sha256_trunc254(out, buf, sizeof buf);
}

bool cuzk_post_sector_is_synthetic(const cuzk_post_sector_proof *sp) {
  if (!sp) return false;
  uint8_t want[32];
  cuzk_post_synthetic_comm_c(want, sp->sector_id);
  return memcmp(want, sp->comm_c, 32) == 0;
}

cuzk_post_err cuzk_post_replica_from_bytes(cuzk_post_replica **out, const cuzk_post_proof *p,
                                           const uint8_t *replica, const uint8_t comm_c[32],
                                           uint64_t sector_id, cuzk_pool *pool) {
  if (!out) return CUZK_POST_EINVAL;
  *out = NULL;
  cuzk_fr c;
  if (!p || !p->sector || !replica || !comm_c || !cuzk_fr_from_bytes(&c, comm_c) ||
      p->sector->bytes > MAX_SEAL_BYTES)
    return CUZK_POST_EINVAL;
  const cuzk_sector_info *si = p->sector;
  cuzk_fr *leaves = malloc(si->nodes * sizeof *leaves);
  cuzk_post_replica *r = calloc(1, sizeof *r);
  cuzk_post_err e = leaves && r ? CUZK_POST_OK : CUZK_POST_ENOMEM;
  for (uint64_t i = 0; !e && i < si->nodes; i++)
    if (!cuzk_fr_from_bytes(&leaves[i], replica + 32 * i)) e = CUZK_POST_EINVAL;
  if (!e && !cuzk_sdr_tree_build(&r->tree, leaves, si->nodes, si->base_trees, si->sub_arity,
                                 si->top_arity, pool))
    e = CUZK_POST_ENOMEM;
  free(leaves);
  if (e) {
    free(r);
    return e;
  }
  r->sector = si;
  r->sector_id = sector_id;
  r->sealed = true;
  cuzk_fr comm_r;
  cuzk_sdr_comm_r(&comm_r, &c, &r->tree.root);
  memcpy(r->comm_c, comm_c, 32);
  cuzk_fr_to_bytes(r->comm_r_last, &r->tree.root);
  cuzk_fr_to_bytes(r->comm_r, &comm_r);
  *out = r;
  return CUZK_POST_OK;
}

void cuzk_post_replica_free(cuzk_post_replica *r) {
  if (!r) return;
  cuzk_sdr_tree_free(&r->tree);
  free(r);
}

void cuzk_post_replica_comm_r(const cuzk_post_replica *r, uint8_t comm_r[32]) {
  if (r && comm_r) memcpy(comm_r, r->comm_r, 32);
}

uint64_t cuzk_post_replica_sector_id(const cuzk_post_replica *r) { return r ? r->sector_id : 0; }

/* ---- opening a leaf (docs/post.md "Vanilla proof bytes": levels leaf first) ---------------- */

/* Every level but the last has arity 8 in every PoSt shape, so the flat sibling order of
 * cuzk_sdr_tree_open_bytes is hashes[l][0..arity-1) level by level. */
static void open_sealed(cuzk_post_merkle_proof *mp, const cuzk_sdr_tree *t, uint64_t x) {
  cuzk_sdr_tree_open_bytes(t, x, mp->leaf, mp->root, mp->index, (uint8_t(*)[32])mp->hashes);
}

static void open_synthetic(cuzk_post_merkle_proof *mp, const cuzk_post_replica *r,
                           const cuzk_post_proof *p, uint64_t x) {
  unsigned levels = cuzk_post_path_levels(p);
  cuzk_fr_to_bytes(mp->leaf, &r->level[0]);
  memcpy(mp->root, r->comm_r_last, 32);
  for (unsigned l = 0; l < levels; l++) {
    unsigned arity = cuzk_post_level_arity(p, l);
    /* the leaf index's digit of this level, in the mixed radix of the arities */
    mp->index[l] = (uint8_t)(x % arity);
    x /= arity;
    for (unsigned k = 0; k + 1 < arity; k++)
      cuzk_fr_to_bytes(mp->hashes[l][k], &r->level[l]);
  }
}

cuzk_post_err cuzk_post_vanilla_generate(cuzk_post_sector_proof *out, const cuzk_post_proof *p,
                                         const cuzk_post_replica *r, const uint8_t randomness[32],
                                         uint64_t sector_index) {
  if (!out) return CUZK_POST_EINVAL;
  memset(out, 0, sizeof *out);
  if (!p || !r || !randomness || p->sector != r->sector ||
      p->vanilla_challenges > CUZK_POST_WINNING_CHALLENGES)
    return CUZK_POST_EINVAL;
  uint64_t challenges[CUZK_POST_WINNING_CHALLENGES];
  cuzk_post_sector_challenges(challenges, p, randomness, r->sector_id, sector_index);
  out->proofs = calloc(p->vanilla_challenges, sizeof *out->proofs);
  if (!out->proofs) return CUZK_POST_ENOMEM;
  out->n_proofs = p->vanilla_challenges;
  out->sector_id = r->sector_id;
  memcpy(out->comm_r, r->comm_r, 32);
  memcpy(out->comm_c, r->comm_c, 32);
  memcpy(out->comm_r_last, r->comm_r_last, 32);
  for (unsigned n = 0; n < p->vanilla_challenges; n++)
    if (r->sealed)
      open_sealed(&out->proofs[n], &r->tree, challenges[n]);
    else
      open_synthetic(&out->proofs[n], r, p, challenges[n]);
  return CUZK_POST_OK;
}
