/* Portable Montgomery kernels (C with unsigned __int128): the reference the assembly is tested
 * against, and the path on CPUs without BMI2/ADX. */
#include "field/consts.h"
#include "field/limbs.h"
#include "field/mont.h"

void cuzk_fp_mul_portable(uint64_t r[6], const uint64_t a[6], const uint64_t b[6]) {
  limbs_mont_mul(r, a, b, CUZK_P, CUZK_P_N0, 6);
}
void cuzk_fp_sqr_portable(uint64_t r[6], const uint64_t a[6]) {
  limbs_mont_mul(r, a, a, CUZK_P, CUZK_P_N0, 6);
}
void cuzk_fr_mul_portable(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) {
  limbs_mont_mul(r, a, b, CUZK_R, CUZK_R_N0, 4);
}
void cuzk_fr_sqr_portable(uint64_t r[4], const uint64_t a[4]) {
  limbs_mont_mul(r, a, a, CUZK_R, CUZK_R_N0, 4);
}
