/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The constraint system (R1CS) that gadgets synthesize into, with one gadget code path and five
 * back-ends ("modes"), as bellpepper's ConstraintSystem (docs/spec/porep-circuit.md §1,
 * docs/spec/groth16.md §3):
 *
 *   PROVE    witness (inputs, aux) + a/b/c = <A,z>, <B,z>, <C,z> of every constraint + the A/B
 *            density bitmaps, exactly as bellperson's ProvingAssignment
 *            (docs/spec/groth16.md §3.3-3.4);
 *   WITNESS  the witness only; constraints are counted and skipped (the pre-compiled path);
 *   RECORD   the A, B, C matrices in CSR form (merged, zero coefficients dropped, aux columns
 *            remapped to num_inputs + j once synthesis ends: inputs may be allocated late);
 *   CHECK    RECORD + the witness + constraint names, for is_satisfied and debugging;
 *   SHAPE    counts only: no witness, no field arithmetic (optionally nnz and densities).
 *
 * Variables: Input(0) is ONE, allocated (value 1) by cuzk_cs_create. z = [inputs..., aux...].
 *
 * Linear combinations are maps variable -> coefficient: adding a variable that is already present
 * adds the coefficients (the entry stays even if the sum is 0; zero entries count for nothing).
 * A cuzk_lc lives on the caller's stack with a small inline buffer whose capacity (0..4 terms) is
 * chosen per constraint system at run time; longer LCs spill into buffers the constraint system
 * recycles, so enforce allocates nothing in steady state. Modes that need no LCs (WITNESS, SHAPE
 * without nnz) make every LC call a no-op.
 *
 * Witness values: gadgets compute values only when cuzk_cs_has_values() (PROVE, WITNESS, CHECK),
 * like bellpepper's Option<value> being None in a blank circuit.
 *
 * Errors are sticky: a failed allocation (or a too-large circuit) records an error, later calls
 * keep counting but store nothing, and cuzk_cs_error() reports it after synthesis.
 * A constraint system is used by one thread at a time.
 */
#ifndef CUZK_R1CS_H
#define CUZK_R1CS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cuzk/field/field.h"
#include "cuzk/util/pool.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  CUZK_R1CS_OK = 0,
  CUZK_R1CS_EINVAL,     /* bad argument or option */
  CUZK_R1CS_ENOMEM,     /* growing a buffer failed */
  CUZK_R1CS_ETOOBIG,    /* more than 2^31 variables of a kind or 2^32 - 1 nonzeros in a matrix */
  CUZK_R1CS_EFINISHED,  /* alloc/enforce after cuzk_cs_finish */
  CUZK_R1CS_EMODE,      /* the operation needs another mode */
  CUZK_R1CS_EIO,        /* writing a file failed */
  CUZK_R1CS_ESHAPE,     /* a segment did not end where the recording of its circuit says */
  CUZK_R1CS_ECANCELLED, /* the caller's cancel flag was set (cuzk_cs_opts.cancel, the .pce reader)
                         */
} cuzk_r1cs_err;

const char *cuzk_r1cs_strerror(cuzk_r1cs_err e);

typedef enum {
  CUZK_CS_PROVE = 0,
  CUZK_CS_WITNESS,
  CUZK_CS_RECORD,
  CUZK_CS_CHECK,
  CUZK_CS_SHAPE,
} cuzk_cs_mode;

const char *cuzk_cs_mode_name(cuzk_cs_mode m);

/* A variable: bit 31 set for Aux(index), clear for Input(index). */
typedef uint32_t cuzk_var;
#define CUZK_VAR_AUX 0x80000000u
#define CUZK_VAR_ONE ((cuzk_var)0)
static inline bool cuzk_var_is_aux(cuzk_var v) { return (v & CUZK_VAR_AUX) != 0; }
static inline uint32_t cuzk_var_index(cuzk_var v) { return v & ~CUZK_VAR_AUX; }

#define CUZK_LC_INLINE_MAX 4

typedef struct {
  cuzk_cs_mode mode;
  unsigned lc_inline; /* inline LC capacity, 0..CUZK_LC_INLINE_MAX (opts_default sets 2) */
  bool shape_nnz;     /* SHAPE: also build LCs to count nnz and densities (still no witness) */
  /* RECORD: keep each coefficient as a 2-byte index into the circuit's dictionary of distinct
   * values (6 bytes a term instead of 36), for cuzk_pce_create to take over: what recording a
   * production-size circuit needs (docs/r1cs.md "Pre-compiled constraints"). cuzk_cs_matrix
   * is then EMODE, and more than 65,535 distinct coefficients ETOOBIG. */
  bool record_compact;
  /* Expected sizes (0: unknown): reserve address space and skip regrowth for big circuits. */
  size_t hint_aux, hint_constraints;
  /* RECORD/CHECK (NULL: never): a matrix array that reaches spill_bytes (0: 256 MiB) moves into an
   * unlinked temporary file in this directory, and its pages leave the resident set behind the
   * writes (docs/r1cs.md "Recordings spilled to disk"): a 32 GiB circuit's 8 GB recording in
   * the page cache, not in the process. A full disk fails the system with EIO
   * (cuzk_cs_io_errno says why). The string is copied. */
  const char *spill_dir;
  size_t spill_bytes;
  /* Cooperative cancellation (NULL: none): read every CUZK_CS_CANCEL_ROWS constraints; once
   * nonzero the system fails with ECANCELLED and stores nothing more (the synthesis runs on to
   * its end without work, cuzk_cs_finish reports the error). */
  const _Atomic int *cancel;
} cuzk_cs_opts;
#define CUZK_CS_CANCEL_ROWS 16384

/* PROVE mode with inline capacity 2. */
void cuzk_cs_opts_default(cuzk_cs_opts *o, cuzk_cs_mode mode);

typedef struct cuzk_cs cuzk_cs;

cuzk_r1cs_err cuzk_cs_create(cuzk_cs **cs, const cuzk_cs_opts *o);
/* Back to a fresh system (only ONE allocated), keeping every buffer for the next synthesis. */
void cuzk_cs_reset(cuzk_cs *cs);
void cuzk_cs_destroy(cuzk_cs *cs);
cuzk_r1cs_err cuzk_cs_error(const cuzk_cs *cs);
/* With cuzk_cs_error EIO: the errno of the spill that failed (cuzk_cs_opts.spill_dir), else 0. */
int cuzk_cs_io_errno(const cuzk_cs *cs);
cuzk_cs_mode cuzk_cs_mode_of(const cuzk_cs *cs);

/* The members every cuzk_cs starts with, read by the inline LC functions below. */
typedef struct {
  uint8_t has_values; /* PROVE, WITNESS, CHECK */
  uint8_t build_lcs;  /* PROVE, RECORD, CHECK, SHAPE with shape_nnz */
  uint8_t lc_inline;
  uint8_t keep_names; /* CHECK */
} cuzk_cs_head;

static inline bool cuzk_cs_has_values(const cuzk_cs *cs) {
  return ((const cuzk_cs_head *)(const void *)cs)->has_values != 0;
}

/* ---- variables ---------------------------------------------------------------------------- */
/* value may be NULL when !cuzk_cs_has_values(cs); it is read only when values are kept. */
cuzk_var cuzk_cs_alloc(cuzk_cs *cs, const cuzk_fr *value);
cuzk_var cuzk_cs_alloc_input(cuzk_cs *cs, const cuzk_fr *value);
/* An aux variable holding 0 or 1 (no constraint; AllocatedBit adds the booleanity check). */
cuzk_var cuzk_cs_alloc_bit(cuzk_cs *cs, bool value);

size_t cuzk_cs_num_inputs(const cuzk_cs *cs); /* ONE included */
size_t cuzk_cs_num_aux(const cuzk_cs *cs);
size_t cuzk_cs_num_constraints(const cuzk_cs *cs);
/* Bytes the constraint system holds now (every buffer's mapped capacity, kept across
 * cuzk_cs_reset): what a synthesized partition costs in memory, for admission control. */
size_t cuzk_cs_memory_bytes(const cuzk_cs *cs);
/* Room for n aux variables at once, so that a caller that knows the circuit (the pre-compiled
 * path: cuzk_pce_num_aux) holds its witness at its size rather than grown by doubling. False
 * without memory (the system is unchanged). */
bool cuzk_cs_reserve_aux(cuzk_cs *cs, size_t n);

/* ---- segments: a witness synthesized in parallel (docs/r1cs.md "Parallel witness") ---------- */
/* Where a segment starts or ends: the counts of inputs (ONE included), aux and constraints. */
typedef struct {
  uint32_t inputs, aux, constraints;
} cuzk_cs_mark;

/* Segment i of a run: synthesizes into cs as if called in order after segment i - 1. */
typedef cuzk_r1cs_err (*cuzk_cs_segment_fn)(cuzk_cs *cs, unsigned i, void *ctx);

/*
 * Synthesizes n segments that depend only on what cs held before the call (a PoRep partition's
 * challenges), with the same result as fn(cs, 0, ctx) .. fn(cs, n - 1, ctx) in order.
 * RECORD: in order, noting where each segment starts and where the last ends (n + 1 marks,
 * cuzk_cs_marks). WITNESS with a layout (cuzk_cs_set_layout) whose next marks are where cs
 * stands now: the segments run at once on the layout's pool, each on its own view of cs that
 * writes its variables straight into their places, and each must end exactly at its mark
 * (ESHAPE otherwise). Any other mode or layout: in order. Returns the first failing segment's
 * error (its index in *failed, when failed is not NULL); the error is also cs's.
 */
cuzk_r1cs_err cuzk_cs_segments(cuzk_cs *cs, unsigned n, cuzk_cs_segment_fn fn, void *ctx,
                               unsigned *failed);
/* RECORD: the marks noted so far (valid until the next reset or segments call). */
size_t cuzk_cs_marks(const cuzk_cs *cs, const cuzk_cs_mark **out);
/*
 * WITNESS: the marks a recording of this circuit noted (cuzk_pce_marks), for the next synthesis
 * (cuzk_cs_reset forgets them): they must outlive it. pool: where segments run (NULL or a pool
 * of one thread: in order). Marks that do not match what this synthesis does only cost the
 * parallelism (segments run in order) or end in ESHAPE; they never change the witness.
 */
void cuzk_cs_set_layout(cuzk_cs *cs, const cuzk_cs_mark *marks, size_t n, cuzk_pool *pool);

/* ---- linear combinations -------------------------------------------------------------------- */
typedef struct cuzk_lc_block cuzk_lc_block; /* a recycled spill buffer */

typedef struct {
  cuzk_cs *cs;          /* NULL: inactive, every call is a no-op */
  uint32_t n, cap;      /* terms held; capacity of the current storage */
  cuzk_lc_block *spill; /* NULL while the terms fit inline */
  bool has_one;
  cuzk_fr one; /* the coefficient of ONE (kept apart: the constant term is the common duplicate) */
  uint32_t ivars[CUZK_LC_INLINE_MAX];
  cuzk_fr icoeffs[CUZK_LC_INLINE_MAX];
} cuzk_lc;

struct cuzk_lc_block {
  uint32_t cap;
  uint32_t *vars;
  cuzk_fr *coeffs;
  cuzk_lc_block *next;
};

static inline void cuzk_lc_init(cuzk_lc *lc, cuzk_cs *cs) {
  const cuzk_cs_head *h = (const cuzk_cs_head *)(const void *)cs;
  lc->cs = h->build_lcs ? cs : NULL;
  lc->n = 0;
  lc->cap = h->lc_inline;
  lc->spill = NULL;
  lc->has_one = false;
}
/* The three sides of a constraint, empty. */
static inline void cuzk_lc_init3(cuzk_lc *a, cuzk_lc *b, cuzk_lc *c, cuzk_cs *cs) {
  cuzk_lc_init(a, cs);
  cuzk_lc_init(b, cs);
  cuzk_lc_init(c, cs);
}
static inline bool cuzk_lc_active(const cuzk_lc *lc) { return lc->cs != NULL; }
static inline uint32_t *cuzk_lc_vars(cuzk_lc *lc) {
  return lc->spill ? lc->spill->vars : lc->ivars;
}
static inline cuzk_fr *cuzk_lc_coeffs(cuzk_lc *lc) {
  return lc->spill ? lc->spill->coeffs : lc->icoeffs;
}

/* Out of line: moves the terms to a (bigger) spill buffer. */
void cuzk_lc_grow(cuzk_lc *lc);
/* Returns spilled storage to the constraint system; the LC is empty (and still usable) after. */
void cuzk_lc_release(cuzk_lc *lc);
void cuzk_lc_add_one_slow(cuzk_lc *lc, const cuzk_fr *k);

/* lc += k * v (k NULL means 1). A term for the variable just added merges in place; other
 * repeats are merged when the constraint is enforced. */
static inline void cuzk_lc_add(cuzk_lc *lc, cuzk_var v, const cuzk_fr *k) {
  if (!lc->cs) return;
  if (!k) k = &cuzk_fr_one;
  if (v == CUZK_VAR_ONE) {
    cuzk_lc_add_one_slow(lc, k);
    return;
  }
  uint32_t *vars = cuzk_lc_vars(lc);
  if (lc->n && vars[lc->n - 1] == v) {
    cuzk_fr_add(&cuzk_lc_coeffs(lc)[lc->n - 1], &cuzk_lc_coeffs(lc)[lc->n - 1], k);
    return;
  }
  if (lc->n == lc->cap) {
    cuzk_lc_grow(lc);
    vars = cuzk_lc_vars(lc);
  }
  vars[lc->n] = v;
  memcpy(&cuzk_lc_coeffs(lc)[lc->n], k, sizeof *k);
  lc->n++;
}
void cuzk_lc_sub(cuzk_lc *lc, cuzk_var v, const cuzk_fr *k); /* lc -= k * v (k NULL: 1) */
void cuzk_lc_add_const(cuzk_lc *lc, const cuzk_fr *k);       /* lc += k * ONE */
/* lc += k * other (k NULL: 1); other is unchanged and may not be lc. */
void cuzk_lc_add_lc(cuzk_lc *lc, const cuzk_lc *other, const cuzk_fr *k);
/* Evaluates lc against the witness kept so far (needs values). */
void cuzk_lc_eval(cuzk_fr *out, const cuzk_lc *lc);

/* Powers of two in Montgomery form, 2^0 .. 2^255, and their negatives (bit-packing gadgets). */
extern const cuzk_fr *const cuzk_pow2;
extern const cuzk_fr *const cuzk_neg_pow2;

/* ---- constraints -------------------------------------------------------------------------- */
/*
 * Appends <a,z> * <b,z> = <c,z>; a, b, c may be NULL (empty) and are released (emptied) by the
 * call. name is a string literal naming the constraint inside the current namespace (kept only
 * in CHECK mode).
 */
void cuzk_cs_enforce(cuzk_cs *cs, const char *name, cuzk_lc *a, cuzk_lc *b, cuzk_lc *c);

/* Namespaces (names only; CHECK mode formats and keeps them, other modes skip the work). */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void cuzk_cs_push(cuzk_cs *cs, const char *fmt, ...);
void cuzk_cs_pop(cuzk_cs *cs);

/*
 * Appends the prover's input constraints: for every input i (ONE first), {Input(i): 1} * 0 = 0
 * (docs/spec/porep-circuit.md §1.4). The Groth16 prover and generator call it once synthesis is
 * done.
 */
void cuzk_cs_enforce_input_constraints(cuzk_cs *cs);

/*
 * Ends synthesis: in RECORD/CHECK mode the aux columns get their final numbers
 * (num_inputs + j). Idempotent; alloc and enforce fail (EFINISHED) afterwards.
 */
cuzk_r1cs_err cuzk_cs_finish(cuzk_cs *cs);

/* ---- results ------------------------------------------------------------------------------ */
/* A density bitmap: bit i is bit (i % 64) of word i / 64 (docs/spec/groth16.md §3.4). */
typedef struct {
  const uint64_t *bits;
  size_t len;   /* bits meaningful */
  size_t count; /* bits set */
} cuzk_density;

static inline bool cuzk_density_get(const cuzk_density *d, size_t i) {
  return (d->bits[i / 64] >> (i % 64)) & 1;
}

typedef struct {
  size_t num_inputs, num_aux, num_constraints;
  const cuzk_fr *inputs, *aux;        /* PROVE, WITNESS, CHECK; else NULL */
  const cuzk_fr *a, *b, *c;           /* PROVE: one value per constraint; else NULL */
  cuzk_density a_aux, b_input, b_aux; /* PROVE; SHAPE with shape_nnz gives the counts only */
  size_t nnz[3];                      /* RECORD, CHECK, SHAPE with shape_nnz: A, B, C */
  /* WITNESS: per aux variable, CUZK_VALUE_ZERO, _ONE or _OTHER for a value of 0, 1 (Montgomery
   * one) or anything else — noted as each is allocated, so that the evaluator knows a bit's value
   * without loading it (docs/r1cs.md "The SpMV kernel"); NULL in other modes. */
  const uint8_t *aux_kind;
} cuzk_cs_result;

enum { CUZK_VALUE_ZERO = 0, CUZK_VALUE_ONE = 1, CUZK_VALUE_OTHER = 2 };

void cuzk_cs_result_get(const cuzk_cs *cs, cuzk_cs_result *r);

/* One matrix in CSR form: row i holds terms row_ptr[i] .. row_ptr[i+1]-1, columns ascending,
 * column c < num_inputs is Input(c), else Aux(c - num_inputs); no zero values. */
typedef struct {
  size_t rows, nnz;
  const uint32_t *row_ptr; /* rows + 1 entries */
  const uint32_t *cols;
  const cuzk_fr *vals;
} cuzk_csr;

/* RECORD (not record_compact) / CHECK after cuzk_cs_finish: m = 0, 1, 2 for A, B, C. */
cuzk_r1cs_err cuzk_cs_matrix(const cuzk_cs *cs, int m, cuzk_csr *out);

/* out[i] = <row i, z> for z = [inputs..., aux...] of length num_inputs + num_aux. */
void cuzk_csr_mul_vec(cuzk_fr *out, const cuzk_csr *m, const cuzk_fr *z);

/* CHECK: the aux values, writable (tests flip them and check again). */
cuzk_fr *cuzk_cs_aux_mut(cuzk_cs *cs);

typedef struct {
  bool satisfied;
  size_t first_failure; /* constraint index */
  char name[512];       /* "namespace/.../constraint name" of the first failing constraint */
} cuzk_cs_check;

/* CHECK: evaluates every constraint against the current witness (finishes synthesis). */
cuzk_r1cs_err cuzk_cs_is_satisfied(cuzk_cs *cs, cuzk_cs_check *out);
/* CHECK: the full name of constraint i ("" if out of range); buf gets at most len bytes. */
void cuzk_cs_constraint_name(const cuzk_cs *cs, size_t i, char *buf, size_t len);

/* ---- iden3 interoperability (snarkjs) ------------------------------------------------------ */
/*
 * The circuit as an iden3 `.r1cs` file (version 1) and a witness as a `.wtns` file (version 2),
 * curve bls12-381: field size 32, prime r, values canonical little-endian. Wires are z =
 * [inputs..., aux...]: wire 0 is ONE, inputs 1.. are snarkjs's public inputs (no outputs, no
 * private inputs), aux are internal wires; labels are the wire numbers. The .r1cs file needs a
 * finished RECORD/CHECK system (its rows are exactly ours, in order).
 */
cuzk_r1cs_err cuzk_cs_write_iden3_r1cs(const cuzk_cs *cs, const char *path);
cuzk_r1cs_err cuzk_write_iden3_wtns(const char *path, const cuzk_fr *inputs, size_t n_inputs,
                                    const cuzk_fr *aux, size_t n_aux);

#ifdef __cplusplus
}
#endif
#endif
