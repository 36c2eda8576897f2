/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Cancellation while a parameter set loads (docs/engine.md "Cancellation"). The long load is the
 * generation of porep-2k's TEST parameters into a fresh directory (tens of seconds); every wait
 * below is for an engine state or a log line, the timeouts only keep a broken build from hanging:
 *  - two jobs want the set (two synthesis workers): once the first is PREPARING and its
 *    generator has begun, the second, waiting for that load, is cancelled and ends CANCELLED
 *    while the load goes on (the first still PREPARING, the generator reports progress after
 *    that, nothing abandoned);
 *  - then the loading job is cancelled: it ends CANCELLED, the generator never reports its last
 *    vector, the log says the generation stopped and the load was abandoned, nothing is left in
 *    the directory (no .params, .vk, .meta, no temporary file) and the set is COLD with no
 *    reference — the generation did not run to its end (how long the cancellation took is
 *    printed, not asserted);
 *  - then the set's files are linked in from PARAM_DIR: a new job loads the set (HOT) and is
 *    proven (CUZK_TEST_ENGINE_FAST: cancelled once the set is HOT).
 * usage: test_engine_cancel PARAM_DIR
 */
#define _DEFAULT_SOURCE /* mkdtemp, symlink */
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "cuzk/engine/engine.h"
#include "cuzk/porep/c2.h"
#include "sealed_c1.h"

/* ---- the engine's log, kept for the checks ----------------------------------------------------
 */
static pthread_mutex_t log_mu = PTHREAD_MUTEX_INITIALIZER;
static char log_text[1 << 16];
static size_t log_len;

static void keep_log(void *user, cuzk_log_level lv, const char *job, const char *msg) {
  (void)user, (void)lv, (void)job;
  pthread_mutex_lock(&log_mu);
  int n = snprintf(log_text + log_len, sizeof log_text - log_len, "%s\n", msg);
  if (n > 0) log_len += (size_t)n < sizeof log_text - log_len ? (size_t)n : 0;
  pthread_mutex_unlock(&log_mu);
}

/* Occurrences of needle in the log from offset from on. */
static unsigned log_count(const char *needle, size_t from) {
  pthread_mutex_lock(&log_mu);
  unsigned n = 0;
  for (const char *p = log_text + (from < log_len ? from : log_len); (p = strstr(p, needle)); p++)
    n++;
  pthread_mutex_unlock(&log_mu);
  return n;
}

static size_t log_mark(void) {
  pthread_mutex_lock(&log_mu);
  size_t n = log_len;
  pthread_mutex_unlock(&log_mu);
  return n;
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double t_start;

static void nap(void) { nanosleep(&(struct timespec){0, 10000000L}, NULL); }

/* ---- engine state ---------------------------------------------------------------------------- */

/* job's stage (-1: not queued or running) and porep-2k's tier and references */
static int job_stage(cuzk_engine *e, const char *job) {
  cuzk_engine_status st;
  if (cuzk_engine_get_status(e, &st)) return -1;
  int stage = -1;
  for (size_t i = 0; i < st.n_jobs; i++)
    if (!strcmp(st.jobs[i].job_id, job)) stage = (int)st.jobs[i].stage;
  cuzk_engine_status_free(&st);
  return stage;
}

static cuzk_srs_info porep_set(cuzk_engine *e) {
  cuzk_srs_info info = {"", -1, 0, 0};
  cuzk_engine_status st;
  if (cuzk_engine_get_status(e, &st)) return info;
  for (size_t i = 0; i < st.n_srs; i++)
    if (!strcmp(st.srs[i].circuit_id, "porep-2k")) info = st.srs[i];
  cuzk_engine_status_free(&st);
  return info;
}

#define WAIT_S 900.0 /* only against a hang: porep-2k generates in 40-100 s on 2 loaded cores */

/* Until job is PREPARING and the log has one more line with needle than at mark. */
static bool wait_preparing(cuzk_engine *e, const char *job, const char *needle, size_t mark) {
  for (double t0 = now_s(); now_s() - t0 < WAIT_S; nap())
    if (job_stage(e, job) == CUZK_STAGE_PREPARING && log_count(needle, mark) > 0) return true;
  CHECK_MSG(0, "job %s never PREPARING with '%s' in the log", job, needle);
  return false;
}

/* The directory holds nothing but the names in keep (NULL-terminated): no parameter file and no
 * temporary one. */
static unsigned dir_entries(const char *dir) {
  DIR *d = opendir(dir);
  unsigned n = 0;
  if (!d) return 1000;
  for (struct dirent *de; (de = readdir(d));)
    if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
      printf("  left in the directory: %s\n", de->d_name);
      n++;
    }
  closedir(d);
  return n;
}

static cuzk_job_status await_status(cuzk_engine *e, const char *id, char *error, size_t len) {
  cuzk_job_result res;
  if (cuzk_engine_await(e, id, 0, &res)) return CUZK_JOB_UNKNOWN;
  snprintf(error, len, "%s", res.error);
  cuzk_job_status st = res.status;
  cuzk_job_result_clear(&res);
  return st;
}

static const char *const GEN = "porep-2k: TEST parameters: vector";
static const char *const GEN_DONE = "porep-2k: TEST parameters: all vectors";
static const char *const ABANDONED = "porep-2k: load abandoned";

/* Two jobs want the set (two synthesis workers): the one waiting for the other's load is
 * cancelled and leaves at once while the load goes on; then the loader is cancelled during the
 * generation, which stops and leaves nothing. */
static void test_cancel_load(cuzk_engine *e, const sector *s, const char *dir) {
  char a[CUZK_JOB_ID_LEN], b[CUZK_JOB_ID_LEN], msg[256], err[512];
  cuzk_job_request r = porep_req(s, "cancel-load", 1);
  size_t mark = log_mark();
  CHECK_MSG(cuzk_engine_submit(e, &r, a, NULL, msg, sizeof msg) == CUZK_ENGINE_OK, "%s", msg);
  if (!wait_preparing(e, a, GEN, mark)) return;
  CHECK_MSG(cuzk_engine_submit(e, &r, b, NULL, msg, sizeof msg) == CUZK_ENGINE_OK, "%s", msg);
  /* the second synthesis worker prepares b, which waits for a's load */
  for (double t0 = now_s(); job_stage(e, b) != CUZK_STAGE_PREPARING && now_s() - t0 < WAIT_S;)
    nap();
  CHECK(job_stage(e, b) == CUZK_STAGE_PREPARING);
  double t0 = now_s();
  bool was = false;
  CHECK(cuzk_engine_cancel(e, b, &was) == CUZK_ENGINE_OK && was);
  cuzk_job_status st = await_status(e, b, err, sizeof err);
  double dt = now_s() - t0;
  CHECK_MSG(st == CUZK_JOB_CANCELLED, "the waiting job: status %d: %s", st, err);
  /* the load goes on for a: its generator reports progress after b has gone */
  size_t after_b = log_mark();
  for (double t1 = now_s(); log_count(GEN, after_b) == 0 && log_count(GEN_DONE, after_b) == 0 &&
                            job_stage(e, a) == CUZK_STAGE_PREPARING && now_s() - t1 < WAIT_S;)
    nap();
  CHECK_MSG(log_count(GEN, after_b) + log_count(GEN_DONE, after_b) > 0 &&
                log_count(ABANDONED, mark) == 0 && job_stage(e, a) == CUZK_STAGE_PREPARING,
            "the load did not go on for the job still waiting");
  printf("[%.1f s] the waiting job CANCELLED %.2f s after its cancel; the load went on\n",
         now_s() - t_start, dt);
  if (log_count(GEN_DONE, after_b)) { /* a machine fast enough to finish first: nothing to stop */
    printf("the generation ended before the loader could be cancelled\n");
    cuzk_engine_cancel(e, a, NULL);
    await_status(e, a, err, sizeof err);
    return;
  }
  t0 = now_s();
  CHECK(cuzk_engine_cancel(e, a, &was) == CUZK_ENGINE_OK && was);
  st = await_status(e, a, err, sizeof err);
  dt = now_s() - t0;
  CHECK_MSG(st == CUZK_JOB_CANCELLED, "the loading job: status %d: %s", st, err);
  /* the generation did not run to its end: stopped, abandoned, nothing written, the set COLD */
  CHECK_MSG(log_count(GEN_DONE, mark) == 0, "the generation ran to its end");
  CHECK(log_count("porep-2k: TEST parameters: generation stopped (cancelled)", mark) == 1);
  CHECK(log_count(ABANDONED, mark) == 1);
  CHECK_MSG(dir_entries(dir) == 0, "files left in %s", dir);
  cuzk_srs_info set = porep_set(e);
  CHECK_MSG(set.tier == CUZK_SRS_COLD && set.refs == 0 && set.bytes == 0, "tier %d refs %u",
            set.tier, set.refs);
  printf("[%.1f s] then the loader CANCELLED %.2f s after its cancel, its generation stopped, "
         "nothing written\n",
         now_s() - t_start, dt);
}

/* The set's files from param_dir linked into dir: the next job loads them and is proven. */
static void test_after(cuzk_engine *e, const sector *s, const char *dir, const char *param_dir) {
  static const char *const ext[] = {".params", ".vk", ".meta", ".pce"};
  char base[4096];
  const cuzk_seal_proof *p;
  CHECK(!cuzk_seal_proof_by_id(&p, 5) && cuzk_c2_param_base(base, sizeof base, param_dir, p));
  const char *name = strrchr(base, '/') + 1;
  for (int k = 0; k < 4; k++) {
    char from[4200], to[4200];
    snprintf(from, sizeof from, "%s%s", base, ext[k]);
    snprintf(to, sizeof to, "%s/%s%s", dir, name, ext[k]);
    CHECK_MSG(k == 3 || access(from, R_OK) == 0, "%s", from);
    if (access(from, R_OK) == 0) CHECK_MSG(symlink(from, to) == 0, "symlink %s", to);
  }
  char id[CUZK_JOB_ID_LEN], msg[256], err[512];
  cuzk_job_request r = porep_req(s, "after", 1);
  CHECK_MSG(cuzk_engine_submit(e, &r, id, NULL, msg, sizeof msg) == CUZK_ENGINE_OK, "%s", msg);
  if (getenv("CUZK_TEST_ENGINE_FAST")) {
    for (double t0 = now_s(); porep_set(e).tier != CUZK_SRS_HOT && now_s() - t0 < WAIT_S;)
      nap();
    CHECK(porep_set(e).tier == CUZK_SRS_HOT);
    cuzk_engine_cancel(e, id, NULL);
    CHECK(await_status(e, id, err, sizeof err) != CUZK_JOB_FAILED);
    return;
  }
  cuzk_job_result res;
  CHECK(cuzk_engine_await(e, id, 0, &res) == CUZK_ENGINE_OK);
  CHECK_MSG(res.status == CUZK_JOB_COMPLETED && res.proof_len >= 192 && res.proof_len % 192 == 0,
            "after the cancelled loads: status %d %s", res.status, res.error);
  cuzk_job_result_clear(&res);
  printf("[%.1f s] a job after them: the set loaded from the linked files and proven\n",
         now_s() - t_start);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_engine_cancel PARAM_DIR\n");
    return 2;
  }
  t_start = now_s();
  sector s;
  if (!make_sector(&s, 1, 7, NULL)) return check_summary("test_engine_cancel");
  char dir[] = "/tmp/cuzk-cancel-XXXXXX";
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  cuzk_engine_config c;
  cuzk_engine_config_default(&c);
  c.threads = 2;
  c.synthesis_workers = 2; /* two jobs prepare at once: one loads, one waits */
  c.param_cache = dir;     /* empty: porep-2k's TEST parameters are generated */
  c.generate_test_params = true;
  c.log = keep_log;
  c.log_level = CUZK_LOG_DEBUG; /* every step of the generator's progress */
  cuzk_engine *e = NULL;
  char msg[256];
  CHECK_MSG(cuzk_engine_create(&e, &c, msg, sizeof msg) == CUZK_ENGINE_OK, "%s", msg);
  printf("[%.1f s] sector sealed, engine started\n", now_s() - t_start);
  if (e) {
    test_cancel_load(e, &s, dir);
    test_after(e, &s, dir, argv[1]);
    cuzk_engine_destroy(e);
  }
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir); /* removes the links, not what they point at */
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
  free_sector(&s);
  if (check_failed) fputs(log_text, stdout);
  return check_summary("test_engine_cancel");
}
