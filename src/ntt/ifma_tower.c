/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The twiddle tower in the IFMA kernels' form (see pass.h): level s as groups of eight W-form
 * entries, converted once from the scalar tower (twiddles.c) and cached like it. 40 bytes per
 * entry against 32, so levels 0 .. 19 take 40 MiB; built only on CPUs that run the kernels.
 */
#include <pthread.h>

#include "ntt/pass.h"

static uint64_t *levels[NTT_TOWER_TOP + 1];
static atomic_uint built; /* levels 0 .. built-1 complete (acquire/release as twiddles.c) */
static pthread_mutex_t build_lock = PTHREAD_MUTEX_INITIALIZER;

/* ω_{2h}^j for any j >= 0 from T_s (h = 2^s): ω^h = -1. */
static void entry(cuzk_fr *out, const cuzk_fr *T, size_t h, size_t j) {
  j &= 2 * h - 1;
  if (j < h)
    *out = T[j];
  else
    cuzk_fr_neg(out, &T[j - h]);
}

static size_t level_bytes(unsigned s) {
  const size_t h = (size_t)1 << s, groups = (h + 2 * NTT_IFMA_LANES - 1) / NTT_IFMA_LANES;
  return groups * NTT_IFMA_GROUP_WORDS * sizeof(uint64_t);
}

static bool build_level(unsigned s) {
  const size_t h = (size_t)1 << s, groups = (h + 2 * NTT_IFMA_LANES - 1) / NTT_IFMA_LANES;
  uint64_t *t = ntt_table_alloc(level_bytes(s));
  if (!t) return false;
  const cuzk_fr *T = ntt_tower_level(s);
  for (size_t g = 0; g < groups; g++)
    for (size_t i = 0; i < NTT_IFMA_LANES; i++) {
      cuzk_fr w;
      uint64_t l[5];
      entry(&w, T, h, g * NTT_IFMA_LANES + i);
      ntt_fr_to_w52(l, &w);
      for (int j = 0; j < 5; j++)
        t[g * NTT_IFMA_GROUP_WORDS + 8 * j + i] = l[j];
    }
  levels[s] = t;
  return true;
}

bool ntt_ifma_tower_ensure(unsigned top) {
  if (top > NTT_TOWER_TOP) top = NTT_TOWER_TOP;
  if (!ntt_tower_ensure(top)) return false;
  return ntt_levels_ensure(&built, &build_lock, top, build_level);
}

const uint64_t *ntt_ifma_tower_level(unsigned s) { return levels[s]; }

void ntt_ifma_tower_release(void) {
  pthread_mutex_lock(&build_lock);
  unsigned b = atomic_load_explicit(&built, memory_order_relaxed);
  for (unsigned s = 0; s < b; s++) {
    ntt_table_free(levels[s], level_bytes(s));
    levels[s] = NULL;
  }
  atomic_store_explicit(&built, 0, memory_order_release);
  pthread_mutex_unlock(&build_lock);
}
