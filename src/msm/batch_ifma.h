/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The batched affine addition of batch_affine.inc on the 8-lane IFMA Fp kernel
 * (field/fp_ifma.h), for G1, on points held in 52-form: a standalone kernel (issue #16) for the
 * tests and benchmarks. The MSM runs the same flush on its scalar-form points without converting
 * them (batch_affine_ifma.inc, msm_g1_batch_adds_ifma; docs/msm.md).
 *
 * Points live in the kernel's 52-form (docs/bls12-381.md "IFMA Fp"): x and y as eight 52-bit
 * limbs each, values in [0, 2p), so that one coordinate is one 64-byte vector and eight points
 * transpose into limb vectors with shuffles. Conversions are one Montgomery product per
 * coordinate.
 *
 * Call only when cuzk_field_ifma_enabled() (cuzk/field/field.h); the scalar batch is the fallback.
 */
#ifndef CUZK_MSM_BATCH_IFMA_H
#define CUZK_MSM_BATCH_IFMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/curve/curve.h"

typedef struct {
  uint64_t x[8], y[8]; /* 52-form coordinates of an affine point, never infinity */
} __attribute__((aligned(64))) msm_g1_aff52;

#define MSM_IFMA_NEG_BIT 0x80000000u

/* out[i] = in[i] in 52-form (in[i] not infinity), and back (fully reduced). */
void msm_g1_aff52_from(msm_g1_aff52 *out, const cuzk_g1_affine *in, size_t n);
void msm_g1_aff52_to(cuzk_g1_affine *out, const msm_g1_aff52 *in, size_t n);

/* Scratch bytes msm_g1_batch_add_ifma needs for k additions. */
size_t msm_g1_batch_ifma_scratch(size_t k);

/*
 * For e < k, with i = idx[e] & ~MSM_IFMA_NEG_BIT: acc[i] += pt[e], negated when idx[e] has
 * MSM_IFMA_NEG_BIT, all with one field inversion (batch_affine.inc's flush: addition e in lane
 * e % 8, a prefix-product chain per lane, the eight chain ends inverted together). The
 * accumulators of one call must be distinct. An addition without a slope (x equal: P = +-A) is
 * not done: skipped[e] = 1 (the caller's XYZZ side path), else 0. scratch: 64-byte aligned,
 * msm_g1_batch_ifma_scratch(k) bytes.
 */
void msm_g1_batch_add_ifma(msm_g1_aff52 *acc, const uint32_t *idx, const msm_g1_aff52 *const *pt,
                           size_t k, uint8_t *skipped, void *scratch);

/* The scalar flush (batch_affine.inc) behind the same interface on scalar points, for the
 * tests; n accumulators. False if out of memory. */
bool msm_g1_batch_add_scalar(cuzk_g1_affine *acc, size_t n, const uint32_t *idx,
                             const cuzk_g1_affine *const *pt, size_t k, uint8_t *skipped);

/* The same with the flush the MSM runs when IFMA is enabled (batch_affine_ifma.inc: eight lanes
 * on the scalar-form points, no conversion); false if out of memory or IFMA not enabled. The
 * accumulators and skipped flags must equal msm_g1_batch_add_scalar's, byte for byte. */
bool msm_g1_batch_add_lanes(cuzk_g1_affine *acc, size_t n, const uint32_t *idx,
                            const cuzk_g1_affine *const *pt, size_t k, uint8_t *skipped);

/* The same two for G2 (batch_affine_ifma_g2.inc: Fp2 on eight lanes), for tests. */
bool msm_g2_batch_add_scalar(cuzk_g2_affine *acc, size_t n, const uint32_t *idx,
                             const cuzk_g2_affine *const *pt, size_t k, uint8_t *skipped);
bool msm_g2_batch_add_lanes(cuzk_g2_affine *acc, size_t n, const uint32_t *idx,
                            const cuzk_g2_affine *const *pt, size_t k, uint8_t *skipped);

#endif
