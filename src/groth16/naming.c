/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Filecoin parameter file naming (docs/spec/groth16.md §2.4; rust-fil-proofs
 * parameter_cache.rs). */
#include <stdio.h>
#include <string.h>

#include "cuzk/hashes/sha256.h"
#include "groth16/g16_internal.h"

cuzk_g16_err cuzk_g16_cache_id(char *out, size_t len, const char *prefix, const char *identifier) {
  if (!out || !prefix || !identifier) return CUZK_G16_EINVAL;
  size_t plen = strlen(prefix);
  if (len == 0 || plen + 1 + 64 >= len) { /* prefix, '-', 64 hex digits, NUL */
    if (len) out[0] = 0;
    return CUZK_G16_EINVAL;
  }
  uint8_t d[32];
  cuzk_sha256(d, identifier, strlen(identifier));
  static const char hex[] = "0123456789abcdef";
  memcpy(out, prefix, plen);
  char *h = out + plen;
  *h++ = '-';
  for (int i = 0; i < 32; i++) {
    *h++ = hex[d[i] >> 4];
    *h++ = hex[d[i] & 15];
  }
  *h = 0;
  return CUZK_G16_OK;
}

/* ext may be given with or without its dot ("params" or ".params"). */
cuzk_g16_err cuzk_g16_file_name(char *out, size_t len, const char *cache_id, const char *ext) {
  if (!out || !cache_id || !ext) return CUZK_G16_EINVAL;
  if (ext[0] == '.') ext++;
  int n = snprintf(out, len, "v%d-%s.%s", CUZK_G16_PARAMS_VERSION, cache_id, ext);
  if (n < 0 || (size_t)n >= len) {
    if (len) out[0] = 0;
    return CUZK_G16_EINVAL;
  }
  return CUZK_G16_OK;
}
