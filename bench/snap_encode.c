/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * SnapDeals encoding benchmark (docs/performance-history.md "SnapDeals (issue #15, session 6)"):
 * the update of one sector in memory, step by step, against the raw cost of the same trees
 * measured in the same run:
 *   encode   new_replica = sector_key + data * rho (docs/spec/snap-circuit.md §3), 2^h rhos
 *   TreeD    the binary SHA-256 tree over the new data (comm_d_new)
 *   TreeR    the Poseidon tree_r_last over the new replica (comm_r_new), leaves converted first
 * Each step runs --runs times interleaved (encode, TreeD, TreeR, encode, ...); the median is
 * printed as seconds and GB/s of sector, and the encoding as a fraction of the two trees.
 *
 *   usage: snap_encode [--sector-size 8MiB|512MiB|2KiB] [--threads T] [--runs R]
 */
#include "bench_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/snap/snap.h"
#include "filecoin/seal.h"

int main(int argc, char **argv) {
  const char *size = "8MiB";
  unsigned threads = 2;
  int runs = 3;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--sector-size") && i + 1 < argc)
      size = argv[++i];
    else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
      threads = (unsigned)atoi(argv[++i]);
    else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
      runs = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: snap_encode [--sector-size 8MiB|512MiB|2KiB] [--threads T] "
                      "[--runs R]\n");
      return 2;
    }
  }
  uint64_t bytes;
  const cuzk_snap_proof *p;
  if (runs < 1 || runs > 50 || cuzk_porep_parse_size(&bytes, size) ||
      cuzk_snap_proof_for(&p, bytes))
    return 2;
  const cuzk_sector_info *si = p->sector;
  const uint64_t n = si->nodes;
  cuzk_pool *pool;
  if (cuzk_pool_create(&pool, threads ? threads : 1)) return 1;
  uint8_t *key = malloc(n * 32), *data = malloc(n * 32), *replica = malloc(n * 32);
  uint8_t *tree_d = malloc(cuzk_porep_tree_d_bytes(n * 32));
  cuzk_fr *leaves = malloc(n * sizeof *leaves);
  if (!key || !data || !replica || !tree_d || !leaves) return 1;
  uint64_t s = 1;
  for (uint64_t i = 0; i < n * 32; i++) { /* canonical nodes: the top two bits clear */
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    key[i] = (uint8_t)(s >> 33);
    data[i] = (uint8_t)(s >> 41);
    if (i % 32 == 31) key[i] &= 0x3f, data[i] &= 0x3f;
  }
  memset(replica, 0, n * 32); /* touch every page before timing */
  memset(tree_d, 0, cuzk_porep_tree_d_bytes(n * 32));
  uint8_t comm_d[32] = {1}, comm_r_old[32] = {2};
  double t_enc[50], t_d[50], t_r[50];
  char msg[256];
  for (int r = 0; r < runs; r++) {
    double t0 = bench_now_ns();
    if (cuzk_snap_encode(replica, p, key, data, comm_d, comm_r_old, pool, msg, sizeof msg)) {
      fprintf(stderr, "encode: %s\n", msg);
      return 1;
    }
    double t1 = bench_now_ns();
    if (cuzk_porep_tree_d_build_pool(pool, tree_d, data, n * 32)) return 1;
    double t2 = bench_now_ns();
    for (uint64_t i = 0; i < n; i++)
      (void)cuzk_fr_from_bytes(&leaves[i], replica + 32 * i);
    cuzk_sdr_tree t;
    if (!cuzk_sdr_tree_build(&t, leaves, n, si->base_trees, si->sub_arity, si->top_arity, pool))
      return 1;
    double t3 = bench_now_ns();
    cuzk_sdr_tree_free(&t);
    t_enc[r] = (t1 - t0) / 1e9, t_d[r] = (t2 - t1) / 1e9, t_r[r] = (t3 - t2) / 1e9;
  }
  double enc = bench_median(t_enc, runs), d = bench_median(t_d, runs), tr = bench_median(t_r, runs);
  double gb = (double)si->bytes / 1e9;
  printf("# snap_encode --sector-size %s --threads %u --runs %d (%llu nodes, %u rhos)\n", si->name,
         threads, runs, (unsigned long long)n, 1u << p->h);
  printf("encode   %8.3f s  %7.3f GB/s\n", enc, gb / enc);
  printf("TreeD    %8.3f s  %7.3f GB/s  (SHA-256)\n", d, gb / d);
  printf("TreeR    %8.3f s  %7.3f GB/s  (Poseidon arity 8, leaves converted)\n", tr, gb / tr);
  printf("update   %8.3f s  %7.3f GB/s  (the three)\n", enc + d + tr, gb / (enc + d + tr));
  printf("encode / (TreeD + TreeR) = %.3f\n", enc / (d + tr));
  free(key);
  free(data);
  free(replica);
  free(tree_d);
  free(leaves);
  cuzk_pool_destroy(pool);
  return 0;
}
