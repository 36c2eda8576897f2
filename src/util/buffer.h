/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Knobs and counters of the large-buffer cache (cuzk_buffer_get/put/trim in cuzk/util/pool.h), for
 * the engine that sizes it and for tests. Internal to the util layer and the layers above it.
 */
#ifndef CUZK_UTIL_BUFFER_H
#define CUZK_UTIL_BUFFER_H

#include <stddef.h>

/* Buffers are whole multiples of this and aligned to it (one x86-64 huge page). */
#define CUZK_BUFFER_ALIGN ((size_t)2 << 20)

/* The most bytes the free list keeps; a put that would exceed it unmaps the least recently
 * returned buffers first (and the returned one itself if it alone is larger). The default is
 * min(64 GiB, half the physical memory). Lowering it unmaps at once what no longer fits. */
void cuzk_buffer_set_cache_limit(size_t bytes);
size_t cuzk_buffer_cache_limit(void);

/* The usable size of a buffer from cuzk_buffer_get (its request rounded up, or more when a
 * larger cached buffer was reused); 0 if buf is not a live buffer. */
size_t cuzk_buffer_size(const void *buf);

typedef struct {
  size_t live_count, live_bytes;     /* handed out and not yet put back */
  size_t cached_count, cached_bytes; /* in the free list */
} cuzk_buffer_stats;
void cuzk_buffer_get_stats(cuzk_buffer_stats *s);

#endif
