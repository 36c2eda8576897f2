/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* CUZK_FORCE_PORTABLE (cuzk/cpu.h). Read when first asked: the ISA choices are made by
 * constructors, before main, and never change afterwards. */
#include "cuzk/cpu.h"

#include <stdlib.h>

bool cuzk_cpu_force_portable(void) {
  const char *v = getenv("CUZK_FORCE_PORTABLE");
  return v && v[0] && !(v[0] == '0' && v[1] == 0);
}
