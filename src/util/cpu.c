/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* CUZK_FORCE_PORTABLE (cuzk/cpu.h) and the rule of every such switch (util/env_switch.h). Read
 * when first asked: the ISA choices are made by constructors, before main, and never change
 * afterwards. */
#include "cuzk/cpu.h"

#include <stdlib.h>

#include "util/env_switch.h"

bool cuzk_env_switch(const char *name) {
  const char *v = getenv(name);
  return v && v[0] && !(v[0] == '0' && v[1] == 0);
}

bool cuzk_cpu_force_portable(void) { return cuzk_env_switch("CUZK_FORCE_PORTABLE"); }
