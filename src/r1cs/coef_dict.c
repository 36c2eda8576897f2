/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The coefficient dictionary (coef_dict.h): open addressing, at most half full. */
#include "r1cs/coef_dict.h"

#include <string.h>

#define SLOTS (1u << 17)

static uint32_t hash_fr(const cuzk_fr *v) {
  uint64_t h = v->l[0] * UINT64_C(0x9e3779b97f4a7c15) ^ v->l[1] ^ (v->l[2] >> 7) ^ v->l[3];
  return (uint32_t)(h ^ h >> 29) & (SLOTS - 1);
}

bool coef_dict_init(coef_dict *d) {
  memset(d, 0, sizeof *d);
  if (!cuzk_vec_reserve(&d->vals, COEF_DICT_MAX * sizeof(cuzk_fr)) ||
      !cuzk_vec_reserve(&d->slots, SLOTS * sizeof(uint32_t))) {
    coef_dict_free(d);
    return false;
  }
  coef_dict_reset(d);
  return true;
}

void coef_dict_reset(coef_dict *d) {
  if (!d->slots.p) return;
  memset(d->slots.p, 0, SLOTS * sizeof(uint32_t));
  d->n = 0;
  cuzk_fr minus_one;
  cuzk_fr_neg(&minus_one, &cuzk_fr_one);
  coef_dict_index(d, &cuzk_fr_one);
  coef_dict_index(d, &minus_one);
}

void coef_dict_free(coef_dict *d) {
  cuzk_vec_free(&d->vals);
  cuzk_vec_free(&d->slots);
  d->n = 0;
}

long coef_dict_index(coef_dict *d, const cuzk_fr *v) {
  cuzk_fr *vals = d->vals.p;
  uint32_t *slot = d->slots.p;
  if (d->n && !memcmp(v, &vals[COEF_ONE], sizeof *v)) return COEF_ONE; /* most terms */
  for (uint32_t s = hash_fr(v);; s = (s + 1) & (SLOTS - 1)) {
    if (!slot[s]) {
      if (d->n >= COEF_DICT_MAX) return -1;
      vals[d->n] = *v;
      slot[s] = (uint32_t)++d->n;
      return (long)d->n - 1;
    }
    if (!memcmp(&vals[slot[s] - 1], v, sizeof *v)) return (long)slot[s] - 1;
  }
}

size_t coef_dict_bytes(const coef_dict *d) { return d->vals.cap + d->slots.cap; }
