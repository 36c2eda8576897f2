/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * A strict reader for the subset of TOML 1.0 that cuzk's configuration uses (docs/config.md):
 * comments, [table] and [a.b] headers, bare, quoted and dotted keys, basic strings (with escapes)
 * and literal strings on one line, integers (decimal with sign and '_' separators, 0x/0o/0b),
 * floats, booleans, and arrays of scalars (which may span lines). Everything else TOML has
 * (multi-line strings, dates and times, inline tables, arrays of tables, nested arrays) is refused
 * with an error at its position rather than guessed at. Duplicate keys and tables are errors.
 *
 * The result is a tree: tables keep their keys in file order, and every node remembers the line
 * and column (1-based, in characters) where it was written.
 */
#ifndef CUZK_SERVER_TOML_H
#define CUZK_SERVER_TOML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
  CUZK_TOML_OK = 0,
  CUZK_TOML_ENOMEM,      /* allocation failed */
  CUZK_TOML_ESYNTAX,     /* malformed text */
  CUZK_TOML_EDUP,        /* a key or table defined twice */
  CUZK_TOML_ERANGE,      /* an integer or float out of range */
  CUZK_TOML_EUNSUPPORTED /* valid TOML outside the subset */
} cuzk_toml_err;

const char *cuzk_toml_strerror(cuzk_toml_err e);

typedef enum {
  CUZK_TOML_TABLE,
  CUZK_TOML_ARRAY,
  CUZK_TOML_STRING,
  CUZK_TOML_INTEGER,
  CUZK_TOML_FLOAT,
  CUZK_TOML_BOOL
} cuzk_toml_type;

/* "a table", "an array", "a string", "an integer", "a float", "a boolean". */
const char *cuzk_toml_type_name(cuzk_toml_type t);

typedef struct cuzk_toml_value cuzk_toml_value;
typedef struct cuzk_toml_kv cuzk_toml_kv;

struct cuzk_toml_value {
  cuzk_toml_type type;
  unsigned line, col; /* where the value (a table: its header or first key) starts */
  union {
    struct {
      char *ptr; /* NUL-terminated UTF-8; "\u0000" is refused, so no embedded NUL */
      size_t len;
    } str;
    int64_t integer;
    double flt;
    bool boolean;
    struct {
      cuzk_toml_value *items;
      size_t n;
    } array;
    struct {
      cuzk_toml_kv **items; /* in file order; each allocated on its own */
      size_t n, cap;
      unsigned char origin; /* internal: how the table came to exist */
    } table;
  } u;
};

struct cuzk_toml_kv {
  char *key;          /* one key segment, unescaped */
  unsigned line, col; /* where the key was written */
  cuzk_toml_value value;
};

/* Where and why parsing stopped. key is the dotted path of the key or table concerned ("" when
 * none applies, e.g. a stray character at the top). */
typedef struct {
  cuzk_toml_err code;
  unsigned line, col;
  char key[128];
  char msg[96];
} cuzk_toml_error;

/* Parses text[0, len) (UTF-8; NUL bytes are an error). On success *root is a table to release
 * with cuzk_toml_free; on failure *root is NULL and err (if not NULL) says where and why. */
cuzk_toml_err cuzk_toml_parse(const char *text, size_t len, cuzk_toml_value **root,
                              cuzk_toml_error *err);
void cuzk_toml_free(cuzk_toml_value *root);

/* "LINE:COL: KEY: MSG", or "LINE:COL: MSG" when no key applies; truncated to fit n. */
void cuzk_toml_error_format(const cuzk_toml_error *err, char *buf, size_t n);

/* The value stored under one key segment of a table, or NULL (also when t is not a table). */
const cuzk_toml_value *cuzk_toml_get(const cuzk_toml_value *t, const char *key);

#endif
