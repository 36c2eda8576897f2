/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Error strings and the size check shared by every entry point of the NTT layer. */
#include "ntt/ntt_internal.h"

const char *cuzk_ntt_strerror(cuzk_ntt_err e) {
  switch (e) {
  case CUZK_NTT_OK: return "success";
  case CUZK_NTT_ENULL: return "NULL vector";
  case CUZK_NTT_ESIZE: return "NTT size is zero or not a power of two";
  case CUZK_NTT_ETOOBIG: return "NTT size above 2^27, the largest supported";
  case CUZK_NTT_EDOMAIN: return "NTT size above 2^32: Fr has no root of unity of that order";
  case CUZK_NTT_EINVAL: return "invalid argument (transform kind, order, or aliasing)";
  case CUZK_NTT_ENOMEM: return "out of memory (twiddle table or scratch)";
  case CUZK_NTT_ECANCELLED: return "cancelled";
  }
  return "unknown NTT error";
}

cuzk_ntt_err ntt_check_size(size_t n, unsigned *k) {
  if (n == 0 || (n & (n - 1)) != 0) return CUZK_NTT_ESIZE;
  unsigned lg = 0;
  while (((size_t)1 << lg) != n)
    lg++;
  if (lg > CUZK_FR_TWO_ADICITY) return CUZK_NTT_EDOMAIN;
  if (lg > CUZK_NTT_MAX_LG) return CUZK_NTT_ETOOBIG;
  *k = lg;
  return CUZK_NTT_OK;
}
