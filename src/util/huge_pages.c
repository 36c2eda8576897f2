/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* CUZK_HUGE_PAGES (util/huge_pages.h). */
#define _GNU_SOURCE /* MADV_HUGEPAGE */
#include "util/huge_pages.h"

#include <pthread.h>
#include <sys/mman.h>

#include "util/env_switch.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool wanted;

static void read_env(void) { wanted = cuzk_env_switch("CUZK_HUGE_PAGES"); }

bool cuzk_huge_pages_wanted(void) {
  pthread_once(&once, read_env);
  return wanted;
}

void cuzk_huge_pages_advise(void *p, size_t bytes) {
#ifdef MADV_HUGEPAGE
  /* Advisory: fails with EINVAL where THP is compiled out; the region works either way. */
  if (cuzk_huge_pages_wanted()) (void)madvise(p, bytes, MADV_HUGEPAGE);
#else
  (void)p;
  (void)bytes;
#endif
}
