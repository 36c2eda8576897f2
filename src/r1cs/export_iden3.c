/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* iden3 binary files (the formats of circom and snarkjs: "r1cs" v1, "wtns" v2), so that snarkjs
 * can check our witnesses and prove our circuits as an independent peer. A file is a 4-byte
 * magic, u32 version, u32 section count, then sections of (u32 type, u64 size, bytes); all
 * integers little-endian, field elements canonical 32-byte little-endian. */
#include <stdio.h>
#include <string.h>

#include "field/consts.h"
#include "r1cs/cs_internal.h"

typedef struct {
  FILE *f;
  bool ok;
} out_file;

static void put(out_file *o, const void *p, size_t n) {
  if (o->ok && fwrite(p, 1, n, o->f) != n) o->ok = false;
}
static void put32(out_file *o, uint32_t v) {
  uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
  put(o, b, 4);
}
static void put64(out_file *o, uint64_t v) {
  put32(o, (uint32_t)v);
  put32(o, (uint32_t)(v >> 32));
}
static void put_fr(out_file *o, const cuzk_fr *x) {
  uint8_t b[32];
  cuzk_fr_to_bytes(b, x); /* canonical little-endian */
  put(o, b, 32);
}
static void put_prime(out_file *o) {
  uint8_t b[32];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 8; j++)
      b[8 * i + j] = (uint8_t)(CUZK_R[i] >> (8 * j));
  put(o, b, 32);
}
static void put_header(out_file *o, const char magic[4], uint32_t version, uint32_t sections) {
  put(o, magic, 4);
  put32(o, version);
  put32(o, sections);
}
static cuzk_r1cs_err close_file(out_file *o) {
  bool ok = o->ok;
  if (fclose(o->f) != 0) ok = false;
  return ok ? CUZK_R1CS_OK : CUZK_R1CS_EIO;
}

cuzk_r1cs_err cuzk_cs_write_iden3_r1cs(const cuzk_cs *cs, const char *path) {
  cuzk_csr m[3];
  for (int k = 0; k < 3; k++) {
    cuzk_r1cs_err e = cuzk_cs_matrix(cs, k, &m[k]);
    if (e) return e;
  }
  size_t wires = cs->n_inputs + cs->n_aux;
  if (wires > UINT32_MAX || cs->n_cons > UINT32_MAX) return CUZK_R1CS_ETOOBIG;
  out_file o = {fopen(path, "wb"), true};
  if (!o.f) return CUZK_R1CS_EIO;
  put_header(&o, "r1cs", 1, 3);
  /* 1: header */
  put32(&o, 1);
  put64(&o, 4 + 32 + 4 * 4 + 8 + 4);
  put32(&o, 32);
  put_prime(&o);
  put32(&o, (uint32_t)wires);
  put32(&o, 0);                          /* public outputs */
  put32(&o, (uint32_t)cs->n_inputs - 1); /* public inputs, ONE excluded */
  put32(&o, 0);                          /* private inputs */
  put64(&o, wires);                      /* labels */
  put32(&o, (uint32_t)cs->n_cons);
  /* 2: constraints, each A, B, C as (count, (wire, coefficient)...) */
  uint64_t size = 0;
  for (int k = 0; k < 3; k++)
    size += 4 * (uint64_t)m[k].rows + 36 * (uint64_t)m[k].nnz;
  put32(&o, 2);
  put64(&o, size);
  for (size_t r = 0; r < cs->n_cons; r++)
    for (int k = 0; k < 3; k++) {
      put32(&o, m[k].row_ptr[r + 1] - m[k].row_ptr[r]);
      for (uint32_t t = m[k].row_ptr[r]; t < m[k].row_ptr[r + 1]; t++) {
        put32(&o, m[k].cols[t]);
        put_fr(&o, &m[k].vals[t]);
      }
    }
  /* 3: wire -> label */
  put32(&o, 3);
  put64(&o, 8 * (uint64_t)wires);
  for (uint64_t w = 0; w < wires; w++)
    put64(&o, w);
  return close_file(&o);
}

cuzk_r1cs_err cuzk_write_iden3_wtns(const char *path, const cuzk_fr *inputs, size_t n_inputs,
                                    const cuzk_fr *aux, size_t n_aux) {
  if (!inputs || (n_aux && !aux) || n_inputs == 0) return CUZK_R1CS_EINVAL;
  if (n_inputs + n_aux > UINT32_MAX) return CUZK_R1CS_ETOOBIG;
  out_file o = {fopen(path, "wb"), true};
  if (!o.f) return CUZK_R1CS_EIO;
  put_header(&o, "wtns", 2, 2);
  put32(&o, 1);
  put64(&o, 4 + 32 + 4);
  put32(&o, 32);
  put_prime(&o);
  put32(&o, (uint32_t)(n_inputs + n_aux));
  put32(&o, 2);
  put64(&o, 32 * (uint64_t)(n_inputs + n_aux));
  for (size_t i = 0; i < n_inputs; i++)
    put_fr(&o, &inputs[i]);
  for (size_t j = 0; j < n_aux; j++)
    put_fr(&o, &aux[j]);
  return close_file(&o);
}
