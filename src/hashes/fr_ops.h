/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Fr operations for the Poseidon inner loops: products go straight to the field layer's kernel
 * table (no wrapper call), additions use its branch-free limb helpers, and dot products are
 * reduced lazily (below).
 */
#ifndef CUZK_HASHES_FR_OPS_H
#define CUZK_HASHES_FR_OPS_H

#include "cuzk/field/field.h"
#include "field/consts.h"
#include "field/limbs.h"
#include "field/mont.h"

static inline void hfr_mul(cuzk_fr *r, const cuzk_fr *a, const cuzk_fr *b) {
  cuzk_mont.fr_mul(r->l, a->l, b->l);
}

/* r = a + b mod r: the field layer's branch-free limb addition (limbs.h). */
static inline void hfr_add(cuzk_fr *r, const cuzk_fr *a, const cuzk_fr *b) {
  limbs_add_mod(r->l, a->l, b->l, CUZK_R, 4);
}

/* r = a^5 = a * (a^2)^2: 2 squarings + 1 product (the Poseidon S-box). */
static inline void hfr_pow5(cuzk_fr *r, const cuzk_fr *a) {
  cuzk_fr x2, x4;
  cuzk_mont.fr_sqr(x2.l, a->l);
  cuzk_mont.fr_sqr(x4.l, x2.l);
  cuzk_mont.fr_mul(r->l, x4.l, a->l);
}

/*
 * Lazy dot products: sum_i a_i b_i with one reduction instead of one per term.
 *
 * acc is a plain 9-limb integer; hfr_mac adds the 512-bit product a*b to it. With a, b < r < 2^255
 * each product is < 2^510, so up to 64 terms stay below 2^516 (Poseidon needs at most 37).
 * hfr_redc320 is Montgomery reduction by five limbs: it returns acc * 2^-320 mod r, and since
 * (acc + m*r) / 2^320 < 2^196 + r < 2r for acc < 2^516 and m < 2^320, one conditional subtraction
 * finishes it. The extra 2^-64 against a Montgomery product is cancelled by storing one factor
 * (the Poseidon matrices) pre-multiplied by 2^64: (xR)(y 2^64 R) 2^-320 = xyR.
 * Cost: 16 + 20 word products for a term and the reduction, against 32 per Montgomery product.
 */
static inline void hfr_mac(uint64_t acc[9], const cuzk_fr *a, const cuzk_fr *b) {
  uint64_t p[8] = {0};
  for (int i = 0; i < 4; i++) {
    uint64_t c = 0;
    for (int j = 0; j < 4; j++) {
      cuzk_u128 t = (cuzk_u128)a->l[i] * b->l[j] + p[i + j] + c;
      p[i + j] = (uint64_t)t;
      c = (uint64_t)(t >> 64);
    }
    p[i + 4] = c;
  }
  uint8_t c = 0;
  for (int k = 0; k < 8; k++)
    c = limb_addc(c, acc[k], p[k], &acc[k]);
  acc[8] += c;
}

static inline void hfr_redc320(cuzk_fr *r, const uint64_t acc[9]) {
  uint64_t t[10];
  for (int k = 0; k < 9; k++)
    t[k] = acc[k];
  t[9] = 0;
  for (int i = 0; i < 5; i++) {
    uint64_t m = t[i] * CUZK_R_N0, c = 0; /* makes t[i] zero */
    for (int j = 0; j < 4; j++) {
      cuzk_u128 x = (cuzk_u128)m * CUZK_R[j] + t[i + j] + c;
      t[i + j] = (uint64_t)x;
      c = (uint64_t)(x >> 64);
    }
    for (int k = i + 4; k < 10; k++) {
      cuzk_u128 x = (cuzk_u128)t[k] + c;
      t[k] = (uint64_t)x;
      c = (uint64_t)(x >> 64);
    }
  }
  /* t[5..9) < 2r, t[9] = 0 */
  uint64_t d[4];
  uint8_t b = 0;
  for (int k = 0; k < 4; k++)
    b = limb_subb(b, t[5 + k], CUZK_R[k], &d[k]);
  uint64_t keep = 0 - (uint64_t)b;
#if defined(__GNUC__)
  __asm__("" : "+r"(keep));
#endif
  for (int k = 0; k < 4; k++)
    r->l[k] = (t[5 + k] & keep) | (d[k] & ~keep);
}

#endif
