/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Fp, the 381-bit base field: arithmetic from the shared template plus square roots, the ZCash
 * sign and the 48-byte big-endian codec. */
#include "cuzk/field/field.h"
#include "field/consts.h"

#define PF_T cuzk_fp
#define PF(x) cuzk_fp_##x
#define PF_N 6
#define PF_MOD CUZK_P
#define PF_R2 CUZK_P_R2
#define PF_R3 CUZK_P_R3
#define PF_HALF CUZK_P_HALF
#define PF_MUL fp_mul
#define PF_SQR fp_sqr
#define PF_MODINV cuzk_modinv_384
#include "field/prime_field.inc"

/* p = 3 mod 4, so a^((p+1)/4) is a root whenever one exists. */
bool cuzk_fp_sqrt(cuzk_fp *r, const cuzk_fp *a) {
  cuzk_fp s, s2;
  cuzk_fp_pow(&s, a, CUZK_P_SQRT_EXP, 6);
  cuzk_fp_sqr(&s2, &s);
  if (!cuzk_fp_eq(&s2, a)) return false;
  *r = s;
  return true;
}

bool cuzk_fp_sgn(const cuzk_fp *a) {
  uint64_t x[6];
  cuzk_fp_to_canonical(x, a);
  return limbs_lt(CUZK_P_HALF, x, 6);
}

bool cuzk_fp_from_bytes(cuzk_fp *r, const uint8_t in[48]) {
  uint64_t x[6];
  for (int i = 0; i < 6; i++) {
    uint64_t v = 0;
    for (int j = 0; j < 8; j++)
      v = (v << 8) | in[(5 - i) * 8 + j];
    x[i] = v;
  }
  return cuzk_fp_from_canonical(r, x);
}

void cuzk_fp_to_bytes(uint8_t out[48], const cuzk_fp *a) {
  uint64_t x[6];
  cuzk_fp_to_canonical(x, a);
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 8; j++)
      out[(5 - i) * 8 + j] = (uint8_t)(x[i] >> (56 - 8 * j));
}
