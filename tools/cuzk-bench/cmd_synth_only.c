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
#include <sys/syscall.h>
#include <unistd.h>

#include "cli.h"
#include "cuzk/c1.h"
#include "cuzk/post.h"
#include "cuzk/r1cs.h"
#include "cuzk/stacked_circuit.h"
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
typedef struct {
  const char *c1_path, *request_path, *json_path, *mode_s;
  uint64_t sector, miner, iters, lc_inline;
  int partition;
  bool perf, shape_only, porep_opts; /* porep_opts: --partition/--sector-num/--miner-id given */
  cuzk_cs_mode mode;
} so_args;

static const char usage[] =
    "usage: cuzk-bench synth-only --c1 FILE [--partition N] [--sector-num N] [--miner-id N]\n"
    "         [-i|--iterations N] [--lc-inline 0..4] [--mode prove|witness] [--shape-only]\n"
    "         [--perf] [--perf-json FILE]\n"
    "       cuzk-bench synth-only --request FILE [-i|--iterations N] [--lc-inline 0..4]\n"
    "         [--mode prove|witness] [--shape-only] [--perf] [--perf-json FILE]\n"
    "Synthesizes the PoRep C2 circuits of a C1 output (raw JSON or Curio envelope) in process:\n"
    "wall = C1 parse + synthesis, synth = synthesis only. --shape-only counts (SHAPE mode).\n"
    "--request: a PoSt request's partition (FallbackPoStCircuit) or a SnapDeals request's\n"
    "partitions (EmptySectorUpdateCircuit); wall = request parse and checks (its vanilla proofs\n"
    "verified natively) + synthesis.\n";

static const int opts[] = {O_HELP, O_PERF,      O_SHAPE_ONLY, O_C1,    O_REQUEST,    O_PERF_JSON,
                           O_MODE, O_PARTITION, O_SECTOR_NUM, O_MINER, O_ITERATIONS, O_LC_INLINE,
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
  *a = (so_args){
      .mode_s = "prove", .sector = 1, .miner = 1000, .iters = 1, .lc_inline = 2, .partition = -1};
  for (int i = 1; i < argc; i++) {
    const char *k = argv[i], *v;
    int rc, id = cli_next_opt(opts, argc, argv, &i, &v);
    switch (id) {
    case O_HELP: fputs(usage, stdout); return 0;
    case O_PERF: a->perf = true; break;
    case O_SHAPE_ONLY: a->shape_only = true; break;
    case O_C1: a->c1_path = v; break;
    case O_REQUEST: a->request_path = v; break;
    case O_PERF_JSON: a->json_path = v, a->perf = true; break;
    case O_MODE: a->mode_s = v; break;
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
  a->mode = a->shape_only                   ? CUZK_CS_SHAPE
            : !strcmp(a->mode_s, "prove")   ? CUZK_CS_PROVE
            : !strcmp(a->mode_s, "witness") ? CUZK_CS_WITNESS
                                            : (cuzk_cs_mode)-1;
  if ((int)a->mode < 0) return cli_fail(2, "synth-only: --mode prove|witness, not %s", a->mode_s);
  return -1;
}

/* ---- one iteration: parse the input, synthesize its circuits ---------------------------------
 */
typedef struct {
  double synth;
  size_t circuits, constraints;
} so_result;

static int so_porep(cuzk_cs *cs, const so_args *a, const uint8_t *data, size_t len, so_result *r) {
  cuzk_c1 *c1;
  char eb[512];
  if (cuzk_c1_read(&c1, data, len, 0, NULL, eb, sizeof eb))
    return cli_fail(1, "%s: %s", a->c1_path, eb);
  cuzk_stacked_config cfg;
  if (cuzk_stacked_config_from_proof(&cfg, c1->registered_proof))
    return cli_fail(1, "%s: unsupported registered proof", a->c1_path);
  size_t parts = c1->vanilla_proofs.n, first = 0, last = parts;
  if (a->partition >= 0) {
    if ((size_t)a->partition >= parts) return cli_fail(2, "synth-only: --partition out of range");
    first = (size_t)a->partition;
    last = first + 1;
  }
  char msg[256];
  for (size_t k = first; k < last; k++) {
    cuzk_cs_reset(cs);
    double s0 = cli_now_s();
    if (cuzk_stacked_synthesize(cs, &cfg, a->shape_only ? NULL : c1, (unsigned)k, msg, sizeof msg))
      return cli_fail(1, "synthesis of partition %zu: %s", k, msg);
    r->synth += cli_now_s() - s0;
    r->constraints += cuzk_cs_num_constraints(cs);
  }
  r->circuits = last - first;
  cuzk_c1_free(c1);
  return -1;
}

/* A PoSt or SnapDeals request: every proof it answers (PoSt one, SnapDeals one per partition),
 * synthesized one after another into the same constraint system. */
static int so_post(cuzk_cs *cs, const so_args *a, const uint8_t *data, size_t len, so_result *r) {
  request_file f;
  bench_request rq;
  char msg[1024];
  if (!request_file_parse(&f, data, len, msg, sizeof msg))
    return cli_fail(1, "%s: %s", a->request_path, msg);
  bool ok = bench_request_check(&rq, &f, msg, sizeof msg); /* rq keeps copies */
  request_file_free(&f);
  if (!ok) return cli_fail(1, "%s: %s", a->request_path, msg);
  r->synth = 0;
  for (unsigned k = 0; k < rq.partitions; k++) {
    cuzk_cs_reset(cs);
    double s0 = cli_now_s();
    if (!bench_request_synthesize(cs, &rq, k, msg, sizeof msg))
      return cli_fail(1, "synthesis of partition %u: %s", bench_request_partition(&rq, k), msg);
    r->synth += cli_now_s() - s0;
  }
  r->constraints = cuzk_cs_num_constraints(cs);
  r->circuits = rq.partitions;
  bench_request_free(&rq);
  return -1;
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
  printf("mode:       %s, lc-inline %llu\n", cuzk_cs_mode_name(a->mode),
         (unsigned long long)a->lc_inline);
  printf("\n%s loaded:  %zu bytes\n", a->request_path ? "request" : "c1", len);
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
  FILE *json = NULL;
  if (a.json_path && !(json = fopen(a.json_path, "w")))
    return cli_fail(1, "cannot write %s", a.json_path);
  if (a.perf) counters_open();
  if (json) {
    fputs(a.request_path ? "{\"request\": " : "{\"c1\": ", json);
    cli_json_str(json, path);
    fprintf(json, ", \"mode\": \"%s\", \"lc_inline\": %llu, \"iterations\": [\n",
            cuzk_cs_mode_name(a.mode), (unsigned long long)a.lc_inline);
  }
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, a.mode);
  o.lc_inline = (unsigned)a.lc_inline;
  cuzk_cs *cs;
  if (cuzk_cs_create(&cs, &o)) return cli_fail(1, "out of memory");
  double sum_wall = 0, sum_synth = 0, min_wall = 1e300, min_synth = 1e300;
  for (uint64_t it = 1; it <= a.iters; it++) {
    if (a.perf) counters_start();
    double w0 = cli_now_s();
    so_result r = {0, 0, 0};
    rc = a.request_path ? so_post(cs, &a, data, len, &r) : so_porep(cs, &a, data, len, &r);
    if (rc >= 0) return rc;
    double wall = cli_now_s() - w0;
    if (a.perf) counters_stop();
    printf("  [%llu] wall=%.1fs  synth=%.1fs  circuits=%zu  constraints=%zu\n",
           (unsigned long long)it, wall, r.synth, r.circuits, r.constraints);
    if (a.perf) counters_print((int)it, json, it == a.iters);
    sum_wall += wall;
    sum_synth += r.synth;
    min_wall = wall < min_wall ? wall : min_wall;
    min_synth = r.synth < min_synth ? r.synth : min_synth;
  }
  double n = (double)a.iters;
  if (a.iters > 1) {
    printf("=== Summary (%llu iterations) ===\n", (unsigned long long)a.iters);
    printf("wall:   avg=%.2fs  min=%.2fs\n", sum_wall / n, min_wall);
    printf("synth:  avg=%.2fs  min=%.2fs\n", sum_synth / n, min_synth);
  }
  if (json) {
    fprintf(
        json,
        "], \"wall_avg\": %.6f, \"wall_min\": %.6f, \"synth_avg\": %.6f, \"synth_min\": %.6f}\n",
        sum_wall / n, min_wall, sum_synth / n, min_synth);
    fclose(json);
  }
  cuzk_cs_destroy(cs);
  free(data);
  return 0;
}
