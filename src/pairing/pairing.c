/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The pairing and the product check: Miller loop(s), then one final exponentiation. */
#include "cuzk/pairing/pairing.h"

void cuzk_pairing(cuzk_fp12 *r, const cuzk_g1_affine *p, const cuzk_g2_affine *q) {
  cuzk_fp12 f;
  cuzk_miller_loop(&f, p, q);
  cuzk_final_exp(r, &f);
}

bool cuzk_pairing_product_is_one(const cuzk_g1_affine *p, const cuzk_g2_prepared *q, size_t n) {
  cuzk_fp12 f;
  cuzk_multi_miller_loop(&f, p, q, n);
  cuzk_final_exp(&f, &f);
  return cuzk_fp12_is_one(&f);
}
