/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The daemon configuration (src/server/config.h): the built-in configuration gives the documented
 * defaults, a file sets every key, wrong types and ranges fail with a message naming the key and
 * line, unknown and reference-only keys become warnings, and the command line overrides. */
#define _POSIX_C_SOURCE 200809L /* setenv, mkstemp, getcwd */
#include "server/config.h"

#include "check.h"
#include "cuzk/engine/engine.h" /* cuzk_engine_circuit_id */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GIB (UINT64_C(1) << 30)
#define MIB (UINT64_C(1) << 20)

static char cwd[1024];

static void test_defaults(void) {
  cuzk_daemon_config c;
  char err[CUZK_CONFIG_ERR_LEN];
  unsetenv("FIL_PROOFS_PARAMETER_CACHE");
  CHECK(cuzk_config_defaults(&c, err));
  char want[1200];
  snprintf(want, sizeof want, "unix://%s/cuzk.sock", cwd);
  CHECK(c.n_listen == 1 && strcmp(c.listen[0], want) == 0);
  CHECK(c.socket_mode == 0660);
  CHECK(strcmp(c.status_listen, "") == 0);
  CHECK(c.max_message_size == 128 * MIB);
  CHECK(c.on_disconnect == CUZK_POLICY_CANCEL);
  CHECK(c.shutdown == CUZK_POLICY_FINISH);
  CHECK(c.shutdown_grace_ms == 300000);
  CHECK(!c.tls_cert[0] && !c.tls_key[0] && !c.tls_client_ca[0] && !c.tls_require_client_cert);
  CHECK(!c.allow_plaintext);
  CHECK(!c.allow_synthetic_inputs); /* a production daemon never proves a synthetic input */
  CHECK(strcmp(c.param_cache, "/var/tmp/filecoin-proof-parameters") == 0);
  CHECK(c.n_preload == 0);
  CHECK(!c.generate_test_params && c.test_deterministic_seed == 0);
  CHECK(strcmp(c.test_params_dir, "/var/tmp/filecoin-proof-parameters/cuzk-generated") == 0);
  CHECK(c.total_budget == 0 && c.srs_budget == 0 && c.partition_budget == 0);
  CHECK(c.warm_budget == CUZK_CONFIG_WARM_AUTO);
  CHECK(c.safety_margin == 5 * GIB);
  CHECK(c.eviction_min_idle_ms == 300000 && c.idle_release_ms == 30000);
  CHECK(c.max_batch_size == 1 && c.max_batch_wait_ms == 10000);
  CHECK(c.threads == 0 && !c.synthesis_prove_mode && c.read_in_place == CUZK_IN_PLACE_AUTO);
  CHECK(c.synthesis_workers == 0 && c.prove_workers == 1 && c.queue_depth == 2);
  CHECK(c.log_level == CUZK_CFG_INFO && c.log_format == CUZK_LOG_TEXT);

  setenv("FIL_PROOFS_PARAMETER_CACHE", "/srv/params", 1);
  CHECK(cuzk_config_defaults(&c, err));
  CHECK(strcmp(c.param_cache, "/srv/params") == 0);
  CHECK(strcmp(c.test_params_dir, "/srv/params/cuzk-generated") == 0);
  unsetenv("FIL_PROOFS_PARAMETER_CACHE");
}

static const char full[] = "[daemon]\n"
                           "listen = [\"0.0.0.0:9820\", \"unix://run/cuzk.sock\", \"[::1]:9830\"]\n"
                           "socket_mode = \"0600\"\n"
                           "status_listen = \"127.0.0.1:9821\"\n"
                           "max_message_size = 268435456\n"
                           "on_disconnect = \"finish\"\n"
                           "shutdown = \"cancel\"\n"
                           "shutdown_grace = \"90s\"\n"
                           "allow_plaintext = true\n"
                           "allow_synthetic_inputs = true\n"
                           "[srs]\n"
                           "param_cache = \"params\"\n"
                           "preload = [\"porep-32g\", \"wpost-32g\"]\n"
                           "generate_test_params = true\n"
                           "test_params_dir = \"/tmp/gen\"\n"
                           "test_deterministic_seed = 42\n"
                           "read_in_place = \"always\"\n"
                           "[memory]\n"
                           "total_budget = \"256GiB\"\n"
                           "safety_margin = \"512MiB\"\n"
                           "srs_budget = 107374182400\n"
                           "warm_budget = \"0\"\n"
                           "partition_budget = \"100 GB\"\n"
                           "eviction_min_idle = 600\n"
                           "idle_release = \"2m\"\n"
                           "[scheduler]\n"
                           "max_batch_size = 3\n"
                           "max_batch_wait_ms = 0\n"
                           "[synthesis]\n"
                           "threads = 64\n"
                           "mode = \"prove\"\n"
                           "[pipeline]\n"
                           "synthesis_workers = 12\n"
                           "prove_workers = 2\n"
                           "queue_depth = 4\n"
                           "[logging]\n"
                           "level = \"debug\"\n"
                           "format = \"json\"\n";

static void test_full_file(void) {
  cuzk_daemon_config c;
  char err[CUZK_CONFIG_ERR_LEN];
  cuzk_config_warnings w = {0};
  CHECK(cuzk_config_defaults(&c, err));
  bool ok = cuzk_config_load_string(&c, full, sizeof full - 1, "full.toml", &w, err);
  CHECK_MSG(ok, "%s", err);
  CHECK(w.n == 0);
  char want[1200];
  snprintf(want, sizeof want, "unix://%s/run/cuzk.sock", cwd);
  CHECK(c.n_listen == 3 && strcmp(c.listen[0], "0.0.0.0:9820") == 0 &&
        strcmp(c.listen[1], want) == 0 && strcmp(c.listen[2], "[::1]:9830") == 0);
  CHECK(c.socket_mode == 0600);
  CHECK(strcmp(c.status_listen, "127.0.0.1:9821") == 0);
  CHECK(c.max_message_size == 256 * MIB);
  CHECK(c.on_disconnect == CUZK_POLICY_FINISH && c.shutdown == CUZK_POLICY_CANCEL);
  CHECK(c.shutdown_grace_ms == 90000 && c.allow_plaintext && c.allow_synthetic_inputs);
  snprintf(want, sizeof want, "%s/params", cwd);
  CHECK(strcmp(c.param_cache, want) == 0);
  CHECK(c.n_preload == 2 && strcmp(c.preload[0], "porep-32g") == 0 &&
        strcmp(c.preload[1], "wpost-32g") == 0);
  CHECK(c.generate_test_params);
  CHECK(strcmp(c.test_params_dir, "/tmp/gen") == 0);
  CHECK(c.test_deterministic_seed == 42);
  CHECK(c.read_in_place == CUZK_IN_PLACE_ALWAYS);
  CHECK(c.total_budget == 256 * GIB && c.safety_margin == 512 * MIB);
  CHECK(c.srs_budget == 100 * GIB && c.partition_budget == UINT64_C(100000000000));
  CHECK(c.warm_budget == 0); /* "0": no WARM tier (unlike the other budgets, 0 is allowed) */
  CHECK(c.eviction_min_idle_ms == 600000 && c.idle_release_ms == 120000);
  CHECK(c.max_batch_size == 3 && c.max_batch_wait_ms == 0);
  CHECK(c.threads == 64 && c.synthesis_prove_mode);
  CHECK(c.synthesis_workers == 12 && c.prove_workers == 2 && c.queue_depth == 4);
  CHECK(c.log_level == CUZK_CFG_DEBUG && c.log_format == CUZK_LOG_JSON);

  /* an explicit test_params_dir stays when a later file moves param_cache; a derived one follows */
  const char move[] = "[srs]\nparam_cache = \"/p2\"\n";
  CHECK(cuzk_config_load_string(&c, move, sizeof move - 1, "move.toml", NULL, err));
  CHECK(strcmp(c.test_params_dir, "/tmp/gen") == 0);
  CHECK(cuzk_config_defaults(&c, err));
  CHECK(cuzk_config_load_string(&c, move, sizeof move - 1, "move.toml", NULL, err));
  CHECK(strcmp(c.param_cache, "/p2") == 0);
  CHECK(strcmp(c.test_params_dir, "/p2/cuzk-generated") == 0);
}

static void expect_fail(const char *text, const char *want) {
  cuzk_daemon_config c;
  char err[CUZK_CONFIG_ERR_LEN];
  CHECK(cuzk_config_defaults(&c, err));
  bool ok = cuzk_config_load_string(&c, text, strlen(text), "test.toml", NULL, err);
  CHECK_MSG(!ok && strcmp(err, want) == 0, "input '%s':\n got  '%s'\n want '%s'", text, err, want);
}

static void test_errors(void) {
  /* the wrong type, on line 12 */
  expect_fail("[daemon]\n\n\n\n\n\n\n\n\n\n[pipeline]\nsynthesis_workers = \"4\"\n",
              "test.toml: pipeline.synthesis_workers: expected an integer, got a string (line 12)");
  expect_fail("[pipeline]\nprove_workers = 0\n",
              "test.toml: pipeline.prove_workers: must be between 1 and 16, got 0 (line 2)");
  expect_fail("[synthesis]\nthreads = -1\n",
              "test.toml: synthesis.threads: must be between 0 and 1024, got -1 (line 2)");
  expect_fail("[scheduler]\nmax_batch_size = 1.5\n",
              "test.toml: scheduler.max_batch_size: expected an integer, got a float (line 2)");
  expect_fail("[srs]\ngenerate_test_params = \"yes\"\n",
              "test.toml: srs.generate_test_params: expected a boolean, got a string (line 2)");
  expect_fail("[daemon]\nshutdown = \"later\"\n",
              "test.toml: daemon.shutdown: expected one of \"cancel\", \"finish\", got \"later\" "
              "(line 2)");
  expect_fail("[srs]\nread_in_place = \"sometimes\"\n",
              "test.toml: srs.read_in_place: expected one of \"auto\", \"always\", \"never\", got "
              "\"sometimes\" (line 2)");
  expect_fail("[logging]\nlevel = \"verbose\"\n",
              "test.toml: logging.level: expected one of \"trace\", \"debug\", \"info\", "
              "\"warn\", \"error\", got \"verbose\" (line 2)");
  expect_fail("[memory]\ntotal_budget = \"lots\"\n",
              "test.toml: memory.total_budget: expected \"auto\" or a size (e.g. \"64GiB\" or "
              "bytes), got \"lots\" (line 2)");
  expect_fail("[memory]\nsafety_margin = \"1.5GiB\"\n",
              "test.toml: memory.safety_margin: expected a size (e.g. \"128MiB\" or bytes), got "
              "\"1.5GiB\" (line 2)");
  expect_fail("[memory]\nsrs_budget = 0\n",
              "test.toml: memory.srs_budget: must be between 1 and 18446744073709551615 bytes, "
              "got 0 (line 2)");
  expect_fail("[memory]\nwarm_budget = \"warm\"\n",
              "test.toml: memory.warm_budget: expected \"auto\" or a size (e.g. \"64GiB\" or "
              "bytes), got \"warm\" (line 2)");
  expect_fail("[memory]\nwarm_budget = -1\n",
              "test.toml: memory.warm_budget: must not be negative (line 2)");
  expect_fail("[daemon]\nmax_message_size = \"4GiB\"\n",
              "test.toml: daemon.max_message_size: must be between 1048576 and 2147483647 bytes, "
              "got 4294967296 (line 2)");
  expect_fail("[daemon]\nshutdown_grace = \"1d\"\n",
              "test.toml: daemon.shutdown_grace: expected a duration (e.g. \"30s\", \"5m\", "
              "\"250ms\"), got \"1d\" (line 2)");
  expect_fail("[daemon]\nlisten = \"localhost:9820\"\n",
              "test.toml: daemon.listen: \"localhost:9820\": not an IP address (give an IP "
              "literal, e.g. 127.0.0.1:9820 or [::1]:9820; hostnames are not accepted) (line 2)");
  expect_fail("[daemon]\nlisten = [\"127.0.0.1:1\", 5]\n",
              "test.toml: daemon.listen: expected a string, got an integer (line 2)");
  expect_fail("[daemon]\nlisten = []\n",
              "test.toml: daemon.listen: needs at least one address (line 2)");
  expect_fail("[daemon]\nstatus_listen = \"unix:///tmp/s\"\n",
              "test.toml: daemon.status_listen: \"unix:///tmp/s\": expected IP:PORT (no unix "
              "sockets here) (line 2)");
  expect_fail("[daemon]\nsocket_mode = \"0999\"\n",
              "test.toml: daemon.socket_mode: expected an octal mode like \"0660\", got \"0999\" "
              "(line 2)");
  expect_fail("[daemon]\nsocket_mode = 660\n",
              "test.toml: daemon.socket_mode: expected an octal string like \"0660\", got an "
              "integer (line 2)");
  expect_fail("[srs]\npreload = [\"PoRep 32G\"]\n",
              "test.toml: srs.preload: \"PoRep 32G\" is not a circuit id like \"porep-32g\" (line "
              "2)");
  expect_fail("[pipeline]\nqueue_depth = [1]\n",
              "test.toml: pipeline.queue_depth: expected an integer, got an array (line 2)");
  /* TOML syntax errors keep line and column */
  expect_fail("[daemon]\nlisten = \"0.0.0.0:9820\nx = 1\n",
              "test.toml:2:10: daemon.listen: unterminated string");
  expect_fail("[daemon]\nlisten = \"a\"\nlisten = \"b\"\n",
              "test.toml:3:1: daemon.listen: duplicate key (first on line 2)");
  expect_fail("[synthesis]\nthreads = 99999999999999999999\n",
              "test.toml:2:11: synthesis.threads: integer out of range");
}

/* The TLS keys as a whole: each client-certificate key and each half of the pair alone is refused,
 * naming the keys (before, a client CA without a certificate was ignored: plaintext served). */
static void test_tls_keys(void) {
  expect_fail("[daemon]\ntls_key = \"/k.pem\"\n",
              "test.toml: daemon.tls_key: set without daemon.tls_cert (TLS needs the certificate "
              "too)");
  expect_fail("[daemon]\ntls_cert = \"/c.pem\"\n",
              "test.toml: daemon.tls_cert: set without daemon.tls_key (TLS needs the certificate's "
              "private key too)");
  expect_fail("[daemon]\ntls_client_ca = \"/ca.pem\"\n",
              "test.toml: daemon.tls_client_ca: set without daemon.tls_cert and daemon.tls_key "
              "(client certificates are checked only over TLS)");
  expect_fail("[daemon]\ntls_client_ca = \"/ca.pem\"\ntls_require_client_cert = true\n",
              "test.toml: daemon.tls_client_ca: set without daemon.tls_cert and daemon.tls_key "
              "(client certificates are checked only over TLS)");
  expect_fail("[daemon]\ntls_require_client_cert = true\n",
              "test.toml: daemon.tls_require_client_cert: true without daemon.tls_cert and "
              "daemon.tls_key (client certificates are checked only over TLS)");
  expect_fail("[daemon]\ntls_cert = \"/c.pem\"\ntls_key = \"/k.pem\"\n"
              "tls_require_client_cert = true\n",
              "test.toml: daemon.tls_require_client_cert: true without daemon.tls_client_ca (the "
              "CA that signs the client certificates)");
  const char ok[] = "[daemon]\ntls_cert = \"/c.pem\"\ntls_key = \"/k.pem\"\n"
                    "tls_client_ca = \"/ca.pem\"\ntls_require_client_cert = true\n"
                    "listen = \"0.0.0.0:1\"\n";
  cuzk_daemon_config c;
  char err[CUZK_CONFIG_ERR_LEN];
  CHECK(cuzk_config_defaults(&c, err));
  CHECK_MSG(cuzk_config_load_string(&c, ok, sizeof ok - 1, "ok.toml", NULL, err), "%s", err);
  CHECK(strcmp(c.tls_cert, "/c.pem") == 0 && strcmp(c.tls_key, "/k.pem") == 0 &&
        strcmp(c.tls_client_ca, "/ca.pem") == 0 && c.tls_require_client_cert);
  /* with TLS a listener on any address is fine */
  CHECK_MSG(cuzk_config_check(&c, "daemon.listen", err) && !err[0], "%s", err);
}

/* Plaintext beyond loopback needs daemon.allow_plaintext: every listener is checked, unix sockets
 * and 127.0.0.0/8, ::1 and ::ffff:127.x.x.x pass. */
static void test_plaintext(void) {
  static const struct {
    const char *addr;
    bool local;
  } k[] = {
      {"unix:///tmp/c.sock", true}, {"127.0.0.1:9820", true},       {"127.255.0.9:1", true},
      {"[::1]:9820", true},         {"[::ffff:127.0.0.1]:1", true}, {"0.0.0.0:9820", false},
      {"10.0.0.5:9820", false},     {"128.0.0.1:1", false},         {"[::]:9820", false},
      {"[::2]:1", false},           {"[::ffff:10.0.0.1]:1", false}, {"[fe80::1]:1", false},
  };
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
    cuzk_daemon_config c;
    char err[CUZK_CONFIG_ERR_LEN], want[CUZK_CONFIG_ERR_LEN];
    CHECK(cuzk_config_defaults(&c, err));
    /* the address second, after a unix socket: every listener counts */
    snprintf(c.listen[1], sizeof c.listen[1], "%s", k[i].addr);
    c.n_listen = 2;
    bool ok = cuzk_config_check(&c, "daemon.listen", err);
    snprintf(want, sizeof want,
             "daemon.listen: \"%s\" is not a loopback address and TLS is off: set "
             "daemon.tls_cert and daemon.tls_key, or daemon.allow_plaintext = true",
             k[i].addr);
    CHECK_MSG(k[i].local ? ok : !ok && strcmp(err, want) == 0, "%s: %s", k[i].addr,
              ok ? "accepted" : err);
    c.allow_plaintext = true;
    CHECK_MSG(cuzk_config_check(&c, "daemon.listen", err), "%s allowed: %s", k[i].addr, err);
  }
}

/* Every duration key at its maximum: accepted as seconds and as a string, one millisecond or one
 * second more refused naming the key and the maximum. */
static void test_duration_bounds(void) {
  static const struct {
    const char *table, *key;
    uint64_t max_s;
    size_t off;
  } k[] = {
      {"daemon", "shutdown_grace", 86400, offsetof(cuzk_daemon_config, shutdown_grace_ms)},
      {"memory", "eviction_min_idle", 604800, offsetof(cuzk_daemon_config, eviction_min_idle_ms)},
      {"memory", "idle_release", 604800, offsetof(cuzk_daemon_config, idle_release_ms)},
  };
  for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
    char vals[4][48];
    snprintf(vals[0], sizeof vals[0], "%llu", (unsigned long long)k[i].max_s);
    snprintf(vals[1], sizeof vals[1], "\"%llums\"", (unsigned long long)k[i].max_s * 1000);
    snprintf(vals[2], sizeof vals[2], "\"%llums\"", (unsigned long long)k[i].max_s * 1000 + 1);
    snprintf(vals[3], sizeof vals[3], "%llu", (unsigned long long)k[i].max_s + 1);
    for (int t = 0; t < 4; t++) {
      char text[128], err[CUZK_CONFIG_ERR_LEN], want[160];
      snprintf(text, sizeof text, "[%s]\n%s = %s\n", k[i].table, k[i].key, vals[t]);
      cuzk_daemon_config c;
      CHECK(cuzk_config_defaults(&c, err));
      bool ok = cuzk_config_load_string(&c, text, strlen(text), "d.toml", NULL, err);
      uint64_t got = *(const uint64_t *)(const void *)((const char *)&c + k[i].off);
      snprintf(want, sizeof want, "d.toml: %s.%s: must be at most %llu s (line 2)", k[i].table,
               k[i].key, (unsigned long long)k[i].max_s);
      if (t < 2)
        CHECK_MSG(ok && got == k[i].max_s * 1000, "%s", text);
      else
        CHECK_MSG(!ok && strcmp(err, want) == 0, "%s: %s", text, ok ? "accepted" : err);
    }
  }
}

/* Cross-checks of single keys against the engine: the input budget holds at least the smallest
 * WinningPoSt, and srs.preload names parameter sets that exist. */
static void test_engine_checks(void) {
  /* a 2 KiB WinningPoSt request is one sector's vanilla proof (docs/post.md "Vanilla proof
   * bytes"): sector_id, comm_r, two counts, 66 Single MerkleProofs (tag, root, leaf, the path's
   * count, 2 levels of arity 8: count, 7 hashes, index), comm_c, comm_r_last */
  const uint64_t winning_2k = 8 + 32 + 8 + 8 + 66 * (4 + 32 + 32 + 8 + 2 * (8 + 7 * 32 + 8)) + 64;
  CHECK(winning_2k == 36816);
  /* ... as the engine charges it: the payload, one length, no request_id (its NUL), the job's
   * record (docs/engine.md "Admission") */
  size_t len1 = (size_t)winning_2k;
  const uint8_t *piece = NULL;
  cuzk_job_request r = {.kind = CUZK_KIND_WINNING_POST,
                        .vanilla_proofs = &piece,
                        .vanilla_proofs_len = &len1,
                        .n_vanilla_proofs = 1};
  const uint64_t floor = cuzk_engine_input_charge(&r);
  CHECK_MSG(floor >= winning_2k + 8 + 1 && floor < winning_2k + 8192, "floor %llu",
            (unsigned long long)floor);
  char text[128], want[CUZK_CONFIG_ERR_LEN], floor_s[32];
  snprintf(floor_s, sizeof floor_s, "%llu", (unsigned long long)floor);
  const char *small[] = {"\"1B\"", "\"16KiB\"", "36816", floor_s};
  const uint64_t small_b[] = {1, 16384, 36816, floor - 1};
  snprintf(floor_s, sizeof floor_s, "%llu", (unsigned long long)(floor - 1));
  for (int t = 0; t < 4; t++) {
    snprintf(text, sizeof text, "[scheduler]\nmax_queued_bytes = %s\n", small[t]);
    snprintf(want, sizeof want,
             "test.toml: scheduler.max_queued_bytes: %llu bytes is less than the smallest "
             "request, a 2 KiB WinningPoSt (%llu bytes): every WinningPoSt would be refused "
             "(line 2)",
             (unsigned long long)small_b[t], (unsigned long long)floor);
    expect_fail(text, want);
  }
  cuzk_daemon_config c;
  char err[CUZK_CONFIG_ERR_LEN], fine0[32];
  snprintf(fine0, sizeof fine0, "%llu", (unsigned long long)floor);
  const char *fine[] = {fine0, "\"auto\"", "\"1GiB\""};
  const uint64_t fine_b[] = {floor, 0, UINT64_C(1) << 30};
  for (int t = 0; t < 3; t++) {
    snprintf(text, sizeof text, "[scheduler]\nmax_queued_bytes = %s\n", fine[t]);
    CHECK(cuzk_config_defaults(&c, err));
    CHECK_MSG(cuzk_config_load_string(&c, text, strlen(text), "q.toml", NULL, err) &&
                  c.max_queued_bytes == fine_b[t],
              "%s: %s", text, err);
  }

  expect_fail("[srs]\npreload = [\"porep-2k\", \"porep-1t\"]\n",
              "test.toml: srs.preload: unknown parameter set id \"porep-1t\" (an id is KIND-SIZE, "
              "KIND one of porep, snap, wpost, winning, SIZE one of 2k, 8m, 512m, 32g, 64g) (line "
              "2)");
  expect_fail("[srs]\npreload = [\"post-32g\"]\n",
              "test.toml: srs.preload: unknown parameter set id \"post-32g\" (an id is KIND-SIZE, "
              "KIND one of porep, snap, wpost, winning, SIZE one of 2k, 8m, 512m, 32g, 64g) (line "
              "2)");
  /* every id the engine knows is accepted */
  size_t n = 0;
  for (; cuzk_engine_circuit_id(n); n++) {
    snprintf(text, sizeof text, "[srs]\npreload = [\"%s\"]\n", cuzk_engine_circuit_id(n));
    CHECK(cuzk_config_defaults(&c, err));
    CHECK_MSG(cuzk_config_load_string(&c, text, strlen(text), "p.toml", NULL, err) &&
                  c.n_preload == 1 && strcmp(c.preload[0], cuzk_engine_circuit_id(n)) == 0,
              "%s: %s", text, err);
  }
  CHECK(n == 20);
}

static void test_warnings(void) {
  const char text[] = "top = 1\n"
                      "[daemon]\n"
                      "lisen = \"0.0.0.0:1\"\n"
                      "[gpus]\n"
                      "devices = []\n"
                      "gpu_threads = 32\n"
                      "[gpus.affinity]\n"
                      "[memory]\n"
                      "pinned_budget = \"1GiB\"\n"
                      "[pipeline]\n"
                      "enabled = true\n"
                      "max_gpu_queue_depth = 3\n"
                      "[scheduler]\n"
                      "sort_by_type = true\n"
                      "[extra]\n"
                      "x = 1\n";
  cuzk_daemon_config c;
  char err[CUZK_CONFIG_ERR_LEN];
  cuzk_config_warnings w = {0};
  CHECK(cuzk_config_defaults(&c, err));
  CHECK(cuzk_config_load_string(&c, text, sizeof text - 1, "w.toml", &w, err));
  static const char *const want[] = {
      "w.toml: top: unknown key, ignored (line 1)",
      "w.toml: daemon.lisen: unknown key, ignored (line 3)",
      "w.toml: gpus.devices: GPU setting, not used by this CPU daemon; ignored (line 5)",
      "w.toml: gpus.gpu_threads: GPU setting, not used by this CPU daemon; see synthesis.threads; "
      "ignored (line 6)",
      "w.toml: gpus.affinity: unknown key, ignored (line 7)",
      "w.toml: memory.pinned_budget: deprecated in the reference daemon; see "
      "memory.partition_budget; ignored (line 9)",
      "w.toml: pipeline.enabled: this daemon always pipelines; ignored (line 11)",
      "w.toml: pipeline.max_gpu_queue_depth: reference-only; see pipeline.queue_depth; ignored "
      "(line 12)",
      "w.toml: scheduler.sort_by_type: unused in the reference daemon too; ignored (line 14)",
      "w.toml: [extra]: unknown table, ignored (line 15)",
  };
  size_t n = sizeof want / sizeof want[0];
  CHECK_MSG(w.n == n, "%zu warnings", w.n);
  for (size_t k = 0; k < n && k < w.n; k++)
    CHECK_MSG(strcmp(w.msg[k], want[k]) == 0, "\n got  '%s'\n want '%s'", w.msg[k], want[k]);
  CHECK(w.dropped == 0);
}

static void test_reference_example(void) {
  /* the reference daemon's example file loads, with warnings for its GPU keys only */
  const char text[] = "[daemon]\nlisten = \"0.0.0.0:9820\"\n"
                      "[srs]\nparam_cache = \"/data/zk/params\"\n"
                      "[memory]\ntotal_budget = \"auto\"\nsafety_margin = \"5GiB\"\n"
                      "eviction_min_idle = \"5m\"\n"
                      "[gpus]\ndevices = []\ngpu_threads = 32\ngpu_workers_per_device = 2\n"
                      "[scheduler]\nmax_batch_size = 1\nmax_batch_wait_ms = 10000\n"
                      "sort_by_type = true\n"
                      "[synthesis]\nthreads = 0\n"
                      "[pipeline]\nenabled = true\nsynthesis_lookahead = 1\n"
                      "synthesis_concurrency = 1\n"
                      "[logging]\nlevel = \"info\"\n";
  cuzk_daemon_config c;
  char err[CUZK_CONFIG_ERR_LEN];
  cuzk_config_warnings w = {0};
  CHECK(cuzk_config_defaults(&c, err));
  CHECK_MSG(cuzk_config_load_string(&c, text, sizeof text - 1, "ref.toml", &w, err), "%s", err);
  CHECK(w.n == 7);
  CHECK(strcmp(c.listen[0], "0.0.0.0:9820") == 0 && c.n_listen == 1);
  CHECK(strcmp(c.param_cache, "/data/zk/params") == 0);
}

static void test_parsers(void) {
  uint64_t x;
  CHECK(cuzk_parse_size("64GiB", &x) && x == 64 * GIB);
  CHECK(cuzk_parse_size("5 GiB", &x) && x == 5 * GIB);
  CHECK(cuzk_parse_size("1TiB", &x) && x == 1024 * GIB);
  CHECK(cuzk_parse_size("2TB", &x) && x == UINT64_C(2000000000000));
  CHECK(cuzk_parse_size("4096", &x) && x == 4096);
  CHECK(cuzk_parse_size("7B", &x) && x == 7);
  CHECK(cuzk_parse_size("18446744073709551615", &x) && x == UINT64_MAX);
  CHECK(!cuzk_parse_size("18446744073709551616", &x));
  CHECK(!cuzk_parse_size("16777216TiB", &x));
  CHECK(!cuzk_parse_size("1.5GiB", &x));
  CHECK(!cuzk_parse_size("5gib", &x));
  CHECK(!cuzk_parse_size("GiB", &x));
  CHECK(!cuzk_parse_size("", &x));
  CHECK(!cuzk_parse_size("5 ", &x));
  CHECK(cuzk_parse_duration_ms("250ms", &x) && x == 250);
  CHECK(cuzk_parse_duration_ms("30s", &x) && x == 30000);
  CHECK(cuzk_parse_duration_ms("5m", &x) && x == 300000);
  CHECK(cuzk_parse_duration_ms("1h", &x) && x == 3600000);
  CHECK(cuzk_parse_duration_ms("10", &x) && x == 10000);
  CHECK(!cuzk_parse_duration_ms("1d", &x));
  CHECK(!cuzk_parse_duration_ms("-1s", &x));

  cuzk_listen_addr a;
  char err[CUZK_CONFIG_ERR_LEN];
  CHECK(cuzk_listen_parse("0.0.0.0:9820", &a, err) && !a.is_unix && !a.ipv6 && a.port == 9820 &&
        strcmp(a.host, "0.0.0.0") == 0);
  CHECK(cuzk_listen_parse("[::1]:0", &a, err) && a.ipv6 && a.port == 0 &&
        strcmp(a.host, "::1") == 0);
  CHECK(cuzk_listen_parse("unix:///run/curio/cuzk.sock", &a, err) && a.is_unix &&
        strcmp(a.path, "/run/curio/cuzk.sock") == 0);
  CHECK(!cuzk_listen_parse("unix://", &a, err) &&
        strcmp(err, "\"unix://\": empty socket path") == 0);
  CHECK(!cuzk_listen_parse("1.2.3.4", &a, err) &&
        strcmp(err, "\"1.2.3.4\": expected unix://PATH, IP:PORT or [IPv6]:PORT") == 0);
  CHECK(!cuzk_listen_parse("1.2.3.4:65536", &a, err));
  CHECK(!cuzk_listen_parse("1.2.3.4:", &a, err));
  CHECK(!cuzk_listen_parse("::1:80", &a, err));
  CHECK(!cuzk_listen_parse("http://127.0.0.1:80", &a, err));
  CHECK(!cuzk_listen_parse("1.2.3:80", &a, err));

  cuzk_cfg_level l;
  CHECK(cuzk_cfg_level_parse("warn", &l) && l == CUZK_CFG_WARN);
  CHECK(!cuzk_cfg_level_parse("WARN", &l));
  CHECK(strcmp(cuzk_cfg_level_name(CUZK_CFG_TRACE), "trace") == 0);
}

static cuzk_config_args_result run_args(cuzk_daemon_config *c, char *err, cuzk_config_warnings *w,
                                        int argc, const char **argv) {
  return cuzk_config_from_args(c, argc, (char *const *)argv, w, err);
}

static void test_args(void) {
  cuzk_daemon_config c, d;
  char err[CUZK_CONFIG_ERR_LEN];
  cuzk_config_warnings w = {0};
  const char *none[] = {"cuzk-daemon", NULL};
  CHECK(run_args(&c, err, &w, 1, none) == CUZK_CONFIG_ARGS_OK);
  CHECK(cuzk_config_defaults(&d, err));
  for (size_t k = 0; k < sizeof c; k++)
    if (((unsigned char *)&c)[k] != ((unsigned char *)&d)[k]) {
      CHECK_MSG(0, "defaults differ at byte %zu", k);
      break;
    }

  const char *help[] = {"cuzk-daemon", "-l", "1.2.3.4:5", "--help", NULL};
  CHECK(run_args(&c, err, &w, 4, help) == CUZK_CONFIG_ARGS_HELP);
  CHECK(strstr(cuzk_config_usage(), "--log-level LEVEL") != NULL);
  /* --version wins over a bad option after it, as --help does: nothing else is parsed */
  const char *version[] = {"cuzk-daemon", "--version", "--no-such-option", NULL};
  CHECK(run_args(&c, err, &w, 3, version) == CUZK_CONFIG_ARGS_VERSION);
  CHECK(strstr(cuzk_config_usage(), "--version") != NULL);

  const char *over[] = {
      "cuzk-daemon", "-l", "127.0.0.1:9820", "--listen=unix://x.sock", "--log-level",
      "debug",       NULL};
  CHECK(run_args(&c, err, &w, 6, over) == CUZK_CONFIG_ARGS_OK);
  char want[1200];
  snprintf(want, sizeof want, "unix://%s/x.sock", cwd);
  CHECK(c.n_listen == 2 && strcmp(c.listen[0], "127.0.0.1:9820") == 0 &&
        strcmp(c.listen[1], want) == 0);
  CHECK(c.log_level == CUZK_CFG_DEBUG);

  /* a file, then -l over its listen and --log-level over its level */
  char path[] = "/tmp/cuzk-test-config-XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  const char file[] = "[daemon]\nlisten = \"0.0.0.0:1\"\nstatus_listen = \"127.0.0.1:0\"\n"
                      "allow_plaintext = true\n[logging]\nlevel = \"error\"\n[bogus]\n";
  CHECK(write(fd, file, sizeof file - 1) == (ssize_t)(sizeof file - 1));
  close(fd);
  const char *with_file[] = {"cuzk-daemon", "-c", path, NULL};
  w.n = 0;
  CHECK(run_args(&c, err, &w, 3, with_file) == CUZK_CONFIG_ARGS_OK);
  CHECK(c.n_listen == 1 && strcmp(c.listen[0], "0.0.0.0:1") == 0);
  CHECK(strcmp(c.status_listen, "127.0.0.1:0") == 0 && c.log_level == CUZK_CFG_ERROR);
  CHECK(w.n == 1 && strstr(w.msg[0], "[bogus]: unknown table, ignored (line 7)") != NULL &&
        strncmp(w.msg[0], path, strlen(path)) == 0);
  char cflag[64];
  snprintf(cflag, sizeof cflag, "--config=%s", path);
  const char *file_over[] = {"cuzk-daemon", cflag, "-l127.0.0.1:2", "--log-level=trace", NULL};
  CHECK(run_args(&c, err, &w, 4, file_over) == CUZK_CONFIG_ARGS_OK);
  CHECK(c.n_listen == 1 && strcmp(c.listen[0], "127.0.0.1:2") == 0);
  CHECK(c.log_level == CUZK_CFG_TRACE && strcmp(c.status_listen, "127.0.0.1:0") == 0);
  unlink(path);

  /* the plaintext rule holds for the final listen list, whichever gave it: a file's non-loopback
   * address is refused unless -l replaces it, and -l is checked as the file's would be */
  char path2[] = "/tmp/cuzk-test-config-XXXXXX";
  fd = mkstemp(path2);
  CHECK(fd >= 0);
  const char open_file[] = "[daemon]\nlisten = [\"unix://a.sock\", \"0.0.0.0:9820\"]\n";
  CHECK(write(fd, open_file, sizeof open_file - 1) == (ssize_t)(sizeof open_file - 1));
  close(fd);
  const char *open_cfg[] = {"cuzk-daemon", "-c", path2, NULL};
  CHECK(run_args(&c, err, NULL, 3, open_cfg) == CUZK_CONFIG_ARGS_ERROR &&
        strcmp(err, "daemon.listen: \"0.0.0.0:9820\" is not a loopback address and TLS is off: "
                    "set daemon.tls_cert and daemon.tls_key, or daemon.allow_plaintext = "
                    "true") == 0);
  const char *open_cfg_l[] = {"cuzk-daemon", "-c", path2, "-l", "127.0.0.1:9820", NULL};
  CHECK(run_args(&c, err, NULL, 5, open_cfg_l) == CUZK_CONFIG_ARGS_OK && c.n_listen == 1);
  unlink(path2);
  const char *open_l[] = {"cuzk-daemon", "-l", "unix://b.sock", "-l", "[::]:9820", NULL};
  CHECK(run_args(&c, err, NULL, 5, open_l) == CUZK_CONFIG_ARGS_ERROR &&
        strcmp(err, "--listen: \"[::]:9820\" is not a loopback address and TLS is off: set "
                    "daemon.tls_cert and daemon.tls_key, or daemon.allow_plaintext = true") == 0);

  struct {
    int argc;
    const char *argv[5];
    const char *want;
  } bad[] = {
      {2, {"d", "-c"}, "option '-c' needs a value"},
      {2, {"d", "--log-level"}, "option '--log-level' needs a value"},
      {2, {"d", "--verbose"}, "unknown option '--verbose' (see --help)"},
      {2, {"d", "extra"}, "unexpected argument 'extra' (see --help)"},
      {3,
       {"d", "--log-level", "loud"},
       "--log-level: expected trace, debug, info, warn or error, got \"loud\""},
      {3,
       {"d", "-l", "localhost:1"},
       "--listen: \"localhost:1\": not an IP address (give an IP literal, e.g. 127.0.0.1:9820 "
       "or [::1]:9820; hostnames are not accepted)"},
      {3,
       {"d", "-c", "/nonexistent/cuzk.toml"},
       "/nonexistent/cuzk.toml: No such file or directory"},
      {5, {"d", "-c", "a", "-c", "b"}, "option '-c/--config' given twice"},
      {3, {"d", "-c", "/"}, "/: Is a directory"},
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    cuzk_config_args_result r = run_args(&c, err, NULL, bad[k].argc, bad[k].argv);
    CHECK_MSG(r == CUZK_CONFIG_ARGS_ERROR && strcmp(err, bad[k].want) == 0,
              "case %zu: got '%s', want '%s'", k, err, bad[k].want);
  }
}

/* cuzk.example.toml lists every key with its default: it loads without a warning and gives
 * exactly the built-in configuration. */
static void test_example(const char *path) {
  cuzk_daemon_config c, d;
  char err[CUZK_CONFIG_ERR_LEN];
  cuzk_config_warnings w = {0};
  CHECK(cuzk_config_defaults(&c, err) && cuzk_config_defaults(&d, err));
  CHECK_MSG(cuzk_config_load_file(&c, path, &w, err), "%s", err);
  CHECK_MSG(w.n == 0, "%s", w.n ? w.msg[0] : "");
  CHECK(memcmp(&c, &d, sizeof c) == 0);
  /* and the built-in text names every key the example does, in the same order */
  FILE *f = fopen(path, "r");
  CHECK(f != NULL);
  if (!f) return;
  char line[512];
  const char *builtin = cuzk_config_default_toml;
  size_t keys = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    const char *at = strstr(builtin, line);
    CHECK_MSG(at != NULL, "example line not in the built-in configuration: %s", line);
    if (at) builtin = at + strlen(line);
    keys += line[0] != '[';
  }
  fclose(f);
  CHECK(keys == 39);
}

/* Every integer key at its bounds: min and max are accepted and stored, min - 1 and max + 1 are
 * refused with the range in the message (an off-by-one in a range check, or a key's minimum
 * lowered, shows here). Durations take integers as milliseconds. */
static void test_bounds(void) {
  static const struct {
    const char *table, *key;
    long long min, max;
    size_t off;
    bool wide; /* uint64_t field, else unsigned */
  } k[] = {
      {"scheduler", "max_batch_size", 1, 64, offsetof(cuzk_daemon_config, max_batch_size), false},
      {"scheduler", "max_batch_wait_ms", 0, 10000, /* CUZK_ENGINE_MAX_BATCH_WAIT_MS */
       offsetof(cuzk_daemon_config, max_batch_wait_ms), true},
      {"synthesis", "threads", 0, 1024, offsetof(cuzk_daemon_config, threads), false},
      /* the engine's ranges (cuzk/engine/engine.h): a value the reader takes, the engine takes */
      {"pipeline", "synthesis_workers", 0, 64, offsetof(cuzk_daemon_config, synthesis_workers),
       false},
      {"pipeline", "prove_workers", 1, 16, offsetof(cuzk_daemon_config, prove_workers), false},
      {"scheduler", "max_queued_jobs", 0, 1000000, offsetof(cuzk_daemon_config, max_queued_jobs),
       false},
      {"scheduler", "max_results", 0, 10000000, offsetof(cuzk_daemon_config, max_results), false},
      {"pipeline", "queue_depth", 1, 1024, offsetof(cuzk_daemon_config, queue_depth), false},
  };
  for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
    long long tries[4] = {k[i].min, k[i].max, k[i].min - 1, k[i].max + 1};
    for (int t = 0; t < 4; t++) {
      char text[128], err[CUZK_CONFIG_ERR_LEN];
      snprintf(text, sizeof text, "[%s]\n%s = %lld\n", k[i].table, k[i].key, tries[t]);
      cuzk_daemon_config c;
      CHECK(cuzk_config_defaults(&c, err));
      bool ok = cuzk_config_load_string(&c, text, strlen(text), "b.toml", NULL, err);
      if (t < 2) {
        const char *f = (const char *)&c + k[i].off;
        unsigned long long got =
            k[i].wide ? *(const uint64_t *)(const void *)f : *(const unsigned *)(const void *)f;
        CHECK_MSG(ok && got == (unsigned long long)tries[t], "%s.%s = %lld: %s (stored %llu)",
                  k[i].table, k[i].key, tries[t], ok ? "accepted" : err, got);
      } else {
        char want[160];
        snprintf(want, sizeof want, "b.toml: %s.%s: must be between %lld and %lld, got %lld",
                 k[i].table, k[i].key, k[i].min, k[i].max, tries[t]);
        CHECK_MSG(!ok && strstr(err, want), "%s.%s = %lld: %s", k[i].table, k[i].key, tries[t],
                  ok ? "accepted" : err);
      }
    }
  }
  /* srs.test_deterministic_seed: 0 .. INT64_MAX (TOML's integers), no max + 1 to write */
  cuzk_daemon_config c;
  char err[CUZK_CONFIG_ERR_LEN];
  const char top[] = "[srs]\ntest_deterministic_seed = 9223372036854775807\n",
             neg[] = "[srs]\ntest_deterministic_seed = -1\n";
  CHECK(cuzk_config_defaults(&c, err));
  CHECK(cuzk_config_load_string(&c, top, sizeof top - 1, "b.toml", NULL, err) &&
        c.test_deterministic_seed == INT64_MAX);
  CHECK(!cuzk_config_load_string(&c, neg, sizeof neg - 1, "b.toml", NULL, err) &&
        strstr(err, "b.toml: srs.test_deterministic_seed: must be between 0 and "
                    "9223372036854775807, got -1"));
}

int main(int argc, char **argv) {
  /* a short working directory, so that relative unix socket paths fit in 107 bytes wherever the
   * build directory is */
  if (chdir("/tmp") != 0 || !getcwd(cwd, sizeof cwd)) return 1;
  if (argc > 1) test_example(argv[1]);
  test_defaults();
  test_full_file();
  test_errors();
  test_bounds();
  test_duration_bounds();
  test_engine_checks();
  test_tls_keys();
  test_plaintext();
  test_warnings();
  test_reference_example();
  test_parsers();
  test_args();
  return check_summary("test_config");
}
