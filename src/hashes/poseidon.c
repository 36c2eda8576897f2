/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Poseidon hashing front end: domain tags (docs/spec/poseidon.md §5), tree/column hashes,
 * Filecoin's byte encoding, and neptune's constant-length sponge. */
#include <string.h>

#include "hashes/poseidon_internal.h"

void cuzk_poseidon_tag_merkle(cuzk_fr *tag, unsigned arity) {
  /* 64-bit shift: arity 36 needs it (docs/spec/poseidon.md §9.8) */
  cuzk_fr_from_u64(tag, arity >= 64 ? UINT64_MAX : ((uint64_t)1 << arity) - 1);
}

void cuzk_poseidon_tag_constant_length(cuzk_fr *tag, uint64_t len) {
  const uint64_t x[4] = {0, len, 0, 0};
  (void)cuzk_fr_from_canonical(tag, x); /* < 2^128 < r */
}

void cuzk_poseidon_tag_encryption(cuzk_fr *tag) { cuzk_fr_from_u64(tag, (uint64_t)1 << 32); }

cuzk_hash_err cuzk_poseidon_tag_custom(cuzk_fr *tag, unsigned id) {
  if (!tag || id < 1 || id > 256) return CUZK_HASH_EINVAL;
  cuzk_fr_from_u64(tag, (uint64_t)id << 40);
  return CUZK_HASH_OK;
}

static void load_state(cuzk_fr *s, const cuzk_poseidon_params *p, const cuzk_fr *tag,
                       const cuzk_fr *in) {
  s[0] = *tag;
  memcpy(&s[1], in, p->arity * sizeof(cuzk_fr));
}

void cuzk_poseidon_hash_tagged(cuzk_fr *out, const cuzk_poseidon_params *p, const cuzk_fr *tag,
                               const cuzk_fr *in) {
  cuzk_fr s[CUZK_POSEIDON_MAX_WIDTH];
  load_state(s, p, tag, in);
  cuzk_poseidon_permute_static(p, s, true);
  *out = s[1];
}

void cuzk_poseidon_hash_tagged_reference(cuzk_fr *out, const cuzk_poseidon_params *p,
                                         const cuzk_fr *tag, const cuzk_fr *in) {
  cuzk_fr s[CUZK_POSEIDON_MAX_WIDTH];
  load_state(s, p, tag, in);
  cuzk_poseidon_permute_reference(p, s);
  *out = s[1];
}

void cuzk_poseidon_hash_many(cuzk_fr *out, const cuzk_poseidon_params *p, const cuzk_fr *tag,
                             const cuzk_fr *in, size_t n) {
  for (size_t k = 0; k < n; k++)
    cuzk_poseidon_hash_tagged(&out[k], p, tag, &in[k * p->arity]);
}

cuzk_hash_err cuzk_poseidon_hash(cuzk_fr *out, unsigned arity, const cuzk_fr *in) {
  if (!out || !in) return CUZK_HASH_EINVAL;
  const cuzk_poseidon_params *p;
  cuzk_hash_err err = cuzk_poseidon_params_get(&p, arity);
  if (err != CUZK_HASH_OK) return err;
  cuzk_poseidon_hash_tagged(out, p, &p->merkle_tag, in);
  return CUZK_HASH_OK;
}

cuzk_hash_err cuzk_poseidon_hash_bytes(uint8_t out[32], unsigned arity, const uint8_t *in) {
  if (!out || !in) return CUZK_HASH_EINVAL;
  const cuzk_poseidon_params *p;
  cuzk_hash_err err = cuzk_poseidon_params_get(&p, arity);
  if (err != CUZK_HASH_OK) return err;
  cuzk_fr x[CUZK_POSEIDON_MAX_ARITY], h;
  for (unsigned i = 0; i < arity; i++)
    if (!cuzk_fr_from_bytes(&x[i], in + 32 * i)) return CUZK_HASH_ENONCANON;
  cuzk_poseidon_hash_tagged(&h, p, &p->merkle_tag, x);
  cuzk_fr_to_bytes(out, &h);
  return CUZK_HASH_OK;
}

/* neptune sponge/vanilla.rs in simplex mode, reduced to "absorb n, squeeze 1": absorbing adds
 * into state[1 + pos] and permutes when a block of arity elements is full; squeezing pads a
 * partial block by overwriting its unused positions with 0 and permutes; output state[1]. */
cuzk_hash_err cuzk_poseidon_sponge_constant_length(cuzk_fr *out, unsigned arity, const cuzk_fr *in,
                                                   size_t n) {
  if (!out || !in || n == 0) return CUZK_HASH_EINVAL;
  const cuzk_poseidon_params *p;
  cuzk_hash_err err = cuzk_poseidon_params_get(&p, arity);
  if (err != CUZK_HASH_OK) return err;
  cuzk_fr s[CUZK_POSEIDON_MAX_WIDTH];
  cuzk_poseidon_tag_constant_length(&s[0], n);
  for (unsigned i = 1; i <= arity; i++)
    s[i] = cuzk_fr_zero;
  unsigned pos = 0;
  for (size_t k = 0; k < n; k++) {
    cuzk_fr_add(&s[1 + pos], &s[1 + pos], &in[k]);
    if (++pos == arity) {
      cuzk_poseidon_permute_static(p, s, false);
      pos = 0;
    }
  }
  if (pos > 0) {
    for (unsigned i = 1 + pos; i <= arity; i++)
      s[i] = cuzk_fr_zero;
    cuzk_poseidon_permute_static(p, s, false);
  }
  *out = s[1];
  return CUZK_HASH_OK;
}
