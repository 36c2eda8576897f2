/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * cuzk-bench single / batch: the daemon's proof commands, with the reference cuzk-bench's flags
 * and output (docs/spec/cuzk-interface.md §3.1):
 *   single  -t TYPE --c1 FILE [-o PROOF]        one Prove call, "=== Proof Result ===" block
 *   batch   -t TYPE --c1 FILE... -c N -j J      N Prove calls, J at a time, throughput summary
 * Differences from the reference: sector_size and registered_proof come from the C1 (raw JSON or
 * Curio's envelope) instead of a hard-coded 32 GiB; batch takes several --c1 files round-robin;
 * --priority, --timeout-ms, single -o; --request FILE takes a whole PoSt or SnapDeals request
 * from a file (request_file.h). Exit codes: 0 every proof COMPLETED, 1 otherwise, 2 usage.
 */
#define _DEFAULT_SOURCE /* getrandom */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>

#include <sodium.h>

#include "cli.h"
#include "client_conn.h"
#include "cuzk/porep/c1.h"
#include "cuzk/server/rpc.h"
#include "cuzk/v1/proving.pb-c.h"
#include "request_file.h"

#define MAX_INPUTS 64

/* ---- proof requests (single, batch) ---------------------------------------------------------
 */

/* One input of the proof requests: the C1 (PoRep) or the vanilla proofs (other kinds), and the
 * request fields that come with it. */
typedef struct {
  const char *path;
  uint8_t *data; /* PoRep: the file as read (raw C1 JSON or envelope) */
  size_t len;
  ProtobufCBinaryData *vanilla; /* other kinds: decoded proofs */
  size_t n_vanilla;
  uint64_t sector_size, registered_proof, sector_number, miner_id;
  Cuzk__V1__ProofKind kind;
  uint32_t partition;
  ProtobufCBinaryData randomness; /* data NULL: prove_args' */
  ProtobufCBinaryData comm[3];    /* SnapDeals request file: comm_r_old, comm_r_new, comm_d_new */
} job_input;

/* What an input file is. */
enum { IN_C1, IN_VANILLA, IN_REQUEST };

typedef struct {
  conn_opts conn;
  const char *type;
  Cuzk__V1__ProofKind kind;
  Cuzk__V1__Priority priority;
  int input[MAX_INPUTS]; /* IN_* of each file */
  size_t n_paths;
  uint64_t sector_nums[MAX_INPUTS];
  size_t n_sector_nums;
  uint64_t miner_id, registered_proof, sector_size;
  bool have_registered_proof, have_sector_size, have_miner, have_partition, have_randomness;
  uint32_t partition;
  uint8_t randomness[32], comm_r_old[32], comm_r_new[32], comm_d_new[32];
  bool have_comm_r_old, have_comm_r_new, have_comm_d_new;
  const char *out;             /* single */
  uint32_t count, concurrency; /* batch */
  job_input inputs[MAX_INPUTS];
} prove_args;

/* Any name of a kind (docs/kinds.md); its value is the proto's (tests/server/test_kinds_proto.c).
 */
static bool parse_kind(Cuzk__V1__ProofKind *k, const char *s) {
  const cuzk_kind *d = cuzk_kind_named(s);
  if (d) *k = (Cuzk__V1__ProofKind)d->id;
  return d != NULL;
}

static bool parse_priority(Cuzk__V1__Priority *p, const char *s) {
  static const char *const names[] = {"default", "low", "normal", "high", "critical"};
  uint64_t v;
  if (cli_u64(&v, s) && v <= 4) {
    *p = (Cuzk__V1__Priority)v;
    return true;
  }
  for (int k = 0; k < 5; k++)
    if (!strcasecmp(s, names[k])) {
      *p = (Cuzk__V1__Priority)k;
      return true;
    }
  return false;
}

static const char prove_flags_help[] =
    "  -t, --type TYPE       porep (porep-c2, seal-commit), snap (snap-deals, update), wpost\n"
    "                        (window-post), winning (winning-post)\n"
    "  --c1 FILE             PoRep: the C1 output, raw JSON or Curio's envelope; sector_size and\n"
    "                        registered_proof are taken from it\n"
    "  --vanilla FILE        other kinds: a JSON array of base64 proofs (else the file is one\n"
    "                        raw proof)\n"
    "  --request FILE        PoSt or SnapDeals: a request file (cuzk-bench gen-vanilla\n"
    "                        winning-post, window-post or snap): the kind and its fields from it\n"
    "                        (-t optional; the flags below override its values); sent as is for\n"
    "                        the daemon to judge\n"
    "  --sector-num N        the sector (default: the envelope's SectorNum, else 1); the daemon\n"
    "                        checks the C1's replica_id against it and --miner-id\n"
    "  --miner-id N          the miner (default 1000; 0 skips the daemon's replica_id check)\n"
    "  --registered-proof P  override the C1's (request's) registered proof (id or name)\n"
    "  --sector-size S       override the sector size sent (2KiB, 32GiB, bytes)\n"
    "  --priority P          low|normal|high|critical or 1..4 (default: the kind's default)\n"
    "  --partition N         partition_index (WindowPoSt, default 0)\n"
    "  --randomness HEX      32 bytes (PoSt; default zeros)\n"
    "  --comm-r-old HEX, --comm-r-new HEX, --comm-d-new HEX   32 bytes each (SnapDeals)\n";

static const char single_usage[] =
    "usage: cuzk-bench single (-t TYPE (--c1 FILE | --vanilla FILE) | --request FILE) [options]\n"
    "One Prove call to the daemon; prints the result (status, job id, timings, proof).\n"
    "  -o FILE               write the proof bytes (COMPLETED only)\n";

static const char batch_usage[] =
    "usage: cuzk-bench batch (-t TYPE (--c1 FILE... | --vanilla FILE...) | --request FILE...)\n"
    "                        [-c N] [-j J] [options]\n"
    "N Prove calls, J at a time (J threads; a new connection per proof), then a throughput\n"
    "summary. Several --c1 (--vanilla, --request) files are used round-robin, so concurrent\n"
    "jobs prove different sectors; give --sector-num once for all or once per file, in the same\n"
    "order.\n"
    "  -c, --count N         proofs (default 3)\n"
    "  -j, --concurrency J   calls in flight (default 1)\n"
    "  -q, --quiet           no progress line on stderr (proofs done, proofs/min so far)\n";

static void prove_usage(FILE *f, bool batch) {
  fputs(batch ? batch_usage : single_usage, f);
  fputs(prove_flags_help, f);
  fputs(conn_addr_help, f);
}

static bool hex32(uint8_t out[32], bool *have, const char *flag, const char *v) {
  if (!cli_hex32(out, v)) {
    cli_fail(2, "%s: expected 64 hex digits (32 bytes), got '%s'", flag, v);
    return false;
  }
  if (have) *have = true;
  return true;
}

/* The options of single and batch: the shared ones, then each command's own. */
#define PROVE_OPTS                                                                       \
  CONN_OPTS, O_TYPE, O_C1, O_VANILLA, O_REQUEST, O_SECTOR_NUM, O_MINER, O_PROOF, O_SIZE, \
      O_PRIORITY, O_RANDOMNESS, O_COMM_R_OLD, O_COMM_R_NEW, O_COMM_D_NEW
static const int single_opts[] = {PROVE_OPTS, O_OUTPUT, O_PARTITION, 0};
static const int batch_opts[] = {PROVE_OPTS, O_COUNT, O_CONCURRENCY, O_QUIET, 0};

/* The input files' kinds against -t: -1 to go on, else the exit code. */
static int check_inputs(prove_args *a, bool batch) {
  bool request = a->n_paths && a->input[0] == IN_REQUEST;
  for (size_t k = 0; k < a->n_paths; k++)
    if ((a->input[k] == IN_REQUEST) != request)
      return cli_fail(2, "--request: request files cannot be mixed with --c1 or --vanilla");
  if (!a->type && !request)
    return cli_fail(2, "-t/--type is required (porep, snap, wpost, winning), or --request FILE");
  /* a kind whose input is the C1 (PoRep) takes --c1; the others --vanilla or --request */
  const cuzk_kind *kind = a->type ? cuzk_kind_of((cuzk_proof_kind)a->kind) : NULL;
  bool porep = kind && !request_file_kind(kind);
  if (request && porep) /* the file names its kind, checked against -t when it is read */
    return cli_fail(2, "--request: a PoSt request, but -t %s", a->type);
  for (size_t k = 0; k < a->n_paths && !request; k++) {
    if (porep && a->input[k] != IN_C1)
      return cli_fail(2, "--vanilla: a PoRep request takes --c1 (the C1 output)");
    if (!porep && a->input[k] == IN_C1)
      return cli_fail(2, "--c1: %s requests take --vanilla (PoRep takes --c1)", a->type);
  }
  const char *flag = request ? "--request" : porep ? "--c1" : "--vanilla";
  if (!a->n_paths) return cli_fail(2, "%s FILE is required for -t %s", flag, a->type);
  if (!batch && a->n_paths > 1)
    return cli_fail(2, "%s: single takes one file (batch takes several)", flag);
  if (a->n_sector_nums > 1 && a->n_sector_nums != a->n_paths)
    return cli_fail(2,
                    "--sector-num: given %zu times for %zu input files (once for all, or once "
                    "per file in order)",
                    a->n_sector_nums, a->n_paths);
  return -1;
}

/* Parses single/batch options; -1 to go on, else the exit code. */
static int parse_prove(prove_args *a, int argc, char **argv, bool batch) {
  memset(a, 0, sizeof *a);
  conn_init(&a->conn, 0);
  a->miner_id = 1000;
  a->count = 3;
  a->concurrency = 1;
  for (int i = 1; i < argc; i++) {
    const char *k = argv[i], *v = NULL;
    int id = cli_next_opt(batch ? batch_opts : single_opts, argc, argv, &i, &v);
    if (id == CLI_MISSING) return 2;
    if (id == O_HELP) {
      prove_usage(stdout, batch);
      return 0;
    }
    if (id <= 0)
      return cli_fail(2, "unknown option '%s' for %s (see 'cuzk-bench %s --help')", k,
                      batch ? "batch" : "single", batch ? "batch" : "single");
    uint64_t x;
    switch (id) {
    case O_ADDR:
    case O_TIMEOUT:
    case O_LOG_LEVEL:
      if (!conn_apply(&a->conn, id, v)) return 2;
      break;
    case O_TYPE:
      a->type = v;
      if (!parse_kind(&a->kind, v))
        return cli_fail(2, "-t/--type: unknown proof type '%s' (porep, snap, wpost, winning)", v);
      break;
    case O_C1:
    case O_VANILLA:
    case O_REQUEST:
      if (a->n_paths == MAX_INPUTS) return cli_fail(2, "%s: at most %d files", k, MAX_INPUTS);
      a->input[a->n_paths] = id == O_C1 ? IN_C1 : id == O_VANILLA ? IN_VANILLA : IN_REQUEST;
      a->inputs[a->n_paths++].path = v;
      break;
    case O_SECTOR_NUM:
      if (!cli_u64(&x, v)) return cli_fail(2, "--sector-num: bad value '%s'", v);
      if (a->n_sector_nums == MAX_INPUTS)
        return cli_fail(2, "--sector-num: at most %d values", MAX_INPUTS);
      a->sector_nums[a->n_sector_nums++] = x;
      break;
    case O_MINER:
      if (a->have_miner) return cli_fail(2, "--miner-id: given twice");
      if (!cli_u64(&a->miner_id, v)) return cli_fail(2, "--miner-id: bad value '%s'", v);
      a->have_miner = true;
      break;
    case O_PROOF:
      if (cli_u64(&x, v)) {
        a->registered_proof = x;
      } else {
        int rp = cuzk_c1_proof_id_from_name(v, strlen(v));
        const cuzk_post_proof *pp;
        if (rp < 0 && cuzk_post_proof_by_name(&pp, v))
          return cli_fail(2,
                          "--registered-proof: '%s' is neither a number nor a PoRep or PoSt "
                          "proof name",
                          v);
        a->registered_proof = rp >= 0 ? (uint64_t)rp : pp->id;
      }
      a->have_registered_proof = true;
      break;
    case O_SIZE:
      if (!cli_u64(&a->sector_size, v) && cuzk_porep_parse_size(&a->sector_size, v))
        return cli_fail(2, "--sector-size: bad size '%s' (2KiB, 8MiB, 512MiB, 32GiB, 64GiB, bytes)",
                        v);
      a->have_sector_size = true;
      break;
    case O_PRIORITY:
      if (!parse_priority(&a->priority, v))
        return cli_fail(2, "--priority: bad value '%s' (low, normal, high, critical or 0..4)", v);
      break;
    case O_PARTITION:
      if (!cli_u64(&x, v) || x > UINT32_MAX) return cli_fail(2, "--partition: bad value '%s'", v);
      a->partition = (uint32_t)x;
      a->have_partition = true;
      break;
    case O_RANDOMNESS:
      if (!hex32(a->randomness, &a->have_randomness, "--randomness", v)) return 2;
      break;
    case O_COMM_R_OLD:
      if (!hex32(a->comm_r_old, &a->have_comm_r_old, "--comm-r-old", v)) return 2;
      break;
    case O_COMM_R_NEW:
      if (!hex32(a->comm_r_new, &a->have_comm_r_new, "--comm-r-new", v)) return 2;
      break;
    case O_COMM_D_NEW:
      if (!hex32(a->comm_d_new, &a->have_comm_d_new, "--comm-d-new", v)) return 2;
      break;
    case O_OUTPUT: a->out = v; break;
    case O_COUNT:
      if (!cli_u64(&x, v) || x == 0 || x > 1000000)
        return cli_fail(2, "-c/--count: bad value '%s' (1..1000000)", v);
      a->count = (uint32_t)x;
      break;
    case O_QUIET: cli_quiet = true; break;
    case O_CONCURRENCY:
      if (!cli_u64(&x, v) || x == 0 || x > 256)
        return cli_fail(2, "-j/--concurrency: bad value '%s' (1..256)", v);
      a->concurrency = (uint32_t)x;
      break;
    }
  }
  return check_inputs(a, batch);
}

/* Standard padded base64 of s[0..n) into out (at least n/4*3 bytes); false if malformed.
 * libsodium's decoder, strict: no whitespace, padding required. */
static bool b64_decode(const char *s, size_t n, uint8_t *out, size_t *out_len) {
  const char *end = NULL;
  return sodium_base642bin(out, n / 4 * 3 + 1, s, n, NULL, out_len, &end,
                           sodium_base64_VARIANT_ORIGINAL) == 0 &&
         end == s + n;
}

static const char *skip_ws(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
    p++;
  return p;
}

/* A JSON array of base64 strings (Go's json.Marshal([][]byte)) into in->vanilla; false if the
 * data is not one (the caller then sends the file as one raw proof). */
static bool parse_vanilla_json(job_input *in) {
  const char *p = (const char *)in->data, *end = p + in->len;
  p = skip_ws(p, end);
  if (p == end || *p++ != '[') return false;
  size_t cap = 0;
  for (;;) {
    p = skip_ws(p, end);
    if (p < end && *p == ']' && !in->n_vanilla) {
      p++;
      break;
    }
    if (p == end || *p++ != '"') return false;
    const char *q = memchr(p, '"', (size_t)(end - p));
    if (!q) return false;
    size_t n = (size_t)(q - p);
    if (in->n_vanilla == cap) {
      cap = cap ? 2 * cap : 8;
      ProtobufCBinaryData *nv = realloc(in->vanilla, cap * sizeof *nv);
      if (!nv) return false;
      in->vanilla = nv;
    }
    uint8_t *buf = malloc(n / 4 * 3 + 1);
    size_t got;
    if (!buf || !b64_decode(p, n, buf, &got)) {
      free(buf);
      return false;
    }
    in->vanilla[in->n_vanilla].data = buf;
    in->vanilla[in->n_vanilla++].len = got;
    p = skip_ws(q + 1, end);
    if (p < end && *p == ',') {
      p++;
      continue;
    }
    if (p < end && *p == ']') {
      p++;
      break;
    }
    return false;
  }
  return skip_ws(p, end) == end;
}

static void free_vanilla(job_input *in) {
  for (size_t k = 0; k < in->n_vanilla; k++)
    free(in->vanilla[k].data);
  free(in->vanilla);
  in->vanilla = NULL;
  in->n_vanilla = 0;
}

static void free_inputs(prove_args *a) {
  for (size_t k = 0; k < a->n_paths; k++) {
    free(a->inputs[k].data);
    free(a->inputs[k].randomness.data);
    for (int c = 0; c < 3; c++)
      free(a->inputs[k].comm[c].data);
    free_vanilla(&a->inputs[k]);
  }
}

/* A request file's fields into in (the flags given override them), its proofs moved in. Sent as
 * is: the daemon judges the values (the file must only parse). Exit code or -1. */
static int load_request(prove_args *a, job_input *in) {
  request_file f;
  char msg[1024];
  if (!request_file_parse(&f, in->data, in->len, msg, sizeof msg))
    return cli_fail(1, "--request %s: %s", in->path, msg);
  free(in->data);
  in->data = NULL;
  in->len = 0;
  Cuzk__V1__ProofKind kind = (Cuzk__V1__ProofKind)f.kind->id;
  if (a->type && kind != a->kind) {
    request_file_free(&f);
    return cli_fail(2, "--request %s: proof_kind %s, but -t %s", in->path, f.kind->proto, a->type);
  }
  in->kind = kind;
  if (!a->have_registered_proof) in->registered_proof = f.registered_proof;
  if (!a->have_sector_size) in->sector_size = f.sector_size;
  if (!a->have_miner) in->miner_id = f.miner_id;
  if (!a->have_partition) in->partition = f.partition_index;
  if (!a->have_randomness && f.randomness_len) {
    in->randomness = (ProtobufCBinaryData){f.randomness_len, f.randomness};
    f.randomness = NULL;
  }
  if (f.kind->fields & CUZK_KIND_F_SECTOR_NUMBER) in->sector_number = f.sector_number;
  if (f.kind->fields & CUZK_KIND_F_COMMS) {
    const bool have[3] = {a->have_comm_r_old, a->have_comm_r_new, a->have_comm_d_new};
    for (int c = 0; c < 3; c++)
      if (!have[c]) { /* the flags given override the file */
        in->comm[c] = (ProtobufCBinaryData){f.comm_len[c], f.comm[c]};
        f.comm[c] = NULL;
      }
  }
  in->vanilla = calloc(f.n_vanilla ? f.n_vanilla : 1, sizeof *in->vanilla);
  if (!in->vanilla) {
    request_file_free(&f);
    return cli_fail(1, "out of memory");
  }
  for (size_t i = 0; i < f.n_vanilla; i++) {
    in->vanilla[i] = (ProtobufCBinaryData){f.vanilla_len[i], f.vanilla[i]};
    f.vanilla[i] = NULL;
  }
  in->n_vanilla = f.n_vanilla;
  if (a->conn.log_level >= LOG_INFO)
    fprintf(stderr,
            "cuzk-bench: %s: %s, registered_proof %llu, partition %u, %zu vanilla proof%s\n",
            in->path, f.kind->proto, (unsigned long long)in->registered_proof, in->partition,
            in->n_vanilla, in->n_vanilla == 1 ? "" : "s");
  request_file_free(&f);
  return -1;
}

/* Reads every input file and fills the request fields that come with it. Exit code or -1. */
static int load_inputs(prove_args *a) {
  static const char *const flag[] = {"--c1", "--vanilla", "--request"};
  for (size_t k = 0; k < a->n_paths; k++) {
    job_input *in = &a->inputs[k];
    if (!cli_read_file(in->path, &in->data, &in->len))
      return cli_fail(1, "%s %s: %s", flag[a->input[k]], in->path, strerror(errno));
    in->miner_id = a->miner_id;
    in->sector_number = a->n_sector_nums ? a->sector_nums[a->n_sector_nums > 1 ? k : 0] : 1;
    in->registered_proof = a->registered_proof;
    in->sector_size = a->sector_size;
    in->kind = a->kind;
    in->partition = a->partition;
    if (a->input[k] == IN_REQUEST) {
      int rc = load_request(a, in);
      if (rc >= 0) return rc;
      continue;
    }
    if (a->input[k] == IN_VANILLA) {
      if (!parse_vanilla_json(in)) {
        free_vanilla(in);
        ProtobufCBinaryData *one = malloc(sizeof *one);
        if (!one) return cli_fail(1, "out of memory");
        one->data = in->data; /* the whole file is one raw proof */
        one->len = in->len;
        in->data = NULL;
        in->len = 0;
        in->vanilla = one;
        in->n_vanilla = 1;
      }
      free(in->data); /* the proofs go in vanilla_proofs; vanilla_proof (PoRep's) stays empty */
      in->data = NULL;
      in->len = 0;
      if (a->conn.log_level >= LOG_INFO)
        fprintf(stderr, "cuzk-bench: %s: %zu vanilla proof%s\n", in->path, in->n_vanilla,
                in->n_vanilla == 1 ? "" : "s");
      continue;
    }
    /* the C1's registered proof gives sector_size and registered_proof; a C1 that does not
     * parse is still sent, for the daemon to judge (its answer names the field) */
    cuzk_c1 *c1 = NULL;
    cuzk_c1_read_info info;
    char eb[512];
    if (cuzk_c1_read(&c1, in->data, in->len, CUZK_C1_READ_NO_SHAPE_CHECK, &info, eb, sizeof eb)) {
      if (a->conn.log_level >= LOG_WARN)
        fprintf(stderr,
                "cuzk-bench: warning: --c1 %s does not parse (%s); sent as is with "
                "sector_size %llu, registered_proof %llu\n",
                in->path, eb, (unsigned long long)in->sector_size,
                (unsigned long long)in->registered_proof);
      continue;
    }
    const cuzk_c1_proof_info *pi = cuzk_c1_proof_info_get(c1->registered_proof);
    if (!a->have_registered_proof) in->registered_proof = c1->registered_proof;
    if (!a->have_sector_size && pi) in->sector_size = pi->sector_size;
    if (!a->n_sector_nums && info.source == CUZK_C1_SRC_ENVELOPE && info.sector_num > 0)
      in->sector_number = (uint64_t)info.sector_num;
    if (a->conn.log_level >= LOG_INFO)
      fprintf(stderr,
              "cuzk-bench: %s: %s%s (registered_proof %u), sector %llu, miner %llu, %zu bytes\n",
              in->path, info.source == CUZK_C1_SRC_ENVELOPE ? "envelope of " : "",
              pi ? pi->name : "?", c1->registered_proof, (unsigned long long)in->sector_number,
              (unsigned long long)in->miner_id, in->len);
    cuzk_c1_free(c1);
  }
  return -1;
}

/* A UUIDv4 in text (the reference's request_id). */
static void uuid4(char out[37]) {
  uint8_t b[16];
  size_t got = 0;
  while (got < sizeof b) {
    ssize_t n = getrandom(b + got, sizeof b - got, 0);
    if (n < 0 && errno != EINTR) break;
    if (n > 0) got += (size_t)n;
  }
  for (; got < sizeof b; got++) /* no getrandom: still unique enough for a log key */
    b[got] = (uint8_t)(rand() ^ (int)cli_now_s());
  b[6] = (uint8_t)((b[6] & 0x0f) | 0x40);
  b[8] = (uint8_t)((b[8] & 0x3f) | 0x80);
  snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
           b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
           b[15]);
}

/* The outcome of one Prove call. */
typedef struct {
  bool rpc_ok;                   /* the call returned a ProveResponse with a result */
  int grpc_status;               /* !rpc_ok: the call's gRPC status (-1: a local failure) */
  char why[1200];                /* !rpc_ok: the gRPC status and message */
  Cuzk__V1__ProveResponse *resp; /* rpc_ok: resp->result is set */
  double wall_s;
} prove_outcome;

static const char *status_label(int status) {
  switch (status) {
  case 1: return "COMPLETED";
  case 2: return "FAILED";
  case 3: return "CANCELLED";
  case 4: return "TIMEOUT";
  default: return "UNKNOWN";
  }
}

static void prove_once(const prove_args *a, const job_input *in, prove_outcome *o) {
  memset(o, 0, sizeof *o);
  char rid[37];
  uuid4(rid);
  Cuzk__V1__SubmitProofRequest s = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
  s.request_id = rid;
  s.proof_kind = in->kind;
  s.sector_size = in->sector_size;
  s.registered_proof = in->registered_proof;
  s.priority = a->priority;
  s.vanilla_proof.data = in->data;
  s.vanilla_proof.len = in->data ? in->len : 0;
  s.n_vanilla_proofs = in->n_vanilla;
  s.vanilla_proofs = in->vanilla;
  s.sector_number = in->sector_number;
  s.miner_id = in->miner_id;
  s.partition_index = in->partition;
  /* as the reference: 32 zero bytes of randomness unless given (or in a request file),
   * commitments empty unless given */
  s.randomness =
      in->randomness.data ? in->randomness : (ProtobufCBinaryData){32, (uint8_t *)a->randomness};
  if (a->have_comm_r_old) s.comm_r_old = (ProtobufCBinaryData){32, (uint8_t *)a->comm_r_old};
  if (a->have_comm_r_new) s.comm_r_new = (ProtobufCBinaryData){32, (uint8_t *)a->comm_r_new};
  if (a->have_comm_d_new) s.comm_d_new = (ProtobufCBinaryData){32, (uint8_t *)a->comm_d_new};
  if (in->comm[0].data) s.comm_r_old = in->comm[0];
  if (in->comm[1].data) s.comm_r_new = in->comm[1];
  if (in->comm[2].data) s.comm_d_new = in->comm[2];
  Cuzk__V1__ProveRequest pr = CUZK__V1__PROVE_REQUEST__INIT;
  pr.submit = &s;
  size_t n = protobuf_c_message_get_packed_size(&pr.base);
  uint8_t *req = malloc(n ? n : 1);
  if (!req) {
    snprintf(o->why, sizeof o->why, "out of memory for a %zu-byte request", n);
    return;
  }
  protobuf_c_message_pack(&pr.base, req);
  if (a->conn.log_level >= LOG_DEBUG)
    fprintf(stderr,
            "cuzk-bench: Prove -> %s: request_id %s, kind %d, sector_size %llu, "
            "registered_proof %llu, sector %llu, miner %llu, priority %d, %zu bytes\n",
            a->conn.addr, rid, (int)in->kind, (unsigned long long)s.sector_size,
            (unsigned long long)s.registered_proof, (unsigned long long)s.sector_number,
            (unsigned long long)s.miner_id, (int)s.priority, n);
  uint8_t *resp = NULL;
  size_t resp_len = 0;
  double t0 = cli_now_s();
  bool ok = conn_call(&a->conn, CUZK_RPC_PROVE, req, n, &resp, &resp_len, &o->grpc_status, o->why,
                      sizeof o->why);
  o->wall_s = cli_now_s() - t0;
  free(req);
  if (!ok) return;
  o->resp = cuzk__v1__prove_response__unpack(NULL, resp_len, resp);
  free(resp);
  if (!o->resp || !o->resp->result) {
    snprintf(o->why, sizeof o->why, "%s", o->resp ? "empty response" : "malformed ProveResponse");
    if (o->resp) cuzk__v1__prove_response__free_unpacked(o->resp, NULL);
    o->resp = NULL;
    return;
  }
  o->rpc_ok = true;
}

int cmd_single(int argc, char **argv) {
  prove_args *a = calloc(1, sizeof *a);
  if (!a) return cli_fail(1, "out of memory");
  int rc = parse_prove(a, argc, argv, false);
  if (rc < 0) rc = load_inputs(a);
  if (rc >= 0) {
    free_inputs(a);
    free(a);
    return rc;
  }
  prove_outcome o;
  prove_once(a, &a->inputs[0], &o);
  rc = 1;
  if (!o.rpc_ok) {
    cli_fail(1, "Prove RPC failed: %s", o.why);
  } else {
    const Cuzk__V1__AwaitProofResponse *r = o.resp->result;
    printf("\n=== Proof Result ===\n");
    printf("status:    %s\n", status_label(r->status));
    printf("job_id:    %s\n", r->job_id);
    if (r->status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED) {
      printf("timings:   total=%llu ms (queue=%llu ms, srs=%llu ms, synth=%llu ms, gpu=%llu ms)\n",
             (unsigned long long)r->total_ms, (unsigned long long)r->queue_wait_ms,
             (unsigned long long)r->srs_load_ms, (unsigned long long)r->synthesis_ms,
             (unsigned long long)r->gpu_compute_ms);
      /* cuzk's own field, on a line of its own: the timings line stays the reference's */
      printf("batching:  %llu ms waiting for partners\n", (unsigned long long)r->batch_wait_ms);
      printf("wall time: %llu ms\n", (unsigned long long)(o.wall_s * 1000.0));
      printf("proof:     %zu bytes (hex: ", r->proof.len);
      cli_print_hex(r->proof.data, r->proof.len <= 256 ? r->proof.len : 128);
      printf("%s)\n", r->proof.len <= 256 ? "" : "...");
      rc = 0;
      if (a->out && !cli_write_file(a->out, r->proof.data, r->proof.len))
        rc = cli_fail(1, "-o %s: %s", a->out, strerror(errno));
    } else {
      printf("error:     %s\n", r->error_message);
    }
    fflush(stdout);
    cuzk__v1__prove_response__free_unpacked(o.resp, NULL);
  }
  free_inputs(a);
  free(a);
  return rc;
}

/* ---- batch ----------------------------------------------------------------------------------
 */

typedef struct {
  bool done, completed;
  const char *label;
  double wall_s, prove_s;
  uint64_t prove_ms, queue_ms;
} batch_item;

typedef struct {
  const prove_args *a;
  pthread_mutex_t mu;
  uint32_t next, next_print, finished;
  batch_item *items;
  cli_progress bar; /* proofs finished, proofs/min so far (stderr) */
} batch_ctx;

/* Prints the finished items in index order, as the reference does (under ctx->mu). */
static void print_ready(batch_ctx *c) {
  while (c->next_print < c->a->count && c->items[c->next_print].done) {
    const batch_item *it = &c->items[c->next_print];
    printf("  [%u/%u] %s — %.1fs (prove=%llu ms, queue=%llu ms)\n", c->next_print + 1, c->a->count,
           it->label, it->wall_s, (unsigned long long)it->prove_ms,
           (unsigned long long)it->queue_ms);
    c->next_print++;
  }
  fflush(stdout);
}

static void *batch_worker(void *arg) {
  batch_ctx *c = arg;
  const prove_args *a = c->a;
  for (;;) {
    pthread_mutex_lock(&c->mu);
    uint32_t i = c->next < a->count ? c->next++ : a->count;
    pthread_mutex_unlock(&c->mu);
    if (i >= a->count) break;
    prove_outcome o;
    prove_once(a, &a->inputs[i % a->n_paths], &o);
    batch_item it = {.done = true, .wall_s = o.wall_s};
    if (o.rpc_ok) {
      const Cuzk__V1__AwaitProofResponse *r = o.resp->result;
      it.label = status_label(r->status);
      it.completed = r->status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED;
      it.prove_ms = r->gpu_compute_ms;
      it.queue_ms = r->queue_wait_ms;
      it.prove_s = (double)r->gpu_compute_ms / 1000.0;
      if (!it.completed)
        fprintf(stderr, "cuzk-bench: [%u/%u] %s: %s\n", i + 1, a->count, it.label,
                r->error_message);
      cuzk__v1__prove_response__free_unpacked(o.resp, NULL);
    } else {
      /* the call itself failed: the line shows the gRPC status (UNAVAILABLE, DEADLINE_EXCEEDED) */
      it.label = o.grpc_status > 0 ? cuzk_rpc_status_name(o.grpc_status) : "ERROR";
      fprintf(stderr, "cuzk-bench: [%u/%u] Prove RPC failed: %s\n", i + 1, a->count, o.why);
    }
    pthread_mutex_lock(&c->mu);
    c->items[i] = it;
    cli_progress_end(&c->bar); /* the terminal's line, before the results on stdout */
    print_ready(c);
    cli_progress_update(&c->bar, it.label, ++c->finished, a->count);
    pthread_mutex_unlock(&c->mu);
  }
  return NULL;
}

static void min_avg_max(const batch_item *items, uint32_t n, bool prove, double *avg, double *mn,
                        double *mx) {
  double sum = 0;
  uint32_t k = 0;
  *mn = 1e300;
  *mx = -1e300;
  for (uint32_t i = 0; i < n; i++) {
    if (!items[i].completed) continue;
    double v = prove ? items[i].prove_s : items[i].wall_s;
    sum += v;
    *mn = v < *mn ? v : *mn;
    *mx = v > *mx ? v : *mx;
    k++;
  }
  *avg = k ? sum / k : 0;
}

int cmd_batch(int argc, char **argv) {
  prove_args *a = calloc(1, sizeof *a);
  if (!a) return cli_fail(1, "out of memory");
  int rc = parse_prove(a, argc, argv, true);
  if (rc < 0) rc = load_inputs(a);
  batch_ctx c = {.a = a};
  if (rc < 0 && !(c.items = calloc(a->count, sizeof *c.items))) rc = cli_fail(1, "out of memory");
  if (rc >= 0) {
    free_inputs(a);
    free(a);
    return rc;
  }
  uint32_t nthreads = a->concurrency < a->count ? a->concurrency : a->count;
  printf("=== Batch Benchmark ===\n");
  printf("proof type:  %s\n",
         a->type ? a->type : cuzk_kind_of((cuzk_proof_kind)a->inputs[0].kind)->proto);
  printf("count:       %u\n", a->count);
  printf("concurrency: %u\n", a->concurrency);
  printf("\n");
  fflush(stdout);
  pthread_mutex_init(&c.mu, NULL);
  cli_progress_start(&c.bar, "batch", "proofs", true);
  pthread_t *th = calloc(nthreads, sizeof *th);
  uint32_t started = 0;
  double t0 = cli_now_s();
  for (; th && started < nthreads; started++)
    if (pthread_create(&th[started], NULL, batch_worker, &c)) break;
  if (!started) batch_worker(&c); /* no thread at all: run them here, one at a time */
  for (uint32_t k = 0; k < started; k++)
    pthread_join(th[k], NULL);
  double total = cli_now_s() - t0;
  free(th);
  pthread_mutex_destroy(&c.mu);
  uint32_t completed = 0;
  for (uint32_t i = 0; i < a->count; i++)
    completed += c.items[i].completed;
  printf("\n=== Batch Summary ===\n");
  printf("total time:    %.1fs\n", total);
  printf("completed:     %u\n", completed);
  printf("failed:        %u\n", a->count - completed);
  if (completed) {
    double avg, mn, mx;
    min_avg_max(c.items, a->count, false, &avg, &mn, &mx);
    printf("wall time:     avg=%.1fs min=%.1fs max=%.1fs\n", avg, mn, mx);
    min_avg_max(c.items, a->count, true, &avg, &mn, &mx);
    printf("prove time:    avg=%.1fs min=%.1fs max=%.1fs\n", avg, mn, mx);
    printf("throughput:    %.3f proofs/min (%.1fs/proof)\n", completed / total * 60.0,
           total / completed);
  }
  fflush(stdout);
  rc = completed == a->count ? 0 : 1;
  free(c.items);
  free_inputs(a);
  free(a);
  return rc;
}
