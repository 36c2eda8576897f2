/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Internal helpers of the PoSt layer. */
#ifndef CUZK_POST_INTERNAL_H
#define CUZK_POST_INTERNAL_H

#include <stddef.h>

#include "cuzk/post/post.h"
#include "cuzk/util/errmsg.h"

/* Formats the message into msg (if msg && len) and evaluates to e (cuzk/util/errmsg.h). */
#define cuzk_post_fail CUZK_FAIL

#endif
