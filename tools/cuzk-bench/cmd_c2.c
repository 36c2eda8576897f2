/*
 * cuzk-bench setup / prove / verify: offline PoRep C2 with parameter files named as Filecoin
 * names them (v28-stacked-proof-of-replication-...-<sha256(identifier)>.params/.vk/.meta).
 *   setup  --sector-size S [--registered-proof P] --param-cache DIR   TEST parameters (seeded)
 *   prove  --c1 FILE --param-cache DIR [--partition N] -o PROOF      all partitions by default
 *   verify --c1 FILE --param-cache DIR --proof PROOF                 re-derives public inputs
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cuzk/groth16.h"
#include "cuzk/sha256.h"
#include "porep/c1.h"
#include "porep/graph.h"
#include "porep/stacked_circuit.h"

/* Filecoin's parameter file base path for a proof: DIR/v28-<prefix>-<sha256(identifier)>. */
static bool param_base(char *out, size_t len, const char *dir, const cuzk_seal_proof *p) {
  const cuzk_sector_info *si = p->sector;
  char tree[64], prefix[160], ident[512], id[256];
  snprintf(tree, sizeof tree, "merkletree-poseidon_hasher-8-%u-%u", si->sub_arity, si->top_arity);
  snprintf(prefix, sizeof prefix, "stacked-proof-of-replication-%s-sha256_hasher", tree);
  snprintf(ident, sizeof ident,
           "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: 8 "
           "base_graph: drgraph::BucketGraph{size: %llu; degree: 6; hasher: poseidon_hasher} }, "
           "challenges: LayerChallenges { layers: %u, max_count: %u }, tree: %s }",
           (unsigned long long)si->nodes, si->layers, cuzk_seal_proof_challenges_per_partition(p),
           tree);
  if (cuzk_g16_cache_id(id, sizeof id, prefix, ident)) return false;
  int n = snprintf(out, len, "%s/v%d-%s", dir, CUZK_G16_PARAMS_VERSION, id);
  return n > 0 && (size_t)n < len;
}

typedef struct {
  const char *size, *proof, *dir, *c1, *out, *proof_file;
  int partition;
} c2_args;

static int parse(c2_args *a, int argc, char **argv, const char *usage) {
  memset(a, 0, sizeof *a);
  a->partition = -1;
  a->dir = getenv("FIL_PROOFS_PARAMETER_CACHE");
  for (int i = 1; i < argc; i++) {
    const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(k, "--help") || !strcmp(k, "-h")) {
      fputs(usage, stdout);
      return 0;
    }
    if (!v) return cli_fail(2, "'%s' needs a value or is unknown\n%s", k, usage);
    i++;
    if (!strcmp(k, "--sector-size"))
      a->size = v;
    else if (!strcmp(k, "--registered-proof"))
      a->proof = v;
    else if (!strcmp(k, "--param-cache"))
      a->dir = v;
    else if (!strcmp(k, "--c1"))
      a->c1 = v;
    else if (!strcmp(k, "-o"))
      a->out = v;
    else if (!strcmp(k, "--proof"))
      a->proof_file = v;
    else if (!strcmp(k, "--partition")) {
      uint64_t x;
      if (!cli_u64(&x, v) || x > 1000) return cli_fail(2, "--partition: bad value %s", v);
      a->partition = (int)x;
    } else
      return cli_fail(2, "unknown option '%s'\n%s", k, usage);
  }
  if (!a->dir) return cli_fail(2, "--param-cache DIR (or FIL_PROOFS_PARAMETER_CACHE) is required");
  return -1; /* go on */
}

int cmd_setup(int argc, char **argv) {
  static const char usage[] =
      "usage: cuzk-bench setup --sector-size S [--registered-proof ID|NAME] --param-cache DIR\n"
      "Writes TEST Groth16 parameters for the PoRep circuit of one partition, with Filecoin's "
      "file\n"
      "names (.params, .vk, .meta). The toxic waste is derived from a fixed seed: anyone can "
      "forge\n"
      "proofs with these files. For tests and local development only.\n";
  c2_args a;
  int rc = parse(&a, argc, argv, usage);
  if (rc >= 0) return rc;
  const cuzk_seal_proof *p;
  if (!cli_proof(&p, a.proof, a.size)) return cli_fail(2, "setup: unknown sector size or proof");
  cuzk_stacked_config cfg;
  if (cuzk_stacked_config_from_proof(&cfg, p->id)) return cli_fail(1, "setup: no circuit config");
  char base[4096], path[4200], msg[256];
  if (!param_base(base, sizeof base, a.dir, p)) return cli_fail(1, "setup: path too long");
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, CUZK_CS_RECORD);
  cuzk_cs *cs;
  if (cuzk_cs_create(&cs, &o)) return cli_fail(1, "out of memory");
  double t0 = cli_now_s();
  if (cuzk_stacked_synthesize(cs, &cfg, NULL, 0, msg, sizeof msg))
    return cli_fail(1, "setup: synthesis: %s", msg);
  uint8_t seed[32];
  cuzk_sha256(seed, base, strlen(base)); /* deterministic per file name */
  cuzk_pool *pool = cli_pool(0);
  cuzk_g16_params *params;
  cuzk_g16_err e = cuzk_g16_generate(&params, cs, seed, pool, 0);
  cuzk_cs_destroy(cs);
  if (e) return cli_fail(1, "setup: generating parameters: %s", cuzk_g16_strerror(e));
  double t1 = cli_now_s();
  snprintf(path, sizeof path, "%s.params", base);
  if ((e = cuzk_g16_params_write_file(params, path)))
    return cli_fail(1, "setup: writing %s: %s", path, cuzk_g16_strerror(e));
  snprintf(path, sizeof path, "%s.vk", base);
  if ((e = cuzk_g16_vk_write_file(&params->vk, path)))
    return cli_fail(1, "setup: writing %s: %s", path, cuzk_g16_strerror(e));
  snprintf(path, sizeof path, "%s.meta", base);
  if ((e = cuzk_g16_meta_write_file(path, p->sector->bytes, true)))
    return cli_fail(1, "setup: writing %s: %s", path, cuzk_g16_strerror(e));
  printf("%s: TEST parameters %s.{params,vk,meta} (generated in %.1f s)\n", p->name, base, t1 - t0);
  cuzk_g16_params_free(params);
  cuzk_pool_destroy(pool);
  return 0;
}

/* Reads the C1 (raw or envelope) and finds the proof and its circuit config. */
static int load_c1(cuzk_c1 **c1, const cuzk_seal_proof **p, cuzk_stacked_config *cfg,
                   const char *path) {
  uint8_t *data;
  size_t len;
  if (!cli_read_file(path, &data, &len)) return cli_fail(1, "cannot read %s", path);
  cuzk_c1_errbuf eb;
  cuzk_c1_err e = cuzk_c1_read(c1, data, len, 0, NULL, &eb);
  free(data);
  if (e) return cli_fail(1, "%s: %s", path, eb.msg);
  if (cuzk_seal_proof_by_id(p, (*c1)->registered_proof) ||
      cuzk_stacked_config_from_proof(cfg, (*c1)->registered_proof))
    return cli_fail(1, "%s: unsupported registered proof", path);
  return -1;
}

int cmd_prove(int argc, char **argv) {
  static const char usage[] =
      "usage: cuzk-bench prove --c1 FILE --param-cache DIR [--partition N] -o PROOF\n"
      "Proves the PoRep C2 of a C1 output: 192 bytes per partition, in partition order.\n";
  c2_args a;
  int rc = parse(&a, argc, argv, usage);
  if (rc >= 0) return rc;
  if (!a.c1 || !a.out) return cli_fail(2, "prove: --c1 and -o are required");
  cuzk_c1 *c1;
  const cuzk_seal_proof *p;
  cuzk_stacked_config cfg;
  if ((rc = load_c1(&c1, &p, &cfg, a.c1)) >= 0) return rc;
  char base[4096], path[4200], msg[256];
  if (!param_base(base, sizeof base, a.dir, p)) return cli_fail(1, "prove: path too long");
  snprintf(path, sizeof path, "%s.params", base);
  cuzk_pool *pool = cli_pool(0);
  cuzk_g16_read_opts ro = {false, pool, 0};
  cuzk_g16_params *params;
  cuzk_g16_read_error re;
  double t0 = cli_now_s();
  cuzk_g16_err e = cuzk_g16_params_read_file(&params, path, &ro, &re);
  if (e) return cli_fail(1, "prove: %s: %s", path, cuzk_g16_strerror(e));
  double t_load = cli_now_s() - t0;
  size_t parts = c1->vanilla_proofs.n, first = 0, last = parts;
  if (a.partition >= 0) {
    if ((size_t)a.partition >= parts) return cli_fail(2, "prove: --partition out of range");
    first = (size_t)a.partition;
    last = first + 1;
  }
  uint8_t *out = malloc((last - first) * CUZK_G16_PROOF_BYTES);
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, CUZK_CS_PROVE);
  cuzk_cs *cs;
  if (!out || cuzk_cs_create(&cs, &o)) return cli_fail(1, "out of memory");
  printf("%s: parameters loaded in %.2f s\n", p->name, t_load);
  for (size_t k = first; k < last; k++) {
    cuzk_cs_reset(cs);
    double s0 = cli_now_s();
    if (cuzk_stacked_synthesize(cs, &cfg, c1, (unsigned)k, msg, sizeof msg))
      return cli_fail(1, "prove: partition %zu: %s", k, msg);
    double synth = cli_now_s() - s0;
    cuzk_g16_proof pf;
    cuzk_g16_timings t;
    cuzk_g16_prove_opts po = {pool, 0, NULL, NULL};
    if ((e = cuzk_g16_prove(&pf, &cs, 1, params, &po, &t)))
      return cli_fail(1, "prove: partition %zu: %s", k, cuzk_g16_strerror(e));
    cuzk_g16_proof_write(out + (k - first) * CUZK_G16_PROOF_BYTES, &pf);
    printf("partition %zu: synth %.2f s, H %.2f s, MSM H %.2f L %.2f A %.2f B1 %.2f B2 %.2f s, "
           "total %.2f s\n",
           k, synth, t.h_s, t.msm_h_s, t.msm_l_s, t.msm_a_s, t.msm_b1_s, t.msm_b2_s,
           synth + t.total_s);
  }
  if (!cli_write_file(a.out, out, (last - first) * CUZK_G16_PROOF_BYTES))
    return cli_fail(1, "prove: cannot write %s", a.out);
  printf("wrote %s (%zu bytes)\n", a.out, (last - first) * CUZK_G16_PROOF_BYTES);
  free(out);
  cuzk_cs_destroy(cs);
  cuzk_g16_params_free(params);
  cuzk_c1_free(c1);
  cuzk_pool_destroy(pool);
  return 0;
}

int cmd_verify(int argc, char **argv) {
  static const char usage[] =
      "usage: cuzk-bench verify --c1 FILE --param-cache DIR --proof PROOF [--partition N]\n"
      "Verifies every partition's proof (or one with --partition) against public inputs\n"
      "re-derived from the C1's commitments: challenges by the proof's kind, parents from the "
      "graph.\n";
  c2_args a;
  int rc = parse(&a, argc, argv, usage);
  if (rc >= 0) return rc;
  if (!a.c1 || !a.proof_file) return cli_fail(2, "verify: --c1 and --proof are required");
  cuzk_c1 *c1;
  const cuzk_seal_proof *p;
  cuzk_stacked_config cfg;
  if ((rc = load_c1(&c1, &p, &cfg, a.c1)) >= 0) return rc;
  char base[4096], path[4200];
  if (!param_base(base, sizeof base, a.dir, p)) return cli_fail(1, "verify: path too long");
  snprintf(path, sizeof path, "%s.vk", base);
  cuzk_g16_vk *vk;
  cuzk_g16_err e = cuzk_g16_vk_read_file(&vk, path, NULL);
  if (e) return cli_fail(1, "verify: %s: %s", path, cuzk_g16_strerror(e));
  uint8_t *bytes;
  size_t len;
  if (!cli_read_file(a.proof_file, &bytes, &len))
    return cli_fail(1, "cannot read %s", a.proof_file);
  size_t parts = c1->vanilla_proofs.n, first = 0, count = parts;
  if (a.partition >= 0) {
    if ((size_t)a.partition >= parts) return cli_fail(2, "verify: --partition out of range");
    first = (size_t)a.partition;
    count = 1;
  }
  cuzk_g16_proof *proofs = malloc(count * sizeof *proofs);
  if (!proofs || (e = cuzk_g16_proofs_read(proofs, count, bytes, len)))
    return cli_fail(1, "verify: %s: expected %zu proofs: %s", a.proof_file, count,
                    proofs ? cuzk_g16_strerror(e) : "out of memory");
  cuzk_g16_pvk *pvk;
  if ((e = cuzk_g16_pvk_prepare(&pvk, vk))) return cli_fail(1, "verify: %s", cuzk_g16_strerror(e));
  uint8_t porep_id[32];
  cuzk_seal_proof_porep_id(p, porep_id);
  cuzk_sdr_graph g;
  if (cuzk_sdr_graph_init(&g, porep_id, (cuzk_sdr_api)p->api, p->sector->nodes))
    return cli_fail(1, "verify: graph");
  size_t nin = cuzk_stacked_num_public_inputs(&cfg);
  unsigned c = cuzk_seal_proof_challenges_per_partition(p);
  cuzk_fr *inputs = malloc(nin * sizeof *inputs);
  uint64_t *xs = malloc(c * sizeof *xs);
  uint32_t *par = malloc(14 * (size_t)c * sizeof *par);
  if (!inputs || !xs || !par) return cli_fail(1, "out of memory");
  int bad = 0;
  for (size_t i = 0; i < count; i++) {
    unsigned k = (unsigned)(first + i);
    if (cuzk_porep_challenges(xs, p, c1->replica_id, c1->seed, c1->comm_r, k))
      return cli_fail(1, "verify: challenges of partition %u", k);
    for (unsigned j = 0; j < c; j++)
      cuzk_sdr_graph_parents(&g, xs[j], par + 14 * j);
    if (cuzk_stacked_public_inputs(inputs, &cfg, c1->replica_id, c1->comm_d, c1->comm_r, xs, par))
      return cli_fail(1, "verify: public inputs of partition %u (non-canonical commitment)", k);
    bool ok = false;
    if ((e = cuzk_g16_verify(&ok, pvk, &proofs[i], inputs, nin)))
      return cli_fail(1, "verify: %s", cuzk_g16_strerror(e));
    printf("partition %u: %s\n", k, ok ? "valid" : "INVALID");
    bad += !ok;
  }
  free(inputs);
  free(xs);
  free(par);
  free(proofs);
  free(bytes);
  cuzk_g16_pvk_free(pvk);
  cuzk_g16_vk_free(vk);
  cuzk_c1_free(c1);
  return bad ? 1 : 0;
}
