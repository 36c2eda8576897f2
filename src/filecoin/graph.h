/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Under the SDR graph (include/cuzk/filecoin/sdr_graph.h), internal to the filecoin layer:
 * rand_chacha's ChaCha8Rng that draws the DRG parents and the 3-round BLAKE2b Feistel permutation
 * that gives the expander parents, bit-exact with rust-fil-proofs v19 (storage-proofs-core
 * drgraph.rs and crypto/feistel.rs).
 */
#ifndef CUZK_FILECOIN_GRAPH_H
#define CUZK_FILECOIN_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/filecoin/sdr_graph.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- ChaCha8 (chacha8.c) -------------------------------------------------------------------- */
/* djb's original ChaCha with 8 rounds: key words 4..11, 64-bit block counter in words 12-13,
 * 64-bit nonce in words 14-15 (both little-endian); writes the 64 keystream bytes of one block. */
void cuzk_chacha8_block(uint8_t out[64], const uint8_t key[32], uint64_t counter, uint64_t nonce);

/* rand_chacha 0.3 ChaCha8Rng::from_seed(seed): counter from 0, nonce 0; next_u64 takes the next
 * 8 keystream bytes as a little-endian u64 (draws are u64-aligned, as in the DRG sampler). */
typedef struct {
  uint8_t key[32];
  uint64_t counter; /* next block to generate */
  uint8_t buf[64];
  unsigned pos; /* bytes of buf already consumed (64 = empty) */
} cuzk_chacha8_rng;

void cuzk_chacha8_rng_init(cuzk_chacha8_rng *rng, const uint8_t seed[32]);
uint64_t cuzk_chacha8_rng_next_u64(cuzk_chacha8_rng *rng);

/* ---- Feistel permutation (feistel.c, docs/spec/sdr-vanilla.md §5.3) -------------------------- */
/* Over a cuzk_feistel (include/cuzk/filecoin/sdr_graph.h: a graph holds one). */
/* num_elements >= 1 and <= 2^62. Also initialises libsodium (for the _ref round). */
void cuzk_feistel_init(cuzk_feistel *f, uint64_t num_elements, const uint64_t keys[3]);
/* The round function: BLAKE2b-512 of (x BE64 || key BE64), first 8 bytes BE, masked. _ref is
 * the same through libsodium's crypto_generichash (slower; the test oracle). */
uint64_t cuzk_feistel_round(uint64_t x, uint64_t key, uint64_t right_mask);
uint64_t cuzk_feistel_round_ref(uint64_t x, uint64_t key, uint64_t right_mask);
/* One pass of the 3 rounds on 0..4^k-1 (no cycle walking). */
uint64_t cuzk_feistel_encode(const cuzk_feistel *f, uint64_t x);
/* encode re-applied until the result is < num_elements: a bijection of 0..M-1. */
uint64_t cuzk_feistel_permute(const cuzk_feistel *f, uint64_t x);

/* out[i] = permute(first + i) for i < n, several permutations in SIMD lanes (one per lane,
 * each lane refilled as soon as its cycle walk ends). The implementation is picked from CPUID;
 * _impl forces one (false if this CPU lacks it; for tests and benchmarks). */
typedef enum {
  CUZK_FEISTEL_AUTO = 0,
  CUZK_FEISTEL_SCALAR,
  CUZK_FEISTEL_AVX2,   /* 4 lanes */
  CUZK_FEISTEL_AVX512, /* 8 lanes (AVX-512F + VL) */
} cuzk_feistel_impl;
bool cuzk_feistel_impl_supported(cuzk_feistel_impl impl);
void cuzk_feistel_permute_range(const cuzk_feistel *f, uint64_t first, size_t n, uint64_t *out);
bool cuzk_feistel_permute_range_impl(cuzk_feistel_impl impl, const cuzk_feistel *f, uint64_t first,
                                     size_t n, uint64_t *out);

#ifdef __cplusplus
}
#endif
#endif
