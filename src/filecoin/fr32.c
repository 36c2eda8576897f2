/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Fr32 padding (docs/spec/sdr-vanilla.md §3.1): the unpadded bytes are a little-endian bit stream
 * cut into 254-bit units, each stored in the low 254 bits of a 32-byte node (bits 254, 255 zero).
 *
 * 127 bytes = 1016 bits = exactly 4 nodes, so the work is done per 127 -> 128-byte group. Node k
 * of a group holds stream bits 254k .. 254k+253, which start at byte 254k/8 = 0, 31, 63, 95 with
 * a bit shift of 254k mod 8 = 0, 6, 4, 2. */
#include <string.h>

#include "cuzk/filecoin/sector.h"

#define GROUP_IN 127
#define GROUP_OUT 128

static const unsigned node_byte[4] = {0, 31, 63, 95};
static const unsigned node_shift[4] = {0, 6, 4, 2};

/* fr32::to_padded_bytes: floor(8x/254) whole units of 256 bits plus the leftover bits. */
uint64_t cuzk_fr32_padded_size(uint64_t unpadded) {
  uint64_t units = unpadded / GROUP_IN * 4, rem_bits = unpadded % GROUP_IN * 8; /* no overflow */
  units += rem_bits / 254;
  rem_bits %= 254;
  return units * 32 + (rem_bits + 7) / 8;
}

/* fr32::to_unpadded_bytes: floor(8p/256) units of 254 bits plus the leftover bits, floored. */
uint64_t cuzk_fr32_unpadded_size(uint64_t padded) {
  uint64_t units = padded / 32, rem_bits = padded % 32 * 8;
  /* units * 254 / 8 without overflow: units * 127 / 4 */
  uint64_t whole = units / 4 * GROUP_IN, part_bits = units % 4 * 254 + rem_bits;
  return whole + part_bits / 8;
}

uint64_t cuzk_fr32_pad_output_len(uint64_t unpadded_len) {
  uint64_t nodes = unpadded_len / GROUP_IN * 4 + (unpadded_len % GROUP_IN * 8 + 253) / 254;
  return nodes * 32;
}

/* One whole group: in[0..127) -> out[0..128). */
static void pad_group(uint8_t *out, const uint8_t *in) {
  for (unsigned k = 0; k < 4; k++) {
    const uint8_t *src = in + node_byte[k];
    uint8_t *dst = out + 32 * k;
    unsigned s = node_shift[k];
    if (s == 0) {
      memcpy(dst, src, 32);
    } else {
      /* src[32] exists except for node 3, whose byte 127 would only feed the cleared bits 6, 7 */
      for (unsigned i = 0; i < 31; i++)
        dst[i] = (uint8_t)(src[i] >> s | src[i + 1] << (8 - s));
      dst[31] = (uint8_t)(src[31] >> s | (k < 3 ? src[32] << (8 - s) : 0));
    }
    dst[31] &= 0x3f;
  }
}

/* Inverse of pad_group: in[0..128) -> out[0..127); bits 254, 255 of each node are ignored. */
static void unpad_group(uint8_t *out, const uint8_t *in) {
  memset(out, 0, GROUP_IN);
  for (unsigned k = 0; k < 4; k++) {
    const uint8_t *src = in + 32 * k;
    uint8_t *dst = out + node_byte[k];
    unsigned s = node_shift[k];
    for (unsigned i = 0; i < 32; i++) {
      unsigned v = i == 31 ? src[31] & 0x3fu : src[i];
      dst[i] |= (uint8_t)(v << s);
      if (s && node_byte[k] + i + 1 < GROUP_IN) dst[i + 1] |= (uint8_t)(v >> (8 - s));
    }
  }
}

cuzk_porep_err cuzk_fr32_pad(uint8_t *out, size_t out_cap, const uint8_t *in, size_t in_len) {
  if ((!out && out_cap) || (!in && in_len)) return CUZK_POREP_EINVAL;
  uint64_t need = cuzk_fr32_pad_output_len(in_len);
  if (out_cap < need) return CUZK_POREP_EINVAL;
  size_t groups = in_len / GROUP_IN, tail = in_len % GROUP_IN;
  for (size_t g = 0; g < groups; g++)
    pad_group(out + g * GROUP_OUT, in + g * GROUP_IN);
  if (tail) {
    uint8_t src[GROUP_IN] = {0}, dst[GROUP_OUT];
    memcpy(src, in + groups * GROUP_IN, tail);
    pad_group(dst, src);
    memcpy(out + groups * GROUP_OUT, dst, (size_t)(need - groups * GROUP_OUT));
  }
  return CUZK_POREP_OK;
}

cuzk_porep_err cuzk_fr32_unpad(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len,
                               uint64_t offset) {
  if ((!out && out_len) || (!in && in_len)) return CUZK_POREP_EINVAL;
  if (out_len == 0) return CUZK_POREP_OK;
  /* every bit asked for must lie in a whole node of in: 8*(offset+out_len) <= 254*nodes */
  uint64_t nodes = in_len / 32;
  uint64_t avail = nodes / 4 * GROUP_IN + nodes % 4 * 254 / 8;
  if (offset > avail || out_len > avail - offset) return CUZK_POREP_EINVAL;
  uint64_t g = offset / GROUP_IN;
  size_t skip = (size_t)(offset % GROUP_IN), done = 0;
  uint8_t src[GROUP_OUT], dst[GROUP_IN];
  while (done < out_len) {
    uint64_t at = g * GROUP_OUT;
    size_t take = GROUP_IN - skip;
    if (take > out_len - done) take = out_len - done;
    if (skip == 0 && take == GROUP_IN && at + GROUP_OUT <= in_len) {
      unpad_group(out + done, in + at);
    } else {
      size_t have = in_len - at < GROUP_OUT ? (size_t)(in_len - at) : GROUP_OUT;
      memset(src, 0, sizeof src);
      memcpy(src, in + at, have);
      unpad_group(dst, src);
      memcpy(out + done, dst + skip, take);
    }
    done += take;
    skip = 0;
    g++;
  }
  return CUZK_POREP_OK;
}
