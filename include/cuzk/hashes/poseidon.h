/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Poseidon over BLS12-381 Fr exactly as neptune 11 / rust-fil-proofs (docs/spec/poseidon.md):
 * x^5 S-box, width t = arity + 1, 8 full rounds and the partial-round counts of
 * docs/spec/poseidon.md §2, round constants from the Grain LFSR (§3), the Cauchy MDS matrix
 * 1/(i+j+t) (§4.1).
 *
 * The state is [domain tag, in_1, ..., in_arity]; the hash is state[1] after the permutation.
 * Filecoin's trees, column hashes and comm_r use the MerkleTree tag 2^arity - 1
 * (docs/spec/poseidon.md §5).
 *
 * Constants for an arity are generated on first use (2-20 ms for arities 2-11, 0.3 s for 36;
 * once per process, thread-safe) and then shared read-only. Two permutations compute the same
 * function: the reference one (docs/spec/poseidon.md §4.2, kept as the executable definition)
 * and neptune's "static" form with compressed round constants and sparse partial-round
 * matrices (docs/spec/poseidon.md §4.3), which the hashes and the R1CS gadget use.
 *
 * Field elements are cuzk_fr (Montgomery form); byte interfaces use Filecoin's 32-byte canonical
 * little-endian encoding and reject values >= r.
 */
#ifndef CUZK_POSEIDON_H
#define CUZK_POSEIDON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/field/field.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Errors of the hashes layer (SHA-256 and Poseidon). */
typedef enum {
  CUZK_HASH_OK = 0,
  CUZK_HASH_EINVAL,    /* NULL pointer, zero length, tag id out of range */
  CUZK_HASH_EARITY,    /* arity without Poseidon parameters (supported: 2 4 8 11 16 24 36) */
  CUZK_HASH_ENOMEM,    /* allocating the constants failed */
  CUZK_HASH_ENONCANON, /* a 32-byte input encodes a value >= r */
} cuzk_hash_err;

const char *cuzk_hash_strerror(cuzk_hash_err e);

#define CUZK_POSEIDON_MAX_ARITY 36
#define CUZK_POSEIDON_MAX_WIDTH (CUZK_POSEIDON_MAX_ARITY + 1)

/*
 * The constants of one arity (all Montgomery form, matrices row-major: A[i][j] at i*t + j).
 * Round r uses round_constants[r*t .. r*t+t). The static form's matrices are applied as
 * row-vector products s' = s * A (docs/spec/poseidon.md §4.3); each sparse matrix k is stored as
 * its column 0 (w_hat, t values) followed by row 0 without its first entry (v_rest, t-1 values).
 */
typedef struct {
  unsigned arity, width;                /* width t = arity + 1 */
  unsigned full_rounds, partial_rounds; /* R_F = 8, R_P */
  cuzk_fr merkle_tag;                   /* 2^arity - 1 */
  const cuzk_fr *round_constants;       /* (R_F + R_P) * t, Grain order */
  const cuzk_fr *mds;                   /* t * t */
  const cuzk_fr *compressed_constants;  /* R_F * t + R_P */
  const cuzk_fr *pre_sparse;            /* t * t, applied after round R_F/2 - 1 */
  const cuzk_fr *sparse;                /* R_P * (2t - 1) */
} cuzk_poseidon_params;

bool cuzk_poseidon_arity_supported(unsigned arity);
/* The constants of an arity, generated on first call. The pointer stays valid for the process. */
cuzk_hash_err cuzk_poseidon_params_get(const cuzk_poseidon_params **p, unsigned arity);

/* ---- Domain tags (docs/spec/poseidon.md §5) -------------------------------------------------- */
void cuzk_poseidon_tag_merkle(cuzk_fr *tag, unsigned arity);        /* 2^arity - 1 */
void cuzk_poseidon_tag_constant_length(cuzk_fr *tag, uint64_t len); /* len * 2^64 */
void cuzk_poseidon_tag_encryption(cuzk_fr *tag);                    /* 2^32 */
/* id * 2^40 for 1 <= id <= 256 (SnapDeals uses id 1); EINVAL otherwise. */
cuzk_hash_err cuzk_poseidon_tag_custom(cuzk_fr *tag, unsigned id);
/* The Sponge tag is 0. */

/* ---- Permutations (state has p->width elements, permuted in place) ------------------------- */
void cuzk_poseidon_permute(const cuzk_poseidon_params *p, cuzk_fr *state);
void cuzk_poseidon_permute_reference(const cuzk_poseidon_params *p, cuzk_fr *state);

/* ---- Hashes --------------------------------------------------------------------------------- */
/* out = Poseidon(tag, in[0..arity)), static form. out may alias in. */
void cuzk_poseidon_hash_tagged(cuzk_fr *out, const cuzk_poseidon_params *p, const cuzk_fr *tag,
                               const cuzk_fr *in);
/* The same through the reference permutation (tests, benchmarks). */
void cuzk_poseidon_hash_tagged_reference(cuzk_fr *out, const cuzk_poseidon_params *p,
                                         const cuzk_fr *tag, const cuzk_fr *in);
/* n hashes with one tag: out[k] = Poseidon(tag, in[k*arity .. k*arity+arity)). */
void cuzk_poseidon_hash_many(cuzk_fr *out, const cuzk_poseidon_params *p, const cuzk_fr *tag,
                             const cuzk_fr *in, size_t n);
/* MerkleTree hash of arity elements (tree nodes, column hashes, comm_r with arity 2). */
cuzk_hash_err cuzk_poseidon_hash(cuzk_fr *out, unsigned arity, const cuzk_fr *in);
/* The same on Filecoin's 32-byte encodings: in holds arity * 32 bytes, out 32 bytes. */
cuzk_hash_err cuzk_poseidon_hash_bytes(uint8_t out[32], unsigned arity, const uint8_t *in);
/*
 * neptune's simplex sponge with the ConstantLength(n) tag: absorb n >= 1 elements (added into
 * state[1..arity], permuting after each full block), then squeeze one; a partial last block is
 * zero-padded and permuted first. Not used by Filecoin; reproduces neptune's vectors
 * (docs/spec/poseidon.md §7.2).
 */
cuzk_hash_err cuzk_poseidon_sponge_constant_length(cuzk_fr *out, unsigned arity, const cuzk_fr *in,
                                                   size_t n);

#ifdef __cplusplus
}
#endif
#endif
