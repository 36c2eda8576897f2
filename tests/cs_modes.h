/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The mode-consistency harness every gadget test runs: one synthesis function, synthesized in
 * all five constraint-system modes, and the cross-checks the r1cs contract promises:
 *   - identical counts (inputs, aux, constraints) in every mode;
 *   - the same witness from PROVE, WITNESS and CHECK;
 *   - CHECK reports the honest witness satisfied;
 *   - RECORD's matrices: A.w o B.w = C.w for WITNESS's witness, and PROVE's a, b, c equal A.w,
 *     B.w, C.w exactly; PROVE's density bitmaps equal the nonzero column pattern of A (aux) and
 *     B (inputs, aux); SHAPE with nnz gives RECORD's nnz and PROVE's density counts;
 *   - every LC inline capacity 0..4 gives identical a, b, c;
 *   - mutation: changing any one of `mutations` random aux values makes CHECK unsatisfied and
 *     names a constraint.
 * The synthesis function must be deterministic (same values on every call).
 */
#ifndef CUZK_TESTS_CS_MODES_H
#define CUZK_TESTS_CS_MODES_H

#include <stdlib.h>

#include "check.h"
#include "cuzk/r1cs/r1cs.h"
#include "rng.h"

typedef void (*cs_synth_fn)(cuzk_cs *cs, void *ctx);

typedef struct {
  size_t inputs, aux, constraints; /* ONE included in inputs; no input constraints */
  size_t nnz[3];
  size_t a_aux_density, b_input_density, b_aux_density;
} cs_counts;

static cuzk_cs *cs_modes_run(cuzk_cs_mode mode, unsigned lc_inline, bool nnz, cs_synth_fn f,
                             void *ctx) {
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, mode);
  o.lc_inline = lc_inline;
  o.shape_nnz = nnz;
  cuzk_cs *cs = NULL;
  if (cuzk_cs_create(&cs, &o) != CUZK_R1CS_OK) return NULL;
  f(cs, ctx);
  CHECK_MSG(cuzk_cs_error(cs) == CUZK_R1CS_OK, "%s: %s", cuzk_cs_mode_name(mode),
            cuzk_r1cs_strerror(cuzk_cs_error(cs)));
  cuzk_cs_finish(cs);
  return cs;
}

static bool fr_vec_eq(const cuzk_fr *a, const cuzk_fr *b, size_t n) {
  return n == 0 || memcmp(a, b, n * sizeof *a) == 0;
}

/* Returns the counts (for the caller's own assertions); every check failure is reported. */
static cs_counts cs_modes_check(const char *what, cs_synth_fn f, void *ctx, unsigned mutations,
                                uint64_t seed) {
  cs_counts out;
  memset(&out, 0, sizeof out);
  unsigned failed_before = check_failed;
  cuzk_cs *prove = cs_modes_run(CUZK_CS_PROVE, 2, false, f, ctx);
  cuzk_cs *wit = cs_modes_run(CUZK_CS_WITNESS, 2, false, f, ctx);
  cuzk_cs *rec = cs_modes_run(CUZK_CS_RECORD, 2, false, f, ctx);
  cuzk_cs *chk = cs_modes_run(CUZK_CS_CHECK, 2, false, f, ctx);
  cuzk_cs *shp = cs_modes_run(CUZK_CS_SHAPE, 2, false, f, ctx);
  cuzk_cs *shn = cs_modes_run(CUZK_CS_SHAPE, 2, true, f, ctx);
  if (!prove || !wit || !rec || !chk || !shp || !shn) {
    CHECK_MSG(false, "%s: creating the constraint systems failed", what);
    goto done;
  }
  cuzk_cs_result rp, rw, rr, rc, rs, rn;
  cuzk_cs_result_get(prove, &rp);
  cuzk_cs_result_get(wit, &rw);
  cuzk_cs_result_get(rec, &rr);
  cuzk_cs_result_get(chk, &rc);
  cuzk_cs_result_get(shp, &rs);
  cuzk_cs_result_get(shn, &rn);
  const cuzk_cs_result *all[6] = {&rp, &rw, &rr, &rc, &rs, &rn};
  for (int m = 1; m < 6; m++)
    CHECK_MSG(all[m]->num_inputs == rp.num_inputs && all[m]->num_aux == rp.num_aux &&
                  all[m]->num_constraints == rp.num_constraints,
              "%s: mode %d counts %zu/%zu/%zu vs prove %zu/%zu/%zu", what, m, all[m]->num_inputs,
              all[m]->num_aux, all[m]->num_constraints, rp.num_inputs, rp.num_aux,
              rp.num_constraints);
  out.inputs = rp.num_inputs;
  out.aux = rp.num_aux;
  out.constraints = rp.num_constraints;
  CHECK_MSG(
      fr_vec_eq(rp.inputs, rw.inputs, rp.num_inputs) && fr_vec_eq(rp.aux, rw.aux, rp.num_aux) &&
          fr_vec_eq(rp.inputs, rc.inputs, rp.num_inputs) && fr_vec_eq(rp.aux, rc.aux, rp.num_aux),
      "%s: witnesses differ between modes", what);

  cuzk_cs_check ck;
  CHECK(cuzk_cs_is_satisfied(chk, &ck) == CUZK_R1CS_OK);
  CHECK_MSG(ck.satisfied, "%s: honest witness unsatisfied at %zu (%s)", what, ck.first_failure,
            ck.name);

  /* the matrices against the witness and the prover's a, b, c */
  size_t nz = rp.num_inputs + rp.num_aux, rows = rp.num_constraints;
  cuzk_fr *z = malloc((nz + 1) * sizeof *z);
  cuzk_fr *ev[3];
  for (int k = 0; k < 3; k++)
    ev[k] = malloc((rows + 1) * sizeof(cuzk_fr));
  memcpy(z, rw.inputs, rp.num_inputs * sizeof *z);
  memcpy(z + rp.num_inputs, rw.aux, rp.num_aux * sizeof *z);
  cuzk_csr mat[3];
  for (int k = 0; k < 3; k++) {
    CHECK(cuzk_cs_matrix(rec, k, &mat[k]) == CUZK_R1CS_OK);
    cuzk_csr_mul_vec(ev[k], &mat[k], z);
    out.nnz[k] = mat[k].nnz;
    CHECK_MSG(rn.nnz[k] == mat[k].nnz && rr.nnz[k] == mat[k].nnz,
              "%s: nnz[%d] shape %zu record %zu", what, k, rn.nnz[k], mat[k].nnz);
  }
  const cuzk_fr *abc[3] = {rp.a, rp.b, rp.c};
  size_t bad_rows = 0, bad_abc = 0;
  for (size_t r = 0; r < rows; r++) {
    cuzk_fr ab;
    cuzk_fr_mul(&ab, &ev[0][r], &ev[1][r]);
    bad_rows += !cuzk_fr_eq(&ab, &ev[2][r]);
    for (int k = 0; k < 3; k++)
      bad_abc += !cuzk_fr_eq(&ev[k][r], &abc[k][r]);
  }
  CHECK_MSG(bad_rows == 0, "%s: %zu rows with A.w * B.w != C.w", what, bad_rows);
  CHECK_MSG(bad_abc == 0, "%s: %zu prover a/b/c values differ from the matrices", what, bad_abc);

  /* densities = column patterns */
  uint8_t *pat[3];
  for (int k = 0; k < 2; k++) {
    pat[k] = calloc(nz + 1, 1);
    for (size_t t = 0; t < mat[k].nnz; t++)
      pat[k][mat[k].cols[t]] = 1;
  }
  pat[2] = NULL;
  size_t bad_d = 0, cnt_a = 0, cnt_bi = 0, cnt_ba = 0;
  for (size_t j = 0; j < rp.num_aux; j++) {
    bool a = pat[0][rp.num_inputs + j], b = pat[1][rp.num_inputs + j];
    cnt_a += a;
    cnt_ba += b;
    bad_d += a != cuzk_density_get(&rp.a_aux, j);
    bad_d += b != cuzk_density_get(&rp.b_aux, j);
  }
  for (size_t i = 0; i < rp.num_inputs; i++) {
    cnt_bi += pat[1][i];
    bad_d += pat[1][i] != cuzk_density_get(&rp.b_input, i);
  }
  CHECK_MSG(bad_d == 0, "%s: %zu density bits differ from the matrices", what, bad_d);
  CHECK(rp.a_aux.count == cnt_a && rp.b_aux.count == cnt_ba && rp.b_input.count == cnt_bi);
  CHECK(rn.a_aux.count == cnt_a && rn.b_aux.count == cnt_ba && rn.b_input.count == cnt_bi);
  out.a_aux_density = cnt_a;
  out.b_input_density = cnt_bi;
  out.b_aux_density = cnt_ba;
  free(pat[0]);
  free(pat[1]);

  /* every inline capacity gives the same a, b, c */
  for (unsigned cap = 0; cap <= CUZK_LC_INLINE_MAX; cap++) {
    if (cap == 2) continue;
    cuzk_cs *p2 = cs_modes_run(CUZK_CS_PROVE, cap, false, f, ctx);
    if (!p2) continue;
    cuzk_cs_result r2;
    cuzk_cs_result_get(p2, &r2);
    CHECK_MSG(r2.num_constraints == rows && fr_vec_eq(r2.a, rp.a, rows) &&
                  fr_vec_eq(r2.b, rp.b, rows) && fr_vec_eq(r2.c, rp.c, rows) &&
                  r2.a_aux.count == rp.a_aux.count && r2.b_aux.count == rp.b_aux.count,
              "%s: lc_inline %u differs from 2", what, cap);
    cuzk_cs_destroy(p2);
  }

  /* mutations */
  cuzk_fr *aux = cuzk_cs_aux_mut(chk);
  uint64_t s = seed;
  for (unsigned i = 0; i < mutations && rp.num_aux; i++) {
    size_t j = rng_next(&s) % rp.num_aux;
    cuzk_fr old = aux[j];
    if (cuzk_fr_is_zero(&old))
      aux[j] = cuzk_fr_one;
    else if (cuzk_fr_is_one(&old))
      aux[j] = cuzk_fr_zero;
    else
      cuzk_fr_add(&aux[j], &old, &cuzk_fr_one);
    cuzk_cs_check m;
    CHECK(cuzk_cs_is_satisfied(chk, &m) == CUZK_R1CS_OK);
    CHECK_MSG(!m.satisfied && m.name[0], "%s: changing aux %zu left the system satisfied", what, j);
    aux[j] = old;
  }
  free(z);
  for (int k = 0; k < 3; k++)
    free(ev[k]);
done:
  cuzk_cs_destroy(prove);
  cuzk_cs_destroy(wit);
  cuzk_cs_destroy(rec);
  cuzk_cs_destroy(chk);
  cuzk_cs_destroy(shp);
  cuzk_cs_destroy(shn);
  if (check_failed != failed_before) fprintf(stderr, "  (in %s)\n", what);
  return out;
}

#endif
