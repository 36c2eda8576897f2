/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The Filecoin parent cache file (docs/spec/sdr-vanilla.md §5.5, stacked/vanilla/cache.rs): the 14
 * parents of every node as u32 little-endian, its v28 file name and its SHA-256 digest. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/hashes/sha256.h"
#include "filecoin/graph.h"

/* Nodes generated per chunk: 2^16 nodes = 3.5 MiB of parents. Generation (~50 BLAKE2b per node)
 * dominates; hashing and writing a chunk take a fraction of its generation time. */
#define CHUNK_NODES ((uint64_t)1 << 16)

static void to_hex(char *out, const uint8_t *in, size_t n) {
  static const char d[] = "0123456789abcdef";
  for (size_t i = 0; i < n; i++) {
    out[2 * i] = d[in[i] >> 4];
    out[2 * i + 1] = d[in[i] & 15];
  }
  out[2 * n] = 0;
}

void cuzk_sdr_parent_cache_id(const cuzk_sdr_graph *g, char hex[65]) {
  /* StackedBucketGraph::identifier() with the Poseidon hasher (the hasher name is part of it) */
  char ident[256];
  int len =
      snprintf(ident, sizeof ident,
               "stacked_graph::StackedGraph{expansion_degree: %d base_graph: "
               "drgraph::BucketGraph{size: %" PRIu64 "; degree: %d; hasher: poseidon_hasher} }",
               CUZK_SDR_EXP_DEGREE, g->nodes, CUZK_SDR_BASE_DEGREE);
  cuzk_sha256_ctx c;
  cuzk_sha256_init(&c);
  cuzk_sha256_update(&c, "poseidon_hasher", strlen("poseidon_hasher"));
  cuzk_sha256_update(&c, ident, (size_t)len);
  for (int m = 0; m < 4; m++) {
    uint8_t k[8];
    for (int i = 0; i < 8; i++)
      k[i] = (uint8_t)(g->feistel_keys[m] >> (8 * i));
    cuzk_sha256_update(&c, k, 8);
  }
  /* cache_entries as u32 LE (2^32 nodes would wrap, as in Rust's `as u32`) */
  uint32_t n = (uint32_t)g->nodes;
  const uint8_t nb[4] = {(uint8_t)n, (uint8_t)(n >> 8), (uint8_t)(n >> 16), (uint8_t)(n >> 24)};
  cuzk_sha256_update(&c, nb, 4);
  uint8_t d[32];
  cuzk_sha256_final(&c, d);
  to_hex(hex, d, 32);
}

void cuzk_sdr_parent_cache_name(const cuzk_sdr_graph *g,
                                char name[CUZK_SDR_PARENT_CACHE_NAME_BYTES]) {
  char hex[65];
  cuzk_sdr_parent_cache_id(g, hex);
  snprintf(name, CUZK_SDR_PARENT_CACHE_NAME_BYTES, "v%d-sdr-parent-%s.cache",
           CUZK_SDR_PARENT_CACHE_VERSION, hex);
}

/* In place: the u32 values as little-endian bytes (a no-op on little-endian hosts). */
static void to_le(uint32_t *p, size_t n) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  (void)p;
  (void)n;
#else
  for (size_t i = 0; i < n; i++) {
    uint32_t x = p[i];
    uint8_t *b = (uint8_t *)&p[i];
    b[0] = (uint8_t)x;
    b[1] = (uint8_t)(x >> 8);
    b[2] = (uint8_t)(x >> 16);
    b[3] = (uint8_t)(x >> 24);
  }
#endif
}

cuzk_sdr_graph_err cuzk_sdr_parent_cache_write(const cuzk_sdr_graph *g, cuzk_pool *pool,
                                               const char *path, uint8_t digest[32]) {
  if (!g) return CUZK_SDR_GRAPH_EINVAL;
  uint64_t chunk = g->nodes < CHUNK_NODES ? g->nodes : CHUNK_NODES;
  uint32_t *buf = malloc((size_t)chunk * CUZK_SDR_PARENT_CACHE_NODE_BYTES);
  if (!buf) return CUZK_SDR_GRAPH_ENOMEM;
  FILE *f = NULL;
  if (path && !(f = fopen(path, "wb"))) {
    free(buf);
    return CUZK_SDR_GRAPH_EIO;
  }
  cuzk_sdr_graph_err err = CUZK_SDR_GRAPH_OK;
  cuzk_sha256_ctx c;
  cuzk_sha256_init(&c);
  for (uint64_t b = 0; b < g->nodes && err == CUZK_SDR_GRAPH_OK; b += chunk) {
    uint64_t e = g->nodes - b < chunk ? g->nodes : b + chunk;
    size_t bytes = (size_t)(e - b) * CUZK_SDR_PARENT_CACHE_NODE_BYTES;
    err = cuzk_sdr_graph_parents_range(g, pool, b, e, buf);
    if (err) break;
    to_le(buf, (size_t)(e - b) * CUZK_SDR_DEGREE);
    cuzk_sha256_update(&c, buf, bytes);
    if (f && fwrite(buf, 1, bytes, f) != bytes) err = CUZK_SDR_GRAPH_EIO;
  }
  free(buf);
  if (f && fclose(f) != 0 && err == CUZK_SDR_GRAPH_OK) err = CUZK_SDR_GRAPH_EIO;
  if (err) {
    if (path) remove(path);
    return err;
  }
  if (digest) cuzk_sha256_final(&c, digest);
  return CUZK_SDR_GRAPH_OK;
}
