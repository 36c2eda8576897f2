/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Helpers shared by the cuzk-bench subcommands. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/groth16/groth16.h"
#include "cuzk/hashes/sha256.h"
#include "cuzk/msm/msm_calibration.h"
#include "cuzk/util/pool.h"

int cli_fail(int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("cuzk-bench: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return code;
}

/* Every option: its short and long spelling (either may be NULL) and whether it is a flag (takes
 * no value), at its id. */
typedef struct {
  const char *s, *l;
  bool flag;
} cli_opt;
#define VALUE(id, s, l) [id] = {s, l, false}
#define FLAG(id, s, l) [id] = {s, l, true}
static const cli_opt opts[O_END] = {
    FLAG(O_HELP, "-h", "--help"),
    VALUE(O_KIND, NULL, "--kind"),
    VALUE(O_SIZE, NULL, "--sector-size"),
    VALUE(O_PROOF, NULL, "--registered-proof"),
    VALUE(O_C1, NULL, "--c1"),
    VALUE(O_REQUEST, NULL, "--request"),
    VALUE(O_OUT, "-o", NULL),
    VALUE(O_MINER, NULL, "--miner-id"),
    VALUE(O_SECTOR_NUM, NULL, "--sector-num"),
    VALUE(O_PARTITION, NULL, "--partition"),
    VALUE(O_RANDOMNESS, NULL, "--randomness"),
    VALUE(O_THREADS, NULL, "--threads"),
    VALUE(O_DATA, NULL, "--data"),
    VALUE(O_PARAM_CACHE, NULL, "--param-cache"),
    FLAG(O_IF_MISSING, NULL, "--if-missing"),
    VALUE(O_PROOF_FILE, NULL, "--proof"),
    VALUE(O_WRITE_INPUTS, NULL, "--write-inputs"),
    FLAG(O_ENVELOPE, NULL, "--envelope"),
    VALUE(O_TICKET, NULL, "--ticket"),
    VALUE(O_SEED, NULL, "--seed"),
    FLAG(O_SYNTHETIC, NULL, "--synthetic"),
    FLAG(O_SYNTHETIC_FOR_BENCH, NULL, "--synthetic-for-bench"),
    VALUE(O_SECTORS, NULL, "--sectors"),
    VALUE(O_FIRST_SECTOR, NULL, "--first-sector"),
    VALUE(O_PARTITION_INDEX, NULL, "--partition-index"),
    VALUE(O_VANILLA, NULL, "--vanilla"),
    VALUE(O_SECTOR_INDEX, NULL, "--sector-index"),
    FLAG(O_NO_NNZ, NULL, "--no-nnz"),
    FLAG(O_PERF, NULL, "--perf"),
    VALUE(O_PERF_JSON, NULL, "--perf-json"),
    FLAG(O_SHAPE_ONLY, NULL, "--shape-only"),
    VALUE(O_MODE, NULL, "--mode"),
    VALUE(O_ITERATIONS, "-i", "--iterations"),
    VALUE(O_LC_INLINE, NULL, "--lc-inline"),
    VALUE(O_A, NULL, "--a"),
    VALUE(O_B, NULL, "--b"),
    VALUE(O_COUNTER, NULL, "--counter"),
    VALUE(O_JSON, NULL, "--json"),
    VALUE(O_MIN_EFFECT, NULL, "--min-effect"),
    VALUE(O_PAIRS, "-i", "--pairs"),
    VALUE(O_WARMUP, NULL, "--warmup"),
    VALUE(O_PLOT, NULL, "--plot"),
    VALUE(O_ADDR, "-a", "--addr"),
    VALUE(O_TIMEOUT, NULL, "--timeout-ms"),
    VALUE(O_LOG_LEVEL, NULL, "--log-level"),
    VALUE(O_TYPE, "-t", "--type"),
    VALUE(O_PRIORITY, NULL, "--priority"),
    VALUE(O_COMM_R_OLD, NULL, "--comm-r-old"),
    VALUE(O_COMM_R_NEW, NULL, "--comm-r-new"),
    VALUE(O_COMM_D_NEW, NULL, "--comm-d-new"),
    VALUE(O_OUTPUT, "-o", "--output"),
    VALUE(O_COUNT, "-c", "--count"),
    VALUE(O_CONCURRENCY, "-j", "--concurrency"),
    VALUE(O_CIRCUIT_ID, "-c", "--circuit-id"),
    VALUE(O_SYNTHESIS, NULL, "--synthesis"),
    FLAG(O_DIGEST, NULL, "--digest"),
    VALUE(O_DETERMINISTIC, NULL, "--deterministic"),
    FLAG(O_QUIET, "-q", "--quiet"),
    FLAG(O_IN_PLACE, NULL, "--in-place"),
    VALUE(O_PCE_FILE, NULL, "--pce-file"),
};

/* The id among ids whose spelling k is, *inline_val the value of "--long=V" (else NULL);
 * CLI_UNKNOWN if none. */
static int opt_match(const int *ids, const char *k, const char **inline_val) {
  *inline_val = NULL;
  for (; *ids; ids++) {
    const cli_opt *o = &opts[*ids];
    size_t ln = o->l ? strlen(o->l) : 0;
    if (o->l && !o->flag && !strncmp(k, o->l, ln) && k[ln] == '=') {
      *inline_val = k + ln + 1;
      return *ids;
    }
    if ((o->s && !strcmp(k, o->s)) || (o->l && !strcmp(k, o->l))) return *ids;
  }
  return CLI_UNKNOWN;
}

int cli_next_opt(const int *ids, int argc, char **argv, int *i, const char **val) {
  const char *k = argv[*i];
  *val = NULL;
  if (k[0] != '-') {
    *val = k;
    return CLI_ARG;
  }
  int id = opt_match(ids, k, val);
  if (id == CLI_UNKNOWN || *val || opts[id].flag) return id;
  if (*i + 1 >= argc) {
    cli_fail(2, "'%s' needs a value", k);
    return CLI_MISSING;
  }
  *val = argv[++*i];
  return id;
}

bool cli_is_opt(const int *ids, const char *arg) {
  const char *v;
  return opt_match(ids, arg, &v) != CLI_UNKNOWN;
}

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool cli_hex32(uint8_t out[32], const char *hex) {
  if (!hex || strlen(hex) != 64) return false;
  for (int i = 0; i < 32; i++) {
    int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    out[i] = (uint8_t)(hi << 4 | lo);
  }
  return true;
}

void cli_print_hex(const uint8_t *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    printf("%02x", b[i]);
}

bool cli_u64(uint64_t *out, const char *text) {
  if (!text || !*text || *text == '-') return false;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(text, &end, 10);
  if (errno || *end) return false;
  *out = v;
  return true;
}

bool cli_proof(const cuzk_seal_proof **p, const char *proof_arg, const char *size_arg) {
  if (proof_arg) {
    uint64_t id;
    if (cli_u64(&id, proof_arg)) return cuzk_seal_proof_by_id(p, id) == CUZK_POREP_OK;
    return cuzk_seal_proof_by_name(p, proof_arg) == CUZK_POREP_OK;
  }
  uint64_t bytes;
  if (!size_arg || cuzk_porep_parse_size(&bytes, size_arg)) return false;
  return cuzk_seal_proof_by_sector(p, bytes) == CUZK_POREP_OK;
}

bool cli_post_type(cuzk_post_type *t, const char *kind) {
  const cuzk_kind *k = cuzk_kind_named(kind); /* any of its names (docs/kinds.md) */
  for (int i = CUZK_POST_WINNING; k && i <= CUZK_POST_WINDOW; i++)
    if (cuzk_kind_named(cuzk_post_type_name((cuzk_post_type)i)) == k) {
      *t = (cuzk_post_type)i;
      return true;
    }
  return false;
}

bool cli_post_proof(const cuzk_post_proof **p, const char *kind, const char *proof_arg,
                    const char *size_arg) {
  cuzk_post_type type;
  if (!cli_post_type(&type, kind)) return false;
  if (proof_arg) {
    uint64_t id;
    cuzk_post_err e = cli_u64(&id, proof_arg) ? cuzk_post_proof_by_id(p, id)
                                              : cuzk_post_proof_by_name(p, proof_arg);
    return e == CUZK_POST_OK && (*p)->type == type;
  }
  uint64_t bytes;
  if (!size_arg || cuzk_porep_parse_size(&bytes, size_arg)) return false;
  return cuzk_post_proof_for(p, type, bytes) == CUZK_POST_OK;
}

bool cli_read_file(const char *path, uint8_t **data, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return false;
  size_t cap = 1 << 16, n = 0;
  uint8_t *buf = malloc(cap);
  while (buf) {
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (n < cap) break;
    uint8_t *nb = realloc(buf, cap * 2);
    if (!nb) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = nb;
    cap *= 2;
  }
  bool ok = buf && !ferror(f);
  fclose(f);
  if (!ok) {
    free(buf);
    return false;
  }
  *data = buf;
  *len = n;
  return true;
}

bool cli_write_file(const char *path, const uint8_t *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f) return false;
  bool ok = fwrite(data, 1, len, f) == len;
  return fclose(f) == 0 && ok;
}

double cli_now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

cuzk_pool *cli_pool(unsigned threads) {
  if (!threads) {
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    threads = cpus > 0 ? (unsigned)cpus : 1;
  }
  cuzk_pool *pool = NULL;
  if (cuzk_pool_create(&pool, threads)) pool = NULL;
  return pool;
}

void cli_json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') fputc('\\', f);
    if ((unsigned char)*s >= 0x20) fputc(*s, f);
  }
  fputc('"', f);
}

bool cli_post_form(int argc, char **argv) {
  bool post = false;
  for (int i = 1; i < argc; i++) {
    cuzk_post_type t;
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return false;
    if (!strcmp(argv[i], "--request")) post = true;
    if (!strcmp(argv[i], "--kind") && i + 1 < argc && cli_post_type(&t, argv[i + 1])) post = true;
  }
  return post;
}

bool cli_snap_form(int argc, char **argv) {
  bool snap = false;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return false;
    if (!strcmp(argv[i], "--kind") && i + 1 < argc &&
        cuzk_kind_named(argv[i + 1]) == cuzk_kind_of(CUZK_KIND_SNAP_DEALS_UPDATE))
      snap = true;
  }
  return snap;
}

void cli_post_default_randomness(uint8_t out[32]) {
  memset(out, 5, 32);
  out[31] &= 0x3f; /* canonical, as Curio makes it */
}

bool cli_post_randomness(uint8_t out[32], const char *hex) {
  cuzk_fr f;
  return cli_hex32(out, hex) && cuzk_fr_from_bytes(&f, out);
}

static uint64_t mix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

int cli_sector_data(uint8_t **out, uint64_t nodes, const char *sector_name, const char *data_arg) {
  size_t ulen = cuzk_fr32_unpadded_size(nodes * 32);
  uint8_t *unpadded = calloc(ulen, 1), *data = malloc(nodes * 32);
  if (!unpadded || !data) return cli_fail(1, "out of memory");
  if (!strncmp(data_arg, "random:", 7)) {
    uint64_t s;
    if (!cli_u64(&s, data_arg + 7)) return cli_fail(2, "--data random:SEED: bad seed");
    for (size_t i = 0; i < ulen; i++)
      unpadded[i] = (uint8_t)mix(&s);
  } else if (strcmp(data_arg, "zero")) {
    uint8_t *f;
    size_t flen;
    if (!cli_read_file(data_arg, &f, &flen)) return cli_fail(1, "--data: cannot read %s", data_arg);
    if (flen > ulen)
      return cli_fail(1, "--data: %s has %zu bytes, more than the %zu a %s sector holds", data_arg,
                      flen, ulen, sector_name);
    memcpy(unpadded, f, flen);
    free(f);
  }
  if (cuzk_fr32_pad(data, nodes * 32, unpadded, ulen)) return cli_fail(1, "Fr32 padding failed");
  free(unpadded);
  *out = data;
  return -1;
}

static bool params_present(const char *base) {
  char path[4200];
  cuzk_g16_vk *vk;
  snprintf(path, sizeof path, "%s.params", base);
  if (access(path, R_OK) != 0) return false;
  snprintf(path, sizeof path, "%s.vk", base);
  if (cuzk_g16_vk_read_file(&vk, path, NULL) != CUZK_G16_OK) return false;
  cuzk_g16_vk_free(vk);
  return true;
}

/* setup's Ctrl-C / SIGTERM: the generator stops at its next chunk and removes its .partial file
 * (a 32 GiB set reserves tens of GB up front); a second signal kills at once (SA_RESETHAND). */
static _Atomic int setup_stop;
static void setup_signal(int sig) {
  (void)sig;
  atomic_store(&setup_stop, 1);
}

int cli_setup_params(const char *name, const char *base, bool if_missing, cli_gen_params_fn gen,
                     const void *proof, const char *dir, unsigned threads) {
  if (if_missing && params_present(base)) {
    printf("%s: parameters present: %s.{params,vk}\n", name, base);
    return 0;
  }
  cuzk_pool *pool = cli_pool(threads);
  if (!pool) return cli_fail(1, "setup: cannot start the worker pool");
  char msg[512], what[96];
  double gen_s = 0;
  snprintf(what, sizeof what, "setup %s", name);
  cli_progress bar;
  cli_progress_start(&bar, what, "points", false);
  cuzk_progress cb = cli_progress_cb(&bar);
  struct sigaction sa, old_int, old_term;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = setup_signal;
  sa.sa_flags = SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
  cb.cancel = &setup_stop;
  int rc = gen(proof, dir, pool, &cb, &gen_s, msg, sizeof msg);
  sigaction(SIGINT, &old_int, NULL);
  sigaction(SIGTERM, &old_term, NULL);
  cli_progress_end(&bar);
  cuzk_pool_destroy(pool);
  if (rc) return cli_fail(1, "%s", msg);
  printf("%s: TEST parameters %s.{params,vk,meta} (generated in %.1f s)\n", name, base, gen_s);
  return 0;
}

bool cli_write_inputs(const char *path, const cuzk_fr *in, size_t n) {
  FILE *f = fopen(path, "w");
  if (!f) return false;
  for (size_t i = 0; i < n; i++) {
    uint8_t b[32];
    cuzk_fr_to_bytes(b, &in[i]);
    for (int j = 0; j < 32; j++)
      fprintf(f, "%02x", b[j]);
    fputc('\n', f);
  }
  bool ok = !ferror(f);
  return fclose(f) == 0 && ok;
}

void cli_prove_args_default(cli_prove_args *pa) {
  memset(pa, 0, sizeof *pa);
  pa->pce = true;
}

int cli_prove_arg(cli_prove_args *pa, int id, const char *v) {
  uint64_t x;
  switch (id) {
  case O_SYNTHESIS:
    if (strcmp(v, "pce") && strcmp(v, "prove"))
      return cli_fail(2, "--synthesis: pce or prove, not %s", v), -1;
    pa->pce = !strcmp(v, "pce");
    return 1;
  case O_DETERMINISTIC:
    if (!cli_u64(&pa->seed, v))
      return cli_fail(2, "--deterministic: not an unsigned integer: %s", v), -1;
    pa->deterministic = true;
    return 1;
  case O_THREADS:
    if (!cli_u64(&x, v) || x > 1024) return cli_fail(2, "--threads: 0..1024, not %s", v), -1;
    pa->threads = (unsigned)x;
    return 1;
  case O_QUIET: cli_quiet = true; return 1;
  case O_IN_PLACE: pa->in_place = true; return 1;
  case O_PCE_FILE: pa->pce_file = v; return 1;
  default: return 0;
  }
}

int cli_params_present(const char *cmd, const char *base, bool need_params, const char *kind,
                       uint64_t sector_bytes) {
  static const char *const ext[] = {".vk", ".params"};
  for (int i = 0; i < (need_params ? 2 : 1); i++) {
    char path[4200], dir[4200], size[32];
    snprintf(path, sizeof path, "%s%s", base, ext[i]);
    if (access(path, R_OK) == 0) continue;
    int err = errno;
    snprintf(dir, sizeof dir, "%s", base);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = 0;
    const cuzk_sector_info *si; /* its name is setup's --sector-size word */
    if (cuzk_sector_by_bytes(&si, sector_bytes) == CUZK_POREP_OK)
      snprintf(size, sizeof size, "%s", si->name);
    else
      snprintf(size, sizeof size, "%llu", (unsigned long long)sector_bytes);
    if (err != ENOENT) return cli_fail(1, "%s: %s: %s", cmd, path, strerror(err));
    return cli_fail(1,
                    "%s: %s: no such file. Put Filecoin's parameter files in %s, or make TEST "
                    "ones (anyone can forge proofs with them): cuzk-bench setup --kind %s "
                    "--sector-size %s --param-cache %s",
                    cmd, path, slash ? dir : ".", kind, size, slash ? dir : ".");
  }
  return -1;
}

void cli_use_calibration(const char *cmd, const char *base) {
  char dir[4200], msg[1024];
  snprintf(dir, sizeof dir, "%s", base);
  char *slash = strrchr(dir, '/');
  if (slash)
    *slash = 0;
  else
    snprintf(dir, sizeof dir, ".");
  bool used;
  cuzk_msm_err e = cuzk_msm_calibration_use_dir(dir, &used, msg, sizeof msg);
  if (e != CUZK_MSM_OK) /* a bad file costs speed, not the proof: say so and go on */
    fprintf(stderr, "%s: warning: %s (run cuzk-bench calibrate --param-cache %s)\n", cmd, msg, dir);
  else if (used && !cli_quiet)
    fprintf(stderr, "%s: %s\n", cmd, msg);
}

int cli_load_params(cli_prover *pr, const char *cmd, const char *base, const cli_prove_args *pa) {
  char msg[1024];
  memset(pr, 0, sizeof *pr);
  pr->pool = cli_pool(pa->threads);
  pr->deterministic = pa->deterministic;
  pr->seed = pa->seed;
  if (pa->deterministic)
    fprintf(stderr,
            "%s: --deterministic: r and s derived from seed %llu. NOT FOR PRODUCTION: "
            "the same r, s on two witnesses of one circuit reveal them\n",
            cmd, (unsigned long long)pa->seed);
  cli_use_calibration(cmd, base);
  double t0 = cli_now_s();
  char path[4200];
  snprintf(path, sizeof path, "%s.params", base);
  cuzk_g16_source src = {CUZK_G16_SOURCE_DECODED, NULL, NULL, NULL, false, false, NULL};
  if (pa->in_place) { /* the key only; the backend maps the file and checks it once */
    if (cuzk_g16_pvk_load(base, &pr->pvk, msg, sizeof msg)) return cli_fail(1, "%s: %s", cmd, msg);
    src = (cuzk_g16_source){CUZK_G16_SOURCE_MAPPED, NULL, NULL, path, true, false, NULL};
  } else {
    if (cuzk_g16_params_load(base, pr->pool, NULL, &pr->params, &pr->pvk, msg, sizeof msg))
      return cli_fail(1, "%s: %s", cmd, msg);
    src.params = pr->params;
  }
  cuzk_g16_exec x = {pr->pool, 0, NULL};
  /* in place, a file not checked before: every point once (minutes at 32 GiB) */
  cli_progress bar;
  cli_progress_start(&bar, "checking the parameters", "points", false);
  cuzk_progress cb = cli_progress_cb(&bar);
  src.progress = &cb;
  cuzk_g16_err ae = cuzk_g16_attach(&pr->set, NULL, &src, &x, msg, sizeof msg);
  cli_progress_end(&bar);
  if (ae) return cli_fail(1, "%s: %s", cmd, msg);
  pr->load_s = cli_now_s() - t0;
  if (!(pr->progress = calloc(1, sizeof *pr->progress))) return cli_fail(1, "out of memory");
  cli_progress_start(&pr->progress->bar, cmd, "partitions", true);
  return -1;
}

void cli_prover_parts(cli_prover *pr, unsigned parts) { pr->progress->parts = parts; }

/* The process's peak resident memory and the bytes it has read from storage so far (the page
 * cache's misses: /proc/self/io read_bytes), after a partition: what a proof at production size
 * needs of the machine. */
static void cli_print_resources(unsigned label) {
  struct rusage ru;
  double peak = getrusage(RUSAGE_SELF, &ru) == 0 ? (double)ru.ru_maxrss / 1048576.0 : 0;
  unsigned long long rb = 0, v;
  char key[64];
  FILE *f = fopen("/proc/self/io", "r");
  while (f && fscanf(f, "%63s %llu", key, &v) == 2)
    if (!strcmp(key, "read_bytes:")) rb = v;
  if (f) fclose(f);
  printf("partition %u: peak RSS %.2f GiB, read from storage %.2f GiB (the process so far)\n",
         label, peak, (double)rb / 1073741824.0);
}

/* partition part's stage on the progress line (ended before the timings line on stdout) */
static void prove_progress(const cli_prover *pr, unsigned label, const char *stage) {
  cli_prove_progress *p = pr->progress;
  char step[64];
  snprintf(step, sizeof step, "partition %u: %s", label, stage);
  if (p->parts) cli_progress_update(&p->bar, step, p->done, p->parts);
}

void cli_prover_free(cli_prover *pr) {
  if (pr->progress) cli_progress_end(&pr->progress->bar);
  free(pr->progress);
  cuzk_g16_detach(pr->set);
  cuzk_g16_pvk_free(pr->pvk);
  cuzk_g16_params_free(pr->params);
  cuzk_pool_destroy(pr->pool);
  memset(pr, 0, sizeof *pr);
}

/* A cli_synth_fn's blank circuit as cuzk_pce_record wants it. */
typedef struct {
  cli_synth_fn f;
  const void *ctx;
  unsigned part;
} blank_of;

static bool blank_synth(const void *ctx, cuzk_cs *cs, char *msg, size_t len) {
  const blank_of *b = ctx;
  return b->f(cs, b->ctx, b->part, true, msg, len);
}

int cli_record(cuzk_pce **out, cli_synth_fn f, const void *ctx, unsigned part, const char *cmd) {
  blank_of b = {f, ctx, part};
  char msg[512] = "";
  if (cuzk_pce_record(out, blank_synth, &b, NULL, msg, sizeof msg))
    return cli_fail(1, "%s: recording the circuit: %s", cmd, msg);
  return -1;
}

/* A .pce file made by prove is for base's circuit: its tag is SHA-256 of base.vk's bytes (another
 * parameter set, another tag: the file is then recorded again, never used). */
static bool pce_tag(uint8_t tag[32], const char *base) {
  char path[4200];
  uint8_t *vk;
  size_t len;
  snprintf(path, sizeof path, "%s.vk", base);
  if (!cli_read_file(path, &vk, &len)) return false;
  cuzk_sha256(tag, vk, len);
  free(vk);
  return true;
}

int cli_record_pce(cuzk_pce **out, cli_synth_fn f, const void *ctx, const char *pce_file,
                   const char *base) {
  double t0 = cli_now_s();
  uint8_t tag[32];
  char why[512] = "";
  if (pce_file && !pce_tag(tag, base)) return cli_fail(1, "prove: cannot read %s.vk", base);
  if (pce_file && !cuzk_pce_read_file(out, pce_file, "prove", tag, NULL, why, sizeof why)) {
    printf("constraint matrices read from %s in %.2f s (%zu constraints, %.1f MB, %.1f MB of it "
           "mapped)\n",
           pce_file, cli_now_s() - t0, cuzk_pce_num_constraints(*out),
           (double)cuzk_pce_bytes(*out) / 1e6, (double)cuzk_pce_mapped_bytes(*out) / 1e6);
    return -1;
  }
  if (pce_file) printf("%s; recording the matrices\n", why);
  int rc = cli_record(out, f, ctx, 0, "prove");
  if (rc >= 0) return rc;
  printf("constraint matrices recorded in %.2f s (%zu constraints, %zu coefficients, %.1f MB)\n",
         cli_now_s() - t0, cuzk_pce_num_constraints(*out), cuzk_pce_num_coefficients(*out),
         (double)cuzk_pce_bytes(*out) / 1e6);
  bool mapped = false; /* the file just written in place of the recording: page cache, not anon */
  if (pce_file && cuzk_pce_write_file_mapped(out, pce_file, "prove", tag, NULL, &mapped))
    return cli_fail(1, "prove: cannot write %s", pce_file);
  if (mapped) printf("constraint matrices written to %s and mapped from it\n", pce_file);
  return -1;
}

int cli_prove_partition(cuzk_g16_proof *proof, const cli_prover *pr, const cuzk_pce *pce,
                        cli_synth_fn f, const void *ctx, unsigned part, unsigned label) {
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, pce ? CUZK_CS_WITNESS : CUZK_CS_PROVE);
  cuzk_cs *cs;
  char msg[512];
  if (cuzk_cs_create(&cs, &o)) return cli_fail(1, "out of memory");
  double s0 = cli_now_s();
  prove_progress(pr, label, "synthesis");
  if (!f(cs, ctx, part, false, msg, sizeof msg)) {
    cuzk_cs_destroy(cs);
    return cli_fail(1, "prove: partition %u: %s", label, msg);
  }
  double synth = cli_now_s() - s0;
  cuzk_g16_timings t;
  cuzk_fr r, s;
  cuzk_g16_prove_opts po = {pr->pool, 0, NULL, NULL, NULL};
  if (pr->deterministic) {
    cuzk_g16_seeded_rs(&r, &s, pr->seed, part);
    po.r = &r;
    po.s = &s;
  }
  prove_progress(pr, label, "proving");
  cuzk_g16_err e = pce ? cuzk_g16_prove_pce_set(proof, &cs, 1, pce, pr->set, &po, &t)
                       : cuzk_g16_prove_set(proof, &cs, 1, pr->set, &po, &t);
  cuzk_cs_destroy(cs);
  cli_progress_end(&pr->progress->bar);
  if (e) return cli_fail(1, "prove: partition %u: %s", label, cuzk_g16_strerror(e));
  printf("partition %u: synth %.2f s, H %.2f s, MSM H %.2f L %.2f A %.2f B1 %.2f B2 %.2f s, "
         "total %.2f s\n",
         label, synth, t.h_s, t.msm_h_s, t.msm_l_s, t.msm_a_s, t.msm_b1_s, t.msm_b2_s,
         synth + t.total_s);
  cli_print_resources(label);
  fflush(stdout); /* before the progress line on stderr */
  pr->progress->done++;
  prove_progress(pr, label, "proven");
  return -1;
}

bool cli_synth_porep(cuzk_cs *cs, const void *ctx, unsigned part, bool blank, char *msg,
                     size_t len) {
  const cli_porep_synth *s = ctx;
  return cuzk_stacked_synthesize(cs, s->cfg, blank ? NULL : s->c1, part, msg, len) == CUZK_POREP_OK;
}
