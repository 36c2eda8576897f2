/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The small storage-proofs-core gadgets (gadgets/constraint.rs, insertion.rs `pick`;
 * docs/spec/porep-circuit.md §2.10): equality, addition, conditional pick. */
#include "cuzk/r1cs/gadgets.h"

/* a * ONE = b: a on the A side, b on the C side (the direction is part of the R1CS). */
void cuzk_gadget_equal(cuzk_cs *cs, const cuzk_num *a, const cuzk_num *b) {
  cuzk_lc la, lb, lc;
  cuzk_lc_init(&la, cs);
  cuzk_lc_init(&lb, cs);
  cuzk_lc_init(&lc, cs);
  cuzk_lc_add(&la, a->var, NULL);
  cuzk_lc_add(&lb, CUZK_VAR_ONE, NULL);
  cuzk_lc_add(&lc, b->var, NULL);
  cuzk_cs_enforce(cs, "equal", &la, &lb, &lc);
}

/* constraint::add (via sum): alloc r; (a + b ; ONE ; r). a == b merges to 2a. */
cuzk_num cuzk_gadget_add(cuzk_cs *cs, const cuzk_num *a, const cuzk_num *b) {
  cuzk_num r;
  bool hv = cuzk_cs_has_values(cs);
  if (hv)
    cuzk_fr_add(&r.value, &a->value, &b->value);
  else
    r.value = cuzk_fr_zero;
  r.var = cuzk_cs_alloc(cs, hv ? &r.value : NULL);
  cuzk_lc la, lb, lc;
  cuzk_lc_init(&la, cs);
  cuzk_lc_init(&lb, cs);
  cuzk_lc_init(&lc, cs);
  cuzk_lc_add(&la, a->var, NULL);
  cuzk_lc_add(&la, b->var, NULL);
  cuzk_lc_add(&lb, CUZK_VAR_ONE, NULL);
  cuzk_lc_add(&lc, r.var, NULL);
  cuzk_cs_enforce(cs, "sum constraint", &la, &lb, &lc);
  return r;
}

/* c = cond ? a : b, enforced as (b - a) * cond = b - c. */
cuzk_num cuzk_gadget_pick(cuzk_cs *cs, cuzk_bool cond, const cuzk_num *a, const cuzk_num *b) {
  cuzk_num r;
  bool hv = cuzk_cs_has_values(cs);
  r.value = hv ? (cond.value ? a->value : b->value) : cuzk_fr_zero;
  r.var = cuzk_cs_alloc(cs, hv ? &r.value : NULL);
  cuzk_lc la, lb, lc;
  cuzk_lc_init(&la, cs);
  cuzk_lc_init(&lb, cs);
  cuzk_lc_init(&lc, cs);
  cuzk_lc_add(&la, b->var, NULL);
  cuzk_lc_sub(&la, a->var, NULL);
  cuzk_lc_add_bool_pow2(&lb, cond, 0);
  cuzk_lc_add(&lc, b->var, NULL);
  cuzk_lc_sub(&lc, r.var, NULL);
  cuzk_cs_enforce(cs, "pick", &la, &lb, &lc);
  return r;
}
