/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The bincode of one PartitionProof (docs/spec/snap-circuit.md §5.1): comm_c, the apex leaves,
 * then per challenge proof_r_old, proof_d_new, proof_r_new; a strict reader over the shared
 * MerkleProof code (cuzk/filecoin/bincode.h), the writer, the size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "snap/snap_internal.h"

void cuzk_snap_partition_free(cuzk_snap_partition_proof *pp) {
  if (!pp) return;
  free(pp->proofs);
  memset(pp, 0, sizeof *pp);
}

size_t cuzk_snap_vanilla_size(const cuzk_snap_proof *p) {
  if (!p || !p->sector) return 0;
  cuzk_merkle_shape r, d;
  snap_shape_r(&r, p);
  snap_shape_d(&d, p);
  size_t challenge = 2 * cuzk_merkle_size(&r) + cuzk_merkle_size(&d);
  return 32 + 8 + 32 * (size_t)p->apex_leaves + 8 + p->challenges * challenge;
}

static bool read_challenge(cuzk_bc_reader *r, cuzk_snap_challenge_proof *cp,
                           const cuzk_merkle_shape *sr, const cuzk_merkle_shape *sd) {
  static const char *const names[3] = {"proof_r_old", "proof_d_new", "proof_r_new"};
  cuzk_merkle_view v[3] = {snap_view_r(&cp->r_old), snap_view_d(&cp->d_new),
                           snap_view_r(&cp->r_new)};
  for (unsigned i = 0; i < 3; i++) {
    size_t mark = cuzk_bc_push(r, "%s", names[i]);
    if (!cuzk_merkle_read(r, i == 1 ? sd : sr, &v[i])) return false;
    cuzk_bc_pop(r, mark);
  }
  return true;
}

cuzk_snap_err cuzk_snap_vanilla_read(cuzk_snap_partition_proof *out, const cuzk_snap_proof *p,
                                     const uint8_t *buf, size_t len, char *msg, size_t msg_len) {
  if (!out) return cuzk_snap_fail(msg, msg_len, CUZK_SNAP_EINVAL, "no output");
  memset(out, 0, sizeof *out);
  if (!p || !p->sector || (!buf && len))
    return cuzk_snap_fail(msg, msg_len, CUZK_SNAP_EINVAL, "no proof type or no bytes");
  cuzk_merkle_shape sr, sd;
  snap_shape_r(&sr, p);
  snap_shape_d(&sd, p);
  cuzk_bc_reader r;
  cuzk_bc_init(&r, buf, len, msg, msg_len);
  bool ok =
      cuzk_bc_fr(&r, out->comm_c, "comm_c") && cuzk_bc_count(&r, p->apex_leaves, "apex_leafs");
  for (unsigned a = 0; ok && a < p->apex_leaves; a++) {
    char f[24];
    snprintf(f, sizeof f, "apex_leafs[%u]", a);
    ok = cuzk_bc_domain(&r, out->apex[a], f);
  }
  ok = ok && cuzk_bc_count(&r, p->challenges, "challenge_proofs");
  if (ok && !(out->proofs = malloc(p->challenges * sizeof *out->proofs)))
    return cuzk_snap_fail(msg, msg_len, CUZK_SNAP_ENOMEM, "challenge_proofs: out of memory");
  for (unsigned n = 0; ok && n < p->challenges; n++) {
    memset(&out->proofs[n], 0, sizeof out->proofs[n]);
    size_t mark = cuzk_bc_push(&r, "challenge_proofs[%u]", n);
    ok = read_challenge(&r, &out->proofs[n], &sr, &sd);
    cuzk_bc_pop(&r, mark);
  }
  if (ok && cuzk_bc_end(&r)) return CUZK_SNAP_OK;
  cuzk_snap_partition_free(out);
  return CUZK_SNAP_EFORMAT;
}

cuzk_snap_err cuzk_snap_vanilla_write(uint8_t *out, const cuzk_snap_proof *p,
                                      const cuzk_snap_partition_proof *pp) {
  if (!out || !p || !p->sector || !pp || !pp->proofs) return CUZK_SNAP_EINVAL;
  cuzk_merkle_shape sr, sd;
  snap_shape_r(&sr, p);
  snap_shape_d(&sd, p);
  /* every index within its level's arity: the reader would refuse anything else */
  for (unsigned n = 0; n < p->challenges; n++) {
    const cuzk_snap_challenge_proof *cp = &pp->proofs[n];
    for (unsigned l = 0; l < sr.levels; l++)
      if (cp->r_old.index[l] >= sr.arity[l] || cp->r_new.index[l] >= sr.arity[l])
        return CUZK_SNAP_EINVAL;
    for (unsigned l = 0; l < sd.levels; l++)
      if (cp->d_new.index[l] > 1) return CUZK_SNAP_EINVAL;
  }
  uint8_t *o = cuzk_bc_put_u64(cuzk_bc_put32(out, pp->comm_c), p->apex_leaves);
  for (unsigned a = 0; a < p->apex_leaves; a++)
    o = cuzk_bc_put32(o, pp->apex[a]);
  o = cuzk_bc_put_u64(o, p->challenges);
  for (unsigned n = 0; n < p->challenges; n++) {
    const cuzk_snap_challenge_proof *cp = &pp->proofs[n];
    cuzk_merkle_view ro = snap_view_r(&cp->r_old), d = snap_view_d(&cp->d_new),
                     rn = snap_view_r(&cp->r_new);
    o = cuzk_merkle_write(o, &sr, &ro);
    o = cuzk_merkle_write(o, &sd, &d);
    o = cuzk_merkle_write(o, &sr, &rn);
  }
  return CUZK_SNAP_OK;
}
