/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* C1 JSON reader: yajl's streaming parser drives a stack of frames over the schema
 * (c1_json_schema.c) and stores values straight into the C structs; arrays grow in one scratch
 * buffer per nesting depth and are copied into the C1's arena when they close. No DOM. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "porep/c1_json.h"

#define MAX_DEPTH 24 /* the schema nests 16 deep; unknown keys are skipped without frames */

typedef struct {
  const c1_type *t;
  uint8_t *dest;
  const char *key; /* how it was reached: field/variant name, or NULL for an array index */
  size_t index;
  /* struct */
  uint32_t seen;
  const c1_field *pending; /* field whose value comes next */
  int pending_skip;        /* next value belongs to an unknown key */
  /* vec, b32 */
  size_t count;
  /* tagged: 0 want key, 1 want body, 2 body done */
  int stage;
  uint32_t variant;
} frame;

typedef struct {
  uint8_t *buf;
  size_t len, cap;
} scratch;

typedef struct {
  cuzk_c1 *c1;
  yajl_handle h;
  frame st[MAX_DEPTH];
  scratch sc[MAX_DEPTH];
  int top; /* index of the top frame, -1 = empty */
  int done;
  size_t skip; /* > 0: inside the value of an unknown key */
  cuzk_porep_err e;
  char *msg; /* the caller's message buffer (may be NULL) */
  size_t msg_len;
} reader;

/* The value about to be parsed. */
typedef struct {
  const c1_type *t; /* NULL: skip it */
  uint8_t *dest;
  const char *key;
  size_t index;
} slot;

/* ---- error messages with the JSON path ---- */

static size_t path_append(char *p, size_t n, size_t cap, const char *key, size_t index) {
  if (n >= cap) return n;
  int w;
  if (key)
    w = snprintf(p + n, cap - n, "%s%s", n ? "." : "", key);
  else
    w = snprintf(p + n, cap - n, "[%zu]", index);
  if (w < 0) return n;
  n += (size_t)w;
  return n < cap ? n : cap - 1;
}

/* Path of the frames (root excluded) plus an optional last component. */
static void build_path(const reader *r, char *p, size_t cap, const slot *last) {
  size_t n = 0;
  p[0] = 0;
  for (int i = 1; i <= r->top; i++)
    n = path_append(p, n, cap, r->st[i].key, r->st[i].index);
  if (last && (last->key || r->top >= 0)) n = path_append(p, n, cap, last->key, last->index);
  if (n == 0) snprintf(p, cap, "(root)");
}

static int failv(reader *r, cuzk_porep_err e, const slot *last, const char *fmt, va_list ap) {
  if (r->e) return 0;
  r->e = e;
  if (r->msg && r->msg_len) {
    char path[256], what[200];
    build_path(r, path, sizeof path, last);
    vsnprintf(what, sizeof what, fmt, ap);
    snprintf(r->msg, r->msg_len, "%s: %s (at byte %zu)", path, what,
             r->h ? yajl_get_bytes_consumed(r->h) : (size_t)0);
  }
  return 0; /* yajl: cancel */
}

__attribute__((format(printf, 4, 5))) static int fail(reader *r, cuzk_porep_err e, const slot *last,
                                                      const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  failv(r, e, last, fmt, ap);
  va_end(ap);
  return 0;
}

static const char *json_kind(int k) {
  static const char *const K[] = {"an object", "an array", "a string",
                                  "a number",  "null",     "a boolean"};
  return K[k];
}
enum { J_MAP, J_ARRAY, J_STRING, J_NUMBER, J_NULL, J_BOOL };

static int type_error(reader *r, const slot *s, int got) {
  return fail(r, CUZK_POREP_EFORMAT, s, "expected %s, got %s", s->t->what, json_kind(got));
}

/* ---- the stack ---- */

static int next_slot(reader *r, slot *s, int got) {
  memset(s, 0, sizeof *s);
  if (r->top < 0) {
    s->t = &c1_json_root;
    s->dest = (uint8_t *)r->c1;
    return 1;
  }
  frame *f = &r->st[r->top];
  switch (f->t->kind) {
  case C1T_STRUCT:
    if (f->pending_skip) return 1; /* s->t NULL */
    s->t = f->pending->type;
    s->dest = f->dest + f->pending->off;
    s->key = f->pending->name;
    return 1;
  case C1T_TAGGED:
    s->t = f->t->bodies[f->variant];
    s->dest = f->dest + f->t->body_off;
    s->key = f->t->variants[f->variant].name;
    return 1;
  case C1T_VEC: {
    scratch *sc = &r->sc[r->top];
    size_t es = f->t->elem_size;
    if (sc->cap - sc->len < es) {
      size_t cap = sc->cap ? sc->cap * 2 : 64 * es;
      uint8_t *b = realloc(sc->buf, cap);
      if (!b) return fail(r, CUZK_POREP_ENOMEM, NULL, "out of memory");
      sc->buf = b;
      sc->cap = cap;
    }
    s->dest = sc->buf + sc->len;
    memset(s->dest, 0, es);
    sc->len += es;
    s->t = f->t->elem;
    s->index = f->count++;
    return 1;
  }
  case C1T_B32: {
    /* only numbers belong here; anything else is reported as this element */
    slot e = {.t = f->t, .index = f->count};
    return fail(r, CUZK_POREP_EFORMAT, &e, "expected a number 0..255, got %s", json_kind(got));
  }
  default: return fail(r, CUZK_POREP_EFORMAT, NULL, "internal: scalar frame");
  }
}

/* The top frame's current value is complete. */
static void value_done(reader *r) {
  if (r->top < 0) {
    r->done = 1;
    return;
  }
  frame *f = &r->st[r->top];
  if (f->t->kind == C1T_STRUCT) {
    f->pending = NULL;
    f->pending_skip = 0;
  } else if (f->t->kind == C1T_TAGGED) {
    f->stage = 2;
  }
}

static int push(reader *r, const slot *s) {
  if (r->top + 1 >= MAX_DEPTH) return fail(r, CUZK_POREP_EFORMAT, s, "nested too deep");
  frame *f = &r->st[++r->top];
  memset(f, 0, sizeof *f);
  f->t = s->t;
  f->dest = s->dest;
  f->key = s->key;
  f->index = s->index;
  if (s->t->kind == C1T_VEC) r->sc[r->top].len = 0;
  return 1;
}

/* Values that open a container inside a skipped value only count depth. */
static int begin_container(reader *r, int got) {
  if (r->skip) {
    r->skip++;
    return 1;
  }
  slot s;
  if (!next_slot(r, &s, got)) return 0;
  if (!s.t) { /* unknown key: skip its whole value */
    r->skip = 1;
    return 1;
  }
  int want_map = s.t->kind == C1T_STRUCT || s.t->kind == C1T_TAGGED;
  int want_arr = s.t->kind == C1T_VEC || s.t->kind == C1T_B32;
  if ((got == J_MAP && !want_map) || (got == J_ARRAY && !want_arr)) return type_error(r, &s, got);
  return push(r, &s);
}

static int end_container(reader *r) {
  if (r->skip) {
    if (--r->skip == 0) value_done(r);
    return 1;
  }
  frame *f = &r->st[r->top];
  switch (f->t->kind) {
  case C1T_STRUCT:
    for (uint32_t i = 0; i < f->t->nfields; i++) {
      uint32_t bit = 1u << i;
      if (!(f->seen & bit) && !(f->t->optional & bit))
        return fail(r, CUZK_POREP_EFORMAT, NULL, "missing field `%s`", f->t->fields[i].name);
    }
    break;
  case C1T_TAGGED:
    if (f->stage == 0) return fail(r, CUZK_POREP_EFORMAT, NULL, "expected %s, got {}", f->t->what);
    break;
  case C1T_B32:
    if (f->count != 32)
      return fail(r, CUZK_POREP_EFORMAT, NULL, "expected an array of 32 numbers, got %zu",
                  f->count);
    break;
  case C1T_VEC: {
    scratch *sc = &r->sc[r->top];
    c1_anyvec v = {NULL, f->count};
    if (f->count) {
      v.v = cuzk_c1_alloc(r->c1, sc->len);
      if (!v.v) return fail(r, CUZK_POREP_ENOMEM, NULL, "out of memory");
      memcpy(v.v, sc->buf, sc->len);
    }
    memcpy(f->dest, &v, sizeof v);
    break;
  }
  default: break;
  }
  r->top--;
  value_done(r);
  return 1;
}

/* ---- yajl callbacks ---- */

static int on_start_map(void *ctx) { return begin_container(ctx, J_MAP); }
static int on_start_array(void *ctx) { return begin_container(ctx, J_ARRAY); }
static int on_end(void *ctx) { return end_container(ctx); }

static void printable(char *out, size_t cap, const unsigned char *s, size_t n) {
  size_t j = 0;
  for (size_t i = 0; i < n && j + 4 < cap; i++)
    out[j++] = s[i] >= 0x20 && s[i] < 0x7f ? (char)s[i] : '?';
  if (j + 4 >= cap) {
    memcpy(out + j, "...", 3);
    j += 3;
  }
  out[j] = 0;
}

static int on_map_key(void *ctx, const unsigned char *k, size_t n) {
  reader *r = ctx;
  if (r->skip) return 1;
  frame *f = &r->st[r->top];
  char name[64];
  if (f->t->kind == C1T_TAGGED) {
    printable(name, sizeof name, k, n);
    if (f->stage != 0) {
      slot s = {.key = name};
      return fail(r, CUZK_POREP_EFORMAT, &s,
                  "expected a single-key object (an externally tagged enum), got a second key");
    }
    for (uint32_t i = 0; i < f->t->nvariants; i++) {
      const char *v = f->t->variants[i].name;
      if (strlen(v) == n && memcmp(v, k, n) == 0) {
        f->variant = i;
        f->stage = 1;
        uint32_t tag = f->t->variants[i].value;
        memcpy(f->dest + f->t->tag_off, &tag, sizeof tag);
        return 1;
      }
    }
    return fail(r, CUZK_POREP_EFORMAT, NULL, "unknown variant `%s`, expected %s", name, f->t->what);
  }
  /* struct */
  for (uint32_t i = 0; i < f->t->nfields; i++) {
    const c1_field *fl = &f->t->fields[i];
    if (strlen(fl->name) == n && memcmp(fl->name, k, n) == 0) {
      if (f->seen & (1u << i)) {
        slot s = {.key = fl->name};
        return fail(r, CUZK_POREP_EFORMAT, &s, "duplicate field `%s`", fl->name);
      }
      f->seen |= 1u << i;
      f->pending = fl;
      f->pending_skip = 0;
      return 1;
    }
  }
  f->pending = NULL;
  f->pending_skip = 1; /* serde ignores unknown fields */
  return 1;
}

static int scalar_slot(reader *r, slot *s, int got) {
  if (!next_slot(r, s, got)) return 0;
  return 1;
}

static int on_number(void *ctx, const char *num, size_t n) {
  reader *r = ctx;
  if (r->skip) return 1;
  frame *top = r->top >= 0 ? &r->st[r->top] : NULL;
  uint64_t v = 0;
  int ok = 1;
  for (size_t i = 0; i < n; i++) {
    unsigned d = (unsigned char)num[i] - '0';
    if (d > 9 || v > (UINT64_MAX - d) / 10) {
      ok = 0;
      break;
    }
    v = v * 10 + d;
  }
  char shown[48];
  printable(shown, sizeof shown, (const unsigned char *)num, n);
  if (top && top->t->kind == C1T_B32) {
    slot e = {.t = top->t, .index = top->count};
    if (top->count >= 32)
      return fail(r, CUZK_POREP_EFORMAT, NULL, "expected an array of 32 numbers, got more");
    if (!ok || v > 255)
      return fail(r, CUZK_POREP_EFORMAT, &e, "expected a number 0..255, got %s", shown);
    top->dest[top->count++] = (uint8_t)v;
    return 1;
  }
  slot s;
  if (!scalar_slot(r, &s, J_NUMBER)) return 0;
  if (!s.t) {
    value_done(r);
    return 1;
  }
  if (s.t->kind == C1T_U32) {
    if (!ok || v > UINT32_MAX)
      return fail(r, CUZK_POREP_EFORMAT, &s, "expected %s, got %s", s.t->what, shown);
    uint32_t w = (uint32_t)v;
    memcpy(s.dest, &w, sizeof w);
  } else if (s.t->kind == C1T_U64) {
    if (!ok) return fail(r, CUZK_POREP_EFORMAT, &s, "expected %s, got %s", s.t->what, shown);
    memcpy(s.dest, &v, sizeof v);
  } else {
    return type_error(r, &s, J_NUMBER);
  }
  value_done(r);
  return 1;
}

static int on_string(void *ctx, const unsigned char *str, size_t n) {
  reader *r = ctx;
  if (r->skip) return 1;
  slot s;
  if (!scalar_slot(r, &s, J_STRING)) return 0;
  if (!s.t) {
    value_done(r);
    return 1;
  }
  if (s.t->kind != C1T_PROOF_NAME) return type_error(r, &s, J_STRING);
  int id = cuzk_c1_proof_id_from_name((const char *)str, n);
  if (id < 0) {
    char shown[64];
    printable(shown, sizeof shown, str, n);
    return fail(r, CUZK_POREP_EFORMAT, &s, "unknown registered proof \"%s\"", shown);
  }
  uint32_t w = (uint32_t)id;
  memcpy(s.dest, &w, sizeof w);
  value_done(r);
  return 1;
}

static int on_null(void *ctx) {
  reader *r = ctx;
  if (r->skip) return 1;
  slot s;
  if (!scalar_slot(r, &s, J_NULL)) return 0;
  if (s.t && s.t->kind != C1T_NULL) return type_error(r, &s, J_NULL);
  value_done(r);
  return 1;
}

static int on_bool(void *ctx, int b) {
  (void)b;
  reader *r = ctx;
  if (r->skip) return 1;
  slot s;
  if (!scalar_slot(r, &s, J_BOOL)) return 0;
  if (s.t) return type_error(r, &s, J_BOOL);
  value_done(r);
  return 1;
}

static const yajl_callbacks CALLBACKS = {
    .yajl_null = on_null,
    .yajl_boolean = on_bool,
    .yajl_number = on_number,
    .yajl_string = on_string,
    .yajl_start_map = on_start_map,
    .yajl_map_key = on_map_key,
    .yajl_end_map = on_end,
    .yajl_start_array = on_start_array,
    .yajl_end_array = on_end,
};

/* yajl's own message ("parse error: premature EOF" + a context excerpt): keep its first line. */
static void syntax_error(reader *r, const uint8_t *data, size_t len, int at_end) {
  r->e = CUZK_POREP_EFORMAT;
  if (!r->msg || !r->msg_len) return;
  unsigned char *m = yajl_get_error(r->h, 0, data, len);
  char what[160];
  snprintf(what, sizeof what, "%s", m ? (const char *)m : "parse error");
  if (m) yajl_free_error(r->h, m);
  what[strcspn(what, "\r\n")] = 0;
  char path[256];
  build_path(r, path, sizeof path, NULL);
  snprintf(r->msg, r->msg_len, "%s: JSON %s (at byte %zu)", path, what,
           at_end ? len : yajl_get_bytes_consumed(r->h));
}

cuzk_porep_err cuzk_c1_read_json(cuzk_c1 **out, const uint8_t *data, size_t len, unsigned flags,
                                 char *msg, size_t msg_len) {
  if (!out || (!data && len))
    return cuzk_porep_fail(msg, msg_len, CUZK_POREP_EINVAL, "NULL argument");
  *out = NULL;
  reader r = {.top = -1, .msg = msg, .msg_len = msg_len};
  r.c1 = cuzk_c1_new();
  if (!r.c1) return cuzk_porep_fail(msg, msg_len, CUZK_POREP_ENOMEM, "out of memory");
  r.h = yajl_alloc(&CALLBACKS, NULL, &r);
  if (!r.h) {
    cuzk_c1_free(r.c1);
    return cuzk_porep_fail(msg, msg_len, CUZK_POREP_ENOMEM, "out of memory");
  }
  yajl_status st = yajl_parse(r.h, data ? data : (const uint8_t *)"", len);
  int at_end = st == yajl_status_ok;
  if (at_end) st = yajl_complete_parse(r.h);
  if (st == yajl_status_error) {
    syntax_error(&r, data, len, at_end);
  } else if (st == yajl_status_client_canceled) {
    if (!r.e) fail(&r, CUZK_POREP_EFORMAT, NULL, "rejected");
  } else if (!r.done) {
    r.e = cuzk_porep_fail(msg, msg_len, CUZK_POREP_EFORMAT,
                          "(root): JSON parse error: premature EOF");
  }
  yajl_free(r.h);
  r.h = NULL;
  for (int i = 0; i < MAX_DEPTH; i++)
    free(r.sc[i].buf);
  if (!r.e && !(flags & CUZK_C1_READ_NO_SHAPE_CHECK)) r.e = cuzk_c1_check_shape(r.c1, msg, msg_len);
  if (r.e) {
    cuzk_c1_free(r.c1);
    return r.e;
  }
  *out = r.c1;
  return CUZK_POREP_OK;
}
