/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The git commit a build came from, in build_id.c that src/server/build_id.cmake writes into the
 * build tree (rewritten only when the commit or the dirty flag changes). */
#ifndef CUZK_SERVER_BUILD_ID_H
#define CUZK_SERVER_BUILD_ID_H

#include <stdbool.h>

extern const char cuzk_build_id_commit[]; /* 12 hex digits; "" outside a git checkout */
extern const bool cuzk_build_id_dirty;    /* tracked files differed from the commit */

#endif
