/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Error strings of the Groth16 layer. */
#include "groth16/g16_internal.h"

const char *cuzk_g16_strerror(cuzk_g16_err e) {
  switch (e) {
  case CUZK_G16_OK: return "success";
  case CUZK_G16_EINVAL: return "invalid argument";
  case CUZK_G16_ENOMEM: return "out of memory";
  case CUZK_G16_EIO: return "opening, mapping, reading or writing a file failed";
  case CUZK_G16_ETRUNCATED: return "data ends inside a vector or point";
  case CUZK_G16_ETRAILING: return "bytes after the last vector";
  case CUZK_G16_ECOUNT: return "vector length impossible or not matching the circuit";
  case CUZK_G16_EPOINT: return "bad point encoding (flags, coordinate >= p, or not on the curve)";
  case CUZK_G16_ESUBGROUP: return "point outside the prime-order subgroup";
  case CUZK_G16_EINFINITY: return "point at infinity where the format forbids it";
  case CUZK_G16_EUNCONSTRAINED: return "an aux variable occurs in no constraint";
  case CUZK_G16_ESHAPE: return "circuits differ in shape, or the domain exceeds 2^27";
  case CUZK_G16_ESYNTH: return "constraint system holds an error or is in the wrong mode";
  case CUZK_G16_EIDENTITY: return "delta_g1 or delta_g2 is the identity";
  case CUZK_G16_ERANDOM: return "the OS random source failed";
  case CUZK_G16_ECANCELLED: return "cancelled";
  }
  return "unknown groth16 error";
}

cuzk_g16_err g16_from_ec(cuzk_ec_err e) {
  switch (e) {
  case CUZK_EC_OK: return CUZK_G16_OK;
  case CUZK_EC_NOT_IN_SUBGROUP: return CUZK_G16_ESUBGROUP;
  case CUZK_EC_BAD_FLAGS:
  case CUZK_EC_BAD_INFINITY:
  case CUZK_EC_NON_CANONICAL:
  case CUZK_EC_NOT_ON_CURVE: return CUZK_G16_EPOINT;
  }
  return CUZK_G16_EPOINT;
}

cuzk_g16_err g16_from_ntt(cuzk_ntt_err e) {
  switch (e) {
  case CUZK_NTT_OK: return CUZK_G16_OK;
  case CUZK_NTT_ENOMEM: return CUZK_G16_ENOMEM;
  case CUZK_NTT_ECANCELLED: return CUZK_G16_ECANCELLED;
  case CUZK_NTT_ENULL: /* the prover's own sizes and pointers: a bug, not an input */
  case CUZK_NTT_ESIZE:
  case CUZK_NTT_ETOOBIG:
  case CUZK_NTT_EDOMAIN:
  case CUZK_NTT_EINVAL: break;
  }
  return CUZK_G16_EINVAL;
}

cuzk_g16_err g16_from_msm(cuzk_msm_err e) {
  switch (e) {
  case CUZK_MSM_OK: return CUZK_G16_OK;
  case CUZK_MSM_ENOMEM: return CUZK_G16_ENOMEM;
  case CUZK_MSM_ECANCELLED: return CUZK_G16_ECANCELLED;
  case CUZK_MSM_EINVAL:
  case CUZK_MSM_EIO: /* the calibration's codes: never from an MSM */
  case CUZK_MSM_EFORMAT:
  case CUZK_MSM_EOTHERCPU: break;
  }
  return CUZK_G16_EINVAL;
}
