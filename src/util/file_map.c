/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Read-only file mappings (cuzk/util/file_map.h). */
#define _GNU_SOURCE /* MADV_*, mincore */
#include "cuzk/util/file_map.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static uint64_t mtime_ns(const struct stat *st) {
  return (uint64_t)st->st_mtim.tv_sec * UINT64_C(1000000000) + (uint64_t)st->st_mtim.tv_nsec;
}

bool cuzk_file_map_open(cuzk_file_map *m, const char *path) {
  memset(m, 0, sizeof *m);
  if (!path) {
    errno = EINVAL;
    return false;
  }
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st;
  int serr = fstat(fd, &st) != 0 ? errno : S_ISREG(st.st_mode) ? 0 : EISDIR;
  if (serr) { /* st is unset when fstat failed */
    close(fd);
    errno = serr;
    return false;
  }
  m->dev = (uint64_t)st.st_dev;
  m->ino = (uint64_t)st.st_ino;
  m->mtime_ns = mtime_ns(&st);
  if (st.st_size == 0) {
    close(fd);
    return true;
  }
  void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  int err = errno;
  close(fd);
  if (p == MAP_FAILED) {
    memset(m, 0, sizeof *m);
    errno = err;
    return false;
  }
  m->data = p;
  m->len = (size_t)st.st_size;
  return true;
}

void cuzk_file_map_close(cuzk_file_map *m) {
  if (m->data) munmap((void *)(uintptr_t)m->data, m->len);
  memset(m, 0, sizeof *m);
}

bool cuzk_file_map_current(const cuzk_file_map *m, const char *path) {
  struct stat st;
  return path && stat(path, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_dev == m->dev &&
         (uint64_t)st.st_ino == m->ino && (uint64_t)st.st_size == m->len &&
         mtime_ns(&st) == m->mtime_ns;
}

size_t cuzk_file_map_resident(const cuzk_file_map *m) {
  if (!m->data) return 0;
  size_t page = (size_t)sysconf(_SC_PAGESIZE), pages = (m->len + page - 1) / page, n = 0;
  /* in slices, so that a 47 GB file needs no 11 MB vector */
  enum { SLICE = 65536 };
  unsigned char *v = malloc(SLICE);
  if (!v) return 0;
  for (size_t i = 0; i < pages; i += SLICE) {
    size_t k = pages - i < SLICE ? pages - i : SLICE;
    size_t bytes = (i + k) * page > m->len ? m->len - i * page : k * page;
    if (mincore((void *)(uintptr_t)(m->data + i * page), bytes, v) != 0) break;
    for (size_t j = 0; j < k; j++)
      n += v[j] & 1;
  }
  free(v);
  size_t bytes = n * page;
  return bytes > m->len ? m->len : bytes;
}

void cuzk_file_map_willneed(const cuzk_file_map *m) {
  if (m->data) madvise((void *)(uintptr_t)m->data, m->len, MADV_WILLNEED);
}

void cuzk_file_map_sequential(const cuzk_file_map *m) {
  if (m->data) madvise((void *)(uintptr_t)m->data, m->len, MADV_SEQUENTIAL);
}
