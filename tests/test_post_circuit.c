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
 *    the request's checks leaves it unsatisfied; every mode gives the same counts;
 *  - where a partition holds more sectors than it is given (answers from
 *    tests/ref/post_inputs.py): the 32 GiB (S_w = 2349) and 64 GiB (2300) public inputs of a short
 *    partition, both API versions, against the model's leaves and SHA-256 of the whole vector, the
 *    padding blocks equal to the last given sector's; 8 MiB Window requests over synthetic
 *    replicas satisfied in CHECK mode with the model's leaves as inputs, and a 3-sector circuit of
 *    8 MiB given two sectors pads with the second, in its inputs and in the circuit; a 32 GiB
 *    request at partition 1 checks positions 2349 + i (its proofs are refused at partition 0) and
 *    its inputs hold the leaves its paths open; one sector more than a partition holds refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuzk/hashes/sha256.h"
#include "cuzk/post/post.h"
#include "cuzk/r1cs/gadgets.h"
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

/* ---- partitions holding more sectors than given (answers from tests/ref/post_inputs.py) ---- */
static uint8_t ref_rnd[32]; /* the model's randomness: bytes 0..31 */

static const cuzk_post_proof *proof(unsigned id) {
  const cuzk_post_proof *p = NULL;
  CHECK(cuzk_post_proof_by_id(&p, id) == CUZK_POST_OK && p);
  return p;
}

/* The ten leaves of the input block at blk (after its comm_r) are want. */
static bool leaves_are(const cuzk_fr *blk, const uint64_t want[10]) {
  for (unsigned c = 0; c < 10; c++) {
    cuzk_fr f;
    cuzk_fr_from_u64(&f, want[c]);
    if (memcmp(&blk[1 + c], &f, sizeof f)) return false;
  }
  return true;
}

/* Blocks first..S-1 of 11 values each equal block `last` (the padding); false otherwise. */
static bool padded_with(const cuzk_fr *in, size_t first, size_t s, size_t last) {
  for (size_t b = first; b < s; b++)
    if (memcmp(in + b * 11, in + last * 11, 11 * sizeof *in)) return false;
  return true;
}

static void hex_sha256_inputs(char hex[65], const cuzk_fr *in, size_t n) {
  cuzk_sha256_ctx c;
  uint8_t b[32];
  cuzk_sha256_init(&c);
  for (size_t i = 0; i < n; i++) {
    cuzk_fr_to_bytes(b, &in[i]);
    cuzk_sha256_update(&c, b, 32);
  }
  cuzk_sha256_final(&c, b);
  to_hex(hex, b, 32);
}

/* The model's comm_r of list position i: SHA-256("comm_r" || i) with byte 31 & 0x3f. */
static void model_comm_r(uint8_t out[32], unsigned i) {
  uint8_t pre[7] = {'c', 'o', 'm', 'm', '_', 'r', (uint8_t)i};
  cuzk_sha256(out, pre, sizeof pre);
  out[31] &= 0x3f;
}

/* 32 GiB partition 1 given three sectors (V1_0 and V1_2), 64 GiB partition 2 given one: the
 * model's vector (its SHA-256, the first and last given blocks' leaves), padded to S with the
 * last given block; S sectors accepted, S + 1 refused. */
static void test_inputs_large(void) {
  static const uint64_t ids[3] = {5, 6000, UINT64_C(123456789012)};
  static const struct {
    unsigned id, partition;
    size_t n, values;
    uint64_t first[10], last[10];
    const char *sha;
  } v[] = {
      {8,
       1,
       3,
       25839,
       {1067476727, 221517939, 863211542, 696209328, 350088524, 228743367, 798512584, 786370587,
        778042358, 637041263},
       {154068696, 371153849, 675368006, 18904774, 790541802, 567680015, 360846253, 303856255,
        857933240, 726357838},
       "e549b36a2b5d34c3175a0f5d524a94573a1c2af3d2012a885c27bac5a6be06ce"},
      {13,
       1,
       3,
       25839,
       {499355610, 1015611732, 558812731, 130514639, 605748860, 957253870, 593189416, 8153617,
        181014518, 907779484},
       {1055234733, 553779552, 549391765, 957784460, 984482112, 304289288, 335535753, 832562342,
        929759914, 740194988},
       "2ee7c607e5c8aec2686cc9164113ea82e24ad4966c8ec6fea4bef5d7b909cd03"},
      {9,
       2,
       1,
       25300,
       {390354701, 1512956340, 19296993, 234775557, 662973598, 697909262, 1594949701, 1107041660,
        953589168, 1708182083},
       {390354701, 1512956340, 19296993, 234775557, 662973598, 697909262, 1594949701, 1107041660,
        953589168, 1708182083},
       "ee0c7a5e3b576ad10963d4a8d90fd464eccd4b1aebe1bf3f819b87e85fefa554"},
  };
  uint8_t comm[3][32];
  for (unsigned i = 0; i < 3; i++)
    model_comm_r(comm[i], i);
  for (size_t t = 0; t < sizeof v / sizeof v[0]; t++) {
    const cuzk_post_proof *p = proof(v[t].id);
    size_t n = cuzk_post_num_public_inputs(p), s = p->sector_count;
    CHECK_MSG(n == v[t].values && n == s * 11, "%s: %zu inputs", p->name, n);
    cuzk_fr *in = malloc(n * sizeof *in), cr;
    if (!in) continue;
    CHECK(cuzk_post_public_inputs(in, p, ref_rnd, ids, (const uint8_t(*)[32])comm, v[t].n,
                                  v[t].partition) == CUZK_POST_OK);
    char hex[65];
    hex_sha256_inputs(hex, in, n);
    CHECK_MSG(!strcmp(hex, v[t].sha), "%s: inputs SHA-256 %s", p->name, hex);
    CHECK(cuzk_fr_from_bytes(&cr, comm[0]) && !memcmp(&in[0], &cr, sizeof cr));
    CHECK_MSG(leaves_are(in, v[t].first) && leaves_are(in + (v[t].n - 1) * 11, v[t].last),
              "%s: leaves", p->name);
    CHECK_MSG(padded_with(in, v[t].n, s, v[t].n - 1), "%s: padding", p->name);
    if (v[t].n > 1) /* repeating block 0 instead would give other inputs */
      CHECK(memcmp(in, in + (v[t].n - 1) * 11, 11 * sizeof *in) != 0);
    free(in);
  }
  /* S_w sectors fill the 32 GiB partition; one more is refused */
  const cuzk_post_proof *p = proof(13);
  uint64_t *many = malloc(2350 * sizeof *many);
  uint8_t(*cr)[32] = malloc(2350 * sizeof *cr);
  cuzk_fr *in = malloc(2349 * 11 * sizeof *in);
  if (many && cr && in) {
    for (size_t i = 0; i < 2350; i++) {
      many[i] = 100 + i;
      memcpy(cr[i], comm[i % 3], 32);
    }
    CHECK(cuzk_post_public_inputs(in, p, ref_rnd, many, (const uint8_t(*)[32])cr, 2349, 0) ==
          CUZK_POST_OK);
    CHECK(memcmp(in + 2347 * 11, in + 2348 * 11, 11 * sizeof *in) != 0); /* none padded */
    CHECK(cuzk_post_public_inputs(in, p, ref_rnd, many, (const uint8_t(*)[32])cr, 2350, 0) ==
          CUZK_POST_EINVAL);
  }
  free(many);
  free(cr);
  free(in);
}

/* A request over synthetic replicas of p's size for ids[0..n) (comm_c {i + 1, 0x77}), whose
 * vanilla proofs are generated for partition gen (sector index gen * S + i) and checked as
 * partition `partition`. */
static cuzk_post_err synthetic_request(cuzk_post_request *rq, const cuzk_post_proof *p,
                                       const uint64_t *ids, size_t n, unsigned partition,
                                       unsigned gen, char *msg, size_t msg_len) {
  memset(rq, 0, sizeof *rq); /* rq->proof stays NULL unless the request is made */
  size_t size = cuzk_post_vanilla_size(p);
  uint8_t **bytes = calloc(n, sizeof *bytes);
  size_t *lens = calloc(n, sizeof *lens);
  cuzk_post_err e = bytes && lens ? CUZK_POST_OK : CUZK_POST_ENOMEM;
  for (size_t i = 0; i < n && !e; i++) {
    uint8_t comm_c[32] = {(uint8_t)(i + 1), 0x77};
    cuzk_post_replica *r = NULL;
    cuzk_post_sector_proof sp;
    e = cuzk_post_replica_synthetic(&r, p, ids[i], comm_c);
    if (!e)
      e = cuzk_post_vanilla_generate(&sp, p, r, ref_rnd, (uint64_t)gen * p->vanilla_sectors + i);
    if (!e) {
      lens[i] = size;
      bytes[i] = malloc(size);
      e = bytes[i] ? cuzk_post_vanilla_write(bytes[i], p, &sp) : CUZK_POST_ENOMEM;
      cuzk_post_sector_proof_free(&sp);
    }
    cuzk_post_replica_free(r);
  }
  if (!e)
    e = cuzk_post_request_init(rq, p, ref_rnd, partition, (const uint8_t *const *)bytes, lens, n,
                               msg, msg_len);
  for (size_t i = 0; bytes && i < n; i++)
    free(bytes[i]);
  free(bytes);
  free(lens);
  return e;
}

/* Block b of in holds the comm_r of rq's sector `sector` and the leaves want. */
static bool block_is(const cuzk_fr *in, size_t b, const cuzk_post_request *rq, size_t sector,
                     const uint64_t want[10]) {
  cuzk_fr cr;
  return cuzk_fr_from_bytes(&cr, rq->sectors[sector].comm_r) &&
         !memcmp(&in[b * 11], &cr, sizeof cr) && leaves_are(in + b * 11, want);
}

/* 8 MiB Window, sectors 17 and 42 at partition 1: the registered circuit (S = 2) under both API
 * versions, and a 3-sector circuit of the same size (FallbackPoStCircuit with sector_count 3, a
 * configuration the reference's code takes, not a registered one) padded with sector 42. */
static void test_window_8mib(void) {
  static const uint64_t ids[4] = {17, 42, 43, 44};
  static const uint64_t v10[2][10] = {
      {105075, 34517, 143275, 162350, 244108, 147061, 125356, 119038, 118305, 97337},
      {104320, 257506, 139601, 240133, 125234, 122416, 76548, 72412, 179259, 34178}};
  static const uint64_t v12[2][10] = {
      {124917, 86469, 153898, 166301, 156094, 127580, 188897, 178211, 223402, 96883},
      {105098, 187648, 148230, 55184, 235572, 94184, 101043, 109447, 94087, 72431}};
  static const uint64_t s3[2][10] = {
      {191473, 172879, 61208, 219771, 54288, 130635, 253033, 107218, 171033, 212438},
      {3819, 163804, 255310, 66544, 115223, 146687, 212150, 159700, 113375, 15732}};
  cuzk_post_request rq;
  char msg[512] = "";
  cuzk_fr in[33];
  for (int v = 0; v < 2; v++) {
    const cuzk_post_proof *p = proof(v ? 11 : 6);
    const uint64_t(*want)[10] = v ? v12 : v10;
    CHECK_MSG(synthetic_request(&rq, p, ids, 2, 1, 1, msg, sizeof msg) == CUZK_POST_OK, "%s: %s",
              p->name, msg);
    if (!rq.proof) continue;
    CHECK(cuzk_post_num_public_inputs(p) == 22 &&
          cuzk_post_request_public_inputs(in, &rq) == CUZK_POST_OK);
    CHECK_MSG(block_is(in, 0, &rq, 0, want[0]) && block_is(in, 1, &rq, 1, want[1]), "%s inputs",
              p->name);
    CHECK_MSG(satisfied(&rq) == 1, "%s: not satisfied", p->name); /* its inputs are these */
    cuzk_post_request_free(&rq);
  }
  cuzk_post_proof p3 = *proof(6);
  p3.sector_count = p3.vanilla_sectors = 3;
  /* the blank circuit: three blocks of the registered one's (65,088 aux, 64,266 constraints for
   * two) and 3 x 11 inputs */
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, CUZK_CS_SHAPE);
  cuzk_cs *cs;
  CHECK(cuzk_cs_create(&cs, &o) == CUZK_R1CS_OK);
  CHECK(cuzk_post_synthesize(cs, &p3, NULL, msg, sizeof msg) == CUZK_POST_OK);
  CHECK_MSG(cuzk_cs_num_inputs(cs) == 34 && cuzk_cs_num_aux(cs) == 65088 / 2 * 3 &&
                cuzk_cs_num_constraints(cs) == 64266 / 2 * 3,
            "3-sector circuit: %zu inputs, %zu aux, %zu constraints", cuzk_cs_num_inputs(cs),
            cuzk_cs_num_aux(cs), cuzk_cs_num_constraints(cs));
  cuzk_cs_destroy(cs);
  CHECK_MSG(synthetic_request(&rq, &p3, ids, 2, 1, 1, msg, sizeof msg) == CUZK_POST_OK, "%s", msg);
  if (rq.proof) {
    CHECK(cuzk_post_num_public_inputs(&p3) == 33 &&
          cuzk_post_request_public_inputs(in, &rq) == CUZK_POST_OK);
    CHECK(block_is(in, 0, &rq, 0, s3[0]) && block_is(in, 1, &rq, 1, s3[1]) &&
          block_is(in, 2, &rq, 1, s3[1]));
    CHECK(memcmp(in, in + 22, 11 * sizeof *in) != 0); /* block 0 is not the padding */
    CHECK_MSG(satisfied(&rq) == 1, "3-sector circuit: not satisfied"); /* it pads alike */
    cuzk_post_request_free(&rq);
  }
  /* proofs of positions 3 and 4 checked as partition 0 (positions 0 and 1) */
  CHECK(synthetic_request(&rq, &p3, ids, 2, 0, 1, msg, sizeof msg) == CUZK_POST_EVERIFY);
  CHECK_MSG(strstr(msg, "vanilla_proofs[0] (sector 17): sector 17, challenge 0") &&
                strstr(msg, "path indices open leaf"),
            "%s", msg);
  /* one sector more than the circuit holds */
  CHECK(synthetic_request(&rq, &p3, ids, 4, 1, 1, msg, sizeof msg) == CUZK_POST_EINVAL);
  CHECK_MSG(strstr(msg, "vanilla_proofs: 4 elements, more than the 3 sectors of one "
                        "StackedDrgWindow8MiBV1 partition"),
            "%s", msg);
}

/* A 32 GiB request at partition 1 given three sectors: checked at positions 2349 + i, refused at
 * partition 0; its inputs hold the leaves its paths open and the model's; S_w + 1 elements (and
 * 3 at 2 KiB) refused before any is read. */
static void test_request_32g(void) {
  static const uint64_t ids[3] = {5, 6000, UINT64_C(123456789012)};
  static const uint64_t first[10] = {1067476727, 221517939, 863211542, 696209328, 350088524,
                                     228743367,  798512584, 786370587, 778042358, 637041263};
  static const uint64_t last[10] = {154068696, 371153849, 675368006, 18904774,  790541802,
                                    567680015, 360846253, 303856255, 857933240, 726357838};
  const cuzk_post_proof *p = proof(8);
  cuzk_post_request rq;
  char msg[512] = "";
  CHECK_MSG(synthetic_request(&rq, p, ids, 3, 1, 1, msg, sizeof msg) == CUZK_POST_OK, "%s", msg);
  cuzk_fr *in = malloc(25839 * sizeof *in);
  if (rq.proof && in) {
    CHECK(cuzk_post_request_public_inputs(in, &rq) == CUZK_POST_OK);
    CHECK(leaves_are(in, first) && leaves_are(in + 22, last) && padded_with(in, 3, 2349, 2));
    size_t wrong = 0;
    for (size_t b = 0; b < 3; b++)
      for (unsigned c = 0; c < 10; c++) {
        const cuzk_post_merkle_proof *mp = &rq.sectors[b].proofs[c];
        uint64_t leaf = 0, below = 1;
        for (unsigned l = 0; l < cuzk_post_path_levels(p); l++) {
          leaf += mp->index[l] * below;
          below *= cuzk_post_level_arity(p, l);
        }
        cuzk_fr f;
        cuzk_fr_from_u64(&f, leaf);
        wrong += memcmp(&in[b * 11 + 1 + c], &f, sizeof f) != 0;
      }
    CHECK_MSG(wrong == 0, "%zu leaves differ from the paths'", wrong);
  }
  free(in);
  cuzk_post_request_free(&rq);
  CHECK(synthetic_request(&rq, p, ids, 3, 0, 1, msg, sizeof msg) == CUZK_POST_EVERIFY);
  CHECK_MSG(strstr(msg, "vanilla_proofs[0] (sector 5): sector 5, challenge 0"), "%s", msg);
  /* counts: refused before any element is read (these bytes would not parse) */
  static const uint8_t junk[1] = {0};
  const uint8_t **many = malloc(2350 * sizeof *many);
  size_t *lens = malloc(2350 * sizeof *lens);
  if (many && lens) {
    for (size_t i = 0; i < 2350; i++)
      many[i] = junk, lens[i] = 1;
    CHECK(cuzk_post_request_init(&rq, proof(13), ref_rnd, 0, many, lens, 2350, msg, sizeof msg) ==
          CUZK_POST_EINVAL);
    CHECK_MSG(!strcmp(msg, "vanilla_proofs: 2350 elements, more than the 2349 sectors of one "
                           "StackedDrgWindow32GiBV1_1 partition"),
              "%s", msg);
    CHECK(cuzk_post_request_init(&rq, proof(10), ref_rnd, 0, many, lens, 3, msg, sizeof msg) ==
          CUZK_POST_EINVAL);
    CHECK_MSG(!strcmp(msg, "vanilla_proofs: 3 elements, more than the 2 sectors of one "
                           "StackedDrgWindow2KiBV1_1 partition"),
              "%s", msg);
  }
  free(many);
  free(lens);
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
  for (int i = 0; i < 32; i++)
    ref_rnd[i] = (uint8_t)i;
  test_inputs_large();
  test_window_8mib();
  test_request_32g();
  for (int r = 0; r < 2; r++)
    cuzk_post_replica_free(reps[r]);
  return check_summary("test_post_circuit");
}
