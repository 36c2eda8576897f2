/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* cuzk-bench --version: the build and the kernels this machine runs, the line cuzk-daemon prints
 * for its own --version (include/cuzk/server/version.h). */
#include <stdio.h>

#include "cli.h"
#include "cuzk/server/version.h"

int cmd_version(void) {
  cuzk_build_info b;
  cuzk_build_info_get(&b);
  char line[256];
  cuzk_build_info_line(&b, line, sizeof line);
  printf("cuzk-bench %s\n", line);
  return 0;
}
