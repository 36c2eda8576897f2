/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * SDR graph tests (docs/spec/sdr-vanilla.md §5, §11.1):
 * - ChaCha8 keystream vectors (draft-strombergson-chacha-test-vectors TC1/TC2/TC7/TC8, 256-bit
 *   key, 8 rounds; djb's reference vector with block counter 2^64-1 wrapping to 0) and the
 *   ChaCha8Rng u64 stream over a block boundary;
 * - the one-block BLAKE2b of the Feistel round against libsodium's crypto_generichash (20000
 *   random inputs); the Feistel permutation is a bijection of 0..M-1 (M = 512 for 2KiB, 1024,
 *   odd sizes); permute_range in every SIMD implementation this CPU has = permute one by one;
 * - V1_2_0 = V1_1_0;
 * - parent rows of §5.6 (2KiB V1/V1_1 nodes 0..3; 32GiB V1_1 seeds, keys and three nodes), nodes 0
 *   and 1, V1_0 vs V1_1 placement of v-1, the V1_0 u32 expander truncation on 32GiB;
 * - the v28 cache file names of all 10 manifest entries (+ synthetic/NI names computed in §5.6);
 * - parent-cache SHA-256 digests of §5.6: 2KiB (ids 0, 5 from the manifest; 10, 15 computed by
 *   the independent model of docs/spec/sdr-vanilla.md §5.6) and 8MiB (ids 1, 6) — the 8MiB ones
 *   take ~0.5-3 s each (also under ASan); CUZK_TEST_PG_QUICK=1 checks only id 6;
 * - the cache file written to disk equals the parents, and parents_range on a pool = inline.
 * CUZK_TEST_PG_SLOW=1 adds the 512MiB digests (ids 2 and 7; 1-3 minutes each on 2 cores).
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp, clock_gettime, sysconf */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "cuzk/hashes/sha256.h"
#include "cuzk/util/pool.h"
#include "filecoin/graph.h"
#include "rng.h"

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* docs/spec/sdr-vanilla.md §2.3: bytes 0..8 = registered proof id u64 LE, nonce 0, rest 0. */
static void porep_id_of(uint8_t id[32], uint64_t proof) {
  memset(id, 0, 32);
  for (int i = 0; i < 8; i++)
    id[i] = (uint8_t)(proof >> (8 * i));
}

/* docs/spec/sdr-vanilla.md §2.2: ids 0-4 V1_0_0, 5-9 V1_1_0, 10-19 (synthetic, NI) V1_2_0 */
static cuzk_sdr_api api_of(uint64_t proof) {
  return proof < 5 ? CUZK_SDR_API_V1_0 : proof < 10 ? CUZK_SDR_API_V1_1 : CUZK_SDR_API_V1_2;
}

static void graph_of(cuzk_sdr_graph *g, uint64_t proof, uint64_t nodes) {
  uint8_t id[32];
  porep_id_of(id, proof);
  cuzk_sdr_graph_err e = cuzk_sdr_graph_init(g, id, api_of(proof), nodes);
  CHECK(e == CUZK_SDR_GRAPH_OK);
}

/* ---- ChaCha8 ------------------------------------------------------------------------------ */
static void check_keystream(const char *key_hex, uint64_t nonce, uint64_t counter,
                            const char *ks_hex, const char *what) {
  uint8_t key[32], want[128], got[128];
  size_t n = strlen(ks_hex) / 2;
  CHECK(from_hex(key, key_hex, 32) == 0);
  CHECK(n <= sizeof want && from_hex(want, ks_hex, n) == 0);
  for (size_t b = 0; b * 64 < n; b++)
    cuzk_chacha8_block(got + 64 * b, key, counter + b, nonce);
  CHECK_MSG(memcmp(got, want, n) == 0, "%s", what);
}

/* An 8-byte IV given as bytes, as the word pair 14-15 (little-endian). */
static uint64_t nonce_of(const char *hex) {
  uint8_t b[8];
  CHECK(from_hex(b, hex, 8) == 0);
  uint64_t x = 0;
  for (int i = 7; i >= 0; i--)
    x = x << 8 | b[i];
  return x;
}

#define TC1_KS                                                                                     \
  "3e00ef2f895f40d67f5bb8e81f09a5a12c840ec3ce9a7f3b181be188ef711a1e984ce172b9216f419f445367456d56" \
  "19314a42a3da86b001387bfdb80e0cfe42d2aefa0deaa5c151bf0adb6c01f2a5adc0fd581259f9a2aadcf20f8fd566" \
  "a26b5032ec38bbc5da98ee0c6f568b872a65a08abf251deb21bb4b56e5d8821e68aa"

static void test_chacha8(void) {
  const char *zero = "0000000000000000000000000000000000000000000000000000000000000000";
  check_keystream(zero, 0, 0, TC1_KS, "TC1 zero key, zero IV");
  check_keystream("0100000000000000000000000000000000000000000000000000000000000000", 0, 0,
                  "cf5ee9a0494aa9613e05d5ed725b804b12f4a465ee635acc3a311de8740489ea289d04f43c7518db"
                  "56eb4433e498a1238cd8464d3763ddbb9222ee3bd8fae3c8b4355a7d93dd8867089ee643558b9575"
                  "4efa2bd1a8a1e2d75bcdb32015542638291941feb49965587c4fdfe219cf0ec132a6cd4dc067392e"
                  "67982fe53278c0b4",
                  "TC2 one key bit");
  check_keystream(zero, nonce_of("0100000000000000"), 0,
                  "2b8f4bb3798306ca5130d47c4f8d4ed13aa0edccc1be6942090faeeca0d7599b7ff0fe616bb25aa0"
                  "153ad6fdc88b954903c22426d478b97b22b8f9b1db00cf06470bdffbc488a8b7c701ebf4061d75c5"
                  "969186497c95367809afa80bd843b040a79abc6e73a91757f1db73c8eacfa543b38f289d065ab2f3"
                  "032d377b8c37fe46",
                  "TC3 one IV bit");
  check_keystream("00112233445566778899aabbccddeeffffeeddccbbaa99887766554433221100",
                  nonce_of("0f1e2d3c4b596877"), 0,
                  "60fdedbd1a280cb741d0593b6ea0309010acf18e1471f68968f4c9e311dca149b8e027b47c81e035"
                  "3db013891aa5f68ea3b13dd2f3b8dd0873bf3746e7d6c567fe882395601ce8aded444867fe62ed87"
                  "41420002e5d28bb573113a418c1f4008e954c188f38ec4f26bb8555e2b7c92bf4380e2ea9e553187"
                  "fdd42821794416de",
                  "TC7 sequence patterns");
  check_keystream("c46ec1b18ce8a878725a37e780dfb7351f68ed2e194c79fbc6aebee1a667975d",
                  nonce_of("1ada31d5cf688221"), 0,
                  "838751b42d8ddd8a3d77f48825a2ba752cf4047cb308a5978ef274973be374c96ad848065871417b"
                  "08f034e681fe46a93f7d5c61d1306614d4aaf257a7cff08b16f2fda170cc18a4b58a2667ed962774"
                  "af792a6e7f3c77992540711a7a136d7e8a2f8d3f93816709d45a3fa5f8ce72fde15be7b841acba3a"
                  "2abd557228d9fe4f",
                  "TC8 random key and IV");
  /* djb's reference test: block counter 2^64-1, then the 64-bit counter wraps to block 0 (TC1) */
  check_keystream(zero, 0, UINT64_MAX,
                  "df8a0bceca2fbb111f29978fa9a64407c68ced975ff55a24707265d0687e6aefb3597eac46e4b0a7"
                  "9b3a49c8b0f1775ac3edd7eb6a6d9bcb38f276517a79e0143e00ef2f895f40d67f5bb8e81f09a5a1"
                  "2c840ec3ce9a7f3b181be188ef711a1e984ce172b9216f419f445367456d5619314a42a3da86b001"
                  "387bfdb80e0cfe42",
                  "counter 2^64-1 wrapping to 0");

  /* ChaCha8Rng: u64 draws are the keystream read little-endian, continuing into block 1 */
  uint8_t ks[128], key[32] = {0};
  CHECK(from_hex(ks, TC1_KS, 128) == 0);
  cuzk_chacha8_rng rng;
  cuzk_chacha8_rng_init(&rng, key);
  for (int i = 0; i < 16; i++) {
    uint64_t want = 0;
    for (int j = 7; j >= 0; j--)
      want = want << 8 | ks[8 * i + j];
    CHECK_MSG(cuzk_chacha8_rng_next_u64(&rng) == want, "rng draw %d", i);
  }
}

/* ---- Feistel ------------------------------------------------------------------------------ */
static void check_bijection(uint64_t m, const uint64_t keys[3]) {
  cuzk_feistel f;
  cuzk_feistel_init(&f, m, keys);
  uint8_t *seen = calloc((size_t)m, 1);
  CHECK(seen != NULL);
  if (!seen) return;
  int ok = 1;
  for (uint64_t x = 0; x < m; x++) {
    uint64_t y = cuzk_feistel_permute(&f, x);
    if (y >= m || seen[y])
      ok = 0;
    else
      seen[y] = 1;
  }
  CHECK_MSG(ok, "permute is not a bijection on 0..%llu", (unsigned long long)m - 1);
  free(seen);
}

static void test_feistel(void) {
  /* the specialised one-block BLAKE2b against libsodium's crypto_generichash */
  uint64_t st = 0xfe157e1, bad = 0;
  for (int i = 0; i < 20000; i++) {
    uint64_t x = rng_next(&st), k = rng_next(&st);
    if (i & 1) x >>= (unsigned)(i % 63);
    if (cuzk_feistel_round(x, k, UINT64_MAX) != cuzk_feistel_round_ref(x, k, UINT64_MAX)) bad++;
  }
  CHECK_MSG(bad == 0, "%llu BLAKE2b mismatches", (unsigned long long)bad);
  CHECK(cuzk_feistel_round(0, 0, 0x7ff) == cuzk_feistel_round_ref(0, 0, 0x7ff));

  cuzk_sdr_graph g;
  graph_of(&g, 5, 64);
  /* 2KiB: M = 512, k = 5 (4^5 = 1024 >= 512), masks of 5 bits */
  CHECK(g.feistel.num_elements == 512 && g.feistel.half_bits == 5);
  CHECK(g.feistel.right_mask == 0x1f && g.feistel.left_mask == 0x3e0);
  cuzk_sdr_graph g8;
  graph_of(&g8, 6, (uint64_t)1 << 18);
  CHECK(g8.feistel.half_bits == 11); /* 8MiB: M = 2^21 */
  cuzk_sdr_graph g32;
  graph_of(&g32, 8, (uint64_t)1 << 30);
  CHECK(g32.feistel.half_bits == 17); /* 32GiB: M = 2^33 */
  check_bijection(512, g.feistel.keys);
  check_bijection(1024, g.feistel.keys); /* 4^5 exactly: no cycle walking */
  check_bijection(777, g.feistel.keys);
  check_bijection(3, g.feistel.keys);
  check_bijection(1, g.feistel.keys);
  /* permute_range, every implementation this CPU has, against permute one at a time: the whole
   * 2KiB domain, a stretch of the 8MiB one, odd lengths (partly filled lanes) and n = 0 */
  static const char *impl_name[] = {"auto", "scalar", "avx2", "avx512"};
  uint64_t want[3000], got[3000 + 1];
  for (int impl = CUZK_FEISTEL_AUTO; impl <= CUZK_FEISTEL_AVX512; impl++) {
    if (!cuzk_feistel_impl_supported((cuzk_feistel_impl)impl)) {
      printf("  feistel %s: not supported here\n", impl_name[impl]);
      continue;
    }
    const cuzk_feistel *fs[2] = {&g.feistel, &g8.feistel};
    const uint64_t firsts[2] = {0, 123457};
    const size_t lens[] = {512, 3000, 1, 7, 13, 0};
    int same = 1;
    for (int d = 0; d < 2; d++)
      for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        size_t n = d == 0 && lens[li] > 512 ? 512 : lens[li];
        uint64_t first = d == 0 ? 0 : firsts[1] + 31 * li;
        for (size_t i = 0; i < n; i++)
          want[i] = cuzk_feistel_permute(fs[d], first + i);
        got[n] = 0xdeadbeef;
        CHECK(cuzk_feistel_permute_range_impl((cuzk_feistel_impl)impl, fs[d], first, n, got));
        if (memcmp(want, got, n * sizeof want[0]) || got[n] != 0xdeadbeef) same = 0;
      }
    CHECK_MSG(same, "permute_range %s", impl_name[impl]);
  }

  /* encode alone is a bijection of 0..4^k-1 */
  cuzk_feistel f;
  cuzk_feistel_init(&f, 512, g.feistel.keys);
  uint8_t seen[1024] = {0};
  int ok = 1;
  for (uint64_t x = 0; x < 1024; x++) {
    uint64_t y = cuzk_feistel_encode(&f, x);
    if (y >= 1024 || seen[y])
      ok = 0;
    else
      seen[y] = 1;
  }
  CHECK(ok);
}

/* ---- Parents ------------------------------------------------------------------------------ */
static void check_row(const cuzk_sdr_graph *g, uint64_t v, const uint32_t want[14], const char *w) {
  uint32_t got[14];
  cuzk_sdr_graph_parents(g, v, got);
  int ok = !memcmp(got, want, sizeof got);
  CHECK_MSG(ok, "%s node %llu", w, (unsigned long long)v);
  if (!ok) {
    for (int i = 0; i < 14; i++)
      fprintf(stderr, " %u", got[i]);
    fputc('\n', stderr);
  }
}

static void test_rows(void) {
  /* docs/spec/sdr-vanilla.md §5.6 "small parent rows" (the 2KiB rows are implied by the verified
   * digests) */
  static const uint32_t v1[4][14] = {{0, 0, 0, 0, 0, 0, 22, 1, 6, 27, 40, 36, 18, 36},
                                     {0, 0, 0, 0, 0, 0, 57, 30, 21, 11, 22, 15, 1, 32},
                                     {0, 1, 1, 1, 1, 1, 32, 49, 26, 57, 3, 4, 47, 63},
                                     {1, 2, 1, 2, 1, 2, 55, 45, 29, 45, 51, 53, 56, 44}};
  static const uint32_t v11[4][14] = {{0, 0, 0, 0, 0, 0, 4, 9, 60, 1, 14, 26, 26, 4},
                                      {0, 0, 0, 0, 0, 0, 6, 12, 35, 43, 23, 34, 58, 2},
                                      {1, 1, 1, 0, 1, 0, 30, 28, 55, 63, 63, 36, 37, 36},
                                      {2, 1, 1, 2, 2, 2, 10, 46, 59, 7, 43, 29, 9, 16}};
  cuzk_sdr_graph g0, g5;
  graph_of(&g0, 0, 64);
  graph_of(&g5, 5, 64);
  for (uint64_t v = 0; v < 4; v++) {
    check_row(&g0, v, v1[v], "2KiB V1");
    check_row(&g5, v, v11[v], "2KiB V1_1");
  }

  /* 32GiB V1_1 (id 8): seeds, keys and rows computed by the independent model of
   * docs/spec/sdr-vanilla.md §5.6 */
  cuzk_sdr_graph g;
  graph_of(&g, 8, (uint64_t)1 << 30);
  uint8_t seed[28];
  CHECK(from_hex(seed, "ba0350183955dc9f07e73503f5c63ff1bd9c22501363983de241f74a", 28) == 0);
  CHECK(!memcmp(seed, g.drg_seed, 28));
  CHECK(g.feistel_keys[0] == 0x35a20d6c881b3e73ULL && g.feistel_keys[1] == 0x11063648dc13a120ULL);
  CHECK(g.feistel_keys[2] == 0xa8c1ad029b31fcb5ULL && g.feistel_keys[3] == 0xd299d840a5770469ULL);
  static const uint32_t r2[14] = {1,         1,         0,         1,         0,
                                  0,         694934376, 792214855, 560882435, 923855168,
                                  468160064, 444658509, 700174899, 650486437};
  static const uint32_t r12345[14] = {12344,     9773,      12342,     3527,     12344,
                                      12320,     444131556, 275975327, 72076265, 371785530,
                                      161112409, 869197568, 881649746, 993192437};
  static const uint32_t rlast[14] = {1073741822, 1073258530, 440642413, 663190843, 1073741654,
                                     1073741786, 307718517,  715446084, 558280128, 265147410,
                                     110937796,  626719228,  201839602, 653041812};
  check_row(&g, 2, r2, "32GiB V1_1");
  check_row(&g, 12345, r12345, "32GiB V1_1");
  check_row(&g, ((uint64_t)1 << 30) - 1, rlast, "32GiB V1_1");

  /* V1_0 vs V1_1 on one porep_id: same draws, v-1 last vs first; same expander (8N <= 2^32) */
  uint8_t id[32];
  porep_id_of(id, 6);
  cuzk_sdr_graph a, b;
  CHECK(cuzk_sdr_graph_init(&a, id, CUZK_SDR_API_V1_0, (uint64_t)1 << 18) == CUZK_SDR_GRAPH_OK);
  CHECK(cuzk_sdr_graph_init(&b, id, CUZK_SDR_API_V1_1, (uint64_t)1 << 18) == CUZK_SDR_GRAPH_OK);
  int placement_ok = 1;
  for (uint64_t v = 0; v < 2000; v += 7) {
    uint32_t pa[14], pb[14];
    cuzk_sdr_graph_parents(&a, v, pa);
    cuzk_sdr_graph_parents(&b, v, pb);
    uint32_t pred = v < 2 ? 0 : (uint32_t)v - 1;
    if (pa[5] != pred || pb[0] != pred || memcmp(pa, pb + 1, 5 * 4) ||
        memcmp(pa + 6, pb + 6, 8 * 4))
      placement_ok = 0;
    for (int i = 0; i < 6; i++)
      if (v >= 2 && pb[i] >= v) placement_ok = 0; /* base parents precede the node */
  }
  CHECK(placement_ok);

  /* V1_2_0 = V1_1_0 */
  cuzk_sdr_graph c;
  CHECK(cuzk_sdr_graph_init(&c, id, CUZK_SDR_API_V1_2, (uint64_t)1 << 18) == CUZK_SDR_GRAPH_OK);
  int same = 1;
  for (uint64_t v = 0; v < 3000; v += 11) {
    uint32_t pb[14], pc[14];
    cuzk_sdr_graph_parents(&b, v, pb);
    cuzk_sdr_graph_parents(&c, v, pc);
    if (memcmp(pb, pc, sizeof pb)) same = 0;
  }
  CHECK(same);

  /* Nodes 0 and 1: all base parents 0; expander parents computed as for any node */
  for (uint64_t v = 0; v < 2; v++) {
    uint32_t p[14];
    cuzk_sdr_graph_parents(&b, v, p);
    CHECK(p[0] == 0 && p[1] == 0 && p[2] == 0 && p[3] == 0 && p[4] == 0 && p[5] == 0);
  }

  /* V1_0 on 32GiB (id 3): the u32 truncation confines expander parents to the first 2^29 nodes */
  cuzk_sdr_graph g3, g3b;
  graph_of(&g3, 3, (uint64_t)1 << 30);
  porep_id_of(id, 3);
  CHECK(cuzk_sdr_graph_init(&g3b, id, CUZK_SDR_API_V1_1, (uint64_t)1 << 30) == CUZK_SDR_GRAPH_OK);
  int trunc_ok = 1, differs = 0;
  for (uint64_t v = 1000; v < 1200; v++) {
    uint32_t e0[8], e1[8];
    cuzk_sdr_graph_exp_parents(&g3, v, e0);
    cuzk_sdr_graph_exp_parents(&g3b, v, e1);
    for (int i = 0; i < 8; i++) {
      if (e0[i] >= (1u << 29) ||
          e0[i] != (uint32_t)(((uint64_t)e1[i] * 8) % ((uint64_t)1 << 32)) / 8)
        trunc_ok = 0;
      if (e0[i] != e1[i]) differs = 1;
    }
  }
  CHECK(trunc_ok && differs);

  /* bad arguments */
  CHECK(cuzk_sdr_graph_init(&g, id, CUZK_SDR_API_V1_1, 1) == CUZK_SDR_GRAPH_EINVAL);
  CHECK(cuzk_sdr_graph_init(&g, id, CUZK_SDR_API_V1_1, ((uint64_t)1 << 32) + 1) ==
        CUZK_SDR_GRAPH_EINVAL);
  CHECK(cuzk_sdr_graph_init(&g, id, (cuzk_sdr_api)7, 64) == CUZK_SDR_GRAPH_EINVAL);
  uint32_t dummy[14];
  CHECK(cuzk_sdr_graph_parents_range(&g5, NULL, 3, 2, dummy) == CUZK_SDR_GRAPH_EINVAL);
  CHECK(cuzk_sdr_graph_parents_range(&g5, NULL, 64, 65, dummy) == CUZK_SDR_GRAPH_EINVAL);
  CHECK(strcmp(cuzk_sdr_graph_strerror(CUZK_SDR_GRAPH_EIO), "unknown graph error") != 0);
}

/* ---- Cache names ---------------------------------------------------------------------------- */
typedef struct {
  uint64_t proof, nodes;
  const char *hex, *digest; /* digest NULL: none published */
} cache_vec;

static const cache_vec manifest[] = {
    {0, 64, "3f0eef38bb48af1f48ad65e14eb85b4ebfc167cec18cd81764f6d998836c9899",
     "3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d"},
    {5, 64, "494d91dc80f2df5272c4b9e129bc7ade9405225993af9fe34e6542a39a47554b",
     "840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97"},
    {1, 1 << 18, "dcdabb0fbe4364bf0ac28b6a18c66de246409fa1a9020a00f33fb3e3053da6dc",
     "a76604f2f59f2744c7151653bbb1d8596b6b57d295e6fa6c1f0c41d725b502ce"},
    {6, 1 << 18, "5eed212119fd91aa6220a27f31a8966444a9381842bceb3a1ea61525bd47a5b5",
     "03cd13565ded97c240a5f52e54295ad127bd0461b57904cb3a4d79b097bbecab"},
    {2, 1 << 24, "2aa9c77c3e58259481351cc4be2079cc71e1c9af39700866545c043bfa30fb42",
     "3adcc092423aa76d6a7184016893406da44dd974b219a89cd3ece25e4e3018f5"},
    {7, 1 << 24, "7ba215a1d2345774ab90b8cb1158d296e409d6068819d7b8c7baf0b25d63dc34",
     "b5877d1963793efebc261fd8fde4dd6bc59e6b5c7abf52617a4ee023b8dc173a"},
    {3, 1 << 30, "e1fa5d5b811ddbd118be3412c4a8c329156b8b8acc72632bca459455b5a05a13",
     "3c4f9841fcc75aed8c695800e58d08480629f25af3a2aefd81904181d75cc0b6"},
    {8, 1 << 30, "21981246c370f9d76c7a77ab273d94bde0ceb4e938292334960bce05585dc117",
     "93deeac5e3052b6927467d4b2641bb782f05491de18d510147c93eeedd8672da"},
    {4, 1u << 31, "8a99e8d6b6be7ab87a56b632e6739ff201c23ea14e99737c74690f0e265574d6",
     "2778a732ad46a7dc18e0564dfdf59fd321dcde74ab476fd6d3c4e6735d7cd89c"},
    {9, 1u << 31, "4905486b7af19558ac3649bc6261411858b6add534438878c4ee3b29d8b9de0b",
     "2698b74eb2606b55b98d8b095e18b6320b47f46e00075956d48640ccd1641b03"},
    /* not in the manifest: the names and 2KiB digests of docs/spec/sdr-vanilla.md §5.6 */
    {10, 64, "1aa0c04f9b6b2ba6ece696274b0f0b53438c9acd1ae1b3943d837bacb65ad66b",
     "0c9ac05c2f3221deff12ab7b098acc90d974c3db61925b8429537e06c6062621"},
    {15, 64, "896a357165f80a0aedd30a419e412a4ef3e8d95718896655dd42fd415eab41a2",
     "3f5bf8010fc1cefce85a00045fad10a7abe09ab9e97d5ad9d1a08ff834ac5590"},
    {11, 1 << 18, "727a5e3eada45a0975f90b2651ed09ce5db554c99f03d7f029049ae3a36462a5", NULL},
    {16, 1 << 18, "6de1e885248c809ed294f690d79d06ede06fd51c541b324bc1dc10628fccb991", NULL},
    {12, 1 << 24, "6ac4717c3f9d9d1378c79d042cef90fba963c4f18f9a8b0845fc49f860814456", NULL},
    {17, 1 << 24, "44915af4fc1a20f480c308f73b5d71cc8b78d9eb3daa2d73a7a109bed53a88d0", NULL},
    {13, 1 << 30, "716c0c62d7111a1f43ddbc54102052f151fdf2162ba7605786aa51c495aa6e65", NULL},
    {18, 1 << 30, "e6ed6d53a2e35ffd6bf01b8a00fe56067c8df7b23c2c016363e452cad2621344", NULL},
    {14, 1u << 31, "4dd21860b4d7f1e3ec09fdf61f75022a1d179d5b47bbf340f93fb6f61cced893", NULL},
    {19, 1u << 31, "26a594a55cf444adc848b9682e1486b8d0bfa7846ee3f20cb6e754afe2778941", NULL},
};
#define N_MANIFEST (sizeof manifest / sizeof manifest[0])

static void test_names(void) {
  for (size_t i = 0; i < N_MANIFEST; i++) {
    cuzk_sdr_graph g;
    graph_of(&g, manifest[i].proof, manifest[i].nodes);
    char name[CUZK_SDR_PARENT_CACHE_NAME_BYTES], want[CUZK_SDR_PARENT_CACHE_NAME_BYTES + 8];
    cuzk_sdr_parent_cache_name(&g, name);
    snprintf(want, sizeof want, "v28-sdr-parent-%s.cache", manifest[i].hex);
    CHECK_MSG(!strcmp(name, want), "proof %llu: got %s", (unsigned long long)manifest[i].proof,
              name);
  }
}

/* ---- Digests -------------------------------------------------------------------------------- */
static void check_digest(cuzk_pool *pool, const cache_vec *c) {
  cuzk_sdr_graph g;
  graph_of(&g, c->proof, c->nodes);
  uint8_t d[32];
  char hex[65];
  double t = now_s();
  CHECK(cuzk_sdr_parent_cache_write(&g, pool, NULL, d) == CUZK_SDR_GRAPH_OK);
  t = now_s() - t;
  to_hex(hex, d, 32);
  CHECK_MSG(!strcmp(hex, c->digest), "proof %llu (%llu nodes): digest %s want %s",
            (unsigned long long)c->proof, (unsigned long long)c->nodes, hex, c->digest);
  if (c->nodes >= 4096)
    printf("  digest proof %llu, %llu nodes: %.2f s, %.0f nodes/s (%u threads)\n",
           (unsigned long long)c->proof, (unsigned long long)c->nodes, t, (double)c->nodes / t,
           cuzk_pool_threads(pool));
}

static void test_digests(cuzk_pool *pool, int quick, int slow) {
  for (size_t i = 0; i < N_MANIFEST; i++) {
    const cache_vec *c = &manifest[i];
    if (!c->digest) continue;
    if (c->nodes == 64)
      check_digest(pool, c);
    else if (c->nodes == (1 << 18) && (!quick || c->proof == 6))
      check_digest(pool, c);
    else if (c->nodes == (1 << 24) && slow)
      check_digest(pool, c);
  }
}

/* The file on disk: 56 bytes per node, u32 LE, equal to parents_range (pool and inline). */
static void test_file(cuzk_pool *pool) {
  cuzk_sdr_graph g;
  graph_of(&g, 5, 64);
  char path[] = "/tmp/cuzk_pg_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0) return;
  close(fd);
  uint8_t d[32], d2[32];
  CHECK(cuzk_sdr_parent_cache_write(&g, pool, path, d) == CUZK_SDR_GRAPH_OK);
  FILE *f = fopen(path, "rb");
  uint8_t buf[64 * 56 + 1];
  size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
  if (f) fclose(f);
  CHECK(n == 64 * 56);
  cuzk_sha256(d2, buf, n);
  CHECK(!memcmp(d, d2, 32));
  uint32_t p[64 * 14];
  CHECK(cuzk_sdr_graph_parents_range(&g, NULL, 0, 64, p) == CUZK_SDR_GRAPH_OK);
  int ok = 1;
  for (size_t i = 0; i < 64 * 14; i++) {
    uint32_t x = (uint32_t)buf[4 * i] | (uint32_t)buf[4 * i + 1] << 8 |
                 (uint32_t)buf[4 * i + 2] << 16 | (uint32_t)buf[4 * i + 3] << 24;
    if (x != p[i]) ok = 0;
  }
  CHECK(ok);
  remove(path);
  /* an unwritable path fails cleanly */
  CHECK(cuzk_sdr_parent_cache_write(&g, pool, "/nonexistent-dir/x.cache", d) == CUZK_SDR_GRAPH_EIO);

  /* a range in the middle of the 8MiB graph: pool = inline = one node at a time */
  cuzk_sdr_graph g8;
  graph_of(&g8, 6, (uint64_t)1 << 18);
  enum { B = 100000, E = 103001 };
  uint32_t *r1 = malloc((E - B) * 14 * sizeof(uint32_t)),
           *r2 = malloc((E - B) * 14 * sizeof(uint32_t));
  CHECK(r1 && r2);
  if (r1 && r2) {
    CHECK(cuzk_sdr_graph_parents_range(&g8, pool, B, E, r1) == CUZK_SDR_GRAPH_OK);
    CHECK(cuzk_sdr_graph_parents_range(&g8, NULL, B, E, r2) == CUZK_SDR_GRAPH_OK);
    CHECK(!memcmp(r1, r2, (E - B) * 14 * sizeof(uint32_t)));
    uint32_t one[14];
    cuzk_sdr_graph_parents(&g8, E - 1, one);
    CHECK(!memcmp(one, r1 + (E - 1 - B) * 14, sizeof one));
  }
  free(r1);
  free(r2);
}

int main(void) {
  const char *q = getenv("CUZK_TEST_PG_QUICK"), *s = getenv("CUZK_TEST_PG_SLOW");
  int quick = q && *q && *q != '0', slow = s && *s && *s != '0';
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  cuzk_pool *pool = NULL;
  CHECK(cuzk_pool_create(&pool, ncpu > 1 ? (unsigned)ncpu : 1) == CUZK_POOL_OK);
  test_chacha8();
  test_feistel();
  test_rows();
  test_names();
  test_file(pool);
  test_digests(pool, quick, slow);
  cuzk_pool_destroy(pool);
  return check_summary("test_porep_graph");
}
