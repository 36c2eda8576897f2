/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* SDR labeling (PC1, docs/spec/sdr-vanilla.md §6): each label is SHA-256 over a fixed 1248-byte
 * message, built in one buffer with its padding and run through the compression function directly
 * (SHA-NI when present) rather than through the streaming API. */
#include <string.h>

#include "cuzk/hashes/sha256.h"
#include "filecoin/seal.h"

#define MSG_BYTES (64 + 37 * 32) /* replica_id, layer/node block, 37 parent labels */

static void put_be(uint8_t *p, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; i--, v >>= 8)
    p[i] = (uint8_t)v;
}

/* Message padding for a message of len bytes in buf (room for it); returns the block count. */
static size_t pad(uint8_t *buf, size_t len) {
  size_t total = (len + 9 + 63) / 64 * 64;
  buf[len] = 0x80;
  memset(buf + len + 1, 0, total - len - 9);
  put_be(buf + total - 8, (uint64_t)len * 8, 8);
  return total / 64;
}

void cuzk_sdr_label(uint8_t out[32], const uint8_t replica_id[32], unsigned layer, uint64_t v,
                    const uint32_t parents[CUZK_SDR_DEGREE], const uint8_t *cur,
                    const uint8_t *prev) {
  uint8_t buf[(MSG_BYTES + 9 + 63) / 64 * 64];
  memcpy(buf, replica_id, 32);
  memset(buf + 32, 0, 32);
  put_be(buf + 32, layer, 4);
  put_be(buf + 36, v, 8);
  size_t len = 64;
  if (v > 0) {
    /* layer 1: the 6 base parents (this layer) cycled to 37; later layers: base parents from this
     * layer and expander parents from the previous one, the 14 cycled to 37 */
    unsigned deg = layer == 1 ? CUZK_SDR_BASE_DEGREE : CUZK_SDR_DEGREE;
    for (unsigned k = 0; k < 37; k++) {
      unsigned i = k % deg;
      const uint8_t *src = i < CUZK_SDR_BASE_DEGREE ? cur : prev;
      memcpy(buf + len, src + 32 * (uint64_t)parents[i], 32);
      len += 32;
    }
  }
  uint32_t st[8];
  cuzk_sha256_init_state(st);
  cuzk_sha256_compress_blocks(st, buf, pad(buf, len));
  cuzk_sha256_state_to_digest(out, st);
  out[31] &= 0x3f; /* Fr-safe truncation */
}

void cuzk_sdr_label_layer(uint8_t *labels, const uint8_t replica_id[32], unsigned l,
                          const uint32_t *parents, uint64_t n) {
  uint8_t *cur = labels + (uint64_t)(l - 1) * n * 32;
  const uint8_t *prev = l > 1 ? cur - n * 32 : NULL;
  for (uint64_t v = 0; v < n; v++)
    cuzk_sdr_label(cur + 32 * v, replica_id, l, v, parents + CUZK_SDR_DEGREE * v, cur, prev);
}

void cuzk_sdr_label_layers(uint8_t *labels, const uint8_t replica_id[32], unsigned layers,
                           const uint32_t *parents, uint64_t n) {
  for (unsigned l = 1; l <= layers; l++)
    cuzk_sdr_label_layer(labels, replica_id, l, parents, n);
}
