/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * cuzk-bench: the developer's command line for cuzk.
 *   cuzk-bench gen-vanilla porep ...   seal a test-size sector in memory, write its C1 output
 *   cuzk-bench gen-vanilla winning-post|window-post ...   test sectors' PoSt request file
 *   cuzk-bench parent-cache ...        write the SDR parent cache file, print its SHA-256
 *   cuzk-bench verify-vanilla ...      natively verify every vanilla proof of a C1 file, or one
 *                                      PoSt sector's proof
 *   cuzk-bench shape ...               size of one partition circuit (no data)
 *   cuzk-bench setup / prove / verify  offline PoRep C2 and PoSt (test parameters, proofs,
 *                                      verification)
 *   cuzk-bench synth-only ...          in-process synthesis microbenchmark (+ perf counters)
 *   cuzk-bench synth-ab ...            interleaved A/B of two synth-only option sets
 *   cuzk-bench single / batch / status / preload / evict / metrics [-a ADDR]   the daemon's client
 * Run a subcommand with --help for its options.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *f) {
  fputs("usage: cuzk-bench <command> [options]\n"
        "  gen-vanilla porep   seal a test-size sector and write its C1 output (JSON)\n"
        "  gen-vanilla winning-post|window-post\n"
        "                      test sectors' PoSt vanilla proofs as a request file (JSON)\n"
        "  parent-cache        write the SDR parent cache file and print its SHA-256\n"
        "  verify-vanilla      verify every vanilla proof of a C1 output natively, or one PoSt\n"
        "                      sector's proof (--kind winning-post|window-post --vanilla FILE)\n"
        "  shape               count one partition circuit (inputs, aux, constraints, nnz) of\n"
        "                      PoRep or --kind winning-post|window-post\n"
        "  setup               write TEST Groth16 parameters for a PoRep circuit, or a PoSt one\n"
        "                      (--kind winning-post|window-post)\n"
        "  prove               prove PoRep C2 from a C1 output, or a PoSt request (--request)\n"
        "  verify              verify PoRep C2 proofs against a C1 output, or a PoSt proof\n"
        "                      against its request (--request)\n"
        "  synth-only          synthesis microbenchmark over a C1 or a PoSt request (--perf\n"
        "                      counters)\n"
        "  synth-ab            A/B of two synth-only option sets, interleaved (time, perf, Ir)\n"
        "Daemon client (-a/--addr ADDR, default http://127.0.0.1:9820; cuzk-daemon's built-in\n"
        "default is unix://<its working directory>/cuzk.sock):\n"
        "  single              one proof through the daemon (Prove; --request FILE for PoSt)\n"
        "  batch               N proofs, J at a time, with a throughput summary\n"
        "  status              the daemon's status (GetStatus)\n"
        "  preload             load a parameter set in the daemon (PreloadSRS)\n"
        "  evict               move an unused parameter set out of memory (EvictSRS)\n"
        "  metrics             the daemon's Prometheus metrics (GetMetrics)\n"
        "Run 'cuzk-bench <command> --help' for its options; 'cuzk-bench --version' prints the\n"
        "version, commit, compiler and CPU kernels.\n",
        f);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "gen-vanilla")) return cmd_gen_vanilla(argc - 1, argv + 1);
  if (!strcmp(cmd, "parent-cache")) return cmd_parent_cache(argc - 1, argv + 1);
  if (!strcmp(cmd, "verify-vanilla")) return cmd_verify_vanilla(argc - 1, argv + 1);
  if (!strcmp(cmd, "shape")) return cmd_shape(argc - 1, argv + 1);
  if (!strcmp(cmd, "setup")) return cmd_setup(argc - 1, argv + 1);
  if (!strcmp(cmd, "prove")) return cmd_prove(argc - 1, argv + 1);
  if (!strcmp(cmd, "verify")) return cmd_verify(argc - 1, argv + 1);
  if (!strcmp(cmd, "synth-only")) return cmd_synth_only(argc - 1, argv + 1);
  if (!strcmp(cmd, "synth-ab")) return cmd_synth_ab(argc - 1, argv + 1);
  if (!strcmp(cmd, "single")) return cmd_single(argc - 1, argv + 1);
  if (!strcmp(cmd, "batch")) return cmd_batch(argc - 1, argv + 1);
  if (!strcmp(cmd, "status")) return cmd_status(argc - 1, argv + 1);
  if (!strcmp(cmd, "preload")) return cmd_preload(argc - 1, argv + 1);
  if (!strcmp(cmd, "evict")) return cmd_evict(argc - 1, argv + 1);
  if (!strcmp(cmd, "metrics")) return cmd_metrics(argc - 1, argv + 1);
  if (cli_client_global_opt(cmd)) return cmd_client_global(argc, argv);
  if (!strcmp(cmd, "--version")) return cmd_version();
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
    usage(stdout);
    return 0;
  }
  usage(stderr);
  return cli_fail(2, "unknown command '%s'", cmd);
}
