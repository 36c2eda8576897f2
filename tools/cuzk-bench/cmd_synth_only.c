/*
 * cuzk-bench synth-only: in-process PoRep C2 synthesis microbenchmark (no daemon, no parameters),
 * printing what the reference tool prints (cuzk-interface.md §3.3) so runs can be compared; with
 * --perf, per-iteration counters read through perf_event_open (hardware events when the machine
 * exposes them, software events always), --perf-json writes every figure for A/B scripts.
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
#include "cuzk/r1cs.h"
#include "porep/c1.h"
#include "porep/stacked_circuit.h"

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

int cmd_synth_only(int argc, char **argv) {
  static const char usage[] =
      "usage: cuzk-bench synth-only --c1 FILE [--partition N] [--sector-num N] [--miner-id N]\n"
      "         [-i|--iterations N] [--lc-inline 0..4] [--mode prove|witness] [--shape-only]\n"
      "         [--perf] [--perf-json FILE]\n"
      "Synthesizes the PoRep C2 circuits of a C1 output (raw JSON or Curio envelope) in process:\n"
      "wall = C1 parse + synthesis, synth = synthesis only. --shape-only counts (SHAPE mode).\n";
  const char *c1_path = NULL, *json_path = NULL, *mode_s = "prove";
  uint64_t sector = 1, miner = 1000, iters = 1, lc_inline = 2;
  int partition = -1;
  bool perf = false, shape_only = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(usage, stdout);
      return 0;
    } else if (!strcmp(a, "--perf")) {
      perf = true;
    } else if (!strcmp(a, "--shape-only")) {
      shape_only = true;
    } else if (!v) {
      return cli_fail(2, "synth-only: '%s' needs a value or is unknown\n%s", a, usage);
    } else if (!strcmp(a, "--c1")) {
      c1_path = v, i++;
    } else if (!strcmp(a, "--perf-json")) {
      json_path = v, perf = true, i++;
    } else if (!strcmp(a, "--mode")) {
      mode_s = v, i++;
    } else {
      uint64_t x;
      if (!cli_u64(&x, v)) return cli_fail(2, "synth-only: %s: not an unsigned integer: %s", a, v);
      i++;
      if (!strcmp(a, "--partition") && x < 1000)
        partition = (int)x;
      else if (!strcmp(a, "--sector-num"))
        sector = x;
      else if (!strcmp(a, "--miner-id"))
        miner = x;
      else if ((!strcmp(a, "-i") || !strcmp(a, "--iterations")) && x >= 1 && x <= 100000)
        iters = x;
      else if (!strcmp(a, "--lc-inline") && x <= CUZK_LC_INLINE_MAX)
        lc_inline = x;
      else
        return cli_fail(2, "synth-only: bad option or value: %s %s\n%s", a, v, usage);
    }
  }
  if (!c1_path) return cli_fail(2, "synth-only: --c1 FILE is required");
  cuzk_cs_mode mode = shape_only                   ? CUZK_CS_SHAPE
                      : !strcmp(mode_s, "prove")   ? CUZK_CS_PROVE
                      : !strcmp(mode_s, "witness") ? CUZK_CS_WITNESS
                                                   : (cuzk_cs_mode)-1;
  if ((int)mode < 0) return cli_fail(2, "synth-only: --mode prove|witness, not %s", mode_s);
  uint8_t *data;
  size_t len;
  if (!cli_read_file(c1_path, &data, &len)) return cli_fail(1, "cannot read %s", c1_path);
  printf("=== Synthesis Microbenchmark ===\n");
  printf("c1:         %s\n", c1_path);
  printf("sector:     %llu (miner %llu)\n", (unsigned long long)sector, (unsigned long long)miner);
  if (partition >= 0)
    printf("partition:  %d\n", partition);
  else
    printf("partition:  all\n");
  printf("iterations: %llu\n", (unsigned long long)iters);
  printf("mode:       %s, lc-inline %llu\n", cuzk_cs_mode_name(mode),
         (unsigned long long)lc_inline);
  printf("\nc1 loaded:  %zu bytes\n", len);
  FILE *json = NULL;
  if (json_path && !(json = fopen(json_path, "w")))
    return cli_fail(1, "cannot write %s", json_path);
  if (perf) counters_open();
  if (json) {
    fputs("{\"c1\": ", json);
    cli_json_str(json, c1_path);
    fprintf(json, ", \"mode\": \"%s\", \"lc_inline\": %llu, \"iterations\": [\n",
            cuzk_cs_mode_name(mode), (unsigned long long)lc_inline);
  }
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, mode);
  o.lc_inline = (unsigned)lc_inline;
  cuzk_cs *cs;
  if (cuzk_cs_create(&cs, &o)) return cli_fail(1, "out of memory");
  double sum_wall = 0, sum_synth = 0, min_wall = 1e300, min_synth = 1e300;
  for (uint64_t it = 1; it <= iters; it++) {
    if (perf) counters_start();
    double w0 = cli_now_s();
    cuzk_c1 *c1;
    cuzk_c1_errbuf eb;
    if (cuzk_c1_read(&c1, data, len, 0, NULL, &eb)) return cli_fail(1, "%s: %s", c1_path, eb.msg);
    cuzk_stacked_config cfg;
    if (cuzk_stacked_config_from_proof(&cfg, c1->registered_proof))
      return cli_fail(1, "%s: unsupported registered proof", c1_path);
    size_t parts = c1->vanilla_proofs.n, first = 0, last = parts, constraints = 0;
    if (partition >= 0) {
      if ((size_t)partition >= parts) return cli_fail(2, "synth-only: --partition out of range");
      first = (size_t)partition;
      last = first + 1;
    }
    double synth = 0;
    char msg[256];
    for (size_t k = first; k < last; k++) {
      cuzk_cs_reset(cs);
      double s0 = cli_now_s();
      if (cuzk_stacked_synthesize(cs, &cfg, shape_only ? NULL : c1, (unsigned)k, msg, sizeof msg))
        return cli_fail(1, "synthesis of partition %zu: %s", k, msg);
      synth += cli_now_s() - s0;
      constraints += cuzk_cs_num_constraints(cs);
    }
    cuzk_c1_free(c1);
    double wall = cli_now_s() - w0;
    if (perf) counters_stop();
    printf("  [%llu] wall=%.1fs  synth=%.1fs  circuits=%zu  constraints=%zu\n",
           (unsigned long long)it, wall, synth, last - first, constraints);
    if (perf) counters_print((int)it, json, it == iters);
    sum_wall += wall;
    sum_synth += synth;
    min_wall = wall < min_wall ? wall : min_wall;
    min_synth = synth < min_synth ? synth : min_synth;
  }
  if (iters > 1) {
    printf("=== Summary (%llu iterations) ===\n", (unsigned long long)iters);
    printf("wall:   avg=%.2fs  min=%.2fs\n", sum_wall / (double)iters, min_wall);
    printf("synth:  avg=%.2fs  min=%.2fs\n", sum_synth / (double)iters, min_synth);
  }
  if (json) {
    fprintf(
        json,
        "], \"wall_avg\": %.6f, \"wall_min\": %.6f, \"synth_avg\": %.6f, \"synth_min\": %.6f}\n",
        sum_wall / (double)iters, min_wall, sum_synth / (double)iters, min_synth);
    fclose(json);
  }
  cuzk_cs_destroy(cs);
  free(data);
  return 0;
}
