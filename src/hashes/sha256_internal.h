/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * SHA-256 internals shared by the two compression kernels and the hashing front end. The round
 * constants are computed at start-up (sha256_consts.c) from their definition rather than typed in;
 * a wrong constant would fail every NIST vector in tests/test_sha256.c.
 */
#ifndef CUZK_HASHES_SHA256_INTERNAL_H
#define CUZK_HASHES_SHA256_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/* FIPS 180-4 §4.2.2 K[0..64) and §5.3.3 H(0); filled by a constructor before main. */
extern uint32_t cuzk_sha256_k[64];
extern uint32_t cuzk_sha256_h0[8];
void cuzk_sha256_consts_init(void);

typedef void (*cuzk_sha256_blocks_fn)(uint32_t state[8], const uint8_t *blocks, size_t n);

void cuzk_sha256_blocks_portable(uint32_t state[8], const uint8_t *blocks, size_t n);
#if defined(__x86_64__)
/* Needs SHA, SSSE3 and SSE4.1 (checked by cuzk_sha256_impl_supported). */
void cuzk_sha256_blocks_shani(uint32_t state[8], const uint8_t *blocks, size_t n);
#endif

/* The kernel in use; sha256_select.c points it at one of the above. */
extern cuzk_sha256_blocks_fn cuzk_sha256_blocks;

#endif
