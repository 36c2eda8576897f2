/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* libFuzzer target for the Groth16 readers (.params, .vk, proofs): any input must give OK or an
 * error, never a crash, a hang or a sanitizer report; an accepted file must write back to the same
 * bytes. Build with -DCUZK_FUZZ=ON (clang), run e.g.
 *   build-fuzz/tests/fuzz/fuzz_g16_read -max_total_time=600 CORPUS_DIR
 * The ctest fuzz loop in tests/test_g16_io.c covers a few thousand mutations on every CI run. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/groth16/groth16.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  cuzk_g16_params *p = NULL;
  cuzk_g16_read_opts o = {.check_subgroup = size & 1};
  if (cuzk_g16_params_read(&p, data, size, &o, NULL) == CUZK_G16_OK) {
    size_t n = cuzk_g16_params_size(p);
    uint8_t *back = malloc(n ? n : 1);
    if (!back || n != size) abort();
    cuzk_g16_params_write(back, p);
    if (memcmp(back, data, size) != 0) abort();
    free(back);
    cuzk_g16_params_free(p);
  }
  cuzk_g16_vk *vk = NULL;
  if (cuzk_g16_vk_read(&vk, data, size, NULL) == CUZK_G16_OK) cuzk_g16_vk_free(vk);
  if (size >= CUZK_G16_PROOF_BYTES) {
    cuzk_g16_proof pf;
    if (cuzk_g16_proof_read(&pf, data) == CUZK_G16_OK) {
      uint8_t b[CUZK_G16_PROOF_BYTES];
      cuzk_g16_proof_write(b, &pf);
      if (memcmp(b, data, sizeof b) != 0) abort();
    }
  }
  return 0;
}
