/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The read-ahead thread (util/prefetch.h): a request is read into the page cache (a file whose
 * pages were dropped with POSIX_FADV_DONTNEED is resident again afterwards, where the file system
 * drops them at all), a newer request replaces an older one and is read in full, a range past
 * the end stops at the end, another file's identity is refused, and stopping with a request
 * pending returns. Completion is awaited through the thread's own counters, never a timer.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "cuzk/util/file_map.h"
#include "util/prefetch.h"

#define MIB ((size_t)1 << 20)

/* Until the thread has served request k (a stuck thread fails the test by ctest's timeout). */
static void wait_served(const cuzk_prefetch *p, uint64_t k) {
  while (cuzk_prefetch_served(p) < k)
    sched_yield();
}

int main(void) {
  char dir[] = "/tmp/cuzk-prefetch-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char path[256], other[256];
  snprintf(path, sizeof path, "%s/f", dir);
  snprintf(other, sizeof other, "%s/g", dir);
  const size_t len = 48 * MIB;
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  CHECK(fd >= 0);
  char *block = malloc(MIB);
  memset(block, 0x5a, MIB);
  for (size_t i = 0; i < len / MIB; i++)
    CHECK(write(fd, block, MIB) == (ssize_t)MIB);
  CHECK(fsync(fd) == 0);
  close(fd);
  fd = open(other, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  CHECK(fd >= 0 && write(fd, block, 4096) == 4096);
  close(fd);
  free(block);

  cuzk_file_map m;
  CHECK(cuzk_file_map_open(&m, path));
  cuzk_file_map g;
  CHECK(cuzk_file_map_open(&g, other));
  CHECK(cuzk_prefetch_start(path, g.dev, g.ino) == NULL); /* not the file it names */
  CHECK(cuzk_prefetch_start(other, m.dev, m.ino) == NULL);
  cuzk_file_map_close(&g);

  /* drop the file's clean pages from the page cache (not on tmpfs: it then stays resident) */
  fd = open(path, O_RDONLY);
  CHECK(fd >= 0 && posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0);
  close(fd);
  size_t dropped = cuzk_file_map_resident(&m);

  cuzk_prefetch *p = cuzk_prefetch_start(path, m.dev, m.ino);
  CHECK(p != NULL);
  if (p) {
    cuzk_prefetch_want(p, 0, 16 * MIB);
    wait_served(p, 1);
    CHECK_MSG(cuzk_prefetch_bytes(p) == 16 * MIB, "request 1: %llu bytes read",
              (unsigned long long)cuzk_prefetch_bytes(p));
    /* request 2 replaced by request 3 at once: 3 is read in full; 2 read at most a part */
    cuzk_prefetch_want(p, 16 * MIB, 16 * MIB);
    cuzk_prefetch_want(p, 32 * MIB, 16 * MIB);
    wait_served(p, 3);
    uint64_t b = cuzk_prefetch_bytes(p);
    CHECK_MSG(b >= 32 * MIB && b <= 48 * MIB, "requests 2 and 3: %llu bytes in all",
              (unsigned long long)b);
    size_t resident = cuzk_file_map_resident(&m);
    if (dropped < len) /* the pages of requests 1 and 3 at least are back in the page cache */
      CHECK_MSG(resident >= 32 * MIB, "resident after the requests: %zu of %zu (dropped to %zu)",
                resident, len, dropped);
    else
      printf("the file system kept the pages (tmpfs?): residency not checked\n");
    /* a range past the end: read up to the end, then served */
    cuzk_prefetch_want(p, len - MIB, 64 * MIB);
    wait_served(p, 4);
    CHECK(cuzk_prefetch_bytes(p) == b + MIB);
    cuzk_prefetch_want(p, 0, len); /* stopped with a request pending or in progress */
    cuzk_prefetch_stop(p);
  }
  cuzk_prefetch_stop(NULL);
  cuzk_file_map_close(&m);
  unlink(path);
  unlink(other);
  rmdir(dir);
  return check_summary("test_prefetch");
}
