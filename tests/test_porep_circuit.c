/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The PoRep StackedCircuit (docs/spec/porep-circuit.md §4-§6): SHAPE counts of the blank circuit
 * for the four stacked_circuit.rs test configurations (§6.1) and the real 2 KiB / 8 MiB / 512 MiB
 * / 32 GiB partitions (§6.2), and the 2 KiB matrix statistics (nnz, densities; §6.2). With a real
 * 2 KiB C1 (sealed and proven in memory): CHECK mode reports the circuit satisfied, its inputs
 * equal the public inputs of §5 and its witness equals WITNESS mode's; WITNESS witnesses checked
 * against the blank circuit's RECORD matrices stay satisfied when the (unused) labeling-proof
 * parents change and fail when a parent label (column row), a path sibling or the data leaf
 * changes; an NI C1's later partitions give §5's inputs; config and C1-shape validation.
 * Env: CUZK_TEST_8MIB=1 adds a real 8 MiB C1 in CHECK mode (satisfied; a changed column row
 * not), CUZK_TEST_POREP_CIRCUIT_64GIB=1 adds the 64 GiB SHAPE counts, CUZK_TEST_POREP_CIRCUIT_NNZ=1
 * the 8 MiB / 512 MiB matrix statistics, CUZK_TEST_POREP_CIRCUIT_SKIP_CHECK=1 skips the
 * satisfiability checks (Release ~12 s of the ~15 s, RelWithDebInfo+ASan ~25 s). */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "cuzk/filecoin/seal.h"
#include "cuzk/porep/porep.h"
#include "cuzk/porep/stacked_circuit.h"
#include "cuzk/porep/vanilla.h"
#include "cuzk/r1cs/r1cs.h"
#include "pce_check.h"
#include "porep/c1.h"
#include "rng.h"

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void shape_counts(const char *what, const cuzk_stacked_config *cfg, size_t inputs,
                         size_t aux, size_t cons) {
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, CUZK_CS_SHAPE);
  cuzk_cs *cs = NULL;
  CHECK(cuzk_cs_create(&cs, &o) == CUZK_R1CS_OK);
  if (!cs) return;
  char msg[256] = "";
  double t0 = now_s();
  CHECK_MSG(cuzk_stacked_synthesize(cs, cfg, NULL, 0, msg, sizeof msg) == CUZK_POREP_OK, "%s: %s",
            what, msg);
  double t1 = now_s();
  CHECK_MSG(cuzk_cs_num_inputs(cs) == inputs && cuzk_cs_num_aux(cs) == aux &&
                cuzk_cs_num_constraints(cs) == cons,
            "%s: inputs %zu aux %zu constraints %zu, expected %zu / %zu / %zu", what,
            cuzk_cs_num_inputs(cs), cuzk_cs_num_aux(cs), cuzk_cs_num_constraints(cs), inputs, aux,
            cons);
  CHECK(cuzk_cs_num_inputs(cs) == 1 + cuzk_stacked_num_public_inputs(cfg));
  printf("  %-22s SHAPE %zu inputs, %zu aux, %zu constraints in %.2f s\n", what,
         cuzk_cs_num_inputs(cs), cuzk_cs_num_aux(cs), cuzk_cs_num_constraints(cs), t1 - t0);
  cuzk_cs_destroy(cs);
}

static void test_shapes(void) {
  static const struct {
    const char *name;
    uint64_t nodes;
    unsigned b, s, t;
    size_t aux, cons;
  } rs[] = {
      {"stacked_circuit.rs 2", 8, 2, 0, 0, 1205053, 1206212},
      {"stacked_circuit.rs 8", 8, 8, 0, 0, 1198525, 1199620},
      {"stacked_circuit.rs 8-4", 32, 8, 4, 0, 1295435, 1296576},
      {"stacked_circuit.rs 8-4-2", 64, 8, 4, 2, 1345810, 1346982},
  };
  cuzk_stacked_config cfg;
  char msg[256];
  for (size_t i = 0; i < sizeof rs / sizeof rs[0]; i++) {
    CHECK_MSG(cuzk_stacked_config_init(&cfg, rs[i].nodes, 2, 1, rs[i].b, rs[i].s, rs[i].t, msg,
                                       sizeof msg) == CUZK_POREP_OK,
              "%s", msg);
    shape_counts(rs[i].name, &cfg, 22, rs[i].aux, rs[i].cons);
  }
  static const struct {
    unsigned id;
    size_t inputs, aux, cons;
  } real[] = {
      {0, 40, 2685673, 2687921},  /* 2 KiB */
      {1, 40, 3842449, 3844929},  /* 8 MiB */
      {2, 40, 4420837, 4423433},  /* 512 MiB */
      {5, 40, 2685673, 2687921},  /* 2 KiB V1_1 */
      {15, 40, 2685673, 2687921}, /* 2 KiB NI: 13 partitions x 2 */
  };
  for (size_t i = 0; i < sizeof real / sizeof real[0]; i++) {
    CHECK(cuzk_stacked_config_from_proof(&cfg, real[i].id) == CUZK_POREP_OK);
    const cuzk_seal_proof *p;
    CHECK(cuzk_seal_proof_by_id(&p, real[i].id) == CUZK_POREP_OK);
    shape_counts(p->name, &cfg, real[i].inputs, real[i].aux, real[i].cons);
  }
  /* 32 GiB: ~1 s in SHAPE (~3 s under ASan); 64 GiB on request */
  CHECK(cuzk_stacked_config_from_proof(&cfg, 3) == CUZK_POREP_OK);
  CHECK(cfg.layers == 11 && cfg.challenges == 18 && cfg.base_levels == 9 && cfg.sub_arity == 8 &&
        cfg.comm_d_levels == 30);
  shape_counts("StackedDrg32GiBV1", &cfg, 328, 130169893, 130278541);
  if (getenv("CUZK_TEST_POREP_CIRCUIT_64GIB")) {
    CHECK(cuzk_stacked_config_from_proof(&cfg, 4) == CUZK_POREP_OK);
    shape_counts("StackedDrg64GiBV1", &cfg, 328, 131076643, 131185849);
  }
  /* configurations the circuit cannot have */
  CHECK(cuzk_stacked_config_init(&cfg, 48, 2, 1, 8, 0, 0, msg, sizeof msg) == CUZK_POREP_EINVAL &&
        strstr(msg, "power of two"));
  CHECK(cuzk_stacked_config_init(&cfg, 64, 3, 1, 8, 0, 0, msg, sizeof msg) == CUZK_POREP_EINVAL &&
        strstr(msg, "layers"));
  CHECK(cuzk_stacked_config_init(&cfg, 64, 2, 1, 8, 0, 2, msg, sizeof msg) == CUZK_POREP_EINVAL);
  CHECK(cuzk_stacked_config_init(&cfg, 32, 2, 1, 8, 0, 0, msg, sizeof msg) == CUZK_POREP_EINVAL &&
        strstr(msg, "trees"));
  CHECK(cuzk_stacked_config_from_proof(&cfg, 99) == CUZK_POREP_EPROOF);
  /* a blank circuit cannot fill a witness */
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, CUZK_CS_WITNESS);
  cuzk_cs *cs = NULL;
  CHECK(cuzk_cs_create(&cs, &o) == CUZK_R1CS_OK);
  CHECK(cuzk_stacked_config_from_proof(&cfg, 0) == CUZK_POREP_OK);
  CHECK(cuzk_stacked_synthesize(cs, &cfg, NULL, 0, msg, sizeof msg) == CUZK_POREP_EINVAL &&
        strstr(msg, "needs a C1"));
  cuzk_cs_destroy(cs);
}

/* docs/spec/porep-circuit.md §6.2 matrix statistics (input constraints included): SHAPE with nnz
 * builds every LC. */
static void shape_nnz(const char *what, unsigned proof_id, const size_t nnz[3], size_t a_aux,
                      size_t b_aux, size_t b_in) {
  cuzk_stacked_config cfg;
  CHECK(cuzk_stacked_config_from_proof(&cfg, proof_id) == CUZK_POREP_OK);
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, CUZK_CS_SHAPE);
  o.shape_nnz = true;
  cuzk_cs *cs = NULL;
  CHECK(cuzk_cs_create(&cs, &o) == CUZK_R1CS_OK);
  if (!cs) return;
  char msg[256] = "";
  double t0 = now_s();
  CHECK_MSG(cuzk_stacked_synthesize(cs, &cfg, NULL, 0, msg, sizeof msg) == CUZK_POREP_OK, "%s",
            msg);
  cuzk_cs_enforce_input_constraints(cs);
  CHECK(cuzk_cs_finish(cs) == CUZK_R1CS_OK);
  cuzk_cs_result r;
  cuzk_cs_result_get(cs, &r);
  CHECK_MSG(r.nnz[0] == nnz[0] && r.nnz[1] == nnz[1] && r.nnz[2] == nnz[2] &&
                r.a_aux.count == a_aux && r.b_aux.count == b_aux && r.b_input.count == b_in,
            "%s: nnz %zu %zu %zu, A aux %zu, B aux %zu, B inputs %zu", what, r.nnz[0], r.nnz[1],
            r.nnz[2], r.a_aux.count, r.b_aux.count, r.b_input.count);
  printf("  %-22s SHAPE+nnz %zu / %zu / %zu, densities %zu %zu %zu in %.2f s\n", what, r.nnz[0],
         r.nnz[1], r.nnz[2], r.a_aux.count, r.b_aux.count, r.b_input.count, now_s() - t0);
  cuzk_cs_destroy(cs);
}

/* ---- with a real 2 KiB C1 -------------------------------------------------------------------- */

typedef struct {
  cuzk_sealed_sector ss;
  cuzk_c1 *c1;
  uint8_t seed[32];
  const cuzk_seal_proof *p;
} sealed;

static bool seal_2k(sealed *s, unsigned proof_id, cuzk_pool *pool) {
  memset(s, 0, sizeof *s);
  if (cuzk_seal_proof_by_id(&s->p, proof_id) != CUZK_POREP_OK) return false;
  uint64_t n = s->p->sector->nodes, st = 991 + proof_id;
  size_t ulen = cuzk_fr32_unpadded_size(n * 32);
  uint8_t *unpadded = malloc(ulen), *data = malloc(n * 32);
  for (size_t i = 0; i < ulen; i++)
    unpadded[i] = (uint8_t)rng_next(&st);
  CHECK(cuzk_fr32_pad(data, n * 32, unpadded, ulen) == CUZK_POREP_OK);
  uint8_t prover_id[32], ticket[32];
  cuzk_porep_prover_id(prover_id, 1234);
  memset(ticket, 9, 32);
  memset(s->seed, 11, 32);
  bool ok =
      cuzk_seal_sector(&s->ss, s->p, data, prover_id, 42, ticket, pool, NULL) == CUZK_POREP_OK;
  CHECK(ok);
  if (ok) CHECK(cuzk_vanilla_prove(&s->c1, &s->ss, s->seed) == CUZK_POREP_OK);
  free(unpadded);
  free(data);
  return ok && s->c1;
}

/* Synthesizes partition 0 of c1 in CHECK mode; returns whether it is satisfied (-1 on error). */
static int check_c1(const cuzk_stacked_config *cfg, const cuzk_c1 *c1, cuzk_cs **keep, char *name,
                    size_t name_len) {
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, CUZK_CS_CHECK);
  o.hint_aux = 2700000;
  o.hint_constraints = 2700000;
  cuzk_cs *cs = NULL;
  if (cuzk_cs_create(&cs, &o) != CUZK_R1CS_OK) return -1;
  char msg[512] = "";
  cuzk_porep_err e = cuzk_stacked_synthesize(cs, cfg, c1, 0, msg, sizeof msg);
  CHECK_MSG(e == CUZK_POREP_OK, "synthesize: %s", msg);
  cuzk_cs_check r;
  memset(&r, 0, sizeof r);
  int sat = -1;
  if (e == CUZK_POREP_OK && cuzk_cs_is_satisfied(cs, &r) == CUZK_R1CS_OK) sat = r.satisfied;
  if (name && name_len) snprintf(name, name_len, "%zu %s", r.first_failure, r.name);
  if (keep)
    *keep = cs;
  else
    cuzk_cs_destroy(cs);
  return sat;
}

/* The docs/spec/porep-circuit.md §5 inputs of partition k: challenges re-derived by the proof's
 * kind, parents from the sealed graph; they must also be the nodes the vanilla proofs answer. */
static void expected_inputs(cuzk_fr *pub, const sealed *s, const cuzk_stacked_config *cfg,
                            unsigned k) {
  uint64_t ch[2] = {0, 0};
  uint32_t parents[2 * 14];
  CHECK(cfg->challenges == 2);
  CHECK(cuzk_porep_challenges(ch, s->p, s->ss.replica_id, s->seed, s->ss.comm_r, k) ==
        CUZK_POREP_OK);
  for (unsigned i = 0; i < 2; i++) {
    CHECK(s->c1->vanilla_proofs.v[k].v[i].labeling_proofs.v[0].node == ch[i]);
    memcpy(&parents[i * 14], &s->ss.parents[ch[i] * 14], 14 * sizeof(uint32_t));
  }
  CHECK(cuzk_stacked_public_inputs(pub, cfg, s->c1->replica_id, s->c1->comm_d, s->c1->comm_r, ch,
                                   parents) == CUZK_POREP_OK);
  /* the prover's view from the C1 agrees */
  cuzk_fr from_c1[39];
  char msg[256] = "";
  CHECK_MSG(cuzk_stacked_public_inputs_c1(from_c1, cfg, s->c1, k, msg, sizeof msg) == CUZK_POREP_OK,
            "%s", msg);
  CHECK(memcmp(from_c1, pub, sizeof from_c1) == 0);
}

/* WITNESS mode (the prover's pre-compiled path): partition k's inputs are
 * docs/spec/porep-circuit.md §5's; returns the cs. */
static cuzk_cs *witness_c1(const sealed *s, const cuzk_stacked_config *cfg, unsigned k) {
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, CUZK_CS_WITNESS);
  cuzk_cs *cs = NULL;
  CHECK(cuzk_cs_create(&cs, &o) == CUZK_R1CS_OK);
  if (!cs) return NULL;
  char msg[512] = "";
  CHECK_MSG(cuzk_stacked_synthesize(cs, cfg, s->c1, k, msg, sizeof msg) == CUZK_POREP_OK, "%s",
            msg);
  cuzk_fr pub[39];
  expected_inputs(pub, s, cfg, k);
  cuzk_cs_result r;
  cuzk_cs_result_get(cs, &r);
  CHECK(r.num_inputs == 40 && r.num_aux == 2685673 && r.num_constraints == 2687921);
  CHECK_MSG(r.inputs && memcmp(r.inputs + 1, pub, sizeof pub) == 0,
            "%s partition %u: inputs differ from docs/spec/porep-circuit.md §5", s->p->name, k);
  return cs;
}

static void test_ni_partition(cuzk_pool *pool) {
  sealed s;
  if (!seal_2k(&s, 15, pool)) return; /* 2 KiB NI: 13 partitions of 2 challenges */
  cuzk_stacked_config cfg;
  CHECK(cuzk_stacked_config_from_proof(&cfg, 15) == CUZK_POREP_OK);
  CHECK(s.c1->vanilla_proofs.n == 13);
  cuzk_cs_destroy(witness_c1(&s, &cfg, 7));
  cuzk_cs_destroy(witness_c1(&s, &cfg, 12));
  char msg[256];
  CHECK(cuzk_stacked_check_c1(&cfg, s.c1, 13, msg, sizeof msg) == CUZK_POREP_EPARTITION);
  cuzk_c1_free(s.c1);
  cuzk_sealed_sector_free(&s.ss);
}

/* The recorded matrices of the blank circuit (RECORD) against WITNESS-mode witnesses, with the
 * buffers kept across calls. */
typedef struct {
  cuzk_cs *rec, *wit;
  cuzk_csr m[3];
  cuzk_fr *z, *v;
} rec_check;

/* The first unsatisfied row for c1's witness, SIZE_MAX if A.z o B.z = C.z holds, SIZE_MAX - 1 on
 * error. */
static size_t first_unsat(rec_check *rc, const cuzk_stacked_config *cfg, const cuzk_c1 *c1) {
  char msg[512] = "";
  cuzk_cs_reset(rc->wit);
  if (cuzk_stacked_synthesize(rc->wit, cfg, c1, 0, msg, sizeof msg) != CUZK_POREP_OK) {
    CHECK_MSG(0, "first_unsat: %s", msg);
    return SIZE_MAX - 1;
  }
  cuzk_cs_result r;
  cuzk_cs_result_get(rc->wit, &r);
  size_t rows = rc->m[0].rows;
  memcpy(rc->z, r.inputs, r.num_inputs * sizeof *rc->z);
  memcpy(rc->z + r.num_inputs, r.aux, r.num_aux * sizeof *rc->z);
  for (int k = 0; k < 3; k++)
    cuzk_csr_mul_vec(rc->v + (size_t)k * rows, &rc->m[k], rc->z);
  for (size_t i = 0; i < rows; i++) {
    cuzk_fr ab;
    cuzk_fr_mul(&ab, &rc->v[i], &rc->v[rows + i]);
    if (!cuzk_fr_eq(&ab, &rc->v[2 * rows + i])) return i;
  }
  return SIZE_MAX;
}

static bool rec_check_init(rec_check *rc, const cuzk_stacked_config *cfg) {
  memset(rc, 0, sizeof *rc);
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, CUZK_CS_RECORD);
  if (cuzk_cs_create(&rc->rec, &o) != CUZK_R1CS_OK) return false;
  cuzk_cs_opts_default(&o, CUZK_CS_WITNESS);
  if (cuzk_cs_create(&rc->wit, &o) != CUZK_R1CS_OK) return false;
  char msg[256] = "";
  CHECK_MSG(cuzk_stacked_synthesize(rc->rec, cfg, NULL, 0, msg, sizeof msg) == CUZK_POREP_OK, "%s",
            msg);
  if (cuzk_cs_finish(rc->rec) != CUZK_R1CS_OK) return false;
  for (int k = 0; k < 3; k++)
    if (cuzk_cs_matrix(rc->rec, k, &rc->m[k]) != CUZK_R1CS_OK) return false;
  size_t nz = cuzk_cs_num_inputs(rc->rec) + cuzk_cs_num_aux(rc->rec);
  rc->z = malloc(nz * sizeof *rc->z);
  rc->v = malloc(3 * rc->m[0].rows * sizeof *rc->v);
  return rc->z && rc->v;
}

static void rec_check_free(rec_check *rc) {
  cuzk_cs_destroy(rc->rec);
  cuzk_cs_destroy(rc->wit);
  free(rc->z);
  free(rc->v);
}

typedef struct {
  const cuzk_stacked_config *cfg;
  const cuzk_c1 *c1;
} porep_ctx;

static bool synth_porep(cuzk_cs *cs, void *ctx, bool values) {
  const porep_ctx *p = ctx;
  char msg[256];
  return cuzk_stacked_synthesize(cs, p->cfg, values ? p->c1 : NULL, 0, msg, sizeof msg) ==
         CUZK_POREP_OK;
}

static void test_real_2k(cuzk_pool *pool) {
  sealed s;
  if (!seal_2k(&s, 5, pool)) return;
  cuzk_stacked_config cfg;
  CHECK(cuzk_stacked_config_from_proof(&cfg, s.c1->registered_proof) == CUZK_POREP_OK);
  char msg[512] = "";
  CHECK_MSG(cuzk_stacked_check_c1(&cfg, s.c1, 0, msg, sizeof msg) == CUZK_POREP_OK, "%s", msg);

  /* docs/spec/porep-circuit.md §5 public inputs; the WITNESS-mode witness (counts and inputs
   * checked inside) */
  CHECK(cuzk_stacked_num_public_inputs(&cfg) == 39);
  cuzk_fr pub[39];
  expected_inputs(pub, &s, &cfg, 0);
  double tw = now_s();
  cuzk_cs *wit = witness_c1(&s, &cfg, 0);
  printf("  2KiB WITNESS synthesis: %.2f s\n", now_s() - tw);
  cuzk_cs_result wr;
  memset(&wr, 0, sizeof wr);
  if (wit) cuzk_cs_result_get(wit, &wr);
  double tp = now_s(); /* the pre-compiled evaluator gives PROVE mode's a, b, c and densities */
  porep_ctx pc = {&cfg, s.c1};
  pce_check("StackedDrg2KiBV1_1", synth_porep, &pc, pool);
  printf("  2KiB pre-compiled evaluator check: %.2f s\n", now_s() - tp);

  if (getenv("CUZK_TEST_POREP_CIRCUIT_SKIP_CHECK")) {
    printf("  2KiB CHECK skipped (CUZK_TEST_POREP_CIRCUIT_SKIP_CHECK)\n");
  } else {
    double t0 = now_s();
    cuzk_cs *cs = NULL;
    char name[600] = "";
    int sat = check_c1(&cfg, s.c1, &cs, name, sizeof name);
    double t1 = now_s();
    CHECK_MSG(sat == 1, "honest 2 KiB C1 not satisfied (%d): constraint %s", sat, name);
    printf("  2KiB CHECK synthesis + is_satisfied: %.2f s\n", t1 - t0);
    if (cs) {
      cuzk_cs_result r;
      cuzk_cs_result_get(cs, &r);
      CHECK(r.num_inputs == 40 && r.num_aux == 2685673 && r.num_constraints == 2687921);
      CHECK(r.inputs && memcmp(r.inputs + 1, pub, sizeof pub) == 0);
      CHECK_MSG(r.aux && wr.aux && wr.num_aux == r.num_aux &&
                    memcmp(r.aux, wr.aux, r.num_aux * sizeof *r.aux) == 0,
                "WITNESS and CHECK witnesses differ");
      if (r.inputs)
        for (size_t i = 0; i < 39; i++)
          CHECK_MSG(memcmp(&r.inputs[1 + i], &pub[i], sizeof pub[i]) == 0,
                    "public input %zu differs", i);
      cuzk_cs_destroy(cs);
    }
    /* variants: WITNESS witnesses against the blank circuit's RECORD matrices */
    double tr = now_s();
    rec_check rc;
    cuzk_c1_challenge_proof *cp = &s.c1->vanilla_proofs.v[0].v[1];
    if (rec_check_init(&rc, &cfg)) {
      CHECK(cuzk_cs_num_constraints(rc.rec) == 2687921);
      printf("  2KiB RECORD (blank): %.2f s\n", now_s() - tr);
      CHECK(first_unsat(&rc, &cfg, s.c1) == SIZE_MAX); /* honest */
      /* the labeling proofs' parent lists are not circuit inputs (docs/spec/porep-circuit.md §4.4):
       * still satisfied */
      cp->labeling_proofs.v[1].parents.v[3][0] ^= 1;
      CHECK(first_unsat(&rc, &cfg, s.c1) == SIZE_MAX);
      cp->labeling_proofs.v[1].parents.v[3][0] ^= 1;
      uint8_t *bytes[] = {
          /* parent labels: drg column rows (the labels the circuit hashes) */
          &cp->replica_column_proofs.drg_parents.v[2].rows.v[0][4],
          &cp->replica_column_proofs.exp_parents.v[5].rows.v[0][1], /* the layer-2 label */
          /* path siblings */
          &cp->comm_r_last_proof.base.v[1].hashes.v[3][2],
          &s.c1->vanilla_proofs.v[0].v[0].comm_d_proofs.base.v[4].hashes.v[0][7],
          &cp->replica_column_proofs.c_x.inclusion_proof.base.v[0].hashes.v[6][0],
          &cp->replica_column_proofs.exp_parents.v[0].inclusion_proof.base.v[1].hashes.v[0][3],
          /* the data leaf (encoding and comm_d path) */
          &cp->comm_d_proofs.leaf[0],
      };
      for (size_t k = 0; k < sizeof bytes / sizeof bytes[0]; k++) {
        *bytes[k] ^= 1;
        size_t row = first_unsat(&rc, &cfg, s.c1);
        CHECK_MSG(row < 2687921, "variant %zu: satisfied (%zu)", k, row);
        printf("  variant %zu: first unsatisfied constraint %zu\n", k, row);
        *bytes[k] ^= 1;
      }
      CHECK(first_unsat(&rc, &cfg, s.c1) == SIZE_MAX);
      printf("  2KiB RECORD + 10 WITNESS checks: %.2f s\n", now_s() - tr);
    } else {
      CHECK_MSG(0, "RECORD of the blank circuit failed");
    }
    rec_check_free(&rc);
    /* CHECK mode names the failing constraint */
    cp->replica_column_proofs.drg_parents.v[2].rows.v[0][4] ^= 1;
    CHECK_MSG(check_c1(&cfg, s.c1, NULL, name, sizeof name) == 0, "drg row change satisfied");
    printf("  CHECK, changed drg_parents[2] row 0: first failure %s\n", name);
    cp->replica_column_proofs.drg_parents.v[2].rows.v[0][4] ^= 1;
    printf("  2KiB satisfied checks and variants: %.2f s\n", now_s() - t0);
  }

  /* C1 shape validation with clear errors */
  cuzk_c1_challenge_proof *cp = &s.c1->vanilla_proofs.v[0].v[1];
  size_t keep = cp->replica_column_proofs.exp_parents.n;
  cp->replica_column_proofs.exp_parents.n = 7;
  /* the shape rules are c1_check.c's, their messages the C1 reader's (JSON paths) */
  CHECK(cuzk_stacked_check_c1(&cfg, s.c1, 0, msg, sizeof msg) == CUZK_POREP_EINVAL &&
        strstr(msg, "[0][1].replica_column_proofs.exp_parents: expected 8 column proofs, got 7"));
  cp->replica_column_proofs.exp_parents.n = keep;
  keep = cp->comm_d_proofs.base.n;
  cp->comm_d_proofs.base.n--;
  CHECK(cuzk_stacked_check_c1(&cfg, s.c1, 0, msg, sizeof msg) == CUZK_POREP_EINVAL &&
        strstr(msg, "comm_d_proofs"));
  cp->comm_d_proofs.base.n = keep;
  uint64_t idx0 = cp->comm_r_last_proof.base.v[0].index;
  cp->comm_r_last_proof.base.v[0].index = 8;
  CHECK(cuzk_stacked_check_c1(&cfg, s.c1, 0, msg, sizeof msg) == CUZK_POREP_EINVAL &&
        strstr(msg, "comm_r_last_proof.data.Single.path.path[0]: expected index < 8, got 8"));
  cp->comm_r_last_proof.base.v[0].index = (idx0 + 1) % 8;
  CHECK(cuzk_stacked_check_c1(&cfg, s.c1, 0, msg, sizeof msg) == CUZK_POREP_EINVAL &&
        strstr(msg, "comm_r_last_proof: path is for leaf"));
  cp->comm_r_last_proof.base.v[0].index = idx0;
  cp->replica_column_proofs.exp_parents.v[3].index ^= 1;
  CHECK(cuzk_stacked_check_c1(&cfg, s.c1, 0, msg, sizeof msg) == CUZK_POREP_EINVAL &&
        strstr(msg, "exp_parents[3]: column index"));
  cp->replica_column_proofs.exp_parents.v[3].index ^= 1;
  CHECK(cuzk_stacked_check_c1(&cfg, s.c1, 0, msg, sizeof msg) == CUZK_POREP_OK);
  /* not checked: not used (docs/spec/porep-circuit.md §4.4) */
  memset(cp->replica_column_proofs.c_x.rows.v[1], 0xff, 32);
  memset(cp->replica_column_proofs.drg_parents.v[0].rows.v[1], 0xff, 32);
  CHECK(cuzk_stacked_check_c1(&cfg, s.c1, 0, msg, sizeof msg) == CUZK_POREP_EINVAL &&
        strstr(msg, "drg_parents[0]") && strstr(msg, "not a field element"));
  CHECK(cuzk_stacked_check_c1(&cfg, s.c1, 1, msg, sizeof msg) == CUZK_POREP_EPARTITION);
  cuzk_stacked_config other;
  CHECK(cuzk_stacked_config_from_proof(&other, 6) == CUZK_POREP_OK); /* 8 MiB */
  CHECK(cuzk_stacked_check_c1(&other, s.c1, 0, msg, sizeof msg) == CUZK_POREP_EINVAL);

  cuzk_cs_destroy(wit);
  cuzk_c1_free(s.c1);
  cuzk_sealed_sector_free(&s.ss);
}

/* CUZK_TEST_8MIB=1: a real 8 MiB C1 satisfies the circuit in CHECK mode; one changed parent-column
 * row makes it fail at a named constraint. */
static void test_real_8m(cuzk_pool *pool) {
  sealed s;
  if (!seal_2k(&s, 6, pool)) return; /* the sealing helper takes any test size's proof */
  cuzk_stacked_config cfg;
  CHECK(cuzk_stacked_config_from_proof(&cfg, 6) == CUZK_POREP_OK);
  char name[600] = "";
  double t0 = now_s();
  int sat = check_c1(&cfg, s.c1, NULL, name, sizeof name);
  CHECK_MSG(sat == 1, "honest 8 MiB C1 not satisfied (%d): constraint %s", sat, name);
  printf("  8MiB CHECK synthesis + is_satisfied: %.2f s\n", now_s() - t0);
  uint8_t *row = s.c1->vanilla_proofs.v[0].v[1].replica_column_proofs.drg_parents.v[4].rows.v[0];
  row[3] ^= 0x10;
  sat = check_c1(&cfg, s.c1, NULL, name, sizeof name);
  CHECK_MSG(sat == 0, "8 MiB C1 with a changed column row satisfied (%d)", sat);
  printf("  8MiB changed row: first unsatisfied constraint %s\n", name);
  cuzk_c1_free(s.c1);
  cuzk_sealed_sector_free(&s.ss);
}

int main(void) {
  double t0 = now_s();
  test_shapes();
  static const size_t nnz_2k[3] = {6421005, 2689006, 5824682};
  shape_nnz("StackedDrg2KiBV1_1", 5, nnz_2k, 2674908, 685521, 1);
  if (getenv("CUZK_TEST_POREP_CIRCUIT_NNZ")) {
    static const size_t nnz_8m[3] = {9388453, 3847886, 8234882};
    static const size_t nnz_512m[3] = {10872177, 4427326, 9439982};
    shape_nnz("StackedDrg8MiBV1_1", 6, nnz_8m, 3814996, 1011289, 1);
    shape_nnz("StackedDrg512MiBV1_1", 7, nnz_512m, 4385040, 1174173, 1);
  }
  cuzk_pool *pool = NULL;
  if (cuzk_pool_create(&pool, 2) != 0) pool = NULL;
  test_real_2k(pool);
  test_ni_partition(pool);
  if (getenv("CUZK_TEST_8MIB")) test_real_8m(pool);
  cuzk_pool_destroy(pool);
  printf("  total %.2f s\n", now_s() - t0);
  return check_summary("test_porep_circuit");
}
