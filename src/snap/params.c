/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Update parameter files (docs/spec/snap-circuit.md §9): their Filecoin names, TEST parameters,
 * and verification of all partitions of a request in one batch. */
#include <stdio.h>
#include <stdlib.h>

#include "snap/snap_internal.h"

/* The prefix and identifier of p's parameter files. */
static void names(char prefix[128], char ident[128], const cuzk_snap_proof *p) {
  const cuzk_sector_info *si = p->sector;
  snprintf(prefix, 128, "empty-sector-update-merkletree-poseidon_hasher-%u-%u-%u", si->base_arity,
           si->sub_arity, si->top_arity);
  /* the Debug text of empty_sector_update::PublicParams, spaces inside the braces included */
  snprintf(ident, 128, "empty_sector_update::PublicParams{ sector_nodes: %llu }",
           (unsigned long long)si->nodes);
}

cuzk_snap_err cuzk_snap_cache_id(char *out, size_t len, const cuzk_snap_proof *p) {
  if (!out || !p || !p->sector) return CUZK_SNAP_EINVAL;
  char prefix[128], ident[128];
  names(prefix, ident, p);
  return cuzk_g16_cache_id(out, len, prefix, ident) ? CUZK_SNAP_EINVAL : CUZK_SNAP_OK;
}

bool cuzk_snap_param_base(char *out, size_t len, const char *dir, const cuzk_snap_proof *p) {
  char prefix[128], ident[128];
  if (!p || !p->sector) return false;
  names(prefix, ident, p);
  return cuzk_g16_param_base(out, len, dir, prefix, ident);
}

static bool blank(cuzk_cs *cs, const void *p, char *msg, size_t len) {
  return cuzk_snap_synthesize(cs, p, NULL, 0, msg, len) == CUZK_SNAP_OK;
}

cuzk_snap_err cuzk_snap_setup_test_params(const cuzk_snap_proof *p, const char *dir,
                                          cuzk_pool *pool, const cuzk_progress *progress,
                                          double *gen_s, char *msg, size_t len) {
  char base[4096];
  if (!p || !dir || !cuzk_snap_param_base(base, sizeof base, dir, p))
    return cuzk_snap_fail(msg, len, CUZK_SNAP_EINVAL, "setup: no proof or the path is too long");
  cuzk_g16_err e =
      cuzk_g16_setup_test_params(base, p->sector->bytes, blank, p, pool, progress, gen_s, msg, len);
  return e == CUZK_G16_OK       ? CUZK_SNAP_OK
         : e == CUZK_G16_ENOMEM ? CUZK_SNAP_ENOMEM
                                : CUZK_SNAP_EINVAL;
}

cuzk_snap_err cuzk_snap_verify(bool *ok, const cuzk_snap_request *rq, const cuzk_g16_pvk *pvk,
                               const cuzk_g16_proof *proofs) {
  if (!ok || !rq || !rq->proof || !pvk || !proofs) return CUZK_SNAP_EINVAL;
  *ok = false;
  const unsigned n = rq->proof->partitions;
  cuzk_fr in[CUZK_SNAP_MAX_PARTITIONS][CUZK_SNAP_PUBLIC_INPUTS];
  const cuzk_fr *rows[CUZK_SNAP_MAX_PARTITIONS];
  for (unsigned k = 0; k < n; k++) {
    if (cuzk_snap_public_inputs(in[k], rq->proof, k, rq->comm_r_old, rq->comm_d_new,
                                rq->comm_r_new))
      return CUZK_SNAP_EINVAL;
    rows[k] = in[k];
  }
  return cuzk_g16_verify_batch(ok, pvk, proofs, rows, CUZK_SNAP_PUBLIC_INPUTS, n) ? CUZK_SNAP_ENOMEM
                                                                                  : CUZK_SNAP_OK;
}
