/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* BLS12-381 constants shared by the field, curve and pairing layers; values in consts.c, which
 * scripts/gen-field-consts.py generates. Field elements are Montgomery form unless noted. */
#ifndef CUZK_FIELD_CONSTS_H
#define CUZK_FIELD_CONSTS_H

#include "cuzk/field/field.h"

/* Plain little-endian integers. */
extern const uint64_t CUZK_P[6], CUZK_P_R[6], CUZK_P_R2[6], CUZK_P_R3[6], CUZK_P_N0;
extern const uint64_t CUZK_P_SQRT_EXP[6], CUZK_P_HALF[6];
extern const uint64_t CUZK_R[4], CUZK_R_R[4], CUZK_R_R2[4], CUZK_R_R3[4], CUZK_R_N0;
extern const uint64_t CUZK_R_HALF[4];
extern const uint64_t CUZK_Z_ABS; /* |z|, z = -0xd201000000010000 */

extern const cuzk_fp CUZK_FP_INV2; /* 1/2 */
extern const cuzk_fr CUZK_FR_GENERATOR, CUZK_FR_ROOT_OF_UNITY;
extern const cuzk_fp2 CUZK_FROB6_C1[3], CUZK_FROB6_C2[3], CUZK_FROB12[3];
extern const cuzk_fp CUZK_G1_B, CUZK_G1_BETA, CUZK_G1_GEN_X, CUZK_G1_GEN_Y;
extern const cuzk_fp2 CUZK_G2_B, CUZK_G2_PSI_CX, CUZK_G2_PSI_CY, CUZK_G2_GEN_X, CUZK_G2_GEN_Y;

#endif
