/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Field elements into and out of the SHA-256 gadget the way Filecoin does it
 * (docs/spec/porep-circuit.md §2.6, §3.3): an element enters as its 32-byte little-endian encoding,
 * a digest leaves as its first 254 bits read little-endian (digest[31] &= 0x3f). */
#include <stdlib.h>
#include <string.h>

#include "cuzk/r1cs/gadgets.h"
#include "r1cs/cs_internal.h"

/* to_bits_le, then a constant 0 as bit 255 (the top bit of byte 31), then MSB first within
 * each byte: after the reversal the constant sits at stream position 248. */
void cuzk_num_to_sha256_bits(cuzk_cs *cs, cuzk_bool out[256], const cuzk_num *x) {
  cuzk_num_to_bits_le(cs, out, x);
  out[255] = cuzk_bool_const(false);
  cuzk_bits_reverse_in_bytes(out, 256);
}

cuzk_num cuzk_sha256_digest_to_num(cuzk_cs *cs, const cuzk_bool digest[256]) {
  cuzk_bool le[256];
  memcpy(le, digest, sizeof le);
  cuzk_bits_reverse_in_bytes(le, 256);
  return cuzk_multipack_pack_bits(cs, le, 254);
}

/* Sha256Function::hash_multi_leaf_circuit: every leaf's bits (to_bits_le in leaf order), one
 * SHA-256 over their concatenation, the digest packed. Comm_d nodes have n = 2. */
cuzk_num cuzk_gadget_sha256_leaves(cuzk_cs *cs, const cuzk_num *leaves, unsigned n) {
  enum { STACK_LEAVES = 8 };
  cuzk_bool stack_bits[STACK_LEAVES * 256], *bits = stack_bits;
  cuzk_num r = {CUZK_VAR_AUX, {{0}}};
  /* more leaves than any Filecoin tree has: the heap, and a sticky error if that fails */
  if (n > STACK_LEAVES && !(bits = malloc((size_t)n * 256 * sizeof *bits))) {
    cs_fail(cs, CUZK_R1CS_ENOMEM);
    return r;
  }
  for (unsigned i = 0; i < n; i++) {
    cuzk_cs_push(cs, "%u_num_into_bits", i);
    cuzk_num_to_sha256_bits(cs, &bits[256 * (size_t)i], &leaves[i]);
    cuzk_cs_pop(cs);
  }
  cuzk_bool digest[256];
  cuzk_cs_push(cs, "hash");
  cuzk_r1cs_err e = cuzk_gadget_sha256(cs, digest, bits, (size_t)n * 256);
  cuzk_cs_pop(cs);
  if (bits != stack_bits) free(bits);
  if (e != CUZK_R1CS_OK) { /* not reached: n * 256 bits are whole bytes */
    cs_fail(cs, e);
    return r;
  }
  return cuzk_sha256_digest_to_num(cs, digest);
}
