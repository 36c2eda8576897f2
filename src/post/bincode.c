/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The bincode of one sector's vanilla proof, FallbackPoStSectorProof (docs/post.md "Vanilla proof
 * bytes"), over the shared strict reader and MerkleProof of cuzk/filecoin/bincode.h
 * (docs/bincode.md): sector_id, comm_r, one SectorProof (inclusion_proofs, comm_c, comm_r_last). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin/bincode.h"
#include "post/post_internal.h"

/* One inclusion proof seen through the shared MerkleProof code. Every level but the last has
 * arity 8 in every PoSt tree shape (8-0-0, 8-8-0, 8-8-2), so the siblings of level l, stored at
 * hashes[l][0..arity-1), sit at l * 7 in the flat order the view uses. */
static cuzk_merkle_view view_of(const cuzk_post_merkle_proof *mp) {
  cuzk_post_merkle_proof *m = (cuzk_post_merkle_proof *)mp; /* read or written by the caller */
  return (cuzk_merkle_view){m->root, m->leaf, m->index, (uint8_t(*)[32])m->hashes};
}

static void shape_of(cuzk_merkle_shape *s, const cuzk_post_proof *p) {
  cuzk_merkle_shape_tree_r(s, p->sector);
}

size_t cuzk_post_vanilla_size(const cuzk_post_proof *p) {
  if (!p || !p->sector) return 0;
  cuzk_merkle_shape s;
  shape_of(&s, p);
  /* sector_id, comm_r, sectors count, inclusion_proofs count, the proofs, comm_c, comm_r_last */
  return 8 + 32 + 8 + 8 + p->vanilla_challenges * cuzk_merkle_size(&s) + 32 + 32;
}

void cuzk_post_sector_proof_free(cuzk_post_sector_proof *sp) {
  if (!sp) return;
  free(sp->proofs);
  memset(sp, 0, sizeof *sp);
}

cuzk_post_err cuzk_post_vanilla_read(cuzk_post_sector_proof *out, const cuzk_post_proof *p,
                                     const uint8_t *buf, size_t len, char *msg, size_t msg_len) {
  if (!out) return cuzk_post_fail(msg, msg_len, CUZK_POST_EINVAL, "no output");
  memset(out, 0, sizeof *out);
  if (!p || !p->sector || (!buf && len))
    return cuzk_post_fail(msg, msg_len, CUZK_POST_EINVAL, "no proof type or no bytes");
  cuzk_merkle_shape s;
  shape_of(&s, p);
  cuzk_bc_reader r;
  cuzk_bc_init(&r, buf, len, msg, msg_len);
  bool ok = cuzk_bc_u64(&r, &out->sector_id, "sector_id") &&
            cuzk_bc_fr(&r, out->comm_r, "comm_r") && cuzk_bc_count(&r, 1, "sectors");
  cuzk_bc_push(&r, "sectors[0]");
  ok = ok && cuzk_bc_count(&r, p->vanilla_challenges, "inclusion_proofs");
  if (ok && !(out->proofs = calloc(p->vanilla_challenges, sizeof *out->proofs)))
    return cuzk_post_fail(msg, msg_len, CUZK_POST_ENOMEM, "inclusion_proofs: out of memory");
  out->n_proofs = ok ? p->vanilla_challenges : 0;
  for (unsigned n = 0; ok && n < p->vanilla_challenges; n++) {
    size_t mark = cuzk_bc_push(&r, "inclusion_proofs[%u]", n);
    cuzk_merkle_view v = view_of(&out->proofs[n]);
    ok = cuzk_merkle_read(&r, &s, &v);
    cuzk_bc_pop(&r, mark);
  }
  ok = ok && cuzk_bc_fr(&r, out->comm_c, "comm_c") &&
       cuzk_bc_fr(&r, out->comm_r_last, "comm_r_last");
  cuzk_bc_pop(&r, 0);
  if (ok && cuzk_bc_end(&r)) return CUZK_POST_OK;
  cuzk_post_sector_proof_free(out);
  return CUZK_POST_EFORMAT;
}

cuzk_post_err cuzk_post_vanilla_write(uint8_t *out, const cuzk_post_proof *p,
                                      const cuzk_post_sector_proof *sp) {
  if (!out || !p || !p->sector || !sp || !sp->proofs || sp->n_proofs != p->vanilla_challenges)
    return CUZK_POST_EINVAL;
  /* every index within its level's arity, and 0 beyond p's levels (as the reader leaves them):
   * a proof of a deeper tree is refused instead of being cut short */
  cuzk_merkle_shape s;
  shape_of(&s, p);
  for (size_t n = 0; n < sp->n_proofs; n++)
    for (unsigned l = 0; l < CUZK_POST_MAX_LEVELS; l++)
      if (sp->proofs[n].index[l] >= (l < s.levels ? s.arity[l] : 1)) return CUZK_POST_EINVAL;
  uint8_t *o = cuzk_bc_put32(cuzk_bc_put_u64(out, sp->sector_id), sp->comm_r);
  o = cuzk_bc_put_u64(cuzk_bc_put_u64(o, 1), sp->n_proofs); /* one SectorProof */
  for (size_t n = 0; n < sp->n_proofs; n++) {
    cuzk_merkle_view v = view_of(&sp->proofs[n]);
    o = cuzk_merkle_write(o, &s, &v);
  }
  cuzk_bc_put32(cuzk_bc_put32(o, sp->comm_c), sp->comm_r_last);
  return CUZK_POST_OK;
}
