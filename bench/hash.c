/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Hash benchmark: SHA-256 compressions per second on the portable and SHA-NI kernels, SDR label
 * hashes (1248-byte preimages, docs/spec/sdr-vanilla.md §6), and Poseidon hashes per second per
 * arity with the reference permutation (docs/spec/poseidon.md §4.2) as the baseline of the static
 * form (docs/spec/poseidon.md §4.3). Each row is the median of --runs timed batches (the minimum is
 * printed too); the ratio is baseline time over this row's time, measured in the same process.
 * Single thread.
 *
 *   usage: hash [--runs N] [--filter SUBSTRING] [--kernel adx|portable]
 */
#include "bench_util.h"

#include <stdio.h>
#include <string.h>

#include "cuzk/field/field.h"
#include "cuzk/hashes/poseidon.h"
#include "cuzk/hashes/sha256.h"

/* State the timed bodies work on; each result feeds the next call so nothing is dropped. */
static uint32_t sha_state[8];
static uint8_t sha_block[1248];
static const cuzk_poseidon_params *pp;
static cuzk_fr pin[CUZK_POSEIDON_MAX_ARITY];

static void op_compress(void) { cuzk_sha256_compress(sha_state, sha_block); }
static void op_label(void) {
  uint8_t d[32];
  cuzk_sha256(d, sha_block, sizeof sha_block);
  memcpy(sha_block, d, 32); /* the next preimage depends on this label */
}
static void op_poseidon_ref(void) {
  cuzk_poseidon_hash_tagged_reference(&pin[0], pp, &pp->merkle_tag, pin);
}
static void op_poseidon_static(void) {
  cuzk_poseidon_hash_tagged(&pin[0], pp, &pp->merkle_tag, pin);
}

static void time_op(void (*fn)(void), int runs, double *med, double *min) {
  if (bench_time_op(fn, 0, runs, med, min) != 0) exit(1);
}

static void row(const char *name, const char *baseline, double med, double min, double base_med) {
  printf("%-28s %12.0f %10.1f %10.1f %-14s", name, 1e9 / med, med, min, baseline);
  if (base_med > 0)
    printf(" %7.2fx\n", base_med / med);
  else
    printf(" %8s\n", "-");
}

int main(int argc, char **argv) {
  int runs = 7;
  const char *filter = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
      runs = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--filter") && i + 1 < argc) {
      filter = argv[++i];
    } else if (!strcmp(argv[i], "--kernel") && i + 1 < argc) {
      const char *k = argv[++i];
      bool ok = !strcmp(k, "portable") ? cuzk_field_use_kernel(CUZK_KERNEL_PORTABLE)
                : !strcmp(k, "adx")    ? cuzk_field_use_kernel(CUZK_KERNEL_ADX)
                                       : false;
      if (!ok) {
        fprintf(stderr, "hash: --kernel must be adx or portable, and supported by this CPU\n");
        return 2;
      }
    } else {
      fprintf(stderr, "usage: %s [--runs N] [--filter SUBSTRING] [--kernel adx|portable]\n",
              argv[0]);
      return 2;
    }
  }
  if (runs < 1 || runs > 1000) {
    fprintf(stderr, "hash: --runs must be 1..1000\n");
    return 2;
  }

  printf("# command:");
  for (int i = 0; i < argc; i++)
    printf(" %s", argv[i]);
  printf("\n# cuzk bench/hash, single thread, median of %d runs; Fr kernel %s; SHA-NI %s\n", runs,
         cuzk_field_active_kernel() == CUZK_KERNEL_ADX ? "adx" : "portable",
         cuzk_sha256_impl_supported(CUZK_SHA256_SHANI) ? "available" : "not available");
  printf("%-28s %12s %10s %10s %-14s %8s\n", "op", "per second", "median ns", "min ns", "baseline",
         "speedup");

  for (size_t i = 0; i < sizeof sha_block; i++)
    sha_block[i] = (uint8_t)(i * 131 + 7);
  cuzk_sha256_init_state(sha_state);

  /* SHA-256: portable is the baseline of SHA-NI */
  static const struct {
    const char *name;
    void (*fn)(void);
  } sha_ops[] = {{"sha256_compress", op_compress}, {"sha256_label_1248B", op_label}};
  for (size_t o = 0; o < 2; o++) {
    double base = 0;
    for (int impl = 0; impl < 2; impl++) {
      char name[64];
      snprintf(name, sizeof name, "%s/%s", sha_ops[o].name, impl ? "sha-ni" : "portable");
      if (filter && !strstr(name, filter)) continue;
      if (!cuzk_sha256_use_impl(impl ? CUZK_SHA256_SHANI : CUZK_SHA256_PORTABLE)) continue;
      double med, min;
      time_op(sha_ops[o].fn, runs, &med, &min);
      row(name, impl ? "portable" : "-", med, min, impl ? base : 0);
      if (!impl) base = med;
    }
  }
  cuzk_sha256_use_impl(CUZK_SHA256_SHANI); /* back to the default where available */

  /* Poseidon: the reference permutation is the baseline of the static form */
  static const unsigned arities[] = {2, 4, 8, 11, 16, 24, 36};
  for (size_t a = 0; a < sizeof arities / sizeof arities[0]; a++) {
    char name_ref[64], name_static[64];
    snprintf(name_ref, sizeof name_ref, "poseidon%u/reference", arities[a]);
    snprintf(name_static, sizeof name_static, "poseidon%u/static", arities[a]);
    bool want_ref = !filter || strstr(name_ref, filter);
    bool want_static = !filter || strstr(name_static, filter);
    if (!want_ref && !want_static) continue;
    cuzk_hash_err e = cuzk_poseidon_params_get(&pp, arities[a]);
    if (e != CUZK_HASH_OK) {
      fprintf(stderr, "hash: arity %u: %s\n", arities[a], cuzk_hash_strerror(e));
      return 1;
    }
    for (unsigned i = 0; i < arities[a]; i++)
      cuzk_fr_from_u64(&pin[i], i * 0x9e3779b97f4a7c15ULL);
    double base = 0, med, min;
    /* the baseline is timed even when filtered out of the table, for the ratio */
    time_op(op_poseidon_ref, runs, &base, &min);
    if (want_ref) row(name_ref, "-", base, min, 0);
    if (want_static) {
      time_op(op_poseidon_static, runs, &med, &min);
      row(name_static, "reference", med, min, base);
    }
  }
  return 0;
}
