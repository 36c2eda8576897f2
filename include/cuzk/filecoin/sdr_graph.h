/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The SDR graph (docs/spec/sdr-vanilla.md §5): DRG base parents drawn with rand_chacha's
 * ChaCha8Rng, expander parents from a 3-round BLAKE2b Feistel permutation, the 14-parent list of a
 * node and the Filecoin parent cache file (56 bytes per node, its v28 name and SHA-256 digest).
 * Everything here is bit-exact with rust-fil-proofs v19 (storage-proofs-core drgraph.rs and
 * crypto/feistel.rs, storage-proofs-porep stacked/vanilla/graph.rs and cache.rs).
 *
 * A graph is fixed by porep_id (§2.3), the api version and the node count N = sector bytes / 32.
 * All functions are thread-safe: a cuzk_sdr_graph is read-only after cuzk_sdr_graph_init. The
 * ChaCha8 and Feistel primitives under it are internal to the filecoin layer
 * (src/filecoin/graph.h).
 */
#ifndef CUZK_FILECOIN_SDR_GRAPH_H
#define CUZK_FILECOIN_SDR_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/util/pool.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUZK_SDR_BASE_DEGREE 6 /* DRG parents, first in the list */
#define CUZK_SDR_EXP_DEGREE 8  /* expander parents, after the base ones */
#define CUZK_SDR_DEGREE 14     /* parents per node */
#define CUZK_SDR_DRG_SEED_BYTES 28
#define CUZK_SDR_PARENT_CACHE_VERSION 28    /* storage-proofs-core parameter_cache::VERSION */
#define CUZK_SDR_PARENT_CACHE_NODE_BYTES 56 /* 14 parents as u32 little-endian */
#define CUZK_SDR_PARENT_CACHE_DEFAULT_DIR "/var/tmp/filecoin-parents"
/* "v28-sdr-parent-" + 64 hex digits + ".cache" + NUL */
#define CUZK_SDR_PARENT_CACHE_NAME_BYTES 86

/* The values equal cuzk_api_version's (include/cuzk/filecoin/sector.h); 1.1.0 and 1.2.0 give
 * identical graphs (docs/spec/sdr-vanilla.md §2.3). */
typedef enum {
  CUZK_SDR_API_V1_0 = 0, /* ApiVersion V1_0_0: predecessor last, u32 expander truncation */
  CUZK_SDR_API_V1_1 = 1, /* ApiVersion V1_1_0 */
  CUZK_SDR_API_V1_2 = 2, /* ApiVersion V1_2_0: same graph as V1_1_0 */
} cuzk_sdr_api;

typedef enum {
  CUZK_SDR_GRAPH_OK = 0,
  CUZK_SDR_GRAPH_EINVAL, /* bad argument (node count outside 2..2^32, unknown api version) */
  CUZK_SDR_GRAPH_ENOMEM, /* allocation failed */
  CUZK_SDR_GRAPH_EIO,    /* the cache file could not be created or written */
} cuzk_sdr_graph_err;

const char *cuzk_sdr_graph_strerror(cuzk_sdr_graph_err e);

/* The expander parents' Feistel permutation (feistel.c, docs/spec/sdr-vanilla.md §5.3), part of
 * a graph; its functions are internal to the filecoin layer. */
typedef struct {
  uint64_t num_elements; /* the domain 0..M-1 */
  uint64_t keys[3];      /* round keys (keys 0..2 of the four derived ones) */
  uint64_t left_mask, right_mask;
  unsigned half_bits; /* smallest k >= 1 with 4^k >= M */
} cuzk_feistel;

/* ---- The graph (graph.c, docs/spec/sdr-vanilla.md §5.1-§5.4) --------------------------------- */
typedef struct {
  uint64_t nodes; /* N */
  cuzk_sdr_api api;
  uint8_t porep_id[32];
  uint8_t drg_seed[CUZK_SDR_DRG_SEED_BYTES]; /* SHA-256("Filecoin_DRSample" || porep_id)[0..28] */
  uint64_t feistel_keys[4]; /* SHA-256("Filecoin_Feistel" || porep_id) as 4 u64 LE; 0..2 used */
  cuzk_feistel feistel;     /* over M = 8N */
} cuzk_sdr_graph;

/* nodes: 2..2^32 (parents are u32). */
cuzk_sdr_graph_err cuzk_sdr_graph_init(cuzk_sdr_graph *g, const uint8_t porep_id[32],
                                       cuzk_sdr_api api, uint64_t nodes);

/* v < g->nodes (not checked). Base: 6 DRG parents in Rust's order (docs/spec/sdr-vanilla.md §5.2);
 * expander: 8 (§5.3); parents: base then expander, 14 values, the order of labeling, proofs and the
 * cache file. */
void cuzk_sdr_graph_base_parents(const cuzk_sdr_graph *g, uint64_t v,
                                 uint32_t out[CUZK_SDR_BASE_DEGREE]);
void cuzk_sdr_graph_exp_parents(const cuzk_sdr_graph *g, uint64_t v,
                                uint32_t out[CUZK_SDR_EXP_DEGREE]);
void cuzk_sdr_graph_parents(const cuzk_sdr_graph *g, uint64_t v, uint32_t out[CUZK_SDR_DEGREE]);

/* The parents of nodes begin..end-1 into out[14 * (v - begin) ...], on pool (NULL: inline).
 * EINVAL if begin > end or end > nodes. */
cuzk_sdr_graph_err cuzk_sdr_graph_parents_range(const cuzk_sdr_graph *g, cuzk_pool *pool,
                                                uint64_t begin, uint64_t end, uint32_t *out);

/* ---- Parent cache file (parent_cache.c, docs/spec/sdr-vanilla.md §5.5) ----------------------- */
/* <hex> of the file name: SHA-256("poseidon_hasher" || graph identifier || keys 0..3 LE64 ||
 * N as u32 LE), lowercase; the name is "v28-sdr-parent-<hex>.cache". */
void cuzk_sdr_parent_cache_id(const cuzk_sdr_graph *g, char hex[65]);
void cuzk_sdr_parent_cache_name(const cuzk_sdr_graph *g,
                                char name[CUZK_SDR_PARENT_CACHE_NAME_BYTES]);

/* Generates the whole cache (56·N bytes) in chunks on pool and hashes it: digest = SHA-256 of the
 * file bytes (the manifest's "digest"). path NULL: nothing is written, only the digest is
 * computed. Otherwise the file is written at path (replaced if present; removed again on error).
 * digest may be NULL. */
cuzk_sdr_graph_err cuzk_sdr_parent_cache_write(const cuzk_sdr_graph *g, cuzk_pool *pool,
                                               const char *path, uint8_t digest[32]);

#ifdef __cplusplus
}
#endif
#endif
