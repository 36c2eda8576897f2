/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Large-buffer allocator tests: 2 MiB rounding and alignment, every byte writable, reuse of the
 * same buffer for the same size, best fit, no aliasing between live buffers (also from several
 * threads at once), the cache limit, and trim; the huge-page advice of buffers and growable
 * regions as CUZK_HUGE_PAGES asks (registered with it unset and set to 1).
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cuzk/util/pool.h"
#include "smaps.h"
#include "util/buffer.h"
#include "util/huge_pages.h"
#include "util/vec.h"

#define MIB ((size_t)1 << 20)

/* Writes a pattern of `seed` into every 4 KiB page: its first and last 8 bytes (so the
 * buffer's last byte too). */
static void fill(void *buf, size_t size, uint64_t seed) {
  unsigned char *b = buf;
  for (size_t off = 0; off < size; off += 4096) {
    uint64_t v = seed ^ off;
    memcpy(b + off, &v, 8);
    memcpy(b + off + 4088, &v, 8);
  }
}

static bool holds(const void *buf, size_t size, uint64_t seed) {
  const unsigned char *b = buf;
  for (size_t off = 0; off < size; off += 4096) {
    uint64_t v = seed ^ off, x, y;
    memcpy(&x, b + off, 8);
    memcpy(&y, b + off + 4088, 8);
    if (x != v || y != v) return false;
  }
  return true;
}

static bool disjoint(const void *a, size_t na, const void *b, size_t nb) {
  uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
  return x + na <= y || y + nb <= x;
}

static cuzk_buffer_stats stats(void) {
  cuzk_buffer_stats s;
  cuzk_buffer_get_stats(&s);
  return s;
}

static void test_sizes_and_writes(void) {
  static const size_t req[] = {0,       1,           4096,        2 * MIB - 1,
                               2 * MIB, 2 * MIB + 1, 5 * MIB + 3, 33 * MIB};
  for (size_t i = 0; i < sizeof req / sizeof *req; i++) {
    void *b = cuzk_buffer_get(req[i]);
    CHECK(b != NULL);
    if (!b) continue;
    size_t want = req[i] == 0 ? 2 * MIB : (req[i] + 2 * MIB - 1) / (2 * MIB) * (2 * MIB);
    CHECK_MSG(cuzk_buffer_size(b) == want, "get(%zu): size %zu", req[i], cuzk_buffer_size(b));
    CHECK(((uintptr_t)b & (CUZK_BUFFER_ALIGN - 1)) == 0);
    fill(b, want, 0x1234 + i);
    CHECK(holds(b, want, 0x1234 + i));
    cuzk_buffer_put(b);
  }
  CHECK(cuzk_buffer_size(NULL) == 0);
  cuzk_buffer_put(NULL);
  CHECK(cuzk_buffer_get(SIZE_MAX) == NULL);
  CHECK(cuzk_buffer_get(SIZE_MAX - 4 * MIB) == NULL);
  cuzk_buffer_trim();
  cuzk_buffer_stats s = stats();
  CHECK(s.live_count == 0 && s.live_bytes == 0 && s.cached_count == 0 && s.cached_bytes == 0);
}

static void test_reuse(void) {
  cuzk_buffer_trim();
  void *a = cuzk_buffer_get(6 * MIB);
  void *b = cuzk_buffer_get(10 * MIB);
  CHECK(a && b && a != b && disjoint(a, 6 * MIB, b, 10 * MIB));
  fill(a, 6 * MIB, 1);
  fill(b, 10 * MIB, 2);
  CHECK(holds(a, 6 * MIB, 1) && holds(b, 10 * MIB, 2)); /* no aliasing */
  cuzk_buffer_stats s = stats();
  CHECK(s.live_count == 2 && s.live_bytes == 16 * MIB && s.cached_bytes == 0);

  cuzk_buffer_put(a);
  s = stats();
  CHECK(s.live_count == 1 && s.cached_count == 1 && s.cached_bytes == 6 * MIB);
  /* Same size, and a size that rounds to it, get the same buffer back, pages and contents. */
  void *a2 = cuzk_buffer_get(6 * MIB);
  CHECK(a2 == a);
  CHECK(holds(a2, 6 * MIB, 1));
  cuzk_buffer_put(a2);
  void *a3 = cuzk_buffer_get(4 * MIB + 1);
  CHECK(a3 == a);
  /* While a is out, the same request gets a different buffer. */
  void *c = cuzk_buffer_get(6 * MIB);
  CHECK(c && c != a && c != b && disjoint(c, 6 * MIB, a, 6 * MIB) &&
        disjoint(c, 6 * MIB, b, 10 * MIB));
  fill(c, 6 * MIB, 3);
  CHECK(holds(a3, 6 * MIB, 1) && holds(b, 10 * MIB, 2));
  cuzk_buffer_put(a3);
  cuzk_buffer_put(b);
  cuzk_buffer_put(c);

  /* Best fit over the cached 6, 6 and 10 MiB buffers: 5 MiB gets a 6 MiB one, 8 MiB the
   * 10 MiB one; 2 MiB gets a fresh mapping (6 MiB is over twice its size), and so does 22 MiB
   * (larger than any). */
  s = stats();
  CHECK(s.live_count == 0 && s.cached_count == 3 && s.cached_bytes == 22 * MIB);
  void *x = cuzk_buffer_get(5 * MIB);
  CHECK(x == a || x == c);
  void *y = cuzk_buffer_get(8 * MIB);
  CHECK(y == b);
  void *z = cuzk_buffer_get(2 * MIB);
  CHECK(z != a && z != c);
  CHECK(cuzk_buffer_size(z) == 2 * MIB);
  void *w = cuzk_buffer_get(22 * MIB);
  CHECK(w != a && w != b && w != c && cuzk_buffer_size(w) == 22 * MIB);
  fill(w, 22 * MIB, 9);
  CHECK(holds(w, 22 * MIB, 9));
  cuzk_buffer_put(x);
  cuzk_buffer_put(y);
  cuzk_buffer_put(z);
  cuzk_buffer_put(w);

  /* Trim unmaps everything cached; a later get still works. */
  cuzk_buffer_trim();
  s = stats();
  CHECK(s.cached_count == 0 && s.cached_bytes == 0 && s.live_count == 0);
  void *d = cuzk_buffer_get(6 * MIB);
  CHECK(d != NULL);
  fill(d, 6 * MIB, 4);
  CHECK(holds(d, 6 * MIB, 4));
  cuzk_buffer_put(d);
  cuzk_buffer_trim();
}

static void test_cache_limit(void) {
  cuzk_buffer_trim();
  size_t old = cuzk_buffer_cache_limit();
  CHECK(old > 0 && old <= (size_t)64 << 30);
  cuzk_buffer_set_cache_limit(9 * MIB);
  CHECK(cuzk_buffer_cache_limit() == 9 * MIB);
  void *b[4];
  for (int i = 0; i < 4; i++)
    b[i] = cuzk_buffer_get(4 * MIB);
  void *big = cuzk_buffer_get(12 * MIB);
  for (int i = 0; i < 4; i++)
    cuzk_buffer_put(b[i]);
  /* Only two 4 MiB buffers fit in 9 MiB: the last two returned. */
  cuzk_buffer_stats s = stats();
  CHECK(s.cached_count == 2 && s.cached_bytes == 8 * MIB);
  void *r1 = cuzk_buffer_get(4 * MIB), *r2 = cuzk_buffer_get(4 * MIB);
  CHECK((r1 == b[2] && r2 == b[3]) || (r1 == b[3] && r2 == b[2]));
  cuzk_buffer_put(r1);
  cuzk_buffer_put(r2);
  /* A buffer over the limit is not cached (and nothing is evicted for it). */
  cuzk_buffer_put(big);
  s = stats();
  CHECK(s.cached_count == 2 && s.cached_bytes == 8 * MIB);
  /* Lowering the limit evicts at once. */
  cuzk_buffer_set_cache_limit(4 * MIB);
  s = stats();
  CHECK(s.cached_count == 1 && s.cached_bytes == 4 * MIB);
  cuzk_buffer_set_cache_limit(0);
  s = stats();
  CHECK(s.cached_count == 0);
  void *e = cuzk_buffer_get(2 * MIB);
  cuzk_buffer_put(e);
  CHECK(stats().cached_count == 0);
  cuzk_buffer_set_cache_limit(old);
}

/* Threads getting, filling, checking and returning buffers of a few sizes at once: a buffer
 * handed to two threads at once would show the other thread's pattern. */
typedef struct {
  unsigned id, bad;
} worker_arg;

static void *buffer_worker(void *arg) {
  worker_arg *w = arg;
  uint64_t s = 0x9e3779b97f4a7c15ull * (w->id + 1);
  for (int it = 0; it < 150; it++) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    size_t size = (1 + s % 4) * 2 * MIB;
    void *b = cuzk_buffer_get(size - (s >> 40) % MIB);
    if (!b) {
      w->bad++;
      continue;
    }
    uint64_t seed = (uint64_t)w->id << 32 | (uint64_t)it;
    fill(b, size, seed);
    sched_yield();
    if (!holds(b, size, seed)) w->bad++;
    cuzk_buffer_put(b);
  }
  return NULL;
}

static void test_threads(void) {
  pthread_t t[4];
  worker_arg w[4];
  for (unsigned i = 0; i < 4; i++) {
    w[i] = (worker_arg){i, 0};
    pthread_create(&t[i], NULL, buffer_worker, &w[i]);
  }
  for (unsigned i = 0; i < 4; i++) {
    pthread_join(t[i], NULL);
    CHECK_MSG(w[i].bad == 0, "thread %u: %u bad buffers", i, w[i].bad);
  }
  cuzk_buffer_stats s = stats();
  CHECK(s.live_count == 0 && s.cached_count <= 16);
  cuzk_buffer_trim();
  CHECK(stats().cached_bytes == 0);
}

/* 1 if the mapping holding p has the kernel's "hg" flag (advised MADV_HUGEPAGE), 0 if not, -1
 * if /proc/self/smaps has no mapping holding it. */
static int advised_huge(const void *p) {
  char line[512];
  return smaps_line(p, "VmFlags:", line, sizeof line) ? strstr(line, " hg") != NULL : -1;
}

/* Advised exactly when CUZK_HUGE_PAGES is set to something other than "" or "0". */
static void test_huge_page_advice(void) {
  const char *v = getenv("CUZK_HUGE_PAGES");
  bool want = v && *v && strcmp(v, "0") != 0;
  CHECK(cuzk_huge_pages_wanted() == want);
  void *b = cuzk_buffer_get(4 * MIB);
  CHECK(b != NULL);
  if (b) {
    CHECK_MSG(advised_huge(b) == want, "buffer: hg flag %d, CUZK_HUGE_PAGES %s", advised_huge(b),
              v ? v : "unset");
    cuzk_buffer_put(b);
  }
  cuzk_vec small = {0}, big = {0};
  CHECK(cuzk_vec_reserve(&small, 64 << 10) && cuzk_vec_reserve(&big, 4 * MIB));
  if (small.p && big.p) {
    CHECK_MSG(advised_huge(big.p) == want, "vec: hg flag %d", advised_huge(big.p));
    CHECK_MSG(advised_huge(small.p) == 0, "a 64 KiB vec advised"); /* below 2 MiB: never */
  }
  cuzk_vec_free(&small);
  cuzk_vec_free(&big);
  cuzk_buffer_trim();
}

static bool pattern_ok(const cuzk_vec *v, size_t n, uint64_t seed) {
  const uint64_t *w = v->p;
  for (size_t i = 0; i < n / 8; i++)
    if (w[i] != (seed ^ i) * 0x9e3779b97f4a7c15ULL) return false;
  return true;
}

static void pattern(cuzk_vec *v, size_t from, size_t to, uint64_t seed) {
  uint64_t *w = v->p;
  for (size_t i = from / 8; i < to / 8; i++)
    w[i] = (seed ^ i) * 0x9e3779b97f4a7c15ULL;
}

/* A region moved to a file (util/vec.h cuzk_vec_to_file): its contents kept through the move,
 * growth and shrinking; written front to back with cuzk_vec_release_behind it holds at most two
 * release steps of pages, and what it released reads back intact; release leaves an anonymous
 * region's contents alone; a directory that does not exist leaves the region as it was. */
static void test_vec_file(void) {
  char dir[] = "/tmp/cuzk-vec-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  cuzk_vec v = {0};
  CHECK(cuzk_vec_reserve(&v, MIB));
  pattern(&v, 0, MIB, 1);
  cuzk_vec_release(&v, 0, MIB); /* anonymous: nothing happens */
  CHECK(pattern_ok(&v, MIB, 1));
  void *was = v.p;
  CHECK(!cuzk_vec_to_file(&v, "/nonexistent-cuzk-dir", MIB) && v.p == was && !v.file);
  CHECK(cuzk_vec_to_file(&v, dir, MIB) && v.file && v.cap >= MIB);
  CHECK(pattern_ok(&v, MIB, 1));
  const size_t n = 2 * CUZK_VEC_RELEASE_STEP + 32 * MIB;
  long peak = 0;
  for (size_t at = MIB; at < n; at += 4 * MIB) { /* grown and written 4 MiB at a time */
    CHECK(cuzk_vec_reserve(&v, at + 4 * MIB));
    pattern(&v, at, at + 4 * MIB, 1);
    cuzk_vec_release_behind(&v, at + 4 * MIB);
    long kb = smaps_kb(v.p, "Rss:");
    if (kb > peak) peak = kb;
  }
  CHECK_MSG(peak > 0 && (size_t)peak * 1024 <= 2 * CUZK_VEC_RELEASE_STEP + 8 * MIB,
            "resident while written: %ld kB", peak);
  CHECK(v.released >= CUZK_VEC_RELEASE_STEP);
  CHECK(pattern_ok(&v, n, 1)); /* the released pages come back from the file */
  cuzk_vec_release(&v, 0, v.cap);
  CHECK_MSG(smaps_kb(v.p, "Rss:") == 0, "released: %ld kB resident", smaps_kb(v.p, "Rss:"));
  cuzk_vec_shrink(&v, 3 * MIB);
  CHECK(v.cap == 3 * MIB && pattern_ok(&v, 3 * MIB, 1));
  cuzk_vec_free(&v);
  CHECK(!v.file && !v.p);
  CHECK(rmdir(dir) == 0); /* the file was never named there */
}

int main(void) {
  test_vec_file();
  test_sizes_and_writes();
  test_reuse();
  test_cache_limit();
  test_threads();
  test_huge_page_advice();
  return check_summary("test_buffer");
}
