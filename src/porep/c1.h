/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The C1 output inside the porep layer: the public contract is include/cuzk/c1.h; here what the
 * c1_*.c files share. */
#ifndef CUZK_POREP_C1_H
#define CUZK_POREP_C1_H

#include "cuzk/c1.h"

/* ---- internal helpers shared by the c1_*.c files ----------------------------------------- */

/* Sets err->msg (if err) with printf formatting and returns e. */
cuzk_c1_err cuzk_c1_fail(cuzk_c1_errbuf *err, cuzk_c1_err e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
