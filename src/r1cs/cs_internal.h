/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The constraint system's state, shared by the r1cs core files (cs.c, lc.c, csr.c, names.c). */
#ifndef CUZK_R1CS_CS_INTERNAL_H
#define CUZK_R1CS_CS_INTERNAL_H

#include <stdint.h>

#include "cuzk/r1cs/r1cs.h"
#include "r1cs/coef_dict.h"
#include "util/vec.h"

enum { DENS_A_AUX = 0, DENS_B_INPUT = 1, DENS_B_AUX = 2 };

typedef struct {
  cuzk_vec row_ptr; /* uint32_t, rows + 1 */
  cuzk_vec cols;    /* uint32_t: tagged variables until finish, then z indices */
  cuzk_vec vals;    /* cuzk_fr, or uint16_t dictionary indices when compact */
  size_t nnz;
} csr_store;

struct cuzk_cs {
  cuzk_cs_head head; /* first: read by the inline LC functions */
  cuzk_cs_mode mode;
  cuzk_r1cs_err err;
  bool finished;
  bool track_density; /* PROVE, SHAPE with shape_nnz */
  bool record;        /* RECORD, CHECK */
  bool count_nnz;     /* SHAPE with shape_nnz */
  bool compact;       /* RECORD with record_compact: coefficients as indices into dict */
  char *spill_dir;    /* RECORD/CHECK: cuzk_cs_opts.spill_dir (owned), or NULL */
  size_t spill_bytes;
  int io_errno; /* the failed spill's errno (cuzk_cs_io_errno) */

  size_t n_inputs, n_aux, n_cons;
  const _Atomic int *cancel;           /* cuzk_cs_opts.cancel */
  size_t input_cap, aux_cap, cons_cap; /* elements every per-variable/per-row array can hold */

  cuzk_vec inputs, aux; /* cuzk_fr, when has_values */
  cuzk_vec kind;        /* WITNESS: uint8_t per aux variable (cuzk_cs_result.aux_kind) */
  bool keep_kind;       /* WITNESS */
  cuzk_vec abc[3];      /* cuzk_fr per constraint (PROVE) */
  cuzk_vec dens[3];     /* uint64_t bitmaps: a_aux, b_input, b_aux */
  size_t nnz[3];
  cuzk_vec seen_aux, seen_in; /* uint64_t bitmaps, all clear between uses (duplicate detection) */
  size_t seen_aux_bits, seen_in_bits;

  csr_store m[3];
  coef_dict dict; /* compact */

  /* segments (cs_segments.c, docs/r1cs.md "Parallel witness") */
  bool borrowed;  /* a segment's view: inputs and aux are its parent's, never grown here */
  cuzk_vec marks; /* RECORD: cuzk_cs_mark, noted by cuzk_cs_segments */
  size_t n_marks;
  const cuzk_cs_mark *layout; /* WITNESS: a recording's marks, for this synthesis */
  size_t layout_n, layout_at; /* marks given; the next one a segments call would start at */
  cuzk_pool *layout_pool;

  /* LC spill buffers, recycled */
  cuzk_lc_block *free_blocks;
  cuzk_vec sort_keys, sort_vars, sort_coeffs; /* normalize scratch */
  cuzk_vec merge_slots;                       /* lc_merge's hash table (merge_slot) */
  size_t merge_cap;
  uint32_t merge_gen;

  /* CHECK: names */
  cuzk_vec name_path; /* uint64_t per constraint: offset of its namespace path in names */
  cuzk_vec name_leaf; /* const char * per constraint */
  cuzk_vec names;     /* NUL-terminated paths */
  size_t names_len;
  char path[1024];
  size_t path_len;
  size_t path_stack[64];
  unsigned depth, depth_over; /* depth_over: pushes beyond the stack (ignored names) */
  bool path_dirty;
  uint64_t cur_path;
};

void cs_fail(cuzk_cs *cs, cuzk_r1cs_err e);
/* Room for n inputs at once (cuzk_cs_reserve_aux's counterpart). */
bool cs_reserve_inputs(cuzk_cs *cs, size_t n);
/* A buffer could not grow: out of memory, or a segment's view going past its end. */
static inline void cs_fail_grow(cuzk_cs *cs) {
  cs_fail(cs, cs->borrowed ? CUZK_R1CS_ESHAPE : cs->io_errno ? CUZK_R1CS_EIO : CUZK_R1CS_ENOMEM);
}

/* Sorts the terms by variable and merges repeats (normalized LCs have no repeated variable). */
void lc_normalize(cuzk_lc *lc);
/* Merges repeated variables in place, keeping first-occurrence order (no sorting). */
void lc_merge(cuzk_lc *lc);
/* True if some variable occurs twice among the terms (ONE is kept apart and never repeats). */
bool lc_has_repeat(cuzk_lc *lc);

/* RECORD/CHECK: appends the three rows; SHAPE nnz: counts them. */
void csr_append_row(cuzk_cs *cs, cuzk_lc *lcs[3]);
void csr_count_row(cuzk_cs *cs, cuzk_lc *lcs[3]);
void csr_remap(cuzk_cs *cs);
void csr_reset(cuzk_cs *cs);
void csr_free(cuzk_cs *cs);

/* CHECK: records the current name for the constraint being added. */
void names_on_enforce(cuzk_cs *cs, const char *leaf);
void names_reset(cuzk_cs *cs);
void names_free(cuzk_cs *cs);

static inline void bitmap_set(uint64_t *w, size_t i) { w[i / 64] |= (uint64_t)1 << (i % 64); }
static inline bool bitmap_test_set(uint64_t *w, size_t i) {
  uint64_t m = (uint64_t)1 << (i % 64);
  bool was = (w[i / 64] & m) != 0;
  w[i / 64] |= m;
  return was;
}

/* A zero field element (all limbs 0: the Montgomery form of 0), without a call. */
static inline bool fr_zero(const cuzk_fr *a) {
  return (a->l[0] | a->l[1] | a->l[2] | a->l[3]) == 0;
}

/* The Montgomery form of 1. */
static inline bool fr_one(const cuzk_fr *a) {
  return ((a->l[0] ^ cuzk_fr_one.l[0]) | (a->l[1] ^ cuzk_fr_one.l[1]) |
          (a->l[2] ^ cuzk_fr_one.l[2]) | (a->l[3] ^ cuzk_fr_one.l[3])) == 0;
}

/* A value's kind (cuzk_cs_result.aux_kind: CUZK_VALUE_ZERO, _ONE, _OTHER), without a branch on
 * the value: a witness's bits are random. */
static inline unsigned fr_kind(const cuzk_fr *a) {
  return CUZK_VALUE_OTHER - 2 * (unsigned)fr_zero(a) - (unsigned)fr_one(a);
}

/* The value of a variable (values kept). */
static inline const cuzk_fr *cs_value(const cuzk_cs *cs, cuzk_var v) {
  const cuzk_fr *base = (const cuzk_fr *)(cuzk_var_is_aux(v) ? cs->aux.p : cs->inputs.p);
  return &base[cuzk_var_index(v)];
}

#endif
