/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The constraint-system core: LC merging and cancellation, late inputs (column remap), every
 * mode on hand-written circuits, names and is_satisfied, input constraints, reset, errors. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cs_modes.h"
#include "cuzk/r1cs/r1cs.h"

static cuzk_fr fr(uint64_t v) {
  cuzk_fr r;
  cuzk_fr_from_u64(&r, v);
  return r;
}

/* x^3 + x + 5 = out (the classic example), with out made public in the middle and a second
 * input allocated after more aux: exercises late inputs and the aux column remap. */
typedef struct {
  uint64_t x;
} cubic_ctx;

static void cubic(cuzk_cs *cs, void *vctx) {
  cubic_ctx *c = vctx;
  bool hv = cuzk_cs_has_values(cs);
  cuzk_fr x = fr(c->x), x2, x3, out, five = fr(5);
  cuzk_fr_sqr(&x2, &x);
  cuzk_fr_mul(&x3, &x2, &x);
  cuzk_fr_add(&out, &x3, &x);
  cuzk_fr_add(&out, &out, &five);
  cuzk_cs_push(cs, "cubic");
  cuzk_var vx = cuzk_cs_alloc(cs, hv ? &x : NULL);
  cuzk_var vx2 = cuzk_cs_alloc(cs, hv ? &x2 : NULL);
  cuzk_lc a, b, cc;
  cuzk_lc_init(&a, cs);
  cuzk_lc_init(&b, cs);
  cuzk_lc_init(&cc, cs);
  cuzk_lc_add(&a, vx, NULL);
  cuzk_lc_add(&b, vx, NULL);
  cuzk_lc_add(&cc, vx2, NULL);
  cuzk_cs_enforce(cs, "x^2", &a, &b, &cc);
  cuzk_var vout = cuzk_cs_alloc_input(cs, hv ? &out : NULL); /* input allocated mid-synthesis */
  cuzk_var vx3 = cuzk_cs_alloc(cs, hv ? &x3 : NULL);
  cuzk_lc_add(&a, vx2, NULL);
  cuzk_lc_add(&b, vx, NULL);
  cuzk_lc_add(&cc, vx3, NULL);
  cuzk_cs_enforce(cs, "x^3", &a, &b, &cc);
  /* (x3 + x + 5 + x - x) * ONE = out: x - x merges to a zero coefficient (kept, not counted) */
  cuzk_lc_add(&a, vx3, NULL);
  cuzk_lc_add(&a, vx, NULL);
  cuzk_lc_add_const(&a, &five);
  cuzk_lc_add(&a, vx2, NULL);
  cuzk_lc_sub(&a, vx2, NULL);
  cuzk_lc_add(&b, CUZK_VAR_ONE, NULL);
  cuzk_lc_add(&cc, vout, NULL);
  cuzk_cs_enforce(cs, "sum", &a, &b, &cc);
  cuzk_cs_pop(cs);
  /* a second input after more aux; (2 x) via x + x, non-adjacent repeats in a long LC */
  cuzk_fr two_x;
  cuzk_fr_dbl(&two_x, &x);
  cuzk_var vin2 = cuzk_cs_alloc_input(cs, hv ? &two_x : NULL);
  cuzk_lc_add(&a, vx, NULL);
  cuzk_lc_add(&a, vx2, NULL);
  cuzk_lc_add(&a, vx3, NULL);
  cuzk_lc_add(&a, vx, NULL);
  cuzk_lc_sub(&a, vx2, NULL);
  cuzk_lc_sub(&a, vx3, NULL);
  cuzk_lc_add(&b, CUZK_VAR_ONE, NULL);
  cuzk_lc_add(&cc, vin2, NULL);
  cuzk_cs_enforce(cs, "double", &a, &b, &cc);
}

static void test_cubic(void) {
  cubic_ctx c = {3};
  cs_counts k = cs_modes_check("cubic", cubic, &c, 3, 1);
  CHECK(k.inputs == 3 && k.aux == 3 && k.constraints == 4);
  /* A: x | x2 | x3, x, ONE (x2 cancelled) | x (merged to 2x; x2, x3 cancelled) */
  CHECK_MSG(k.nnz[0] == 6 && k.nnz[1] == 4 && k.nnz[2] == 4, "nnz %zu %zu %zu", k.nnz[0], k.nnz[1],
            k.nnz[2]);
  CHECK(k.a_aux_density == 3);                           /* x, x2, x3 */
  CHECK(k.b_input_density == 1 && k.b_aux_density == 1); /* ONE; x */

  /* record: the exact rows after remap (3 inputs, so aux j -> column 3 + j) */
  cuzk_cs *cs = cs_modes_run(CUZK_CS_RECORD, 0, false, cubic, &c);
  cuzk_csr A, B, C;
  CHECK(cuzk_cs_matrix(cs, 0, &A) == CUZK_R1CS_OK);
  CHECK(cuzk_cs_matrix(cs, 1, &B) == CUZK_R1CS_OK);
  CHECK(cuzk_cs_matrix(cs, 2, &C) == CUZK_R1CS_OK);
  const uint32_t a_ptr[] = {0, 1, 2, 5, 6}, a_col[] = {3, 4, 0, 3, 5, 3};
  CHECK(memcmp(A.row_ptr, a_ptr, sizeof a_ptr) == 0 && memcmp(A.cols, a_col, sizeof a_col) == 0);
  cuzk_fr two = fr(2);
  CHECK(cuzk_fr_eq(&A.vals[2], &(cuzk_fr){{0}}) == false && cuzk_fr_eq(&A.vals[5], &two));
  cuzk_fr five = fr(5);
  CHECK(cuzk_fr_eq(&A.vals[2], &five));
  const uint32_t c_col[] = {4, 5, 1, 2};
  CHECK(memcmp(C.cols, c_col, sizeof c_col) == 0);
  CHECK(B.nnz == 4 && B.cols[2] == 0 && B.cols[3] == 0);
  cuzk_cs_destroy(cs);

  /* a wrong witness (x^2 off by one) fails at the named constraint */
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, CUZK_CS_CHECK);
  CHECK(cuzk_cs_create(&cs, &o) == CUZK_R1CS_OK);
  cubic(cs, &c);
  cuzk_fr *aux = cuzk_cs_aux_mut(cs);
  cuzk_fr_add(&aux[1], &aux[1], &cuzk_fr_one);
  cuzk_cs_check r;
  CHECK(cuzk_cs_is_satisfied(cs, &r) == CUZK_R1CS_OK);
  CHECK_MSG(!r.satisfied && r.first_failure == 0 && strcmp(r.name, "cubic/x^2") == 0, "%s", r.name);
  char name[64];
  cuzk_cs_constraint_name(cs, 3, name, sizeof name);
  CHECK(strcmp(name, "double") == 0);
  /* finished: further allocation is an error */
  cuzk_cs_alloc(cs, &cuzk_fr_one);
  CHECK(cuzk_cs_error(cs) == CUZK_R1CS_EFINISHED);
  /* reset gives a fresh system that synthesizes the same counts */
  cuzk_cs_reset(cs);
  CHECK(cuzk_cs_error(cs) == CUZK_R1CS_OK && cuzk_cs_num_inputs(cs) == 1 &&
        cuzk_cs_num_aux(cs) == 0 && cuzk_cs_num_constraints(cs) == 0);
  cubic(cs, &c);
  CHECK(cuzk_cs_is_satisfied(cs, &r) == CUZK_R1CS_OK && r.satisfied);
  cuzk_cs_destroy(cs);
}

/* The prover's input constraints: one {Input(i): 1} * 0 = 0 row per input, after the circuit. */
static void test_input_constraints(void) {
  cubic_ctx c = {5};
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, CUZK_CS_PROVE);
  cuzk_cs *cs;
  CHECK(cuzk_cs_create(&cs, &o) == CUZK_R1CS_OK);
  cubic(cs, &c);
  cuzk_cs_enforce_input_constraints(cs);
  cuzk_cs_result r;
  cuzk_cs_result_get(cs, &r);
  CHECK(r.num_constraints == 4 + 3);
  cuzk_fr out = fr(125 + 5 + 5), ten = fr(10);
  CHECK(cuzk_fr_eq(&r.a[4], &cuzk_fr_one) && cuzk_fr_eq(&r.a[5], &out) &&
        cuzk_fr_eq(&r.a[6], &ten));
  CHECK(cuzk_fr_is_zero(&r.b[5]) && cuzk_fr_is_zero(&r.c[6]));
  /* B-input density is still ONE only; input constraints put nothing in B */
  CHECK(r.b_input.count == 1 && cuzk_density_get(&r.b_input, 0));
  /* reuse: reset and synthesize again gives identical results */
  cuzk_fr a_before[7];
  memcpy(a_before, r.a, sizeof a_before);
  cuzk_cs_reset(cs);
  cubic(cs, &c);
  cuzk_cs_enforce_input_constraints(cs);
  cuzk_cs_result_get(cs, &r);
  CHECK(r.num_constraints == 7 && memcmp(a_before, r.a, sizeof a_before) == 0);
  CHECK(r.a_aux.count == 3 && r.b_aux.count == 1 && r.b_input.count == 1);
  cuzk_cs_destroy(cs);
}

/* A long LC (spilling at every inline capacity) with scattered repeats and a cancellation. */
typedef struct {
  unsigned n;
  uint64_t seed;
} long_ctx;

static void long_lc(cuzk_cs *cs, void *vctx) {
  long_ctx *c = vctx;
  bool hv = cuzk_cs_has_values(cs);
  uint64_t s = c->seed;
  cuzk_var *v = malloc(c->n * sizeof *v);
  cuzk_fr *val = malloc(c->n * sizeof *val);
  for (unsigned i = 0; i < c->n; i++) {
    rng_fr(&s, &val[i]);
    v[i] = cuzk_cs_alloc(cs, hv ? &val[i] : NULL);
  }
  /* sum = Σ k_i v_i over 3n random picks (repeats merge) + v_0 - v_0 ... */
  cuzk_lc a, b, cc;
  cuzk_lc_init(&a, cs);
  cuzk_lc_init(&b, cs);
  cuzk_lc_init(&cc, cs);
  cuzk_fr sum = cuzk_fr_zero;
  for (unsigned t = 0; t < 3 * c->n; t++) {
    unsigned i = (unsigned)(rng_next(&s) % c->n);
    cuzk_fr k, p;
    rng_fr(&s, &k);
    cuzk_lc_add(&a, v[i], &k);
    cuzk_fr_mul(&p, &k, &val[i]);
    cuzk_fr_add(&sum, &sum, &p);
  }
  /* the last variable: added and removed far apart, so its coefficient cancels */
  cuzk_var last = cuzk_cs_alloc(cs, hv ? &val[0] : NULL);
  cuzk_lc_add(&a, last, &cuzk_pow2[7]);
  cuzk_lc_add(&a, v[0], NULL);
  cuzk_lc_add(&a, last, &cuzk_neg_pow2[7]);
  cuzk_fr_add(&sum, &sum, &val[0]);
  cuzk_var out = cuzk_cs_alloc(cs, hv ? &sum : NULL);
  cuzk_lc_add(&b, CUZK_VAR_ONE, NULL);
  cuzk_lc_add(&cc, out, NULL);
  /* B gets the same long LC shape too: a repeated variable in B */
  cuzk_cs_enforce(cs, "long", &a, &b, &cc);
  cuzk_lc_add(&a, out, NULL);
  cuzk_lc_add(&b, v[1], NULL);
  cuzk_lc_add(&b, v[2], NULL);
  cuzk_lc_add(&b, v[1], NULL);
  cuzk_fr two = fr(2);
  cuzk_lc_sub(&b, v[1], &two);
  cuzk_lc_add(&b, CUZK_VAR_ONE, NULL);
  cuzk_fr prod;
  cuzk_fr_mul(&prod, &sum, &val[2]);
  cuzk_fr_add(&prod, &prod, &sum);
  cuzk_var out2 = cuzk_cs_alloc(cs, hv ? &prod : NULL);
  cuzk_lc_add(&cc, out2, NULL);
  cuzk_cs_enforce(cs, "product", &a, &b, &cc);
  free(v);
  free(val);
}

static void test_long_lc(void) {
  long_ctx c = {200, 42};
  cs_counts k = cs_modes_check("long LC", long_lc, &c, 4, 2);
  CHECK(k.aux == 203 && k.constraints == 2);
  /* `last` cancels in A: not in the A density; v1 cancels in B: B holds v2 and ONE */
  CHECK(k.b_aux_density == 1 && k.b_input_density == 1);
  CHECK(k.nnz[1] == 1 + 2);
}

static void test_errors(void) {
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, CUZK_CS_PROVE);
  o.lc_inline = CUZK_LC_INLINE_MAX + 1;
  cuzk_cs *cs = NULL;
  CHECK(cuzk_cs_create(&cs, &o) == CUZK_R1CS_EINVAL && cs == NULL);
  cuzk_cs_opts_default(&o, CUZK_CS_WITNESS);
  CHECK(cuzk_cs_create(&cs, &o) == CUZK_R1CS_OK);
  cuzk_csr m;
  cuzk_cs_check r;
  CHECK(cuzk_cs_matrix(cs, 0, &m) == CUZK_R1CS_EMODE);
  CHECK(cuzk_cs_is_satisfied(cs, &r) == CUZK_R1CS_EMODE);
  CHECK(cuzk_cs_aux_mut(cs) == NULL);
  cuzk_cs_destroy(cs);
  CHECK(strcmp(cuzk_r1cs_strerror(CUZK_R1CS_ETOOBIG), "unknown r1cs error") != 0);
}

int main(void) {
  test_cubic();
  test_input_constraints();
  test_long_lc();
  test_errors();
  return check_summary("test_r1cs");
}
