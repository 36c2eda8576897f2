/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The large-buffer allocator: 2 MiB-aligned anonymous mappings (advised for transparent huge pages
 * when CUZK_HUGE_PAGES asks, util/huge_pages.h), and a free list that keeps returned buffers mapped
 * (and their pages faulted in) for the next request of about the same size.
 *
 * Policy: a request is rounded up to a multiple of 2 MiB and served by the smallest cached
 * buffer of at least that size, provided it is at most twice the size (best fit; a much larger
 * buffer stays cached for a request that needs it); otherwise by a fresh mapping. If mmap fails
 * the cache is unmapped and the mapping retried once. Returned buffers are cached up to a byte
 * limit (util/buffer.h), evicting the least recently returned first. One mutex guards the
 * bookkeeping; mmap and munmap run outside it.
 */
#define _GNU_SOURCE /* MAP_ANONYMOUS, _SC_PHYS_PAGES */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cuzk/util/pool.h"
#include "util/buffer.h"
#include "util/huge_pages.h"

#define LIVE_BUCKETS 256
#define DEFAULT_CACHE_MAX ((size_t)64 << 30)

typedef struct rec rec;
struct rec {
  void *ptr;
  size_t size;
  rec *prev, *next; /* live: bucket chain (next only); cached: the LRU list */
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static rec *live[LIVE_BUCKETS];
static rec *lru_head, *lru_tail; /* cached buffers, least recently returned first */
static cuzk_buffer_stats stats;
static size_t cache_max;
static bool cache_max_set;

/* ---- mappings ---------------------------------------------------------------------------- */

static void *map_aligned(size_t size) {
  /* Map one extra 2 MiB and cut the misaligned ends off, so huge pages can back every byte
   * (when they are wanted, or THP is "always"). */
  size_t span = size + CUZK_BUFFER_ALIGN;
  void *raw = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return NULL;
  uintptr_t r = (uintptr_t)raw;
  uintptr_t a = (r + CUZK_BUFFER_ALIGN - 1) & ~(uintptr_t)(CUZK_BUFFER_ALIGN - 1);
  size_t head = a - r, tail = span - head - size;
  if (head) munmap(raw, head);
  if (tail) munmap((void *)(a + size), tail);
  cuzk_huge_pages_advise((void *)a, size);
  return (void *)a;
}

static void unmap_list(rec *r) {
  while (r) {
    rec *next = r->next;
    munmap(r->ptr, r->size);
    free(r);
    r = next;
  }
}

/* ---- bookkeeping (mutex held) ------------------------------------------------------------ */

static size_t default_cache_max(void) {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return DEFAULT_CACHE_MAX;
  size_t half = (size_t)pages / 2 * (size_t)page;
  return half < DEFAULT_CACHE_MAX ? half : DEFAULT_CACHE_MAX;
}

static size_t limit_locked(void) {
  if (!cache_max_set) {
    cache_max = default_cache_max();
    cache_max_set = true;
  }
  return cache_max;
}

static rec **bucket(const void *ptr) {
  uint64_t k = (uint64_t)(uintptr_t)ptr / CUZK_BUFFER_ALIGN;
  return &live[(k * 0x9e3779b97f4a7c15ull) >> 56]; /* Fibonacci hashing to 8 bits */
}

static void live_insert(rec *r) {
  rec **b = bucket(r->ptr);
  r->next = *b;
  *b = r;
  stats.live_count++;
  stats.live_bytes += r->size;
}

static rec *live_remove(const void *ptr) {
  for (rec **pp = bucket(ptr); *pp; pp = &(*pp)->next) {
    rec *r = *pp;
    if (r->ptr == ptr) {
      *pp = r->next;
      stats.live_count--;
      stats.live_bytes -= r->size;
      return r;
    }
  }
  return NULL;
}

static void lru_unlink(rec *r) {
  if (r->prev)
    r->prev->next = r->next;
  else
    lru_head = r->next;
  if (r->next)
    r->next->prev = r->prev;
  else
    lru_tail = r->prev;
  stats.cached_count--;
  stats.cached_bytes -= r->size;
}

static void lru_append(rec *r) {
  r->prev = lru_tail;
  r->next = NULL;
  if (lru_tail)
    lru_tail->next = r;
  else
    lru_head = r;
  lru_tail = r;
  stats.cached_count++;
  stats.cached_bytes += r->size;
}

/* Unlinks least recently returned buffers until `room` more bytes fit under the limit; returns
 * them as a list (linked by next) to unmap after unlocking. */
static rec *evict_locked(size_t room) {
  size_t limit = limit_locked();
  rec *out = NULL;
  while (lru_head && (room > limit || stats.cached_bytes > limit - room)) {
    rec *r = lru_head;
    lru_unlink(r);
    r->next = out;
    out = r;
  }
  return out;
}

static rec *take_all_locked(void) {
  rec *all = lru_head;
  lru_head = lru_tail = NULL;
  stats.cached_count = stats.cached_bytes = 0;
  return all;
}

/* ---- the API ----------------------------------------------------------------------------- */

void *cuzk_buffer_get(size_t bytes) {
  if (bytes > SIZE_MAX / 2 - CUZK_BUFFER_ALIGN) return NULL;
  size_t size =
      bytes == 0 ? CUZK_BUFFER_ALIGN : (bytes + CUZK_BUFFER_ALIGN - 1) & ~(CUZK_BUFFER_ALIGN - 1);

  pthread_mutex_lock(&mu);
  rec *best = NULL;
  for (rec *r = lru_head; r; r = r->next)
    if (r->size >= size && r->size / 2 <= size && (!best || r->size < best->size)) best = r;
  if (best) {
    lru_unlink(best);
    live_insert(best);
    pthread_mutex_unlock(&mu);
    return best->ptr;
  }
  pthread_mutex_unlock(&mu);

  rec *r = malloc(sizeof *r);
  if (!r) return NULL;
  void *ptr = map_aligned(size);
  if (!ptr) {
    /* Out of address space or overcommit: give back what the cache holds and try once more. */
    cuzk_buffer_trim();
    ptr = map_aligned(size);
  }
  if (!ptr) {
    free(r);
    return NULL;
  }
  r->ptr = ptr;
  r->size = size;
  pthread_mutex_lock(&mu);
  live_insert(r);
  pthread_mutex_unlock(&mu);
  return ptr;
}

void cuzk_buffer_put(void *buf) {
  if (!buf) return;
  pthread_mutex_lock(&mu);
  rec *r = live_remove(buf);
  if (!r) abort(); /* not from cuzk_buffer_get, or put twice: memory is already corrupt */
  rec *evicted;
  if (r->size > limit_locked()) {
    r->next = NULL;
    evicted = r;
  } else {
    evicted = evict_locked(r->size);
    lru_append(r);
  }
  pthread_mutex_unlock(&mu);
  unmap_list(evicted);
}

void cuzk_buffer_trim(void) {
  pthread_mutex_lock(&mu);
  rec *all = take_all_locked();
  pthread_mutex_unlock(&mu);
  unmap_list(all);
}

void cuzk_buffer_set_cache_limit(size_t bytes) {
  pthread_mutex_lock(&mu);
  cache_max = bytes;
  cache_max_set = true;
  rec *evicted = evict_locked(0);
  pthread_mutex_unlock(&mu);
  unmap_list(evicted);
}

size_t cuzk_buffer_cache_limit(void) {
  pthread_mutex_lock(&mu);
  size_t limit = limit_locked();
  pthread_mutex_unlock(&mu);
  return limit;
}

size_t cuzk_buffer_size(const void *buf) {
  size_t size = 0;
  pthread_mutex_lock(&mu);
  for (const rec *r = *bucket(buf); r; r = r->next)
    if (r->ptr == buf) size = r->size;
  pthread_mutex_unlock(&mu);
  return size;
}

void cuzk_buffer_get_stats(cuzk_buffer_stats *s) {
  pthread_mutex_lock(&mu);
  *s = stats;
  pthread_mutex_unlock(&mu);
}
