/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* cuzk-bench parent-cache: write the SDR parent cache file of a sector size / registered proof. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cuzk/filecoin/sdr_graph.h"
#include "cuzk/util/pool.h"

static const int opts[] = {O_HELP, O_SIZE, O_PROOF, O_OUT, O_THREADS, 0};

int cmd_parent_cache(int argc, char **argv) {
  const char *size = NULL, *proof_arg = NULL, *out = NULL;
  unsigned threads = 0;
  uint64_t x;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v;
    switch (cli_next_opt(opts, argc, argv, &i, &v)) {
    case O_HELP:
      puts(
          "usage: cuzk-bench parent-cache --sector-size SIZE [--registered-proof ID|NAME] -o FILE\n"
          "                               [--threads T]\n"
          "Writes the parent cache (14 parents per node, u32 LE) and prints its Filecoin file\n"
          "name and SHA-256 (the digest parent_cache.json lists).");
      return 0;
    case O_SIZE: size = v; break;
    case O_PROOF: proof_arg = v; break;
    case O_OUT: out = v; break;
    case O_THREADS:
      if (!cli_u64(&x, v) || x > 1024) return cli_fail(2, "--threads: 0..1024, not %s", v);
      threads = (unsigned)x;
      break;
    case CLI_MISSING: return 2;
    default: return cli_fail(2, "parent-cache: unknown option '%s'", a);
    }
  }
  if (!out) return cli_fail(2, "parent-cache: -o FILE is required");
  const cuzk_seal_proof *p;
  if (!size && !proof_arg) return cli_fail(2, "parent-cache: --sector-size is required");
  if (!cli_proof(&p, proof_arg, size))
    return cli_fail(2, "parent-cache: unknown sector size or registered proof (%s)",
                    proof_arg ? proof_arg : size);
  uint8_t porep_id[32], digest[32];
  cuzk_seal_proof_porep_id(p, porep_id);
  cuzk_sdr_graph g;
  if (cuzk_sdr_graph_init(&g, porep_id, (cuzk_sdr_api)p->api, p->sector->nodes))
    return cli_fail(1, "graph setup failed");
  cuzk_pool *pool = cli_pool(threads);
  cuzk_sdr_graph_err e = cuzk_sdr_parent_cache_write(&g, pool, out, digest);
  cuzk_pool_destroy(pool);
  if (e) return cli_fail(1, "writing %s: %s", out, cuzk_sdr_graph_strerror(e));
  char name[CUZK_SDR_PARENT_CACHE_NAME_BYTES];
  cuzk_sdr_parent_cache_name(&g, name);
  printf("%s %s: wrote %s\nfilecoin name %s\nsha256 ", p->name, p->sector->name, out, name);
  cli_print_hex(digest, 32);
  printf("\n");
  return 0;
}
