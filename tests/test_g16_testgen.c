/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The streaming TEST-parameter generator (docs/groth16.md "TEST parameters written as they are
 * made"): byte for byte the in-memory generator's files — for a random circuit in many passes on
 * 1 and 3 threads, and for the 2 KiB WinningPoSt set against the SHA-256 digests recorded from
 * the generator before the streaming one existed (main d3e0869; the seed of the files generated
 * into /tmp/cuzk-gen-fixed) — through the temporary mapped .pce; a disk too small is refused
 * up front with the bytes needed and free named, and neither that nor a cancel nor an
 * unconstrained variable leaves a file under the final name or a partial one.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "cuzk/groth16/groth16.h"
#include "cuzk/hashes/sha256.h"
#include "cuzk/post/post.h"
#include "rng.h"

#define N_IN 4
#define N_AUX 700
#define N_CONS 900

/* A random circuit: every aux variable in C of some constraint; A and B over parts of the
 * variables only (so a and b lose some), coefficients 1, -1, 2^k, small and full-size. */
static void synth(cuzk_cs *cs, bool unconstrained) {
  uint64_t g = 0x7e57e11e;
  cuzk_var v[N_IN + N_AUX];
  for (int i = 0; i < N_IN + N_AUX; i++)
    v[i] = i < N_IN ? cuzk_cs_alloc_input(cs, NULL) : cuzk_cs_alloc(cs, NULL);
  for (int c = 0; c < N_CONS; c++) {
    cuzk_lc lc[3];
    cuzk_lc_init3(&lc[0], &lc[1], &lc[2], cs);
    for (int k = 0; k < 3; k++) {
      int terms = (int)(rng_next(&g) % 5);
      for (int t = 0; t < terms; t++) {
        cuzk_fr x;
        uint64_t kind = rng_next(&g) % 5, r = rng_next(&g);
        if (kind == 0)
          x = cuzk_fr_one;
        else if (kind == 1)
          cuzk_fr_neg(&x, &cuzk_fr_one);
        else if (kind == 2)
          cuzk_fr_from_u64(&x, (uint64_t)1 << (r % 64));
        else if (kind == 3)
          cuzk_fr_from_u64(&x, r % 5000 + 2);
        else
          rng_fr(&g, &x);
        /* A: the first 500 aux only; B: every third variable; C: any */
        size_t span = k == 0 ? N_IN + 500 : N_IN + N_AUX;
        size_t col = rng_next(&g) % span;
        if (k == 1) col -= col % 3;
        if (col == 0)
          cuzk_lc_add_const(&lc[k], &x);
        else
          cuzk_lc_add(&lc[k], v[col], &x);
      }
    }
    if (c < N_AUX) cuzk_lc_add(&lc[2], v[N_IN + c], &cuzk_fr_one);
    cuzk_cs_enforce(cs, "c", &lc[0], &lc[1], &lc[2]);
  }
  if (unconstrained) cuzk_cs_alloc(cs, NULL); /* in no constraint */
}

static bool synth_fn(cuzk_cs *cs, const void *ctx, char *msg, size_t len) {
  (void)msg, (void)len;
  synth(cs, ctx != NULL);
  return true;
}

static bool post_blank(cuzk_cs *cs, const void *p, char *msg, size_t len) {
  return cuzk_post_synthesize(cs, p, NULL, msg, len) == CUZK_POST_OK;
}

typedef struct {
  uint8_t *p;
  size_t n;
} blob;

static blob slurp(const char *path) {
  blob b = {NULL, 0};
  FILE *f = fopen(path, "rb");
  if (!f) return b;
  fseek(f, 0, SEEK_END);
  b.n = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  b.p = malloc(b.n ? b.n : 1);
  if (fread(b.p, 1, b.n, f) != b.n) b.n = 0;
  fclose(f);
  return b;
}

static bool exists(const char *base, const char *ext) {
  char path[512];
  struct stat st;
  snprintf(path, sizeof path, "%s%s", base, ext);
  return stat(path, &st) == 0;
}

static void sha_hex(char out[65], const char *base, const char *ext) {
  char path[512];
  snprintf(path, sizeof path, "%s%s", base, ext);
  blob b = slurp(path);
  uint8_t d[32];
  cuzk_sha256(d, b.p, b.n);
  to_hex(out, d, 32);
  free(b.p);
}

/* A progress function that sets the cancel flag once the step "l" (or "b_g1") starts. */
typedef struct {
  _Atomic int cancel;
  const char *at;
  unsigned calls;
} stopper;

static void stop_at(void *ctx, const char *step, uint64_t done, uint64_t total) {
  stopper *s = ctx;
  (void)done, (void)total;
  s->calls++;
  if (!strcmp(step, s->at)) atomic_store(&s->cancel, 1);
}

int main(void) {
  char dir[] = "/tmp/cuzk-testgen-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char base[256], path[300], msg[1024];
  uint8_t seed[32];
  cuzk_sha256(seed, "seed", 4);
  cuzk_pool *pool = NULL;
  CHECK(cuzk_pool_create(&pool, 3) == CUZK_POOL_OK);

  /* the in-memory generator's bytes for the random circuit */
  cuzk_cs_opts co;
  cuzk_cs_opts_default(&co, CUZK_CS_RECORD);
  cuzk_cs *cs = NULL;
  CHECK(cuzk_cs_create(&cs, &co) == CUZK_R1CS_OK);
  synth(cs, false);
  cuzk_g16_params *ref = NULL;
  CHECK(cuzk_g16_generate(&ref, cs, seed, NULL, 0, NULL) == CUZK_G16_OK);
  cuzk_cs_destroy(cs);
  size_t ref_n = ref ? cuzk_g16_params_size(ref) : 0, vk_n = ref ? cuzk_g16_vk_size(&ref->vk) : 0;
  uint8_t *ref_b = malloc(ref_n + 1), *ref_vk = malloc(vk_n + 1);
  if (ref) {
    cuzk_g16_params_write(ref_b, ref);
    cuzk_g16_vk_write(ref_vk, &ref->vk);
    printf("random circuit: a %zu, b %zu of %d variables, %zu bytes\n", ref->n_a, ref->n_b1,
           N_IN + N_AUX, ref_n);
    CHECK(ref->n_a < N_IN + N_AUX && ref->n_b1 < N_IN + N_AUX); /* some removed */
  }

  /* streamed: one pass and several passes (64 variables each), 1 and 3 threads, the temporary
   * mapped .pce (spill 0) and the caller's evaluator, the recording in temporary files from its
   * first byte or in memory; the in-memory path through the options */
  struct {
    size_t mem;
    bool pool, spill, in_memory, spill_record;
  } runs[] = {{0, false, true, false, true},
              {64 * 96, true, true, false, false},
              {200 * 96, false, false, false, true},
              {0, true, false, true, false}};
  for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
    snprintf(base, sizeof base, "%s/rand%zu", dir, r);
    cuzk_g16_testgen_opts o;
    cuzk_g16_testgen_opts_default(&o);
    o.in_memory = runs[r].in_memory;
    o.mem_bytes = runs[r].mem;
    o.seed = seed;
    o.spill_pce_bytes = runs[r].spill ? 0 : SIZE_MAX;
    o.spill_record_bytes = runs[r].spill_record ? 1 : SIZE_MAX;
    cuzk_g16_err e = cuzk_g16_setup_test_params_opts(
        base, 2048, synth_fn, NULL, runs[r].pool ? pool : NULL, NULL, &o, NULL, msg, sizeof msg);
    CHECK_MSG(e == CUZK_G16_OK, "run %zu: %s", r, msg);
    snprintf(path, sizeof path, "%s.params", base);
    blob b = slurp(path);
    CHECK_MSG(b.n == ref_n && !memcmp(b.p, ref_b, ref_n), "run %zu: .params differs (%zu bytes)", r,
              b.n);
    free(b.p);
    snprintf(path, sizeof path, "%s.vk", base);
    b = slurp(path);
    CHECK_MSG(b.n == vk_n && !memcmp(b.p, ref_vk, vk_n), "run %zu: .vk differs", r);
    free(b.p);
    CHECK(exists(base, ".meta") && !exists(base, ".params.partial") &&
          !exists(base, ".setup.pce.partial"));
  }
  cuzk_g16_params_free(ref);
  free(ref_b);
  free(ref_vk);

  /* the 2 KiB WinningPoSt set: today's generator's digests (the seed of /tmp/cuzk-gen-fixed) */
  const cuzk_post_proof *wp = NULL;
  CHECK(cuzk_post_proof_for(&wp, CUZK_POST_WINNING, 2048) == CUZK_POST_OK);
  char fixed[512];
  CHECK(wp && cuzk_post_param_base(fixed, sizeof fixed, "/tmp/cuzk-gen-fixed", wp));
  uint8_t wseed[32];
  cuzk_sha256(wseed, fixed, strlen(fixed));
  snprintf(base, sizeof base, "%s/winning", dir);
  {
    cuzk_g16_testgen_opts o;
    cuzk_g16_testgen_opts_default(&o);
    o.in_memory = false;
    o.seed = wseed;
    o.spill_pce_bytes = 0;       /* through the mapped .pce */
    o.spill_record_bytes = 4096; /* and a recording in temporary files */
    cuzk_g16_err e = cuzk_g16_setup_test_params_opts(base, 2048, post_blank, wp, pool, NULL, &o,
                                                     NULL, msg, sizeof msg);
    CHECK_MSG(e == CUZK_G16_OK, "winning 2 KiB: %s", msg);
    char hp[65], hv[65];
    sha_hex(hp, base, ".params");
    sha_hex(hv, base, ".vk");
    CHECK_MSG(!strcmp(hp, "3b7518c3d46972469fa4ce193605a0fa08a27390c99a2b6193a36e176a7ea125"),
              "winning 2 KiB .params: %s", hp);
    CHECK_MSG(!strcmp(hv, "a5df702f9bffdc0b231918e49c589a4d38ea53b5cb41df95e5e238ebf4045b2f"),
              "winning 2 KiB .vk: %s", hv);
  }

  /* too little disk: refused before anything is written, the bytes named */
  snprintf(base, sizeof base, "%s/small", dir);
  {
    cuzk_g16_testgen_opts o;
    cuzk_g16_testgen_opts_default(&o);
    o.in_memory = false;
    o.seed = seed;
    o.free_bytes = 1000;
    cuzk_g16_err e = cuzk_g16_setup_test_params_opts(base, 2048, synth_fn, NULL, NULL, NULL, &o,
                                                     NULL, msg, sizeof msg);
    char want[64];
    snprintf(want, sizeof want, "%zu bytes needed", ref_n + vk_n + 4096);
    CHECK_MSG(e == CUZK_G16_EIO && strstr(msg, want) && strstr(msg, "1000 bytes free"), "%s", msg);
    CHECK(!exists(base, ".params") && !exists(base, ".params.partial") && !exists(base, ".vk"));
    o.free_bytes = (int64_t)(ref_n + vk_n + 4096); /* room for the files, not the .pce too: */
    o.spill_pce_bytes = 0;                         /* the evaluator stays in memory */
    e = cuzk_g16_setup_test_params_opts(base, 2048, synth_fn, NULL, NULL, NULL, &o, NULL, msg,
                                        sizeof msg);
    CHECK_MSG(e == CUZK_G16_OK && exists(base, ".params") && !exists(base, ".setup.pce.partial"),
              "just enough space: %s", msg);
    snprintf(path, sizeof path, "%s.params", base);
    CHECK(unlink(path) == 0);
    snprintf(path, sizeof path, "%s.vk", base);
    CHECK(unlink(path) == 0);
    o.free_bytes = 1000;
    o.in_memory = true; /* the in-memory path checks too, after generating */
    e = cuzk_g16_setup_test_params_opts(base, 2048, synth_fn, NULL, NULL, NULL, &o, NULL, msg,
                                        sizeof msg);
    CHECK_MSG(e == CUZK_G16_EIO && strstr(msg, want), "%s", msg);
    CHECK(!exists(base, ".params") && !exists(base, ".vk"));
  }

  /* cancelled in the middle (l, then b_g1 of the last pass), and an unconstrained variable:
   * no file under the final name, no partial file */
  const char *stops[] = {"l", "b_g2"};
  for (int i = 0; i < 3; i++) {
    snprintf(base, sizeof base, "%s/stop%d", dir, i);
    stopper st = {.at = i < 2 ? stops[i] : "never"};
    atomic_init(&st.cancel, 0);
    cuzk_progress pr = {stop_at, &st, &st.cancel};
    cuzk_g16_testgen_opts o;
    cuzk_g16_testgen_opts_default(&o);
    o.in_memory = false;
    o.seed = seed;
    o.mem_bytes = 300 * 96;
    cuzk_g16_err e = cuzk_g16_setup_test_params_opts(base, 2048, synth_fn, i == 2 ? "u" : NULL,
                                                     NULL, &pr, &o, NULL, msg, sizeof msg);
    CHECK_MSG(e == (i < 2 ? CUZK_G16_ECANCELLED : CUZK_G16_EUNCONSTRAINED), "stop %d: %d %s", i,
              (int)e, msg);
    CHECK(!exists(base, ".params") && !exists(base, ".params.partial") && !exists(base, ".vk") &&
          !exists(base, ".setup.pce.partial"));
  }

  cuzk_pool_destroy(pool);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  CHECK(system(cmd) == 0);
  return check_summary("test_g16_testgen");
}
