/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#define _GNU_SOURCE
#include "util/vec.h"

#include "util/huge_pages.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define VEC_MIN ((size_t)64 << 10)
#define VEC_HUGE ((size_t)2 << 20)

static size_t round_up(size_t x, size_t to) { return (x + to - 1) / to * to; }

/* The file's blocks for its first `bytes`, allocated now: a write into the mapping past the disk's
 * end would be a SIGBUS, a failed fallocate is an error the caller can report. */
static bool reserve_blocks(int fd, size_t bytes) {
  int e = posix_fallocate(fd, 0, (off_t)bytes);
  if (e) errno = e;
  return e == 0;
}

bool cuzk_vec_reserve(cuzk_vec *v, size_t bytes) {
  if (bytes <= v->cap) return true;
  size_t want = v->cap * 2 > bytes ? v->cap * 2 : bytes;
  want = round_up(want < VEC_MIN ? VEC_MIN : want, want >= VEC_HUGE ? VEC_HUGE : 4096);
  if (want < bytes) return false; /* overflow */
  void *p;
  if (v->file && !reserve_blocks(v->fd, want)) return false;
  if (!v->p)
    p = mmap(NULL, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
             0);
  else
    p = mremap(v->p, v->cap, want, MREMAP_MAYMOVE);
  if (p == MAP_FAILED) return false;
  if (want >= VEC_HUGE && !v->file) cuzk_huge_pages_advise(p, want);
  v->p = p;
  v->cap = want;
  return true;
}

void cuzk_vec_free(cuzk_vec *v) {
  if (v->p) munmap(v->p, v->cap);
  if (v->file) close(v->fd); /* the unlinked file's blocks go with its last reference */
  v->p = NULL;
  v->cap = 0;
  v->file = false;
  v->released = 0;
}

void cuzk_vec_shrink(cuzk_vec *v, size_t bytes) {
  size_t want = round_up(bytes ? bytes : 1, 4096);
  if (!v->p || want >= v->cap) return;
  void *p = mremap(v->p, v->cap, want, 0); /* shrinking in place never moves */
  if (p == MAP_FAILED) return;
  v->p = p;
  v->cap = want;
  if (v->file) (void)ftruncate(v->fd, (off_t)want); /* the blocks beyond: a failure keeps them */
}

/* An unlinked file in dir: O_TMPFILE where the file system has it, else a named one removed at
 * once. */
static int temp_file(const char *dir) {
#ifdef O_TMPFILE
  int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)) return fd;
#endif
  size_t n = strlen(dir);
  char *path = malloc(n + 32);
  if (!path) return -1;
  memcpy(path, dir, n);
  memcpy(path + n, "/.cuzk-spill-XXXXXX", 20);
  int f = mkostemp(path, O_CLOEXEC);
  if (f >= 0) unlink(path);
  free(path);
  return f;
}

bool cuzk_vec_to_file(cuzk_vec *v, const char *dir, size_t used) {
  if (v->file) return true;
  if (used > v->cap) {
    errno = EINVAL;
    return false;
  }
  size_t cap = v->cap ? v->cap : VEC_MIN;
  int fd = temp_file(dir);
  if (fd < 0) return false;
  bool ok = reserve_blocks(fd, cap);
  for (size_t at = 0; ok && at < used;) { /* the contents so far, written once */
    ssize_t w = pwrite(fd, (const char *)v->p + at, used - at, (off_t)at);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) ok = false;
    at += w > 0 ? (size_t)w : 0;
  }
  void *p = ok ? mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
  if (p == MAP_FAILED) {
    int e = errno;
    close(fd);
    errno = e;
    return false;
  }
  if (v->p) munmap(v->p, v->cap);
  v->p = p;
  v->cap = cap;
  v->file = true;
  v->fd = fd;
  v->released = 0;
  return true;
}

void cuzk_vec_release(const cuzk_vec *v, size_t off, size_t len) {
  if (!v->file || !len || off >= v->cap) return;
  size_t page = (size_t)sysconf(_SC_PAGESIZE), end = len > v->cap - off ? v->cap : off + len;
  off = off / page * page;
  end = round_up(end, page);
  if (end > v->cap) end = v->cap;
  if (end > off) (void)madvise((char *)v->p + off, end - off, MADV_DONTNEED); /* advice only */
}

void cuzk_vec_release_behind(cuzk_vec *v, size_t used) {
  if (!v->file || used < v->released + CUZK_VEC_RELEASE_STEP) return;
  size_t page = (size_t)sysconf(_SC_PAGESIZE), to = used / page * page;
  cuzk_vec_release(v, v->released, to - v->released);
  v->released = to;
}
