/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The TOML subset reader (src/server/toml.h): exact values and positions from a document that
 * uses every supported feature, and the exact message (line:column, key, reason) for each kind
 * of malformed or unsupported input. */
#include "server/toml.h"

#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static cuzk_toml_value *parse_ok(const char *text) {
  cuzk_toml_value *root = NULL;
  cuzk_toml_error err;
  cuzk_toml_err e = cuzk_toml_parse(text, strlen(text), &root, &err);
  if (e) {
    char msg[256];
    cuzk_toml_error_format(&err, msg, sizeof msg);
    CHECK_MSG(e == CUZK_TOML_OK, "unexpected error %s for:\n%s", msg, text);
  }
  return root;
}

/* Looks up a dotted path ("a.b.c"; no quoting) from the root. */
static const cuzk_toml_value *at(const cuzk_toml_value *t, const char *path) {
  char buf[256];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *seg = strtok(buf, "."); seg && t; seg = strtok(NULL, "."))
    t = cuzk_toml_get(t, seg);
  return t;
}

static void check_int(const cuzk_toml_value *root, const char *path, int64_t want) {
  const cuzk_toml_value *v = at(root, path);
  CHECK_MSG(v && v->type == CUZK_TOML_INTEGER && v->u.integer == want, "%s", path);
}

static void check_str(const cuzk_toml_value *root, const char *path, const char *want) {
  const cuzk_toml_value *v = at(root, path);
  CHECK_MSG(v && v->type == CUZK_TOML_STRING && strcmp(v->u.str.ptr, want) == 0 &&
                v->u.str.len == strlen(want),
            "%s: got '%s'", path, v && v->type == CUZK_TOML_STRING ? v->u.str.ptr : "?");
}

static void test_valid(void) {
  const char *doc = "# a comment\n"
                    "title = \"cuzk\" # trailing comment\n"
                    "\n"
                    "[daemon]\n"
                    "listen = \"unix:///run/cuzk.sock\"\n"
                    "\"quoted key\" = 'C:\\path\\no escapes'\n"
                    "esc = \"tab\\tnl\\nq\\\"bs\\\\ \\u00e9\\U0001F600\"\n"
                    "utf8 = \"\xC3\xA9t\xC3\xA9\"\n"
                    "\n"
                    "[numbers]\n"
                    "a = 42\n"
                    "b = +17\n"
                    "c = -5\n"
                    "d = 1_000_000\n"
                    "e = 0x1F\n"
                    "f = 0o755\n"
                    "g = 0b1010\n"
                    "h = 9223372036854775807\n"
                    "i = -9223372036854775808\n"
                    "j = 0\n"
                    "k = 3.25\n"
                    "l = -1e3\n"
                    "m = 6.626e-34\n"
                    "n = 1_0.5_0\n"
                    "o = inf\n"
                    "p = -inf\n"
                    "q = nan\n"
                    "t = true\n"
                    "u = false\n"
                    "\n"
                    "[a.b]\n"
                    "x = 1\n"
                    "[a]\n"
                    "y.z = 2 # dotted key\n"
                    "y . w = 3\n"
                    "\n"
                    "[arrays]\n"
                    "empty = []\n"
                    "ints = [1, 2, 3]\n"
                    "multi = [\n"
                    "  \"one\", # first\n"
                    "  'two',\n"
                    "\n"
                    "  \"three\", # trailing comma allowed\n"
                    "]\n";
  cuzk_toml_value *root = parse_ok(doc);
  if (!root) return;
  check_str(root, "title", "cuzk");
  check_str(root, "daemon.listen", "unix:///run/cuzk.sock");
  check_str(root, "daemon.quoted key", "C:\\path\\no escapes");
  check_str(root, "daemon.esc", "tab\tnl\nq\"bs\\ \xC3\xA9\xF0\x9F\x98\x80");
  check_str(root, "daemon.utf8", "\xC3\xA9t\xC3\xA9");
  check_int(root, "numbers.a", 42);
  check_int(root, "numbers.b", 17);
  check_int(root, "numbers.c", -5);
  check_int(root, "numbers.d", 1000000);
  check_int(root, "numbers.e", 31);
  check_int(root, "numbers.f", 0755);
  check_int(root, "numbers.g", 10);
  check_int(root, "numbers.h", INT64_MAX);
  check_int(root, "numbers.i", INT64_MIN);
  check_int(root, "numbers.j", 0);
  const cuzk_toml_value *v = at(root, "numbers.k");
  CHECK(v && v->type == CUZK_TOML_FLOAT && v->u.flt == 3.25);
  v = at(root, "numbers.l");
  CHECK(v && v->type == CUZK_TOML_FLOAT && v->u.flt == -1000.0);
  v = at(root, "numbers.m");
  CHECK(v && v->type == CUZK_TOML_FLOAT && v->u.flt == 6.626e-34);
  v = at(root, "numbers.n");
  CHECK(v && v->type == CUZK_TOML_FLOAT && v->u.flt == 10.5);
  v = at(root, "numbers.o");
  CHECK(v && v->type == CUZK_TOML_FLOAT && isinf(v->u.flt) && v->u.flt > 0);
  v = at(root, "numbers.p");
  CHECK(v && v->type == CUZK_TOML_FLOAT && isinf(v->u.flt) && v->u.flt < 0);
  v = at(root, "numbers.q");
  CHECK(v && v->type == CUZK_TOML_FLOAT && isnan(v->u.flt));
  v = at(root, "numbers.t");
  CHECK(v && v->type == CUZK_TOML_BOOL && v->u.boolean);
  v = at(root, "numbers.u");
  CHECK(v && v->type == CUZK_TOML_BOOL && !v->u.boolean);
  check_int(root, "a.b.x", 1);
  check_int(root, "a.y.z", 2);
  check_int(root, "a.y.w", 3);
  v = at(root, "arrays.empty");
  CHECK(v && v->type == CUZK_TOML_ARRAY && v->u.array.n == 0);
  v = at(root, "arrays.ints");
  CHECK(v && v->type == CUZK_TOML_ARRAY && v->u.array.n == 3 && v->u.array.items[2].u.integer == 3);
  v = at(root, "arrays.multi");
  CHECK(v && v->type == CUZK_TOML_ARRAY && v->u.array.n == 3);
  if (v && v->u.array.n == 3) {
    CHECK(strcmp(v->u.array.items[1].u.str.ptr, "two") == 0);
    CHECK(v->u.array.items[2].line == 44 && v->u.array.items[2].col == 3);
  }
  /* positions: the value of numbers.c is on line 13, column 5; tables keep file order */
  v = at(root, "numbers.c");
  CHECK(v && v->line == 13 && v->col == 5);
  CHECK(root->u.table.n == 5 && strcmp(root->u.table.items[0]->key, "title") == 0 &&
        strcmp(root->u.table.items[4]->key, "arrays") == 0);
  const cuzk_toml_value *daemon = at(root, "daemon");
  CHECK(daemon && daemon->line == 4 && daemon->col == 1);
  cuzk_toml_free(root);

  /* CRLF line ends, a byte-order mark, and the header rules of TOML 1.0 that are allowed */
  root = parse_ok("\xEF\xBB\xBFk = 1\r\n[x.y.z]\r\n[x]\r\nw = 2\r\n");
  check_int(root, "k", 1);
  check_int(root, "x.w", 2);
  CHECK(at(root, "x.y.z") && at(root, "x.y.z")->type == CUZK_TOML_TABLE);
  cuzk_toml_free(root);
  root = parse_ok("[fruit]\napple.color = 'red'\n[fruit.apple.texture]\nsmooth = true\n");
  check_str(root, "fruit.apple.color", "red");
  CHECK(at(root, "fruit.apple.texture.smooth") != NULL);
  cuzk_toml_free(root);
  root = parse_ok("");
  CHECK(root && root->type == CUZK_TOML_TABLE && root->u.table.n == 0);
  cuzk_toml_free(root);
}

static void expect_error(const char *text, size_t len, cuzk_toml_err code, const char *want) {
  cuzk_toml_value *root = (cuzk_toml_value *)1;
  cuzk_toml_error err;
  cuzk_toml_err e = cuzk_toml_parse(text, len, &root, &err);
  char msg[256];
  cuzk_toml_error_format(&err, msg, sizeof msg);
  CHECK_MSG(e == code && err.code == code && root == NULL && strcmp(msg, want) == 0,
            "input '%s': got %d '%s', want %d '%s'", text, e, msg, code, want);
  if (e == CUZK_TOML_OK) cuzk_toml_free(root);
}

#define ERR(text, code, want) expect_error(text, sizeof(text) - 1, code, want)

static void test_errors(void) {
  ERR("a = \"abc", CUZK_TOML_ESYNTAX, "1:5: a: unterminated string");
  ERR("a = 'abc\nb = 1", CUZK_TOML_ESYNTAX, "1:5: a: unterminated string");
  ERR("[t]\nk = \"a\\qb\"", CUZK_TOML_ESYNTAX, "2:7: t.k: invalid escape '\\q'");
  ERR("k = \"\\u12\"", CUZK_TOML_ESYNTAX, "1:6: k: bad \\u escape: expected 4 hex digits");
  ERR("k = \"\\u0000\"", CUZK_TOML_ESYNTAX, "1:6: k: \\u0000 is not allowed");
  ERR("k = \"\\uD800\"", CUZK_TOML_ESYNTAX, "1:6: k: escape is not a Unicode scalar value");
  ERR("k = \"a\tb\x01\"", CUZK_TOML_ESYNTAX, "1:9: k: control character in a string");
  ERR("a = 1\na = 2", CUZK_TOML_EDUP, "2:1: a: duplicate key (first on line 1)");
  ERR("[a]\nb.c = 1\nb.c = 2", CUZK_TOML_EDUP, "3:3: a.b.c: duplicate key (first on line 2)");
  ERR("[t]\nx = 1\n[t]", CUZK_TOML_EDUP, "3:1: t: table defined twice (first on line 1)");
  ERR("a.b = 1\n[a]", CUZK_TOML_EDUP, "2:1: a: table already defined by dotted keys (line 1)");
  ERR("a = 1\n[a.b]", CUZK_TOML_EDUP, "2:1: a: already defined as an integer (line 1)");
  ERR("[a.b]\n[a]\nb = 2", CUZK_TOML_EDUP, "3:1: a.b: duplicate key (first on line 1)");
  ERR("x = 9223372036854775808", CUZK_TOML_ERANGE, "1:5: x: integer out of range");
  ERR("x = -9223372036854775809", CUZK_TOML_ERANGE, "1:5: x: integer out of range");
  ERR("x = 0x8000000000000000", CUZK_TOML_ERANGE, "1:5: x: integer out of range");
  ERR("x = 1e400", CUZK_TOML_ERANGE, "1:5: x: float out of range");
  ERR("x = 012", CUZK_TOML_ESYNTAX, "1:5: x: leading zeros are not allowed");
  ERR("x = 1__0", CUZK_TOML_ESYNTAX, "1:5: x: invalid value");
  ERR("x = 10_", CUZK_TOML_ESYNTAX, "1:5: x: invalid value");
  ERR("x = 1.", CUZK_TOML_ESYNTAX, "1:5: x: invalid float");
  ERR("x = 0x", CUZK_TOML_ESYNTAX, "1:5: x: invalid value");
  ERR("x = 0xZZ", CUZK_TOML_ESYNTAX, "1:5: x: invalid integer");
  ERR("x = tru", CUZK_TOML_ESYNTAX, "1:5: x: invalid value");
  ERR("x = bare", CUZK_TOML_ESYNTAX, "1:5: x: invalid value");
  ERR("x = ", CUZK_TOML_ESYNTAX, "1:5: x: expected a value");
  ERR("x = # nothing", CUZK_TOML_ESYNTAX, "1:5: x: expected a value");
  ERR("x 1", CUZK_TOML_ESYNTAX, "1:3: x: expected '=' after the key");
  ERR("= 1", CUZK_TOML_ESYNTAX, "1:1: expected a key");
  ERR("a. = 1", CUZK_TOML_ESYNTAX, "1:4: a: expected a key after '.'");
  ERR("x = 1 y = 2", CUZK_TOML_ESYNTAX, "1:7: x: expected the end of the line");
  ERR("[t] x = 1", CUZK_TOML_ESYNTAX, "1:5: t: expected the end of the line");
  ERR("[t", CUZK_TOML_ESYNTAX, "1:3: t: expected ']'");
  ERR("[]", CUZK_TOML_ESYNTAX, "1:2: expected a key");
  ERR("x = [1, 2", CUZK_TOML_ESYNTAX, "1:5: x: unterminated array");
  ERR("x = [1 2]", CUZK_TOML_ESYNTAX, "1:8: x: expected ',' or ']' in an array");
  ERR("x = [1, [2]]", CUZK_TOML_EUNSUPPORTED, "1:9: x: nested arrays are not supported");
  ERR("x = {a = 1}", CUZK_TOML_EUNSUPPORTED, "1:5: x: inline tables are not supported");
  ERR("[[x]]", CUZK_TOML_EUNSUPPORTED, "1:1: arrays of tables are not supported");
  ERR("x = \"\"\"a\"\"\"", CUZK_TOML_EUNSUPPORTED, "1:5: x: multi-line strings are not supported");
  ERR("x = 1979-05-27", CUZK_TOML_EUNSUPPORTED, "1:5: x: dates and times are not supported");
  ERR("x = 07:32:00", CUZK_TOML_EUNSUPPORTED, "1:5: x: dates and times are not supported");
  ERR("x = \"\xFF\"", CUZK_TOML_ESYNTAX, "1:6: invalid UTF-8");
  ERR("x = \"\xC0\xAF\"", CUZK_TOML_ESYNTAX, "1:6: invalid UTF-8");
  ERR("x = 1\0", CUZK_TOML_ESYNTAX, "1:6: NUL byte in the text");
  ERR("x = 1\ry = 2", CUZK_TOML_ESYNTAX, "1:6: x: expected the end of the line");
  ERR("# bell \x07\n", CUZK_TOML_ESYNTAX, "1:8: control character in a comment");
  /* columns count characters, not bytes */
  ERR("\"\xC3\xA9\" = 1 x", CUZK_TOML_ESYNTAX, "1:9: \xC3\xA9: expected the end of the line");
}

int main(void) {
  test_valid();
  test_errors();
  CHECK(strcmp(cuzk_toml_strerror(CUZK_TOML_EDUP), "duplicate key or table") == 0);
  CHECK(strcmp(cuzk_toml_type_name(CUZK_TOML_INTEGER), "an integer") == 0);
  return check_summary("test_toml");
}
