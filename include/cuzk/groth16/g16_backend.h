/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The prover's backend seam (docs/backends.md). The Groth16 prover (cuzk_g16_prove_set) decides
 * what runs and in which order; a backend runs it: the H chain (from a, b, c or from pre-compiled
 * constraints), the MSMs over a parameter set's bases, and the memory they take. The CPU code is
 * backend one (cuzk_g16_backend_cpu); an accelerator backend fills the same table.
 *
 * Three handles keep the prover away from where data lives:
 * - a parameter set is attached to a backend (cuzk_g16_attach) and the prover sees only the
 *   attachment (cuzk_g16_set): its verifying key and vector lengths, never the bases. The backend
 *   decides where the bases are: decoded in process memory, read from the mapped .params file,
 *   or copied to a device;
 * - the domain-sized vectors of the H chain are a backend's buffer (cuzk_g16_domain), taken once
 *   per batch and reused from circuit to circuit; h stays there for the H MSM;
 * - witnesses and density bitmaps are the constraint system's (cuzk_cs_result), in host memory.
 */
#ifndef CUZK_G16_BACKEND_H
#define CUZK_G16_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/curve/curve.h"
#include "cuzk/groth16/groth16.h"
#include "cuzk/r1cs/pce.h"
#include "cuzk/r1cs/r1cs.h"
#include "cuzk/util/file_map.h"
#include "cuzk/util/pool.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cuzk_g16_backend cuzk_g16_backend;
typedef struct cuzk_g16_domain cuzk_g16_domain; /* a backend's own */

/* Where a call runs and when it stops: the host pool (a device backend still uses it for its host
 * side) and the cancel flag (NULL: none), polled inside long steps (ECANCELLED). */
typedef struct {
  cuzk_pool *pool; /* NULL: the calling thread */
  unsigned max_workers;
  const _Atomic int *cancel;
} cuzk_g16_exec;

/* The query vectors of a parameter set whose bases an MSM reads. */
typedef enum {
  CUZK_G16_Q_H = 0, /* n_h G1 points, against h's coefficients */
  CUZK_G16_Q_L,     /* n_l G1 points, against the aux values */
  CUZK_G16_Q_A,     /* n_a G1 points: the inputs', then the aux values' in density order */
  CUZK_G16_Q_B_G1,  /* n_b1 G1 points: the inputs' in density order, then the aux values' */
  CUZK_G16_Q_B_G2,  /* n_b2 G2 points, laid out as B_G1 */
} cuzk_g16_query;

/* What the SRS manager attaches: a decoded set (borrowed: it must outlive the attachment), or the
 * .params file's mapping (borrowed likewise; path names it in messages). A backend takes the
 * bases from it as it sees fit; the CPU backend decodes a mapping into memory it owns. */
typedef enum {
  CUZK_G16_SOURCE_DECODED = 0,
  CUZK_G16_SOURCE_MAPPED,
} cuzk_g16_source_kind;

typedef struct {
  cuzk_g16_source_kind kind;
  const cuzk_g16_params *params; /* DECODED */
  const cuzk_file_map *file;     /* MAPPED (may be NULL with in_place) */
  const char *path;              /* MAPPED */
  /* MAPPED: keep the bases in the file and decode them at each MSM, a chunk at a time, instead
   * of decoding them once at attach (docs/backends.md "Bases read in place"): the backend maps
   * path itself; every point is checked once per file (PATH.checked remembers the file):
   * canonical, on the curve, not the identity, and with check_subgroup in the subgroup too (about
   * 50 us a point on this project's VM: hours for a 32 GiB set on two cores). */
  bool in_place;
  bool check_subgroup;
  /* in_place: NULL, or the check's progress (cuzk_g16_read_opts.progress: points of all query
   * vectors; minutes for a 32 GiB set, seconds once PATH.checked names the file) */
  const cuzk_progress *progress;
} cuzk_g16_source;

/* A parameter set attached to a backend. The backend's attach fills vk and the lengths (what the
 * prover's shape check and assembly need) and impl (its hold on the bases). */
typedef struct {
  const cuzk_g16_backend *backend;
  const cuzk_g16_vk *vk;
  size_t n_h, n_l, n_a, n_b1, n_b2;
  void *impl;
} cuzk_g16_set;

/* Memory a proof takes beyond its constraint system, per circuit in flight: what the engine's
 * admission charges (host) and what a device backend must find on its device. */
typedef struct {
  uint64_t host_bytes;
  uint64_t device_bytes;
} cuzk_g16_mem;

/* One circuit's MSM results before the assembly (docs/spec/groth16.md §4.3-4.4). */
typedef struct {
  cuzk_g1 h, l, a_in, a_aux, b1_in, b1_aux;
  cuzk_g2 b2_in, b2_aux;
} cuzk_g16_msm_sums;

/*
 * The table. Every entry gets the table itself (be), so a backend can reach its ctx or call its
 * own entries (cuzk_g16_msms_each does). Entries return CUZK_G16_OK, ENOMEM, ECANCELLED or
 * EINVAL; they never print.
 */
struct cuzk_g16_backend {
  const char *name;
  void *ctx;

  /* The SRS manager's hooks, once per parameter set: take hold of src's bases and fill set (its
   * backend field is already set); msg names what failed. detach lets go of them. */
  cuzk_g16_err (*attach)(const cuzk_g16_backend *be, cuzk_g16_set *set, const cuzk_g16_source *src,
                         const cuzk_g16_exec *x, char *msg, size_t msg_len);
  void (*detach)(const cuzk_g16_backend *be, cuzk_g16_set *set);

  /* The memory of one circuit's proof on this set (precompiled: with cuzk_g16_prove_pce_set). */
  void (*estimate)(const cuzk_g16_backend *be, const cuzk_g16_set *set, bool precompiled,
                   cuzk_g16_mem *out);

  /* Domain buffers of size m (a power of two) for a batch: as many vectors as the H chain of
   * the mode needs. domain_put(NULL) is a no-op. */
  cuzk_g16_err (*domain_get)(const cuzk_g16_backend *be, size_t m, bool precompiled,
                             cuzk_g16_domain **out);
  void (*domain_put)(const cuzk_g16_backend *be, cuzk_g16_domain *d);

  /* The H chain (docs/spec/groth16.md §4.2): h's m coefficients into d, from w's a, b, c (PROVE
   * mode, w->num_constraints of each, zero-padded to m) or, with pre-compiled constraints, from
   * the PCE evaluation of pce's matrices times w's witness (docs/groth16.md "Pre-compiled
   * constraints: H with two vectors"). */
  cuzk_g16_err (*h_from_abc)(const cuzk_g16_backend *be, cuzk_g16_domain *d,
                             const cuzk_cs_result *w, const cuzk_g16_exec *x);
  cuzk_g16_err (*h_from_pce)(const cuzk_g16_backend *be, cuzk_g16_domain *d, const cuzk_pce *pce,
                             const cuzk_cs_result *w, const cuzk_g16_exec *x);

  /* Plain MSM: bases first .. first + n - 1 of query q against the first n values the H chain
   * left in d. (Groth16 has no plain G2 MSM: B_G2 is witness-aware.) */
  cuzk_g16_err (*msm_g1)(const cuzk_g16_backend *be, const cuzk_g16_set *set, cuzk_g16_query q,
                         size_t first, size_t n, const cuzk_g16_domain *d, const cuzk_g16_exec *x,
                         cuzk_g1 *out);
  /* Witness-aware MSM (cuzk_g1_msm_witness's contract): nbases bases of q from first, against
   * n host scalars, through density (NULL: scalar j with base first + j). */
  cuzk_g16_err (*msm_g1_witness)(const cuzk_g16_backend *be, const cuzk_g16_set *set,
                                 cuzk_g16_query q, size_t first, size_t nbases,
                                 const cuzk_fr *scalars, size_t n, const uint64_t *density,
                                 const cuzk_g16_exec *x, cuzk_g1 *out);
  cuzk_g16_err (*msm_g2_witness)(const cuzk_g16_backend *be, const cuzk_g16_set *set,
                                 cuzk_g16_query q, size_t first, size_t nbases,
                                 const cuzk_fr *scalars, size_t n, const uint64_t *density,
                                 const cuzk_g16_exec *x, cuzk_g2 *out);

  /* The batch entry: all of one circuit's MSMs at once (h from d, the witness of w), so that a
   * backend may overlap them (G2 on the host while G1 runs on a device); t (may be NULL) gets
   * each MSM's seconds added. cuzk_g16_msms_each is the one-after-the-other form. */
  cuzk_g16_err (*msms)(const cuzk_g16_backend *be, const cuzk_g16_set *set,
                       const cuzk_g16_domain *d, const cuzk_cs_result *w, const cuzk_g16_exec *x,
                       cuzk_g16_msm_sums *out, cuzk_g16_timings *t);
};

/* Backend one: the CPU code (msm, ntt and the PCE evaluator on the pool). */
const cuzk_g16_backend *cuzk_g16_backend_cpu(void);

/* Attaches src to be (NULL: the CPU backend); *out is freed by cuzk_g16_detach (NULL: no-op). */
cuzk_g16_err cuzk_g16_attach(cuzk_g16_set **out, const cuzk_g16_backend *be,
                             const cuzk_g16_source *src, const cuzk_g16_exec *x, char *msg,
                             size_t msg_len);
void cuzk_g16_detach(cuzk_g16_set *set);

/* set's backend's estimate. */
void cuzk_g16_estimate(const cuzk_g16_set *set, bool precompiled, cuzk_g16_mem *out);

/* The batch entry as the single entries of be one after the other (H, L, A, B_G1, B_G2, each
 * timed, the cancel flag read between them): what a backend without its own overlap uses. */
cuzk_g16_err cuzk_g16_msms_each(const cuzk_g16_backend *be, const cuzk_g16_set *set,
                                const cuzk_g16_domain *d, const cuzk_cs_result *w,
                                const cuzk_g16_exec *x, cuzk_g16_msm_sums *out,
                                cuzk_g16_timings *t);

/* cuzk_g16_prove and cuzk_g16_prove_pce on an attached set, through its backend. */
cuzk_g16_err cuzk_g16_prove_set(cuzk_g16_proof *proofs, cuzk_cs *const *cs, size_t n,
                                const cuzk_g16_set *set, const cuzk_g16_prove_opts *opts,
                                cuzk_g16_timings *timings);
cuzk_g16_err cuzk_g16_prove_pce_set(cuzk_g16_proof *proofs, cuzk_cs *const *witness, size_t n,
                                    const cuzk_pce *pce, const cuzk_g16_set *set,
                                    const cuzk_g16_prove_opts *opts, cuzk_g16_timings *timings);

#ifdef __cplusplus
}
#endif
#endif
