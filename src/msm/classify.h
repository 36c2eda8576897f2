/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Witness classification (docs/spec/groth16.md §8.4): which scalars are 0 (skipped), 1 (summed by
 * batch addition) or anything else (the Pippenger tail), as bitmaps over the variable index j in
 * the density's layout (64-bit words, LSB first).
 */
#ifndef CUZK_MSM_CLASSIFY_H
#define CUZK_MSM_CLASSIFY_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/field/field.h"

typedef struct {
  size_t present; /* variables with a base (density bits set) in the range */
  size_t ones, tail;
} msm_class_counts;

/* For words [w0, w1) of the n variables: ones[w] and tail[w] get the bits of present variables
 * whose scalar is 1, resp. neither 0 nor 1; density NULL = every variable present. */
void msm_classify(uint64_t *ones, uint64_t *tail, const cuzk_fr *scalars, size_t n,
                  const uint64_t *density, size_t w0, size_t w1, msm_class_counts *cnt);

/* Variables present in word w (the density word with bits at or beyond n cleared). */
static inline uint64_t msm_present_word(const uint64_t *density, size_t n, size_t w) {
  uint64_t m = (n - 64 * w >= 64) ? ~0ULL : (1ULL << (n - 64 * w)) - 1;
  return density ? density[w] & m : m;
}

#endif
