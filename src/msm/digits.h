/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Scalars as Pippenger reads them: canonical little-endian limbs, halved in range, cut into
 * signed (Booth) window digits.
 *
 * Halving: a scalar s > (r-1)/2 is replaced by r - s (then below 2^254) and the point's digits
 * are negated, as sppark does. With every scalar below 2^254, ceil(255/c) windows of c bits
 * suffice: the top window's top bit is 0, so its digit cannot carry out. The "negated" mark
 * lives in bit 255 (bit 63 of limb 3), which the halved value never uses.
 *
 * Booth digit of window w: with v = bits [wc - 1, wc + c - 1] of s (bit -1 = 0),
 *   d_w = floor(v / 2) + (v & 1) - 2^c * (bit c of v),  in [-2^(c-1), 2^(c-1)],
 * and sum_w d_w 2^(wc) = s: each window borrows its top bit from the next window's low bit.
 * A digit d != 0 selects bucket |d| - 1 of 2^(c-1) and the point's sign.
 */
#ifndef CUZK_MSM_DIGITS_H
#define CUZK_MSM_DIGITS_H

#include <stdbool.h>
#include <stdint.h>

#include "cuzk/field/field.h"
#include "field/consts.h"
#include "field/limbs.h"

#define MSM_NEG_FLAG (1ULL << 63)

/* out = canonical(s), halved and marked as above. */
static inline void msm_prep_scalar(uint64_t out[4], const cuzk_fr *s) {
  uint64_t c[4];
  cuzk_fr_to_canonical(c, s);
  if (limbs_lt(CUZK_R_HALF, c, 4)) {
    uint8_t b = 0;
    for (int i = 0; i < 4; i++)
      b = limb_subb(b, CUZK_R[i], c[i], &out[i]);
    out[3] |= MSM_NEG_FLAG;
  } else {
    for (int i = 0; i < 4; i++)
      out[i] = c[i];
  }
}

static inline unsigned msm_windows(unsigned c) { return (255 + c - 1) / c; }

/* Signed digit of window w of width c (1 <= c <= 20) of a prepared scalar, sign already
 * flipped for a halved scalar. */
static inline int32_t msm_digit(const uint64_t s[4], unsigned w, unsigned c) {
  uint64_t v;
  unsigned off = w * c;
  if (off == 0) {
    v = s[0] << 1;
  } else {
    off -= 1;
    unsigned limb = off >> 6, sh = off & 63;
    uint64_t lo = limb == 3 ? s[3] & ~MSM_NEG_FLAG : s[limb];
    v = lo >> sh;
    if (sh + c + 1 > 64 && limb < 3) {
      uint64_t hi = limb + 1 == 3 ? s[3] & ~MSM_NEG_FLAG : s[limb + 1];
      v |= hi << (64 - sh);
    }
  }
  v &= (2ULL << c) - 1;
  int32_t d = (int32_t)((v >> 1) + (v & 1)) - (int32_t)((v >> c) << c);
  return (s[3] & MSM_NEG_FLAG) ? -d : d;
}

#endif
