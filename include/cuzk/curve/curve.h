/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * BLS12-381 groups: G1 on E(Fp): y^2 = x^3 + 4 and G2 on E'(Fp2): y^2 = x^3 + 4(u+1).
 *
 * Points come in two forms: affine (x, y), where the point at infinity is all zeros (as in blst;
 * (0, 0) is not on either curve), and Jacobian (X, Y, Z) = (X/Z^2, Y/Z^3), infinity when Z = 0.
 * Coordinates are Montgomery-form field elements. Functions never fail on valid inputs; decoders
 * validate everything from outside and return a cuzk_ec_err.
 */
#ifndef CUZK_CURVE_H
#define CUZK_CURVE_H

#include "cuzk/field/field.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  cuzk_fp x, y;
} cuzk_g1_affine;
typedef struct {
  cuzk_fp x, y, z;
} cuzk_g1;
typedef struct {
  cuzk_fp2 x, y;
} cuzk_g2_affine;
typedef struct {
  cuzk_fp2 x, y, z;
} cuzk_g2;

typedef enum {
  CUZK_EC_OK = 0,
  CUZK_EC_BAD_FLAGS,       /* compression/infinity/sign bits do not fit the encoding */
  CUZK_EC_BAD_INFINITY,    /* infinity flag set but other bits are not all zero */
  CUZK_EC_NON_CANONICAL,   /* a coordinate is >= p */
  CUZK_EC_NOT_ON_CURVE,    /* (x, y) off the curve, or no y exists for a compressed x */
  CUZK_EC_NOT_IN_SUBGROUP, /* on the curve but not in the order-r subgroup */
} cuzk_ec_err;

const char *cuzk_ec_strerror(cuzk_ec_err e);

/* The same operation set exists for G1 and G2 (written once, instantiated twice). Sizes of the
 * ZCash encodings (docs/spec/groth16.md §1.5): G1 48/96 bytes, G2 96/192 bytes,
 * compressed/uncompressed. */
#define CUZK_G1_COMPRESSED_BYTES 48
#define CUZK_G1_UNCOMPRESSED_BYTES 96
#define CUZK_G2_COMPRESSED_BYTES 96
#define CUZK_G2_UNCOMPRESSED_BYTES 192

#define CUZK_EC_DECLARE(G, AFF, JAC)                                                              \
  void cuzk_##G##_generator(JAC *r);                                                              \
  void cuzk_##G##_affine_generator(AFF *r);                                                       \
  void cuzk_##G##_set_infinity(JAC *r);                                                           \
  bool cuzk_##G##_is_infinity(const JAC *p);                                                      \
  bool cuzk_##G##_affine_is_infinity(const AFF *p);                                               \
  void cuzk_##G##_from_affine(JAC *r, const AFF *a);                                              \
  void cuzk_##G##_to_affine(AFF *r, const JAC *p);                                                \
  /* One field inversion for the whole batch (Montgomery's trick). */                             \
  void cuzk_##G##_batch_to_affine(AFF *r, const JAC *p, size_t n);                                \
  void cuzk_##G##_add(JAC *r, const JAC *p, const JAC *q);                                        \
  void cuzk_##G##_add_affine(JAC *r, const JAC *p, const AFF *q);                                 \
  void cuzk_##G##_dbl(JAC *r, const JAC *p);                                                      \
  void cuzk_##G##_neg(JAC *r, const JAC *p);                                                      \
  void cuzk_##G##_affine_neg(AFF *r, const AFF *a);                                               \
  bool cuzk_##G##_eq(const JAC *p, const JAC *q);                                                 \
  bool cuzk_##G##_affine_eq(const AFF *p, const AFF *q);                                          \
  /* r = k p, wNAF; k canonical little-endian limbs (any width) or an Fr element. */              \
  void cuzk_##G##_mul_limbs(JAC *r, const JAC *p, const uint64_t *k, size_t nlimbs);              \
  void cuzk_##G##_mul(JAC *r, const JAC *p, const cuzk_fr *k);                                    \
  /* Sum of n affine points (infinity allowed, repeats allowed) by pairwise affine additions      \
   * with one batched inversion per round: ~6 field multiplications per point. */                 \
  void cuzk_##G##_affine_sum(JAC *r, const AFF *pts, size_t n);                                   \
  bool cuzk_##G##_affine_is_on_curve(const AFF *a);                                               \
  bool cuzk_##G##_is_on_curve(const JAC *p);                                                      \
  /* Endomorphism subgroup test (docs/spec/groth16.md §1.6); the point must lie on the curve. */ \
  bool cuzk_##G##_is_in_subgroup(const JAC *p);                                                   \
  bool cuzk_##G##_affine_is_in_subgroup(const AFF *a);                                            \
  void cuzk_##G##_to_compressed(uint8_t *out, const AFF *a);                                      \
  void cuzk_##G##_to_uncompressed(uint8_t *out, const AFF *a);                                    \
  /* Full validation: flags, canonical coordinates, on curve, in subgroup. */                     \
  cuzk_ec_err cuzk_##G##_from_compressed(AFF *r, const uint8_t *in);                              \
  cuzk_ec_err cuzk_##G##_from_uncompressed(AFF *r, const uint8_t *in);                            \
  /* As above without the subgroup test (blstrs *_unchecked: for trusted parameter files). */     \
  cuzk_ec_err cuzk_##G##_from_compressed_unchecked(AFF *r, const uint8_t *in);                    \
  cuzk_ec_err cuzk_##G##_from_uncompressed_unchecked(AFF *r, const uint8_t *in);

CUZK_EC_DECLARE(g1, cuzk_g1_affine, cuzk_g1)
CUZK_EC_DECLARE(g2, cuzk_g2_affine, cuzk_g2)

#ifdef __cplusplus
}
#endif
#endif
