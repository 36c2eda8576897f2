/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* RECORD/CHECK: the A, B, C matrices in CSR form. Rows are normalized (sorted by variable,
 * repeats merged, zero coefficients dropped). Columns hold tagged variables while synthesis runs,
 * because inputs may still be allocated, and become z indices (aux j -> num_inputs + j) at
 * finish (the PCE column bug, docs/spec/groth16.md §10.1). */
#include <errno.h>
#include <string.h>

#include "r1cs/cs_internal.h"

static size_t row_nnz(cuzk_lc *lc) {
  if (!lc || !lc->cs) return 0;
  lc_normalize(lc);
  size_t n = lc->has_one && !fr_zero(&lc->one);
  const cuzk_fr *c = cuzk_lc_coeffs(lc);
  for (uint32_t i = 0; i < lc->n; i++)
    n += !fr_zero(&c[i]);
  return n;
}

void csr_count_row(cuzk_cs *cs, cuzk_lc *lcs[3]) {
  for (int k = 0; k < 3; k++)
    cs->nnz[k] += row_nnz(lcs[k]);
}

/* The stored form of a coefficient: the field element, or its dictionary index (compact). */
static bool put_val(cuzk_cs *cs, void *vals, size_t o, const cuzk_fr *v) {
  if (!cs->compact) {
    ((cuzk_fr *)vals)[o] = *v;
    return true;
  }
  long d = coef_dict_index(&cs->dict, v);
  if (d < 0) return false;
  ((uint16_t *)vals)[o] = (uint16_t)d;
  return true;
}

/* A spilling recording (cuzk_cs_opts.spill_dir): an array that has reached spill_bytes moves to
 * its file; a file's pages leave the resident set behind the writes. false: the move failed (the
 * system fails with EIO). */
static bool spill(cuzk_cs *cs, cuzk_vec *v, size_t used) {
  if (!v->file && used >= cs->spill_bytes && !cuzk_vec_to_file(v, cs->spill_dir, used)) {
    cs->io_errno = errno;
    cs_fail(cs, CUZK_R1CS_EIO);
    return false;
  }
  cuzk_vec_release_behind(v, used);
  return true;
}

/* A reserve of m's arrays failed: a file's (the disk) or memory. */
static void fail_reserve(cuzk_cs *cs, const csr_store *m) {
  if (m->cols.file || m->vals.file) cs->io_errno = errno;
  cs_fail(cs, cs->io_errno ? CUZK_R1CS_EIO : CUZK_R1CS_ENOMEM);
}

void csr_append_row(cuzk_cs *cs, cuzk_lc *lcs[3]) {
  size_t row = cs->n_cons, vsize = cs->compact ? sizeof(uint16_t) : sizeof(cuzk_fr);
  for (int k = 0; k < 3; k++) {
    csr_store *m = &cs->m[k];
    cuzk_lc *lc = lcs[k];
    size_t n = row_nnz(lc);
    if (m->nnz + n >= UINT32_MAX) {
      cs_fail(cs, CUZK_R1CS_ETOOBIG);
      return;
    }
    if (!cuzk_vec_reserve(&m->cols, (m->nnz + n) * sizeof(uint32_t)) ||
        !cuzk_vec_reserve(&m->vals, (m->nnz + n) * vsize)) {
      fail_reserve(cs, m);
      return;
    }
    size_t o = 0;
    bool ok = true;
    if (n) { /* an empty matrix has no storage yet: no pointer into it (C17 6.5.6) */
      uint32_t *cols = (uint32_t *)m->cols.p + m->nnz;
      void *vals = (char *)m->vals.p + m->nnz * vsize;
      if (lc->has_one && !fr_zero(&lc->one)) {
        cols[o] = CUZK_VAR_ONE;
        ok &= put_val(cs, vals, o++, &lc->one);
      }
      const uint32_t *v = cuzk_lc_vars(lc);
      const cuzk_fr *c = cuzk_lc_coeffs(lc);
      /* sorted order puts inputs (tag clear) before aux, and Input(0) is never a term */
      for (uint32_t i = 0; i < lc->n; i++) {
        if (fr_zero(&c[i])) continue;
        cols[o] = v[i];
        ok &= put_val(cs, vals, o++, &c[i]);
      }
    }
    if (!ok) { /* the dictionary is full */
      cs_fail(cs, CUZK_R1CS_ETOOBIG);
      return;
    }
    m->nnz += o;
    ((uint32_t *)m->row_ptr.p)[row + 1] = (uint32_t)m->nnz;
    if (cs->spill_dir &&
        (!spill(cs, &m->row_ptr, (row + 2) * sizeof(uint32_t)) ||
         !spill(cs, &m->cols, m->nnz * sizeof(uint32_t)) || !spill(cs, &m->vals, m->nnz * vsize)))
      return;
  }
}

void csr_remap(cuzk_cs *cs) {
  uint64_t base = cs->n_inputs;
  const size_t block = CUZK_VEC_RELEASE_STEP / sizeof(uint32_t);
  for (int k = 0; k < 3; k++) {
    uint32_t *cols = cs->m[k].cols.p;
    for (size_t i = 0; i < cs->m[k].nnz; i++) {
      if (i && i % block == 0) /* a spilled array's pages go behind the walk */
        cuzk_vec_release(&cs->m[k].cols, (i - block) * sizeof(uint32_t), block * sizeof(uint32_t));
      uint32_t v = cols[i];
      if (!cuzk_var_is_aux(v)) continue;
      uint64_t z = base + cuzk_var_index(v);
      if (z >= UINT32_MAX) {
        cs_fail(cs, CUZK_R1CS_ETOOBIG);
        return;
      }
      cols[i] = (uint32_t)z;
    }
    cuzk_vec_release(&cs->m[k].cols, 0, cs->m[k].nnz * sizeof(uint32_t));
  }
}

void csr_reset(cuzk_cs *cs) {
  coef_dict_reset(&cs->dict);
  for (int k = 0; k < 3; k++) {
    cs->m[k].nnz = 0;
    cs->m[k].row_ptr.released = cs->m[k].cols.released = cs->m[k].vals.released = 0;
    if (cs->m[k].row_ptr.p) ((uint32_t *)cs->m[k].row_ptr.p)[0] = 0;
  }
}

void csr_free(cuzk_cs *cs) {
  for (int k = 0; k < 3; k++) {
    cuzk_vec_free(&cs->m[k].row_ptr);
    cuzk_vec_free(&cs->m[k].cols);
    cuzk_vec_free(&cs->m[k].vals);
  }
}

cuzk_r1cs_err cuzk_cs_matrix(const cuzk_cs *cs, int k, cuzk_csr *out) {
  memset(out, 0, sizeof *out);
  if (k < 0 || k > 2) return CUZK_R1CS_EINVAL;
  if (!cs->record || cs->compact) return CUZK_R1CS_EMODE;
  if (!cs->finished) return CUZK_R1CS_EINVAL;
  if (cs->err) return cs->err;
  out->rows = cs->n_cons;
  out->nnz = cs->m[k].nnz;
  out->row_ptr = cs->m[k].row_ptr.p;
  out->cols = cs->m[k].cols.p;
  out->vals = cs->m[k].vals.p;
  return CUZK_R1CS_OK;
}

void cuzk_csr_mul_vec(cuzk_fr *out, const cuzk_csr *m, const cuzk_fr *z) {
  for (size_t r = 0; r < m->rows; r++) {
    cuzk_fr acc = cuzk_fr_zero;
    for (uint32_t t = m->row_ptr[r]; t < m->row_ptr[r + 1]; t++) {
      cuzk_fr p;
      cuzk_fr_mul(&p, &m->vals[t], &z[m->cols[t]]);
      cuzk_fr_add(&acc, &acc, &p);
    }
    out[r] = acc;
  }
}
