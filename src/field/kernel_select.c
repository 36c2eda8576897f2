/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Run-time choice of the Montgomery kernels: ADX assembly when CPUID reports BMI2 (MULX) and
 * ADX (ADCX/ADOX), portable C otherwise or with CUZK_FORCE_PORTABLE (cuzk/cpu.h). Decided once,
 * before main, by a constructor. */
#include "cuzk/cpu.h"
#include "cuzk/field.h"
#include "field/mont.h"

#if defined(__x86_64__) && defined(CUZK_HAVE_ADX_ASM)
#include <cpuid.h>
#endif

static const cuzk_mont_kernels portable = {
    .fp_mul = cuzk_fp_mul_portable,
    .fp_sqr = cuzk_fp_sqr_portable,
    .fr_mul = cuzk_fr_mul_portable,
    .fr_sqr = cuzk_fr_sqr_portable,
    .fp2_mul = cuzk_fp2_mul_portable,
    .fp2_sqr = cuzk_fp2_sqr_portable,
};
#if defined(__x86_64__) && defined(CUZK_HAVE_ADX_ASM)
static const cuzk_mont_kernels adx = {
    .fp_mul = cuzk_fp_mul_adx,
    .fp_sqr = cuzk_fp_sqr_adx,
    .fr_mul = cuzk_fr_mul_adx,
    .fr_sqr = cuzk_fr_sqr_adx,
    .fp2_mul = cuzk_fp2_mul_adx,
    .fp2_sqr = cuzk_fp2_sqr_adx,
};
#endif

/* Portable until the constructor runs, so that the table is never empty. */
cuzk_mont_kernels cuzk_mont = {
    .fp_mul = cuzk_fp_mul_portable,
    .fp_sqr = cuzk_fp_sqr_portable,
    .fr_mul = cuzk_fr_mul_portable,
    .fr_sqr = cuzk_fr_sqr_portable,
    .fp2_mul = cuzk_fp2_mul_portable,
    .fp2_sqr = cuzk_fp2_sqr_portable,
};
static cuzk_field_kernel active = CUZK_KERNEL_PORTABLE;

bool cuzk_field_kernel_supported(cuzk_field_kernel k) {
  if (k == CUZK_KERNEL_PORTABLE) return true;
#if defined(__x86_64__) && defined(CUZK_HAVE_ADX_ASM)
  if (k == CUZK_KERNEL_ADX) {
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
    return (ebx & bit_BMI2) && (ebx & bit_ADX);
  }
#endif
  return false;
}

bool cuzk_field_use_kernel(cuzk_field_kernel k) {
  if (!cuzk_field_kernel_supported(k)) return false;
#if defined(__x86_64__) && defined(CUZK_HAVE_ADX_ASM)
  cuzk_mont = (k == CUZK_KERNEL_ADX) ? adx : portable;
#else
  cuzk_mont = portable;
#endif
  active = k;
  return true;
}

cuzk_field_kernel cuzk_field_active_kernel(void) { return active; }

__attribute__((constructor)) static void select_default_kernel(void) {
  if (cuzk_cpu_force_portable() || !cuzk_field_use_kernel(CUZK_KERNEL_ADX))
    cuzk_field_use_kernel(CUZK_KERNEL_PORTABLE);
}
