/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* insertion.rs `select` and the generic `insert` (docs/spec/porep-circuit.md §2.10): not used by
 * PoRep's trees (sizes 2, 4, 8 have hand-written forms in insert.c), kept so every tree arity the
 * reference accepts synthesizes the same R1CS. */
#include "cuzk/r1cs/gadgets.h"

/* Halving from the most significant bit: state[j] = pick(bit, state[half + j], state[j]). */
cuzk_r1cs_err cuzk_gadget_select(cuzk_cs *cs, cuzk_num *out, const cuzk_num *from,
                                 const cuzk_bool *bits, unsigned nbits) {
  if (nbits == 0 || nbits > CUZK_SELECT_MAX_LOG) return CUZK_R1CS_EINVAL;
  cuzk_num state[1u << CUZK_SELECT_MAX_LOG];
  unsigned half = 1u << (nbits - 1);
  for (unsigned j = 0; j < 2 * half; j++)
    state[j] = from[j];
  for (unsigned i = 0; i < nbits; i++, half /= 2) {
    cuzk_cs_push(cs, "select %u", i);
    for (unsigned j = 0; j < half; j++)
      state[j] = cuzk_gadget_pick(cs, bits[nbits - 1 - i], &state[half + j], &state[j]);
    cuzk_cs_pop(cs);
  }
  *out = state[0];
  return CUZK_R1CS_OK;
}

/* Output position pos selects, by the index bits, among "x inserted at index" for every index:
 * choice[index] = siblings[pos] if pos < index, x if pos == index, siblings[pos - 1] after. */
cuzk_r1cs_err cuzk_gadget_insert_generic(cuzk_cs *cs, cuzk_num *out, const cuzk_num *x,
                                         const cuzk_bool *bits, const cuzk_num *siblings,
                                         unsigned nbits) {
  if (nbits == 0 || nbits > CUZK_INSERT_MAX_LOG) return CUZK_R1CS_EINVAL;
  unsigned size = 1u << nbits;
  cuzk_num res[1u << CUZK_INSERT_MAX_LOG], choice[1u << CUZK_INSERT_MAX_LOG];
  for (unsigned pos = 0; pos < size; pos++) {
    for (unsigned index = 0; index < size; index++)
      choice[index] = pos < index ? siblings[pos] : pos == index ? *x : siblings[pos - 1];
    cuzk_cs_push(cs, "choice at %u", pos);
    cuzk_gadget_select(cs, &res[pos], choice, bits, nbits);
    cuzk_cs_pop(cs);
  }
  for (unsigned pos = 0; pos < size; pos++)
    out[pos] = res[pos];
  return CUZK_R1CS_OK;
}
