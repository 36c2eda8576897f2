/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* CUZK_FORCE_PORTABLE (cuzk/util/cpu.h) and the rule of every such switch (util/env_switch.h), read
 * when first asked: the ISA choices are made by constructors, before main, and never change
 * afterwards. The CPU's model name, which measured costs are tied to. */
#include "cuzk/util/cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/env_switch.h"

bool cuzk_env_switch(const char *name) {
  const char *v = getenv(name);
  return v && v[0] && !(v[0] == '0' && v[1] == 0);
}

bool cuzk_cpu_force_portable(void) { return cuzk_env_switch("CUZK_FORCE_PORTABLE"); }

void cuzk_cpu_model(char *out, size_t len) {
  if (!out || !len) return;
  snprintf(out, len, "unknown");
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (!f) return;
  char line[512];
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "model name", 10) != 0) continue;
    const char *v = strchr(line, ':');
    if (!v) break;
    size_t o = 0;
    bool space = false;
    for (v++; *v && *v != '\n' && o + 1 < len; v++) { /* one space between words, none at ends */
      if (*v == ' ' || *v == '\t') {
        space = o > 0;
        continue;
      }
      if (space) {
        if (o + 2 >= len) break;
        out[o++] = ' ';
        space = false;
      }
      out[o++] = *v;
    }
    if (o) out[o] = 0;
    break;
  }
  fclose(f);
}
