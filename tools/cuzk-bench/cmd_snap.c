/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * cuzk-bench's SnapDeals commands (the replica update; docs/snap.md "cuzk-bench"):
 *   gen-vanilla snap ...                      a CC test sector updated with data: its partition
 *                                             proofs as a request file
 *   setup --kind snap ...                     TEST parameters of EmptySectorUpdateCircuit
 *   verify-vanilla --kind snap --request F    every partition proof verified natively
 * prove / verify / synth-only --request and shape --kind snap take update requests too
 * (cmd_post.c, cmd_synth_only.c, cmd_shape.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cuzk/snap/snap.h"
#include "request_file.h"

const char cli_snap_gen_vanilla_usage[] =
    "usage: cuzk-bench gen-vanilla snap --sector-size S [--registered-proof ID|NAME]\n"
    "         [--data zero|random:SEED|FILE] [--miner-id N] [--sector-num N] [--threads N]\n"
    "         [-q] -o REQUEST.json\n"
    "       cuzk-bench gen-vanilla snap --sector-size S --synthetic [--miner-id N] [--sector-num "
    "N]\n"
    "         -o REQUEST.json\n"
    "Seals a CC sector of a test size (2KiB, 8MiB, 512MiB) in memory, encodes the new data into\n"
    "it (SnapDeals) and writes an update request (Curio's cuzk.v1 SubmitProofRequest in proto3\n"
    "JSON: proof_kind SNAP_DEALS_UPDATE, registered_proof, sector_size, miner_id, sector_number,\n"
    "comm_r_old, comm_r_new, comm_d_new, vanilla_proofs = one bincode PartitionProof per\n"
    "partition). --data as for porep (default random:1: zero data would encode nothing).\n"
    "Progress on stderr (the sealing steps, then tree_d_new, encode_new, tree_r_new); -q: none.\n"
    "--synthetic: a consistent update of a synthetic CC sector of any size (32GiB, 64GiB too) in\n"
    "milliseconds (docs/snap.md \"Synthetic updates\"); marked by its comm_c: the daemon refuses\n"
    "it unless daemon.allow_synthetic_inputs = true.\n";

const char cli_snap_setup_usage[] =
    "       cuzk-bench setup --kind snap --sector-size S [--registered-proof ID|NAME]\n"
    "                        --param-cache DIR [--if-missing] [--threads T] [-q]\n"
    "With --kind snap: TEST parameters of EmptySectorUpdateCircuit "
    "(v28-empty-sector-update-...).\n";

const char cli_snap_verify_vanilla_usage[] =
    "       cuzk-bench verify-vanilla --kind snap --request FILE\n"
    "Checks an update request as cuzk does before proving: the commitments, then every partition\n"
    "proof parsed strictly and verified natively; prints 'valid' or names what is wrong.\n";

bool cli_snap_proof(const cuzk_snap_proof **p, const char *proof_arg, const char *size_arg) {
  if (proof_arg) {
    uint64_t id;
    return !(cli_u64(&id, proof_arg) ? cuzk_snap_proof_by_id(p, id)
                                     : cuzk_snap_proof_by_name(p, proof_arg));
  }
  uint64_t bytes;
  return size_arg && !cuzk_porep_parse_size(&bytes, size_arg) && !cuzk_snap_proof_for(p, bytes);
}

/* ---- gen-vanilla snap ---------------------------------------------------------------------- */
typedef struct {
  const char *size, *proof_arg, *data_arg, *out;
  uint64_t miner, sector, threads;
  bool synthetic;
} gv_args;

static const int gv_opts[] = {O_HELP,       O_SIZE,    O_PROOF, O_DATA,      O_OUT, O_MINER,
                              O_SECTOR_NUM, O_THREADS, O_QUIET, O_SYNTHETIC, 0};

static int gv_parse(gv_args *a, int argc, char **argv) {
  memset(a, 0, sizeof *a);
  a->miner = 1000;
  a->sector = 1;
  a->data_arg = "random:1";
  bool data_given = false;
  for (int i = 1; i < argc; i++) {
    const char *k = argv[i], *v;
    uint64_t *num = NULL;
    switch (cli_next_opt(gv_opts, argc, argv, &i, &v)) {
    case O_HELP: fputs(cli_snap_gen_vanilla_usage, stdout); return 0;
    case CLI_ARG:
      if (cuzk_kind_named(v) == cuzk_kind_of(CUZK_KIND_SNAP_DEALS_UPDATE)) continue;
      return cli_fail(2, "gen-vanilla: unknown option '%s'\n%s", k, cli_snap_gen_vanilla_usage);
    case O_SIZE: a->size = v; break;
    case O_PROOF: a->proof_arg = v; break;
    case O_DATA: a->data_arg = v, data_given = true; break;
    case O_OUT: a->out = v; break;
    case O_MINER: num = &a->miner; break;
    case O_SECTOR_NUM: num = &a->sector; break;
    case O_THREADS: num = &a->threads; break;
    case O_QUIET: cli_quiet = true; break;
    case O_SYNTHETIC: a->synthetic = true; break;
    case CLI_MISSING: return 2;
    default:
      return cli_fail(2, "gen-vanilla: unknown option '%s'\n%s", k, cli_snap_gen_vanilla_usage);
    }
    if (num && (!cli_u64(num, v) || (num == &a->threads && *num > 1024)))
      return cli_fail(2, "gen-vanilla: %s: bad value %s", k, v);
  }
  if (!a->out) return cli_fail(2, "gen-vanilla: -o FILE is required");
  if (a->synthetic && data_given)
    return cli_fail(2, "gen-vanilla: --synthetic makes its own data (one value on every node)");
  if (!a->size && !a->proof_arg)
    return cli_fail(2, "gen-vanilla: --sector-size or --registered-proof is required");
  return -1;
}

static int gv_partitions(request_file *f, const cuzk_snap_proof *p, const cuzk_snap_sector *s) {
  size_t size = cuzk_snap_vanilla_size(p);
  for (unsigned k = 0; k < p->partitions; k++) {
    cuzk_snap_partition_proof pp;
    uint8_t *buf = malloc(size);
    cuzk_snap_err e = buf ? cuzk_snap_vanilla_generate(&pp, p, s, k) : CUZK_SNAP_ENOMEM;
    if (!e) e = cuzk_snap_vanilla_write(buf, p, &pp);
    cuzk_snap_partition_free(&pp);
    if (e) {
      free(buf);
      return cli_fail(1, "partition %u: vanilla proof: %s", k, cuzk_snap_strerror(e));
    }
    f->vanilla[k] = buf;
    f->vanilla_len[k] = size;
    f->n_vanilla = k + 1;
  }
  return -1;
}

/* The request of a request_file's update: comms and the partition proofs' bincode. */
static request_file gv_file(const gv_args *a, const cuzk_snap_proof *p) {
  request_file f = {.kind = cuzk_kind_of(CUZK_KIND_SNAP_DEALS_UPDATE),
                    .registered_proof = p->id,
                    .sector_size = p->sector->bytes,
                    .miner_id = a->miner,
                    .sector_number = a->sector};
  for (int c = 0; c < 3; c++) {
    f.comm[c] = malloc(32);
    f.comm_len[c] = 32;
  }
  f.vanilla = calloc(p->partitions, sizeof *f.vanilla);
  f.vanilla_len = calloc(p->partitions, sizeof *f.vanilla_len);
  return f;
}

/* gen-vanilla snap --synthetic: cuzk_snap_synthetic_update, checked as the daemon checks it. */
static int gv_synthetic(const gv_args *a, const cuzk_snap_proof *p) {
  double t0 = cli_now_s();
  request_file f = gv_file(a, p);
  cuzk_snap_partition_proof parts[CUZK_SNAP_MAX_PARTITIONS];
  char msg[1024];
  if (!f.comm[0] || !f.comm[1] || !f.comm[2] || !f.vanilla || !f.vanilla_len)
    return cli_fail(1, "out of memory");
  if (cuzk_snap_synthetic_update(parts, f.comm[0], f.comm[2], f.comm[1], p, a->sector, msg,
                                 sizeof msg))
    return cli_fail(1, "%s", msg);
  size_t size = cuzk_snap_vanilla_size(p);
  for (unsigned k = 0; k < p->partitions; k++) {
    if (!(f.vanilla[k] = malloc(size)) || cuzk_snap_vanilla_write(f.vanilla[k], p, &parts[k]))
      return cli_fail(1, "partition %u: cannot write the vanilla proof", k);
    f.vanilla_len[k] = size;
    f.n_vanilla = k + 1;
    cuzk_snap_partition_free(&parts[k]);
  }
  double t_gen = cli_now_s() - t0;
  bench_request rq;
  if (!bench_request_check(&rq, &f, msg, sizeof msg))
    return cli_fail(1, "internal error: the synthetic request does not check: %s", msg);
  bench_request_free(&rq);
  double t_check = cli_now_s() - t0 - t_gen;
  if (!request_file_write(a->out, &f)) return cli_fail(1, "cannot write %s", a->out);
  static const char *const names[3] = {"comm_r_old", "comm_r_new", "comm_d_new"};
  for (int c = 0; c < 3; c++) {
    printf("%s ", names[c]);
    cli_print_hex(f.comm[c], 32);
    printf("\n");
  }
  printf("%s (%s), sector %llu, %u partition%s: wrote %s (built in %.2f s, checked in %.2f s): "
         "SYNTHETIC update (comm_c is the synthetic marker), consistent, no stored data behind "
         "it\n",
         p->name, p->sector->name, (unsigned long long)a->sector, p->partitions,
         p->partitions == 1 ? "" : "s", a->out, t_gen, t_check);
  request_file_free(&f);
  return 0;
}

int cmd_snap_gen_vanilla(int argc, char **argv) {
  gv_args a;
  int rc = gv_parse(&a, argc, argv);
  if (rc >= 0) return rc;
  const cuzk_snap_proof *p;
  uint64_t bytes;
  if (!cli_snap_proof(&p, a.proof_arg, a.size))
    return cli_fail(2, "gen-vanilla: unknown sector size or update proof (%s)",
                    a.proof_arg ? a.proof_arg : a.size);
  if (a.size && (cuzk_porep_parse_size(&bytes, a.size) || bytes != p->sector->bytes))
    return cli_fail(2, "--sector-size %s does not match %s", a.size, p->name);
  if (a.synthetic) return gv_synthetic(&a, p);
  uint8_t *data = NULL;
  if ((rc = cli_sector_data(&data, p->sector->nodes, p->sector->name, a.data_arg)) >= 0) return rc;
  uint8_t prover_id[32], ticket[32];
  cuzk_porep_prover_id(prover_id, a.miner);
  memset(ticket, 1, 32); /* gen-vanilla porep's default ticket */
  cuzk_pool *pool = cli_pool((unsigned)a.threads);
  double t0 = cli_now_s();
  cuzk_snap_sector *s;
  char msg[1024] = "";
  char what[64];
  snprintf(what, sizeof what, "sealing and updating %s", p->sector->name);
  cli_progress bar;
  cli_progress_start(&bar, what, "steps", false);
  cuzk_progress cb = cli_progress_cb(&bar);
  cuzk_snap_err se =
      cuzk_snap_sector_update(&s, p, data, prover_id, a.sector, ticket, pool, &cb, msg, sizeof msg);
  cli_progress_end(&bar);
  if (se) return cli_fail(1, "%s", msg);
  request_file f = {.kind = cuzk_kind_of(CUZK_KIND_SNAP_DEALS_UPDATE),
                    .registered_proof = p->id,
                    .sector_size = p->sector->bytes,
                    .miner_id = a.miner,
                    .sector_number = a.sector};
  for (int c = 0; c < 3; c++) {
    f.comm[c] = malloc(32);
    f.comm_len[c] = 32;
  }
  f.vanilla = calloc(p->partitions, sizeof *f.vanilla);
  f.vanilla_len = calloc(p->partitions, sizeof *f.vanilla_len);
  if (!f.comm[0] || !f.comm[1] || !f.comm[2] || !f.vanilla || !f.vanilla_len)
    return cli_fail(1, "out of memory");
  cuzk_snap_sector_comms(s, f.comm[0], f.comm[2], f.comm[1], NULL);
  if ((rc = gv_partitions(&f, p, s)) >= 0) return rc;
  double t_gen = cli_now_s() - t0;
  bench_request rq;
  if (!bench_request_check(&rq, &f, msg, sizeof msg))
    return cli_fail(1, "internal error: the generated request does not check: %s", msg);
  bench_request_free(&rq);
  if (!request_file_write(a.out, &f)) return cli_fail(1, "cannot write %s", a.out);
  static const char *const names[3] = {"comm_r_old", "comm_r_new", "comm_d_new"};
  for (int c = 0; c < 3; c++) {
    printf("%s ", names[c]);
    cli_print_hex(f.comm[c], 32);
    printf("\n");
  }
  printf("%s (%s), sector %llu, %u partition%s: wrote %s (%.2f s)\n", p->name, p->sector->name,
         (unsigned long long)a.sector, p->partitions, p->partitions == 1 ? "" : "s", a.out, t_gen);
  request_file_free(&f);
  cuzk_snap_sector_free(s);
  cuzk_pool_destroy(pool);
  free(data);
  return 0;
}

/* ---- setup --kind snap --------------------------------------------------------------------- */
static int gen_params(const void *p, const char *dir, cuzk_pool *pool,
                      const cuzk_progress *progress, double *gen_s, char *msg, size_t len) {
  return (int)cuzk_snap_setup_test_params(p, dir, pool, progress, gen_s, msg, len);
}

int cmd_snap_setup(int argc, char **argv) {
  const char *size = NULL, *proof_arg = NULL, *dir = getenv("FIL_PROOFS_PARAMETER_CACHE");
  bool if_missing = false;
  unsigned threads = 0;
  uint64_t x;
  static const int opts[] = {O_IF_MISSING,  O_KIND,    O_SIZE,  O_PROOF,
                             O_PARAM_CACHE, O_THREADS, O_QUIET, 0};
  for (int i = 1; i < argc; i++) {
    const char *k = argv[i], *v;
    switch (cli_next_opt(opts, argc, argv, &i, &v)) {
    case O_IF_MISSING: if_missing = true; break;
    case O_QUIET: cli_quiet = true; break;
    case O_THREADS:
      if (!cli_u64(&x, v) || x > 1024) return cli_fail(2, "--threads: 0..1024, not %s", v);
      threads = (unsigned)x;
      break;
    case O_KIND: break; /* snap: how we got here */
    case O_SIZE: size = v; break;
    case O_PROOF: proof_arg = v; break;
    case O_PARAM_CACHE: dir = v; break;
    case CLI_MISSING: return 2;
    default: return cli_fail(2, "setup: unknown option '%s' for snap\n%s", k, cli_snap_setup_usage);
    }
  }
  if (!dir) return cli_fail(2, "--param-cache DIR (or FIL_PROOFS_PARAMETER_CACHE) is required");
  const cuzk_snap_proof *p;
  uint64_t bytes;
  if (!cli_snap_proof(&p, proof_arg, size))
    return cli_fail(2, "setup: unknown sector size or update proof (%s)",
                    proof_arg ? proof_arg
                    : size    ? size
                              : "none given");
  if (size && (cuzk_porep_parse_size(&bytes, size) || bytes != p->sector->bytes))
    return cli_fail(2, "--sector-size %s does not match %s", size, p->name);
  char base[4096];
  if (!cuzk_snap_param_base(base, sizeof base, dir, p)) return cli_fail(1, "setup: path too long");
  return cli_setup_params(p->name, base, if_missing, gen_params, p, dir, threads);
}

/* ---- verify-vanilla --kind snap ------------------------------------------------------------ */
int cmd_snap_verify_vanilla(int argc, char **argv) {
  const char *path = NULL;
  static const int opts[] = {O_KIND, O_REQUEST, 0};
  for (int i = 1; i < argc; i++) {
    const char *k = argv[i], *v;
    switch (cli_next_opt(opts, argc, argv, &i, &v)) {
    case O_KIND: break; /* snap: how we got here */
    case O_REQUEST: path = v; break;
    case CLI_MISSING: return 2;
    default:
      return cli_fail(2, "verify-vanilla: unknown option '%s' for snap\n%s", k,
                      cli_snap_verify_vanilla_usage);
    }
  }
  if (!path) return cli_fail(2, "verify-vanilla: --kind snap takes --request FILE");
  bench_request rq;
  char msg[1024];
  if (!bench_request_load(&rq, NULL, path, msg, sizeof msg)) return cli_fail(1, "invalid: %s", msg);
  if (rq.kind->id != CUZK_KIND_SNAP_DEALS_UPDATE) {
    bench_request_free(&rq);
    return cli_fail(2, "verify-vanilla: %s is not an update request", path);
  }
  rq.kind->describe(rq.p.work, msg, sizeof msg);
  printf("%s: valid (%s)\n", path, msg);
  bench_request_free(&rq);
  return 0;
}
