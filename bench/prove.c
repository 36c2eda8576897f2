/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Prover benchmark: a SHA-256-heavy circuit (chained compressions of freshly allocated message
 * bits, 26,704 constraints each) sized just under 2^k constraints, proved on T threads; prints
 * synthesis and every prover stage. In the same run, the standalone NTT chain (cuzk_ntt_h) and a
 * dense G1 MSM of the same sizes as the prover's H stage, as the "no hidden overhead" baseline.
 *
 * The parameters are SHAPE-ONLY stand-ins: the right vector lengths filled with consecutive
 * multiples of the generators (cheap to make at 2^22; MSM cost does not depend on which points
 * they are). The proofs do not verify, which timing does not need; tests cover correctness.
 *
 * --export DIR writes the circuit (without the prover's input constraints, which snarkjs adds
 * itself) as DIR/circuit.r1cs and the witness of run 1 as DIR/witness.wtns for the snarkjs peer
 * (bench/snarkjs_peer.sh), then exits.
 *
 * --params-io FILE writes the stand-in parameters to FILE and times reading them back with and
 * without the subgroup check of the big vectors (then deletes FILE).
 *
 *   usage: prove [--log2 K] [--threads T] [--runs R] [--export DIR] [--params-io FILE]
 */
#include "bench_util.h"

#include <stdio.h>
#include <string.h>

#include "cuzk/groth16/groth16.h"
#include "cuzk/msm/msm.h"
#include "cuzk/ntt/ntt.h"
#include "cuzk/r1cs/gadgets.h"
#include "cuzk/util/pool.h"

#define BLOCK_CONSTRAINTS 26704

static void synth(cuzk_cs *cs, unsigned blocks, uint64_t seed) {
  static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  cuzk_u32 st[8], nx[8];
  for (int i = 0; i < 8; i++)
    cuzk_u32_const(&st[i], iv[i]);
  cuzk_bool in[512];
  uint64_t r = 0;
  for (unsigned b = 0; b < blocks; b++) {
    for (int i = 0; i < 512; i++) {
      if (i % 64 == 0) r = bench_rng(&seed);
      in[i] = cuzk_bit_alloc(cs, (r >> (i % 64)) & 1);
    }
    cuzk_gadget_sha256_compress(cs, nx, in, st);
    memcpy(st, nx, sizeof st);
  }
  cuzk_num d = cuzk_num_alloc(cs, &cuzk_fr_one); /* one public input */
  cuzk_num_inputize(cs, &d);
}

/* n consecutive multiples of g in affine form. */
static void fill_g1(cuzk_g1_affine *out, size_t n, const cuzk_g1 *start) {
  enum { CH = 4096 };
  static cuzk_g1 jac[CH];
  cuzk_g1 g, acc = *start;
  cuzk_g1_generator(&g);
  for (size_t i = 0; i < n; i += CH) {
    size_t k = n - i < CH ? n - i : CH;
    for (size_t j = 0; j < k; j++) {
      cuzk_g1_add(&acc, &acc, &g);
      jac[j] = acc;
    }
    cuzk_g1_batch_to_affine(out + i, jac, k);
  }
}
static void fill_g2(cuzk_g2_affine *out, size_t n) {
  enum { CH = 2048 };
  static cuzk_g2 jac[CH];
  cuzk_g2 g, acc;
  cuzk_g2_generator(&g);
  acc = g;
  for (size_t i = 0; i < n; i += CH) {
    size_t k = n - i < CH ? n - i : CH;
    for (size_t j = 0; j < k; j++) {
      cuzk_g2_add(&acc, &acc, &g);
      jac[j] = acc;
    }
    cuzk_g2_batch_to_affine(out + i, jac, k);
  }
}

int main(int argc, char **argv) {
  unsigned k = 20, threads = 2;
  int runs = 3;
  const char *export_dir = NULL, *io_file = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--log2") && i + 1 < argc)
      k = (unsigned)atoi(argv[++i]);
    else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
      threads = (unsigned)atoi(argv[++i]);
    else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
      runs = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--export") && i + 1 < argc)
      export_dir = argv[++i];
    else if (!strcmp(argv[i], "--params-io") && i + 1 < argc)
      io_file = argv[++i];

    else {
      fprintf(
          stderr,
          "usage: prove [--log2 K] [--threads T] [--runs R] [--export DIR] [--params-io FILE]\n");
      return 2;
    }
  }
  if (k < 16 || k > 24 || runs < 1 || runs > 16 || threads < 1) return 2;
  unsigned blocks = (unsigned)(((1u << k) - 64) / BLOCK_CONSTRAINTS);
  printf("# prove");
  for (int i = 1; i < argc; i++)
    printf(" %s", argv[i]);
  printf("\n# %u SHA-256 blocks, %u threads, shape-only parameters, %d runs\n", blocks, threads,
         runs);
  if (export_dir) {
    char path[4096];
    cuzk_cs_opts eo;
    cuzk_cs *rec, *wit;
    cuzk_cs_opts_default(&eo, CUZK_CS_RECORD);
    if (cuzk_cs_create(&rec, &eo)) return 1;
    cuzk_cs_opts_default(&eo, CUZK_CS_WITNESS);
    if (cuzk_cs_create(&wit, &eo)) return 1;
    synth(rec, blocks, 2); /* the seed of run 1 */
    synth(wit, blocks, 2);
    cuzk_cs_finish(rec);
    cuzk_cs_result w;
    cuzk_cs_result_get(wit, &w);
    snprintf(path, sizeof path, "%s/circuit.r1cs", export_dir);
    if (cuzk_cs_write_iden3_r1cs(rec, path)) return 1;
    snprintf(path, sizeof path, "%s/witness.wtns", export_dir);
    if (cuzk_write_iden3_wtns(path, w.inputs, w.num_inputs, w.aux, w.num_aux)) return 1;
    printf("# wrote %s/circuit.r1cs (%zu constraints) and witness.wtns\n", export_dir,
           cuzk_cs_num_constraints(rec));
    cuzk_cs_destroy(rec);
    cuzk_cs_destroy(wit);
    return 0;
  }
  cuzk_pool *pool;
  if (cuzk_pool_create(&pool, threads)) return 1;

  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, CUZK_CS_PROVE);
  cuzk_cs *cs;
  if (cuzk_cs_create(&cs, &o)) return 1;
  synth(cs, blocks, 1);
  cuzk_g16_shape sh;
  cuzk_g16_shape_of(&sh, cs);
  size_t m = cuzk_g16_domain_size(sh.num_constraints);
  printf("# %zu constraints incl. inputs, %zu aux, %zu inputs, domain 2^%u\n", sh.num_constraints,
         sh.num_aux, sh.num_inputs, (unsigned)__builtin_ctzll(m));

  double t0 = bench_now_ns();
  cuzk_g16_params *p = calloc(1, sizeof *p);
  p->vk.n_ic = sh.num_inputs;
  p->n_h = m - 1;
  p->n_l = sh.num_aux;
  p->n_a = sh.num_inputs + sh.a_aux_density;
  p->n_b1 = p->n_b2 = sh.b_input_density + sh.b_aux_density;
  p->vk.ic = malloc(p->vk.n_ic * sizeof(cuzk_g1_affine));
  p->h = malloc(p->n_h * sizeof(cuzk_g1_affine));
  p->l = malloc(p->n_l * sizeof(cuzk_g1_affine));
  p->a = malloc(p->n_a * sizeof(cuzk_g1_affine));
  p->b_g1 = malloc(p->n_b1 * sizeof(cuzk_g1_affine));
  p->b_g2 = malloc(p->n_b2 * sizeof(cuzk_g2_affine));
  cuzk_g1 start;
  cuzk_g1_generator(&start);
  fill_g1(p->vk.ic, p->vk.n_ic, &start);
  fill_g1(p->h, p->n_h, &start);
  fill_g1(p->l, p->n_l, &start);
  fill_g1(p->a, p->n_a, &start);
  fill_g1(p->b_g1, p->n_b1, &start);
  fill_g2(p->b_g2, p->n_b2);
  cuzk_g1_affine_generator(&p->vk.alpha_g1);
  p->vk.beta_g1 = p->vk.delta_g1 = p->vk.alpha_g1;
  cuzk_g2_affine_generator(&p->vk.beta_g2);
  p->vk.gamma_g2 = p->vk.delta_g2 = p->vk.beta_g2;
  printf("# stand-in parameters built in %.1f s\n", (bench_now_ns() - t0) * 1e-9);

  if (io_file) {
    /* the reader's cost with and without the subgroup check of the big vectors (the VK part is
     * always fully checked), parallel on the pool, from a file in the page cache */
    double w0 = bench_now_ns();
    if (cuzk_g16_params_write_file(p, io_file) != CUZK_G16_OK) return 1;
    printf("# wrote %s (%zu bytes) in %.2f s\n", io_file, cuzk_g16_params_size(p),
           (bench_now_ns() - w0) * 1e-9);
    for (int rep = 0; rep < 2; rep++)
      for (int chk = 0; chk < 2; chk++) {
        cuzk_g16_read_opts ro = {chk != 0, pool, 0, NULL, NULL, false};
        cuzk_g16_params *q = NULL;
        double r0 = bench_now_ns();
        cuzk_g16_err e = cuzk_g16_params_read_file(&q, io_file, &ro, NULL);
        printf("# read %s subgroup check: %.2f s (%s)\n", chk ? "with   " : "without",
               (bench_now_ns() - r0) * 1e-9, cuzk_g16_strerror(e));
        cuzk_g16_params_free(q);
      }
    remove(io_file);
  }

  /* baseline inputs: random scalars for the MSM, random a/b/c for the NTT chain */
  uint64_t seed = 7;
  cuzk_fr *sc = malloc(m * sizeof *sc), *va = malloc(m * sizeof *va), *vb = malloc(m * sizeof *vb),
          *vc = malloc(m * sizeof *vc);
  for (size_t i = 0; i < m; i++)
    bench_rand_fr(&seed, &sc[i]);
  cuzk_msm_opts mo = {pool, 0, CUZK_MSM_AUTO, 0, NULL};

  printf("\n%-4s %8s %8s %8s %8s %8s %8s %8s %8s %8s | %8s %8s %6s\n", "run", "synth", "H-ntt",
         "msm-H", "msm-L", "msm-A", "msm-B1", "msm-B2", "assem", "total", "ntt-ref", "msmH-ref",
         "ratio");
  for (int r = 0; r <= runs; r++) { /* run 0 warms up (page faults, twiddles) */
    cuzk_cs_reset(cs);
    double s0 = bench_now_ns();
    synth(cs, blocks, 1 + (uint64_t)r);
    double synth_s = (bench_now_ns() - s0) * 1e-9;
    cuzk_g16_timings t;
    cuzk_g16_proof pf;
    cuzk_fr rr = cuzk_fr_one, ss = cuzk_fr_one;
    cuzk_g16_prove_opts po = {pool, 0, &rr, &ss, NULL};
    cuzk_g16_err e = cuzk_g16_prove(&pf, &cs, 1, p, &po, &t);
    if (e) {
      fprintf(stderr, "prove: %s\n", cuzk_g16_strerror(e));
      return 1;
    }
    /* the standalone stages, same sizes, same pool */
    for (size_t i = 0; i < m; i++)
      va[i] = vb[i] = vc[i] = sc[i];
    double n0 = bench_now_ns();
    cuzk_ntt_h(va, vb, vc, m, pool, 0);
    double ntt_ref = (bench_now_ns() - n0) * 1e-9;
    cuzk_g1 acc;
    double m0 = bench_now_ns();
    cuzk_g1_msm(&acc, p->h, sc, m - 1, &mo);
    double msm_ref = (bench_now_ns() - m0) * 1e-9;
    printf("%-4d %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f | %8.3f %8.3f %5.2fx%s\n", r,
           synth_s, t.h_s, t.msm_h_s, t.msm_l_s, t.msm_a_s, t.msm_b1_s, t.msm_b2_s, t.assembly_s,
           t.total_s, ntt_ref, msm_ref, (t.h_s + t.msm_h_s) / (ntt_ref + msm_ref),
           r == 0 ? "  (warm-up)" : "");
  }
  printf("\nratio = (prover's H NTT chain + H MSM) / (standalone cuzk_ntt_h + cuzk_g1_msm), same "
         "run\n");
  free(sc);
  free(va);
  free(vb);
  free(vc);
  cuzk_cs_destroy(cs);
  free(p->vk.ic);
  free(p->h);
  free(p->l);
  free(p->a);
  free(p->b_g1);
  free(p->b_g2);
  free(p);
  cuzk_pool_destroy(pool);
  return 0;
}
