/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* storage-proofs-core xor.rs: a bit string xor-ed with a repeating 256-bit key, one Boolean xor
 * per input bit (input bit first, i.e. on the A side). Not used by PoRep. */
#include "cuzk/r1cs/gadgets.h"

void cuzk_gadget_xor_key(cuzk_cs *cs, cuzk_bool *out, const cuzk_bool key[256], const cuzk_bool *in,
                         size_t n) {
  for (size_t i = 0; i < n; i++) {
    cuzk_cs_push(cs, "xor bit: %zu", i);
    out[i] = cuzk_bool_xor(cs, in[i], key[i % 256]);
    cuzk_cs_pop(cs);
  }
}
