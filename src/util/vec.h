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
  /* A region moved to a file (cuzk_vec_to_file): a shared mapping of an unlinked temporary file,
   * whose pages the kernel writes back and which leave the resident set when released. */
  bool file;
  int fd;          /* with file */
  size_t released; /* with file: bytes below this were given back by cuzk_vec_release_behind */
} cuzk_vec;

/* Makes cap >= bytes (at least doubling), keeping the contents; false if mapping failed (the
 * region is then unchanged). */
bool cuzk_vec_reserve(cuzk_vec *v, size_t bytes);
void cuzk_vec_free(cuzk_vec *v);
/* Gives back the capacity beyond `bytes` (rounded up to a page), keeping the contents; a region
 * already that small is unchanged. */
void cuzk_vec_shrink(cuzk_vec *v, size_t bytes);

/* Moves the region into an unlinked temporary file in dir (its first `used` bytes kept), mapped
 * shared: later growth reserves disk blocks first (fallocate: a full disk fails the reserve, never
 * a write into the mapping), and cuzk_vec_release gives pages back to the page cache, where the
 * kernel writes them to the file. For recordings too big to hold in memory (docs/r1cs.md
 * "Recordings spilled to disk"). false with errno, the region unchanged. */
bool cuzk_vec_to_file(cuzk_vec *v, const char *dir, size_t used);
/* A file-backed region's bytes [off, off + len), widened to whole pages, leave this process's
 * page tables (their contents stay in the file and the page cache; reading faults them back). A
 * no-op for an anonymous region, whose pages hold the only copy. */
void cuzk_vec_release(const cuzk_vec *v, size_t off, size_t len);
/* For a region written front to back: once `used` is CUZK_VEC_RELEASE_STEP past the last
 * release, everything below used's page goes (cuzk_vec_release). */
#define CUZK_VEC_RELEASE_STEP ((size_t)64 << 20)
void cuzk_vec_release_behind(cuzk_vec *v, size_t used);

#endif
