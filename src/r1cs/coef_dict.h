/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * A circuit's dictionary of distinct coefficients (docs/r1cs.md "Pre-compiled constraints"): each
 * value gets a 2-byte index, 1 and -1 fixed at 0 and 1 so that the evaluator adds or subtracts
 * them without a multiplication. Shared by the compact RECORD mode (csr.c) and the evaluator
 * (pce.c).
 */
#ifndef CUZK_R1CS_COEF_DICT_H
#define CUZK_R1CS_COEF_DICT_H

#include <stddef.h>

#include "cuzk/field/field.h"
#include "util/vec.h"

#define COEF_DICT_MAX 65535u
enum { COEF_ONE = 0, COEF_MINUS_ONE = 1 };

typedef struct {
  cuzk_vec vals;  /* cuzk_fr, COEF_DICT_MAX entries reserved */
  cuzk_vec slots; /* uint32_t open-addressing table: 0 = empty, else index + 1 */
  size_t n;
} coef_dict;

/* Empty but for 1 and -1; false if memory ran out. */
bool coef_dict_init(coef_dict *d);
void coef_dict_free(coef_dict *d);
/* Back to 1 and -1 only (no-op for a dictionary never initialized). */
void coef_dict_reset(coef_dict *d);
/* The index of v, added if new; -1 once the dictionary holds COEF_DICT_MAX values. */
long coef_dict_index(coef_dict *d, const cuzk_fr *v);
/* Bytes mapped. */
size_t coef_dict_bytes(const coef_dict *d);

#endif
