/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Witness classification (classify.h). Fr's Montgomery one is compared limb by limb: no
 * conversion is needed to recognise 0 and 1. */
#include "msm/classify.h"

#include "field/limbs.h"

void msm_classify(uint64_t *ones, uint64_t *tail, const cuzk_fr *scalars, size_t n,
                  const uint64_t *density, size_t w0, size_t w1, msm_class_counts *cnt) {
  msm_class_counts c = {0, 0, 0};
  for (size_t w = w0; w < w1; w++) {
    uint64_t pres = msm_present_word(density, n, w), o = 0, t = 0;
    c.present += (size_t)__builtin_popcountll(pres);
    for (uint64_t m = pres; m; m &= m - 1) {
      unsigned b = (unsigned)__builtin_ctzll(m);
      const cuzk_fr *s = &scalars[64 * w + b];
      if (limbs_is_zero(s->l, 4)) continue;
      if (limbs_eq(s->l, cuzk_fr_one.l, 4))
        o |= 1ULL << b;
      else
        t |= 1ULL << b;
    }
    ones[w] = o;
    tail[w] = t;
    c.ones += (size_t)__builtin_popcountll(o);
    c.tail += (size_t)__builtin_popcountll(t);
  }
  *cnt = c;
}
