/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The engine's SnapDeals update kind (docs/engine.md "Proof kinds", docs/snap.md "Engine") on
 * 2 KiB CC sectors updated in memory. Requests that do not hold end FAILED before anything is
 * proven, naming the field or the partition: a commitment of another length or value, a PoSt
 * registered proof, another sector size, a missing or extra partition proof, a C1 sent as
 * vanilla_proof. Unless CUZK_TEST_ENGINE_FAST=1 (the sanitizer build), with the 2 KiB TEST
 * parameters of PARAM_DIR: two update jobs that meet in the held prove queue are proven in one
 * batch of two partitions (batch_max 2; the engine's log says "batch of 2") and each proof verifies
 * against its own request only.
 * usage: test_engine_snap PARAM_DIR
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuzk/engine/engine.h"
#include "cuzk/snap/snap.h"
#include "rng.h"
#include "sealed_c1.h"

typedef struct {
  cuzk_job_request r;
  uint8_t comm[3][32]; /* comm_r_old, comm_r_new, comm_d_new */
  uint8_t *vanilla;
  const uint8_t *pieces[1];
  size_t lens[1];
} snap_req;

static void req_make(snap_req *q, cuzk_snap_sector *s) {
  memset(q, 0, sizeof *q);
  const cuzk_snap_proof *p = cuzk_snap_proof_at(0);
  cuzk_snap_sector_comms(s, q->comm[0], q->comm[2], q->comm[1], NULL);
  cuzk_snap_partition_proof pp;
  q->lens[0] = cuzk_snap_vanilla_size(p);
  q->vanilla = malloc(q->lens[0]);
  CHECK(q->vanilla && cuzk_snap_vanilla_generate(&pp, p, s, 0) == CUZK_SNAP_OK &&
        cuzk_snap_vanilla_write(q->vanilla, p, &pp) == CUZK_SNAP_OK);
  cuzk_snap_partition_free(&pp);
  q->pieces[0] = q->vanilla;
  q->r.request_id = "snap";
  q->r.kind = CUZK_KIND_SNAP_DEALS_UPDATE;
  q->r.registered_proof = 0;
  q->r.sector_size = 2048;
  q->r.vanilla_proofs = q->pieces;
  q->r.vanilla_proofs_len = q->lens;
  q->r.n_vanilla_proofs = 1;
  q->r.comm_r_old = q->comm[0];
  q->r.comm_r_new = q->comm[1];
  q->r.comm_d_new = q->comm[2];
  q->r.comm_r_old_len = q->r.comm_r_new_len = q->r.comm_d_new_len = 32;
}

static void test_bad_requests(cuzk_engine *e, const snap_req *good) {
  snap_req q = *good;
  q.r.comm_d_new_len = 31;
  expect_failed(e, &q.r, "comm_d_new: 31 bytes, expected 32");
  q = *good;
  q.r.comm_r_new_len = 0;
  expect_failed(e, &q.r, "comm_r_new: 0 bytes, expected 32");
  q = *good;
  q.comm[0][2] ^= 1;
  q.r.comm_r_old = q.comm[0];
  expect_failed(e, &q.r, "vanilla_proofs[0]: partition 0: comm_r_old is not Poseidon2(comm_c");
  q = *good;
  q.r.registered_proof = 10;
  expect_failed(e, &q.r, "registered_proof: 10 is not a registered update proof (0-4)");
  q = *good;
  q.r.sector_size = 8 << 20;
  expect_failed(e, &q.r,
                "sector_size: 8388608, but StackedDrg2KiBV1 proves 2KiB sectors (2048 bytes)");
  q = *good;
  q.r.n_vanilla_proofs = 0;
  expect_failed(e, &q.r, "vanilla_proofs: 0 elements, but StackedDrg2KiBV1 has 1 partitions");
  q = *good;
  q.r.vanilla_proof = good->vanilla;
  q.r.vanilla_proof_len = 10;
  expect_failed(e, &q.r, "vanilla_proof: set, but an update job takes one bincode partition");
  q = *good;
  q.r.sector_size = 0; /* PSProve: the size comes from the registered proof */
  q.lens[0] = good->lens[0] - 1;
  q.r.vanilla_proofs_len = q.lens;
  expect_failed(e, &q.r,
                "vanilla_proofs[0]: challenge_proofs[9].proof_r_new.path[1].index: truncated");
}

/* The engine's log lines, to see the batches. */
static pthread_mutex_t log_mu = PTHREAD_MUTEX_INITIALIZER;
static unsigned batches_of_two;
static void on_log(void *user, cuzk_log_level level, const char *job_id, const char *msg) {
  (void)user, (void)level, (void)job_id;
  pthread_mutex_lock(&log_mu);
  batches_of_two += strstr(msg, "(batch of 2)") != NULL;
  pthread_mutex_unlock(&log_mu);
}

static bool verifies(const char *dir, const snap_req *q, const cuzk_job_result *res) {
  const cuzk_snap_proof *p = cuzk_snap_proof_at(0);
  char base[4096], msg[256];
  cuzk_g16_pvk *pvk;
  cuzk_g16_proof proof;
  cuzk_snap_request rq;
  bool ok = false;
  if (!cuzk_snap_param_base(base, sizeof base, dir, p) ||
      cuzk_g16_pvk_load(base, &pvk, msg, sizeof msg))
    return false;
  if (res->proof_len == CUZK_G16_PROOF_BYTES &&
      !cuzk_g16_proofs_read(&proof, 1, res->proof, res->proof_len) &&
      !cuzk_snap_request_init(&rq, p, q->comm[0], q->comm[2], q->comm[1], q->pieces, q->lens, 1,
                              msg, sizeof msg)) {
    if (cuzk_snap_verify(&ok, &rq, pvk, &proof)) ok = false;
    cuzk_snap_request_free(&rq);
  }
  cuzk_g16_pvk_free(pvk);
  return ok;
}

/* The prove stage is held until both jobs' partitions are synthesized and waiting in the prove
 * queue, so they meet there however fast or slow the machine is (a loaded machine once started the
 * first alone); released, one batch takes both at once: no wait for a batch is recorded. */
static void test_batched(cuzk_engine *e, const char *dir, const snap_req *a, const snap_req *b) {
  char ids[2][CUZK_JOB_ID_LEN], msg[256];
  cuzk_engine_hold(e, CUZK_ENGINE_HOLD_PROVING, true);
  CHECK(cuzk_engine_submit(e, &a->r, ids[0], NULL, msg, sizeof msg) == CUZK_ENGINE_OK);
  CHECK(cuzk_engine_submit(e, &b->r, ids[1], NULL, msg, sizeof msg) == CUZK_ENGINE_OK);
  CHECK(wait_stage(e, ids, 2, CUZK_STAGE_WAITING));
  cuzk_engine_hold(e, CUZK_ENGINE_HOLD_PROVING, false);
  cuzk_job_result ra, rb;
  CHECK(cuzk_engine_await(e, ids[0], 0, &ra) == CUZK_ENGINE_OK);
  CHECK(cuzk_engine_await(e, ids[1], 0, &rb) == CUZK_ENGINE_OK);
  CHECK_MSG(ra.status == CUZK_JOB_COMPLETED, "first: %d %s", ra.status, ra.error);
  CHECK_MSG(rb.status == CUZK_JOB_COMPLETED, "second: %d %s", rb.status, rb.error);
  CHECK_MSG(ra.batch_wait_ms == 0 && rb.batch_wait_ms == 0, "batch waits %llu, %llu ms",
            (unsigned long long)ra.batch_wait_ms, (unsigned long long)rb.batch_wait_ms);
  CHECK(verifies(dir, a, &ra) && verifies(dir, b, &rb));
  CHECK(!verifies(dir, a, &rb) && !verifies(dir, b, &ra));
  pthread_mutex_lock(&log_mu);
  CHECK_MSG(batches_of_two == 2, "%u partitions proven in a batch of 2", batches_of_two);
  pthread_mutex_unlock(&log_mu);
  char *m = cuzk_engine_metrics_text(e);
  CHECK(m && strstr(m, "cuzk_proofs_completed{proof_kind=\"snap_update\"} 2\n"));
  free(m);
  cuzk_job_result_clear(&ra);
  cuzk_job_result_clear(&rb);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_engine_snap PARAM_DIR\n");
    return 2;
  }
  const char *dir = argv[1];
  const cuzk_snap_proof *p = cuzk_snap_proof_at(0);
  cuzk_snap_sector *s[2] = {NULL, NULL};
  snap_req q[2];
  uint8_t prover[32], ticket[32], *data = malloc(2048);
  cuzk_porep_prover_id(prover, 1000);
  memset(ticket, 3, 32);
  uint64_t st = 5;
  for (int i = 0; i < 2; i++) {
    for (int k = 0; k < 2048; k++)
      data[k] = (uint8_t)rng_next(&st);
    for (int k = 31; k < 2048; k += 32)
      data[k] &= 0x3f;
    char msg[256];
    CHECK_MSG(cuzk_snap_sector_update(&s[i], p, data, prover, 20 + (uint64_t)i, ticket, NULL, NULL,
                                      msg, sizeof msg) == CUZK_SNAP_OK,
              "%s", msg);
    if (s[i]) req_make(&q[i], s[i]);
  }
  free(data);
  if (!s[0] || !s[1]) return check_summary("test_engine_snap");

  cuzk_engine_config c;
  cuzk_engine_config_default(&c);
  c.threads = 2;
  c.param_cache = dir;
  c.generate_test_params = false; /* the fixture made them */
  c.batch_max = 2;
  c.batch_wait_ms = CUZK_ENGINE_MAX_BATCH_WAIT_MS;
  c.precompiled = false; /* PROVE mode (synthesis.mode = "prove"): the other engine tests and the
                            daemon's run the default pre-compiled path */
  c.log = on_log;
  c.log_level = CUZK_LOG_DEBUG;
  cuzk_engine *e = NULL;
  char msg[256];
  CHECK_MSG(cuzk_engine_create(&e, &c, msg, sizeof msg) == CUZK_ENGINE_OK, "%s", msg);
  if (e) {
    test_bad_requests(e, &q[0]);
    const char *fast = getenv("CUZK_TEST_ENGINE_FAST");
    if (!fast || strcmp(fast, "1")) test_batched(e, dir, &q[0], &q[1]);
    cuzk_engine_destroy(e);
  }
  for (int i = 0; i < 2; i++) {
    free(q[i].vanilla);
    cuzk_snap_sector_free(s[i]);
  }
  return check_summary("test_engine_snap");
}
