/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* AllocatedNum (bellpepper-core num.rs; docs/spec/porep-circuit.md §2.7): alloc (of a value or
 * of 32 bytes), inputize,
 * to_bits_le, mul, square. Values are computed only when the constraint system keeps them. */
#include "cuzk/r1cs/gadgets.h"

cuzk_num cuzk_num_alloc(cuzk_cs *cs, const cuzk_fr *value) {
  cuzk_num r;
  bool hv = cuzk_cs_has_values(cs);
  r.value = hv ? *value : cuzk_fr_zero;
  r.var = cuzk_cs_alloc(cs, hv ? &r.value : NULL);
  return r;
}

cuzk_num cuzk_num_alloc_bytes(cuzk_cs *cs, const uint8_t *b) {
  cuzk_fr f = cuzk_fr_zero;
  if (b && cuzk_cs_has_values(cs) && !cuzk_fr_from_bytes(&f, b)) f = cuzk_fr_zero;
  return cuzk_num_alloc(cs, &f);
}

cuzk_var cuzk_num_inputize(cuzk_cs *cs, const cuzk_num *x) {
  cuzk_var u = cuzk_cs_alloc_input(cs, cuzk_cs_has_values(cs) ? &x->value : NULL);
  cuzk_lc a, b, c;
  cuzk_lc_init(&a, cs);
  cuzk_lc_init(&b, cs);
  cuzk_lc_init(&c, cs);
  cuzk_lc_add(&a, u, NULL);
  cuzk_lc_add(&b, CUZK_VAR_ONE, NULL);
  cuzk_lc_add(&c, x->var, NULL);
  cuzk_cs_enforce(cs, "enforce input", &a, &b, &c);
  return u;
}

/* The honest witness is the canonical integer's bits; the constraint alone is no range check
 * (any 255-bit representative of the value satisfies it, as in bellpepper). */
void cuzk_num_to_bits_le(cuzk_cs *cs, cuzk_bool out[255], const cuzk_num *x) {
  uint64_t w[4] = {0, 0, 0, 0};
  if (cuzk_cs_has_values(cs)) cuzk_fr_to_canonical(w, &x->value);
  for (unsigned i = 0; i < 255; i++)
    out[i] = cuzk_bit_alloc(cs, (w[i / 64] >> (i % 64)) & 1);
  cuzk_lc c;
  cuzk_lc_init(&c, cs);
  if (cuzk_lc_active(&c)) {
    for (unsigned i = 0; i < 255; i++)
      cuzk_lc_add(&c, out[i].var, &cuzk_pow2[i]);
    cuzk_lc_sub(&c, x->var, NULL);
  }
  cuzk_cs_enforce(cs, "unpacking constraint", NULL, NULL, &c);
}

/* r = a b: alloc r; (a ; b ; r). Squaring is the same constraint with b = a. */
static cuzk_num product(cuzk_cs *cs, const char *name, const cuzk_num *a, const cuzk_num *b) {
  cuzk_num r;
  bool hv = cuzk_cs_has_values(cs);
  if (hv)
    cuzk_fr_mul(&r.value, &a->value, &b->value);
  else
    r.value = cuzk_fr_zero;
  r.var = cuzk_cs_alloc(cs, hv ? &r.value : NULL);
  cuzk_lc la, lb, lc;
  cuzk_lc_init3(&la, &lb, &lc, cs);
  cuzk_lc_add(&la, a->var, NULL);
  cuzk_lc_add(&lb, b->var, NULL);
  cuzk_lc_add(&lc, r.var, NULL);
  cuzk_cs_enforce(cs, name, &la, &lb, &lc);
  return r;
}

cuzk_num cuzk_num_mul(cuzk_cs *cs, const cuzk_num *a, const cuzk_num *b) {
  return product(cs, "multiplication constraint", a, b);
}

cuzk_num cuzk_num_square(cuzk_cs *cs, const cuzk_num *a) {
  return product(cs, "squaring constraint", a, a);
}
