/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * cuzk-bench synth-only: in-process PoRep C2 synthesis microbenchmark (no daemon, no parameters),
 * printing what the reference tool prints (docs/spec/cuzk-interface.md §3.3) so runs can be
 * compared; with --perf, per-iteration counters read through perf_event_open (hardware events when
 * the machine exposes them, software events always), --perf-json writes every figure for A/B
 * scripts. With --request, the same for a PoSt request's partition (FallbackPoStCircuit) or
 * every partition of a SnapDeals request (EmptySectorUpdateCircuit).
 */
#define _GNU_SOURCE /* syscall */
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cli.h"
#include "cuzk/porep/c1.h"
#include "cuzk/porep/stacked_circuit.h"
#include "cuzk/post/post.h"
#include "cuzk/r1cs/pce.h"
#include "cuzk/r1cs/r1cs.h"
#include "request_file.h"

/* ---- counters ------------------------------------------------------------------------------ */
typedef struct {
  const char *name;
  uint32_t type;
  uint64_t config;
  int fd; /* -1: unsupported here */
  uint64_t value;
} counter;

#define HW(n, c) \
  { n, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c, -1, 0 }
#define SW(n, c) \
  { n, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##c, -1, 0 }
#define CACHE(n, c, op, res)                                           \
  {                                                                    \
    n, PERF_TYPE_HW_CACHE,                                             \
        PERF_COUNT_HW_CACHE_##c | (PERF_COUNT_HW_CACHE_OP_##op << 8) | \
            (PERF_COUNT_HW_CACHE_RESULT_##res << 16),                  \
        -1, 0                                                          \
  }

static counter counters[] = {
    HW("cycles", CPU_CYCLES),
    HW("instructions", INSTRUCTIONS),
    HW("branch-misses", BRANCH_MISSES),
    CACHE("L1d-misses", L1D, READ, MISS),
    CACHE("LLC-misses", LL, READ, MISS),
    SW("task-clock-ns", TASK_CLOCK),
    SW("page-faults", PAGE_FAULTS),
    SW("context-switches", CONTEXT_SWITCHES),
};
#define NCOUNTERS (sizeof counters / sizeof counters[0])

static void counters_open(void) {
  for (size_t i = 0; i < NCOUNTERS; i++) {
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = counters[i].type;
    a.config = counters[i].config;
    a.disabled = 1;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    counters[i].fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
  }
}

static void counters_start(void) {
  for (size_t i = 0; i < NCOUNTERS; i++)
    if (counters[i].fd >= 0) {
      ioctl(counters[i].fd, PERF_EVENT_IOC_RESET, 0);
      ioctl(counters[i].fd, PERF_EVENT_IOC_ENABLE, 0);
    }
}

static void counters_stop(void) {
  for (size_t i = 0; i < NCOUNTERS; i++) {
    counters[i].value = 0;
    if (counters[i].fd < 0) continue;
    ioctl(counters[i].fd, PERF_EVENT_IOC_DISABLE, 0);
    if (read(counters[i].fd, &counters[i].value, sizeof counters[i].value) != 8)
      counters[i].value = 0;
  }
}

static void counters_print(int iter, FILE *json, bool last) {
  printf("      perf[%d]:", iter);
  bool any_hw = false;
  for (size_t i = 0; i < NCOUNTERS; i++) {
    if (counters[i].fd < 0) continue;
    any_hw |= counters[i].type != PERF_TYPE_SOFTWARE;
    printf(" %s=%llu", counters[i].name, (unsigned long long)counters[i].value);
  }
  if (counters[0].fd >= 0 && counters[1].fd >= 0 && counters[0].value)
    printf(" IPC=%.2f", (double)counters[1].value / (double)counters[0].value);
  printf("\n");
  if (!any_hw && iter == 1)
    printf("      (hardware counters are not available on this machine: only software events)\n");
  if (json) {
    fprintf(json, "    {\"iteration\": %d", iter);
    for (size_t i = 0; i < NCOUNTERS; i++) {
      if (counters[i].fd >= 0)
        fprintf(json, ", \"%s\": %llu", counters[i].name, (unsigned long long)counters[i].value);
      else
        fprintf(json, ", \"%s\": null", counters[i].name);
    }
    fprintf(json, "}%s\n", last ? "" : ",");
  }
}

/* ---- options --------------------------------------------------------------------------------
 */
typedef enum { SYN_PCE, SYN_PROVE, SYN_RAW } so_synthesis;

typedef struct {
  const char *c1_path, *request_path, *json_path, *mode_s, *synthesis_s, *pce_file;
  uint64_t sector, miner, iters, lc_inline;
  int partition;
  bool perf, shape_only, porep_opts, digest; /* porep_opts: --partition/--sector-num/--miner-id */
  so_synthesis syn;
  cuzk_cs_mode mode; /* the constraint system's mode: PROVE, WITNESS (pce), SHAPE */
  cli_prove_args pa; /* --threads (the SpMV's pool) */
} so_args;

static const char usage[] =
    "usage: cuzk-bench synth-only --c1 FILE [--partition N] [--sector-num N] [--miner-id N]\n"
    "         [-i|--iterations N] [--synthesis pce|prove] [--mode prove|witness]\n"
    "         [--lc-inline 0..4] [--shape-only] [--threads N] [--digest] [--perf]\n"
    "         [--perf-json FILE]\n"
    "       cuzk-bench synth-only --request FILE [the same options but --partition,\n"
    "         --sector-num, --miner-id]\n"
    "Synthesizes the PoRep C2 circuits of a C1 output (raw JSON or Curio envelope) in process:\n"
    "wall = C1 parse + synthesis, synth = synthesis only. --request: a PoSt request's partition\n"
    "(FallbackPoStCircuit) or a SnapDeals request's partitions (EmptySectorUpdateCircuit); wall =\n"
    "request parse and checks (its vanilla proofs verified natively) + synthesis.\n"
    "  --synthesis pce    (default, as prove and the daemon) the circuit's matrices recorded once\n"
    "                     (timed apart), then per partition the witness (WITNESS mode) and\n"
    "                     a, b, c = A·z, B·z, C·z by the evaluator, streamed through a small\n"
    "                     buffer (synth = witness + spmv; densities come with the recording)\n"
    "  --synthesis prove  PROVE mode: every linear combination built, a, b, c and densities held;\n"
    "                     refused up front when its estimated memory exceeds MemAvailable\n"
    "  --mode prove|witness  one constraint-system mode alone (witness: no a, b, c at all)\n"
    "  --shape-only       counts only (SHAPE mode)\n"
    "  --digest           a 64-bit digest of a, b, c per matrix (equal across pce and prove)\n"
    "  --pce-file PATH    (pce) the matrices from the .pce file PATH, mapped (docs/r1cs.md \"The\n"
    "                     .pce file\"); recorded and written there first when it is missing or\n"
    "                     unusable\n";

static const int opts[] = {O_HELP,
                           O_PERF,
                           O_SHAPE_ONLY,
                           O_C1,
                           O_REQUEST,
                           O_PERF_JSON,
                           O_MODE,
                           O_PARTITION,
                           O_SECTOR_NUM,
                           O_MINER,
                           O_ITERATIONS,
                           O_LC_INLINE,
                           O_SYNTHESIS,
                           O_THREADS,
                           O_DIGEST,
                           O_PCE_FILE,
                           0};

static int so_number(so_args *a, int id, const char *k, const char *v) {
  uint64_t x;
  if (!cli_u64(&x, v)) return cli_fail(2, "synth-only: %s: not an unsigned integer: %s", k, v);
  if (id == O_PARTITION && x < 1000)
    a->partition = (int)x, a->porep_opts = true;
  else if (id == O_SECTOR_NUM)
    a->sector = x, a->porep_opts = true;
  else if (id == O_MINER)
    a->miner = x, a->porep_opts = true;
  else if (id == O_ITERATIONS && x >= 1 && x <= 100000)
    a->iters = x;
  else if (id == O_LC_INLINE && x <= CUZK_LC_INLINE_MAX)
    a->lc_inline = x;
  else
    return cli_fail(2, "synth-only: bad option or value: %s %s\n%s", k, v, usage);
  return -1;
}

static int so_parse(so_args *a, int argc, char **argv) {
  *a = (so_args){.sector = 1, .miner = 1000, .iters = 1, .lc_inline = 2, .partition = -1};
  cli_prove_args_default(&a->pa);
  for (int i = 1; i < argc; i++) {
    const char *k = argv[i], *v;
    int rc, id = cli_next_opt(opts, argc, argv, &i, &v);
    switch (id) {
    case O_HELP: fputs(usage, stdout); return 0;
    case O_PERF: a->perf = true; break;
    case O_SHAPE_ONLY: a->shape_only = true; break;
    case O_DIGEST: a->digest = true; break;
    case O_C1: a->c1_path = v; break;
    case O_REQUEST: a->request_path = v; break;
    case O_PERF_JSON: a->json_path = v, a->perf = true; break;
    case O_MODE: a->mode_s = v; break;
    case O_SYNTHESIS: a->synthesis_s = v; break;
    case O_PCE_FILE: a->pce_file = v; break;
    case O_THREADS:
      if (cli_prove_arg(&a->pa, id, v) < 0) return 2;
      break;
    case O_PARTITION:
    case O_SECTOR_NUM:
    case O_MINER:
    case O_ITERATIONS:
    case O_LC_INLINE:
      if ((rc = so_number(a, id, k, v)) >= 0) return rc;
      break;
    case CLI_MISSING: return 2;
    default: return cli_fail(2, "synth-only: unknown option '%s'\n%s", k, usage);
    }
  }
  if (!a->c1_path == !a->request_path)
    return cli_fail(
        2, "synth-only: --c1 FILE (PoRep) or --request FILE (PoSt, SnapDeals) is required");
  if (a->request_path && a->porep_opts)
    return cli_fail(2, "synth-only: --partition, --sector-num and --miner-id are PoRep's (a "
                       "request names its partition)");
  if (a->synthesis_s && (a->mode_s || a->shape_only))
    return cli_fail(2, "synth-only: --synthesis chooses what --mode and --shape-only choose: give "
                       "one of them (--shape-only wins over --mode)");
  a->syn = a->mode_s || a->shape_only ? SYN_RAW : SYN_PCE;
  a->mode = CUZK_CS_WITNESS;
  if (a->synthesis_s && !strcmp(a->synthesis_s, "prove"))
    a->syn = SYN_PROVE, a->mode = CUZK_CS_PROVE;
  else if (a->synthesis_s && strcmp(a->synthesis_s, "pce"))
    return cli_fail(2, "synth-only: --synthesis pce|prove, not %s", a->synthesis_s);
  if (a->shape_only)
    a->mode = CUZK_CS_SHAPE;
  else if (a->mode_s)
    a->mode = !strcmp(a->mode_s, "prove")     ? CUZK_CS_PROVE
              : !strcmp(a->mode_s, "witness") ? CUZK_CS_WITNESS
                                              : (cuzk_cs_mode)-1;
  if ((int)a->mode < 0) return cli_fail(2, "synth-only: --mode prove|witness, not %s", a->mode_s);
  if (a->digest && (a->syn == SYN_RAW && a->mode != CUZK_CS_PROVE))
    return cli_fail(2, "synth-only: --digest needs a, b, c (--synthesis pce|prove)");
  return -1;
}

/* ---- the input: what to synthesize ------------------------------------------------------------
 */
typedef struct {
  cuzk_c1 *c1;
  cuzk_stacked_config cfg;
  cli_porep_synth porep;
  bench_request rq;
  bool have_rq;
  cli_synth_fn fn;
  const void *ctx;
  unsigned first, last; /* positions first .. last-1 */
} so_input;

static void so_input_free(so_input *in) {
  cuzk_c1_free(in->c1);
  if (in->have_rq) bench_request_free(&in->rq);
  memset(in, 0, sizeof *in);
}

/* Parses (and for requests checks) the input: the part of `wall` before synthesis. */
static int so_load(so_input *in, const so_args *a, const uint8_t *data, size_t len) {
  char msg[1024];
  memset(in, 0, sizeof *in);
  if (a->request_path) {
    request_file f;
    if (!request_file_parse(&f, data, len, msg, sizeof msg))
      return cli_fail(1, "%s: %s", a->request_path, msg);
    bool ok = bench_request_check(&in->rq, &f, msg, sizeof msg); /* rq keeps copies */
    request_file_free(&f);
    if (!ok) return cli_fail(1, "%s: %s", a->request_path, msg);
    in->have_rq = true;
    in->fn = bench_request_synth;
    in->ctx = &in->rq;
    in->last = in->rq.p.parts;
    return -1;
  }
  if (cuzk_c1_read(&in->c1, data, len, 0, NULL, msg, sizeof msg))
    return cli_fail(1, "%s: %s", a->c1_path, msg);
  if (cuzk_stacked_config_from_proof(&in->cfg, in->c1->registered_proof))
    return cli_fail(1, "%s: unsupported registered proof", a->c1_path);
  in->porep = (cli_porep_synth){&in->cfg, in->c1};
  in->fn = cli_synth_porep;
  in->ctx = &in->porep;
  in->last = (unsigned)in->c1->vanilla_proofs.n;
  if (a->partition >= 0) {
    if ((unsigned)a->partition >= in->last)
      return cli_fail(2, "synth-only: --partition out of range");
    in->first = (unsigned)a->partition;
    in->last = in->first + 1;
  }
  return -1;
}

/* ---- a, b, c: digests and the pre-compiled evaluation ------------------------------------------
 */
typedef struct {
  uint64_t h[3];
} abc_digest;

/* An order-dependent 64-bit digest of field elements (not cryptographic: it only tells two
 * computations of the same vectors apart). */
static void digest_add(uint64_t *h, const cuzk_fr *v, size_t n) {
  uint64_t x = *h;
  for (size_t i = 0; i < n; i++)
    for (int w = 0; w < 4; w++) {
      x = (x ^ v[i].l[w]) * UINT64_C(0x9e3779b97f4a7c15);
      x ^= x >> 29;
    }
  *h = x;
}

#define SPMV_BLOCK ((size_t)1 << 18) /* rows per block: 3 x 8 MiB of output */

typedef struct {
  cuzk_pce *pce;
  cuzk_cs *record_cs;
  cuzk_fr *buf[3];
  cuzk_pool *pool;
  double record_s;
} so_pce;

/* The circuit's matrices, recorded from the blank circuit of the input's first position. */
static int so_record(so_pce *pc, const so_input *in, const char *pce_file) {
  double t0 = cli_now_s();
  static const uint8_t tag[32]; /* the file names no parameters: a zero tag */
  char why[512] = "";
  if (pce_file &&
      !cuzk_pce_read_file(&pc->pce, pce_file, "synth-only", tag, NULL, why, sizeof why)) {
    printf("pce:        read from %s in %.2f s: %.2f GiB, %.2f GiB of it mapped\n", pce_file,
           cli_now_s() - t0, (double)cuzk_pce_bytes(pc->pce) / (1u << 30),
           (double)cuzk_pce_mapped_bytes(pc->pce) / (1u << 30));
  } else {
    if (pce_file) printf("pce:        %s\n", why);
    int rc = cli_record(&pc->pce, in->fn, in->ctx, in->first, "synth-only");
    if (rc >= 0) return rc;
    if (pce_file && cuzk_pce_write_file(pc->pce, pce_file, "synth-only", tag))
      return cli_fail(1, "synth-only: cannot write %s", pce_file);
  }
  pc->record_s = cli_now_s() - t0;
  for (int k = 0; k < 3; k++)
    if (!(pc->buf[k] = malloc(SPMV_BLOCK * sizeof(cuzk_fr))))
      return cli_fail(1, "synth-only: out of memory");
  printf("pce:        matrices %s in %.2f s: %zu constraints, %zu coefficients, %.2f GiB "
         "(%.1f B/constraint)\n",
         cuzk_pce_mapped(pc->pce) ? "mapped" : "recorded", pc->record_s,
         cuzk_pce_num_constraints(pc->pce), cuzk_pce_num_coefficients(pc->pce),
         (double)cuzk_pce_bytes(pc->pce) / (1u << 30),
         (double)cuzk_pce_bytes(pc->pce) / (double)cuzk_pce_num_constraints(pc->pce));
  return -1;
}

static void so_pce_free(so_pce *pc) {
  cuzk_pce_free(pc->pce);
  for (int k = 0; k < 3; k++)
    free(pc->buf[k]);
}

/* a, b, c of the witness in cs, a block at a time; returns the seconds spent in the products. */
static double so_spmv(so_pce *pc, const cuzk_cs *cs, abc_digest *d) {
  cuzk_cs_result r;
  cuzk_cs_result_get(cs, &r);
  double t = 0;
  size_t rows = cuzk_pce_num_constraints(pc->pce);
  for (size_t first = 0; first < rows; first += SPMV_BLOCK) {
    size_t n = rows - first < SPMV_BLOCK ? rows - first : SPMV_BLOCK;
    double t0 = cli_now_s();
    cuzk_pce_eval_rows(pc->pce, r.inputs, r.aux, r.aux_kind, pc->buf, first, n, pc->pool, 0);
    t += cli_now_s() - t0;
    if (d)
      for (int k = 0; k < 3; k++)
        digest_add(&d->h[k], pc->buf[k], n);
  }
  return t;
}

/* ---- PROVE mode's memory, estimated before it runs ---------------------------------------------
 */
/* MemAvailable, or CUZK_BENCH_MEM_AVAILABLE (bytes) where a test stands in for a small machine. */
static uint64_t mem_available(void) {
  const char *env = getenv("CUZK_BENCH_MEM_AVAILABLE");
  uint64_t forced;
  if (env && cli_u64(&forced, env)) return forced;
  FILE *f = fopen("/proc/meminfo", "r");
  char line[256];
  unsigned long long kb = 0;
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) break;
  if (f) fclose(f);
  return (uint64_t)kb * 1024;
}

/* What one partition holds in PROVE mode: the witness (32 B a variable), a, b, c (96 B a
 * constraint) and three density bitmaps; refused when that exceeds MemAvailable. */
static int so_prove_estimate(const so_input *in) {
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, CUZK_CS_SHAPE);
  cuzk_cs *cs;
  char msg[512] = "out of memory";
  if (cuzk_cs_create(&cs, &o)) return cli_fail(1, "synth-only: out of memory");
  bool ok = in->fn(cs, in->ctx, in->first, true, msg, sizeof msg);
  size_t vars = cuzk_cs_num_inputs(cs) + cuzk_cs_num_aux(cs), cons = cuzk_cs_num_constraints(cs);
  cuzk_cs_destroy(cs);
  if (!ok) return cli_fail(1, "synth-only: sizing the circuit: %s", msg);
  double need = 32.0 * (double)vars + 96.0 * (double)cons + 3.0 * (double)vars / 8;
  double avail = (double)mem_available();
  printf("prove mode: ~%.2f GiB a partition (%zu constraints x 96 B of a, b, c + %zu variables x "
         "32 B); %.2f GiB available\n",
         need / (1u << 30), cons, vars, avail / (1u << 30));
  if (avail > 0 && need > avail)
    return cli_fail(1,
                    "synth-only: PROVE mode would need ~%.1f GiB for one partition, more than the "
                    "%.1f GiB available: use --synthesis pce",
                    need / (1u << 30), avail / (1u << 30));
  return -1;
}

/* ---- one iteration ------------------------------------------------------------------------------
 */
typedef struct {
  double synth, witness, spmv;
  size_t circuits, constraints;
  abc_digest d;
} so_result;

static int so_iteration(cuzk_cs *cs, so_pce *pc, const so_args *a, const so_input *in,
                        so_result *r) {
  char msg[512];
  for (unsigned k = in->first; k < in->last; k++) {
    cuzk_cs_reset(cs);
    if (pc->pce) { /* the recording's segments (a partition's challenges) run at once */
      const cuzk_cs_mark *marks;
      size_t n_marks = cuzk_pce_marks(pc->pce, &marks);
      cuzk_cs_set_layout(cs, marks, n_marks, pc->pool);
    }
    double s0 = cli_now_s();
    if (!in->fn(cs, in->ctx, k, a->shape_only, msg, sizeof msg))
      return cli_fail(1, "synthesis of partition %u: %s", k, msg);
    double dt = cli_now_s() - s0;
    r->synth += dt;
    r->witness += dt;
    if (pc->pce) {
      double sp = so_spmv(pc, cs, a->digest ? &r->d : NULL);
      r->spmv += sp;
      r->synth += sp;
    } else if (a->digest) {
      cuzk_cs_result res;
      cuzk_cs_result_get(cs, &res);
      const cuzk_fr *abc[3] = {res.a, res.b, res.c};
      for (int m = 0; m < 3; m++)
        digest_add(&r->d.h[m], abc[m], res.num_constraints);
    }
    r->constraints += cuzk_cs_num_constraints(cs);
  }
  r->circuits = in->last - in->first;
  if (a->request_path) r->constraints = cuzk_cs_num_constraints(cs); /* one proof's, as before */
  return -1;
}

static const char *so_name(const so_args *a) {
  return a->syn == SYN_PCE ? "pce" : a->syn == SYN_PROVE ? "prove" : cuzk_cs_mode_name(a->mode);
}

static void so_header(const so_args *a, size_t len) {
  printf("=== Synthesis Microbenchmark ===\n");
  if (a->request_path) {
    printf("request:    %s\n", a->request_path);
  } else {
    printf("c1:         %s\n", a->c1_path);
    printf("sector:     %llu (miner %llu)\n", (unsigned long long)a->sector,
           (unsigned long long)a->miner);
    if (a->partition >= 0)
      printf("partition:  %d\n", a->partition);
    else
      printf("partition:  all\n");
  }
  printf("iterations: %llu\n", (unsigned long long)a->iters);
  printf("mode:       %s, lc-inline %llu\n", so_name(a), (unsigned long long)a->lc_inline);
  printf("\n%s loaded:  %zu bytes\n", a->request_path ? "request" : "c1", len);
}

static double peak_rss_bytes(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return (double)u.ru_maxrss * 1024.0;
}

typedef struct {
  double sum, min;
} stat;
static void stat_add(stat *s, double v) {
  s->sum += v;
  s->min = v < s->min ? v : s->min;
}

int cmd_synth_only(int argc, char **argv) {
  so_args a;
  int rc = so_parse(&a, argc, argv);
  if (rc >= 0) return rc;
  const char *path = a.request_path ? a.request_path : a.c1_path;
  uint8_t *data;
  size_t len;
  if (!cli_read_file(path, &data, &len)) return cli_fail(1, "cannot read %s", path);
  so_header(&a, len);
  so_pce pc = {0};
  so_input in;
  if ((rc = so_load(&in, &a, data, len)) >= 0) return rc;
  if (a.syn == SYN_PROVE && (rc = so_prove_estimate(&in)) >= 0) return rc;
  if (a.syn == SYN_PCE) {
    pc.pool = cli_pool(a.pa.threads);
    if ((rc = so_record(&pc, &in, a.pce_file)) >= 0) return rc;
  }
  so_input_free(&in);
  FILE *json = NULL;
  if (a.json_path && !(json = fopen(a.json_path, "w")))
    return cli_fail(1, "cannot write %s", a.json_path);
  if (a.perf) counters_open();
  if (json) {
    fputs(a.request_path ? "{\"request\": " : "{\"c1\": ", json);
    cli_json_str(json, path);
    fprintf(json, ", \"mode\": \"%s\", \"lc_inline\": %llu, \"iterations\": [\n", so_name(&a),
            (unsigned long long)a.lc_inline);
  }
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, a.mode);
  o.lc_inline = (unsigned)a.lc_inline;
  if (pc.pce) o.hint_aux = cuzk_pce_num_aux(pc.pce); /* the witness sized once, exactly */
  cuzk_cs *cs;
  if (cuzk_cs_create(&cs, &o)) return cli_fail(1, "out of memory");
  stat wall = {0, 1e300}, synth = wall, witness = wall, spmv = wall;
  abc_digest d0 = {{0}};
  size_t per_circuit = 0; /* constraints of the last iteration's circuits, each */
  for (uint64_t it = 1; it <= a.iters; it++) {
    if (a.perf) counters_start();
    double w0 = cli_now_s();
    so_result r = {0};
    if ((rc = so_load(&in, &a, data, len)) >= 0) return rc;
    rc = so_iteration(cs, &pc, &a, &in, &r);
    so_input_free(&in);
    if (rc >= 0) return rc;
    double w = cli_now_s() - w0;
    if (a.perf) counters_stop();
    printf("  [%llu] wall=%.3fs  synth=%.3fs  circuits=%zu  constraints=%zu",
           (unsigned long long)it, w, r.synth, r.circuits, r.constraints);
    if (pc.pce) printf("  (witness=%.3fs  spmv=%.3fs)", r.witness, r.spmv);
    printf("\n");
    per_circuit = r.circuits ? r.constraints / r.circuits : 0;
    if (a.digest && it == 1) d0 = r.d;
    if (a.digest && memcmp(&d0, &r.d, sizeof d0))
      return cli_fail(1, "synth-only: iteration %llu gave other a, b, c than the first",
                      (unsigned long long)it);
    if (a.perf) counters_print((int)it, json, it == a.iters);
    stat_add(&wall, w);
    stat_add(&synth, r.synth);
    stat_add(&witness, r.witness);
    stat_add(&spmv, r.spmv);
  }
  double n = (double)a.iters;
  if (a.iters > 1) {
    printf("=== Summary (%llu iterations) ===\n", (unsigned long long)a.iters);
    printf("wall:   avg=%.3fs  min=%.3fs\n", wall.sum / n, wall.min);
    printf("synth:  avg=%.3fs  min=%.3fs\n", synth.sum / n, synth.min);
    if (pc.pce) {
      printf("  witness: avg=%.3fs  min=%.3fs\n", witness.sum / n, witness.min);
      printf("  spmv:    avg=%.3fs  min=%.3fs\n", spmv.sum / n, spmv.min);
    }
  }
  if (a.digest)
    printf("abc digest: a=%016llx b=%016llx c=%016llx\n", (unsigned long long)d0.h[0],
           (unsigned long long)d0.h[1], (unsigned long long)d0.h[2]);
  /* what one synthesized circuit holds (docs/performance.md: bytes per constraint in flight),
   * its witness and, in PROVE mode, its a, b, c and densities; the pce path's a, b, c go
   * straight into the prover's vectors, counted apart */
  size_t held = cuzk_cs_memory_bytes(cs);
  printf("system:     %.1f MiB held by the constraint system (%.1f B/constraint)\n",
         (double)held / (1u << 20), per_circuit ? (double)held / (double)per_circuit : 0.0);
  printf("peak RSS:   %.2f GiB\n", peak_rss_bytes() / (1u << 30));
  if (json) {
    fprintf(json,
            "], \"wall_avg\": %.6f, \"wall_min\": %.6f, \"synth_avg\": %.6f, \"synth_min\": %.6f, "
            "\"peak_rss_bytes\": %.0f, \"system_bytes\": %zu",
            wall.sum / n, wall.min, synth.sum / n, synth.min, peak_rss_bytes(), held);
    if (pc.pce)
      fprintf(json,
              ", \"record_s\": %.6f, \"witness_avg\": %.6f, \"witness_min\": %.6f, \"spmv_avg\": "
              "%.6f, \"spmv_min\": %.6f, \"pce_bytes\": %zu",
              pc.record_s, witness.sum / n, witness.min, spmv.sum / n, spmv.min,
              cuzk_pce_bytes(pc.pce));
    fprintf(json, "}\n");
    fclose(json);
  }
  cuzk_cs_destroy(cs);
  so_pce_free(&pc);
  cuzk_pool_destroy(pc.pool);
  free(data);
  return 0;
}
