/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Tables of +-2^k in Montgomery form for the bit-packing gadgets (addmany, multipack,
 * to_bits_le), filled before main: every LC term of a packed bit uses one of them. */
#include "cuzk/r1cs/r1cs.h"

static cuzk_fr pow2_tab[256], neg_pow2_tab[256];

const cuzk_fr *const cuzk_pow2 = pow2_tab;
const cuzk_fr *const cuzk_neg_pow2 = neg_pow2_tab;

__attribute__((constructor)) static void pow2_init(void) {
  pow2_tab[0] = cuzk_fr_one;
  for (int k = 1; k < 256; k++)
    cuzk_fr_dbl(&pow2_tab[k], &pow2_tab[k - 1]);
  for (int k = 0; k < 256; k++)
    cuzk_fr_neg(&neg_pow2_tab[k], &pow2_tab[k]);
}
