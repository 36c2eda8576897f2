/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * One pass of the engine (engine.c), shared with the AVX-512 IFMA kernels (ifma.c): what a tile
 * needs to know about the transform, the pass and the scalings fused into it.
 */
#ifndef CUZK_NTT_PASS_H
#define CUZK_NTT_PASS_H

#include <stdatomic.h>

#include "ntt/fr_bfly.h"
#include "ntt/ntt_internal.h"

typedef struct {
  const ntt_job *job;
  unsigned lo, b;                      /* levels [lo, lo + b) */
  size_t C;                            /* columns per tile (1 in the bottom pass) */
  const cuzk_fr *lv[CUZK_NTT_MAX_LG];  /* stored tower levels; NULL above NTT_TOWER_TOP */
  bool derive[CUZK_NTT_MAX_LG];        /* strided tiles derive this level's twiddles */
  cuzk_fr wgen[CUZK_NTT_MAX_LG];       /* ω_{2^(s+1)}^(±1) for the derived levels */
  const ntt_scale *pre, *post;         /* scalings fused into this pass, or NULL */
  const cuzk_fr *pre_rows, *post_rows; /* their row factors, 2^b each (NAT / REV kinds) */
  cuzk_fr pre_cstep, post_cstep;       /* REV kinds: s^(2^(k-lo)), the column factor base */
  ntt_mul_fn mul;
  /* IFMA kernels: on for this pass, their tower levels, the row factors in their form */
  bool ifma;
  const uint64_t *ifma_lv[CUZK_NTT_MAX_LG];
  const uint64_t *pre_rows52, *post_rows52;
  atomic_int failed;
} ntt_pass_ctx;

/* Column factors colf[0 .. P->C) of a scaling for the tile (g, c0) (pass_factors.c). The factor of the
 * entry in row r, column c is rows[r]·colf[c] (rows = NULL: the CONST kind, colf alone). */
void ntt_scale_cols(cuzk_fr *colf, const ntt_pass_ctx *P, const ntt_scale *sc, const cuzk_fr *cstep,
                    size_t g, size_t c0);
const cuzk_fr *ntt_scale_rows_of(const ntt_scale *sc, const cuzk_fr *rows);

/* Bases of the derived levels for the tile's columns (pass_factors.c):
 * wb[(s - lo)·C + c] = ω_{2^(s+1)}^(±(c0 + c)) for every derived level s of the pass. */
void ntt_tile_bases(cuzk_fr *wb, const ntt_pass_ctx *P, size_t c0);

/* ---- AVX-512 IFMA kernels (ifma.c) -------------------------------------------------------------
 * Eight lanes of 52-bit-limb Montgomery arithmetic (R = 2^260) over entries of eight columns
 * (strided passes) or eight blocks (bottom pass). Only on x86-64 CPUs with AVX512F and
 * AVX512IFMA enabled by the OS; the engine falls back to the scalar kernels elsewhere. */
#define NTT_IFMA_LANES 8
bool ntt_ifma_supported(void);
bool ntt_ifma_enabled(void);
/* Tests and benchmarks: switch the IFMA kernels off or back on (no effect where unsupported).
 * Not while a transform runs. */
void ntt_ifma_enable(bool on);

/* W-form: x·2^260 mod r in five little-endian 52-bit limbs, from the Montgomery form x·2^256. */
void ntt_fr_to_w52(uint64_t out[5], const cuzk_fr *a);

/* The IFMA tower (ifma_tower.c): level s holds the entries j < 2^s + 8 (the 8 past the end make
 * mirrored reads of inverse twiddles, -T_s[h - j] with j = 0 included, stay in the table) of
 * ω_{2^(s+1)}^j in W-form, in groups of 8 consecutive entries: group g is 40 words, limb l of
 * entry 8g + i at word 8l + i, so a group loads as five 8-lane vectors. */
#define NTT_IFMA_GROUP_WORDS 40
bool ntt_ifma_tower_ensure(unsigned top);
const uint64_t *ntt_ifma_tower_level(unsigned s);
void ntt_ifma_tower_release(void);

/* Bytes of scratch a worker needs for the pass's IFMA tiles. */
size_t ntt_ifma_scratch_bytes(const ntt_pass_ctx *P);
/* Bottom pass: blocks g0 .. g0+7 (one per lane), in place. */
void ntt_ifma_blocks(const ntt_pass_ctx *P, size_t g0, void *scratch);
/* Strided pass: tile t, as the scalar run_tile (P->C a multiple of 8). */
void ntt_ifma_tile(const ntt_pass_ctx *P, size_t t, void *scratch);

#endif
