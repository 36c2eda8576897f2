/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * NTT layer tests: every transform against a naive O(n^2) DFT or Horner evaluation, round trips
 * up to 2^20, all orders, thread-count independence, the fused H step and the whole H chain
 * against schoolbook polynomial arithmetic, and the error codes.
 *
 * The engine's knobs (ntt_set_tuning) shrink the passes and the stored twiddle levels so that
 * sizes the naive references can afford also run the strided passes and the derived twiddles
 * that production sizes use.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuzk/ntt/ntt.h"
#include "field/consts.h"
#include "ntt/ntt_internal.h"
#include "ntt/pass.h"
#include "rng.h"

static uint64_t seed = 0x6e7474;

static cuzk_fr *vec_alloc(size_t n) {
  cuzk_fr *v = malloc(n * sizeof(cuzk_fr));
  if (!v) {
    fprintf(stderr, "test_ntt: out of memory\n");
    exit(2);
  }
  return v;
}

static void vec_rand(cuzk_fr *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    rng_fr(&seed, &v[i]);
}

static bool vec_eq(const cuzk_fr *a, const cuzk_fr *b, size_t n) {
  return memcmp(a, b, n * sizeof(cuzk_fr)) == 0;
}

static void fr_pow_u64(cuzk_fr *r, const cuzk_fr *a, uint64_t e) { cuzk_fr_pow(r, a, &e, 1); }

static size_t bitrev(size_t i, unsigned k) {
  size_t r = 0;
  for (unsigned b = 0; b < k; b++)
    r |= ((i >> b) & 1) << (k - 1 - b);
  return r;
}

static void permute(cuzk_fr *out, const cuzk_fr *in, size_t n, unsigned k) {
  for (size_t i = 0; i < n; i++)
    out[bitrev(i, k)] = in[i];
}

/* out[i] = scale · Σ_j in[j] · (shift·w^i)^j, the polynomial in evaluated at shift·w^i. */
static void naive_eval(cuzk_fr *out, const cuzk_fr *in, size_t n, const cuzk_fr *w,
                       const cuzk_fr *shift, const cuzk_fr *scale) {
  cuzk_fr x = *shift;
  for (size_t i = 0; i < n; i++) {
    cuzk_fr acc = cuzk_fr_zero; /* Horner */
    for (size_t j = n; j-- > 0;) {
      cuzk_fr_mul(&acc, &acc, &x);
      cuzk_fr_add(&acc, &acc, &in[j]);
    }
    cuzk_fr_mul(&out[i], &acc, scale);
    cuzk_fr_mul(&x, &x, w);
  }
}

static cuzk_fr horner_at(const cuzk_fr *c, size_t n, const cuzk_fr *x) {
  cuzk_fr acc = cuzk_fr_zero;
  for (size_t j = n; j-- > 0;) {
    cuzk_fr_mul(&acc, &acc, x);
    cuzk_fr_add(&acc, &acc, &c[j]);
  }
  return acc;
}

static cuzk_fr fr_u64(uint64_t v) {
  cuzk_fr r;
  cuzk_fr_from_u64(&r, v);
  return r;
}

static cuzk_fr fr_inverse(const cuzk_fr *a) {
  cuzk_fr r;
  cuzk_fr_inv(&r, a);
  return r;
}

/* The reference of each kind in natural order, from the definition. */
static void naive_kind(cuzk_fr *out, const cuzk_fr *in, size_t n, unsigned k, cuzk_ntt_kind kind) {
  cuzk_fr w, one = cuzk_fr_one, ninv = fr_u64(n), g = CUZK_FR_GENERATOR;
  cuzk_ntt_root(&w, k);
  ninv = fr_inverse(&ninv);
  if (kind == CUZK_NTT_FORWARD) {
    naive_eval(out, in, n, &w, &one, &one);
  } else if (kind == CUZK_NTT_COSET_FORWARD) {
    naive_eval(out, in, n, &w, &g, &one);
  } else { /* inverse: (1/n) Σ_j in[j] ω^-ij, then entry i times g^-i for the coset */
    cuzk_fr wi = fr_inverse(&w);
    naive_eval(out, in, n, &wi, &one, &ninv);
    if (kind == CUZK_NTT_COSET_INVERSE) {
      cuzk_fr gi = fr_inverse(&g), f = cuzk_fr_one;
      for (size_t i = 0; i < n; i++) {
        cuzk_fr_mul(&out[i], &out[i], &f);
        cuzk_fr_mul(&f, &f, &gi);
      }
    }
  }
}

static const char *kind_name[] = {"forward", "inverse", "coset_forward", "coset_inverse"};
static const char *order_name[] = {"NN", "NR", "RN"};

/* Every kind and order against the naive reference for n = 2^0 .. 2^maxk. */
static void test_naive(cuzk_pool *pool, unsigned maxk, const char *label) {
  for (unsigned k = 0; k <= maxk; k++) {
    size_t n = (size_t)1 << k;
    cuzk_fr *in = vec_alloc(n), *ref = vec_alloc(n), *v = vec_alloc(n), *tmp = vec_alloc(n);
    vec_rand(in, n);
    for (int kind = 0; kind < 4; kind++) {
      naive_kind(ref, in, n, k, (cuzk_ntt_kind)kind);
      for (int order = 0; order < 3; order++) {
        if (order == CUZK_NTT_RN)
          permute(v, in, n, k);
        else
          memcpy(v, in, n * sizeof(cuzk_fr));
        cuzk_ntt_err e = cuzk_ntt(v, n, (cuzk_ntt_kind)kind, (cuzk_ntt_order)order, pool, 0);
        CHECK(e == CUZK_NTT_OK);
        if (order == CUZK_NTT_NR) {
          permute(tmp, v, n, k); /* bit reversal is an involution */
          memcpy(v, tmp, n * sizeof(cuzk_fr));
        }
        CHECK_MSG(vec_eq(v, ref, n), "%s: %s %s n=2^%u differs from the naive DFT", label,
                  kind_name[kind], order_name[order], k);
      }
    }
    free(in), free(ref), free(v), free(tmp);
  }
}

/* inverse(forward(v)) = v and coset_inverse(coset_forward(v)) = v, plus spot checks of the
 * forward and coset values by Horner. */
static void test_round_trip(cuzk_pool *pool, unsigned k, unsigned spots) {
  size_t n = (size_t)1 << k;
  cuzk_fr *in = vec_alloc(n), *v = vec_alloc(n), w, g = CUZK_FR_GENERATOR;
  vec_rand(in, n);
  cuzk_ntt_root(&w, k);
  for (int coset = 0; coset < 2; coset++) {
    memcpy(v, in, n * sizeof(cuzk_fr));
    CHECK((coset ? cuzk_ntt_coset_forward : cuzk_ntt_forward)(v, n, pool, 0) == CUZK_NTT_OK);
    for (unsigned t = 0; t < spots; t++) {
      size_t i = t == 0 ? 0 : t == 1 ? n - 1 : (size_t)(rng_next(&seed) & (n - 1));
      cuzk_fr x;
      fr_pow_u64(&x, &w, i);
      if (coset) cuzk_fr_mul(&x, &x, &g);
      cuzk_fr y = horner_at(in, n, &x);
      CHECK_MSG(cuzk_fr_eq(&y, &v[i]), "%s n=2^%u: entry %zu is not P(%sω^i)",
                coset ? "coset" : "forward", k, i, coset ? "g·" : "");
    }
    CHECK((coset ? cuzk_ntt_coset_inverse : cuzk_ntt_inverse)(v, n, pool, 0) == CUZK_NTT_OK);
    CHECK_MSG(vec_eq(v, in, n), "%s round trip n=2^%u", coset ? "coset" : "plain", k);
  }
  free(in), free(v);
}

/* Same bytes for pool = NULL, 1 and 2 threads, several max_workers, every kind and order. */
static void test_threads(cuzk_pool *pool1, cuzk_pool *pool2, unsigned k) {
  size_t n = (size_t)1 << k;
  cuzk_fr *in = vec_alloc(n), *ref = vec_alloc(n), *v = vec_alloc(n);
  vec_rand(in, n);
  struct {
    cuzk_pool *p;
    unsigned mw;
  } runs[] = {{pool1, 0}, {pool2, 0}, {pool2, 1}, {pool2, 2}, {pool2, 7}};
  for (int kind = 0; kind < 4; kind++) {
    for (int order = 0; order < 3; order++) {
      memcpy(ref, in, n * sizeof(cuzk_fr));
      CHECK(cuzk_ntt(ref, n, (cuzk_ntt_kind)kind, (cuzk_ntt_order)order, NULL, 0) == CUZK_NTT_OK);
      for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        memcpy(v, in, n * sizeof(cuzk_fr));
        CHECK(cuzk_ntt(v, n, (cuzk_ntt_kind)kind, (cuzk_ntt_order)order, runs[r].p, runs[r].mw) ==
              CUZK_NTT_OK);
        CHECK_MSG(vec_eq(v, ref, n), "%s %s n=2^%u: threads=%u max_workers=%u differ",
                  kind_name[kind], order_name[order], k, cuzk_pool_threads(runs[r].p), runs[r].mw);
      }
    }
  }
  free(in), free(ref), free(v);
}

/* The AVX-512 IFMA kernels (when this CPU has them) give the same bytes as the scalar ones, which
 * the naive tests above pin down: every kind and order, and the H chain. */
static void test_ifma_vs_scalar(cuzk_pool *pool, unsigned k) {
  if (!ntt_ifma_supported()) return;
  size_t n = (size_t)1 << k;
  cuzk_fr *in = vec_alloc(3 * n), *ref = vec_alloc(3 * n), *v = vec_alloc(3 * n);
  vec_rand(in, 3 * n);
  for (int kind = 0; kind <= 4; kind++) { /* 4: the H chain */
    for (int order = 0; order < (kind == 4 ? 1 : 3); order++) {
      for (int ifma = 0; ifma < 2; ifma++) {
        cuzk_fr *out = ifma ? v : ref;
        memcpy(out, in, 3 * n * sizeof(cuzk_fr));
        ntt_ifma_enable(ifma);
        cuzk_ntt_err e =
            kind == 4 ? cuzk_ntt_h(out, out + n, out + 2 * n, n, pool, 0)
                      : cuzk_ntt(out, n, (cuzk_ntt_kind)kind, (cuzk_ntt_order)order, pool, 0);
        CHECK(e == CUZK_NTT_OK);
      }
      CHECK_MSG(vec_eq(v, ref, n), "IFMA %s %s n=2^%u differs from scalar",
                kind == 4 ? "H chain" : kind_name[kind], order_name[order], k);
    }
  }
  ntt_ifma_enable(true);
  free(in), free(ref), free(v);
}

/* Polynomial helpers for the H reference. */
static void naive_interpolate(cuzk_fr *coef, const cuzk_fr *evals, size_t n, unsigned k) {
  naive_kind(coef, evals, n, k, CUZK_NTT_INVERSE);
}

/* The H chain by schoolbook arithmetic. With P = A·B - C (degree <= 2n-2) written as
 * P = Q·(x^n - 1) + R, bellperson's result is the polynomial of degree < n equal to P/Z on the
 * coset, where Z = x^n - 1 is the constant g^n - 1: that is Q + R/(g^n - 1). Q_j = p_(j+n) and
 * R_j = p_j + p_(j+n). */
static void naive_h(cuzk_fr *h, const cuzk_fr *a, const cuzk_fr *b, const cuzk_fr *c, size_t n,
                    unsigned k) {
  cuzk_fr *A = vec_alloc(n), *B = vec_alloc(n), *C = vec_alloc(n), *P = vec_alloc(2 * n);
  naive_interpolate(A, a, n, k);
  naive_interpolate(B, b, n, k);
  naive_interpolate(C, c, n, k);
  for (size_t i = 0; i < 2 * n; i++)
    P[i] = cuzk_fr_zero;
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++) {
      cuzk_fr t;
      cuzk_fr_mul(&t, &A[i], &B[j]);
      cuzk_fr_add(&P[i + j], &P[i + j], &t);
    }
  for (size_t i = 0; i < n; i++)
    cuzk_fr_sub(&P[i], &P[i], &C[i]);
  cuzk_fr z;
  fr_pow_u64(&z, &CUZK_FR_GENERATOR, n);
  cuzk_fr_sub(&z, &z, &cuzk_fr_one);
  cuzk_fr zinv = fr_inverse(&z);
  for (size_t j = 0; j < n; j++) {
    cuzk_fr r;
    cuzk_fr_add(&r, &P[j], &P[j + n]);
    cuzk_fr_mul(&r, &r, &zinv);
    cuzk_fr_add(&h[j], &P[j + n], &r);
  }
  free(A), free(B), free(C), free(P);
}

static void test_h(cuzk_pool *pool, unsigned maxk) {
  for (unsigned k = 0; k <= maxk; k++) {
    size_t n = (size_t)1 << k;
    cuzk_fr *a = vec_alloc(n), *b = vec_alloc(n), *c = vec_alloc(n), *ref = vec_alloc(n);
    cuzk_fr z, zinv;
    fr_pow_u64(&z, &CUZK_FR_GENERATOR, n);
    cuzk_fr_sub(&z, &z, &cuzk_fr_one);
    zinv = fr_inverse(&z);

    /* the pointwise step */
    vec_rand(a, n), vec_rand(b, n), vec_rand(c, n);
    for (size_t i = 0; i < n; i++) {
      cuzk_fr t;
      cuzk_fr_mul(&t, &a[i], &b[i]);
      cuzk_fr_sub(&t, &t, &c[i]);
      cuzk_fr_mul(&ref[i], &t, &zinv);
    }
    CHECK(cuzk_ntt_h_pointwise(a, b, c, n, pool, 0) == CUZK_NTT_OK);
    CHECK_MSG(vec_eq(a, ref, n), "h_pointwise n=2^%u", k);

    /* the chain on random a, b, c (A·B - C not divisible by Z) */
    vec_rand(a, n), vec_rand(b, n), vec_rand(c, n);
    naive_h(ref, a, b, c, n, k);
    CHECK(cuzk_ntt_h(a, b, c, n, pool, 0) == CUZK_NTT_OK);
    CHECK_MSG(vec_eq(a, ref, n), "H chain n=2^%u differs from schoolbook", k);
    /* the cancellable chain: the same with its flag down, ECANCELLED with it up */
    _Atomic int down = 0, up = 1;
    vec_rand(a, n), vec_rand(b, n), vec_rand(c, n);
    naive_h(ref, a, b, c, n, k);
    CHECK(cuzk_ntt_h_cancellable(a, b, c, n, pool, 0, &down) == CUZK_NTT_OK);
    CHECK_MSG(vec_eq(a, ref, n), "cancellable H chain n=2^%u", k);
    CHECK(cuzk_ntt_h_cancellable(a, b, c, n, pool, 0, &up) == CUZK_NTT_ECANCELLED);
    /* the staged chain with two vectors (c formed only after a·b, in b's memory) */
    vec_rand(a, n), vec_rand(b, n), vec_rand(c, n);
    naive_h(ref, a, b, c, n, k);
    CHECK(cuzk_ntt_h_coset(a, n, pool, 0, &down) == CUZK_NTT_OK &&
          cuzk_ntt_h_coset(b, n, pool, 0, NULL) == CUZK_NTT_OK &&
          cuzk_ntt_h_mul(a, b, n, pool, 0) == CUZK_NTT_OK);
    memcpy(b, c, n * sizeof(cuzk_fr));
    CHECK(cuzk_ntt_h_coset(b, n, pool, 0, NULL) == CUZK_NTT_OK &&
          cuzk_ntt_h_sub(a, b, n, pool, 0) == CUZK_NTT_OK &&
          cuzk_ntt_h_finish(a, n, pool, 0, &down) == CUZK_NTT_OK);
    CHECK_MSG(vec_eq(a, ref, n), "staged H chain n=2^%u", k);
    CHECK(cuzk_ntt_h_coset(a, n, pool, 0, &up) == CUZK_NTT_ECANCELLED &&
          cuzk_ntt_h_finish(a, n, pool, 0, &up) == CUZK_NTT_ECANCELLED);
    CHECK(cuzk_ntt_h_mul(a, a, n, pool, 0) == CUZK_NTT_EINVAL &&
          cuzk_ntt_h_sub(a, NULL, n, pool, 0) == CUZK_NTT_ENULL &&
          cuzk_ntt_h_coset(a, 3, pool, 0, NULL) == CUZK_NTT_ESIZE);

    /* a satisfied system: c = a·b on the domain, so Z divides A·B - C and a[n-1] = 0 */
    vec_rand(a, n), vec_rand(b, n);
    for (size_t i = 0; i < n; i++)
      cuzk_fr_mul(&c[i], &a[i], &b[i]);
    naive_h(ref, a, b, c, n, k);
    CHECK(cuzk_fr_is_zero(&ref[n - 1]));
    CHECK(cuzk_ntt_h(a, b, c, n, pool, 0) == CUZK_NTT_OK);
    CHECK_MSG(vec_eq(a, ref, n), "H chain (satisfied) n=2^%u", k);
    CHECK(cuzk_fr_is_zero(&a[n - 1]));
    free(a), free(b), free(c), free(ref);
  }
}

static void test_bitreverse(cuzk_pool *pool) {
  for (unsigned k = 0; k <= 14; k++) {
    size_t n = (size_t)1 << k;
    cuzk_fr *v = vec_alloc(n), *ref = vec_alloc(n);
    vec_rand(v, n);
    permute(ref, v, n, k);
    CHECK(cuzk_ntt_bitreverse(v, n, pool, 0) == CUZK_NTT_OK);
    CHECK_MSG(vec_eq(v, ref, n), "bitreverse n=2^%u", k);
    free(v), free(ref);
  }
}

static void test_roots(void) {
  /* ω_27 from docs/spec/groth16.md §1.4, big-endian canonical hex */
  static const char *w27 = "23397a9300f8f98bece8ea224f31d25db94f1101b1d7a628e2d0a7869f0319ed";
  cuzk_fr w, t;
  CHECK(cuzk_ntt_root(&w, 27) == CUZK_NTT_OK);
  uint8_t le[32];
  unsigned char be[32];
  char hex[65];
  cuzk_fr_to_bytes(le, &w);
  for (int i = 0; i < 32; i++)
    be[i] = le[31 - i];
  to_hex(hex, be, 32);
  CHECK_MSG(strcmp(hex, w27) == 0, "omega_27 = %s", hex);
  for (unsigned k = 0; k <= 32; k++) { /* ω_k has order exactly 2^k */
    CHECK(cuzk_ntt_root(&w, k) == CUZK_NTT_OK);
    t = w;
    for (unsigned i = 0; i + 1 < k; i++)
      cuzk_fr_sqr(&t, &t);
    if (k > 0) {
      cuzk_fr m1;
      cuzk_fr_neg(&m1, &cuzk_fr_one);
      CHECK_MSG(cuzk_fr_eq(&t, &m1), "omega_%u^(2^(k-1)) != -1", k);
      cuzk_fr_sqr(&t, &t);
    }
    CHECK_MSG(cuzk_fr_is_one(&t), "omega_%u^(2^k) != 1", k);
  }
}

static void test_errors(void) {
  cuzk_fr v[4] = {{{0}}}, w;
  CHECK(cuzk_ntt_forward(NULL, 4, NULL, 0) == CUZK_NTT_ENULL);
  CHECK(cuzk_ntt_forward(v, 0, NULL, 0) == CUZK_NTT_ESIZE);
  CHECK(cuzk_ntt_inverse(v, 3, NULL, 0) == CUZK_NTT_ESIZE);
  CHECK(cuzk_ntt_coset_forward(v, 6, NULL, 0) == CUZK_NTT_ESIZE);
  /* sizes are checked before the vector is touched, so huge n with a tiny buffer is safe */
  CHECK(cuzk_ntt_coset_inverse(v, (size_t)1 << 28, NULL, 0) == CUZK_NTT_ETOOBIG);
  CHECK(cuzk_ntt_forward(v, (size_t)1 << 32, NULL, 0) == CUZK_NTT_ETOOBIG);
  CHECK(cuzk_ntt_forward(v, (size_t)1 << 33, NULL, 0) == CUZK_NTT_EDOMAIN);
  CHECK(cuzk_ntt_forward(v, (size_t)1 << 40, NULL, 0) == CUZK_NTT_EDOMAIN);
  CHECK(cuzk_ntt(v, 4, (cuzk_ntt_kind)9, CUZK_NTT_NN, NULL, 0) == CUZK_NTT_EINVAL);
  CHECK(cuzk_ntt(v, 4, CUZK_NTT_FORWARD, (cuzk_ntt_order)9, NULL, 0) == CUZK_NTT_EINVAL);
  CHECK(cuzk_ntt_bitreverse(v, 5, NULL, 0) == CUZK_NTT_ESIZE);
  CHECK(cuzk_ntt_bitreverse(NULL, 4, NULL, 0) == CUZK_NTT_ENULL);
  CHECK(cuzk_ntt_h_pointwise(v, v + 1, NULL, 2, NULL, 0) == CUZK_NTT_ENULL);
  CHECK(cuzk_ntt_h_pointwise(v, v, v + 2, 2, NULL, 0) == CUZK_NTT_EINVAL);
  CHECK(cuzk_ntt_h(v, v, v, 1, NULL, 0) == CUZK_NTT_EINVAL);
  CHECK(cuzk_ntt_h(v, v + 1, v + 2, 3, NULL, 0) == CUZK_NTT_ESIZE);
  CHECK(strcmp(cuzk_ntt_strerror(CUZK_NTT_ECANCELLED), "cancelled") == 0);
  CHECK(cuzk_ntt_root(NULL, 3) == CUZK_NTT_ENULL);
  CHECK(cuzk_ntt_root(&w, 33) == CUZK_NTT_EDOMAIN);
  CHECK(cuzk_ntt_prepare(28) == CUZK_NTT_ETOOBIG);
  CHECK(cuzk_ntt_prepare(33) == CUZK_NTT_EDOMAIN);
  for (int i = 0; i < 4; i++) /* untouched by the failed calls */
    CHECK(cuzk_fr_is_zero(&v[i]));
  const char *seen[8];
  for (int e = CUZK_NTT_OK; e <= CUZK_NTT_ENOMEM; e++) {
    seen[e] = cuzk_ntt_strerror((cuzk_ntt_err)e);
    CHECK(seen[e] != NULL && strlen(seen[e]) > 0);
    for (int f = 0; f < e; f++)
      CHECK(strcmp(seen[e], seen[f]) != 0);
  }
  CHECK(strcmp(cuzk_ntt_strerror((cuzk_ntt_err)99), "unknown NTT error") == 0);
}

/* Two threads build the tower concurrently from scratch and get the single-thread results. */
typedef struct {
  cuzk_fr *v;
  size_t n;
  cuzk_ntt_kind kind;
} conc_job;

static void *conc_main(void *arg) {
  conc_job *j = arg;
  cuzk_ntt(j->v, j->n, j->kind, CUZK_NTT_NN, NULL, 0);
  return NULL;
}

static void test_concurrent_build(void) {
  size_t n = (size_t)1 << 14;
  cuzk_fr *in = vec_alloc(n), *r0 = vec_alloc(n), *r1 = vec_alloc(n), *v0 = vec_alloc(n),
          *v1 = vec_alloc(n);
  vec_rand(in, n);
  memcpy(r0, in, n * sizeof(cuzk_fr));
  memcpy(r1, in, n * sizeof(cuzk_fr));
  CHECK(cuzk_ntt_forward(r0, n, NULL, 0) == CUZK_NTT_OK);
  CHECK(cuzk_ntt_coset_inverse(r1, n, NULL, 0) == CUZK_NTT_OK);
  cuzk_ntt_release();
  memcpy(v0, in, n * sizeof(cuzk_fr));
  memcpy(v1, in, n * sizeof(cuzk_fr));
  conc_job j0 = {v0, n, CUZK_NTT_FORWARD}, j1 = {v1, n, CUZK_NTT_COSET_INVERSE};
  pthread_t t0, t1;
  CHECK(pthread_create(&t0, NULL, conc_main, &j0) == 0);
  CHECK(pthread_create(&t1, NULL, conc_main, &j1) == 0);
  pthread_join(t0, NULL);
  pthread_join(t1, NULL);
  CHECK(vec_eq(v0, r0, n));
  CHECK(vec_eq(v1, r1, n));
  free(in), free(r0), free(r1), free(v0), free(v1);
}

/* Both Montgomery kernels give the same transform. */
static void test_kernels(void) {
  if (!cuzk_field_kernel_supported(CUZK_KERNEL_ADX)) return;
  cuzk_field_kernel saved = cuzk_field_active_kernel();
  size_t n = (size_t)1 << 12;
  cuzk_fr *in = vec_alloc(n), *a = vec_alloc(n), *b = vec_alloc(n);
  vec_rand(in, n);
  memcpy(a, in, n * sizeof(cuzk_fr));
  memcpy(b, in, n * sizeof(cuzk_fr));
  cuzk_field_use_kernel(CUZK_KERNEL_ADX);
  CHECK(cuzk_ntt_coset_forward(a, n, NULL, 0) == CUZK_NTT_OK);
  cuzk_field_use_kernel(CUZK_KERNEL_PORTABLE);
  CHECK(cuzk_ntt_coset_forward(b, n, NULL, 0) == CUZK_NTT_OK);
  cuzk_field_use_kernel(saved);
  CHECK(vec_eq(a, b, n));
  free(in), free(a), free(b);
}

int main(void) {
  cuzk_pool *pool1 = NULL, *pool2 = NULL;
  if (cuzk_pool_create(&pool1, 1) != CUZK_POOL_OK || cuzk_pool_create(&pool2, 2) != CUZK_POOL_OK) {
    fprintf(stderr, "test_ntt: cannot create pools\n");
    return 2;
  }
  printf("test_ntt: AVX-512 IFMA kernels %s\n",
         ntt_ifma_supported() ? "present: checked against the scalar ones" : "absent");
  test_errors();
  test_roots();

  /* default plan: n <= 2^10 is one contiguous pass */
  test_naive(NULL, 10, "default");
  /* passes of 2 or 3 levels, tiles of 2 to 4 columns, several column tiles per row group, and
   * every twiddle above level 2 derived */
  ntt_set_tuning(2, 2, 3);
  test_naive(pool2, 9, "pass_lg=2");
  ntt_set_tuning(3, 19, 5);
  test_naive(pool2, 10, "pass_lg=3");
  ntt_set_tuning(4, 5, 6);
  test_h(pool2, 8);
  test_threads(pool1, pool2, 13);
  test_round_trip(pool2, 15, 6);
  /* the IFMA kernels under the same shapes: 3- to 5-level passes, derived levels, one and
   * several lane groups per row */
  for (unsigned k = 11; k <= 13; k++)
    test_ifma_vs_scalar(pool2, k);
  ntt_set_tuning(5, 7, 9);
  test_ifma_vs_scalar(pool2, 14);
  ntt_set_tuning(0, 255, 0);
  test_ifma_vs_scalar(pool2, 12);
  test_ifma_vs_scalar(pool2, 17);

  test_h(NULL, 4);
  test_threads(pool1, pool2, 14);
  test_bitreverse(pool2);
  for (unsigned k = 11; k <= 19; k += 4)
    test_round_trip(pool2, k, 4);
  test_round_trip(pool2, 20, 3);
  test_concurrent_build();
  test_kernels();

  cuzk_ntt_release();
  cuzk_pool_destroy(pool1);
  cuzk_pool_destroy(pool2);
  return check_summary("test_ntt");
}
