/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * How one Pippenger call runs: bucket method, window width, and the grid of tiles (window x
 * point range) that the workers share. Chosen from a cost model in field multiplications.
 */
#ifndef CUZK_MSM_PLAN_H
#define CUZK_MSM_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "cuzk/msm/msm.h"

typedef struct {
  cuzk_msm_method method; /* AFFINE, XYZZ or NAIVE (never AUTO) */
  unsigned c;             /* window bits */
  unsigned nwin;          /* windows: ceil(255 / c) */
  unsigned ny;            /* point ranges; tiles = nwin * ny */
  unsigned slots;         /* workers that run tiles at once, each with its own buckets */
  size_t cap;             /* affine method: additions per batched inversion */
  bool calibrated;        /* method and window from the measured table (calibration.c) */
} msm_plan;

/* Costs of one group's operations in nanoseconds, measured on the reference VM (2-core EPYC,
 * gcc 12, ADX kernel) with a microbenchmark of the real routines, minimum of several runs. A
 * bucket addition gets slower as the bucket array outgrows the caches: `*_per_doubling` is added
 * for every doubling of the array beyond 512 KB. */
typedef struct {
  double affine_add, affine_per_doubling; /* batched affine bucket addition (batch_affine.inc) */
  double xyzz_madd, xyzz_per_doubling;    /* XYZZ bucket mixed addition (xyzz.inc) */
  double inversion;                       /* one field inversion, shared by a batch */
  double red_affine;                      /* reduce.inc per bucket: batched lanes */
  double red_mixed;                       /* reduce.inc per bucket: XYZZ running sums */
  double red_xyzz;                        /* the same over XYZZ buckets: two full additions */
  double scan;                            /* one point's digit read and bucket looked up */
  double mul;                             /* one scalar multiplication (the naive method) */
  size_t affine_bytes, xyzz_bytes;        /* sizes of a bucket of each kind */
  bool g2;                                /* the group: which measured table applies */
} msm_costs;

/* msm_costs_g{1,2}_ifma: the batched affine additions on IFMA lanes (batch_affine_ifma.inc,
 * batch_affine_ifma_g2.inc), the tables g1_msm.c and g2_msm.c pass while
 * cuzk_field_ifma_enabled(). */
extern const msm_costs msm_costs_g1, msm_costs_g1_ifma, msm_costs_g2, msm_costs_g2_ifma;

/* The table of the group for the kernel the batched additions will run on now. */
const msm_costs *msm_costs_for(bool g2);

/* workers: threads available to this call (>= 1). The options' method and window, if set,
 * are obeyed; else the measured table's where one applies (calibration.c), else the model's. */
void msm_plan_make(msm_plan *pl, size_t n, unsigned workers, const msm_costs *k,
                   const cuzk_msm_opts *o);

/* The same with every tile's buckets alive at once (the streamed MSM's persistent buckets):
 * plans whose tiles' buckets together exceed all_tiles_bytes are skipped (0: no bound). A
 * bound below the smallest plan's leaves the NAIVE plan. */
void msm_plan_make_capped(msm_plan *pl, size_t n, unsigned workers, const msm_costs *k,
                          const cuzk_msm_opts *o, size_t all_tiles_bytes);

/* The model's plan alone (the calibration's starting point). */
void msm_plan_model(msm_plan *pl, size_t n, unsigned workers, const msm_costs *k,
                    const cuzk_msm_opts *o, size_t all_tiles_bytes);

/* The measured table's method and window for n points on `workers` workers of group k->g2 on the
 * kernel now enabled, if a table is in use and covers them (calibration.c). */
bool msm_cal_lookup(const msm_costs *k, size_t n, unsigned workers, cuzk_msm_method *m,
                    unsigned *c);

/* Affine batch size for 2^(c-1) buckets: large enough to spread the inversion, small enough
 * that few points find their bucket already waiting in the batch. */
size_t msm_batch_cap(unsigned c);

/* Threads the options give this call: the pool's size capped by max_workers, 1 without pool. */
unsigned msm_workers(const cuzk_msm_opts *o);

#endif
