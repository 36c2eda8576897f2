/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The C1 output inside the porep layer: the public contract is include/cuzk/porep/c1.h; errors are
 * reported as everywhere in the layer (porep/fail.h). */
#ifndef CUZK_POREP_C1_H
#define CUZK_POREP_C1_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/porep/c1.h"
#include "porep/fail.h"

/* What every challenge proof of a C1 partition must look like (docs/spec/sdr-vanilla.md §9.2):
 * from the registered proof (cuzk_c1_check_shape) or from a StackedCircuit configuration
 * (cuzk_stacked_check_c1). */
typedef struct {
  const char *name;       /* closes every message, in parentheses: the proof's or the circuit's */
  uint32_t challenges;    /* challenge proofs per partition */
  uint32_t layers;        /* L: rows of every column, labeling proofs */
  uint32_t tree_d_levels; /* comm_d path: binary SHA-256 levels */
  /* tree_c and tree_r_last: base arity and levels, sub and top arity (0 = absent) */
  uint32_t base_arity, base_levels, sub_arity, top_arity;
} cuzk_c1_shape;

/* Checks partition k of c1 against shape (c1_check.c, the one owner of these rules; the reader's
 * cuzk_c1_check_shape applies them to every partition): the challenge count, then in each proof
 * the Merkle variants, path levels, sibling counts and indices < arity of comm_d, comm_r_last and
 * the 15 column proofs (c_x, 6 drg, 8 exp parents), the rows of every column, the L labeling
 * proofs and the encoding proof (37 parents, layer_index). EINVAL with a message that starts with
 * the JSON path ("vanilla_proofs.StackedDrg2KiBV1[0][1].replica_column_proofs.exp_parents:
 * expected 8 column proofs, got 7 (StackedDrg2KiBV1_1)"). */
cuzk_porep_err cuzk_c1_check_partition(const cuzk_c1 *c1, size_t k, const cuzk_c1_shape *shape,
                                       char *msg, size_t msg_len);

#endif
