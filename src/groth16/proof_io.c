/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The 192-byte proof encoding (docs/spec/groth16.md §2.3): compressed A, B, C, each fully checked,
 * the identity rejected as in bellperson's Proof::read. */
#include <string.h>

#include "groth16/g16_internal.h"

#define PA 0
#define PB CUZK_G1_COMPRESSED_BYTES
#define PC (CUZK_G1_COMPRESSED_BYTES + CUZK_G2_COMPRESSED_BYTES)

void cuzk_g16_proof_write(uint8_t out[CUZK_G16_PROOF_BYTES], const cuzk_g16_proof *p) {
  cuzk_g1_to_compressed(out + PA, &p->a);
  cuzk_g2_to_compressed(out + PB, &p->b);
  cuzk_g1_to_compressed(out + PC, &p->c);
}

cuzk_g16_err cuzk_g16_proof_read(cuzk_g16_proof *p, const uint8_t in[CUZK_G16_PROOF_BYTES]) {
  if (!p || !in) return CUZK_G16_EINVAL;
  cuzk_g16_proof r;
  cuzk_ec_err e = cuzk_g1_from_compressed(&r.a, in + PA);
  if (e == CUZK_EC_OK) e = cuzk_g2_from_compressed(&r.b, in + PB);
  if (e == CUZK_EC_OK) e = cuzk_g1_from_compressed(&r.c, in + PC);
  if (e != CUZK_EC_OK) return g16_from_ec(e);
  if (cuzk_g1_affine_is_infinity(&r.a) || cuzk_g2_affine_is_infinity(&r.b) ||
      cuzk_g1_affine_is_infinity(&r.c))
    return CUZK_G16_EINFINITY;
  *p = r;
  return CUZK_G16_OK;
}

cuzk_g16_err cuzk_g16_proofs_read(cuzk_g16_proof *p, size_t n, const uint8_t *in, size_t len) {
  if (n && (!p || !in)) return CUZK_G16_EINVAL;
  if (len % CUZK_G16_PROOF_BYTES || len / CUZK_G16_PROOF_BYTES != n) return CUZK_G16_ECOUNT;
  for (size_t i = 0; i < n; i++) {
    cuzk_g16_err e = cuzk_g16_proof_read(&p[i], in + i * CUZK_G16_PROOF_BYTES);
    if (e != CUZK_G16_OK) return e;
  }
  return CUZK_G16_OK;
}
