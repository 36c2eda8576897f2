/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The kernel seam (as blst's fields.h): every Fp/Fr multiplication in the library ends in one of
 * these routines. Two implementations exist, portable C (mont_portable.c) and x86-64
 * MULX/ADCX/ADOX assembly (mont_x86_64_adx.S); kernel_select.c points cuzk_mont at one of them.
 *
 * Contract: inputs in Montgomery form and fully reduced; output fully reduced; r may alias a, b.
 * Fp2 elements (fp2_mul, fp2_sqr) are 12 limbs: c0 then c1, the value c0 + c1*u with u^2 = -1.
 * Their assembly forms the Fp products as 768-bit integers and reduces only the two results
 * (lazy reduction, as blst's mul_mont_384x), which is why they are kernels of their own.
 */
#ifndef CUZK_FIELD_MONT_H
#define CUZK_FIELD_MONT_H

#include <stdint.h>

typedef struct {
  void (*fp_mul)(uint64_t r[6], const uint64_t a[6], const uint64_t b[6]);
  void (*fp_sqr)(uint64_t r[6], const uint64_t a[6]);
  void (*fr_mul)(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
  void (*fr_sqr)(uint64_t r[4], const uint64_t a[4]);
  void (*fp2_mul)(uint64_t r[12], const uint64_t a[12], const uint64_t b[12]);
  void (*fp2_sqr)(uint64_t r[12], const uint64_t a[12]);
} cuzk_mont_kernels;

extern cuzk_mont_kernels cuzk_mont;

void cuzk_fp_mul_portable(uint64_t r[6], const uint64_t a[6], const uint64_t b[6]);
void cuzk_fp_sqr_portable(uint64_t r[6], const uint64_t a[6]);
void cuzk_fr_mul_portable(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
void cuzk_fr_sqr_portable(uint64_t r[4], const uint64_t a[4]);
void cuzk_fp2_mul_portable(uint64_t r[12], const uint64_t a[12], const uint64_t b[12]);
void cuzk_fp2_sqr_portable(uint64_t r[12], const uint64_t a[12]);

#if defined(__x86_64__) && defined(CUZK_HAVE_ADX_ASM)
void cuzk_fp_mul_adx(uint64_t r[6], const uint64_t a[6], const uint64_t b[6]);
void cuzk_fp_sqr_adx(uint64_t r[6], const uint64_t a[6]);
void cuzk_fr_mul_adx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
void cuzk_fr_sqr_adx(uint64_t r[4], const uint64_t a[4]);
void cuzk_fp2_mul_adx(uint64_t r[12], const uint64_t a[12], const uint64_t b[12]);
void cuzk_fp2_sqr_adx(uint64_t r[12], const uint64_t a[12]);
#endif

#endif
