/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The IFMA flushes' lane helpers (batch_affine_ifma.inc for G1, batch_affine_ifma_g2.inc for G2;
 * docs/msm.md "The 8-lane IFMA flush"): eight records' coordinates gathered into 52-bit limb
 * vectors from the scalar form's words, and scattered back, through an 8 x 8 word transpose.
 */
#ifndef CUZK_MSM_LANES_IFMA_H
#define CUZK_MSM_LANES_IFMA_H

#include "field/fp_ifma.h"

#if CUZK_FP_IFMA

/* 8 x 8 transpose of 64-bit words: r[k] (row k) -> r[j] (column j), in place. */
FP52_INLINE void lanes_transpose(__m512i *r) {
  const __m512i lo = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
  const __m512i hi = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
  __m512i t[8], u[8];
  for (int i = 0; i < 4; i++) {
    t[2 * i] = _mm512_unpacklo_epi64(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm512_unpackhi_epi64(r[2 * i], r[2 * i + 1]);
  }
  /* u[c] for rows 0..3 (c < 4) or 4..7 (c >= 4): columns c % 4 and c % 4 + 4 */
  for (int h = 0; h < 2; h++) {
    u[4 * h + 0] = _mm512_permutex2var_epi64(t[4 * h], lo, t[4 * h + 2]);
    u[4 * h + 2] = _mm512_permutex2var_epi64(t[4 * h], hi, t[4 * h + 2]);
    u[4 * h + 1] = _mm512_permutex2var_epi64(t[4 * h + 1], lo, t[4 * h + 3]);
    u[4 * h + 3] = _mm512_permutex2var_epi64(t[4 * h + 1], hi, t[4 * h + 3]);
  }
  for (int c = 0; c < 4; c++) {
    r[c] = _mm512_shuffle_i64x2(u[c], u[4 + c], 0x44);
    r[c + 4] = _mm512_shuffle_i64x2(u[c], u[4 + c], 0xee);
  }
}

/* Words of eight scalar-form elements (lane l at w[l], 6 words) -> 52-bit limbs, same bits. */
FP52_INLINE void lanes_gather(fp52x8 *v, const uint64_t *const w[8]) {
  __m512i r[8];
  for (int l = 0; l < 8; l++)
    r[l] = _mm512_maskz_loadu_epi64(0x3f, w[l]);
  lanes_transpose(r);
  fp52x8_split_words(v, r);
}

/* The inverse for the lanes in mask, reduced from [0, 2p) to [0, p) on the way. */
FP52_INLINE void lanes_scatter(uint64_t *const w[8], const fp52x8 *v, __mmask8 mask) {
  fp52x8 x;
  fp52_cond_sub(&x, v->l, cuzk_fp52_c.p);
  __m512i r[8];
  fp52x8_join_words(r, &x);
  r[6] = r[7] = _mm512_setzero_si512();
  lanes_transpose(r);
  for (int l = 0; l < 8; l++)
    if (mask >> l & 1) _mm512_mask_storeu_epi64(w[l], 0x3f, r[l]);
}

/* r = 2^16 a for a < 2p (< 2^382, so limb 7 < 2^18): < 2^398, limbs normalized. r may be a. */
FP52_INLINE void lanes_shl16(fp52x8 *r, const fp52x8 *a) {
  const __m512i m = fp52_bc(FP52_M);
  for (int j = 7; j > 0; j--)
    r->l[j] = _mm512_or_si512(_mm512_and_si512(_mm512_slli_epi64(a->l[j], 16), m),
                              _mm512_srli_epi64(a->l[j - 1], 36));
  r->l[0] = _mm512_and_si512(_mm512_slli_epi64(a->l[0], 16), m);
}

#endif
#endif
