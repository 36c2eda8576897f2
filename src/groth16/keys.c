/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Allocation and release of parameter sets and verifying keys (g16_internal.h). */
#include <stdlib.h>
#include <string.h>

#include "cuzk/util/pool.h"
#include "groth16/g16_internal.h"

/* A vector of n points of size sz: a buffer-cache buffer (never NULL for n = 0: one element). */
static void *vec_get(size_t n, size_t sz) {
  if (n > SIZE_MAX / sz - 1) return NULL;
  return cuzk_buffer_get((n ? n : 1) * sz);
}

cuzk_g16_params *g16_params_alloc(size_t n_ic, size_t n_h, size_t n_l, size_t n_a, size_t n_b1,
                                  size_t n_b2) {
  cuzk_g16_params *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->vk.n_ic = n_ic;
  p->n_h = n_h;
  p->n_l = n_l;
  p->n_a = n_a;
  p->n_b1 = n_b1;
  p->n_b2 = n_b2;
  p->vk.ic = malloc((n_ic ? n_ic : 1) * sizeof(cuzk_g1_affine));
  p->h = vec_get(n_h, sizeof(cuzk_g1_affine));
  p->l = vec_get(n_l, sizeof(cuzk_g1_affine));
  p->a = vec_get(n_a, sizeof(cuzk_g1_affine));
  p->b_g1 = vec_get(n_b1, sizeof(cuzk_g1_affine));
  p->b_g2 = vec_get(n_b2, sizeof(cuzk_g2_affine));
  if (!p->vk.ic || !p->h || !p->l || !p->a || !p->b_g1 || !p->b_g2) {
    cuzk_g16_params_free(p);
    return NULL;
  }
  return p;
}

void cuzk_g16_params_free(cuzk_g16_params *p) {
  if (!p) return;
  free(p->vk.ic);
  cuzk_buffer_put(p->h);
  cuzk_buffer_put(p->l);
  cuzk_buffer_put(p->a);
  cuzk_buffer_put(p->b_g1);
  cuzk_buffer_put(p->b_g2);
  free(p);
}

cuzk_g16_vk *g16_vk_alloc(size_t n_ic) {
  cuzk_g16_vk *vk = calloc(1, sizeof *vk);
  if (!vk) return NULL;
  vk->n_ic = n_ic;
  vk->ic = malloc((n_ic ? n_ic : 1) * sizeof(cuzk_g1_affine));
  if (!vk->ic) {
    free(vk);
    return NULL;
  }
  return vk;
}

void cuzk_g16_vk_free(cuzk_g16_vk *vk) {
  if (!vk) return;
  free(vk->ic);
  free(vk);
}
