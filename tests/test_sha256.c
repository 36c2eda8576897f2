/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * SHA-256 tests, run on every kernel this CPU supports (portable, SHA-NI):
 * - the generated constants against FIPS 180-4's first and last values;
 * - NIST vectors (FIPS 180-2 appendix B / the NIST examples): "", "abc", the 448-bit and 896-bit
 *   two-block messages, one million 'a' (one-shot and streamed in odd chunk sizes);
 * - the compression function alone on a hand-padded block;
 * - random cross-checks: portable vs SHA-NI on random states and block runs, streaming with random
 *   split points vs one-shot, every message length 0..300 across the padding boundaries;
 * - Filecoin's 254-bit truncation: the zero-commitment chain Z_k of docs/spec/sdr-vanilla.md §3.4.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuzk/hashes/sha256.h"
#include "hashes/sha256_internal.h"
#include "rng.h"

static uint64_t seed = 0x5a256;

static void check_digest(const uint8_t d[32], const char *hex, const char *what) {
  char got[65];
  to_hex(got, d, 32);
  CHECK_MSG(!strcmp(got, hex), "%s (%s): got %s want %s", what,
            cuzk_sha256_active_impl() == CUZK_SHA256_SHANI ? "sha-ni" : "portable", got, hex);
}

static void test_constants(void) {
  CHECK(cuzk_sha256_k[0] == 0x428a2f98u);
  CHECK(cuzk_sha256_k[1] == 0x71374491u);
  CHECK(cuzk_sha256_k[63] == 0xc67178f2u);
  uint32_t h[8];
  cuzk_sha256_init_state(h);
  CHECK(h[0] == 0x6a09e667u);
  CHECK(h[7] == 0x5be0cd19u);
}

/* Streams msg in chunks of the given size (0 = one-shot) and checks the digest. */
static void check_msg(const void *msg, size_t len, size_t chunk, const char *hex, const char *w) {
  uint8_t d[32];
  if (chunk == 0) {
    cuzk_sha256(d, msg, len);
  } else {
    cuzk_sha256_ctx ctx;
    cuzk_sha256_init(&ctx);
    for (size_t o = 0; o < len; o += chunk)
      cuzk_sha256_update(&ctx, (const uint8_t *)msg + o, len - o < chunk ? len - o : chunk);
    cuzk_sha256_final(&ctx, d);
  }
  check_digest(d, hex, w);
}

static void test_nist(void) {
  static const char m448[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  static const char m896[] = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
                             "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
  static const size_t chunks[] = {0, 1, 3, 63, 64, 65, 1000};
  for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
    check_msg("", 0, chunks[c], "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
              "empty");
    check_msg("abc", 3, chunks[c],
              "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "abc");
    check_msg(m448, 56, chunks[c],
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1", "448-bit");
    check_msg(m896, 112, chunks[c],
              "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1", "896-bit");
  }
  char *a = malloc(1000000);
  if (!a) exit(2);
  memset(a, 'a', 1000000);
  check_msg(a, 1000000, 0, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
            "million a");
  check_msg(a, 1000000, 997, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
            "million a, streamed");
  free(a);
}

/* "abc" padded by hand into one block, through the bare compression function. */
static void test_compress(void) {
  uint8_t block[64] = {'a', 'b', 'c', 0x80};
  block[63] = 24; /* bit length */
  uint32_t st[8];
  uint8_t d[32];
  cuzk_sha256_init_state(st);
  cuzk_sha256_compress(st, block);
  cuzk_sha256_state_to_digest(d, st);
  check_digest(d, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "compress");
}

/* Portable vs SHA-NI on the same random inputs; returns without checks if SHA-NI is absent. */
static void test_cross(void) {
#if defined(__x86_64__)
  if (!cuzk_sha256_impl_supported(CUZK_SHA256_SHANI)) {
    printf("test_sha256: no SHA-NI on this CPU, cross-check skipped\n");
    return;
  }
  uint8_t buf[4 * 64 + 300];
  unsigned bad = 0;
  for (int iter = 0; iter < 2000; iter++) {
    uint32_t s0[8], s1[8];
    for (int i = 0; i < 8; i++)
      s0[i] = s1[i] = (uint32_t)rng_next(&seed);
    size_t nb = 1 + rng_next(&seed) % 4;
    for (size_t i = 0; i < nb * 64; i++)
      buf[i] = (uint8_t)rng_next(&seed);
    cuzk_sha256_blocks_portable(s0, buf, nb);
    cuzk_sha256_blocks_shani(s1, buf, nb);
    bad += memcmp(s0, s1, sizeof s0) != 0;
  }
  CHECK_MSG(bad == 0, "%u of 2000 random compressions differ", bad);

  /* whole hashes of every length 0..300 (all padding cases), one-shot under each kernel */
  bad = 0;
  for (size_t len = 0; len <= 300; len++) {
    for (size_t i = 0; i < len; i++)
      buf[i] = (uint8_t)rng_next(&seed);
    uint8_t d0[32], d1[32];
    cuzk_sha256_use_impl(CUZK_SHA256_PORTABLE);
    cuzk_sha256(d0, buf, len);
    cuzk_sha256_use_impl(CUZK_SHA256_SHANI);
    cuzk_sha256(d1, buf, len);
    bad += memcmp(d0, d1, 32) != 0;
  }
  CHECK_MSG(bad == 0, "%u lengths hash differently on the two kernels", bad);
#endif
}

/* Streaming with random split points equals one-shot (active kernel). */
static void test_streaming(void) {
  uint8_t msg[1248]; /* the size of an SDR label preimage */
  unsigned bad = 0;
  for (int iter = 0; iter < 200; iter++) {
    size_t len = rng_next(&seed) % (sizeof msg + 1);
    for (size_t i = 0; i < len; i++)
      msg[i] = (uint8_t)rng_next(&seed);
    uint8_t d0[32], d1[32];
    cuzk_sha256(d0, msg, len);
    cuzk_sha256_ctx ctx;
    cuzk_sha256_init(&ctx);
    for (size_t o = 0; o < len;) {
      size_t n = rng_next(&seed) % 150;
      if (n > len - o) n = len - o;
      cuzk_sha256_update(&ctx, msg + o, n);
      o += n;
    }
    cuzk_sha256_final(&ctx, d1);
    bad += memcmp(d0, d1, 32) != 0;
  }
  CHECK_MSG(bad == 0, "%u of 200 streamed hashes differ from one-shot", bad);
}

/* docs/spec/sdr-vanilla.md §3.4: Z_0 = 0^32, Z_{k+1} = trunc254(SHA-256(Z_k || Z_k)); the table
 * there, byte 0 first (levels 0-17 also equal supraseal's tree_d_cc_nodes.h; 2 and 6 are
 * filecoin-proofs' empty comm_d for 128 B and 2 KiB sectors). */
static void test_trunc254(void) {
  static const char *z[] = {
      "0000000000000000000000000000000000000000000000000000000000000000",
      "f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb0b",
      "3731bb99ac689f66eef5973e4a94da188f4ddcae580724fc6f3fd60dfd488333",
      "642a607ef886b004bf2c1978463ae1d4693ac0f410eb2d1b7a47fe205e5e750f",
      "57a2381a28652bf47f6bef7aca679be4aede5871ab5cf3eb2c08114488cb8526",
      "1f7ac9595510e09ea41c460b176430bb322cd6fb412ec57cb17d989a4310372f",
      "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833",
      "08c47b38ee13bc43f41b915c0eed9911a26086b3ed62401bf9d58b8d19dff624",
      "b2e47bfb11facd941f62af5c750f3ea5cc4df517d5c4f16db2b4d77baec1a32f",
      "f9226160c8f927bfdcc418cdf203493146008eaefb7d02194d5e548189005108",
      "2c1a964bb90b59ebfe0f6da29ad65ae3e417724a8f7c11745a40cac1e5e74011",
      "fee378cef16404b199ede0b13e11b624ff9d784fbbed878d83297e795e024f02",
      "8e9e2403fa884cf6237f60df25f83ee40dca9ed879eb6f6352d15084f5ad0d3f",
      "752d9693fa167524395476e317a98580f00947afb7a30540d625a9291cc12a07",
      "7022f60f7ef6adfa17117a52619e30cea82c68075adf1c667786ec506eef2d19",
      "d99887b973573a96e11393645236c17b1f4c7034d723c7a99f709bb4da61162b",
      "d0b530dbb0b4f25c5d2f2a28dfee808b53412a02931f18c499f5a254086b1326",
      "84c0421ba0685a01bf795a2344064fe424bd52a9d24377b394ff4c4b4568e811",
      "65f29e5d98d246c38b388cfc06db1f6b021303c5a289000bdce832a9c3ec421c",
      "a2247508285850965b7e334b3127b0c042b1d046dc54402137627cd8799ce13a",
      "dafdab6da9364453c26d33726b9fefe343be8f81649ec009aad3faff50617508",
      "d941d5e0d6314a995c33ffbd4fbe69118d73d4e5fd2cd31f0f7c86ebdd14e706",
      "514c435c3d04d349a5365fbd59ffc713629111785991c1a3c53af22079741a2f",
      "ad06853969d37d34ff08e09f56930a4ad19a89def60cbfee7e1d3381c1e71c37",
  };
  uint8_t node[64] = {0}, out[32];
  for (size_t k = 1; k < sizeof z / sizeof z[0]; k++) {
    memcpy(node + 32, node, 32);
    cuzk_sha256_trunc254(out, node, 64);
    char what[32];
    snprintf(what, sizeof what, "Z_%zu", k);
    check_digest(out, z[k], what);
    memcpy(node, out, 32);
  }
  /* the Fr conversion reads the truncated digest little-endian */
  uint8_t d[32], back[32];
  memset(d, 0xff, 32);
  cuzk_fr f;
  cuzk_sha256_digest_to_fr(&f, d);
  cuzk_fr_to_bytes(back, &f);
  d[31] = 0x3f;
  CHECK(!memcmp(back, d, 32));
}

int main(void) {
  test_constants();
  cuzk_sha256_impl impls[] = {CUZK_SHA256_PORTABLE, CUZK_SHA256_SHANI};
  CHECK(cuzk_sha256_impl_supported(CUZK_SHA256_PORTABLE));
  for (int i = 0; i < 2; i++) {
    if (!cuzk_sha256_use_impl(impls[i])) {
      printf("test_sha256: kernel %d not supported here, skipped\n", (int)impls[i]);
      continue;
    }
    CHECK(cuzk_sha256_active_impl() == impls[i]);
    test_nist();
    test_compress();
    test_streaming();
    test_trunc254();
  }
  test_cross();
  return check_summary("test_sha256");
}
