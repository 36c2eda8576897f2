/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The run-time ISA choices made at start-up (cuzk/util/cpu.h): without CUZK_FORCE_PORTABLE the
 * field kernel is ADX, SHA-256 SHA-NI and the field layer and the NTT use IFMA wherever the CPU has
 * them; with it set every one is the portable path; with CUZK_NO_IFMA set only the IFMA paths
 * (field and NTT) are off (ctest runs this test the three ways).
 */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "cuzk/field/field.h"
#include "cuzk/hashes/sha256.h"
#include "cuzk/util/cpu.h"
#include "ntt/pass.h"

int main(void) {
  bool portable = cuzk_cpu_force_portable();
  cuzk_field_kernel fk = cuzk_field_active_kernel();
  cuzk_sha256_impl sk = cuzk_sha256_active_impl();
  bool ifma = ntt_ifma_enabled(), field_ifma = cuzk_field_ifma_enabled();
  const char *no = getenv("CUZK_NO_IFMA");
  bool no_ifma = no && no[0] && !(no[0] == '0' && no[1] == 0);
  printf("test_cpu_select: forced portable %d, no IFMA %d: field %s (IFMA %d), sha256 %s, ntt "
         "ifma %d\n",
         portable, no_ifma, fk == CUZK_KERNEL_ADX ? "adx" : "portable", field_ifma,
         sk == CUZK_SHA256_SHANI ? "sha-ni" : "portable", ifma);
  if (portable) {
    CHECK(fk == CUZK_KERNEL_PORTABLE);
    CHECK(sk == CUZK_SHA256_PORTABLE);
    CHECK(!ifma && !field_ifma);
  } else if (no_ifma) {
    CHECK(fk ==
          (cuzk_field_kernel_supported(CUZK_KERNEL_ADX) ? CUZK_KERNEL_ADX : CUZK_KERNEL_PORTABLE));
    CHECK(!ifma && !field_ifma);
  } else {
    CHECK(fk ==
          (cuzk_field_kernel_supported(CUZK_KERNEL_ADX) ? CUZK_KERNEL_ADX : CUZK_KERNEL_PORTABLE));
    CHECK(sk == (cuzk_sha256_impl_supported(CUZK_SHA256_SHANI) ? CUZK_SHA256_SHANI
                                                               : CUZK_SHA256_PORTABLE));
    CHECK(ifma == ntt_ifma_supported() && field_ifma == cuzk_field_ifma_supported());
  }
  return check_summary("test_cpu_select");
}
