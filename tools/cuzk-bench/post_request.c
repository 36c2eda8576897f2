/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* cuzk-bench: PoSt request files (post_request.h): a strict proto3-JSON reader over yajl_tree,
 * the writer, and the checks cuzk makes before proving. */
#include "post_request.h"

#include <errno.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_tree.h>

#include "cli.h"
#include "cuzk/errmsg.h"

/* The SubmitProofRequest fields by proto name and proto3 JSON name (readers accept both): the
 * seven of a PoSt request, then two that mean nothing to the proof (any value), then the other
 * kinds' fields, accepted only with their default value (a writer may emit defaults). */
enum {
  F_KIND,
  F_PROOF,
  F_SIZE,
  F_MINER,
  F_RAND,
  F_PART,
  F_VANILLA,
  F_COUNT,
  R_ANY,
  R_ZERO,
  R_EMPTY
};
static const struct {
  const char *name, *json;
  int role;
} FIELDS[] = {
    {"proof_kind", "proofKind", F_KIND},
    {"registered_proof", "registeredProof", F_PROOF},
    {"sector_size", "sectorSize", F_SIZE},
    {"miner_id", "minerId", F_MINER},
    {"randomness", "randomness", F_RAND},
    {"partition_index", "partitionIndex", F_PART},
    {"vanilla_proofs", "vanillaProofs", F_VANILLA},
    {"request_id", "requestId", R_ANY},
    {"priority", "priority", R_ANY},
    {"sector_number", "sectorNumber", R_ZERO},
    {"vanilla_proof", "vanillaProof", R_EMPTY},
    {"comm_r_old", "commROld", R_EMPTY},
    {"comm_r_new", "commRNew", R_EMPTY},
    {"comm_d_new", "commDNew", R_EMPTY},
};
#define N_FIELDS (sizeof FIELDS / sizeof FIELDS[0])

const char *post_kind_name(unsigned proof_kind) {
  return proof_kind == POST_KIND_WINNING  ? "WINNING_POST"
         : proof_kind == POST_KIND_WINDOW ? "WINDOW_POST_PARTITION"
                                          : "?";
}

unsigned post_kind_of(cuzk_post_type t) {
  return t == CUZK_POST_WINNING ? POST_KIND_WINNING : POST_KIND_WINDOW;
}

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

/* The enum by name or number; only the two PoSt kinds. */
static bool get_kind(unsigned *k, yajl_val v, char *msg, size_t len) {
  const char *s = YAJL_GET_STRING(v);
  if (s && !strcmp(s, "WINNING_POST")) {
    *k = POST_KIND_WINNING;
  } else if (s && !strcmp(s, "WINDOW_POST_PARTITION")) {
    *k = POST_KIND_WINDOW;
  } else if (YAJL_IS_NUMBER(v) &&
             (!strcmp(YAJL_GET_NUMBER(v), "3") || !strcmp(YAJL_GET_NUMBER(v), "4"))) {
    *k = YAJL_GET_NUMBER(v)[0] == '3' ? POST_KIND_WINDOW : POST_KIND_WINNING;
  } else {
    return fail(msg, len,
                "proof_kind: unknown value %s%s%s (WINNING_POST or WINDOW_POST_PARTITION)",
                s ? "'" : "",
                s                   ? s
                : YAJL_IS_NUMBER(v) ? YAJL_GET_NUMBER(v)
                                    : type_name(v),
                s ? "'" : "");
  }
  return true;
}

static bool get_vanilla(post_request_file *f, yajl_val v, char *msg, size_t len) {
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

/* Another kind's field: only its default value (0, or empty bytes). */
static bool get_default(int role, yajl_val v, const char *field, char *msg, size_t len) {
  uint64_t x;
  uint8_t *b;
  size_t n;
  if (YAJL_IS_NULL(v)) return true;
  if (role == R_ZERO ? !get_uint(&x, v, UINT64_MAX, field, msg, len)
                     : !get_b64(&b, &n, v, field, msg, len))
    return false;
  if (role == R_EMPTY) free(b);
  if (role == R_ZERO ? x != 0 : n != 0)
    return fail(msg, len, "%s: set, but it is not a PoSt field (only its default is accepted)",
                field);
  return true;
}

static bool get_field(post_request_file *f, size_t k, yajl_val v, char *msg, size_t len) {
  uint64_t x;
  const char *name = FIELDS[k].name;
  switch (FIELDS[k].role) {
  case F_KIND: return get_kind(&f->proof_kind, v, msg, len);
  case F_PROOF: return get_uint(&f->registered_proof, v, UINT64_MAX, name, msg, len);
  case F_SIZE: return get_uint(&f->sector_size, v, UINT64_MAX, name, msg, len);
  case F_MINER: return get_uint(&f->miner_id, v, UINT64_MAX, name, msg, len);
  case F_RAND: return get_b64(&f->randomness, &f->randomness_len, v, name, msg, len);
  case F_PART:
    if (!get_uint(&x, v, UINT32_MAX, name, msg, len)) return false;
    f->partition_index = (uint32_t)x;
    return true;
  case F_VANILLA: return get_vanilla(f, v, msg, len);
  case R_ANY: return true;
  default: return get_default(FIELDS[k].role, v, name, msg, len);
  }
}

static size_t field_index(const char *key) {
  size_t k = 0;
  while (k < N_FIELDS && strcmp(key, FIELDS[k].name) && strcmp(key, FIELDS[k].json))
    k++;
  return k;
}

static bool parse_object(post_request_file *f, yajl_val root, char *msg, size_t len) {
  if (!YAJL_IS_OBJECT(root))
    return fail(msg, len, "expected a JSON object (a SubmitProofRequest), got %s", type_name(root));
  bool seen[N_FIELDS] = {false};
  for (size_t i = 0; i < root->u.object.len; i++) {
    const char *key = root->u.object.keys[i];
    size_t k = field_index(key);
    if (k == N_FIELDS)
      return fail(msg, len, "%s: not a field of a PoSt request (%s, %s, %s, %s, %s, %s, %s)", key,
                  FIELDS[0].name, FIELDS[1].name, FIELDS[2].name, FIELDS[3].name, FIELDS[4].name,
                  FIELDS[5].name, FIELDS[6].name);
    if (seen[k]) return fail(msg, len, "%s: given twice", FIELDS[k].name);
    seen[k] = true;
    if (!get_field(f, k, root->u.object.values[i], msg, len)) return false;
  }
  for (size_t k = 0; k < F_COUNT; k++)
    if (!seen[k]) return fail(msg, len, "%s: missing", FIELDS[k].name);
  return true;
}

bool post_request_parse(post_request_file *f, const uint8_t *json, size_t len, char *msg,
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
  if (!ok) post_request_file_free(f);
  return ok;
}

void post_request_file_free(post_request_file *f) {
  if (!f) return;
  for (size_t i = 0; i < f->n_vanilla; i++)
    free(f->vanilla[i]);
  free(f->vanilla);
  free(f->vanilla_len);
  free(f->randomness);
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

bool post_request_write(const char *path, const post_request_file *f) {
  if (sodium_init() < 0) return false;
  FILE *out = fopen(path, "w");
  if (!out) return false;
  fprintf(out,
          "{\n  \"proof_kind\": \"%s\",\n  \"registered_proof\": %llu,\n  \"sector_size\": %llu,\n"
          "  \"miner_id\": %llu,\n  \"randomness\": ",
          post_kind_name(f->proof_kind), (unsigned long long)f->registered_proof,
          (unsigned long long)f->sector_size, (unsigned long long)f->miner_id);
  bool ok = put_b64(out, f->randomness, f->randomness_len);
  fprintf(out, ",\n  \"partition_index\": %u,\n  \"vanilla_proofs\": [", f->partition_index);
  for (size_t i = 0; ok && i < f->n_vanilla; i++) {
    fputs(i ? ",\n    " : "\n    ", out);
    ok = put_b64(out, f->vanilla[i], f->vanilla_len[i]);
  }
  fputs(f->n_vanilla ? "\n  ]\n}\n" : "]\n}\n", out);
  ok &= !ferror(out);
  return fclose(out) == 0 && ok;
}

static const char *type_label(cuzk_post_type t) {
  return t == CUZK_POST_WINNING ? "WinningPoSt" : "WindowPoSt";
}

bool post_request_check(cuzk_post_request *rq, const post_request_file *f, char *msg,
                        size_t msg_len) {
  const cuzk_post_proof *p;
  if (cuzk_post_proof_by_id(&p, f->registered_proof))
    return fail(msg, msg_len, "registered_proof: %llu is not a registered PoSt proof (0-%d)",
                (unsigned long long)f->registered_proof, CUZK_POST_NUM_PROOFS - 1);
  if (post_kind_of(p->type) != f->proof_kind)
    return fail(msg, msg_len, "registered_proof: %u (%s) is a %s proof, but proof_kind is %s",
                p->id, p->name, type_label(p->type), post_kind_name(f->proof_kind));
  if (f->sector_size != p->sector->bytes)
    return fail(msg, msg_len, "sector_size: %llu, but %s proves %s sectors (%llu bytes)",
                (unsigned long long)f->sector_size, p->name, p->sector->name,
                (unsigned long long)p->sector->bytes);
  if (f->randomness_len != 32)
    return fail(msg, msg_len, "randomness: %zu bytes, expected 32", f->randomness_len);
  return cuzk_post_request_init(rq, p, f->randomness, f->partition_index,
                                (const uint8_t *const *)f->vanilla, f->vanilla_len, f->n_vanilla,
                                msg, msg_len) == CUZK_POST_OK;
}

bool post_request_load(cuzk_post_request *rq, post_request_file *f, const char *path, char *msg,
                       size_t msg_len) {
  uint8_t *data;
  size_t len;
  if (!cli_read_file(path, &data, &len))
    return fail(msg, msg_len, "%s: cannot read: %s", path, strerror(errno));
  post_request_file tmp;
  char sub[1024];
  bool ok = post_request_parse(&tmp, data, len, sub, sizeof sub);
  free(data);
  if (ok && !post_request_check(rq, &tmp, sub, sizeof sub)) {
    post_request_file_free(&tmp);
    ok = false;
  }
  if (!ok) return fail(msg, msg_len, "%s: %s", path, sub);
  if (f)
    *f = tmp;
  else
    post_request_file_free(&tmp);
  return true;
}
