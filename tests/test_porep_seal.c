/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Sealing after the graph: the published last-layer labels (docs/spec/sdr-vanilla.md §11.1.1), the
 * tree vectors (§11.1.7, §11.1.8), Filecoin's compound tree shapes against a naive node-by-node
 * model, encoding/decoding, column hashes. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuzk/hashes/poseidon.h"
#include "filecoin/graph.h"
#include "filecoin/seal.h"
#include "rng.h"

static void hex32(uint8_t out[32], const char *hex) { from_hex(out, hex, 32); }

/* docs/spec/sdr-vanilla.md §11.1.1: replica_id = 32 x 0x09, 11 layers, label_11[N-1] */
static void test_labels(void) {
  static const struct {
    uint64_t n;
    uint8_t porep_fill;
    cuzk_sdr_api api;
    const char *want;
  } v[] = {
      {64, 0x00, CUZK_SDR_API_V1_0,
       "04ba0f9a6ba9fad35e4806d183a281eab3c25afa9a1bd5e3378da6f1f4f46204"},
      {128, 0x00, CUZK_SDR_API_V1_0,
       "86daa8c4521e197e48c1fae6c9a1e85ab894a8883b9f23cebe531ddcd1004c23"},
      {64, 0x7b, CUZK_SDR_API_V1_1,
       "cfef0db78bf3b3ab9f1169774d2e7a77bc9054499d954834b51ca7c788110206"},
      {128, 0x7b, CUZK_SDR_API_V1_2,
       "6d67c468cf81ab2289c1c9c72fa8777a232de4c1323dc0c6bd552ccc187c770f"},
  };
  uint8_t rid[32];
  memset(rid, 9, sizeof rid);
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    uint8_t porep_id[32], want[32];
    memset(porep_id, v[i].porep_fill, 32);
    hex32(want, v[i].want);
    cuzk_sdr_graph g;
    CHECK(cuzk_sdr_graph_init(&g, porep_id, v[i].api, v[i].n) == CUZK_SDR_GRAPH_OK);
    uint32_t *parents = malloc(CUZK_SDR_DEGREE * v[i].n * sizeof *parents);
    uint8_t *labels = malloc(11 * v[i].n * 32);
    CHECK(cuzk_sdr_graph_parents_range(&g, NULL, 0, v[i].n, parents) == CUZK_SDR_GRAPH_OK);
    cuzk_sdr_label_layers(labels, rid, 11, parents, v[i].n);
    CHECK_MSG(memcmp(labels + (10 * v[i].n + v[i].n - 1) * 32, want, 32) == 0, "label vector %zu",
              i);
    /* every label is Fr-safe (top two bits clear) */
    unsigned bad = 0;
    for (uint64_t k = 0; k < 11 * v[i].n; k++)
      bad += (labels[32 * k + 31] & 0xc0) != 0;
    CHECK(bad == 0);
    free(parents);
    free(labels);
  }
}

static cuzk_fr fr_le(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
  uint64_t x[4] = {a, b, c, d};
  cuzk_fr r;
  cuzk_fr_from_canonical(&r, x);
  return r;
}

/* docs/spec/sdr-vanilla.md §11.1.7 (Poseidon_2 and a binary root) and §11.1.8 (the 32 GiB compound
 * root) */
static void test_tree_vectors(void) {
  cuzk_fr one = cuzk_fr_one, zero = cuzk_fr_zero, h10, h01, root;
  cuzk_sdr_comm_r(&h10, &one, &zero);
  cuzk_sdr_comm_r(&h01, &zero, &one);
  cuzk_sdr_comm_r(&root, &h10, &h01);
  cuzk_fr want =
      fr_le(0xb339ff6079800b5e, 0xec5907b3dc3094af, 0x93c003cc74a24f26, 0x042f94ffbe786bc3);
  CHECK(cuzk_fr_eq(&h10, &want));
  want = fr_le(0xefbb8be3e291e671, 0x77cc72b8cb2b5ad2, 0x30eb6385ae6b74ae, 0x1effebb7b26ad9eb);
  CHECK(cuzk_fr_eq(&root, &want));

  static const char *roots_hex[8] = {
      "924a00c61658322995d9fc493f8aec72365b30a50197e59537df246ca39ffd1b",
      "d7958d6ff26877091592ea9b51de5ca3b0ad57af34fefd102291a4db1aec543a",
      "fafb11646c07d01cbf63facc266b46dd1ab00cd3e30560ef18cf50fd40f32d73",
      "dcb8d1b4bd3e672ad98c29e5cd05dc2e09a76ef00883a487e163fe4e719fe663",
      "d846e93787fe6c14f26f49ee610f434d021cc0d1ada562695e08af4d5af63357",
      "5aaef4e9777d3b31d74dad2075ddd584578c9379e7ef38152cc919fa27d1c629",
      "406728684d7fc85e050f31db99752b552a2f9d608709f0eaa2d6c66afc96e46b",
      "9cb01c337f13b4bbf4a4ae0296bdd927dbb52479e8875bd31374c9e567735f2c"};
  cuzk_fr roots[8], comm_r_last, w;
  uint8_t b[32];
  for (int i = 0; i < 8; i++) {
    hex32(b, roots_hex[i]);
    CHECK(cuzk_fr_from_bytes(&roots[i], b));
  }
  CHECK(cuzk_poseidon_hash(&comm_r_last, 8, roots) == CUZK_HASH_OK);
  hex32(b, "f56b7f7f318d88ac4d72e5d94efd7de7f1df501b98b01a8564fa4cb4983b9e4b");
  CHECK(cuzk_fr_from_bytes(&w, b) && cuzk_fr_eq(&comm_r_last, &w));
}

/* naive model: root of an oct tree over `n` leaves, node by node */
static cuzk_fr naive_root(const cuzk_fr *leaves, uint64_t n) {
  cuzk_fr *lvl = malloc(n * sizeof *lvl);
  memcpy(lvl, leaves, n * sizeof *lvl);
  for (; n > 1; n /= 8)
    for (uint64_t j = 0; j < n / 8; j++)
      cuzk_poseidon_hash(&lvl[j], 8, &lvl[8 * j]);
  cuzk_fr r = lvl[0];
  free(lvl);
  return r;
}

static void test_compound_trees(cuzk_pool *pool) {
  static const struct {
    unsigned base, sub, top;
    uint64_t per;
  } s[] = {{1, 0, 0, 64}, {2, 2, 0, 64}, {8, 8, 0, 64}, {16, 8, 2, 64}, {1, 0, 0, 4096}};
  uint64_t seed = 3;
  for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
    uint64_t n = s[i].base * s[i].per;
    cuzk_fr *leaves = malloc(n * sizeof *leaves), roots[16], want;
    for (uint64_t k = 0; k < n; k++)
      rng_fr(&seed, &leaves[k]);
    for (unsigned b = 0; b < s[i].base; b++)
      roots[b] = naive_root(leaves + b * s[i].per, s[i].per);
    if (s[i].base == 1) {
      want = roots[0];
    } else if (!s[i].top) {
      cuzk_poseidon_hash(&want, s[i].sub, roots);
    } else {
      cuzk_fr sub[2];
      cuzk_poseidon_hash(&sub[0], 8, roots);
      cuzk_poseidon_hash(&sub[1], 8, roots + 8);
      cuzk_poseidon_hash(&want, 2, sub);
    }
    cuzk_sdr_tree t;
    CHECK(cuzk_sdr_tree_build(&t, leaves, n, s[i].base, s[i].sub, s[i].top, i % 2 ? pool : NULL));
    CHECK_MSG(cuzk_fr_eq(&t.root, &want), "tree shape %zu", i);
    /* the leaves are stored first in each base tree */
    CHECK(cuzk_fr_eq(&t.nodes[t.per_tree * (s[i].base - 1)], &leaves[n - s[i].per]));
    cuzk_sdr_tree_free(&t);
    free(leaves);
  }
  cuzk_sdr_tree t;
  cuzk_fr l[16] = {{{0}}};
  CHECK(!cuzk_sdr_tree_build(&t, l, 16, 1, 0, 0, NULL)); /* 16 is not a power of 8 */
  CHECK(!cuzk_sdr_tree_build(&t, l, 16, 2, 8, 0, NULL)); /* 2 base trees need sub arity 2 */
  CHECK(!cuzk_sdr_tree_build(&t, l, 8, 3, 0, 0, NULL));  /* no such shape */
}

static void test_encode_columns(cuzk_pool *pool) {
  enum { N = 64, L = 2 };
  uint8_t key[N * 32], data[N * 32], rep[N * 32], back[N * 32], labels[L * N * 32];
  uint64_t s = 9;
  for (int v = 0; v < N; v++) {
    cuzk_fr a, b;
    rng_fr(&s, &a);
    rng_fr(&s, &b);
    cuzk_fr_to_bytes(key + 32 * v, &a);
    cuzk_fr_to_bytes(data + 32 * v, &b);
  }
  CHECK(cuzk_sdr_encode(rep, key, data, N));
  CHECK(cuzk_sdr_decode(back, key, rep, N) && memcmp(back, data, sizeof data) == 0);
  cuzk_fr k0, d0, r0, sum;
  cuzk_fr_from_bytes(&k0, key);
  cuzk_fr_from_bytes(&d0, data);
  cuzk_fr_from_bytes(&r0, rep);
  cuzk_fr_add(&sum, &k0, &d0);
  CHECK(cuzk_fr_eq(&sum, &r0));
  memset(data + 32 * 5, 0xff, 32); /* not a canonical Fr */
  CHECK(!cuzk_sdr_encode(rep, key, data, N));
  /* column hashes = Poseidon_2 over (label_1[v], label_2[v]) */
  memcpy(labels, key, sizeof key);
  memcpy(labels + N * 32, rep, sizeof rep);
  cuzk_fr cols[N], in[2], w;
  CHECK(cuzk_sdr_column_hashes(cols, labels, L, N, pool));
  cuzk_fr_from_bytes(&in[0], labels + 32 * 7);
  cuzk_fr_from_bytes(&in[1], labels + N * 32 + 32 * 7);
  cuzk_poseidon_hash(&w, 2, in);
  CHECK(cuzk_fr_eq(&cols[7], &w));
  labels[32 * 3 + 31] = 0xff;
  CHECK(!cuzk_sdr_column_hashes(cols, labels, L, N, pool));
}

int main(void) {
  cuzk_pool *pool = NULL;
  if (cuzk_pool_create(&pool, 2) != 0) pool = NULL;
  test_labels();
  test_tree_vectors();
  test_compound_trees(pool);
  test_encode_columns(pool);
  cuzk_pool_destroy(pool);
  return check_summary("test_porep_seal");
}
