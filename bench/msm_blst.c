/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* blst's Pippenger for bench/msm --vs-blst (msm_blst.h). */
#define _POSIX_C_SOURCE 200809L
#include "msm_blst.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blst.h"
#include "cuzk/field/field.h"

static blst_p1_affine *g1b;
static blst_p2_affine *g2b;
static size_t g1n, g2n;
static uint8_t *scal; /* canonical little-endian scalars, 32 bytes each */
static size_t scal_n;

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) {
    fprintf(stderr, "msm --vs-blst: out of memory\n");
    exit(1);
  }
  return p;
}

void msm_blst_g1_bases(const cuzk_g1_affine *b, size_t n) {
  if (n <= g1n) return;
  free(g1b);
  g1b = xmalloc(n * sizeof *g1b);
  for (size_t i = 0; i < n; i++) {
    uint8_t u[96];
    cuzk_g1_to_uncompressed(u, &b[i]);
    if (blst_p1_deserialize(&g1b[i], u) != BLST_SUCCESS) {
      fprintf(stderr, "msm --vs-blst: blst refuses G1 base %zu\n", i);
      exit(1);
    }
  }
  g1n = n;
}

void msm_blst_g2_bases(const cuzk_g2_affine *b, size_t n) {
  if (n <= g2n) return;
  free(g2b);
  g2b = xmalloc(n * sizeof *g2b);
  for (size_t i = 0; i < n; i++) {
    uint8_t u[192];
    cuzk_g2_to_uncompressed(u, &b[i]);
    if (blst_p2_deserialize(&g2b[i], u) != BLST_SUCCESS) {
      fprintf(stderr, "msm --vs-blst: blst refuses G2 base %zu\n", i);
      exit(1);
    }
  }
  g2n = n;
}

void msm_blst_scalars(const cuzk_fr *k, size_t n) {
  if (n > scal_n) {
    free(scal);
    scal = xmalloc(n * 32);
    scal_n = n;
  }
  for (size_t i = 0; i < n; i++) {
    uint64_t c[4];
    cuzk_fr_to_canonical(c, &k[i]);
    for (int w = 0; w < 4; w++)
      for (int j = 0; j < 8; j++)
        scal[i * 32 + w * 8 + j] = (uint8_t)(c[w] >> (8 * j));
  }
}

/* One half (or all) of the points: contiguous arrays, as blst reads a pointer list whose second
 * entry is NULL. */
typedef struct {
  int g2;
  size_t first, n;
  blst_p1 r1;
  blst_p2 r2;
} part;

static void *run_part(void *arg) {
  part *p = arg;
  const byte *sc[2] = {scal + p->first * 32, NULL};
  if (!p->g2) {
    const blst_p1_affine *pt[2] = {g1b + p->first, NULL};
    limb_t *scratch = xmalloc(blst_p1s_mult_pippenger_scratch_sizeof(p->n));
    blst_p1s_mult_pippenger(&p->r1, pt, p->n, sc, 255, scratch);
    free(scratch);
  } else {
    const blst_p2_affine *pt[2] = {g2b + p->first, NULL};
    limb_t *scratch = xmalloc(blst_p2s_mult_pippenger_scratch_sizeof(p->n));
    blst_p2s_mult_pippenger(&p->r2, pt, p->n, sc, 255, scratch);
    free(scratch);
  }
  return NULL;
}

static void msm(part res[2], int g2, size_t n, int halves) {
  if (!halves || n < 2) {
    res[0] = (part){.g2 = g2, .first = 0, .n = n};
    run_part(&res[0]);
    return;
  }
  res[0] = (part){.g2 = g2, .first = 0, .n = n / 2};
  res[1] = (part){.g2 = g2, .first = n / 2, .n = n - n / 2};
  pthread_t t;
  if (pthread_create(&t, NULL, run_part, &res[1])) {
    fprintf(stderr, "msm --vs-blst: cannot start a thread\n");
    exit(1);
  }
  run_part(&res[0]);
  pthread_join(t, NULL);
  if (!g2)
    blst_p1_add_or_double(&res[0].r1, &res[0].r1, &res[1].r1);
  else
    blst_p2_add_or_double(&res[0].r2, &res[0].r2, &res[1].r2);
}

void msm_blst_g1(uint8_t out[96], size_t n, int halves) {
  part res[2];
  msm(res, 0, n, halves);
  blst_p1_serialize(out, &res[0].r1);
}

void msm_blst_g2(uint8_t out[192], size_t n, int halves) {
  part res[2];
  msm(res, 1, n, halves);
  blst_p2_serialize(out, &res[0].r2);
}

void msm_blst_free(void) {
  free(g1b);
  free(g2b);
  free(scal);
  g1b = NULL;
  g2b = NULL;
  scal = NULL;
  g1n = g2n = scal_n = 0;
}
