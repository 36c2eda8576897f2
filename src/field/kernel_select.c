/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Run-time choice of the Montgomery kernels: ADX assembly when CPUID reports BMI2 (MULX) and
 * ADX (ADCX/ADOX), portable C otherwise or with CUZK_FORCE_PORTABLE (cuzk/util/cpu.h). Decided
 * once, before main, by a constructor, which also sets up the 8-lane IFMA Fp kernel
 * (field/fp_ifma.h): its constants, and whether callers may use it. */
#include <stdatomic.h>

#include "cuzk/field/field.h"
#include "cuzk/util/cpu.h"
#include "field/consts.h"
#include "field/fp_ifma.h"
#include "field/limbs.h"
#include "field/mont.h"
#include "util/env_switch.h"

#if defined(__x86_64__) && (defined(CUZK_HAVE_ADX_ASM) || CUZK_FP_IFMA)
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

/* ---- the IFMA Fp kernel ------------------------------------------------------------------ */

cuzk_fp52_consts cuzk_fp52_c;
static bool ifma_supported;
static atomic_bool ifma_enabled;

/* x (6 words, < 2^384) in 52-bit limbs. */
static void split52(uint64_t o[8], const uint64_t x[6]) {
  for (int j = 0; j < 8; j++) {
    const unsigned b = 52 * (unsigned)j, w = b / 64, s = b % 64;
    uint64_t v = x[w] >> s;
    if (s > 12 && w + 1 < 6) v |= x[w + 1] << (64 - s);
    o[j] = v & 0xfffffffffffffULL;
  }
}

/* The 52-form constants from consts.c: p, 2p, 2^448 mod p (2^384 mod p doubled 64 times),
 * 2^384 mod p, 2^400 mod p (doubled 16 times) and -p^-1 mod 2^52 (the low bits of -p^-1 mod
 * 2^64). */
static void fp52_consts_init(void) {
  uint64_t p2[6], c[6];
  limbs_add_mod(c, CUZK_P_R, CUZK_P_R, CUZK_P, 6); /* any x < p: 2x < 2^384 */
  for (int i = 1; i < 64; i++) {
    limbs_add_mod(c, c, c, CUZK_P, 6);
    if (i == 15) split52(cuzk_fp52_c.r16, c);
  }
  uint8_t carry = 0;
  for (int i = 0; i < 6; i++)
    carry = limb_addc(carry, CUZK_P[i], CUZK_P[i], &p2[i]); /* 2p < 2^382 */
  split52(cuzk_fp52_c.p, CUZK_P);
  split52(cuzk_fp52_c.p2, p2);
  split52(cuzk_fp52_c.to, c);
  split52(cuzk_fp52_c.from, CUZK_P_R);
  cuzk_fp52_c.pinv = CUZK_P_N0 & 0xfffffffffffffULL;
}

/* CPUID: AVX-512F and IFMA; XGETBV: the OS saves the opmask and all ZMM state. */
static bool detect_ifma(void) {
#if defined(__x86_64__) && CUZK_FP_IFMA
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27))) return false; /* OSXSAVE */
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
  if (!(b & (1u << 16)) || !(b & (1u << 21))) return false; /* AVX512F, AVX512IFMA */
  unsigned lo, hi;
  __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  (void)hi;
  return (lo & 0xe6) == 0xe6; /* XMM, YMM, opmask, ZMM0-15 upper halves, ZMM16-31 */
#else
  return false;
#endif
}

/* CUZK_NO_IFMA set to anything but "" or "0" (as CUZK_FORCE_PORTABLE). */
static bool no_ifma_env(void) { return cuzk_env_switch("CUZK_NO_IFMA"); }

bool cuzk_field_ifma_supported(void) { return ifma_supported; }
bool cuzk_field_ifma_enabled(void) {
  return atomic_load_explicit(&ifma_enabled, memory_order_relaxed);
}
bool cuzk_field_use_ifma(bool on) {
  if (on && !ifma_supported) return false;
  atomic_store_explicit(&ifma_enabled, on, memory_order_relaxed);
  return true;
}

__attribute__((constructor)) static void select_default_kernel(void) {
  if (cuzk_cpu_force_portable() || !cuzk_field_use_kernel(CUZK_KERNEL_ADX))
    cuzk_field_use_kernel(CUZK_KERNEL_PORTABLE);
  fp52_consts_init();
  ifma_supported = detect_ifma();
  cuzk_field_use_ifma(ifma_supported && !cuzk_cpu_force_portable() && !no_ifma_env());
}
