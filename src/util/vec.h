/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Growable byte regions for the big per-proof arrays (witness, a/b/c, densities, CSR): anonymous
 * mappings grown with mremap, so growing never copies and untouched capacity costs no memory.
 * Regions of 2 MiB and more are advised for transparent huge pages when CUZK_HUGE_PAGES asks
 * (util/huge_pages.h). Bytes never written before read as zero.
 */
#ifndef CUZK_UTIL_VEC_H
#define CUZK_UTIL_VEC_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
  void *p;    /* NULL until the first reserve */
  size_t cap; /* bytes mapped */
} cuzk_vec;

/* Makes cap >= bytes (at least doubling), keeping the contents; false if mapping failed (the
 * region is then unchanged). */
bool cuzk_vec_reserve(cuzk_vec *v, size_t bytes);
void cuzk_vec_free(cuzk_vec *v);
/* Gives back the capacity beyond `bytes` (rounded up to a page), keeping the contents; a region
 * already that small is unchanged. */
void cuzk_vec_shrink(cuzk_vec *v, size_t bytes);

#endif
