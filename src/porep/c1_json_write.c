/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* C1 JSON writer: walks the schema (c1_json_schema.c) with yajl_gen, compact output as
 * serde_json::to_vec writes it (docs/spec/sdr-vanilla.md §9.4). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_gen.h>

#include "porep/c1_json.h"

typedef struct {
  uint8_t *buf;
  size_t len, cap;
  int oom;
} outbuf;

static void out_print(void *ctx, const char *s, size_t n) {
  outbuf *o = ctx;
  if (o->oom) return;
  if (o->cap - o->len < n) {
    size_t cap = o->cap ? o->cap : 4096;
    while (cap - o->len < n) {
      if (cap > SIZE_MAX / 2) {
        o->oom = 1;
        return;
      }
      cap *= 2;
    }
    uint8_t *b = realloc(o->buf, cap);
    if (!b) {
      o->oom = 1;
      return;
    }
    o->buf = b;
    o->cap = cap;
  }
  memcpy(o->buf + o->len, s, n);
  o->len += n;
}

/* Decimal text of a byte (the 32-byte arrays are most of the output). */
static size_t byte_str(char s[4], unsigned v) {
  size_t n = 0;
  if (v >= 100) s[n++] = (char)('0' + v / 100);
  if (v >= 10) s[n++] = (char)('0' + v / 10 % 10);
  s[n++] = (char)('0' + v % 10);
  return n;
}

static int gen_key(yajl_gen g, const char *k) {
  return yajl_gen_string(g, (const unsigned char *)k, strlen(k)) != yajl_gen_status_ok;
}

static int gen_u64(yajl_gen g, uint64_t v) {
  char s[24];
  int n = snprintf(s, sizeof s, "%" PRIu64, v);
  return yajl_gen_number(g, s, (size_t)n) != yajl_gen_status_ok;
}

static int gen_value(yajl_gen g, const c1_type *t, const uint8_t *dest);

static int gen_struct(yajl_gen g, const c1_type *t, const uint8_t *dest) {
  if (yajl_gen_map_open(g) != yajl_gen_status_ok) return 1;
  for (uint32_t i = 0; i < t->nfields; i++) {
    const c1_field *f = &t->fields[i];
    uint32_t u;
    if ((t->optional >> i & 1) && f->type->kind == C1T_U32 &&
        (memcpy(&u, dest + f->off, sizeof u), u == 0))
      continue; /* an optional flag that is not set is not written */
    if (gen_key(g, f->name) || gen_value(g, f->type, dest + f->off)) return 1;
  }
  return yajl_gen_map_close(g) != yajl_gen_status_ok;
}

static int gen_value(yajl_gen g, const c1_type *t, const uint8_t *dest) {
  switch (t->kind) {
  case C1T_B32:
    if (yajl_gen_array_open(g) != yajl_gen_status_ok) return 1;
    for (int i = 0; i < 32; i++) {
      char s[4];
      if (yajl_gen_number(g, s, byte_str(s, dest[i])) != yajl_gen_status_ok) return 1;
    }
    return yajl_gen_array_close(g) != yajl_gen_status_ok;
  case C1T_U32: {
    uint32_t v;
    memcpy(&v, dest, sizeof v);
    return gen_u64(g, v);
  }
  case C1T_U64: {
    uint64_t v;
    memcpy(&v, dest, sizeof v);
    return gen_u64(g, v);
  }
  case C1T_NULL: return yajl_gen_null(g) != yajl_gen_status_ok;
  case C1T_PROOF_NAME: {
    uint32_t id;
    memcpy(&id, dest, sizeof id);
    const cuzk_c1_proof_info *pi = cuzk_c1_proof_info_get(id);
    return !pi || gen_key(g, pi->name);
  }
  case C1T_STRUCT: return gen_struct(g, t, dest);
  case C1T_VEC: {
    c1_anyvec v;
    memcpy(&v, dest, sizeof v);
    if (v.n && !v.v) return 1;
    if (yajl_gen_array_open(g) != yajl_gen_status_ok) return 1;
    for (size_t i = 0; i < v.n; i++)
      if (gen_value(g, t->elem, (const uint8_t *)v.v + i * t->elem_size)) return 1;
    return yajl_gen_array_close(g) != yajl_gen_status_ok;
  }
  case C1T_TAGGED: {
    uint32_t tag;
    memcpy(&tag, dest + t->tag_off, sizeof tag);
    for (uint32_t i = 0; i < t->nvariants; i++) {
      if (t->variants[i].value != tag) continue;
      if (yajl_gen_map_open(g) != yajl_gen_status_ok || gen_key(g, t->variants[i].name) ||
          gen_value(g, t->bodies[i], dest + t->body_off))
        return 1;
      return yajl_gen_map_close(g) != yajl_gen_status_ok;
    }
    return 1;
  }
  }
  return 1;
}

cuzk_porep_err cuzk_c1_write_json(const cuzk_c1 *c1, uint8_t **out, size_t *out_len, char *msg,
                                  size_t msg_len) {
  if (!c1 || !out || !out_len)
    return cuzk_porep_fail(msg, msg_len, CUZK_POREP_EINVAL, "NULL argument");
  *out = NULL;
  *out_len = 0;
  if (!cuzk_c1_proof_info_get(c1->registered_proof))
    return cuzk_porep_fail(msg, msg_len, CUZK_POREP_EINVAL, "registered_proof: unknown id %u",
                           c1->registered_proof);
  if (!cuzk_c1_variant_name(c1->vanilla_variant))
    return cuzk_porep_fail(msg, msg_len, CUZK_POREP_EINVAL, "vanilla_proofs: unknown variant %u",
                           c1->vanilla_variant);
  outbuf o = {0};
  yajl_gen g = yajl_gen_alloc(NULL);
  if (!g) return cuzk_porep_fail(msg, msg_len, CUZK_POREP_ENOMEM, "out of memory");
  yajl_gen_config(g, yajl_gen_beautify, 0);
  yajl_gen_config(g, yajl_gen_print_callback, out_print, &o);
  int bad = gen_value(g, &c1_json_root, (const uint8_t *)c1);
  yajl_gen_free(g);
  if (bad || o.oom) {
    free(o.buf);
    if (o.oom) return cuzk_porep_fail(msg, msg_len, CUZK_POREP_ENOMEM, "out of memory");
    return cuzk_porep_fail(msg, msg_len, CUZK_POREP_EINVAL,
                           "C1 not writable (unknown Merkle variant or NULL vector)");
  }
  *out = o.buf;
  *out_len = o.len;
  return CUZK_POREP_OK;
}
