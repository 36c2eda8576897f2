/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The twiddle tower: level s holds ω_{2^(s+1)}^j, j < 2^s (see ntt_internal.h). Built once per
 * process, on demand, and shared by every size and every thread.
 *
 * Level s is derived from level s-1: T_s[2j] = T_{s-1}[j] and T_s[2j+1] = T_{s-1}[j]·ω_{2^(s+1)},
 * so the whole tower up to level L costs 2^L multiplications (about 7 ms for L = 19).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "cuzk/util/pool.h"
#include "field/consts.h"
#include "ntt/pass.h"

/* Levels below NTT_SMALL_LEVELS live in one static array, level s at offset 2^s (128 KiB): no
 * allocation at all for transforms up to 2^12. */
#define NTT_SMALL_LEVELS 12
static cuzk_fr small_levels[(size_t)1 << NTT_SMALL_LEVELS];

static cuzk_fr *levels[NTT_TOWER_TOP + 1];
/* Levels 0 .. built-1 are complete. Readers load it with acquire order, which makes the level
 * pointers and contents written before the matching release store visible. */
static atomic_uint built;
static pthread_mutex_t build_lock = PTHREAD_MUTEX_INITIALIZER;

void ntt_root(cuzk_fr *w, unsigned k) {
  *w = CUZK_FR_ROOT_OF_UNITY; /* primitive 2^32-th root of unity */
  for (unsigned i = k; i < CUZK_FR_TWO_ADICITY; i++)
    cuzk_fr_sqr(w, w);
}

void ntt_root_inv(cuzk_fr *w, unsigned k) {
  cuzk_fr x;
  ntt_root(&x, k);
  cuzk_fr_inv(w, &x);
}

void ntt_fr_pow_u64(cuzk_fr *r, const cuzk_fr *a, uint64_t e) { cuzk_fr_pow(r, a, &e, 1); }

/* Small tables come from the C heap (the buffer cache rounds to 2 MiB), large ones are
 * huge-page buffers: the strided passes read them with large strides. */
#define NTT_TABLE_BIG ((size_t)2 << 20)

void *ntt_table_alloc(size_t bytes) {
  if (bytes >= NTT_TABLE_BIG) return cuzk_buffer_get(bytes);
  return aligned_alloc(64, (bytes + 63) & ~(size_t)63);
}

void ntt_table_free(void *p, size_t bytes) {
  if (bytes >= NTT_TABLE_BIG)
    cuzk_buffer_put(p);
  else
    free(p);
}

static bool build_level(unsigned s) {
  size_t h = (size_t)1 << s;
  cuzk_fr *t;
  if (s < NTT_SMALL_LEVELS) {
    t = small_levels + h;
  } else {
    t = ntt_table_alloc(h * sizeof(cuzk_fr));
    if (!t) return false;
  }
  if (s == 0) {
    t[0] = cuzk_fr_one;
  } else {
    const cuzk_fr *prev = levels[s - 1];
    cuzk_fr w;
    ntt_root(&w, s + 1);
    for (size_t j = 0; j < h / 2; j++) {
      t[2 * j] = prev[j];
      cuzk_fr_mul(&t[2 * j + 1], &prev[j], &w);
    }
  }
  levels[s] = t;
  return true;
}

bool ntt_levels_ensure(atomic_uint *done, pthread_mutex_t *lock, unsigned top,
                       bool (*build)(unsigned s)) {
  if (atomic_load_explicit(done, memory_order_acquire) > top) return true;
  pthread_mutex_lock(lock);
  bool ok = true;
  for (unsigned b = atomic_load_explicit(done, memory_order_relaxed); b <= top; b++) {
    if (!build(b)) {
      ok = false;
      break;
    }
    atomic_store_explicit(done, b + 1, memory_order_release);
  }
  pthread_mutex_unlock(lock);
  return ok;
}

bool ntt_tower_ensure(unsigned top) {
  if (top > NTT_TOWER_TOP) top = NTT_TOWER_TOP;
  return ntt_levels_ensure(&built, &build_lock, top, build_level);
}

const cuzk_fr *ntt_tower_level(unsigned s) { return levels[s]; }

void ntt_tower_release(void) {
  pthread_mutex_lock(&build_lock);
  unsigned b = atomic_load_explicit(&built, memory_order_relaxed);
  for (unsigned s = NTT_SMALL_LEVELS; s < b; s++)
    ntt_table_free(levels[s], ((size_t)1 << s) * sizeof(cuzk_fr));
  for (unsigned s = 0; s < b; s++)
    levels[s] = NULL;
  atomic_store_explicit(&built, 0, memory_order_release);
  pthread_mutex_unlock(&build_lock);
}

/* ---- public wrappers ------------------------------------------------------------------------ */

cuzk_ntt_err cuzk_ntt_root(cuzk_fr *w, unsigned k) {
  if (!w) return CUZK_NTT_ENULL;
  if (k > CUZK_FR_TWO_ADICITY) return CUZK_NTT_EDOMAIN;
  ntt_root(w, k);
  return CUZK_NTT_OK;
}

cuzk_ntt_err cuzk_ntt_prepare(unsigned k) {
  if (k > CUZK_FR_TWO_ADICITY) return CUZK_NTT_EDOMAIN;
  if (k > CUZK_NTT_MAX_LG) return CUZK_NTT_ETOOBIG;
  if (k == 0) return CUZK_NTT_OK;
  if (!ntt_tower_ensure(k - 1)) return CUZK_NTT_ENOMEM;
  if (ntt_ifma_enabled() && !ntt_ifma_tower_ensure(k - 1)) return CUZK_NTT_ENOMEM;
  return CUZK_NTT_OK;
}

void cuzk_ntt_release(void) {
  ntt_ifma_tower_release(); /* built from this tower: first */
  ntt_tower_release();
}
