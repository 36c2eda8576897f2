/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* cuzk-bench verify-vanilla: native verification of every vanilla proof of a C1 file (one PoSt
 * sector's proof, --kind/--vanilla, is cmd_post.c's). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cuzk/porep/c1.h"
#include "cuzk/porep/vanilla.h"

int cmd_verify_vanilla(int argc, char **argv) {
  bool help = false, post = false;
  for (int i = 1; i < argc; i++) {
    help |= !strcmp(argv[i], "--help") || !strcmp(argv[i], "-h");
    post |= !strcmp(argv[i], "--kind") || !strcmp(argv[i], "--vanilla");
  }
  if (cli_snap_form(argc, argv)) return cmd_snap_verify_vanilla(argc, argv);
  if (post && !help) return cmd_post_verify_vanilla(argc, argv);
  const char *path = NULL;
  static const int opts[] = {O_HELP, O_C1, 0};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v;
    switch (cli_next_opt(opts, argc, argv, &i, &v)) {
    case O_C1: path = v; break;
    case O_HELP:
      puts("usage: cuzk-bench verify-vanilla --c1 FILE\n"
           "Verifies every vanilla proof of a C1 output (raw JSON or Curio envelope): challenges,\n"
           "Merkle openings, labels and encodings are recomputed.");
      fputs(cli_post_verify_vanilla_usage, stdout);
      fputs(cli_snap_verify_vanilla_usage, stdout);
      return 0;
    case CLI_MISSING: return 2;
    default: return cli_fail(2, "verify-vanilla: unknown option '%s'", a);
    }
  }
  if (!path) return cli_fail(2, "verify-vanilla: --c1 FILE is required");
  uint8_t *data;
  size_t len;
  if (!cli_read_file(path, &data, &len)) return cli_fail(1, "cannot read %s", path);
  cuzk_c1 *c1;
  char eb[512];
  cuzk_c1_read_info info;
  if (cuzk_c1_read(&c1, data, len, 0, &info, eb, sizeof eb)) {
    free(data);
    return cli_fail(1, "%s: %s", path, eb);
  }
  free(data);
  char msg[512];
  if (cuzk_vanilla_verify(c1, msg, sizeof msg)) {
    cuzk_c1_free(c1);
    return cli_fail(1, "%s: invalid: %s", path, msg);
  }
  size_t proofs = 0;
  for (size_t k = 0; k < c1->vanilla_proofs.n; k++)
    proofs += c1->vanilla_proofs.v[k].n;
  printf("%s: valid (%zu partitions, %zu challenge proofs)\n", path, c1->vanilla_proofs.n, proofs);
  cuzk_c1_free(c1);
  return 0;
}
