/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * FallbackPoStCircuit, its public inputs and parameter names (docs/post.md "Circuit", "Public
 * inputs", "Parameters"):
 *  - the ten v28 parameter file names (5 sizes x Winning/Window) equal rust-fil-proofs'
 *    parameters.json;
 *  - inputs / aux / constraints of every registered proof's circuit equal the reference's counts
 *    (the 32 GiB and 64 GiB Window circuits, 125 M / 130 M constraints, counted in SHAPE mode:
 *    ~1.5 s each in a Release build; left out with CUZK_TEST_ENGINE_FAST=1, the sanitizer build);
 *  - Winning public inputs are 66 blocks whose challenge indices are 0..65, equal to the leaves
 *    the vanilla proof opens; a short Window partition repeats its last block; V1_0 indices move
 *    with partition_index, V1_2 ones do not;
 *  - with real 2 KiB requests (sealed sectors) the circuit is satisfied in CHECK mode and its
 *    inputs equal the re-derived public inputs; a sibling, a leaf or comm_r_last changed behind
 *    the request's checks leaves it unsatisfied; every mode gives the same counts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuzk/gadgets.h"
#include "cuzk/post.h"
#include "pce_check.h"
#include "rng.h"

static const struct {
  unsigned id;
  const char *stem; /* after v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher- */
} names[] = {
    {0, "8-0-0-3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e"},
    {10, "8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0"},
    {1, "8-0-0-50c7368dea9593ed0989e70974d28024efa9d156d585b7eea1be22b2e753f331"},
    {11, "8-0-0-5294475db5237a2e83c3e52fd6c2b03859a1831d45ed08c4f35dbf9a803165a9"},
    {2, "8-0-0-7d739b8cf60f1b0709eeebee7730e297683552e4b69cab6984ec0285663c5781"},
    {12, "8-0-0-0cfb4f178bbb71cf2ecfcd42accce558b27199ab4fb59cb78f2483fe21ef36d9"},
    {3, "8-8-0-559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e"},
    {13, "8-8-0-0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc"},
    {4, "8-8-2-b62098629d07946e9028127e70295ed996fe3ed25b0f9f88eb610a0ab4385a3c"},
    {14, "8-8-2-2627e4006b67f99cef990c0a47d5426cb7ab0a0ad58fc1061547bf2d28b09def"},
};

static void test_names(void) {
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    const cuzk_post_proof *p;
    CHECK(cuzk_post_proof_by_id(&p, names[i].id) == CUZK_POST_OK);
    char want[256], base[512];
    snprintf(want, sizeof want, "/d/v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-%s",
             names[i].stem);
    CHECK(cuzk_post_param_base(base, sizeof base, "/d", p));
    CHECK_MSG(!strcmp(base, want), "id %u: %s", names[i].id, base);
    /* V1 and V1_1 Window ids share the file (the identifier has no API version) */
    const cuzk_post_proof *v1;
    if (p->type == CUZK_POST_WINDOW && cuzk_post_proof_by_id(&v1, p->id - 5) == CUZK_POST_OK) {
      CHECK(cuzk_post_param_base(base, sizeof base, "/d", v1) && !strcmp(base, want));
    }
  }
  char small[16];
  const cuzk_post_proof *p;
  CHECK(cuzk_post_proof_by_id(&p, 0) == CUZK_POST_OK);
  CHECK(!cuzk_post_param_base(small, sizeof small, "/d", p)); /* does not fit: refused */
}

/* The reference's counts (inputs incl. ONE, aux, constraints without the input constraints). */
static const struct {
  unsigned id;
  size_t inputs, aux, constraints;
  bool big;
} counts[] = {
    {0, 133, 91674, 90750, false},           {10, 23, 22128, 21866, false},
    {1, 133, 233442, 230670, false},         {11, 23, 65088, 64266, false},
    {2, 133, 304326, 300630, false},         {12, 23, 86568, 85466, false},
    {3, 133, 375210, 370590, false},         {4, 133, 396000, 391314, false},
    {13, 25840, 126902376, 125279217, true}, {14, 25301, 131500200, 129887900, true},
};

static void test_counts(bool fast) {
  for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
    if (counts[i].big && fast) continue;
    const cuzk_post_proof *p;
    CHECK(cuzk_post_proof_by_id(&p, counts[i].id) == CUZK_POST_OK);
    cuzk_cs_opts o;
    cuzk_cs_opts_default(&o, CUZK_CS_SHAPE);
    cuzk_cs *cs;
    CHECK(cuzk_cs_create(&cs, &o) == CUZK_R1CS_OK);
    char msg[256];
    CHECK_MSG(cuzk_post_synthesize(cs, p, NULL, msg, sizeof msg) == CUZK_POST_OK, "%s", msg);
    CHECK_MSG(cuzk_cs_num_inputs(cs) == counts[i].inputs && cuzk_cs_num_aux(cs) == counts[i].aux &&
                  cuzk_cs_num_constraints(cs) == counts[i].constraints,
              "%s: %zu inputs, %zu aux, %zu constraints", p->name, cuzk_cs_num_inputs(cs),
              cuzk_cs_num_aux(cs), cuzk_cs_num_constraints(cs));
    CHECK(cuzk_post_num_public_inputs(p) + 1 == counts[i].inputs);
    cuzk_cs_destroy(cs);
  }
}

/* ---- real 2 KiB requests ------------------------------------------------------------------ */
static uint8_t rnd[32];
static cuzk_post_replica *reps[2]; /* sectors 5 and 9 */

static void make_replicas(void) {
  memset(rnd, 0x61, 32);
  rnd[31] &= 0x3f;
  const cuzk_post_proof *p;
  CHECK(cuzk_post_proof_by_id(&p, 0) == CUZK_POST_OK);
  uint8_t prover_id[32], ticket[32], data[2048];
  cuzk_porep_prover_id(prover_id, 1000);
  memset(ticket, 4, 32);
  uint64_t st = 5;
  for (int r = 0; r < 2; r++) {
    for (int k = 0; k < 2048; k++)
      data[k] = (uint8_t)(rng_next(&st) & (k % 32 == 31 ? 0x3f : 0xff));
    char msg[256];
    CHECK_MSG(cuzk_post_replica_seal(&reps[r], p, data, prover_id, r ? 9 : 5, ticket, NULL, msg,
                                     sizeof msg) == CUZK_POST_OK,
              "%s", msg);
  }
}

/* A checked request of proof id over replicas which[0..n); false (with msg) if refused. */
static bool build_request(cuzk_post_request *rq, unsigned id, const int *which, size_t n,
                          unsigned partition, char *msg, size_t msg_len) {
  const cuzk_post_proof *p;
  if (cuzk_post_proof_by_id(&p, id)) return false;
  uint8_t *bytes[2] = {NULL, NULL};
  const uint8_t *pieces[2];
  size_t lens[2];
  bool ok = true;
  for (size_t i = 0; i < n && ok; i++) {
    cuzk_post_sector_proof sp;
    uint64_t idx = p->type == CUZK_POST_WINNING ? 0 : (uint64_t)partition * p->vanilla_sectors + i;
    lens[i] = cuzk_post_vanilla_size(p);
    pieces[i] = bytes[i] = malloc(lens[i]);
    ok = bytes[i] && cuzk_post_vanilla_generate(&sp, p, reps[which[i]], rnd, idx) == CUZK_POST_OK;
    if (ok) {
      ok = cuzk_post_vanilla_write(bytes[i], p, &sp) == CUZK_POST_OK;
      cuzk_post_sector_proof_free(&sp);
    }
  }
  ok = ok &&
       cuzk_post_request_init(rq, p, rnd, partition, pieces, lens, n, msg, msg_len) == CUZK_POST_OK;
  free(bytes[0]);
  free(bytes[1]);
  return ok;
}

static bool make_request(cuzk_post_request *rq, unsigned id, const int *which, size_t n,
                         unsigned partition) {
  char msg[512] = "";
  bool ok = build_request(rq, id, which, n, partition, msg, sizeof msg);
  CHECK_MSG(ok, "request of proof %u: %s", id, msg);
  return ok;
}

/* A request that must be refused, with its message naming partition_index. */
static bool make_request_quiet(cuzk_post_request *rq, unsigned id, const int *which, size_t n,
                               unsigned partition) {
  char msg[512] = "";
  bool ok = build_request(rq, id, which, n, partition, msg, sizeof msg);
  if (ok) cuzk_post_request_free(rq);
  CHECK_MSG(ok || strstr(msg, "partition_index: 1, but WinningPoSt"), "%s", msg);
  return ok;
}

/* The leaf a Merkle proof's indices spell (arity 8 levels: 2 KiB). */
static uint64_t leaf_of(const cuzk_post_merkle_proof *mp, unsigned levels) {
  uint64_t leaf = 0;
  for (unsigned l = levels; l-- > 0;)
    leaf = leaf * 8 + mp->index[l];
  return leaf;
}

static void test_public_inputs(void) {
  cuzk_post_request rq;
  int one[1] = {0}, both[2] = {0, 1};
  cuzk_fr in[132], f;
  if (make_request(&rq, 0, one, 1, 0)) { /* Winning: 66 blocks, challenge index = block */
    CHECK(cuzk_post_request_public_inputs(in, &rq) == CUZK_POST_OK);
    cuzk_fr comm_r;
    CHECK(cuzk_fr_from_bytes(&comm_r, rq.sectors[0].comm_r));
    for (unsigned b = 0; b < 66; b++) {
      CHECK(!memcmp(&in[2 * b], &comm_r, sizeof comm_r));
      uint64_t leaf = cuzk_post_leaf_challenge(rnd, 5, b, 64);
      cuzk_fr_from_u64(&f, leaf);
      CHECK_MSG(!memcmp(&in[2 * b + 1], &f, sizeof f), "winning block %u", b);
      CHECK(leaf_of(&rq.sectors[0].proofs[b], 2) == leaf); /* the vanilla proof opens it */
    }
    /* blocks differ: not block 0 repeated */
    CHECK(memcmp(&in[1], &in[3], sizeof f) || memcmp(&in[3], &in[5], sizeof f));
    cuzk_post_request_free(&rq);
  }
  if (make_request(&rq, 10, one, 1, 0)) { /* Window, one sector: block 1 repeats block 0 */
    CHECK(cuzk_post_request_public_inputs(in, &rq) == CUZK_POST_OK);
    CHECK(!memcmp(&in[0], &in[11], 11 * sizeof f));
    cuzk_post_request_free(&rq);
  }
  cuzk_fr v12[22], v10[22];
  if (make_request(&rq, 10, both, 2, 3)) { /* V1_2: partition_index does not matter */
    CHECK(cuzk_post_request_public_inputs(v12, &rq) == CUZK_POST_OK);
    for (unsigned c = 0; c < 10; c++) {
      cuzk_fr_from_u64(&f, cuzk_post_leaf_challenge(rnd, 9, c, 64));
      CHECK(!memcmp(&v12[12 + c], &f, sizeof f));
    }
    cuzk_post_request_free(&rq);
  }
  if (make_request(&rq, 5, both, 2, 3)) { /* V1_0: sector index 3 * 2 + i */
    CHECK(cuzk_post_request_public_inputs(v10, &rq) == CUZK_POST_OK);
    for (unsigned c = 0; c < 10; c++) {
      cuzk_fr_from_u64(&f, cuzk_post_leaf_challenge(rnd, 9, 7 * 10 + c, 64));
      CHECK(!memcmp(&v10[12 + c], &f, sizeof f));
    }
    CHECK(memcmp(&v10[1], &v12[1], sizeof f) != 0);
    cuzk_post_request_free(&rq);
  }
}

/* CHECK-mode synthesis of rq: 1 satisfied, 0 not, -1 error; inputs compared with the re-derived
 * public inputs when satisfied. */
static int satisfied(const cuzk_post_request *rq) {
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, CUZK_CS_CHECK);
  cuzk_cs *cs;
  if (cuzk_cs_create(&cs, &o)) return -1;
  char msg[256];
  int sat = -1;
  cuzk_cs_check r;
  if (cuzk_post_synthesize(cs, rq->proof, rq, msg, sizeof msg) == CUZK_POST_OK &&
      cuzk_cs_is_satisfied(cs, &r) == CUZK_R1CS_OK) {
    sat = r.satisfied;
    cuzk_cs_result res;
    cuzk_cs_result_get(cs, &res);
    size_t n = cuzk_post_num_public_inputs(rq->proof);
    cuzk_fr *in = malloc(n * sizeof *in);
    CHECK(in && res.num_inputs == n + 1 && cuzk_post_request_public_inputs(in, rq) == 0 &&
          !memcmp(in, res.inputs + 1, n * sizeof *in));
    free(in);
  }
  cuzk_cs_destroy(cs);
  return sat;
}

static void test_satisfied(void) {
  cuzk_post_request rq;
  int one[1] = {1}, both[2] = {0, 1};
  unsigned ids[3] = {0, 10, 5};
  for (int k = 0; k < 3; k++) {
    if (!make_request(&rq, ids[k], k ? both : one, k ? 2 : 1, 0)) continue;
    CHECK_MSG(satisfied(&rq) == 1, "proof %u: honest request not satisfied", ids[k]);
    rq.sectors[0].proofs[1].hashes[1][3][0] ^= 1; /* a sibling, behind the checks */
    CHECK(satisfied(&rq) == 0);
    rq.sectors[0].proofs[1].hashes[1][3][0] ^= 1;
    rq.sectors[0].proofs[0].leaf[0] ^= 1;
    CHECK(satisfied(&rq) == 0);
    rq.sectors[0].proofs[0].leaf[0] ^= 1;
    rq.sectors[0].comm_r_last[0] ^= 1;
    CHECK(satisfied(&rq) == 0);
    rq.sectors[0].comm_r_last[0] ^= 1;
    CHECK(satisfied(&rq) == 1);
    cuzk_post_request_free(&rq);
  }
  /* WinningPoSt has one partition: another index is refused, not used as a sector position */
  CHECK(!make_request_quiet(&rq, 0, one, 1, 1));
  /* a values mode needs a request; a blank one must not get one */
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, CUZK_CS_PROVE);
  cuzk_cs *cs;
  CHECK(cuzk_cs_create(&cs, &o) == CUZK_R1CS_OK);
  const cuzk_post_proof *p;
  CHECK(cuzk_post_proof_by_id(&p, 0) == CUZK_POST_OK);
  char msg[256] = "";
  CHECK(cuzk_post_synthesize(cs, p, NULL, msg, sizeof msg) == CUZK_POST_EINVAL);
  CHECK(strstr(msg, "needs a checked request") != NULL);
  cuzk_cs_destroy(cs);
}

static bool synth_post(cuzk_cs *cs, void *ctx, bool values) {
  const cuzk_post_request *rq = ctx;
  return cuzk_post_synthesize(cs, rq->proof, values ? rq : NULL, NULL, 0) == CUZK_POST_OK;
}

/* The same circuit in every mode: RECORD, WITNESS and PROVE give SHAPE's counts; the pre-compiled
 * evaluator gives PROVE mode's a, b, c and densities. */
static void test_modes(void) {
  cuzk_post_request rq;
  int both[2] = {0, 1};
  if (!make_request(&rq, 10, both, 2, 0)) return;
  cuzk_cs_mode modes[4] = {CUZK_CS_SHAPE, CUZK_CS_RECORD, CUZK_CS_WITNESS, CUZK_CS_PROVE};
  size_t first[3] = {0, 0, 0};
  for (int m = 0; m < 4; m++) {
    cuzk_cs_opts o;
    cuzk_cs_opts_default(&o, modes[m]);
    cuzk_cs *cs;
    CHECK(cuzk_cs_create(&cs, &o) == CUZK_R1CS_OK);
    bool vals = modes[m] == CUZK_CS_WITNESS || modes[m] == CUZK_CS_PROVE;
    CHECK(cuzk_post_synthesize(cs, rq.proof, vals ? &rq : NULL, NULL, 0) == CUZK_POST_OK);
    size_t got[3] = {cuzk_cs_num_inputs(cs), cuzk_cs_num_aux(cs), cuzk_cs_num_constraints(cs)};
    if (m == 0) memcpy(first, got, sizeof got);
    CHECK_MSG(!memcmp(first, got, sizeof got), "mode %s", cuzk_cs_mode_name(modes[m]));
    cuzk_cs_destroy(cs);
  }
  pce_check("WindowPoSt 2KiB", synth_post, &rq, NULL);
  cuzk_post_request_free(&rq);
  int one[1] = {0};
  if (make_request(&rq, 0, one, 1, 0)) {
    pce_check("WinningPoSt 2KiB", synth_post, &rq, NULL);
    cuzk_post_request_free(&rq);
  }
}

int main(void) {
  const char *fast = getenv("CUZK_TEST_ENGINE_FAST");
  test_names();
  test_counts(fast && !strcmp(fast, "1"));
  make_replicas();
  test_public_inputs();
  test_satisfied();
  test_modes();
  for (int r = 0; r < 2; r++)
    cuzk_post_replica_free(reps[r]);
  return check_summary("test_post_circuit");
}
