/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The generic insertion gadgets (select, insert for any power-of-two size) and the key xor of
 * storage-proofs-core (insertion.rs, xor.rs): values at every index, the reference's costs
 * (select: size - 1 picks; generic insert: size (size - 1); xor: one per non-constant pair), and
 * the mode harness. */
#include <stdlib.h>

#include "check.h"
#include "cs_modes.h"
#include "cuzk/r1cs/gadgets.h"

typedef struct {
  unsigned nbits, index, op; /* op 0: select, 1: generic insert, 2: insert() */
  cuzk_fr v[64];
  cuzk_num out[64];
  cuzk_r1cs_err err;
} sel_ctx;

static void synth_sel(cuzk_cs *cs, void *vctx) {
  sel_ctx *c = vctx;
  unsigned size = 1u << c->nbits, n = c->op == 0 ? size : size; /* x + size-1 siblings = size */
  cuzk_num v[64];
  bool hv = cuzk_cs_has_values(cs);
  for (unsigned j = 0; j < n; j++)
    v[j] = cuzk_num_alloc(cs, hv ? &c->v[j] : NULL);
  cuzk_bool bits[6];
  for (unsigned i = 0; i < c->nbits; i++)
    bits[i] = cuzk_bit_alloc(cs, (c->index >> i) & 1);
  if (c->op == 0)
    c->err = cuzk_gadget_select(cs, &c->out[0], v, bits, c->nbits);
  else if (c->op == 1)
    c->err = cuzk_gadget_insert_generic(cs, c->out, &v[0], bits, &v[1], c->nbits);
  else
    c->err = cuzk_gadget_insert(cs, c->out, &v[0], bits, &v[1], size);
}

static void test_select_insert(void) {
  uint64_t s = 77;
  for (unsigned nbits = 1; nbits <= 4; nbits++) {
    unsigned size = 1u << nbits;
    for (unsigned idx = 0; idx < size; idx++) {
      for (unsigned op = 0; op < 3; op++) {
        if (op == 2 && nbits != 4) continue; /* insert() dispatches 16 to the generic form */
        sel_ctx c = {nbits, idx, op, {{{0}}}, {{0}}, CUZK_R1CS_OK};
        for (unsigned j = 0; j < size; j++)
          rng_fr(&s, &c.v[j]);
        bool full = idx == 0 || idx == size - 1; /* the harness on the ends, counts everywhere */
        cs_counts n;
        if (full) {
          n = cs_modes_check(op ? "insert generic" : "select", synth_sel, &c, 0, idx);
        } else {
          cuzk_cs *cs = cs_modes_run(CUZK_CS_PROVE, 2, false, synth_sel, &c);
          n.aux = cuzk_cs_num_aux(cs);
          n.constraints = cuzk_cs_num_constraints(cs);
          cuzk_cs_destroy(cs);
        }
        CHECK(c.err == CUZK_R1CS_OK);
        unsigned picks = op == 0 ? size - 1 : size * (size - 1);
        CHECK_MSG(n.constraints == nbits + picks && n.aux == size + nbits + picks,
                  "op %u size %u: %zu/%zu", op, size, n.aux, n.constraints);
        unsigned bad = 0;
        if (op == 0) {
          bad = !cuzk_fr_eq(&c.out[0].value, &c.v[idx]);
        } else {
          /* x = v[0] lands at idx, the siblings v[1..] keep their order around it */
          for (unsigned p = 0, j = 1; p < size; p++)
            bad += !cuzk_fr_eq(&c.out[p].value, p == idx ? &c.v[0] : &c.v[j++]);
        }
        CHECK_MSG(bad == 0, "op %u size %u index %u: %u wrong", op, size, idx, bad);
      }
    }
  }
  /* the generic form of size 4 computes what the hand-optimized one does, with 12 picks not 8 */
  sel_ctx a = {2, 2, 1, {{{0}}}, {{0}}, CUZK_R1CS_OK}, b;
  for (unsigned j = 0; j < 4; j++)
    rng_fr(&s, &a.v[j]);
  b = a;
  b.op = 2;
  cuzk_cs *ca = cs_modes_run(CUZK_CS_WITNESS, 2, false, synth_sel, &a);
  cuzk_cs *cb = cs_modes_run(CUZK_CS_WITNESS, 2, false, synth_sel, &b);
  CHECK(cuzk_cs_num_constraints(ca) == 2 + 12 && cuzk_cs_num_constraints(cb) == 2 + 8);
  for (unsigned p = 0; p < 4; p++)
    CHECK(cuzk_fr_eq(&a.out[p].value, &b.out[p].value));
  cuzk_cs_destroy(ca);
  cuzk_cs_destroy(cb);
  /* the select order: the most significant bit is consumed first, so for 4 elements the first
   * picks use bit 1: (from[2+j] vs from[j]); checked on the first pick row's B side */
  sel_ctx d = {2, 1, 0, {{{0}}}, {{0}}, CUZK_R1CS_OK};
  for (unsigned j = 0; j < 4; j++)
    rng_fr(&s, &d.v[j]);
  cuzk_cs *cd = cs_modes_run(CUZK_CS_RECORD, 2, false, synth_sel, &d);
  cuzk_csr A, B;
  cuzk_cs_matrix(cd, 0, &A);
  cuzk_cs_matrix(cd, 1, &B);
  /* z = [ONE, v0..v3, bit0, bit1, ...]; row 2 is the first pick: (v0 - v2 ; bit1 ; ...) */
  CHECK(B.row_ptr[3] - B.row_ptr[2] == 1 && B.cols[B.row_ptr[2]] == 1 + 5);
  CHECK(A.row_ptr[3] - A.row_ptr[2] == 2 && A.cols[A.row_ptr[2]] == 1 + 0 &&
        A.cols[A.row_ptr[2] + 1] == 1 + 2);
  cuzk_cs_destroy(cd);
}

typedef struct {
  size_t n;
  uint8_t key[256], in[600], kconst[256], iconst[600];
  cuzk_bool out[600];
} xor_ctx;

static void synth_xor(cuzk_cs *cs, void *vctx) {
  xor_ctx *c = vctx;
  cuzk_bool key[256], *in = malloc(c->n * sizeof *in);
  for (int i = 0; i < 256; i++)
    key[i] = c->kconst[i] ? cuzk_bool_const(c->key[i]) : cuzk_bit_alloc(cs, c->key[i]);
  for (size_t i = 0; i < c->n; i++)
    in[i] = c->iconst[i] ? cuzk_bool_const(c->in[i]) : cuzk_bit_alloc(cs, c->in[i]);
  cuzk_gadget_xor_key(cs, c->out, key, in, c->n);
  free(in);
}

static void test_xor_key(void) {
  static xor_ctx c;
  uint64_t s = 99;
  c.n = 600;
  size_t alloc = 0, xors = 0;
  for (int i = 0; i < 256; i++) {
    c.key[i] = rng_next(&s) & 1;
    c.kconst[i] = rng_next(&s) % 4 == 0;
    alloc += !c.kconst[i];
  }
  for (size_t i = 0; i < c.n; i++) {
    c.in[i] = rng_next(&s) & 1;
    c.iconst[i] = rng_next(&s) % 4 == 0;
    alloc += !c.iconst[i];
    xors += !c.iconst[i] && !c.kconst[i % 256]; /* a constant operand folds for free */
  }
  /* no mutations: a bit xor-ed with a constant is only booleanity-checked, flipping it is legal */
  cs_counts n = cs_modes_check("xor key", synth_xor, &c, 0, 5);
  CHECK_MSG(n.constraints == alloc + xors && n.aux == alloc + xors, "%zu/%zu vs %zu", n.aux,
            n.constraints, alloc + xors);
  size_t bad = 0;
  for (size_t i = 0; i < c.n; i++)
    bad += c.out[i].value != (c.in[i] ^ c.key[i % 256]);
  CHECK(bad == 0);
}

int main(void) {
  test_select_insert();
  test_xor_key();
  return check_summary("test_gadget_select");
}
