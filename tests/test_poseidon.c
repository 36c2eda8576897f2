/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Poseidon tests (docs/poseidon.md; the values and section numbers are those of
 * docs/spec/poseidon.md):
 * - Grain round constants: neptune's reference file values (docs/spec/poseidon.md §3, t=9), the
 *   first/last constants of several widths, and a SHA-256 over all raw constants of every arity
 *   (§3);
 * - MDS entries (§4.1), the static form's compressed constants and matrices (§4.3), and SHA-256
 *   of the supraseal constants layout, canonical and Montgomery (§7.6), i.e. byte-equal files;
 * - the arity-2 trace of §4.2; every hash vector of §7.1, §7.2, §7.4, §7.5; the tags of §7.3;
 * - the reference and static permutations equal on random full states, for every arity;
 * - both field kernels, the byte interface, errors, and concurrent first use of the cache.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuzk/hashes/poseidon.h"
#include "cuzk/hashes/sha256.h"
#include "rng.h"

static uint64_t seed = 0x9053;
static const unsigned ARITIES[] = {2, 4, 8, 11, 16, 24, 36};
#define NARITIES (sizeof ARITIES / sizeof ARITIES[0])

static const cuzk_poseidon_params *params(unsigned arity) {
  const cuzk_poseidon_params *p = NULL;
  cuzk_hash_err e = cuzk_poseidon_params_get(&p, arity);
  if (e != CUZK_HASH_OK) {
    fprintf(stderr, "test_poseidon: params for arity %u: %s\n", arity, cuzk_hash_strerror(e));
    exit(2);
  }
  return p;
}

/* Fr from a big-endian hex integer ("0x" optional), as docs/spec/poseidon.md writes canonical
 * values. */
static cuzk_fr fr_hex(const char *hex) {
  if (hex[0] == '0' && hex[1] == 'x') hex += 2;
  uint8_t be[32], le[32];
  cuzk_fr r = cuzk_fr_zero;
  if (from_hex(be, hex, 32) != 0) {
    fprintf(stderr, "test_poseidon: bad hex %s\n", hex);
    exit(2);
  }
  for (int i = 0; i < 32; i++)
    le[i] = be[31 - i];
  if (!cuzk_fr_from_bytes(&r, le)) {
    fprintf(stderr, "test_poseidon: %s >= r\n", hex);
    exit(2);
  }
  return r;
}

static void fr_to_hex(char out[65], const cuzk_fr *a) {
  uint8_t le[32], be[32];
  cuzk_fr_to_bytes(le, a);
  for (int i = 0; i < 32; i++)
    be[i] = le[31 - i];
  to_hex(out, be, 32);
}

static void check_fr(const cuzk_fr *a, const char *hex, const char *what, int line) {
  cuzk_fr want = fr_hex(hex);
  char got[65];
  fr_to_hex(got, a);
  CHECK_MSG(cuzk_fr_eq(a, &want), "line %d, %s: got 0x%s want %s", line, what, got, hex);
}
#define CHECK_FR(a, hex, ...)                   \
  do {                                          \
    char what_[96];                             \
    snprintf(what_, sizeof what_, __VA_ARGS__); \
    check_fr((a), (hex), what_, __LINE__);      \
  } while (0)

static cuzk_fr fr_u64(uint64_t v) {
  cuzk_fr r;
  cuzk_fr_from_u64(&r, v);
  return r;
}

/* SHA-256 of n elements as 32-byte canonical LE (canonical = true) or as the in-memory
 * Montgomery limbs, which on little-endian x86-64 are supraseal's file bytes. */
static void sha_frs(cuzk_sha256_ctx *ctx, const cuzk_fr *v, size_t n, bool canonical) {
  for (size_t i = 0; i < n; i++) {
    uint8_t b[32];
    if (canonical)
      cuzk_fr_to_bytes(b, &v[i]);
    else
      for (int j = 0; j < 32; j++)
        b[j] = (uint8_t)(v[i].l[j / 8] >> (8 * (j % 8)));
    cuzk_sha256_update(ctx, b, 32);
  }
}

static void check_sha_hex(const uint8_t d[32], const char *hex, const char *what, unsigned arity) {
  char got[65];
  to_hex(got, d, 32);
  CHECK_MSG(!strcmp(got, hex), "%s arity %u: got %s want %s", what, arity, got, hex);
}

/* ---- docs/spec/poseidon.md §3 round constants ------------------------------------------------ */
static void test_round_constants(void) {
  const cuzk_poseidon_params *p2 = params(2), *p4 = params(4), *p8 = params(8), *p11 = params(11);
  CHECK(p8->width == 9 && p8->full_rounds == 8 && p8->partial_rounds == 57);
  /* docs/spec/poseidon.md §3: neptune's reference file round_constants-1-1-255-9-8-57-<p>.txt,
   * first three */
  CHECK_FR(&p8->round_constants[0],
           "0x6ce90d12c4045fe08c3caddb776dd84ac52b4ae7e48cd49443984154f2f4c2f9", "t=9 RC[0]");
  CHECK_FR(&p8->round_constants[1],
           "0x0ccd9b480c84022b25a75b52c8e89d80b4fa6378d32e58f3a175504940bcec39", "t=9 RC[1]");
  CHECK_FR(&p8->round_constants[2],
           "0x513ad11016ab7bb8c7ce9ae51256040e062487edf7168d206ba1b86dfe963629", "t=9 RC[2]");
  /* docs/spec/poseidon.md §3: arity 2 RC[0..6) and RC[188] */
  static const char *rc2[] = {
      "0x669f064bfa3ae17a23bd51861dbb4a24501eac92a2758b36a7320a009d6ed3d8",
      "0x0a61a8defbacca36e4537ff2c84fa66ceee67c9645ac27346e72ab842b9d3f15",
      "0x21e9cefa24b89d09f91b1e8a45df275b17292b4e1aaa49301e234771128165d5",
      "0x4e2377d2f5cb43b2b56e1026a391be2d5e4ebc5102b7e51dc161d2b03886ee3d",
      "0x02255d26879b6d0d49762a88d8d5d0879f01a3b06fa57c240a8119099cb02ea3",
      "0x27aa46e0263ddc662845f98eb5db8645f2e8baeec680ddfc16f4dd3d288d8c5b",
  };
  for (int i = 0; i < 6; i++)
    CHECK_FR(&p2->round_constants[i], rc2[i], "arity 2 RC[%d]", i);
  CHECK_FR(&p2->round_constants[188],
           "0x60dfbfa5d5dd06351a917a05466e5884ed12e38ec24d5bb80be0abe065395e5c", "arity 2 RC[188]");
  /* docs/spec/poseidon.md §3: arity 4 and 11, RC[0..3) */
  CHECK_FR(&p4->round_constants[0],
           "0x45c919736a0e5f2ef32c4c7d0a338eb1fed3d9e317b7580921072285c7e215ca", "a4 RC[0]");
  CHECK_FR(&p4->round_constants[1],
           "0x3c8b831256b341d54b67d50f8fc3809ba701dafba05b89a271029f031d96cabc", "a4 RC[1]");
  CHECK_FR(&p4->round_constants[2],
           "0x167a20b0469ec356267695fc87eaa379ab9d3e169b61fc293bb22da2a5c0c551", "a4 RC[2]");
  CHECK_FR(&p11->round_constants[0],
           "0x1f6c9576e648b5047399bfc5f38902e0d506f18e0f3ab77de6de096bd089bce4", "a11 RC[0]");
  CHECK_FR(&p11->round_constants[1],
           "0x06deba7028df3debd71993e243a5a74768fdf04db7ede8b2258be924c8f08ca9", "a11 RC[1]");
  CHECK_FR(&p11->round_constants[2],
           "0x590cd6c13291cdfa85d9c68dc29a5aa033c58fd1f901e450cc6c5e5dfb02ac09", "a11 RC[2]");

  /* docs/spec/poseidon.md §3: SHA-256 of all (R_F+R_P)*t raw constants, canonical LE, per arity */
  static const char *sha_rc[] = {
      "cf4dfb7448132022e22b32e3dce6b125cb06329448f9e8d8fe53a71c73cbe6d4",
      "91e463d6553415b3901b9f26b2ad53e6298ac3e5ab0ef260d397bafe8bdde98e",
      "9a4a743575f0eaf285c93d73f8adaf4e7ef4042c2445b42bddaf1a64e5face72",
      "479dc0d71d694cd50d853dec0c94aeb37df2a69929eaa23b545a52b1226aec06",
      "e4a8a7bc7eaa2dcc61eff24e8e380e72d7c0bd9b144ff89bf8b68ed59a7551b4",
      "aadfb9e461401f0835742d9137416a8995ee512538d3d1edc062274126abb10c",
      "07e81763421dcab86a45eecc509fb88a011589dbe76955f64b2d219eb59b4079",
  };
  static const unsigned rp[] = {55, 56, 57, 57, 59, 59, 60};
  for (size_t a = 0; a < NARITIES; a++) {
    const cuzk_poseidon_params *p = params(ARITIES[a]);
    CHECK(p->arity == ARITIES[a] && p->width == ARITIES[a] + 1);
    CHECK(p->full_rounds == 8 && p->partial_rounds == rp[a]);
    cuzk_sha256_ctx ctx;
    uint8_t d[32];
    cuzk_sha256_init(&ctx);
    sha_frs(&ctx, p->round_constants, (size_t)(p->full_rounds + p->partial_rounds) * p->width,
            true);
    cuzk_sha256_final(&ctx, d);
    check_sha_hex(d, sha_rc[a], "SHA-256 of raw round constants", p->arity);
  }
}

/* ---- docs/spec/poseidon.md §4.1 MDS, §4.3 static constants, §7.6 supraseal layout ------------ */
static void test_matrices(void) {
  const cuzk_poseidon_params *p = params(2);
  const cuzk_fr *m = p->mds;
  /* docs/spec/poseidon.md §4.1, t = 3 */
  CHECK_FR(&m[0], "0x4d491a377113a8daccd13ab0066be558e27e6d5755543d54aaaaaaaa00000001", "1/3");
  CHECK_FR(&m[1], "0x56f23d7e5f361df6266b620607396203fece3b023ffec4ff3fffffff40000001", "1/4");
  CHECK_FR(&m[2], "0x458e97984c2b4b2b51ef819e6c2de803323e959b66656a65cccccccc33333334", "1/5");
  CHECK(cuzk_fr_eq(&m[3], &m[1]) && cuzk_fr_eq(&m[4], &m[2]) && cuzk_fr_eq(&m[6], &m[2]));
  CHECK_FR(&m[5], "0x609b60c54d5893118005895c0806deaf1b1e08ad2aa94ca9d555555480000001", "1/6");
  CHECK_FR(&m[8], "0x211f5460e751918257c7624b7077624aaa362edc49241a48db6db6db24924925", "1/7");
  /* docs/spec/poseidon.md §4.1: row 0 in Montgomery form as stored by supraseal (big-endian hex of
   * the limbs) */
  static const char *mont[] = {
      "2eb0c8399ccb80e7eeecb7fd521f62a8e4161ea9aaab36ab0000000055555555",
      "4000000000000000000000000000000000000000000000000000000000000000",
      "04d4237855c1011651e8dcc995bf433111b424cb999a419a0000000066666666",
  };
  for (int j = 0; j < 3; j++) {
    /* compared as 64-digit strings: the third value starts with a zero digit
     * (docs/spec/poseidon.md §4.1) */
    char got[65];
    uint8_t be[32];
    for (int i = 0; i < 32; i++)
      be[i] = (uint8_t)(m[j].l[(31 - i) / 8] >> (8 * ((31 - i) % 8)));
    to_hex(got, be, 32);
    CHECK_MSG(!strcmp(got, mont[j]), "Montgomery M[0][%d]: got %s want %s", j, got, mont[j]);
  }

  /* docs/spec/poseidon.md §4.3, t = 3: compressed constants */
  const cuzk_fr *c = p->compressed_constants;
  for (int i = 0; i < 3; i++)
    CHECK(cuzk_fr_eq(&c[i], &p->round_constants[i]));
  CHECK_FR(&c[3], "0x0bfc421d38531805382624c9d2d2d02b1f2f5590316c401b2f5f56ca2f12a0d1", "C[3]");
  CHECK_FR(&c[4], "0x13b0ae4a89035df0c3d3fcf4686942e8beccf44e15ef3bf5ffca19f35a8bc5c8", "C[4]");
  CHECK_FR(&c[5], "0x4b9addf98d64d0b4c1417481e426d040f1aac43c1fd12d20f83841b245aa3943", "C[5]");
  CHECK_FR(&c[15], "0x15ea0de59c6ae7c8b21fd309ef84aba77c2d8e8139c9c08f5cca2138d161fdfd", "C[15]");
  CHECK_FR(&c[78], "0x1c84e3e9450113a4b5489decd8dcc8b25f057797f37899354931a0eea88d7d5d", "C[78]");
  /* docs/spec/poseidon.md §4.3: pre-sparse row 0 */
  CHECK(cuzk_fr_eq(&p->pre_sparse[0], &m[0]));
  CHECK_FR(&p->pre_sparse[1], "0x69321c24c1cca37406c6aa610cf3eae4365bec86202785510ef2a763f5e42c3e",
           "P[0][1]");
  CHECK_FR(&p->pre_sparse[2], "0x0d90801cabee4bb8d1fc3ae4f4fefac93b1105ad4e18f2907e485df9b0d18295",
           "P[0][2]");
  /* docs/spec/poseidon.md §4.3: last sparse matrix S[54]: w_hat = (1/3, 3, -21/10),
   * v_rest = (1/4, 1/5) */
  const cuzk_fr *s54 = &p->sparse[54 * 5];
  cuzk_fr x, ten = fr_u64(10), three = fr_u64(3);
  CHECK(cuzk_fr_eq(&s54[0], &m[0]));
  CHECK(cuzk_fr_eq(&s54[1], &three));
  cuzk_fr_inv(&x, &ten);
  cuzk_fr y = fr_u64(21);
  cuzk_fr_mul(&x, &x, &y);
  cuzk_fr_neg(&x, &x);
  CHECK(cuzk_fr_eq(&s54[2], &x));
  CHECK(cuzk_fr_eq(&s54[3], &m[1]) && cuzk_fr_eq(&s54[4], &m[2]));

  /* docs/spec/poseidon.md §7.6: SHA-256 of C || M || P || sparse, canonical LE and as shipped
   * (Montgomery) */
  static const char *sha_canon[] = {
      "fc71c797c2fd445f511fce65625312bbcfd6cd6efb8e6f81d36be0317ed44727",
      "cfb0245dfc2424697dc1038c47bfe6a9826e8777d380787b011ac38878110667",
      "4a7eacdb40d5de8deea941af668547a3b4ad261f47bc3886deba3a0ad0ae8621",
      "0ec8f8f08d5d2e4721134043c6506446ae75ab01b14bcf8b19898ec1d942b150",
      "58946e276969e216e5719324b2f32c4e8648b9956788ee9889b4ab74d7f2c7e1",
      "6f0e8f313d074ca3b5256b10e5ad75e2cea010934438fa3e6fae8aeed3af7c6d",
      "cdbefc5772e987247f15b42b2e4f554aa64a93b2dcdbe1caf8c386e1bb833ca3",
  };
  static const char *sha_mont[] = {
      "c41d7cd3b2ba28ae887a38f81bac9351270f005400748d37210c9b566f9da416",
      "6509aff40161052b84d6401c4887e7fca124bd92cfd479c2e45e1bc1126b9d92",
      "b814f78a11c131128fb62e1b0bd517f8c8d10ecabaf6acdfde5294e867f9f404",
      "1826150ebfe44dcc63e146d1379e8bb9b877b0f67bb7fa0377f984429fac3682",
      "614f189bf44ff209389c48b5acc525c21df9b35042bdd2ff7718f1d4541a8921",
      "63617d9ce27fe7d44cef3cd27ba141eacec20412ac4e50785f778ff71320c420",
      "c0fe6022799f978f99e63223d0fc3d8247d0c5858a90ee051e9b6c77702149b8",
  };
  for (size_t a = 0; a < NARITIES; a++) {
    const cuzk_poseidon_params *q = params(ARITIES[a]);
    size_t t = q->width;
    for (int canonical = 0; canonical < 2; canonical++) {
      cuzk_sha256_ctx ctx;
      uint8_t d[32];
      cuzk_sha256_init(&ctx);
      sha_frs(&ctx, q->compressed_constants, q->full_rounds * t + q->partial_rounds, canonical);
      sha_frs(&ctx, q->mds, t * t, canonical);
      sha_frs(&ctx, q->pre_sparse, t * t, canonical);
      sha_frs(&ctx, q->sparse, q->partial_rounds * (2 * t - 1), canonical);
      cuzk_sha256_final(&ctx, d);
      check_sha_hex(d, canonical ? sha_canon[a] : sha_mont[a],
                    canonical ? "supraseal layout, canonical" : "supraseal file (Montgomery)",
                    q->arity);
    }
  }
  /* M is symmetric and M * M^-1 = I is implied by the above; check symmetry directly too */
  for (size_t a = 0; a < NARITIES; a++) {
    const cuzk_poseidon_params *q = params(ARITIES[a]);
    bool sym = true;
    for (unsigned i = 0; i < q->width; i++)
      for (unsigned j = 0; j < q->width; j++)
        sym &= cuzk_fr_eq(&q->mds[i * q->width + j], &q->mds[j * q->width + i]);
    CHECK_MSG(sym, "MDS of arity %u not symmetric", q->arity);
  }
}

/* ---- docs/spec/poseidon.md §4.2 trace, arity 2, input (0, 1), tag 3 -------------------------- */
static void test_trace(void) {
  const cuzk_poseidon_params *p = params(2);
  /* round 0 by hand from the public constants, then the whole permutation both ways */
  cuzk_fr s[3] = {fr_u64(3), fr_u64(0), fr_u64(1)}, out[3];
  for (int i = 0; i < 3; i++)
    cuzk_fr_add(&s[i], &s[i], &p->round_constants[i]);
  CHECK_FR(&s[1], "0x0a61a8defbacca36e4537ff2c84fa66ceee67c9645ac27346e72ab842b9d3f15", "ARK s1");
  for (int i = 0; i < 3; i++) {
    uint64_t five = 5;
    cuzk_fr_pow(&s[i], &s[i], &five, 1);
  }
  CHECK_FR(&s[0], "0x525b987ca96141c5d28f51a43808fd02fc0251aa26f1825f9ddf6a2f9e94b7fc", "sbox s0");
  CHECK_FR(&s[1], "0x3cdc8ed4c21769310bd30013c990070414248fdcfa6c17067aa1e1c426810611", "sbox s1");
  CHECK_FR(&s[2], "0x1d3a16c935b7d82636690b2b5f4cac87b48185d51ea109f12a23edfc9393c626", "sbox s2");
  for (int i = 0; i < 3; i++) {
    out[i] = cuzk_fr_zero;
    for (int j = 0; j < 3; j++) {
      cuzk_fr x;
      cuzk_fr_mul(&x, &p->mds[i * 3 + j], &s[j]);
      cuzk_fr_add(&out[i], &out[i], &x);
    }
  }
  CHECK_FR(&out[0], "0x49a194ae5657d4768e0e9912e7041211827bd716f81c71cd3dd7fea22488fbcf", "mds s0");
  CHECK_FR(&out[1], "0x162d013e07c48155dfa49fe21a40eb46670431a040ed0dca0f8d26d4d4be036f", "mds s1");
  CHECK_FR(&out[2], "0x38bc7d7b98b2bb20c912a3cf7d2e28a6ec0a3578434f33ec11ce03df240dd80f", "mds s2");

  static const char *fin[] = {
      "0x40edcd192274693803974cf943dd52d528e9bef9dc61c8d102b50f5c1428d82d",
      "0x396508d75e76a56b739e0fd902efe161a6fba9339d05a69d2e203c369a02e7ff",
      "0x42affef69899076627858c2ca51b2ed0a980dd4616bf7db97088d3e65cac36f5",
  };
  cuzk_fr r[3] = {fr_u64(3), fr_u64(0), fr_u64(1)}, q[3];
  memcpy(q, r, sizeof r);
  cuzk_poseidon_permute_reference(p, r);
  cuzk_poseidon_permute(p, q);
  for (int i = 0; i < 3; i++) {
    CHECK_FR(&r[i], fin[i], "reference final s%d", i);
    CHECK_FR(&q[i], fin[i], "static final s%d", i);
  }
}

/* ---- docs/spec/poseidon.md §7.1 neptune hash_values: MerkleTree tag, inputs 0..a-1 ----------- */
static void test_merkle_vectors(void) {
  static const char *want[] = {
      "0x396508d75e76a56b739e0fd902efe161a6fba9339d05a69d2e203c369a02e7ff",
      "0x58a54b10a9e5848a00db3c6579229399fb6b4605bf1327ec019814ff6662075d",
      "0x2394611da3a5de5512010042116770774b682e9d9cc4aed92a9934f56d38a5e6",
      "0x0c0fc1b2e5227f286ca537e232ebe87a09f3dcd8ccb08fc1cee3bbc32b693163",
      "0x2d3ae2663381ae8ac1c2fb5a6f871e635b8dbc6d30680a6f1291c74060266d37",
      "0x63beb8831f11ae15066f39bf783f3d9fc3e779f6468815b1d7ef3569f585b321",
      "0x699303082a6e5d5f540a30e03c10bbaa75cd368df8a8ac3c4473606dfa4e8140",
  };
  static const char *want_le[] = {
      "ffe7029a363c202e9da6059d33a9fba661e1ef02d90f9e736ba5765ed7086539",
      "5d076266ff149801ec2713bf05466bfb99932279653cdb008a84e5a9104ba558",
      "e6a5386df534992ad9aec49c9d2e684b777067114200011255dea5a31d619423",
      "6331692bc3bbe3cec18fb0ccd8dcf3097ae8eb32e237a56c287f22e5b2c10f0c",
      "376d266040c791126f0a68306dbc8d5b631e876f5afbc2c18aae813366e23a2d",
      "21b385f56935efd7b1158846f679e7c39f3d3f78bf396f0615ae111f83b8be63",
      "40814efa6d6073443caca8f88d36cd75aabb103ce0300a545f5d6e2a08039369",
  };
  for (size_t a = 0; a < NARITIES; a++) {
    unsigned ar = ARITIES[a];
    const cuzk_poseidon_params *p = params(ar);
    cuzk_fr in[CUZK_POSEIDON_MAX_ARITY], h, href;
    uint8_t bytes[CUZK_POSEIDON_MAX_ARITY * 32], out[32];
    for (unsigned i = 0; i < ar; i++) {
      in[i] = fr_u64(i);
      cuzk_fr_to_bytes(bytes + 32 * i, &in[i]);
    }
    CHECK(cuzk_poseidon_hash(&h, ar, in) == CUZK_HASH_OK);
    CHECK_FR(&h, want[a], "docs/spec/poseidon.md §7.1 arity %u", ar);
    cuzk_poseidon_hash_tagged_reference(&href, p, &p->merkle_tag, in);
    CHECK_FR(&href, want[a], "docs/spec/poseidon.md §7.1 arity %u, reference permutation", ar);
    CHECK(cuzk_poseidon_hash_bytes(out, ar, bytes) == CUZK_HASH_OK);
    check_sha_hex(out, want_le[a], "docs/spec/poseidon.md §7.1 LE bytes", ar);
  }
}

/* ---- docs/spec/poseidon.md §7.2 sponge: tag 4*2^64, absorb 0,1,2,3, squeeze one ------------- */
static void test_sponge_vectors(void) {
  static const char *want[] = {
      "0x19e8a3fe6c2df9ffc923003920c488d47fb97ce0b8f663221e12d20d3b71ec56",
      "0x3a21a6ae86754a2939443980077d75934984de08542c99778935b00a07909d45",
      "0x5c6de4b69de9d792cad8b9f8aeb1578f203e3c7c4a85c1f9370a94532f818897",
      "0x02550c3a2113c7caef841b6bf51a5a397d2807d793af9582e9b0cb7d6496f73b",
      "0x30ec6fa0fec08504275a6eb04a0ecb376b4493d5d40be9d36a1e563d359c1bdd",
      "0x327bdee6fa2b22b615ed0a6b8faba5aae2e556352af20f97c540772c5968a299",
      "0x626bdae6cad79307fe52151f29c50f9902ae71d3d04f0b327d89cddb70217dcd",
  };
  cuzk_fr in[4] = {fr_u64(0), fr_u64(1), fr_u64(2), fr_u64(3)};
  for (size_t a = 0; a < NARITIES; a++) {
    cuzk_fr h;
    CHECK(cuzk_poseidon_sponge_constant_length(&h, ARITIES[a], in, 4) == CUZK_HASH_OK);
    CHECK_FR(&h, want[a], "docs/spec/poseidon.md §7.2 arity %u", ARITIES[a]);
  }
}

/* ---- docs/spec/poseidon.md §7.3 domain tags -------------------------------------------------- */
static void check_tag(const cuzk_fr *tag, uint64_t l0, uint64_t l1, const char *what) {
  uint64_t x[4];
  cuzk_fr_to_canonical(x, tag);
  CHECK_MSG(x[0] == l0 && x[1] == l1 && x[2] == 0 && x[3] == 0, "%s tag", what);
}

static void test_tags(void) {
  cuzk_fr t;
  cuzk_poseidon_tag_merkle(&t, 8);
  check_tag(&t, 0xff, 0, "MerkleTree arity 8");
  for (size_t a = 0; a < NARITIES; a++) {
    cuzk_poseidon_tag_merkle(&t, ARITIES[a]);
    /* docs/spec/poseidon.md §5: arity 36 gives 0xfffffffff */
    check_tag(&t, ((uint64_t)1 << ARITIES[a]) - 1, 0, "MerkleTree");
    CHECK(cuzk_fr_eq(&t, &params(ARITIES[a])->merkle_tag));
  }
  for (uint64_t len = 1; len <= 14; len++) {
    cuzk_poseidon_tag_constant_length(&t, len);
    check_tag(&t, 0, len, "ConstantLength");
  }
  cuzk_poseidon_tag_encryption(&t);
  check_tag(&t, 0x100000000ULL, 0, "Encryption");
  for (unsigned id = 1; id <= 256; id++) {
    CHECK(cuzk_poseidon_tag_custom(&t, id) == CUZK_HASH_OK);
    check_tag(&t, (uint64_t)id * 0x10000000000ULL, 0, "Custom");
  }
  CHECK(cuzk_poseidon_tag_custom(&t, 0) == CUZK_HASH_EINVAL);
  CHECK(cuzk_poseidon_tag_custom(&t, 257) == CUZK_HASH_EINVAL);
}

/* ---- docs/spec/poseidon.md §7.4 rust-fil-proofs filecoin-hashers vectors --------------------- */
static void test_filecoin_vectors(void) {
  /* test_poseidon_hasher: binary tree over [1, 0, 0, 1] */
  cuzk_fr leaves[4] = {fr_u64(1), fr_u64(0), fr_u64(0), fr_u64(1)}, lvl[2], root;
  CHECK(cuzk_poseidon_hash(&lvl[0], 2, &leaves[0]) == CUZK_HASH_OK);
  CHECK(cuzk_poseidon_hash(&lvl[1], 2, &leaves[2]) == CUZK_HASH_OK);
  CHECK_FR(&lvl[0], "0x042f94ffbe786bc393c003cc74a24f26ec5907b3dc3094afb339ff6079800b5e", "node4");
  CHECK_FR(&lvl[1], "0x396508d75e76a56b739e0fd902efe161a6fba9339d05a69d2e203c369a02e7ff", "node5");
  CHECK(cuzk_poseidon_hash(&root, 2, lvl) == CUZK_HASH_OK);
  CHECK_FR(&root, "0x1effebb7b26ad9eb30eb6385ae6b74ae77cc72b8cb2b5ad2efbb8be3e291e671", "root");
  uint8_t lb[64], ob[32];
  cuzk_fr_to_bytes(lb, &leaves[0]);
  cuzk_fr_to_bytes(lb + 32, &leaves[1]);
  CHECK(cuzk_poseidon_hash_bytes(ob, 2, lb) == CUZK_HASH_OK);
  check_sha_hex(ob, "5e0b807960ff39b3af9430dcb30759ec264fa274cc03c093c36b78beff942f04", "node4 LE",
                2);

  /* test_hash_md: 71 ones; acc = x0, then hash(acc, next 35, zero-padded) per chunk
   * (docs/spec/poseidon.md §5) */
  cuzk_fr one = cuzk_fr_one, acc = one, blk[36];
  size_t left = 70;
  while (left > 0) {
    size_t n = left < 35 ? left : 35;
    blk[0] = acc;
    for (size_t i = 0; i < 35; i++)
      blk[1 + i] = i < n ? one : cuzk_fr_zero;
    CHECK(cuzk_poseidon_hash(&acc, 36, blk) == CUZK_HASH_OK);
    left -= n;
  }
  CHECK_FR(&acc, "0x59f42220e09ff6f75fd9623643ed9622c26f6d625f4e8195351c54133b332c90", "hash_md");
}

/* ---- docs/spec/poseidon.md §7.5 derived vectors ---------------------------------------------- */
static void test_derived_vectors(void) {
  cuzk_fr in[11], h, pm1;
  cuzk_fr_neg(&pm1, &cuzk_fr_one);
  in[0] = in[1] = cuzk_fr_zero;
  cuzk_poseidon_hash(&h, 2, in);
  CHECK_FR(&h, "0x48fe0b1331196f6cdb33a7c6e5af61b76fd388e1ef1d3d418be5147f0e4613d4", "H2(0,0)");
  in[0] = fr_u64(1), in[1] = fr_u64(2);
  cuzk_poseidon_hash(&h, 2, in);
  CHECK_FR(&h, "0x6d6f8106657f1f4d7babcbaf436a9d7669c04e726e5896d89317d9833e5fa9be", "H2(1,2)");
  in[0] = in[1] = pm1;
  cuzk_poseidon_hash(&h, 2, in);
  CHECK_FR(&h, "0x064c823cac06326cdbcb70cbcc8d24c89c0d9149d7b7242bf9ef25c94e5823db", "H2(-1,-1)");
  for (int i = 0; i < 11; i++)
    in[i] = cuzk_fr_zero;
  cuzk_poseidon_hash(&h, 8, in);
  CHECK_FR(&h, "0x3f79e614b63889f904a036088bc029f5337c0be60db389d13482b431caff9b3a", "H8(0)");
  cuzk_poseidon_hash(&h, 11, in);
  CHECK_FR(&h, "0x441f2dea348692cf18215eb61da1681b69d57e70108853c985c8b7d1c14ffe94", "H11(0)");
  for (int i = 0; i < 11; i++)
    in[i] = cuzk_fr_one;
  cuzk_poseidon_hash(&h, 11, in);
  CHECK_FR(&h, "0x08d5374b64bc5087fd0ad82c65bf61a3b89e1c84d7124bd7ddfc407e2dd10251", "H11(1)");
  for (int i = 0; i < 11; i++)
    in[i] = fr_u64((uint64_t)i + 1);
  cuzk_poseidon_hash(&h, 11, in);
  CHECK_FR(&h, "0x04817ecd0e80961686791eaf49dabcca4c6f52adad43dff41c611158e92280bd", "H11(1..11)");
  /* SnapDeals: arity 2 with the Custom(1) tag 2^40 */
  const cuzk_poseidon_params *p = params(2);
  cuzk_fr tag;
  cuzk_poseidon_tag_custom(&tag, 1);
  in[0] = in[1] = cuzk_fr_zero;
  cuzk_poseidon_hash_tagged(&h, p, &tag, in);
  CHECK_FR(&h, "0x2378125c8da03c26753fb1b88e0e51952e811cc365e44bc06c4fc1b9a38df1b3", "snap(0,0)");
  in[1] = cuzk_fr_one;
  cuzk_poseidon_hash_tagged(&h, p, &tag, in);
  CHECK_FR(&h, "0x314a35c4e7f0924ead1fc58134a0fe25e3580bea397367c7e5a74ec4bc077758", "snap(0,1)");
}

/* ---- reference == static on random full states; hash_many; errors ---------------------------- */
static void test_random_equivalence(void) {
  for (size_t a = 0; a < NARITIES; a++) {
    const cuzk_poseidon_params *p = params(ARITIES[a]);
    unsigned bad = 0, reps = p->arity > 16 ? 4 : 20;
    for (unsigned rep = 0; rep < reps; rep++) {
      cuzk_fr s[CUZK_POSEIDON_MAX_WIDTH], q[CUZK_POSEIDON_MAX_WIDTH];
      for (unsigned i = 0; i < p->width; i++)
        rng_fr(&seed, &s[i]);
      memcpy(q, s, p->width * sizeof(cuzk_fr));
      cuzk_poseidon_permute_reference(p, s);
      cuzk_poseidon_permute(p, q);
      bad += memcmp(s, q, p->width * sizeof(cuzk_fr)) != 0;
    }
    CHECK_MSG(bad == 0, "arity %u: %u of %u random states permute differently", p->arity, bad,
              reps);

    enum { N = 5 };
    cuzk_fr in[N * CUZK_POSEIDON_MAX_ARITY], out[N], tag, one;
    rng_fr(&seed, &tag);
    for (size_t i = 0; i < N * p->arity; i++)
      rng_fr(&seed, &in[i]);
    cuzk_poseidon_hash_many(out, p, &tag, in, N);
    for (size_t k = 0; k < N; k++) {
      cuzk_poseidon_hash_tagged_reference(&one, p, &tag, &in[k * p->arity]);
      CHECK_MSG(cuzk_fr_eq(&one, &out[k]), "arity %u hash_many[%zu]", p->arity, k);
    }
  }
}

static void test_errors(void) {
  const cuzk_poseidon_params *p;
  cuzk_fr in[3] = {cuzk_fr_zero, cuzk_fr_zero, cuzk_fr_zero}, h;
  CHECK(cuzk_poseidon_params_get(&p, 3) == CUZK_HASH_EARITY);
  CHECK(cuzk_poseidon_params_get(NULL, 2) == CUZK_HASH_EINVAL);
  CHECK(!cuzk_poseidon_arity_supported(0) && !cuzk_poseidon_arity_supported(37));
  CHECK(cuzk_poseidon_arity_supported(11));
  CHECK(cuzk_poseidon_hash(&h, 3, in) == CUZK_HASH_EARITY);
  CHECK(cuzk_poseidon_hash(NULL, 2, in) == CUZK_HASH_EINVAL);
  CHECK(cuzk_poseidon_sponge_constant_length(&h, 2, in, 0) == CUZK_HASH_EINVAL);
  /* r itself in the second input is not canonical: rejected, never reduced
   * (docs/spec/poseidon.md §1) */
  uint8_t bytes[64] = {0}, out[32];
  static const uint64_t r[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL,
                                0x73eda753299d7d48ULL};
  for (int j = 0; j < 32; j++)
    bytes[32 + j] = (uint8_t)(r[j / 8] >> (8 * (j % 8)));
  CHECK(cuzk_poseidon_hash_bytes(out, 2, bytes) == CUZK_HASH_ENONCANON);
  bytes[32] -= 1; /* r - 1 is fine */
  CHECK(cuzk_poseidon_hash_bytes(out, 2, bytes) == CUZK_HASH_OK);
  const char *s[] = {
      cuzk_hash_strerror(CUZK_HASH_OK),        cuzk_hash_strerror(CUZK_HASH_EINVAL),
      cuzk_hash_strerror(CUZK_HASH_EARITY),    cuzk_hash_strerror(CUZK_HASH_ENOMEM),
      cuzk_hash_strerror(CUZK_HASH_ENONCANON), cuzk_hash_strerror((cuzk_hash_err)99)};
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < i; j++)
      CHECK(s[i] && s[j] && strcmp(s[i], s[j]));
}

/* Threads race on the first use of every arity; all must see the same constants. Runs first,
 * while the cache is empty. */
static const cuzk_poseidon_params *seen[4][NARITIES];
static void *race(void *arg) {
  size_t id = (size_t)arg;
  for (size_t k = 0; k < NARITIES; k++) {
    size_t a = (k + id) % NARITIES; /* different orders */
    if (cuzk_poseidon_params_get(&seen[id][a], ARITIES[a]) != CUZK_HASH_OK) seen[id][a] = NULL;
  }
  return NULL;
}

static void test_concurrent_init(void) {
  pthread_t th[4];
  for (size_t i = 0; i < 4; i++)
    CHECK(pthread_create(&th[i], NULL, race, (void *)i) == 0);
  for (size_t i = 0; i < 4; i++)
    pthread_join(th[i], NULL);
  for (size_t a = 0; a < NARITIES; a++)
    for (size_t i = 0; i < 4; i++)
      CHECK(seen[i][a] != NULL && seen[i][a] == seen[0][a]);
}

int main(void) {
  test_concurrent_init();
  test_round_constants();
  test_matrices();
  test_tags();
  test_errors();
  /* hashes on every Montgomery kernel (they go through the kernel table directly) */
  cuzk_field_kernel kernels[] = {CUZK_KERNEL_PORTABLE, CUZK_KERNEL_ADX};
  for (int k = 0; k < 2; k++) {
    if (!cuzk_field_use_kernel(kernels[k])) continue;
    test_trace();
    test_merkle_vectors();
    test_sponge_vectors();
    test_filecoin_vectors();
    test_derived_vectors();
  }
  test_random_equivalence();
  return check_summary("test_poseidon");
}
