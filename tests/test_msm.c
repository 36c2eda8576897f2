/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * MSM tests: Pippenger (both bucket methods, every window width) against the sum of scalar
 * multiplications, crafted edge cases (n = 0 and 1, zero scalars, bases at infinity, repeated
 * and opposite bases, r - 1 and the halving boundary, one bucket taking every point), the
 * witness-aware MSM against the plain one (0/1/other mixes, density bitmaps, several chunks),
 * results with 1 and 2 threads, and the argument errors. Where the 8-lane IFMA path is enabled
 * (cuzk/field/field.h), every G1 call runs on it and again with it switched off, and the two
 * results must be the same bytes (affine; Jacobian too when the plan is forced), and one flush on
 * the lanes must equal the scalar flush; test_msm_no_ifma runs the whole file with CUZK_NO_IFMA=1
 * (the scalar path only).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuzk/field/field.h"
#include "cuzk/msm/msm.h"
#include "cuzk/util/pool.h"
#include "field/consts.h"
#include "msm/batch_ifma.h"
#include "msm_inputs.h"
#include "rng.h"

static cuzk_pool *pool2;

/* ---- both kernels -------------------------------------------------------------------------- */

static bool ifma_both;       /* IFMA enabled at start: each G1 call runs on both kernels */
static size_t ifma_compared; /* calls compared */

/* The second run with IFMA off: the same error code and, unless it failed, the same affine
 * bytes; with the plan forced (method and window set), both kernels run the same plan and the
 * Jacobian results must be the same bytes too. With AUTO each kernel gets its own plan (its cost
 * table, src/msm/plan.c), so the Jacobian representation may differ, as across thread counts.
 * r2 starts as a copy of *r so that a call that must leave r alone is compared too. */
static void ifma_compare(const char *what, const cuzk_g1 *r, const cuzk_g1 *r2, cuzk_msm_err e,
                         cuzk_msm_err e2, size_t n, const cuzk_msm_opts *o) {
  ifma_compared++;
  bool same = e == e2;
  if (same && r) {
    cuzk_g1_affine a, a2;
    cuzk_g1_to_affine(&a, r);
    cuzk_g1_to_affine(&a2, r2);
    same = memcmp(&a, &a2, sizeof a) == 0;
    if (o && o->method != CUZK_MSM_AUTO && (o->window || o->method == CUZK_MSM_NAIVE))
      same = same && memcmp(r, r2, sizeof *r2) == 0;
  }
  CHECK_MSG(same, "%s n=%zu: IFMA and scalar kernels differ (%d, %d)", what, n, (int)e, (int)e2);
}

static cuzk_msm_err g1_msm(cuzk_g1 *r, const cuzk_g1_affine *b, const cuzk_fr *s, size_t n,
                           const cuzk_msm_opts *o) {
  cuzk_g1 r2;
  memset(&r2, 0, sizeof r2);
  if (r) r2 = *r;
  cuzk_msm_err e = cuzk_g1_msm(r, b, s, n, o);
  if (!ifma_both) return e;
  cuzk_field_use_ifma(false);
  cuzk_msm_err e2 = cuzk_g1_msm(r ? &r2 : NULL, b, s, n, o);
  cuzk_field_use_ifma(true);
  ifma_compare("G1 MSM", r, &r2, e, e2, n, o);
  return e;
}

static cuzk_msm_err g1_msm_witness(cuzk_g1 *r, const cuzk_g1_affine *b, size_t nb, const cuzk_fr *s,
                                   size_t n, const uint64_t *dens, const cuzk_msm_opts *o) {
  cuzk_g1 r2;
  memset(&r2, 0, sizeof r2);
  if (r) r2 = *r;
  cuzk_msm_err e = cuzk_g1_msm_witness(r, b, nb, s, n, dens, o);
  if (!ifma_both) return e;
  cuzk_field_use_ifma(false);
  cuzk_msm_err e2 = cuzk_g1_msm_witness(r ? &r2 : NULL, b, nb, s, n, dens, o);
  cuzk_field_use_ifma(true);
  ifma_compare("G1 witness MSM", r, &r2, e, e2, n, o);
  return e;
}

/* ---- inputs ------------------------------------------------------------------------------- */

/* n G1 points: the first min(n, 16) are random multiples of the generator, the rest walk
 * P_i = P_(i-1) + R_(i mod 16) from them (one addition per point, batch-normalised). */
static void g1_bases(uint64_t *s, cuzk_g1_affine *out, size_t n) {
  cuzk_g1 g, r[16];
  cuzk_g1_generator(&g);
  for (int i = 0; i < 16; i++) {
    cuzk_fr k;
    rng_fr(s, &k);
    cuzk_g1_mul(&r[i], &g, &k);
  }
  cuzk_g1 *j = malloc(n * sizeof *j);
  for (size_t i = 0; i < n; i++) {
    if (i < 16)
      j[i] = r[i];
    else
      cuzk_g1_add(&j[i], &j[i - 1], &r[i % 16]);
  }
  cuzk_g1_batch_to_affine(out, j, n);
  free(j);
}

static void g2_bases(uint64_t *s, cuzk_g2_affine *out, size_t n) {
  cuzk_g2 g, r[16];
  cuzk_g2_generator(&g);
  for (int i = 0; i < 16; i++) {
    cuzk_fr k;
    rng_fr(s, &k);
    cuzk_g2_mul(&r[i], &g, &k);
  }
  cuzk_g2 *j = malloc(n * sizeof *j);
  for (size_t i = 0; i < n; i++) {
    if (i < 16)
      j[i] = r[i];
    else
      cuzk_g2_add(&j[i], &j[i - 1], &r[i % 16]);
  }
  cuzk_g2_batch_to_affine(out, j, n);
  free(j);
}

static void random_scalars(uint64_t *s, cuzk_fr *out, size_t n) {
  for (size_t i = 0; i < n; i++)
    rng_fr(s, &out[i]);
}

static void fr_from_limbs(cuzk_fr *r, uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
  uint64_t x[4] = {a, b, c, d};
  if (!cuzk_fr_from_canonical(r, x)) abort();
}

/* ---- references --------------------------------------------------------------------------- */

static void g1_naive(cuzk_g1 *r, const cuzk_g1_affine *b, const cuzk_fr *s, size_t n) {
  cuzk_g1 acc, t;
  cuzk_g1_set_infinity(&acc);
  for (size_t i = 0; i < n; i++) {
    cuzk_g1_from_affine(&t, &b[i]);
    cuzk_g1_mul(&t, &t, &s[i]);
    cuzk_g1_add(&acc, &acc, &t);
  }
  *r = acc;
}

static void g2_naive(cuzk_g2 *r, const cuzk_g2_affine *b, const cuzk_fr *s, size_t n) {
  cuzk_g2 acc, t;
  cuzk_g2_set_infinity(&acc);
  for (size_t i = 0; i < n; i++) {
    cuzk_g2_from_affine(&t, &b[i]);
    cuzk_g2_mul(&t, &t, &s[i]);
    cuzk_g2_add(&acc, &acc, &t);
  }
  *r = acc;
}

/* The option sets every plain-MSM check runs: automatic, each method at a few windows, and
 * the 2-thread pool. */
typedef struct {
  const char *name;
  cuzk_msm_opts o;
} variant;

static variant variants[16];
static size_t nvariants;

static void make_variants(void) {
  static const unsigned windows[] = {1, 2, 5, 8, 13};
  nvariants = 0;
  variants[nvariants++] = (variant){"auto", {0}};
  variants[nvariants++] = (variant){"auto-2t", {.pool = pool2}};
  variants[nvariants++] = (variant){"naive", {.method = CUZK_MSM_NAIVE}};
  for (size_t i = 0; i < sizeof windows / sizeof windows[0]; i++) {
    variants[nvariants++] = (variant){"affine", {.method = CUZK_MSM_AFFINE, .window = windows[i]}};
    variants[nvariants++] = (variant){"xyzz", {.method = CUZK_MSM_XYZZ, .window = windows[i]}};
  }
  variants[nvariants++] =
      (variant){"affine-2t", {.pool = pool2, .method = CUZK_MSM_AFFINE, .window = 4}};
}

static void check_g1(const char *what, const cuzk_g1_affine *b, const cuzk_fr *s, size_t n) {
  cuzk_g1 want, got;
  g1_naive(&want, b, s, n);
  for (size_t v = 0; v < nvariants; v++) {
    cuzk_msm_err e = g1_msm(&got, b, s, n, &variants[v].o);
    CHECK_MSG(e == CUZK_MSM_OK && cuzk_g1_eq(&got, &want), "G1 %s n=%zu %s w=%u", what, n,
              variants[v].name, variants[v].o.window);
  }
}

static void check_g2(const char *what, const cuzk_g2_affine *b, const cuzk_fr *s, size_t n) {
  cuzk_g2 want, got;
  g2_naive(&want, b, s, n);
  for (size_t v = 0; v < nvariants; v++) {
    cuzk_msm_err e = cuzk_g2_msm(&got, b, s, n, &variants[v].o);
    CHECK_MSG(e == CUZK_MSM_OK && cuzk_g2_eq(&got, &want), "G2 %s n=%zu %s w=%u", what, n,
              variants[v].name, variants[v].o.window);
  }
}

/* ---- plain MSM ---------------------------------------------------------------------------- */

static void test_random_sizes(void) {
  static const size_t g1_sizes[] = {1, 2, 3, 7, 100, 1000, 4096};
  static const size_t g2_sizes[] = {1, 2, 3, 7, 100, 300};
  uint64_t s = 1;
  cuzk_g1_affine *b1 = malloc(4096 * sizeof *b1);
  cuzk_g2_affine *b2 = malloc(300 * sizeof *b2);
  cuzk_fr *k = malloc(4096 * sizeof *k);
  g1_bases(&s, b1, 4096);
  g2_bases(&s, b2, 300);
  for (size_t i = 0; i < sizeof g1_sizes / sizeof g1_sizes[0]; i++) {
    random_scalars(&s, k, g1_sizes[i]);
    check_g1("random", b1, k, g1_sizes[i]);
  }
  for (size_t i = 0; i < sizeof g2_sizes / sizeof g2_sizes[0]; i++) {
    random_scalars(&s, k, g2_sizes[i]);
    check_g2("random", b2, k, g2_sizes[i]);
  }
  /* Every window width with both methods on one input (wide windows: mostly empty buckets). */
  random_scalars(&s, k, 50);
  cuzk_g1 want, got;
  g1_naive(&want, b1, k, 50);
  for (unsigned c = 1; c <= CUZK_MSM_MAX_WINDOW; c++) {
    for (int m = 0; m < 2; m++) {
      cuzk_msm_opts o = {.method = m ? CUZK_MSM_XYZZ : CUZK_MSM_AFFINE, .window = c};
      CHECK_MSG(g1_msm(&got, b1, k, 50, &o) == CUZK_MSM_OK && cuzk_g1_eq(&got, &want),
                "G1 window %u method %d", c, m);
    }
  }
  free(b1);
  free(b2);
  free(k);
}

/* Scalars that stress the digits and the bucket exceptions. */
static void test_edge_cases(void) {
  uint64_t s = 2;
  enum { N = 64 };
  cuzk_g1_affine b1[N];
  cuzk_g2_affine b2[N];
  cuzk_fr k[N];
  g1_bases(&s, b1, N);
  g2_bases(&s, b2, N);

  /* n = 0 gives infinity (and accepts NULL arrays). */
  cuzk_g1 r1;
  cuzk_g2 r2;
  CHECK(g1_msm(&r1, NULL, NULL, 0, NULL) == CUZK_MSM_OK && cuzk_g1_is_infinity(&r1));
  CHECK(cuzk_g2_msm(&r2, NULL, NULL, 0, NULL) == CUZK_MSM_OK && cuzk_g2_is_infinity(&r2));

  /* All zero scalars: infinity. */
  for (int i = 0; i < N; i++)
    k[i] = cuzk_fr_zero;
  check_g1("zeros", b1, k, N);
  check_g2("zeros", b2, k, N);
  CHECK(g1_msm(&r1, b1, k, N, NULL) == CUZK_MSM_OK && cuzk_g1_is_infinity(&r1));

  /* Special values: r - 1, (r-1)/2 and (r+1)/2 (either side of the halving), 1, 2, powers of
   * two at window edges, 2^254 - 1 style all-ones patterns. */
  cuzk_fr rm1, half, half1;
  fr_from_limbs(&rm1, CUZK_R[0] - 1, CUZK_R[1], CUZK_R[2], CUZK_R[3]);
  fr_from_limbs(&half, CUZK_R_HALF[0], CUZK_R_HALF[1], CUZK_R_HALF[2], CUZK_R_HALF[3]);
  fr_from_limbs(&half1, CUZK_R_HALF[0] + 1, CUZK_R_HALF[1], CUZK_R_HALF[2], CUZK_R_HALF[3]);
  for (int i = 0; i < N; i++) {
    switch (i % 8) {
    case 0: k[i] = rm1; break;
    case 1: k[i] = half; break;
    case 2: k[i] = half1; break;
    case 3: cuzk_fr_from_u64(&k[i], 1ULL << (i % 64)); break;
    case 4: cuzk_fr_from_u64(&k[i], (1ULL << (i % 17)) - 1); break;
    case 5: fr_from_limbs(&k[i], ~0ULL, ~0ULL, ~0ULL, 0x3fffffffffffffffULL); break;
    case 6: cuzk_fr_from_u64(&k[i], 2); break;
    default: k[i] = cuzk_fr_one; break;
    }
  }
  check_g1("special", b1, k, N);
  check_g2("special", b2, k, N);

  /* Every scalar r - 1: one bucket per window takes every point (the XYZZ side path). */
  for (int i = 0; i < N; i++)
    k[i] = rm1;
  check_g1("all r-1", b1, k, N);
  check_g2("all r-1", b2, k, 16);

  /* Repeated bases with equal scalars (bucket doublings) and with opposite scalars (P + (-P)
   * in a bucket; the whole sum is infinity). */
  cuzk_g1_affine rep1[N];
  cuzk_g2_affine rep2[N];
  for (int i = 0; i < N; i++) {
    rep1[i] = b1[i % 3];
    rep2[i] = b2[i % 3];
  }
  random_scalars(&s, k, 4);
  for (int i = 4; i < N; i++)
    k[i] = k[i % 4];
  check_g1("repeated", rep1, k, N);
  check_g2("repeated", rep2, k, 24);
  for (int i = 0; i < N; i++) {
    rep1[i] = b1[i / 2];
    rep2[i] = b2[i / 2];
    if (i % 2)
      cuzk_fr_neg(&k[i], &k[i - 1]);
    else
      rng_fr(&s, &k[i]);
  }
  check_g1("opposite", rep1, k, N);
  check_g2("opposite", rep2, k, 24);
  CHECK(g1_msm(&r1, rep1, k, N, NULL) == CUZK_MSM_OK && cuzk_g1_is_infinity(&r1));

  /* One base 1024 times with scalars 1..1024 at an 11-bit window: every bucket of window 0
   * holds the same point, so the batched-lane reduction meets equal x at every step. */
  {
    enum { M = 1024 };
    cuzk_g1_affine *same1 = malloc(M * sizeof *same1);
    cuzk_g2_affine *same2 = malloc(M * sizeof *same2);
    cuzk_fr *ks = malloc(M * sizeof *ks);
    for (int i = 0; i < M; i++) {
      same1[i] = b1[1];
      same2[i] = b2[1];
      cuzk_fr_from_u64(&ks[i], (uint64_t)i + 1);
    }
    cuzk_fr tot;
    cuzk_fr_from_u64(&tot, (uint64_t)M * (M + 1) / 2);
    cuzk_g1 w1, p1;
    cuzk_g2 w2, p2;
    cuzk_g1_from_affine(&p1, &b1[1]);
    cuzk_g1_mul(&w1, &p1, &tot);
    cuzk_g2_from_affine(&p2, &b2[1]);
    cuzk_g2_mul(&w2, &p2, &tot);
    cuzk_msm_opts o = {.method = CUZK_MSM_AFFINE, .window = 11};
    CHECK(g1_msm(&r1, same1, ks, M, &o) == CUZK_MSM_OK && cuzk_g1_eq(&r1, &w1));
    CHECK(cuzk_g2_msm(&r2, same2, ks, M, &o) == CUZK_MSM_OK && cuzk_g2_eq(&r2, &w2));
    o.method = CUZK_MSM_XYZZ;
    CHECK(g1_msm(&r1, same1, ks, M, &o) == CUZK_MSM_OK && cuzk_g1_eq(&r1, &w1));
    free(same1);
    free(same2);
    free(ks);
  }

  /* Bases at infinity (all zeros) with non-zero scalars contribute nothing. */
  random_scalars(&s, k, N);
  for (int i = 0; i < N; i += 3) {
    memset(&b1[i], 0, sizeof b1[i]);
    memset(&b2[i], 0, sizeof b2[i]);
  }
  check_g1("infinity bases", b1, k, N);
  check_g2("infinity bases", b2, k, 24);
  memset(b1, 0, sizeof b1);
  check_g1("all infinity", b1, k, N);
}

/* The same large input on 1 and 2 threads, plus the identical affine encoding. */
static void test_threads(void) {
  uint64_t s = 3;
  enum { N = 20000 };
  cuzk_g1_affine *b = malloc(N * sizeof *b);
  cuzk_fr *k = malloc(N * sizeof *k);
  g1_bases(&s, b, N);
  random_scalars(&s, k, N);
  cuzk_g1 r1, r2;
  cuzk_msm_opts o1 = {0}, o2 = {.pool = pool2};
  CHECK(g1_msm(&r1, b, k, N, &o1) == CUZK_MSM_OK);
  CHECK(g1_msm(&r2, b, k, N, &o2) == CUZK_MSM_OK);
  cuzk_g1_affine a1, a2;
  cuzk_g1_to_affine(&a1, &r1);
  cuzk_g1_to_affine(&a2, &r2);
  CHECK(cuzk_g1_affine_eq(&a1, &a2));
  /* XYZZ against affine at the same size, forced. */
  cuzk_msm_opts ox = {.pool = pool2, .method = CUZK_MSM_XYZZ};
  CHECK(g1_msm(&r2, b, k, N, &ox) == CUZK_MSM_OK && cuzk_g1_eq(&r1, &r2));
  /* A linear check: MSM(b, 2k) = 2 MSM(b, k). */
  for (size_t i = 0; i < N; i++)
    cuzk_fr_dbl(&k[i], &k[i]);
  CHECK(g1_msm(&r2, b, k, N, &o2) == CUZK_MSM_OK);
  cuzk_g1_dbl(&r1, &r1);
  CHECK(cuzk_g1_eq(&r1, &r2));
  free(b);
  free(k);
}

/* ---- witness-aware MSM -------------------------------------------------------------------- */

/* The plain MSM over the present variables, gathered. */
static void g1_gathered(cuzk_g1 *r, const cuzk_g1_affine *b, const cuzk_fr *k, size_t n,
                        const uint64_t *dens) {
  cuzk_fr *ks = malloc((n + 1) * sizeof *ks);
  size_t m = 0;
  for (size_t j = 0; j < n; j++)
    if (!dens || ((dens[j / 64] >> (j % 64)) & 1)) ks[m++] = k[j];
  CHECK(g1_msm(r, b, ks, m, NULL) == CUZK_MSM_OK);
  free(ks);
}

static void g2_gathered(cuzk_g2 *r, const cuzk_g2_affine *b, const cuzk_fr *k, size_t n,
                        const uint64_t *dens) {
  cuzk_fr *ks = malloc((n + 1) * sizeof *ks);
  size_t m = 0;
  for (size_t j = 0; j < n; j++)
    if (!dens || ((dens[j / 64] >> (j % 64)) & 1)) ks[m++] = k[j];
  CHECK(cuzk_g2_msm(r, b, ks, m, NULL) == CUZK_MSM_OK);
  free(ks);
}

static void test_witness_g1(void) {
  uint64_t s = 4;
  enum { N = 40000 }; /* several 16 K-variable chunks */
  cuzk_g1_affine *b = malloc(N * sizeof *b);
  cuzk_fr *k = malloc(N * sizeof *k);
  uint64_t *dens = malloc((N / 64 + 1) * sizeof *dens);
  g1_bases(&s, b, N);
  static const struct {
    size_t n;
    unsigned zero, one;
  } mixes[] = {{N, 70, 25},   {N, 0, 100}, {N, 100, 0}, {5000, 0, 0},
               {777, 40, 40}, {1, 0, 100}, {3, 0, 0},   {0, 0, 0}};
  for (size_t t = 0; t < sizeof mixes / sizeof mixes[0]; t++) {
    size_t n = mixes[t].n;
    witness_scalars(&s, k, n, mixes[t].zero, mixes[t].one);
    for (int d = 0; d < 2; d++) {
      size_t present = d ? random_density(&s, dens, n, 60) : n;
      cuzk_g1 want, got;
      g1_gathered(&want, b, k, n, d ? dens : NULL);
      cuzk_msm_opts o1 = {0}, o2 = {.pool = pool2};
      CHECK_MSG(g1_msm_witness(&got, b, present, k, n, d ? dens : NULL, &o1) == CUZK_MSM_OK &&
                    cuzk_g1_eq(&got, &want),
                "G1 witness n=%zu %u/%u density=%d", n, mixes[t].zero, mixes[t].one, d);
      CHECK_MSG(g1_msm_witness(&got, b, N, k, n, d ? dens : NULL, &o2) == CUZK_MSM_OK &&
                    cuzk_g1_eq(&got, &want),
                "G1 witness 2t n=%zu %u/%u density=%d", n, mixes[t].zero, mixes[t].one, d);
    }
  }

  /* Ones on repeated and opposite bases (lane doublings and cancellations) and on bases at
   * infinity; the tail on bases at infinity. */
  enum { M = 3000 };
  cuzk_g1_affine *rep = malloc(M * sizeof *rep);
  for (size_t i = 0; i < M; i++) {
    rep[i] = b[i % 5];
    if (i % 7 == 0) cuzk_g1_affine_neg(&rep[i], &rep[i]);
    if (i % 11 == 0) memset(&rep[i], 0, sizeof rep[i]);
  }
  witness_scalars(&s, k, M, 30, 60);
  cuzk_g1 want, got;
  g1_naive(&want, rep, k, M);
  CHECK(g1_msm_witness(&got, rep, M, k, M, NULL, NULL) == CUZK_MSM_OK && cuzk_g1_eq(&got, &want));
  CHECK(g1_msm(&got, rep, k, M, NULL) == CUZK_MSM_OK && cuzk_g1_eq(&got, &want));
  free(rep);
  free(b);
  free(k);
  free(dens);
}

static void test_witness_g2(void) {
  uint64_t s = 5;
  enum { N = 20000 };
  cuzk_g2_affine *b = malloc(N * sizeof *b);
  cuzk_fr *k = malloc(N * sizeof *k);
  uint64_t *dens = malloc((N / 64 + 1) * sizeof *dens);
  g2_bases(&s, b, N);
  static const size_t sizes[] = {N, 1000, 65};
  for (size_t t = 0; t < 3; t++) {
    size_t n = sizes[t];
    witness_scalars(&s, k, n, 70, 25);
    for (int d = 0; d < 2; d++) {
      size_t present = d ? random_density(&s, dens, n, 50) : n;
      cuzk_g2 want, got;
      g2_gathered(&want, b, k, n, d ? dens : NULL);
      cuzk_msm_opts o2 = {.pool = pool2};
      CHECK_MSG(cuzk_g2_msm_witness(&got, b, present, k, n, d ? dens : NULL, &o2) == CUZK_MSM_OK &&
                    cuzk_g2_eq(&got, &want),
                "G2 witness n=%zu density=%d", n, d);
    }
  }
  free(b);
  free(k);
  free(dens);
}

/* ---- the flush on IFMA lanes -------------------------------------------------------------- */

/* One flush of k additions on n accumulators through the MSM's lanes and through the scalar
 * kernels (msm/batch_ifma.h): the same accumulators and skipped flags, byte for byte. Batches
 * of every size 1..40 (partial vectors) and 512; special = additions whose point is +-its
 * accumulator (no slope: the side value). Written once for G1 and G2. */
#define FLUSH_CASE(G, AFF)                                                               \
  static void G##_flush_case(uint64_t *s, const AFF *pts, size_t np, size_t n, size_t k, \
                             unsigned special) {                                         \
    AFF *a1 = malloc(n * sizeof *a1), *a2 = malloc(n * sizeof *a2);                      \
    AFF *own = malloc(k * sizeof *own);                                                  \
    const AFF **pt = malloc(k * sizeof *pt);                                             \
    uint32_t *idx = malloc(k * sizeof *idx), *perm = malloc(n * sizeof *perm);           \
    uint8_t *sk1 = malloc(k), *sk2 = malloc(k);                                          \
    for (size_t i = 0; i < n; i++) {                                                     \
      a1[i] = pts[rng_next(s) % np];                                                     \
      perm[i] = (uint32_t)i;                                                             \
    }                                                                                    \
    for (size_t i = n; i-- > 1;) {                                                       \
      size_t j = rng_next(s) % (i + 1);                                                  \
      uint32_t t = perm[i];                                                              \
      perm[i] = perm[j];                                                                 \
      perm[j] = t;                                                                       \
    }                                                                                    \
    for (size_t e = 0; e < k; e++) {                                                     \
      bool neg = rng_next(s) & 1;                                                        \
      idx[e] = perm[e] | (neg ? MSM_IFMA_NEG_BIT : 0);                                   \
      if (special && rng_next(s) % special == 0) { /* +-A: a doubling or A - A */        \
        own[e] = a1[perm[e]];                                                            \
        if (rng_next(s) & 1) cuzk_##G##_affine_neg(&own[e], &own[e]);                    \
        pt[e] = &own[e];                                                                 \
      } else {                                                                           \
        pt[e] = &pts[rng_next(s) % np];                                                  \
      }                                                                                  \
    }                                                                                    \
    memcpy(a2, a1, n * sizeof *a1);                                                      \
    CHECK(msm_##G##_batch_add_lanes(a1, n, idx, pt, k, sk1));                            \
    CHECK(msm_##G##_batch_add_scalar(a2, n, idx, pt, k, sk2));                           \
    CHECK_MSG(memcmp(a1, a2, n * sizeof *a1) == 0 && memcmp(sk1, sk2, k) == 0,           \
              #G " flush lanes/scalar k=%zu special=%u", k, special);                    \
    free(a1);                                                                            \
    free(a2);                                                                            \
    free(own);                                                                           \
    free(pt);                                                                            \
    free(idx);                                                                           \
    free(perm);                                                                          \
    free(sk1);                                                                           \
    free(sk2);                                                                           \
  }                                                                                      \
  static void G##_flush_lanes(uint64_t *s) {                                             \
    enum { NP = 600 };                                                                   \
    AFF *pts = malloc(NP * sizeof *pts);                                                 \
    G##_bases(s, pts, NP);                                                               \
    for (size_t k = 1; k <= 40; k++) {                                                   \
      G##_flush_case(s, pts, NP, 64, k, 0);                                              \
      G##_flush_case(s, pts, NP, 64, k, 3);                                              \
    }                                                                                    \
    G##_flush_case(s, pts, NP, 2048, 512, 0);                                            \
    G##_flush_case(s, pts, NP, 2048, 512, 50);                                           \
    G##_flush_case(s, pts, NP, 512, 512, 1); /* every addition without a slope */        \
    free(pts);                                                                           \
  }
FLUSH_CASE(g1, cuzk_g1_affine)
FLUSH_CASE(g2, cuzk_g2_affine)

static void test_flush_lanes(void) {
  if (!ifma_both) return;
  uint64_t s = 9;
  g1_flush_lanes(&s);
  g2_flush_lanes(&s);
}

/* ---- batched affine sums (cuzk/msm/msm.h) ------------------------------------------------------
 */

/* n sums fed in rounds of additions against the same sums in Jacobian form: rounds of distinct
 * indices (one flush each), a round with repeated indices, additions of +-the current sum (no
 * slope: a doubling, or back to infinity), sums never touched (infinity), a take of fewer than
 * n, and a second use after take (every sum back to infinity). Written once for G1 and G2. */
#define SUMS_CASE(G, AFF, JAC)                                                                 \
  static void G##_sums_check(uint64_t *s) {                                                    \
    enum { NP = 300, N = 64, ROUNDS = 12 };                                                    \
    AFF *pts = malloc(NP * sizeof *pts), *got = malloc(N * sizeof *got);                       \
    AFF *cur = malloc(N * sizeof *cur), *own = malloc(2 * N * sizeof *own);                    \
    JAC *want = malloc(N * sizeof *want);                                                      \
    const AFF **pt = malloc(2 * N * sizeof *pt);                                               \
    uint32_t idx[2 * N];                                                                       \
    G##_bases(s, pts, NP);                                                                     \
    cuzk_##G##_sums *sums = cuzk_##G##_sums_new(N);                                            \
    CHECK(sums != NULL && cuzk_##G##_sums_new(0) == NULL);                                     \
    for (int use = 0; use < 2; use++) {                                                        \
      for (size_t i = 0; i < N; i++)                                                           \
        cuzk_##G##_set_infinity(&want[i]);                                                     \
      for (int r = 0; r < ROUNDS; r++) {                                                       \
        cuzk_##G##_batch_to_affine(cur, want, N); /* the sums so far, for +-A additions */     \
        size_t k = 0;                                                                          \
        bool repeat = r == 5;                                                                  \
        for (uint32_t i = 0; i < N - 3; i++) { /* the last three are never added to */         \
          if (rng_next(s) % 4 == 0) continue;                                                  \
          unsigned copies = repeat && i % 3 == 0 ? 3 : 1;                                      \
          for (unsigned c = 0; c < copies; c++) {                                              \
            const AFF *p = &pts[rng_next(s) % NP];                                             \
            if (r >= 2 && rng_next(s) % 5 == 0 && !cuzk_##G##_is_infinity(&want[i])) {         \
              own[k] = cur[i]; /* +-A: a doubling, or A - A */                                 \
              if (rng_next(s) & 1) cuzk_##G##_affine_neg(&own[k], &own[k]);                    \
              p = &own[k];                                                                     \
            }                                                                                  \
            idx[k] = i;                                                                        \
            pt[k++] = p;                                                                       \
            cuzk_##G##_add_affine(&want[i], &want[i], p);                                      \
            if (copies > 1) cuzk_##G##_batch_to_affine(cur, want, N);                          \
          }                                                                                    \
        }                                                                                      \
        cuzk_##G##_sums_add(sums, idx, pt, k);                                                 \
      }                                                                                        \
      size_t count = use ? N : N - 7;                                                          \
      memset(got, 0xa5, N * sizeof *got);                                                      \
      cuzk_##G##_sums_take(sums, got, count);                                                  \
      cuzk_##G##_batch_to_affine(cur, want, N);                                                \
      size_t bad = 0, inf = 0;                                                                 \
      for (size_t i = 0; i < count; i++) {                                                     \
        bool is_inf = cuzk_##G##_is_infinity(&want[i]);                                        \
        inf += is_inf;                                                                         \
        AFF zero;                                                                              \
        memset(&zero, 0, sizeof zero);                                                         \
        bad += memcmp(&got[i], is_inf ? &zero : &cur[i], sizeof zero) != 0;                    \
      }                                                                                        \
      unsigned char tail = 0xa5;                                                               \
      for (size_t i = count; i < N; i++) /* past count: not written */                         \
        for (size_t b = 0; b < sizeof *got; b++)                                               \
          tail &= ((const unsigned char *)&got[i])[b];                                         \
      CHECK_MSG(bad == 0 && inf >= 3 && tail == 0xa5,                                          \
                #G " sums, use %d: %zu of %zu differ, %zu at infinity", use, bad, count, inf); \
    }                                                                                          \
    cuzk_##G##_sums_free(sums);                                                                \
    cuzk_##G##_sums_free(NULL);                                                                \
    free(pts);                                                                                 \
    free(got);                                                                                 \
    free(cur);                                                                                 \
    free(own);                                                                                 \
    free(want);                                                                                \
    free(pt);                                                                                  \
  }
SUMS_CASE(g1, cuzk_g1_affine, cuzk_g1)
SUMS_CASE(g2, cuzk_g2_affine, cuzk_g2)

static void test_sums(void) {
  uint64_t s = 31;
  g1_sums_check(&s);
  g2_sums_check(&s);
}

/* ---- errors ------------------------------------------------------------------------------- */

static void test_errors(void) {
  cuzk_g1_affine b[4];
  cuzk_fr k[4];
  cuzk_g1 r;
  uint64_t s = 6, dens = 0xf;
  g1_bases(&s, b, 4);
  random_scalars(&s, k, 4);
  CHECK(g1_msm(NULL, b, k, 4, NULL) == CUZK_MSM_EINVAL);
  CHECK(g1_msm(&r, NULL, k, 4, NULL) == CUZK_MSM_EINVAL);
  CHECK(g1_msm(&r, b, NULL, 4, NULL) == CUZK_MSM_EINVAL);
  cuzk_msm_opts bad = {.window = CUZK_MSM_MAX_WINDOW + 1};
  CHECK(g1_msm(&r, b, k, 4, &bad) == CUZK_MSM_EINVAL);
  bad = (cuzk_msm_opts){.method = (cuzk_msm_method)7};
  CHECK(g1_msm(&r, b, k, 4, &bad) == CUZK_MSM_EINVAL);
  CHECK(g1_msm_witness(&r, b, 3, k, 4, NULL, NULL) == CUZK_MSM_EINVAL);
  CHECK(g1_msm_witness(&r, b, 3, k, 4, &dens, NULL) == CUZK_MSM_EINVAL);
  CHECK(g1_msm_witness(&r, b, 4, k, 4, &dens, NULL) == CUZK_MSM_OK);
  CHECK(strcmp(cuzk_msm_strerror(CUZK_MSM_EINVAL), cuzk_msm_strerror(CUZK_MSM_ENOMEM)) != 0);
  CHECK(cuzk_msm_strerror((cuzk_msm_err)99) != NULL);
}

/* A raised cancel flag: ECANCELLED and r untouched, for each method, thread count, group and the
 * witness path; a flag that stays down changes nothing. */
static void test_cancel(void) {
  enum { N = 3000 };
  uint64_t s = 8;
  cuzk_g1_affine *b = malloc(N * sizeof *b);
  cuzk_g2_affine *b2 = malloc(N * sizeof *b2);
  cuzk_fr *k = malloc(N * sizeof *k);
  g1_bases(&s, b, N);
  g2_bases(&s, b2, N);
  random_scalars(&s, k, N);
  for (size_t i = 0; i < N; i += 3)
    k[i] = cuzk_fr_one; /* some ones for the witness path */
  _Atomic int up = 1, down = 0;
  cuzk_g1 ref, r, sentinel;
  cuzk_g1_from_affine(&sentinel, &b[7]);
  CHECK(g1_msm(&ref, b, k, N, NULL) == CUZK_MSM_OK);
  for (int m = 0; m < 2; m++)
    for (int t = 0; t < 2; t++) {
      cuzk_msm_opts o = {
          .pool = t ? pool2 : NULL, .method = m ? CUZK_MSM_XYZZ : CUZK_MSM_AFFINE, .cancel = &up};
      r = sentinel;
      CHECK(g1_msm(&r, b, k, N, &o) == CUZK_MSM_ECANCELLED && cuzk_g1_eq(&r, &sentinel));
      r = sentinel;
      CHECK(g1_msm_witness(&r, b, N, k, N, NULL, &o) == CUZK_MSM_ECANCELLED &&
            cuzk_g1_eq(&r, &sentinel));
      o.cancel = &down;
      CHECK(g1_msm(&r, b, k, N, &o) == CUZK_MSM_OK && cuzk_g1_eq(&r, &ref));
      CHECK(g1_msm_witness(&r, b, N, k, N, NULL, &o) == CUZK_MSM_OK && cuzk_g1_eq(&r, &ref));
    }
  cuzk_g2 r2, ref2;
  cuzk_msm_opts o = {.pool = pool2, .cancel = &up};
  CHECK(cuzk_g2_msm(&r2, b2, k, N, &o) == CUZK_MSM_ECANCELLED);
  CHECK(cuzk_g2_msm_witness(&r2, b2, N, k, N, NULL, &o) == CUZK_MSM_ECANCELLED);
  o.cancel = &down;
  CHECK(cuzk_g2_msm(&ref2, b2, k, N, NULL) == CUZK_MSM_OK);
  CHECK(cuzk_g2_msm_witness(&r2, b2, N, k, N, NULL, &o) == CUZK_MSM_OK && cuzk_g2_eq(&r2, &ref2));
  CHECK(strcmp(cuzk_msm_strerror(CUZK_MSM_ECANCELLED), "cancelled") == 0);
  free(b);
  free(b2);
  free(k);
}

int main(void) {
  if (cuzk_pool_create(&pool2, 2) != CUZK_POOL_OK) {
    fprintf(stderr, "cannot create a 2-thread pool\n");
    return 1;
  }
  make_variants();
  ifma_both = cuzk_field_ifma_enabled();
  const char *no = getenv("CUZK_NO_IFMA");
  if (no && no[0] && strcmp(no, "0") != 0) CHECK(!cuzk_field_ifma_enabled());
  printf("test_msm: IFMA %s\n", ifma_both ? "enabled: G1 compared with the scalar kernels"
                                          : "not enabled: scalar kernels only");
  test_random_sizes();
  test_edge_cases();
  test_threads();
  test_witness_g1();
  test_witness_g2();
  test_flush_lanes();
  test_sums();
  test_errors();
  test_cancel();
  cuzk_pool_destroy(pool2);
  if (ifma_both) printf("test_msm: %zu G1 calls compared across kernels\n", ifma_compared);
  return check_summary("test_msm");
}
