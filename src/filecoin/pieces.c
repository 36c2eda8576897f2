/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Pieces inside a sector (docs/spec/sdr-vanilla.md §3.2, §3.3; filecoin-proofs pieces.rs): where a
 * piece of unpadded bytes is written, and comm_d from the pieces' commitments (compute_comm_d). */
#include <string.h>

#include "cuzk/filecoin/sector.h"
#include "cuzk/hashes/sha256.h"

#define MINIMUM_PIECE_SIZE 127 /* unpadded bytes of the smallest piece (128 padded) */
#define MAX_SECTOR_BYTES (UINT64_C(64) << 30)

static bool is_pow2(uint64_t x) { return x && !(x & (x - 1)); }

/* get_piece_alignment: the piece takes the next 127 * 2^k >= piece_bytes bytes, starting at a
 * multiple of that size. */
cuzk_porep_err cuzk_porep_piece_alignment(uint64_t *left, uint64_t *right, uint64_t written,
                                          uint64_t piece_bytes) {
  if (!left || !right) return CUZK_POREP_EINVAL;
  *left = *right = 0;
  uint64_t max = cuzk_fr32_unpadded_size(MAX_SECTOR_BYTES);
  if (piece_bytes > max || written > max) return CUZK_POREP_EINVAL;
  uint64_t need = MINIMUM_PIECE_SIZE;
  while (need < piece_bytes)
    need *= 2;
  uint64_t encroaching = written % need;
  *left = encroaching ? need - encroaching : 0;
  *right = need - piece_bytes;
  return CUZK_POREP_OK;
}

/* get_piece_start_byte: the pieces before it, each aligned, then this piece's left padding. */
cuzk_porep_err cuzk_porep_piece_start(uint64_t *start, const uint64_t *prior, size_t n,
                                      uint64_t piece_bytes) {
  if (!start || (!prior && n)) return CUZK_POREP_EINVAL;
  *start = 0;
  uint64_t written = 0, left, right;
  for (size_t i = 0; i < n; i++) {
    cuzk_porep_err e = cuzk_porep_piece_alignment(&left, &right, written, prior[i]);
    if (e) return e;
    written += left + prior[i] + right;
  }
  cuzk_porep_err e = cuzk_porep_piece_alignment(&left, &right, written, piece_bytes);
  if (e) return e;
  *start = written + left;
  return CUZK_POREP_OK;
}

/* ---- comm_d from piece commitments ------------------------------------------------------------
 */
typedef struct {
  uint8_t comm[32];
  uint64_t size;
} piece_entry;

/* Sizes along the stack strictly decrease from the bottom (powers of two <= 64GiB). */
typedef struct {
  piece_entry e[64];
  unsigned n;
} piece_stack;

/* Stack::shift_reduce: push, then join the two top entries while their sizes are equal,
 * join = (trunc254(SHA-256(left ‖ right)), 2 * size) (piece_hash). */
static void shift_reduce(piece_stack *st, const uint8_t comm[32], uint64_t size) {
  piece_entry *top = &st->e[st->n++];
  memcpy(top->comm, comm, 32);
  top->size = size;
  while (st->n > 1 && st->e[st->n - 2].size == st->e[st->n - 1].size) {
    piece_entry *l = &st->e[st->n - 2], *r = &st->e[st->n - 1];
    uint8_t pair[64];
    memcpy(pair, l->comm, 32);
    memcpy(pair + 32, r->comm, 32);
    cuzk_sha256_trunc254(l->comm, pair, 64);
    l->size *= 2;
    st->n--;
  }
}

static void shift_reduce_zero(piece_stack *st, uint64_t size) {
  uint8_t z[32];
  cuzk_porep_comm_d_zero(z, size); /* size is a power of two in 128 .. 64GiB */
  shift_reduce(st, z, size);
}

cuzk_porep_err cuzk_porep_comm_d_from_pieces(uint8_t out[32], uint64_t sector_bytes,
                                             const cuzk_porep_piece *pieces, size_t n) {
  if (!out || (!pieces && n) || sector_bytes < 128 || sector_bytes > MAX_SECTOR_BYTES ||
      !is_pow2(sector_bytes))
    return CUZK_POREP_EINVAL;
  if (n == 0) return cuzk_porep_comm_d_zero(out, sector_bytes);
  if (n > cuzk_fr32_unpadded_size(sector_bytes) / MINIMUM_PIECE_SIZE) return CUZK_POREP_EINVAL;
  uint64_t total = 0;
  for (size_t i = 0; i < n; i++) {
    uint64_t s = pieces[i].padded_size;
    if (s < 128 || !is_pow2(s) || s > sector_bytes - total) return CUZK_POREP_EINVAL;
    total += s;
  }
  piece_stack st = {.n = 0};
  shift_reduce(&st, pieces[0].comm_p, pieces[0].padded_size);
  for (size_t i = 1; i < n; i++) {
    while (st.e[st.n - 1].size < pieces[i].padded_size)
      shift_reduce_zero(&st, st.e[st.n - 1].size);
    shift_reduce(&st, pieces[i].comm_p, pieces[i].padded_size);
  }
  /* as Rust: pads only until one entry is left, which may be smaller than the sector */
  while (st.n > 1)
    shift_reduce_zero(&st, st.e[st.n - 1].size);
  memcpy(out, st.e[0].comm, 32);
  return CUZK_POREP_OK;
}
