/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * BLS12-381 fields: Fp (base, 381 bits), Fr (scalar, 255 bits) and the tower
 * Fp2 = Fp[u]/(u^2+1), Fp6 = Fp2[v]/(v^3-(u+1)), Fp12 = Fp6[w]/(w^2-v) (docs/spec/groth16.md §1.3).
 *
 * Contract: every element is held in Montgomery form, little-endian 64-bit limbs, fully reduced.
 * Outputs may alias inputs. Functions are variable-time: cuzk handles no long-term secrets in
 * these routines except the prover's randomizers, which only go through constant-shape scalar
 * multiplication paths. Montgomery multiplication runs on one of two kernels (portable C or
 * x86-64 MULX/ADCX/ADOX), chosen once at start-up from CPUID.
 */
#ifndef CUZK_FIELD_H
#define CUZK_FIELD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  uint64_t l[6];
} cuzk_fp;
typedef struct {
  uint64_t l[4];
} cuzk_fr;
typedef struct {
  cuzk_fp c0, c1; /* c0 + c1*u */
} cuzk_fp2;
typedef struct {
  cuzk_fp2 c0, c1, c2; /* c0 + c1*v + c2*v^2 */
} cuzk_fp6;
typedef struct {
  cuzk_fp6 c0, c1; /* c0 + c1*w */
} cuzk_fp12;

/* ---- Montgomery kernel selection ------------------------------------------------------- */
typedef enum {
  CUZK_KERNEL_PORTABLE = 0, /* C with unsigned __int128 */
  CUZK_KERNEL_ADX = 1,      /* x86-64 MULX/ADCX/ADOX assembly */
} cuzk_field_kernel;

/* Selects a kernel for the whole process; returns false if this CPU cannot run it. Not
 * thread-safe against concurrent arithmetic: call before starting work (tests, benchmarks). */
bool cuzk_field_use_kernel(cuzk_field_kernel k);
cuzk_field_kernel cuzk_field_active_kernel(void);
bool cuzk_field_kernel_supported(cuzk_field_kernel k);

/* The 8-lane AVX-512 IFMA Fp kernel (src/field/fp_ifma.h) for batched arithmetic. Callers that
 * have an IFMA path take it only when cuzk_field_ifma_enabled(), the scalar kernels otherwise.
 * Enabled at start-up when CPUID and XGETBV report AVX-512F and IFMA usable, unless
 * CUZK_FORCE_PORTABLE (cuzk/util/cpu.h) or CUZK_NO_IFMA is set to anything but "" or "0".
 * cuzk_field_use_ifma switches it for the whole process (tests, benchmarks; as
 * cuzk_field_use_kernel, not against concurrent arithmetic); false if on and not supported. */
bool cuzk_field_ifma_supported(void);
bool cuzk_field_ifma_enabled(void);
bool cuzk_field_use_ifma(bool on);

/* ---- Fp ---------------------------------------------------------------------------------- */
extern const cuzk_fp cuzk_fp_zero, cuzk_fp_one;

void cuzk_fp_add(cuzk_fp *r, const cuzk_fp *a, const cuzk_fp *b);
void cuzk_fp_sub(cuzk_fp *r, const cuzk_fp *a, const cuzk_fp *b);
void cuzk_fp_dbl(cuzk_fp *r, const cuzk_fp *a);
void cuzk_fp_neg(cuzk_fp *r, const cuzk_fp *a);
void cuzk_fp_mul(cuzk_fp *r, const cuzk_fp *a, const cuzk_fp *b);
void cuzk_fp_sqr(cuzk_fp *r, const cuzk_fp *a);
/* r = a^e, e little-endian limbs (plain integer, not Montgomery). */
void cuzk_fp_pow(cuzk_fp *r, const cuzk_fp *a, const uint64_t *e, size_t nlimbs);
/* Returns false (and r = 0) when a = 0. */
bool cuzk_fp_inv(cuzk_fp *r, const cuzk_fp *a);
/* out[i] = in[i]^-1 (0 stays 0) with one inversion; scratch holds n elements; out may be in. */
void cuzk_fp_batch_inv(cuzk_fp *out, const cuzk_fp *in, size_t n, cuzk_fp *scratch);
/* Square root; returns false if a is a non-residue. Which of the two roots is unspecified. */
bool cuzk_fp_sqrt(cuzk_fp *r, const cuzk_fp *a);
int cuzk_fp_legendre(const cuzk_fp *a); /* 1, -1, or 0 for a = 0 */
bool cuzk_fp_eq(const cuzk_fp *a, const cuzk_fp *b);
bool cuzk_fp_is_zero(const cuzk_fp *a);
bool cuzk_fp_is_one(const cuzk_fp *a);
/* ZCash "sign": true iff the canonical value is > (p-1)/2. */
bool cuzk_fp_sgn(const cuzk_fp *a);
void cuzk_fp_from_u64(cuzk_fp *r, uint64_t v);
/* Canonical little-endian limbs <-> Montgomery. from_canonical returns false if x >= p. */
bool cuzk_fp_from_canonical(cuzk_fp *r, const uint64_t x[6]);
void cuzk_fp_to_canonical(uint64_t x[6], const cuzk_fp *a);
/* 48 bytes big-endian; from_bytes rejects values >= p (returns false). */
bool cuzk_fp_from_bytes(cuzk_fp *r, const uint8_t in[48]);
void cuzk_fp_to_bytes(uint8_t out[48], const cuzk_fp *a);

/* ---- Fr ---------------------------------------------------------------------------------- */
extern const cuzk_fr cuzk_fr_zero, cuzk_fr_one;

void cuzk_fr_add(cuzk_fr *r, const cuzk_fr *a, const cuzk_fr *b);
void cuzk_fr_sub(cuzk_fr *r, const cuzk_fr *a, const cuzk_fr *b);
void cuzk_fr_dbl(cuzk_fr *r, const cuzk_fr *a);
void cuzk_fr_neg(cuzk_fr *r, const cuzk_fr *a);
void cuzk_fr_mul(cuzk_fr *r, const cuzk_fr *a, const cuzk_fr *b);
void cuzk_fr_sqr(cuzk_fr *r, const cuzk_fr *a);
void cuzk_fr_pow(cuzk_fr *r, const cuzk_fr *a, const uint64_t *e, size_t nlimbs);
bool cuzk_fr_inv(cuzk_fr *r, const cuzk_fr *a);
void cuzk_fr_batch_inv(cuzk_fr *out, const cuzk_fr *in, size_t n, cuzk_fr *scratch);
int cuzk_fr_legendre(const cuzk_fr *a);
bool cuzk_fr_eq(const cuzk_fr *a, const cuzk_fr *b);
bool cuzk_fr_is_zero(const cuzk_fr *a);
bool cuzk_fr_is_one(const cuzk_fr *a);
void cuzk_fr_from_u64(cuzk_fr *r, uint64_t v);
bool cuzk_fr_from_canonical(cuzk_fr *r, const uint64_t x[4]);
void cuzk_fr_to_canonical(uint64_t x[4], const cuzk_fr *a);
/* 32 bytes little-endian (Scalar::to_repr, docs/spec/groth16.md §1.7); from_bytes rejects values
 * >= r. */
bool cuzk_fr_from_bytes(cuzk_fr *r, const uint8_t in[32]);
void cuzk_fr_to_bytes(uint8_t out[32], const cuzk_fr *a);

/* ---- Fp2 --------------------------------------------------------------------------------- */
extern const cuzk_fp2 cuzk_fp2_zero, cuzk_fp2_one;

void cuzk_fp2_add(cuzk_fp2 *r, const cuzk_fp2 *a, const cuzk_fp2 *b);
void cuzk_fp2_sub(cuzk_fp2 *r, const cuzk_fp2 *a, const cuzk_fp2 *b);
void cuzk_fp2_dbl(cuzk_fp2 *r, const cuzk_fp2 *a);
void cuzk_fp2_neg(cuzk_fp2 *r, const cuzk_fp2 *a);
void cuzk_fp2_conj(cuzk_fp2 *r, const cuzk_fp2 *a); /* c0 - c1*u, which is also a^p */
void cuzk_fp2_mul(cuzk_fp2 *r, const cuzk_fp2 *a, const cuzk_fp2 *b);
void cuzk_fp2_sqr(cuzk_fp2 *r, const cuzk_fp2 *a);
void cuzk_fp2_mul_fp(cuzk_fp2 *r, const cuzk_fp2 *a, const cuzk_fp *b);
void cuzk_fp2_mul_nonres(cuzk_fp2 *r, const cuzk_fp2 *a); /* times (u + 1) */
void cuzk_fp2_pow(cuzk_fp2 *r, const cuzk_fp2 *a, const uint64_t *e, size_t nlimbs);
bool cuzk_fp2_inv(cuzk_fp2 *r, const cuzk_fp2 *a);
void cuzk_fp2_batch_inv(cuzk_fp2 *out, const cuzk_fp2 *in, size_t n, cuzk_fp2 *scratch);
bool cuzk_fp2_sqrt(cuzk_fp2 *r, const cuzk_fp2 *a);
bool cuzk_fp2_eq(const cuzk_fp2 *a, const cuzk_fp2 *b);
bool cuzk_fp2_is_zero(const cuzk_fp2 *a);
bool cuzk_fp2_is_one(const cuzk_fp2 *a);
/* The sign of c1 if c1 != 0, else of c0 (docs/spec/groth16.md §1.5). */
bool cuzk_fp2_sgn(const cuzk_fp2 *a);

/* ---- Fp6 --------------------------------------------------------------------------------- */
extern const cuzk_fp6 cuzk_fp6_zero, cuzk_fp6_one;

void cuzk_fp6_add(cuzk_fp6 *r, const cuzk_fp6 *a, const cuzk_fp6 *b);
void cuzk_fp6_sub(cuzk_fp6 *r, const cuzk_fp6 *a, const cuzk_fp6 *b);
void cuzk_fp6_neg(cuzk_fp6 *r, const cuzk_fp6 *a);
void cuzk_fp6_mul(cuzk_fp6 *r, const cuzk_fp6 *a, const cuzk_fp6 *b);
void cuzk_fp6_sqr(cuzk_fp6 *r, const cuzk_fp6 *a);
void cuzk_fp6_mul_nonres(cuzk_fp6 *r, const cuzk_fp6 *a); /* times v */
/* Sparse products used by the Miller loop: a * (b0 + b1 v) and a * (b1 v). */
void cuzk_fp6_mul_01(cuzk_fp6 *r, const cuzk_fp6 *a, const cuzk_fp2 *b0, const cuzk_fp2 *b1);
void cuzk_fp6_mul_1(cuzk_fp6 *r, const cuzk_fp6 *a, const cuzk_fp2 *b1);
bool cuzk_fp6_inv(cuzk_fp6 *r, const cuzk_fp6 *a);
void cuzk_fp6_frobenius(cuzk_fp6 *r, const cuzk_fp6 *a, unsigned k); /* a^(p^k), k = 1..3 */
bool cuzk_fp6_eq(const cuzk_fp6 *a, const cuzk_fp6 *b);
bool cuzk_fp6_is_zero(const cuzk_fp6 *a);

/* ---- Fp12 -------------------------------------------------------------------------------- */
extern const cuzk_fp12 cuzk_fp12_one;

void cuzk_fp12_add(cuzk_fp12 *r, const cuzk_fp12 *a, const cuzk_fp12 *b);
void cuzk_fp12_sub(cuzk_fp12 *r, const cuzk_fp12 *a, const cuzk_fp12 *b);
void cuzk_fp12_mul(cuzk_fp12 *r, const cuzk_fp12 *a, const cuzk_fp12 *b);
void cuzk_fp12_sqr(cuzk_fp12 *r, const cuzk_fp12 *a);
/* r = a * (c0 + c1 v + c4 v w): the shape of a Miller-loop line on the M-type twist. */
void cuzk_fp12_mul_014(cuzk_fp12 *r, const cuzk_fp12 *a, const cuzk_fp2 *c0, const cuzk_fp2 *c1,
                       const cuzk_fp2 *c4);
bool cuzk_fp12_inv(cuzk_fp12 *r, const cuzk_fp12 *a);
void cuzk_fp12_conj(cuzk_fp12 *r, const cuzk_fp12 *a);                  /* c0 - c1*w = a^(p^6) */
void cuzk_fp12_frobenius(cuzk_fp12 *r, const cuzk_fp12 *a, unsigned k); /* a^(p^k), k = 1..3 */
/* Squaring for elements of the cyclotomic subgroup (norm 1 over Fp6 and Fp2; Granger-Scott). */
void cuzk_fp12_cyclotomic_sqr(cuzk_fp12 *r, const cuzk_fp12 *a);
bool cuzk_fp12_eq(const cuzk_fp12 *a, const cuzk_fp12 *b);
bool cuzk_fp12_is_one(const cuzk_fp12 *a);
/* Canonical encoding: the 12 Fp coefficients big-endian, tower order (c0.c0.c0, c0.c0.c1,
 * c0.c1.c0, ..., c1.c2.c1). Used to compare pairing values with other implementations. */
void cuzk_fp12_to_bytes(uint8_t out[576], const cuzk_fp12 *a);

#ifdef __cplusplus
}
#endif
#endif
