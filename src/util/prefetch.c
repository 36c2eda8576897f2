/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The read-ahead thread (util/prefetch.h). */
#define _GNU_SOURCE /* pread with 64-bit offsets */
#include "util/prefetch.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define STEP ((size_t)1 << 20) /* one pread: the buffer stays in L2, the copy costs little */

struct cuzk_prefetch {
  int fd;
  void *buf;
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  uint64_t off, len;    /* the pending request (under mu) */
  _Atomic uint64_t gen; /* requests made; the thread compares it between steps */
  _Atomic uint64_t served, bytes;
  _Atomic bool stop;
};

static void *run(void *arg) {
  cuzk_prefetch *p = arg;
  uint64_t seen = 0;
  for (;;) {
    pthread_mutex_lock(&p->mu);
    while (!atomic_load(&p->stop) && atomic_load(&p->gen) == seen)
      pthread_cond_wait(&p->cv, &p->mu);
    uint64_t off = p->off, end = p->off + p->len, gen = atomic_load(&p->gen);
    pthread_mutex_unlock(&p->mu);
    if (atomic_load(&p->stop)) break;
    /* the requests between seen and gen were replaced before they started */
    seen = gen;
    while (off < end && atomic_load(&p->gen) == gen && !atomic_load(&p->stop)) {
      size_t n = end - off < STEP ? (size_t)(end - off) : STEP;
      ssize_t r = pread(p->fd, p->buf, n, (off_t)off);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) break; /* past the end or an error: the reader's own read will say */
      off += (uint64_t)r;
      atomic_fetch_add(&p->bytes, (uint64_t)r);
    }
    atomic_store(&p->served, gen);
  }
  return NULL;
}

cuzk_prefetch *cuzk_prefetch_start(const char *path, uint64_t dev, uint64_t ino) {
  cuzk_prefetch *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  bool ok = p->fd >= 0 && fstat(p->fd, &st) == 0 && (uint64_t)st.st_dev == dev &&
            (uint64_t)st.st_ino == ino && (p->buf = malloc(STEP)) != NULL;
  if (ok && pthread_mutex_init(&p->mu, NULL) != 0) ok = false;
  if (ok && pthread_cond_init(&p->cv, NULL) != 0) {
    pthread_mutex_destroy(&p->mu);
    ok = false;
  }
  if (ok && pthread_create(&p->thread, NULL, run, p) != 0) {
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    ok = false;
  }
  if (!ok) {
    if (p->fd >= 0) close(p->fd);
    free(p->buf);
    free(p);
    return NULL;
  }
  return p;
}

void cuzk_prefetch_want(cuzk_prefetch *p, uint64_t off, uint64_t len) {
  if (!p || !len) return;
  pthread_mutex_lock(&p->mu);
  p->off = off;
  p->len = len;
  atomic_fetch_add(&p->gen, 1);
  pthread_cond_signal(&p->cv);
  pthread_mutex_unlock(&p->mu);
}

uint64_t cuzk_prefetch_bytes(const cuzk_prefetch *p) {
  return p ? atomic_load(&((cuzk_prefetch *)p)->bytes) : 0;
}

uint64_t cuzk_prefetch_served(const cuzk_prefetch *p) {
  return p ? atomic_load(&((cuzk_prefetch *)p)->served) : 0;
}

void cuzk_prefetch_stop(cuzk_prefetch *p) {
  if (!p) return;
  pthread_mutex_lock(&p->mu);
  atomic_store(&p->stop, true);
  pthread_cond_signal(&p->cv);
  pthread_mutex_unlock(&p->mu);
  pthread_join(p->thread, NULL);
  pthread_cond_destroy(&p->cv);
  pthread_mutex_destroy(&p->mu);
  close(p->fd);
  free(p->buf);
  free(p);
}
