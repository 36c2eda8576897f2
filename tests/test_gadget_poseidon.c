/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The legacy neptune Poseidon circuit (docs/spec/poseidon.md §6, docs/spec/porep-circuit.md §2.11):
 * aux = constraints = 3a + 4t(R_F - 1) + 4 R_P + 1 (311 / 377 / 505 / 598 for arity 2 / 4 / 8 /
 * 11), nnz and densities from the gadget's structure, the output equal to the native hash (and to
 * neptune's vector), a repeated input variable, and the mode harness with mutations. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cs_modes.h"
#include "cuzk/hashes/poseidon.h"
#include "cuzk/r1cs/gadgets.h"
#include "cuzk/r1cs/r1cs.h"
#include "rng.h"

typedef struct {
  unsigned arity;
  const cuzk_poseidon_params *p;
  cuzk_fr in[36];
  bool repeat; /* every input is the same variable (H(a, a, ...)) */
  cuzk_num out;
} pos_ctx;

static void synth_poseidon(cuzk_cs *cs, void *vctx) {
  pos_ctx *c = vctx;
  cuzk_num in[36];
  for (unsigned i = 0; i < c->arity; i++)
    in[i] = c->repeat && i ? in[0] : cuzk_num_alloc(cs, &c->in[i]);
  cuzk_cs_push(cs, "poseidon");
  c->out = cuzk_gadget_poseidon(cs, c->p, in);
  cuzk_cs_pop(cs);
}

static size_t formula(const cuzk_poseidon_params *p) {
  size_t a = p->arity, t = p->width;
  return 3 * a + 4 * t * (p->full_rounds - 1) + 4 * p->partial_rounds + 1;
}

static pos_ctx make_ctx(unsigned arity, uint64_t *s) {
  pos_ctx c;
  memset(&c, 0, sizeof c);
  c.arity = arity;
  CHECK(cuzk_poseidon_params_get(&c.p, arity) == CUZK_HASH_OK);
  for (unsigned i = 0; i < arity; i++)
    rng_fr(s, &c.in[i]);
  return c;
}

static cuzk_cs *run(cuzk_cs_mode mode, pos_ctx *c) {
  return cs_modes_run(mode, 2, false, synth_poseidon, c);
}

/* Counts, LC structure and the value through the full harness. */
static void test_harness(void) {
  static const unsigned ar[] = {2, 4, 8, 11};
  static const size_t expect[] = {311, 377, 505, 598};
  uint64_t s = 11;
  for (int i = 0; i < 4; i++) {
    pos_ctx c = make_ctx(ar[i], &s);
    size_t a = ar[i], t = a + 1, rp = c.p->partial_rounds;
    cs_counts k = cs_modes_check("poseidon", synth_poseidon, &c, 24, 100 + (uint64_t)i);
    CHECK_MSG(k.aux == a + expect[i] && k.constraints == expect[i] && expect[i] == formula(c.p) &&
                  k.inputs == 1,
              "poseidon %zu: %zu aux %zu constraints", a, k.aux, k.constraints);
    /*
     * nnz, with every matrix entry and key nonzero (they are):
     *  A: round 0, per input: l2 (u + pre) 2, l4 1, l5 (u + pre) 2; per later S-box: its input
     *     Num (t terms in full rounds, t + R_P after the partial rounds, t + k in partial round k)
     *     + 3; the result: t terms.
     *  B: 4 per round-0 S-box (u + pre, l2, l4), 4 per later S-box (ONE, v, l2, l4), 1 result.
     *  C: 4 per round-0 S-box (l2, l4, l5 - post), 5 per keyed S-box, 4 in the terminal round, 1.
     */
    size_t nnz_a = 5 * a + 6 * t * (t + 3) + t * (t + rp + 3) + t;
    for (size_t r = 0; r < rp; r++)
      nnz_a += t + r + 3;
    size_t nnz_b = 4 * a + 4 * (7 * t + rp) + 1;
    size_t nnz_c = 4 * a + 5 * (6 * t + rp) + 4 * t + 1;
    CHECK_MSG(k.nnz[0] == nnz_a && k.nnz[1] == nnz_b && k.nnz[2] == nnz_c,
              "poseidon %zu nnz %zu %zu %zu, expected %zu %zu %zu", a, k.nnz[0], k.nnz[1], k.nnz[2],
              nnz_a, nnz_b, nnz_c);
    /* l4 never in A, the output only in C; B holds the inputs, every l2 and l4, every S-box
     * input; only ONE among the inputs in B */
    size_t sboxes = a + 7 * t + rp;
    CHECK_MSG(k.a_aux_density == k.aux - sboxes - 1 &&
                  k.b_aux_density == a + 2 * a + 3 * (sboxes - a) && k.b_input_density == 1,
              "poseidon %zu densities %zu %zu %zu", a, k.a_aux_density, k.b_aux_density,
              k.b_input_density);
    cuzk_fr native;
    CHECK(cuzk_poseidon_hash(&native, ar[i], c.in) == CUZK_HASH_OK);
    cuzk_cs *cs = run(CUZK_CS_PROVE, &c);
    CHECK_MSG(cuzk_fr_eq(&c.out.value, &native), "poseidon %zu: circuit value != native", a);
    cuzk_cs_result r;
    cuzk_cs_result_get(cs, &r);
    CHECK(c.out.var == (CUZK_VAR_AUX | (cuzk_var)(k.aux - 1)) &&
          cuzk_fr_eq(&r.aux[k.aux - 1], &native));
    cuzk_cs_destroy(cs);
  }
}

/* Arity 2 on (0, 1) is neptune's hash_values vector (docs/spec/poseidon.md §7.1); the result row is
 * (Σ_i M[i][1] y_i ; ONE ; out) and round 0 starts with (u1 + C[1] ; u1 + C[1] ; l2). */
static void test_vector_and_rows(void) {
  pos_ctx c;
  memset(&c, 0, sizeof c);
  c.arity = 2;
  CHECK(cuzk_poseidon_params_get(&c.p, 2) == CUZK_HASH_OK);
  c.in[0] = cuzk_fr_zero;
  c.in[1] = cuzk_fr_one;
  cuzk_cs *cs = run(CUZK_CS_CHECK, &c);
  uint8_t le[32], expect[32];
  const char *hex = "ffe7029a363c202e9da6059d33a9fba661e1ef02d90f9e736ba5765ed7086539";
  for (int i = 0; i < 32; i++) {
    unsigned v;
    sscanf(hex + 2 * i, "%2x", &v);
    expect[i] = (uint8_t)v;
  }
  cuzk_fr_to_bytes(le, &c.out.value);
  CHECK(memcmp(le, expect, 32) == 0);
  cuzk_cs_check ck;
  CHECK(cuzk_cs_is_satisfied(cs, &ck) == CUZK_R1CS_OK && ck.satisfied);

  cuzk_csr A, B, C;
  CHECK(cuzk_cs_matrix(cs, 0, &A) == CUZK_R1CS_OK);
  cuzk_cs_matrix(cs, 1, &B);
  cuzk_cs_matrix(cs, 2, &C);
  const cuzk_fr *cc = c.p->compressed_constants;
  /* row 0: A = B = {ONE: C[1], u1}, C = {l2}; columns: ONE 0, u1 1, u2 2, l2 3 */
  CHECK(A.row_ptr[1] == 2 && A.cols[0] == 0 && cuzk_fr_eq(&A.vals[0], &cc[1]) && A.cols[1] == 1);
  CHECK(B.row_ptr[1] == 2 && B.cols[1] == 1 && C.row_ptr[1] == 1 && C.cols[0] == 3);
  /* row 2 (l5): C = {ONE: -C[t + 1], l5} */
  cuzk_fr neg;
  cuzk_fr_neg(&neg, &cc[3 + 1]);
  CHECK(C.row_ptr[3] - C.row_ptr[2] == 2 && C.cols[C.row_ptr[2]] == 0 &&
        cuzk_fr_eq(&C.vals[C.row_ptr[2]], &neg) && C.cols[C.row_ptr[2] + 1] == 5);
  /* row 6 is element 0's S-box input in round 1: the constant tag folded into ONE's term */
  CHECK(A.row_ptr[7] - A.row_ptr[6] == 3 && A.cols[A.row_ptr[6]] == 0);
  /* the last row: result = Σ_i M[i][1] y_i over the terminal S-box outputs */
  size_t last = 310;
  uint32_t a0 = A.row_ptr[last];
  CHECK(A.row_ptr[last + 1] - a0 == 3 && cuzk_fr_eq(&A.vals[a0], &c.p->mds[1]) &&
        cuzk_fr_eq(&A.vals[a0 + 1], &c.p->mds[3 + 1]) &&
        cuzk_fr_eq(&A.vals[a0 + 2], &c.p->mds[6 + 1]));
  CHECK(B.row_ptr[last + 1] - B.row_ptr[last] == 1 && B.cols[B.row_ptr[last]] == 0);
  CHECK(C.cols[C.row_ptr[last]] == 3 + 310);
  /* a partial round's S-box input grows by one term per round: t + k */
  size_t first_partial = 6 + 3 * 4 * 3; /* round 0: 6 rows; 3 full rounds of t = 3 S-boxes */
  for (size_t k = 0; k < c.p->partial_rounds; k++) {
    size_t row = first_partial + 4 * k;
    CHECK_MSG(A.row_ptr[row + 1] - A.row_ptr[row] == 3 + k, "partial %zu: %u terms", k,
              A.row_ptr[row + 1] - A.row_ptr[row]);
  }
  cuzk_cs_destroy(cs);
}

/* H(a, a): one variable twice; H(a, a, a, a) for arity 4. */
static void test_repeated(void) {
  uint64_t s = 12;
  for (unsigned arity = 2; arity <= 8; arity *= 2) {
    pos_ctx c = make_ctx(arity, &s);
    c.repeat = true;
    for (unsigned i = 1; i < arity; i++)
      c.in[i] = c.in[0];
    cs_counts k = cs_modes_check("poseidon H(a, a)", synth_poseidon, &c, 8, 120 + arity);
    CHECK(k.aux == 1 + formula(c.p) && k.constraints == formula(c.p));
    cuzk_fr native;
    cuzk_poseidon_hash(&native, arity, c.in);
    cuzk_cs *cs = run(CUZK_CS_WITNESS, &c);
    CHECK_MSG(cuzk_fr_eq(&c.out.value, &native), "H(a, a) arity %u", arity);
    cuzk_cs_destroy(cs);
  }
}

/* The wider arities neptune defines: counts in SHAPE mode, CHECK satisfied, value = native. */
static void test_wide(void) {
  static const unsigned ar[] = {16, 24, 36};
  static const size_t expect[] = {761, 1009, 1385};
  uint64_t s = 13;
  for (int i = 0; i < 3; i++) {
    pos_ctx c = make_ctx(ar[i], &s);
    cuzk_cs *cs = run(CUZK_CS_SHAPE, &c);
    CHECK(cuzk_cs_num_constraints(cs) == expect[i] && cuzk_cs_num_aux(cs) == ar[i] + expect[i] &&
          formula(c.p) == expect[i]);
    cuzk_cs_destroy(cs);
    cs = run(CUZK_CS_CHECK, &c);
    cuzk_cs_check ck;
    CHECK(cuzk_cs_is_satisfied(cs, &ck) == CUZK_R1CS_OK && ck.satisfied);
    cuzk_fr native;
    cuzk_poseidon_hash(&native, ar[i], c.in);
    CHECK_MSG(cuzk_fr_eq(&c.out.value, &native), "poseidon %u value", ar[i]);
    cuzk_cs_destroy(cs);
  }
}

/* A wrong witness for the output fails at the "hash result" row. */
static void test_wrong_output(void) {
  uint64_t s = 14;
  pos_ctx c = make_ctx(8, &s);
  cuzk_cs *cs = run(CUZK_CS_CHECK, &c);
  cuzk_fr *aux = cuzk_cs_aux_mut(cs);
  size_t o = cuzk_var_index(c.out.var);
  cuzk_fr_add(&aux[o], &aux[o], &cuzk_fr_one);
  cuzk_cs_check ck;
  CHECK(cuzk_cs_is_satisfied(cs, &ck) == CUZK_R1CS_OK && !ck.satisfied);
  CHECK_MSG(ck.first_failure == 504 && strstr(ck.name, "hash result") != NULL, "%zu %s",
            ck.first_failure, ck.name);
  cuzk_cs_destroy(cs);
}

int main(void) {
  test_harness();
  test_vector_and_rows();
  test_repeated();
  test_wide();
  test_wrong_output();
  return check_summary("test_gadget_poseidon");
}
