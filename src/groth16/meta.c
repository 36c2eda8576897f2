/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The ".meta" companion of a parameter file (rust-fil-proofs CacheEntryMetadata). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cuzk/groth16/groth16.h"

/* The mark of TEST parameters, written and recognised here only. */
#define TEST_NOTE                                                                             \
  "\"cuzk_note\":\"TEST PARAMETERS from cuzk's generator: the toxic waste is derived from a " \
  "seed, anyone with it can forge proofs; for tests and local development only\""

cuzk_g16_err cuzk_g16_meta_write_file(const char *path, uint64_t sector_size, bool test_params) {
  if (!path) return CUZK_G16_EINVAL;
  FILE *f = fopen(path, "w");
  if (!f) return CUZK_G16_EIO;
  int w =
      fprintf(f, "{\"sector_size\":%" PRIu64 "%s}", sector_size, test_params ? "," TEST_NOTE : "");
  bool ok = w > 0;
  if (fclose(f) != 0) ok = false;
  return ok ? CUZK_G16_OK : CUZK_G16_EIO;
}

bool cuzk_g16_meta_is_test(const char *path) {
  FILE *f = path ? fopen(path, "r") : NULL;
  if (!f) return false;
  char buf[1024];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = 0;
  return strstr(buf, "," TEST_NOTE "}") != NULL;
}
