/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The engine's PoSt kinds (docs/engine.md "Proof kinds") on 2 KiB sectors sealed in memory.
 * Requests that do not hold end FAILED before anything is proven, naming the request field, or
 * the element, sector and challenge; PoSt parameter sets preload, evict and name their missing
 * files. Unless CUZK_TEST_ENGINE_FAST=1 (the sanitizer build), with
 * the 2 KiB TEST parameters of PARAM_DIR: a WinningPoSt and WindowPoSt partitions
 * (two sectors, and one sector padded to two) complete with proofs that verify against their own
 * request only (also the two Window proofs in one batch check); and a WinningPoSt submitted while
 * one PoRep job is proven and two wait completes before all three.
 * usage: test_engine_post PARAM_DIR
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "cuzk/engine.h"
#include "cuzk/post.h"
#include "sealed_c1.h"

#define NSEC 3

static cuzk_post_replica *replicas[NSEC]; /* 2 KiB sectors 11, 12, 13 */
static uint8_t randomness[32], other_randomness[32];

/* One sector's vanilla proof bytes for proof p (malloc'd). */
static uint8_t *vanilla(const cuzk_post_proof *p, unsigned which, const uint8_t rnd[32],
                        uint64_t sector_index, size_t *len) {
  cuzk_post_sector_proof sp;
  *len = cuzk_post_vanilla_size(p);
  uint8_t *b = malloc(*len);
  bool ok =
      b && cuzk_post_vanilla_generate(&sp, p, replicas[which], rnd, sector_index) == CUZK_POST_OK;
  if (ok) {
    ok = cuzk_post_vanilla_write(b, p, &sp) == CUZK_POST_OK;
    cuzk_post_sector_proof_free(&sp);
  }
  CHECK(ok);
  return b;
}

/* A request and the buffers behind it. */
typedef struct {
  cuzk_job_request r;
  const uint8_t *pieces[NSEC];
  size_t lens[NSEC];
  uint8_t *owned[NSEC];
} post_req;

static void req_make(post_req *q, cuzk_proof_kind kind, unsigned proof_id, const unsigned *sectors,
                     size_t n, const uint8_t rnd[32]) {
  memset(q, 0, sizeof *q);
  const cuzk_post_proof *p;
  CHECK(cuzk_post_proof_by_id(&p, proof_id) == CUZK_POST_OK);
  for (size_t i = 0; i < n; i++) {
    uint64_t idx = p->type == CUZK_POST_WINNING ? 0 : i;
    q->owned[i] = vanilla(p, sectors[i], rnd, idx, &q->lens[i]);
    q->pieces[i] = q->owned[i];
  }
  q->r.request_id = "post";
  q->r.kind = kind;
  q->r.registered_proof = proof_id;
  q->r.sector_size = 2048;
  q->r.vanilla_proofs = q->pieces;
  q->r.vanilla_proofs_len = q->lens;
  q->r.n_vanilla_proofs = n;
  q->r.randomness = rnd;
  q->r.randomness_len = 32;
  q->r.miner_id = 1000;
}

static void req_free(post_req *q) {
  for (int i = 0; i < NSEC; i++)
    free(q->owned[i]);
}

/* Everything here fails in prepare: no parameters are loaded, nothing is proven. */
static void test_bad_requests(cuzk_engine *e) {
  unsigned one[1] = {0}, two[2] = {0, 1}, swapped[2] = {1, 0};
  post_req q;
  req_make(&q, CUZK_KIND_WINNING_POST, 10, one, 1, randomness);
  expect_failed(e, &q.r, "registered_proof: 10 (StackedDrgWindow2KiBV1_1) is a window-post proof");
  q.r.registered_proof = 99;
  expect_failed(e, &q.r, "registered_proof: 99 is not a registered PoSt proof");
  req_free(&q);

  req_make(&q, CUZK_KIND_WINNING_POST, 0, two, 2, randomness);
  expect_failed(e, &q.r, "vanilla_proofs: 2 elements, but WinningPoSt takes exactly 1");
  q.r.n_vanilla_proofs = 0;
  expect_failed(e, &q.r, "vanilla_proofs: 0 elements, but WinningPoSt takes exactly 1");
  req_free(&q);

  req_make(&q, CUZK_KIND_WINNING_POST, 0, one, 1, randomness);
  q.r.randomness_len = 31;
  expect_failed(e, &q.r, "randomness: 31 bytes, expected 32");
  q.r.randomness_len = 32;
  q.r.sector_size = 8 << 20;
  expect_failed(e, &q.r, "sector_size: 8388608, but StackedDrgWinning2KiBV1 proves 2048-byte");
  q.r.sector_size = 2048;
  q.r.partition_index = 1;
  expect_failed(e, &q.r, "partition_index: 1, but WinningPoSt has one partition");
  q.r.partition_index = 0;
  q.r.randomness = other_randomness; /* the paths open other challenges */
  expect_failed(e, &q.r, "vanilla_proofs[0] (sector 11): ");
  q.r.randomness = randomness;
  static const uint8_t c1[] = "{}";
  q.r.vanilla_proof = c1;
  q.r.vanilla_proof_len = 2;
  expect_failed(e, &q.r, "vanilla_proof: set, but a PoSt job takes");
  q.r.vanilla_proof = NULL;
  q.r.vanilla_proof_len = 0;
  q.owned[0][8] ^= 1; /* comm_r's low byte: canonical still, but not H(comm_c, comm_r_last) */
  expect_failed(e, &q.r, "vanilla_proofs[0] (sector 11): ");
  q.lens[0]--;
  expect_failed(e, &q.r, "vanilla_proofs[0]: ");
  req_free(&q);

  req_make(&q, CUZK_KIND_WINDOW_POST_PARTITION, 10, swapped, 2, randomness);
  expect_failed(e, &q.r, "vanilla_proofs[1]: sector 11 after sector 12");
  req_free(&q);
  req_make(&q, CUZK_KIND_WINDOW_POST_PARTITION, 10, two, 2, randomness);
  q.pieces[1] = q.pieces[0];
  q.lens[1] = q.lens[0];
  expect_failed(e, &q.r, "vanilla_proofs[1]: sector 11 after sector 11");
  req_free(&q);
}

/* PoSt parameter sets go through the SRS manager's tiers like PoRep's. */
static void test_srs(cuzk_engine *e) {
  bool already = true, was = false;
  uint64_t ms = 0, freed = 0;
  char msg[256] = "";
  CHECK_MSG(cuzk_engine_preload(e, "winning-2k", &already, &ms, msg, sizeof msg) == CUZK_ENGINE_OK,
            "%s", msg);
  CHECK(!already);
  cuzk_engine_status st;
  CHECK(cuzk_engine_get_status(e, &st) == CUZK_ENGINE_OK);
  bool hot = false;
  for (size_t i = 0; i < st.n_srs; i++)
    if (!strcmp(st.srs[i].circuit_id, "winning-2k"))
      hot = st.srs[i].tier == CUZK_SRS_HOT && st.srs[i].bytes > 10000000u;
  CHECK(hot);
  cuzk_engine_status_free(&st);
  CHECK(cuzk_engine_evict(e, "winning-2k", &was, &freed) == CUZK_ENGINE_OK && was && freed);
  CHECK(cuzk_engine_preload(e, "wpost-64g", &already, &ms, msg, sizeof msg) == CUZK_ENGINE_EIO);
  CHECK_MSG(strstr(msg, "8-8-2-2627e4006b67f99cef990c0a47d5426cb7ab0a0ad58fc1061547bf2d28b09def"),
            "%s", msg);
}

/* The proof of a completed job against the request (its own or another's). */
static bool verifies(const char *dir, const post_req *q, const cuzk_job_result *res) {
  const cuzk_post_proof *p;
  char base[4096], msg[256];
  cuzk_g16_pvk *pvk = NULL;
  cuzk_g16_proof pf;
  cuzk_post_request rq;
  if (res->proof_len != CUZK_G16_PROOF_BYTES || cuzk_post_proof_by_id(&p, q->r.registered_proof) ||
      !cuzk_post_param_base(base, sizeof base, dir, p) ||
      cuzk_g16_pvk_load(base, &pvk, msg, sizeof msg) || cuzk_g16_proof_read(&pf, res->proof) ||
      cuzk_post_request_init(&rq, p, q->r.randomness, q->r.partition_index, q->pieces, q->lens,
                             q->r.n_vanilla_proofs, msg, sizeof msg)) {
    cuzk_g16_pvk_free(pvk);
    return false;
  }
  bool ok = false;
  if (cuzk_post_verify(&ok, &rq, pvk, &pf)) ok = false;
  cuzk_post_request_free(&rq);
  cuzk_g16_pvk_free(pvk);
  return ok;
}

/* Two Window partitions' proofs in one batch check: accepted together, refused swapped. */
static void test_batch(const char *dir, const post_req *q1, const cuzk_job_result *r1,
                       const post_req *q2, const cuzk_job_result *r2) {
  const cuzk_post_proof *p;
  char base[4096], msg[256];
  cuzk_g16_pvk *pvk = NULL;
  cuzk_post_request a, b;
  cuzk_g16_proof pf[2];
  CHECK(cuzk_post_proof_by_id(&p, 10) == CUZK_POST_OK);
  if (!cuzk_post_param_base(base, sizeof base, dir, p) ||
      cuzk_g16_pvk_load(base, &pvk, msg, sizeof msg) || cuzk_g16_proof_read(&pf[0], r1->proof) ||
      cuzk_g16_proof_read(&pf[1], r2->proof)) {
    CHECK_MSG(0, "batch: %s", msg);
    cuzk_g16_pvk_free(pvk);
    return;
  }
  CHECK(cuzk_post_request_init(&a, p, q1->r.randomness, 0, q1->pieces, q1->lens,
                               q1->r.n_vanilla_proofs, msg, sizeof msg) == CUZK_POST_OK);
  CHECK(cuzk_post_request_init(&b, p, q2->r.randomness, 0, q2->pieces, q2->lens,
                               q2->r.n_vanilla_proofs, msg, sizeof msg) == CUZK_POST_OK);
  const cuzk_post_request *both[2] = {&a, &b}, *swapped[2] = {&b, &a};
  bool ok = false;
  CHECK(cuzk_post_verify_batch(&ok, both, pvk, pf, 2) == CUZK_POST_OK && ok);
  CHECK(cuzk_post_verify_batch(&ok, swapped, pvk, pf, 2) == CUZK_POST_OK && !ok);
  cuzk_post_request_free(&a);
  cuzk_post_request_free(&b);
  cuzk_g16_pvk_free(pvk);
}

static void test_proofs(cuzk_engine *e, const char *dir) {
  unsigned one[1] = {0}, two[2] = {0, 1}, last[1] = {2};
  post_req win, win_other, wpost, wpost_one;
  req_make(&win, CUZK_KIND_WINNING_POST, 0, one, 1, randomness);
  req_make(&win_other, CUZK_KIND_WINNING_POST, 0, one, 1, other_randomness);
  req_make(&wpost, CUZK_KIND_WINDOW_POST_PARTITION, 10, two, 2, randomness);
  req_make(&wpost_one, CUZK_KIND_WINDOW_POST_PARTITION, 10, last, 1, randomness);
  cuzk_job_result a = run(e, &win.r), b = run(e, &wpost.r), c = run(e, &wpost_one.r);
  CHECK_MSG(a.status == CUZK_JOB_COMPLETED, "winning: %d %s", a.status, a.error);
  CHECK_MSG(b.status == CUZK_JOB_COMPLETED, "window: %d %s", b.status, b.error);
  CHECK_MSG(c.status == CUZK_JOB_COMPLETED, "window (1 sector): %d %s", c.status, c.error);
  CHECK(verifies(dir, &win, &a));
  CHECK(!verifies(dir, &win_other, &a)); /* other randomness: other challenges */
  CHECK(verifies(dir, &wpost, &b));
  CHECK(verifies(dir, &wpost_one, &c));
  CHECK(!verifies(dir, &wpost_one, &b));
  test_batch(dir, &wpost, &b, &wpost_one, &c);
  cuzk_job_result_clear(&a);
  cuzk_job_result_clear(&b);
  cuzk_job_result_clear(&c);
  req_free(&win);
  req_free(&win_other);
  req_free(&wpost);
  req_free(&wpost_one);
  char *m = cuzk_engine_metrics_text(e);
  CHECK(m && strstr(m, "cuzk_proofs_completed{proof_kind=\"winning_post\"} 1\n"));
  CHECK(m && strstr(m, "cuzk_proofs_completed{proof_kind=\"window_post\"} 2\n"));
  free(m);
}

/* Three PoRep jobs (NORMAL), then a WinningPoSt (CRITICAL) once the first is being proven and the
 * second fills the prove queue: the WinningPoSt goes into the full queue, its lane proves it at
 * once and the PoRep proof in flight pauses for it, so it completes before all three. */
static void test_priority(cuzk_engine *e, const sector *s) {
  char ids[3][CUZK_JOB_ID_LEN], w[CUZK_JOB_ID_LEN], msg[256];
  for (int i = 0; i < 3; i++) {
    cuzk_job_request r = porep_req(s, "porep", 1);
    CHECK(cuzk_engine_submit(e, &r, ids[i], NULL, msg, sizeof msg) == CUZK_ENGINE_OK);
  }
  /* the first PoRep partition in the prover and the second waiting in the (full) prove queue:
   * the WinningPoSt's partition must go in anyway, ahead of it */
  for (int i = 0; i < 3000; i++) {
    char *m = cuzk_engine_metrics_text(e);
    bool proving =
        m && strstr(m, "\ncuzk_prove_active 1\n") && strstr(m, "\ncuzk_prove_queue_depth 1\n");
    free(m);
    if (proving) break;
    nanosleep(&(struct timespec){0, 10000000L}, NULL);
  }
  unsigned one[1] = {0};
  post_req win;
  req_make(&win, CUZK_KIND_WINNING_POST, 0, one, 1, randomness);
  CHECK(cuzk_engine_submit(e, &win.r, w, NULL, msg, sizeof msg) == CUZK_ENGINE_OK);
  cuzk_job_result res;
  CHECK(cuzk_engine_await(e, w, 0, &res) == CUZK_ENGINE_OK);
  CHECK_MSG(res.status == CUZK_JOB_COMPLETED, "winning: %d %s", res.status, res.error);
  cuzk_job_result_clear(&res);
  for (int i = 0; i < 3; i++) { /* still running or queued when the WinningPoSt was done: even
                                 * the one in the prover, which was paused for it */
    CHECK(cuzk_engine_await(e, ids[i], 1, &res) == CUZK_ENGINE_OK);
    CHECK_MSG(res.status == CUZK_JOB_TIMEOUT, "PoRep job %d: status %d before the WinningPoSt", i,
              res.status);
  }
  for (int i = 0; i < 3; i++) {
    CHECK(cuzk_engine_await(e, ids[i], 0, &res) == CUZK_ENGINE_OK);
    CHECK_MSG(res.status == CUZK_JOB_COMPLETED, "PoRep job %d: %d %s", i, res.status, res.error);
    cuzk_job_result_clear(&res);
  }
  req_free(&win);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_engine_post PARAM_DIR\n");
    return 2;
  }
  const char *dir = argv[1];
  cuzk_pool *pool = NULL;
  if (cuzk_pool_create(&pool, 2) != CUZK_POOL_OK) return 1;
  memset(randomness, 0x2a, 32);
  randomness[31] &= 0x3f;
  memset(other_randomness, 0x2b, 32);
  other_randomness[31] &= 0x3f;
  const cuzk_post_proof *p;
  CHECK(cuzk_post_proof_by_id(&p, 0) == CUZK_POST_OK);
  uint8_t prover_id[32], ticket[32], *data = malloc(2048);
  cuzk_porep_prover_id(prover_id, 1000);
  memset(ticket, 9, 32);
  uint64_t st = 77;
  for (int i = 0; i < NSEC; i++) {
    for (int k = 0; k < 2048; k++)
      data[k] = (uint8_t)rng_next(&st);
    for (int k = 31; k < 2048; k += 32)
      data[k] &= 0x3f; /* Fr32: every node below 2^254 */
    char msg[256];
    CHECK_MSG(cuzk_post_replica_seal(&replicas[i], p, data, prover_id, 11 + (uint64_t)i, ticket,
                                     pool, msg, sizeof msg) == CUZK_POST_OK,
              "%s", msg);
  }
  free(data);
  sector porep;
  bool have_porep = make_sector(&porep, 1, 7, pool);
  cuzk_pool_destroy(pool);

  cuzk_engine_config c;
  cuzk_engine_config_default(&c);
  c.threads = 2;
  c.param_cache = dir;
  c.generate_test_params = false; /* the fixtures made them */
  cuzk_engine *e = NULL;
  char msg[256];
  CHECK_MSG(cuzk_engine_create(&e, &c, msg, sizeof msg) == CUZK_ENGINE_OK, "%s", msg);
  if (!e) return check_summary("test_engine_post");
  test_bad_requests(e);
  test_srs(e);
  const char *fast = getenv("CUZK_TEST_ENGINE_FAST");
  if (!fast || strcmp(fast, "1")) {
    test_proofs(e, dir);
    if (have_porep) test_priority(e, &porep);
  }
  cuzk_engine_destroy(e);
  for (int i = 0; i < NSEC; i++)
    cuzk_post_replica_free(replicas[i]);
  if (have_porep) free_sector(&porep);
  return check_summary("test_engine_post");
}
