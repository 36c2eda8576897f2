/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* UInt32 (bellperson uint32.rs; docs/spec/porep-circuit.md §2.3): 32 Booleans, LSB first. Rotations
 * and shifts only move Booleans; xor/ch/maj run the Boolean gadget bit by bit (bit 0 first);
 * addmany sums operands into freshly allocated result bits, checked through a MultiEq. */
#include <assert.h>

#include "r1cs/gadgets/bool_ops.h"

void cuzk_u32_const(cuzk_u32 *r, uint32_t v) {
  for (int i = 0; i < 32; i++)
    r->bits[i] = cuzk_bool_const((v >> i) & 1);
}

void cuzk_u32_from_bits_be(cuzk_u32 *r, const cuzk_bool bits[32]) {
  for (int i = 0; i < 32; i++)
    r->bits[i] = bits[31 - i];
}

void cuzk_u32_into_bits_be(cuzk_bool out[32], const cuzk_u32 *x) {
  for (int i = 0; i < 32; i++)
    out[i] = x->bits[31 - i];
}

uint32_t cuzk_u32_value(const cuzk_u32 *x) {
  uint32_t v = 0;
  for (int i = 0; i < 32; i++)
    v |= (uint32_t)(x->bits[i].value & 1) << i;
  return v;
}

void cuzk_u32_rotr(cuzk_u32 *r, const cuzk_u32 *x, unsigned by) {
  for (unsigned i = 0; i < 32; i++)
    r->bits[i] = x->bits[(i + by) % 32];
}

void cuzk_u32_shr(cuzk_u32 *r, const cuzk_u32 *x, unsigned by) {
  by %= 32; /* as bellperson */
  for (unsigned i = 0; i < 32; i++)
    r->bits[i] = i + by < 32 ? x->bits[i + by] : cuzk_bool_const(false);
}

/* r may alias a, b or c in the bitwise gadgets: bit i is read before it is written. */
void cuzk_u32_xor(cuzk_cs *cs, cuzk_u32 *r, const cuzk_u32 *a, const cuzk_u32 *b) {
  bool names = g_names(cs);
  for (int i = 0; i < 32; i++) {
    if (names) cuzk_cs_push(cs, "xor of bit %d", i);
    r->bits[i] = g_xor(cs, a->bits[i], b->bits[i]);
    if (names) cuzk_cs_pop(cs);
  }
}

void cuzk_u32_sha256_ch(cuzk_cs *cs, cuzk_u32 *r, const cuzk_u32 *a, const cuzk_u32 *b,
                        const cuzk_u32 *c) {
  bool names = g_names(cs);
  for (int i = 0; i < 32; i++) {
    if (names) cuzk_cs_push(cs, "ch %d", i);
    r->bits[i] = g_ch(cs, a->bits[i], b->bits[i], c->bits[i]);
    if (names) cuzk_cs_pop(cs);
  }
}

void cuzk_u32_sha256_maj(cuzk_cs *cs, cuzk_u32 *r, const cuzk_u32 *a, const cuzk_u32 *b,
                         const cuzk_u32 *c) {
  bool names = g_names(cs);
  for (int i = 0; i < 32; i++) {
    if (names) cuzk_cs_push(cs, "maj %d", i);
    r->bits[i] = g_maj(cs, a->bits[i], b->bits[i], c->bits[i]);
    if (names) cuzk_cs_pop(cs);
  }
}

/*
 * lhs = Σ_ops Σ_k 2^(k+s) lc(op[k]) and rhs = Σ_k 2^(k+s) r_k, s = the MultiEq shift, so the
 * batch needs no scaling. The constant part (constant-true and negated bits) is summed as an
 * integer (< 10 · 2^32) and added as its binary digits 2^(j+s): table additions, no products.
 */
void cuzk_u32_addmany(cuzk_multieq *m, cuzk_u32 *r, const cuzk_u32 *const *ops, unsigned n) {
  assert(n >= 2 && n <= 10);
  cuzk_cs *cs = m->cs;
  uint64_t sum = 0;
  bool all_const = true;
  for (unsigned o = 0; o < n; o++) {
    const cuzk_bool *bits = ops[o]->bits;
    uint32_t v = 0;
    for (int k = 0; k < 32; k++) {
      v |= (uint32_t)(bits[k].value & 1) << k;
      all_const &= bits[k].kind == CUZK_BOOL_CONST;
    }
    sum += v;
  }
  if (all_const) {
    /* a constant result: no aux, no constraint */
    cuzk_u32_const(r, (uint32_t)sum);
    return;
  }
  /* nbits = bit length of n (2^32 - 1) */
  unsigned nbits = 0;
  for (uint64_t max = (uint64_t)n * 0xffffffffu; max; max >>= 1)
    nbits++;
  unsigned s = cuzk_multieq_shift(m, nbits);

  cuzk_lc lhs, rhs;
  cuzk_lc_init(&lhs, cs);
  cuzk_lc_init(&rhs, cs);
  bool lcs = g_lcs(cs);
  if (lcs) {
    uint64_t ones = 0; /* Σ 2^k over constant-true and negated bits */
    for (unsigned o = 0; o < n; o++) {
      const cuzk_bool *bits = ops[o]->bits;
      for (unsigned k = 0; k < 32; k++) {
        cuzk_bool b = bits[k];
        if (b.kind == CUZK_BOOL_IS) {
          cuzk_lc_add(&lhs, b.var, &cuzk_pow2[k + s]);
        } else if (b.kind == CUZK_BOOL_NOT) {
          ones += (uint64_t)1 << k;
          cuzk_lc_add(&lhs, b.var, &cuzk_neg_pow2[k + s]);
        } else {
          ones += (uint64_t)b.value << k;
        }
      }
    }
    for (unsigned j = 0; ones; j++, ones >>= 1)
      if (ones & 1) cuzk_lc_add(&lhs, CUZK_VAR_ONE, &cuzk_pow2[j + s]);
  }

  bool hv = cuzk_cs_has_values(cs), names = g_names(cs);
  for (unsigned k = 0; k < nbits; k++) {
    if (names) cuzk_cs_push(cs, "result bit %u", k);
    cuzk_bool b = g_bit_alloc(cs, hv ? (unsigned)(sum >> k) & 1 : 0);
    if (names) cuzk_cs_pop(cs);
    if (lcs) cuzk_lc_add(&rhs, b.var, &cuzk_pow2[k + s]);
    if (k < 32) r->bits[k] = b;
  }
  cuzk_multieq_enforce_equal(m, nbits, &lhs, &rhs);
}
