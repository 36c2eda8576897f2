/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Internal helpers of the SnapDeals layer. */
#ifndef CUZK_SNAP_INTERNAL_H
#define CUZK_SNAP_INTERNAL_H

#include <stddef.h>

#include "cuzk/snap/snap.h"
#include "cuzk/util/errmsg.h"

/* Formats the message into msg (if msg && len) and evaluates to e (cuzk/util/errmsg.h). */
#define cuzk_snap_fail CUZK_FAIL

/* The TreeR and TreeD shapes of p (docs/bincode.md "MerkleProof"). */
void snap_shape_r(cuzk_merkle_shape *s, const cuzk_snap_proof *p);
void snap_shape_d(cuzk_merkle_shape *s, const cuzk_snap_proof *p);

/* Views of one path (the bincode and root helpers of cuzk/filecoin/bincode.h read and write through
 * them). */
cuzk_merkle_view snap_view_r(const cuzk_snap_path_r *r);
cuzk_merkle_view snap_view_d(const cuzk_snap_path_d *d);

/* rho's index for node c: its h high bits. */
static inline uint64_t snap_high(const cuzk_snap_proof *p, uint64_t c) {
  return c >> (p->cbl - p->h);
}

#endif
