/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Fp on AVX-512 IFMA, eight elements at a time (issue #16; docs/bls12-381.md "IFMA Fp").
 *
 * Representation. An element is eight 52-bit limbs (8 x 52 = 416 bits for p < 2^381); an
 * `fp52x8` is eight elements as structure of arrays: vector l[j] holds limb j of all eight
 * lanes. VPMADD52LUQ/HUQ give the low/high 52 bits of 52x52-bit products, so Montgomery
 * multiplication runs in radix 2^52 with R' = 2^416: mont(a, b) = a·b·2^-416 mod p, and an
 * element x is held as x·2^416 mod p ("52-form"), where the scalar kernels hold x·2^384. The
 * conversions at the edges (fp52x8_load/store) are one Montgomery product each, by
 * 2^448 mod p on the way in (x·2^384 -> x·2^416) and by 2^384 mod p on the way out, plus a full
 * reduction there.
 *
 * Bounds (lazy reduction). Every limb is kept normalized (< 2^52: the multiplier reads only 52
 * bits). Values live in [0, 2p), not [0, p):
 *   mul, sqr: inputs a, b < 2^398 (so any value < 32p), output (ab + m·p) / R' < ab/R' + p < 2p:
 *             no final subtraction (R'/p > 2^35);
 *   add, dbl: inputs < 2p, a + b < 4p, one conditional subtraction of 2p -> [0, 2p);
 *   sub:      inputs < 2p, a - b + 2p in (0, 4p), one conditional subtraction of 2p -> [0, 2p);
 *   neg:      input < 2p, 2p - a in (0, 2p], one conditional subtraction of 2p -> [0, 2p);
 *   store:    input < 2p, one conditional subtraction of p -> [0, p) (the scalar contract).
 * So 0 has two 52-forms, 0 and p: fp52x8_is_zero_mask tests both. Outputs may alias inputs.
 *
 * Cost (2-core Zen 5 VM, bench/fp_ifma, docs/bls12-381.md): see there. A product is 128
 * multiply-adds for a·b (64 for a squaring, whose cross products are doubled) and 8 x 17 for
 * the reduction.
 *
 * Use. Every function here needs AVX-512F and IFMA: call them only from functions marked
 * FP52_FN after cuzk_field_ifma_enabled() (cuzk/field/field.h) returned true; the scalar kernels
 * are the fallback. The constants (cuzk_fp52_c) are set up before main from CUZK_P
 * (kernel_select.c).
 */
#ifndef CUZK_FIELD_FP_IFMA_H
#define CUZK_FIELD_FP_IFMA_H

#include <stdint.h>

#include "cuzk/field/field.h"

/* The constants of the 52-form, derived from consts.c before main (kernel_select.c). */
typedef struct {
  uint64_t p[8];    /* p in 52-bit limbs */
  uint64_t p2[8];   /* 2p */
  uint64_t to[8];   /* 2^448 mod p: mont(x·2^384, to) = x·2^416 */
  uint64_t from[8]; /* 2^384 mod p: mont(x·2^416, from) = x·2^384 */
  uint64_t r16[8];  /* 2^400 mod p: the 52-form of 2^-16 (msm/batch_affine_ifma.inc) */
  uint64_t pinv;    /* -p^-1 mod 2^52 */
} cuzk_fp52_consts;
extern cuzk_fp52_consts cuzk_fp52_c;

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CUZK_FP_IFMA 1
#include <immintrin.h>

#define FP52_M 0xfffffffffffffULL
#define FP52_FN __attribute__((target("avx512f,avx512ifma")))
/* The helpers must inline into their callers' loops (gcc otherwise keeps some calls). */
#define FP52_INLINE static inline __attribute__((always_inline, target("avx512f,avx512ifma")))

typedef struct {
  __m512i l[8];
} fp52x8;

FP52_INLINE __m512i fp52_bc(uint64_t x) { return _mm512_set1_epi64((long long)x); }

/* Carry passes over n limbs: unsigned (limbs >= 0) and signed (limbs may be negative; the sign
 * ends up in the top limb). Afterwards limbs 0..n-2 are in [0, 2^52). */
FP52_INLINE void fp52_carry_u(__m512i *t, int n) {
  const __m512i m = fp52_bc(FP52_M);
  for (int j = 0; j < n - 1; j++) {
    t[j + 1] = _mm512_add_epi64(t[j + 1], _mm512_srli_epi64(t[j], 52));
    t[j] = _mm512_and_si512(t[j], m);
  }
}
FP52_INLINE void fp52_carry_s(__m512i *t) {
  const __m512i m = fp52_bc(FP52_M);
  for (int j = 0; j < 7; j++) {
    t[j + 1] = _mm512_add_epi64(t[j + 1], _mm512_srai_epi64(t[j], 52));
    t[j] = _mm512_and_si512(t[j], m);
  }
}

/*
 * Montgomery reduction of a 16-limb product t (limbs < 2^58, value < 2^814 so that the result
 * is below 2p): for i = 0..7, m = t_i·(-p^-1) mod 2^52, t += m·p·2^(52i), which clears limb i;
 * its carry moves up. r = t / 2^416, normalized. Column sums stay below 2^58 + 16·2^52 < 2^59.
 */
FP52_INLINE void fp52_redc(fp52x8 *r, __m512i *t) {
  const __m512i z = _mm512_setzero_si512(), pinv = fp52_bc(cuzk_fp52_c.pinv);
#pragma GCC unroll 8
  for (int i = 0; i < 8; i++) {
    const __m512i m = _mm512_madd52lo_epu64(z, t[i], pinv);
#pragma GCC unroll 8
    for (int j = 0; j < 8; j++) {
      const __m512i pj = fp52_bc(cuzk_fp52_c.p[j]);
      t[i + j] = _mm512_madd52lo_epu64(t[i + j], m, pj);
      t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], m, pj);
    }
    t[i + 1] = _mm512_add_epi64(t[i + 1], _mm512_srli_epi64(t[i], 52));
  }
  fp52_carry_u(t + 8, 8);
  for (int j = 0; j < 8; j++)
    r->l[j] = t[8 + j];
}

/* r = a·b·2^-416 mod p, in [0, 2p) for a, b < 2^398 (header comment). 128 + 136 IFMA ops. */
FP52_INLINE void fp52x8_mul(fp52x8 *r, const fp52x8 *a, const fp52x8 *b) {
  __m512i t[16];
  for (int j = 0; j < 16; j++)
    t[j] = _mm512_setzero_si512();
#pragma GCC unroll 8
  for (int i = 0; i < 8; i++) {
    const __m512i bi = b->l[i];
#pragma GCC unroll 8
    for (int j = 0; j < 8; j++) { /* column i + j gets at most 16 half-products: < 2^56 */
      t[i + j] = _mm512_madd52lo_epu64(t[i + j], a->l[j], bi);
      t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], a->l[j], bi);
    }
  }
  fp52_redc(r, t);
}

/* r = a^2·2^-416 mod p: the 28 cross products once, doubled, plus the 8 squares (72 + 136). */
FP52_INLINE void fp52x8_sqr(fp52x8 *r, const fp52x8 *a) {
  __m512i t[16];
  for (int j = 0; j < 16; j++)
    t[j] = _mm512_setzero_si512();
#pragma GCC unroll 8
  for (int i = 0; i < 8; i++) {
#pragma GCC unroll 8
    for (int j = i + 1; j < 8; j++) {
      t[i + j] = _mm512_madd52lo_epu64(t[i + j], a->l[i], a->l[j]);
      t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], a->l[i], a->l[j]);
    }
  }
  for (int j = 1; j < 15; j++) /* the cross products fill limbs 1..14: < 2^55, then 2^56 */
    t[j] = _mm512_add_epi64(t[j], t[j]);
#pragma GCC unroll 8
  for (int i = 0; i < 8; i++) {
    t[2 * i] = _mm512_madd52lo_epu64(t[2 * i], a->l[i], a->l[i]);
    t[2 * i + 1] = _mm512_madd52hi_epu64(t[2 * i + 1], a->l[i], a->l[i]);
  }
  fp52_redc(r, t);
}

/* r = x - m if that is >= 0, else x (x, m normalized). */
FP52_INLINE void fp52_cond_sub(fp52x8 *r, const __m512i *x, const uint64_t *m) {
  __m512i t[8];
  for (int j = 0; j < 8; j++)
    t[j] = _mm512_sub_epi64(x[j], fp52_bc(m[j]));
  fp52_carry_s(t);
  const __mmask8 neg = _mm512_cmplt_epi64_mask(t[7], _mm512_setzero_si512());
  for (int j = 0; j < 8; j++)
    r->l[j] = _mm512_mask_blend_epi64(neg, t[j], x[j]);
}

/* r = a + b in [0, 2p), for a, b < 2p. */
FP52_INLINE void fp52x8_add(fp52x8 *r, const fp52x8 *a, const fp52x8 *b) {
  __m512i s[8];
  for (int j = 0; j < 8; j++)
    s[j] = _mm512_add_epi64(a->l[j], b->l[j]);
  fp52_carry_u(s, 8);
  fp52_cond_sub(r, s, cuzk_fp52_c.p2);
}

FP52_INLINE void fp52x8_dbl(fp52x8 *r, const fp52x8 *a) { fp52x8_add(r, a, a); }

/* r = a - b in [0, 2p), for a, b < 2p. */
FP52_INLINE void fp52x8_sub(fp52x8 *r, const fp52x8 *a, const fp52x8 *b) {
  __m512i d[8];
  for (int j = 0; j < 8; j++)
    d[j] = _mm512_add_epi64(_mm512_sub_epi64(a->l[j], b->l[j]), fp52_bc(cuzk_fp52_c.p2[j]));
  fp52_carry_s(d);
  fp52_cond_sub(r, d, cuzk_fp52_c.p2);
}

/* r = -a in [0, 2p), for a < 2p. */
FP52_INLINE void fp52x8_neg(fp52x8 *r, const fp52x8 *a) {
  __m512i d[8];
  for (int j = 0; j < 8; j++)
    d[j] = _mm512_sub_epi64(fp52_bc(cuzk_fp52_c.p2[j]), a->l[j]);
  fp52_carry_s(d);
  fp52_cond_sub(r, d, cuzk_fp52_c.p2);
}

/* The lanes whose value (< 2p) is 0 mod p: limbs equal to those of 0 or of p. */
FP52_INLINE __mmask8 fp52x8_is_zero_mask(const fp52x8 *a) {
  __m512i o = a->l[0], x = _mm512_xor_si512(a->l[0], fp52_bc(cuzk_fp52_c.p[0]));
  for (int j = 1; j < 8; j++) {
    o = _mm512_or_si512(o, a->l[j]);
    x = _mm512_or_si512(x, _mm512_xor_si512(a->l[j], fp52_bc(cuzk_fp52_c.p[j])));
  }
  const __m512i z = _mm512_setzero_si512();
  return _mm512_cmpeq_epi64_mask(o, z) | _mm512_cmpeq_epi64_mask(x, z);
}

/* r = the same value in every lane: limbs of one 52-form element (8 words). */
FP52_INLINE void fp52x8_bcast(fp52x8 *r, const uint64_t l52[8]) {
  for (int j = 0; j < 8; j++)
    r->l[j] = fp52_bc(l52[j]);
}

/* r[lane] = mask bit set ? a[lane] : b[lane]. */
FP52_INLINE void fp52x8_blend(fp52x8 *r, __mmask8 mask, const fp52x8 *a, const fp52x8 *b) {
  for (int j = 0; j < 8; j++)
    r->l[j] = _mm512_mask_blend_epi64(mask, b->l[j], a->l[j]);
}

/* ---- edges: the scalar kernels' 6 x 64-bit Montgomery form <-> 52-form --------------------- */

#define FP52_OR_SHIFT(lo, s, hi, t) \
  _mm512_or_si512(_mm512_srli_epi64(lo, s), _mm512_slli_epi64(hi, t))

/* Six vectors of 64-bit words (w[i] = word i of eight 384-bit integers) -> 52-bit limbs, no
 * change of value: shifts only. */
FP52_INLINE void fp52x8_split_words(fp52x8 *r, const __m512i w[6]) {
  const __m512i m = fp52_bc(FP52_M);
  r->l[0] = _mm512_and_si512(w[0], m);
  r->l[1] = _mm512_and_si512(FP52_OR_SHIFT(w[0], 52, w[1], 12), m);
  r->l[2] = _mm512_and_si512(FP52_OR_SHIFT(w[1], 40, w[2], 24), m);
  r->l[3] = _mm512_and_si512(FP52_OR_SHIFT(w[2], 28, w[3], 36), m);
  r->l[4] = _mm512_and_si512(FP52_OR_SHIFT(w[3], 16, w[4], 48), m);
  r->l[5] = _mm512_and_si512(_mm512_srli_epi64(w[4], 4), m);
  r->l[6] = _mm512_and_si512(FP52_OR_SHIFT(w[4], 56, w[5], 8), m);
  r->l[7] = _mm512_srli_epi64(w[5], 44);
}

/* The inverse of fp52x8_split_words for values < 2^384 (limbs normalized). */
FP52_INLINE void fp52x8_join_words(__m512i w[6], const fp52x8 *a) {
  const __m512i *l = a->l;
  w[0] = _mm512_or_si512(l[0], _mm512_slli_epi64(l[1], 52));
  w[1] = FP52_OR_SHIFT(l[1], 12, l[2], 40);
  w[2] = FP52_OR_SHIFT(l[2], 24, l[3], 28);
  w[3] = FP52_OR_SHIFT(l[3], 36, l[4], 16);
  w[4] = _mm512_or_si512(FP52_OR_SHIFT(l[4], 48, l[5], 4), _mm512_slli_epi64(l[6], 56));
  w[5] = FP52_OR_SHIFT(l[6], 8, l[7], 44);
}
#undef FP52_OR_SHIFT

/* Eight 384-bit integers (6 words each, p[k] for lane k) -> 52-bit limbs, no change of value. */
FP52_INLINE void fp52x8_split(fp52x8 *r, const uint64_t *const p[8]) {
  __m512i w[6];
  for (int i = 0; i < 6; i++)
    w[i] = _mm512_set_epi64((long long)p[7][i], (long long)p[6][i], (long long)p[5][i],
                            (long long)p[4][i], (long long)p[3][i], (long long)p[2][i],
                            (long long)p[1][i], (long long)p[0][i]);
  fp52x8_split_words(r, w);
}

/* The inverse of fp52x8_split for values < 2^384 (limbs normalized). */
FP52_INLINE void fp52x8_join(uint64_t *const p[8], const fp52x8 *a) {
  __m512i w[6];
  fp52x8_join_words(w, a);
  uint64_t t[6][8] __attribute__((aligned(64)));
  for (int i = 0; i < 6; i++)
    _mm512_store_si512(t[i], w[i]);
  for (int k = 0; k < 8; k++)
    for (int i = 0; i < 6; i++)
      p[k][i] = t[i][k];
}

/* Lane k = *p[k] (scalar Montgomery form, reduced) in 52-form: one product by 2^448 mod p. */
FP52_INLINE void fp52x8_load_ptrs(fp52x8 *r, const cuzk_fp *const p[8]) {
  const uint64_t *w[8];
  for (int k = 0; k < 8; k++)
    w[k] = p[k]->l;
  fp52x8 x, c;
  fp52x8_split(&x, w);
  fp52x8_bcast(&c, cuzk_fp52_c.to);
  fp52x8_mul(r, &x, &c);
}

/* *p[k] = lane k in the scalar Montgomery form, fully reduced; a < 2p. */
FP52_INLINE void fp52x8_store_ptrs(cuzk_fp *const p[8], const fp52x8 *a) {
  fp52x8 c, x;
  fp52x8_bcast(&c, cuzk_fp52_c.from);
  fp52x8_mul(&x, a, &c);
  fp52_cond_sub(&x, x.l, cuzk_fp52_c.p);
  uint64_t *w[8];
  for (int k = 0; k < 8; k++)
    w[k] = p[k]->l;
  fp52x8_join(w, &x);
}

/* Eight consecutive elements <-> one fp52x8. */
FP52_INLINE void fp52x8_load(fp52x8 *r, const cuzk_fp a[8]) {
  const cuzk_fp *p[8];
  for (int k = 0; k < 8; k++)
    p[k] = &a[k];
  fp52x8_load_ptrs(r, p);
}
FP52_INLINE void fp52x8_store(cuzk_fp a[8], const fp52x8 *x) {
  cuzk_fp *p[8];
  for (int k = 0; k < 8; k++)
    p[k] = &a[k];
  fp52x8_store_ptrs(p, x);
}

#else
#define CUZK_FP_IFMA 0
#endif

#endif
