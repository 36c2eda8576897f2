/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The engine (include/cuzk/engine/engine.h) with real 2 KiB PoRep C1s sealed in memory and the
 * 2 KiB TEST parameters in PARAM_DIR (the ctest fixture makes them): bad requests end FAILED with a
 * reason naming the field and the engine goes on; an await times out; queued and running jobs
 * cancel; CRITICAL / NORMAL / LOW jobs are prepared in priority order whatever their submission
 * order; parameter sets preload and evict through the tiers (HOT -> WARM -> HOT from the mapping, a
 * changed file read again, WARM -> COLD; no WARM tier when it is off or the file does not fit);
 * missing parameters name the file; metrics and status count
 * what happened. Unless CUZK_TEST_ENGINE_FAST=1 (the sanitizer build sets it): two jobs with the
 * SAME request_id, one C1 as raw JSON and one in Curio's envelope, each get their own proof,
 * which verifies against its own C1 and not the other's.
 * usage: test_engine PARAM_DIR
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "cuzk/engine/engine.h"
#include "cuzk/porep/c2.h"
#include "cuzk/porep/porep.h"
#include "cuzk/post/post.h"
#include "porep/c1.h"

#include "sealed_c1.h"

/* ---- log capture (called under the engine's lock: only records) ------------------------------ */
static pthread_mutex_t log_mu = PTHREAD_MUTEX_INITIALIZER;
static char log_text[1 << 16];
static size_t log_len;

static void capture(void *user, cuzk_log_level lv, const char *job, const char *msg) {
  (void)user;
  (void)lv;
  pthread_mutex_lock(&log_mu);
  int n = snprintf(log_text + log_len, sizeof log_text - log_len, "%s %s\n", job ? job : "-", msg);
  if (n > 0 && (size_t)n < sizeof log_text - log_len) log_len += (size_t)n;
  pthread_mutex_unlock(&log_mu);
  if (getenv("CUZK_TEST_VERBOSE")) fprintf(stderr, "[%s] %s\n", job ? job : "-", msg);
}

/* position in the log of "<job> ...: 1 partitions" (prepared), or SIZE_MAX */
static size_t prepared_at(const char *job) {
  char needle[96];
  snprintf(needle, sizeof needle, "%s StackedDrg2KiBV1_1: 1 partitions", job);
  pthread_mutex_lock(&log_mu);
  const char *p = strstr(log_text, needle);
  size_t at = p ? (size_t)(p - log_text) : SIZE_MAX;
  pthread_mutex_unlock(&log_mu);
  return at;
}

static bool log_has(const char *needle) {
  pthread_mutex_lock(&log_mu);
  bool yes = strstr(log_text, needle) != NULL;
  pthread_mutex_unlock(&log_mu);
  return yes;
}

static void log_clear(void) {
  pthread_mutex_lock(&log_mu);
  log_len = 0;
  log_text[0] = 0;
  pthread_mutex_unlock(&log_mu);
}

static cuzk_engine *start_warm(const char *dir, bool generate, uint64_t warm_budget) {
  cuzk_engine_config c;
  cuzk_engine_config_default(&c);
  c.warm_budget = warm_budget;
  c.threads = 2;
  c.prove_queue = 5; /* synthesis runs ahead of the prover: the priority test holds it, and X and
                      * the four jobs' partitions all fit in the queue */
  c.param_cache = dir;
  c.generate_test_params = generate;
  c.log = capture;
  c.log_level = CUZK_LOG_DEBUG;
  c.idle_release_ms = 2000; /* test_two_proofs waits for it */
  cuzk_engine *e = NULL;
  char msg[256];
  CHECK_MSG(cuzk_engine_create(&e, &c, msg, sizeof msg) == CUZK_ENGINE_OK, "%s", msg);
  return e;
}

static cuzk_engine *start(const char *dir, bool generate) {
  return start_warm(dir, generate, CUZK_ENGINE_WARM_AUTO);
}

static void test_bad_requests(cuzk_engine *e, const sector *s) {
  cuzk_job_request r = porep_req(s, "bad", 1);
  r.kind = CUZK_KIND_SNAP_DEALS_UPDATE;
  expect_failed(e, &r, "vanilla_proof: set, but an update job takes one bincode partition proof");
  r = porep_req(s, "bad", 1);
  static const uint8_t garbage[] = "{\"registered_proof\": 7, \"vanilla_proofs\": [";
  r.vanilla_proof = garbage;
  r.vanilla_proof_len = sizeof garbage - 1;
  expect_failed(e, &r, "vanilla_proof: ");
  r = porep_req(s, "bad", 1);
  r.vanilla_proof_len = s->len / 2; /* truncated */
  expect_failed(e, &r, "vanilla_proof: ");
  r = porep_req(s, "bad", 1);
  r.vanilla_proof_len = 0;
  expect_failed(e, &r, "vanilla_proof: empty");
  r = porep_req(s, "bad", 1);
  r.sector_size = 8 << 20;
  expect_failed(e, &r, "sector_size: 8388608");
  r = porep_req(s, "bad", 1);
  r.registered_proof = 6;
  expect_failed(e, &r, "registered_proof: the request says 6, the C1 says 5");
  r = porep_req(s, "bad", 2); /* another sector number: another replica_id */
  expect_failed(e, &r, "replica_id: not the one of miner 1000 sector 2");

  char id[CUZK_JOB_ID_LEN], msg[256];
  r = porep_req(s, "bad", 1);
  r.kind = (cuzk_proof_kind)7;
  CHECK(cuzk_engine_submit(e, &r, id, NULL, msg, sizeof msg) == CUZK_ENGINE_EINVAL);
  CHECK(strstr(msg, "invalid proof_kind: 7") != NULL);
  cuzk_job_result res;
  CHECK(cuzk_engine_await(e, "no-such-job", 0, &res) == CUZK_ENGINE_ENOTFOUND);
  bool was = true;
  CHECK(cuzk_engine_cancel(e, "no-such-job", &was) == CUZK_ENGINE_ENOTFOUND);
}

static bool verifies(const char *dir, const sector *s, const uint8_t *proof, size_t len) {
  cuzk_c2_ctx ctx;
  char base[4096], msg[256];
  if (cuzk_c2_ctx_init(&ctx, s->c1, msg, sizeof msg) ||
      !cuzk_c2_param_base(base, sizeof base, dir, ctx.proof) || len != CUZK_G16_PROOF_BYTES)
    return false;
  cuzk_g16_pvk *pvk;
  if (cuzk_g16_pvk_load(base, &pvk, msg, sizeof msg)) return false;
  cuzk_g16_proof pf;
  bool ok = false;
  if (cuzk_g16_proofs_read(&pf, 1, proof, len) == CUZK_G16_OK)
    cuzk_c2_verify(&ok, NULL, &ctx, pvk, &pf, 0, 1);
  cuzk_g16_pvk_free(pvk);
  return ok;
}

/* Two jobs, one request_id, one raw C1 and one envelope, submitted together. */
/* This process's resident memory in bytes (/proc/self/statm). */
static uint64_t rss_bytes(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  unsigned long long size = 0, res = 0;
  if (f) {
    if (fscanf(f, "%llu %llu", &size, &res) != 2) res = 0;
    fclose(f);
  }
  return (uint64_t)res * (uint64_t)sysconf(_SC_PAGESIZE);
}

static void sleep_ms(long ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&t, NULL);
}

static void test_two_proofs(cuzk_engine *e, const char *dir, const sector *a, const sector *b) {
  uint8_t *env = NULL;
  size_t env_len = 0;
  char eb[512];
  CHECK(cuzk_c1_envelope_write(b->json, b->len, 2, 2048, &env, &env_len, eb, sizeof eb) ==
        CUZK_POREP_OK);
  cuzk_job_request ra = porep_req(a, "porep-1000-1", 1), rb = porep_req(b, "porep-1000-1", 2);
  rb.vanilla_proof = env;
  rb.vanilla_proof_len = env_len;
  char ida[CUZK_JOB_ID_LEN], idb[CUZK_JOB_ID_LEN], msg[256];
  log_clear();
  CHECK(cuzk_engine_submit(e, &ra, ida, NULL, msg, sizeof msg) == CUZK_ENGINE_OK);
  CHECK(cuzk_engine_submit(e, &rb, idb, NULL, msg, sizeof msg) == CUZK_ENGINE_OK);
  CHECK(strcmp(ida, idb) != 0);
  cuzk_job_result x, y;
  CHECK(cuzk_engine_await(e, ida, 0, &x) == CUZK_ENGINE_OK);
  CHECK(cuzk_engine_await(e, idb, 0, &y) == CUZK_ENGINE_OK);
  /* idle: after idle_release_ms the prover's cached buffers go back to the system */
  uint64_t busy = rss_bytes();
  for (int i = 0; i < 6000 && !log_has("cached prover memory given back"); i++)
    sleep_ms(50);
  uint64_t idle = rss_bytes();
  printf("test_engine: RSS %.0f MB when the proofs ended, %.0f MB after idle_release\n", busy / 1e6,
         idle / 1e6);
  CHECK_MSG(log_has("cached prover memory given back") && idle + 200000000u < busy,
            "RSS %.0f MB when the proofs ended, %.0f MB after idle_release", busy / 1e6,
            idle / 1e6);
  CHECK_MSG(x.status == CUZK_JOB_COMPLETED && y.status == CUZK_JOB_COMPLETED, "%d %s / %d %s",
            x.status, x.error, y.status, y.error);
  CHECK(x.proof_len == 192 && y.proof_len == 192);
  CHECK(x.synthesis_ms > 0 && x.prove_ms > 0 && x.total_ms >= x.prove_ms);
  CHECK(verifies(dir, a, x.proof, x.proof_len));
  CHECK(verifies(dir, b, y.proof, y.proof_len));
  CHECK(!verifies(dir, b, x.proof, x.proof_len));
  /* an ended job's result can be fetched again */
  cuzk_job_result again;
  CHECK(cuzk_engine_await(e, ida, 0, &again) == CUZK_ENGINE_OK);
  CHECK(again.status == CUZK_JOB_COMPLETED && again.proof_len == 192 &&
        !memcmp(again.proof, x.proof, 192));
  cuzk_job_result_clear(&again);
  cuzk_job_result_clear(&x);
  cuzk_job_result_clear(&y);
  free(env);
  char *m = cuzk_engine_metrics_text(e);
  CHECK(m && strstr(m, "cuzk_proofs_completed{proof_kind=\"porep_c2\"} 2\n"));
  CHECK(m && strstr(m, "cuzk_stage_duration_seconds_count{stage=\"verify\"} 2\n"));
  CHECK(m && strstr(m, "cuzk_proofs_failed_total 7\n"));
  free(m);
}

static bool wait_state(cuzk_engine *e, unsigned want_running) {
  for (int i = 0; i < 60000; i++) { /* a condition, polled; the bound only ends a hang */
    cuzk_engine_status st;
    if (cuzk_engine_get_status(e, &st)) return false;
    unsigned r = st.running[CUZK_KIND_POREP_SEAL_COMMIT];
    cuzk_engine_status_free(&st);
    if (r >= want_running) return true;
    sleep_ms(10);
  }
  return false;
}

/* A job X occupies the pipeline; then LOW, NORMAL, NORMAL and CRITICAL jobs arrive in that order
 * while synthesis is held (so all four are queued before any is picked, however slowly this
 * thread runs) and are prepared in scheduling order: the one synthesis worker takes the first
 * NORMAL, the second NORMAL, then LOW (first in, first out within a priority); CRITICAL goes
 * first — to that worker or to the CRITICAL lane, which may prepare it beside the first NORMAL,
 * so it is prepared before the second NORMAL; the prover is held meanwhile, so none of them is
 * proven. Everything is cancelled: X while running, the rest queued or running. An await with a
 * short timeout answers TIMEOUT while the job goes on. */
static void test_order_cancel_timeout(cuzk_engine *e, const sector *s) {
  char x[CUZK_JOB_ID_LEN], lo[CUZK_JOB_ID_LEN], no[CUZK_JOB_ID_LEN], no2[CUZK_JOB_ID_LEN],
      cr[CUZK_JOB_ID_LEN];
  char msg[256];
  cuzk_job_request r = porep_req(s, "x", 1);
  CHECK(cuzk_engine_submit(e, &r, x, NULL, msg, sizeof msg) == CUZK_ENGINE_OK);
  CHECK(wait_state(e, 1));
  cuzk_job_result res;
  CHECK(cuzk_engine_await(e, x, 50, &res) == CUZK_ENGINE_OK);
  CHECK_MSG(res.status == CUZK_JOB_TIMEOUT, "status %d", res.status);
  /* the prover held too: a job prepared early (CRITICAL) is not proven before it is cancelled,
   * however fast this machine proves (a faster prover once finished it first) */
  cuzk_engine_hold(e, CUZK_ENGINE_HOLD_SYNTHESIS | CUZK_ENGINE_HOLD_PROVING, true);
  r.priority = CUZK_PRIORITY_LOW;
  CHECK(cuzk_engine_submit(e, &r, lo, NULL, msg, sizeof msg) == CUZK_ENGINE_OK);
  r.priority = CUZK_PRIORITY_NORMAL;
  CHECK(cuzk_engine_submit(e, &r, no, NULL, msg, sizeof msg) == CUZK_ENGINE_OK);
  CHECK(cuzk_engine_submit(e, &r, no2, NULL, msg, sizeof msg) == CUZK_ENGINE_OK);
  r.priority = CUZK_PRIORITY_CRITICAL;
  uint32_t pos = 99;
  CHECK(cuzk_engine_submit(e, &r, cr, &pos, msg, sizeof msg) == CUZK_ENGINE_OK);
  CHECK_MSG(pos == 0, "CRITICAL queue position %u", pos);
  cuzk_engine_hold(e, CUZK_ENGINE_HOLD_SYNTHESIS, false);
  /* wait until all four were prepared (the worker prepares while X proves) */
  for (int i = 0; i < 60000 && prepared_at(lo) == SIZE_MAX; i++)
    sleep_ms(10);
  CHECK_MSG(prepared_at(cr) < prepared_at(no2) && prepared_at(no) < prepared_at(no2) &&
                prepared_at(no2) < prepared_at(lo),
            "prepared at %zu (critical) %zu (normal) %zu (second normal) %zu (low)",
            prepared_at(cr), prepared_at(no), prepared_at(no2), prepared_at(lo));
  const char *ids[5] = {x, cr, no, no2, lo};
  for (int i = 0; i < 5; i++) {
    bool was = false;
    CHECK(cuzk_engine_cancel(e, ids[i], &was) == CUZK_ENGINE_OK);
    if (i == 0) CHECK(was);
  }
  cuzk_engine_hold(e, CUZK_ENGINE_HOLD_PROVING, false); /* the cancelled partitions leave */
  for (int i = 0; i < 5; i++) {
    CHECK(cuzk_engine_await(e, ids[i], 0, &res) == CUZK_ENGINE_OK);
    CHECK_MSG(res.status == CUZK_JOB_CANCELLED, "job %d status %d (%s)", i, res.status, res.error);
    cuzk_job_result_clear(&res);
  }
  /* a cancelled queued job: submitted behind a running one, cancelled before it starts */
  char q[CUZK_JOB_ID_LEN];
  r.priority = CUZK_PRIORITY_NORMAL;
  CHECK(cuzk_engine_submit(e, &r, x, NULL, msg, sizeof msg) == CUZK_ENGINE_OK);
  CHECK(wait_state(e, 1));
  r.priority = CUZK_PRIORITY_LOW;
  CHECK(cuzk_engine_submit(e, &r, q, NULL, msg, sizeof msg) == CUZK_ENGINE_OK);
  bool was = true;
  CHECK(cuzk_engine_cancel(e, q, &was) == CUZK_ENGINE_OK);
  CHECK(!was);
  CHECK(cuzk_engine_cancel(e, x, NULL) == CUZK_ENGINE_OK);
  CHECK(cuzk_engine_await(e, q, 0, &res) == CUZK_ENGINE_OK && res.status == CUZK_JOB_CANCELLED);
  CHECK(cuzk_engine_await(e, x, 0, &res) == CUZK_ENGINE_OK && res.status == CUZK_JOB_CANCELLED);
}

static void test_srs(cuzk_engine *e) {
  bool already = true, was = false;
  uint64_t ms = 0, freed = 0;
  char msg[256] = "";
  CHECK(cuzk_engine_evict(e, "porep-2k", &was, &freed) == CUZK_ENGINE_OK);
  CHECK(cuzk_engine_preload(e, "porep-2k", &already, &ms, msg, sizeof msg) == CUZK_ENGINE_OK);
  CHECK(!already);
  /* loading records the circuit's matrices for the pre-compiled evaluator (the default), or reads
   * them from the .pce file an earlier load wrote (test_pce_file) */
  CHECK(log_has("porep-2k: constraint matrices recorded in") ||
        log_has("porep-2k: constraint matrices read from"));
  CHECK(cuzk_engine_preload(e, "porep-2k", &already, &ms, msg, sizeof msg) == CUZK_ENGINE_OK);
  CHECK(already && ms == 0);
  cuzk_engine_status st;
  CHECK(cuzk_engine_get_status(e, &st) == CUZK_ENGINE_OK);
  /* every kind's circuits: PoRep, SnapDeals, WindowPoSt, WinningPoSt, each 2k 8m 512m 32g 64g */
  static const char *const ids[] = {"porep-2k",   "porep-8m",     "porep-512m",  "porep-32g",
                                    "porep-64g",  "snap-2k",      "snap-8m",     "snap-512m",
                                    "snap-32g",   "snap-64g",     "wpost-2k",    "wpost-8m",
                                    "wpost-512m", "wpost-32g",    "wpost-64g",   "winning-2k",
                                    "winning-8m", "winning-512m", "winning-32g", "winning-64g"};
  CHECK_MSG(st.n_srs == 20, "%zu parameter sets", st.n_srs);
  for (size_t i = 0; i < st.n_srs && i < 20; i++)
    CHECK_MSG(!strcmp(st.srs[i].circuit_id, ids[i]), "set %zu: %s", i, st.srs[i].circuit_id);
  CHECK(st.srs[0].tier == CUZK_SRS_HOT && st.srs[0].bytes > 1000000000u &&
        st.srs[3].tier == CUZK_SRS_COLD);
  cuzk_engine_status_free(&st);
  uint64_t before = rss_bytes();
  CHECK(cuzk_engine_evict(e, "porep-2k", &was, &freed) == CUZK_ENGINE_OK);
  CHECK(was && freed > 1000000000u);
  /* the memory goes back to the system, not to a cache of this process */
  uint64_t after = rss_bytes();
  CHECK_MSG(after + freed / 2 < before,
            "RSS %.0f MB before EvictSRS, %.0f MB after (%.0f MB freed)", before / 1e6, after / 1e6,
            freed / 1e6);
  CHECK(cuzk_engine_evict(e, "porep-9g", &was, &freed) == CUZK_ENGINE_ENOTFOUND);
  CHECK(cuzk_engine_preload(e, "snap-1t", &already, &ms, msg, sizeof msg) == CUZK_ENGINE_ENOTFOUND);
  CHECK(strstr(msg, "unknown circuit id: snap-1t") != NULL);
  /* a production size is never generated: the missing file is named (Filecoin's name) */
  CHECK(cuzk_engine_preload(e, "wpost-32g", &already, &ms, msg, sizeof msg) == CUZK_ENGINE_EIO);
  CHECK_MSG(strstr(msg, "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
                        "0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc.params"),
            "%s", msg);
  char *js = cuzk_engine_status_json(e);
  CHECK(js && strstr(js, "\"circuit_id\":\"porep-2k\",\"loaded\":false,\"tier\":\"warm\""));
  free(js);
}

/* The tiers and the .pce file are the same code for every set: they run on the smallest, the
 * 2 KiB WindowPoSt set (11.5 MB against PoRep's 1.1 GB, each load of which costs seconds, minutes
 * under the sanitizers). */
#define SMALL_SET "wpost-2k"

/* dir/<the 2 KiB WindowPoSt set's file base> */
static bool small_base(char *out, size_t len, const char *dir) {
  const cuzk_post_proof *p;
  return cuzk_post_proof_by_id(&p, 10) == CUZK_POST_OK && cuzk_post_param_base(out, len, dir, p);
}

static uint64_t tier_of(cuzk_engine *e, const char *id, int *tier) {
  cuzk_engine_status st;
  uint64_t bytes = 0;
  *tier = -1;
  if (cuzk_engine_get_status(e, &st) == CUZK_ENGINE_OK) {
    for (size_t i = 0; i < st.n_srs; i++)
      if (!strcmp(st.srs[i].circuit_id, id)) {
        *tier = st.srs[i].tier;
        bytes = st.srs[i].bytes;
      }
    cuzk_engine_status_free(&st);
  }
  return bytes;
}

/* The tiers with the default WARM budget (a quarter of memory: the file fits), on SMALL_SET,
 * COLD on entry and WARM on exit. */
static void test_warm(cuzk_engine *e, const char *dir) {
  char base[4200], path[4300], msg[256] = "";
  CHECK(small_base(base, sizeof base, dir));
  snprintf(path, sizeof path, "%s.params", base);
  struct stat fst;
  CHECK(stat(path, &fst) == 0);
  int tier;
  bool already = true, was = false;
  uint64_t ms = 0, freed = 0;
  CHECK(cuzk_engine_preload(e, SMALL_SET, &already, &ms, msg, sizeof msg) == CUZK_ENGINE_OK);
  uint64_t hot = tier_of(e, SMALL_SET, &tier);
  CHECK_MSG(tier == CUZK_SRS_HOT && hot > 1000000u, "tier %d bytes %llu", tier,
            (unsigned long long)hot);
  CHECK(cuzk_engine_evict(e, SMALL_SET, &was, &freed) == CUZK_ENGINE_OK && was && freed == hot);
  uint64_t bytes = tier_of(e, SMALL_SET, &tier);
  CHECK_MSG(tier == CUZK_SRS_WARM && bytes == (uint64_t)fst.st_size, "tier %d bytes %llu", tier,
            (unsigned long long)bytes);
  char *text = cuzk_engine_metrics_text(e);
  char want[96];
  /* porep-2k is WARM too (test_srs evicted it): the gauge holds both files */
  char pbase[4200], ppath[4300];
  const cuzk_seal_proof *sp;
  struct stat pst;
  CHECK(cuzk_seal_proof_by_id(&sp, 5) == CUZK_POREP_OK &&
        cuzk_c2_param_base(pbase, sizeof pbase, dir, sp));
  snprintf(ppath, sizeof ppath, "%s.params", pbase);
  CHECK(stat(ppath, &pst) == 0);
  snprintf(want, sizeof want, "cuzk_srs_warm_bytes %llu\n",
           (unsigned long long)(fst.st_size + pst.st_size));
  CHECK_MSG(text && strstr(text, want), "no '%s'", want);
  /* the process's resident memory against VmRSS of /proc/self/status, read just after */
  const char *rss_line = text ? strstr(text, "\nprocess_resident_memory_bytes ") : NULL;
  double rss = rss_line ? strtod(rss_line + 31, NULL) : 0, vm_kb = 0;
  FILE *st = fopen("/proc/self/status", "r");
  char line[256];
  while (st && fgets(line, sizeof line, st))
    if (!strncmp(line, "VmRSS:", 6)) vm_kb = strtod(line + 6, NULL);
  if (st) fclose(st);
  double diff = rss - vm_kb * 1024;
  CHECK_MSG(rss > 1e6 && vm_kb > 0 && diff < 0.1 * rss && -diff < 0.1 * rss,
            "process_resident_memory_bytes %.0f against VmRSS %.0f kB", rss, vm_kb);
  free(text);

  /* WARM -> HOT decodes the mapping */
  log_clear();
  CHECK(cuzk_engine_preload(e, SMALL_SET, &already, &ms, msg, sizeof msg) == CUZK_ENGINE_OK);
  CHECK(!already && log_has("(from WARM: decoded from the mapped file)"));
  CHECK(tier_of(e, SMALL_SET, &tier) == hot && tier == CUZK_SRS_HOT);

  /* a file changed while WARM is read again (its mtime moved; put back afterwards) */
  CHECK(cuzk_engine_evict(e, SMALL_SET, &was, &freed) == CUZK_ENGINE_OK && was);
  struct timespec moved[2] = {fst.st_atim, fst.st_mtim}, back[2] = {fst.st_atim, fst.st_mtim};
  moved[1].tv_sec += 1;
  CHECK(utimensat(AT_FDCWD, path, moved, 0) == 0);
  log_clear();
  CHECK(cuzk_engine_preload(e, SMALL_SET, &already, &ms, msg, sizeof msg) == CUZK_ENGINE_OK);
  CHECK(log_has("changed since it was kept WARM: reading it again"));
  CHECK(!log_has("(from WARM"));
  CHECK(utimensat(AT_FDCWD, path, back, 0) == 0);
  CHECK(tier_of(e, SMALL_SET, &tier) == hot && tier == CUZK_SRS_HOT);

  /* EvictSRS steps down one tier at a time */
  CHECK(cuzk_engine_evict(e, SMALL_SET, &was, &freed) == CUZK_ENGINE_OK && was && freed);
  tier_of(e, SMALL_SET, &tier);
  CHECK(tier == CUZK_SRS_WARM);
  CHECK(cuzk_engine_evict(e, SMALL_SET, &was, &freed) == CUZK_ENGINE_OK && !was && !freed);
  CHECK(tier_of(e, SMALL_SET, &tier) == 0 && tier == CUZK_SRS_COLD);
  CHECK(log_has(SMALL_SET ": WARM mapping dropped"));
  CHECK(cuzk_engine_preload(e, SMALL_SET, &already, &ms, msg, sizeof msg) == CUZK_ENGINE_OK);
  CHECK(cuzk_engine_evict(e, SMALL_SET, &was, &freed) == CUZK_ENGINE_OK && was);
  tier_of(e, SMALL_SET, &tier);
  CHECK(tier == CUZK_SRS_WARM);

  /* no WARM tier: off, or a budget the file does not fit */
  uint64_t budgets[2] = {0, 1000};
  for (int i = 0; i < 2; i++) {
    cuzk_engine *c = start_warm(dir, false, budgets[i]);
    if (!c) continue;
    CHECK(cuzk_engine_preload(c, SMALL_SET, &already, &ms, msg, sizeof msg) == CUZK_ENGINE_OK);
    CHECK(cuzk_engine_evict(c, SMALL_SET, &was, &freed) == CUZK_ENGINE_OK && was && freed);
    CHECK(tier_of(c, SMALL_SET, &tier) == 0 && tier == CUZK_SRS_COLD);
    cuzk_engine_destroy(c);
  }
}

/* The .pce file beside the parameters (docs/r1cs.md "The .pce file"), in a directory of this test's
 * own (SMALL_SET's parameters linked into it): written by the first load, read by the next,
 * recorded again and rewritten when corrupt. */
/* The bytes set id counts in the engine's status (0 if it is not listed). */
static uint64_t set_bytes(cuzk_engine *e, const char *id) {
  cuzk_engine_status st;
  uint64_t bytes = 0;
  if (cuzk_engine_get_status(e, &st) != CUZK_ENGINE_OK) return 0;
  for (size_t i = 0; i < st.n_srs; i++)
    if (!strcmp(st.srs[i].circuit_id, id)) bytes = st.srs[i].bytes;
  cuzk_engine_status_free(&st);
  return bytes;
}

static void test_pce_file(const char *dir) {
  char priv[] = "/tmp/cuzk-engine-pce-XXXXXX", src[1024], dst[1024], pce[1100];
  CHECK(mkdtemp(priv) != NULL);
  CHECK(small_base(src, sizeof src, dir) && small_base(dst, sizeof dst, priv));
  static const char *const ext[] = {".params", ".vk", ".meta"};
  char a[1100], b[1100];
  for (int i = 0; i < 3; i++) {
    snprintf(a, sizeof a, "%s%s", src, ext[i]);
    snprintf(b, sizeof b, "%s%s", dst, ext[i]);
    CHECK(symlink(a, b) == 0);
  }
  snprintf(pce, sizeof pce, "%s.pce", dst);
  cuzk_engine *e = start(priv, false);
  if (!e) return;
  bool already, was;
  uint64_t ms, freed;
  char msg[256];
  struct stat st;
  log_clear();
  CHECK(cuzk_engine_preload(e, SMALL_SET, &already, &ms, msg, sizeof msg) == CUZK_ENGINE_OK);
  CHECK(log_has(SMALL_SET ": constraint matrices recorded in") && stat(pce, &st) == 0 &&
        st.st_size > 1000000);
  /* the recording gave way to the file just written: the set counts the same bytes as when it
   * is loaded from the file (its matrices mapped, not its own) */
  uint64_t recorded = set_bytes(e, SMALL_SET);
  CHECK(cuzk_engine_evict(e, SMALL_SET, &was, &freed) == CUZK_ENGINE_OK && was);
  log_clear();
  CHECK(cuzk_engine_preload(e, SMALL_SET, &already, &ms, msg, sizeof msg) == CUZK_ENGINE_OK);
  CHECK(log_has(SMALL_SET ": constraint matrices read from") &&
        !log_has(SMALL_SET ": constraint matrices recorded in"));
  CHECK_MSG(recorded > 0 && recorded == set_bytes(e, SMALL_SET),
            "bytes after recording %llu, after reading the file %llu", (unsigned long long)recorded,
            (unsigned long long)set_bytes(e, SMALL_SET));
  CHECK(cuzk_engine_evict(e, SMALL_SET, &was, &freed) == CUZK_ENGINE_OK && was);
  int fd = open(pce, O_RDWR);
  uint8_t byte = 0;
  CHECK(fd >= 0 && pread(fd, &byte, 1, st.st_size - 7) == 1);
  byte ^= 0x40;
  CHECK(pwrite(fd, &byte, 1, st.st_size - 7) == 1 && close(fd) == 0);
  log_clear();
  CHECK(cuzk_engine_preload(e, SMALL_SET, &already, &ms, msg, sizeof msg) == CUZK_ENGINE_OK);
  CHECK(log_has("corrupt: its body's SHA-256 differs: recording the matrices again") &&
        log_has(SMALL_SET ": constraint matrices recorded in"));
  CHECK(cuzk_engine_evict(e, SMALL_SET, &was, &freed) == CUZK_ENGINE_OK && was);
  log_clear();
  CHECK(cuzk_engine_preload(e, SMALL_SET, &already, &ms, msg, sizeof msg) == CUZK_ENGINE_OK);
  CHECK(log_has(SMALL_SET ": constraint matrices read from")); /* rewritten */
  cuzk_engine_destroy(e);
  unlink(pce);
  for (int i = 0; i < 3; i++) {
    snprintf(b, sizeof b, "%s%s", dst, ext[i]);
    unlink(b);
  }
  rmdir(priv);
}

static void test_missing_params(const sector *s) {
  char dir[] = "/tmp/cuzk-engine-empty-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  cuzk_engine *e = start(dir, false);
  if (!e) return;
  cuzk_job_request r = porep_req(s, "m", 1);
  expect_failed(e, &r, "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.params");
  expect_failed(e, &r, "not found");
  char msg[256];
  bool already;
  CHECK(cuzk_engine_preload(e, "porep-2k", &already, NULL, msg, sizeof msg) == CUZK_ENGINE_EIO);
  CHECK(strstr(msg, dir) != NULL);
  cuzk_engine_destroy(e);
  rmdir(dir);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_engine PARAM_DIR\n");
    return 2;
  }
  const char *dir = argv[1];
  cuzk_pool *pool = NULL;
  if (cuzk_pool_create(&pool, 2) != CUZK_POOL_OK) return 1;
  sector a, b;
  if (!make_sector(&a, 1, 7, pool) || !make_sector(&b, 2, 8, pool)) return 1;
  cuzk_pool_destroy(pool);
  test_missing_params(&a);
  test_pce_file(dir);
  cuzk_engine *e = start(dir, false);
  if (!e) return check_summary("test_engine");
  test_bad_requests(e, &a);
  test_srs(e);
  test_warm(e, dir);
  test_order_cancel_timeout(e, &a);
  const char *fast = getenv("CUZK_TEST_ENGINE_FAST");
  if (!fast || strcmp(fast, "1")) test_two_proofs(e, dir, &a, &b);
  cuzk_engine_status st;
  CHECK(cuzk_engine_get_status(e, &st) == CUZK_ENGINE_OK);
  CHECK_MSG(st.failed == 7 && st.cancelled == 7, "failed %llu cancelled %llu",
            (unsigned long long)st.failed, (unsigned long long)st.cancelled);
  cuzk_engine_status_free(&st);
  CHECK(cuzk_engine_shutdown(e, false, 0));
  char id[CUZK_JOB_ID_LEN], msg[256];
  cuzk_job_request r = porep_req(&a, "late", 1);
  CHECK(cuzk_engine_submit(e, &r, id, NULL, msg, sizeof msg) == CUZK_ENGINE_ESHUTDOWN);
  cuzk_engine_destroy(e);
  free_sector(&a);
  free_sector(&b);
  return check_summary("test_engine");
}
