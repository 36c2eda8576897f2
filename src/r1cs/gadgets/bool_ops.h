/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The AllocatedBit and Boolean gadget bodies (docs/spec/porep-circuit.md §2.1-2.2), inline:
 * boolean.c exports them, and the per-bit loops of the UInt32 gadgets (uint32.c) use them directly,
 * so a bit costs no call beyond the constraint system's own alloc and enforce.
 *
 * Values: a Boolean's value field is its value with negation applied; the AllocatedBit
 * operations work on the underlying bits (g_bitval). Values are computed unconditionally (a few
 * byte operations); without witness values they are meaningless and never read.
 */
#ifndef CUZK_R1CS_GADGETS_BOOL_OPS_H
#define CUZK_R1CS_GADGETS_BOOL_OPS_H

#include "cuzk/r1cs/gadgets.h"

static inline const cuzk_cs_head *g_head(const cuzk_cs *cs) {
  return (const cuzk_cs_head *)(const void *)cs;
}
/* Whether LCs are built at all (WITNESS and plain SHAPE skip them: enforce then only counts). */
static inline bool g_lcs(const cuzk_cs *cs) { return g_head(cs)->build_lcs != 0; }
/* Whether names are kept (CHECK): per-bit namespaces are pushed only then. */
static inline bool g_names(const cuzk_cs *cs) { return g_head(cs)->keep_names != 0; }

/* The value of the allocated bit behind an IS/NOT Boolean. */
static inline unsigned g_bitval(cuzk_bool b) { return b.value ^ (b.kind == CUZK_BOOL_NOT); }

static inline cuzk_bool g_is(cuzk_var v, unsigned value) {
  cuzk_bool r = {v, CUZK_BOOL_IS, (uint8_t)(value & 1)};
  return r;
}

/* lc += 2^e lc(b) and lc -= 2^e lc(b) (docs/spec/porep-circuit.md §1.6), coefficients from the
 * power tables. */
static inline void g_lc_add_bool(cuzk_lc *lc, cuzk_bool b, unsigned e) {
  switch (b.kind) {
  case CUZK_BOOL_CONST:
    if (b.value) cuzk_lc_add(lc, CUZK_VAR_ONE, &cuzk_pow2[e]);
    break;
  case CUZK_BOOL_IS: cuzk_lc_add(lc, b.var, &cuzk_pow2[e]); break;
  default:
    cuzk_lc_add(lc, CUZK_VAR_ONE, &cuzk_pow2[e]);
    cuzk_lc_add(lc, b.var, &cuzk_neg_pow2[e]);
    break;
  }
}
static inline void g_lc_sub_bool(cuzk_lc *lc, cuzk_bool b, unsigned e) {
  switch (b.kind) {
  case CUZK_BOOL_CONST:
    if (b.value) cuzk_lc_add(lc, CUZK_VAR_ONE, &cuzk_neg_pow2[e]);
    break;
  case CUZK_BOOL_IS: cuzk_lc_add(lc, b.var, &cuzk_neg_pow2[e]); break;
  default:
    cuzk_lc_add(lc, CUZK_VAR_ONE, &cuzk_neg_pow2[e]);
    cuzk_lc_add(lc, b.var, &cuzk_pow2[e]);
    break;
  }
}

static inline void g_lc_init3(cuzk_cs *cs, cuzk_lc *a, cuzk_lc *b, cuzk_lc *c) {
  cuzk_lc_init(a, cs);
  cuzk_lc_init(b, cs);
  cuzk_lc_init(c, cs);
}

/* ---- AllocatedBit (docs/spec/porep-circuit.md §2.1): a, b the bits' variables, v the result */

/* alloc a; (ONE - a ; a ; ∅) */
static inline cuzk_bool g_bit_alloc(cuzk_cs *cs, unsigned v) {
  cuzk_var a = cuzk_cs_alloc_bit(cs, v & 1);
  if (!g_lcs(cs)) {
    cuzk_cs_enforce(cs, "boolean constraint", NULL, NULL, NULL);
  } else {
    cuzk_lc A, B;
    cuzk_lc_init(&A, cs);
    cuzk_lc_init(&B, cs);
    cuzk_lc_add(&A, CUZK_VAR_ONE, NULL);
    cuzk_lc_add(&A, a, &cuzk_neg_pow2[0]);
    cuzk_lc_add(&B, a, NULL);
    cuzk_cs_enforce(cs, "boolean constraint", &A, &B, NULL);
  }
  return g_is(a, v);
}

/* alloc c; (2a ; b ; a + b - c). a + a merges to 2a; a + b merges to 2a when a == b. */
static inline cuzk_bool g_bit_xor(cuzk_cs *cs, cuzk_var a, cuzk_var b, unsigned v) {
  cuzk_var c = cuzk_cs_alloc_bit(cs, v & 1);
  if (!g_lcs(cs)) {
    cuzk_cs_enforce(cs, "xor constraint", NULL, NULL, NULL);
  } else {
    cuzk_lc A, B, C;
    g_lc_init3(cs, &A, &B, &C);
    cuzk_lc_add(&A, a, &cuzk_pow2[1]);
    cuzk_lc_add(&B, b, NULL);
    cuzk_lc_add(&C, a, NULL);
    cuzk_lc_add(&C, b, NULL);
    cuzk_lc_add(&C, c, &cuzk_neg_pow2[0]);
    cuzk_cs_enforce(cs, "xor constraint", &A, &B, &C);
  }
  return g_is(c, v);
}

/* The three AND forms: alloc c; (na ? ONE - a : a ; nb ? ONE - b : b ; c). */
static inline cuzk_bool g_bit_and_form(cuzk_cs *cs, cuzk_var a, bool na, cuzk_var b, bool nb,
                                       unsigned v, const char *name) {
  cuzk_var c = cuzk_cs_alloc_bit(cs, v & 1);
  if (!g_lcs(cs)) {
    cuzk_cs_enforce(cs, name, NULL, NULL, NULL);
  } else {
    cuzk_lc A, B, C;
    g_lc_init3(cs, &A, &B, &C);
    if (na) {
      cuzk_lc_add(&A, CUZK_VAR_ONE, NULL);
      cuzk_lc_add(&A, a, &cuzk_neg_pow2[0]);
    } else {
      cuzk_lc_add(&A, a, NULL);
    }
    if (nb) {
      cuzk_lc_add(&B, CUZK_VAR_ONE, NULL);
      cuzk_lc_add(&B, b, &cuzk_neg_pow2[0]);
    } else {
      cuzk_lc_add(&B, b, NULL);
    }
    cuzk_lc_add(&C, c, NULL);
    cuzk_cs_enforce(cs, name, &A, &B, &C);
  }
  return g_is(c, v);
}

/* ---- Boolean with bellpepper's constant folding (docs/spec/porep-circuit.md §2.2) --------- */

/* Any constant operand decides the result without a constraint: the rules "a false -> b,
 * b false -> a, a true -> !b, b true -> !a" in that order give the same Boolean as below (when
 * both are constants every rule yields the same constant). */
static inline cuzk_bool g_xor(cuzk_cs *cs, cuzk_bool a, cuzk_bool b) {
  if (a.kind == CUZK_BOOL_CONST) return a.value ? cuzk_bool_not(b) : b;
  if (b.kind == CUZK_BOOL_CONST) return b.value ? cuzk_bool_not(a) : a;
  unsigned v = a.value ^ b.value;
  if (a.kind != b.kind) {
    /* Is with Not: xor(is, the Not's bit), negated; the Is operand is the A-side argument */
    cuzk_bool is = a.kind == CUZK_BOOL_IS ? a : b, nt = a.kind == CUZK_BOOL_IS ? b : a;
    cuzk_bool c = g_bit_xor(cs, is.var, nt.var, v ^ 1);
    return cuzk_bool_not(c);
  }
  /* Is, Is or Not, Not: xor of the bits in the original order */
  return g_bit_xor(cs, a.var, b.var, v);
}

static inline cuzk_bool g_and(cuzk_cs *cs, cuzk_bool a, cuzk_bool b) {
  if ((a.kind == CUZK_BOOL_CONST && !a.value) || (b.kind == CUZK_BOOL_CONST && !b.value))
    return cuzk_bool_const(false);
  if (a.kind == CUZK_BOOL_CONST) return b;
  if (b.kind == CUZK_BOOL_CONST) return a;
  unsigned v = a.value & b.value;
  if (a.kind != b.kind) {
    /* and_not(is, not): (is ; ONE - not ; c) */
    cuzk_bool is = a.kind == CUZK_BOOL_IS ? a : b, nt = a.kind == CUZK_BOOL_IS ? b : a;
    return g_bit_and_form(cs, is.var, false, nt.var, true, v, "and not constraint");
  }
  if (a.kind == CUZK_BOOL_NOT)
    return g_bit_and_form(cs, a.var, true, b.var, true, v, "nor constraint");
  return g_bit_and_form(cs, a.var, false, b.var, false, v, "and constraint");
}

static inline bool g_is_const(cuzk_bool x, unsigned v) {
  return x.kind == CUZK_BOOL_CONST && x.value == v;
}

/* ch = (a & b) ^ (!a & c) */
static inline cuzk_bool g_ch(cuzk_cs *cs, cuzk_bool a, cuzk_bool b, cuzk_bool c) {
  unsigned v = (a.value & b.value) ^ ((a.value ^ 1) & c.value);
  if (a.kind == CUZK_BOOL_CONST && b.kind == CUZK_BOOL_CONST && c.kind == CUZK_BOOL_CONST)
    return cuzk_bool_const(v);
  if (g_is_const(a, 0)) return c;
  if (g_is_const(b, 0)) return g_and(cs, cuzk_bool_not(a), c);
  if (g_is_const(c, 0)) return g_and(cs, a, b);
  if (g_is_const(c, 1)) return cuzk_bool_not(g_and(cs, a, cuzk_bool_not(b)));
  if (g_is_const(b, 1)) return cuzk_bool_not(g_and(cs, cuzk_bool_not(a), cuzk_bool_not(c)));
  /* general case (a may be Const(true): then lc(a) = ONE): alloc ch;
   * (lc(b) - lc(c) ; lc(a) ; ch - lc(c)) */
  cuzk_var ch = cuzk_cs_alloc_bit(cs, v);
  if (!g_lcs(cs)) {
    cuzk_cs_enforce(cs, "ch computation", NULL, NULL, NULL);
  } else {
    cuzk_lc A, B, C;
    g_lc_init3(cs, &A, &B, &C);
    g_lc_add_bool(&A, b, 0);
    g_lc_sub_bool(&A, c, 0);
    g_lc_add_bool(&B, a, 0);
    cuzk_lc_add(&C, ch, NULL);
    g_lc_sub_bool(&C, c, 0);
    cuzk_cs_enforce(cs, "ch computation", &A, &B, &C);
  }
  return g_is(ch, v);
}

/* maj = (a & b) ^ (a & c) ^ (b & c) */
static inline cuzk_bool g_maj(cuzk_cs *cs, cuzk_bool a, cuzk_bool b, cuzk_bool c) {
  unsigned v = (a.value & b.value) ^ (a.value & c.value) ^ (b.value & c.value);
  if (a.kind == CUZK_BOOL_CONST && b.kind == CUZK_BOOL_CONST && c.kind == CUZK_BOOL_CONST)
    return cuzk_bool_const(v);
  if (g_is_const(a, 0)) return g_and(cs, b, c);
  if (g_is_const(b, 0)) return g_and(cs, a, c);
  if (g_is_const(c, 0)) return g_and(cs, a, b);
  if (g_is_const(c, 1)) return cuzk_bool_not(g_and(cs, cuzk_bool_not(a), cuzk_bool_not(b)));
  if (g_is_const(b, 1)) return cuzk_bool_not(g_and(cs, cuzk_bool_not(a), cuzk_bool_not(c)));
  if (g_is_const(a, 1)) return cuzk_bool_not(g_and(cs, cuzk_bool_not(b), cuzk_bool_not(c)));
  /* general case, in bellpepper's order: alloc maj, then bc = and(b, c) (its aux and
   * constraint), then (2 lc(bc) - lc(b) - lc(c) ; lc(a) ; lc(bc) - maj) */
  cuzk_var maj = cuzk_cs_alloc_bit(cs, v);
  if (g_names(cs)) cuzk_cs_push(cs, "b and c");
  cuzk_bool bc = g_and(cs, b, c);
  if (g_names(cs)) cuzk_cs_pop(cs);
  if (!g_lcs(cs)) {
    cuzk_cs_enforce(cs, "maj computation", NULL, NULL, NULL);
  } else {
    cuzk_lc A, B, C;
    g_lc_init3(cs, &A, &B, &C);
    g_lc_add_bool(&A, bc, 1);
    g_lc_sub_bool(&A, b, 0);
    g_lc_sub_bool(&A, c, 0);
    g_lc_add_bool(&B, a, 0);
    g_lc_add_bool(&C, bc, 0);
    cuzk_lc_add(&C, maj, &cuzk_neg_pow2[0]);
    cuzk_cs_enforce(cs, "maj computation", &A, &B, &C);
  }
  return g_is(maj, v);
}

#endif
