/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Multi-scalar multiplication over G1 and G2: r = sum_i s_i P_i.
 *
 * Bases are affine points as stored from the SRS (infinity = all zeros; allowed, contributes
 * nothing). Scalars are Fr elements in Montgomery form, as the prover holds them. Results are
 * Jacobian points; the point (not its representation) is independent of the thread count.
 *
 * cuzk_*_msm is Pippenger's bucket method with signed (Booth) window digits, the window chosen
 * from n, buckets accumulated in affine coordinates with one batched inversion per few hundred
 * additions (or in XYZZ coordinates where that is cheaper: small n), split across the pool as a
 * grid of windows x point ranges. cuzk_*_msm_witness is for witness vectors that are mostly 0 or
 * 1 (docs/spec/groth16.md §8.4, §11.3): zeros are skipped, ones are summed by batched affine
 * additions and only the other scalars go through Pippenger; it returns the same point as the
 * plain MSM.
 *
 * Scratch memory (bucket arrays, converted scalars, gathered tail) comes from cuzk_buffer_get
 * and goes back to its cache, so repeated calls do not allocate in steady state.
 */
#ifndef CUZK_MSM_H
#define CUZK_MSM_H

#include "cuzk/curve/curve.h"
#include "cuzk/util/pool.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  CUZK_MSM_OK = 0,
  CUZK_MSM_EINVAL, /* NULL pointer with n > 0, bad option, or fewer bases than the density has */
  CUZK_MSM_ENOMEM, /* scratch allocation failed */
  CUZK_MSM_ECANCELLED, /* opts->cancel was raised; r is not written */
  CUZK_MSM_EIO,        /* a calibration file could not be read or written (msm_calibration.h) */
  CUZK_MSM_EFORMAT,    /* a calibration file is malformed */
  CUZK_MSM_EOTHERCPU,  /* a calibration measured on another CPU model */
} cuzk_msm_err;

const char *cuzk_msm_strerror(cuzk_msm_err e);

/* How Pippenger accumulates its buckets; AUTO picks by size (benchmarks and tests force one). */
typedef enum {
  CUZK_MSM_AUTO = 0,
  CUZK_MSM_AFFINE, /* affine buckets, additions batched over one inversion (~6M per point) */
  CUZK_MSM_XYZZ,   /* XYZZ buckets, mixed additions (8M + 2S per point) */
  CUZK_MSM_NAIVE,  /* one scalar multiplication per point (only sensible for tiny n) */
} cuzk_msm_method;

#define CUZK_MSM_MAX_WINDOW 20

typedef struct {
  cuzk_pool *pool;        /* NULL: run on the calling thread only */
  unsigned max_workers;   /* this call's share of the pool; 0 = all its threads */
  cuzk_msm_method method; /* AUTO unless measuring */
  unsigned window;        /* Pippenger window bits, 1..CUZK_MSM_MAX_WINDOW; 0 = chosen from n */
  /* NULL, or a flag another thread may raise: the call then stops within about
   * CUZK_MSM_CANCEL_POINTS points per worker and returns CUZK_MSM_ECANCELLED (a caller that
   * gave up on the result needs not wait for an MSM of millions of points). */
  const _Atomic int *cancel;
} cuzk_msm_opts;

#define CUZK_MSM_CANCEL_POINTS 65536

/* opts may be NULL (single-threaded, automatic choices). r is set to infinity for n = 0. */
cuzk_msm_err cuzk_g1_msm(cuzk_g1 *r, const cuzk_g1_affine *bases, const cuzk_fr *scalars, size_t n,
                         const cuzk_msm_opts *opts);
cuzk_msm_err cuzk_g2_msm(cuzk_g2 *r, const cuzk_g2_affine *bases, const cuzk_fr *scalars, size_t n,
                         const cuzk_msm_opts *opts);

/*
 * Witness-aware MSM over n scalars. Without a density (NULL), scalar j pairs with bases[j] and
 * nbases must be >= n. With a density bitmap (64-bit words, LSB first, bit j of word j / 64; bits
 * at or beyond n ignored), scalar j takes part only if its bit is set, and then pairs with the
 * k-th base, k = the number of set bits below j: the layout of bellperson's a and b queries.
 * nbases must be at least the number of set bits. opts->method and opts->window apply to the
 * Pippenger tail.
 */
cuzk_msm_err cuzk_g1_msm_witness(cuzk_g1 *r, const cuzk_g1_affine *bases, size_t nbases,
                                 const cuzk_fr *scalars, size_t n, const uint64_t *density,
                                 const cuzk_msm_opts *opts);
cuzk_msm_err cuzk_g2_msm_witness(cuzk_g2 *r, const cuzk_g2_affine *bases, size_t nbases,
                                 const cuzk_fr *scalars, size_t n, const uint64_t *density,
                                 const cuzk_msm_opts *opts);

/*
 * Streamed bases (docs/msm.md "Streamed bases"): the same MSMs when the bases are not in memory
 * but read a chunk at a time from elsewhere (the mapped .params file of a parameter set too big
 * to decode whole). The source decodes bases into the kernel's form; Pippenger's buckets live
 * for the whole call and every chunk adds to them, so the result is the point the resident MSM
 * gives. Memory: one chunk of bases and scalars, and the buckets (at most
 * CUZK_MSM_STREAM_BUCKET_BYTES: the window is chosen within it).
 */
typedef struct {
  /* Writes bases first .. first + count - 1 to out (cuzk_g1_affine or cuzk_g2_affine, as the
   * MSM; infinity as all zeros). Called from several workers at once for disjoint ranges. */
  void (*fill)(const void *ctx, size_t first, size_t count, void *out);
  /* May be NULL: bases first .. first + count - 1 come next (start reading them), and bases
   * first .. first + count - 1 have been used (what holds them may go). */
  void (*will_need)(const void *ctx, size_t first, size_t count);
  void (*done)(const void *ctx, size_t first, size_t count);
  const void *ctx;
  size_t chunk; /* bases decoded at a time; 0: CUZK_MSM_STREAM_CHUNK */
} cuzk_msm_source;

#define CUZK_MSM_STREAM_CHUNK ((size_t)1 << 20)
#define CUZK_MSM_STREAM_BUCKET_BYTES ((size_t)512 << 20)

/* cuzk_*_msm and cuzk_*_msm_witness with bases 0 .. of src (nbases of them for the witness
 * form, as there). */
cuzk_msm_err cuzk_g1_msm_stream(cuzk_g1 *r, const cuzk_msm_source *src, const cuzk_fr *scalars,
                                size_t n, const cuzk_msm_opts *opts);
cuzk_msm_err cuzk_g2_msm_stream(cuzk_g2 *r, const cuzk_msm_source *src, const cuzk_fr *scalars,
                                size_t n, const cuzk_msm_opts *opts);
cuzk_msm_err cuzk_g1_msm_witness_stream(cuzk_g1 *r, const cuzk_msm_source *src, size_t nbases,
                                        const cuzk_fr *scalars, size_t n, const uint64_t *density,
                                        const cuzk_msm_opts *opts);
cuzk_msm_err cuzk_g2_msm_witness_stream(cuzk_g2 *r, const cuzk_msm_source *src, size_t nbases,
                                        const cuzk_fr *scalars, size_t n, const uint64_t *density,
                                        const cuzk_msm_opts *opts);

/*
 * Batched affine sums, for callers outside Pippenger (the TEST-parameter generator's fixed-base
 * windows): n sums of affine points, kept as batch_affine.inc's accumulators, so that a call's
 * additions share one field inversion and run on the IFMA lanes where they are enabled
 * (docs/msm.md "Batched affine sums"). Every sum starts at infinity.
 */
typedef struct cuzk_g1_sums cuzk_g1_sums;
typedef struct cuzk_g2_sums cuzk_g2_sums;

/* NULL when out of memory or n is 0 or at least 2^31. */
cuzk_g1_sums *cuzk_g1_sums_new(size_t n);
cuzk_g2_sums *cuzk_g2_sums_new(size_t n);
void cuzk_g1_sums_free(cuzk_g1_sums *s);
void cuzk_g2_sums_free(cuzk_g2_sums *s);

/* sum[idx[e]] += *pt[e] for e < k: idx[e] < n, pt[e] not infinity. One inversion when the
 * indices are distinct (a repeated index waits for the next flush of the same call). */
void cuzk_g1_sums_add(cuzk_g1_sums *s, const uint32_t *idx, const cuzk_g1_affine *const *pt,
                      size_t k);
void cuzk_g2_sums_add(cuzk_g2_sums *s, const uint32_t *idx, const cuzk_g2_affine *const *pt,
                      size_t k);

/* out[i] = sum[i] for i < count (count <= n; affine, infinity as all zeros), then every sum
 * back to infinity. */
void cuzk_g1_sums_take(cuzk_g1_sums *s, cuzk_g1_affine *out, size_t count);
void cuzk_g2_sums_take(cuzk_g2_sums *s, cuzk_g2_affine *out, size_t count);

#ifdef __cplusplus
}
#endif
#endif
