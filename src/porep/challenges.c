/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* PoRep challenges (docs/spec/sdr-vanilla.md §8, stacked/vanilla/challenges.rs): interactive
 * (seed), non-interactive (comm_r) and synthetic (BLAKE2b keys, ChaCha20 keystreams; libsodium).
 * Partition k with c challenges per partition uses global challenge numbers k*c .. k*c+c-1. */
#include <sodium.h>
#include <string.h>

#include "cuzk/hashes/sha256.h"
#include "cuzk/porep/porep.h"

static const char ni_tag[] = "filecoin.io|PoRep|1|NonInteractive|1";
static const char synth_gen_tag[] = "filecoin.io|PoRep|1|Synthetic|1|Generation";
static const char synth_sel_tag[] = "filecoin.io|PoRep|1|Synthetic|1|Selection";
static const uint8_t synth_nonce[12] = "synth-porep"; /* 11 ASCII bytes then 0x00 */

/* x mod (N-1) + 1, x = b read as a 256-bit little-endian integer (Horner over 64-bit limbs). */
uint64_t cuzk_porep_bytes_to_challenge(const uint8_t b[32], uint64_t nodes) {
  if (!b || nodes < 2) return 0; /* never a challenge */
  uint64_t m = nodes - 1;
  unsigned __int128 r = 0;
  for (int limb = 3; limb >= 0; limb--) {
    uint64_t w = 0;
    for (int i = 7; i >= 0; i--)
      w = w << 8 | b[8 * limb + i];
    r = ((r << 64) | w) % m;
  }
  return (uint64_t)r + 1;
}

static void put_u32_le(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}

/* Partition/count checks shared by the seed and comm_r kinds: j must fit a u32. */
static cuzk_porep_err check_range(const uint64_t *out, uint64_t nodes, unsigned partition,
                                  unsigned count) {
  if ((!out && count) || nodes < 2) return CUZK_POREP_EINVAL;
  if ((uint64_t)partition * count + count > UINT64_C(1) << 32) return CUZK_POREP_EINVAL;
  return CUZK_POREP_OK;
}

/* out[i] = challenge of SHA-256(prefix ‖ j u32 LE), j = partition*count + i. */
static void hash_challenges(uint64_t *out, uint64_t nodes, const uint8_t *prefix, size_t plen,
                            unsigned partition, unsigned count) {
  cuzk_sha256_ctx base, ctx;
  cuzk_sha256_init(&base);
  cuzk_sha256_update(&base, prefix, plen);
  for (unsigned i = 0; i < count; i++) {
    uint8_t j[4], d[32];
    put_u32_le(j, (uint32_t)((uint64_t)partition * count + i));
    ctx = base;
    cuzk_sha256_update(&ctx, j, 4);
    cuzk_sha256_final(&ctx, d);
    out[i] = cuzk_porep_bytes_to_challenge(d, nodes);
  }
}

cuzk_porep_err cuzk_porep_challenges_interactive(uint64_t *out, uint64_t nodes,
                                                 const uint8_t replica_id[32],
                                                 const uint8_t seed[32], unsigned partition,
                                                 unsigned count) {
  if (!replica_id || !seed) return CUZK_POREP_EINVAL;
  cuzk_porep_err e = check_range(out, nodes, partition, count);
  if (e) return e;
  uint8_t prefix[64];
  memcpy(prefix, replica_id, 32);
  memcpy(prefix + 32, seed, 32);
  hash_challenges(out, nodes, prefix, sizeof prefix, partition, count);
  return CUZK_POREP_OK;
}

cuzk_porep_err cuzk_porep_challenges_ni(uint64_t *out, uint64_t nodes, const uint8_t replica_id[32],
                                        const uint8_t comm_r[32], unsigned partition,
                                        unsigned count) {
  if (!replica_id || !comm_r) return CUZK_POREP_EINVAL;
  cuzk_porep_err e = check_range(out, nodes, partition, count);
  if (e) return e;
  uint8_t prefix[sizeof ni_tag - 1 + 64];
  memcpy(prefix, ni_tag, sizeof ni_tag - 1);
  memcpy(prefix + sizeof ni_tag - 1, replica_id, 32);
  memcpy(prefix + sizeof ni_tag - 1 + 32, comm_r, 32);
  hash_challenges(out, nodes, prefix, sizeof prefix, partition, count);
  return CUZK_POREP_OK;
}

/* ---- Synthetic ----------------------------------------------------------------------------------
 */
/* BLAKE2b-256 keyed with the ASCII tag over a ‖ b. */
static cuzk_porep_err synth_key(uint8_t key[32], const char *tag, const uint8_t a[32],
                                const uint8_t b[32]) {
  if (sodium_init() < 0) return CUZK_POREP_ECRYPTO;
  uint8_t msg[64];
  memcpy(msg, a, 32);
  memcpy(msg + 32, b, 32);
  if (crypto_generichash_blake2b(key, 32, msg, sizeof msg, (const uint8_t *)tag, strlen(tag)))
    return CUZK_POREP_ECRYPTO;
  return CUZK_POREP_OK;
}

/* ChaCha20 (IETF, 32-bit block counter from 0, nonce "synth-porep\0") keystream bytes
 * [offset, offset+len), generated a few blocks at a time. */
static cuzk_porep_err keystream(uint8_t *out, uint64_t offset, size_t len, const uint8_t key[32]) {
  enum { CHUNK_BLOCKS = 32 };
  static const uint8_t zeros[64 * CHUNK_BLOCKS];
  uint8_t buf[64 * CHUNK_BLOCKS];
  if (len && (offset + len - 1) / 64 > UINT32_MAX) return CUZK_POREP_EINVAL;
  while (len) {
    uint64_t block = offset / 64;
    size_t skip = (size_t)(offset % 64), take = sizeof buf - skip;
    if (take > len) take = len;
    size_t gen = (skip + take + 63) / 64 * 64;
    crypto_stream_chacha20_ietf_xor_ic(buf, zeros, gen, synth_nonce, (uint32_t)block, key);
    memcpy(out, buf + skip, take);
    out += take;
    offset += take;
    len -= take;
  }
  return CUZK_POREP_OK;
}

static uint64_t num_synth(uint64_t nodes) {
  return nodes < CUZK_POREP_MAX_SYNTH_CHALLENGES ? nodes : CUZK_POREP_MAX_SYNTH_CHALLENGES;
}

cuzk_porep_err cuzk_porep_synth_challenges(uint64_t *out, uint64_t nodes,
                                           const uint8_t replica_id[32], const uint8_t comm_r[32],
                                           uint64_t first, uint64_t count) {
  if ((!out && count) || !replica_id || !comm_r || nodes < 2) return CUZK_POREP_EINVAL;
  uint64_t ns = num_synth(nodes);
  if (first > ns || count > ns - first) return CUZK_POREP_EINVAL;
  uint8_t key[32];
  cuzk_porep_err e = synth_key(key, synth_gen_tag, replica_id, comm_r);
  for (uint64_t done = 0; !e && done < count;) {
    uint8_t ks[32 * 64];
    uint64_t n = count - done < 64 ? count - done : 64;
    e = keystream(ks, 32 * (first + done), (size_t)(32 * n), key);
    for (uint64_t i = 0; !e && i < n; i++)
      out[done + i] = cuzk_porep_bytes_to_challenge(ks + 32 * i, nodes);
    done += n;
  }
  sodium_memzero(key, sizeof key);
  return e;
}

cuzk_porep_err cuzk_porep_synth_select(uint64_t *out, uint64_t num_synth_challenges,
                                       const uint8_t replica_id[32], const uint8_t seed[32],
                                       unsigned partition, unsigned count) {
  if ((!out && count) || !replica_id || !seed || num_synth_challenges == 0)
    return CUZK_POREP_EINVAL;
  uint8_t key[32], ks[4 * 64];
  cuzk_porep_err e = synth_key(key, synth_sel_tag, replica_id, seed);
  for (unsigned done = 0; !e && done < count;) {
    unsigned n = count - done < 64 ? count - done : 64;
    e = keystream(ks, UINT64_C(4) * ((uint64_t)partition * count + done), 4 * (size_t)n, key);
    for (unsigned i = 0; !e && i < n; i++) {
      uint32_t v = (uint32_t)ks[4 * i] | (uint32_t)ks[4 * i + 1] << 8 |
                   (uint32_t)ks[4 * i + 2] << 16 | (uint32_t)ks[4 * i + 3] << 24;
      out[done + i] = v % num_synth_challenges;
    }
    done += n;
  }
  sodium_memzero(key, sizeof key);
  return e;
}

cuzk_porep_err cuzk_porep_challenges_synthetic(uint64_t *out, uint64_t nodes,
                                               const uint8_t replica_id[32],
                                               const uint8_t comm_r[32], const uint8_t seed[32],
                                               unsigned partition, unsigned count) {
  if (nodes < 2 || !comm_r) return CUZK_POREP_EINVAL;
  cuzk_porep_err e =
      cuzk_porep_synth_select(out, num_synth(nodes), replica_id, seed, partition, count);
  for (unsigned i = 0; !e && i < count; i++)
    e = cuzk_porep_synth_challenges(&out[i], nodes, replica_id, comm_r, out[i], 1);
  return e;
}

cuzk_porep_err cuzk_porep_challenges(uint64_t *out, const cuzk_seal_proof *p,
                                     const uint8_t replica_id[32], const uint8_t seed[32],
                                     const uint8_t comm_r[32], unsigned partition) {
  if (!p || !out) return CUZK_POREP_EINVAL;
  if (partition >= cuzk_seal_proof_partitions(p)) return CUZK_POREP_EPARTITION;
  unsigned c = cuzk_seal_proof_challenges_per_partition(p);
  uint64_t n = p->sector->nodes;
  switch (cuzk_seal_proof_challenge_kind(p)) {
  case CUZK_CHALLENGES_INTERACTIVE:
    return cuzk_porep_challenges_interactive(out, n, replica_id, seed, partition, c);
  case CUZK_CHALLENGES_NON_INTERACTIVE:
    return cuzk_porep_challenges_ni(out, n, replica_id, comm_r, partition, c);
  case CUZK_CHALLENGES_SYNTHETIC:
    return cuzk_porep_challenges_synthetic(out, n, replica_id, comm_r, seed, partition, c);
  }
  return CUZK_POREP_EINVAL;
}
