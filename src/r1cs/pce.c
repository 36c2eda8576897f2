/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Pre-compiled constraint evaluation (cuzk/r1cs/pce.h, docs/r1cs.md "Pre-compiled constraints"):
 * the RECORD matrices in compact form (4-byte column, 2-byte coefficient index), their densities
 * and accessors. Their products with a witness: pce_eval.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/r1cs/pce.h"
#include "field/consts.h"
#include "field/limbs.h"
#include "r1cs/coef_dict.h"
#include "r1cs/cs_internal.h"
#include "r1cs/pce_internal.h"

static size_t popcount(const uint64_t *bits, size_t n) {
  size_t c = 0;
  for (size_t w = 0; w < (n + 63) / 64; w++)
    c += (size_t)__builtin_popcountll(bits[w]);
  return c;
}

static void mark(uint64_t *bits, size_t i) { bits[i / 64] |= UINT64_C(1) << (i % 64); }

/* A full-coefficient recording's matrix k copied into compact form, the dictionary built as it
 * goes. */
static cuzk_r1cs_err copy_matrix(pce_matrix *m, coef_dict *d, const cuzk_csr *in) {
  if (!cuzk_vec_reserve(&m->row_ptr, (in->rows + 1) * sizeof(uint32_t)) ||
      !cuzk_vec_reserve(&m->cols, (in->nnz ? in->nnz : 1) * sizeof(uint32_t)) ||
      !cuzk_vec_reserve(&m->coef, (in->nnz ? in->nnz : 1) * sizeof(uint16_t)))
    return CUZK_R1CS_ENOMEM;
  memcpy(m->row_ptr.p, in->row_ptr, (in->rows + 1) * sizeof(uint32_t));
  memcpy(m->cols.p, in->cols, in->nnz * sizeof(uint32_t));
  uint16_t *coef = m->coef.p;
  for (size_t t = 0; t < in->nnz; t++) {
    long x = coef_dict_index(d, &in->vals[t]);
    if (x < 0) return CUZK_R1CS_ETOOBIG;
    coef[t] = (uint16_t)x;
  }
  m->nnz = in->nnz;
  return CUZK_R1CS_OK;
}

/* A compact recording's matrices and dictionary move into p: no copy (at 32 GiB they are
 * gigabytes). The system keeps no matrix and regrows its row pointers if used again. */
static cuzk_r1cs_err take_matrices(cuzk_pce *p, cuzk_cs *cs) {
  for (int k = 0; k < 3; k++) {
    pce_matrix *m = &p->m[k];
    m->row_ptr = cs->m[k].row_ptr;
    m->cols = cs->m[k].cols;
    m->coef = cs->m[k].vals;
    m->nnz = cs->m[k].nnz;
    memset(&cs->m[k], 0, sizeof cs->m[k]);
  }
  cs->cons_cap = 0;
  p->n_dict = cs->dict.n;
  p->dict = malloc(p->n_dict * sizeof *p->dict);
  if (!p->dict) return CUZK_R1CS_ENOMEM;
  memcpy(p->dict, cs->dict.vals.p, p->n_dict * sizeof *p->dict);
  return CUZK_R1CS_OK;
}

/* The densities from the column pattern of A and B (a mapped evaluator's pages leave the
 * resident set behind the walk). */
static void densities(cuzk_pce *p) {
  for (int k = 0; k < 2; k++) {
    const uint32_t *cols = p->m[k].cols.p, *rp = p->m[k].row_ptr.p;
    for (size_t r0 = 0; r0 < p->rows; r0 += PCE_RELEASE_ROWS) {
      size_t r1 = p->rows - r0 < PCE_RELEASE_ROWS ? p->rows : r0 + PCE_RELEASE_ROWS;
      for (size_t t = rp[r0]; t < rp[r1]; t++) {
        size_t col = cols[t];
        if (col >= p->inputs)
          mark(p->dens[k == 0 ? 0 : 2], col - p->inputs);
        else if (k == 1)
          mark(p->dens[1], col);
      }
      cuzk_pce_release_rows(p, r0 ? r0 - PCE_RELEASE_ROWS : 0, r1); /* pce.h */
    }
  }
  cuzk_pce_release_rows(p, 0, p->rows);
}

cuzk_r1cs_err cuzk_pce_create(cuzk_pce **out, cuzk_cs *record) {
  if (!out || !record) return CUZK_R1CS_EINVAL;
  *out = NULL;
  if (!record->record) return CUZK_R1CS_EMODE;
  if (!record->finished) return CUZK_R1CS_EINVAL;
  if (record->err) return record->err;
  cuzk_pce *p = calloc(1, sizeof *p);
  if (!p) return CUZK_R1CS_ENOMEM;
  p->inputs = record->n_inputs;
  p->aux = record->n_aux;
  p->rows = record->n_cons;
  cuzk_r1cs_err e = CUZK_R1CS_OK;
  if (record->n_marks) {
    p->n_marks = record->n_marks;
    if (!(p->marks = malloc(p->n_marks * sizeof *p->marks)))
      e = CUZK_R1CS_ENOMEM;
    else
      memcpy(p->marks, record->marks.p, p->n_marks * sizeof *p->marks);
  }
  if (!e && record->compact) {
    e = take_matrices(p, record);
  } else if (!e) {
    coef_dict d;
    if (!coef_dict_init(&d)) e = CUZK_R1CS_ENOMEM;
    for (int k = 0; k < 3 && !e; k++) {
      cuzk_csr csr;
      if (!(e = cuzk_cs_matrix(record, k, &csr))) e = copy_matrix(&p->m[k], &d, &csr);
    }
    if (!e && !(p->dict = malloc(d.n * sizeof *p->dict))) e = CUZK_R1CS_ENOMEM;
    if (!e) memcpy(p->dict, d.vals.p, d.n * sizeof *p->dict);
    p->n_dict = d.n;
    coef_dict_free(&d);
  }
  if (!e) e = pce_finish(p);
  if (e) {
    cuzk_pce_free(p);
    return e;
  }
  *out = p;
  return CUZK_R1CS_OK;
}

/* Each coefficient as a small signed integer where it is one (docs/r1cs.md "The SpMV kernel"):
 * c itself or c - r, whichever has magnitude at most PCE_SMALL_MAX. */
static void small_coefficients(cuzk_pce *p) {
  for (size_t i = 0; i < p->n_dict; i++) {
    uint64_t c[4], m[4];
    cuzk_fr_to_canonical(c, &p->dict[i]);
    limbs_neg_mod(m, c, CUZK_R, 4); /* r - c, or 0 for c = 0 */
    p->small[i] = PCE_NOT_SMALL;
    if (!(c[1] | c[2] | c[3]) && c[0] <= (uint64_t)PCE_SMALL_MAX)
      p->small[i] = (int64_t)c[0];
    else if (!(m[1] | m[2] | m[3]) && m[0] <= (uint64_t)PCE_SMALL_MAX)
      p->small[i] = -(int64_t)m[0];
  }
}

cuzk_r1cs_err pce_finish(cuzk_pce *p) {
  if (!(p->small = malloc((p->n_dict ? p->n_dict : 1) * sizeof *p->small)) ||
      !(p->dict64 = malloc((p->n_dict ? p->n_dict : 1) * sizeof *p->dict64)))
    return CUZK_R1CS_ENOMEM;
  small_coefficients(p);
  cuzk_fr two63, two64;
  cuzk_fr_from_u64(&two63, UINT64_C(1) << 63);
  cuzk_fr_add(&two64, &two63, &two63);
  for (size_t i = 0; i < p->n_dict; i++)
    cuzk_fr_mul(&p->dict64[i], &p->dict[i], &two64);
  size_t len[3] = {p->aux, p->inputs, p->aux};
  for (int k = 0; k < 3; k++)
    if (!(p->dens[k] = calloc((len[k] + 63) / 64 + 1, sizeof(uint64_t)))) return CUZK_R1CS_ENOMEM;
  densities(p);
  for (int k = 0; k < 3; k++) {
    pce_matrix *m = &p->m[k];
    /* capacity a recording's growth left over is given back */
    cuzk_vec_shrink(&m->cols, m->nnz * sizeof(uint32_t));
    cuzk_vec_shrink(&m->coef, m->nnz * sizeof(uint16_t));
    cuzk_vec_shrink(&m->row_ptr, (p->rows + 1) * sizeof(uint32_t));
    p->bytes += (p->rows + 1) * sizeof(uint32_t) + m->nnz * (sizeof(uint32_t) + sizeof(uint16_t));
    p->dens_count[k] = popcount(p->dens[k], len[k]);
    p->bytes += ((len[k] + 63) / 64 + 1) * sizeof(uint64_t);
  }
  p->bytes += sizeof *p + p->n_dict * (2 * sizeof *p->dict + sizeof *p->small) +
              p->n_marks * sizeof *p->marks;
  return CUZK_R1CS_OK;
}

cuzk_r1cs_err cuzk_pce_record(cuzk_pce **out, cuzk_pce_blank_fn blank, const void *ctx,
                              const _Atomic int *cancel, char *msg, size_t len) {
  *out = NULL;
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, CUZK_CS_RECORD);
  o.record_compact = true; /* 6 bytes a term: the matrices move into the evaluator */
  o.cancel = cancel;
  cuzk_cs *cs = NULL;
  cuzk_r1cs_err e = cuzk_cs_create(&cs, &o);
  if (!e && !blank(ctx, cs, msg, len)) {
    cuzk_cs_destroy(cs);
    return CUZK_R1CS_EINVAL;
  }
  if (!e) e = cuzk_cs_finish(cs);
  if (!e) e = cuzk_pce_create(out, cs);
  cuzk_cs_destroy(cs);
  if (e && msg && len) snprintf(msg, len, "%s", cuzk_r1cs_strerror(e));
  return e;
}

void cuzk_pce_free(cuzk_pce *p) {
  if (!p) return;
  for (int k = 0; k < 3; k++) {
    cuzk_vec *v[3] = {&p->m[k].row_ptr, &p->m[k].cols, &p->m[k].coef};
    for (int j = 0; j < 3; j++)
      if (v[j]->cap) cuzk_vec_free(v[j]); /* cap 0: NULL, or inside the mapped file */
    free(p->dens[k]);
  }
  cuzk_file_map_close(&p->map);
  free(p->dict);
  free(p->small);
  free(p->dict64);
  free(p->marks);
  free(p);
}

size_t cuzk_pce_num_inputs(const cuzk_pce *p) { return p->inputs; }
size_t cuzk_pce_num_aux(const cuzk_pce *p) { return p->aux; }
size_t cuzk_pce_num_constraints(const cuzk_pce *p) { return p->rows; }
size_t cuzk_pce_num_coefficients(const cuzk_pce *p) { return p->n_dict; }
size_t cuzk_pce_bytes(const cuzk_pce *p) { return p->bytes; }
size_t cuzk_pce_mapped_bytes(const cuzk_pce *p) { return p->map.len; }
size_t cuzk_pce_marks(const cuzk_pce *p, const cuzk_cs_mark **out) {
  *out = p->marks;
  return p->n_marks;
}

cuzk_r1cs_err cuzk_pce_matrix_get(const cuzk_pce *p, int k, cuzk_pce_matrix *out) {
  if (!p || !out || k < 0 || k > 2) return CUZK_R1CS_EINVAL;
  const pce_matrix *m = &p->m[k];
  *out = (cuzk_pce_matrix){p->rows, m->nnz, m->row_ptr.p, m->cols.p, m->coef.p, p->dict};
  return CUZK_R1CS_OK;
}

cuzk_r1cs_err cuzk_pce_result(const cuzk_pce *p, const cuzk_cs *witness, cuzk_cs_result *out) {
  if (!p || !witness || !out) return CUZK_R1CS_EINVAL;
  cuzk_cs_result_get(witness, out);
  if (!out->inputs || !out->aux || out->num_inputs != p->inputs || out->num_aux != p->aux ||
      out->num_constraints != p->rows)
    return CUZK_R1CS_EINVAL;
  cuzk_density *d[3] = {&out->a_aux, &out->b_input, &out->b_aux};
  size_t len[3] = {p->aux, p->inputs, p->aux};
  for (int k = 0; k < 3; k++)
    *d[k] = (cuzk_density){p->dens[k], len[k], p->dens_count[k]};
  return CUZK_R1CS_OK;
}
