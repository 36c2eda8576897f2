/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include "cuzk/msm.h"

const char *cuzk_msm_strerror(cuzk_msm_err e) {
  switch (e) {
  case CUZK_MSM_OK: return "success";
  case CUZK_MSM_EINVAL: return "invalid argument";
  case CUZK_MSM_ENOMEM: return "out of memory for MSM scratch";
  case CUZK_MSM_ECANCELLED: return "cancelled";
  }
  return "unknown MSM error";
}
