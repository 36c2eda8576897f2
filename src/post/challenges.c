/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* PoSt challenges (docs/post.md "Challenges"): the leaf of a challenge index, the index rule of
 * each API version, one sector's list, and the chain's Winning sector selection. */
#include <string.h>

#include "cuzk/hashes/sha256.h"
#include "post/post_internal.h"

static void put_u64_le(uint8_t *out, uint64_t v) {
  for (int i = 0; i < 8; i++)
    out[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_u64_le(const uint8_t *in) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--)
    v = v << 8 | in[i];
  return v;
}

/* u64 LE of SHA-256(a[32] ‖ b[32 or 8] ‖ c u64 LE)[0..8]: both derivations share this form. */
static uint64_t hash_u64(const uint8_t *a, const uint8_t *b, size_t b_len, uint64_t c) {
  uint8_t buf[32 + 32 + 8], h[32];
  memcpy(buf, a, 32);
  memcpy(buf + 32, b, b_len);
  put_u64_le(buf + 32 + b_len, c);
  cuzk_sha256(h, buf, 32 + b_len + 8);
  return get_u64_le(h);
}

uint64_t cuzk_post_leaf_challenge(const uint8_t randomness[32], uint64_t sector_id,
                                  uint64_t challenge_index, uint64_t nodes) {
  if (!randomness || !nodes) return 0;
  uint8_t id[8];
  put_u64_le(id, sector_id);
  return hash_u64(randomness, id, 8, challenge_index) % nodes;
}

uint64_t cuzk_post_challenge_index(cuzk_api_version v, uint64_t sector_index, unsigned per_sector,
                                   unsigned n) {
  /* V1_2_0 dropped the sector's position so a prover cannot grind it by reordering sectors */
  if (v == CUZK_API_V1_2_0) return n;
  return sector_index * per_sector + n;
}

void cuzk_post_sector_challenges(uint64_t *out, const cuzk_post_proof *p,
                                 const uint8_t randomness[32], uint64_t sector_id,
                                 uint64_t sector_index) {
  if (!out || !p || !p->sector || !randomness) return;
  /* the vanilla (API) view: C = p->vanilla_challenges per sector */
  for (unsigned n = 0; n < p->vanilla_challenges; n++) {
    uint64_t ci = cuzk_post_challenge_index(p->api, sector_index, p->vanilla_challenges, n);
    out[n] = cuzk_post_leaf_challenge(randomness, sector_id, ci, p->sector->nodes);
  }
}

uint64_t cuzk_post_winning_sector(const uint8_t prover_id[32], const uint8_t randomness[32],
                                  uint64_t n, uint64_t sector_set_len) {
  if (!prover_id || !randomness || !sector_set_len) return 0;
  return hash_u64(prover_id, randomness, 32, n) % sector_set_len;
}
