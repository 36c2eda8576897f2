/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Pre-compiled constraint evaluation (cuzk/pce.h, docs/r1cs.md "Pre-compiled constraints"): the
 * RECORD matrices in compact form (4-byte column, 2-byte coefficient index) and their products
 * with a witness, row ranges in parallel. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/pce.h"

#define DICT_MAX 65535u
#define DICT_SLOTS (1u << 17) /* open addressing, at most half full */
enum { COEF_ONE = 0, COEF_MINUS_ONE = 1 };

typedef struct {
  uint32_t *row_ptr; /* rows + 1 */
  uint32_t *cols;    /* z indices: input i is i, aux j is num_inputs + j */
  uint16_t *coef;    /* index into the dictionary */
} pce_matrix;

struct cuzk_pce {
  size_t inputs, aux, rows;
  pce_matrix m[3];
  cuzk_fr *dict;
  size_t n_dict;
  uint64_t *dens[3]; /* A aux, B inputs, B aux: the column pattern (cuzk_cs_result's order) */
  size_t dens_count[3];
  size_t bytes;
};

typedef struct {
  cuzk_fr *vals;
  uint32_t *slot; /* 0 = empty, else index + 1 */
} dict_builder;

static uint32_t hash_fr(const cuzk_fr *v) {
  uint64_t h = v->l[0] * UINT64_C(0x9e3779b97f4a7c15) ^ v->l[1] ^ (v->l[2] >> 7) ^ v->l[3];
  return (uint32_t)(h ^ h >> 29) & (DICT_SLOTS - 1);
}

/* The dictionary index of v, added if new; -1 once the dictionary is full. */
static long dict_index(cuzk_pce *p, dict_builder *b, const cuzk_fr *v) {
  for (uint32_t s = hash_fr(v);; s = (s + 1) & (DICT_SLOTS - 1)) {
    if (!b->slot[s]) {
      if (p->n_dict >= DICT_MAX) return -1;
      p->dict[p->n_dict] = *v;
      b->slot[s] = (uint32_t)++p->n_dict;
      return (long)p->n_dict - 1;
    }
    if (!memcmp(&p->dict[b->slot[s] - 1], v, sizeof *v)) return (long)b->slot[s] - 1;
  }
}

static void mark(uint64_t *bits, size_t i) { bits[i / 64] |= UINT64_C(1) << (i % 64); }

static size_t popcount(const uint64_t *bits, size_t n) {
  size_t c = 0;
  for (size_t w = 0; w < (n + 63) / 64; w++)
    c += (size_t)__builtin_popcountll(bits[w]);
  return c;
}

/* Matrix k of the recording into p->m[k]; its column pattern into the densities. */
static cuzk_r1cs_err compact(cuzk_pce *p, dict_builder *b, int k, const cuzk_csr *in) {
  pce_matrix *m = &p->m[k];
  m->row_ptr = malloc((in->rows + 1) * sizeof *m->row_ptr);
  m->cols = malloc((in->nnz ? in->nnz : 1) * sizeof *m->cols);
  m->coef = malloc((in->nnz ? in->nnz : 1) * sizeof *m->coef);
  if (!m->row_ptr || !m->cols || !m->coef) return CUZK_R1CS_ENOMEM;
  memcpy(m->row_ptr, in->row_ptr, (in->rows + 1) * sizeof *m->row_ptr);
  memcpy(m->cols, in->cols, in->nnz * sizeof *m->cols);
  p->bytes += (in->rows + 1) * sizeof *m->row_ptr + in->nnz * (sizeof *m->cols + sizeof *m->coef);
  for (size_t t = 0; t < in->nnz; t++) {
    long d = dict_index(p, b, &in->vals[t]);
    if (d < 0) return CUZK_R1CS_ETOOBIG;
    m->coef[t] = (uint16_t)d;
    size_t col = in->cols[t];
    if (k == 0 && col >= p->inputs) mark(p->dens[0], col - p->inputs);
    if (k == 1) {
      if (col < p->inputs)
        mark(p->dens[1], col);
      else
        mark(p->dens[2], col - p->inputs);
    }
  }
  return CUZK_R1CS_OK;
}

cuzk_r1cs_err cuzk_pce_create(cuzk_pce **out, const cuzk_cs *record) {
  if (!out || !record) return CUZK_R1CS_EINVAL;
  *out = NULL;
  cuzk_csr csr[3];
  for (int k = 0; k < 3; k++) {
    cuzk_r1cs_err e = cuzk_cs_matrix(record, k, &csr[k]);
    if (e) return e;
  }
  cuzk_pce *p = calloc(1, sizeof *p);
  dict_builder b = {NULL, calloc(DICT_SLOTS, sizeof(uint32_t))};
  cuzk_r1cs_err e = p && b.slot ? CUZK_R1CS_OK : CUZK_R1CS_ENOMEM;
  if (!e) {
    p->inputs = cuzk_cs_num_inputs(record);
    p->aux = cuzk_cs_num_aux(record);
    p->rows = csr[0].rows;
    p->dict = malloc(DICT_MAX * sizeof *p->dict);
    size_t len[3] = {p->aux, p->inputs, p->aux};
    for (int k = 0; k < 3 && p->dict; k++)
      if (!(p->dens[k] = calloc((len[k] + 63) / 64 + 1, sizeof(uint64_t)))) e = CUZK_R1CS_ENOMEM;
    if (!p->dict) e = CUZK_R1CS_ENOMEM;
  }
  if (!e) { /* ±1 first: the evaluator adds or subtracts them without a multiplication */
    cuzk_fr one = cuzk_fr_one, minus_one;
    cuzk_fr_neg(&minus_one, &one);
    dict_index(p, &b, &one);
    dict_index(p, &b, &minus_one);
  }
  for (int k = 0; k < 3 && !e; k++)
    e = compact(p, &b, k, &csr[k]);
  free(b.slot);
  if (e) {
    cuzk_pce_free(p);
    return e;
  }
  size_t len[3] = {p->aux, p->inputs, p->aux};
  for (int k = 0; k < 3; k++) {
    p->dens_count[k] = popcount(p->dens[k], len[k]);
    p->bytes += ((len[k] + 63) / 64 + 1) * sizeof(uint64_t);
  }
  cuzk_fr *shrunk = realloc(p->dict, (p->n_dict ? p->n_dict : 1) * sizeof *p->dict);
  if (shrunk) p->dict = shrunk;
  p->bytes += sizeof *p + p->n_dict * sizeof *p->dict;
  *out = p;
  return CUZK_R1CS_OK;
}

void cuzk_pce_free(cuzk_pce *p) {
  if (!p) return;
  for (int k = 0; k < 3; k++) {
    free(p->m[k].row_ptr);
    free(p->m[k].cols);
    free(p->m[k].coef);
    free(p->dens[k]);
  }
  free(p->dict);
  free(p);
}

size_t cuzk_pce_num_inputs(const cuzk_pce *p) { return p->inputs; }
size_t cuzk_pce_num_aux(const cuzk_pce *p) { return p->aux; }
size_t cuzk_pce_num_constraints(const cuzk_pce *p) { return p->rows; }
size_t cuzk_pce_num_coefficients(const cuzk_pce *p) { return p->n_dict; }
size_t cuzk_pce_bytes(const cuzk_pce *p) { return p->bytes; }

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

typedef struct {
  const cuzk_pce *p;
  const cuzk_fr *inputs, *aux;
  cuzk_fr **out;
} eval_job;

static void eval_rows(void *ctx, size_t begin, size_t end) {
  const eval_job *j = ctx;
  const cuzk_pce *p = j->p;
  const size_t ni = p->inputs;
  const cuzk_fr *aux_z = j->aux - ni; /* aux_z[c] for c >= ni: no branch on the column kind */
  for (int k = 0; k < 3; k++) {
    const pce_matrix *m = &p->m[k];
    cuzk_fr *out = j->out[k];
    for (size_t r = begin; r < end; r++) {
      cuzk_fr acc = cuzk_fr_zero;
      for (uint32_t t = m->row_ptr[r]; t < m->row_ptr[r + 1]; t++) {
        uint32_t c = m->cols[t];
        const cuzk_fr *z = c < ni ? &j->inputs[c] : &aux_z[c];
        uint16_t d = m->coef[t];
        if (d == COEF_ONE) {
          cuzk_fr_add(&acc, &acc, z);
        } else if (d == COEF_MINUS_ONE) {
          cuzk_fr_sub(&acc, &acc, z);
        } else {
          cuzk_fr v;
          cuzk_fr_mul(&v, &p->dict[d], z);
          cuzk_fr_add(&acc, &acc, &v);
        }
      }
      out[r] = acc;
    }
  }
}

void cuzk_pce_eval(const cuzk_pce *p, const cuzk_fr *inputs, const cuzk_fr *aux, cuzk_fr *out[3],
                   size_t len, cuzk_pool *pool, unsigned max_workers) {
  eval_job j = {p, inputs, aux, out};
  cuzk_parallel_for(pool, p->rows, 4096, eval_rows, &j, max_workers);
  size_t at = p->rows;
  for (size_t i = 0; i < p->inputs; i++, at++) { /* a = input i, b = c = 0 */
    out[0][at] = inputs[i];
    out[1][at] = cuzk_fr_zero;
    out[2][at] = cuzk_fr_zero;
  }
  for (int k = 0; k < 3; k++)
    memset(out[k] + at, 0, (len - at) * sizeof(cuzk_fr));
}
