/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The evaluator's state (cuzk/pce.h), shared by pce.c (recording, evaluation) and pce_file.c
 * (the .pce file). */
#ifndef CUZK_R1CS_PCE_INTERNAL_H
#define CUZK_R1CS_PCE_INTERNAL_H

#include "cuzk/pce.h"
#include "util/vec.h"

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
  uint64_t *dens[3]; /* A aux, B inputs, B aux: the column pattern (cuzk_cs_result's order) */
  size_t dens_count[3];
  cuzk_cs_mark *marks; /* where the recording's segments start and end (cuzk_cs_segments) */
  size_t n_marks;
  size_t bytes;
};

/* With the matrices and dictionary in place: the densities from the column pattern, capacity
 * beyond the contents given back, the byte count. */
cuzk_r1cs_err pce_finish(cuzk_pce *p);

#endif
