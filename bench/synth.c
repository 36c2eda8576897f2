/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Synthesis benchmark: constraints per second of the gadgets in one constraint-system mode
 * (PROVE by default), single thread, for each LC inline capacity (the seed's Vec-vs-SmallVec
 * experiment). Workloads:
 *   sha  N chained SHA-256 compressions of 512 freshly allocated message bits (the label and
 *        comm_d pattern: bits allocated with booleanity checks, then the compression);
 *   por  N Poseidon Merkle paths of the 32 GiB tree shape (9 levels of arity 8 + a sub level of
 *        arity 8; index bits, siblings, insert_8, Poseidon-8 per level).
 * Capacities are interleaved within each run and every constraint system is reused (reset)
 * across runs, so page first-touch stays out of the timings after the warm-up run. The ratio is
 * the first listed capacity's median time over this row's, measured in the same process.
 *
 *   usage: synth [--workload sha|por|all] [--n N] [--runs R] [--caps 0,1,2,4]
 *                [--mode prove|witness|record|check|shape] [--kernel adx|portable]
 * Under callgrind (instruction counts): valgrind --tool=callgrind synth --runs 1 --caps 2 ...
 * (use --kernel portable there: valgrind does not emulate ADX).
 */
#include "bench_util.h"

#include <stdio.h>
#include <string.h>

#include "cuzk/hashes/poseidon.h"
#include "cuzk/r1cs/gadgets.h"
#include "cuzk/r1cs/r1cs.h"

typedef struct {
  unsigned n;
  uint64_t seed;
} workload;

static void synth_sha(cuzk_cs *cs, const workload *w) {
  uint64_t s = w->seed;
  cuzk_u32 state[8], next[8];
  static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  for (int i = 0; i < 8; i++)
    cuzk_u32_const(&state[i], iv[i]);
  cuzk_bool in[512];
  for (unsigned b = 0; b < w->n; b++) {
    uint64_t r = 0;
    for (int i = 0; i < 512; i++) {
      if (i % 64 == 0) r = bench_rng(&s);
      in[i] = cuzk_bit_alloc(cs, (r >> (i % 64)) & 1);
    }
    cuzk_gadget_sha256_compress(cs, next, in, state);
    memcpy(state, next, sizeof state);
  }
}

static void synth_por(cuzk_cs *cs, const workload *w) {
  uint64_t s = w->seed;
  const cuzk_por_shape shape = {CUZK_POR_POSEIDON, 8, 8, 0, 9, false};
  enum { LEVELS = 10 };
  cuzk_fr sib[LEVELS][7], v;
  cuzk_por_level path[LEVELS];
  bool hv = cuzk_cs_has_values(cs);
  for (unsigned p = 0; p < w->n; p++) {
    for (int l = 0; l < LEVELS; l++) {
      for (int j = 0; j < 7; j++)
        bench_rand_fr(&s, &sib[l][j]);
      path[l].index = (unsigned)(bench_rng(&s) % 8);
      path[l].siblings = sib[l];
    }
    bench_rand_fr(&s, &v);
    cuzk_num leaf = cuzk_num_alloc(cs, hv ? &v : NULL);
    cuzk_num root = cuzk_num_alloc(cs, hv ? &v : NULL);
    cuzk_gadget_por(cs, &shape, &leaf, &root, hv ? path : NULL);
  }
}

static cuzk_cs_mode parse_mode(const char *m) {
  for (int k = 0; k <= CUZK_CS_SHAPE; k++)
    if (strcmp(m, cuzk_cs_mode_name((cuzk_cs_mode)k)) == 0) return (cuzk_cs_mode)k;
  fprintf(stderr, "unknown mode %s\n", m);
  exit(2);
}

int main(int argc, char **argv) {
  const char *which = "all", *mode_s = "prove", *caps_s = "0,1,2,4";
  unsigned n = 0;
  int runs = 5;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--workload") && i + 1 < argc)
      which = argv[++i];
    else if (!strcmp(argv[i], "--n") && i + 1 < argc)
      n = (unsigned)atoi(argv[++i]);
    else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
      runs = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--caps") && i + 1 < argc)
      caps_s = argv[++i];
    else if (!strcmp(argv[i], "--mode") && i + 1 < argc)
      mode_s = argv[++i];
    else if (!strcmp(argv[i], "--kernel") && i + 1 < argc) {
      const char *k = argv[++i];
      if (!cuzk_field_use_kernel(strcmp(k, "portable") ? CUZK_KERNEL_ADX : CUZK_KERNEL_PORTABLE)) {
        fprintf(stderr, "kernel %s not supported here\n", k);
        return 2;
      }
    } else {
      fprintf(stderr,
              "usage: synth [--workload sha|por|all] [--n N] [--runs R] [--caps 0,1,2,4]\n"
              "             [--mode prove|witness|record|check|shape] [--kernel adx|portable]\n");
      return 2;
    }
  }
  if (runs < 1) runs = 1;
  unsigned caps[8], ncaps = 0;
  for (const char *p = caps_s; *p && ncaps < 8;) {
    unsigned c = (unsigned)strtoul(p, (char **)&p, 10);
    if (c > CUZK_LC_INLINE_MAX) {
      fprintf(stderr, "capacity %u > %d\n", c, CUZK_LC_INLINE_MAX);
      return 2;
    }
    caps[ncaps++] = c;
    if (*p == ',') p++;
  }
  cuzk_cs_mode mode = parse_mode(mode_s);
  printf("# synth");
  for (int i = 1; i < argc; i++)
    printf(" %s", argv[i]);
  printf("\n# mode %s, single thread, median of %d runs after one warm-up run\n", mode_s, runs);
  const char *names[2] = {"sha", "por"};
  for (int wl = 0; wl < 2; wl++) {
    if (strcmp(which, "all") && strcmp(which, names[wl])) continue;
    workload w = {n ? n : (wl == 0 ? 64 : 64), 1234};
    cuzk_cs *cs[8];
    double t[8][64];
    size_t cons = 0;
    for (unsigned c = 0; c < ncaps; c++) {
      cuzk_cs_opts o;
      cuzk_cs_opts_default(&o, mode);
      o.lc_inline = caps[c];
      if (cuzk_cs_create(&cs[c], &o) != CUZK_R1CS_OK) return 1;
    }
    int total = runs + 1 > 64 ? 64 : runs + 1;
    for (int r = 0; r < total; r++) {
      for (unsigned c = 0; c < ncaps; c++) {
        cuzk_cs_reset(cs[c]);
        double t0 = bench_now_ns();
        if (wl == 0)
          synth_sha(cs[c], &w);
        else
          synth_por(cs[c], &w);
        t[c][r] = (bench_now_ns() - t0) * 1e-9;
        if (cuzk_cs_error(cs[c])) {
          fprintf(stderr, "synthesis failed: %s\n", cuzk_r1cs_strerror(cuzk_cs_error(cs[c])));
          return 1;
        }
        cons = cuzk_cs_num_constraints(cs[c]);
      }
    }
    printf("\n%s: n=%u, %zu constraints, %zu aux per synthesis\n", names[wl], w.n, cons,
           cuzk_cs_num_aux(cs[0]));
    printf("%-10s %10s %10s %14s %8s\n", "lc_inline", "median s", "min s", "M constr/s", "ratio");
    double base = 0;
    for (unsigned c = 0; c < ncaps; c++) {
      double med = bench_median(&t[c][1], total - 1), min = t[c][1];
      if (c == 0) base = med;
      printf("%-10u %10.4f %10.4f %14.2f %7.2fx\n", caps[c], med, min, cons / med * 1e-6,
             base / med);
      cuzk_cs_destroy(cs[c]);
    }
  }
  return 0;
}
