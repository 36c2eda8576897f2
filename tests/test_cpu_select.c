/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The run-time ISA choices made at start-up (cuzk/cpu.h): without CUZK_FORCE_PORTABLE the field
 * kernel is ADX, SHA-256 SHA-NI and the NTT uses IFMA wherever the CPU has them; with it set
 * (ctest runs this test both ways) every one is the portable path.
 */
#include <stdio.h>

#include "check.h"
#include "cuzk/cpu.h"
#include "cuzk/field.h"
#include "cuzk/sha256.h"
#include "ntt/pass.h"

int main(void) {
  bool portable = cuzk_cpu_force_portable();
  cuzk_field_kernel fk = cuzk_field_active_kernel();
  cuzk_sha256_impl sk = cuzk_sha256_active_impl();
  bool ifma = ntt_ifma_enabled();
  printf("test_cpu_select: forced portable %d: field %s, sha256 %s, ntt ifma %d\n", portable,
         fk == CUZK_KERNEL_ADX ? "adx" : "portable",
         sk == CUZK_SHA256_SHANI ? "sha-ni" : "portable", ifma);
  if (portable) {
    CHECK(fk == CUZK_KERNEL_PORTABLE);
    CHECK(sk == CUZK_SHA256_PORTABLE);
    CHECK(!ifma);
  } else {
    CHECK(fk ==
          (cuzk_field_kernel_supported(CUZK_KERNEL_ADX) ? CUZK_KERNEL_ADX : CUZK_KERNEL_PORTABLE));
    CHECK(sk == (cuzk_sha256_impl_supported(CUZK_SHA256_SHANI) ? CUZK_SHA256_SHANI
                                                               : CUZK_SHA256_PORTABLE));
    CHECK(ifma == ntt_ifma_supported());
  }
  return check_summary("test_cpu_select");
}
