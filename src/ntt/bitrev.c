/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * In-place bit-reversal permutation, cache-blocked and multi-threaded.
 *
 * Write a position as (a, m, c): a its top Q bits, c its bottom Q bits, m the k - 2Q bits
 * between. bitrev(a, m, c) = (rev c, rev m, rev a), so the 2^2Q positions with middle m trade
 * places exactly with those with middle rev m. Each such pair of tiles is read into two small
 * buffers (2^Q rows of 2^Q contiguous entries: 512 B runs, not 32 B scattered accesses) and
 * written back transposed with the row and column indices reversed. Pairs are independent, so
 * they are split over the pool.
 */
#include <stdint.h>
#include <string.h>

#include "ntt/ntt_internal.h"

#define BR_Q 4 /* tiles of 16 x 16 entries, 8 KiB */
#define BR_T ((size_t)1 << BR_Q)

static void bitrev_plain(cuzk_fr *v, unsigned k) {
  size_t n = (size_t)1 << k;
  for (size_t i = 0; i < n; i++) {
    size_t j = ntt_bitrev(i, k);
    if (i < j) {
      cuzk_fr t = v[i];
      v[i] = v[j];
      v[j] = t;
    }
  }
}

typedef struct {
  cuzk_fr *v;
  unsigned k;
} br_ctx;

static void tile_load(cuzk_fr *t, const cuzk_fr *v, unsigned k, size_t m) {
  for (size_t a = 0; a < BR_T; a++)
    memcpy(t + a * BR_T, v + (a << (k - BR_Q)) + (m << BR_Q), BR_T * sizeof(cuzk_fr));
}

/* Tile with middle m receives src (the tile that had middle rev m): new(a', c') = src(rev c',
 * rev a'). */
static const uint8_t rev4[BR_T] = {0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15};
_Static_assert(BR_Q == 4, "rev4 is the 4-bit reversal");

static void tile_store(cuzk_fr *v, unsigned k, size_t m, const cuzk_fr *src) {
  for (size_t a = 0; a < BR_T; a++) {
    cuzk_fr *row = v + (a << (k - BR_Q)) + (m << BR_Q);
    const cuzk_fr *col = src + rev4[a];
    for (size_t c = 0; c < BR_T; c++)
      row[c] = col[rev4[c] * BR_T];
  }
}

static void bitrev_range(void *ctx, size_t begin, size_t end) {
  const br_ctx *B = ctx;
  const unsigned mb = B->k - 2 * BR_Q;
  cuzk_fr ta[BR_T * BR_T], tb[BR_T * BR_T];
  for (size_t m = begin; m < end; m++) {
    size_t m2 = ntt_bitrev(m, mb);
    if (m2 < m) continue; /* done with its partner */
    tile_load(ta, B->v, B->k, m);
    if (m2 != m) {
      tile_load(tb, B->v, B->k, m2);
      tile_store(B->v, B->k, m, tb);
    }
    tile_store(B->v, B->k, m2, ta);
  }
}

void ntt_bitreverse(cuzk_fr *v, unsigned k, cuzk_pool *pool, unsigned max_workers) {
  if (k < 2 * BR_Q + 2) {
    bitrev_plain(v, k);
    return;
  }
  br_ctx B = {v, k};
  size_t nm = (size_t)1 << (k - 2 * BR_Q);
  cuzk_parallel_for(k >= 16 ? pool : NULL, nm, 0, bitrev_range, &B, max_workers);
}
