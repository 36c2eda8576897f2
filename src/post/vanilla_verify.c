/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Native verification of one sector's vanilla proof (docs/post.md "Vanilla verification"):
 * FallbackPoSt::verify plus what the circuit needs to be satisfiable. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cuzk/hashes/poseidon.h"
#include "filecoin/seal.h"
#include "post/post_internal.h"

/* The root a path hashes to from its leaf and the leaf index its indices spell; false if a value
 * is not canonical or an index is out of range. */
static bool path_root(cuzk_fr *root, uint64_t *leaf_index, const cuzk_post_proof *p,
                      const cuzk_post_merkle_proof *mp) {
  cuzk_fr node, in[CUZK_POST_MAX_SIBLINGS + 1];
  if (!cuzk_fr_from_bytes(&node, mp->leaf)) return false;
  uint64_t index = 0, below = 1; /* below: leaves under one node of the current level */
  unsigned levels = cuzk_post_path_levels(p);
  for (unsigned l = 0; l < levels; l++) {
    unsigned arity = cuzk_post_level_arity(p, l), at = mp->index[l];
    const cuzk_poseidon_params *pp;
    if (at >= arity || cuzk_poseidon_params_get(&pp, arity) != CUZK_HASH_OK) return false;
    /* the siblings in position order with the running node inserted at its index */
    for (unsigned k = 0, m = 0; k < arity; k++)
      if (k == at)
        in[k] = node;
      else if (!cuzk_fr_from_bytes(&in[k], mp->hashes[l][m++]))
        return false;
    cuzk_poseidon_hash_tagged(&node, pp, &pp->merkle_tag, in);
    index += at * below;
    below *= arity;
  }
  *root = node;
  *leaf_index = index;
  return true;
}

/* EVERIFY naming the sector, the challenge and its leaf, and what failed. */
static cuzk_post_err refuse(char *msg, size_t msg_len, const cuzk_post_sector_proof *sp, unsigned n,
                            uint64_t challenge, const char *what) {
  return cuzk_post_fail(msg, msg_len, CUZK_POST_EVERIFY,
                        "sector %" PRIu64 ", challenge %u (leaf %" PRIu64 "): %s", sp->sector_id, n,
                        challenge, what);
}

/* One inclusion proof n against comm_r_last and its challenge. */
static cuzk_post_err check_proof(const cuzk_post_proof *p, const cuzk_post_sector_proof *sp,
                                 unsigned n, uint64_t challenge, const cuzk_fr *comm_r_last,
                                 char *msg, size_t msg_len) {
  const cuzk_post_merkle_proof *mp = &sp->proofs[n];
  cuzk_fr got;
  uint64_t leaf = 0;
  if (memcmp(mp->root, sp->comm_r_last, 32) != 0)
    return refuse(msg, msg_len, sp, n, challenge, "root differs from comm_r_last");
  if (!path_root(&got, &leaf, p, mp))
    return refuse(msg, msg_len, sp, n, challenge,
                  "leaf or path holds a non-canonical value or an index out of range");
  /* the indices first: a changed index or challenge says so instead of "does not hash" */
  if (leaf != challenge) {
    char what[64];
    snprintf(what, sizeof what, "path indices open leaf %" PRIu64, leaf);
    return refuse(msg, msg_len, sp, n, challenge, what);
  }
  if (!cuzk_fr_eq(&got, comm_r_last))
    return refuse(msg, msg_len, sp, n, challenge, "leaf and path do not hash to comm_r_last");
  return CUZK_POST_OK;
}

cuzk_post_err cuzk_post_vanilla_verify(const cuzk_post_proof *p, const uint8_t randomness[32],
                                       uint64_t sector_index, const cuzk_post_sector_proof *sp,
                                       char *msg, size_t msg_len) {
  if (!p || !p->sector || !randomness || !sp || (!sp->proofs && sp->n_proofs))
    return cuzk_post_fail(msg, msg_len, CUZK_POST_EINVAL, "missing argument");
  const uint64_t id = sp->sector_id;
  if (sp->n_proofs != p->vanilla_challenges)
    return cuzk_post_fail(msg, msg_len, CUZK_POST_EVERIFY,
                          "sector %" PRIu64 ": %zu inclusion proofs, expected %u", id, sp->n_proofs,
                          p->vanilla_challenges);
  cuzk_fr comm_c, comm_r_last, comm_r, want;
  if (!cuzk_fr_from_bytes(&comm_c, sp->comm_c) ||
      !cuzk_fr_from_bytes(&comm_r_last, sp->comm_r_last) ||
      !cuzk_fr_from_bytes(&comm_r, sp->comm_r))
    return cuzk_post_fail(msg, msg_len, CUZK_POST_EVERIFY,
                          "sector %" PRIu64 ": comm_r, comm_c or comm_r_last is not canonical", id);
  cuzk_sdr_comm_r(&want, &comm_c, &comm_r_last);
  if (!cuzk_fr_eq(&want, &comm_r))
    return cuzk_post_fail(msg, msg_len, CUZK_POST_EVERIFY,
                          "sector %" PRIu64 ": comm_r is not Poseidon2(comm_c, comm_r_last)", id);
  uint64_t challenges[CUZK_POST_WINNING_CHALLENGES];
  if (p->vanilla_challenges > CUZK_POST_WINNING_CHALLENGES)
    return cuzk_post_fail(msg, msg_len, CUZK_POST_EINVAL, "unexpected challenge count");
  cuzk_post_sector_challenges(challenges, p, randomness, id, sector_index);
  for (unsigned n = 0; n < p->vanilla_challenges; n++) {
    cuzk_post_err e = check_proof(p, sp, n, challenges[n], &comm_r_last, msg, msg_len);
    if (e) return e;
  }
  return CUZK_POST_OK;
}
