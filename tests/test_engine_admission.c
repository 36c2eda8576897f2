/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The engine's admission (docs/engine.md "Admission") with 2 KiB PoRep jobs and the TEST
 * parameters of PARAM_DIR:
 *  - a request_id of CUZK_REQUEST_ID_MAX bytes is taken, one byte more is EINVAL naming it;
 *  - queue_max: while one job runs, two NORMAL jobs wait and the third is EBUSY naming the queue
 *    limit; a CRITICAL job is still taken (its own count);
 *  - input_budget: jobs other than CRITICAL stop at 3/4 of it (EBUSY naming the byte limit), a
 *    CRITICAL one may use the rest; the bytes are given back once the jobs are prepared or
 *    cancelled, so the same submission is taken again afterwards;
 *  - a request counts what the engine holds for it (cuzk_engine_input_charge), not only its
 *    payload — 8 bytes per element and the request_id's bytes more than a bare request: a
 *    WindowPoSt request of empty elements and a 256-byte request_id, 0 payload bytes,
 *    is EBUSY under a budget whose NORMAL share is below its charge, taken as CRITICAL, and its
 *    charge is all given back when it ends;
 *  - vanilla_proofs bounded at submit by what the kind can use (EINVAL naming the field, count and
 *    bound): PoRep none, a 2 KiB WindowPoSt partition 2, a WinningPoSt 1, a 2 KiB update 1, an
 *    unknown PoSt proof the largest partition (2349); a million empty elements refused at once
 *    with nothing counted;
 *  - result_max: beyond it the oldest ended results are forgotten (ENOTFOUND), the newest kept;
 *  - a PoRep job without miner_id ends FAILED naming it (the replica_id check always runs).
 * usage: test_engine_admission PARAM_DIR
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "cuzk/engine/engine.h"
#include "sealed_c1.h"

static cuzk_engine *start(const char *dir, unsigned queue_max, uint64_t input_budget,
                          unsigned result_max) {
  cuzk_engine_config c;
  cuzk_engine_config_default(&c);
  c.threads = 2;
  c.param_cache = dir;
  c.generate_test_params = false;
  c.queue_max = queue_max;
  c.input_budget = input_budget;
  c.result_max = result_max;
  c.log_level = CUZK_LOG_ERROR;
  cuzk_engine *e = NULL;
  char msg[256];
  CHECK_MSG(cuzk_engine_create(&e, &c, msg, sizeof msg) == CUZK_ENGINE_OK, "%s", msg);
  return e;
}

/* The value of the gauge cuzk_input_bytes (UINT64_MAX if absent). */
static uint64_t input_bytes(cuzk_engine *e) {
  char *m = cuzk_engine_metrics_text(e);
  const char *at = m ? strstr(m, "\ncuzk_input_bytes ") : NULL;
  uint64_t v = at ? strtoull(at + strlen("\ncuzk_input_bytes "), NULL, 10) : UINT64_MAX;
  free(m);
  return v;
}

static cuzk_engine_err submit(cuzk_engine *e, const cuzk_job_request *r, char id[CUZK_JOB_ID_LEN],
                              char *msg, size_t len) {
  msg[0] = 0;
  return cuzk_engine_submit(e, r, id, NULL, msg, len);
}

/* Until the engine has no queued job and one running (the first job left the queue) and, with
 * `prepared`, no input bytes held: a running job keeps its input until prepared, so a test of the
 * input budget must wait for that too (under ASan preparing takes long enough to be seen). */
static void wait_running(cuzk_engine *e, bool prepared) {
  for (int i = 0; i < 60000; i++) { /* a condition, polled; the bound only ends a hang */
    char *m = cuzk_engine_metrics_text(e);
    bool ok = m && strstr(m, "\ncuzk_queue_depth 0\n") && strstr(m, "\ncuzk_running_jobs 1\n") &&
              (!prepared || strstr(m, "\ncuzk_input_bytes 0\n"));
    free(m);
    if (ok) return;
    nanosleep(&(struct timespec){0, 10000000L}, NULL);
  }
  CHECK_MSG(0, prepared ? "the first job was never prepared" : "the first job never ran");
}

static void cancel_all(cuzk_engine *e, char ids[][CUZK_JOB_ID_LEN], int n) {
  for (int i = 0; i < n; i++) {
    bool was;
    cuzk_job_result r;
    cuzk_engine_cancel(e, ids[i], &was);
    if (cuzk_engine_await(e, ids[i], 0, &r) == CUZK_ENGINE_OK) cuzk_job_result_clear(&r);
  }
}

static void test_request_id(const char *dir, const sector *s) {
  cuzk_engine *e = start(dir, 0, 0, 0);
  if (!e) return;
  char rid[CUZK_REQUEST_ID_MAX + 2], id[CUZK_JOB_ID_LEN], msg[256];
  memset(rid, 'r', sizeof rid - 1);
  rid[sizeof rid - 1] = 0; /* 257 bytes */
  cuzk_job_request r = porep_req(s, rid, 1);
  CHECK(submit(e, &r, id, msg, sizeof msg) == CUZK_ENGINE_EINVAL);
  CHECK_MSG(strstr(msg, "request_id: 257 bytes, at most 256"), "%s", msg);
  rid[CUZK_REQUEST_ID_MAX] = 0;
  r.miner_id = 0; /* taken, then failed in-band: the check needs the miner */
  cuzk_job_result res;
  CHECK(submit(e, &r, id, msg, sizeof msg) == CUZK_ENGINE_OK);
  CHECK(cuzk_engine_await(e, id, 0, &res) == CUZK_ENGINE_OK);
  CHECK_MSG(res.status == CUZK_JOB_FAILED && strstr(res.error, "miner_id: 0, but a PoRep job"),
            "%d %s", res.status, res.error);
  cuzk_job_result_clear(&res);
  cuzk_engine_destroy(e);
}

static void test_queue_max(const char *dir, const sector *s) {
  cuzk_engine *e = start(dir, 2, 0, 0);
  if (!e) return;
  char ids[5][CUZK_JOB_ID_LEN], msg[256];
  cuzk_job_request r = porep_req(s, "q", 1);
  CHECK(submit(e, &r, ids[0], msg, sizeof msg) == CUZK_ENGINE_OK);
  wait_running(e, false);
  CHECK(submit(e, &r, ids[1], msg, sizeof msg) == CUZK_ENGINE_OK);
  CHECK(submit(e, &r, ids[2], msg, sizeof msg) == CUZK_ENGINE_OK);
  char no[CUZK_JOB_ID_LEN];
  CHECK(submit(e, &r, no, msg, sizeof msg) == CUZK_ENGINE_EBUSY);
  CHECK_MSG(strstr(msg, "queue full: 2 NORMAL jobs are waiting"), "%s", msg);
  r.priority = CUZK_PRIORITY_CRITICAL; /* its own count */
  CHECK(submit(e, &r, ids[3], msg, sizeof msg) == CUZK_ENGINE_OK);
  r.priority = CUZK_PRIORITY_LOW;
  CHECK(submit(e, &r, ids[4], msg, sizeof msg) == CUZK_ENGINE_OK);
  cancel_all(e, ids, 5);
  r.priority = CUZK_PRIORITY_NORMAL; /* the queue is empty again */
  CHECK(submit(e, &r, ids[0], msg, sizeof msg) == CUZK_ENGINE_OK);
  cancel_all(e, ids, 1);
  cuzk_engine_destroy(e);
}

static void test_input_budget(const char *dir, const sector *s) {
  /* 3 jobs' charges (a C1 and the job's own bytes): NORMAL jobs may hold 2.25 of them, CRITICAL
   * ones all 3 */
  cuzk_job_request r = porep_req(s, "b", 1);
  uint64_t charge = cuzk_engine_input_charge(&r);
  CHECK_MSG(charge > s->len + sizeof(size_t) + 2, "charge %llu for a %zu-byte C1",
            (unsigned long long)charge, s->len);
  cuzk_engine *e = start(dir, 0, 3 * charge, 0);
  if (!e) return;
  char ids[4][CUZK_JOB_ID_LEN], no[CUZK_JOB_ID_LEN], msg[256];
  CHECK(submit(e, &r, ids[0], msg, sizeof msg) == CUZK_ENGINE_OK);
  wait_running(e, true); /* prepared: its input is given back */
  char *m = cuzk_engine_metrics_text(e);
  char want[64];
  snprintf(want, sizeof want, "\ncuzk_input_budget_bytes %llu\n", 3ULL * charge);
  CHECK_MSG(m && strstr(m, want), "%s", want + 1);
  free(m);
  CHECK(submit(e, &r, ids[1], msg, sizeof msg) == CUZK_ENGINE_OK);
  CHECK(submit(e, &r, ids[2], msg, sizeof msg) == CUZK_ENGINE_OK);
  /* two jobs' charges held while they wait */
  CHECK_MSG(input_bytes(e) == 2 * charge, "cuzk_input_bytes %llu, expected %llu",
            (unsigned long long)input_bytes(e), 2ULL * charge);
  CHECK(submit(e, &r, no, msg, sizeof msg) == CUZK_ENGINE_EBUSY);
  CHECK_MSG(strstr(msg, "input budget: ") && strstr(msg, "NORMAL jobs may use"), "%s", msg);
  /* the last quarter is CRITICAL's alone: HIGH work (a WindowPoSt) stops where NORMAL does */
  r.priority = CUZK_PRIORITY_HIGH;
  CHECK(submit(e, &r, no, msg, sizeof msg) == CUZK_ENGINE_EBUSY);
  char high[160];
  snprintf(high, sizeof high, "exceed the %llu bytes HIGH jobs may use", 3ULL * charge / 4 * 3);
  CHECK_MSG(strstr(msg, high), "%s", msg);
  r.priority = CUZK_PRIORITY_LOW;
  CHECK(submit(e, &r, no, msg, sizeof msg) == CUZK_ENGINE_EBUSY);
  r.priority = CUZK_PRIORITY_CRITICAL;
  CHECK(submit(e, &r, ids[3], msg, sizeof msg) == CUZK_ENGINE_OK);
  cancel_all(e, ids, 4);
  r.priority = CUZK_PRIORITY_NORMAL; /* cancelled jobs gave their bytes back */
  CHECK(submit(e, &r, ids[0], msg, sizeof msg) == CUZK_ENGINE_OK);
  CHECK(submit(e, &r, ids[1], msg, sizeof msg) == CUZK_ENGINE_OK);
  cancel_all(e, ids, 2);
  cuzk_engine_destroy(e);
}

/* A 2 KiB WindowPoSt request (StackedDrgWindow2KiBV1_1) of n elements, every one empty. */
static cuzk_job_request window_req(const uint8_t *const *pieces, const size_t *lens, size_t n,
                                   const char *rid) {
  static const uint8_t randomness[32] = {1};
  cuzk_job_request r;
  memset(&r, 0, sizeof r);
  r.request_id = rid;
  r.kind = CUZK_KIND_WINDOW_POST_PARTITION;
  r.registered_proof = 10;
  r.randomness = randomness;
  r.randomness_len = 32;
  r.vanilla_proofs = pieces;
  r.vanilla_proofs_len = lens;
  r.n_vanilla_proofs = n;
  return r;
}

static void test_input_charge(const char *dir) {
  static const uint8_t none[1];
  const uint8_t *pieces[2] = {none, none};
  size_t lens[2] = {0, 0};
  char rid[CUZK_REQUEST_ID_MAX + 1], id[CUZK_JOB_ID_LEN], msg[256];
  memset(rid, 'r', CUZK_REQUEST_ID_MAX);
  rid[CUZK_REQUEST_ID_MAX] = 0;
  cuzk_job_request r = window_req(pieces, lens, 2, rid);
  r.priority = CUZK_PRIORITY_NORMAL;
  /* no payload at all: the two lengths, the request_id and the job's record */
  uint64_t charge = cuzk_engine_input_charge(&r);
  CHECK_MSG(charge > 2 * sizeof(size_t) + CUZK_REQUEST_ID_MAX + 1, "charge %llu",
            (unsigned long long)charge);
  cuzk_job_request bare = window_req(pieces, lens, 0, ""); /* no element, an empty request_id */
  CHECK_MSG(charge - cuzk_engine_input_charge(&bare) == 2 * sizeof(size_t) + CUZK_REQUEST_ID_MAX,
            "two lengths and 256 request_id bytes counted as %llu",
            (unsigned long long)(charge - cuzk_engine_input_charge(&bare)));
  /* the NORMAL share (3/4) is below one such request, the whole budget (CRITICAL) is not */
  cuzk_engine *e = start(dir, 0, charge, 0);
  if (!e) return;
  CHECK(submit(e, &r, id, msg, sizeof msg) == CUZK_ENGINE_EBUSY);
  char want[96];
  snprintf(want, sizeof want, "this request's %llu exceed", (unsigned long long)charge);
  CHECK_MSG(strstr(msg, want) && strstr(msg, "scheduler.max_queued_bytes"), "%s", msg);
  CHECK(input_bytes(e) == 0);
  r.priority = CUZK_PRIORITY_CRITICAL;
  CHECK_MSG(submit(e, &r, id, msg, sizeof msg) == CUZK_ENGINE_OK, "%s", msg);
  cuzk_job_result res;
  CHECK(cuzk_engine_await(e, id, 0, &res) == CUZK_ENGINE_OK); /* empty sector proofs: FAILED */
  CHECK_MSG(res.status == CUZK_JOB_FAILED && strstr(res.error, "vanilla_proofs[0]"), "%d %s",
            res.status, res.error);
  cuzk_job_result_clear(&res);
  CHECK_MSG(input_bytes(e) == 0, "cuzk_input_bytes %llu after the job ended",
            (unsigned long long)input_bytes(e));
  cuzk_engine_destroy(e);
}

static void test_list_bounds(const char *dir, const sector *s) {
  cuzk_engine *e = start(dir, 0, 0, 0);
  if (!e) return;
  enum { MANY = 1000000 };
  static const uint8_t none[1];
  const uint8_t **pieces = malloc(MANY * sizeof *pieces);
  size_t *lens = calloc(MANY, sizeof *lens);
  if (!pieces || !lens) {
    CHECK(0);
    free(pieces);
    free(lens);
    cuzk_engine_destroy(e);
    return;
  }
  for (size_t i = 0; i < MANY; i++)
    pieces[i] = none;
  cuzk_job_request r = porep_req(s, "l", 1);
  r.vanilla_proofs = pieces;
  r.vanilla_proofs_len = lens;
  r.n_vanilla_proofs = 1;
  expect_refused(e, &r, "vanilla_proofs: 1 elements, at most 0 for a PoRep job");
  r = window_req(pieces, lens, 3, "l");
  expect_refused(e, &r,
                 "vanilla_proofs: 3 elements, at most 2 for a WindowPoSt partition of "
                 "StackedDrgWindow2KiBV1_1");
  r.registered_proof = 99; /* unknown: the largest partition of any WindowPoSt proof */
  r.n_vanilla_proofs = 2350;
  expect_refused(e, &r,
                 "vanilla_proofs: 2350 elements, at most 2349 for a WindowPoSt "
                 "partition of any registered proof");
  r.kind = CUZK_KIND_WINNING_POST;
  r.registered_proof = 0;
  r.n_vanilla_proofs = 2;
  expect_refused(e, &r,
                 "vanilla_proofs: 2 elements, at most 1 for a WinningPoSt of "
                 "StackedDrgWinning2KiBV1");
  r.kind = CUZK_KIND_SNAP_DEALS_UPDATE;
  expect_refused(e, &r, "vanilla_proofs: 2 elements, at most 1 for an update of StackedDrg2KiBV1");
  r.kind = CUZK_KIND_WINDOW_POST_PARTITION;
  r.registered_proof = 10;
  r.n_vanilla_proofs = MANY; /* the review's flood: nothing counted, nothing copied */
  expect_refused(e, &r, "vanilla_proofs: 1000000 elements, at most 2 for a WindowPoSt");
  CHECK(input_bytes(e) == 0);
  /* at the bound: taken (and failed in-band: the elements are empty) */
  r.n_vanilla_proofs = 2;
  cuzk_job_result res = run(e, &r);
  CHECK_MSG(res.status == CUZK_JOB_FAILED && strstr(res.error, "vanilla_proofs[0]"), "%d %s",
            res.status, res.error);
  cuzk_job_result_clear(&res);
  free(pieces);
  free(lens);
  cuzk_engine_destroy(e);
}

static void test_result_max(const char *dir, const sector *s) {
  cuzk_engine *e = start(dir, 0, 0, 2);
  if (!e) return;
  char ids[3][CUZK_JOB_ID_LEN], msg[256];
  cuzk_job_request r = porep_req(s, "t", 1);
  static const uint8_t garbage[] = "not a C1";
  r.vanilla_proof = garbage; /* fails at once */
  r.vanilla_proof_len = sizeof garbage - 1;
  cuzk_job_result res;
  for (int i = 0; i < 3; i++) {
    CHECK(submit(e, &r, ids[i], msg, sizeof msg) == CUZK_ENGINE_OK);
    CHECK(cuzk_engine_await(e, ids[i], 0, &res) == CUZK_ENGINE_OK);
    CHECK(res.status == CUZK_JOB_FAILED);
    cuzk_job_result_clear(&res);
  }
  CHECK(cuzk_engine_await(e, ids[0], 0, &res) == CUZK_ENGINE_ENOTFOUND);
  for (int i = 1; i < 3; i++) {
    CHECK(cuzk_engine_await(e, ids[i], 0, &res) == CUZK_ENGINE_OK && res.status == CUZK_JOB_FAILED);
    cuzk_job_result_clear(&res);
  }
  cuzk_engine_destroy(e);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_engine_admission PARAM_DIR\n");
    return 2;
  }
  sector s;
  if (!make_sector(&s, 1, 7, NULL)) return check_summary("test_engine_admission");
  test_request_id(argv[1], &s);
  test_queue_max(argv[1], &s);
  test_input_budget(argv[1], &s);
  test_input_charge(argv[1]);
  test_list_bounds(argv[1], &s);
  test_result_max(argv[1], &s);
  free_sector(&s);
  return check_summary("test_engine_admission");
}
