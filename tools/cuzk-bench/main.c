/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * cuzk-bench: the developer's command line for cuzk: test inputs, TEST parameters, offline
 * proofs and verification of every kind, synthesis benchmarks, and the daemon's client. The
 * commands are the table below (dispatch and usage text); each lives in its cmd_*.c file. Run a
 * command with --help for its options.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* Every command: dispatch and the usage text come from this one table. A summary's continuation
 * lines start with a newline; client commands are listed under their own heading. */
typedef struct {
  const char *name;
  int (*run)(int argc, char **argv);
  bool client;
  const char *summary;
} command;

static const command commands[] = {
    {"gen-vanilla", cmd_gen_vanilla, false,
     "test inputs: gen-vanilla porep (a sealed test-size sector's C1\n"
     "output), gen-vanilla winning-post|window-post (test sectors' PoSt\n"
     "request), gen-vanilla snap (a SnapDeals update request);\n"
     "--synthetic: consistent sectors of any size"},
    {"parent-cache", cmd_parent_cache, false,
     "write the SDR parent cache file and print its SHA-256"},
    {"verify-vanilla", cmd_verify_vanilla, false,
     "verify vanilla proofs natively: a C1 output's, one PoSt sector's\n"
     "(--kind winning-post|window-post --vanilla FILE) or a SnapDeals\n"
     "request's (--kind snap --request FILE)"},
    {"shape", cmd_shape, false,
     "count one partition circuit (inputs, aux, constraints, nnz) of\n"
     "PoRep or --kind winning-post|window-post|snap"},
    {"setup", cmd_setup, false,
     "write TEST Groth16 parameters for a PoRep circuit, or a PoSt or\n"
     "SnapDeals one (--kind winning-post|window-post|snap)"},
    {"prove", cmd_prove, false,
     "prove PoRep C2 from a C1 output, or a PoSt or SnapDeals request\n"
     "(--request)"},
    {"verify", cmd_verify, false,
     "verify PoRep C2 proofs against a C1 output, or PoSt and SnapDeals\n"
     "proofs against their request (--request)"},
    {"calibrate", cmd_calibrate, false,
     "measure the MSM window plan's costs on this CPU and write them\n"
     "beside the parameters (--param-cache DIR)"},
    {"synth-only", cmd_synth_only, false,
     "synthesis microbenchmark over a C1 or a request (--perf counters)"},
    {"synth-ab", cmd_synth_ab, false,
     "A/B of two synth-only option sets, interleaved (time, perf, Ir)"},
    {"single", cmd_single, true,
     "one proof through the daemon (Prove; --request FILE for PoSt and\n"
     "SnapDeals)"},
    {"batch", cmd_batch, true, "N proofs, J at a time, with a throughput summary"},
    {"status", cmd_status, true, "the daemon's status (GetStatus)"},
    {"preload", cmd_preload, true, "load a parameter set in the daemon (PreloadSRS)"},
    {"evict", cmd_evict, true, "move an unused parameter set out of memory (EvictSRS)"},
    {"metrics", cmd_metrics, true, "the daemon's Prometheus metrics (GetMetrics)"},
};
#define N_COMMANDS (sizeof commands / sizeof *commands)

/* A command's summary beside its name, continuation lines indented under the first. */
static void print_command(FILE *f, const command *c) {
  fprintf(f, "  %-18s", c->name);
  for (const char *s = c->summary; *s;) {
    const char *nl = strchr(s, '\n');
    size_t n = nl ? (size_t)(nl - s) : strlen(s);
    fprintf(f, "%s%.*s\n", s == c->summary ? "" : "                    ", (int)n, s);
    s += n + (nl != NULL);
  }
}

static void usage(FILE *f) {
  fputs("usage: cuzk-bench <command> [options]\n", f);
  for (size_t i = 0; i < N_COMMANDS; i++)
    if (!commands[i].client) print_command(f, &commands[i]);
  fputs("Daemon client (-a/--addr ADDR, default http://127.0.0.1:9820; cuzk-daemon's built-in\n"
        "default is unix://<its working directory>/cuzk.sock):\n",
        f);
  for (size_t i = 0; i < N_COMMANDS; i++)
    if (commands[i].client) print_command(f, &commands[i]);
  fputs("Run 'cuzk-bench <command> --help' for its options; 'cuzk-bench --version' prints the\n"
        "version, commit, compiler and CPU kernels.\n",
        f);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const char *cmd = argv[1];
  for (size_t i = 0; i < N_COMMANDS; i++)
    if (!strcmp(cmd, commands[i].name)) return commands[i].run(argc - 1, argv + 1);
  if (cli_client_global_opt(cmd)) return cmd_client_global(argc, argv);
  if (!strcmp(cmd, "--version")) return cmd_version();
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
    usage(stdout);
    return 0;
  }
  usage(stderr);
  return cli_fail(2, "unknown command '%s'", cmd);
}
