/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* phi, rho and the challenges of a partition (docs/spec/snap-circuit.md §3-§4): all three are
 * arity-2 Poseidon with the custom domain tag 2^40 and the ordinary arity-2 constants. */
#include <string.h>

#include "cuzk/hashes/poseidon.h"
#include "snap/snap_internal.h"

void cuzk_snap_hash_gen(cuzk_fr *out, const cuzk_fr *a, const cuzk_fr *b) {
  const cuzk_poseidon_params *p2;
  cuzk_fr tag, in[2] = {*a, *b};
  /* arity 2 is built in and tag id 1 is in range: neither call can fail */
  (void)cuzk_poseidon_params_get(&p2, 2);
  (void)cuzk_poseidon_tag_custom(&tag, 1);
  cuzk_poseidon_hash_tagged(out, p2, &tag, in);
}

bool cuzk_snap_phi(cuzk_fr *phi, const uint8_t comm_d_new[32], const uint8_t comm_r_old[32]) {
  cuzk_fr d, r;
  if (!phi || !comm_d_new || !comm_r_old || !cuzk_fr_from_bytes(&d, comm_d_new) ||
      !cuzk_fr_from_bytes(&r, comm_r_old))
    return false;
  cuzk_snap_hash_gen(phi, &d, &r);
  return true;
}

void cuzk_snap_rho(cuzk_fr *rho, const cuzk_fr *phi, uint64_t high) {
  cuzk_fr h;
  cuzk_fr_from_u64(&h, high);
  cuzk_snap_hash_gen(rho, phi, &h);
}

bool cuzk_snap_challenges(uint64_t *out, const cuzk_snap_proof *p, const uint8_t comm_r_new[32],
                          unsigned k) {
  cuzk_fr r;
  if (!out || !p || !comm_r_new || k >= p->partitions || !cuzk_fr_from_bytes(&r, comm_r_new))
    return false;
  uint64_t di = (uint64_t)k * p->digests; /* digest indices are global across partitions */
  uint64_t bits[4] = {0};
  unsigned i = 0;
  for (unsigned n = 0; n < p->challenges; n++) {
    if (i == 0) {
      cuzk_fr x, dg;
      cuzk_fr_from_u64(&x, di);
      cuzk_snap_hash_gen(&dg, &r, &x);
      cuzk_fr_to_canonical(bits, &dg);
    }
    /* rb consecutive bits of the digest, LSB first, then the partition in the top pbl bits */
    uint64_t c = 0;
    for (unsigned j = 0; j < p->rb; j++) {
      unsigned b = i * p->rb + j;
      c |= ((bits[b / 64] >> (b % 64)) & 1) << j;
    }
    out[n] = c | (uint64_t)k << p->rb;
    if (++i == p->cpd) {
      i = 0;
      di++;
    }
  }
  return true;
}
