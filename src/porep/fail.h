/* The PoRep layer's error reporting: a code plus, when the caller gave a buffer, a message. */
#ifndef CUZK_POREP_FAIL_H
#define CUZK_POREP_FAIL_H

#include <stddef.h>

#include "cuzk/porep.h"

/* Formats the message into msg (if msg && len) and returns e. */
cuzk_porep_err cuzk_porep_fail(char *msg, size_t len, cuzk_porep_err e, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
