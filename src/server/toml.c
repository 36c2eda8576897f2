/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The TOML subset reader (toml.h). One pass over the text with a cursor that tracks line and
 * column; the tree is built as it goes. Grammar references are to TOML 1.0.0 (toml.io).
 *
 * Table rules (TOML 1.0 "Table" and "Keys"): a table exists in one of three ways, which decide
 * whether it may be named again:
 *   IMPLICIT  created as a parent by a header ([a.b] creates a): a later [a] may define it once;
 *   HEADER    defined by its own header: defining it again is an error;
 *   DOTTED    created by a dotted key (a.b = 1 creates a): headers may not define it, but further
 *             dotted keys may add to it, and [a.x] may add a sub-table.
 */
#include "server/toml.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ORIGIN_ROOT, ORIGIN_IMPLICIT, ORIGIN_HEADER, ORIGIN_DOTTED };
enum { MAX_KEY_SEGMENTS = 16 };

const char *cuzk_toml_strerror(cuzk_toml_err e) {
  switch (e) {
  case CUZK_TOML_OK: return "ok";
  case CUZK_TOML_ENOMEM: return "out of memory";
  case CUZK_TOML_ESYNTAX: return "syntax error";
  case CUZK_TOML_EDUP: return "duplicate key or table";
  case CUZK_TOML_ERANGE: return "number out of range";
  case CUZK_TOML_EUNSUPPORTED: return "TOML feature not supported";
  }
  return "unknown error";
}

const char *cuzk_toml_type_name(cuzk_toml_type t) {
  switch (t) {
  case CUZK_TOML_TABLE: return "a table";
  case CUZK_TOML_ARRAY: return "an array";
  case CUZK_TOML_STRING: return "a string";
  case CUZK_TOML_INTEGER: return "an integer";
  case CUZK_TOML_FLOAT: return "a float";
  case CUZK_TOML_BOOL: return "a boolean";
  }
  return "a value";
}

/* ---- the cursor ------------------------------------------------------------------------- */

typedef struct {
  const char *s;
  size_t n, i;
  unsigned line, col; /* of s[i] */
  cuzk_toml_error *err;
  cuzk_toml_value *root;
  cuzk_toml_value *cur; /* the table that key/value pairs go into */
  char path[128];       /* dotted name of cur, for messages */
} parser;

static int peek(const parser *p) { return p->i < p->n ? (unsigned char)p->s[p->i] : -1; }
static int peek_at(const parser *p, size_t k) {
  return p->i + k < p->n ? (unsigned char)p->s[p->i + k] : -1;
}

static void advance(parser *p) {
  unsigned char c = (unsigned char)p->s[p->i++];
  if (c == '\n') {
    p->line++;
    p->col = 1;
  } else if ((c & 0xC0) != 0x80) {
    p->col++;
  }
}

static cuzk_toml_err fail_at(parser *p, cuzk_toml_err code, unsigned line, unsigned col,
                             const char *key, const char *fmt, ...) {
  cuzk_toml_error *e = p->err;
  if (!e) return code;
  e->code = code;
  e->line = line;
  e->col = col;
  snprintf(e->key, sizeof e->key, "%s", key ? key : "");
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e->msg, sizeof e->msg, fmt, ap);
  va_end(ap);
  return code;
}

static cuzk_toml_err fail(parser *p, cuzk_toml_err code, const char *key, const char *msg) {
  return fail_at(p, code, p->line, p->col, key, "%s", msg);
}

/* dst = base "." seg (or seg when base is empty), truncated quietly to cap - 1 bytes. */
static void path_join(char *dst, size_t cap, const char *base, const char *seg) {
  size_t n = 0;
  for (const char *parts[3] = {base, base[0] ? "." : "", seg}, **q = parts; q < parts + 3; q++)
    for (const char *c = *q; *c && n + 1 < cap; c++)
      dst[n++] = *c;
  dst[n] = 0;
}

/* Checks the whole text once: valid UTF-8 (no overlongs, surrogates or code points past
 * U+10FFFF) and no NUL byte, so later steps can copy bytes without looking at them. */
static cuzk_toml_err check_utf8(parser *p) {
  unsigned line = 1, col = 1;
  const unsigned char *s = (const unsigned char *)p->s;
  for (size_t i = 0; i < p->n;) {
    unsigned c = s[i];
    size_t len;
    uint32_t cp, min;
    if (c == 0) return fail_at(p, CUZK_TOML_ESYNTAX, line, col, NULL, "NUL byte in the text");
    if (c < 0x80) {
      len = 1, cp = c, min = 0;
    } else if ((c & 0xE0) == 0xC0) {
      len = 2, cp = c & 0x1F, min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3, cp = c & 0x0F, min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4, cp = c & 0x07, min = 0x10000;
    } else {
      return fail_at(p, CUZK_TOML_ESYNTAX, line, col, NULL, "invalid UTF-8");
    }
    if (i + len > p->n) return fail_at(p, CUZK_TOML_ESYNTAX, line, col, NULL, "invalid UTF-8");
    for (size_t k = 1; k < len; k++) {
      if ((s[i + k] & 0xC0) != 0x80)
        return fail_at(p, CUZK_TOML_ESYNTAX, line, col, NULL, "invalid UTF-8");
      cp = cp << 6 | (s[i + k] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
      return fail_at(p, CUZK_TOML_ESYNTAX, line, col, NULL, "invalid UTF-8");
    if (c == '\n') {
      line++;
      col = 1;
    } else {
      col++;
    }
    i += len;
  }
  return CUZK_TOML_OK;
}

/* ---- the tree ----------------------------------------------------------------------------- */

static void value_clear(cuzk_toml_value *v) {
  switch (v->type) {
  case CUZK_TOML_STRING: free(v->u.str.ptr); break;
  case CUZK_TOML_ARRAY:
    for (size_t k = 0; k < v->u.array.n; k++)
      value_clear(&v->u.array.items[k]);
    free(v->u.array.items);
    break;
  case CUZK_TOML_TABLE:
    for (size_t k = 0; k < v->u.table.n; k++) {
      cuzk_toml_kv *kv = v->u.table.items[k];
      free(kv->key);
      value_clear(&kv->value);
      free(kv);
    }
    free(v->u.table.items);
    break;
  default: break;
  }
  v->type = CUZK_TOML_BOOL; /* nothing left to free */
}

void cuzk_toml_free(cuzk_toml_value *root) {
  if (!root) return;
  value_clear(root);
  free(root);
}

static cuzk_toml_kv *table_find(const cuzk_toml_value *t, const char *key) {
  for (size_t k = 0; k < t->u.table.n; k++)
    if (strcmp(t->u.table.items[k]->key, key) == 0) return t->u.table.items[k];
  return NULL;
}

const cuzk_toml_value *cuzk_toml_get(const cuzk_toml_value *t, const char *key) {
  if (!t || t->type != CUZK_TOML_TABLE) return NULL;
  cuzk_toml_kv *kv = table_find(t, key);
  return kv ? &kv->value : NULL;
}

/* Adds key to table t (which must not hold it) and returns the new pair; takes key. */
static cuzk_toml_kv *table_add(cuzk_toml_value *t, char *key, unsigned line, unsigned col) {
  if (t->u.table.n == t->u.table.cap) {
    size_t cap = t->u.table.cap ? 2 * t->u.table.cap : 8;
    cuzk_toml_kv **items = realloc(t->u.table.items, cap * sizeof *items);
    if (!items) return NULL;
    t->u.table.items = items;
    t->u.table.cap = cap;
  }
  cuzk_toml_kv *kv = calloc(1, sizeof *kv);
  if (!kv) return NULL;
  kv->key = key;
  kv->line = line;
  kv->col = col;
  kv->value.type = CUZK_TOML_BOOL; /* set by the caller */
  t->u.table.items[t->u.table.n++] = kv;
  return kv;
}

static void make_table(cuzk_toml_value *v, unsigned origin, unsigned line, unsigned col) {
  memset(v, 0, sizeof *v);
  v->type = CUZK_TOML_TABLE;
  v->line = line;
  v->col = col;
  v->u.table.origin = (unsigned char)origin;
}

/* ---- lexical pieces ----------------------------------------------------------------------- */

static void skip_ws(parser *p) {
  while (peek(p) == ' ' || peek(p) == '\t')
    advance(p);
}

static bool at_newline(const parser *p) {
  return peek(p) == '\n' || (peek(p) == '\r' && peek_at(p, 1) == '\n');
}

/* A comment runs to the end of the line; control characters other than tab are not allowed. */
static cuzk_toml_err skip_comment(parser *p) {
  if (peek(p) != '#') return CUZK_TOML_OK;
  while (peek(p) >= 0 && !at_newline(p)) {
    int c = peek(p);
    if ((c < 0x20 && c != '\t') || c == 0x7F)
      return fail(p, CUZK_TOML_ESYNTAX, NULL, "control character in a comment");
    advance(p);
  }
  return CUZK_TOML_OK;
}

/* After a header or a key/value pair: spaces, an optional comment, then a newline or the end. */
static cuzk_toml_err end_of_line(parser *p, const char *key) {
  skip_ws(p);
  cuzk_toml_err e = skip_comment(p);
  if (e) return e;
  if (peek(p) < 0) return CUZK_TOML_OK;
  if (!at_newline(p)) return fail(p, CUZK_TOML_ESYNTAX, key, "expected the end of the line");
  if (peek(p) == '\r') advance(p);
  advance(p);
  return CUZK_TOML_OK;
}

/* Newlines, spaces and comments between array elements. */
static cuzk_toml_err skip_ws_nl(parser *p) {
  for (;;) {
    skip_ws(p);
    cuzk_toml_err e = skip_comment(p);
    if (e) return e;
    if (!at_newline(p)) return CUZK_TOML_OK;
    if (peek(p) == '\r') advance(p);
    advance(p);
  }
}

static bool is_bare(int c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

/* A growable string for unescaping. */
typedef struct {
  char *p;
  size_t n, cap;
} sbuf;

static bool sb_put(sbuf *b, const char *s, size_t n) {
  if (b->n + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 32;
    while (cap < b->n + n + 1)
      cap *= 2;
    char *q = realloc(b->p, cap);
    if (!q) return false;
    b->p = q;
    b->cap = cap;
  }
  memcpy(b->p + b->n, s, n);
  b->n += n;
  b->p[b->n] = 0;
  return true;
}

static bool sb_put_utf8(sbuf *b, uint32_t cp) {
  char u[4];
  size_t n;
  if (cp < 0x80) {
    u[0] = (char)cp, n = 1;
  } else if (cp < 0x800) {
    u[0] = (char)(0xC0 | cp >> 6), u[1] = (char)(0x80 | (cp & 0x3F)), n = 2;
  } else if (cp < 0x10000) {
    u[0] = (char)(0xE0 | cp >> 12), u[1] = (char)(0x80 | (cp >> 6 & 0x3F));
    u[2] = (char)(0x80 | (cp & 0x3F)), n = 3;
  } else {
    u[0] = (char)(0xF0 | cp >> 18), u[1] = (char)(0x80 | (cp >> 12 & 0x3F));
    u[2] = (char)(0x80 | (cp >> 6 & 0x3F)), u[3] = (char)(0x80 | (cp & 0x3F)), n = 4;
  }
  return sb_put(b, u, n);
}

static int hex_digit(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* A one-line basic ("...") or literal ('...') string starting at the cursor. On success *out
 * holds the malloc'd text. key names the key for messages. */
static cuzk_toml_err parse_string(parser *p, const char *key, char **out, size_t *out_len) {
  unsigned line = p->line, col = p->col;
  int quote = peek(p);
  if (peek_at(p, 1) == quote && peek_at(p, 2) == quote)
    return fail(p, CUZK_TOML_EUNSUPPORTED, key, "multi-line strings are not supported");
  advance(p);
  sbuf b = {0};
  if (!sb_put(&b, "", 0)) return fail(p, CUZK_TOML_ENOMEM, key, "out of memory");
  for (;;) {
    int c = peek(p);
    if (c < 0 || c == '\n' || (c == '\r' && peek_at(p, 1) == '\n')) {
      free(b.p);
      return fail_at(p, CUZK_TOML_ESYNTAX, line, col, key, "unterminated string");
    }
    if (c == quote) {
      advance(p);
      break;
    }
    if ((c < 0x20 && c != '\t') || c == 0x7F) {
      free(b.p);
      return fail(p, CUZK_TOML_ESYNTAX, key, "control character in a string");
    }
    if (c == '\\' && quote == '"') {
      unsigned eline = p->line, ecol = p->col;
      advance(p);
      int x = peek(p);
      const char *simple = NULL;
      switch (x) {
      case 'b': simple = "\b"; break;
      case 't': simple = "\t"; break;
      case 'n': simple = "\n"; break;
      case 'f': simple = "\f"; break;
      case 'r': simple = "\r"; break;
      case '"': simple = "\""; break;
      case '\\': simple = "\\"; break;
      default: break;
      }
      if (simple) {
        advance(p);
        if (!sb_put(&b, simple, 1)) goto nomem;
        continue;
      }
      if (x == 'u' || x == 'U') {
        int digits = x == 'u' ? 4 : 8;
        uint32_t cp = 0;
        advance(p);
        for (int k = 0; k < digits; k++) {
          int h = hex_digit(peek(p));
          if (h < 0) {
            free(b.p);
            return fail_at(p, CUZK_TOML_ESYNTAX, eline, ecol, key,
                           "bad \\%c escape: expected %d hex digits", x, digits);
          }
          cp = cp << 4 | (uint32_t)h;
          advance(p);
        }
        if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
          free(b.p);
          return fail_at(p, CUZK_TOML_ESYNTAX, eline, ecol, key,
                         cp == 0 ? "\\u0000 is not allowed"
                                 : "escape is not a Unicode scalar value");
        }
        if (!sb_put_utf8(&b, cp)) goto nomem;
        continue;
      }
      free(b.p);
      if (x >= 0x20 && x < 0x7F)
        return fail_at(p, CUZK_TOML_ESYNTAX, eline, ecol, key, "invalid escape '\\%c'", x);
      return fail_at(p, CUZK_TOML_ESYNTAX, eline, ecol, key, "invalid escape");
    }
    /* copy one character (all its UTF-8 bytes) */
    size_t start = p->i;
    advance(p);
    while (p->i < p->n && ((unsigned char)p->s[p->i] & 0xC0) == 0x80)
      advance(p);
    if (!sb_put(&b, p->s + start, p->i - start)) goto nomem;
  }
  *out = b.p;
  if (out_len) *out_len = b.n;
  return CUZK_TOML_OK;
nomem:
  free(b.p);
  return fail(p, CUZK_TOML_ENOMEM, key, "out of memory");
}

typedef struct {
  char *seg[MAX_KEY_SEGMENTS];
  unsigned line[MAX_KEY_SEGMENTS], col[MAX_KEY_SEGMENTS];
  size_t n;
  char path[128]; /* the segments joined with '.', after the table's own path */
} key_path;

static void key_free(key_path *k) {
  for (size_t j = 0; j < k->n; j++)
    free(k->seg[j]);
  k->n = 0;
}

/* key = simple-key *( ws "." ws simple-key ). base is the path of the enclosing table. */
static cuzk_toml_err parse_key(parser *p, const char *base, key_path *k) {
  k->n = 0;
  snprintf(k->path, sizeof k->path, "%s", base);
  for (;;) {
    if (k->n == MAX_KEY_SEGMENTS)
      return fail(p, CUZK_TOML_EUNSUPPORTED, k->path, "too many dotted key parts");
    unsigned line = p->line, col = p->col;
    char *seg = NULL;
    int c = peek(p);
    if (c == '"' || c == '\'') {
      cuzk_toml_err e = parse_string(p, k->path, &seg, NULL);
      if (e) return e;
    } else if (is_bare(c)) {
      size_t start = p->i;
      while (is_bare(peek(p)))
        advance(p);
      seg = malloc(p->i - start + 1);
      if (!seg) return fail(p, CUZK_TOML_ENOMEM, k->path, "out of memory");
      memcpy(seg, p->s + start, p->i - start);
      seg[p->i - start] = 0;
    } else {
      return fail(p, CUZK_TOML_ESYNTAX, k->path,
                  k->n ? "expected a key after '.'" : "expected a key");
    }
    k->seg[k->n] = seg;
    k->line[k->n] = line;
    k->col[k->n] = col;
    k->n++;
    char joined[128];
    path_join(joined, sizeof joined, k->path, seg);
    memcpy(k->path, joined, sizeof joined);
    skip_ws(p);
    if (peek(p) != '.') return CUZK_TOML_OK;
    advance(p);
    skip_ws(p);
  }
}

/* A key, then the character `want` (consumed). On failure the key is freed and, if `want` is
 * missing, the error names the key with `what`. */
static cuzk_toml_err parse_key_then(parser *p, const char *base, key_path *k, char want,
                                    const char *what) {
  cuzk_toml_err e = parse_key(p, base, k);
  if (!e && peek(p) != want) e = fail(p, CUZK_TOML_ESYNTAX, k->path, what);
  if (e) {
    key_free(k);
    return e;
  }
  advance(p);
  return CUZK_TOML_OK;
}

/* ---- values ------------------------------------------------------------------------------- */

static bool is_value_end(int c) {
  return c < 0 || c == ' ' || c == '\t' || c == ',' || c == ']' || c == '#' || c == '\n' ||
         c == '\r';
}

static bool is_digit(int c) { return c >= '0' && c <= '9'; }

/* Digits of `base` with single '_' between digits; copies the digits (no '_') to out. Returns
 * false if empty or an underscore is misplaced. */
static bool scan_digits(const char *t, size_t n, size_t *i, int base, char *out, size_t *o) {
  size_t start = *i;
  bool prev_digit = false;
  while (*i < n) {
    int c = (unsigned char)t[*i];
    int d = hex_digit(c);
    if (c == '_') {
      if (!prev_digit || *i + 1 >= n || hex_digit((unsigned char)t[*i + 1]) < 0 ||
          hex_digit((unsigned char)t[*i + 1]) >= base)
        return false;
      prev_digit = false;
    } else if (d >= 0 && d < base) {
      out[(*o)++] = (char)c;
      prev_digit = true;
    } else {
      break;
    }
    (*i)++;
  }
  return *i > start && prev_digit;
}

/* Integers, floats, and the dates TOML has (refused). The token runs to the next delimiter. */
static cuzk_toml_err parse_number(parser *p, const char *key, cuzk_toml_value *v) {
  unsigned line = p->line, col = p->col;
  size_t start = p->i;
  while (!is_value_end(peek(p)))
    advance(p);
  const char *t = p->s + start;
  size_t n = p->i - start;
  if (n == 0) return fail_at(p, CUZK_TOML_ESYNTAX, line, col, key, "expected a value");
  char buf[128];
  if (n >= sizeof buf) return fail_at(p, CUZK_TOML_ESYNTAX, line, col, key, "invalid value");
  if (memchr(t, ':', n) || (n >= 10 && is_digit(t[0]) && is_digit(t[3]) && t[4] == '-'))
    return fail_at(p, CUZK_TOML_EUNSUPPORTED, line, col, key, "dates and times are not supported");

  size_t i = 0, o = 0;
  bool neg = false;
  if (t[0] == '+' || t[0] == '-') {
    neg = t[0] == '-';
    buf[o++] = t[0];
    i++;
  }
  if (n - i == 3 && (memcmp(t + i, "inf", 3) == 0 || memcmp(t + i, "nan", 3) == 0)) {
    v->type = CUZK_TOML_FLOAT;
    v->u.flt = t[i] == 'i' ? (neg ? -INFINITY : INFINITY) : (neg ? -NAN : NAN);
    return CUZK_TOML_OK;
  }
  if (i == 0 && n > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'o' || t[1] == 'b')) {
    int base = t[1] == 'x' ? 16 : t[1] == 'o' ? 8 : 2;
    i = 2;
    if (!scan_digits(t, n, &i, base, buf, &o) || i != n)
      return fail_at(p, CUZK_TOML_ESYNTAX, line, col, key, "invalid integer");
    uint64_t x = 0;
    for (size_t k = 0; k < o; k++) {
      unsigned d = (unsigned)hex_digit(buf[k]);
      if (x > (UINT64_C(0x7FFFFFFFFFFFFFFF) - d) / (unsigned)base)
        return fail_at(p, CUZK_TOML_ERANGE, line, col, key, "integer out of range");
      x = x * (unsigned)base + d;
    }
    v->type = CUZK_TOML_INTEGER;
    v->u.integer = (int64_t)x;
    return CUZK_TOML_OK;
  }
  size_t int_start = i;
  if (!scan_digits(t, n, &i, 10, buf, &o))
    return fail_at(p, CUZK_TOML_ESYNTAX, line, col, key, "invalid value");
  if (t[int_start] == '0' && i - int_start > 1)
    return fail_at(p, CUZK_TOML_ESYNTAX, line, col, key, "leading zeros are not allowed");
  size_t int_digits_end = o;
  bool is_float = false;
  if (i < n && t[i] == '.') {
    is_float = true;
    buf[o++] = '.';
    i++;
    if (!scan_digits(t, n, &i, 10, buf, &o))
      return fail_at(p, CUZK_TOML_ESYNTAX, line, col, key, "invalid float");
  }
  if (i < n && (t[i] == 'e' || t[i] == 'E')) {
    is_float = true;
    buf[o++] = 'e';
    i++;
    if (i < n && (t[i] == '+' || t[i] == '-')) buf[o++] = t[i++];
    if (!scan_digits(t, n, &i, 10, buf, &o))
      return fail_at(p, CUZK_TOML_ESYNTAX, line, col, key, "invalid float");
  }
  if (i != n) return fail_at(p, CUZK_TOML_ESYNTAX, line, col, key, "invalid value");
  buf[o] = 0;
  if (is_float) {
    double d = strtod(buf, NULL);
    if (isinf(d)) return fail_at(p, CUZK_TOML_ERANGE, line, col, key, "float out of range");
    v->type = CUZK_TOML_FLOAT;
    v->u.flt = d;
    return CUZK_TOML_OK;
  }
  /* decimal integer: magnitude up to 2^63 when negative, 2^63 - 1 otherwise */
  uint64_t limit = neg ? UINT64_C(0x8000000000000000) : UINT64_C(0x7FFFFFFFFFFFFFFF);
  uint64_t x = 0;
  for (size_t k = (buf[0] == '+' || buf[0] == '-'); k < int_digits_end; k++) {
    unsigned d = (unsigned)(buf[k] - '0');
    if (x > (limit - d) / 10)
      return fail_at(p, CUZK_TOML_ERANGE, line, col, key, "integer out of range");
    x = x * 10 + d;
  }
  v->type = CUZK_TOML_INTEGER;
  v->u.integer = neg ? (int64_t)(0 - x) : (int64_t)x;
  return CUZK_TOML_OK;
}

static cuzk_toml_err parse_value(parser *p, const char *key, cuzk_toml_value *v, bool in_array);

static cuzk_toml_err parse_array(parser *p, const char *key, cuzk_toml_value *v) {
  unsigned line = p->line, col = p->col;
  advance(p); /* '[' */
  v->type = CUZK_TOML_ARRAY;
  v->u.array.items = NULL;
  v->u.array.n = 0;
  size_t cap = 0;
  cuzk_toml_err e;
  for (;;) {
    if ((e = skip_ws_nl(p))) return e;
    if (peek(p) < 0) return fail_at(p, CUZK_TOML_ESYNTAX, line, col, key, "unterminated array");
    if (peek(p) == ']') break;
    if (v->u.array.n == cap) {
      cap = cap ? 2 * cap : 4;
      cuzk_toml_value *items = realloc(v->u.array.items, cap * sizeof *items);
      if (!items) return fail(p, CUZK_TOML_ENOMEM, key, "out of memory");
      v->u.array.items = items;
    }
    cuzk_toml_value *item = &v->u.array.items[v->u.array.n];
    memset(item, 0, sizeof *item);
    item->type = CUZK_TOML_BOOL;
    if ((e = parse_value(p, key, item, true))) return e;
    v->u.array.n++;
    if ((e = skip_ws_nl(p))) return e;
    if (peek(p) == ',') {
      advance(p);
      continue;
    }
    if (peek(p) == ']') break;
    if (peek(p) < 0) return fail_at(p, CUZK_TOML_ESYNTAX, line, col, key, "unterminated array");
    return fail(p, CUZK_TOML_ESYNTAX, key, "expected ',' or ']' in an array");
  }
  advance(p); /* ']' */
  return CUZK_TOML_OK;
}

static cuzk_toml_err parse_value(parser *p, const char *key, cuzk_toml_value *v, bool in_array) {
  v->line = p->line;
  v->col = p->col;
  int c = peek(p);
  if (c == '"' || c == '\'') {
    char *s;
    size_t len;
    cuzk_toml_err e = parse_string(p, key, &s, &len);
    if (e) return e;
    v->type = CUZK_TOML_STRING;
    v->u.str.ptr = s;
    v->u.str.len = len;
    return CUZK_TOML_OK;
  }
  if (c == '[') {
    if (in_array) return fail(p, CUZK_TOML_EUNSUPPORTED, key, "nested arrays are not supported");
    return parse_array(p, key, v);
  }
  if (c == '{') return fail(p, CUZK_TOML_EUNSUPPORTED, key, "inline tables are not supported");
  if (c == 't' || c == 'f') {
    const char *word = c == 't' ? "true" : "false";
    size_t len = strlen(word);
    if (p->n - p->i >= len && memcmp(p->s + p->i, word, len) == 0 &&
        is_value_end(p->i + len < p->n ? (unsigned char)p->s[p->i + len] : -1)) {
      for (size_t k = 0; k < len; k++)
        advance(p);
      v->type = CUZK_TOML_BOOL;
      v->u.boolean = c == 't';
      return CUZK_TOML_OK;
    }
    return fail(p, CUZK_TOML_ESYNTAX, key, "invalid value");
  }
  if (c == '+' || c == '-' || is_digit(c) || c == 'i' || c == 'n') return parse_number(p, key, v);
  if (c < 0 || c == '\n' || c == '\r' || c == '#')
    return fail(p, CUZK_TOML_ESYNTAX, key, "expected a value");
  return fail(p, CUZK_TOML_ESYNTAX, key, "invalid value");
}

/* ---- lines -------------------------------------------------------------------------------- */

/* [a.b.c] */
static cuzk_toml_err parse_header(parser *p) {
  unsigned line = p->line, col = p->col;
  advance(p); /* '[' */
  if (peek(p) == '[')
    return fail_at(p, CUZK_TOML_EUNSUPPORTED, line, col, NULL,
                   "arrays of tables are not supported");
  skip_ws(p);
  key_path k;
  cuzk_toml_err e = parse_key_then(p, "", &k, ']', "expected ']'");
  if (e) return e;
  cuzk_toml_value *t = p->root;
  char path[128] = "";
  for (size_t j = 0; j < k.n; j++) {
    char joined[128];
    path_join(joined, sizeof joined, path, k.seg[j]);
    memcpy(path, joined, sizeof path);
    bool last = j + 1 == k.n;
    cuzk_toml_kv *kv = table_find(t, k.seg[j]);
    if (!kv) {
      kv = table_add(t, k.seg[j], k.line[j], k.col[j]);
      if (!kv) {
        key_free(&k);
        return fail(p, CUZK_TOML_ENOMEM, path, "out of memory");
      }
      k.seg[j] = NULL; /* owned by the tree now */
      make_table(&kv->value, last ? ORIGIN_HEADER : ORIGIN_IMPLICIT, line, col);
    } else if (kv->value.type != CUZK_TOML_TABLE) {
      key_free(&k);
      return fail_at(p, CUZK_TOML_EDUP, line, col, path, "already defined as %s (line %u)",
                     cuzk_toml_type_name(kv->value.type), kv->line);
    } else if (last) {
      unsigned origin = kv->value.u.table.origin;
      if (origin != ORIGIN_IMPLICIT) {
        key_free(&k);
        return fail_at(p, CUZK_TOML_EDUP, line, col, path,
                       origin == ORIGIN_HEADER ? "table defined twice (first on line %u)"
                                               : "table already defined by dotted keys (line %u)",
                       origin == ORIGIN_HEADER ? kv->value.line : kv->line);
      }
      kv->value.u.table.origin = ORIGIN_HEADER;
      kv->value.line = line;
      kv->value.col = col;
    }
    t = &kv->value;
  }
  key_free(&k);
  p->cur = t;
  memcpy(p->path, path, sizeof path);
  return end_of_line(p, p->path);
}

/* key = value, into the current table. */
static cuzk_toml_err parse_keyval(parser *p) {
  key_path k;
  cuzk_toml_err e = parse_key_then(p, p->path, &k, '=', "expected '=' after the key");
  if (e) return e;
  skip_ws(p);
  cuzk_toml_value *t = p->cur;
  char path[128];
  memcpy(path, p->path, sizeof path);
  for (size_t j = 0; j < k.n; j++) {
    char joined[128];
    path_join(joined, sizeof joined, path, k.seg[j]);
    memcpy(path, joined, sizeof path);
    bool last = j + 1 == k.n;
    cuzk_toml_kv *kv = table_find(t, k.seg[j]);
    if (kv) {
      bool can_descend =
          !last && kv->value.type == CUZK_TOML_TABLE && kv->value.u.table.origin == ORIGIN_DOTTED;
      if (!can_descend) {
        unsigned line = k.line[j], col = k.col[j];
        key_free(&k);
        return fail_at(p, CUZK_TOML_EDUP, line, col, path, "duplicate key (first on line %u)",
                       kv->line);
      }
      t = &kv->value;
      continue;
    }
    kv = table_add(t, k.seg[j], k.line[j], k.col[j]);
    if (!kv) {
      key_free(&k);
      return fail(p, CUZK_TOML_ENOMEM, path, "out of memory");
    }
    k.seg[j] = NULL;
    if (last) {
      e = parse_value(p, path, &kv->value, false);
      if (e) {
        key_free(&k);
        return e;
      }
    } else {
      make_table(&kv->value, ORIGIN_DOTTED, k.line[j], k.col[j]);
      t = &kv->value;
    }
  }
  key_free(&k);
  return end_of_line(p, path);
}

cuzk_toml_err cuzk_toml_parse(const char *text, size_t len, cuzk_toml_value **root,
                              cuzk_toml_error *err) {
  *root = NULL;
  cuzk_toml_error scratch;
  parser p = {.s = text, .n = len, .line = 1, .col = 1, .err = err ? err : &scratch};
  memset(p.err, 0, sizeof *p.err);
  cuzk_toml_err e = check_utf8(&p);
  if (e) return e;
  /* a UTF-8 byte-order mark is allowed at the very start */
  if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) p.i = 3;
  p.root = calloc(1, sizeof *p.root);
  if (!p.root) return fail(&p, CUZK_TOML_ENOMEM, NULL, "out of memory");
  make_table(p.root, ORIGIN_ROOT, 1, 1);
  p.cur = p.root;
  while (e == CUZK_TOML_OK) {
    skip_ws(&p);
    int c = peek(&p);
    if (c < 0) break;
    if (c == '#' || at_newline(&p))
      e = end_of_line(&p, NULL);
    else if (c == '[')
      e = parse_header(&p);
    else if (c == '\r')
      e = fail(&p, CUZK_TOML_ESYNTAX, NULL, "carriage return without a line feed");
    else
      e = parse_keyval(&p);
  }
  if (e) {
    cuzk_toml_free(p.root);
    return e;
  }
  *root = p.root;
  return CUZK_TOML_OK;
}

void cuzk_toml_error_format(const cuzk_toml_error *err, char *buf, size_t n) {
  if (err->key[0])
    snprintf(buf, n, "%u:%u: %s: %s", err->line, err->col, err->key, err->msg);
  else
    snprintf(buf, n, "%u:%u: %s", err->line, err->col, err->msg);
}
