/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Internals of the NTT layer shared by its files: the twiddle tower, the radix-2 pass engine,
 * the bit-reversal permutation and the argument checks.
 *
 * Notation: n = 2^k. A radix-2 stage at level s (0 <= s < k) pairs x[i] with x[i + h], h = 2^s,
 * inside blocks of 2h, and uses the twiddle ω_{2h}^j, j = i mod 2h (< h). Decimation in
 * frequency (DIF, natural -> bit-reversed) runs the levels k-1 ... 0 with (u, v) <- (u + v,
 * (u - v)·w); decimation in time (DIT, bit-reversed -> natural) runs 0 ... k-1 with
 * (u, v) <- (u + v·w, u - v·w).
 */
#ifndef CUZK_NTT_INTERNAL_H
#define CUZK_NTT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pthread.h>
#include <stdatomic.h>

#include "cuzk/ntt/ntt.h"

/* ---- twiddle tower (twiddles.c) ------------------------------------------------------------
 * Level s holds T_s[j] = ω_{2^(s+1)}^j for j < 2^s. The values do not depend on the transform
 * size, so one tower serves every size: a size-2^k transform reads levels 0 .. k-1. Levels above
 * NTT_TOWER_TOP are not stored (level 26 alone would be 2 GiB); the engine derives those
 * twiddles on the fly from a lower level and one power per tile. Inverse twiddles are not
 * stored either: ω^-j = -ω^(h-j) = -T_s[h - j] for 0 < j < h. */
#define NTT_TOWER_TOP 19 /* highest stored level: 2^20 entries in all, 32 MiB */

/* Builds levels 0 .. min(top, NTT_TOWER_TOP) if missing (thread-safe; the first caller builds,
 * the others wait). Returns false on allocation failure. */
bool ntt_tower_ensure(unsigned top);
/* Level s <= NTT_TOWER_TOP, after a successful ntt_tower_ensure(s). */
const cuzk_fr *ntt_tower_level(unsigned s);
void ntt_tower_release(void);

/* Builds the missing levels *done .. top of a lazily grown table, once each: the first caller
 * builds under *lock while the others wait; readers that load *done with acquire order above s
 * see level s complete. Shared by the twiddle tower and its IFMA copy. */
bool ntt_levels_ensure(atomic_uint *done, pthread_mutex_t *lock, unsigned top,
                       bool (*build)(unsigned s));

/* Storage of the tables (64-byte aligned). */
void *ntt_table_alloc(size_t bytes);
void ntt_table_free(void *p, size_t bytes);

/* ω_{2^k} (k <= 32), and its inverse. */
void ntt_root(cuzk_fr *w, unsigned k);
void ntt_root_inv(cuzk_fr *w, unsigned k);

/* r = a^e for a small exponent. */
void ntt_fr_pow_u64(cuzk_fr *r, const cuzk_fr *a, uint64_t e);

/* ---- element scaling fused into a pass (engine.c) ------------------------------------------
 * factor(p) for the entry at array position p:
 *   NTT_SCALE_CONST   K
 *   NTT_SCALE_NAT     K · s^p
 *   NTT_SCALE_REV     K · s^bitrev_k(p)      (data in bit-reversed order, factor by entry) */
typedef enum { NTT_SCALE_NONE = 0, NTT_SCALE_CONST, NTT_SCALE_NAT, NTT_SCALE_REV } ntt_scale_kind;
typedef struct {
  ntt_scale_kind kind;
  cuzk_fr K, s;
} ntt_scale;

/* One transform without any permutation: DIF (natural in, bit-reversed out) or DIT (bit-reversed
 * in, natural out), with ω or ω^-1, with optional scalings applied to the input before the first
 * stage and to the output after the last one (each fused into a pass, no extra sweep). */
typedef struct {
  cuzk_fr *x;
  unsigned k; /* log2 size, <= CUZK_NTT_MAX_LG */
  bool dit;
  bool inverse; /* twiddles ω^-1 (no 1/n factor: put it in post) */
  ntt_scale pre, post;
  cuzk_pool *pool;
  unsigned max_workers;
} ntt_job;

cuzk_ntt_err ntt_run(const ntt_job *job);

/* Tests and benchmarks only, never while a transform runs: at most pass_lg levels per pass,
 * strided tiles of about 2^tile_lg entries (0 = default for both), and every level above
 * tower_top derived instead of read from the stored table. Small sizes then exercise the
 * strided passes, several column tiles per row group, and the derived twiddles. */
void ntt_set_tuning(unsigned pass_lg, unsigned tower_top, unsigned tile_lg);

/* ---- bit reversal (bitrev.c) ---------------------------------------------------------------- */
void ntt_bitreverse(cuzk_fr *v, unsigned k, cuzk_pool *pool, unsigned max_workers);
/* bitrev of the low `bits` bits of x (bits <= 32). */
static inline uint64_t ntt_bitrev(uint64_t x, unsigned bits) {
  if (bits == 0) return 0;
  uint32_t v = (uint32_t)x;
  v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
  v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
  v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
  v = ((v >> 8) & 0x00ff00ffu) | ((v & 0x00ff00ffu) << 8);
  v = (v >> 16) | (v << 16);
  return v >> (32 - bits);
}

/* ---- argument checks (errors.c) -------------------------------------------------------------
 * Validates a size: OK and *k = log2 n, or ESIZE / ETOOBIG / EDOMAIN. */
cuzk_ntt_err ntt_check_size(size_t n, unsigned *k);

#endif
