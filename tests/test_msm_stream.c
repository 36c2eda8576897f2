/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The MSMs over streamed bases (cuzk/msm/msm.h, docs/msm.md "Streamed bases") against the resident
 * MSMs on the same bases and scalars, G1 and G2, plain and witness-aware (with and without a
 * density, 0/1/other mixes), at chunk sizes of one point, sizes that do not divide the vector,
 * the default and more than the vector; bases at infinity; one and two threads; forced methods
 * and windows. The source records what it was asked: every base filled lies inside the vector,
 * `done` covers the bases used exactly once and in order, and `will_need` only names bases
 * that come later. Cancellation returns ECANCELLED and leaves the result alone.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuzk/msm/msm.h"
#include "cuzk/util/pool.h"
#include "msm_inputs.h"
#include "rng.h"

static cuzk_pool *pool2;

/* A source over an array, checking how it is used. */
typedef struct {
  const void *bases;
  size_t size, nbases; /* bytes per base, bases */
  _Atomic size_t filled, bad;
  size_t done_next; /* the next base `done` must name */
  size_t done_calls, bad_done, bad_need;
} src_state;

static void src_fill(const void *ctx, size_t first, size_t count, void *out) {
  src_state *s = (src_state *)ctx;
  if (first + count > s->nbases || count == 0) {
    atomic_fetch_add(&s->bad, 1);
    return;
  }
  memcpy(out, (const char *)s->bases + first * s->size, count * s->size);
  atomic_fetch_add(&s->filled, count);
}

static void src_done(const void *ctx, size_t first, size_t count) {
  src_state *s = (src_state *)ctx;
  if (first != s->done_next || count == 0) s->bad_done++;
  s->done_next = first + count;
  s->done_calls++;
}

static void src_need(const void *ctx, size_t first, size_t count) {
  src_state *s = (src_state *)ctx;
  if (first < s->done_next || first + count > s->nbases || count == 0) s->bad_need++;
}

static cuzk_msm_source make_src(src_state *st, const void *bases, size_t size, size_t nbases,
                                size_t chunk) {
  memset(st, 0, sizeof *st);
  st->bases = bases;
  st->size = size;
  st->nbases = nbases;
  return (cuzk_msm_source){
      .fill = src_fill, .will_need = src_need, .done = src_done, .ctx = st, .chunk = chunk};
}

/* The source was used as the contract says: `used` bases from 0 released, and read — all of
 * them, or (the witness form) `filled` of them: those whose scalar is not 0. */
static void check_src(const char *what, size_t chunk, const src_state *st, size_t used,
                      size_t filled) {
  CHECK_MSG(atomic_load(&st->bad) == 0 && st->bad_done == 0 && st->bad_need == 0,
            "%s chunk %zu: source misused (fill %zu, done %zu, will_need %zu)", what, chunk,
            atomic_load(&st->bad), st->bad_done, st->bad_need);
  CHECK_MSG(st->done_next == used && atomic_load(&st->filled) == filled,
            "%s chunk %zu: %zu bases filled (%zu expected), done up to %zu, %zu used", what, chunk,
            atomic_load(&st->filled), filled, st->done_next, used);
}

/* Present variables (density bit set, below n) whose scalar is not 0. */
static size_t nonzero_present(const cuzk_fr *k, size_t n, const uint64_t *dens) {
  size_t c = 0;
  for (size_t j = 0; j < n; j++)
    c += (!dens || ((dens[j / 64] >> (j % 64)) & 1)) && !cuzk_fr_is_zero(&k[j]);
  return c;
}

static void g1_bases(uint64_t *s, cuzk_g1_affine *out, size_t n) {
  cuzk_g1 g, r[8], *j = malloc(n * sizeof *j);
  cuzk_g1_generator(&g);
  for (int i = 0; i < 8; i++) {
    cuzk_fr k;
    rng_fr(s, &k);
    cuzk_g1_mul(&r[i], &g, &k);
  }
  for (size_t i = 0; i < n; i++) {
    if (i < 8)
      j[i] = r[i];
    else
      cuzk_g1_add(&j[i], &j[i - 1], &r[i % 8]);
  }
  cuzk_g1_batch_to_affine(out, j, n);
  free(j);
  for (size_t i = 13; i < n; i += 101) /* some at infinity */
    memset(&out[i], 0, sizeof out[i]);
}

static void g2_bases(uint64_t *s, cuzk_g2_affine *out, size_t n) {
  cuzk_g2 g, r[8], *j = malloc(n * sizeof *j);
  cuzk_g2_generator(&g);
  for (int i = 0; i < 8; i++) {
    cuzk_fr k;
    rng_fr(s, &k);
    cuzk_g2_mul(&r[i], &g, &k);
  }
  for (size_t i = 0; i < n; i++) {
    if (i < 8)
      j[i] = r[i];
    else
      cuzk_g2_add(&j[i], &j[i - 1], &r[i % 8]);
  }
  cuzk_g2_batch_to_affine(out, j, n);
  free(j);
  for (size_t i = 29; i < n; i += 97)
    memset(&out[i], 0, sizeof out[i]);
}

static const size_t chunks[] = {1, 7, 64, 1000, 4099, 0, 1u << 30};

static void test_plain(void) {
  uint64_t s = 11;
  enum { N = 6000, M = 700 };
  cuzk_g1_affine *b1 = malloc(N * sizeof *b1);
  cuzk_g2_affine *b2 = malloc(M * sizeof *b2);
  cuzk_fr *k = malloc(N * sizeof *k);
  g1_bases(&s, b1, N);
  g2_bases(&s, b2, M);
  witness_scalars(&s, k, N, 5, 5);
  static const size_t sizes[] = {N, 4097, 1, 2};
  for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
    size_t n = sizes[z];
    cuzk_g1 want, got;
    CHECK(cuzk_g1_msm(&want, b1, k, n, NULL) == CUZK_MSM_OK);
    for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
      if (chunks[c] == 1 && n > 1000) continue; /* one point at a time: the small sizes */
      for (int t = 0; t < 2; t++) {
        cuzk_msm_opts o = {.pool = t ? pool2 : NULL};
        src_state st;
        cuzk_msm_source src = make_src(&st, b1, sizeof *b1, n, chunks[c]);
        CHECK_MSG(cuzk_g1_msm_stream(&got, &src, k, n, &o) == CUZK_MSM_OK &&
                      cuzk_g1_eq(&got, &want),
                  "G1 stream n=%zu chunk %zu threads %d", n, chunks[c], t + 1);
        check_src("G1 stream", chunks[c], &st, n, n);
      }
    }
    size_t m = n < M ? n : M;
    cuzk_g2 want2, got2;
    CHECK(cuzk_g2_msm(&want2, b2, k, m, NULL) == CUZK_MSM_OK);
    for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
      cuzk_msm_opts o = {.pool = pool2};
      src_state st;
      cuzk_msm_source src = make_src(&st, b2, sizeof *b2, m, chunks[c]);
      CHECK_MSG(cuzk_g2_msm_stream(&got2, &src, k, m, &o) == CUZK_MSM_OK &&
                    cuzk_g2_eq(&got2, &want2),
                "G2 stream n=%zu chunk %zu", m, chunks[c]);
      check_src("G2 stream", chunks[c], &st, m, m);
    }
  }

  /* Forced methods and windows (the plan's bound does not apply to a forced window that
   * exceeds it; these fit). */
  static const cuzk_msm_opts forced[] = {{.method = CUZK_MSM_AFFINE, .window = 5},
                                         {.method = CUZK_MSM_XYZZ, .window = 11},
                                         {.method = CUZK_MSM_NAIVE},
                                         {.window = 16}};
  cuzk_g1 want, got;
  CHECK(cuzk_g1_msm(&want, b1, k, N, NULL) == CUZK_MSM_OK);
  for (size_t f = 0; f < sizeof forced / sizeof forced[0]; f++) {
    cuzk_msm_opts o = forced[f];
    o.pool = pool2;
    src_state st;
    cuzk_msm_source src = make_src(&st, b1, sizeof *b1, N, 1500);
    CHECK_MSG(cuzk_g1_msm_stream(&got, &src, k, N, &o) == CUZK_MSM_OK && cuzk_g1_eq(&got, &want),
              "G1 stream forced %zu", f);
  }

  /* n = 0: infinity, the source untouched. */
  src_state st;
  cuzk_msm_source src = make_src(&st, b1, sizeof *b1, 0, 0);
  CHECK(cuzk_g1_msm_stream(&got, &src, k, 0, NULL) == CUZK_MSM_OK && cuzk_g1_is_infinity(&got));
  CHECK(atomic_load(&st.filled) == 0 && st.done_calls == 0);
  free(b1);
  free(b2);
  free(k);
}

static void test_witness(void) {
  uint64_t s = 12;
  enum { N = 20000, M = 1500 };
  cuzk_g1_affine *b1 = malloc(N * sizeof *b1);
  cuzk_g2_affine *b2 = malloc(M * sizeof *b2);
  cuzk_fr *k = malloc(N * sizeof *k);
  uint64_t *dens = malloc((N / 64 + 1) * sizeof *dens);
  g1_bases(&s, b1, N);
  g2_bases(&s, b2, M);
  static const struct {
    size_t n;
    unsigned zero, one;
  } mixes[] = {{N, 70, 25}, {N, 0, 100}, {N, 100, 0}, {5000, 0, 0}, {777, 40, 40}, {1, 0, 0}};
  for (size_t t = 0; t < sizeof mixes / sizeof mixes[0]; t++) {
    size_t n = mixes[t].n;
    witness_scalars(&s, k, n, mixes[t].zero, mixes[t].one);
    for (int d = 0; d < 2; d++) {
      size_t present = d ? random_density(&s, dens, n, 60) : n;
      cuzk_g1 want, got;
      CHECK(cuzk_g1_msm_witness(&want, b1, present, k, n, d ? dens : NULL, NULL) == CUZK_MSM_OK);
      for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
        if (chunks[c] == 1 && n > 1000) continue;
        cuzk_msm_opts o = {.pool = c % 2 ? pool2 : NULL};
        src_state st;
        cuzk_msm_source src = make_src(&st, b1, sizeof *b1, present, chunks[c]);
        CHECK_MSG(cuzk_g1_msm_witness_stream(&got, &src, present, k, n, d ? dens : NULL, &o) ==
                          CUZK_MSM_OK &&
                      cuzk_g1_eq(&got, &want),
                  "G1 witness stream n=%zu %u/%u density=%d chunk %zu", n, mixes[t].zero,
                  mixes[t].one, d, chunks[c]);
        check_src("G1 witness stream", chunks[c], &st, present,
                  nonzero_present(k, n, d ? dens : NULL));
      }
      size_t m = n < M ? n : M;
      size_t present2 = d ? random_density(&s, dens, m, 50) : m;
      cuzk_g2 want2, got2;
      CHECK(cuzk_g2_msm_witness(&want2, b2, present2, k, m, d ? dens : NULL, NULL) == CUZK_MSM_OK);
      static const size_t c2[] = {3, 500, 0};
      for (size_t c = 0; c < 3; c++) {
        cuzk_msm_opts o = {.pool = pool2};
        src_state st;
        cuzk_msm_source src = make_src(&st, b2, sizeof *b2, present2, c2[c]);
        CHECK_MSG(cuzk_g2_msm_witness_stream(&got2, &src, present2, k, m, d ? dens : NULL, &o) ==
                          CUZK_MSM_OK &&
                      cuzk_g2_eq(&got2, &want2),
                  "G2 witness stream n=%zu density=%d chunk %zu", m, d, c2[c]);
        check_src("G2 witness stream", c2[c], &st, present2,
                  nonzero_present(k, m, d ? dens : NULL));
      }
    }
  }
  free(b1);
  free(b2);
  free(k);
  free(dens);
}

static void test_errors_and_cancel(void) {
  uint64_t s = 13;
  enum { N = 3000 };
  cuzk_g1_affine *b = malloc(N * sizeof *b);
  cuzk_fr *k = malloc(N * sizeof *k);
  g1_bases(&s, b, N);
  witness_scalars(&s, k, N, 10, 10);
  src_state st;
  cuzk_msm_source src = make_src(&st, b, sizeof *b, N, 100);
  cuzk_g1 r;
  CHECK(cuzk_g1_msm_stream(NULL, &src, k, N, NULL) == CUZK_MSM_EINVAL);
  CHECK(cuzk_g1_msm_stream(&r, NULL, k, N, NULL) == CUZK_MSM_EINVAL);
  CHECK(cuzk_g1_msm_stream(&r, &src, NULL, N, NULL) == CUZK_MSM_EINVAL);
  cuzk_msm_source nofill = src;
  nofill.fill = NULL;
  CHECK(cuzk_g1_msm_stream(&r, &nofill, k, N, NULL) == CUZK_MSM_EINVAL);
  cuzk_msm_opts bad = {.window = CUZK_MSM_MAX_WINDOW + 1};
  CHECK(cuzk_g1_msm_stream(&r, &src, k, N, &bad) == CUZK_MSM_EINVAL);
  /* fewer bases than the density (or the scalars) need */
  uint64_t dens[(N + 63) / 64];
  memset(dens, 0xff, sizeof dens);
  CHECK(cuzk_g1_msm_witness_stream(&r, &src, N - 1, k, N, NULL, NULL) == CUZK_MSM_EINVAL);
  CHECK(cuzk_g1_msm_witness_stream(&r, &src, N - 1, k, N, dens, NULL) == CUZK_MSM_EINVAL);

  _Atomic int flag = 1;
  cuzk_msm_opts o = {.pool = pool2, .cancel = &flag};
  cuzk_g1 sentinel;
  cuzk_g1_generator(&sentinel);
  r = sentinel;
  src = make_src(&st, b, sizeof *b, N, 100);
  CHECK(cuzk_g1_msm_stream(&r, &src, k, N, &o) == CUZK_MSM_ECANCELLED && cuzk_g1_eq(&r, &sentinel));
  src = make_src(&st, b, sizeof *b, N, 100);
  CHECK(cuzk_g1_msm_witness_stream(&r, &src, N, k, N, NULL, &o) == CUZK_MSM_ECANCELLED &&
        cuzk_g1_eq(&r, &sentinel));
  free(b);
  free(k);
}

int main(void) {
  if (cuzk_pool_create(&pool2, 2) != CUZK_POOL_OK) {
    fprintf(stderr, "cannot create a 2-thread pool\n");
    return 1;
  }
  test_plain();
  test_witness();
  test_errors_and_cancel();
  cuzk_pool_destroy(pool2);
  return check_summary("test_msm_stream");
}
