/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#define _GNU_SOURCE
#include "util/vec.h"

#include "util/huge_pages.h"

#include <sys/mman.h>

#define VEC_MIN ((size_t)64 << 10)
#define VEC_HUGE ((size_t)2 << 20)

static size_t round_up(size_t x, size_t to) { return (x + to - 1) / to * to; }

bool cuzk_vec_reserve(cuzk_vec *v, size_t bytes) {
  if (bytes <= v->cap) return true;
  size_t want = v->cap * 2 > bytes ? v->cap * 2 : bytes;
  want = round_up(want < VEC_MIN ? VEC_MIN : want, want >= VEC_HUGE ? VEC_HUGE : 4096);
  if (want < bytes) return false; /* overflow */
  void *p;
  if (!v->p)
    p = mmap(NULL, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
             0);
  else
    p = mremap(v->p, v->cap, want, MREMAP_MAYMOVE);
  if (p == MAP_FAILED) return false;
  if (want >= VEC_HUGE) cuzk_huge_pages_advise(p, want);
  v->p = p;
  v->cap = want;
  return true;
}

void cuzk_vec_free(cuzk_vec *v) {
  if (v->p) munmap(v->p, v->cap);
  v->p = NULL;
  v->cap = 0;
}

void cuzk_vec_shrink(cuzk_vec *v, size_t bytes) {
  size_t want = round_up(bytes ? bytes : 1, 4096);
  if (!v->p || want >= v->cap) return;
  void *p = mremap(v->p, v->cap, want, 0); /* shrinking in place never moves */
  if (p == MAP_FAILED) return;
  v->p = p;
  v->cap = want;
}
