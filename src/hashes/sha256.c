/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* SHA-256 hashing over the compression kernel: padding (FIPS 180-4 §5.1.1), streaming, and the
 * Filecoin 254-bit truncation. */
#include "cuzk/hashes/sha256.h"

#include <string.h>

#include "hashes/sha256_internal.h"

void cuzk_sha256_init_state(uint32_t state[8]) { memcpy(state, cuzk_sha256_h0, 32); }

void cuzk_sha256_compress_blocks(uint32_t state[8], const uint8_t *blocks, size_t n) {
  if (n) cuzk_sha256_blocks(state, blocks, n);
}

void cuzk_sha256_state_to_digest(uint8_t out[32], const uint32_t state[8]) {
  for (int i = 0; i < 8; i++) {
    out[4 * i] = (uint8_t)(state[i] >> 24);
    out[4 * i + 1] = (uint8_t)(state[i] >> 16);
    out[4 * i + 2] = (uint8_t)(state[i] >> 8);
    out[4 * i + 3] = (uint8_t)state[i];
  }
}

void cuzk_sha256_init(cuzk_sha256_ctx *ctx) {
  cuzk_sha256_init_state(ctx->h);
  ctx->nbytes = 0;
}

void cuzk_sha256_update(cuzk_sha256_ctx *ctx, const void *data, size_t len) {
  if (len == 0) return; /* data may be NULL then */
  const uint8_t *p = data;
  size_t used = (size_t)(ctx->nbytes % 64);
  ctx->nbytes += len;
  if (used) {
    size_t take = 64 - used < len ? 64 - used : len;
    memcpy(ctx->buf + used, p, take);
    p += take;
    len -= take;
    if (used + take < 64) return;
    cuzk_sha256_blocks(ctx->h, ctx->buf, 1);
  }
  /* whole blocks straight from the caller's buffer: no copy on the bulk path */
  if (len >= 64) {
    cuzk_sha256_blocks(ctx->h, p, len / 64);
    p += len & ~(size_t)63;
    len &= 63;
  }
  if (len) memcpy(ctx->buf, p, len);
}

void cuzk_sha256_final(cuzk_sha256_ctx *ctx, uint8_t out[32]) {
  size_t used = (size_t)(ctx->nbytes % 64);
  uint64_t bits = ctx->nbytes * 8;
  /* 0x80, zeros, then the bit length as a 64-bit big-endian integer; one or two blocks */
  ctx->buf[used++] = 0x80;
  if (used > 56) {
    memset(ctx->buf + used, 0, 64 - used);
    cuzk_sha256_blocks(ctx->h, ctx->buf, 1);
    used = 0;
  }
  memset(ctx->buf + used, 0, 56 - used);
  for (int i = 0; i < 8; i++)
    ctx->buf[56 + i] = (uint8_t)(bits >> (56 - 8 * i));
  cuzk_sha256_blocks(ctx->h, ctx->buf, 1);
  cuzk_sha256_state_to_digest(out, ctx->h);
}

void cuzk_sha256(uint8_t out[32], const void *data, size_t len) {
  cuzk_sha256_ctx ctx;
  cuzk_sha256_init(&ctx);
  cuzk_sha256_update(&ctx, data, len);
  cuzk_sha256_final(&ctx, out);
}

void cuzk_sha256_trunc254(uint8_t out[32], const void *data, size_t len) {
  cuzk_sha256(out, data, len);
  cuzk_sha256_truncate254(out);
}

void cuzk_sha256_digest_to_fr(cuzk_fr *r, const uint8_t digest[32]) {
  uint8_t d[32];
  memcpy(d, digest, 32);
  cuzk_sha256_truncate254(d);
  /* < 2^254 < r, so this cannot fail */
  (void)cuzk_fr_from_bytes(r, d);
}
