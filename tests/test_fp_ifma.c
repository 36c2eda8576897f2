/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The 8-lane IFMA Fp kernel (src/field/fp_ifma.h) against the scalar kernel: 10^5 random inputs
 * per operation, the edge values in every pair of lanes, aliasing, chains of mixed operations,
 * and the conversions. Inputs are raw 52-form integers drawn from all of [0, 2p), so the lazy
 * range is covered, not only what the conversion produces; their reference is computed without
 * the kernel (value y·2^-416 mod p by scalar arithmetic). Outputs are checked against the
 * documented bounds (< 2p, limbs < 2^52). Exits 77 (skipped) on a CPU without IFMA. ctest also
 * runs it with CUZK_NO_IFMA=1 and CUZK_FORCE_PORTABLE=1: the start-up choice is then off, and the
 * comparison runs against the portable scalar kernel.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuzk/field/field.h"
#include "cuzk/util/cpu.h"
#include "field/consts.h"
#include "field/fp_ifma.h"
#include "rng.h"

#if CUZK_FP_IFMA

#define M52 0xfffffffffffffULL
#define N_RANDOM 100000

typedef struct {
  uint64_t w[6]; /* a plain integer < 2^384 */
} u384;

static u384 P, P2;     /* p, 2p */
static cuzk_fp INV416; /* 2^-416 in the scalar Montgomery form */

static int cmp384(const u384 *a, const u384 *b) {
  for (int i = 5; i >= 0; i--)
    if (a->w[i] != b->w[i]) return a->w[i] < b->w[i] ? -1 : 1;
  return 0;
}
static void add384(u384 *r, const u384 *a, const u384 *b) {
  unsigned __int128 c = 0;
  for (int i = 0; i < 6; i++) {
    c += (unsigned __int128)a->w[i] + b->w[i];
    r->w[i] = (uint64_t)c;
    c >>= 64;
  }
}
static void sub384(u384 *r, const u384 *a, const u384 *b) {
  uint64_t borrow = 0;
  for (int i = 0; i < 6; i++) {
    uint64_t x = a->w[i], y = b->w[i];
    r->w[i] = x - y - borrow;
    borrow = (x < y) || (x == y && borrow);
  }
}

/* Independent scalar split/join (the kernel's are vectorized). */
static void split(uint64_t l[8], const u384 *x) {
  for (int j = 0; j < 8; j++) {
    uint64_t v = 0;
    for (int b = 0; b < 52; b++) {
      int bit = 52 * j + b;
      if (bit < 384 && (x->w[bit / 64] >> (bit % 64) & 1)) v |= 1ULL << b;
    }
    l[j] = v;
  }
}
static void join(u384 *x, const uint64_t l[8]) {
  memset(x, 0, sizeof *x);
  for (int j = 0; j < 8; j++)
    for (int b = 0; b < 52; b++) {
      int bit = 52 * j + b;
      if (l[j] >> b & 1) x->w[bit / 64] |= 1ULL << (bit % 64);
    }
}

/* The scalar Montgomery form of the value a raw 52-form y (< 2p) stands for: y·2^-416 mod p. */
static void ref_of(cuzk_fp *r, const u384 *y) {
  u384 t = *y;
  if (cmp384(&t, &P) >= 0) sub384(&t, &t, &P);
  CHECK(cuzk_fp_from_canonical(r, t.w));
  cuzk_fp_mul(r, r, &INV416);
}

/* A uniformly random integer in [0, 2p). */
static void rand_raw(uint64_t *s, u384 *y) {
  do {
    for (int i = 0; i < 6; i++)
      y->w[i] = rng_next(s);
    y->w[5] &= (1ULL << 62) - 1; /* 2p < 2^382 */
  } while (cmp384(y, &P2) >= 0);
}

FP52_FN static void to_vec(fp52x8 *v, const u384 y[8]) {
  uint64_t l[8][8] __attribute__((aligned(64))); /* [limb][lane] */
  for (int k = 0; k < 8; k++) {
    uint64_t t[8];
    split(t, &y[k]);
    for (int j = 0; j < 8; j++)
      l[j][k] = t[j];
  }
  for (int j = 0; j < 8; j++)
    v->l[j] = _mm512_load_si512(l[j]);
}

/* Raw lanes of v; checks the kernel's output contract: limbs < 2^52, value < 2p. */
FP52_FN static void from_vec(u384 y[8], const fp52x8 *v) {
  uint64_t l[8][8] __attribute__((aligned(64)));
  for (int j = 0; j < 8; j++)
    _mm512_store_si512(l[j], v->l[j]);
  for (int k = 0; k < 8; k++) {
    uint64_t t[8];
    bool norm = true;
    for (int j = 0; j < 8; j++) {
      t[j] = l[j][k];
      norm &= t[j] <= M52;
    }
    CHECK(norm);
    join(&y[k], t);
    CHECK(cmp384(&y[k], &P2) < 0);
  }
}

enum { OP_MUL, OP_SQR, OP_ADD, OP_SUB, OP_NEG, OP_DBL, OP_COUNT };
static const char *const op_name[OP_COUNT] = {"mul", "sqr", "add", "sub", "neg", "dbl"};

FP52_FN static void ifma_op(int op, fp52x8 *r, const fp52x8 *a, const fp52x8 *b) {
  switch (op) {
  case OP_MUL: fp52x8_mul(r, a, b); break;
  case OP_SQR: fp52x8_sqr(r, a); break;
  case OP_ADD: fp52x8_add(r, a, b); break;
  case OP_SUB: fp52x8_sub(r, a, b); break;
  case OP_NEG: fp52x8_neg(r, a); break;
  default: fp52x8_dbl(r, a); break;
  }
}
static void scalar_op(int op, cuzk_fp *r, const cuzk_fp *a, const cuzk_fp *b) {
  switch (op) {
  case OP_MUL: cuzk_fp_mul(r, a, b); break;
  case OP_SQR: cuzk_fp_sqr(r, a); break;
  case OP_ADD: cuzk_fp_add(r, a, b); break;
  case OP_SUB: cuzk_fp_sub(r, a, b); break;
  case OP_NEG: cuzk_fp_neg(r, a); break;
  default: cuzk_fp_dbl(r, a); break;
  }
}

/* One batch: op on raw lanes a, b against the scalar op on their references, through the raw
 * output (its reference) and through fp52x8_store. Returns the lanes that differ. */
FP52_FN static int check_batch(int op, const u384 a[8], const u384 b[8]) {
  fp52x8 va, vb, vr;
  to_vec(&va, a);
  to_vec(&vb, b);
  ifma_op(op, &vr, &va, &vb);
  u384 r[8];
  from_vec(r, &vr);
  cuzk_fp stored[8];
  fp52x8_store(stored, &vr);
  int bad = 0;
  for (int k = 0; k < 8; k++) {
    cuzk_fp ra, rb, want, got;
    ref_of(&ra, &a[k]);
    ref_of(&rb, &b[k]);
    scalar_op(op, &want, &ra, &rb);
    ref_of(&got, &r[k]);
    if (!cuzk_fp_eq(&got, &want) || memcmp(&stored[k], &want, sizeof want)) bad++;
  }
  return bad;
}

static void test_random_ops(void) {
  uint64_t s = 0x16ac0de;
  for (int op = 0; op < OP_COUNT; op++) {
    int bad = 0;
    for (int n = 0; n < N_RANDOM; n += 8) {
      u384 a[8], b[8];
      for (int k = 0; k < 8; k++) {
        rand_raw(&s, &a[k]);
        rand_raw(&s, &b[k]);
      }
      bad += check_batch(op, a, b);
    }
    CHECK_MSG(bad == 0, "%s: %d of %d random lanes differ", op_name[op], bad, N_RANDOM);
  }
}

/* Raw edge values: 0, 1, 2, p-1, p (= 0), p+1, 2^381-1, 2^381, 2^381+1, 2p-2, 2p-1, and the
 * 52-form of 1 (2^416 mod p); every pair goes through every operation. */
#define N_EDGE 12
static void edge_values(u384 e[N_EDGE]) {
  memset(e, 0, sizeof(u384) * N_EDGE);
  u384 one = {{1}}, two = {{2}};
  e[1] = one;
  e[2] = two;
  sub384(&e[3], &P, &one);
  e[4] = P;
  add384(&e[5], &P, &one);
  e[7].w[5] = 1ULL << 61; /* 2^381 */
  sub384(&e[6], &e[7], &one);
  add384(&e[8], &e[7], &one);
  sub384(&e[9], &P2, &two);
  sub384(&e[10], &P2, &one);
  /* 2^416 mod p = 2^32 · (2^384 mod p) mod p, by doublings */
  u384 t;
  memcpy(t.w, CUZK_P_R, sizeof t.w);
  for (int i = 0; i < 32; i++) {
    add384(&t, &t, &t);
    if (cmp384(&t, &P) >= 0) sub384(&t, &t, &P);
  }
  e[11] = t;
}

static void test_edges(void) {
  u384 e[N_EDGE];
  edge_values(e);
  cuzk_fp one;
  ref_of(&one, &e[11]);
  CHECK(cuzk_fp_is_one(&one));
  _Static_assert(N_EDGE * N_EDGE % 8 == 0, "whole batches of pairs");
  for (int op = 0; op < OP_COUNT; op++) {
    int bad = 0, k = 0;
    u384 a[8], b[8];
    for (int i = 0; i < N_EDGE; i++)
      for (int j = 0; j < N_EDGE; j++) {
        a[k] = e[i];
        b[k] = e[j];
        if (++k == 8) {
          bad += check_batch(op, a, b);
          k = 0;
        }
      }
    CHECK_MSG(bad == 0, "%s: %d edge lanes differ", op_name[op], bad);
  }
}

FP52_FN static bool vec_eq(const fp52x8 *a, const fp52x8 *b) {
  for (int j = 0; j < 8; j++)
    if (_mm512_cmpneq_epi64_mask(a->l[j], b->l[j])) return false;
  return true;
}

/* Outputs aliasing inputs give the same limbs as separate outputs. */
FP52_FN static void test_aliasing(void) {
  uint64_t s = 0xa11a5;
  for (int n = 0; n < 100; n++) {
    u384 a[8], b[8];
    for (int k = 0; k < 8; k++) {
      rand_raw(&s, &a[k]);
      rand_raw(&s, &b[k]);
    }
    fp52x8 va, vb;
    to_vec(&va, a);
    to_vec(&vb, b);
    for (int op = 0; op < OP_COUNT; op++) {
      fp52x8 want, x = va, y = vb;
      ifma_op(op, &want, &va, &vb);
      ifma_op(op, &x, &x, &y); /* r = a */
      CHECK(vec_eq(&x, &want));
      x = va;
      ifma_op(op, &y, &x, &y); /* r = b */
      CHECK(vec_eq(&y, &want));
      fp52x8 w2, z = va;
      ifma_op(op, &w2, &va, &va);
      ifma_op(op, &z, &z, &z); /* r = a = b */
      CHECK(vec_eq(&z, &w2));
    }
    /* the conversions in place: store then load into the same memory */
    cuzk_fp buf[8];
    fp52x8_store(buf, &va);
    fp52x8 back;
    fp52x8_load(&back, buf);
    fp52x8_store(buf, &back);
    for (int k = 0; k < 8; k++) {
      cuzk_fp want;
      ref_of(&want, &a[k]);
      CHECK(cuzk_fp_eq(&buf[k], &want));
    }
  }
}

/* Chains: every lane runs 2000 random operations on a register file of four values, results
 * fed back, against the scalar kernel: bounds compose. */
FP52_FN static void test_chains(void) {
  uint64_t s = 0xc4a1;
  fp52x8 v[4];
  cuzk_fp f[4][8];
  for (int i = 0; i < 4; i++) {
    u384 y[8];
    for (int k = 0; k < 8; k++) {
      rand_raw(&s, &y[k]);
      ref_of(&f[i][k], &y[k]);
    }
    to_vec(&v[i], y);
  }
  for (int n = 0; n < 2000; n++) {
    uint64_t x = rng_next(&s);
    int op = (int)(x % OP_COUNT), d = (int)(x >> 8 & 3), a = (int)(x >> 10 & 3),
        b = (int)(x >> 12 & 3);
    ifma_op(op, &v[d], &v[a], &v[b]);
    for (int k = 0; k < 8; k++)
      scalar_op(op, &f[d][k], &f[a][k], &f[b][k]);
  }
  int bad = 0;
  for (int i = 0; i < 4; i++) {
    u384 y[8];
    from_vec(y, &v[i]);
    for (int k = 0; k < 8; k++) {
      cuzk_fp got;
      ref_of(&got, &y[k]);
      bad += !cuzk_fp_eq(&got, &f[i][k]);
    }
  }
  CHECK_MSG(bad == 0, "%d of 32 chained lanes differ", bad);
}

/* load/store: 10^5 random scalar elements plus the scalar edge values round-trip; the loaded
 * raw value stands for the same element; split/join agree with the scalar ones. */
FP52_FN static void test_conversions(void) {
  uint64_t s = 0xc0417;
  int bad = 0, bad_raw = 0, bad_split = 0;
  for (int n = 0; n < N_RANDOM + 8; n += 8) {
    cuzk_fp x[8], y[8];
    if (n < N_RANDOM) {
      for (int k = 0; k < 8; k++)
        rng_fp(&s, &x[k]);
    } else { /* 0, 1, p-1, p-2, 2^380, 2^380 - 1, (p-1)/2, (p+1)/2 as canonical integers */
      uint64_t c[8][6] = {{0}};
      c[1][0] = 1;
      memcpy(c[2], CUZK_P, sizeof c[2]);
      c[2][0] -= 1;
      memcpy(c[3], CUZK_P, sizeof c[3]);
      c[3][0] -= 2;
      c[4][5] = 1ULL << 60;
      for (int i = 0; i < 5; i++)
        c[5][i] = ~0ULL;
      c[5][5] = (1ULL << 60) - 1;
      memcpy(c[6], CUZK_P_HALF, sizeof c[6]);
      memcpy(c[7], CUZK_P_HALF, sizeof c[7]);
      c[7][0] += 1;
      for (int k = 0; k < 8; k++)
        CHECK(cuzk_fp_from_canonical(&x[k], c[k]));
    }
    fp52x8 v;
    fp52x8_load(&v, x);
    fp52x8_store(y, &v);
    u384 r[8];
    from_vec(r, &v);
    for (int k = 0; k < 8; k++) {
      bad += memcmp(&x[k], &y[k], sizeof x[k]) != 0;
      cuzk_fp got;
      ref_of(&got, &r[k]);
      bad_raw += !cuzk_fp_eq(&got, &x[k]);
    }
    /* split/join: the raw 384-bit words of x */
    fp52x8 sp;
    const uint64_t *src[8];
    for (int k = 0; k < 8; k++)
      src[k] = x[k].l;
    fp52x8_split(&sp, src);
    u384 raw[8], back[8];
    from_vec(raw, &sp);
    uint64_t *dst[8];
    for (int k = 0; k < 8; k++)
      dst[k] = back[k].w;
    fp52x8_join(dst, &sp);
    for (int k = 0; k < 8; k++)
      bad_split += memcmp(raw[k].w, x[k].l, 48) != 0 || memcmp(back[k].w, x[k].l, 48) != 0;
  }
  CHECK_MSG(bad == 0, "%d round trips differ", bad);
  CHECK_MSG(bad_raw == 0, "%d loaded values differ", bad_raw);
  CHECK_MSG(bad_split == 0, "%d split/join differ", bad_split);
}

FP52_FN static void test_zero_mask(void) {
  u384 e[N_EDGE];
  edge_values(e);
  u384 y[8] = {e[0], e[1], e[3], e[4], e[5], e[7], e[10], e[11]};
  fp52x8 v;
  to_vec(&v, y);
  CHECK(fp52x8_is_zero_mask(&v) == 0x09); /* lanes 0 (0) and 3 (p) */
  fp52x8 d;
  fp52x8_sub(&d, &v, &v); /* all zero */
  CHECK(fp52x8_is_zero_mask(&d) == 0xff);
}

static void test_constants(void) {
  u384 p;
  join(&p, cuzk_fp52_c.p);
  CHECK(!memcmp(p.w, CUZK_P, sizeof p.w));
  u384 p2;
  join(&p2, cuzk_fp52_c.p2);
  CHECK(!cmp384(&p2, &P2));
  CHECK(((cuzk_fp52_c.pinv * cuzk_fp52_c.p[0] + 1) & M52) == 0); /* -p^-1 mod 2^52 */
}

int main(void) {
  if (!cuzk_field_ifma_supported()) {
    printf("test_fp_ifma: this CPU has no AVX-512 IFMA: skipped\n");
    return 77;
  }
  const char *no = getenv("CUZK_NO_IFMA");
  bool off = cuzk_cpu_force_portable() || (no && no[0] && strcmp(no, "0"));
  printf("test_fp_ifma: start-up choice %s, scalar kernel %s\n",
         cuzk_field_ifma_enabled() ? "ifma" : "scalar",
         cuzk_field_active_kernel() == CUZK_KERNEL_ADX ? "adx" : "portable");
  CHECK(cuzk_field_ifma_enabled() == !off);
  CHECK(cuzk_field_use_ifma(false) && !cuzk_field_ifma_enabled());
  CHECK(cuzk_field_use_ifma(true) && cuzk_field_ifma_enabled());
  CHECK(cuzk_field_use_ifma(!off));

  memcpy(P.w, CUZK_P, sizeof P.w);
  add384(&P2, &P, &P);
  cuzk_fp two, t;
  cuzk_fp_from_u64(&two, 2);
  const uint64_t e416[1] = {416};
  cuzk_fp_pow(&t, &two, e416, 1);
  CHECK(cuzk_fp_inv(&INV416, &t));

  test_constants();
  test_random_ops();
  test_edges();
  test_aliasing();
  test_chains();
  test_conversions();
  test_zero_mask();
  return check_summary("test_fp_ifma");
}

#else

int main(void) {
  printf("test_fp_ifma: not an x86-64 build: skipped\n");
  return 77;
}

#endif
