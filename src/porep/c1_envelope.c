/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#define _GNU_SOURCE /* memmem, strnlen */
/* The Curio envelope {"SectorNum":<int64>,"Phase1Out":"<base64 C1 JSON>","SectorSize":<u64>}
 * (docs/spec/sdr-vanilla.md §9.6) and the one entry point that reads either it or a raw C1 JSON
 * document. */
#include <inttypes.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_gen.h>
#include <yajl/yajl_parse.h>

#include "porep/c1.h"

static int sodium_ready(void) { return sodium_init() >= 0; }

cuzk_porep_err cuzk_c1_envelope_write(const uint8_t *c1_json, size_t c1_len, int64_t sector_num,
                                      uint64_t sector_size, uint8_t **out, size_t *out_len,
                                      char *msg, size_t msg_len) {
  if (!out || !out_len || (!c1_json && c1_len))
    return cuzk_porep_fail(msg, msg_len, CUZK_POREP_EINVAL, "NULL argument");
  *out = NULL;
  *out_len = 0;
  if (!sodium_ready())
    return cuzk_porep_fail(msg, msg_len, CUZK_POREP_ECRYPTO, "sodium_init failed");
  if (c1_len > (SIZE_MAX - 128) / 4 * 3 - 3)
    return cuzk_porep_fail(msg, msg_len, CUZK_POREP_EINVAL, "Phase1Out: payload too large");
  size_t b64_cap = sodium_base64_encoded_len(c1_len, sodium_base64_VARIANT_ORIGINAL);
  char head[64], tail[64];
  int hn = snprintf(head, sizeof head, "{\"SectorNum\":%" PRId64 ",\"Phase1Out\":\"", sector_num);
  int tn = snprintf(tail, sizeof tail, "\",\"SectorSize\":%" PRIu64 "}", sector_size);
  uint8_t *buf = malloc((size_t)hn + b64_cap + (size_t)tn);
  if (!buf) return cuzk_porep_fail(msg, msg_len, CUZK_POREP_ENOMEM, "out of memory");
  memcpy(buf, head, (size_t)hn);
  sodium_bin2base64((char *)buf + hn, b64_cap, c1_json ? c1_json : (const uint8_t *)"", c1_len,
                    sodium_base64_VARIANT_ORIGINAL);
  size_t b64_len = strlen((char *)buf + hn); /* b64_cap counts the terminating NUL */
  memcpy(buf + hn + b64_len, tail, (size_t)tn);
  *out = buf;
  *out_len = (size_t)hn + b64_len + (size_t)tn;
  return CUZK_POREP_OK;
}

/* ---- envelope reader: a flat object of three keys, other keys skipped ---- */

enum { K_NONE = -1, K_NUM = 0, K_OUT = 1, K_SIZE = 2 };
static const char *const KEYS[3] = {"SectorNum", "Phase1Out", "SectorSize"};

typedef struct {
  int depth;   /* 1 = inside the envelope object */
  int pending; /* K_* of the key whose value comes next (depth 1) */
  int seen;
  int64_t sector_num;
  uint64_t sector_size;
  uint8_t *bin;
  size_t bin_len;
  cuzk_porep_err e;
  char *msg; /* the caller's message buffer (may be NULL) */
  size_t msg_len;
  yajl_handle h;
} env;

static int env_fail(env *v, cuzk_porep_err e, const char *key, const char *what) {
  if (!v->e)
    v->e = cuzk_porep_fail(v->msg, v->msg_len, e, "%s: %s (at byte %zu)", key, what,
                           v->h ? yajl_get_bytes_consumed(v->h) : (size_t)0);
  return 0;
}

/* A value at depth 1 for a known key must be a scalar of the right type. */
static int env_wrong(env *v, const char *got) {
  static const char *const WANT[3] = {"an integer", "a base64 string", "an unsigned integer"};
  char what[80];
  snprintf(what, sizeof what, "expected %s, got %s", WANT[v->pending], got);
  return env_fail(v, CUZK_POREP_EFORMAT, KEYS[v->pending], what);
}

static int env_start(void *ctx, int is_map) {
  env *v = ctx;
  if (v->depth == 0 && !is_map)
    return env_fail(v, CUZK_POREP_EFORMAT, "(root)", "expected an object, got an array");
  if (v->depth == 1 && v->pending != K_NONE) return env_wrong(v, is_map ? "an object" : "an array");
  v->depth++;
  return 1;
}
static int env_start_map(void *ctx) { return env_start(ctx, 1); }
static int env_start_array(void *ctx) { return env_start(ctx, 0); }

static int env_end(void *ctx) {
  env *v = ctx;
  v->depth--;
  if (v->depth == 0) {
    for (int k = 0; k < 3; k++)
      if (!(v->seen & (1 << k))) {
        char what[64];
        snprintf(what, sizeof what, "missing field `%s`", KEYS[k]);
        return env_fail(v, CUZK_POREP_EFORMAT, "(root)", what);
      }
  }
  return 1;
}

static int env_key(void *ctx, const unsigned char *k, size_t n) {
  env *v = ctx;
  if (v->depth != 1) return 1;
  v->pending = K_NONE;
  for (int i = 0; i < 3; i++)
    if (strlen(KEYS[i]) == n && memcmp(KEYS[i], k, n) == 0) {
      if (v->seen & (1 << i)) return env_fail(v, CUZK_POREP_EFORMAT, KEYS[i], "duplicate field");
      v->seen |= 1 << i;
      v->pending = i;
    }
  return 1;
}

static int env_scalar_ok(env *v) { return v->depth == 1 && v->pending != K_NONE; }

static int env_number(void *ctx, const char *s, size_t n) {
  env *v = ctx;
  if (v->depth == 0) return env_fail(v, CUZK_POREP_EFORMAT, "(root)", "expected an object");
  if (!env_scalar_ok(v)) return 1;
  if (v->pending == K_OUT) return env_wrong(v, "a number");
  int neg = n > 0 && s[0] == '-';
  uint64_t x = 0;
  int ok = n > (size_t)neg;
  for (size_t i = (size_t)neg; i < n && ok; i++) {
    unsigned d = (unsigned char)s[i] - '0';
    if (d > 9 || x > (UINT64_MAX - d) / 10)
      ok = 0;
    else
      x = x * 10 + d;
  }
  if (v->pending == K_NUM) {
    if (!ok || (!neg && x > (uint64_t)INT64_MAX) || (neg && x > (uint64_t)INT64_MAX + 1))
      return env_wrong(v, "a number outside int64 or not an integer");
    v->sector_num = neg ? (int64_t)(0 - x) : (int64_t)x;
  } else {
    if (!ok || neg) return env_wrong(v, "a number outside uint64 or not an integer");
    v->sector_size = x;
  }
  v->pending = K_NONE;
  return 1;
}

static int env_string(void *ctx, const unsigned char *s, size_t n) {
  env *v = ctx;
  if (v->depth == 0) return env_fail(v, CUZK_POREP_EFORMAT, "(root)", "expected an object");
  if (!env_scalar_ok(v)) return 1;
  if (v->pending != K_OUT) return env_wrong(v, "a string");
  size_t cap = n / 4 * 3 + 3;
  v->bin = malloc(cap ? cap : 1);
  if (!v->bin) return env_fail(v, CUZK_POREP_ENOMEM, "Phase1Out", "out of memory");
  const char *end = NULL;
  if (sodium_base642bin(v->bin, cap, (const char *)s, n, NULL, &v->bin_len, &end,
                        sodium_base64_VARIANT_ORIGINAL) != 0 ||
      end != (const char *)s + n) {
    char what[80];
    snprintf(what, sizeof what, "invalid standard base64 near character %zu",
             end ? (size_t)(end - (const char *)s) : (size_t)0);
    return env_fail(v, CUZK_POREP_EFORMAT, "Phase1Out", what);
  }
  v->pending = K_NONE;
  return 1;
}

static int env_other(env *v, const char *got) {
  if (v->depth == 0) return env_fail(v, CUZK_POREP_EFORMAT, "(root)", "expected an object");
  if (!env_scalar_ok(v)) return 1;
  return env_wrong(v, got);
}
static int env_null(void *ctx) { return env_other(ctx, "null"); }
static int env_bool(void *ctx, int b) {
  (void)b;
  return env_other(ctx, "a boolean");
}

static const yajl_callbacks ENV_CALLBACKS = {
    .yajl_null = env_null,
    .yajl_boolean = env_bool,
    .yajl_number = env_number,
    .yajl_string = env_string,
    .yajl_start_map = env_start_map,
    .yajl_map_key = env_key,
    .yajl_end_map = env_end,
    .yajl_start_array = env_start_array,
    .yajl_end_array = env_end,
};

cuzk_porep_err cuzk_c1_envelope_read(const uint8_t *data, size_t len, int64_t *sector_num,
                                     uint64_t *sector_size, uint8_t **c1_json, size_t *c1_len,
                                     char *msg, size_t msg_len) {
  if (!c1_json || !c1_len || (!data && len))
    return cuzk_porep_fail(msg, msg_len, CUZK_POREP_EINVAL, "NULL argument");
  *c1_json = NULL;
  *c1_len = 0;
  if (!sodium_ready())
    return cuzk_porep_fail(msg, msg_len, CUZK_POREP_ECRYPTO, "sodium_init failed");
  env v = {.pending = K_NONE, .msg = msg, .msg_len = msg_len};
  v.h = yajl_alloc(&ENV_CALLBACKS, NULL, &v);
  if (!v.h) return cuzk_porep_fail(msg, msg_len, CUZK_POREP_ENOMEM, "out of memory");
  yajl_status st = yajl_parse(v.h, data ? data : (const uint8_t *)"", len);
  int at_end = st == yajl_status_ok;
  if (at_end) st = yajl_complete_parse(v.h);
  if (st == yajl_status_error && !v.e) {
    unsigned char *m = yajl_get_error(v.h, 0, data, len);
    char what[160];
    snprintf(what, sizeof what, "%s", m ? (const char *)m : "parse error");
    if (m) yajl_free_error(v.h, m);
    what[strcspn(what, "\r\n")] = 0;
    v.e = cuzk_porep_fail(msg, msg_len, CUZK_POREP_EFORMAT, "(envelope): JSON %s (at byte %zu)",
                          what, yajl_get_bytes_consumed(v.h));
  } else if (st == yajl_status_client_canceled && !v.e) {
    v.e = cuzk_porep_fail(msg, msg_len, CUZK_POREP_EFORMAT, "(envelope): rejected");
  }
  yajl_free(v.h);
  if (v.e) {
    free(v.bin);
    return v.e;
  }
  if (sector_num) *sector_num = v.sector_num;
  if (sector_size) *sector_size = v.sector_size;
  *c1_json = v.bin;
  *c1_len = v.bin_len;
  return CUZK_POREP_OK;
}

/* ---- one entry point ---- */

static size_t skip_ws(const uint8_t *d, size_t len, size_t i) {
  while (i < len && (d[i] == ' ' || d[i] == '\t' || d[i] == '\n' || d[i] == '\r'))
    i++;
  return i;
}

/* 1 if the document is an envelope: its first key is an envelope key, or (first key unknown)
 * the text "Phase1Out" appears as a key anywhere. */
static int looks_like_envelope(const uint8_t *d, size_t len) {
  size_t i = skip_ws(d, len, 0);
  if (i >= len || d[i] != '{') return 0;
  i = skip_ws(d, len, i + 1);
  if (i >= len || d[i] != '"') return 0;
  size_t s = ++i;
  while (i < len && d[i] != '"' && d[i] != '\\')
    i++;
  size_t n = i - s;
  for (int k = 0; k < 3; k++)
    if (strlen(KEYS[k]) == n && memcmp(d + s, KEYS[k], n) == 0) return 1;
  static const char *const C1_KEYS[] = {"registered_proof", "vanilla_proofs", "comm_r", "comm_d",
                                        "replica_id",       "seed",           "ticket"};
  for (size_t k = 0; k < sizeof C1_KEYS / sizeof C1_KEYS[0]; k++)
    if (strlen(C1_KEYS[k]) == n && memcmp(d + s, C1_KEYS[k], n) == 0) return 0;
  static const char NEEDLE[] = "\"Phase1Out\"";
  return len >= sizeof NEEDLE - 1 && memmem(d, len, NEEDLE, sizeof NEEDLE - 1) != NULL;
}

/* Prefixes msg with "Phase1Out: " (the end is cut where the buffer is full). */
static void prefix_msg(char *msg, size_t msg_len) {
  static const char P[] = "Phase1Out: ";
  size_t p = sizeof P - 1;
  if (!msg || msg_len <= p) return;
  size_t n = strnlen(msg, msg_len - 1);
  if (n + p >= msg_len) n = msg_len - 1 - p;
  memmove(msg + p, msg, n);
  memcpy(msg, P, p);
  msg[p + n] = 0;
}

cuzk_porep_err cuzk_c1_read(cuzk_c1 **out, const uint8_t *data, size_t len, unsigned flags,
                            cuzk_c1_read_info *info, char *msg, size_t msg_len) {
  if (!out || (!data && len))
    return cuzk_porep_fail(msg, msg_len, CUZK_POREP_EINVAL, "NULL argument");
  *out = NULL;
  if (info) memset(info, 0, sizeof *info);
  if (!data || !looks_like_envelope(data, len))
    return cuzk_c1_read_json(out, data, len, flags, msg, msg_len);
  int64_t num = 0;
  uint64_t size = 0;
  uint8_t *json = NULL;
  size_t json_len = 0;
  cuzk_porep_err e = cuzk_c1_envelope_read(data, len, &num, &size, &json, &json_len, msg, msg_len);
  if (e) return e;
  size_t i = skip_ws(json, json_len, 0);
  if (i >= json_len || json[i] != '{') {
    free(json);
    return cuzk_porep_fail(msg, msg_len, CUZK_POREP_EFORMAT,
                           "Phase1Out: decoded payload is not a JSON object (%zu bytes; bincode "
                           "C1 files are not supported)",
                           json_len);
  }
  cuzk_c1 *c1 = NULL;
  e = cuzk_c1_read_json(&c1, json, json_len, flags, msg, msg_len);
  free(json);
  if (e) {
    prefix_msg(msg, msg_len);
    return e;
  }
  const cuzk_c1_proof_info *pi = cuzk_c1_proof_info_get(c1->registered_proof);
  if (!(flags & CUZK_C1_READ_NO_SHAPE_CHECK) && pi->sector_size != size) {
    e = cuzk_porep_fail(msg, msg_len, CUZK_POREP_EINVAL,
                        "SectorSize: %" PRIu64 " does not match registered_proof %s (%" PRIu64 ")",
                        size, pi->name, pi->sector_size);
    cuzk_c1_free(c1);
    return e;
  }
  if (info) {
    info->source = CUZK_C1_SRC_ENVELOPE;
    info->sector_num = num;
    info->sector_size = size;
  }
  *out = c1;
  return CUZK_POREP_OK;
}
