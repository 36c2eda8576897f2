/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Minimal assertion helpers for the C tests: every failed check prints where and why; main()
 * returns check_summary(), non-zero if anything failed. */
#ifndef CUZK_TESTS_CHECK_H
#define CUZK_TESTS_CHECK_H

#include <stdio.h>
#include <string.h>

static unsigned check_passed, check_failed;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (cond) {                                                                \
      check_passed++;                                                          \
    } else {                                                                   \
      check_failed++;                                                          \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                          \
  } while (0)

#define CHECK_MSG(cond, ...)                                                   \
  do {                                                                         \
    if (cond) {                                                                \
      check_passed++;                                                          \
    } else {                                                                   \
      check_failed++;                                                          \
      fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
    }                                                                          \
  } while (0)

static inline int check_summary(const char *name) {
  printf("%s: %u checks passed, %u failed\n", name, check_passed, check_failed);
  return check_failed ? 1 : 0;
}

/* Hex helpers: lowercase, no prefix. */
static inline void to_hex(char *out, const unsigned char *in, size_t n) {
  static const char d[] = "0123456789abcdef";
  for (size_t i = 0; i < n; i++) {
    out[2 * i] = d[in[i] >> 4];
    out[2 * i + 1] = d[in[i] & 15];
  }
  out[2 * n] = 0;
}

static inline int hex_val(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Returns 0 on success, -1 if the text is not exactly 2n hex digits. */
static inline int from_hex(unsigned char *out, const char *hex, size_t n) {
  if (strlen(hex) != 2 * n) return -1;
  for (size_t i = 0; i < n; i++) {
    int hi = hex_val(hex[2 * i]), lo = hex_val(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return -1;
    out[i] = (unsigned char)(hi << 4 | lo);
  }
  return 0;
}

#endif
