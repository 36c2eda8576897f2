/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* cuzk-bench: shared helpers of the subcommands (argument parsing, files, hex). */
#ifndef CUZK_TOOLS_BENCH_CLI_H
#define CUZK_TOOLS_BENCH_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cuzk/groth16/g16_backend.h"
#include "cuzk/groth16/groth16.h"
#include "cuzk/kinds/kinds.h"
#include "cuzk/porep/porep.h"
#include "cuzk/porep/stacked_circuit.h"
#include "cuzk/post/post.h"
#include "cuzk/snap/snap.h"
#include "cuzk/util/pool.h"
#include "progress.h"

/* Each subcommand: argv[0] is its name; returns the process exit code (0 ok, 1 failure, 2 usage).
 */
int cmd_gen_vanilla(int argc, char **argv);
int cmd_parent_cache(int argc, char **argv);
int cmd_verify_vanilla(int argc, char **argv);
int cmd_shape(int argc, char **argv);
int cmd_setup(int argc, char **argv);
int cmd_prove(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_synth_only(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_synth_ab(int argc, char **argv);
/* The daemon's client commands (cmd_client_prove.c, cmd_client_query.c; their shared options in
 * client_conn.h); -a/--addr, --timeout-ms and --log-level may also come before the command
 * name, which cmd_client_global handles. */
int cmd_single(int argc, char **argv);
int cmd_batch(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_preload(int argc, char **argv);
int cmd_evict(int argc, char **argv);
int cmd_metrics(int argc, char **argv);
bool cli_client_global_opt(const char *arg);
int cmd_client_global(int argc, char **argv);
/* cmd_version.c: --version */
int cmd_version(void);
/* The PoSt forms of gen-vanilla, setup, prove, verify and verify-vanilla (cmd_post.c), which the
 * commands hand over to; their help texts, which the commands' --help append. */
int cmd_post_gen_vanilla(int argc, char **argv);
int cmd_post_setup(int argc, char **argv);
int cmd_post_prove(int argc, char **argv);
int cmd_post_verify(int argc, char **argv);
int cmd_post_verify_vanilla(int argc, char **argv);
extern const char cli_post_gen_vanilla_usage[], cli_post_setup_usage[], cli_post_prove_usage[],
    cli_post_verify_usage[], cli_post_verify_vanilla_usage[];
/* The SnapDeals forms of gen-vanilla, setup and verify-vanilla (cmd_snap.c); prove, verify and
 * synth-only take update requests through the request forms above. */
int cmd_snap_gen_vanilla(int argc, char **argv);
int cmd_snap_setup(int argc, char **argv);
int cmd_snap_verify_vanilla(int argc, char **argv);
extern const char cli_snap_gen_vanilla_usage[], cli_snap_setup_usage[],
    cli_snap_verify_vanilla_usage[];
/* The update proof from --registered-proof (id or name) or, when NULL, the size's. */
bool cli_snap_proof(const cuzk_snap_proof **p, const char *proof_arg, const char *size_arg);
/* Whether a command line names --kind snap, or another name of the SnapDeals kind (false with
 * --help/-h). */
bool cli_snap_form(int argc, char **argv);

/* The id of every option of cuzk-bench; cli.c's table gives each its spellings and whether it
 * takes a value, and a command lists the ids it takes. Two ids may share a spelling (-o alone
 * and -o/--output, -c/--count and -c/--circuit-id, -i/--iterations and -i/--pairs): no command
 * takes both. */
enum {
  /* most commands */
  O_HELP = 1,
  O_KIND,
  O_SIZE,
  O_PROOF, /* --registered-proof */
  O_C1,
  O_REQUEST,
  O_OUT, /* -o only (the offline commands) */
  O_MINER,
  O_SECTOR_NUM,
  O_PARTITION,
  O_RANDOMNESS,
  O_THREADS,
  O_DATA,
  /* setup, prove, verify */
  O_PARAM_CACHE,
  O_IF_MISSING,
  O_PROOF_FILE, /* --proof */
  O_WRITE_INPUTS,
  /* gen-vanilla, verify-vanilla, shape */
  O_ENVELOPE,
  O_TICKET,
  O_SEED,
  O_SYNTHETIC,
  O_SYNTHETIC_FOR_BENCH,
  O_SECTORS,
  O_FIRST_SECTOR,
  O_PARTITION_INDEX,
  O_VANILLA,
  O_SECTOR_INDEX,
  O_NO_NNZ,
  /* synth-only, synth-ab */
  O_PERF,
  O_PERF_JSON,
  O_SHAPE_ONLY,
  O_MODE,
  O_ITERATIONS,
  O_LC_INLINE,
  O_A,
  O_B,
  O_COUNTER,
  O_JSON,
  O_MIN_EFFECT,
  O_PAIRS,
  O_WARMUP,
  O_PLOT,
  /* the daemon's client commands */
  O_ADDR,
  O_TIMEOUT,
  O_LOG_LEVEL,
  O_TYPE,
  O_PRIORITY,
  O_COMM_R_OLD,
  O_COMM_R_NEW,
  O_COMM_D_NEW,
  O_OUTPUT, /* -o/--output */
  O_COUNT,
  O_CONCURRENCY,
  O_CIRCUIT_ID,
  O_SYNTHESIS,
  O_DIGEST,
  O_DETERMINISTIC,
  O_QUIET,    /* -q/--quiet: no progress line (progress.h) */
  O_IN_PLACE, /* prove --in-place */
  O_PCE_FILE, /* synth-only, prove --pce-file: the recorded matrices kept in a .pce file */
  O_END       /* one past the last id */
};

/* The option parser of every command. A command lists the ids it takes, 0-terminated, e.g.
 *   static const int opts[] = {O_HELP, O_SIZE, O_OUT, 0};
 * and loops
 *   for (int i = 1; i < argc; i++) switch (cli_next_opt(opts, argc, argv, &i, &v)) ...
 * cli_next_opt looks at argv[*i], against the spellings of those ids only: a value option as
 * "-s V", "--long V" or "--long=V" returns its id with *val the value and *i past it; a flag
 * ("-s" or "--long" exactly) its id with *val NULL; an argument not starting with '-' (the empty
 * one included) CLI_ARG with *val = it (a positional argument, e.g. gen-vanilla's kind); any
 * other option CLI_UNKNOWN (0); CLI_MISSING (-1) after printing "'X' needs a value" when a value
 * option ends the line. */
enum { CLI_ARG = -2, CLI_MISSING = -1, CLI_UNKNOWN = 0 };
int cli_next_opt(const int *ids, int argc, char **argv, int *i, const char **val);
/* Whether arg is one of the ids' options as cli_next_opt matches it (its value not looked at). */
bool cli_is_opt(const int *ids, const char *arg);

/* Prints "cuzk-bench: <msg>" to stderr and returns 1 (or 2 for usage errors). */
int cli_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Parses exactly 64 hex digits; false otherwise. */
bool cli_hex32(uint8_t out[32], const char *hex);
void cli_print_hex(const uint8_t *b, size_t n);
bool cli_u64(uint64_t *out, const char *text);
/* The registered proof from --registered-proof (id or name) or, when NULL, the size's default. */
bool cli_proof(const cuzk_seal_proof **p, const char *proof_arg, const char *size_arg);
/* The PoSt proof of a kind (any name of a PoSt kind: "winning-post", "window-post", "wpost", ...)
 * from --registered-proof (id or name, which must be of that kind) or, when NULL, the one the
 * chain uses for the size (Winning 0-4, Window V1_1 10-14). */
bool cli_post_proof(const cuzk_post_proof **p, const char *kind, const char *proof_arg,
                    const char *size_arg);
/* The PoSt type of a kind name (any name of its descriptor, cuzk/kinds/kinds.h). */
bool cli_post_type(cuzk_post_type *t, const char *kind);
/* Whether a command line asks for the PoSt form of setup/prove/verify/synth-only: --request, or
 * --kind with a PoSt kind; false whenever --help/-h is there (the command's help covers both). */
bool cli_post_form(int argc, char **argv);
/* PoSt randomness: the default of gen-vanilla and verify-vanilla (32 bytes of 0x05), and 64 hex
 * digits that must be a canonical field element. */
void cli_post_default_randomness(uint8_t out[32]);
bool cli_post_randomness(uint8_t out[32], const char *hex);
/* A test sector's Fr32-padded bytes (nodes * 32, malloc'd) from --data zero, random:SEED or FILE
 * (unpadded bytes, the rest zero). -1 on success, else the exit code after the message. */
int cli_sector_data(uint8_t **data, uint64_t nodes, const char *sector_name, const char *data_arg);
/* Generates TEST parameters of proof (a kind's cuzk_*_setup_test_params); 0 on success. */
typedef int (*cli_gen_params_fn)(const void *proof, const char *dir, cuzk_pool *pool,
                                 const cuzk_progress *progress, double *gen_s, char *msg,
                                 size_t len);
/* The end of every `setup`: with if_missing, files at base that read (a readable .params and a
 * .vk that parses) are kept; otherwise gen writes them into dir, with the progress line
 * (progress.h). Prints what it did under name; returns the exit code. */
int cli_setup_params(const char *name, const char *base, bool if_missing, cli_gen_params_fn gen,
                     const void *proof, const char *dir, unsigned threads);
/* Public inputs one per line as the hex of 32 little-endian bytes (tests/interop/verify.mjs). */
bool cli_write_inputs(const char *path, const cuzk_fr *in, size_t n);
/* Reads a whole file (malloc'd); false with errno set on failure. */
bool cli_read_file(const char *path, uint8_t **data, size_t *len);
bool cli_write_file(const char *path, const uint8_t *data, size_t len);
/* The worker pool of a command: `threads` workers, 0 = one per online CPU; NULL if it cannot be
 * created (the library then runs on the calling thread). */
cuzk_pool *cli_pool(unsigned threads);
/* prove's start: the worker pool (threads, 0 = all CPUs) and the parameters at base with their
 * prepared verifying key, timed; cli_prover_free undoes it. With deterministic, every proof's
 * r and s come from seed and its partition (cli_prove_partition) instead of the OS. */
typedef struct {
  cli_progress bar;
  unsigned parts, done; /* partitions to prove (cli_prover_parts), proven */
} cli_prove_progress;
typedef struct {
  cuzk_pool *pool;
  cuzk_g16_params *params; /* NULL when read in place */
  cuzk_g16_set *set;       /* params attached, or the file read in place */
  cuzk_g16_pvk *pvk;
  double load_s;
  bool deterministic;
  uint64_t seed;
  cli_prove_progress *progress; /* the progress line of cli_prove_partition */
} cli_prover;
/* prove's own options, shared by its forms: --synthesis pce|prove (pre-compiled constraints,
 * the default as in the daemon: docs/r1cs.md "Pre-compiled constraints"; or PROVE mode, for A/B),
 * --deterministic SEED (cuzk_g16_seeded_rs; cli_load_params prints the warning), --threads N (the
 * pool; 0 = all CPUs), --in-place (the bases read from the mapped .params file by each MSM
 * instead of decoded at load: docs/groth16.md "Parameters read in place"). */
typedef struct {
  bool pce, deterministic, in_place;
  uint64_t seed;
  unsigned threads;
  const char *pce_file; /* --pce-file: the recorded matrices kept in (and mapped from) a file */
} cli_prove_args;
void cli_prove_args_default(cli_prove_args *pa);
/* Option id with value v into pa if it is one of prove's own (or -q/--quiet, which sets
 * cli_quiet): 1 taken, 0 not one of them, -1 a bad value (message printed; exit code 2). */
int cli_prove_arg(cli_prove_args *pa, int id, const char *v);
#define CLI_PROVE_OPTS O_SYNTHESIS, O_DETERMINISTIC, O_THREADS, O_QUIET, O_IN_PLACE, O_PCE_FILE
/* -1 on success, else the exit code after a message naming cmd. Prints the deterministic
 * warning. */
int cli_load_params(cli_prover *pr, const char *cmd, const char *base, const cli_prove_args *pa);
/* -1 if base.vk (and base.params when need_params) can be read; else the exit code after a
 * message naming cmd and the file and, for a missing one, the setup command that makes TEST
 * parameters for kind (setup's --kind word) at sector_bytes. */
int cli_params_present(const char *cmd, const char *base, bool need_params, const char *kind,
                       uint64_t sector_bytes);
void cli_prover_free(cli_prover *pr);
/* The MSM calibration beside the parameter files (base's folder) used when there is one, for
 * this CPU: said on stderr (unless -q); a bad or foreign one is a warning, the built-in costs
 * kept. */
void cli_use_calibration(const char *cmd, const char *base);
/* The number of partitions the command proves: cli_prove_partition's progress line counts them
 * (partition k of n, and its stage: synthesis, proving). */
void cli_prover_parts(cli_prover *pr, unsigned parts);
/* One partition (part) of a command's circuit into cs, or the circuit without a witness (blank,
 * for recording); false with msg. */
typedef bool (*cli_synth_fn)(cuzk_cs *cs, const void *ctx, unsigned part, bool blank, char *msg,
                             size_t len);
/* The circuit's matrices from a blank RECORD-mode synthesis; prints how long it took. -1 on
 * success, else the exit code after a message. */
int cli_record_pce(cuzk_pce **out, cli_synth_fn f, const void *ctx, const char *pce_file,
                   const char *base);
/* The same without the line printed: partition part's blank circuit (cuzk_pce_record); errors
 * name cmd. */
int cli_record(cuzk_pce **out, cli_synth_fn f, const void *ctx, unsigned part, const char *cmd);
/* Synthesizes partition part (WITNESS mode with pce, else PROVE mode) and proves it with pr;
 * prints the timings line under the name label. -1 on success, else the exit code. */
int cli_prove_partition(cuzk_g16_proof *proof, const cli_prover *pr, const cuzk_pce *pce,
                        cli_synth_fn f, const void *ctx, unsigned part, unsigned label);
/* Monotonic clock in seconds, for the timings the commands print. */
double cli_now_s(void);
/* Writes s as a JSON string literal (quotes and backslashes escaped, control bytes dropped). */
void cli_json_str(FILE *f, const char *s);
/* A PoRep C1's partitions as a cli_synth_fn (ctx: a cli_porep_synth; blank: no C1 values). */
typedef struct {
  const cuzk_stacked_config *cfg;
  const cuzk_c1 *c1;
} cli_porep_synth;
bool cli_synth_porep(cuzk_cs *cs, const void *ctx, unsigned part, bool blank, char *msg,
                     size_t len);

#endif
