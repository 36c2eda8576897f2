/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Sealing a sector in memory, its C1 vanilla proofs and their native verification, for every
 * 2 KiB registered proof (interactive V1/V1_1, synthetic, non-interactive): proofs verify, survive
 * the JSON round trip, and any changed value makes verification fail naming the challenge and the
 * part. CUZK_TEST_8MIB=1 adds the 8 MiB sector (slow under sanitizers). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuzk/porep/porep.h"
#include "cuzk/porep/vanilla.h"
#include "filecoin/seal.h"
#include "porep/c1.h"
#include "rng.h"

static void seal_and_check(unsigned proof_id, cuzk_pool *pool, bool mutate) {
  const cuzk_seal_proof *p;
  CHECK(cuzk_seal_proof_by_id(&p, proof_id) == CUZK_POREP_OK);
  uint64_t n = p->sector->nodes, s = 77 + proof_id;
  uint8_t *unpadded = malloc(n * 32), *data = malloc(n * 32);
  size_t ulen = cuzk_fr32_unpadded_size(n * 32);
  for (size_t i = 0; i < ulen; i++)
    unpadded[i] = (uint8_t)rng_next(&s);
  CHECK(cuzk_fr32_pad(data, n * 32, unpadded, ulen) == CUZK_POREP_OK);
  uint8_t prover_id[32], ticket[32], seed[32];
  cuzk_porep_prover_id(prover_id, 1000);
  memset(ticket, 3, 32);
  memset(seed, 5, 32);
  cuzk_sealed_sector ss;
  CHECK(cuzk_seal_sector(&ss, p, data, prover_id, 7, ticket, pool, NULL) == CUZK_POREP_OK);
  /* comm_d equals the streaming computation; the replica decodes back to the data */
  uint8_t comm_d[32];
  CHECK(cuzk_porep_comm_d(comm_d, data, n * 32) == CUZK_POREP_OK &&
        memcmp(comm_d, ss.comm_d, 32) == 0);
  uint8_t *back = malloc(n * 32);
  CHECK(cuzk_sdr_decode(back, ss.labels + (uint64_t)(ss.layers - 1) * n * 32, ss.replica, n) &&
        memcmp(back, data, n * 32) == 0);
  cuzk_c1 *c1 = NULL;
  CHECK(cuzk_vanilla_prove(&c1, &ss, seed) == CUZK_POREP_OK);
  char msg[512] = "";
  if (c1) {
    CHECK_MSG(cuzk_vanilla_verify(c1, msg, sizeof msg) == CUZK_POREP_OK, "%s: %s", p->name, msg);
    /* JSON round trip, then verification of what was read */
    uint8_t *json = NULL;
    size_t len = 0;
    char eb[512];
    CHECK(cuzk_c1_write_json(c1, &json, &len, eb, sizeof eb) == CUZK_POREP_OK);
    cuzk_c1 *rd = NULL;
    CHECK(json && cuzk_c1_read_json(&rd, json, len, 0, eb, sizeof eb) == CUZK_POREP_OK);
    if (rd) CHECK(cuzk_vanilla_verify(rd, msg, sizeof msg) == CUZK_POREP_OK);
    cuzk_c1_free(rd);
    if (mutate) {
      /* flip one bit in each kind of value: the verdict names where */
      cuzk_c1_challenge_proof *cp = &c1->vanilla_proofs.v[0].v[1];
      struct {
        uint8_t *byte;
        const char *part;
      } m[] = {
          {&cp->comm_d_proofs.leaf[3], "comm_d_proofs"},
          {&cp->comm_d_proofs.base.v[2].hashes.v[0][0], "comm_d_proofs"},
          {&cp->comm_r_last_proof.leaf[0], "comm_r_last_proof"},
          {&cp->comm_r_last_proof.base.v[1].hashes.v[4][7], "comm_r_last_proof"},
          {&cp->replica_column_proofs.c_x.rows.v[0][9], "c_x"},
          {&cp->replica_column_proofs.drg_parents.v[2].inclusion_proof.base.v[0].hashes.v[0][1],
           "drg_parents[2]"},
          {&cp->replica_column_proofs.exp_parents.v[7].rows.v[1][2], "exp_parents[7]"},
          {&cp->labeling_proofs.v[1].parents.v[20][5], "labeling_proofs[1]"},
          {&cp->encoding_proof.parents.v[36][0], "encoding_proof"},
      };
      for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        *m[i].byte ^= 2;
        msg[0] = 0;
        CHECK_MSG(cuzk_vanilla_verify(c1, msg, sizeof msg) != CUZK_POREP_OK &&
                      strstr(msg, "challenge 1") && strstr(msg, m[i].part),
                  "%s mutation %zu: '%s'", p->name, i, msg);
        *m[i].byte ^= 2;
      }
      CHECK(cuzk_vanilla_verify(c1, msg, sizeof msg) == CUZK_POREP_OK);
      c1->seed[0] ^= 1; /* other challenges (interactive/synthetic) or still fine (NI) */
      cuzk_porep_err e = cuzk_vanilla_verify(c1, msg, sizeof msg);
      CHECK(p->feature == CUZK_POREP_FEAT_NON_INTERACTIVE ? e == CUZK_POREP_OK
                                                          : e != CUZK_POREP_OK);
      c1->seed[0] ^= 1;
      c1->comm_r[0] ^= 1;
      CHECK(cuzk_vanilla_verify(c1, msg, sizeof msg) != CUZK_POREP_OK);
      c1->comm_r[0] ^= 1;
    }
    free(json);
    cuzk_c1_free(c1);
  }
  cuzk_sealed_sector_free(&ss);
  free(back);
  free(unpadded);
  free(data);
}

int main(void) {
  cuzk_pool *pool = NULL;
  if (cuzk_pool_create(&pool, 2) != 0) pool = NULL;
  static const unsigned two_kib[] = {0, 5, 10, 15};
  for (size_t i = 0; i < sizeof two_kib / sizeof two_kib[0]; i++)
    seal_and_check(two_kib[i], pool, true);
  if (getenv("CUZK_TEST_8MIB")) seal_and_check(6, pool, false);
  cuzk_pool_destroy(pool);
  return check_summary("test_porep_vanilla");
}
