/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Linear combinations: spill buffers recycled by the constraint system, the out-of-line adds,
 * and normalization (sort by variable, merge repeats). */
#include <stdlib.h>
#include <string.h>

#include "r1cs/cs_internal.h"

#define BLOCK_MIN 16

static cuzk_lc_block *block_get(cuzk_cs *cs, uint32_t need) {
  cuzk_lc_block *b = cs->free_blocks;
  if (b) {
    cs->free_blocks = b->next;
  } else {
    b = calloc(1, sizeof *b);
    if (!b) return NULL;
  }
  if (b->cap < need) {
    uint32_t cap = b->cap ? b->cap : BLOCK_MIN;
    while (cap < need)
      cap *= 2;
    uint32_t *v = realloc(b->vars, (size_t)cap * sizeof *v);
    if (v) b->vars = v;
    cuzk_fr *c = realloc(b->coeffs, (size_t)cap * sizeof *c);
    if (c) b->coeffs = c;
    if (!v || !c) {
      b->next = cs->free_blocks;
      cs->free_blocks = b;
      return NULL;
    }
    b->cap = cap;
  }
  b->next = NULL;
  return b;
}

void cuzk_lc_grow(cuzk_lc *lc) {
  cuzk_cs *cs = lc->cs;
  if (!lc->spill) {
    cuzk_lc_block *b = block_get(cs, lc->n + 1 > BLOCK_MIN ? lc->n + 1 : BLOCK_MIN);
    if (!b) goto fail;
    memcpy(b->vars, lc->ivars, lc->n * sizeof(uint32_t));
    memcpy(b->coeffs, lc->icoeffs, lc->n * sizeof(cuzk_fr));
    lc->spill = b;
    lc->cap = b->cap;
    return;
  }
  cuzk_lc_block *b = lc->spill;
  uint32_t cap = b->cap * 2;
  uint32_t *v = realloc(b->vars, (size_t)cap * sizeof *v);
  if (v) b->vars = v;
  cuzk_fr *c = realloc(b->coeffs, (size_t)cap * sizeof *c);
  if (c) b->coeffs = c;
  if (!v || !c) goto fail;
  b->cap = cap;
  lc->cap = cap;
  return;
fail:
  /* Out of memory: record it and deactivate the LC (nothing is stored from here on). */
  cs_fail(cs, CUZK_R1CS_ENOMEM);
  cuzk_lc_release(lc);
  lc->cs = NULL;
}

void cuzk_lc_release(cuzk_lc *lc) {
  if (lc->spill) {
    lc->spill->next = lc->cs->free_blocks;
    lc->cs->free_blocks = lc->spill;
    lc->spill = NULL;
  }
  if (lc->cs) lc->cap = ((const cuzk_cs_head *)(const void *)lc->cs)->lc_inline;
  lc->n = 0;
  lc->has_one = false;
}

void cuzk_lc_add_one_slow(cuzk_lc *lc, const cuzk_fr *k) {
  if (lc->has_one) {
    cuzk_fr_add(&lc->one, &lc->one, k);
  } else {
    lc->one = *k;
    lc->has_one = true;
  }
}

void cuzk_lc_sub(cuzk_lc *lc, cuzk_var v, const cuzk_fr *k) {
  if (!lc->cs) return;
  cuzk_fr n;
  cuzk_fr_neg(&n, k ? k : &cuzk_fr_one);
  cuzk_lc_add(lc, v, &n);
}

void cuzk_lc_add_const(cuzk_lc *lc, const cuzk_fr *k) {
  if (!lc->cs) return;
  cuzk_lc_add_one_slow(lc, k);
}

void cuzk_lc_add_lc(cuzk_lc *lc, const cuzk_lc *o, const cuzk_fr *k) {
  if (!lc->cs || !o->cs) return;
  const uint32_t *vars = cuzk_lc_vars((cuzk_lc *)o);
  const cuzk_fr *coeffs = cuzk_lc_coeffs((cuzk_lc *)o);
  bool unit = !k || cuzk_fr_is_one(k);
  if (o->has_one) {
    cuzk_fr t = o->one;
    if (!unit) cuzk_fr_mul(&t, &t, k);
    cuzk_lc_add_one_slow(lc, &t);
  }
  for (uint32_t i = 0; i < o->n; i++) {
    if (unit) {
      cuzk_lc_add(lc, vars[i], &coeffs[i]);
    } else {
      cuzk_fr t;
      cuzk_fr_mul(&t, &coeffs[i], k);
      cuzk_lc_add(lc, vars[i], &t);
    }
  }
}

void cuzk_lc_eval(cuzk_fr *out, const cuzk_lc *lc) {
  *out = cuzk_fr_zero;
  if (!lc->cs || !lc->cs->head.has_values) return;
  if (lc->has_one) *out = lc->one;
  const uint32_t *vars = cuzk_lc_vars((cuzk_lc *)lc);
  const cuzk_fr *coeffs = cuzk_lc_coeffs((cuzk_lc *)lc);
  for (uint32_t i = 0; i < lc->n; i++) {
    cuzk_fr t;
    cuzk_fr_mul(&t, &coeffs[i], cs_value(lc->cs, vars[i]));
    cuzk_fr_add(out, out, &t);
  }
}

/* ---- repeats -------------------------------------------------------------------------------- */

/* One pass setting a bit per variable in the constraint system's (all-clear) bitmaps, one pass
 * clearing them: O(n), no sorting on the common path where nothing repeats. */
bool lc_has_repeat(cuzk_lc *lc) {
  cuzk_cs *cs = lc->cs;
  const uint32_t *vars = cuzk_lc_vars(lc);
  uint64_t *sa = cs->seen_aux.p, *si = cs->seen_in.p;
  bool rep = false;
  uint32_t i;
  for (i = 0; i < lc->n; i++) {
    cuzk_var v = vars[i];
    if (bitmap_test_set(cuzk_var_is_aux(v) ? sa : si, cuzk_var_index(v))) {
      rep = true;
      i++;
      break;
    }
  }
  for (uint32_t j = 0; j < i; j++) {
    cuzk_var v = vars[j];
    uint64_t *w = cuzk_var_is_aux(v) ? sa : si;
    uint32_t x = cuzk_var_index(v);
    w[x / 64] &= ~((uint64_t)1 << (x % 64));
  }
  return rep;
}

/*
 * Merging without sorting, for PROVE's rows with repeats (the MultiEq batches, ~1,400 terms, whose
 * two additions share operands): an open-addressing table from variable to its first position,
 * invalidated in O(1) per call by a generation stamp. O(n) against qsort's O(n log n) + malloc.
 */
typedef struct {
  uint32_t gen, var, pos;
} merge_slot;

void lc_merge(cuzk_lc *lc) {
  cuzk_cs *cs = lc->cs;
  uint32_t n = lc->n;
  size_t cap = 64;
  while (cap < 2 * (size_t)n)
    cap *= 2;
  if (cap > cs->merge_cap) {
    if (!cuzk_vec_reserve(&cs->merge_slots, cap * sizeof(merge_slot))) {
      cs_fail(cs, CUZK_R1CS_ENOMEM);
      return;
    }
    memset(cs->merge_slots.p, 0, cap * sizeof(merge_slot));
    cs->merge_cap = cap;
    cs->merge_gen = 0;
  }
  if (++cs->merge_gen == 0) { /* stamps wrapped: clear them once */
    memset(cs->merge_slots.p, 0, cs->merge_cap * sizeof(merge_slot));
    cs->merge_gen = 1;
  }
  uint32_t gen = cs->merge_gen;
  merge_slot *tab = cs->merge_slots.p;
  size_t mask = cap - 1;
  uint32_t *vars = cuzk_lc_vars(lc);
  cuzk_fr *coeffs = cuzk_lc_coeffs(lc);
  uint32_t m = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t v = vars[i];
    size_t h = ((uint64_t)v * 0x9e3779b97f4a7c15ULL) >> 40 & mask;
    while (tab[h].gen == gen && tab[h].var != v)
      h = (h + 1) & mask;
    if (tab[h].gen == gen) {
      cuzk_fr_add(&coeffs[tab[h].pos], &coeffs[tab[h].pos], &coeffs[i]);
      continue;
    }
    tab[h].gen = gen;
    tab[h].var = v;
    tab[h].pos = m;
    vars[m] = v;
    coeffs[m] = coeffs[i];
    m++;
  }
  lc->n = m;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

void lc_normalize(cuzk_lc *lc) {
  uint32_t n = lc->n;
  if (n < 2) return;
  uint32_t *vars = cuzk_lc_vars(lc);
  cuzk_fr *coeffs = cuzk_lc_coeffs(lc);
  if (n <= 16) {
    /* insertion sort, merging equal variables as they meet */
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
      uint32_t v = vars[i];
      cuzk_fr k = coeffs[i];
      uint32_t j = m;
      while (j > 0 && vars[j - 1] > v)
        j--;
      if (j > 0 && vars[j - 1] == v) {
        cuzk_fr_add(&coeffs[j - 1], &coeffs[j - 1], &k);
        continue;
      }
      memmove(&vars[j + 1], &vars[j], (m - j) * sizeof *vars);
      memmove(&coeffs[j + 1], &coeffs[j], (m - j) * sizeof *coeffs);
      vars[j] = v;
      coeffs[j] = k;
      m++;
    }
    lc->n = m;
    return;
  }
  cuzk_cs *cs = lc->cs;
  if (!cuzk_vec_reserve(&cs->sort_keys, (size_t)n * 8) ||
      !cuzk_vec_reserve(&cs->sort_vars, (size_t)n * 4) ||
      !cuzk_vec_reserve(&cs->sort_coeffs, (size_t)n * sizeof(cuzk_fr))) {
    cs_fail(cs, CUZK_R1CS_ENOMEM);
    return;
  }
  uint64_t *keys = cs->sort_keys.p;
  for (uint32_t i = 0; i < n; i++)
    keys[i] = (uint64_t)vars[i] << 32 | i;
  qsort(keys, n, sizeof *keys, cmp_u64);
  uint32_t *sv = cs->sort_vars.p;
  cuzk_fr *sc = cs->sort_coeffs.p;
  uint32_t m = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t v = (uint32_t)(keys[i] >> 32), src = (uint32_t)keys[i];
    if (m && sv[m - 1] == v) {
      cuzk_fr_add(&sc[m - 1], &sc[m - 1], &coeffs[src]);
    } else {
      sv[m] = v;
      sc[m] = coeffs[src];
      m++;
    }
  }
  memcpy(vars, sv, m * sizeof *vars);
  memcpy(coeffs, sc, m * sizeof *coeffs);
  lc->n = m;
}
