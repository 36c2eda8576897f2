/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The PoRep layer's error reporting: a code plus, when the caller gave a buffer, a message. */
#ifndef CUZK_POREP_FAIL_H
#define CUZK_POREP_FAIL_H

#include <stddef.h>

#include "cuzk/porep/porep.h"
#include "cuzk/util/errmsg.h"

/* Formats the message into msg (if msg && len) and evaluates to e (cuzk/util/errmsg.h). */
#define cuzk_porep_fail CUZK_FAIL

#endif
