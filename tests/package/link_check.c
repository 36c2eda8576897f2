/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* A program built against an installed libcuzk (libcuzk-dev, cuzk.pc) by test_package.py: it
 * compiles with pkg-config's flags alone, links libcuzk.a and its dependencies, and computes. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cuzk/field/field.h"
#include "cuzk/filecoin/sector.h"
#include "cuzk/hashes/sha256.h"

int main(void) {
  /* SHA-256("abc") starts ba 78 16 bf (FIPS 180-2 appendix B.1) */
  static const uint8_t want[4] = {0xba, 0x78, 0x16, 0xbf};
  uint8_t h[32];
  cuzk_sha256(h, "abc", 3);
  /* 1 + 1 - 1 = 1 in Fp (the field kernels) */
  cuzk_fp two, back;
  cuzk_fp_add(&two, &cuzk_fp_one, &cuzk_fp_one);
  cuzk_fp_sub(&back, &two, &cuzk_fp_one);
  /* headers from their layers' folders: 2 KiB sectors have 64 nodes */
  const cuzk_sector_info *si = NULL;
  if (memcmp(h, want, sizeof want) || !cuzk_fp_eq(&back, &cuzk_fp_one) ||
      cuzk_fp_eq(&two, &cuzk_fp_one) || cuzk_sector_by_bytes(&si, 2048) || si->nodes != 64) {
    puts("link_check: wrong results");
    return 1;
  }
  puts("link_check: ok");
  return 0;
}
