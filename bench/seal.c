/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Sealing benchmark (issue #6): PC1 (parent cache + labels) and PC2 (column hashes, tree_c,
 * replica, tree_r_last) of one sector in memory, on T threads, against the raw throughput of
 * the same primitives measured in the same run: SHA-256 compressions (a label is 20 of them) and
 * Poseidon hashes (arity L for columns, arity 8 for tree nodes).
 *
 *   usage: seal [--sector-size 8MiB|512MiB|2KiB] [--threads T]
 */
#include "bench_util.h"

#include <stdio.h>
#include <string.h>

#include "cuzk/hashes/poseidon.h"
#include "cuzk/hashes/sha256.h"
#include "filecoin/seal.h"

int main(int argc, char **argv) {
  const char *size = "8MiB";
  unsigned threads = 2;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--sector-size") && i + 1 < argc)
      size = argv[++i];
    else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
      threads = (unsigned)atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: seal [--sector-size 8MiB|512MiB|2KiB] [--threads T]\n");
      return 2;
    }
  }
  uint64_t bytes;
  const cuzk_seal_proof *p;
  if (cuzk_porep_parse_size(&bytes, size) || cuzk_seal_proof_by_sector(&p, bytes)) return 2;
  const cuzk_sector_info *si = p->sector;
  uint64_t n = si->nodes;
  cuzk_pool *pool;
  if (cuzk_pool_create(&pool, threads ? threads : 1)) return 1;
  printf("# seal --sector-size %s --threads %u: %llu nodes, %u layers\n", si->name, threads,
         (unsigned long long)n, si->layers);

  /* raw rates, single thread */
  uint32_t st[8];
  uint8_t blocks[64 * 20] = {1};
  cuzk_sha256_init_state(st);
  double t0 = bench_now_ns();
  for (int i = 0; i < 20000; i++)
    cuzk_sha256_compress_blocks(st, blocks, 20);
  double sha_label_s = (bench_now_ns() - t0) * 1e-9 / 20000; /* one label's 20 compressions */
  cuzk_fr in[11], out;
  for (int i = 0; i < 11; i++)
    in[i] = cuzk_fr_one;
  t0 = bench_now_ns();
  for (int i = 0; i < 2000; i++)
    cuzk_poseidon_hash(&out, si->layers, in);
  double pos_col_s = (bench_now_ns() - t0) * 1e-9 / 2000;
  t0 = bench_now_ns();
  for (int i = 0; i < 2000; i++)
    cuzk_poseidon_hash(&out, 8, in);
  double pos8_s = (bench_now_ns() - t0) * 1e-9 / 2000;

  uint8_t *data = calloc(n, 32), *labels = malloc((uint64_t)si->layers * n * 32);
  uint32_t *parents = malloc(14 * n * sizeof *parents);
  uint8_t porep_id[32], rid[32];
  memset(rid, 7, 32);
  cuzk_seal_proof_porep_id(p, porep_id);
  cuzk_sdr_graph g;
  cuzk_sdr_graph_init(&g, porep_id, (cuzk_sdr_api)p->api, n);
  t0 = bench_now_ns();
  cuzk_sdr_graph_parents_range(&g, pool, 0, n, parents);
  double t_parents = (bench_now_ns() - t0) * 1e-9;
  t0 = bench_now_ns();
  cuzk_sdr_label_layers(labels, rid, si->layers, parents, n);
  double t_labels = (bench_now_ns() - t0) * 1e-9;
  double labels_n = (double)n * si->layers;

  cuzk_fr *leaves = malloc(n * sizeof *leaves);
  cuzk_sdr_tree tc, tr;
  t0 = bench_now_ns();
  cuzk_sdr_column_hashes(leaves, labels, si->layers, n, pool);
  double t_cols = (bench_now_ns() - t0) * 1e-9;
  t0 = bench_now_ns();
  cuzk_sdr_tree_build(&tc, leaves, n, si->base_trees, si->sub_arity, si->top_arity, pool);
  double t_tree = (bench_now_ns() - t0) * 1e-9;
  t0 = bench_now_ns();
  cuzk_sdr_encode(data, labels + (uint64_t)(si->layers - 1) * n * 32, data, n);
  for (uint64_t v = 0; v < n; v++)
    cuzk_fr_from_bytes(&leaves[v], data + 32 * v);
  cuzk_sdr_tree_build(&tr, leaves, n, si->base_trees, si->sub_arity, si->top_arity, pool);
  double t_treer = (bench_now_ns() - t0) * 1e-9;

  printf("\n%-34s %10s %14s %16s %8s\n", "stage", "seconds", "items/s", "raw items/s", "ratio");
  printf("%-34s %10.3f %14.0f %16s %8s\n", "PC1 parents (graph, T threads)", t_parents,
         n / t_parents, "-", "-");
  printf("%-34s %10.3f %14.0f %16.0f %7.2fx\n", "PC1 labels (1 thread, sequential)", t_labels,
         labels_n / t_labels, 1 / sha_label_s, (labels_n / t_labels) * sha_label_s);
  printf("%-34s %10.3f %14.0f %16.0f %7.2fx\n", "PC2 column hashes (T threads)", t_cols, n / t_cols,
         1 / pos_col_s, (n / t_cols) * pos_col_s);
  double nodes8 = (double)n / 7; /* internal nodes of the oct trees */
  printf("%-34s %10.3f %14.0f %16.0f %7.2fx\n", "PC2 tree_c (T threads)", t_tree, nodes8 / t_tree,
         1 / pos8_s, (nodes8 / t_tree) * pos8_s);
  printf("%-34s %10.3f %14.0f %16.0f %7.2fx\n", "PC2 encode + tree_r_last (T threads)", t_treer,
         nodes8 / t_treer, 1 / pos8_s, (nodes8 / t_treer) * pos8_s);
  printf("\nraw = single-thread rate of the primitive in this run (label = 20 SHA-256 "
         "compressions;\ncolumn = Poseidon arity %u; tree node = Poseidon arity 8); ratio = "
         "stage rate / raw rate\n",
         si->layers);
  cuzk_sdr_tree_free(&tc);
  cuzk_sdr_tree_free(&tr);
  free(leaves);
  free(data);
  free(labels);
  free(parents);
  cuzk_pool_destroy(pool);
  return 0;
}
