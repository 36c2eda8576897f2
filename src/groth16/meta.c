/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The ".meta" companion of a parameter file (rust-fil-proofs CacheEntryMetadata). */
#include <inttypes.h>
#include <stdio.h>

#include "cuzk/groth16.h"

cuzk_g16_err cuzk_g16_meta_write_file(const char *path, uint64_t sector_size, bool test_params) {
  if (!path) return CUZK_G16_EINVAL;
  FILE *f = fopen(path, "w");
  if (!f) return CUZK_G16_EIO;
  int w = test_params
              ? fprintf(f,
                        "{\"sector_size\":%" PRIu64 ",\"cuzk_note\":\"TEST PARAMETERS from cuzk's "
                        "generator: the toxic waste is derived from a seed, anyone with it can "
                        "forge proofs; for tests and local development only\"}",
                        sector_size)
              : fprintf(f, "{\"sector_size\":%" PRIu64 "}", sector_size);
  bool ok = w > 0;
  if (fclose(f) != 0) ok = false;
  return ok ? CUZK_G16_OK : CUZK_G16_EIO;
}
