/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Tests' helpers for the engine: a 2 KiB sector sealed in memory, its C1 output as JSON, the
 * engine request that proves it (miner 1000), and running a request to its end. Header-only:
 * each test includes it once. */
#ifndef CUZK_TESTS_SEALED_C1_H
#define CUZK_TESTS_SEALED_C1_H

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "cuzk/engine/engine.h"
#include "cuzk/filecoin/seal.h"
#include "cuzk/porep/porep.h"
#include "cuzk/porep/vanilla.h"
#include "porep/c1.h"
#include "rng.h"

typedef struct {
  uint8_t *json;
  size_t len;
  cuzk_c1 *c1;
} sector;

/* A sealed 2 KiB sector's C1 (StackedDrg2KiBV1_1) as JSON; miner 1000. */
static inline bool make_sector(sector *s, uint64_t sector_num, uint64_t seed_byte,
                               cuzk_pool *pool) {
  memset(s, 0, sizeof *s);
  const cuzk_seal_proof *p;
  if (cuzk_seal_proof_by_id(&p, 5)) return false;
  uint64_t n = p->sector->nodes, st = 4242 + seed_byte;
  size_t ulen = cuzk_fr32_unpadded_size(n * 32);
  uint8_t *unpadded = malloc(ulen), *data = malloc(n * 32);
  for (size_t i = 0; i < ulen; i++)
    unpadded[i] = (uint8_t)rng_next(&st);
  bool ok = cuzk_fr32_pad(data, n * 32, unpadded, ulen) == CUZK_POREP_OK;
  uint8_t prover_id[32], ticket[32], seed[32];
  cuzk_porep_prover_id(prover_id, 1000);
  memset(ticket, 3, 32);
  memset(seed, (int)seed_byte, 32);
  cuzk_sealed_sector ss;
  ok = ok &&
       cuzk_seal_sector(&ss, p, data, prover_id, sector_num, ticket, pool, NULL) == CUZK_POREP_OK;
  if (ok) {
    ok = cuzk_vanilla_prove(&s->c1, &ss, seed) == CUZK_POREP_OK;
    char eb[512];
    ok = ok && cuzk_c1_write_json(s->c1, &s->json, &s->len, eb, sizeof eb) == CUZK_POREP_OK;
    cuzk_sealed_sector_free(&ss);
  }
  free(unpadded);
  free(data);
  CHECK(ok);
  return ok;
}

static inline cuzk_job_request porep_req(const sector *s, const char *rid, uint64_t sector_num) {
  cuzk_job_request r;
  memset(&r, 0, sizeof r);
  r.request_id = rid;
  r.kind = CUZK_KIND_POREP_SEAL_COMMIT;
  r.sector_size = 2048;
  r.registered_proof = 5;
  r.vanilla_proof = s->json;
  r.vanilla_proof_len = s->len;
  r.miner_id = 1000;
  r.sector_number = sector_num;
  return r;
}

/* Submits r and waits for its result (the job id checked). */
static inline cuzk_job_result run(cuzk_engine *e, const cuzk_job_request *r) {
  char id[CUZK_JOB_ID_LEN], msg[256];
  cuzk_job_result res;
  memset(&res, 0, sizeof res);
  if (cuzk_engine_submit(e, r, id, NULL, msg, sizeof msg) != CUZK_ENGINE_OK) {
    CHECK_MSG(0, "submit: %s", msg);
    return res;
  }
  CHECK(cuzk_engine_await(e, id, 0, &res) == CUZK_ENGINE_OK);
  CHECK(!strcmp(res.job_id, id));
  return res;
}

/* r ends FAILED, its error containing needle, with no proof. */
static inline void expect_failed(cuzk_engine *e, const cuzk_job_request *r, const char *needle) {
  cuzk_job_result res = run(e, r);
  CHECK_MSG(res.status == CUZK_JOB_FAILED && strstr(res.error, needle) && !res.proof_len,
            "status %d error '%s', expected FAILED '%s'", res.status, res.error, needle);
  cuzk_job_result_clear(&res);
}

/* Waits until each of the n jobs is in stage (cuzk_engine_get_status), polling: a condition on the
 * engine's state, never on how long something took. false if one ended or none got there before
 * the test's own timeout would stop it anyway (10 minutes). */
static inline bool wait_stage(cuzk_engine *e, char (*ids)[CUZK_JOB_ID_LEN], size_t n,
                              cuzk_job_stage stage) {
  for (int tries = 0; tries < 60000; tries++) {
    cuzk_engine_status st;
    if (cuzk_engine_get_status(e, &st) != CUZK_ENGINE_OK) return false;
    size_t there = 0, seen = 0;
    for (size_t i = 0; i < n; i++)
      for (size_t k = 0; k < st.n_jobs; k++)
        if (!strcmp(st.jobs[k].job_id, ids[i])) {
          seen++;
          there += st.jobs[k].stage == stage;
        }
    cuzk_engine_status_free(&st);
    if (there == n) return true;
    if (seen < n) return false; /* ended */
    nanosleep(&(struct timespec){0, 10000000L}, NULL);
  }
  return false;
}

/* r is refused at submit: EINVAL, the message containing needle. */
static inline void expect_refused(cuzk_engine *e, const cuzk_job_request *r, const char *needle) {
  char id[CUZK_JOB_ID_LEN], msg[256] = "";
  cuzk_engine_err err = cuzk_engine_submit(e, r, id, NULL, msg, sizeof msg);
  CHECK_MSG(err == CUZK_ENGINE_EINVAL && strstr(msg, needle),
            "submit: %d '%s', expected EINVAL '%s'", (int)err, msg, needle);
}

static inline void free_sector(sector *s) {
  free(s->json);
  cuzk_c1_free(s->c1);
}

#endif
