/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#include "cuzk/hashes/poseidon.h"

const char *cuzk_hash_strerror(cuzk_hash_err e) {
  switch (e) {
  case CUZK_HASH_OK: return "success";
  case CUZK_HASH_EINVAL: return "invalid argument";
  case CUZK_HASH_EARITY: return "no Poseidon parameters for this arity";
  case CUZK_HASH_ENOMEM: return "out of memory for Poseidon constants";
  case CUZK_HASH_ENONCANON: return "field element encoding is not canonical (>= r)";
  }
  return "unknown hash error";
}
