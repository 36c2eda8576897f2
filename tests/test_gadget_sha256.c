/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The SHA-256 gadget family (docs/spec/porep-circuit.md §2.1-2.6): Boolean folding rules with their
 * costs, exact rows in RECORD mode (booleanity, xor, and forms, ch, maj order, addmany/MultiEq
 * batching), the constraint counts of docs/spec/porep-circuit.md §2.5-2.6 for compressions and
 * sha256, outputs equal to native SHA-256, and the mode harness with mutations. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cs_modes.h"
#include "cuzk/hashes/sha256.h"
#include "cuzk/r1cs/gadgets.h"
#include "cuzk/r1cs/r1cs.h"
#include "rng.h"

enum { K_C0, K_C1, K_IS, K_NOT }; /* operand kinds in the folding tests */

static cuzk_cs *new_cs(cuzk_cs_mode mode) {
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, mode);
  cuzk_cs *cs = NULL;
  if (cuzk_cs_create(&cs, &o) != CUZK_R1CS_OK) {
    fprintf(stderr, "cuzk_cs_create failed\n");
    exit(1);
  }
  return cs;
}

/* An operand of kind k whose Boolean value is v (allocated bits get the underlying value). */
static cuzk_bool make_operand(cuzk_cs *cs, int k, unsigned v) {
  switch (k) {
  case K_C0: return cuzk_bool_const(false);
  case K_C1: return cuzk_bool_const(true);
  case K_IS: return cuzk_bit_alloc(cs, v);
  default: return cuzk_bool_not(cuzk_bit_alloc(cs, !v));
  }
}
static unsigned kind_value(int k, unsigned v) { return k == K_C0 ? 0 : k == K_C1 ? 1 : v; }

/* ---- the folding rules of docs/spec/porep-circuit.md §2.2 as a model: result kind and cost */
typedef struct {
  int kind;      /* CUZK_BOOL_* */
  unsigned cost; /* aux = constraints, except maj's general case (2 and 2) */
} model;

static int kind_of(int k) {
  return k == K_IS ? CUZK_BOOL_IS : k == K_NOT ? CUZK_BOOL_NOT : CUZK_BOOL_CONST;
}
static int not_kind(int k) {
  return k == K_C0 ? K_C1 : k == K_C1 ? K_C0 : k == K_IS ? K_NOT : K_IS;
}
static model mk(int kind, unsigned cost) {
  model m = {kind, cost};
  return m;
}
static model model_not(model m) {
  if (m.kind != CUZK_BOOL_CONST) m.kind = m.kind == CUZK_BOOL_IS ? CUZK_BOOL_NOT : CUZK_BOOL_IS;
  return m;
}

static model model_xor(int a, int b) {
  if (a == K_C0) return mk(kind_of(b), 0);
  if (b == K_C0) return mk(kind_of(a), 0);
  if (a == K_C1) return mk(kind_of(not_kind(b)), 0);
  if (b == K_C1) return mk(kind_of(not_kind(a)), 0);
  if (a != b) return mk(CUZK_BOOL_NOT, 1); /* Is with Not */
  return mk(CUZK_BOOL_IS, 1);
}

static model model_and(int a, int b) {
  if (a == K_C0 || b == K_C0) return mk(CUZK_BOOL_CONST, 0);
  if (a == K_C1) return mk(kind_of(b), 0);
  if (b == K_C1) return mk(kind_of(a), 0);
  return mk(CUZK_BOOL_IS, 1); /* and_not, nor, and */
}

static bool is_c(int k) { return k == K_C0 || k == K_C1; }

static model model_ch(int a, int b, int c) {
  if (is_c(a) && is_c(b) && is_c(c)) return mk(CUZK_BOOL_CONST, 0);
  if (a == K_C0) return mk(kind_of(c), 0);
  if (b == K_C0) return model_and(not_kind(a), c);
  if (c == K_C0) return model_and(a, b);
  if (c == K_C1) return model_not(model_and(a, not_kind(b)));
  if (b == K_C1) return model_not(model_and(not_kind(a), not_kind(c)));
  return mk(CUZK_BOOL_IS, 1);
}

static model model_maj(int a, int b, int c) {
  if (is_c(a) && is_c(b) && is_c(c)) return mk(CUZK_BOOL_CONST, 0);
  if (a == K_C0) return model_and(b, c);
  if (b == K_C0) return model_and(a, c);
  if (c == K_C0) return model_and(a, b);
  if (c == K_C1) return model_not(model_and(not_kind(a), not_kind(b)));
  if (b == K_C1) return model_not(model_and(not_kind(a), not_kind(c)));
  if (a == K_C1) return model_not(model_and(not_kind(b), not_kind(c)));
  return mk(CUZK_BOOL_IS, 2);
}

/* Every kind combination and every value assignment, in CHECK (values) and SHAPE (structure). */
static void test_folding(void) {
  const char *names[4] = {"xor", "and", "ch", "maj"};
  cuzk_cs *sys[2] = {new_cs(CUZK_CS_CHECK), new_cs(CUZK_CS_SHAPE)};
  for (int op = 0; op < 4; op++) {
    int arity = op < 2 ? 2 : 3;
    int combos = arity == 2 ? 16 : 64;
    for (int kc = 0; kc < combos; kc++) {
      int k[3] = {kc & 3, (kc >> 2) & 3, (kc >> 4) & 3};
      model want = op == 0   ? model_xor(k[0], k[1])
                   : op == 1 ? model_and(k[0], k[1])
                   : op == 2 ? model_ch(k[0], k[1], k[2])
                             : model_maj(k[0], k[1], k[2]);
      for (unsigned vals = 0; vals < (1u << arity); vals++) {
        for (int mode = 0; mode < 2; mode++) {
          cuzk_cs *cs = sys[mode];
          cuzk_cs_reset(cs);
          cuzk_bool x[3];
          unsigned v[3];
          for (int i = 0; i < arity; i++) {
            x[i] = make_operand(cs, k[i], (vals >> i) & 1);
            v[i] = kind_value(k[i], (vals >> i) & 1);
          }
          size_t aux0 = cuzk_cs_num_aux(cs), cons0 = cuzk_cs_num_constraints(cs);
          cuzk_bool r;
          unsigned truth;
          switch (op) {
          case 0:
            r = cuzk_bool_xor(cs, x[0], x[1]);
            truth = v[0] ^ v[1];
            break;
          case 1:
            r = cuzk_bool_and(cs, x[0], x[1]);
            truth = v[0] & v[1];
            break;
          case 2:
            r = cuzk_bool_sha256_ch(cs, x[0], x[1], x[2]);
            truth = (v[0] & v[1]) ^ ((v[0] ^ 1) & v[2]);
            break;
          default:
            r = cuzk_bool_sha256_maj(cs, x[0], x[1], x[2]);
            truth = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
            break;
          }
          size_t daux = cuzk_cs_num_aux(cs) - aux0, dcons = cuzk_cs_num_constraints(cs) - cons0;
          CHECK_MSG(r.kind == want.kind && daux == want.cost && dcons == want.cost,
                    "%s kinds %d%d%d: kind %d cost %zu/%zu, want kind %d cost %u", names[op], k[0],
                    k[1], k[2], r.kind, daux, dcons, want.kind, want.cost);
          if (mode == 0) {
            CHECK_MSG(r.value == truth, "%s kinds %d%d%d values %u: %u want %u", names[op], k[0],
                      k[1], k[2], vals, r.value, truth);
            cuzk_cs_check ck;
            CHECK(cuzk_cs_is_satisfied(cs, &ck) == CUZK_R1CS_OK && ck.satisfied);
          }
        }
      }
    }
  }
  cuzk_cs_destroy(sys[0]);
  cuzk_cs_destroy(sys[1]);
  /* the AllocatedBit forms directly: values and costs */
  for (unsigned vals = 0; vals < 4; vals++) {
    cuzk_cs *cs = new_cs(CUZK_CS_CHECK);
    unsigned a = vals & 1, b = vals >> 1;
    cuzk_bool x = cuzk_bit_alloc(cs, a), y = cuzk_bit_alloc(cs, b);
    CHECK(cuzk_bit_xor(cs, x, y).value == (a ^ b));
    CHECK(cuzk_bit_and(cs, x, y).value == (a & b));
    CHECK(cuzk_bit_and_not(cs, x, y).value == (a & !b));
    CHECK(cuzk_bit_nor(cs, x, y).value == (!a & !b));
    CHECK(cuzk_cs_num_aux(cs) == 6 && cuzk_cs_num_constraints(cs) == 6);
    cuzk_cs_check ck;
    CHECK(cuzk_cs_is_satisfied(cs, &ck) == CUZK_R1CS_OK && ck.satisfied);
    cuzk_cs_destroy(cs);
  }
}

/* ---- exact rows in RECORD mode ---------------------------------------------------------- */
typedef struct {
  uint32_t col;
  int64_t k;
} term;

static cuzk_fr small(int64_t k) {
  cuzk_fr r;
  cuzk_fr_from_u64(&r, (uint64_t)(k < 0 ? -k : k));
  if (k < 0) cuzk_fr_neg(&r, &r);
  return r;
}

/* Row r of matrix m equals the given terms (ascending columns, small coefficients). */
static bool row_is(const cuzk_csr *m, size_t r, const term *t, size_t n) {
  uint32_t b = m->row_ptr[r], e = m->row_ptr[r + 1];
  if (e - b != n) return false;
  for (size_t i = 0; i < n; i++) {
    cuzk_fr k = small(t[i].k);
    if (m->cols[b + i] != t[i].col || !cuzk_fr_eq(&m->vals[b + i], &k)) return false;
  }
  return true;
}

#define ROW(m, r, ...)                                                                          \
  do {                                                                                          \
    const term t_[] = {__VA_ARGS__};                                                            \
    CHECK_MSG(row_is(&(m), r, t_, sizeof t_ / sizeof t_[0]), "row %zu of %s", (size_t)(r), #m); \
  } while (0)
#define EMPTY(m, r) \
  CHECK_MSG((m).row_ptr[r] == (m).row_ptr[(r) + 1], "row %zu of %s not empty", (size_t)(r), #m)

typedef struct {
  cuzk_csr A, B, C;
} mats;

static void get_mats(cuzk_cs *cs, mats *m) {
  CHECK(cuzk_cs_finish(cs) == CUZK_R1CS_OK);
  CHECK(cuzk_cs_matrix(cs, 0, &m->A) == CUZK_R1CS_OK);
  CHECK(cuzk_cs_matrix(cs, 1, &m->B) == CUZK_R1CS_OK);
  CHECK(cuzk_cs_matrix(cs, 2, &m->C) == CUZK_R1CS_OK);
}

/* One input (ONE): aux j is column 1 + j. */
#define AUX(j) (1u + (uint32_t)(j))

static void test_rows(void) {
  cuzk_cs *cs = new_cs(CUZK_CS_RECORD);
  cuzk_bool a = cuzk_bit_alloc(cs, 0), b = cuzk_bit_alloc(cs, 0), c = cuzk_bit_alloc(cs, 0);
  /* aux 0, 1, 2; rows 0, 1, 2 are booleanity */
  cuzk_bool x = cuzk_bool_xor(cs, a, b); /* aux 3, row 3 */
  CHECK(x.kind == CUZK_BOOL_IS && x.var == (CUZK_VAR_AUX | 3));
  cuzk_bool y = cuzk_bool_xor(cs, cuzk_bool_not(a), b); /* Not/Is: xor(b, a), Not; aux 4, row 4 */
  CHECK(y.kind == CUZK_BOOL_NOT && y.var == (CUZK_VAR_AUX | 4));
  cuzk_bool z = cuzk_bool_and(cs, cuzk_bool_not(a), b); /* and_not(b, a): aux 5, row 5 */
  cuzk_bool w = cuzk_bool_and(cs, cuzk_bool_not(a), cuzk_bool_not(b)); /* nor: aux 6, row 6 */
  cuzk_bool m = cuzk_bool_sha256_maj(cs, a, b, c); /* maj aux 7, bc aux 8; rows 7 (bc), 8 */
  CHECK(m.kind == CUZK_BOOL_IS && m.var == (CUZK_VAR_AUX | 7));
  /* ch with a = Const(true), b = Not(b), c = Is(c): general case, B = ONE; aux 9, row 9 */
  cuzk_bool h = cuzk_bool_sha256_ch(cs, cuzk_bool_const(true), cuzk_bool_not(b), c);
  CHECK(h.kind == CUZK_BOOL_IS && h.var == (CUZK_VAR_AUX | 9));
  /* ch general with Not operands: (lc(b) - lc(c) ; lc(a) ; ch - lc(c)), ONE cancels in A */
  cuzk_bool h2 = cuzk_bool_sha256_ch(cs, a, cuzk_bool_not(b), cuzk_bool_not(c)); /* aux 10 */
  (void)z;
  (void)w;
  (void)h2;
  CHECK(cuzk_cs_num_aux(cs) == 11 && cuzk_cs_num_constraints(cs) == 11);
  mats M;
  get_mats(cs, &M);
  /* booleanity: A = {ONE: 1, a: -1}, B = {a: 1}, C = {} */
  for (int r = 0; r < 3; r++) {
    ROW(M.A, r, {0, 1}, {AUX(r), -1});
    ROW(M.B, r, {AUX(r), 1});
    EMPTY(M.C, r);
  }
  /* xor: A = {a: 2}, B = {b: 1}, C = {a: 1, b: 1, c: -1} */
  ROW(M.A, 3, {AUX(0), 2});
  ROW(M.B, 3, {AUX(1), 1});
  ROW(M.C, 3, {AUX(0), 1}, {AUX(1), 1}, {AUX(3), -1});
  /* Is operand (b) on the A side */
  ROW(M.A, 4, {AUX(1), 2});
  ROW(M.B, 4, {AUX(0), 1});
  ROW(M.C, 4, {AUX(0), 1}, {AUX(1), 1}, {AUX(4), -1});
  /* and_not(b, a): (b ; ONE - a ; c) */
  ROW(M.A, 5, {AUX(1), 1});
  ROW(M.B, 5, {0, 1}, {AUX(0), -1});
  ROW(M.C, 5, {AUX(5), 1});
  /* nor(a, b): (ONE - a ; ONE - b ; c) */
  ROW(M.A, 6, {0, 1}, {AUX(0), -1});
  ROW(M.B, 6, {0, 1}, {AUX(1), -1});
  ROW(M.C, 6, {AUX(6), 1});
  /* maj: bc = and(b, c) first (row 7, aux 8), then (2 bc - b - c ; a ; bc - maj) */
  ROW(M.A, 7, {AUX(1), 1});
  ROW(M.B, 7, {AUX(2), 1});
  ROW(M.C, 7, {AUX(8), 1});
  ROW(M.A, 8, {AUX(1), -1}, {AUX(2), -1}, {AUX(8), 2});
  ROW(M.B, 8, {AUX(0), 1});
  ROW(M.C, 8, {AUX(7), -1}, {AUX(8), 1});
  /* ch(true, !b, c): (ONE - b - c ; ONE ; ch - c) */
  ROW(M.A, 9, {0, 1}, {AUX(1), -1}, {AUX(2), -1});
  ROW(M.B, 9, {0, 1});
  ROW(M.C, 9, {AUX(2), -1}, {AUX(9), 1});
  /* ch(a, !b, !c): (-b + c ; a ; ch - ONE + c) */
  ROW(M.A, 10, {AUX(1), -1}, {AUX(2), 1});
  ROW(M.B, 10, {AUX(0), 1});
  ROW(M.C, 10, {0, -1}, {AUX(2), 1}, {AUX(10), 1});
  cuzk_cs_destroy(cs);
}

/* addmany and MultiEq batching: rows, coefficients and where the flush lands. */
static void test_addmany_rows(void) {
  cuzk_cs *cs = new_cs(CUZK_CS_RECORD);
  cuzk_u32 x, y, kc;
  for (int i = 0; i < 32; i++)
    x.bits[i] = cuzk_bit_alloc(cs, 0); /* aux 0..31 */
  for (int i = 0; i < 32; i++)
    y.bits[i] = cuzk_bool_not(cuzk_bit_alloc(cs, 0)); /* aux 32..63, negated */
  cuzk_u32_const(&kc, 0x80000005u);
  cuzk_multieq m;
  cuzk_multieq_init(&m, cs);
  /* a: x + !y + K, 3 operands -> 34 bits (aux 64..97, rows 64..97), shift 0 */
  const cuzk_u32 *ops3[3] = {&x, &y, &kc};
  cuzk_u32 r1, r2, all_c;
  CHECK(cuzk_multieq_shift(&m, 34) == 0);
  cuzk_u32_addmany(&m, &r1, ops3, 3);
  CHECK(m.bits_used == 34 && cuzk_multieq_shift(&m, 33) == 34);
  CHECK(cuzk_cs_num_constraints(cs) == 64 + 34); /* no flush yet */
  /* constant operands only: free */
  const cuzk_u32 *opsc[2] = {&kc, &kc};
  cuzk_u32_addmany(&m, &all_c, opsc, 2);
  CHECK(cuzk_u32_value(&all_c) == 0x0000000au && cuzk_bool_is_const(all_c.bits[1]));
  CHECK(cuzk_cs_num_aux(cs) == 98 && m.bits_used == 34);
  /* b: r1 + x, 2 operands -> 33 bits at shift 34 (aux 98..130) */
  const cuzk_u32 *ops2[2] = {&r1, &x};
  cuzk_u32_addmany(&m, &r2, ops2, 2);
  CHECK(m.bits_used == 67);
  /* 5 more 34-bit additions fit (67 + 5 * 34 = 237); the next (271 >= 254) flushes */
  cuzk_u32 t[6];
  for (int i = 0; i < 6; i++) {
    const cuzk_u32 *o[4] = {&x, &x, &y, &r2};
    size_t before = cuzk_cs_num_constraints(cs);
    cuzk_u32_addmany(&m, &t[i], o, 4);
    size_t added = cuzk_cs_num_constraints(cs) - before;
    CHECK_MSG(added == (i < 5 ? 34u : 35u), "addition %d added %zu", i, added);
  }
  size_t flush_row = 64 + 34 + 33 + 6 * 34; /* after the 6th addition's booleanity rows */
  CHECK(cuzk_cs_num_constraints(cs) == flush_row + 1 && m.bits_used == 34);
  cuzk_multieq_finish(&m);
  CHECK(cuzk_cs_num_constraints(cs) == flush_row + 2 && m.bits_used == 0);
  cuzk_multieq_finish(&m); /* nothing pending: no constraint */
  CHECK(cuzk_cs_num_constraints(cs) == flush_row + 2);
  mats M;
  get_mats(cs, &M);
  /* result bits: booleanity rows */
  ROW(M.A, 64, {0, 1}, {AUX(64), -1});
  ROW(M.B, 64, {AUX(64), 1});
  /* the first batch: (lhs ; ONE ; rhs) with a at shift 0, b at 34, then five at 67 + 34 i */
  ROW(M.B, flush_row, {0, 1});
  uint32_t ra = M.A.row_ptr[flush_row], ea = M.A.row_ptr[flush_row + 1];
  /* x occurs in a, b and twice in each of the five: merged to one coefficient per bit */
  CHECK(ea - ra == 1 + 4 * 32); /* ONE, x, y, r1 (in b), r2 (in the five): merged */
  /* check x's bit 3 coefficient: 2^3 (a) + 2^37 (b) + Σ_i 2 * 2^(67 + 34 i + 3) */
  cuzk_fr want = cuzk_pow2[3], tmp;
  cuzk_fr_add(&want, &want, &cuzk_pow2[37]);
  for (int i = 0; i < 5; i++) {
    cuzk_fr_dbl(&tmp, &cuzk_pow2[67 + 34 * i + 3]);
    cuzk_fr_add(&want, &want, &tmp);
  }
  bool found = false;
  for (uint32_t p = ra; p < ea; p++)
    if (M.A.cols[p] == AUX(3)) found = cuzk_fr_eq(&M.A.vals[p], &want);
  CHECK_MSG(found, "merged coefficient of x bit 3 in the batch");
  /* y (negated) bit 0: -2^0 (a) - Σ_i 2^(67 + 34 i) */
  cuzk_fr_neg(&want, &cuzk_pow2[0]);
  for (int i = 0; i < 5; i++)
    cuzk_fr_sub(&want, &want, &cuzk_pow2[67 + 34 * i]);
  found = false;
  for (uint32_t p = ra; p < ea; p++)
    if (M.A.cols[p] == AUX(32)) found = cuzk_fr_eq(&M.A.vals[p], &want);
  CHECK_MSG(found, "coefficient of !y bit 0 in the batch");
  /* ONE: K + Σ_k 2^k (the !y bits) in a, then (2^32 - 1) per addition at 67 + 34 i */
  cuzk_fr_from_u64(&want, (uint64_t)0x80000005u + 0xffffffffu);
  for (int i = 0; i < 5; i++) {
    cuzk_fr_from_u64(&tmp, 0xffffffffu);
    cuzk_fr_mul(&tmp, &tmp, &cuzk_pow2[67 + 34 * i]);
    cuzk_fr_add(&want, &want, &tmp);
  }
  CHECK_MSG(M.A.cols[ra] == 0 && cuzk_fr_eq(&M.A.vals[ra], &want), "ONE coefficient of the batch");
  /* rhs: a's result bit k at 2^k, b's at 2^(34 + k), the five's at 2^(67 + 34 i + k) */
  uint32_t rc = M.C.row_ptr[flush_row], ec = M.C.row_ptr[flush_row + 1];
  CHECK(ec - rc == 34 + 33 + 5 * 34);
  bool rhs_ok = ec - rc == 34 + 33 + 5 * 34;
  for (uint32_t p = rc; rhs_ok && p < ec; p++) {
    uint32_t j = M.C.cols[p] - 1; /* aux index, ascending */
    unsigned e = j < 98 ? j - 64 : j < 131 ? 34 + (j - 98) : 67 + (j - 131);
    rhs_ok = cuzk_fr_eq(&M.C.vals[p], &cuzk_pow2[e]);
  }
  CHECK_MSG(rhs_ok, "rhs coefficients of the batch");
  /* the second batch: the 6th addition alone at shift 0 */
  ROW(M.B, flush_row + 1, {0, 1});
  CHECK(M.C.row_ptr[flush_row + 2] - M.C.row_ptr[flush_row + 1] == 34);
  CHECK(M.C.cols[M.C.row_ptr[flush_row + 1]] == AUX(131 + 5 * 34) &&
        cuzk_fr_eq(&M.C.vals[M.C.row_ptr[flush_row + 1]], &cuzk_pow2[0]));
  cuzk_cs_destroy(cs);
}

/* The budget boundary: a batch flushes when bits_used + n reaches 254 (not only beyond). SHA's
 * 33..36-bit additions never sum to exactly 254, so this drives MultiEq directly. */
static void test_multieq_boundary(void) {
  cuzk_cs *cs = new_cs(CUZK_CS_CHECK);
  cuzk_bool a = cuzk_bit_alloc(cs, 1);
  cuzk_multieq m;
  cuzk_multieq_init(&m, cs);
  cuzk_lc l, r;
  for (int i = 0; i < 3; i++) {
    unsigned n = i == 0 ? 200 : 54;
    unsigned s = cuzk_multieq_shift(&m, n);
    CHECK(s == (i == 1 ? 0u : i == 2 ? 54u : 0u));
    CHECK(i != 1 || cuzk_multieq_shift(&m, 53) == 200);
    cuzk_lc_init(&l, cs);
    cuzk_lc_init(&r, cs);
    cuzk_lc_add_bool_pow2(&l, a, s);
    cuzk_lc_add_bool_pow2(&r, cuzk_bool_const(true), s);
    cuzk_multieq_enforce_equal(&m, n, &l, &r);
    CHECK(cuzk_cs_num_constraints(cs) == 1u + (i >= 1)); /* 200 + 54 = 254: flushed */
  }
  CHECK(m.bits_used == 108);
  cuzk_multieq_finish(&m);
  CHECK(cuzk_cs_num_constraints(cs) == 3);
  cuzk_cs_check ck;
  CHECK(cuzk_cs_is_satisfied(cs, &ck) == CUZK_R1CS_OK && ck.satisfied);
  cuzk_cs_destroy(cs);
}

/* ---- compression and sha256 over the constraint system ------------------------------------- */

typedef struct {
  unsigned in_mode;    /* 0: all allocated, 1: all constant, 2: mixed (about 1 in 4 constant),
                          3: allocated but bits 248 and 504 (two 256-bit chunks' pad bits) */
  unsigned state_mode; /* 0: IV constants, 1: allocated random state, 2: constant random */
  uint64_t seed;
  /* results */
  size_t aux, cons; /* of the gadget alone */
  uint32_t out[8];
  bool out_const;
  uint32_t want[8];
} comp_ctx;

static cuzk_bool input_bit(cuzk_cs *cs, unsigned mode, size_t i, unsigned v, uint64_t *s) {
  bool c = mode == 1 || (mode == 2 && rng_next(s) % 4 == 0) || (mode == 3 && i % 256 == 248);
  return c ? cuzk_bool_const(v) : cuzk_bit_alloc(cs, v);
}

static void comp_synth(cuzk_cs *cs, void *vctx) {
  comp_ctx *c = vctx;
  uint64_t s = c->seed;
  uint8_t block[64];
  uint32_t st[8];
  for (int i = 0; i < 64; i++)
    block[i] = (uint8_t)rng_next(&s);
  if (c->in_mode == 3) { /* the constant pad bits (MSB of bytes 31 and 63) are 0 */
    block[31] &= 0x7f;
    block[63] &= 0x7f;
  }
  cuzk_sha256_init_state(st);
  if (c->state_mode)
    for (int i = 0; i < 8; i++)
      st[i] = (uint32_t)rng_next(&s);
  cuzk_bool in[512];
  for (int i = 0; i < 512; i++)
    in[i] = input_bit(cs, c->in_mode, (size_t)i, (block[i / 8] >> (7 - i % 8)) & 1, &s);
  cuzk_u32 state[8], out[8];
  for (int i = 0; i < 8; i++) {
    if (c->state_mode == 1) {
      for (int k = 0; k < 32; k++)
        state[i].bits[k] = cuzk_bit_alloc(cs, (st[i] >> k) & 1);
    } else {
      cuzk_u32_const(&state[i], st[i]);
    }
  }
  size_t aux0 = cuzk_cs_num_aux(cs), cons0 = cuzk_cs_num_constraints(cs);
  cuzk_cs_push(cs, "compression");
  cuzk_gadget_sha256_compress(cs, out, in, state);
  cuzk_cs_pop(cs);
  c->aux = cuzk_cs_num_aux(cs) - aux0;
  c->cons = cuzk_cs_num_constraints(cs) - cons0;
  c->out_const = true;
  for (int i = 0; i < 8; i++) {
    c->out[i] = cuzk_u32_value(&out[i]);
    for (int k = 0; k < 32; k++)
      c->out_const &= cuzk_bool_is_const(out[i].bits[k]);
  }
  memcpy(c->want, st, sizeof st);
  cuzk_sha256_compress(c->want, block);
}

static void test_compression_counts(void) {
  static const struct {
    unsigned in_mode, state_mode;
    size_t cons, aux;
  } cases[] = {
      {0, 0, 25840, 25814}, /* bellperson test_full_block */
      {0, 1, 26192, 26166}, /* allocated state */
      {1, 0, 0, 0},         /* test_blank_hash: constant block, IV */
      {1, 1, 19034, 19014}, /* the constant padding block after an allocated state */
      {3, 0, 25832, 25806}, /* comm_d tree block 0: two leaves */
      {3, 1, 26184, 26158}, /* label blocks 1-18: two parents, allocated state */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    for (int mode = 0; mode < 3; mode++) {
      cuzk_cs_mode md = mode == 0 ? CUZK_CS_PROVE : mode == 1 ? CUZK_CS_WITNESS : CUZK_CS_SHAPE;
      comp_ctx c = {cases[i].in_mode, cases[i].state_mode, 100 + i, 0, 0, {0}, false, {0}};
      cuzk_cs *cs = new_cs(md);
      comp_synth(cs, &c);
      CHECK_MSG(c.cons == cases[i].cons && c.aux == cases[i].aux,
                "compression case %zu (%s): %zu constraints, %zu aux; want %zu, %zu", i,
                cuzk_cs_mode_name(md), c.cons, c.aux, cases[i].cons, cases[i].aux);
      if (md != CUZK_CS_SHAPE)
        CHECK_MSG(memcmp(c.out, c.want, sizeof c.out) == 0, "compression case %zu (%s) output", i,
                  cuzk_cs_mode_name(md));
      if (cases[i].cons == 0) CHECK(c.out_const);
      CHECK(cuzk_cs_error(cs) == CUZK_R1CS_OK);
      cuzk_cs_destroy(cs);
    }
  }
  /* mixed constant/allocated blocks with allocated and constant random states */
  for (unsigned st = 0; st < 3; st++) {
    comp_ctx c = {2, st, 200 + st, 0, 0, {0}, false, {0}};
    cuzk_cs *cs = new_cs(CUZK_CS_PROVE);
    comp_synth(cs, &c);
    CHECK_MSG(memcmp(c.out, c.want, sizeof c.out) == 0, "mixed compression, state mode %u", st);
    CHECK(c.cons - c.aux >= 20 && c.cons - c.aux <= 26); /* only MultiEq rows lack an aux */
    cuzk_cs_destroy(cs);
  }
}

typedef struct {
  size_t nbits;
  unsigned in_mode;
  uint64_t seed;
  size_t aux, cons;
  uint8_t digest[32];
  uint8_t want[32];
  bool all_const;
} hash_ctx;

static void hash_synth(cuzk_cs *cs, void *vctx) {
  hash_ctx *h = vctx;
  uint64_t s = h->seed;
  size_t nbytes = h->nbits / 8;
  uint8_t *msg = malloc(nbytes + 1);
  cuzk_bool *in = malloc((h->nbits + 1) * sizeof *in);
  for (size_t i = 0; i < nbytes; i++)
    msg[i] = (uint8_t)rng_next(&s);
  for (size_t i = 0; i < h->nbits; i++)
    in[i] = input_bit(cs, h->in_mode, i, (msg[i / 8] >> (7 - i % 8)) & 1, &s);
  size_t aux0 = cuzk_cs_num_aux(cs), cons0 = cuzk_cs_num_constraints(cs);
  cuzk_bool out[256];
  CHECK(cuzk_gadget_sha256(cs, out, in, h->nbits) == CUZK_R1CS_OK);
  h->aux = cuzk_cs_num_aux(cs) - aux0;
  h->cons = cuzk_cs_num_constraints(cs) - cons0;
  memset(h->digest, 0, 32);
  h->all_const = true;
  for (int i = 0; i < 256; i++) {
    h->digest[i / 8] |= (uint8_t)((out[i].value & 1) << (7 - i % 8));
    h->all_const &= cuzk_bool_is_const(out[i]);
  }
  cuzk_sha256(h->want, msg, nbytes);
  free(msg);
  free(in);
}

static void test_sha256_native(void) {
  static const size_t lens[] = {0, 8, 440, 448, 504, 512, 1000, 1024, 1472, 2048};
  for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
    for (unsigned im = 0; im < 3; im++) {
      for (int mode = 0; mode < 2; mode++) {
        cuzk_cs_mode md = mode ? CUZK_CS_WITNESS : CUZK_CS_PROVE;
        hash_ctx h = {lens[li], im, 1000 + li * 3 + im, 0, 0, {0}, {0}, false};
        cuzk_cs *cs = new_cs(md);
        hash_synth(cs, &h);
        CHECK_MSG(memcmp(h.digest, h.want, 32) == 0, "sha256 of %zu bits, input mode %u (%s)",
                  lens[li], im, cuzk_cs_mode_name(md));
        CHECK(cuzk_cs_error(cs) == CUZK_R1CS_OK);
        if (im == 1 || lens[li] == 0) CHECK(h.all_const && h.cons == 0 && h.aux == 0);
        cuzk_cs_destroy(cs);
      }
    }
  }
  /* bellperson test_full_hash: 512 allocated bits, two blocks */
  hash_ctx h = {512, 0, 7, 0, 0, {0}, {0}, false};
  cuzk_cs *cs = new_cs(CUZK_CS_SHAPE);
  hash_synth(cs, &h);
  CHECK_MSG(h.cons == 44874, "sha256 of 512 allocated bits: %zu constraints", h.cons);
  CHECK(cuzk_cs_num_constraints(cs) == 44874 + 512);
  cuzk_cs_destroy(cs);
  /* a bit count that is not a whole number of bytes */
  cs = new_cs(CUZK_CS_SHAPE);
  cuzk_bool in[12], out[256];
  for (int i = 0; i < 12; i++)
    in[i] = cuzk_bool_const(false);
  CHECK(cuzk_gadget_sha256(cs, out, in, 12) == CUZK_R1CS_EINVAL);
  CHECK(cuzk_cs_num_constraints(cs) == 0);
  cuzk_cs_destroy(cs);
}

/* ---- UInt32 helpers and bit reversal ------------------------------------------------------- */
static void test_u32_and_bits(void) {
  cuzk_u32 x, r;
  cuzk_u32_const(&x, 0x80000001u);
  CHECK(cuzk_u32_value(&x) == 0x80000001u);
  cuzk_u32_rotr(&r, &x, 1);
  CHECK(cuzk_u32_value(&r) == 0xc0000000u);
  cuzk_u32_rotr(&r, &x, 33);
  CHECK(cuzk_u32_value(&r) == 0xc0000000u);
  cuzk_u32_shr(&r, &x, 31);
  CHECK(cuzk_u32_value(&r) == 1u);
  cuzk_bool be[32];
  cuzk_u32_into_bits_be(be, &x);
  CHECK(be[0].value == 1 && be[31].value == 1 && be[1].value == 0);
  cuzk_u32_from_bits_be(&r, be);
  CHECK(cuzk_u32_value(&r) == 0x80000001u);
  /* reverse within bytes: 0x01 0x80 <-> 0x80 0x01 */
  cuzk_bool bits[16];
  for (int i = 0; i < 16; i++)
    bits[i] = cuzk_bool_const(i == 7 || i == 8);
  cuzk_bits_reverse_in_bytes(bits, 16);
  for (int i = 0; i < 16; i++)
    CHECK(bits[i].value == (i == 0 || i == 15));
  /* UInt32 xor/ch/maj values against native ones, mixed kinds */
  uint64_t s = 99;
  cuzk_cs *cs = new_cs(CUZK_CS_CHECK);
  cuzk_u32 a, b, c, o;
  uint32_t va = (uint32_t)rng_next(&s), vb = (uint32_t)rng_next(&s), vc = (uint32_t)rng_next(&s);
  for (int k = 0; k < 32; k++) {
    a.bits[k] = make_operand(cs, (int)(rng_next(&s) % 4), (va >> k) & 1);
    b.bits[k] = make_operand(cs, (int)(rng_next(&s) % 4), (vb >> k) & 1);
    c.bits[k] = make_operand(cs, (int)(rng_next(&s) % 4), (vc >> k) & 1);
  }
  va = cuzk_u32_value(&a);
  vb = cuzk_u32_value(&b);
  vc = cuzk_u32_value(&c);
  cuzk_u32_xor(cs, &o, &a, &b);
  CHECK(cuzk_u32_value(&o) == (va ^ vb));
  cuzk_u32_sha256_ch(cs, &o, &a, &b, &c);
  CHECK(cuzk_u32_value(&o) == ((va & vb) ^ (~va & vc)));
  cuzk_u32_sha256_maj(cs, &o, &a, &b, &c);
  CHECK(cuzk_u32_value(&o) == ((va & vb) ^ (va & vc) ^ (vb & vc)));
  cuzk_multieq m;
  cuzk_multieq_init(&m, cs);
  const cuzk_u32 *ops[3] = {&a, &b, &c};
  cuzk_u32_addmany(&m, &o, ops, 3);
  CHECK(cuzk_u32_value(&o) == va + vb + vc);
  cuzk_multieq_finish(&m);
  cuzk_cs_check ck;
  CHECK(cuzk_cs_is_satisfied(cs, &ck) == CUZK_R1CS_OK && ck.satisfied);
  cuzk_cs_destroy(cs);
}

/* ---- the mode harness ---------------------------------------------------------------------- */
static void test_modes(void) {
  comp_ctx c = {2, 1, 31, 0, 0, {0}, false, {0}};
  cs_counts k =
      cs_modes_check("sha256 compression (mixed block, allocated state)", comp_synth, &c, 20, 5);
  CHECK(memcmp(c.out, c.want, sizeof c.out) == 0);
  CHECK(k.b_input_density == 1); /* ONE, from the MultiEq rows' B */
  comp_ctx c0 = {0, 0, 32, 0, 0, {0}, false, {0}};
  k = cs_modes_check("sha256 compression (allocated block, IV)", comp_synth, &c0, 20, 6);
  CHECK(k.constraints == 512 + 25840 && k.aux == 512 + 25814);
  hash_ctx h = {520, 2, 33, 0, 0, {0}, {0}, false}; /* two blocks, mixed bits */
  cs_modes_check("sha256 of 520 mixed bits", hash_synth, &h, 20, 7);
  CHECK(memcmp(h.digest, h.want, 32) == 0);
}

int main(void) {
  test_folding();
  test_rows();
  test_addmany_rows();
  test_multieq_boundary();
  test_u32_and_bits();
  test_compression_counts();
  test_sha256_native();
  test_modes();
  return check_summary("test_gadget_sha256");
}
