/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Fr, the 255-bit scalar field: arithmetic from the shared template plus the 32-byte
 * little-endian codec of Scalar::to_repr (docs/spec/groth16.md §1.7). */
#include "cuzk/field/field.h"
#include "field/consts.h"

#define PF_T cuzk_fr
#define PF(x) cuzk_fr_##x
#define PF_N 4
#define PF_MOD CUZK_R
#define PF_R2 CUZK_R_R2
#define PF_R3 CUZK_R_R3
#define PF_HALF CUZK_R_HALF
#define PF_MUL fr_mul
#define PF_SQR fr_sqr
#define PF_MODINV cuzk_modinv_256
#include "field/prime_field.inc"

bool cuzk_fr_from_bytes(cuzk_fr *r, const uint8_t in[32]) {
  uint64_t x[4];
  for (int i = 0; i < 4; i++) {
    uint64_t v = 0;
    for (int j = 7; j >= 0; j--)
      v = (v << 8) | in[i * 8 + j];
    x[i] = v;
  }
  return cuzk_fr_from_canonical(r, x);
}

void cuzk_fr_to_bytes(uint8_t out[32], const cuzk_fr *a) {
  uint64_t x[4];
  cuzk_fr_to_canonical(x, a);
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 8; j++)
      out[i * 8 + j] = (uint8_t)(x[i] >> (8 * j));
}
