/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * What /proc/self/smaps says about the mapping holding an address: for tests of what a mapping
 * holds in the page tables (Rss) and how it was advised (VmFlags).
 */
#ifndef CUZK_TESTS_SMAPS_H
#define CUZK_TESTS_SMAPS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The line starting with field ("Rss:", "VmFlags:") of the mapping holding addr, copied into
 * line; false if there is no such mapping or line. */
static inline bool smaps_line(const void *addr, const char *field, char *line, size_t len) {
  FILE *f = fopen("/proc/self/smaps", "r");
  if (!f) return false;
  bool in = false, found = false;
  uintptr_t a = (uintptr_t)addr;
  size_t fl = strlen(field);
  while (!found && fgets(line, (int)len, f)) {
    unsigned long lo, hi;
    if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) /* a mapping's first line */
      in = a >= lo && a < hi;
    else if (in && strncmp(line, field, fl) == 0)
      found = true;
  }
  fclose(f);
  return found;
}

/* A kB field of the mapping holding addr ("Rss:"), or -1. */
static inline long smaps_kb(const void *addr, const char *field) {
  char line[512];
  return smaps_line(addr, field, line, sizeof line) ? strtol(line + strlen(field), NULL, 10) : -1;
}

#endif
