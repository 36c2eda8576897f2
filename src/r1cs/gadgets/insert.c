/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* insertion.rs `insert` for sizes 2, 4 and 8 (docs/spec/porep-circuit.md §2.10): x placed at
 * position Σ bits[i] 2^i among the size - 1 siblings, built from picks in the reference's exact
 * order (each pick is one aux and one constraint, so the order fixes the R1CS). */
#include <string.h>

#include "cuzk/r1cs/gadgets.h"

#define PICK(c, a, b) cuzk_gadget_pick(cs, (c), (a), (b))

static void insert_2(cuzk_cs *cs, cuzk_num *p, const cuzk_num *x, const cuzk_bool *bits,
                     const cuzk_num *s) {
  p[0] = PICK(bits[0], &s[0], x);
  p[1] = PICK(bits[0], x, &s[0]);
}

/* Output k: first resolve b0 among its two candidates, then b1 (a = x; b, c, d = siblings). */
static void insert_4(cuzk_cs *cs, cuzk_num *p, const cuzk_num *x, const cuzk_bool *bits,
                     const cuzk_num *s) {
  const cuzk_bool b0 = bits[0], b1 = bits[1];
  const cuzk_num *a = x, *b = &s[0], *c = &s[1], *d = &s[2];
  cuzk_num t;
  t = PICK(b0, b, a);
  p[0] = PICK(b1, b, &t);
  t = PICK(b0, a, b);
  p[1] = PICK(b1, c, &t);
  t = PICK(b0, d, a);
  p[2] = PICK(b1, &t, c);
  t = PICK(b0, a, d);
  p[3] = PICK(b1, &t, d);
}

/* Positions 0, 3, 4 and 7 depend on b0, b1 only through nor(b0, b1) / and(b0, b1), which are
 * allocated first; the others resolve b0, then b1, then b2 (a = x; b..h = siblings). */
static void insert_8(cuzk_cs *cs, cuzk_num *p, const cuzk_num *x, const cuzk_bool *bits,
                     const cuzk_num *s) {
  const cuzk_bool b0 = bits[0], b1 = bits[1], b2 = bits[2];
  const cuzk_num *a = x, *b = &s[0], *c = &s[1], *d = &s[2], *e = &s[3], *f = &s[4], *g = &s[5],
                 *h = &s[6];
  const cuzk_bool nor = cuzk_bit_nor(cs, b0, b1), both = cuzk_bit_and(cs, b0, b1);
  cuzk_num t, u;
  t = PICK(nor, a, b);
  p[0] = PICK(b2, b, &t);
  t = PICK(b0, a, b);
  u = PICK(b1, c, &t);
  p[1] = PICK(b2, c, &u);
  t = PICK(b0, d, a);
  u = PICK(b1, &t, c);
  p[2] = PICK(b2, d, &u);
  t = PICK(both, a, d);
  p[3] = PICK(b2, e, &t);
  t = PICK(nor, a, f);
  p[4] = PICK(b2, &t, e);
  t = PICK(b0, a, f);
  u = PICK(b1, g, &t);
  p[5] = PICK(b2, &u, f);
  t = PICK(b0, h, a);
  u = PICK(b1, &t, g);
  p[6] = PICK(b2, &u, g);
  t = PICK(both, a, h);
  p[7] = PICK(b2, &t, h);
}

cuzk_r1cs_err cuzk_gadget_insert(cuzk_cs *cs, cuzk_num *out, const cuzk_num *x,
                                 const cuzk_bool *bits, const cuzk_num *siblings, unsigned size) {
  cuzk_num p[8]; /* results land in out only at the end: out may alias x or the siblings */
  switch (size) {
  case 2: insert_2(cs, p, x, bits, siblings); break;
  case 4: insert_4(cs, p, x, bits, siblings); break;
  case 8:
    /* nor/and take the bits' variables as they are: the reference requires unnegated bits */
    if (bits[0].kind != CUZK_BOOL_IS || bits[1].kind != CUZK_BOOL_IS) return CUZK_R1CS_EINVAL;
    insert_8(cs, p, x, bits, siblings);
    break;
  default: {
    unsigned nbits = 0;
    while ((1u << nbits) < size)
      nbits++;
    if (size < 2 || (1u << nbits) != size) return CUZK_R1CS_EINVAL;
    return cuzk_gadget_insert_generic(cs, out, x, bits, siblings, nbits);
  }
  }
  memcpy(out, p, size * sizeof *p);
  return CUZK_R1CS_OK;
}
