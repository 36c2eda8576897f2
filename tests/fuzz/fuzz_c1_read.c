/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* libFuzzer target for the C1 readers (raw SealCommitPhase1Output JSON and the Curio envelope,
 * through the one entry point): any input must give OK or an error with a message, never a
 * crash, a hang or a sanitizer report; an accepted document must write back to a fixed point
 * (write -> read -> write byte-identical). Build with -DCUZK_FUZZ=ON (clang), run e.g.
 *   build-fuzz/tests/fuzz/fuzz_c1_read -max_total_time=600 CORPUS_DIR
 * Seed the corpus with a written C1 (tests/test_porep_c1.c --bench-gen FILE 5). The ctest loop in
 * tests/test_porep_c1.c covers a few thousand mutations on every CI run. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "porep/c1.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  unsigned flags = size & 1 ? CUZK_C1_READ_NO_SHAPE_CHECK : 0;
  cuzk_c1 *c1 = NULL;
  char err[512] = "";
  if (cuzk_c1_read(&c1, data, size, flags, NULL, err, sizeof err) != CUZK_POREP_OK) {
    if (c1 || err[0] == 0) abort();
    return 0;
  }
  uint8_t *a = NULL, *b = NULL;
  size_t an = 0, bn = 0;
  if (cuzk_c1_write_json(c1, &a, &an, err, sizeof err) != CUZK_POREP_OK) abort();
  cuzk_c1 *c2 = NULL;
  if (cuzk_c1_read_json(&c2, a, an, CUZK_C1_READ_NO_SHAPE_CHECK, err, sizeof err) != CUZK_POREP_OK)
    abort();
  if (cuzk_c1_write_json(c2, &b, &bn, err, sizeof err) != CUZK_POREP_OK) abort();
  if (an != bn || memcmp(a, b, an) != 0) abort();
  free(a);
  free(b);
  cuzk_c1_free(c1);
  cuzk_c1_free(c2);
  return 0;
}
