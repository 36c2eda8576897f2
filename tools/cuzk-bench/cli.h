/* cuzk-bench: shared helpers of the subcommands (argument parsing, files, hex). */
#ifndef CUZK_TOOLS_BENCH_CLI_H
#define CUZK_TOOLS_BENCH_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cuzk/pool.h"
#include "cuzk/porep.h"

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
int cmd_synth_ab(int argc, char **argv);
/* The daemon's client commands (cmd_client.c); -a/--addr, --timeout-ms and --log-level may also
 * come before the command name, which cmd_client_global handles. */
int cmd_single(int argc, char **argv);
int cmd_batch(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_preload(int argc, char **argv);
int cmd_evict(int argc, char **argv);
int cmd_metrics(int argc, char **argv);
bool cli_client_global_opt(const char *arg);
int cmd_client_global(int argc, char **argv);

/* Prints "cuzk-bench: <msg>" to stderr and returns 1 (or 2 for usage errors). */
int cli_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Parses exactly 64 hex digits; false otherwise. */
bool cli_hex32(uint8_t out[32], const char *hex);
void cli_print_hex(const uint8_t *b, size_t n);
bool cli_u64(uint64_t *out, const char *text);
/* The registered proof from --registered-proof (id or name) or, when NULL, the size's default. */
bool cli_proof(const cuzk_seal_proof **p, const char *proof_arg, const char *size_arg);
/* Reads a whole file (malloc'd); false with errno set on failure. */
bool cli_read_file(const char *path, uint8_t **data, size_t *len);
bool cli_write_file(const char *path, const uint8_t *data, size_t len);
/* The worker pool of a command: `threads` workers, 0 = one per online CPU; NULL if it cannot be
 * created (the library then runs on the calling thread). */
cuzk_pool *cli_pool(unsigned threads);
/* Monotonic clock in seconds, for the timings the commands print. */
double cli_now_s(void);
/* Writes s as a JSON string literal (quotes and backslashes escaped, control bytes dropped). */
void cli_json_str(FILE *f, const char *s);

#endif
