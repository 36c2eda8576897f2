/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The SnapDeals layer's error codes. */
#include "snap/snap_internal.h"

const char *cuzk_snap_strerror(cuzk_snap_err e) {
  switch (e) {
  case CUZK_SNAP_OK: return "ok";
  case CUZK_SNAP_EINVAL: return "invalid argument";
  case CUZK_SNAP_EPROOF: return "unknown registered update proof";
  case CUZK_SNAP_EFORMAT: return "malformed vanilla proof bytes";
  case CUZK_SNAP_EVERIFY: return "vanilla proof does not verify";
  case CUZK_SNAP_ENOMEM: return "out of memory";
  }
  return "unknown error";
}
