/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include "cuzk/msm/msm.h"

const char *cuzk_msm_strerror(cuzk_msm_err e) {
  switch (e) {
  case CUZK_MSM_OK: return "success";
  case CUZK_MSM_EINVAL: return "invalid argument";
  case CUZK_MSM_ENOMEM: return "out of memory for MSM scratch";
  case CUZK_MSM_ECANCELLED: return "cancelled";
  case CUZK_MSM_EIO: return "calibration file could not be read or written";
  case CUZK_MSM_EFORMAT: return "malformed calibration file";
  case CUZK_MSM_EOTHERCPU: return "calibration measured on another CPU model";
  }
  return "unknown MSM error";
}
