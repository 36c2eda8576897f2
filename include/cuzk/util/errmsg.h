/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The one way library code reports an error in words: every layer returns its own error code
 * and, where the caller passed a buffer, a one-line message naming what was wrong. CUZK_FAIL
 * formats the message (if msg && len) and evaluates to the code, so a failing path reads
 * `return CUZK_FAIL(msg, len, CUZK_POST_EINVAL, "randomness: %zu bytes", n);`.
 */
#ifndef CUZK_ERRMSG_H
#define CUZK_ERRMSG_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* printf into msg[0..len) when msg && len; a no-op otherwise. */
void cuzk_errmsg(char *msg, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#define CUZK_FAIL(msg, len, code, ...) (cuzk_errmsg((msg), (len), __VA_ARGS__), (code))

#ifdef __cplusplus
}
#endif
#endif
