/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Number-theoretic transforms over Fr (BLS12-381 scalar field, 2-adicity 32), sizes 2^0 ... 2^27,
 * in place, multi-threaded on a cuzk_pool (docs/spec/groth16.md §1.4, §4.2, §11.4).
 *
 * Contract:
 * - The domain of size n = 2^k is {ω_k^i}, ω_k = ROOT_OF_UNITY squared 32-k times (exactly the
 *   root bellperson uses: constraint j is bound to ω_k^j). The coset is g·{ω_k^i} with g = 7.
 * - forward:  v[i] <- P(ω^i)    where P(x) = Σ_j v[j] x^j        (evaluation)
 *   inverse:  the inverse of forward, scaled by n^-1               (interpolation)
 *   coset forward: v[i] <- P(g·ω^i);  coset inverse: its inverse.
 * - Order: the four named transforms are natural order in and out. cuzk_ntt() also offers
 *   natural -> bit-reversed and bit-reversed -> natural, which skip the permutation pass; a chain
 *   such as iNTT(NR) -> coset NTT(RN) needs no permutation at all.
 * - Results do not depend on the pool, the thread count, max_workers or the CPU (exact
 *   arithmetic; AVX-512 IFMA butterflies where the CPU has them, scalar ones elsewhere).
 * - Twiddle tables are built on first use of a size and cached for the life of the process
 *   (thread-safe); cuzk_ntt_prepare builds them ahead of time. Calls may run concurrently on
 *   different vectors.
 * - pool may be NULL (runs on the calling thread); max_workers caps this call's share of the
 *   pool (0 = all of it).
 * - On an error return the input is untouched, except CUZK_NTT_ENOMEM, which may be reported
 *   after work started (the vector is then unspecified).
 */
#ifndef CUZK_NTT_H
#define CUZK_NTT_H

#include <stddef.h>

#include "cuzk/field/field.h"
#include "cuzk/util/pool.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUZK_NTT_MAX_LG 27 /* largest supported log2 size (the PoRep 32 GiB domain) */
#define CUZK_FR_TWO_ADICITY 32

typedef enum {
  CUZK_NTT_OK = 0,
  CUZK_NTT_ENULL,     /* a required pointer is NULL */
  CUZK_NTT_ESIZE,     /* size is zero or not a power of two */
  CUZK_NTT_ETOOBIG,   /* log2 size above CUZK_NTT_MAX_LG */
  CUZK_NTT_EDOMAIN,   /* log2 size above 32, the 2-adicity of Fr: no such root of unity */
  CUZK_NTT_EINVAL,    /* bad enum value */
  CUZK_NTT_ENOMEM,    /* twiddle or scratch allocation failed */
  CUZK_NTT_ECANCELLED /* cuzk_ntt_h_cancellable: the flag was raised (the vectors are garbage) */
} cuzk_ntt_err;

const char *cuzk_ntt_strerror(cuzk_ntt_err e);

typedef enum {
  CUZK_NTT_FORWARD = 0,
  CUZK_NTT_INVERSE,
  CUZK_NTT_COSET_FORWARD,
  CUZK_NTT_COSET_INVERSE
} cuzk_ntt_kind;

typedef enum {
  CUZK_NTT_NN = 0, /* natural in, natural out (one bit-reversal pass) */
  CUZK_NTT_NR,     /* natural in, bit-reversed out (decimation in frequency) */
  CUZK_NTT_RN      /* bit-reversed in, natural out (decimation in time) */
} cuzk_ntt_order;

/* The general transform; n = 2^k, 0 <= k <= 27. Bit-reversed means v[bitrev_k(i)] holds entry i.
 * For the coset kinds with bit-reversed data the shift follows the entries (entry i is scaled by
 * g^i wherever it sits). */
cuzk_ntt_err cuzk_ntt(cuzk_fr *v, size_t n, cuzk_ntt_kind kind, cuzk_ntt_order order,
                      cuzk_pool *pool, unsigned max_workers);

/* Natural-order shortcuts for cuzk_ntt(v, n, kind, CUZK_NTT_NN, pool, max_workers). */
cuzk_ntt_err cuzk_ntt_forward(cuzk_fr *v, size_t n, cuzk_pool *pool, unsigned max_workers);
cuzk_ntt_err cuzk_ntt_inverse(cuzk_fr *v, size_t n, cuzk_pool *pool, unsigned max_workers);
cuzk_ntt_err cuzk_ntt_coset_forward(cuzk_fr *v, size_t n, cuzk_pool *pool, unsigned max_workers);
cuzk_ntt_err cuzk_ntt_coset_inverse(cuzk_fr *v, size_t n, cuzk_pool *pool, unsigned max_workers);

/* In-place bit-reversal permutation of n = 2^k entries, k <= 27. */
cuzk_ntt_err cuzk_ntt_bitreverse(cuzk_fr *v, size_t n, cuzk_pool *pool, unsigned max_workers);

/* The prover's pointwise step on coset evaluations: a[i] <- (a[i]·b[i] - c[i]) / Z, where
 * Z = g^n - 1 is the vanishing polynomial x^n - 1 evaluated on the coset (constant there).
 * Any common order of a, b, c works. b and c may not alias a. */
cuzk_ntt_err cuzk_ntt_h_pointwise(cuzk_fr *a, const cuzk_fr *b, const cuzk_fr *c, size_t n,
                                  cuzk_pool *pool, unsigned max_workers);

/* The whole quotient of docs/spec/groth16.md §4.2: a, b, c hold the evaluations of A, B, C over the
 * domain (natural order, zero-padded to n); on return a[0 .. n-2] holds the coefficients of
 * h = (A·B - C) / (x^n - 1), identical to bellperson's, and a[n-1] the coefficient of x^(n-1)
 * (zero when A·B - C vanishes on the domain). b and c are used as scratch; a, b, c distinct. */
/* The same, stopping between its seven transforms once *cancel (may be NULL) is nonzero: the
 * chain takes seconds to a minute at PoRep sizes. */
cuzk_ntt_err cuzk_ntt_h_cancellable(cuzk_fr *a, cuzk_fr *b, cuzk_fr *c, size_t n, cuzk_pool *pool,
                                    unsigned max_workers, const _Atomic int *cancel);
cuzk_ntt_err cuzk_ntt_h(cuzk_fr *a, cuzk_fr *b, cuzk_fr *c, size_t n, cuzk_pool *pool,
                        unsigned max_workers);

/* The same quotient in stages, for a caller that keeps at most two domain vectors alive (the
 * pre-compiled path computes C's evaluations only once a·b is formed): coset(a), coset(b),
 * mul(a, b), then c into b's memory, coset(c), sub(a, c), finish(a) — the same transforms and
 * products as cuzk_ntt_h, so the same result entry for entry.
 *   coset:  x <- x on the coset g·ω^i (from x over the domain, natural order, zero-padded)
 *   mul:    a <- a·b;  sub: a <- a - c   (pointwise; b, c may not alias a)
 *   finish: a <- the coefficients of a / (x^n - 1), as cuzk_ntt_h leaves them */
cuzk_ntt_err cuzk_ntt_h_coset(cuzk_fr *x, size_t n, cuzk_pool *pool, unsigned max_workers,
                              const _Atomic int *cancel);
cuzk_ntt_err cuzk_ntt_h_mul(cuzk_fr *a, const cuzk_fr *b, size_t n, cuzk_pool *pool,
                            unsigned max_workers);
cuzk_ntt_err cuzk_ntt_h_sub(cuzk_fr *a, const cuzk_fr *c, size_t n, cuzk_pool *pool,
                            unsigned max_workers);
cuzk_ntt_err cuzk_ntt_h_finish(cuzk_fr *a, size_t n, cuzk_pool *pool, unsigned max_workers,
                               const _Atomic int *cancel);

/* ω_k, the generator of the size-2^k domain (k <= 32). */
cuzk_ntt_err cuzk_ntt_root(cuzk_fr *w, unsigned k);

/* Builds the twiddle tables for sizes up to 2^k now instead of on first use. */
cuzk_ntt_err cuzk_ntt_prepare(unsigned k);
/* Frees the cached tables. Only when no transform is running (e.g. at shutdown, in tests). */
void cuzk_ntt_release(void);

#ifdef __cplusplus
}
#endif
#endif
