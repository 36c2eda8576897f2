/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * AVX-512 IFMA kernels for the engine's tiles: eight butterflies at once.
 *
 * Representation. An Fr element is split into five 52-bit limbs; a vector register holds one
 * limb of eight elements, so a "v52" (five registers) is eight elements. VPMADD52LUQ/HUQ give
 * the low and high 52 bits of 52x52-bit products, and Montgomery multiplication runs in radix
 * 2^52 with R' = 2^260: mont52(a, b) = a·b·2^-260 mod r. The data keep the library's Montgomery
 * form x·2^256; twiddles and factors are stored in "W-form" w·2^260, so that
 * mont52(x·2^256, w·2^260) = x·w·2^256. One 8-lane product costs about 110 IFMA instructions,
 * ~3.5 ns per element product on the 2-core Zen 5 VM against 13.5 ns for the scalar kernel.
 *
 * Lazy reduction. Since r < 2^255 = R'/32, mont52 of any a < 4r, b < 2r is below
 * r·(1 + 8r/R') < 1.3r without a final subtraction. So tile entries live in [0, 2r): sums get one
 * conditional subtraction of 2r, differences are taken as a - b + 2r, and only the copy-out
 * reduces to [0, r). Limbs are kept normalized (< 2^52, the multiplier ignores higher bits),
 * with a carry pass after each addition.
 *
 * Lanes. Strided passes give each lane one column (rows of 8 consecutive entries, which load as
 * four 64-byte vectors and transpose into limb vectors); twiddles differ per lane and come
 * straight from the W-form tower (ifma_tower.c), mirrored through a lane permute for inverses,
 * or derived with one product per eight. The bottom pass gives each lane one block of 2^b
 * entries, so its twiddles are the same in every lane (broadcasts).
 *
 * Inverse twiddles are used as in the scalar bottom pass: ω^-j = -T[h - j], and the butterflies
 * absorb the sign: DIF (u + v, (v - u)·T[h-j]); DIT t = v·T[h-j], (u - t, u + t).
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "cuzk/field/field.h"
#include "cuzk/util/cpu.h"
#include "field/consts.h"
#include "ntt/pass.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NTT_HAVE_IFMA 1
#include <immintrin.h>
#else
#define NTT_HAVE_IFMA 0
#endif

#define M52 0xfffffffffffffULL

/* W-form: 16·x mod r by four modular doublings (x·2^256 -> x·2^260), then split in 52 bits. */
void ntt_fr_to_w52(uint64_t out[5], const cuzk_fr *a) {
  cuzk_fr t = *a;
  for (int i = 0; i < 4; i++)
    cuzk_fr_dbl(&t, &t);
  const uint64_t *x = t.l;
  out[0] = x[0] & M52;
  out[1] = (x[0] >> 52 | x[1] << 12) & M52;
  out[2] = (x[1] >> 40 | x[2] << 24) & M52;
  out[3] = (x[2] >> 28 | x[3] << 36) & M52;
  out[4] = x[3] >> 16;
}

#if NTT_HAVE_IFMA

/* r and 2r in 52-bit limbs, and -r^-1 mod 2^52; derived from CUZK_R once, with the CPU check. */
static uint64_t r52[5], r2_52[5], pinv52;
static bool supported;
static atomic_bool enabled = true;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

/* The CPU check is the field layer's (CPUID: AVX-512F and IFMA; XGETBV: ZMM state saved), made
 * once before main. */
static bool detect(void) { return cuzk_field_ifma_supported(); }

static void init(void) {
  const uint64_t *x = CUZK_R;
  const uint64_t l[5] = {x[0] & M52, (x[0] >> 52 | x[1] << 12) & M52,
                         (x[1] >> 40 | x[2] << 24) & M52, (x[2] >> 28 | x[3] << 36) & M52,
                         x[3] >> 16};
  uint64_t carry = 0;
  for (int i = 0; i < 5; i++) {
    r52[i] = l[i];
    uint64_t t = 2 * l[i] + carry; /* 2r < 2^256 fits the five limbs */
    r2_52[i] = t & M52;
    carry = t >> 52;
  }
  pinv52 = CUZK_R_N0 & M52; /* -r^-1 mod 2^64, hence mod 2^52 */
  supported = detect();
  /* off where the field layer's IFMA is off at start (CUZK_FORCE_PORTABLE, CUZK_NO_IFMA): one
   * switch for every IFMA path; tests may still enable it */
  if (!cuzk_field_ifma_enabled()) atomic_store(&enabled, false);
}

bool ntt_ifma_supported(void) {
  pthread_once(&init_once, init);
  return supported;
}

bool ntt_ifma_enabled(void) {
  return ntt_ifma_supported() &&
         atomic_load_explicit(&enabled, memory_order_relaxed); /* init first */
}

void ntt_ifma_enable(bool on) { atomic_store_explicit(&enabled, on, memory_order_relaxed); }

#define IFMA_FN __attribute__((target("avx512f,avx512ifma")))
/* The butterfly helpers must inline into the stage loops (gcc otherwise keeps some calls). */
#define IFMA_INLINE static inline __attribute__((always_inline, target("avx512f,avx512ifma")))

typedef struct {
  __m512i d[5];
} v52;

IFMA_INLINE __m512i bc(uint64_t x) { return _mm512_set1_epi64((long long)x); }

/* Carry passes: unsigned (limbs >= 0) and signed (limbs may be negative; the sign ends up in the
 * top limb). Afterwards limbs 0..3 are in [0, 2^52). */
IFMA_INLINE void carry_u(__m512i *t) {
  const __m512i m = bc(M52);
  for (int j = 0; j < 4; j++) {
    t[j + 1] = _mm512_add_epi64(t[j + 1], _mm512_srli_epi64(t[j], 52));
    t[j] = _mm512_and_si512(t[j], m);
  }
}
IFMA_INLINE void carry_s(__m512i *t) {
  const __m512i m = bc(M52);
  for (int j = 0; j < 4; j++) {
    t[j + 1] = _mm512_add_epi64(t[j + 1], _mm512_srai_epi64(t[j], 52));
    t[j] = _mm512_and_si512(t[j], m);
  }
}

/*
 * o = a·b·2^-260 mod r (lazily: < r·(1 + a·b/(r·2^260)) ). Operand scanning: for each limb b_i,
 * t += a·b_i, then m = t_0·(-r^-1) mod 2^52 and t += m·r, which clears t_0; shift down one limb.
 * Accumulators stay below 2^58 (at most ~20 half-products of 2^52 each). o may alias a or b.
 */
IFMA_INLINE void mont52(v52 *o, const v52 *a, const v52 *b) {
  const __m512i z = _mm512_setzero_si512(), pinv = bc(pinv52);
  const __m512i p0 = bc(r52[0]), p1 = bc(r52[1]), p2 = bc(r52[2]), p3 = bc(r52[3]), p4 = bc(r52[4]);
  const __m512i a0 = a->d[0], a1 = a->d[1], a2 = a->d[2], a3 = a->d[3], a4 = a->d[4];
  __m512i t0 = z, t1 = z, t2 = z, t3 = z, t4 = z, t5;
#pragma GCC unroll 5
  for (int i = 0; i < 5; i++) {
    const __m512i bi = b->d[i];
    t5 = z;
    t0 = _mm512_madd52lo_epu64(t0, a0, bi);
    t1 = _mm512_madd52hi_epu64(t1, a0, bi);
    t1 = _mm512_madd52lo_epu64(t1, a1, bi);
    t2 = _mm512_madd52hi_epu64(t2, a1, bi);
    t2 = _mm512_madd52lo_epu64(t2, a2, bi);
    t3 = _mm512_madd52hi_epu64(t3, a2, bi);
    t3 = _mm512_madd52lo_epu64(t3, a3, bi);
    t4 = _mm512_madd52hi_epu64(t4, a3, bi);
    t4 = _mm512_madd52lo_epu64(t4, a4, bi);
    t5 = _mm512_madd52hi_epu64(t5, a4, bi);
    const __m512i m = _mm512_madd52lo_epu64(z, t0, pinv);
    t0 = _mm512_madd52lo_epu64(t0, m, p0);
    t1 = _mm512_madd52hi_epu64(t1, m, p0);
    t1 = _mm512_madd52lo_epu64(t1, m, p1);
    t2 = _mm512_madd52hi_epu64(t2, m, p1);
    t2 = _mm512_madd52lo_epu64(t2, m, p2);
    t3 = _mm512_madd52hi_epu64(t3, m, p2);
    t3 = _mm512_madd52lo_epu64(t3, m, p3);
    t4 = _mm512_madd52hi_epu64(t4, m, p3);
    t4 = _mm512_madd52lo_epu64(t4, m, p4);
    t5 = _mm512_madd52hi_epu64(t5, m, p4);
    /* t0 is now 0 mod 2^52: drop it, keeping its carry */
    t0 = _mm512_add_epi64(t1, _mm512_srli_epi64(t0, 52));
    t1 = t2;
    t2 = t3;
    t3 = t4;
    t4 = t5;
  }
  __m512i t[5] = {t0, t1, t2, t3, t4};
  carry_u(t);
  for (int j = 0; j < 5; j++)
    o->d[j] = t[j];
}

/* o = x - m if that is >= 0, else x (x, m normalized; x < 2m). */
IFMA_INLINE void cond_sub(v52 *o, const __m512i *x, const uint64_t *m) {
  __m512i t[5];
  for (int j = 0; j < 5; j++)
    t[j] = _mm512_sub_epi64(x[j], bc(m[j]));
  carry_s(t);
  const __mmask8 neg = _mm512_cmplt_epi64_mask(t[4], _mm512_setzero_si512());
  for (int j = 0; j < 5; j++)
    o->d[j] = _mm512_mask_blend_epi64(neg, t[j], x[j]);
}

/* o = a + b reduced to [0, 2r), for a, b < 2r. */
IFMA_INLINE void add_2r(v52 *o, const v52 *a, const v52 *b) {
  __m512i s[5];
  for (int j = 0; j < 5; j++)
    s[j] = _mm512_add_epi64(a->d[j], b->d[j]);
  carry_u(s);
  cond_sub(o, s, r2_52);
}

/* o = a - b + 2r in (0, 4r), normalized, for a, b < 2r. */
IFMA_INLINE void sub_lazy(v52 *o, const v52 *a, const v52 *b) {
  __m512i d[5];
  for (int j = 0; j < 5; j++)
    d[j] = _mm512_add_epi64(_mm512_sub_epi64(a->d[j], b->d[j]), bc(r2_52[j]));
  carry_s(d);
  for (int j = 0; j < 5; j++)
    o->d[j] = d[j];
}

/* o = a - b reduced to [0, 2r), for a, b < 2r. */
IFMA_INLINE void sub_2r(v52 *o, const v52 *a, const v52 *b) {
  v52 d;
  sub_lazy(&d, a, b);
  cond_sub(o, d.d, r2_52);
}

/* ---- butterflies (u, v in place, w a twiddle in W-form) ---------------------------------- */

IFMA_INLINE void dif_bfly(v52 *u, v52 *v, const v52 *w, bool inv) {
  v52 d;
  if (inv)
    sub_lazy(&d, v, u);
  else
    sub_lazy(&d, u, v);
  add_2r(u, u, v);
  mont52(v, &d, w);
}

IFMA_INLINE void dit_bfly(v52 *u, v52 *v, const v52 *w, bool inv) {
  v52 t, s;
  mont52(&t, v, w);
  add_2r(&s, u, &t);
  if (inv) { /* (u - t, u + t) */
    sub_2r(u, u, &t);
    *v = s;
  } else {
    sub_2r(v, u, &t);
    *u = s;
  }
}

/* Twiddle 1: (u + v, u - v) for both directions and both kinds. */
IFMA_INLINE void bfly_one(v52 *u, v52 *v) {
  v52 d;
  sub_2r(&d, u, v);
  add_2r(u, u, v);
  *v = d;
}

/* ---- conversions ------------------------------------------------------------------------- */

/* Four vectors holding eight consecutive elements (two each, limbs in order) -> limb vectors
 * -> 52-bit limbs. */
IFMA_INLINE void from_aos(v52 *o, __m512i a0, __m512i a1, __m512i a2, __m512i a3) {
  const __m512i i01 = _mm512_set_epi64(13, 9, 5, 1, 12, 8, 4, 0); /* limbs 0, 1 of 4 elements */
  const __m512i i23 = _mm512_set_epi64(15, 11, 7, 3, 14, 10, 6, 2);
  const __m512i b0 = _mm512_permutex2var_epi64(a0, i01, a1),
                b1 = _mm512_permutex2var_epi64(a0, i23, a1);
  const __m512i b2 = _mm512_permutex2var_epi64(a2, i01, a3),
                b3 = _mm512_permutex2var_epi64(a2, i23, a3);
  const __m512i l0 = _mm512_shuffle_i64x2(b0, b2, 0x44), l1 = _mm512_shuffle_i64x2(b0, b2, 0xee);
  const __m512i l2 = _mm512_shuffle_i64x2(b1, b3, 0x44), l3 = _mm512_shuffle_i64x2(b1, b3, 0xee);
  const __m512i m = bc(M52);
  o->d[0] = _mm512_and_si512(l0, m);
  o->d[1] =
      _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(l0, 52), _mm512_slli_epi64(l1, 12)), m);
  o->d[2] =
      _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(l1, 40), _mm512_slli_epi64(l2, 24)), m);
  o->d[3] =
      _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(l2, 28), _mm512_slli_epi64(l3, 36)), m);
  o->d[4] = _mm512_srli_epi64(l3, 16);
}

/* The inverse of from_aos, after the full reduction of x (< 2r) to [0, r). */
IFMA_INLINE void to_aos(__m512i *a, const v52 *x) {
  v52 y;
  cond_sub(&y, x->d, r52);
  const __m512i l0 = _mm512_or_si512(y.d[0], _mm512_slli_epi64(y.d[1], 52));
  const __m512i l1 = _mm512_or_si512(_mm512_srli_epi64(y.d[1], 12), _mm512_slli_epi64(y.d[2], 40));
  const __m512i l2 = _mm512_or_si512(_mm512_srli_epi64(y.d[2], 24), _mm512_slli_epi64(y.d[3], 28));
  const __m512i l3 = _mm512_or_si512(_mm512_srli_epi64(y.d[3], 36), _mm512_slli_epi64(y.d[4], 16));
  const __m512i b0 = _mm512_shuffle_i64x2(l0, l1, 0x44), b2 = _mm512_shuffle_i64x2(l0, l1, 0xee);
  const __m512i b1 = _mm512_shuffle_i64x2(l2, l3, 0x44), b3 = _mm512_shuffle_i64x2(l2, l3, 0xee);
  const __m512i i01 = _mm512_set_epi64(13, 9, 5, 1, 12, 8, 4, 0);
  const __m512i i23 = _mm512_set_epi64(15, 11, 7, 3, 14, 10, 6, 2);
  a[0] = _mm512_permutex2var_epi64(b0, i01, b1);
  a[1] = _mm512_permutex2var_epi64(b0, i23, b1);
  a[2] = _mm512_permutex2var_epi64(b2, i01, b3);
  a[3] = _mm512_permutex2var_epi64(b2, i23, b3);
}

/* Eight consecutive elements <-> one v52 (a strided tile's row of 8 columns). */
IFMA_INLINE void load_row8(v52 *o, const cuzk_fr *p) {
  const uint64_t *q = p->l;
  from_aos(o, _mm512_loadu_si512(q), _mm512_loadu_si512(q + 8), _mm512_loadu_si512(q + 16),
           _mm512_loadu_si512(q + 24));
}
IFMA_INLINE void store_row8(cuzk_fr *p, const v52 *x) {
  __m512i a[4];
  to_aos(a, x);
  uint64_t *q = p->l;
  for (int i = 0; i < 4; i++)
    _mm512_storeu_si512(q + 8 * i, a[i]);
}

/* Element t of eight blocks of `stride` entries each <-> one v52 (the bottom pass). */
IFMA_INLINE __m512i load_pair(const cuzk_fr *p, const cuzk_fr *q) {
  return _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)p->l)),
                            _mm256_loadu_si256((const __m256i *)q->l), 1);
}
IFMA_INLINE void load_col8(v52 *o, const cuzk_fr *p, size_t stride) {
  from_aos(o, load_pair(p, p + stride), load_pair(p + 2 * stride, p + 3 * stride),
           load_pair(p + 4 * stride, p + 5 * stride), load_pair(p + 6 * stride, p + 7 * stride));
}
IFMA_INLINE void store_col8(cuzk_fr *p, size_t stride, const v52 *x) {
  __m512i a[4];
  to_aos(a, x);
  for (int i = 0; i < 4; i++) {
    _mm256_storeu_si256((__m256i *)p[2 * i * stride].l, _mm512_castsi512_si256(a[i]));
    _mm256_storeu_si256((__m256i *)p[(2 * i + 1) * stride].l, _mm512_extracti64x4_epi64(a[i], 1));
  }
}

/* Eight W-form values (5 words each, consecutive) -> one v52. */
IFMA_INLINE void gather_w52(v52 *o, const uint64_t *w) {
  for (int j = 0; j < 5; j++)
    o->d[j] = _mm512_set_epi64((long long)w[35 + j], (long long)w[30 + j], (long long)w[25 + j],
                               (long long)w[20 + j], (long long)w[15 + j], (long long)w[10 + j],
                               (long long)w[5 + j], (long long)w[j]);
}

/* One W-form value in every lane: entry j of a tower level, or a row factor (5 words). */
IFMA_INLINE void bcast_entry(v52 *o, const uint64_t *level, size_t j) {
  const uint64_t *g = level + (j >> 3) * NTT_IFMA_GROUP_WORDS + (j & 7);
  for (int l = 0; l < 5; l++)
    o->d[l] = bc(g[8 * l]);
}
IFMA_INLINE void bcast_w52(v52 *o, const uint64_t *w) {
  for (int l = 0; l < 5; l++)
    o->d[l] = bc(w[l]);
}

/* Scaling of one v52 by rows·colf (rows = NULL: colf alone, the CONST kind). */
IFMA_INLINE void scale_v52(v52 *x, const uint64_t *row_w52, const v52 *colf) {
  if (row_w52) {
    v52 rw, f;
    bcast_w52(&rw, row_w52);
    mont52(&f, &rw, colf);
    mont52(x, x, &f);
  } else {
    mont52(x, x, colf);
  }
}

/* W-form lanes of scalar values (colf, bases), 8 at a time. */
static void w52_of(uint64_t *out, const cuzk_fr *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    ntt_fr_to_w52(out + 5 * i, &v[i]);
}

/* ---- bottom pass: 8 blocks, one per lane ------------------------------------------------- */

size_t ntt_ifma_scratch_bytes(const ntt_pass_ctx *P) {
  const size_t rows = (size_t)1 << P->b, G = P->lo == 0 ? 1 : P->C / NTT_IFMA_LANES;
  /* tile, one level's twiddles, colf, the derived bases; then scalar staging for colf and
   * bases (C entries per level) and their W-form words */
  size_t v = rows * G + rows / 2 * G + G + (size_t)P->b * G;
  size_t scalar = (size_t)(P->b + 1) * (P->lo == 0 ? NTT_IFMA_LANES : P->C);
  return v * sizeof(v52) + scalar * (sizeof(cuzk_fr) + 5 * sizeof(uint64_t)) + 64;
}

static IFMA_FN void blocks_scale(v52 *buf, size_t rows, const ntt_pass_ctx *P, const ntt_scale *sc,
                                 const cuzk_fr *cstep, const uint64_t *rows52, size_t g0,
                                 cuzk_fr *stage, uint64_t *stage52) {
  for (size_t l = 0; l < NTT_IFMA_LANES; l++)
    ntt_scale_cols(&stage[l], P, sc, cstep, g0 + l, 0);
  w52_of(stage52, stage, NTT_IFMA_LANES);
  v52 colf;
  gather_w52(&colf, stage52);
  const bool per_row = sc->kind != NTT_SCALE_CONST;
  for (size_t t = 0; t < rows; t++)
    scale_v52(&buf[t], per_row ? rows52 + 5 * t : NULL, &colf);
}

/* One level s (H = 2^s) over the rows of eight blocks; constant dit/inv specialize it. */
IFMA_INLINE void blocks_stage(v52 *buf, size_t rows, unsigned s, const uint64_t *T, bool dit,
                              bool inv) {
  const size_t H = (size_t)1 << s;
  for (size_t blk = 0; blk < rows; blk += 2 * H) {
    v52 *u = buf + blk, *v = u + H;
    bfly_one(&u[0], &v[0]);
    for (size_t e = 1; e < H; e++) {
      v52 w;
      bcast_entry(&w, T, inv ? H - e : e);
      if (dit)
        dit_bfly(&u[e], &v[e], &w, inv);
      else
        dif_bfly(&u[e], &v[e], &w, inv);
    }
  }
}

IFMA_FN void ntt_ifma_blocks(const ntt_pass_ctx *P, size_t g0, void *scratch) {
  const ntt_job *J = P->job;
  const bool inv = J->inverse;
  const size_t rows = (size_t)1 << P->b;
  v52 *buf = (v52 *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63);
  cuzk_fr *stage = (cuzk_fr *)(buf + rows);
  uint64_t *stage52 = (uint64_t *)(stage + NTT_IFMA_LANES);
  cuzk_fr *x = J->x + g0 * rows;
  for (size_t t = 0; t < rows; t++)
    load_col8(&buf[t], x + t, rows);
  if (P->pre) blocks_scale(buf, rows, P, P->pre, &P->pre_cstep, P->pre_rows52, g0, stage, stage52);
  for (unsigned i = 0; i < P->b; i++) {
    const unsigned s = J->dit ? i : P->b - 1 - i;
    const uint64_t *T = P->ifma_lv[s];
    if (J->dit)
      inv ? blocks_stage(buf, rows, s, T, true, true) : blocks_stage(buf, rows, s, T, true, false);
    else
      inv ? blocks_stage(buf, rows, s, T, false, true)
          : blocks_stage(buf, rows, s, T, false, false);
  }
  if (P->post)
    blocks_scale(buf, rows, P, P->post, &P->post_cstep, P->post_rows52, g0, stage, stage52);
  for (size_t t = 0; t < rows; t++)
    store_col8(x + t, rows, &buf[t]);
}

/* ---- strided passes: columns in lanes ---------------------------------------------------- */

static IFMA_FN void tile_scale(v52 *buf, size_t rows, size_t G, const ntt_pass_ctx *P,
                               const ntt_scale *sc, const cuzk_fr *cstep, const uint64_t *rows52,
                               size_t g, size_t c0, v52 *colf, cuzk_fr *stage, uint64_t *stage52) {
  ntt_scale_cols(stage, P, sc, cstep, g, c0);
  w52_of(stage52, stage, P->C);
  for (size_t gi = 0; gi < G; gi++)
    gather_w52(&colf[gi], stage52 + 40 * gi);
  const bool per_row = sc->kind != NTT_SCALE_CONST;
  for (size_t r = 0; r < rows; r++)
    for (size_t gi = 0; gi < G; gi++)
      scale_v52(&buf[r * G + gi], per_row ? rows52 + 5 * r : NULL, &colf[gi]);
}

/*
 * Twiddles of level s for the tile (columns c0 ..): tw(r', gi) for r' < hr = 2^(s-lo), as a
 * pointer and a row stride in v52 units. Forward stored levels are read in place (the entries
 * r'·2^lo + c0 + 8gi .. +7 are one tower group); inverse ones are mirrored, entry
 * m - c for lane c with m = h - (r'·2^lo + c0 + 8gi), which is lane 0 of group m/8 and lanes
 * 7..1 of group m/8 - 1; derived ones are base · T_(s-lo)[r'] (inverse: [hr - r']).
 */
static IFMA_FN const v52 *tile_twiddles(v52 *tw, size_t *stride, const v52 *bases,
                                        const ntt_pass_ctx *P, unsigned s, size_t c0, size_t G) {
  const bool inv = P->job->inverse;
  const unsigned lo = P->lo;
  const size_t hr = (size_t)1 << (s - lo), hlo = (size_t)1 << lo, h = (size_t)1 << s;
  if (!P->derive[s]) {
    const uint64_t *T = P->ifma_lv[s];
    if (!inv) {
      *stride = hlo / NTT_IFMA_LANES;
      return (const v52 *)(T + (c0 / NTT_IFMA_LANES) * NTT_IFMA_GROUP_WORDS);
    }
    const __m512i mirror = _mm512_set_epi64(1, 2, 3, 4, 5, 6, 7, 8);
    for (size_t r = 0; r < hr; r++)
      for (size_t gi = 0; gi < G; gi++) {
        const size_t m = h - (r * hlo + c0 + NTT_IFMA_LANES * gi);
        const v52 *hi = (const v52 *)(T + (m / NTT_IFMA_LANES) * NTT_IFMA_GROUP_WORDS);
        const v52 *lo8 = hi - 1;
        for (int l = 0; l < 5; l++)
          tw[r * G + gi].d[l] = _mm512_permutex2var_epi64(lo8->d[l], mirror, hi->d[l]);
      }
    *stride = G;
    return tw;
  }
  const uint64_t *R = P->ifma_lv[s - lo];
  const v52 *base = bases + (size_t)(s - lo) * G;
  for (size_t r = 0; r < hr; r++) {
    v52 rr;
    bcast_entry(&rr, R, inv ? hr - r : r);
    for (size_t gi = 0; gi < G; gi++)
      mont52(&tw[r * G + gi], &base[gi], &rr);
  }
  *stride = G;
  return tw;
}

/* One level over a tile's rows of G lane groups; twiddle (r', gi) at w[r'·ts + gi]. */
IFMA_INLINE void tile_stage(v52 *buf, size_t rows, size_t hr, size_t G, const v52 *w, size_t ts,
                            bool dit, bool inv) {
  for (size_t blk = 0; blk < rows; blk += 2 * hr)
    for (size_t r = 0; r < hr; r++) {
      v52 *u = buf + (blk + r) * G, *v = u + hr * G;
      const v52 *wr = w + r * ts;
      for (size_t gi = 0; gi < G; gi++) {
        if (dit)
          dit_bfly(&u[gi], &v[gi], &wr[gi], inv);
        else
          dif_bfly(&u[gi], &v[gi], &wr[gi], inv);
      }
    }
}

IFMA_FN void ntt_ifma_tile(const ntt_pass_ctx *P, size_t t, void *scratch) {
  const ntt_job *J = P->job;
  const bool inv = J->inverse;
  const unsigned lo = P->lo, b = P->b;
  const size_t C = P->C, G = C / NTT_IFMA_LANES, rows = (size_t)1 << b, hlo = (size_t)1 << lo;
  const size_t per_g = hlo / C, g = t / per_g, c0 = (t % per_g) * C;
  cuzk_fr *src = J->x + (g << (lo + b)) + c0;
  v52 *buf = (v52 *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63);
  v52 *tw = buf + rows * G, *colf = tw + rows / 2 * G, *bases = colf + G;
  cuzk_fr *stage = (cuzk_fr *)(bases + (size_t)b * G);
  uint64_t *stage52 = (uint64_t *)(stage + (size_t)(b + 1) * C);

  for (size_t r = 0; r < rows; r++)
    for (size_t gi = 0; gi < G; gi++)
      load_row8(&buf[r * G + gi], src + r * hlo + NTT_IFMA_LANES * gi);
  if (P->pre)
    tile_scale(buf, rows, G, P, P->pre, &P->pre_cstep, P->pre_rows52, g, c0, colf, stage, stage52);
  if (P->derive[lo + b - 1]) { /* bases of the derived levels, in W-form lanes */
    ntt_tile_bases(stage, P, c0);
    for (unsigned s = lo; s < lo + b; s++) {
      if (!P->derive[s]) continue;
      w52_of(stage52, stage + (size_t)(s - lo) * C, C);
      for (size_t gi = 0; gi < G; gi++)
        gather_w52(&bases[(size_t)(s - lo) * G + gi], stage52 + 40 * gi);
    }
  }
  for (unsigned i = 0; i < b; i++) {
    const unsigned s = J->dit ? lo + i : lo + b - 1 - i;
    const size_t hr = (size_t)1 << (s - lo);
    size_t ts;
    const v52 *w = tile_twiddles(tw, &ts, bases, P, s, c0, G);
    if (J->dit)
      inv ? tile_stage(buf, rows, hr, G, w, ts, true, true)
          : tile_stage(buf, rows, hr, G, w, ts, true, false);
    else
      inv ? tile_stage(buf, rows, hr, G, w, ts, false, true)
          : tile_stage(buf, rows, hr, G, w, ts, false, false);
  }
  if (P->post)
    tile_scale(buf, rows, G, P, P->post, &P->post_cstep, P->post_rows52, g, c0, colf, stage,
               stage52);
  for (size_t r = 0; r < rows; r++)
    for (size_t gi = 0; gi < G; gi++)
      store_row8(src + r * hlo + NTT_IFMA_LANES * gi, &buf[r * G + gi]);
}

#else /* no IFMA kernels on this target */

bool ntt_ifma_supported(void) { return false; }
bool ntt_ifma_enabled(void) { return false; }
void ntt_ifma_enable(bool on) { (void)on; }
size_t ntt_ifma_scratch_bytes(const ntt_pass_ctx *P) {
  (void)P;
  return 0;
}
void ntt_ifma_blocks(const ntt_pass_ctx *P, size_t g0, void *scratch) {
  (void)P, (void)g0, (void)scratch;
}
void ntt_ifma_tile(const ntt_pass_ctx *P, size_t t, void *scratch) {
  (void)P, (void)t, (void)scratch;
}

#endif
