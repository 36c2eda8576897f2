/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The field-element gadgets (docs/spec/porep-circuit.md §2.7-2.10): AllocatedNum (alloc, inputize,
 * to_bits_le, mul, square), multipack, UInt64, equal/add/pick, insert 2/4/8 at every position
 * with the costs and pick order of docs/spec/porep-circuit.md §2.10, and the SHA-256 <-> Fr
 * conversions; each through the mode harness with mutations. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cs_modes.h"
#include "cuzk/hashes/sha256.h"
#include "cuzk/r1cs/gadgets.h"
#include "cuzk/r1cs/r1cs.h"
#include "rng.h"

static cuzk_fr fr(uint64_t v) {
  cuzk_fr r;
  cuzk_fr_from_u64(&r, v);
  return r;
}

/* A CHECK-mode system synthesized and finished (values and matrices for direct inspection). */
static cuzk_cs *run_check(cs_synth_fn f, void *ctx) {
  return cs_modes_run(CUZK_CS_CHECK, 2, false, f, ctx);
}

static bool satisfied(cuzk_cs *cs) {
  cuzk_cs_check r;
  return cuzk_cs_is_satisfied(cs, &r) == CUZK_R1CS_OK && r.satisfied;
}

/* ---- AllocatedNum --------------------------------------------------------------------------- */
typedef struct {
  cuzk_fr x;
  cuzk_bool bits[255];
} bits_ctx;

static void synth_to_bits(cuzk_cs *cs, void *vctx) {
  bits_ctx *c = vctx;
  cuzk_num x = cuzk_num_alloc(cs, &c->x);
  cuzk_num_to_bits_le(cs, c->bits, &x);
}

static void test_to_bits_le(void) {
  uint64_t s = 1;
  cuzk_fr vals[3];
  rng_fr(&s, &vals[0]);
  vals[1] = cuzk_fr_zero;
  cuzk_fr_neg(&vals[2], &cuzk_fr_one); /* r - 1: the canonical bits of the largest value */
  for (int v = 0; v < 3; v++) {
    bits_ctx c;
    c.x = vals[v];
    cs_counts k = cs_modes_check("to_bits_le", synth_to_bits, &c, 8, 10 + (uint64_t)v);
    CHECK_MSG(k.aux == 1 + 255 && k.constraints == 256, "to_bits_le %zu/%zu", k.aux, k.constraints);
    /* the unpacking row: C = Σ 2^i b_i - x (256 terms), A and B empty */
    CHECK(k.nnz[0] == 2 * 255 && k.nnz[1] == 255 && k.nnz[2] == 256);
    cuzk_cs *cs = run_check(synth_to_bits, &c);
    uint64_t w[4];
    cuzk_fr_to_canonical(w, &vals[v]);
    unsigned bad = 0;
    for (unsigned i = 0; i < 255; i++)
      bad += c.bits[i].kind != CUZK_BOOL_IS || c.bits[i].value != ((w[i / 64] >> (i % 64)) & 1);
    CHECK_MSG(bad == 0, "to_bits_le: %u bits differ from the canonical integer", bad);
    cuzk_cs_destroy(cs);
  }
}

typedef struct {
  cuzk_fr a, b;
  cuzk_num ra, rb, prod, sq, sum;
  cuzk_var in;
} arith_ctx;

static void synth_arith(cuzk_cs *cs, void *vctx) {
  arith_ctx *c = vctx;
  c->ra = cuzk_num_alloc(cs, &c->a);
  c->rb = cuzk_num_alloc(cs, &c->b);
  c->in = cuzk_num_inputize(cs, &c->ra);
  c->prod = cuzk_num_mul(cs, &c->ra, &c->rb);
  c->sq = cuzk_num_square(cs, &c->rb);
  c->sum = cuzk_gadget_add(cs, &c->prod, &c->sq);
  cuzk_gadget_add(cs, &c->ra, &c->ra); /* a + a merges to 2a */
  cuzk_gadget_equal(cs, &c->sum, &c->sum);
}

static void test_arith(void) {
  uint64_t s = 2;
  arith_ctx c;
  rng_fr(&s, &c.a);
  rng_fr(&s, &c.b);
  cs_counts k = cs_modes_check("num arith", synth_arith, &c, 6, 20);
  /* aux: a, b, prod, sq, sum, 2a; constraints: inputize, mul, square, add, add, equal */
  CHECK_MSG(k.inputs == 2 && k.aux == 6 && k.constraints == 6, "arith %zu/%zu/%zu", k.inputs, k.aux,
            k.constraints);
  /* A: u | a | b | prod, sq | 2a | sum  ;  B: ONE | b | b | ONE | ONE | ONE */
  CHECK_MSG(k.nnz[0] == 7 && k.nnz[1] == 6 && k.nnz[2] == 6, "nnz %zu %zu %zu", k.nnz[0], k.nnz[1],
            k.nnz[2]);
  cuzk_cs *cs = run_check(synth_arith, &c);
  cuzk_cs_result r;
  cuzk_cs_result_get(cs, &r);
  cuzk_fr ab, bb, sum, two_a;
  cuzk_fr_mul(&ab, &c.a, &c.b);
  cuzk_fr_sqr(&bb, &c.b);
  cuzk_fr_add(&sum, &ab, &bb);
  cuzk_fr_dbl(&two_a, &c.a);
  CHECK(c.in == 1 && cuzk_fr_eq(&r.inputs[1], &c.a)); /* the input's value is x */
  CHECK(cuzk_fr_eq(&c.prod.value, &ab) && cuzk_fr_eq(&c.sq.value, &bb) &&
        cuzk_fr_eq(&c.sum.value, &sum) && cuzk_fr_eq(&r.aux[5], &two_a));
  /* the exact rows of inputize (u ; ONE ; a) and equal (sum ; ONE ; sum) */
  cuzk_csr A, B, C;
  cuzk_cs_matrix(cs, 0, &A);
  cuzk_cs_matrix(cs, 1, &B);
  cuzk_cs_matrix(cs, 2, &C);
  CHECK(A.row_ptr[1] == 1 && A.cols[0] == 1 && B.cols[0] == 0 && C.cols[0] == 2 + 0);
  cuzk_cs_destroy(cs);

  /* equal with different values is unsatisfied; (a ; ONE ; b) puts a in A, b in C */
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, CUZK_CS_CHECK);
  CHECK(cuzk_cs_create(&cs, &o) == CUZK_R1CS_OK);
  cuzk_num x = cuzk_num_alloc(cs, &c.a), y = cuzk_num_alloc(cs, &c.b);
  cuzk_gadget_equal(cs, &x, &y);
  CHECK(!satisfied(cs));
  cuzk_cs_matrix(cs, 0, &A);
  cuzk_cs_matrix(cs, 2, &C);
  CHECK(A.cols[0] == 1 && C.cols[0] == 2);
  cuzk_cs_destroy(cs);
}

/* ---- multipack, UInt64 ------------------------------------------------------------------ */
typedef struct {
  size_t n;
  bool v[600];
  int kind[600]; /* 0 const, 1 allocated, 2 negated allocated */
  cuzk_num packed;
} pack_ctx;

static void make_bits(cuzk_cs *cs, pack_ctx *c, cuzk_bool *out) {
  for (size_t i = 0; i < c->n; i++) {
    if (c->kind[i] == 0)
      out[i] = cuzk_bool_const(c->v[i]);
    else if (c->kind[i] == 1)
      out[i] = cuzk_bit_alloc(cs, c->v[i]);
    else
      out[i] = cuzk_bool_not(cuzk_bit_alloc(cs, !c->v[i]));
  }
}

static void synth_pack(cuzk_cs *cs, void *vctx) {
  pack_ctx *c = vctx;
  cuzk_bool bits[600];
  make_bits(cs, c, bits);
  cuzk_multipack_pack_into_inputs(cs, bits, c->n);
  c->packed = cuzk_multipack_pack_bits(cs, bits, c->n);
}

static void test_multipack(void) {
  static const size_t sizes[] = {1, 64, 254, 255, 508, 600};
  uint64_t s = 3;
  for (size_t t = 0; t < sizeof sizes / sizeof *sizes; t++) {
    pack_ctx c;
    c.n = sizes[t];
    size_t nalloc = 0;
    for (size_t i = 0; i < c.n; i++) {
      uint64_t r = rng_next(&s);
      c.v[i] = r & 1;
      c.kind[i] = (int)((r >> 1) % 3);
      nalloc += c.kind[i] != 0;
    }
    size_t chunks = (c.n + 253) / 254;
    cs_counts k = cs_modes_check("multipack", synth_pack, &c, 4, 30 + t);
    CHECK_MSG(k.inputs == 1 + chunks && k.aux == nalloc + 1 && k.constraints == nalloc + chunks + 1,
              "multipack n=%zu: %zu/%zu/%zu", c.n, k.inputs, k.aux, k.constraints);
    cuzk_cs *cs = run_check(synth_pack, &c);
    cuzk_cs_result r;
    cuzk_cs_result_get(cs, &r);
    cuzk_fr expect[3];
    CHECK(cuzk_multipack_compute(expect, c.v, c.n) == chunks);
    for (size_t i = 0; i < chunks; i++)
      CHECK_MSG(cuzk_fr_eq(&r.inputs[1 + i], &expect[i]), "multipack n=%zu chunk %zu", c.n, i);
    CHECK(cuzk_fr_eq(&c.packed.value, &expect[0])); /* pack_bits: the first 254 bits only */
    cuzk_cs_destroy(cs);
  }
  /* compute on a known pattern: bits 0, 3 and 253 set, then bit 254 starts chunk 2 */
  bool b[256] = {0};
  b[0] = b[3] = b[253] = b[254] = b[255] = true;
  cuzk_fr out[2], e0 = fr(9);
  CHECK(cuzk_multipack_compute(out, b, 256) == 2);
  cuzk_fr top;
  uint64_t w[4] = {0, 0, 0, (uint64_t)1 << 61};
  cuzk_fr_from_canonical(&top, w);
  cuzk_fr_add(&e0, &e0, &top);
  cuzk_fr e1 = fr(3);
  CHECK(cuzk_fr_eq(&out[0], &e0) && cuzk_fr_eq(&out[1], &e1));
}

typedef struct {
  uint64_t v;
} u64_ctx;

static void synth_u64(cuzk_cs *cs, void *vctx) {
  u64_ctx *c = vctx;
  cuzk_bool bits[64];
  cuzk_u64_alloc(cs, bits, c->v);
  cuzk_u64_pack_into_input(cs, bits);
  cuzk_bool k[64];
  cuzk_u64_const(k, c->v ^ 0x5555);
  cuzk_u64_pack_into_input(cs, k); /* constant bits: an input whose row is (c ONE ; ONE ; u) */
}

static void test_u64(void) {
  static const uint64_t vals[] = {0, 1, 0x8000000000000000ull, 0xfedcba9876543210ull, ~0ull};
  for (int i = 0; i < 5; i++) {
    u64_ctx c = {vals[i]};
    cs_counts k = cs_modes_check("uint64", synth_u64, &c, 4, 40 + (uint64_t)i);
    CHECK(k.inputs == 3 && k.aux == 64 && k.constraints == 66);
    cuzk_cs *cs = run_check(synth_u64, &c);
    cuzk_cs_result r;
    cuzk_cs_result_get(cs, &r);
    uint64_t w0[4] = {vals[i], 0, 0, 0}, w1[4] = {vals[i] ^ 0x5555, 0, 0, 0};
    cuzk_fr e0, e1;
    cuzk_fr_from_canonical(&e0, w0);
    cuzk_fr_from_canonical(&e1, w1);
    CHECK(cuzk_fr_eq(&r.inputs[1], &e0) && cuzk_fr_eq(&r.inputs[2], &e1));
    cuzk_cs_destroy(cs);
  }
}

/* ---- pick and insert ------------------------------------------------------------------------ */
typedef struct {
  int kind; /* condition: 0 const, 1 allocated, 2 negated */
  bool v;
  cuzk_fr a, b;
  cuzk_num r;
} pick_ctx;

static void synth_pick(cuzk_cs *cs, void *vctx) {
  pick_ctx *c = vctx;
  cuzk_num a = cuzk_num_alloc(cs, &c->a), b = cuzk_num_alloc(cs, &c->b);
  cuzk_bool cond = c->kind == 0   ? cuzk_bool_const(c->v)
                   : c->kind == 1 ? cuzk_bit_alloc(cs, c->v)
                                  : cuzk_bool_not(cuzk_bit_alloc(cs, !c->v));
  c->r = cuzk_gadget_pick(cs, cond, &a, &b);
}

static void test_pick(void) {
  uint64_t s = 5;
  for (int kind = 0; kind < 3; kind++)
    for (int v = 0; v < 2; v++) {
      pick_ctx c = {kind, v != 0, fr(0), fr(0), {0, {{0}}}};
      rng_fr(&s, &c.a);
      rng_fr(&s, &c.b);
      /* no random mutations: the operand not picked is unconstrained by design */
      cs_counts k = cs_modes_check("pick", synth_pick, &c, 0, 0);
      CHECK(k.aux == 3 + (kind != 0) && k.constraints == 1 + (kind != 0));
      cuzk_cs *cs = run_check(synth_pick, &c);
      CHECK(cuzk_fr_eq(&c.r.value, v ? &c.a : &c.b));
      /* (b - a ; lc(cond) ; b - c) */
      cuzk_csr A, B, C;
      cuzk_cs_matrix(cs, 0, &A);
      cuzk_cs_matrix(cs, 1, &B);
      cuzk_cs_matrix(cs, 2, &C);
      size_t row = kind != 0, in = 1, av = in + 0, bv = in + 1, rv = in + 2 + (kind != 0);
      cuzk_fr m1;
      cuzk_fr_neg(&m1, &cuzk_fr_one);
      uint32_t a0 = A.row_ptr[row], c0 = C.row_ptr[row], b0 = B.row_ptr[row];
      CHECK(A.row_ptr[row + 1] - a0 == 2 && A.cols[a0] == av && cuzk_fr_eq(&A.vals[a0], &m1) &&
            A.cols[a0 + 1] == bv && cuzk_fr_is_one(&A.vals[a0 + 1]));
      CHECK(C.row_ptr[row + 1] - c0 == 2 && C.cols[c0] == bv && C.cols[c0 + 1] == rv &&
            cuzk_fr_eq(&C.vals[c0 + 1], &m1));
      size_t bn = B.row_ptr[row + 1] - b0;
      CHECK(kind == 0 ? bn == (size_t)v : kind == 1 ? bn == 1 : bn == 2);
      /* a wrong result (or, for an allocated condition, a flipped condition) is caught */
      cuzk_fr *aux = cuzk_cs_aux_mut(cs);
      size_t ri = cuzk_var_index(c.r.var);
      cuzk_fr old = aux[ri];
      aux[ri] = v ? c.b : c.a;
      CHECK(!satisfied(cs));
      aux[ri] = old;
      if (kind != 0) {
        aux[2] = cuzk_fr_is_one(&aux[2]) ? cuzk_fr_zero : cuzk_fr_one;
        CHECK(!satisfied(cs));
      }
      cuzk_cs_destroy(cs);
    }
}

typedef struct {
  unsigned size, index;
  cuzk_fr x, sib[7];
  cuzk_num out[8];
  cuzk_r1cs_err err;
} insert_ctx;

static void synth_insert(cuzk_cs *cs, void *vctx) {
  insert_ctx *c = vctx;
  unsigned k = c->size == 2 ? 1 : c->size == 4 ? 2 : 3;
  cuzk_num x = cuzk_num_alloc(cs, &c->x), sib[7];
  for (unsigned j = 0; j + 1 < c->size; j++)
    sib[j] = cuzk_num_alloc(cs, &c->sib[j]);
  cuzk_bool bits[3];
  for (unsigned i = 0; i < k; i++)
    bits[i] = cuzk_bit_alloc(cs, (c->index >> i) & 1);
  c->err = cuzk_gadget_insert(cs, c->out, &x, bits, sib, c->size);
}

static void test_insert(void) {
  static const unsigned sizes[] = {2, 4, 8}, cost[] = {2, 8, 22};
  uint64_t s = 6;
  for (int z = 0; z < 3; z++) {
    unsigned size = sizes[z], k = z + 1;
    for (unsigned idx = 0; idx < size; idx++) {
      insert_ctx c;
      c.size = size;
      c.index = idx;
      rng_fr(&s, &c.x);
      for (unsigned j = 0; j + 1 < size; j++)
        rng_fr(&s, &c.sib[j]);
      cs_counts n = cs_modes_check("insert", synth_insert, &c, 6, 60 + 8 * (uint64_t)z + idx);
      CHECK(c.err == CUZK_R1CS_OK);
      CHECK_MSG(n.aux == size + k + cost[z] && n.constraints == k + cost[z], "insert %u: %zu/%zu",
                size, n.aux, n.constraints);
      cuzk_cs *cs = run_check(synth_insert, &c);
      /* out = siblings with x inserted at idx */
      unsigned bad = 0;
      for (unsigned p = 0, j = 0; p < size; p++) {
        const cuzk_fr *e = p == idx ? &c.x : &c.sib[j++];
        bad += !cuzk_fr_eq(&c.out[p].value, e);
      }
      CHECK_MSG(bad == 0, "insert %u at %u: %u positions wrong", size, idx, bad);
      if (size == 8) {
        /* nor(b0, b1) and and(b0, b1) come first: rows 3, 4 right after the index bits */
        cuzk_cs_result r;
        cuzk_cs_result_get(cs, &r);
        size_t first = 1 + size + k; /* x, 7 siblings, 3 bits (1 input: ONE) */
        bool b0 = idx & 1, b1 = (idx >> 1) & 1;
        CHECK(cuzk_fr_eq(&r.aux[first - 1], (!b0 && !b1) ? &cuzk_fr_one : &cuzk_fr_zero));
        CHECK(cuzk_fr_eq(&r.aux[first], (b0 && b1) ? &cuzk_fr_one : &cuzk_fr_zero));
        cuzk_csr A, B, C;
        cuzk_cs_matrix(cs, 0, &A);
        cuzk_cs_matrix(cs, 1, &B);
        cuzk_cs_matrix(cs, 2, &C);
        uint32_t vb0 = 1 + 8, vb1 = 1 + 9, vnor = 1 + 11, vand = 1 + 12;
        /* (ONE - b0 ; ONE - b1 ; nor) then (b0 ; b1 ; and) */
        CHECK(A.row_ptr[4] - A.row_ptr[3] == 2 && A.cols[A.row_ptr[3]] == 0 &&
              A.cols[A.row_ptr[3] + 1] == vb0 && B.cols[B.row_ptr[3] + 1] == vb1 &&
              C.cols[C.row_ptr[3]] == vnor);
        CHECK(A.row_ptr[5] - A.row_ptr[4] == 1 && A.cols[A.row_ptr[4]] == vb0 &&
              B.cols[B.row_ptr[4]] == vb1 && C.cols[C.row_ptr[4]] == vand);
        /* the first pick: (b - a ; nor ; b - t) with a = x, b = sibling 0 */
        CHECK(B.row_ptr[6] - B.row_ptr[5] == 1 && B.cols[B.row_ptr[5]] == vnor &&
              A.cols[A.row_ptr[5]] == 1 + 0 && A.cols[A.row_ptr[5] + 1] == 1 + 1);
      }
      /* A holds every aux but the outputs (only in C) and, for size 8, nor/and (only in B: "reach
       * only B" in docs/spec/porep-circuit.md §6.3); B holds the bits and nor/and */
      unsigned extra = size == 8 ? 2 : 0;
      CHECK_MSG(n.a_aux_density == n.aux - size - extra && n.b_aux_density == k + extra,
                "insert %u densities %zu %zu", size, n.a_aux_density, n.b_aux_density);
      cuzk_cs_destroy(cs);
    }
  }
  /* sizes that are not powers of two (or too big), and negated bits for size 8, are rejected before
   * any allocation */
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, CUZK_CS_CHECK);
  cuzk_cs *cs;
  CHECK(cuzk_cs_create(&cs, &o) == CUZK_R1CS_OK);
  cuzk_num x = cuzk_num_alloc(cs, &cuzk_fr_one), sib[7], out[8];
  for (int j = 0; j < 7; j++)
    sib[j] = x;
  cuzk_bool bits[3] = {cuzk_bit_alloc(cs, 1), cuzk_bit_alloc(cs, 0), cuzk_bit_alloc(cs, 1)};
  size_t aux = cuzk_cs_num_aux(cs);
  CHECK(cuzk_gadget_insert(cs, out, &x, bits, sib, 3) == CUZK_R1CS_EINVAL);
  CHECK(cuzk_gadget_insert(cs, out, &x, bits, sib, 128) == CUZK_R1CS_EINVAL);
  CHECK(cuzk_gadget_insert(cs, out, &x, bits, sib, 0) == CUZK_R1CS_EINVAL);
  bits[1] = cuzk_bool_not(bits[1]);
  CHECK(cuzk_gadget_insert(cs, out, &x, bits, sib, 8) == CUZK_R1CS_EINVAL);
  CHECK(cuzk_cs_num_aux(cs) == aux);
  /* size 4 accepts any Boolean (picks take lc(cond)); x may alias the output */
  out[0] = x;
  CHECK(cuzk_gadget_insert(cs, out, &out[0], bits, sib, 4) == CUZK_R1CS_OK);
  CHECK(satisfied(cs));
  cuzk_cs_destroy(cs);
}

/* ---- SHA-256 <-> Fr ----------------------------------------------------------------------- */
typedef struct {
  cuzk_fr x;
  uint8_t digest[32];
  cuzk_bool bits[256];
  cuzk_num packed;
} shafr_ctx;

static void synth_shafr(cuzk_cs *cs, void *vctx) {
  shafr_ctx *c = vctx;
  cuzk_num x = cuzk_num_alloc(cs, &c->x);
  cuzk_num_to_sha256_bits(cs, c->bits, &x);
  cuzk_bool d[256]; /* the digest as allocated bits, standard order (byte 0 MSB first) */
  for (int i = 0; i < 256; i++)
    d[i] = cuzk_bit_alloc(cs, (c->digest[i / 8] >> (7 - i % 8)) & 1);
  c->packed = cuzk_sha256_digest_to_num(cs, d);
}

static void test_sha256_fr(void) {
  uint64_t s = 7;
  shafr_ctx c;
  rng_fr(&s, &c.x);
  for (int i = 0; i < 32; i++)
    c.digest[i] = (uint8_t)rng_next(&s);
  c.digest[31] |= 0xc0; /* the two bits the truncation drops */
  cs_counts k = cs_modes_check("sha256 fr", synth_shafr, &c, 6, 70);
  CHECK_MSG(k.aux == 1 + 255 + 256 + 1 && k.constraints == 256 + 256 + 1, "sha256 fr %zu/%zu",
            k.aux, k.constraints);
  cuzk_cs *cs = run_check(synth_shafr, &c);
  /* the bits are the 32-byte LE encoding, bytes in order, MSB first; position 248 constant 0 */
  uint8_t enc[32];
  cuzk_fr_to_bytes(enc, &c.x);
  unsigned bad = 0;
  for (int i = 0; i < 256; i++)
    bad += c.bits[i].value != ((enc[i / 8] >> (7 - i % 8)) & 1);
  CHECK_MSG(bad == 0, "to_sha256_bits: %u bits wrong", bad);
  CHECK(c.bits[248].kind == CUZK_BOOL_CONST && c.bits[248].value == 0);
  for (int i = 0; i < 256; i++)
    if (i != 248) bad += c.bits[i].kind != CUZK_BOOL_IS;
  CHECK(bad == 0);
  cuzk_fr e;
  cuzk_sha256_digest_to_fr(&e, c.digest);
  CHECK(cuzk_fr_eq(&c.packed.value, &e));
  cuzk_cs_destroy(cs);
}

int main(void) {
  test_to_bits_le();
  test_arith();
  test_multipack();
  test_u64();
  test_pick();
  test_insert();
  test_sha256_fr();
  return check_summary("test_gadget_num");
}
