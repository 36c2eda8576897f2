/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* PoRep C2 checks around the circuit (src/porep/c2.c, docs/spec/sdr-vanilla.md §10) on real 2 KiB
 * C1s sealed in memory (V1_1 and the synthetic variant): a good C1 passes, with and without the
 * miner/sector identity; the re-derived public inputs equal the ones the prover sees in the C1;
 * every rejected input (zero or non-canonical commitments, wrong variant, NI-PoRep, partition
 * count, another seed, a moved parent column, an altered column row, labeling parent or path
 * sibling, a wrong miner or sector) fails with a message naming
 * the field; the parameter file name is Filecoin's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuzk/filecoin/seal.h"
#include "cuzk/porep/c2.h"
#include "cuzk/porep/porep.h"
#include "cuzk/porep/vanilla.h"
#include "porep/c1.h"
#include "rng.h"

#define MINER 1234
#define SECTOR 42

static cuzk_c1 *seal_2k(unsigned proof_id, cuzk_sealed_sector *ss, cuzk_pool *pool) {
  const cuzk_seal_proof *p;
  if (cuzk_seal_proof_by_id(&p, proof_id) != CUZK_POREP_OK) return NULL;
  uint64_t n = p->sector->nodes, st = 77 + proof_id;
  size_t ulen = cuzk_fr32_unpadded_size(n * 32);
  uint8_t *unpadded = malloc(ulen), *data = malloc(n * 32);
  for (size_t i = 0; i < ulen; i++)
    unpadded[i] = (uint8_t)rng_next(&st);
  CHECK(cuzk_fr32_pad(data, n * 32, unpadded, ulen) == CUZK_POREP_OK);
  uint8_t prover_id[32], ticket[32], seed[32];
  cuzk_porep_prover_id(prover_id, MINER);
  memset(ticket, 5, 32);
  memset(seed, 6, 32);
  cuzk_c1 *c1 = NULL;
  if (cuzk_seal_sector(ss, p, data, prover_id, SECTOR, ticket, pool, NULL) == CUZK_POREP_OK)
    CHECK(cuzk_vanilla_prove(&c1, ss, seed) == CUZK_POREP_OK);
  free(unpadded);
  free(data);
  return c1;
}

/* ctx_init then check; returns the first error, message in msg. */
static cuzk_porep_err c2_checks(const cuzk_c1 *c1, const cuzk_c2_sector *sec, char *msg,
                                size_t len) {
  cuzk_c2_ctx ctx;
  msg[0] = 0;
  cuzk_porep_err e = cuzk_c2_ctx_init(&ctx, c1, msg, len);
  return e ? e : cuzk_c2_check(&ctx, sec, msg, len);
}

#define EXPECT_FAIL(c1, sec, code, needle)                                                    \
  do {                                                                                        \
    char m_[512];                                                                             \
    cuzk_porep_err e_ = c2_checks(c1, sec, m_, sizeof m_);                                    \
    CHECK_MSG(e_ == (code) && strstr(m_, needle), "expected %d '%s', got %d '%s'", (int)code, \
              needle, (int)e_, m_);                                                           \
  } while (0)

static void test_good(const cuzk_c1 *c1) {
  char msg[512];
  cuzk_c2_sector sec = {MINER, SECTOR};
  CHECK_MSG(c2_checks(c1, NULL, msg, sizeof msg) == CUZK_POREP_OK, "%s", msg);
  CHECK_MSG(c2_checks(c1, &sec, msg, sizeof msg) == CUZK_POREP_OK, "%s", msg);
  cuzk_c2_ctx ctx;
  CHECK(cuzk_c2_ctx_init(&ctx, c1, msg, sizeof msg) == CUZK_POREP_OK);
  CHECK(ctx.partitions == 1 && ctx.num_inputs == 3 + 18 * ctx.cfg.challenges);
  /* the verifier's re-derived inputs are the prover's (from the C1's challenges and columns) */
  cuzk_fr *a = calloc(ctx.num_inputs, sizeof *a), *b = calloc(ctx.num_inputs, sizeof *b);
  CHECK(cuzk_c2_public_inputs(a, &ctx, 0) == CUZK_POREP_OK);
  CHECK(cuzk_stacked_public_inputs_c1(b, &ctx.cfg, c1, 0, msg, sizeof msg) == CUZK_POREP_OK);
  CHECK(memcmp(a, b, ctx.num_inputs * sizeof *a) == 0);
  CHECK(cuzk_c2_public_inputs(a, &ctx, 1) == CUZK_POREP_EINVAL);
  free(a);
  free(b);
}

static void test_rejected(cuzk_c1 *c1) {
  cuzk_c1 save = *c1;
  cuzk_c2_sector other_sector = {MINER, SECTOR + 1}, other_miner = {MINER + 1, SECTOR};
  EXPECT_FAIL(c1, &other_sector, CUZK_POREP_EINVAL,
              "replica_id: not the one of miner 1234 sector 43");
  EXPECT_FAIL(c1, &other_miner, CUZK_POREP_EINVAL, "replica_id");

  memset(c1->seed, 0, 32);
  EXPECT_FAIL(c1, NULL, CUZK_POREP_EINVAL, "seed: all zero");
  memcpy(c1->seed, save.seed, 32);
  c1->seed[0] ^= 1; /* another seed: other challenges */
  EXPECT_FAIL(c1, NULL, CUZK_POREP_EINVAL, "replica_id, seed and comm_r give challenge");
  *c1 = save;
  memset(c1->comm_d, 0, 32);
  EXPECT_FAIL(c1, NULL, CUZK_POREP_EINVAL, "comm_d: all zero");
  *c1 = save;
  memset(c1->comm_r, 0, 32);
  EXPECT_FAIL(c1, NULL, CUZK_POREP_EINVAL, "comm_r: all zero");
  memset(c1->comm_r, 0xff, 32);
  EXPECT_FAIL(c1, NULL, CUZK_POREP_EINVAL, "comm_r: not a canonical field element");
  *c1 = save;
  c1->replica_id[31] = 0x80;
  EXPECT_FAIL(c1, NULL, CUZK_POREP_EINVAL, "replica_id: not a canonical field element");
  *c1 = save;
  c1->vanilla_variant = 1; /* StackedDrg8MiBV1 */
  EXPECT_FAIL(c1, NULL, CUZK_POREP_EINVAL, "variant StackedDrg8MiBV1 does not match");
  *c1 = save;
  c1->registered_proof = 15; /* StackedDrg2KiBV1_2_Feat_NonInteractivePoRep */
  EXPECT_FAIL(c1, NULL, CUZK_POREP_EPROOF, "NI-PoRep");
  c1->registered_proof = 99;
  EXPECT_FAIL(c1, NULL, CUZK_POREP_EPROOF, "registered_proof: unknown id 99");
  *c1 = save;
  c1->vanilla_proofs.n = 0;
  EXPECT_FAIL(c1, NULL, CUZK_POREP_EINVAL, "vanilla_proofs: 0 partitions");
  *c1 = save;
  /* a parent column moved: its index no longer matches its path (shape check) */
  cuzk_c1_column_proof *col = &c1->vanilla_proofs.v[0].v[0].replica_column_proofs.drg_parents.v[2];
  uint32_t idx = col->index;
  col->index ^= 1;
  EXPECT_FAIL(c1, NULL, CUZK_POREP_EINVAL, "vanilla_proofs[0]: challenge 0: drg_parents[2]");
  col->index = idx;
  /* one altered value of each kind: a column row, a labeling parent, a path sibling */
  cuzk_c1_challenge_proof *cp = &c1->vanilla_proofs.v[0].v[1];
  uint8_t *vals[3] = {cp->replica_column_proofs.exp_parents.v[3].rows.v[1],
                      cp->labeling_proofs.v[0].parents.v[4],
                      cp->comm_r_last_proof.base.v[0].hashes.v[0]};
  for (int i = 0; i < 3; i++) {
    vals[i][0] ^= 1;
    EXPECT_FAIL(c1, NULL, CUZK_POREP_EINVAL, "vanilla proofs do not verify: partition 0");
    vals[i][0] ^= 1;
  }
  char msg[512];
  CHECK_MSG(c2_checks(c1, NULL, msg, sizeof msg) == CUZK_POREP_OK, "restored: %s", msg);
}

static void test_param_name(void) {
  const cuzk_seal_proof *p;
  CHECK(cuzk_seal_proof_by_id(&p, 5) == CUZK_POREP_OK);
  char base[512];
  CHECK(cuzk_c2_param_base(base, sizeof base, "/var/tmp/filecoin-proof-parameters", p));
  CHECK_MSG(!strcmp(base, "/var/tmp/filecoin-proof-parameters/v28-stacked-proof-of-replication-"
                          "merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
                          "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f"),
            "%s", base);
  CHECK(!cuzk_c2_param_base(base, 40, "/var/tmp/filecoin-proof-parameters", p));
}

int main(void) {
  cuzk_pool *pool = NULL;
  if (cuzk_pool_create(&pool, 2) != 0) pool = NULL;
  test_param_name();
  static const unsigned ids[] = {5, 10}; /* V1_1 and V1_1 synthetic */
  for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
    cuzk_sealed_sector ss;
    cuzk_c1 *c1 = seal_2k(ids[i], &ss, pool);
    CHECK(c1 != NULL);
    if (!c1) continue;
    test_good(c1);
    if (i == 0) test_rejected(c1);
    cuzk_c1_free(c1);
    cuzk_sealed_sector_free(&ss);
  }
  cuzk_pool_destroy(pool);
  return check_summary("test_porep_c2");
}
