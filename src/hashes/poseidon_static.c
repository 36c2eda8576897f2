/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * neptune's "static" Poseidon constants (docs/spec/poseidon.md §4.3): the same permutation with
 * fewer multiplications.
 *
 * Compressed round constants. A key added before a linear layer M can be added after it as M*k
 * instead, so each full round's next key moves in front of the mix as M^-1 * RC (a "post key",
 * added right after the S-boxes). A partial round S-boxes only s[0], so of the key vector that
 * reaches it only element 0 has to stay behind the S-box; elements 1.. pass through unchanged and
 * are folded further back, round by round, into the post key of the last first-half full round.
 * Partial rounds thus need one scalar key each.
 *
 * Sparse matrices. Write A = A' * A'' with A' = diag(1, Â) and A'' = [[A00, v], [Â^-1 w, I]]
 * (row-vector convention, s' = s * A). A' leaves s[0] alone and never mixes it into the others,
 * so it commutes with a partial round's S-box on s[0]: in "M, sbox0, M, sbox0, ..., M" each M'
 * moves one step back and merges into the matrix before it. What remains is one dense
 * pre-sparse matrix P after the last first-half full round and, per partial round, a matrix
 * with only 2t-1 non-trivial entries (its column 0 and row 0).
 */
#include <stdlib.h>
#include <string.h>

#include "hashes/poseidon_internal.h"

/* c += M^-1 * v, appending t values at *o. */
static void push_post_key(cuzk_fr *c, size_t *o, const cuzk_fr *minv, const cuzk_fr *v,
                          unsigned t) {
  cuzk_pmat_vec(&c[*o], minv, v, t);
  *o += t;
}

static cuzk_hash_err compress_constants(const cuzk_poseidon_params *p, const cuzk_fr *minv,
                                        cuzk_fr *c) {
  const unsigned t = p->width, rp = p->partial_rounds, half = p->full_rounds / 2;
  const cuzk_fr *rc = p->round_constants;
  cuzk_fr *keys = malloc(rp * sizeof(cuzk_fr));
  if (!keys) return CUZK_HASH_ENOMEM;
  size_t o = 0;
  /* round 0's pre key, then the post keys of full rounds 0 .. half-2 */
  memcpy(c, rc, t * sizeof(cuzk_fr));
  o = t;
  for (unsigned i = 0; i + 1 < half; i++)
    push_post_key(c, &o, minv, &rc[(size_t)(i + 1) * t], t);
  /* fold the partial rounds' keys backwards from the first second-half full round */
  cuzk_fr acc[CUZK_POSEIDON_MAX_WIDTH], z[CUZK_POSEIDON_MAX_WIDTH];
  memcpy(acc, &rc[(size_t)(half + rp) * t], t * sizeof(cuzk_fr));
  for (unsigned i = 0; i < rp; i++) {
    cuzk_pmat_vec(z, minv, acc, t);
    keys[i] = z[0];
    z[0] = cuzk_fr_zero;
    for (unsigned j = 0; j < t; j++)
      cuzk_fr_add(&acc[j], &rc[(size_t)(half + rp - 1 - i) * t + j], &z[j]);
  }
  push_post_key(c, &o, minv, acc, t); /* post key of full round half-1 */
  for (unsigned i = 0; i < rp; i++)
    c[o++] = keys[rp - 1 - i];
  for (unsigned i = 1; i < half; i++)
    push_post_key(c, &o, minv, &rc[(size_t)(half + rp + i) * t], t);
  free(keys);
  return CUZK_HASH_OK;
}

static cuzk_hash_err sparse_factorize(const cuzk_poseidon_params *p, cuzk_fr *pre,
                                      cuzk_fr *sparse) {
  const unsigned t = p->width, n = t - 1, rp = p->partial_rounds;
  const cuzk_fr *m = p->mds;
  cuzk_fr *cur = malloc((2 * (size_t)t * t + 2 * (size_t)n * n) * sizeof(cuzk_fr));
  if (!cur) return CUZK_HASH_ENOMEM;
  cuzk_fr *next = cur + (size_t)t * t, *sub = next + (size_t)t * t, *subinv = sub + (size_t)n * n;
  cuzk_hash_err err = CUZK_HASH_OK;
  memcpy(cur, m, (size_t)t * t * sizeof(cuzk_fr));
  for (unsigned k = 0; k < rp && err == CUZK_HASH_OK; k++) {
    /* cur'' goes to the partial round that runs k-th from the end */
    for (unsigned i = 0; i < n; i++)
      memcpy(&sub[i * n], &cur[(i + 1) * t + 1], n * sizeof(cuzk_fr));
    err = cuzk_pmat_inv(subinv, sub, n);
    if (err != CUZK_HASH_OK) break;
    cuzk_fr *dst = &sparse[(size_t)(rp - 1 - k) * (2 * t - 1)];
    cuzk_fr w[CUZK_POSEIDON_MAX_WIDTH];
    for (unsigned i = 0; i < n; i++)
      w[i] = cur[(i + 1) * t];
    dst[0] = cur[0];
    cuzk_pmat_vec(&dst[1], subinv, w, n);          /* w_hat = Â^-1 w */
    memcpy(&dst[t], &cur[1], n * sizeof(cuzk_fr)); /* v = row 0 without A00 */
    /* cur = M * cur', cur' = diag(1, Â) */
    for (unsigned i = 0; i < t; i++) {
      next[i * t] = m[i * t];
      for (unsigned j = 1; j < t; j++) {
        cuzk_fr acc = cuzk_fr_zero, x;
        for (unsigned l = 1; l < t; l++) {
          cuzk_fr_mul(&x, &m[i * t + l], &cur[l * t + j]);
          cuzk_fr_add(&acc, &acc, &x);
        }
        next[i * t + j] = acc;
      }
    }
    memcpy(cur, next, (size_t)t * t * sizeof(cuzk_fr));
  }
  if (err == CUZK_HASH_OK) memcpy(pre, cur, (size_t)t * t * sizeof(cuzk_fr));
  free(cur);
  return err;
}

cuzk_hash_err cuzk_poseidon_static_constants(const cuzk_poseidon_params *p, cuzk_fr *c,
                                             cuzk_fr *pre, cuzk_fr *sparse) {
  const unsigned t = p->width;
  cuzk_fr *minv = malloc((size_t)t * t * sizeof(cuzk_fr));
  if (!minv) return CUZK_HASH_ENOMEM;
  cuzk_hash_err err = cuzk_pmat_inv(minv, p->mds, t);
  if (err == CUZK_HASH_OK) err = compress_constants(p, minv, c);
  if (err == CUZK_HASH_OK) err = sparse_factorize(p, pre, sparse);
  free(minv);
  return err;
}
