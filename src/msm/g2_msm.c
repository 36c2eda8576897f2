/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* MSM over G2 (E'(Fp2)): the shared templates instantiated with Fp2 coordinates. */
#include <string.h>

#include "cuzk/msm/msm.h"
#include "cuzk/msm/msm_calibration.h"
#include "field/fp_inline.h"
#include "msm/classify.h"
#include "msm/digits.h"
#include "msm/plan.h"
#include "msm/workers.h"

#define MSM(x) msm_g2_##x
#define EC(x) cuzk_g2_##x
#define EC_AFF cuzk_g2_affine
#define EC_JAC cuzk_g2
#define F(x) cuzk_fp2_##x
#define F_T cuzk_fp2
#define F_IS_ZERO(a) (limbs_is_zero((a)->c0.l, 6) && limbs_is_zero((a)->c1.l, 6))
/* batch_affine.inc's additions on eight IFMA lanes when enabled (batch_affine_ifma_g2.inc), with
 * two 52-bit-limb vectors (c0, c1) per eight additions in den and pre */
#define MSM_BATCH_ADDS_LANES msm_g2_batch_adds_ifma
#define MSM_DEN_BYTES 128
/* The templates in dependency order, each using those above it. */
/* clang-format off */
#include "msm/xyzz.inc"
#include "msm/batch_affine.inc"
#include "msm/reduce.inc"
#include "msm/pippenger.inc"
#include "msm/witness.inc"
#include "msm/stream.inc"   /* the same over streamed bases */
#include "msm/batch_affine_ifma_g2.inc" /* the IFMA flush */
#include "msm/sums.inc"              /* cuzk/msm/msm.h's batched affine sums */
/* clang-format on */

/* The plan's costs follow the kernel the batched additions will run on. */
static const msm_costs *g2_costs(void) { return msm_costs_for(true); }

cuzk_msm_plan_info cuzk_g2_msm_plan(size_t n, const cuzk_msm_opts *opts) {
  msm_plan pl;
  msm_plan_make(&pl, n, msm_workers(opts), g2_costs(), opts);
  bool naive = pl.method == CUZK_MSM_NAIVE;
  return (cuzk_msm_plan_info){pl.method, naive ? 0 : pl.c, naive ? 1 : pl.ny, pl.calibrated};
}

cuzk_msm_err cuzk_g2_msm(cuzk_g2 *r, const cuzk_g2_affine *bases, const cuzk_fr *scalars, size_t n,
                         const cuzk_msm_opts *opts) {
  return msm_g2_msm(r, bases, scalars, n, opts, g2_costs());
}

cuzk_msm_err cuzk_g2_msm_witness(cuzk_g2 *r, const cuzk_g2_affine *bases, size_t nbases,
                                 const cuzk_fr *scalars, size_t n, const uint64_t *density,
                                 const cuzk_msm_opts *opts) {
  return msm_g2_msm_witness(r, bases, nbases, scalars, n, density, opts, g2_costs());
}

cuzk_msm_err cuzk_g2_msm_stream(cuzk_g2 *r, const cuzk_msm_source *src, const cuzk_fr *scalars,
                                size_t n, const cuzk_msm_opts *opts) {
  return msm_g2_msm_stream(r, src, scalars, n, opts, g2_costs());
}

cuzk_msm_err cuzk_g2_msm_witness_stream(cuzk_g2 *r, const cuzk_msm_source *src, size_t nbases,
                                        const cuzk_fr *scalars, size_t n, const uint64_t *density,
                                        const cuzk_msm_opts *opts) {
  return msm_g2_msm_witness_stream(r, src, nbases, scalars, n, density, opts, g2_costs());
}
