/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* multipack (bellperson multipack.rs; docs/spec/porep-circuit.md §2.8): bits packed into field
 * elements in chunks of CAPACITY = 254 bits, least significant first. */
#include "cuzk/r1cs/gadgets.h"

#define CAPACITY 254

/* Σ 2^j bit_j of at most 254 bits: below 2^254 < r, so the canonical integer is the value. */
static void pack_value(cuzk_fr *out, const cuzk_bool *bits, size_t n) {
  uint64_t w[4] = {0, 0, 0, 0};
  for (size_t j = 0; j < n; j++)
    w[j / 64] |= (uint64_t)(bits[j].value & 1) << (j % 64);
  cuzk_fr_from_canonical(out, w);
}

/* (Σ lc(bit_j, 2^j) ; ONE ; v) for the variable v the caller allocated. */
static void enforce_packing(cuzk_cs *cs, const char *name, const cuzk_bool *bits, size_t n,
                            cuzk_var v) {
  cuzk_lc a, b, c;
  cuzk_lc_init(&a, cs);
  cuzk_lc_init(&b, cs);
  cuzk_lc_init(&c, cs);
  if (cuzk_lc_active(&a)) {
    for (size_t j = 0; j < n; j++)
      cuzk_lc_add_bool_pow2(&a, bits[j], (unsigned)j);
    cuzk_lc_add(&b, CUZK_VAR_ONE, NULL);
    cuzk_lc_add(&c, v, NULL);
  }
  cuzk_cs_enforce(cs, name, &a, &b, &c);
}

void cuzk_multipack_pack_into_inputs(cuzk_cs *cs, const cuzk_bool *bits, size_t n) {
  bool hv = cuzk_cs_has_values(cs);
  for (size_t off = 0; off < n; off += CAPACITY) {
    size_t m = n - off < CAPACITY ? n - off : CAPACITY;
    cuzk_fr v;
    if (hv) pack_value(&v, bits + off, m);
    cuzk_var u = cuzk_cs_alloc_input(cs, hv ? &v : NULL);
    enforce_packing(cs, "packing constraint", bits + off, m, u);
  }
}

cuzk_num cuzk_multipack_pack_bits(cuzk_cs *cs, const cuzk_bool *bits, size_t n) {
  bool hv = cuzk_cs_has_values(cs);
  if (n > CAPACITY) n = CAPACITY;
  cuzk_num r;
  r.value = cuzk_fr_zero;
  if (hv) pack_value(&r.value, bits, n);
  r.var = cuzk_cs_alloc(cs, hv ? &r.value : NULL);
  enforce_packing(cs, "packing constraint", bits, n, r.var);
  return r;
}

size_t cuzk_multipack_compute(cuzk_fr *out, const bool *bits, size_t n) {
  size_t k = 0;
  for (size_t off = 0; off < n; off += CAPACITY, k++) {
    size_t m = n - off < CAPACITY ? n - off : CAPACITY;
    uint64_t w[4] = {0, 0, 0, 0};
    for (size_t j = 0; j < m; j++)
      w[j / 64] |= (uint64_t)(bits[off + j] ? 1 : 0) << (j % 64);
    cuzk_fr_from_canonical(&out[k], w);
  }
  return k;
}
