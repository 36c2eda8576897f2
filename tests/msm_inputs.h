/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Witness-like MSM inputs shared by the MSM tests (test_msm, test_msm_stream). */
#ifndef CUZK_TESTS_MSM_INPUTS_H
#define CUZK_TESTS_MSM_INPUTS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cuzk/field/field.h"
#include "rng.h"

/* Witness-like scalars: zero_pct % zeros, one_pct % ones, the rest random. */
static inline void witness_scalars(uint64_t *s, cuzk_fr *out, size_t n, unsigned zero_pct,
                                   unsigned one_pct) {
  for (size_t i = 0; i < n; i++) {
    unsigned u = (unsigned)(rng_next(s) % 100);
    if (u < zero_pct)
      out[i] = cuzk_fr_zero;
    else if (u < zero_pct + one_pct)
      out[i] = cuzk_fr_one;
    else
      rng_fr(s, &out[i]);
  }
}

/* A density bitmap over n variables with about pct % bits set; returns how many. Bits at and
 * beyond n are set too: an MSM must ignore them. */
static inline size_t random_density(uint64_t *s, uint64_t *dens, size_t n, unsigned pct) {
  size_t words = (n + 63) / 64, cnt = 0;
  memset(dens, 0, words * sizeof *dens);
  for (size_t j = 0; j < n; j++)
    if (rng_next(s) % 100 < pct) {
      dens[j / 64] |= 1ULL << (j % 64);
      cnt++;
    }
  if (n % 64) dens[words - 1] |= ~0ULL << (n % 64);
  return cnt;
}

#endif
