/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * SHA-256 (FIPS 180-4) as Filecoin uses it (docs/spec/sdr-vanilla.md §1): plain SHA-256 with
 * standard padding, plus the "Fr-safe" truncation that turns a digest into a 254-bit field element.
 *
 * Contract: the compression function is exposed on its own (state[8] + 64-byte blocks) because
 * the SDR labeler builds its 1248-byte preimages block by block. State words are native uint32
 * values H0..H7; blocks are message bytes. Two implementations exist, portable C and x86-64
 * SHA-NI; a constructor picks SHA-NI when CPUID reports it. All functions are thread-safe except
 * cuzk_sha256_use_impl, which (like cuzk_field_use_kernel) is for tests and benchmarks.
 */
#ifndef CUZK_SHA256_H
#define CUZK_SHA256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/field/field.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUZK_SHA256_BLOCK_BYTES 64
#define CUZK_SHA256_DIGEST_BYTES 32

/* ---- Implementation selection ------------------------------------------------------------ */
typedef enum {
  CUZK_SHA256_PORTABLE = 0, /* C, any CPU */
  CUZK_SHA256_SHANI = 1,    /* x86-64 SHA extensions (SHA256RNDS2/MSG1/MSG2) */
} cuzk_sha256_impl;

bool cuzk_sha256_impl_supported(cuzk_sha256_impl impl);
/* Switches the whole process; false if this CPU cannot run it. Not thread-safe. */
bool cuzk_sha256_use_impl(cuzk_sha256_impl impl);
cuzk_sha256_impl cuzk_sha256_active_impl(void);

/* ---- Compression function ---------------------------------------------------------------- */
/* state = the initial hash value H(0) (FIPS 180-4 §5.3.3). */
void cuzk_sha256_init_state(uint32_t state[8]);
/* Runs the compression function over n consecutive 64-byte blocks (no padding). */
void cuzk_sha256_compress_blocks(uint32_t state[8], const uint8_t *blocks, size_t n);
static inline void cuzk_sha256_compress(uint32_t state[8], const uint8_t block[64]) {
  cuzk_sha256_compress_blocks(state, block, 1);
}
/* The digest bytes of a final state: the words big-endian, H0 first. */
void cuzk_sha256_state_to_digest(uint8_t out[32], const uint32_t state[8]);

/* ---- Hashing ------------------------------------------------------------------------------ */
typedef struct {
  uint32_t h[8];
  uint64_t nbytes; /* total bytes absorbed; nbytes % 64 of them wait in buf */
  uint8_t buf[64];
} cuzk_sha256_ctx;

void cuzk_sha256_init(cuzk_sha256_ctx *ctx);
void cuzk_sha256_update(cuzk_sha256_ctx *ctx, const void *data, size_t len);
/* Pads, writes the digest; the context must be re-initialized before reuse. */
void cuzk_sha256_final(cuzk_sha256_ctx *ctx, uint8_t out[32]);
void cuzk_sha256(uint8_t out[32], const void *data, size_t len);

/* ---- Filecoin's 254-bit truncation (docs/spec/sdr-vanilla.md §1, docs/spec/poseidon.md §1) */
/* digest[31] &= 0x3f: read little-endian, the value is then < 2^254 < r. */
static inline void cuzk_sha256_truncate254(uint8_t digest[32]) { digest[31] &= 0x3f; }
/* SHA-256 then truncation ("sha2-256-trunc254", labels, tree_d nodes, replica_id). */
void cuzk_sha256_trunc254(uint8_t out[32], const void *data, size_t len);
/* The Fr element a (possibly untruncated) digest stands for: truncate, read little-endian. */
void cuzk_sha256_digest_to_fr(cuzk_fr *r, const uint8_t digest[32]);

#ifdef __cplusplus
}
#endif
#endif
