/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* AllocatedBit and Boolean (bellpepper-core boolean.rs; docs/spec/porep-circuit.md §2.1-2.2): the
 * exported entry points over the inline bodies in bool_ops.h, and the Boolean LC helpers. */
#include "r1cs/gadgets/bool_ops.h"

cuzk_bool cuzk_bit_alloc(cuzk_cs *cs, bool value) {
  return g_bit_alloc(cs, cuzk_cs_has_values(cs) && value);
}

cuzk_bool cuzk_bit_xor(cuzk_cs *cs, cuzk_bool a, cuzk_bool b) {
  return g_bit_xor(cs, a.var, b.var, g_bitval(a) ^ g_bitval(b));
}

cuzk_bool cuzk_bit_and(cuzk_cs *cs, cuzk_bool a, cuzk_bool b) {
  return g_bit_and_form(cs, a.var, false, b.var, false, g_bitval(a) & g_bitval(b),
                        "and constraint");
}

cuzk_bool cuzk_bit_and_not(cuzk_cs *cs, cuzk_bool a, cuzk_bool b) {
  return g_bit_and_form(cs, a.var, false, b.var, true, g_bitval(a) & (g_bitval(b) ^ 1),
                        "and not constraint");
}

cuzk_bool cuzk_bit_nor(cuzk_cs *cs, cuzk_bool a, cuzk_bool b) {
  return g_bit_and_form(cs, a.var, true, b.var, true, (g_bitval(a) | g_bitval(b)) ^ 1,
                        "nor constraint");
}

cuzk_bool cuzk_bool_xor(cuzk_cs *cs, cuzk_bool a, cuzk_bool b) { return g_xor(cs, a, b); }
cuzk_bool cuzk_bool_and(cuzk_cs *cs, cuzk_bool a, cuzk_bool b) { return g_and(cs, a, b); }

cuzk_bool cuzk_bool_sha256_ch(cuzk_cs *cs, cuzk_bool a, cuzk_bool b, cuzk_bool c) {
  return g_ch(cs, a, b, c);
}

cuzk_bool cuzk_bool_sha256_maj(cuzk_cs *cs, cuzk_bool a, cuzk_bool b, cuzk_bool c) {
  return g_maj(cs, a, b, c);
}

void cuzk_lc_add_bool(cuzk_lc *lc, cuzk_bool b, const cuzk_fr *k) {
  if (!k) k = &cuzk_fr_one;
  if (b.kind == CUZK_BOOL_CONST) {
    if (b.value) cuzk_lc_add(lc, CUZK_VAR_ONE, k);
  } else if (b.kind == CUZK_BOOL_IS) {
    cuzk_lc_add(lc, b.var, k);
  } else {
    cuzk_lc_add(lc, CUZK_VAR_ONE, k);
    cuzk_lc_sub(lc, b.var, k);
  }
}

void cuzk_lc_add_bool_pow2(cuzk_lc *lc, cuzk_bool b, unsigned e) { g_lc_add_bool(lc, b, e & 255); }
