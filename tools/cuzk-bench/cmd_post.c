/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * cuzk-bench's PoSt commands (WinningPoSt, WindowPoSt; docs/post.md "cuzk-bench"):
 *   gen-vanilla winning-post|window-post ...   test sectors' vanilla proofs as a request file
 *   setup --kind winning-post|window-post ...  TEST parameters of the FallbackPoStCircuit
 *   prove --request FILE ...                   check the request, prove, verify, write 192 bytes
 *   verify --request FILE --proof FILE ...     verify against the re-derived public inputs
 *   verify-vanilla --kind ... --vanilla FILE   one sector's bincode, verified natively
 * The PoRep commands of the same names hand their PoSt forms over to these (cli_post_form).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cuzk/groth16/groth16.h"
#include "cuzk/post/post.h"
#include "request_file.h"

const char cli_post_gen_vanilla_usage[] =
    "usage: cuzk-bench gen-vanilla winning-post|window-post --sector-size S\n"
    "         [--registered-proof ID|NAME] [--sectors N] [--first-sector N] [--miner-id N]\n"
    "         [--randomness HEX] [--partition-index K] [--data zero|random:SEED|FILE]\n"
    "         [--synthetic] [--threads N] [-q] -o REQUEST.json\n"
    "Writes a PoSt request (Curio's cuzk.v1 SubmitProofRequest in proto3 JSON: proof_kind,\n"
    "registered_proof, sector_size, miner_id, randomness, partition_index, vanilla_proofs)\n"
    "with the vanilla proofs of N test sectors, ids FIRST, FIRST+1, ... (default 1): sealed in\n"
    "memory at 2KiB, 8MiB and 512MiB (--data as for porep), synthetic replicas of zero leaves\n"
    "above 512MiB or with --synthetic (comm_c derived from the sector id: the synthetic marker,\n"
    "which the daemon refuses unless daemon.allow_synthetic_inputs = true).\n"
    "  --sectors N          WinningPoSt 1; WindowPoSt 1..S_w (default 2, a full test partition)\n"
    "  --registered-proof   default: the chain's for the size (Winning 0-4, Window V1_1 10-14)\n"
    "  --randomness HEX     64 hex digits, a canonical field element (default 0505..05)\n"
    "  --partition-index K  WindowPoSt: sector i is at position K * S_w + i (default 0)\n"
    "  --miner-id N         the request's miner_id and the sealing prover id (default 1000)\n"
    "  -q, --quiet          taken as by every long command (this one draws no progress line)\n";

const char cli_post_setup_usage[] =
    "       cuzk-bench setup --kind winning-post|window-post --sector-size S\n"
    "                        [--registered-proof ID|NAME] --param-cache DIR [--if-missing]\n"
    "                        [--threads T] [-q]\n"
    "With --kind: the same TEST parameters for the kind's FallbackPoStCircuit (v28-proof-of-\n"
    "spacetime-fallback-...). Winning and Window circuits differ; V1 and V1_1 share files.\n";

const char cli_post_prove_usage[] =
    "       cuzk-bench prove --request FILE --param-cache DIR [--synthesis pce|prove]\n"
    "                        [--deterministic SEED] [--threads N] [--in-place] [--partition N]\n"
    "                        [--pce-file PATH] [-q] -o PROOF\n"
    "With --request (a PoSt or SnapDeals request, see 'gen-vanilla --help'): checks it as cuzk\n"
    "does before proving (kind, sizes, randomness, every vanilla proof natively; a refused\n"
    "request writes nothing), proves its partitions, verifies them and writes 192 bytes for\n"
    "each; --partition N: partition N only (verified against its own public inputs).\n";

const char cli_post_verify_usage[] =
    "       cuzk-bench verify --request FILE --param-cache DIR --proof PROOF\n"
    "                         [--write-inputs FILE]\n"
    "With --request: verifies the PoSt partition's proof against public inputs re-derived from\n"
    "the request's sector ids, comm_r values and randomness; --write-inputs as for PoRep.\n";

const char cli_post_verify_vanilla_usage[] =
    "usage: cuzk-bench verify-vanilla --kind winning-post|window-post\n"
    "         (--registered-proof ID|NAME | --sector-size S) --vanilla FILE [--randomness HEX]\n"
    "         [--sector-index K] [--miner-id N]\n"
    "Verifies one sector's PoSt vanilla proof (FILE: its raw bincode, one element of a request's\n"
    "vanilla_proofs): prints 'valid' and exits 0, or names what is wrong and exits 1.\n"
    "  --randomness HEX  64 hex digits, canonical (default gen-vanilla's, 0505..05)\n"
    "  --sector-index K  the sector's position in the proven list: WindowPoSt partition * S_w + i\n"
    "                    (V1 challenges depend on it, V1_1 ones do not); WinningPoSt 0 (default)\n"
    "  --miner-id N      accepted for symmetry with the request; PoSt challenges ignore it\n";

#define MAX_SEAL_BYTES (UINT64_C(512) << 20)

/* ---- gen-vanilla --------------------------------------------------------------------------- */

typedef struct {
  const char *kind, *size, *proof_arg, *data_arg, *out;
  uint64_t sectors, first, miner, threads, partition;
  bool have_sectors, synthetic;
  uint8_t randomness[32];
} gv_args;

static const int gv_opts[] = {O_HELP,         O_SYNTHETIC,
                              O_SIZE,         O_PROOF,
                              O_DATA,         O_OUT,
                              O_RANDOMNESS,   O_SECTORS,
                              O_FIRST_SECTOR, O_MINER,
                              O_THREADS,      O_PARTITION_INDEX,
                              O_QUIET,        0};

static int gv_number(gv_args *a, int id, const char *k, const char *v) {
  uint64_t x;
  if (!cli_u64(&x, v)) return cli_fail(2, "gen-vanilla: %s: not an unsigned integer: %s", k, v);
  if (id == O_SECTORS)
    a->sectors = x, a->have_sectors = true;
  else if (id == O_FIRST_SECTOR)
    a->first = x;
  else if (id == O_MINER)
    a->miner = x;
  else if (id == O_THREADS && x <= 1024)
    a->threads = x;
  else if (id == O_PARTITION_INDEX && x <= UINT32_MAX)
    a->partition = x;
  else
    return cli_fail(2, "gen-vanilla: bad option or value: %s %s", k, v);
  return -1;
}

static int gv_parse(gv_args *a, int argc, char **argv) {
  memset(a, 0, sizeof *a);
  a->first = 1;
  a->miner = 1000;
  cli_post_default_randomness(a->randomness);
  for (int i = 1; i < argc; i++) {
    const char *k = argv[i], *v;
    cuzk_post_type t;
    int rc, id = cli_next_opt(gv_opts, argc, argv, &i, &v);
    switch (id) {
    case O_HELP: fputs(cli_post_gen_vanilla_usage, stdout); return 0;
    case O_SYNTHETIC: a->synthetic = true; break;
    case O_QUIET: cli_quiet = true; break;
    case CLI_ARG:
      if (a->kind || !cli_post_type(&t, v))
        return cli_fail(2, "gen-vanilla: unknown option '%s'\n%s", k, cli_post_gen_vanilla_usage);
      a->kind = v;
      break;
    case O_SIZE: a->size = v; break;
    case O_PROOF: a->proof_arg = v; break;
    case O_DATA: a->data_arg = v; break;
    case O_OUT: a->out = v; break;
    case O_RANDOMNESS:
      if (!cli_post_randomness(a->randomness, v))
        return cli_fail(2, "--randomness: expected 64 hex digits of a canonical field element "
                           "(below r: clear the top two bits of byte 31)");
      break;
    case O_SECTORS:
    case O_FIRST_SECTOR:
    case O_MINER:
    case O_THREADS:
    case O_PARTITION_INDEX:
      if ((rc = gv_number(a, id, k, v)) >= 0) return rc;
      break;
    case CLI_MISSING: return 2;
    default:
      return cli_fail(2, "gen-vanilla: unknown option '%s'\n%s", k, cli_post_gen_vanilla_usage);
    }
  }
  return -1;
}

/* Sector i of the request: its replica, its vanilla proof at its position, the bincode in f. */
static int gv_sector(request_file *f, size_t i, const gv_args *a, const cuzk_post_proof *p,
                     const uint8_t *data, bool synthetic, cuzk_pool *pool) {
  uint64_t id = a->first + i;
  cuzk_post_replica *r;
  char msg[512] = "";
  cuzk_post_err e;
  if (synthetic) {
    uint8_t comm_c[32];
    cuzk_post_synthetic_comm_c(comm_c, id); /* the marker */
    e = cuzk_post_replica_synthetic(&r, p, id, comm_c);
  } else {
    uint8_t prover_id[32], ticket[32];
    cuzk_porep_prover_id(prover_id, a->miner);
    memset(ticket, 1, 32); /* gen-vanilla porep's default ticket */
    e = cuzk_post_replica_seal(&r, p, data, prover_id, id, ticket, pool, msg, sizeof msg);
  }
  if (e) return cli_fail(1, "sector %llu: %s", (unsigned long long)id, msg[0] ? msg : "replica");
  cuzk_post_sector_proof sp;
  uint64_t sector_index = p->type == CUZK_POST_WINNING ? 0 : a->partition * p->vanilla_sectors + i;
  size_t size = cuzk_post_vanilla_size(p);
  uint8_t *buf = malloc(size);
  if (!buf) return cli_fail(1, "out of memory");
  if ((e = cuzk_post_vanilla_generate(&sp, p, r, a->randomness, sector_index)) ||
      (e = cuzk_post_vanilla_write(buf, p, &sp)))
    return cli_fail(1, "sector %llu: vanilla proof: %s", (unsigned long long)id,
                    cuzk_post_strerror(e));
  f->vanilla[i] = buf;
  f->vanilla_len[i] = size;
  f->n_vanilla = i + 1;
  if (i < 8) {
    printf("sector %llu comm_r ", (unsigned long long)id);
    cli_print_hex(sp.comm_r, 32);
    printf("\n");
  }
  cuzk_post_sector_proof_free(&sp);
  cuzk_post_replica_free(r);
  return -1;
}

/* The number of sectors and the replica kind the arguments ask for; -1 or the exit code. */
static int gv_shape(const gv_args *a, const cuzk_post_proof *p, size_t *n, bool *synthetic) {
  bool winning = p->type == CUZK_POST_WINNING;
  uint64_t want = a->have_sectors ? a->sectors : winning ? 1 : 2;
  if (!a->have_sectors && want > p->vanilla_sectors) want = p->vanilla_sectors;
  if (winning && want != 1) return cli_fail(2, "--sectors: WinningPoSt proves exactly one sector");
  if (want == 0 || want > p->vanilla_sectors)
    return cli_fail(2, "--sectors: 1..%u for %s", p->vanilla_sectors, p->name);
  if (a->first + (want - 1) < a->first)
    return cli_fail(2, "--first-sector: the sector ids overflow");
  if (winning && a->partition)
    return cli_fail(2, "--partition-index: WinningPoSt has one partition (0)");
  *synthetic = a->synthetic || p->sector->bytes > MAX_SEAL_BYTES;
  if (*synthetic && a->data_arg && strcmp(a->data_arg, "zero"))
    return cli_fail(2, "--data: a synthetic replica's leaves are all zero (%s%s)", p->sector->name,
                    a->synthetic ? ", --synthetic" : " is sealed only synthetically");
  *n = (size_t)want;
  return -1;
}

/* Seals (or makes) the sectors, proves each, checks the request as prove will, writes it. */
static int gv_run(const gv_args *a, const cuzk_post_proof *p, size_t n, bool synthetic) {
  request_file f = {.kind = cuzk_kind_named(cuzk_post_type_name(p->type)),
                    .registered_proof = p->id,
                    .sector_size = p->sector->bytes,
                    .miner_id = a->miner,
                    .partition_index = (uint32_t)a->partition,
                    .randomness_len = 32};
  uint8_t *data = NULL;
  int rc;
  if (!synthetic && (rc = cli_sector_data(&data, p->sector->nodes, p->sector->name,
                                          a->data_arg ? a->data_arg : "zero")) >= 0)
    return rc;
  f.randomness = malloc(32);
  f.vanilla = calloc(n, sizeof *f.vanilla);
  f.vanilla_len = calloc(n, sizeof *f.vanilla_len);
  if (!f.randomness || !f.vanilla || !f.vanilla_len) return cli_fail(1, "out of memory");
  memcpy(f.randomness, a->randomness, 32);
  cuzk_pool *pool = synthetic ? NULL : cli_pool((unsigned)a->threads);
  double t0 = cli_now_s();
  for (size_t i = 0; i < n; i++)
    if ((rc = gv_sector(&f, i, a, p, data, synthetic, pool)) >= 0) return rc;
  if (n > 8) printf("... %zu sectors\n", n);
  double t_gen = cli_now_s() - t0;
  bench_request rq;
  char msg[1024];
  if (!bench_request_check(&rq, &f, msg, sizeof msg))
    return cli_fail(1, "internal error: the generated request does not check: %s", msg);
  bench_request_free(&rq);
  if (!request_file_write(a->out, &f)) return cli_fail(1, "cannot write %s", a->out);
  printf("%s (%s), %zu %s sector%s, partition %u: wrote %s (%.2f s)\n", p->name, p->sector->name, n,
         synthetic ? "synthetic" : "sealed", n == 1 ? "" : "s", f.partition_index, a->out, t_gen);
  request_file_free(&f);
  cuzk_pool_destroy(pool);
  free(data);
  return 0;
}

int cmd_post_gen_vanilla(int argc, char **argv) {
  gv_args a;
  int rc = gv_parse(&a, argc, argv);
  if (rc >= 0) return rc;
  if (!a.out) return cli_fail(2, "gen-vanilla: -o FILE is required");
  if (!a.size && !a.proof_arg)
    return cli_fail(2, "gen-vanilla: --sector-size or --registered-proof is required");
  const cuzk_post_proof *p;
  if (!cli_post_proof(&p, a.kind, a.proof_arg, a.size))
    return cli_fail(2, "gen-vanilla: unknown sector size or %s proof (%s)", a.kind,
                    a.proof_arg ? a.proof_arg : a.size);
  uint64_t bytes;
  if (a.size && (cuzk_porep_parse_size(&bytes, a.size) || bytes != p->sector->bytes))
    return cli_fail(2, "--sector-size %s does not match %s", a.size, p->name);
  size_t n = 0;
  bool synthetic = false;
  if ((rc = gv_shape(&a, p, &n, &synthetic)) >= 0) return rc;
  return gv_run(&a, p, n, synthetic);
}

/* ---- setup / prove / verify ---------------------------------------------------------------- */

typedef struct {
  const char *kind, *size, *proof, *dir, *request, *out, *proof_file, *inputs;
  bool if_missing, one_part; /* one_part: prove --partition */
  unsigned part;
  cli_prove_args pa;
} pa_args;

/* The options each command takes (--if-missing is setup's). */
static const int pa_setup_opts[] = {O_HELP,       O_KIND,    O_SIZE,  O_PROOF, O_PARAM_CACHE,
                                    O_IF_MISSING, O_THREADS, O_QUIET, 0};
static const int pa_prove_opts[] = {O_HELP,      O_PARAM_CACHE,  O_REQUEST, O_OUT,
                                    O_PARTITION, CLI_PROVE_OPTS, 0};
static const int pa_verify_opts[] = {O_HELP,       O_PARAM_CACHE,  O_REQUEST,
                                     O_PROOF_FILE, O_WRITE_INPUTS, 0};

/* Options of a command: opts, the ones it takes. */
static int pa_parse(pa_args *a, int argc, char **argv, const char *cmd, const int *opts,
                    const char *usage) {
  memset(a, 0, sizeof *a);
  cli_prove_args_default(&a->pa);
  a->dir = getenv("FIL_PROOFS_PARAMETER_CACHE");
  for (int i = 1; i < argc; i++) {
    const char *k = argv[i], *v;
    int id = cli_next_opt(opts, argc, argv, &i, &v);
    if (id == CLI_MISSING) return 2;
    int taken = cli_prove_arg(&a->pa, id, v); /* 1: --synthesis, --deterministic, --threads */
    if (taken < 0) return 2;
    if (taken) continue;
    switch (id) {
    case O_HELP: fputs(usage, stdout); return 0;
    case O_KIND: a->kind = v; break;
    case O_SIZE: a->size = v; break;
    case O_PROOF: a->proof = v; break;
    case O_PARAM_CACHE: a->dir = v; break;
    case O_REQUEST: a->request = v; break;
    case O_OUT: a->out = v; break;
    case O_PROOF_FILE: a->proof_file = v; break;
    case O_WRITE_INPUTS: a->inputs = v; break;
    case O_IF_MISSING: a->if_missing = true; break;
    case O_PARTITION: {
      uint64_t x;
      if (!cli_u64(&x, v) || x >= CUZK_SNAP_MAX_PARTITIONS)
        return cli_fail(2, "--partition: a partition number below %u, not %s",
                        (unsigned)CUZK_SNAP_MAX_PARTITIONS, v);
      a->one_part = true;
      a->part = (unsigned)x;
      break;
    }
    default: return cli_fail(2, "%s: unknown option '%s' for PoSt\n%s", cmd, k, usage);
    }
  }
  if (!a->dir) return cli_fail(2, "--param-cache DIR (or FIL_PROOFS_PARAMETER_CACHE) is required");
  return -1;
}

static int gen_params(const void *p, const char *dir, cuzk_pool *pool,
                      const cuzk_progress *progress, double *gen_s, char *msg, size_t len) {
  return (int)cuzk_post_setup_test_params(p, dir, pool, progress, gen_s, msg, len);
}

int cmd_post_setup(int argc, char **argv) {
  pa_args a;
  int rc = pa_parse(&a, argc, argv, "setup", pa_setup_opts, cli_post_setup_usage);
  if (rc >= 0) return rc;
  if (!a.size && !a.proof) return cli_fail(2, "setup: --sector-size is required");
  const cuzk_post_proof *p;
  uint64_t bytes;
  if (!cli_post_proof(&p, a.kind, a.proof, a.size))
    return cli_fail(2, "setup: unknown kind, sector size or registered %s proof (%s)", a.kind,
                    a.proof ? a.proof : a.size);
  if (a.size && (cuzk_porep_parse_size(&bytes, a.size) || bytes != p->sector->bytes))
    return cli_fail(2, "--sector-size %s does not match %s", a.size, p->name);
  char base[4096];
  if (!cuzk_post_param_base(base, sizeof base, a.dir, p))
    return cli_fail(1, "setup: path too long");
  return cli_setup_params(p->name, base, a.if_missing, gen_params, p, a.dir, a.pa.threads);
}

int cmd_post_prove(int argc, char **argv) {
  pa_args a;
  int rc = pa_parse(&a, argc, argv, "prove", pa_prove_opts, cli_post_prove_usage);
  if (rc >= 0) return rc;
  if (!a.request || !a.out) return cli_fail(2, "prove: --request and -o are required");
  double t_start = cli_now_s();
  bench_request rq;
  char base[4096], msg[1024], what[160];
  if (!bench_request_load(&rq, NULL, a.request, msg, sizeof msg))
    return cli_fail(1, "prove: %s", msg);
  if (a.one_part && a.part >= rq.p.parts)
    return cli_fail(2, "prove: --partition %u: the request has %u partition%s", a.part, rq.p.parts,
                    rq.p.parts == 1 ? "" : "s");
  const cuzk_kind_circuit *circ = rq.p.circuit;
  if (!circ->param_base(base, sizeof base, a.dir, circ->arg))
    return cli_fail(1, "prove: path too long");
  double t_check = cli_now_s() - t_start;
  if ((rc = cli_params_present("prove", base, true, rq.kind->wire, circ->sector_bytes)) >= 0)
    return rc;
  cli_prover pr;
  if ((rc = cli_load_params(&pr, "prove", base, &a.pa)) >= 0) return rc;
  cli_prover_parts(&pr, rq.p.parts);
  rq.kind->describe(rq.p.work, what, sizeof what);
  printf("request checked in %.2f s (%s), parameters loaded in %.2f s\n", t_check, what, pr.load_s);
  cuzk_pce *pce = NULL;
  if (a.pa.pce && (rc = cli_record_pce(&pce, bench_request_synth, &rq, a.pa.pce_file, base)) >= 0)
    return rc;
  unsigned first = a.one_part ? a.part : 0, end = a.one_part ? a.part + 1 : rq.p.parts;
  if (a.one_part) cli_prover_parts(&pr, 1);
  cuzk_g16_proof proofs[CUZK_SNAP_MAX_PARTITIONS];
  for (unsigned k = first; k < end; k++)
    if ((rc = cli_prove_partition(&proofs[k], &pr, pce, bench_request_synth, &rq, k,
                                  rq.kind->partition(rq.p.work, k))) >= 0)
      return rc;
  cuzk_pce_free(pce);
  /* as PoRep's prove: a proof that does not verify is an error, and nothing is written; one
   * partition (--partition) against its own public inputs */
  double v0 = cli_now_s();
  bool ok = false;
  if (a.one_part) {
    size_t ni = 0;
    cuzk_fr *in = rq.kind->public_inputs(rq.p.work, a.part, &ni);
    if (!in) return cli_fail(1, "prove: out of memory");
    cuzk_g16_err ve = cuzk_g16_verify(&ok, pr.pvk, &proofs[a.part], in, ni);
    free(in);
    if (ve) return cli_fail(1, "prove: verifying: %s", cuzk_g16_strerror(ve));
  } else if (!rq.kind->verify(&ok, rq.p.work, pr.pvk, proofs, msg, sizeof msg)) {
    return cli_fail(1, "prove: %s", msg);
  }
  if (!ok)
    return cli_fail(1, "prove: the proof does not verify (inconsistent request or parameters); "
                       "nothing written");
  double t_verify = cli_now_s() - v0;
  size_t n = (size_t)(end - first) * CUZK_G16_PROOF_BYTES;
  uint8_t out[CUZK_SNAP_MAX_PARTITIONS * CUZK_G16_PROOF_BYTES];
  for (unsigned k = first; k < end; k++)
    cuzk_g16_proof_write(out + (size_t)(k - first) * CUZK_G16_PROOF_BYTES, &proofs[k]);
  if (!cli_write_file(a.out, out, n)) return cli_fail(1, "prove: cannot write %s", a.out);
  printf("verified in %.2f s; wrote %s (%zu bytes); total %.2f s\n", t_verify, a.out, n,
         cli_now_s() - t_start);
  cli_prover_free(&pr);
  bench_request_free(&rq);
  return 0;
}

/* --write-inputs: every proof's public inputs, one after another. */
static int write_inputs(const char *path, const bench_request *rq) {
  size_t n = 0, all = 0;
  cuzk_fr *in = NULL;
  for (unsigned k = 0; k < rq->p.parts; k++) {
    cuzk_fr *one = rq->kind->public_inputs(rq->p.work, k, &n);
    cuzk_fr *grown = one ? realloc(in, (all + n) * sizeof *in) : NULL;
    if (!grown) {
      free(one);
      free(in);
      return cli_fail(1, "verify: cannot derive the public inputs");
    }
    in = grown;
    memcpy(in + all, one, n * sizeof *in);
    all += n;
    free(one);
  }
  if (!cli_write_inputs(path, in, all))
    return cli_fail(1, "verify: cannot write the public inputs to %s", path);
  free(in);
  return -1;
}

int cmd_post_verify(int argc, char **argv) {
  pa_args a;
  int rc = pa_parse(&a, argc, argv, "verify", pa_verify_opts, cli_post_verify_usage);
  if (rc >= 0) return rc;
  if (!a.request || !a.proof_file) return cli_fail(2, "verify: --request and --proof are required");
  bench_request rq;
  char base[4096], msg[1024];
  if (!bench_request_load(&rq, NULL, a.request, msg, sizeof msg))
    return cli_fail(1, "verify: %s", msg);
  const cuzk_kind_circuit *circ = rq.p.circuit;
  if (!circ->param_base(base, sizeof base, a.dir, circ->arg))
    return cli_fail(1, "verify: path too long");
  if ((rc = cli_params_present("verify", base, false, rq.kind->wire, circ->sector_bytes)) >= 0)
    return rc;
  cuzk_g16_pvk *pvk;
  if (cuzk_g16_pvk_load(base, &pvk, msg, sizeof msg)) return cli_fail(1, "verify: %s", msg);
  uint8_t *bytes;
  size_t len;
  if (!cli_read_file(a.proof_file, &bytes, &len))
    return cli_fail(1, "cannot read %s", a.proof_file);
  cuzk_g16_proof proofs[CUZK_SNAP_MAX_PARTITIONS];
  unsigned parts = rq.p.parts;
  cuzk_g16_err e = cuzk_g16_proofs_read(proofs, parts, bytes, len);
  free(bytes);
  if (e)
    return cli_fail(1, "verify: %s: expected %u proof%s: %s", a.proof_file, parts,
                    parts == 1 ? "" : "s", cuzk_g16_strerror(e));
  if (a.inputs && (rc = write_inputs(a.inputs, &rq)) >= 0) return rc;
  bool ok = false;
  if (!rq.kind->verify(&ok, rq.p.work, pvk, proofs, msg, sizeof msg))
    return cli_fail(1, "verify: %s", msg);
  if (parts == 1) {
    printf("partition %u: %s\n", rq.kind->partition(rq.p.work, 0), ok ? "valid" : "INVALID");
  } else {
    rq.kind->describe(rq.p.work, msg, sizeof msg);
    printf("%s: %s\n", msg, ok ? "valid" : "INVALID");
  }
  cuzk_g16_pvk_free(pvk);
  bench_request_free(&rq);
  return ok ? 0 : 1;
}

/* ---- verify-vanilla ------------------------------------------------------------------------ */

typedef struct {
  const char *kind, *size, *proof, *path;
  uint64_t sector_index, miner;
  uint8_t randomness[32];
} vv_args;

static const int vv_opts[] = {O_HELP,       O_KIND,         O_PROOF, O_SIZE, O_VANILLA,
                              O_RANDOMNESS, O_SECTOR_INDEX, O_MINER, 0};

static int vv_parse(vv_args *a, int argc, char **argv) {
  memset(a, 0, sizeof *a);
  cli_post_default_randomness(a->randomness);
  for (int i = 1; i < argc; i++) {
    const char *k = argv[i], *v;
    switch (cli_next_opt(vv_opts, argc, argv, &i, &v)) {
    case O_HELP: fputs(cli_post_verify_vanilla_usage, stdout); return 0;
    case O_KIND: a->kind = v; break;
    case O_PROOF: a->proof = v; break;
    case O_SIZE: a->size = v; break;
    case O_VANILLA: a->path = v; break;
    case O_RANDOMNESS:
      if (!cli_post_randomness(a->randomness, v))
        return cli_fail(2, "--randomness: expected 64 hex digits of a canonical field element");
      break;
    case O_SECTOR_INDEX:
      if (!cli_u64(&a->sector_index, v)) return cli_fail(2, "--sector-index: bad value %s", v);
      break;
    case O_MINER:
      if (!cli_u64(&a->miner, v)) return cli_fail(2, "--miner-id: bad value %s", v);
      break;
    case CLI_MISSING: return 2;
    default:
      return cli_fail(2, "verify-vanilla: unknown option '%s'\n%s", k,
                      cli_post_verify_vanilla_usage);
    }
  }
  if (!a->kind || !a->path || (!a->size && !a->proof))
    return cli_fail(2, "verify-vanilla: --kind, --vanilla and --registered-proof (or "
                       "--sector-size) are required");
  return -1;
}

int cmd_post_verify_vanilla(int argc, char **argv) {
  vv_args a;
  int rc = vv_parse(&a, argc, argv);
  if (rc >= 0) return rc;
  const cuzk_post_proof *p;
  if (!cli_post_proof(&p, a.kind, a.proof, a.size))
    return cli_fail(2, "verify-vanilla: %s is not a registered %s proof (or the kind is unknown)",
                    a.proof ? a.proof : a.size, a.kind);
  uint8_t *data;
  size_t len;
  if (!cli_read_file(a.path, &data, &len)) return cli_fail(1, "cannot read %s", a.path);
  cuzk_post_sector_proof sp;
  char msg[512];
  cuzk_post_err e = cuzk_post_vanilla_read(&sp, p, data, len, msg, sizeof msg);
  free(data);
  if (e) return cli_fail(1, "%s: %s: %s", a.path, p->name, msg);
  e = cuzk_post_vanilla_verify(p, a.randomness, a.sector_index, &sp, msg, sizeof msg);
  if (!e)
    printf("valid: sector %llu, %zu challenges (%s, sector index %llu)\n",
           (unsigned long long)sp.sector_id, sp.n_proofs, p->name,
           (unsigned long long)a.sector_index);
  cuzk_post_sector_proof_free(&sp);
  return e ? cli_fail(1, "%s: invalid: %s", a.path, msg) : 0;
}
