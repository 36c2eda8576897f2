/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The evaluator's state (cuzk/r1cs/pce.h), shared by pce.c (recording, evaluation) and pce_file.c
 * (the .pce file). */
#ifndef CUZK_R1CS_PCE_INTERNAL_H
#define CUZK_R1CS_PCE_INTERNAL_H

#include <stdint.h>

#include "cuzk/r1cs/pce.h"
#include "cuzk/util/file_map.h"
#include "util/vec.h"

#define PCE_SMALL_MAX INT32_MAX /* a row has < 2^32 terms: its integer sum fits in int64_t */
#define PCE_NOT_SMALL INT64_MIN
/* rows walked between two cuzk_pce_release_rows of a mapped evaluator's pages */
#define PCE_RELEASE_ROWS ((size_t)1 << 16)

/* A vector with cap 0 and p set points into the mapped .pce file (map): not owned. */
typedef struct {
  cuzk_vec row_ptr; /* uint32_t, rows + 1 */
  cuzk_vec cols;    /* uint32_t z indices: input i is i, aux j is num_inputs + j */
  cuzk_vec coef;    /* uint16_t index into the dictionary */
  size_t nnz;
} pce_matrix;

struct cuzk_pce {
  size_t inputs, aux, rows;
  pce_matrix m[3];
  cuzk_fr *dict;
  size_t n_dict;
  int64_t *small;    /* per dictionary entry: the coefficient as an integer of magnitude at most
                        PCE_SMALL_MAX (c or c - r), else PCE_NOT_SMALL (pce_eval.c) */
  cuzk_fr *dict64;   /* per dictionary entry: c * 2^64, for sums reduced by one Montgomery step */
  uint64_t *dens[3]; /* A aux, B inputs, B aux: the column pattern (cuzk_cs_result's order) */
  size_t dens_count[3];
  cuzk_cs_mark *marks; /* where the recording's segments start and end (cuzk_cs_segments) */
  size_t n_marks;
  size_t bytes;
  cuzk_file_map map; /* the .pce file the matrices point into (pce_file.c), or empty */
};

/* With the matrices and dictionary in place: the densities from the column pattern, capacity
 * beyond the contents given back, the byte count. */
cuzk_r1cs_err pce_finish(cuzk_pce *p);

/* cuzk_pce_release_rows for matrix k alone (pce_file.c). */
void pce_release_matrix(const cuzk_pce *p, int k, size_t first, size_t end);

#endif
