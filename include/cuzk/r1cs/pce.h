/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Pre-compiled constraint evaluation (docs/r1cs.md "Pre-compiled constraints"). The matrices of a
 * circuit never change from one proof to the next, only its witness: record them once (a
 * RECORD-mode synthesis), then for every proof synthesize the witness alone (WITNESS mode) and
 * compute a = A·z, b = B·z, c = C·z by sparse matrix-vector products on the pool, straight into
 * the prover's domain-sized vectors. The density bitmaps the witness-aware MSMs need depend on the
 * matrices' column pattern only, so they are computed once too.
 *
 * Storage per term: a 4-byte column and a 2-byte index into the circuit's dictionary of distinct
 * coefficients (most are ±1 and powers of two; Poseidon's constants add a few hundred), against
 * 36 bytes for a column and a full field element.
 */
#ifndef CUZK_PCE_H
#define CUZK_PCE_H

#include "cuzk/r1cs/r1cs.h"
#include "cuzk/util/pool.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cuzk_pce cuzk_pce;

/* From a RECORD-mode (or CHECK-mode) system after cuzk_cs_finish. A record_compact system's
 * matrices move into the evaluator without a copy (the system holds none afterwards; reset or
 * destroy it); others are copied and compacted. ETOOBIG if the matrices hold more than 65,535
 * distinct coefficients; EMODE for another mode; EINVAL for an unfinished system. */
cuzk_r1cs_err cuzk_pce_create(cuzk_pce **out, cuzk_cs *record);
void cuzk_pce_free(cuzk_pce *p);

/* Records a circuit: blank(ctx, cs, msg, len) synthesizes it without a witness into a compact
 * RECORD-mode system (record_compact), whose matrices become the evaluator. When blank fails,
 * EINVAL with its message; otherwise the r1cs error, msg its text. cancel (may be NULL): the
 * system's (cuzk_cs_opts.cancel): ECANCELLED, nothing returned. */
typedef bool (*cuzk_pce_blank_fn)(const void *ctx, cuzk_cs *cs, char *msg, size_t len);
cuzk_r1cs_err cuzk_pce_record(cuzk_pce **out, cuzk_pce_blank_fn blank, const void *ctx,
                              const _Atomic int *cancel, char *msg, size_t len);

/* The recorded circuit's counts (ONE included in inputs; constraints without the per-input ones
 * the prover appends) and the bytes the evaluator holds. */
size_t cuzk_pce_num_inputs(const cuzk_pce *p);
size_t cuzk_pce_num_aux(const cuzk_pce *p);
size_t cuzk_pce_num_constraints(const cuzk_pce *p);
size_t cuzk_pce_num_coefficients(const cuzk_pce *p); /* the dictionary's size */
size_t cuzk_pce_bytes(const cuzk_pce *p);
/* Of those, the bytes that lie in a mapped .pce file (cuzk_pce_read_file of a version-3 file):
 * page cache, shared and reclaimable, not the process's anonymous memory; 0 otherwise. */
size_t cuzk_pce_mapped_bytes(const cuzk_pce *p);
/* Whether the matrices point into a mapped .pce file. */
bool cuzk_pce_mapped(const cuzk_pce *p);
/* Rows first .. end-1 of the three matrices will not be read again soon: for a mapped evaluator
 * their pages leave this process's resident set (the page cache keeps them; a later read faults
 * them back in without I/O while it does). A no-op for an evaluator in memory. For walks over a
 * 32 GiB circuit's matrices (the TEST-parameter generator) that must not hold them all. A walk
 * by blocks releases the block before the current one with it, and everything at its end: a
 * fault maps the neighbouring cached pages too (fault-around, whole large folios of the page
 * cache), so reads map back what was just released around them (measured on a 76 MB file: the
 * reads of 256 KiB of row pointers mapped all 6.6 MB of them again; released per block only,
 * 97 % of the row pointers stayed resident after the walk, none after a release at the end). */
void cuzk_pce_release_rows(const cuzk_pce *p, size_t first, size_t end);
/* Where the recording's segments started and ended (cuzk_cs_segments; none if the circuit has
 * none), for cuzk_cs_set_layout: the witness of this circuit then runs its segments at once. */
size_t cuzk_pce_marks(const cuzk_pce *p, const cuzk_cs_mark **out);

/* Matrix k (0, 1, 2 for A, B, C) as stored: row i holds terms row_ptr[i] .. row_ptr[i+1]-1 with
 * columns as cuzk_csr's (z indices, ascending) and coefficient dict[coef[t]]. */
typedef struct {
  size_t rows, nnz;
  const uint32_t *row_ptr, *cols;
  const uint16_t *coef;
  const cuzk_fr *dict;
} cuzk_pce_matrix;
cuzk_r1cs_err cuzk_pce_matrix_get(const cuzk_pce *p, int k, cuzk_pce_matrix *out);

/* The prover's view of a circuit: the witness of `witness` (a finished WITNESS-mode system of the
 * same circuit) with p's densities; a, b, c stay NULL (cuzk_pce_eval fills them where the prover
 * wants them). EINVAL if the counts differ from p's. */
cuzk_r1cs_err cuzk_pce_result(const cuzk_pce *p, const cuzk_cs *witness, cuzk_cs_result *out);

/* out[k][i] for k = A, B, C: row i of the matrix times z = [inputs, aux], for the recorded rows,
 * then the per-input constraints (a = input i, b = c = 0: bellperson's order, as
 * cuzk_cs_enforce_input_constraints appends them), then zeros up to len (the domain size).
 * len must be at least rows + num_inputs. Rows are split over the pool (NULL: this thread).
 * aux_kind: the witness's kind of each aux value (cuzk_cs_result.aux_kind: WITNESS mode notes
 * them), or NULL to read them off the values — the same products either way, faster with. */
void cuzk_pce_eval(const cuzk_pce *p, const cuzk_fr *inputs, const cuzk_fr *aux,
                   const uint8_t *aux_kind, cuzk_fr *out[3], size_t len, cuzk_pool *pool,
                   unsigned max_workers);

/* ---- the .pce file (docs/r1cs.md "The .pce file") ---------------------------------------------
 * The evaluator kept next to its parameters so that it is recorded once per machine, not once per
 * load. The header names the circuit (circuit_id, < 64 bytes) and carries the caller's 32-byte tag
 * (the engine's: SHA-256 over the circuit id, the verifying key and the parameter sizes), and a
 * SHA-256 of the body. Written to a temporary file and renamed. */
cuzk_r1cs_err cuzk_pce_write_file(const cuzk_pce *p, const char *path, const char *circuit_id,
                                  const uint8_t tag[32]);
/* The file is mapped, not read: the matrices point into the mapping (the page cache holds them),
 * after the same checks as ever (header, tag, exact size, the body's SHA-256, the matrices'
 * structure), made a 64 MiB chunk at a time with the pages given back behind them. The file must
 * not be truncated in place while the evaluator lives (writers rename a new file over it, which
 * leaves the mapped one intact). A version-2 file (before the pieces were aligned) is read into
 * memory as before.
 * EIO when the file cannot be opened; EINVAL when it is not usable — another version or circuit,
 * stale (another tag), truncated or padded, a body whose SHA-256 differs, matrices out of range —
 * with msg saying which; the caller then records again and rewrites it. cancel (may be NULL):
 * read between the body's 64 MiB chunks; once nonzero, ECANCELLED (nothing returned). */
cuzk_r1cs_err cuzk_pce_read_file(cuzk_pce **out, const char *path, const char *circuit_id,
                                 const uint8_t tag[32], const _Atomic int *cancel, char *msg,
                                 size_t msg_len);

/* cuzk_pce_write_file of *p, then the file just written read back (cuzk_pce_read_file) and put in
 * the place of *p, which is freed: the matrices become page cache instead of the caller's memory
 * (a 32 GiB circuit's are 6-8 GB). A failed write is returned (*p kept); a failed read-back
 * keeps *p too (*mapped false), which costs memory, not correctness. mapped may be NULL. */
cuzk_r1cs_err cuzk_pce_write_file_mapped(cuzk_pce **p, const char *path, const char *circuit_id,
                                         const uint8_t tag[32], const _Atomic int *cancel,
                                         bool *mapped);

/* One matrix of cuzk_pce_eval (k = 0, 1, 2 for A, B, C) into out: its rows, the per-input
 * constraints' entries, zeros to len — for a prover that forms C's values only after A·B. */
void cuzk_pce_eval_matrix(const cuzk_pce *p, int k, const cuzk_fr *inputs, const cuzk_fr *aux,
                          const uint8_t *aux_kind, cuzk_fr *out, size_t len, cuzk_pool *pool,
                          unsigned max_workers);

/* out[k][i] = row first + i of matrix k times z, for i < count (first + count <= the recorded
 * rows): the same products as cuzk_pce_eval, a block at a time — for a caller that streams them
 * (cuzk-bench synth-only at sizes whose a, b, c would not fit beside the rest). */
void cuzk_pce_eval_rows(const cuzk_pce *p, const cuzk_fr *inputs, const cuzk_fr *aux,
                        const uint8_t *aux_kind, cuzk_fr *out[3], size_t first, size_t count,
                        cuzk_pool *pool, unsigned max_workers);

#ifdef __cplusplus
}
#endif
#endif
