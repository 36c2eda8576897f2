/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* UInt64 (storage-proofs-core gadgets/uint64.rs; docs/spec/porep-circuit.md §2.9): 64 Booleans,
 * least significant first. */
#include "cuzk/r1cs/gadgets.h"

void cuzk_u64_alloc(cuzk_cs *cs, cuzk_bool out[64], uint64_t value) {
  for (unsigned i = 0; i < 64; i++)
    out[i] = cuzk_bit_alloc(cs, (value >> i) & 1);
}

void cuzk_u64_const(cuzk_bool out[64], uint64_t value) {
  for (unsigned i = 0; i < 64; i++)
    out[i] = cuzk_bool_const((value >> i) & 1);
}

/* One public input whose value is the u64 itself (the bits LSB first fit one 254-bit chunk). */
void cuzk_u64_pack_into_input(cuzk_cs *cs, const cuzk_bool bits[64]) {
  cuzk_multipack_pack_into_inputs(cs, bits, 64);
}
