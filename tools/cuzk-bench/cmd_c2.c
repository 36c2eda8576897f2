/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * cuzk-bench setup / prove / verify: offline PoRep C2 with parameter files named as Filecoin
 * names them (v28-stacked-proof-of-replication-...-<sha256(identifier)>.params/.vk/.meta).
 *   setup  --sector-size S [--registered-proof P] --param-cache DIR   TEST parameters (seeded)
 *   prove  --c1 FILE --param-cache DIR [--partition N] -o PROOF      all partitions by default
 *   verify --c1 FILE --param-cache DIR --proof PROOF                 re-derives public inputs
 * The PoSt forms (setup --kind winning-post|window-post, prove/verify --request) are cmd_post.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cuzk/groth16/groth16.h"
#include "cuzk/hashes/sha256.h"
#include "cuzk/porep/c1.h"
#include "cuzk/porep/c2.h"

typedef struct {
  const char *size, *proof, *dir, *c1, *out, *proof_file, *inputs_out;
  int partition;
  bool have_miner, have_sector, if_missing;
  cli_prove_args pa;
  cuzk_c2_sector sector;
} c2_args;

static const int opts[] = {
    O_HELP,       O_IF_MISSING,   O_SIZE,      O_PROOF, O_KIND,       O_PARAM_CACHE,  O_C1, O_OUT,
    O_PROOF_FILE, O_WRITE_INPUTS, O_PARTITION, O_MINER, O_SECTOR_NUM, CLI_PROVE_OPTS, 0};

/* --help prints usage, then the other kinds' forms of the command (more, more2; may be NULL). */
static int parse(c2_args *a, int argc, char **argv, const char *usage, const char *more,
                 const char *more2) {
  memset(a, 0, sizeof *a);
  a->partition = -1;
  cli_prove_args_default(&a->pa);
  a->dir = getenv("FIL_PROOFS_PARAMETER_CACHE");
  for (int i = 1; i < argc; i++) {
    const char *k = argv[i], *v;
    uint64_t x;
    int id = cli_next_opt(opts, argc, argv, &i, &v);
    if (id == O_KIND && cuzk_kind_named(v) != cuzk_kind_of(CUZK_KIND_POREP_SEAL_COMMIT))
      id = CLI_UNKNOWN;                       /* the other kinds: not here */
    int taken = cli_prove_arg(&a->pa, id, v); /* 1: --synthesis, --deterministic, --threads */
    if (taken < 0) return 2;
    if (taken) continue;
    switch (id) {
    case O_HELP:
      fputs(usage, stdout);
      fputs(more ? more : "", stdout);
      fputs(more2 ? more2 : "", stdout);
      return 0;
    case O_IF_MISSING: a->if_missing = true; break;
    case O_SIZE: a->size = v; break;
    case O_PROOF: a->proof = v; break;
    case O_KIND: break;
    case O_PARAM_CACHE: a->dir = v; break;
    case O_C1: a->c1 = v; break;
    case O_OUT: a->out = v; break;
    case O_PROOF_FILE: a->proof_file = v; break;
    case O_WRITE_INPUTS: a->inputs_out = v; break;
    case O_PARTITION:
      if (!cli_u64(&x, v) || x > 1000) return cli_fail(2, "--partition: bad value %s", v);
      a->partition = (int)x;
      break;
    case O_MINER:
      if (!cli_u64(&a->sector.miner_id, v)) return cli_fail(2, "--miner-id: bad value %s", v);
      a->have_miner = true;
      break;
    case O_SECTOR_NUM:
      if (!cli_u64(&a->sector.sector_number, v))
        return cli_fail(2, "--sector-num: bad value %s", v);
      a->have_sector = true;
      break;
    case CLI_MISSING: return 2;
    default: return cli_fail(2, "unknown option '%s'\n%s", k, usage);
    }
  }
  if (!a->dir) return cli_fail(2, "--param-cache DIR (or FIL_PROOFS_PARAMETER_CACHE) is required");
  if (a->have_miner != a->have_sector)
    return cli_fail(2, "--miner-id and --sector-num go together (they fix the replica_id)");
  return -1; /* go on */
}

static int gen_params(const void *p, const char *dir, cuzk_pool *pool,
                      const cuzk_progress *progress, double *gen_s, char *msg, size_t len) {
  return (int)cuzk_c2_setup_test_params(p, dir, pool, progress, gen_s, msg, len);
}

int cmd_setup(int argc, char **argv) {
  if (cli_snap_form(argc, argv)) return cmd_snap_setup(argc, argv);
  if (cli_post_form(argc, argv)) return cmd_post_setup(argc, argv);
  static const char usage[] =
      "usage: cuzk-bench setup [--kind porep] --sector-size S [--registered-proof ID|NAME]\n"
      "                        --param-cache DIR [--if-missing] [--threads T] [-q]\n"
      "Writes TEST Groth16 parameters for the PoRep circuit of one partition, with Filecoin's "
      "file\n"
      "names (.params, .vk, .meta). The toxic waste is derived from a fixed seed: anyone can "
      "forge\n"
      "proofs with these files. For tests and local development only. Progress (vector by\n"
      "vector, with the rate and the time left) goes to stderr; -q/--quiet silences it.\n";
  c2_args a;
  int rc = parse(&a, argc, argv, usage, cli_post_setup_usage, cli_snap_setup_usage);
  if (rc >= 0) return rc;
  const cuzk_seal_proof *p;
  if (!cli_proof(&p, a.proof, a.size)) return cli_fail(2, "setup: unknown sector size or proof");
  char base[4096];
  if (!cuzk_c2_param_base(base, sizeof base, a.dir, p)) return cli_fail(1, "setup: path too long");
  return cli_setup_params(p->name, base, a.if_missing, gen_params, p, a.dir, a.pa.threads);
}

/* Reads the C1 (raw or envelope) and derives its C2 context (commitment checks). */
static int load_c1(cuzk_c1 **c1, cuzk_c2_ctx *ctx, const char *path) {
  uint8_t *data;
  size_t len;
  if (!cli_read_file(path, &data, &len)) return cli_fail(1, "cannot read %s", path);
  char eb[512];
  cuzk_porep_err e = cuzk_c1_read(c1, data, len, 0, NULL, eb, sizeof eb);
  free(data);
  if (e) return cli_fail(1, "%s: %s", path, eb);
  char msg[512];
  if (cuzk_c2_ctx_init(ctx, *c1, msg, sizeof msg)) return cli_fail(1, "%s: %s", path, msg);
  return -1;
}

int cmd_prove(int argc, char **argv) {
  if (cli_post_form(argc, argv)) return cmd_post_prove(argc, argv);
  static const char usage[] =
      "usage: cuzk-bench prove --c1 FILE --param-cache DIR [--partition N]\n"
      "                        [--miner-id N --sector-num N] [--synthesis pce|prove]\n"
      "                        [--deterministic SEED] [--threads N] [--in-place]\n"
      "                        [--pce-file PATH] [-q] -o PROOF\n"
      "Proves the PoRep C2 of a C1 output: 192 bytes per partition, in partition order.\n"
      "Like seal_commit_phase2 it checks the C1 first (with --miner-id/--sector-num also its\n"
      "replica_id) and verifies every proof before writing it.\n"
      "  --synthesis  pce (default, as the daemon): the circuit's matrices recorded once, each\n"
      "               partition synthesized as its witness only; prove: PROVE mode (A/B)\n"
      "  --deterministic SEED  r and s from SEED: the same bytes on every run and thread count.\n"
      "               NOT FOR PRODUCTION: one r, s on two witnesses of a circuit reveals them\n"
      "  --threads N  the worker pool (default: all CPUs)\n"
      "  --in-place   read the MSM bases from the mapped .params file, a chunk at a time, instead\n"
      "               of decoding it at load (parameters larger than memory: 32 GiB sets)\n"
      "  --pce-file PATH  (pce) the matrices mapped from PATH when it holds them for these\n"
      "               parameters, else recorded and written there (a 32 GiB circuit's: GBs of\n"
      "               page cache instead of anonymous memory, and no recording next time)\n"
      "  -q, --quiet  no progress line on stderr (partition k of n and its stage)\n"
      "After each partition: its stage times, then the process's peak RSS and the bytes it read\n"
      "from storage so far.\n";
  c2_args a;
  int rc = parse(&a, argc, argv, usage, cli_post_prove_usage, NULL);
  if (rc >= 0) return rc;
  if (!a.c1 || !a.out) return cli_fail(2, "prove: --c1 and -o are required");
  double t_start = cli_now_s();
  cuzk_c1 *c1;
  cuzk_c2_ctx ctx;
  if ((rc = load_c1(&c1, &ctx, a.c1)) >= 0) return rc;
  const cuzk_seal_proof *p = ctx.proof;
  char base[4096], msg[512];
  if (!cuzk_c2_param_base(base, sizeof base, a.dir, p)) return cli_fail(1, "prove: path too long");
  if (cuzk_c2_check(&ctx, a.have_miner ? &a.sector : NULL, msg, sizeof msg))
    return cli_fail(1, "prove: %s: %s", a.c1, msg);
  double t_check = cli_now_s() - t_start;
  if ((rc = cli_params_present("prove", base, true, "porep", p->sector->bytes)) >= 0) return rc;
  cli_prover pr;
  if ((rc = cli_load_params(&pr, "prove", base, &a.pa)) >= 0) return rc;
  unsigned parts = ctx.partitions, first = 0, last = parts;
  if (a.partition >= 0) {
    if ((unsigned)a.partition >= parts) return cli_fail(2, "prove: --partition out of range");
    first = (unsigned)a.partition;
    last = first + 1;
  }
  cli_prover_parts(&pr, last - first);
  uint8_t *out = malloc((last - first) * CUZK_G16_PROOF_BYTES);
  cuzk_g16_proof *proofs = malloc((last - first) * sizeof *proofs);
  if (!out || !proofs) return cli_fail(1, "out of memory");
  printf("%s: C1 checked in %.2f s, parameters loaded in %.2f s\n", p->name, t_check, pr.load_s);
  cli_porep_synth sctx = {&ctx.cfg, c1};
  cuzk_pce *pce = NULL;
  if (a.pa.pce && (rc = cli_record_pce(&pce, cli_synth_porep, &sctx, a.pa.pce_file, base)) >= 0)
    return rc;
  for (unsigned k = first; k < last; k++) {
    if ((rc = cli_prove_partition(&proofs[k - first], &pr, pce, cli_synth_porep, &sctx, k, k)) >= 0)
      return rc;
    cuzk_g16_proof_write(out + (size_t)(k - first) * CUZK_G16_PROOF_BYTES, &proofs[k - first]);
  }
  cuzk_pce_free(pce);
  /* seal_commit_phase2 ends with verify_seal: a proof that does not verify is an error. */
  double v0 = cli_now_s();
  bool ok = false;
  if (cuzk_c2_verify(&ok, NULL, &ctx, pr.pvk, proofs, first, last - first))
    return cli_fail(1, "prove: verification failed to run");
  if (!ok)
    return cli_fail(1, "prove: the proof does not verify (inconsistent C1 or parameters); "
                       "nothing written");
  double t_verify = cli_now_s() - v0;
  if (!cli_write_file(a.out, out, (size_t)(last - first) * CUZK_G16_PROOF_BYTES))
    return cli_fail(1, "prove: cannot write %s", a.out);
  printf("verified in %.2f s; wrote %s (%zu bytes); total %.2f s\n", t_verify, a.out,
         (size_t)(last - first) * CUZK_G16_PROOF_BYTES, cli_now_s() - t_start);
  free(out);
  free(proofs);
  cli_prover_free(&pr);
  cuzk_c1_free(c1);
  return 0;
}

/* The public inputs of one partition as verify.mjs reads them. */
static int write_inputs(const char *path, const cuzk_c2_ctx *ctx, unsigned k, unsigned count) {
  if (count != 1) return cli_fail(2, "verify: --write-inputs needs one partition (--partition N)");
  cuzk_fr *in = malloc(ctx->num_inputs * sizeof *in);
  if (!in || cuzk_c2_public_inputs(in, ctx, k) || !cli_write_inputs(path, in, ctx->num_inputs))
    return cli_fail(1, "verify: cannot write the public inputs to %s", path);
  free(in);
  return -1;
}

int cmd_verify(int argc, char **argv) {
  if (cli_post_form(argc, argv)) return cmd_post_verify(argc, argv);
  static const char usage[] =
      "usage: cuzk-bench verify --c1 FILE --param-cache DIR --proof PROOF [--partition N]\n"
      "                         [--write-inputs FILE]\n"
      "Verifies every partition's proof (or one with --partition) against public inputs\n"
      "re-derived from the C1's commitments: challenges by the proof's kind, parents from the "
      "graph.\n"
      "--write-inputs writes the public inputs of the (one) verified partition, one per line as\n"
      "the hex of 32 little-endian bytes, for an independent verifier "
      "(tests/interop/verify.mjs).\n";
  c2_args a;
  int rc = parse(&a, argc, argv, usage, cli_post_verify_usage, NULL);
  if (rc >= 0) return rc;
  if (!a.c1 || !a.proof_file) return cli_fail(2, "verify: --c1 and --proof are required");
  cuzk_c1 *c1;
  cuzk_c2_ctx ctx;
  if ((rc = load_c1(&c1, &ctx, a.c1)) >= 0) return rc;
  char base[4096];
  if (!cuzk_c2_param_base(base, sizeof base, a.dir, ctx.proof))
    return cli_fail(1, "verify: path too long");
  if ((rc = cli_params_present("verify", base, false, "porep", ctx.proof->sector->bytes)) >= 0)
    return rc;
  cuzk_g16_pvk *pvk;
  char msg[512];
  if (cuzk_g16_pvk_load(base, &pvk, msg, sizeof msg)) return cli_fail(1, "verify: %s", msg);
  uint8_t *bytes;
  size_t len;
  if (!cli_read_file(a.proof_file, &bytes, &len))
    return cli_fail(1, "cannot read %s", a.proof_file);
  unsigned first = 0, count = ctx.partitions;
  if (a.partition >= 0) {
    if ((unsigned)a.partition >= count) return cli_fail(2, "verify: --partition out of range");
    first = (unsigned)a.partition;
    count = 1;
  }
  cuzk_g16_proof *proofs = malloc(count * sizeof *proofs);
  bool *ok = malloc(count * sizeof *ok);
  cuzk_g16_err e = CUZK_G16_OK;
  if (!proofs || !ok || (e = cuzk_g16_proofs_read(proofs, count, bytes, len)))
    return cli_fail(1, "verify: %s: expected %u proofs: %s", a.proof_file, count,
                    proofs && ok ? cuzk_g16_strerror(e) : "out of memory");
  if (a.inputs_out && (rc = write_inputs(a.inputs_out, &ctx, first, count)) >= 0) return rc;
  bool all = false;
  if (cuzk_c2_verify(&all, ok, &ctx, pvk, proofs, first, count))
    return cli_fail(1, "verify: cannot derive the public inputs");
  for (unsigned i = 0; i < count; i++)
    printf("partition %u: %s\n", first + i, ok[i] ? "valid" : "INVALID");
  free(ok);
  free(proofs);
  free(bytes);
  cuzk_g16_pvk_free(pvk);
  cuzk_c1_free(c1);
  return all ? 0 : 1;
}
