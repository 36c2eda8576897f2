/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* cuzk-bench: request files (request_file.h): a strict proto3-JSON reader over yajl_tree, the
 * writer, and the checks cuzk makes before proving a PoSt or SnapDeals request. */
#include "request_file.h"

#include <errno.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_tree.h>

#include "cli.h"
#include "cuzk/util/errmsg.h"

/* The SubmitProofRequest fields by proto name and proto3 JSON name (readers accept both), and
 * the CUZK_KIND_F_* bit of the kinds that require each (its descriptor's fields, docs/kinds.md;
 * K_EVERY: every kind); a field a kind does not require is accepted only with its default value
 * (a writer may emit defaults). request_id and priority mean nothing to the proof (K_ANY: any
 * value). */
enum { K_EVERY = 1 << 29, K_ANY = 1 << 30 };
enum {
  F_KIND,
  F_PROOF,
  F_SIZE,
  F_MINER,
  F_RAND,
  F_PART,
  F_VANILLA,
  F_NUMBER,
  F_COMM_R_OLD,
  F_COMM_R_NEW,
  F_COMM_D_NEW,
  F_VANILLA_ONE,
  F_REQUEST_ID,
  F_PRIORITY,
  N_FIELDS
};
static const struct {
  const char *name, *json;
  unsigned kinds;
} FIELDS[N_FIELDS] = {
    [F_KIND] = {"proof_kind", "proofKind", K_EVERY},
    [F_PROOF] = {"registered_proof", "registeredProof", K_EVERY},
    [F_SIZE] = {"sector_size", "sectorSize", K_EVERY},
    [F_MINER] = {"miner_id", "minerId", CUZK_KIND_F_MINER},
    [F_RAND] = {"randomness", "randomness", CUZK_KIND_F_RANDOMNESS},
    [F_PART] = {"partition_index", "partitionIndex", CUZK_KIND_F_PARTITION_INDEX},
    [F_VANILLA] = {"vanilla_proofs", "vanillaProofs", CUZK_KIND_F_VANILLA_LIST},
    [F_NUMBER] = {"sector_number", "sectorNumber", CUZK_KIND_F_SECTOR_NUMBER},
    [F_COMM_R_OLD] = {"comm_r_old", "commROld", CUZK_KIND_F_COMMS},
    [F_COMM_R_NEW] = {"comm_r_new", "commRNew", CUZK_KIND_F_COMMS},
    [F_COMM_D_NEW] = {"comm_d_new", "commDNew", CUZK_KIND_F_COMMS},
    [F_VANILLA_ONE] = {"vanilla_proof", "vanillaProof", CUZK_KIND_F_VANILLA_ONE},
    [F_REQUEST_ID] = {"request_id", "requestId", K_ANY},
    [F_PRIORITY] = {"priority", "priority", K_ANY},
};

#define fail(msg, len, ...) CUZK_FAIL(msg, len, false, __VA_ARGS__)

static const char *type_name(yajl_val v) {
  switch (v ? v->type : yajl_t_null) {
  case yajl_t_string: return "a string";
  case yajl_t_number: return "a number";
  case yajl_t_object: return "an object";
  case yajl_t_array: return "an array";
  case yajl_t_true:
  case yajl_t_false: return "a boolean";
  default: return "null";
  }
}

/* A proto3 JSON unsigned integer: a JSON integer or a decimal string, at most max. */
static bool get_uint(uint64_t *out, yajl_val v, uint64_t max, const char *field, char *msg,
                     size_t len) {
  const char *s = YAJL_IS_NUMBER(v) ? YAJL_GET_NUMBER(v) : YAJL_GET_STRING(v);
  if (!s) return fail(msg, len, "%s: expected an unsigned integer, got %s", field, type_name(v));
  bool digits = *s != 0;
  for (const char *c = s; *c; c++)
    digits &= *c >= '0' && *c <= '9';
  errno = 0;
  unsigned long long x = digits ? strtoull(s, NULL, 10) : 0;
  if (!digits || errno || x > max)
    return fail(msg, len, "%s: '%s' is not an unsigned integer up to %llu", field, s,
                (unsigned long long)max);
  *out = x;
  return true;
}

/* Padded standard base64 (what proto3 JSON writes for bytes); malloc'd. */
static bool get_b64(uint8_t **out, size_t *out_len, yajl_val v, const char *field, char *msg,
                    size_t len) {
  const char *s = YAJL_GET_STRING(v);
  if (!s) return fail(msg, len, "%s: expected a base64 string, got %s", field, type_name(v));
  size_t n = strlen(s);
  uint8_t *buf = malloc(n / 4 * 3 + 1);
  if (!buf) return fail(msg, len, "%s: out of memory", field);
  const char *end = NULL;
  if (sodium_base642bin(buf, n / 4 * 3 + 1, s, n, NULL, out_len, &end,
                        sodium_base64_VARIANT_ORIGINAL) ||
      end != s + n) {
    free(buf);
    return fail(msg, len, "%s: not base64 (padded standard alphabet)", field);
  }
  *out = buf;
  return true;
}

bool request_file_kind(const cuzk_kind *k) { return k->fields & CUZK_KIND_F_VANILLA_LIST; }

/* The enum by name or number; only the kinds a request file holds (request_file_kind). */
static bool get_kind(const cuzk_kind **k, yajl_val v, char *msg, size_t len) {
  const char *s = YAJL_GET_STRING(v), *n = YAJL_IS_NUMBER(v) ? YAJL_GET_NUMBER(v) : NULL;
  char names[160] = "";
  const cuzk_kind *d;
  for (size_t i = 0, at = 0; (d = cuzk_kind_at(i)); i++) {
    if (!request_file_kind(d)) continue;
    char num[12];
    snprintf(num, sizeof num, "%d", (int)d->id);
    if ((s && !strcmp(s, d->proto)) || (n && !strcmp(n, num))) {
      *k = d;
      return true;
    }
    at += (size_t)snprintf(names + at, at < sizeof names ? sizeof names - at : 0, "%s%s",
                           at ? ", " : "", d->proto);
  }
  return fail(msg, len, "proof_kind: unknown value %s%s%s (%s)", s ? "'" : "",
              s   ? s
              : n ? n
                  : type_name(v),
              s ? "'" : "", names);
}

static bool get_vanilla(request_file *f, yajl_val v, char *msg, size_t len) {
  if (!YAJL_IS_ARRAY(v))
    return fail(msg, len, "vanilla_proofs: expected an array of base64 strings, got %s",
                type_name(v));
  size_t n = v->u.array.len;
  f->vanilla = calloc(n ? n : 1, sizeof *f->vanilla);
  f->vanilla_len = calloc(n ? n : 1, sizeof *f->vanilla_len);
  if (!f->vanilla || !f->vanilla_len) return fail(msg, len, "vanilla_proofs: out of memory");
  for (size_t i = 0; i < n; i++) {
    char name[48];
    snprintf(name, sizeof name, "vanilla_proofs[%zu]", i);
    if (!get_b64(&f->vanilla[i], &f->vanilla_len[i], v->u.array.values[i], name, msg, len))
      return false;
    f->n_vanilla = i + 1;
  }
  return true;
}

/* Reads field k into f; *is_default says whether it holds its default (0, empty, absent). */
static bool get_field(request_file *f, size_t k, yajl_val v, bool *is_default, char *msg,
                      size_t len) {
  const char *name = FIELDS[k].name;
  uint64_t x = 0;
  uint8_t *b = NULL;
  size_t n = 0;
  *is_default = YAJL_IS_NULL(v);
  if (*is_default) return true; /* proto3 JSON: null is the default value */
  switch (k) {
  case F_KIND: return get_kind(&f->kind, v, msg, len);
  case F_PROOF: return get_uint(&f->registered_proof, v, UINT64_MAX, name, msg, len);
  case F_SIZE: return get_uint(&f->sector_size, v, UINT64_MAX, name, msg, len);
  case F_MINER: return get_uint(&f->miner_id, v, UINT64_MAX, name, msg, len);
  case F_RAND:
    if (!get_b64(&f->randomness, &f->randomness_len, v, name, msg, len)) return false;
    *is_default = f->randomness_len == 0;
    return true;
  case F_PART:
    if (!get_uint(&x, v, UINT32_MAX, name, msg, len)) return false;
    f->partition_index = (uint32_t)x;
    *is_default = x == 0;
    return true;
  case F_VANILLA: return get_vanilla(f, v, msg, len);
  case F_NUMBER:
    if (!get_uint(&f->sector_number, v, UINT64_MAX, name, msg, len)) return false;
    *is_default = f->sector_number == 0;
    return true;
  case F_COMM_R_OLD:
  case F_COMM_R_NEW:
  case F_COMM_D_NEW: {
    size_t c = k - F_COMM_R_OLD;
    if (!get_b64(&f->comm[c], &f->comm_len[c], v, name, msg, len)) return false;
    *is_default = f->comm_len[c] == 0;
    return true;
  }
  case F_VANILLA_ONE:
    if (!get_b64(&b, &n, v, name, msg, len)) return false;
    free(b);
    *is_default = n == 0;
    return true;
  default: return true; /* request_id, priority: any value */
  }
}

static size_t field_index(const char *key) {
  size_t k = 0;
  while (k < N_FIELDS && strcmp(key, FIELDS[k].name) && strcmp(key, FIELDS[k].json))
    k++;
  return k;
}

static bool parse_object(request_file *f, yajl_val root, char *msg, size_t len) {
  if (!YAJL_IS_OBJECT(root))
    return fail(msg, len, "expected a JSON object (a SubmitProofRequest), got %s", type_name(root));
  bool seen[N_FIELDS] = {false}, set[N_FIELDS] = {false};
  for (size_t i = 0; i < root->u.object.len; i++) {
    const char *key = root->u.object.keys[i];
    size_t k = field_index(key);
    if (k == N_FIELDS)
      return fail(msg, len,
                  "%s: not a field of a PoSt or SnapDeals request (proof_kind, registered_proof, "
                  "sector_size, miner_id, randomness, partition_index, sector_number, comm_r_old, "
                  "comm_r_new, comm_d_new, vanilla_proofs)",
                  key);
    if (seen[k]) return fail(msg, len, "%s: given twice", FIELDS[k].name);
    seen[k] = true;
    bool is_default;
    if (!get_field(f, k, root->u.object.values[i], &is_default, msg, len)) return false;
    set[k] = !is_default;
  }
  if (!seen[F_KIND] || !set[F_KIND]) return fail(msg, len, "proof_kind: missing");
  unsigned kind = f->kind->fields | K_EVERY;
  for (size_t k = 0; k < N_FIELDS; k++) {
    if (FIELDS[k].kinds & K_ANY) continue;
    if ((FIELDS[k].kinds & kind) && !seen[k]) return fail(msg, len, "%s: missing", FIELDS[k].name);
    if (!(FIELDS[k].kinds & kind) && set[k])
      return fail(msg, len, "%s: set, but it is not a %s field (only its default is accepted)",
                  FIELDS[k].name, f->kind->title);
  }
  return true;
}

bool request_file_parse(request_file *f, const uint8_t *json, size_t len, char *msg,
                        size_t msg_len) {
  memset(f, 0, sizeof *f);
  if (sodium_init() < 0) return fail(msg, msg_len, "sodium_init failed");
  const uint8_t *nul = memchr(json, 0, len);
  if (nul) return fail(msg, msg_len, "not JSON: a NUL byte at byte %zu", (size_t)(nul - json));
  char *text = malloc(len + 1);
  if (!text) return fail(msg, msg_len, "out of memory");
  memcpy(text, json, len);
  text[len] = 0;
  char err[256] = "";
  yajl_val root = yajl_tree_parse(text, err, sizeof err);
  free(text);
  if (!root) {
    char *o = err; /* yajl's message spans lines and pads its context: one line */
    for (const char *c = err; *c; c++)
      if (!(*c == ' ' || *c == '\n') || (o > err && o[-1] != ' ')) *o++ = *c == '\n' ? ' ' : *c;
    *(o > err && o[-1] == ' ' ? o - 1 : o) = 0;
    return fail(msg, msg_len, "not JSON: %s", err);
  }
  bool ok = parse_object(f, root, msg, msg_len);
  yajl_tree_free(root);
  if (!ok) request_file_free(f);
  return ok;
}

void request_file_free(request_file *f) {
  if (!f) return;
  for (size_t i = 0; i < f->n_vanilla; i++)
    free(f->vanilla[i]);
  free(f->vanilla);
  free(f->vanilla_len);
  free(f->randomness);
  for (int c = 0; c < 3; c++)
    free(f->comm[c]);
  memset(f, 0, sizeof *f);
}

static bool put_b64(FILE *out, const uint8_t *b, size_t n) {
  size_t cap = sodium_base64_encoded_len(n, sodium_base64_VARIANT_ORIGINAL);
  char *s = malloc(cap);
  if (!s) return false;
  sodium_bin2base64(s, cap, b, n, sodium_base64_VARIANT_ORIGINAL);
  fprintf(out, "\"%s\"", s);
  free(s);
  return true;
}

bool request_file_write(const char *path, const request_file *f) {
  if (sodium_init() < 0) return false;
  FILE *out = fopen(path, "w");
  if (!out) return false;
  fprintf(out,
          "{\n  \"proof_kind\": \"%s\",\n  \"registered_proof\": %llu,\n  \"sector_size\": %llu,\n"
          "  \"miner_id\": %llu,\n",
          f->kind->proto, (unsigned long long)f->registered_proof,
          (unsigned long long)f->sector_size, (unsigned long long)f->miner_id);
  bool ok = true;
  unsigned fields = f->kind->fields;
  if (fields & CUZK_KIND_F_SECTOR_NUMBER)
    fprintf(out, "  \"sector_number\": %llu,\n", (unsigned long long)f->sector_number);
  for (int c = 0; c < 3 && ok && (fields & CUZK_KIND_F_COMMS); c++) {
    fprintf(out, "  \"%s\": ", FIELDS[F_COMM_R_OLD + c].name);
    ok = put_b64(out, f->comm[c], f->comm_len[c]);
    fputs(",\n", out);
  }
  if (ok && (fields & CUZK_KIND_F_RANDOMNESS)) {
    fputs("  \"randomness\": ", out);
    ok = put_b64(out, f->randomness, f->randomness_len);
    fputs(",\n", out);
  }
  if (fields & CUZK_KIND_F_PARTITION_INDEX)
    fprintf(out, "  \"partition_index\": %u,\n", f->partition_index);
  fputs("  \"vanilla_proofs\": [", out);
  for (size_t i = 0; ok && i < f->n_vanilla; i++) {
    fputs(i ? ",\n    " : "\n    ", out);
    ok = put_b64(out, f->vanilla[i], f->vanilla_len[i]);
  }
  fputs(f->n_vanilla ? "\n  ]\n}\n" : "]\n}\n", out);
  ok &= !ferror(out);
  return fclose(out) == 0 && ok;
}

/* ---- checked requests ------------------------------------------------------------------------ */
bool bench_request_check(bench_request *rq, const request_file *f, char *msg, size_t msg_len) {
  memset(rq, 0, sizeof *rq);
  rq->kind = f->kind;
  cuzk_kind_request r = {
      .allow_synthetic = true, /* a benchmark tool: synthetic inputs are what it proves at size */
      .registered_proof = f->registered_proof,
      .sector_size = f->sector_size,
      .miner_id = f->miner_id,
      .sector_number = f->sector_number,
      .partition_index = f->partition_index,
      .vanilla_proofs = (const uint8_t *const *)f->vanilla,
      .vanilla_proofs_len = f->vanilla_len,
      .n_vanilla_proofs = f->n_vanilla,
      .randomness = f->randomness,
      .randomness_len = f->randomness_len,
      .comm = {f->comm[0], f->comm[1], f->comm[2]},
      .comm_len = {f->comm_len[0], f->comm_len[1], f->comm_len[2]},
  };
  return f->kind->prepare(&rq->p, &r, msg, msg_len) == CUZK_KINDS_OK;
}

void bench_request_free(bench_request *rq) {
  if (rq) cuzk_kind_prepared_free(rq->kind, &rq->p);
}

bool bench_request_load(bench_request *rq, request_file *f, const char *path, char *msg,
                        size_t msg_len) {
  uint8_t *data;
  size_t len;
  if (!cli_read_file(path, &data, &len))
    return fail(msg, msg_len, "%s: cannot read: %s", path, strerror(errno));
  request_file tmp;
  char sub[1024];
  bool ok = request_file_parse(&tmp, data, len, sub, sizeof sub);
  free(data);
  if (ok && !bench_request_check(rq, &tmp, sub, sizeof sub)) {
    request_file_free(&tmp);
    ok = false;
  }
  if (!ok) return fail(msg, msg_len, "%s: %s", path, sub);
  if (f)
    *f = tmp;
  else
    request_file_free(&tmp);
  return true;
}

bool bench_request_synth(cuzk_cs *cs, const void *ctx, unsigned k, bool blank, char *msg,
                         size_t len) {
  const bench_request *rq = ctx;
  return blank ? rq->p.circuit->blank(rq->p.circuit->arg, cs, msg, len)
               : rq->kind->synthesize(rq->p.work, cs, k, msg, len);
}
