/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Messages for the curve layer's error codes. */
#include "cuzk/curve/curve.h"

const char *cuzk_ec_strerror(cuzk_ec_err e) {
  switch (e) {
  case CUZK_EC_OK: return "ok";
  case CUZK_EC_BAD_FLAGS: return "point encoding: flag bits do not match the encoding";
  case CUZK_EC_BAD_INFINITY: return "point encoding: infinity flag with non-zero bits";
  case CUZK_EC_NON_CANONICAL: return "point encoding: coordinate not below the field modulus";
  case CUZK_EC_NOT_ON_CURVE: return "point encoding: point is not on the curve";
  case CUZK_EC_NOT_IN_SUBGROUP: return "point encoding: point is not in the prime-order subgroup";
  }
  return "point encoding: unknown error";
}
