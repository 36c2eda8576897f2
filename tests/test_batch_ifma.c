/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The IFMA batched affine addition for G1 (msm/batch_ifma.h) against the scalar flush of
 * batch_affine.inc (msm_g1_batch_add_scalar) and against the curve layer's addition: random
 * batches of every size 1..70 and a few large ones, random signs, and the additions without a
 * slope (P = A, P = -A, either sign), which both flushes must skip and leave alone. Also the
 * 52-form conversion of points both ways. Exits 77 (skipped) on a CPU without IFMA.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuzk/curve/curve.h"
#include "cuzk/field/field.h"
#include "msm/batch_ifma.h"
#include "rng.h"

#define NPTS 512

static cuzk_g1_affine pts[NPTS];

/* Random points: multiples of the generator by random scalars, one batch conversion. */
static void make_points(uint64_t *s) {
  cuzk_g1 *j = malloc(sizeof *j * NPTS), g;
  cuzk_g1_generator(&g);
  for (int i = 0; i < NPTS; i++) {
    cuzk_fr k;
    rng_fr(s, &k);
    if (i < 8)
      cuzk_g1_mul(&j[i], &g, &k);
    else /* cheaper: sums of earlier points */
      cuzk_g1_add(&j[i], &j[i - 1 - (int)(rng_next(s) % 8)], &j[i - 8]);
  }
  cuzk_g1_batch_to_affine(pts, j, NPTS);
  free(j);
}

/* One batch of k additions on n accumulators: the IFMA flush, the scalar flush and the group
 * law agree; special = additions whose point is +-its accumulator. */
static void run_batch(uint64_t *s, size_t n, size_t k, unsigned special) {
  cuzk_g1_affine *acc = malloc(sizeof *acc * n), *ref = malloc(sizeof *ref * n),
                 *out = malloc(sizeof *out * n);
  cuzk_g1_affine *own = malloc(sizeof *own * k); /* points equal to +-their accumulator */
  msm_g1_aff52 *acc52 = aligned_alloc(64, sizeof *acc52 * n),
               *pt52 = aligned_alloc(64, sizeof *pt52 * k);
  uint32_t *idx = malloc(sizeof *idx * k), *perm = malloc(sizeof *perm * n);
  const cuzk_g1_affine **pt = malloc(sizeof *pt * k);
  const msm_g1_aff52 **pp = malloc(sizeof *pp * k);
  uint8_t *sk_s = malloc(k), *sk_v = malloc(k);
  void *scratch = aligned_alloc(64, (msm_g1_batch_ifma_scratch(k) + 63) & ~(size_t)63);
  for (size_t i = 0; i < n; i++) {
    acc[i] = pts[rng_next(s) % NPTS];
    perm[i] = (uint32_t)i;
  }
  for (size_t i = n; i-- > 1;) { /* distinct accumulators: a shuffled prefix */
    size_t j = rng_next(s) % (i + 1);
    uint32_t t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  for (size_t e = 0; e < k; e++) {
    const uint64_t r = rng_next(s);
    idx[e] = perm[e] | (r & 1 ? MSM_IFMA_NEG_BIT : 0);
    if (special && (r >> 1) % special == 0) { /* P = A or P = -A */
      own[e] = acc[perm[e]];
      if (r >> 8 & 1) cuzk_g1_affine_neg(&own[e], &own[e]);
      pt[e] = &own[e];
    } else {
      pt[e] = &pts[(r >> 16) % NPTS];
    }
  }
  /* the group law */
  memcpy(ref, acc, sizeof *acc * n);
  for (size_t e = 0; e < k; e++) {
    cuzk_g1_affine *a = &ref[perm[e]];
    if (cuzk_fp_eq(&a->x, &pt[e]->x)) continue; /* skipped: left alone */
    cuzk_g1 j;
    cuzk_g1_affine q = *pt[e];
    if (idx[e] & MSM_IFMA_NEG_BIT) cuzk_g1_affine_neg(&q, &q);
    cuzk_g1_from_affine(&j, a);
    cuzk_g1_add_affine(&j, &j, &q);
    cuzk_g1_to_affine(a, &j);
  }
  /* the scalar flush */
  memcpy(out, acc, sizeof *acc * n);
  CHECK(msm_g1_batch_add_scalar(out, n, idx, pt, k, sk_s));
  int bad_s = 0;
  for (size_t i = 0; i < n; i++)
    bad_s += !cuzk_g1_affine_eq(&out[i], &ref[i]);
  /* the IFMA flush */
  msm_g1_aff52_from(acc52, acc, n);
  for (size_t e = 0; e < k; e++) {
    msm_g1_aff52_from(&pt52[e], pt[e], 1);
    pp[e] = &pt52[e];
  }
  msm_g1_batch_add_ifma(acc52, idx, pp, k, sk_v, scratch);
  msm_g1_aff52_to(out, acc52, n);
  int bad_v = 0, bad_skip = 0;
  for (size_t i = 0; i < n; i++)
    bad_v += !cuzk_g1_affine_eq(&out[i], &ref[i]) || memcmp(&out[i], &ref[i], sizeof out[i]);
  for (size_t e = 0; e < k; e++)
    bad_skip += sk_v[e] != sk_s[e] || sk_v[e] != cuzk_fp_eq(&acc[perm[e]].x, &pt[e]->x);
  CHECK_MSG(bad_s == 0, "n %zu k %zu: scalar flush: %d accumulators differ", n, k, bad_s);
  CHECK_MSG(bad_v == 0, "n %zu k %zu: ifma flush: %d accumulators differ", n, k, bad_v);
  CHECK_MSG(bad_skip == 0, "n %zu k %zu: %d skip flags differ", n, k, bad_skip);
  free(acc), free(ref), free(out), free(own), free(acc52), free(pt52), free(idx), free(perm);
  free(pt), free(pp), free(sk_s), free(sk_v), free(scratch);
}

/* Points round-trip through the 52-form, for every count 1..17 (partial vectors). */
static void test_conversion(void) {
  int bad = 0;
  for (size_t n = 1; n <= 17; n++) {
    msm_g1_aff52 *p52 = aligned_alloc(64, sizeof *p52 * n);
    cuzk_g1_affine back[17];
    msm_g1_aff52_from(p52, pts + n, n);
    msm_g1_aff52_to(back, p52, n);
    for (size_t i = 0; i < n; i++)
      bad += memcmp(&back[i], &pts[n + i], sizeof back[i]) != 0;
    free(p52);
  }
  CHECK_MSG(bad == 0, "%d points differ after the round trip", bad);
}

int main(void) {
  if (!cuzk_field_ifma_supported()) {
    printf("test_batch_ifma: this CPU has no AVX-512 IFMA: skipped\n");
    return 77;
  }
  uint64_t s = 0xba7c4;
  make_points(&s);
  test_conversion();
  for (size_t k = 1; k <= 70; k++)
    run_batch(&s, 80, k, 0);
  for (size_t k = 1; k <= 40; k += 3)
    run_batch(&s, 64, k, 3); /* a third of the additions without a slope */
  run_batch(&s, 2048, 512, 0);
  run_batch(&s, 2048, 512, 50);
  run_batch(&s, 600, 600, 1); /* every addition without a slope */
  return check_summary("test_batch_ifma");
}
