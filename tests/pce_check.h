/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The pre-compiled constraint evaluator against PROVE mode (cuzk/r1cs/pce.h), for one circuit: the
 * evaluator recorded from a RECORD-mode synthesis, applied to a WITNESS-mode synthesis's witness,
 * must give PROVE mode's a, b, c bit for bit — followed by the per-input constraints
 * (cuzk_cs_enforce_input_constraints) and zeros to the domain — and PROVE mode's density bitmaps
 * and counts. Used by the circuit tests of every proof kind.
 */
#ifndef CUZK_TESTS_PCE_CHECK_H
#define CUZK_TESTS_PCE_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuzk/r1cs/pce.h"

/* Synthesizes the circuit into cs; with_values: the witness too (WITNESS, PROVE). */
typedef bool (*pce_synth_fn)(cuzk_cs *cs, void *ctx, bool with_values);

static cuzk_cs *pce_check_run(cuzk_cs_mode mode, bool compact, pce_synth_fn f, void *ctx) {
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, mode);
  o.record_compact = compact;
  cuzk_cs *cs = NULL;
  if (cuzk_cs_create(&cs, &o) != CUZK_R1CS_OK) return NULL;
  if (!f(cs, ctx, mode != CUZK_CS_RECORD) || cuzk_cs_error(cs)) {
    cuzk_cs_destroy(cs);
    return NULL;
  }
  return cs;
}

static bool pce_density_eq(const cuzk_density *x, const cuzk_density *y) {
  if (x->len != y->len || x->count != y->count) return false;
  for (size_t i = 0; i < x->len; i++)
    if (cuzk_density_get(x, i) != cuzk_density_get(y, i)) return false;
  return true;
}

/* The evaluator's matrices (from a compact recording) against the full RECORD-mode CSR: the same
 * rows, columns and coefficient values, term by term. */
static bool pce_matrices_eq(const cuzk_pce *pce, const cuzk_cs *rec) {
  for (int k = 0; k < 3; k++) {
    cuzk_csr c;
    cuzk_pce_matrix m;
    if (cuzk_cs_matrix(rec, k, &c) || cuzk_pce_matrix_get(pce, k, &m)) return false;
    if (c.rows != m.rows || c.nnz != m.nnz ||
        memcmp(c.row_ptr, m.row_ptr, (c.rows + 1) * sizeof(uint32_t)) ||
        memcmp(c.cols, m.cols, c.nnz * sizeof(uint32_t)))
      return false;
    for (size_t t = 0; t < c.nnz; t++)
      if (memcmp(&c.vals[t], &m.dict[m.coef[t]], sizeof(cuzk_fr))) return false;
  }
  return true;
}

/* The recording's segment marks (cuzk_cs_segments) kept by both evaluators, and a witness
 * synthesized with them as its layout on a pool of two threads (the segments at once) equal, byte
 * for byte, to the one synthesized in order. */
static void pce_check_segments(const char *what, const cuzk_pce *pce, const cuzk_pce *pce_full,
                               const cuzk_cs *rec, const cuzk_cs *wit, pce_synth_fn f, void *ctx) {
  const cuzk_cs_mark *m, *mf, *mr;
  size_t n = cuzk_pce_marks(pce, &m), nf = cuzk_pce_marks(pce_full, &mf);
  size_t nr = cuzk_cs_marks(rec, &mr);
  CHECK_MSG(n == nr && nf == nr &&
                (n == 0 || (!memcmp(m, mr, n * sizeof *m) && !memcmp(mf, mr, n * sizeof *m))),
            "%s: the evaluators' segment marks differ from the recording's", what);
  cuzk_pool *pool = NULL;
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, CUZK_CS_WITNESS);
  cuzk_cs *par = NULL;
  if (cuzk_pool_create(&pool, 2) || cuzk_cs_create(&par, &o)) {
    CHECK_MSG(false, "%s: out of memory", what);
  } else {
    cuzk_cs_set_layout(par, m, n, pool);
    bool ok = f(par, ctx, true) && cuzk_cs_error(par) == CUZK_R1CS_OK;
    cuzk_cs_result a, b;
    cuzk_cs_result_get(wit, &a);
    cuzk_cs_result_get(par, &b);
    CHECK_MSG(ok && a.num_inputs == b.num_inputs && a.num_aux == b.num_aux &&
                  a.num_constraints == b.num_constraints &&
                  !memcmp(a.inputs, b.inputs, a.num_inputs * sizeof(cuzk_fr)) &&
                  !memcmp(a.aux, b.aux, a.num_aux * sizeof(cuzk_fr)),
              "%s: the witness with %zu segment marks as its layout differs from the one in order",
              what, n);
    /* the kinds each value was noted with: the value's own, in order and with segments */
    size_t wrong = 0;
    for (size_t i = 0; ok && a.aux_kind && b.aux_kind && i < a.num_aux; i++) {
      const cuzk_fr *x = &a.aux[i];
      unsigned want = cuzk_fr_is_zero(x)                          ? CUZK_VALUE_ZERO
                      : !memcmp(x, &cuzk_fr_one, sizeof(cuzk_fr)) ? CUZK_VALUE_ONE
                                                                  : CUZK_VALUE_OTHER;
      wrong += a.aux_kind[i] != want || b.aux_kind[i] != want;
    }
    CHECK_MSG(a.aux_kind && b.aux_kind && wrong == 0,
              "%s: %zu aux values noted with another kind than their value's", what, wrong);
    printf("%s: %zu segment marks; the witness synthesized with them equals the one in order\n",
           what, n);
  }
  cuzk_cs_destroy(par);
  cuzk_pool_destroy(pool);
}

/* Returns the evaluator's dictionary size (0 on failure, reported). */
static size_t pce_check(const char *what, pce_synth_fn f, void *ctx, cuzk_pool *pool) {
  cuzk_cs *rec = pce_check_run(CUZK_CS_RECORD, false, f, ctx);
  cuzk_cs *recc = pce_check_run(CUZK_CS_RECORD, true, f, ctx);
  cuzk_cs *wit = pce_check_run(CUZK_CS_WITNESS, false, f, ctx);
  cuzk_cs *prv = pce_check_run(CUZK_CS_PROVE, false, f, ctx);
  cuzk_pce *pce = NULL, *pce_full = NULL;
  size_t dict = 0;
  if (!rec || !recc || !wit || !prv) {
    CHECK_MSG(false, "%s: synthesis failed", what);
    goto done;
  }
  cuzk_cs_finish(rec);
  cuzk_cs_finish(recc);
  cuzk_cs_finish(wit);
  cuzk_csr none;
  CHECK_MSG(cuzk_cs_matrix(recc, 0, &none) == CUZK_R1CS_EMODE,
            "%s: a compact recording has no full-coefficient matrix", what);
  cuzk_r1cs_err e = cuzk_pce_create(&pce, recc);
  if (!e) e = cuzk_pce_create(&pce_full, rec);
  if (e) {
    CHECK_MSG(false, "%s: cuzk_pce_create: %s", what, cuzk_r1cs_strerror(e));
    goto done;
  }
  CHECK_MSG(pce_matrices_eq(pce, rec) && pce_matrices_eq(pce_full, rec),
            "%s: the evaluator's matrices differ from the RECORD-mode CSR", what);
  { /* a compact system gave its matrices away: reset, it records the circuit again */
    cuzk_pce *again = NULL;
    cuzk_cs_reset(recc);
    CHECK_MSG(f(recc, ctx, false) && cuzk_cs_finish(recc) == CUZK_R1CS_OK &&
                  cuzk_pce_create(&again, recc) == CUZK_R1CS_OK && pce_matrices_eq(again, rec),
              "%s: a compact system reused after cuzk_pce_create", what);
    cuzk_pce_free(again);
  }
  CHECK_MSG(cuzk_pce_bytes(pce) == cuzk_pce_bytes(pce_full) &&
                cuzk_pce_num_coefficients(pce) == cuzk_pce_num_coefficients(pce_full),
            "%s: compact and copied recordings differ in size", what);
  pce_check_segments(what, pce, pce_full, rec, wit, f, ctx);
  cuzk_cs_result rp, rw;
  cuzk_cs_result_get(prv, &rp); /* the densities before the prover appends input constraints */
  CHECK_MSG(cuzk_pce_result(pce, wit, &rw) == CUZK_R1CS_OK, "%s: cuzk_pce_result", what);
  CHECK_MSG(pce_density_eq(&rp.a_aux, &rw.a_aux) && pce_density_eq(&rp.b_input, &rw.b_input) &&
                pce_density_eq(&rp.b_aux, &rw.b_aux),
            "%s: densities differ from PROVE mode", what);
  cuzk_cs_enforce_input_constraints(prv);
  cuzk_cs_result_get(prv, &rp);
  size_t rows = rp.num_constraints, len = rows + 5;
  CHECK_MSG(rows == cuzk_pce_num_constraints(pce) + cuzk_pce_num_inputs(pce),
            "%s: %zu rows in PROVE mode, %zu + %zu recorded", what, rows,
            cuzk_pce_num_constraints(pce), cuzk_pce_num_inputs(pce));
  cuzk_fr *out[3];
  for (int k = 0; k < 3; k++)
    out[k] = malloc(len * sizeof(cuzk_fr));
  if (out[0] && out[1] && out[2] && rows == cuzk_pce_num_constraints(pce) + rw.num_inputs) {
    for (int k = 0; k < 3; k++)
      memset(out[k], 0xa5, len * sizeof(cuzk_fr)); /* the padding must be written */
    CHECK_MSG(rw.aux_kind != NULL, "%s: a WITNESS-mode witness notes its kinds", what);
    cuzk_pce_eval(pce, rw.inputs, rw.aux, rw.aux_kind, out, len, pool, 0);
    const cuzk_fr *abc[3] = {rp.a, rp.b, rp.c};
    size_t bad = 0, pad = 0;
    for (int k = 0; k < 3; k++) {
      bad += memcmp(out[k], abc[k], rows * sizeof(cuzk_fr)) != 0;
      for (size_t i = rows; i < len; i++)
        pad += !cuzk_fr_is_zero(&out[k][i]);
    }
    CHECK_MSG(bad == 0 && pad == 0, "%s: a, b, c differ from PROVE mode in %zu of 3 (%zu padding)",
              what, bad, pad);
    /* the same rows a block at a time (cuzk_pce_eval_rows), blocks of an odd size, the kinds
     * read off the values */
    size_t block = 1000, blocks_bad = 0;
    cuzk_fr *blk[3];
    for (int k = 0; k < 3; k++)
      blk[k] = malloc(block * sizeof(cuzk_fr));
    for (size_t first = 0; blk[0] && blk[1] && blk[2] && first < cuzk_pce_num_constraints(pce);
         first += block) {
      size_t n = cuzk_pce_num_constraints(pce) - first < block
                     ? cuzk_pce_num_constraints(pce) - first
                     : block;
      cuzk_pce_eval_rows(pce, rw.inputs, rw.aux, NULL, blk, first, n, pool, 0);
      for (int k = 0; k < 3; k++)
        blocks_bad += memcmp(blk[k], abc[k] + first, n * sizeof(cuzk_fr)) != 0;
    }
    CHECK_MSG(blocks_bad == 0, "%s: %zu blocks of cuzk_pce_eval_rows differ", what, blocks_bad);
    for (int k = 0; k < 3; k++)
      free(blk[k]);
  }
  for (int k = 0; k < 3; k++)
    free(out[k]);
  dict = cuzk_pce_num_coefficients(pce);
  printf("%s: evaluator %zu constraints, %zu distinct coefficients, %.1f MB (%.1f B/constraint)\n",
         what, cuzk_pce_num_constraints(pce), dict, cuzk_pce_bytes(pce) / 1e6,
         (double)cuzk_pce_bytes(pce) / (double)cuzk_pce_num_constraints(pce));
done:
  cuzk_pce_free(pce);
  cuzk_pce_free(pce_full);
  cuzk_cs_destroy(recc);
  cuzk_cs_destroy(rec);
  cuzk_cs_destroy(wit);
  cuzk_cs_destroy(prv);
  return dict;
}

#endif
