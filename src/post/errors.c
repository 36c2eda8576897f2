/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The PoSt layer's error codes. */
#include "post/post_internal.h"

const char *cuzk_post_strerror(cuzk_post_err e) {
  switch (e) {
  case CUZK_POST_OK: return "ok";
  case CUZK_POST_EINVAL: return "invalid argument";
  case CUZK_POST_EPROOF: return "unknown registered PoSt proof";
  case CUZK_POST_EFORMAT: return "malformed vanilla proof bytes";
  case CUZK_POST_EVERIFY: return "vanilla proof does not verify";
  case CUZK_POST_ENOMEM: return "out of memory";
  }
  return "unknown error";
}
