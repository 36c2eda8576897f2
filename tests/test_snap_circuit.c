/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * EmptySectorUpdateCircuit (docs/spec/snap-circuit.md §7-§10):
 *  - inputs / aux / constraints of every registered size equal §10.2 (the 2 KiB and 32 GiB
 *    totals are the reference's asserted counts, 1,705,039 and 81,049,499); the 512 MiB, 32 GiB
 *    and 64 GiB circuits are counted in SHAPE mode only without CUZK_TEST_ENGINE_FAST=1;
 *  - the five v28 parameter file names of §9;
 *  - with a real 2 KiB update the circuit is satisfied (CHECK mode, then PROVE mode's a·b = c)
 *    and its inputs equal the public inputs of §8 (first input h_select = 1 at 2 KiB); a leaf, a
 *    sibling or an apex leaf changed behind the request's checks leaves it unsatisfied; every mode
 *    gives the same counts;
 *  - partitions, trivial at 2 KiB: a 2 KiB sector split in four as 8 MiB is (below) — every
 *    partition satisfied with first input k + 32, partitions 1 and 2 swapped not, the last
 *    partition index verified, the next refused by the verifier and the circuit, naming it; with
 *    CUZK_TEST_8MIB=1 the same checks on a real 8 MiB update (partitions 1 and 2).
 * Proofs are made by tests/cli/snap.sh (cuzk-bench, noble) and tests/test_engine_snap.c (the
 * engine).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuzk/snap/snap.h"
#include "pce_check.h"
#include "rng.h"

static void test_counts(bool fast) {
  static const size_t want[5][2] = {{1703569, 1705039},
                                    {9998039, 10007503},
                                    {57401314, 57450479},
                                    {80978488, 81049499},
                                    {84931220, 85006101}};
  for (unsigned i = 0; i < CUZK_SNAP_NUM_PROOFS; i++) {
    if (fast && i >= 2) break;
    const cuzk_snap_proof *p = cuzk_snap_proof_at(i);
    cuzk_cs_opts o;
    cuzk_cs_opts_default(&o, CUZK_CS_SHAPE);
    cuzk_cs *cs;
    CHECK(cuzk_cs_create(&cs, &o) == CUZK_R1CS_OK);
    char msg[256] = "";
    CHECK_MSG(cuzk_snap_synthesize(cs, p, NULL, 0, msg, sizeof msg) == CUZK_SNAP_OK, "%s", msg);
    size_t in = cuzk_cs_num_inputs(cs), aux = cuzk_cs_num_aux(cs),
           cons = cuzk_cs_num_constraints(cs);
    CHECK_MSG(in == 5 && aux == want[i][0] && cons == want[i][1],
              "%s: %zu inputs, %zu aux, %zu constraints; expected 5, %zu, %zu", p->name, in, aux,
              cons, want[i][0], want[i][1]);
    cuzk_cs_destroy(cs);
  }
}

static void test_names(void) {
  static const char *const stems[5] = {
      "8-0-0-fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194",
      "8-0-0-92180959e1918d26350b8e6cfe217bbdd0a2d8de51ebec269078b364b715ad63",
      "8-0-0-61fa69f38b9cc771ba27b670124714b4ea77fbeae05e377fb859c4a43b73a30c",
      "8-8-0-3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18",
      "8-8-2-102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7"};
  for (unsigned i = 0; i < CUZK_SNAP_NUM_PROOFS; i++) {
    char id[256], want[256], base[300];
    CHECK(cuzk_snap_cache_id(id, sizeof id, cuzk_snap_proof_at(i)) == CUZK_SNAP_OK);
    snprintf(want, sizeof want, "empty-sector-update-merkletree-poseidon_hasher-%s", stems[i]);
    CHECK_MSG(!strcmp(id, want), "%s", id);
    CHECK(cuzk_snap_param_base(base, sizeof base, "/p", cuzk_snap_proof_at(i)));
    CHECK(!strncmp(base, "/p/v28-empty-sector-update-", 27));
  }
}

static cuzk_snap_sector *sector;
static uint8_t c_old[32], c_d[32], c_new[32];

static bool make_request(cuzk_snap_request *rq) {
  const cuzk_snap_proof *p = cuzk_snap_proof_at(0);
  cuzk_snap_partition_proof pp;
  if (cuzk_snap_vanilla_generate(&pp, p, sector, 0)) return false;
  size_t len = cuzk_snap_vanilla_size(p);
  uint8_t *b = malloc(len);
  bool ok = b && cuzk_snap_vanilla_write(b, p, &pp) == CUZK_SNAP_OK;
  const uint8_t *v[1] = {b};
  char msg[256] = "";
  ok = ok && cuzk_snap_request_init(rq, p, c_old, c_d, c_new, v, &len, 1, msg, sizeof msg) ==
                 CUZK_SNAP_OK;
  CHECK_MSG(ok, "request: %s", msg);
  free(b);
  cuzk_snap_partition_free(&pp);
  return ok;
}

/* Partition k of rq synthesized in mode, CHECK (cuzk_cs_is_satisfied, with constraint names) or
 * PROVE (a_i · b_i = c_i for every row of PROVE mode's evaluations: the same relation at a fifth
 * of the cost): 1 satisfied, 0 not, -1 error. The circuit's inputs are compared with §8's, whose
 * first must be `first`. */
static int satisfied_in(cuzk_cs_mode mode, const cuzk_snap_request *rq, unsigned k,
                        uint64_t first) {
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, mode);
  cuzk_cs *cs;
  if (cuzk_cs_create(&cs, &o)) return -1;
  int sat = -1;
  char msg[256] = "";
  if (cuzk_snap_synthesize(cs, rq->proof, rq, k, msg, sizeof msg) == CUZK_SNAP_OK) {
    cuzk_cs_check r;
    cuzk_cs_result res;
    if (mode == CUZK_CS_CHECK) {
      if (cuzk_cs_is_satisfied(cs, &r) == CUZK_R1CS_OK) sat = r.satisfied;
    } else {
      cuzk_cs_result_get(cs, &res);
      sat = 1;
      for (size_t i = 0; i < res.num_constraints && sat; i++) {
        cuzk_fr ab;
        cuzk_fr_mul(&ab, &res.a[i], &res.b[i]);
        sat = cuzk_fr_eq(&ab, &res.c[i]);
      }
    }
    cuzk_cs_result_get(cs, &res);
    cuzk_fr in[CUZK_SNAP_PUBLIC_INPUTS], want;
    CHECK(cuzk_snap_public_inputs(in, rq->proof, k, rq->comm_r_old, rq->comm_d_new,
                                  rq->comm_r_new) == CUZK_SNAP_OK);
    CHECK_MSG(res.num_inputs == 5 && !memcmp(in, res.inputs + 1, sizeof in),
              "partition %u: the circuit's inputs differ from §8's", k);
    cuzk_fr_from_u64(&want, first);
    CHECK_MSG(cuzk_fr_eq(&in[0], &want), "partition %u: first input", k);
  } else {
    CHECK_MSG(0, "partition %u: %s", k, msg);
  }
  cuzk_cs_destroy(cs);
  return sat;
}

/* 2 KiB: k = 0, h_select = 1 */
static int satisfied(const cuzk_snap_request *rq) { return satisfied_in(CUZK_CS_PROVE, rq, 0, 1); }

static bool synth_snap(cuzk_cs *cs, void *ctx, bool values) {
  const cuzk_snap_request *rq = ctx;
  return cuzk_snap_synthesize(cs, rq->proof, values ? rq : NULL, 0, NULL, 0) == CUZK_SNAP_OK;
}

static void test_satisfied(void) {
  cuzk_snap_request rq;
  if (!make_request(&rq)) return;
  cuzk_snap_partition_proof *pp = &rq.parts[0];
  CHECK(satisfied_in(CUZK_CS_CHECK, &rq, 0, 1) == 1);
  pp->proofs[4].r_old.leaf[0] ^= 1; /* behind the checks */
  CHECK(satisfied(&rq) == 0);
  pp->proofs[4].r_old.leaf[0] ^= 1;
  pp->proofs[1].d_new.sib[1][2] ^= 1;
  CHECK(satisfied(&rq) == 0);
  pp->proofs[1].d_new.sib[1][2] ^= 1;
  pp->apex[5][0] ^= 1;
  CHECK(satisfied(&rq) == 0);
  pp->apex[5][0] ^= 1;
  pp->proofs[7].r_new.sib[3][1] ^= 1;
  CHECK(satisfied(&rq) == 0);
  pp->proofs[7].r_new.sib[3][1] ^= 1;
  CHECK(satisfied(&rq) == 1);
  /* the same counts in every mode */
  cuzk_cs_mode modes[4] = {CUZK_CS_SHAPE, CUZK_CS_RECORD, CUZK_CS_WITNESS, CUZK_CS_PROVE};
  for (int m = 0; m < 4; m++) {
    cuzk_cs_opts o;
    cuzk_cs_opts_default(&o, modes[m]);
    cuzk_cs *cs;
    CHECK(cuzk_cs_create(&cs, &o) == CUZK_R1CS_OK);
    bool vals = modes[m] == CUZK_CS_WITNESS || modes[m] == CUZK_CS_PROVE;
    CHECK(cuzk_snap_synthesize(cs, rq.proof, vals ? &rq : NULL, 0, NULL, 0) == CUZK_SNAP_OK);
    CHECK_MSG(cuzk_cs_num_aux(cs) == 1703569 && cuzk_cs_num_constraints(cs) == 1705039, "mode %s",
              cuzk_cs_mode_name(modes[m]));
    cuzk_cs_destroy(cs);
  }
  /* the pre-compiled evaluator gives PROVE mode's a, b, c and densities */
  pce_check("EmptySectorUpdate 2KiB", synth_snap, &rq, NULL);
  cuzk_snap_request_free(&rq);
}

/* ---- a 2 KiB sector cut like 8 MiB ---------------------------------------------------------- */
/* The partition machinery — kh = k + h_select·2^pbl and its bits, the partition path from the
 * apex root to comm_d_new, the partition bits above each challenge's random bits, the digest
 * index — is trivial at 2 KiB (one partition, pbl = 0) and costs 10 M constraints a partition at
 * 8 MiB. The update code takes every constant from the proof's entry, so a 2 KiB sector split as
 * 8 MiB is (P = 4, pbl = 2, h = hs[3] with hs = 1..6 so h_select = 8, first input k + 32) runs
 * all of it at 888,183 constraints: the reference's circuit with other constants, not a
 * registered proof. */
static cuzk_snap_proof mini;

static void make_mini(void) {
  mini = *cuzk_snap_proof_at(0);
  mini.name = "2KiB-in-4";
  mini.partitions = 4;
  mini.pbl = 2;
  for (unsigned i = 0; i < CUZK_SNAP_HS; i++)
    mini.hs[i] = 1 + i;
  mini.h = mini.hs[3];     /* 4: 16 values of rho */
  mini.h_select = 1u << 3; /* h first at index 3, as at 8 MiB and above */
  mini.rb = mini.cbl - mini.pbl;
  mini.cpd = 254 / mini.rb;
  mini.digests = (mini.challenges + mini.cpd - 1) / mini.cpd;
  mini.tree_d_low = mini.cbl - mini.pbl - mini.abl; /* 1: four runs of 8 apex leaves on row 1 */
}

/* An update of p's sector with random data and a checked request of its P partitions. */
static bool update_request(cuzk_snap_request *rq, const cuzk_snap_proof *p, uint64_t seed) {
  const size_t nodes = p->sector->nodes;
  uint8_t *data = malloc(nodes * 32), prover[32] = {5}, ticket[32] = {6};
  if (!data) return false;
  for (size_t i = 0; i < nodes; i++) {
    cuzk_fr x;
    rng_fr(&seed, &x);
    cuzk_fr_to_bytes(data + 32 * i, &x);
    data[32 * i + 31] &= 0x3f;
  }
  cuzk_snap_sector *s = NULL;
  char msg[256] = "";
  bool ok = cuzk_snap_sector_update(&s, p, data, prover, 13, ticket, NULL, NULL, msg, sizeof msg) ==
            CUZK_SNAP_OK;
  free(data);
  uint8_t co[32], cd[32], cn[32];
  if (ok) cuzk_snap_sector_comms(s, co, cd, cn, NULL);
  size_t len = cuzk_snap_vanilla_size(p), lens[CUZK_SNAP_MAX_PARTITIONS];
  uint8_t *bytes[CUZK_SNAP_MAX_PARTITIONS] = {NULL};
  for (unsigned k = 0; k < p->partitions && ok; k++) {
    cuzk_snap_partition_proof pp;
    ok = cuzk_snap_vanilla_generate(&pp, p, s, k) == CUZK_SNAP_OK;
    lens[k] = len;
    bytes[k] = malloc(len);
    ok = ok && bytes[k] && cuzk_snap_vanilla_write(bytes[k], p, &pp) == CUZK_SNAP_OK;
    cuzk_snap_partition_free(&pp);
  }
  ok = ok && cuzk_snap_request_init(rq, p, co, cd, cn, (const uint8_t *const *)bytes, lens,
                                    p->partitions, msg, sizeof msg) == CUZK_SNAP_OK;
  CHECK_MSG(ok, "%s: update request: %s", p->name, msg);
  for (unsigned k = 0; k < p->partitions; k++)
    free(bytes[k]);
  cuzk_snap_sector_free(s);
  return ok;
}

/* The partition index of rq's proof: the last partition verifies as itself, P is refused naming
 * it, partition 1's proof is not partition 2's; then partitions ks[0..n) satisfied in PROVE mode
 * with first input base + k. */
static void check_partitions(const cuzk_snap_request *rq, uint64_t base, const unsigned *ks,
                             size_t n) {
  const cuzk_snap_proof *p = rq->proof;
  const unsigned last = p->partitions - 1;
  char msg[256] = "", want[96];
  CHECK(cuzk_snap_vanilla_verify(p, last, rq->comm_r_old, rq->comm_d_new, rq->comm_r_new,
                                 &rq->parts[last], msg, sizeof msg) == CUZK_SNAP_OK);
  CHECK(cuzk_snap_vanilla_verify(p, last + 1, rq->comm_r_old, rq->comm_d_new, rq->comm_r_new,
                                 &rq->parts[last], msg, sizeof msg) == CUZK_SNAP_EINVAL);
  snprintf(want, sizeof want, "partition %u: %s has %u partitions", last + 1, p->name,
           p->partitions);
  CHECK_MSG(!strcmp(msg, want), "%s", msg);
  CHECK(cuzk_snap_vanilla_verify(p, 2, rq->comm_r_old, rq->comm_d_new, rq->comm_r_new,
                                 &rq->parts[1], msg, sizeof msg) == CUZK_SNAP_EVERIFY);
  CHECK_MSG(strstr(msg, "partition 2, challenge 0") != NULL, "%s", msg);
  for (size_t i = 0; i < n; i++)
    CHECK_MSG(satisfied_in(CUZK_CS_PROVE, rq, ks[i], base + ks[i]) == 1,
              "%s partition %u: not satisfied", p->name, ks[i]);
}

static void test_partitions(void) {
  make_mini();
  cuzk_snap_request rq;
  if (!update_request(&rq, &mini, 404)) return;
  static const unsigned all[4] = {0, 1, 2, 3};
  check_partitions(&rq, 32, all, 4);
  /* partitions 1 and 2 swapped behind the request's checks: 1 is not satisfied with 2's proof */
  cuzk_snap_partition_proof t = rq.parts[1];
  rq.parts[1] = rq.parts[2];
  rq.parts[2] = t;
  CHECK(satisfied_in(CUZK_CS_PROVE, &rq, 1, 33) == 0);
  rq.parts[2] = rq.parts[1];
  rq.parts[1] = t;
  /* partition P: refused before any synthesis */
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, CUZK_CS_SHAPE);
  cuzk_cs *cs;
  char msg[256] = "";
  CHECK(cuzk_cs_create(&cs, &o) == CUZK_R1CS_OK);
  CHECK(cuzk_snap_synthesize(cs, &mini, NULL, 4, msg, sizeof msg) == CUZK_SNAP_EINVAL);
  CHECK_MSG(!strcmp(msg, "update circuit: partition 4 of 4") && cuzk_cs_num_constraints(cs) == 0,
            "%s", msg);
  cuzk_cs_destroy(cs);
  cuzk_snap_request_free(&rq);
}

/* CUZK_TEST_8MIB=1: the same at 8 MiB, a real update (about 5 s) and partitions 1 and 2 (10 M
 * constraints each, about 2 s and 1.3 GB each in PROVE mode), first inputs 33 and 34. */
static void test_8mib(void) {
  cuzk_snap_request rq;
  if (!update_request(&rq, cuzk_snap_proof_at(1), 808)) return;
  static const unsigned two[2] = {1, 2};
  check_partitions(&rq, 32, two, 2);
  cuzk_snap_request_free(&rq);
}

int main(void) {
  const char *f = getenv("CUZK_TEST_ENGINE_FAST");
  bool fast = f && !strcmp(f, "1");
  test_names();
  test_counts(fast);
  /* random data: with zeros the encoding would add nothing and rho would go untested */
  const size_t nodes = cuzk_snap_proof_at(0)->sector->nodes;
  uint8_t *data = malloc(nodes * 32), prover[32] = {3}, ticket[32] = {4};
  uint64_t seed = 99;
  for (size_t i = 0; i < nodes; i++) {
    cuzk_fr x;
    rng_fr(&seed, &x);
    cuzk_fr_to_bytes(data + 32 * i, &x);
    data[32 * i + 31] &= 0x3f;
  }
  char msg[256] = "";
  CHECK_MSG(cuzk_snap_sector_update(&sector, cuzk_snap_proof_at(0), data, prover, 12, ticket, NULL,
                                    NULL, msg, sizeof msg) == CUZK_SNAP_OK,
            "%s", msg);
  free(data);
  if (sector) {
    cuzk_snap_sector_comms(sector, c_old, c_d, c_new, NULL);
    test_satisfied();
  }
  cuzk_snap_sector_free(sector);
  test_partitions();
  const char *big = getenv("CUZK_TEST_8MIB");
  if (big && !strcmp(big, "1")) test_8mib();
  return check_summary("test_snap_circuit");
}
