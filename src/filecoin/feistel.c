/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The 3-round Feistel permutation with a BLAKE2b round function that maps expander slots to
 * nodes (docs/spec/sdr-vanilla.md §5.3, storage-proofs-core crypto/feistel.rs): one input at a time
 * (scalar), or a range of inputs in AVX2 / AVX-512 lanes (feistel_lanes.inc, picked at run time).
 * BLAKE2b is a specialised one-block compression; libsodium's is kept as the reference. */
#include <sodium.h>

#include "filecoin/graph.h"

#define FEISTEL_ROUNDS 3

void cuzk_feistel_init(cuzk_feistel *f, uint64_t num_elements, const uint64_t keys[3]) {
  /* for cuzk_feistel_round_ref: BLAKE2b works without it (portable code), sodium_init picks the
   * SIMD one; idempotent and thread-safe. A failure (-1) concerns its random source only. */
  int rc = sodium_init();
  (void)rc;
  uint64_t next_pow4 = 4;
  unsigned log4 = 1;
  while (next_pow4 < num_elements) {
    next_pow4 *= 4;
    log4++;
  }
  f->num_elements = num_elements;
  for (int i = 0; i < FEISTEL_ROUNDS; i++)
    f->keys[i] = keys[i];
  f->half_bits = log4;
  f->right_mask = ((uint64_t)1 << log4) - 1;
  f->left_mask = f->right_mask << log4;
}

static inline void store64_be(uint8_t *p, uint64_t x) {
  for (int i = 7; i >= 0; i--) {
    p[i] = (uint8_t)x;
    x >>= 8;
  }
}

/* ---- BLAKE2b-512 of one 16-byte message, first output word only ---------------------------- */
/* The round function hashes 16 bytes: a single, final 128-byte block whose message words 2..15
 * are zero. Written out (rounds unrolled, constant sigma) the compiler drops the zero words; this
 * runs ~2.5x faster than crypto_generichash. Checked against libsodium (cuzk_feistel_round_ref)
 * by tests/test_porep_graph.c. */
static const uint64_t blake2b_iv[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
    0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL};

static const uint8_t blake2b_sigma[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
};

/* rotate right, for uint64_t and for vectors of them (feistel_lanes.inc) */
#define ROTR64(x, r) (((x) >> (r)) | ((x) << (64 - (r))))

#define B2_G(a, b, c, d, x, y) \
  do {                         \
    a = a + b + (x);           \
    d = ROTR64(d ^ a, 32);     \
    c = c + d;                 \
    b = ROTR64(b ^ c, 24);     \
    a = a + b + (y);           \
    d = ROTR64(d ^ a, 16);     \
    c = c + d;                 \
    b = ROTR64(b ^ c, 63);     \
  } while (0)

#define B2_ROUND(r)                                     \
  do {                                                  \
    const uint8_t *s = blake2b_sigma[r];                \
    B2_G(v[0], v[4], v[8], v[12], m[s[0]], m[s[1]]);    \
    B2_G(v[1], v[5], v[9], v[13], m[s[2]], m[s[3]]);    \
    B2_G(v[2], v[6], v[10], v[14], m[s[4]], m[s[5]]);   \
    B2_G(v[3], v[7], v[11], v[15], m[s[6]], m[s[7]]);   \
    B2_G(v[0], v[5], v[10], v[15], m[s[8]], m[s[9]]);   \
    B2_G(v[1], v[6], v[11], v[12], m[s[10]], m[s[11]]); \
    B2_G(v[2], v[7], v[8], v[13], m[s[12]], m[s[13]]);  \
    B2_G(v[3], v[4], v[9], v[14], m[s[14]], m[s[15]]);  \
  } while (0)

#define B2_ROUNDS_12() \
  do {                 \
    B2_ROUND(0);       \
    B2_ROUND(1);       \
    B2_ROUND(2);       \
    B2_ROUND(3);       \
    B2_ROUND(4);       \
    B2_ROUND(5);       \
    B2_ROUND(6);       \
    B2_ROUND(7);       \
    B2_ROUND(8);       \
    B2_ROUND(9);       \
    B2_ROUND(10);      \
    B2_ROUND(11);      \
  } while (0)

/* Output word h[0] of BLAKE2b(outlen 64, no key) over the 16 bytes w0 (LE) || w1 (LE). */
static inline uint64_t blake2b16_h0(uint64_t w0, uint64_t w1) {
  const uint64_t m[16] = {w0, w1};
  uint64_t v[16];
  for (int i = 0; i < 8; i++)
    v[i] = v[i + 8] = blake2b_iv[i];
  v[0] ^= 0x01010040; /* parameter block: digest length 64, key length 0, fanout 1, depth 1 */
  const uint64_t h0 = v[0];
  v[12] ^= 16;    /* t = message bytes */
  v[14] = ~v[14]; /* last block */
  B2_ROUNDS_12();
  return h0 ^ v[0] ^ v[8];
}

static inline uint64_t bswap64(uint64_t x) {
  x = (x & 0x00000000ffffffffULL) << 32 | x >> 32;
  x = (x & 0x0000ffff0000ffffULL) << 16 | (x >> 16 & 0x0000ffff0000ffffULL);
  return (x & 0x00ff00ff00ff00ffULL) << 8 | (x >> 8 & 0x00ff00ff00ff00ffULL);
}

uint64_t cuzk_feistel_round(uint64_t x, uint64_t key, uint64_t right_mask) {
  /* the message is x and key big-endian, i.e. the LE words bswap(x), bswap(key); the first 8
   * digest bytes (h[0] little-endian) are read big-endian */
  return bswap64(blake2b16_h0(bswap64(x), bswap64(key))) & right_mask;
}

uint64_t cuzk_feistel_round_ref(uint64_t x, uint64_t key, uint64_t right_mask) {
  uint8_t data[16], h[crypto_generichash_blake2b_BYTES_MAX];
  store64_be(data, x);
  store64_be(data + 8, key);
  /* blake2b_simd::blake2b: unkeyed, 64-byte output; only the first 8 bytes are used */
  crypto_generichash_blake2b(h, sizeof h, data, sizeof data, NULL, 0);
  uint64_t r = 0;
  for (int i = 0; i < 8; i++)
    r = r << 8 | h[i];
  return r & right_mask;
}

uint64_t cuzk_feistel_encode(const cuzk_feistel *f, uint64_t x) {
  uint64_t left = (x & f->left_mask) >> f->half_bits;
  uint64_t right = x & f->right_mask;
  for (int i = 0; i < FEISTEL_ROUNDS; i++) {
    uint64_t l = right;
    right = left ^ cuzk_feistel_round(right, f->keys[i], f->right_mask);
    left = l;
  }
  return (left << f->half_bits) | right;
}

uint64_t cuzk_feistel_permute(const cuzk_feistel *f, uint64_t x) {
  uint64_t u = cuzk_feistel_encode(f, x);
  while (u >= f->num_elements)
    u = cuzk_feistel_encode(f, u);
  return u;
}

/* ---- Many permutations at once ------------------------------------------------------------ */
static void permute_range_scalar(const cuzk_feistel *f, uint64_t first, size_t n, uint64_t *out) {
  for (size_t i = 0; i < n; i++)
    out[i] = cuzk_feistel_permute(f, first + i);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CUZK_FEISTEL_X86 1
typedef uint64_t cuzk_u64x4 __attribute__((vector_size(32)));
typedef uint64_t cuzk_u64x8 __attribute__((vector_size(64)));

#define LANES 4
#define VEC cuzk_u64x4
#define FN permute_range_avx2
#define TARGET __attribute__((target("avx2")))
#include "filecoin/feistel_lanes.inc"
#undef LANES
#undef VEC
#undef FN
#undef TARGET

#define LANES 8
#define VEC cuzk_u64x8
#define FN permute_range_avx512
#define TARGET __attribute__((target("avx512f,avx512vl")))
#include "filecoin/feistel_lanes.inc"
#undef LANES
#undef VEC
#undef FN
#undef TARGET
#endif

bool cuzk_feistel_impl_supported(cuzk_feistel_impl impl) {
  switch (impl) {
  case CUZK_FEISTEL_AUTO:
  case CUZK_FEISTEL_SCALAR: return true;
#ifdef CUZK_FEISTEL_X86
  case CUZK_FEISTEL_AVX2: return __builtin_cpu_supports("avx2");
  case CUZK_FEISTEL_AVX512:
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
#else
  case CUZK_FEISTEL_AVX2:
  case CUZK_FEISTEL_AVX512: return false;
#endif
  }
  return false;
}

bool cuzk_feistel_permute_range_impl(cuzk_feistel_impl impl, const cuzk_feistel *f, uint64_t first,
                                     size_t n, uint64_t *out) {
  if (impl == CUZK_FEISTEL_AUTO)
    impl = cuzk_feistel_impl_supported(CUZK_FEISTEL_AVX512) ? CUZK_FEISTEL_AVX512
           : cuzk_feistel_impl_supported(CUZK_FEISTEL_AVX2) ? CUZK_FEISTEL_AVX2
                                                            : CUZK_FEISTEL_SCALAR;
  if (!cuzk_feistel_impl_supported(impl)) return false;
  switch (impl) {
#ifdef CUZK_FEISTEL_X86
  case CUZK_FEISTEL_AVX2: permute_range_avx2(f, first, n, out); return true;
  case CUZK_FEISTEL_AVX512: permute_range_avx512(f, first, n, out); return true;
#endif
  default: permute_range_scalar(f, first, n, out); return true;
  }
}

void cuzk_feistel_permute_range(const cuzk_feistel *f, uint64_t first, size_t n, uint64_t *out) {
  (void)cuzk_feistel_permute_range_impl(CUZK_FEISTEL_AUTO, f, first, n, out);
}
