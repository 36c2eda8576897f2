/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* SHA-256 (bellperson sha256.rs; docs/spec/porep-circuit.md §2.5-2.6): the compression function
 * with its MultiEq batching and deferred additions, sha256 over a bit string with constant padding,
 * and Filecoin's within-byte bit reversal. */
#include <string.h>

#include "hashes/sha256_internal.h"
#include "r1cs/gadgets/bool_ops.h"

/* K and the IV are filled by a constructor in hashes/sha256_select.c, which a program using only
 * the gadgets might not link; filling them again before main (same values) removes the doubt. */
__attribute__((constructor)) static void sha256_gadget_init(void) { cuzk_sha256_consts_init(); }

/* A register that is either a UInt32 or a sum not yet computed (bellperson's Maybe): a and e
 * stay deferred so their additions absorb the next operands. */
typedef struct {
  unsigned n; /* 0: concrete, held in v[0]; else deferred over v[0..n) */
  cuzk_u32 v[8];
} maybe;

static void maybe_compute(cuzk_multieq *m, cuzk_u32 *out, maybe *x, const cuzk_u32 *extra,
                          const char *ns) {
  if (x->n == 0) {
    *out = x->v[0]; /* as bellperson: a concrete value ignores extra (never reached with one) */
    return;
  }
  const cuzk_u32 *ops[9];
  unsigned n = 0;
  for (; n < x->n; n++)
    ops[n] = &x->v[n];
  if (extra) ops[n++] = extra;
  bool names = g_names(m->cs);
  if (names) cuzk_cs_push(m->cs, "%s", ns);
  cuzk_u32_addmany(m, out, ops, n);
  if (names) cuzk_cs_pop(m->cs);
}

/* r = rotr(x, r0) ^ rotr(x, r1) ^ (shift ? shr(x, r2) : rotr(x, r2)): two UInt32 xors. */
static void sigma(cuzk_cs *cs, cuzk_u32 *r, const cuzk_u32 *x, unsigned r0, unsigned r1,
                  unsigned r2, bool shift, const char *first, const char *second) {
  cuzk_u32 t0, t1;
  bool names = g_names(cs);
  cuzk_u32_rotr(&t0, x, r0);
  cuzk_u32_rotr(&t1, x, r1);
  if (names) cuzk_cs_push(cs, "%s", first);
  cuzk_u32_xor(cs, &t0, &t0, &t1);
  if (names) cuzk_cs_pop(cs);
  if (shift)
    cuzk_u32_shr(&t1, x, r2);
  else
    cuzk_u32_rotr(&t1, x, r2);
  if (names) cuzk_cs_push(cs, "%s", second);
  cuzk_u32_xor(cs, r, &t0, &t1);
  if (names) cuzk_cs_pop(cs);
}

static void add2(cuzk_multieq *m, cuzk_u32 *r, const cuzk_u32 *a, const cuzk_u32 *b, int i) {
  const cuzk_u32 *ops[2] = {a, b};
  bool names = g_names(m->cs);
  if (names) cuzk_cs_push(m->cs, "new h%d", i);
  cuzk_u32_addmany(m, r, ops, 2);
  if (names) cuzk_cs_pop(m->cs);
}

void cuzk_gadget_sha256_compress(cuzk_cs *cs, cuzk_u32 out[8], const cuzk_bool in[512],
                                 const cuzk_u32 state[8]) {
  bool names = g_names(cs);
  cuzk_u32 w[64];
  for (int t = 0; t < 16; t++)
    cuzk_u32_from_bits_be(&w[t], in + 32 * t);

  cuzk_multieq m;
  cuzk_multieq_init(&m, cs);

  /* message schedule: w[t] = w[t-16] + s0 + w[t-7] + s1 */
  for (int t = 16; t < 64; t++) {
    if (names) cuzk_cs_push(cs, "w extension %d", t);
    cuzk_u32 s0, s1;
    sigma(cs, &s0, &w[t - 15], 7, 18, 3, true, "first xor for s0", "second xor for s0");
    sigma(cs, &s1, &w[t - 2], 17, 19, 10, true, "first xor for s1", "second xor for s1");
    const cuzk_u32 *ops[4] = {&w[t - 16], &s0, &w[t - 7], &s1};
    if (names) cuzk_cs_push(cs, "computation of w[i]");
    cuzk_u32_addmany(&m, &w[t], ops, 4);
    if (names) cuzk_cs_pop(cs);
    if (names) cuzk_cs_pop(cs);
  }

  maybe a, e;
  a.n = e.n = 0;
  a.v[0] = state[0];
  e.v[0] = state[4];
  cuzk_u32 b = state[1], c = state[2], d = state[3], f = state[5], g = state[6], h = state[7];

  for (int i = 0; i < 64; i++) {
    if (names) cuzk_cs_push(cs, "compression round %d", i);
    cuzk_u32 E, A, S1, CH, S0, MAJ;
    maybe_compute(&m, &E, &e, NULL, "deferred e computation");
    sigma(cs, &S1, &E, 6, 11, 25, false, "first xor for s1", "second xor for s1");
    if (names) cuzk_cs_push(cs, "ch");
    cuzk_u32_sha256_ch(cs, &CH, &E, &f, &g);
    if (names) cuzk_cs_pop(cs);
    maybe_compute(&m, &A, &a, NULL, "deferred a computation");
    sigma(cs, &S0, &A, 2, 13, 22, false, "first xor for s0", "second xor for s0");
    if (names) cuzk_cs_push(cs, "maj");
    cuzk_u32_sha256_maj(cs, &MAJ, &A, &b, &c);
    if (names) cuzk_cs_pop(cs);

    /* temp1 = [h, S1, ch, K[i], w[i]]; e <- temp1 ++ [d], a <- temp1 ++ [S0, maj] */
    e.n = 6;
    e.v[0] = h;
    e.v[1] = S1;
    e.v[2] = CH;
    cuzk_u32_const(&e.v[3], cuzk_sha256_k[i]);
    e.v[4] = w[i];
    e.v[5] = d;
    a.n = 7;
    memcpy(a.v, e.v, 5 * sizeof e.v[0]);
    a.v[5] = S0;
    a.v[6] = MAJ;
    h = g;
    g = f;
    f = E;
    d = c;
    c = b;
    b = A;
    if (names) cuzk_cs_pop(cs);
  }

  /* the output additions, in bellperson's order: h0 (deferred a + H0), h1..h3, h4 (deferred e
   * + H4), h5..h7 */
  maybe_compute(&m, &out[0], &a, &state[0], "deferred h0 computation");
  add2(&m, &out[1], &state[1], &b, 1);
  add2(&m, &out[2], &state[2], &c, 2);
  add2(&m, &out[3], &state[3], &d, 3);
  maybe_compute(&m, &out[4], &e, &state[4], "deferred h4 computation");
  add2(&m, &out[5], &state[5], &f, 5);
  add2(&m, &out[6], &state[6], &g, 6);
  add2(&m, &out[7], &state[7], &h, 7);
  cuzk_multieq_finish(&m);
}

/* Standard padding as constants: 1, zeros to 448 mod 512, the 64-bit big-endian bit length.
 * Whole blocks are read from the caller's array; only the last one or two are built here. */
cuzk_r1cs_err cuzk_gadget_sha256(cuzk_cs *cs, cuzk_bool out[256], const cuzk_bool *in,
                                 size_t nbits) {
  if (nbits % 8) return CUZK_R1CS_EINVAL;
  bool names = g_names(cs);
  cuzk_u32 cur[8], next[8];
  for (int i = 0; i < 8; i++)
    cuzk_u32_const(&cur[i], cuzk_sha256_h0[i]);
  size_t full = nbits / 512, rest = nbits % 512, blk = 0;
  for (; blk < full; blk++) {
    if (names) cuzk_cs_push(cs, "block %zu", blk);
    cuzk_gadget_sha256_compress(cs, next, in + 512 * blk, cur);
    if (names) cuzk_cs_pop(cs);
    memcpy(cur, next, sizeof cur);
  }
  cuzk_bool tail[1024];
  size_t len = rest;
  if (rest) memcpy(tail, in + 512 * full, rest * sizeof *tail);
  tail[len++] = cuzk_bool_const(true);
  while (len % 512 != 448)
    tail[len++] = cuzk_bool_const(false);
  uint64_t L = (uint64_t)nbits;
  for (int i = 63; i >= 0; i--)
    tail[len++] = cuzk_bool_const((L >> i) & 1);
  for (size_t o = 0; o < len; o += 512, blk++) {
    if (names) cuzk_cs_push(cs, "block %zu", blk);
    cuzk_gadget_sha256_compress(cs, next, tail + o, cur);
    if (names) cuzk_cs_pop(cs);
    memcpy(cur, next, sizeof cur);
  }
  for (int i = 0; i < 8; i++)
    cuzk_u32_into_bits_be(out + 32 * i, &cur[i]);
  return CUZK_R1CS_OK;
}

void cuzk_bits_reverse_in_bytes(cuzk_bool *bits, size_t n) {
  for (size_t o = 0; o + 8 <= n; o += 8)
    for (int i = 0; i < 4; i++) {
      cuzk_bool t = bits[o + i];
      bits[o + i] = bits[o + 7 - i];
      bits[o + 7 - i] = t;
    }
}
