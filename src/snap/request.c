/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* An update request checked before proving (docs/snap.md "Requests") and the public inputs of a
 * partition (docs/spec/snap-circuit.md §8). */
#include <string.h>

#include "snap/snap_internal.h"

void cuzk_snap_request_free(cuzk_snap_request *rq) {
  if (!rq) return;
  for (unsigned k = 0; k < CUZK_SNAP_MAX_PARTITIONS; k++)
    cuzk_snap_partition_free(&rq->parts[k]);
  memset(rq, 0, sizeof *rq);
}

/* Each commitment canonical (as_safe_commitment: rejected, never reduced). */
static cuzk_snap_err check_comm(const uint8_t c[32], const char *name, char *msg, size_t len) {
  cuzk_fr f;
  if (!c) return cuzk_snap_fail(msg, len, CUZK_SNAP_EINVAL, "%s: missing", name);
  if (!cuzk_fr_from_bytes(&f, c))
    return cuzk_snap_fail(msg, len, CUZK_SNAP_EINVAL, "%s: not a canonical field element", name);
  return CUZK_SNAP_OK;
}

cuzk_snap_err cuzk_snap_request_init(cuzk_snap_request *rq, const cuzk_snap_proof *p,
                                     const uint8_t comm_r_old[32], const uint8_t comm_d_new[32],
                                     const uint8_t comm_r_new[32], const uint8_t *const *vanilla,
                                     const size_t *vanilla_len, size_t n, char *msg, size_t len) {
  if (!rq || !p || (n && (!vanilla || !vanilla_len)))
    return cuzk_snap_fail(msg, len, CUZK_SNAP_EINVAL, "update request: NULL argument");
  memset(rq, 0, sizeof *rq);
  cuzk_snap_err e;
  if ((e = check_comm(comm_r_old, "comm_r_old", msg, len)) ||
      (e = check_comm(comm_d_new, "comm_d_new", msg, len)) ||
      (e = check_comm(comm_r_new, "comm_r_new", msg, len)))
    return e;
  /* the reference takes any count and makes a shorter, unverifiable proof: refuse instead */
  if (n != p->partitions)
    return cuzk_snap_fail(msg, len, CUZK_SNAP_EINVAL,
                          "vanilla_proofs: %zu elements, but %s has %u partitions", n, p->name,
                          p->partitions);
  rq->proof = p;
  memcpy(rq->comm_r_old, comm_r_old, 32);
  memcpy(rq->comm_d_new, comm_d_new, 32);
  memcpy(rq->comm_r_new, comm_r_new, 32);
  char sub[400];
  for (unsigned k = 0; k < n; k++) {
    if ((e = cuzk_snap_vanilla_read(&rq->parts[k], p, vanilla[k], vanilla_len[k], sub,
                                    sizeof sub)) ||
        (e = cuzk_snap_vanilla_verify(p, k, comm_r_old, comm_d_new, comm_r_new, &rq->parts[k], sub,
                                      sizeof sub))) {
      cuzk_snap_request_free(rq);
      return cuzk_snap_fail(msg, len, e, "vanilla_proofs[%u]: %s", k, sub);
    }
  }
  return CUZK_SNAP_OK;
}

cuzk_snap_err cuzk_snap_public_inputs(cuzk_fr out[CUZK_SNAP_PUBLIC_INPUTS],
                                      const cuzk_snap_proof *p, unsigned k,
                                      const uint8_t comm_r_old[32], const uint8_t comm_d_new[32],
                                      const uint8_t comm_r_new[32]) {
  if (!out || !p || k >= p->partitions || !comm_r_old || !comm_d_new || !comm_r_new)
    return CUZK_SNAP_EINVAL;
  cuzk_fr_from_u64(&out[0], (uint64_t)k | (uint64_t)p->h_select << p->pbl);
  if (!cuzk_fr_from_bytes(&out[1], comm_r_old) || !cuzk_fr_from_bytes(&out[2], comm_d_new) ||
      !cuzk_fr_from_bytes(&out[3], comm_r_new))
    return CUZK_SNAP_EINVAL;
  return CUZK_SNAP_OK;
}
