/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* cuzk-bench gen-vanilla porep: seal a test-size sector in memory and write its C1 output (the
 * PoSt kinds, winning-post and window-post, are cmd_post.c's). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cuzk/filecoin/seal.h"
#include "cuzk/porep/c1.h"
#include "cuzk/porep/c2.h"
#include "cuzk/porep/vanilla.h"
#include "cuzk/util/pool.h"

static const char usage[] =
    "usage: cuzk-bench gen-vanilla porep --sector-size SIZE [--registered-proof ID|NAME]\n"
    "         [--data FILE|zero|random:SEED] [--miner-id N] [--sector-num N] [--ticket HEX]\n"
    "         [--seed HEX] [--threads N] -o C1.json [--envelope] [-q]\n"
    "       cuzk-bench gen-vanilla porep --sector-size SIZE --synthetic [--registered-proof "
    "ID|NAME]\n"
    "         [--miner-id N] [--sector-num N] [--ticket HEX] [--seed HEX] -o C1.json [--envelope]\n"
    "       cuzk-bench gen-vanilla porep --sector-size SIZE --synthetic-for-bench\n"
    "         [--registered-proof ID|NAME] [--sector-num N] -o C1.json\n"
    "Seals a sector of a test size (2KiB, 8MiB, 512MiB) in memory and writes its C1 output\n"
    "(SealCommitPhase1Output JSON; --envelope: Curio's {SectorNum, Phase1Out, SectorSize}).\n"
    "--synthetic: the C1 of a synthetic CC sector of any size (32GiB, 64GiB too) in seconds:\n"
    "the challenged nodes labelled for real from made-up parents, sparse trees; consistent (C2's\n"
    "checks pass, the proof verifies against its own comm_r) but no stored data behind it. It\n"
    "is marked \"cuzk_synthetic_sector\": 1; the daemon refuses it unless\n"
    "daemon.allow_synthetic_inputs = true (docs/config.md).\n"
    "--synthetic-for-bench: a C1 of the exact shape of any size (32GiB, 64GiB too) with made-up\n"
    "contents, labelled as such in the file, for synth-only on production-size partitions;\n"
    "prove and the daemon refuse it (no sealed sector behind it).\n"
    "  --data FILE      the sector's unpadded bytes (at most 2032 for 2KiB; the rest is zero)\n"
    "  --data zero      a CC sector (default); random:SEED reproducible random bytes\n"
    "  --miner-id N     prover id = Filecoin's encoding of actor N (default 1000)\n"
    "  --ticket/--seed  32 bytes in hex (defaults: 01..01 and 02..02)\n"
    "  -q, --quiet      no progress line (stderr: sealing step by step, layer by layer)\n";

/* A C1 of p's shape with made-up contents (cuzk_c1_new_synthetic; the sector number seeds it). */
static int write_synthetic(const cuzk_seal_proof *p, uint64_t sector_num, const char *out) {
  double t0 = cli_now_s();
  cuzk_c1 *c1 = cuzk_c1_new_synthetic(p->id, sector_num);
  uint8_t *json;
  size_t len;
  char eb[512];
  if (!c1) return cli_fail(1, "gen-vanilla: out of memory");
  if (cuzk_c1_write_json(c1, &json, &len, eb, sizeof eb))
    return cli_fail(1, "writing JSON: %s", eb);
  cuzk_c1_free(c1);
  bool ok = cli_write_file(out, json, len);
  free(json);
  if (!ok) return cli_fail(1, "cannot write %s", out);
  printf("%s %s: wrote %s (%zu bytes, %.1f s): SYNTHETIC, made-up contents for benchmarks "
         "(synth-only); C2 refuses it\n",
         p->name, p->sector->name, out, len, cli_now_s() - t0);
  return 0;
}

/* The C1 of a synthetic sector (cuzk_c1_new_synthetic_sector), checked as C2 checks it. */
static int write_synthetic_sector(const cuzk_seal_proof *p, uint64_t miner, uint64_t sector_num,
                                  const uint8_t ticket[32], const uint8_t seed[32], bool envelope,
                                  const char *out) {
  double t0 = cli_now_s();
  uint8_t prover_id[32];
  cuzk_porep_prover_id(prover_id, miner);
  cuzk_c1 *c1;
  char eb[512];
  if (cuzk_c1_new_synthetic_sector(&c1, p->id, prover_id, sector_num, ticket, seed, eb, sizeof eb))
    return cli_fail(1, "gen-vanilla: %s", eb);
  double t_gen = cli_now_s() - t0;
  cuzk_c2_ctx ctx;
  cuzk_c2_sector sec = {miner, sector_num};
  if (cuzk_c2_ctx_init(&ctx, c1, eb, sizeof eb) || cuzk_c2_check(&ctx, &sec, eb, sizeof eb))
    return cli_fail(1, "internal error: the synthetic C1 does not pass C2's checks: %s", eb);
  double t_check = cli_now_s() - t0 - t_gen;
  uint8_t *json, *env = NULL;
  size_t len, env_len;
  if (cuzk_c1_write_json(c1, &json, &len, eb, sizeof eb))
    return cli_fail(1, "writing JSON: %s", eb);
  if (envelope && cuzk_c1_envelope_write(json, len, (int64_t)sector_num, p->sector->bytes, &env,
                                         &env_len, eb, sizeof eb))
    return cli_fail(1, "writing the envelope: %s", eb);
  bool ok = cli_write_file(out, env ? env : json, env ? env_len : len);
  if (!ok) return cli_fail(1, "cannot write %s", out);
  printf("%s %s: wrote %s (%zu bytes; built in %.2f s, C2's checks %.2f s, total %.2f s): "
         "SYNTHETIC sector (cuzk_synthetic_sector), consistent, no stored data behind it\n"
         "comm_d     ",
         p->name, p->sector->name, out, env ? env_len : len, t_gen, t_check, cli_now_s() - t0);
  cli_print_hex(c1->comm_d, 32);
  printf("\ncomm_r     ");
  cli_print_hex(c1->comm_r, 32);
  printf("\nreplica_id ");
  cli_print_hex(c1->replica_id, 32);
  printf("\n");
  free(json);
  free(env);
  cuzk_c1_free(c1);
  return 0;
}

/* The first non-option argument (an option's value skipped): the proof kind, or NULL. With
 * --help/-h, NULL too: the help covers every kind. */
static const char *kind_arg(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) return NULL;
    if (a[0] != '-') return a;
    if (strcmp(a, "--envelope") && strcmp(a, "--synthetic") && strcmp(a, "--synthetic-for-bench"))
      i++; /* an option's value */
  }
  return NULL;
}

int cmd_gen_vanilla(int argc, char **argv) {
  const char *kind = kind_arg(argc, argv);
  cuzk_post_type t;
  const cuzk_kind *k = cuzk_kind_named(kind);
  if (k && k->id == CUZK_KIND_SNAP_DEALS_UPDATE) return cmd_snap_gen_vanilla(argc, argv);
  if (kind && cli_post_type(&t, kind)) return cmd_post_gen_vanilla(argc, argv);
  const char *size = NULL, *proof_arg = NULL, *data_arg = "zero", *out = NULL;
  uint64_t miner = 1000, sector_num = 1, threads = 0;
  uint8_t ticket[32], seed[32];
  memset(ticket, 1, 32);
  memset(seed, 2, 32);
  bool envelope = false, kind_seen = false, synthetic = false, data_given = false;
  bool synthetic_sector = false;
  static const int opts[] = {O_HELP,    O_ENVELOPE,  O_SIZE,  O_PROOF,
                             O_DATA,    O_OUT,       O_MINER, O_SECTOR_NUM,
                             O_THREADS, O_TICKET,    O_SEED,  O_SYNTHETIC_FOR_BENCH,
                             O_QUIET,   O_SYNTHETIC, 0};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v;
    switch (cli_next_opt(opts, argc, argv, &i, &v)) {
    case O_HELP:
      fputs(usage, stdout);
      fputs(cli_post_gen_vanilla_usage, stdout);
      fputs(cli_snap_gen_vanilla_usage, stdout);
      return 0;
    case CLI_ARG:
      if (cuzk_kind_named(v) != cuzk_kind_of(CUZK_KIND_POREP_SEAL_COMMIT) || kind_seen)
        return cli_fail(2, "gen-vanilla: unknown option '%s'\n%s", a, usage);
      kind_seen = true;
      break;
    case O_ENVELOPE: envelope = true; break;
    case O_QUIET: cli_quiet = true; break;
    case O_SIZE: size = v; break;
    case O_PROOF: proof_arg = v; break;
    case O_DATA: data_arg = v, data_given = true; break;
    case O_SYNTHETIC_FOR_BENCH: synthetic = true; break;
    case O_SYNTHETIC: synthetic_sector = true; break;
    case O_OUT: out = v; break;
    case O_MINER:
      if (!cli_u64(&miner, v)) return cli_fail(2, "--miner-id: not an unsigned integer: %s", v);
      break;
    case O_SECTOR_NUM:
      if (!cli_u64(&sector_num, v)) return cli_fail(2, "--sector-num: not an integer: %s", v);
      break;
    case O_THREADS:
      if (!cli_u64(&threads, v) || threads > 1024) return cli_fail(2, "--threads: bad value %s", v);
      break;
    case O_TICKET:
      if (!cli_hex32(ticket, v)) return cli_fail(2, "--ticket: expected 64 hex digits");
      break;
    case O_SEED:
      if (!cli_hex32(seed, v)) return cli_fail(2, "--seed: expected 64 hex digits");
      break;
    case CLI_MISSING: return 2;
    default: return cli_fail(2, "gen-vanilla: unknown option '%s'\n%s", a, usage);
    }
  }
  if (!kind_seen)
    return cli_fail(
        2, "gen-vanilla: the proof kind (porep, winning-post, window-post, snap) is required\n%s",
        usage);
  if (!out) return cli_fail(2, "gen-vanilla: -o FILE is required");
  if (!size && !proof_arg) return cli_fail(2, "gen-vanilla: --sector-size is required");
  const cuzk_seal_proof *p;
  if (!cli_proof(&p, proof_arg, size))
    return cli_fail(2, "gen-vanilla: unknown sector size or registered proof (%s)",
                    proof_arg ? proof_arg : size);
  uint64_t bytes;
  if (size && (cuzk_porep_parse_size(&bytes, size) || bytes != p->sector->bytes))
    return cli_fail(2, "--sector-size %s does not match %s", size, p->name);
  if (synthetic_sector) {
    if (data_given || synthetic)
      return cli_fail(2, "gen-vanilla: --synthetic is a CC sector: no --data, no "
                         "--synthetic-for-bench");
    return write_synthetic_sector(p, miner, sector_num, ticket, seed, envelope, out);
  }
  if (synthetic) {
    if (data_given || envelope)
      return cli_fail(2, "gen-vanilla: --synthetic-for-bench takes no --data or --envelope");
    return write_synthetic(p, sector_num, out);
  }
  if (p->sector->bytes > ((uint64_t)512 << 20))
    return cli_fail(1, "gen-vanilla seals in memory: sizes up to 512MiB (asked %s)",
                    p->sector->name);

  uint8_t *data;
  int rc = cli_sector_data(&data, p->sector->nodes, p->sector->name, data_arg);
  if (rc >= 0) return rc;

  cuzk_pool *pool = cli_pool((unsigned)threads);
  uint8_t prover_id[32];
  cuzk_porep_prover_id(prover_id, miner);
  cuzk_sealed_sector ss;
  char what[64];
  snprintf(what, sizeof what, "sealing %s", p->sector->name);
  cli_progress bar;
  cli_progress_start(&bar, what, "steps", false);
  cuzk_progress cb = cli_progress_cb(&bar);
  cuzk_porep_err e = cuzk_seal_sector(&ss, p, data, prover_id, sector_num, ticket, pool, &cb);
  cli_progress_end(&bar);
  if (e) return cli_fail(1, "sealing failed: %s", cuzk_porep_strerror(e));
  cuzk_c1 *c1;
  if ((e = cuzk_vanilla_prove(&c1, &ss, seed)))
    return cli_fail(1, "vanilla proofs failed: %s", cuzk_porep_strerror(e));
  char msg[512];
  if (cuzk_vanilla_verify(c1, msg, sizeof msg))
    return cli_fail(1, "internal error: the generated proofs do not verify: %s", msg);
  uint8_t *json, *env = NULL;
  size_t len, env_len;
  char eb[512];
  if (cuzk_c1_write_json(c1, &json, &len, eb, sizeof eb))
    return cli_fail(1, "writing JSON: %s", eb);
  if (envelope && cuzk_c1_envelope_write(json, len, (int64_t)sector_num, p->sector->bytes, &env,
                                         &env_len, eb, sizeof eb))
    return cli_fail(1, "writing the envelope: %s", eb);
  if (!cli_write_file(out, env ? env : json, env ? env_len : len))
    return cli_fail(1, "cannot write %s", out);
  printf("%s %s: wrote %s (%zu bytes)\ncomm_d     ", p->name, p->sector->name, out,
         env ? env_len : len);
  cli_print_hex(ss.comm_d, 32);
  printf("\ncomm_r     ");
  cli_print_hex(ss.comm_r, 32);
  printf("\nreplica_id ");
  cli_print_hex(ss.replica_id, 32);
  printf("\n");
  free(json);
  free(env);
  cuzk_c1_free(c1);
  cuzk_sealed_sector_free(&ss);
  cuzk_pool_destroy(pool);
  free(data);
  return 0;
}
