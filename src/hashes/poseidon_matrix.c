/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Small dense matrices over Fr for deriving the Poseidon constants (once per arity, not hot). */
#include <stdlib.h>
#include <string.h>

#include "hashes/poseidon_internal.h"

void cuzk_pmat_mul(cuzk_fr *r, const cuzk_fr *a, const cuzk_fr *b, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    for (unsigned j = 0; j < n; j++) {
      cuzk_fr acc = cuzk_fr_zero, t;
      for (unsigned k = 0; k < n; k++) {
        cuzk_fr_mul(&t, &a[i * n + k], &b[k * n + j]);
        cuzk_fr_add(&acc, &acc, &t);
      }
      r[i * n + j] = acc;
    }
}

void cuzk_pmat_vec(cuzk_fr *r, const cuzk_fr *m, const cuzk_fr *v, unsigned n) {
  cuzk_fr out[CUZK_POSEIDON_MAX_WIDTH];
  for (unsigned i = 0; i < n; i++) {
    cuzk_fr acc = cuzk_fr_zero, t;
    for (unsigned k = 0; k < n; k++) {
      cuzk_fr_mul(&t, &m[i * n + k], &v[k]);
      cuzk_fr_add(&acc, &acc, &t);
    }
    out[i] = acc;
  }
  memcpy(r, out, n * sizeof(cuzk_fr));
}

/* Gauss-Jordan on [a | I]: reduce a to I with row operations; the right half becomes a^-1. */
cuzk_hash_err cuzk_pmat_inv(cuzk_fr *r, const cuzk_fr *a, unsigned n) {
  cuzk_fr *w = malloc((size_t)n * n * sizeof(cuzk_fr)), *inv = malloc((size_t)n * n * sizeof(cuzk_fr));
  if (!w || !inv) {
    free(w);
    free(inv);
    return CUZK_HASH_ENOMEM;
  }
  memcpy(w, a, (size_t)n * n * sizeof(cuzk_fr));
  for (unsigned i = 0; i < n * n; i++)
    inv[i] = (i / n == i % n) ? cuzk_fr_one : cuzk_fr_zero;
  cuzk_hash_err err = CUZK_HASH_OK;
  for (unsigned c = 0; c < n && err == CUZK_HASH_OK; c++) {
    unsigned piv = c;
    while (piv < n && cuzk_fr_is_zero(&w[piv * n + c]))
      piv++;
    if (piv == n) {
      err = CUZK_HASH_EINVAL;
      break;
    }
    if (piv != c)
      for (unsigned j = 0; j < n; j++) {
        cuzk_fr t = w[c * n + j];
        w[c * n + j] = w[piv * n + j];
        w[piv * n + j] = t;
        t = inv[c * n + j];
        inv[c * n + j] = inv[piv * n + j];
        inv[piv * n + j] = t;
      }
    cuzk_fr s;
    cuzk_fr_inv(&s, &w[c * n + c]);
    for (unsigned j = 0; j < n; j++) {
      cuzk_fr_mul(&w[c * n + j], &w[c * n + j], &s);
      cuzk_fr_mul(&inv[c * n + j], &inv[c * n + j], &s);
    }
    for (unsigned i = 0; i < n; i++) {
      if (i == c || cuzk_fr_is_zero(&w[i * n + c])) continue;
      cuzk_fr f = w[i * n + c], t;
      for (unsigned j = 0; j < n; j++) {
        cuzk_fr_mul(&t, &f, &w[c * n + j]);
        cuzk_fr_sub(&w[i * n + j], &w[i * n + j], &t);
        cuzk_fr_mul(&t, &f, &inv[c * n + j]);
        cuzk_fr_sub(&inv[i * n + j], &inv[i * n + j], &t);
      }
    }
  }
  if (err == CUZK_HASH_OK) memcpy(r, inv, (size_t)n * n * sizeof(cuzk_fr));
  free(w);
  free(inv);
  return err;
}
