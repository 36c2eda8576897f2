/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Update parameter files (docs/spec/snap-circuit.md §9): their Filecoin names, TEST parameters,
 * and verification of all partitions of a request in one batch. */
#include <stdio.h>
#include <stdlib.h>

#include "snap/snap_internal.h"

cuzk_snap_err cuzk_snap_cache_id(char *out, size_t len, const cuzk_snap_proof *p) {
  if (!out || !p || !p->sector) return CUZK_SNAP_EINVAL;
  const cuzk_sector_info *si = p->sector;
  char prefix[128], ident[128];
  snprintf(prefix, sizeof prefix, "empty-sector-update-merkletree-poseidon_hasher-%u-%u-%u",
           si->base_arity, si->sub_arity, si->top_arity);
  /* the Debug text of empty_sector_update::PublicParams, spaces inside the braces included */
  snprintf(ident, sizeof ident, "empty_sector_update::PublicParams{ sector_nodes: %llu }",
           (unsigned long long)si->nodes);
  return cuzk_g16_cache_id(out, len, prefix, ident) ? CUZK_SNAP_EINVAL : CUZK_SNAP_OK;
}

bool cuzk_snap_param_base(char *out, size_t len, const char *dir, const cuzk_snap_proof *p) {
  char id[256];
  if (!out || !dir || cuzk_snap_cache_id(id, sizeof id, p)) return false;
  int n = snprintf(out, len, "%s/v%d-%s", dir, CUZK_G16_PARAMS_VERSION, id);
  return n > 0 && (size_t)n < len;
}

cuzk_snap_err cuzk_snap_setup_test_params(const cuzk_snap_proof *p, const char *dir,
                                          cuzk_pool *pool, double *gen_s, char *msg, size_t len) {
  char base[4096];
  if (!p || !dir || !cuzk_snap_param_base(base, sizeof base, dir, p))
    return cuzk_snap_fail(msg, len, CUZK_SNAP_EINVAL, "setup: no proof or the path is too long");
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, CUZK_CS_RECORD);
  cuzk_cs *cs;
  if (cuzk_cs_create(&cs, &o))
    return cuzk_snap_fail(msg, len, CUZK_SNAP_ENOMEM, "setup: out of memory");
  char sub[400];
  cuzk_snap_err e = cuzk_snap_synthesize(cs, p, NULL, 0, sub, sizeof sub);
  if (e)
    e = cuzk_snap_fail(msg, len, e, "setup: %s", sub);
  else if (cuzk_g16_write_test_params(base, cs, p->sector->bytes, pool, gen_s, msg, len))
    e = CUZK_SNAP_EINVAL;
  cuzk_cs_destroy(cs);
  return e;
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
