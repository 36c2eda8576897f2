/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Groth16 over BLS12-381 exactly as bellperson does it (docs/spec/groth16.md §2-§6): parameter
 * files in the `.params`/`.vk` layout, Filecoin's file naming, a test-parameter generator, the
 * prover (batch API, stage timings), the verifier (single and batch) and the 192-byte proof
 * encoding.
 *
 * Parameters are decoded once into affine Montgomery points and shared read-only by every proof.
 * The prover and the generator take a constraint system the circuit has been synthesized into
 * (PROVE and RECORD mode respectively, not finished) and append the per-input constraints
 * x_i * 0 = 0 themselves, as bellperson does (docs/spec/porep-circuit.md §1.4).
 */
#ifndef CUZK_GROTH16_H
#define CUZK_GROTH16_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/curve/curve.h"
#include "cuzk/field/field.h"
#include "cuzk/r1cs/pce.h"
#include "cuzk/r1cs/r1cs.h"
#include "cuzk/util/file_map.h"
#include "cuzk/util/pool.h"
#include "cuzk/util/progress.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  CUZK_G16_OK = 0,
  CUZK_G16_EINVAL,         /* bad argument */
  CUZK_G16_ENOMEM,         /* out of memory */
  CUZK_G16_EIO,            /* opening, mapping, reading or writing a file failed */
  CUZK_G16_ETRUNCATED,     /* the data ends inside a vector or point */
  CUZK_G16_ETRAILING,      /* bytes after the last vector */
  CUZK_G16_ECOUNT,         /* a vector length is impossible or does not match the circuit */
  CUZK_G16_EPOINT,         /* bad point encoding: flags, coordinate >= p, or not on the curve */
  CUZK_G16_ESUBGROUP,      /* a point outside the prime-order subgroup */
  CUZK_G16_EINFINITY,      /* the identity where the format forbids it */
  CUZK_G16_EUNCONSTRAINED, /* generator: an aux variable occurs in no constraint */
  CUZK_G16_ESHAPE,         /* batch circuits differ in shape, or the domain exceeds 2^27 */
  CUZK_G16_ESYNTH,         /* the constraint system holds an error or is in the wrong mode */
  CUZK_G16_EIDENTITY,  /* delta_g1 or delta_g2 is the identity (bellperson UnexpectedIdentity) */
  CUZK_G16_ERANDOM,    /* the OS random source failed */
  CUZK_G16_ECANCELLED, /* the prover's cancel flag was set (cuzk_g16_prove_opts.cancel) */
} cuzk_g16_err;

const char *cuzk_g16_strerror(cuzk_g16_err e);

/* ---- keys ------------------------------------------------------------------------------------ */
typedef struct {
  cuzk_g1_affine alpha_g1, beta_g1, delta_g1;
  cuzk_g2_affine beta_g2, gamma_g2, delta_g2;
  size_t n_ic;        /* public inputs including ONE */
  cuzk_g1_affine *ic; /* n_ic points */
} cuzk_g16_vk;

typedef struct {
  cuzk_g16_vk vk;
  size_t n_h, n_l, n_a, n_b1, n_b2;
  cuzk_g1_affine *h, *l, *a, *b_g1;
  cuzk_g2_affine *b_g2;
} cuzk_g16_params;

/* Frees what the library allocated for a key (readers, generator). NULL is a no-op. */
void cuzk_g16_vk_free(cuzk_g16_vk *vk);
void cuzk_g16_params_free(cuzk_g16_params *p);

/* ---- files (docs/spec/groth16.md §2.1-2.2) --------------------------------------------------- */
typedef struct {
  /* Subgroup-check the big vectors (h, l, a, b_g1, b_g2) too; the VK part is always fully checked.
   * On-curve checks and the identity rejection always run. */
  bool check_subgroup;
  cuzk_pool *pool; /* decode in parallel (NULL: calling thread) */
  unsigned max_workers;
  /* Cooperative cancellation (NULL: none): checked every CUZK_G16_READ_CANCEL_POINTS points per
   * worker; once nonzero the reader stops there with ECANCELLED (nothing returned). */
  const _Atomic int *cancel;
  /* NULL, or told the points decoded (or checked) of all query vectors so far, step the vector's
   * name ("h", "l", "a", "b_g1", "b_g2"; "done" last), every few million points: a 32 GiB set
   * takes minutes. */
  const cuzk_progress *progress;
  /* The query vectors' points were all checked before (their file's PATH.checked mark: docs/
   * groth16.md "Parameters read in place"): decoded without any check, as the MSMs of a set read
   * in place decode them. The verifying key is checked whatever this says. */
  bool trusted;
} cuzk_g16_read_opts;
#define CUZK_G16_READ_CANCEL_POINTS 4096

/* Where a reader stopped: the byte offset of the failing item and what it was. */
typedef struct {
  size_t offset;
  const char *what; /* "alpha_g1", "ic", "h", "l", "a", "b_g1", "b_g2", "file" */
  size_t index;     /* element index within the vector */
} cuzk_g16_read_error;

/* opts and err may be NULL (defaults: no subgroup check of the big vectors, one thread). */
cuzk_g16_err cuzk_g16_params_read(cuzk_g16_params **out, const uint8_t *buf, size_t len,
                                  const cuzk_g16_read_opts *opts, cuzk_g16_read_error *err);
cuzk_g16_err cuzk_g16_params_read_file(cuzk_g16_params **out, const char *path,
                                       const cuzk_g16_read_opts *opts, cuzk_g16_read_error *err);
cuzk_g16_err cuzk_g16_vk_read(cuzk_g16_vk **out, const uint8_t *buf, size_t len,
                              cuzk_g16_read_error *err);
cuzk_g16_err cuzk_g16_vk_read_file(cuzk_g16_vk **out, const char *path, cuzk_g16_read_error *err);

/* Serialized sizes and writers (uncompressed points, u32 big-endian lengths). */
size_t cuzk_g16_vk_size(const cuzk_g16_vk *vk);
size_t cuzk_g16_params_size(const cuzk_g16_params *p);
void cuzk_g16_vk_write(uint8_t *out, const cuzk_g16_vk *vk);        /* vk_size bytes */
void cuzk_g16_params_write(uint8_t *out, const cuzk_g16_params *p); /* params_size bytes */
cuzk_g16_err cuzk_g16_vk_write_file(const cuzk_g16_vk *vk, const char *path);
cuzk_g16_err cuzk_g16_params_write_file(const cuzk_g16_params *p, const char *path);

/* The circuit facts a parameter set must agree with (docs/spec/groth16.md §13 step 2). */
typedef struct {
  size_t num_inputs; /* ONE included */
  size_t num_aux;
  size_t num_constraints; /* including the per-input constraints */
  size_t a_aux_density, b_input_density, b_aux_density;
} cuzk_g16_shape;

/* The shape of a synthesized PROVE-mode system (input constraints counted whether or not they
 * have been appended yet). */
cuzk_g16_err cuzk_g16_shape_of(cuzk_g16_shape *s, const cuzk_cs *cs);
/* Domain size m (the smallest power of two >= num_constraints); 0 if above 2^27. */
size_t cuzk_g16_domain_size(size_t num_constraints);
/* ECOUNT unless n_ic = inputs, n_h = m - 1, n_l = aux, n_a = inputs + a_aux,
 * n_b1 = n_b2 = b_input + b_aux. */
cuzk_g16_err cuzk_g16_params_check_shape(const cuzk_g16_params *p, const cuzk_g16_shape *s);

/* Filecoin naming (docs/spec/groth16.md §2.4): cache_id = "<prefix>-" + hex(SHA-256(identifier));
 * files "v28-<cache_id>.params" / ".vk" / ".meta". out gets at most len bytes (NUL-terminated);
 * returns EINVAL if it does not fit. */
#define CUZK_G16_PARAMS_VERSION 28
cuzk_g16_err cuzk_g16_cache_id(char *out, size_t len, const char *prefix, const char *identifier);
cuzk_g16_err cuzk_g16_file_name(char *out, size_t len, const char *cache_id, const char *ext);
/* The ".meta" file: {"sector_size":N} as rust-fil-proofs writes it; test_params adds a
 * "cuzk_note" field saying the parameters come from the test generator (serde ignores it). */
cuzk_g16_err cuzk_g16_meta_write_file(const char *path, uint64_t sector_size, bool test_params);
/* true if the .meta file at path carries that note: the parameters beside it are TEST parameters
 * (what the daemon's deterministic r, s require; false for a missing or unreadable file). */
bool cuzk_g16_meta_is_test(const char *path);

/* ---- proofs (docs/spec/groth16.md §2.3) ------------------------------------------------------ */
typedef struct {
  cuzk_g1_affine a;
  cuzk_g2_affine b;
  cuzk_g1_affine c;
} cuzk_g16_proof;

#define CUZK_G16_PROOF_BYTES 192
void cuzk_g16_proof_write(uint8_t out[CUZK_G16_PROOF_BYTES], const cuzk_g16_proof *p);
/* Full checks; the identity is rejected for A, B and C (EINFINITY). */
cuzk_g16_err cuzk_g16_proof_read(cuzk_g16_proof *p, const uint8_t in[CUZK_G16_PROOF_BYTES]);
/* Exactly n proofs in len = 192 n bytes (ECOUNT otherwise), partition order. */
cuzk_g16_err cuzk_g16_proofs_read(cuzk_g16_proof *p, size_t n, const uint8_t *in, size_t len);

/* ---- test-parameter generator (docs/spec/groth16.md §6) -------------------------------------- */
/*
 * FOR TESTS AND LOCAL DEVELOPMENT ONLY: the toxic waste is derived from the seed, so anyone with
 * the seed can forge proofs. cs holds the circuit synthesized in RECORD mode (not finished);
 * the generator appends the input constraints and finishes it. g1/g2 are the standard
 * generators. Deterministic for a given seed and circuit. progress (may be NULL;
 * cuzk/util/progress.h) counts the points of the query vectors, reported as each vector starts
 * (steps "tables", "ic", "l", "h", "a", "b_g1", "b_g2", then "done" with done == total); its cancel
 * flag is read before the tables and between chunks of every vector (ECANCELLED, nothing returned).
 */
cuzk_g16_err cuzk_g16_generate(cuzk_g16_params **out, cuzk_cs *cs, const uint8_t seed[32],
                               cuzk_pool *pool, unsigned max_workers,
                               const cuzk_progress *progress);

/* The streaming generator (docs/groth16.md "TEST parameters written as they are made"): the
 * same parameters, byte for byte, as cuzk_g16_generate on the same circuit and seed, computed
 * from the recorded matrices (cuzk/r1cs/pce.h: the per-input constraints are implied) and written
 * into a file at their final offsets as they are made. Resident memory: three scalars per
 * variable of a pass (mem_bytes, default CUZK_G16_GEN_MEM_DEFAULT; the variables are taken in as
 * many passes over the matrices as that needs) plus fixed buffers (~40 MiB), whatever the
 * circuit's size; a mapped evaluator's pages are given back behind each walk. */
typedef struct {
  size_t n_ic, n_h, n_l, n_a, n_b;                      /* vector lengths (b_g1 and b_g2: n_b) */
  uint64_t ic_off, h_off, l_off, a_off, b1_off, b2_off; /* each vector's count field */
  uint64_t vk_bytes, params_bytes;                      /* the .vk file; the whole .params file */
} cuzk_g16_gen_plan;
#define CUZK_G16_GEN_MEM_DEFAULT ((size_t)2 << 30)
typedef struct {
  cuzk_pool *pool; /* NULL: the calling thread */
  unsigned max_workers;
  const cuzk_progress *progress; /* as cuzk_g16_generate's, plus "matrices" as each pass starts */
  size_t mem_bytes;              /* a pass's a(tau), b(tau), c(tau); 0: the default */
} cuzk_g16_gen_opts;
/* The file's shape for pce's circuit (one walk over A and B); ESHAPE past 2^27 constraints. */
cuzk_g16_err cuzk_g16_gen_plan_of(const cuzk_pce *pce, cuzk_g16_gen_plan *out);
/* Writes the whole .params file into fd (opened for writing; bytes 0 .. params_bytes, with
 * pwrite: the caller sizes, syncs and names the file) and returns the verifying key (*vk, the
 * .vk file's content). EUNCONSTRAINED as cuzk_g16_generate; ECANCELLED on progress's cancel
 * (checked between chunks); EIO if a write fails; ESHAPE if tau is a root of a column's
 * polynomial (probability < 2^-220; the file would differ from cuzk_g16_generate's). */
cuzk_g16_err cuzk_g16_generate_fd(const cuzk_pce *pce, const uint8_t seed[32], int fd,
                                  cuzk_g16_vk **vk, const cuzk_g16_gen_opts *opts);

/* ---- prover (docs/spec/groth16.md §4) -------------------------------------------------------- */
typedef struct {
  double h_s; /* iNTT, coset NTT, quotient, inverse coset NTT */
  double msm_h_s, msm_l_s, msm_a_s, msm_b1_s, msm_b2_s;
  double assembly_s;
  double total_s;
} cuzk_g16_timings;

typedef struct {
  cuzk_pool *pool; /* NULL: calling thread only */
  unsigned max_workers;
  /* Fixed randomizers, one r and one s per circuit (tests, differential checks); NULL: drawn
   * from the OS CSPRNG (getrandom). */
  const cuzk_fr *r, *s;
  /* Cooperative cancellation (NULL: none): checked between stages (H, each MSM) and inside
   * the MSMs every CUZK_MSM_CANCEL_POINTS points per worker; once nonzero the prover stops
   * there with ECANCELLED. */
  const _Atomic int *cancel;
} cuzk_g16_prove_opts;

/* r and s of partition k drawn from seed (SHA-256 of a fixed label, the seed, 'r' or 's', k and a
 * counter, rejection-sampled): the same proof bytes on every run and thread count (cuzk-bench
 * prove --deterministic, the daemon's srs.test_deterministic_seed). FOR TESTS ONLY: the same r, s
 * on two different witnesses of one circuit reveal the witness; with random r, s a proof reveals
 * nothing of it. */
void cuzk_g16_seeded_rs(cuzk_fr *r, cuzk_fr *s, uint64_t seed, unsigned k);

/*
 * Proves n circuits of one shape against one parameter set: cs[i] holds circuit i synthesized in
 * PROVE mode (not finished; the prover appends the input constraints). proofs[i] answers cs[i].
 * timings (may be NULL) gets the sum over the batch. The parameter shape is checked first.
 */
cuzk_g16_err cuzk_g16_prove(cuzk_g16_proof *proofs, cuzk_cs *const *cs, size_t n,
                            const cuzk_g16_params *params, const cuzk_g16_prove_opts *opts,
                            cuzk_g16_timings *timings);
/* The same from pre-compiled constraints (cuzk/r1cs/pce.h): witness[i] holds circuit i synthesized
 * in WITNESS mode and finished, pce the circuit's recorded matrices; a, b, c are computed from them
 * straight into the prover's vectors. Proofs equal cuzk_g16_prove's for the same r, s. */
cuzk_g16_err cuzk_g16_prove_pce(cuzk_g16_proof *proofs, cuzk_cs *const *witness, size_t n,
                                const cuzk_pce *pce, const cuzk_g16_params *params,
                                const cuzk_g16_prove_opts *opts, cuzk_g16_timings *timings);

/* ---- verifier (docs/spec/groth16.md §5) ------------------------------------------------------ */
typedef struct cuzk_g16_pvk cuzk_g16_pvk;

cuzk_g16_err cuzk_g16_pvk_prepare(cuzk_g16_pvk **out, const cuzk_g16_vk *vk);
void cuzk_g16_pvk_free(cuzk_g16_pvk *pvk);

/* inputs: the n_ic - 1 public inputs without ONE (EINVAL for another count). *ok tells the
 * verdict; an error code means the check could not run. */
cuzk_g16_err cuzk_g16_verify(bool *ok, const cuzk_g16_pvk *pvk, const cuzk_g16_proof *proof,
                             const cuzk_fr *inputs, size_t n_inputs);
/* n proofs, inputs[j] for proof j (each n_inputs long), checked together with random 128-bit
 * weights from the OS CSPRNG (docs/spec/groth16.md §5.3). One proof falls back to
 * cuzk_g16_verify. */
cuzk_g16_err cuzk_g16_verify_batch(bool *ok, const cuzk_g16_pvk *pvk, const cuzk_g16_proof *proofs,
                                   const cuzk_fr *const *inputs, size_t n_inputs, size_t n);

/* ---- a circuit's parameter files (docs/groth16.md "Parameter files") ----------------------
 * base is the path without extension (DIR/v28-<cache id>). Messages name the file and, for a bad
 * .params, the byte offset and vector. */
/* The prepared verifying key of base.vk. */
cuzk_g16_err cuzk_g16_pvk_load(const char *base, cuzk_g16_pvk **pvk, char *msg, size_t msg_len);
/* base.params decoded in parallel on pool, and base.vk prepared. cancel (may be NULL): as
 * cuzk_g16_read_opts's (ECANCELLED, nothing returned). */
cuzk_g16_err cuzk_g16_params_load(const char *base, cuzk_pool *pool, const _Atomic int *cancel,
                                  cuzk_g16_params **params, cuzk_g16_pvk **pvk, char *msg,
                                  size_t msg_len);
/* A .params file already mapped (a daemon's WARM set: no disk read while the page cache holds
 * it); path only names it in msg. */
cuzk_g16_err cuzk_g16_params_decode(const cuzk_file_map *m, const char *path, cuzk_pool *pool,
                                    const _Atomic int *cancel, cuzk_g16_params **params, char *msg,
                                    size_t msg_len);
/* TEST parameters (seed = SHA-256 of base: anyone can forge proofs with them) for the circuit
 * synthesized in cs (RECORD mode, not finished: the generator finishes it; the caller still
 * destroys it), written as
 * base.params, .vk and .meta (sector_bytes, marked as test parameters); the directory is created
 * if missing. *gen_s (may be NULL): seconds spent generating; progress: cuzk_g16_generate's (a
 * cancel during the generation: ECANCELLED, no file written; each file is written to a temporary
 * name and renamed). */
cuzk_g16_err cuzk_g16_write_test_params(const char *base, cuzk_cs *cs, uint64_t sector_bytes,
                                        cuzk_pool *pool, const cuzk_progress *progress,
                                        double *gen_s, char *msg, size_t msg_len);
/* The same from a synthesizer: synth(cs, ctx, msg, len) puts the blank circuit into a fresh
 * RECORD-mode system (false with msg; progress's cancel flag is the system's, cuzk_cs_opts), then
 * the parameters are generated and written. What every proof kind's "setup" is. */
typedef bool (*cuzk_g16_synth_fn)(cuzk_cs *cs, const void *ctx, char *msg, size_t msg_len);
/* How TEST parameters are made (cuzk_g16_testgen_opts_default: from the environment, see
 * docs/groth16.md "TEST parameters written as they are made"). */
typedef struct {
  bool in_memory;         /* cuzk_g16_generate, then the files (CUZK_SETUP_GENERATOR=memory) */
  size_t mem_bytes;       /* the streaming generator's pass size (CUZK_SETUP_MEM_MIB); 0: default */
  const uint8_t *seed;    /* 32 bytes, or NULL: SHA-256 of base (what setup uses) */
  int64_t free_bytes;     /* tests: the free space to assume; < 0: statvfs of base's directory */
  size_t spill_pce_bytes; /* an evaluator of at least this size is written to a temporary .pce
                             file and mapped (its pages then leave the resident set); default
                             64 MiB; SIZE_MAX: never */
  size_t spill_record_bytes; /* the recording's arrays past this size go to temporary files
                                beside base (cuzk_cs_opts.spill_dir); default 256 MiB; SIZE_MAX:
                                never */
} cuzk_g16_testgen_opts;
void cuzk_g16_testgen_opts_default(cuzk_g16_testgen_opts *o);
/* TEST parameters of pce's circuit as cuzk_g16_write_test_params writes them: free space checked
 * first (an error naming the bytes needed and free), the .params file written as it is made
 * into base.params.partial (removed on any failure or cancel) and renamed at the end, then .vk
 * and .meta. opts NULL: the defaults (in_memory is ignored: the matrices alone cannot feed
 * cuzk_g16_generate). */
cuzk_g16_err cuzk_g16_write_test_params_pce(const char *base, const cuzk_pce *pce,
                                            uint64_t sector_bytes, cuzk_pool *pool,
                                            const cuzk_progress *progress,
                                            const cuzk_g16_testgen_opts *opts, double *gen_s,
                                            char *msg, size_t msg_len);
/* cuzk_g16_setup_test_params with explicit options (NULL: cuzk_g16_testgen_opts_default). */
cuzk_g16_err cuzk_g16_setup_test_params_opts(const char *base, uint64_t sector_bytes,
                                             cuzk_g16_synth_fn synth, const void *ctx,
                                             cuzk_pool *pool, const cuzk_progress *progress,
                                             const cuzk_g16_testgen_opts *opts, double *gen_s,
                                             char *msg, size_t msg_len);
cuzk_g16_err cuzk_g16_setup_test_params(const char *base, uint64_t sector_bytes,
                                        cuzk_g16_synth_fn synth, const void *ctx, cuzk_pool *pool,
                                        const cuzk_progress *progress, double *gen_s, char *msg,
                                        size_t msg_len);
/* DIR/v<CUZK_G16_PARAMS_VERSION>-<prefix>-<SHA-256 hex of identifier> (cuzk_g16_cache_id), the
 * parameter files' path without extension; false if it does not fit in len. */
bool cuzk_g16_param_base(char *out, size_t len, const char *dir, const char *prefix,
                         const char *identifier);

#ifdef __cplusplus
}
#endif
#endif
