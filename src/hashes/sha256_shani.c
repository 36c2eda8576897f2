/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The SHA-256 compression function with the x86-64 SHA extensions. Compiled with -msha -msse4.1
 * (src/CMakeLists.txt) and only called when CPUID reports SHA, SSSE3 and SSE4.1, so the rest of
 * the library stays baseline x86-64.
 *
 * SHA256RNDS2 does two rounds on the state split as {A,B,E,F} and {C,D,G,H} (Intel's high-to-low
 * lane order), taking W[t]+K[t] for the two rounds in the low 64 bits of its third operand.
 * After two rounds the old ABEF is the new CDGH, so two calls with the operands swapped make four
 * rounds. The schedule works on four words at a time: for W[t..t+3],
 *   MSG1(W[t-16..], W[t-12..])      = W[t-16..] + s0(W[t-15..])
 *   + ALIGNR(W[t-4..], W[t-8..], 4) = + W[t-7..]
 *   MSG2(that, W[t-4..])            = + s1(W[t-2..]), including the lanes that depend on W[t], W[t+1].
 */
#include "hashes/sha256_internal.h"

#if defined(__x86_64__)
#include <immintrin.h>

void cuzk_sha256_blocks_shani(uint32_t state[8], const uint8_t *blocks, size_t n) {
  /* pshufb mask turning each little-endian 32-bit lane into the big-endian message word */
  const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
  const uint32_t *k = cuzk_sha256_k;

  /* lanes (low to high) A B C D and E F G H -> F E B A ("ABEF") and H G D C ("CDGH") */
  __m128i t = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[0]), 0xB1); /* B A D C */
  __m128i cdgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[4]), 0x1B); /* HGFE */
  __m128i abef = _mm_alignr_epi8(t, cdgh, 8);
  cdgh = _mm_blend_epi16(cdgh, t, 0xF0);

  for (; n > 0; n--, blocks += 64) {
    const __m128i abef0 = abef, cdgh0 = cdgh;
    __m128i m[4];
    for (int j = 0; j < 4; j++)
      m[j] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(blocks + 16 * j)), bswap);
#pragma GCC unroll 16
    for (int i = 0; i < 16; i++) {
      if (i >= 4) {
        __m128i x = _mm_sha256msg1_epu32(m[i & 3], m[(i + 1) & 3]);
        x = _mm_add_epi32(x, _mm_alignr_epi8(m[(i + 3) & 3], m[(i + 2) & 3], 4));
        m[i & 3] = _mm_sha256msg2_epu32(x, m[(i + 3) & 3]);
      }
      __m128i wk = _mm_add_epi32(m[i & 3], _mm_loadu_si128((const __m128i *)&k[4 * i]));
      cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
      abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0E));
    }
    abef = _mm_add_epi32(abef, abef0);
    cdgh = _mm_add_epi32(cdgh, cdgh0);
  }

  /* back to A B C D and E F G H */
  t = _mm_shuffle_epi32(abef, 0x1B);   /* A B E F */
  cdgh = _mm_shuffle_epi32(cdgh, 0xB1); /* G H C D */
  _mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(t, cdgh, 0xF0));
  _mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(cdgh, t, 8));
}
#else
typedef int cuzk_sha256_shani_unused; /* keeps the translation unit non-empty */
#endif
