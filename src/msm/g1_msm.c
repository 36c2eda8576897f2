/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* MSM over G1 (E(Fp)): the shared templates instantiated with Fp coordinates. */
#include <string.h>

#include "cuzk/msm/msm.h"
#include "cuzk/msm/msm_calibration.h"
#include "field/fp_inline.h"
#include "msm/classify.h"
#include "msm/digits.h"
#include "msm/plan.h"
#include "msm/workers.h"

#define MSM(x) msm_g1_##x
#define EC(x) cuzk_g1_##x
#define EC_AFF cuzk_g1_affine
#define EC_JAC cuzk_g1
#define F(x) cuzk_fp_##x
#define F_T cuzk_fp
#define F_IS_ZERO(a) limbs_is_zero((a)->l, 6) /* inline: tested once per bucket addition */
/* batch_affine.inc's additions on eight IFMA lanes when enabled (batch_affine_ifma.inc), with
 * one 52-bit-limb vector per eight additions in den and pre */
#define MSM_BATCH_ADDS_LANES msm_g1_batch_adds_ifma
#define MSM_DEN_BYTES 64
/* The templates in dependency order, each using those above it. */
/* clang-format off */
#include "msm/xyzz.inc"
#include "msm/batch_affine.inc"
#include "msm/reduce.inc"
#include "msm/pippenger.inc"
#include "msm/witness.inc"
#include "msm/stream.inc"   /* the same over streamed bases */
#include "msm/batch_affine_ifma.inc" /* the IFMA flush (and msm/batch_ifma.h) */
#include "msm/sums.inc"                /* cuzk/msm/msm.h's batched affine sums */
/* clang-format on */

/* The plan's costs follow the kernel the batched additions will run on. */
static const msm_costs *g1_costs(void) { return msm_costs_for(false); }

cuzk_msm_plan_info cuzk_g1_msm_plan(size_t n, const cuzk_msm_opts *opts) {
  msm_plan pl;
  msm_plan_make(&pl, n, msm_workers(opts), g1_costs(), opts);
  bool naive = pl.method == CUZK_MSM_NAIVE;
  return (cuzk_msm_plan_info){pl.method, naive ? 0 : pl.c, naive ? 1 : pl.ny, pl.calibrated};
}

cuzk_msm_err cuzk_g1_msm(cuzk_g1 *r, const cuzk_g1_affine *bases, const cuzk_fr *scalars, size_t n,
                         const cuzk_msm_opts *opts) {
  return msm_g1_msm(r, bases, scalars, n, opts, g1_costs());
}

cuzk_msm_err cuzk_g1_msm_witness(cuzk_g1 *r, const cuzk_g1_affine *bases, size_t nbases,
                                 const cuzk_fr *scalars, size_t n, const uint64_t *density,
                                 const cuzk_msm_opts *opts) {
  return msm_g1_msm_witness(r, bases, nbases, scalars, n, density, opts, g1_costs());
}

cuzk_msm_err cuzk_g1_msm_stream(cuzk_g1 *r, const cuzk_msm_source *src, const cuzk_fr *scalars,
                                size_t n, const cuzk_msm_opts *opts) {
  return msm_g1_msm_stream(r, src, scalars, n, opts, g1_costs());
}

cuzk_msm_err cuzk_g1_msm_witness_stream(cuzk_g1 *r, const cuzk_msm_source *src, size_t nbases,
                                        const cuzk_fr *scalars, size_t n, const uint64_t *density,
                                        const cuzk_msm_opts *opts) {
  return msm_g1_msm_witness_stream(r, src, nbases, scalars, n, density, opts, g1_costs());
}
