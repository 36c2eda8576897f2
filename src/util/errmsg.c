/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* cuzk_errmsg (cuzk/util/errmsg.h). */
#include "cuzk/util/errmsg.h"

#include <stdarg.h>
#include <stdio.h>

void cuzk_errmsg(char *msg, size_t len, const char *fmt, ...) {
  if (!msg || !len) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, len, fmt, ap);
  va_end(ap);
}
