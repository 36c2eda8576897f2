/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * blst's Pippenger on cuzk's bases and scalars, for `bench/msm --vs-blst` (built only with
 * -DCUZK_BLST_DIR: blst is not a Debian package and is never vendored; see bench/vs_blst.c).
 * The bases are converted once (uncompressed encoding, read back by blst); each call runs
 * blst_p{1,2}s_mult_pippenger on one thread, or on two threads over the two halves of the points
 * with the halves' sums added, and returns the result's uncompressed encoding, so that the
 * caller compares it byte for byte with cuzk's.
 */
#ifndef CUZK_BENCH_MSM_BLST_H
#define CUZK_BENCH_MSM_BLST_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/curve/curve.h"

/* Converts the first n bases (once per size: call again for a larger n). */
void msm_blst_g1_bases(const cuzk_g1_affine *b, size_t n);
void msm_blst_g2_bases(const cuzk_g2_affine *b, size_t n);
/* The scalars as blst reads them (canonical, 32 little-endian bytes), outside the timing: blst
 * takes bytes, cuzk its Montgomery form (converting inside its MSM). */
void msm_blst_scalars(const cuzk_fr *k, size_t n);
/* sum k[i] * b[i] for i < n over the converted bases and scalars; halves: the two halves on two
 * threads. out: the uncompressed encoding, 96 / 192 bytes. */
void msm_blst_g1(uint8_t out[96], size_t n, int halves);
void msm_blst_g2(uint8_t out[192], size_t n, int halves);
void msm_blst_free(void);

#endif
