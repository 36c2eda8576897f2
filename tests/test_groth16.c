/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* End to end: test parameters from the generator, proofs from the prover, the verifier's
 * verdicts, on toy circuits (cubic equation; SHA-256 preimage; Poseidon Merkle path), single and
 * batched, with fixed and OS randomizers; tampered proofs, inputs and keys fail; the parameter
 * shape is enforced; a .params file round trip proves the same bytes. */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cuzk/groth16/groth16.h"
#include "cuzk/hashes/sha256.h"
#include "cuzk/r1cs/gadgets.h"
#include "rng.h"

typedef struct {
  int kind;      /* 0 cubic, 1 sha256 preimage, 2 poseidon merkle path */
  uint64_t seed; /* witness */
  cuzk_fr pub[4];
  size_t npub;
} circ;

static cuzk_fr fr_u64(uint64_t v) {
  cuzk_fr r;
  cuzk_fr_from_u64(&r, v);
  return r;
}

/* x^3 + x + 5 = y, y public */
static void synth_cubic(cuzk_cs *cs, circ *c) {
  cuzk_fr x = fr_u64(c->seed % 1000 + 2), y;
  cuzk_num vx = cuzk_num_alloc(cs, &x);
  cuzk_num x2 = cuzk_num_square(cs, &vx);
  cuzk_num x3 = cuzk_num_mul(cs, &x2, &vx);
  cuzk_fr five = fr_u64(5);
  cuzk_fr_add(&y, &x3.value, &x);
  cuzk_fr_add(&y, &y, &five);
  cuzk_num vy = cuzk_num_alloc(cs, &y);
  cuzk_lc a, b, cc;
  cuzk_lc_init(&a, cs);
  cuzk_lc_init(&b, cs);
  cuzk_lc_init(&cc, cs);
  cuzk_lc_add(&a, x3.var, NULL);
  cuzk_lc_add(&a, vx.var, NULL);
  cuzk_lc_add_const(&a, &five);
  cuzk_lc_add(&b, CUZK_VAR_ONE, NULL);
  cuzk_lc_add(&cc, vy.var, NULL);
  cuzk_cs_enforce(cs, "sum", &a, &b, &cc);
  cuzk_num_inputize(cs, &vy);
  c->pub[0] = y;
  c->npub = 1;
}

/* SHA-256 of a 55-byte secret (one block with its padding); the digest (trimmed to 254 bits)
 * public */
static void synth_sha(cuzk_cs *cs, circ *c) {
  uint8_t msg[55], d[32];
  uint64_t s = c->seed;
  for (int i = 0; i < 55; i++)
    msg[i] = (uint8_t)rng_next(&s);
  cuzk_bool bits[440], out[256];
  for (int i = 0; i < 440; i++)
    bits[i] = cuzk_bit_alloc(cs, (msg[i / 8] >> (7 - i % 8)) & 1);
  cuzk_gadget_sha256(cs, out, bits, 440);
  cuzk_num h = cuzk_sha256_digest_to_num(cs, out);
  cuzk_num_inputize(cs, &h);
  cuzk_sha256(d, msg, 55);
  cuzk_sha256_digest_to_fr(&c->pub[0], d);
  c->npub = 1;
}

/* a Poseidon arity-8 path of 2 levels (the 2 KiB tree shape) with a public leaf and root */
static void synth_por(cuzk_cs *cs, circ *c) {
  uint64_t s = c->seed;
  cuzk_fr leaf, sib[2][7], node, in[8];
  rng_fr(&s, &leaf);
  unsigned idx = (unsigned)(rng_next(&s) % 64);
  cuzk_por_level path[2];
  node = leaf;
  for (int l = 0; l < 2; l++) {
    unsigned pos = (idx >> (3 * l)) & 7;
    for (int j = 0; j < 7; j++)
      rng_fr(&s, &sib[l][j]);
    for (unsigned k = 0, j = 0; k < 8; k++)
      in[k] = k == pos ? node : sib[l][j++];
    cuzk_poseidon_hash(&node, 8, in);
    path[l].index = pos;
    path[l].siblings = sib[l];
  }
  cuzk_num vl = cuzk_num_alloc(cs, &leaf), vr = cuzk_num_alloc(cs, &node);
  cuzk_num_inputize(cs, &vl);
  cuzk_num_inputize(cs, &vr);
  const cuzk_por_shape shape = {CUZK_POR_POSEIDON, 8, 0, 0, 2, false};
  cuzk_gadget_por(cs, &shape, &vl, &vr, path);
  c->pub[0] = leaf;
  c->pub[1] = node;
  c->pub[2] = fr_u64(idx);
  c->npub = 3;
}

static void synth(cuzk_cs *cs, circ *c) {
  if (c->kind == 0) synth_cubic(cs, c);
  if (c->kind == 1) synth_sha(cs, c);
  if (c->kind == 2) synth_por(cs, c);
}

static cuzk_cs *make(cuzk_cs_mode mode, circ *c) {
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, mode);
  cuzk_cs *cs;
  if (cuzk_cs_create(&cs, &o)) return NULL;
  synth(cs, c);
  return cs;
}

static cuzk_g16_params *gen(circ *c, uint8_t tag) {
  uint8_t seed[32];
  memset(seed, tag, sizeof seed);
  cuzk_cs *rec = make(CUZK_CS_RECORD, c);
  cuzk_g16_params *p = NULL;
  CHECK(cuzk_g16_generate(&p, rec, seed, NULL, 0, NULL) == CUZK_G16_OK);
  cuzk_cs_destroy(rec);
  return p;
}

static bool verify(const cuzk_g16_params *p, const cuzk_g16_proof *pf, const cuzk_fr *in,
                   size_t n) {
  cuzk_g16_pvk *pvk;
  bool ok = false;
  if (cuzk_g16_pvk_prepare(&pvk, &p->vk) != CUZK_G16_OK) return false;
  if (cuzk_g16_verify(&ok, pvk, pf, in, n) != CUZK_G16_OK) ok = false;
  cuzk_g16_pvk_free(pvk);
  return ok;
}

static void test_circuit(int kind, cuzk_pool *pool) {
  circ c = {kind, 11, {{{0}}}, 0};
  cuzk_g16_params *p = gen(&c, 1);
  if (!p) return;
  /* one proof with OS randomness, then a batch of three witnesses with fixed randomizers */
  cuzk_cs *cs = make(CUZK_CS_PROVE, &c);
  cuzk_g16_proof pf;
  cuzk_g16_timings t;
  cuzk_g16_prove_opts po = {pool, 0, NULL, NULL, NULL};
  CHECK(cuzk_g16_prove(&pf, &cs, 1, p, &po, &t) == CUZK_G16_OK);
  CHECK(t.total_s > 0 && t.total_s >= t.h_s + t.msm_h_s + t.msm_l_s);
  CHECK_MSG(verify(p, &pf, c.pub, c.npub), "circuit %d: proof rejected", kind);
  { /* a raised cancel flag stops the prover at its first stage boundary */
    _Atomic int stop = 1;
    cuzk_cs *cs2 = make(CUZK_CS_PROVE, &c);
    cuzk_g16_prove_opts co = {pool, 0, NULL, NULL, &stop};
    cuzk_g16_proof cp;
    CHECK(cuzk_g16_prove(&cp, &cs2, 1, p, &co, NULL) == CUZK_G16_ECANCELLED);
    cuzk_cs_destroy(cs2);
  }
  /* tampering: an input, A, C, or B swapped with another proof's */
  cuzk_fr bad = c.pub[0];
  cuzk_fr_add(&bad, &bad, &cuzk_fr_one);
  cuzk_fr in2[4];
  memcpy(in2, c.pub, sizeof in2);
  in2[0] = bad;
  CHECK(!verify(p, &pf, in2, c.npub));
  cuzk_g16_proof tp = pf;
  cuzk_g1 g;
  cuzk_g1_from_affine(&g, &tp.a);
  cuzk_g1_dbl(&g, &g);
  cuzk_g1_to_affine(&tp.a, &g);
  CHECK(!verify(p, &tp, c.pub, c.npub));
  tp = pf;
  tp.c = pf.a;
  CHECK(!verify(p, &tp, c.pub, c.npub));
  /* bytes round trip and a flipped bit */
  uint8_t bytes[CUZK_G16_PROOF_BYTES];
  cuzk_g16_proof_write(bytes, &pf);
  cuzk_g16_proof back;
  CHECK(cuzk_g16_proof_read(&back, bytes) == CUZK_G16_OK && verify(p, &back, c.pub, c.npub));
  bytes[100] ^= 4;
  CHECK(cuzk_g16_proof_read(&back, bytes) != CUZK_G16_OK || !verify(p, &back, c.pub, c.npub));
  cuzk_cs_destroy(cs);

  /* batch of 3 with fixed r, s: deterministic bytes; each verifies; batch verification */
  circ cb[3] = {{kind, 21, {{{0}}}, 0}, {kind, 22, {{{0}}}, 0}, {kind, 23, {{{0}}}, 0}};
  cuzk_cs *bcs[3];
  for (int i = 0; i < 3; i++)
    bcs[i] = make(CUZK_CS_PROVE, &cb[i]);
  cuzk_fr r[3], s[3];
  uint64_t rs = 5;
  for (int i = 0; i < 3; i++) {
    rng_fr(&rs, &r[i]);
    rng_fr(&rs, &s[i]);
  }
  cuzk_g16_prove_opts fo = {pool, 0, r, s, NULL};
  cuzk_g16_proof bp[3], bp2[3];
  CHECK(cuzk_g16_prove(bp, bcs, 3, p, &fo, NULL) == CUZK_G16_OK);
  for (int i = 0; i < 3; i++) {
    cuzk_cs_destroy(bcs[i]);
    bcs[i] = make(CUZK_CS_PROVE, &cb[i]);
  }
  CHECK(cuzk_g16_prove(bp2, bcs, 3, p, &fo, NULL) == CUZK_G16_OK);
  CHECK(memcmp(bp, bp2, sizeof bp) == 0);
  /* the batch equals three single proofs with the same randomizers */
  for (int i = 0; i < 3; i++) {
    cuzk_cs *one = make(CUZK_CS_PROVE, &cb[i]);
    cuzk_g16_prove_opts so = {pool, 0, &r[i], &s[i], NULL};
    cuzk_g16_proof single;
    CHECK(cuzk_g16_prove(&single, &one, 1, p, &so, NULL) == CUZK_G16_OK);
    CHECK_MSG(memcmp(&single, &bp[i], sizeof single) == 0, "batch proof %d != single", i);
    cuzk_cs_destroy(one);
  }
  { /* from pre-compiled constraints: the same proof bytes as PROVE mode, batch and single */
    cuzk_cs *rec = make(CUZK_CS_RECORD, &c);
    cuzk_pce *pce = NULL;
    CHECK(rec && cuzk_cs_finish(rec) == CUZK_R1CS_OK && cuzk_pce_create(&pce, rec) == CUZK_R1CS_OK);
    cuzk_cs *wit[3];
    for (int i = 0; i < 3; i++) {
      wit[i] = make(CUZK_CS_WITNESS, &cb[i]);
      if (wit[i]) cuzk_cs_finish(wit[i]);
    }
    cuzk_g16_proof pp[3];
    CHECK(pce && cuzk_g16_prove_pce(pp, wit, 3, pce, p, &fo, NULL) == CUZK_G16_OK);
    uint8_t x[CUZK_G16_PROOF_BYTES], y[CUZK_G16_PROOF_BYTES];
    for (int i = 0; i < 3; i++) {
      cuzk_g16_proof_write(x, &bp[i]);
      cuzk_g16_proof_write(y, &pp[i]);
      CHECK_MSG(memcmp(x, y, sizeof x) == 0, "circuit %d: pre-compiled proof %d differs", kind, i);
    }
    /* a PROVE-mode system is not a witness for it, nor a witness of another shape */
    CHECK(cuzk_g16_prove_pce(pp, &bcs[0], 1, pce, p, &fo, NULL) == CUZK_G16_ESYNTH);
    for (int i = 0; i < 3; i++)
      cuzk_cs_destroy(wit[i]);
    cuzk_pce_free(pce);
    cuzk_cs_destroy(rec);
  }
  const cuzk_fr *ins[3];
  for (int i = 0; i < 3; i++) {
    CHECK_MSG(verify(p, &bp[i], cb[i].pub, cb[i].npub), "circuit %d batch %d", kind, i);
    ins[i] = cb[i].pub;
  }
  cuzk_g16_pvk *pvk;
  bool ok = false;
  CHECK(cuzk_g16_pvk_prepare(&pvk, &p->vk) == CUZK_G16_OK);
  CHECK(cuzk_g16_verify_batch(&ok, pvk, bp, ins, cb[0].npub, 3) == CUZK_G16_OK && ok);
  bp[1].c = bp[0].c;
  CHECK(cuzk_g16_verify_batch(&ok, pvk, bp, ins, cb[0].npub, 3) == CUZK_G16_OK && !ok);
  cuzk_g16_pvk_free(pvk);
  for (int i = 0; i < 3; i++)
    cuzk_cs_destroy(bcs[i]);

  /* another circuit's parameters are refused (shape) or give a rejected proof */
  circ other = {kind == 0 ? 1 : 0, 3, {{{0}}}, 0};
  cuzk_cs *ocs = make(CUZK_CS_PROVE, &other);
  CHECK(cuzk_g16_prove(&pf, &ocs, 1, p, &po, NULL) == CUZK_G16_ECOUNT);
  cuzk_cs_destroy(ocs);
  /* a vk from another seed rejects the proof (small circuits only: generation dominates) */
  cuzk_g16_params *p2 = kind == 1 ? NULL : gen(&c, 2);
  if (p2) {
    cs = make(CUZK_CS_PROVE, &c);
    CHECK(cuzk_g16_prove(&pf, &cs, 1, p, &po, NULL) == CUZK_G16_OK);
    CHECK(verify(p, &pf, c.pub, c.npub) && !verify(p2, &pf, c.pub, c.npub));
    cuzk_cs_destroy(cs);
  }
  /* the parameters through a .params file prove the same bytes */
  char path[] = "/tmp/cuzk-test-g16-XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd >= 0) {
    close(fd);
    CHECK(cuzk_g16_params_write_file(p, path) == CUZK_G16_OK);
    cuzk_g16_params *pr = NULL;
    CHECK(cuzk_g16_params_read_file(&pr, path, NULL, NULL) == CUZK_G16_OK);
    unlink(path);
    if (pr) {
      cuzk_g16_proof x1, x2;
      cuzk_cs *c1 = make(CUZK_CS_PROVE, &c), *c2 = make(CUZK_CS_PROVE, &c);
      cuzk_g16_prove_opts o1 = {pool, 0, r, s, NULL};
      CHECK(cuzk_g16_prove(&x1, &c1, 1, p, &o1, NULL) == CUZK_G16_OK);
      CHECK(cuzk_g16_prove(&x2, &c2, 1, pr, &o1, NULL) == CUZK_G16_OK);
      CHECK(memcmp(&x1, &x2, sizeof x1) == 0);
      cuzk_cs_destroy(c1);
      cuzk_cs_destroy(c2);
      cuzk_g16_params_free(pr);
    }
  }
  cuzk_g16_params_free(p2);
  cuzk_g16_params_free(p);
}

static void test_errors(void) {
  circ c = {0, 1, {{{0}}}, 0};
  cuzk_g16_params *p = gen(&c, 3);
  if (!p) return;
  cuzk_g16_proof pf;
  cuzk_cs *wit = make(CUZK_CS_WITNESS, &c);
  CHECK(cuzk_g16_prove(&pf, &wit, 1, p, NULL, NULL) == CUZK_G16_ESYNTH);
  cuzk_cs_destroy(wit);
  CHECK(cuzk_g16_prove(&pf, NULL, 1, p, NULL, NULL) == CUZK_G16_EINVAL);
  /* circuits of different shapes in one batch */
  circ c2 = {1, 1, {{{0}}}, 0};
  cuzk_cs *two[2] = {make(CUZK_CS_PROVE, &c), make(CUZK_CS_PROVE, &c2)};
  CHECK(cuzk_g16_prove(&pf, two, 2, p, NULL, NULL) == CUZK_G16_ESHAPE);
  cuzk_cs_destroy(two[0]);
  cuzk_cs_destroy(two[1]);
  /* delta at infinity */
  cuzk_g16_params q = *p;
  memset(&q.vk.delta_g1, 0, sizeof q.vk.delta_g1);
  cuzk_cs *cs = make(CUZK_CS_PROVE, &c);
  CHECK(cuzk_g16_prove(&pf, &cs, 1, &q, NULL, NULL) == CUZK_G16_EIDENTITY);
  cuzk_cs_destroy(cs);
  cuzk_g16_params_free(p);
}

int main(void) {
  cuzk_pool *pool = NULL;
  if (cuzk_pool_create(&pool, 2) != 0) pool = NULL;
  const char *only = getenv("CUZK_TEST_G16_KIND"); /* run one circuit kind (timing) */
  for (int kind = 0; kind < 3; kind++)
    if (!only || atoi(only) == kind) test_circuit(kind, kind == 1 ? pool : NULL);
  test_errors();
  cuzk_pool_destroy(pool);
  return check_summary("test_groth16");
}
