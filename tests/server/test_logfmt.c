/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The daemon's log lines (cuzk_log_line_format, include/cuzk/server/server.h): exact text and JSON
 * output, every control character of a message or job id escaped (so a request_id cannot end a
 * line, overwrite one with a carriage return, hide text or send terminal escapes), bytes that are
 * not UTF-8 escaped too, valid UTF-8 kept, and snprintf's contract when the buffer is short. */
#include "cuzk/server/server.h"

#include "check.h"

#include <string.h>

static void expect(bool json, const char *job, const char *msg, const char *want) {
  char out[512];
  size_t n = cuzk_log_line_format(out, sizeof out, json, "T", CUZK_LOG_INFO, job, msg);
  CHECK_MSG(n == strlen(want) && strcmp(out, want) == 0, "\n got  (%zu) '%s'\n want (%zu) '%s'", n,
            out, strlen(want), want);
}

static void test_text(void) {
  expect(false, NULL, "plain text", "T INFO  plain text\n");
  expect(false, "job-1", "m", "T INFO  [job-1] m\n");
  /* each control character alone */
  static const struct {
    const char *in, *out;
  } one[] = {
      {"a\nb", "a\\x0ab"},         /* a forged second line */
      {"a\rb", "a\\x0db"},         /* the line overwritten from its start */
      {"a\tb", "a\\x09b"},         /* tab */
      {"a\x1b[2Jb", "a\\x1b[2Jb"}, /* ESC: a terminal escape (here: clear the screen) */
      {"a\x7f"
       "b",
       "a\\x7fb"}, /* DEL */
      {"a\x01\x08\x1f"
       "b",
       "a\\x01\\x08\\x1fb"},    /* other C0 controls, backspace hides text */
      {"a\\x0ab", "a\\\\x0ab"}, /* a backslash cannot fake an escape */
      {"a\xc2\x9b"
       "31mb",
       "a\\xc2\\x9b31mb"}, /* U+009B, the C1 CSI, in UTF-8 */
      {"a\xc2\x85"
       "b",
       "a\\xc2\\x85b"}, /* U+0085, NEL */
      {"a\x9b"
       "b",
       "a\\x9bb"}, /* the 8-bit CSI byte alone: not UTF-8 */
      {"a\xff\xc0\xaf"
       "b",
       "a\\xff\\xc0\\xafb"}, /* not UTF-8; an overlong '/' */
      {"a\xed\xa0\x80"
       "b",
       "a\\xed\\xa0\\x80b"}, /* a surrogate */
      {"a\xe2\x82"
       "",
       "a\\xe2\\x82"},                                       /* cut short at the end */
      {"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\x91 \xc2\xa0", /* valid UTF-8 stays as it is */
       "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\x91 \xc2\xa0"},
  };
  for (size_t k = 0; k < sizeof one / sizeof one[0]; k++) {
    char want[256];
    snprintf(want, sizeof want, "T INFO  [%s] %s\n", one[k].out, one[k].out);
    expect(false, one[k].in, one[k].in, want);
  }
  char out[64];
  CHECK(cuzk_log_line_format(out, sizeof out, false, "2026-01-01T00:00:00.000Z", CUZK_LOG_WARN,
                             NULL, "x") == 33 &&
        strcmp(out, "2026-01-01T00:00:00.000Z WARN  x\n") == 0);
  CHECK(cuzk_log_line_format(out, sizeof out, false, "T", CUZK_LOG_ERROR, NULL, "x") == 10 &&
        strcmp(out, "T ERROR x\n") == 0);
  CHECK(cuzk_log_line_format(out, sizeof out, false, "T", CUZK_LOG_DEBUG, NULL, "x") == 10 &&
        strcmp(out, "T DEBUG x\n") == 0);
}

static void test_json(void) {
  expect(true, NULL, "m", "{\"ts\":\"T\",\"level\":\"INFO\",\"job_id\":\"\",\"msg\":\"m\"}\n");
  expect(true, "j\"1", "a\"b\\c",
         "{\"ts\":\"T\",\"level\":\"INFO\",\"job_id\":\"j\\\"1\",\"msg\":\"a\\\"b\\\\c\"}\n");
  expect(true, NULL, "\n\r\t\x1b\x7f\xc2\x9b|\xff|\xc3\xa9",
         "{\"ts\":\"T\",\"level\":\"INFO\",\"job_id\":\"\",\"msg\":"
         "\"\\u000a\\u000d\\u0009\\u001b\\u007f\\u009b|\\ufffd|\xc3\xa9\"}\n");
}

/* snprintf's contract: the needed length whatever cap is, cut and NUL-terminated, nothing
 * written with cap 0 */
static void test_short(void) {
  char out[8];
  memset(out, 'z', sizeof out);
  CHECK(cuzk_log_line_format(out, 0, false, "T", CUZK_LOG_INFO, NULL, "\n") == 13 && out[0] == 'z');
  CHECK(cuzk_log_line_format(out, sizeof out, false, "T", CUZK_LOG_INFO, NULL, "\n") == 13 &&
        strcmp(out, "T INFO ") == 0);
  CHECK(cuzk_log_line_format(out, 1, true, "T", CUZK_LOG_INFO, NULL, "m") == 48 && out[0] == 0);
}

int main(void) {
  test_text();
  test_json();
  test_short();
  return check_summary("test_logfmt");
}
