/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Whether large anonymous regions are advised for transparent huge pages (MADV_HUGEPAGE). Off
 * unless CUZK_HUGE_PAGES is set to anything but "" or "0": on the development and CI VMs a huge
 * page costs far more to fault in than the 4 KiB pages it replaces, and later passes run as fast
 * either way (docs/performance.md "Huge pages on first touch"). With THP set to "always" the
 * kernel gives huge pages whatever this says. Internal to the util layer and the layers above.
 */
#ifndef CUZK_UTIL_HUGE_PAGES_H
#define CUZK_UTIL_HUGE_PAGES_H

#include <stdbool.h>
#include <stddef.h>

/* CUZK_HUGE_PAGES, read once (the first call). */
bool cuzk_huge_pages_wanted(void);
/* Advises [p, p + bytes) for huge pages when they are wanted; a no-op otherwise or where the
 * kernel has no THP. */
void cuzk_huge_pages_advise(void *p, size_t bytes);

#endif
