/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Run-time choice of the SHA-256 kernel: SHA-NI when CPUID reports SHA, SSSE3 and SSE4.1, else
 * portable C (also with CUZK_FORCE_PORTABLE, cuzk/util/cpu.h). Decided once, before main, by a
 * constructor (as the field layer's kernels). */
#include "cuzk/hashes/sha256.h"
#include "cuzk/util/cpu.h"
#include "hashes/sha256_internal.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

cuzk_sha256_blocks_fn cuzk_sha256_blocks = cuzk_sha256_blocks_portable;
static cuzk_sha256_impl active = CUZK_SHA256_PORTABLE;

bool cuzk_sha256_impl_supported(cuzk_sha256_impl impl) {
  if (impl == CUZK_SHA256_PORTABLE) return true;
#if defined(__x86_64__)
  if (impl == CUZK_SHA256_SHANI) {
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return false;
    if (!(ecx & bit_SSSE3) || !(ecx & bit_SSE4_1)) return false;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
    return (ebx & bit_SHA) != 0;
  }
#endif
  return false;
}

bool cuzk_sha256_use_impl(cuzk_sha256_impl impl) {
  if (!cuzk_sha256_impl_supported(impl)) return false;
#if defined(__x86_64__)
  cuzk_sha256_blocks =
      impl == CUZK_SHA256_SHANI ? cuzk_sha256_blocks_shani : cuzk_sha256_blocks_portable;
#else
  cuzk_sha256_blocks = cuzk_sha256_blocks_portable;
#endif
  active = impl;
  return true;
}

cuzk_sha256_impl cuzk_sha256_active_impl(void) { return active; }

__attribute__((constructor)) static void sha256_select_init(void) {
  cuzk_sha256_consts_init();
  if (cuzk_cpu_force_portable() || !cuzk_sha256_use_impl(CUZK_SHA256_SHANI))
    cuzk_sha256_use_impl(CUZK_SHA256_PORTABLE);
}
