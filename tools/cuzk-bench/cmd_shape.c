/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* cuzk-bench shape: the size of one partition circuit of a proof kind (PoRep, WinningPoSt,
 * WindowPoSt, SnapDeals), no data needed (SHAPE mode). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cuzk/groth16/groth16.h"
#include "cuzk/porep/stacked_circuit.h"
#include "cuzk/post/post.h"
#include "cuzk/r1cs/r1cs.h"
#include "cuzk/snap/snap.h"

static const int opts[] = {O_HELP, O_NO_NNZ, O_SIZE, O_KIND, O_PROOF, 0};

int cmd_shape(int argc, char **argv) {
  const char *size = NULL, *proof_arg = NULL, *kind = "porep";
  bool nnz = true;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v;
    switch (cli_next_opt(opts, argc, argv, &i, &v)) {
    case O_HELP:
      puts("usage: cuzk-bench shape [--kind porep|winning-post|window-post|snap] --sector-size "
           "SIZE\n"
           "                        [--registered-proof ID|NAME] [--no-nnz]\n"
           "Counts one partition of the kind's circuit (default porep): inputs (ONE included), "
           "aux,\n"
           "constraints\n"
           "with and without the prover's input constraints, domain size, and (unless --no-nnz)\n"
           "the nonzeros of A, B, C and the A/B densities. No C1 or parameters needed.");
      return 0;
    case O_NO_NNZ: nnz = false; break;
    case O_SIZE: size = v; break;
    case O_KIND: kind = v; break;
    case O_PROOF: proof_arg = v; break;
    case CLI_MISSING: return 2;
    default: return cli_fail(2, "shape: unknown option '%s'", a);
    }
  }
  if (!size && !proof_arg) return cli_fail(2, "shape: --sector-size is required");
  const cuzk_seal_proof *p = NULL;
  const cuzk_post_proof *pp = NULL;
  const cuzk_snap_proof *sp = NULL;
  cuzk_stacked_config cfg;
  const char *name, *sector_name;
  const cuzk_kind *k = cuzk_kind_named(kind);
  if (k && k->id == CUZK_KIND_POREP_SEAL_COMMIT) {
    if (!cli_proof(&p, proof_arg, size))
      return cli_fail(2, "shape: unknown sector size or registered proof (%s)",
                      proof_arg ? proof_arg : size);
    if (cuzk_stacked_config_from_proof(&cfg, p->id)) return cli_fail(1, "shape: no circuit config");
    name = p->name, sector_name = p->sector->name;
  } else if (k && k->id == CUZK_KIND_SNAP_DEALS_UPDATE) {
    if (!cli_snap_proof(&sp, proof_arg, size))
      return cli_fail(2, "shape: unknown sector size or update proof (%s)",
                      proof_arg ? proof_arg : size);
    name = sp->name, sector_name = sp->sector->name;
  } else {
    if (!cli_post_proof(&pp, kind, proof_arg, size))
      return cli_fail(2, "shape: unknown kind, sector size or registered PoSt proof (%s, %s)", kind,
                      proof_arg ? proof_arg : size);
    name = pp->name, sector_name = pp->sector->name;
  }
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, CUZK_CS_SHAPE);
  o.shape_nnz = nnz;
  cuzk_cs *cs;
  if (cuzk_cs_create(&cs, &o)) return cli_fail(1, "out of memory");
  char msg[256] = "";
  double t0 = cli_now_s();
  bool ok = p    ? cuzk_stacked_synthesize(cs, &cfg, NULL, 0, msg, sizeof msg) == CUZK_POREP_OK
            : sp ? cuzk_snap_synthesize(cs, sp, NULL, 0, msg, sizeof msg) == CUZK_SNAP_OK
                 : cuzk_post_synthesize(cs, pp, NULL, msg, sizeof msg) == CUZK_POST_OK;
  if (!ok) return cli_fail(1, "shape: synthesis failed: %s", msg);
  size_t circuit = cuzk_cs_num_constraints(cs);
  cuzk_cs_enforce_input_constraints(cs);
  double t1 = cli_now_s();
  if (cuzk_cs_error(cs)) return cli_fail(1, "shape: %s", cuzk_r1cs_strerror(cuzk_cs_error(cs)));
  cuzk_cs_result r;
  cuzk_cs_result_get(cs, &r);
  size_t m = cuzk_g16_domain_size(r.num_constraints);
  printf("%s (%s), one partition:\n", name, sector_name);
  printf("  num_inputs (incl. ONE)        %zu\n", r.num_inputs);
  printf("  num_aux                       %zu\n", r.num_aux);
  printf("  circuit constraints           %zu\n", circuit);
  printf("  constraints incl. inputs      %zu\n", r.num_constraints);
  printf("  domain                        2^%d = %zu\n", m ? __builtin_ctzll(m) : -1, m);
  if (nnz) {
    printf("  nnz A / B / C                 %zu / %zu / %zu\n", r.nnz[0], r.nnz[1], r.nnz[2]);
    printf("  aux in A / aux in B / inputs in B  %zu / %zu / %zu\n", r.a_aux.count, r.b_aux.count,
           r.b_input.count);
  }
  printf("  (%.2f s)\n", t1 - t0);
  cuzk_cs_destroy(cs);
  return 0;
}
