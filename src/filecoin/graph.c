/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The SDR graph: domain seeds from porep_id (docs/spec/sdr-vanilla.md §5.1), DRG bucket parents
 * (§5.2, storage-proofs-core drgraph.rs::BucketGraph::parents), expander parents (§5.3,
 * stacked/vanilla/graph.rs::correspondent) and the 14-parent list (§5.4). */
#include <string.h>

#include "cuzk/hashes/sha256.h"
#include "filecoin/graph.h"

const char *cuzk_sdr_graph_strerror(cuzk_sdr_graph_err e) {
  switch (e) {
  case CUZK_SDR_GRAPH_OK: return "success";
  case CUZK_SDR_GRAPH_EINVAL: return "invalid argument";
  case CUZK_SDR_GRAPH_ENOMEM: return "out of memory";
  case CUZK_SDR_GRAPH_EIO: return "parent cache file could not be written";
  }
  return "unknown graph error";
}

/* derive_porep_domain_seed: SHA-256(ascii(tag) || porep_id), no length prefix. */
static void domain_seed(uint8_t out[32], const char *tag, const uint8_t porep_id[32]) {
  cuzk_sha256_ctx c;
  cuzk_sha256_init(&c);
  cuzk_sha256_update(&c, tag, strlen(tag));
  cuzk_sha256_update(&c, porep_id, 32);
  cuzk_sha256_final(&c, out);
}

cuzk_sdr_graph_err cuzk_sdr_graph_init(cuzk_sdr_graph *g, const uint8_t porep_id[32],
                                       cuzk_sdr_api api, uint64_t nodes) {
  if (!g || !porep_id || nodes < 2 || nodes > ((uint64_t)1 << 32)) return CUZK_SDR_GRAPH_EINVAL;
  if ((unsigned)api > CUZK_SDR_API_V1_2) return CUZK_SDR_GRAPH_EINVAL;
  memset(g, 0, sizeof *g);
  g->nodes = nodes;
  g->api = api;
  memcpy(g->porep_id, porep_id, 32);
  uint8_t s[32];
  domain_seed(s, "Filecoin_DRSample", porep_id);
  memcpy(g->drg_seed, s, CUZK_SDR_DRG_SEED_BYTES);
  domain_seed(s, "Filecoin_Feistel", porep_id);
  for (int m = 0; m < 4; m++) {
    uint64_t k = 0;
    for (int i = 7; i >= 0; i--)
      k = k << 8 | s[8 * m + i];
    g->feistel_keys[m] = k;
  }
  cuzk_feistel_init(&g->feistel, nodes * CUZK_SDR_EXP_DEGREE, g->feistel_keys);
  return CUZK_SDR_GRAPH_OK;
}

/* bit length of x (0 for 0) */
static inline uint64_t bit_length(uint64_t x) { return x ? 64 - (uint64_t)__builtin_clzll(x) : 0; }

void cuzk_sdr_graph_base_parents(const cuzk_sdr_graph *g, uint64_t v,
                                 uint32_t out[CUZK_SDR_BASE_DEGREE]) {
  if (v < 2) { /* node 0 self-references, node 1 references node 0 */
    memset(out, 0, CUZK_SDR_BASE_DEGREE * sizeof out[0]);
    return;
  }
  uint8_t seed[32];
  memcpy(seed, g->drg_seed, CUZK_SDR_DRG_SEED_BYTES);
  uint32_t node = (uint32_t)v; /* DRG node indexes fit u32 (N <= 2^32) */
  seed[28] = (uint8_t)node;
  seed[29] = (uint8_t)(node >> 8);
  seed[30] = (uint8_t)(node >> 16);
  seed[31] = (uint8_t)(node >> 24);
  cuzk_chacha8_rng rng;
  cuzk_chacha8_rng_init(&rng, seed);

  const uint64_t m_prime = CUZK_SDR_BASE_DEGREE - 1;
  const uint64_t meta = (uint64_t)node * m_prime;
  /* Rust: ceil(log2(meta as f64)); meta = 5v is never a power of two (v >= 2) and < 2^35, where
   * that equals the bit length of meta - 1 */
  const uint64_t n_buckets = bit_length(meta - 1);

  /* V1_0_0: draws in parents[0..5], predecessor at 5; V1_1_0+: predecessor at 0, draws after */
  const unsigned pred = g->api == CUZK_SDR_API_V1_0 ? (unsigned)m_prime : 0;
  uint32_t *draws = g->api == CUZK_SDR_API_V1_0 ? out : out + 1;
  for (uint64_t k = 0; k < m_prime; k++) {
    uint64_t bucket = cuzk_chacha8_rng_next_u64(&rng) % n_buckets + 1;
    uint64_t largest = (uint64_t)1 << bucket;
    if (largest > meta) largest = meta;
    uint64_t smallest = largest >> 1;
    if (smallest < 2) smallest = 2;
    uint64_t count = largest - smallest + 1;
    uint64_t distance = smallest + cuzk_chacha8_rng_next_u64(&rng) % count;
    draws[k] = (uint32_t)((meta - distance) / m_prime);
  }
  out[pred] = node - 1;
}

/* The node of a permuted expander slot t. */
static inline uint32_t exp_parent(const cuzk_sdr_graph *g, uint64_t t) {
  if (g->api == CUZK_SDR_API_V1_0) /* legacy: truncated to u32 before dividing */
    return (uint32_t)t / CUZK_SDR_EXP_DEGREE;
  return (uint32_t)(t / CUZK_SDR_EXP_DEGREE);
}

/* graph.rs::correspondent for i = 0..7 */
void cuzk_sdr_graph_exp_parents(const cuzk_sdr_graph *g, uint64_t v,
                                uint32_t out[CUZK_SDR_EXP_DEGREE]) {
  for (unsigned i = 0; i < CUZK_SDR_EXP_DEGREE; i++)
    out[i] = exp_parent(g, cuzk_feistel_permute(&g->feistel, v * CUZK_SDR_EXP_DEGREE + i));
}

void cuzk_sdr_graph_parents(const cuzk_sdr_graph *g, uint64_t v, uint32_t out[CUZK_SDR_DEGREE]) {
  cuzk_sdr_graph_base_parents(g, v, out);
  cuzk_sdr_graph_exp_parents(g, v, out + CUZK_SDR_BASE_DEGREE);
}

typedef struct {
  const cuzk_sdr_graph *g;
  uint64_t begin;
  uint32_t *out;
} range_ctx;

/* Nodes per batch of a chunk: their 8·64 expander slots go through the SIMD permutation. */
#define BATCH_NODES 64

static void range_chunk(void *ctx, size_t b, size_t e) {
  const range_ctx *c = ctx;
  const cuzk_sdr_graph *g = c->g;
  uint64_t t[BATCH_NODES * CUZK_SDR_EXP_DEGREE];
  for (size_t i = b; i < e; i += BATCH_NODES) {
    size_t cnt = e - i < BATCH_NODES ? e - i : BATCH_NODES;
    uint64_t v0 = c->begin + i;
    cuzk_feistel_permute_range(&g->feistel, v0 * CUZK_SDR_EXP_DEGREE, cnt * CUZK_SDR_EXP_DEGREE, t);
    for (size_t j = 0; j < cnt; j++) {
      uint32_t *o = c->out + CUZK_SDR_DEGREE * (i + j);
      cuzk_sdr_graph_base_parents(g, v0 + j, o);
      for (unsigned k = 0; k < CUZK_SDR_EXP_DEGREE; k++)
        o[CUZK_SDR_BASE_DEGREE + k] = exp_parent(g, t[CUZK_SDR_EXP_DEGREE * j + k]);
    }
  }
}

cuzk_sdr_graph_err cuzk_sdr_graph_parents_range(const cuzk_sdr_graph *g, cuzk_pool *pool,
                                                uint64_t begin, uint64_t end, uint32_t *out) {
  if (!g || begin > end || end > g->nodes || (end > begin && !out)) return CUZK_SDR_GRAPH_EINVAL;
  if ((uint64_t)(size_t)(end - begin) != end - begin) return CUZK_SDR_GRAPH_EINVAL;
  range_ctx c = {g, begin, out};
  /* 1024 nodes per chunk (~1-3 ms of work): the pool overhead is negligible */
  cuzk_parallel_for(pool, (size_t)(end - begin), 1024, range_chunk, &c, 0);
  return CUZK_SDR_GRAPH_OK;
}
