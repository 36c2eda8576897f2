/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* MultiEq (bellperson multieq.rs; docs/spec/porep-circuit.md §2.4): packs several n-bit equalities
 * lhs = rhs into one constraint (Σ 2^shift lhs ; ONE ; Σ 2^shift rhs) while they fit in the
 * field's 254-bit capacity. Callers scale their LCs by 2^cuzk_multieq_shift themselves (from the
 * power tables), so appending here is a plain copy of terms. */
#include <assert.h>
#include <string.h>

#include "r1cs/gadgets/bool_ops.h"

#define MULTIEQ_CAPACITY 254 /* Fr::CAPACITY */

void cuzk_multieq_init(cuzk_multieq *m, cuzk_cs *cs) {
  m->cs = cs;
  m->bits_used = 0;
  cuzk_lc_init(&m->lhs, cs);
  cuzk_lc_init(&m->rhs, cs);
}

unsigned cuzk_multieq_shift(const cuzk_multieq *m, unsigned n) {
  return MULTIEQ_CAPACITY <= m->bits_used + n ? 0 : m->bits_used;
}

/* dst += src, term by term in one copy. Repeated variables (an operand shared by two additions
 * of a batch) are merged when the constraint is enforced, as the LC contract allows. */
static void lc_append(cuzk_lc *dst, cuzk_lc *src) {
  if (!cuzk_lc_active(dst) || !cuzk_lc_active(src)) return;
  if (src->has_one) cuzk_lc_add(dst, CUZK_VAR_ONE, &src->one);
  uint32_t n = src->n;
  if (!n) return;
  while (dst->cap - dst->n < n) {
    cuzk_lc_grow(dst);
    if (!cuzk_lc_active(dst)) return; /* out of memory: recorded, the LC is dropped */
  }
  memcpy(cuzk_lc_vars(dst) + dst->n, cuzk_lc_vars(src), n * sizeof(uint32_t));
  memcpy(cuzk_lc_coeffs(dst) + dst->n, cuzk_lc_coeffs(src), n * sizeof(cuzk_fr));
  dst->n += n;
}

static void flush(cuzk_multieq *m) {
  cuzk_cs *cs = m->cs;
  if (!g_lcs(cs)) {
    cuzk_cs_enforce(cs, "multieq", NULL, NULL, NULL);
  } else {
    cuzk_lc one;
    cuzk_lc_init(&one, cs);
    cuzk_lc_add(&one, CUZK_VAR_ONE, NULL);
    cuzk_cs_enforce(cs, "multieq", &m->lhs, &one, &m->rhs);
  }
  m->bits_used = 0;
}

void cuzk_multieq_enforce_equal(cuzk_multieq *m, unsigned n, cuzk_lc *lhs, cuzk_lc *rhs) {
  assert(n < MULTIEQ_CAPACITY);
  /* the pending batch is emitted here, after the caller's result bits were allocated */
  if (MULTIEQ_CAPACITY <= m->bits_used + n) flush(m);
  lc_append(&m->lhs, lhs);
  lc_append(&m->rhs, rhs);
  cuzk_lc_release(lhs);
  cuzk_lc_release(rhs);
  m->bits_used += n;
}

void cuzk_multieq_finish(cuzk_multieq *m) {
  if (m->bits_used > 0) flush(m);
  cuzk_lc_release(&m->lhs);
  cuzk_lc_release(&m->rhs);
}
