/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * PoRep foundation tests (docs/spec/sdr-vanilla.md §2-§4, §8, §11.1):
 * - the §2.1 table row by row (derived counts, tree shapes, depth, rows_to_discard rule) and the
 *   §2.2 registry (all 20 id <-> name round trips, api versions, features, porep_id of §2.3);
 * - rejection of unknown ids, names and sizes, and malformed size strings;
 * - Fr32: the fr32/src/reader.rs vectors, the size helpers, a bit-by-bit reference, pad -> unpad
 *   round trips of random data at awkward lengths and offsets;
 * - comm_d: the zero-commitment table against the hashed chain, comm_d of zero 2KiB/8MiB buffers,
 *   tree_d layout, Curio's tree_d vectors (data 0x01 then zeros, 2KiB and 8MiB), the pool variants
 * against the serial ones, comm_d from pieces against comm_d of the assembled data, piece
 * alignment;
 * - replica_id and challenges on the seal regression records (v16/v18) and the hard-coded
 *   synthetic challenges of challenges.rs.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuzk/hashes/sha256.h"
#include "cuzk/porep/porep.h"
#include "cuzk/util/pool.h"
#include "rng.h"

static uint64_t seed = 0x90e9ba5e;

static void hex32(uint8_t out[32], const char *hex) {
  if (from_hex(out, hex, 32)) {
    fprintf(stderr, "bad hex in test: %s\n", hex);
    abort();
  }
}

static void check_hex(const uint8_t *got, size_t n, const char *want, const char *what) {
  char buf[2 * 64 + 1];
  to_hex(buf, got, n);
  CHECK_MSG(!strcmp(buf, want), "%s: got %s want %s", what, buf, want);
}

/* ---- docs/spec/sdr-vanilla.md §2.1 ----------------------------------------------------------- */
typedef struct {
  const char *name;
  uint64_t bytes, nodes;
  unsigned layers, parts, cpp, total, ni_parts, ni_cpp, ni_total;
  uint64_t synth;
  unsigned base, sub, top, trees;
  uint64_t leaves;
  unsigned depth, rtd;
  bool registered;
} sector_row;

/* docs/spec/sdr-vanilla.md §2.1, copied column by column. */
static const sector_row spec_sectors[] = {
    {"2KiB", 2048, 64, 2, 1, 2, 2, 13, 2, 26, 64, 8, 0, 0, 1, 64, 6, 1, true},
    {"4KiB", 4096, 128, 2, 1, 2, 2, 13, 2, 26, 128, 8, 2, 0, 2, 64, 7, 1, false},
    {"16KiB", 16384, 512, 2, 1, 2, 2, 13, 2, 26, 512, 8, 8, 0, 8, 64, 9, 1, false},
    {"32KiB", 32768, 1024, 2, 1, 2, 2, 13, 2, 26, 1024, 8, 8, 2, 16, 64, 10, 1, false},
    {"8MiB", 8388608, 262144, 2, 1, 2, 2, 13, 2, 26, 262144, 8, 0, 0, 1, 262144, 18, 2, true},
    {"16MiB", 16777216, 524288, 2, 1, 2, 2, 13, 2, 26, 262144, 8, 2, 0, 2, 262144, 19, 2, false},
    {"512MiB", 536870912, 16777216, 2, 1, 2, 2, 13, 2, 26, 262144, 8, 0, 0, 1, 16777216, 24, 2,
     true},
    {"1GiB", 1073741824, 33554432, 2, 1, 2, 2, 13, 2, 26, 262144, 8, 2, 0, 2, 16777216, 25, 2,
     false},
    {"32GiB", 34359738368ull, 1073741824, 11, 10, 18, 180, 126, 18, 2268, 262144, 8, 8, 0, 8,
     134217728, 30, 2, true},
    {"64GiB", 68719476736ull, 2147483648ull, 11, 10, 18, 180, 126, 18, 2268, 262144, 8, 8, 2, 16,
     134217728, 31, 2, true},
};

static unsigned log2u(uint64_t x) {
  unsigned l = 0;
  while (x > 1) {
    x >>= 1;
    l++;
  }
  return l;
}

static void test_sector_table(void) {
  CHECK(sizeof spec_sectors / sizeof spec_sectors[0] == CUZK_POREP_NUM_SECTOR_SIZES);
  CHECK(cuzk_sector_at(CUZK_POREP_NUM_SECTOR_SIZES) == NULL);
  for (size_t i = 0; i < CUZK_POREP_NUM_SECTOR_SIZES; i++) {
    const sector_row *w = &spec_sectors[i];
    const cuzk_sector_info *s = cuzk_sector_at(i);
    CHECK(s != NULL);
    if (!s) continue;
    CHECK_MSG(!strcmp(s->name, w->name), "row %zu: %s", i, s->name);
    CHECK_MSG(s->bytes == w->bytes && s->nodes == w->nodes && s->layers == w->layers, "%s",
              w->name);
    CHECK_MSG(s->partitions == w->parts && s->challenges_per_partition == w->cpp, "%s", w->name);
    CHECK_MSG(s->partitions * s->challenges_per_partition == w->total, "%s", w->name);
    CHECK_MSG(s->ni_partitions == w->ni_parts && s->ni_challenges_per_partition == w->ni_cpp, "%s",
              w->name);
    CHECK_MSG(s->ni_partitions * s->ni_challenges_per_partition == w->ni_total, "%s", w->name);
    CHECK_MSG(s->synth_challenges == w->synth, "%s", w->name);
    CHECK_MSG(s->base_arity == w->base && s->sub_arity == w->sub && s->top_arity == w->top, "%s",
              w->name);
    CHECK_MSG(s->base_trees == w->trees && s->leaves_per_base_tree == w->leaves, "%s", w->name);
    CHECK_MSG(s->tree_d_depth == w->depth && s->rows_to_discard == w->rtd, "%s", w->name);
    CHECK_MSG(s->registered == w->registered, "%s", w->name);
    /* derivations */
    CHECK(s->nodes * 32 == s->bytes);
    CHECK(s->tree_d_depth == log2u(s->nodes) && (UINT64_C(1) << s->tree_d_depth) == s->nodes);
    CHECK(s->leaves_per_base_tree * s->base_trees == s->nodes);
    unsigned rows = 1; /* leaves are a power of 8; rows include leaves and root */
    for (uint64_t l = s->leaves_per_base_tree; l > 1; l /= 8)
      rows++;
    CHECK_MSG((UINT64_C(1) << 3 * (rows - 1)) == s->leaves_per_base_tree, "%s", w->name);
    unsigned rtd = rows <= 2 ? 0 : rows == 3 ? 1 : (rows - 2 < 2 ? rows - 2 : 2);
    CHECK_MSG(s->rows_to_discard == rtd, "%s rows %u", w->name, rows);
    CHECK(s->challenges_per_partition <= CUZK_POREP_MAX_CHALLENGES_PER_PARTITION);
    CHECK(s->ni_challenges_per_partition <= CUZK_POREP_MAX_CHALLENGES_PER_PARTITION);
    CHECK(s->partitions * s->challenges_per_partition >= s->min_challenges);
    CHECK(s->ni_partitions * s->ni_challenges_per_partition >= s->ni_min_challenges);
    /* NI minimum = ceil(12.8 x interactive minimum) */
    CHECK(s->ni_min_challenges == (s->min_challenges * 128 + 9) / 10);
    /* lookups by bytes and by text */
    const cuzk_sector_info *t = NULL;
    CHECK(cuzk_sector_by_bytes(&t, w->bytes) == CUZK_POREP_OK && t == s);
    t = NULL;
    CHECK(cuzk_sector_parse(&t, w->name) == CUZK_POREP_OK && t == s);
    char num[32];
    snprintf(num, sizeof num, "%llu", (unsigned long long)w->bytes);
    t = NULL;
    CHECK(cuzk_sector_parse(&t, num) == CUZK_POREP_OK && t == s);
  }
}

/* ---- docs/spec/sdr-vanilla.md §2.2, §2.3 --------------------------------------------------------
 */
static void test_proof_table(void) {
  static const char *sizes[5] = {"2KiB", "8MiB", "512MiB", "32GiB", "64GiB"};
  static const char *suffix[4] = {"V1", "V1_1", "V1_1_Feat_SyntheticPoRep",
                                  "V1_2_Feat_NonInteractivePoRep"};
  static const char *api[4] = {"1.0.0", "1.1.0", "1.2.0", "1.2.0"};
  static const char *feat[4] = {"", "", "SyntheticPoRep", "NonInteractivePoRep"};
  CHECK(cuzk_seal_proof_at(CUZK_POREP_NUM_SEAL_PROOFS) == NULL);
  for (unsigned id = 0; id < CUZK_POREP_NUM_SEAL_PROOFS; id++) {
    unsigned grp = id / 5;
    char name[64];
    snprintf(name, sizeof name, "StackedDrg%s%s", sizes[id % 5], suffix[grp]);
    const cuzk_seal_proof *p = NULL, *q = NULL;
    CHECK(cuzk_seal_proof_by_id(&p, id) == CUZK_POREP_OK && p && p->id == id);
    if (!p) continue;
    CHECK(p == cuzk_seal_proof_at(id));
    CHECK_MSG(!strcmp(p->name, name), "id %u: %s want %s", id, p->name, name);
    CHECK(cuzk_seal_proof_by_name(&q, p->name) == CUZK_POREP_OK && q == p);
    CHECK_MSG(!strcmp(p->sector->name, sizes[id % 5]), "id %u", id);
    snprintf(name, sizeof name, "StackedDrg%sV1", sizes[id % 5]);
    CHECK_MSG(!strcmp(p->vanilla_variant, name), "id %u: variant %s", id, p->vanilla_variant);
    CHECK(!strcmp(cuzk_api_version_str(p->api), api[grp]));
    CHECK(!strcmp(cuzk_porep_feature_str(p->feature), feat[grp]));
    cuzk_challenge_kind k = cuzk_seal_proof_challenge_kind(p);
    CHECK(k == (grp == 2   ? CUZK_CHALLENGES_SYNTHETIC
                : grp == 3 ? CUZK_CHALLENGES_NON_INTERACTIVE
                           : CUZK_CHALLENGES_INTERACTIVE));
    bool big = p->sector->bytes >= (UINT64_C(32) << 30);
    unsigned parts = grp == 3 ? (big ? 126 : 13) : (big ? 10 : 1);
    CHECK(cuzk_seal_proof_partitions(p) == parts);
    CHECK(cuzk_seal_proof_challenges_per_partition(p) == (big ? 18u : 2u));
    uint8_t pid[32], want[32] = {(uint8_t)id};
    cuzk_seal_proof_porep_id(p, pid);
    CHECK(!memcmp(pid, want, 32));
  }
  /* docs/spec/sdr-vanilla.md §2.3 example */
  const cuzk_seal_proof *p = NULL;
  uint8_t pid[32];
  CHECK(cuzk_seal_proof_by_name(&p, "StackedDrg32GiBV1_1") == CUZK_POREP_OK);
  if (p) {
    cuzk_seal_proof_porep_id(p, pid);
    check_hex(pid, 32, "0800000000000000000000000000000000000000000000000000000000000000",
              "porep_id 32GiB V1_1");
  }
  cuzk_porep_id_make(pid, 0x0102030405060708ull, 0x1112131415161718ull);
  check_hex(pid, 32, "0807060504030201181716151413121100000000000000000000000000000000",
            "porep_id with nonce");
  /* default proof per size */
  static const uint64_t reg[5] = {2048, 8u << 20, 512u << 20, 32ull << 30, 64ull << 30};
  for (unsigned i = 0; i < 5; i++) {
    p = NULL;
    CHECK(cuzk_seal_proof_by_sector(&p, reg[i]) == CUZK_POREP_OK && p && p->id == 5 + i);
  }
}

static void test_rejections(void) {
  const cuzk_seal_proof *p = (const cuzk_seal_proof *)1;
  CHECK(cuzk_seal_proof_by_id(&p, 20) == CUZK_POREP_EPROOF && p == NULL);
  CHECK(cuzk_seal_proof_by_id(&p, UINT64_MAX) == CUZK_POREP_EPROOF);
  CHECK(cuzk_seal_proof_by_id(&p, UINT64_C(1) << 32) == CUZK_POREP_EPROOF);
  CHECK(cuzk_seal_proof_by_id(NULL, 0) == CUZK_POREP_EINVAL);
  static const char *bad_names[] = {
      "",
      "stackeddrg2kibv1",
      "StackedDrg2KiBV1 ",
      " StackedDrg2KiBV1",
      "StackedDrg2KiBV1_2",
      "StackedDrg4KiBV1_1",
      "StackedDrg32GiBV1_2_Feat_NiPoRep", /* go-state-types spelling, not the JSON one */
      "StackedDrg2KiBV1_1_Feat_SyntheticPoRe",
      "5",
  };
  for (size_t i = 0; i < sizeof bad_names / sizeof bad_names[0]; i++) {
    p = (const cuzk_seal_proof *)1;
    CHECK_MSG(cuzk_seal_proof_by_name(&p, bad_names[i]) == CUZK_POREP_EPROOF && p == NULL, "'%s'",
              bad_names[i]);
  }
  CHECK(cuzk_seal_proof_by_name(&p, NULL) == CUZK_POREP_EINVAL);
  CHECK(cuzk_seal_proof_by_sector(&p, 4096) == CUZK_POREP_ENOPROOF && p == NULL);
  CHECK(cuzk_seal_proof_by_sector(&p, 1u << 30) == CUZK_POREP_ENOPROOF);
  CHECK(cuzk_seal_proof_by_sector(&p, 3000) == CUZK_POREP_ESIZE);
  CHECK(cuzk_seal_proof_by_sector(&p, 0) == CUZK_POREP_ESIZE);

  const cuzk_sector_info *s = (const cuzk_sector_info *)1;
  static const uint64_t bad_sizes[] = {0,    32,   1024,       2047,         2049,
                                       3072, 8192, 4ull << 20, 128ull << 30, UINT64_MAX};
  for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; i++) {
    s = (const cuzk_sector_info *)1;
    CHECK(cuzk_sector_by_bytes(&s, bad_sizes[i]) == CUZK_POREP_ESIZE && s == NULL);
  }
  static const char *malformed[] = {"",
                                    "KiB",
                                    "2 KiB",
                                    "2KB",
                                    "2K",
                                    "-2KiB",
                                    "+2048",
                                    "0x800",
                                    "2KiBs",
                                    "2048 ",
                                    " 2048",
                                    "2.5KiB",
                                    "18446744073709551616",
                                    "17179869184GiB",
                                    "2kibb"};
  uint64_t v = 1;
  for (size_t i = 0; i < sizeof malformed / sizeof malformed[0]; i++) {
    v = 1;
    CHECK_MSG(cuzk_porep_parse_size(&v, malformed[i]) == CUZK_POREP_EINVAL && v == 0, "'%s'",
              malformed[i]);
    CHECK_MSG(cuzk_sector_parse(&s, malformed[i]) == CUZK_POREP_EINVAL && s == NULL, "'%s'",
              malformed[i]);
  }
  CHECK(cuzk_porep_parse_size(&v, NULL) == CUZK_POREP_EINVAL);
  CHECK(cuzk_porep_parse_size(&v, "18446744073709551615") == CUZK_POREP_OK && v == UINT64_MAX);
  CHECK(cuzk_porep_parse_size(&v, "16777215TiB") == CUZK_POREP_OK && v == 16777215ull << 40);
  CHECK(cuzk_porep_parse_size(&v, "2kib") == CUZK_POREP_OK && v == 2048);
  CHECK(cuzk_porep_parse_size(&v, "32GIB") == CUZK_POREP_OK && v == 32ull << 30);
  CHECK(cuzk_sector_parse(&s, "3KiB") == CUZK_POREP_ESIZE && s == NULL);
  CHECK(cuzk_sector_parse(&s, "1TiB") == CUZK_POREP_ESIZE);
  CHECK(cuzk_sector_parse(&s, "8mib") == CUZK_POREP_OK && s && s->bytes == 8u << 20);
  /* every error has its own text */
  for (int a = CUZK_POREP_OK; a <= CUZK_POREP_EFORMAT; a++) {
    const char *ta = cuzk_porep_strerror((cuzk_porep_err)a);
    CHECK(ta && *ta && strcmp(ta, "unknown porep error"));
    for (int b = a + 1; b <= CUZK_POREP_EFORMAT; b++)
      CHECK(strcmp(ta, cuzk_porep_strerror((cuzk_porep_err)b)));
  }
  CHECK(!strcmp(cuzk_porep_strerror((cuzk_porep_err)999), "unknown porep error"));
  CHECK(cuzk_api_version_str((cuzk_api_version)7) == NULL);
  CHECK(cuzk_seal_proof_partitions(NULL) == 0 &&
        cuzk_seal_proof_challenges_per_partition(NULL) == 0);
  CHECK(cuzk_porep_feature_str((cuzk_porep_feature)7) == NULL);
}

/* ---- Fr32 (docs/spec/sdr-vanilla.md §3.1) -------------------------------------------------------
 */
/* Bit-by-bit reference: unpadded bit i -> node i/254, bit i%254 of that node. */
static void ref_pad(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len) {
  memset(out, 0, out_len);
  for (uint64_t i = 0; i < 8 * (uint64_t)in_len; i++)
    if (in[i / 8] >> (i % 8) & 1) {
      uint64_t o = i / 254 * 256 + i % 254;
      out[o / 8] |= (uint8_t)(1u << (o % 8));
    }
}

static void test_fr32_vectors(void) {
  /* test_exotic */
  uint8_t src[68], out[128];
  for (int i = 0; i < 31; i++)
    src[i] = (uint8_t)(i + 1);
  src[31] = 0xff;
  for (int i = 0; i < 31; i++)
    src[32 + i] = (uint8_t)(i + 1);
  src[63] = 0xff;
  src[64] = src[65] = src[66] = 9;
  src[67] = 0xff;
  CHECK(cuzk_fr32_pad_output_len(68) == 96);
  CHECK(cuzk_fr32_pad(out, sizeof out, src, 68) == CUZK_POREP_OK);
  CHECK(out[31] == 63 && out[32] == 7);
  for (int i = 0; i < 30; i++)
    CHECK_MSG(out[33 + i] == (uint8_t)((i + 2) << 2), "exotic out[%d] = %u", 33 + i, out[33 + i]);
  CHECK(out[63] == 0x3c && out[64] == 0x9f && out[65] == 0x90 && out[66] == 0x90);
  CHECK(out[67] == 0xf0 && out[68] == 0x0f);
  /* test_simple_127 */
  uint8_t ff[127];
  memset(ff, 0xff, sizeof ff);
  CHECK(cuzk_fr32_pad_output_len(127) == 128);
  CHECK(cuzk_fr32_pad(out, 128, ff, 127) == CUZK_POREP_OK);
  CHECK(out[31] == 0x3f && out[32] == 0xff);
  for (int k = 0; k < 4; k++)
    CHECK(out[32 * k + 31] == 0x3f);
  /* test_simple_single: 32 x 0xff -> 64 bytes */
  CHECK(cuzk_fr32_pad_output_len(32) == 64);
  CHECK(cuzk_fr32_pad(out, 64, ff, 32) == CUZK_POREP_OK);
  CHECK(out[31] == 0x3f && out[32] == 0x03);
  for (int i = 33; i < 64; i++)
    CHECK(out[i] == 0);
  /* a short stream is zero-filled to one node: 30 bytes -> 32 */
  CHECK(cuzk_fr32_pad_output_len(30) == 32 && cuzk_fr32_pad_output_len(31) == 32);
  CHECK(cuzk_fr32_pad_output_len(0) == 0);
  CHECK(cuzk_fr32_pad(out, 31, ff, 30) == CUZK_POREP_EINVAL); /* output too small */
  CHECK(cuzk_fr32_pad(NULL, 32, ff, 30) == CUZK_POREP_EINVAL);
  CHECK(cuzk_fr32_pad(out, 32, NULL, 30) == CUZK_POREP_EINVAL);
  CHECK(cuzk_fr32_pad(NULL, 0, NULL, 0) == CUZK_POREP_OK);
  /* size helpers (docs/spec/sdr-vanilla.md §3.1 examples) */
  CHECK(cuzk_fr32_padded_size(127) == 128 && cuzk_fr32_unpadded_size(128) == 127);
  CHECK(cuzk_fr32_padded_size(2032) == 2048 && cuzk_fr32_unpadded_size(2048) == 2032);
  CHECK(cuzk_fr32_padded_size(34091302912ull) == 34359738368ull);
  CHECK(cuzk_fr32_unpadded_size(34359738368ull) == 34091302912ull);
  CHECK(cuzk_fr32_unpadded_size(68719476736ull) == 68182605824ull);
  for (uint64_t x = 0; x < 3000; x++) {
    uint64_t want = (8 * x / 254 * 256 + 8 * x % 254 + 7) / 8;
    CHECK_MSG(cuzk_fr32_padded_size(x) == want, "padded(%llu)", (unsigned long long)x);
    uint64_t wu = (8 * x / 256 * 254 + 8 * x % 256) / 8;
    CHECK_MSG(cuzk_fr32_unpadded_size(x) == wu, "unpadded(%llu)", (unsigned long long)x);
    CHECK(cuzk_fr32_pad_output_len(x) == (8 * x + 253) / 254 * 32);
  }
}

static void test_fr32_roundtrip(void) {
  size_t lens[128], nl = 0;
  static const size_t fixed[] = {1,   2,   30,  31,  32,  33,  63,  64,  65,   95,   96,   126,
                                 127, 128, 253, 254, 255, 256, 381, 508, 1000, 2032, 4064, 8191};
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
    lens[nl++] = fixed[i];
  for (size_t k = 2; k < 40 && nl + 3 <= 128; k += 5) {
    lens[nl++] = 127 * k - 1;
    lens[nl++] = 127 * k;
    lens[nl++] = 127 * k + 1;
  }
  uint8_t *in = malloc(8192), *pad = malloc(8192 * 2), *ref = malloc(8192 * 2),
          *back = malloc(8192);
  for (size_t t = 0; t < nl; t++) {
    size_t n = lens[t];
    for (size_t i = 0; i < n; i++)
      in[i] = (uint8_t)rng_next(&seed);
    size_t plen = (size_t)cuzk_fr32_pad_output_len(n);
    CHECK(cuzk_fr32_pad(pad, plen, in, n) == CUZK_POREP_OK);
    ref_pad(ref, plen, in, n);
    CHECK_MSG(!memcmp(pad, ref, plen), "pad(%zu) differs from the bit reference", n);
    for (size_t i = 31; i < plen; i += 32)
      CHECK(!(pad[i] & 0xc0));
    memset(back, 0xa5, n);
    CHECK(cuzk_fr32_unpad(back, n, pad, plen, 0) == CUZK_POREP_OK);
    CHECK_MSG(!memcmp(back, in, n), "round trip of %zu bytes", n);
    /* random slices at unpadded offsets */
    for (int r = 0; r < 4; r++) {
      size_t off = (size_t)(rng_next(&seed) % n), len = (size_t)(rng_next(&seed) % (n - off + 1));
      CHECK(cuzk_fr32_unpad(back, len, pad, plen, off) == CUZK_POREP_OK);
      CHECK_MSG(!memcmp(back, in + off, len), "slice %zu+%zu of %zu", off, len, n);
    }
    /* asking past the whole nodes fails; the stream's zero fill up to them is readable */
    size_t avail = (size_t)(plen / 32 * 254 / 8);
    CHECK(cuzk_fr32_unpad(back, 1, pad, plen, avail) == CUZK_POREP_EINVAL);
    CHECK(cuzk_fr32_unpad(back, avail - n + 1, pad, plen, n) == CUZK_POREP_EINVAL);
    if (avail > n) {
      CHECK(cuzk_fr32_unpad(back, avail - n, pad, plen, n) == CUZK_POREP_OK);
      bool zero = true;
      for (size_t i = 0; i < avail - n; i++)
        zero &= back[i] == 0;
      CHECK_MSG(zero, "zero fill after %zu bytes", n);
    }
  }
  /* bits 254, 255 of a node are ignored when unpadding */
  for (size_t i = 0; i < 127; i++)
    in[i] = (uint8_t)rng_next(&seed);
  CHECK(cuzk_fr32_pad(pad, 128, in, 127) == CUZK_POREP_OK);
  for (int k = 0; k < 4; k++)
    pad[32 * k + 31] |= 0xc0;
  CHECK(cuzk_fr32_unpad(back, 127, pad, 128, 0) == CUZK_POREP_OK && !memcmp(back, in, 127));
  CHECK(cuzk_fr32_unpad(NULL, 1, pad, 128, 0) == CUZK_POREP_EINVAL);
  CHECK(cuzk_fr32_unpad(back, 1, NULL, 128, 0) == CUZK_POREP_EINVAL);
  CHECK(cuzk_fr32_unpad(back, 1, pad, 128, UINT64_MAX) == CUZK_POREP_EINVAL);
  CHECK(cuzk_fr32_unpad(back, 32, pad, 32, 0) == CUZK_POREP_EINVAL); /* 31.75 bytes per node */
  CHECK(cuzk_fr32_unpad(back, 31, pad, 32, 0) == CUZK_POREP_OK);
  free(in);
  free(pad);
  free(ref);
  free(back);
}

/* ---- tree_d / comm_d (docs/spec/sdr-vanilla.md §3.3, §3.4) ----------------------------------- */
static const char *zero_hex[CUZK_POREP_ZERO_COMMITMENTS] = {
    [1] = "f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb0b",
    [2] = "3731bb99ac689f66eef5973e4a94da188f4ddcae580724fc6f3fd60dfd488333",
    [6] = "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833",
    [18] = "65f29e5d98d246c38b388cfc06db1f6b021303c5a289000bdce832a9c3ec421c",
    [24] = "39560e7b13a93b07a243fd2720ffa7cb3e1d2e505ab3629e79f46313512cda06",
    [30] = "077e5fde35c50a9303a55009e3498a4ebedff39c42b710b730d8ec7ac7afa63e",
    [31] = "e64005a6bfe3777953b8ad6ef93f0fca1049b2041654f2a411f7702799cece02",
};

static void test_zero_commitments(void) {
  uint8_t z[32] = {0}, t[32], pair[64];
  for (unsigned k = 0; k < CUZK_POREP_ZERO_COMMITMENTS; k++) {
    CHECK(cuzk_porep_zero_commitment(t, k) == CUZK_POREP_OK);
    CHECK_MSG(!memcmp(t, z, 32), "Z_%u from the table differs from the hashed chain", k);
    if (zero_hex[k]) check_hex(t, 32, zero_hex[k], "Z_k (docs/spec/sdr-vanilla.md §3.4)");
    CHECK(cuzk_porep_comm_d_zero(t, UINT64_C(32) << k) == CUZK_POREP_OK && !memcmp(t, z, 32));
    memcpy(pair, z, 32);
    memcpy(pair + 32, z, 32);
    cuzk_sha256_trunc254(z, pair, 64);
  }
  CHECK(cuzk_porep_zero_commitment(t, CUZK_POREP_ZERO_COMMITMENTS) == CUZK_POREP_EINVAL);
  CHECK(cuzk_porep_comm_d_zero(t, 0) == CUZK_POREP_EINVAL);
  CHECK(cuzk_porep_comm_d_zero(t, 16) == CUZK_POREP_EINVAL);
  CHECK(cuzk_porep_comm_d_zero(t, 3072) == CUZK_POREP_EINVAL);
  CHECK(cuzk_porep_comm_d_zero(t, 128ull << 30) == CUZK_POREP_EINVAL);
  /* test_compute_comm_d_empty */
  CHECK(cuzk_porep_comm_d_from_pieces(t, 2048, NULL, 0) == CUZK_POREP_OK);
  check_hex(t, 32, "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833",
            "empty comm_d 2048");
  CHECK(cuzk_porep_comm_d_from_pieces(t, 128, NULL, 0) == CUZK_POREP_OK);
  check_hex(t, 32, "3731bb99ac689f66eef5973e4a94da188f4ddcae580724fc6f3fd60dfd488333",
            "empty comm_d 128");
}

static void test_comm_d_zero_hashed(void) {
  static const uint64_t sizes[] = {2048, 8u << 20};
  uint8_t *zero = calloc(8u << 20, 1), a[32], b[32];
  for (size_t i = 0; i < 2; i++) {
    CHECK(cuzk_porep_comm_d(a, zero, sizes[i]) == CUZK_POREP_OK);
    CHECK(cuzk_porep_comm_d_zero(b, sizes[i]) == CUZK_POREP_OK);
    CHECK_MSG(!memcmp(a, b, 32), "hashed zero sector of %llu bytes", (unsigned long long)sizes[i]);
  }
  free(zero);
}

static void random_fr32_data(uint8_t *d, size_t len) {
  for (size_t i = 0; i < len; i++)
    d[i] = (uint8_t)rng_next(&seed);
  for (size_t i = 31; i < len; i += 32)
    d[i] &= 0x3f;
}

static void test_tree_d(void) {
  enum { LEN = 4096, N = LEN / 32 };
  uint8_t *data = malloc(LEN), *tree = malloc(2 * LEN), root[32], pair[64];
  random_fr32_data(data, LEN);
  CHECK(cuzk_porep_tree_d_bytes(LEN) == 2 * LEN - 32);
  CHECK(cuzk_porep_tree_d_build(tree, data, LEN) == CUZK_POREP_OK);
  CHECK(cuzk_porep_comm_d(root, data, LEN) == CUZK_POREP_OK);
  CHECK(!memcmp(tree + 2 * LEN - 64, root, 32));
  CHECK(!memcmp(tree, data, LEN));
  /* every parent in the stored layout */
  bool ok = true;
  uint64_t n = N;
  for (unsigned lvl = 0; n > 1; lvl++, n /= 2) {
    uint64_t lo = cuzk_porep_tree_d_level_start(N, lvl),
             hi = cuzk_porep_tree_d_level_start(N, lvl + 1);
    CHECK(hi - lo == n);
    for (uint64_t i = 0; i < n / 2; i++) {
      uint8_t h[32];
      memcpy(pair, tree + 32 * (lo + 2 * i), 64);
      cuzk_sha256_trunc254(h, pair, 64);
      ok &= !memcmp(h, tree + 32 * (hi + i), 32);
    }
  }
  CHECK(ok);
  CHECK(cuzk_porep_tree_d_level_start(N, 7) == 2 * N - 2);
  /* single node: the root is the node */
  CHECK(cuzk_porep_comm_d(root, data, 32) == CUZK_POREP_OK && !memcmp(root, data, 32));
  /* rejections */
  CHECK(cuzk_porep_comm_d(root, data, 0) == CUZK_POREP_EINVAL);
  CHECK(cuzk_porep_comm_d(root, data, 96) == CUZK_POREP_EINVAL);
  CHECK(cuzk_porep_comm_d(root, data, 16) == CUZK_POREP_EINVAL);
  CHECK(cuzk_porep_comm_d(root, NULL, 64) == CUZK_POREP_EINVAL);
  CHECK(cuzk_porep_tree_d_build(NULL, data, 64) == CUZK_POREP_EINVAL);
  data[32 * 77 + 31] |= 0x40;
  CHECK(cuzk_porep_comm_d(root, data, LEN) == CUZK_POREP_ENOTFR32);
  CHECK(cuzk_porep_tree_d_build(tree, data, LEN) == CUZK_POREP_ENOTFR32);
  free(data);
  free(tree);
}

/* Curio lib/proof/treed_build_test.go: data = 0x01 then zeros. Test2K's piece CID
 * baga6ea4seaqovgk4kr4eoifujh6jfmdqvw3m6zrvyjqzu6s6abkketui6jjoydi carries comm_d ea995c54…;
 * Test8MiB's tree file (first node of every level, byte offset in sc-02-data-tree-d.dat) ends in
 * the root of CID baga6ea4seaqcgqckrcapts6hea44xbqugwocqneekvyp5fizbo6u3e2biluckla, and
 * Test8MiBUnpad gets the same tree from the unpadded stream. */
static void test_tree_d_curio(void) {
  static const struct {
    uint64_t offset;
    const char *hex;
  } nodes[] = {
      {0x800000, "16abab341fb7f370e27e4dadcf81766dd0dfd0ae64469477bb2cf6614938b22f"},
      {0xc00000, "0dd6dae41c2f75550129594fb644e4a842cfafb316a2d59321e388fe84a1ec2f"},
      {0xe00000, "11b1c4800521d5e5834adeb3707c74159ff337b096163c9431167340e7b1171d"},
      {0xf00000, "ec6925559bcc52840a22385b2b6b35b45014500428f459fec123010fe7ef181c"},
      {0xf80000, "3dd2eb193ee2f0473487bf4b83aa3abda9c84efae5526d8afd612d5d9e3d7934"},
      {0xfc0000, "ea995c54784720b449fc92b070adb6cf6635c2619a7a5e0054a24e88f252ec0d"},
      {0xfe0000, "b997028b06d72e9607867958e15f8d07b7ae37ab29ab3fa9defec98eaa376e28"},
      {0xff0000, "a0c44f7ba44cd23c2ebf75987be898a5638073b2f911cfeece145a77580c6c12"},
      {0xff8000, "892d2b00a5c1541094ca65de213bbd45901415edd11017cd29f3ed757302a03f"},
      {0xffc000, "2248548bbaa58fe2db0b0718c1d7201fed64c78d7d228836b2a1b2f9420bef3c"},
      {0xffe000, "1c6a48083e174990efc056ecb144751de276d8a51c3d93d74c819248ab78cc30"},
      {0xfff000, "0ab426381b72cd3bb3e3c78218fe1f183b3a19dbc4d926943003cd01b6d18d0b"},
      {0xfff800, "160d87171be7aee420a35424cfdf4ffea2fd7b94588958f3451157fc398f3426"},
      {0xfffc00, "1f406011da08f809806397dc1c57b98783375a595dd681426c1ecdd43cabe33c"},
      {0xfffe00, "514edd2f6f8f6dfd54b0d1207bb706df85c5a3190eaf38723720c50756677f14"},
      {0xffff00, "5a1d847485a34b280893a9cfb28b544467128bebc022bddec104becab4f48131"},
      {0xffff80, "c5fbf3f94cc22b3c51adc1eaafe94ba09fb273f373d2101f120b11c68521662f"},
      {0xffffc0, "23404a8880f9cbc72039cb8614359c2834845570fe95190bbd4d934142e8252c"},
  };
  uint8_t *data = calloc(2048, 1), root[32];
  data[0] = 1;
  CHECK(cuzk_porep_comm_d(root, data, 2048) == CUZK_POREP_OK);
  check_hex(root, 32, "ea995c54784720b449fc92b070adb6cf6635c2619a7a5e0054a24e88f252ec0d",
            "Curio Test2K comm_d");
  free(data);
  const size_t len = 8u << 20, ulen = (size_t)cuzk_fr32_unpadded_size(len);
  uint8_t *unpadded = calloc(ulen, 1), *padded = malloc(len), *tree = malloc(2 * len);
  unpadded[0] = 1;
  CHECK(ulen == 8323072 && cuzk_fr32_pad_output_len(ulen) == len);
  CHECK(cuzk_fr32_pad(padded, len, unpadded, ulen) == CUZK_POREP_OK);
  CHECK(padded[0] == 1);
  bool rest_zero = true;
  for (size_t i = 1; i < len; i++)
    rest_zero &= padded[i] == 0;
  CHECK(rest_zero);
  CHECK(cuzk_porep_tree_d_build(tree, padded, len) == CUZK_POREP_OK);
  CHECK(cuzk_porep_tree_d_bytes(len) == 0xffffe0);
  for (size_t i = 0; i < sizeof nodes / sizeof nodes[0]; i++)
    check_hex(tree + nodes[i].offset, 32, nodes[i].hex, "Curio Test8MiB tree_d node");
  CHECK(cuzk_porep_comm_d(root, padded, len) == CUZK_POREP_OK);
  check_hex(root, 32, "23404a8880f9cbc72039cb8614359c2834845570fe95190bbd4d934142e8252c",
            "Curio Test8MiB comm_d");
  free(unpadded);
  free(padded);
  free(tree);
}

/* The pool variants give the serial results. */
static void test_tree_d_pool(void) {
  cuzk_pool *pool = NULL;
  CHECK(cuzk_pool_create(&pool, 4) == CUZK_POOL_OK);
  enum { LEN = 1 << 20 };
  uint8_t *data = malloc(LEN), *t1 = malloc(2 * LEN), *t2 = malloc(2 * LEN), a[32], b[32];
  random_fr32_data(data, LEN);
  static const size_t lens[] = {32, 64, 1 << 16, 1 << 17, LEN};
  for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
    CHECK(cuzk_porep_comm_d(a, data, lens[i]) == CUZK_POREP_OK);
    CHECK(cuzk_porep_comm_d_pool(pool, b, data, lens[i]) == CUZK_POREP_OK);
    CHECK_MSG(!memcmp(a, b, 32), "pool comm_d of %zu bytes", lens[i]);
  }
  CHECK(cuzk_porep_tree_d_build(t1, data, LEN) == CUZK_POREP_OK);
  CHECK(cuzk_porep_tree_d_build_pool(pool, t2, data, LEN) == CUZK_POREP_OK);
  CHECK(!memcmp(t1, t2, 2 * LEN - 32));
  CHECK(!memcmp(t1 + 2 * LEN - 64, a, 32));
  uint8_t *zero = calloc(8u << 20, 1);
  CHECK(cuzk_porep_comm_d_pool(pool, a, zero, 8u << 20) == CUZK_POREP_OK);
  CHECK(cuzk_porep_comm_d_zero(b, 8u << 20) == CUZK_POREP_OK && !memcmp(a, b, 32));
  data[LEN - 1] = 0xff;
  CHECK(cuzk_porep_comm_d_pool(pool, a, data, LEN) == CUZK_POREP_ENOTFR32);
  CHECK(cuzk_porep_tree_d_build_pool(pool, t2, data, LEN) == CUZK_POREP_ENOTFR32);
  free(zero);
  free(data);
  free(t1);
  free(t2);
  cuzk_pool_destroy(pool);
}

/* Pieces placed at aligned offsets in a zero sector: comm_d of the data = comm_d from pieces. */
static void test_comm_d_pieces(void) {
  enum { SECTOR = 8192 };
  uint8_t *data = calloc(SECTOR, 1), a[32], b[32];
  cuzk_porep_piece pc[8];
  /* 512 at 0, then 1024 (aligned at 1024 after 512 zero bytes), 128, 128, 2048 at 4096 */
  static const uint64_t sz[] = {512, 1024, 128, 128, 2048};
  static const uint64_t at[] = {0, 1024, 2048, 2176, 4096};
  for (int i = 0; i < 5; i++) {
    random_fr32_data(data + at[i], sz[i]);
    CHECK(cuzk_porep_comm_d(pc[i].comm_p, data + at[i], sz[i]) == CUZK_POREP_OK);
    pc[i].padded_size = sz[i];
  }
  CHECK(cuzk_porep_comm_d(a, data, SECTOR) == CUZK_POREP_OK);
  CHECK(cuzk_porep_comm_d_from_pieces(b, SECTOR, pc, 5) == CUZK_POREP_OK);
  CHECK_MSG(!memcmp(a, b, 32), "comm_d from pieces");
  /* one full-size piece: its own commitment */
  CHECK(cuzk_porep_comm_d_from_pieces(b, 512, pc, 1) == CUZK_POREP_OK &&
        !memcmp(b, pc[0].comm_p, 32));
  /* zero pieces of mixed sizes fill to the zero commitment */
  cuzk_porep_piece z[2];
  CHECK(cuzk_porep_zero_commitment(z[0].comm_p, 2) == CUZK_POREP_OK);
  z[0].padded_size = 128;
  CHECK(cuzk_porep_zero_commitment(z[1].comm_p, 5) == CUZK_POREP_OK);
  z[1].padded_size = 1024;
  CHECK(cuzk_porep_comm_d_from_pieces(a, 2048, z, 2) == CUZK_POREP_OK);
  CHECK(cuzk_porep_comm_d_zero(b, 2048) == CUZK_POREP_OK && !memcmp(a, b, 32));
  /* rejections */
  pc[5] = pc[0];
  pc[5].padded_size = 768;
  CHECK(cuzk_porep_comm_d_from_pieces(a, SECTOR, pc + 5, 1) == CUZK_POREP_EINVAL);
  pc[5].padded_size = 64;
  CHECK(cuzk_porep_comm_d_from_pieces(a, SECTOR, pc + 5, 1) == CUZK_POREP_EINVAL);
  CHECK(cuzk_porep_comm_d_from_pieces(a, 2048, pc, 5) == CUZK_POREP_EINVAL); /* too large */
  CHECK(cuzk_porep_comm_d_from_pieces(a, 3000, pc, 1) == CUZK_POREP_EINVAL);
  CHECK(cuzk_porep_comm_d_from_pieces(a, 64, NULL, 0) == CUZK_POREP_EINVAL);
  CHECK(cuzk_porep_comm_d_from_pieces(a, 2048, NULL, 1) == CUZK_POREP_EINVAL);
  free(data);
}

/* pieces.rs::test_get_piece_alignment and test_get_piece_start_byte */
static void test_piece_alignment(void) {
  static const uint64_t table[][4] = {
      {0, 0, 0, 127},     {0, 127, 0, 0},     {0, 254, 0, 0},       {0, 508, 0, 0},
      {0, 1016, 0, 0},    {127, 127, 0, 0},   {127, 254, 127, 0},   {127, 508, 381, 0},
      {100, 100, 27, 27}, {200, 200, 54, 54}, {300, 300, 208, 208},
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    uint64_t l = 1, r = 1;
    CHECK(cuzk_porep_piece_alignment(&l, &r, table[i][0], table[i][1]) == CUZK_POREP_OK);
    CHECK_MSG(l == table[i][2] && r == table[i][3], "alignment(%llu, %llu) = (%llu, %llu)",
              (unsigned long long)table[i][0], (unsigned long long)table[i][1],
              (unsigned long long)l, (unsigned long long)r);
  }
  static const uint64_t pieces[3] = {31, 32, 33};
  uint64_t start = 1;
  CHECK(cuzk_porep_piece_start(&start, pieces, 0, pieces[0]) == CUZK_POREP_OK && start == 0);
  CHECK(cuzk_porep_piece_start(&start, pieces, 1, pieces[1]) == CUZK_POREP_OK && start == 127);
  CHECK(cuzk_porep_piece_start(&start, pieces, 2, pieces[2]) == CUZK_POREP_OK && start == 254);
  /* a 1016-byte piece after a 127-byte one starts at 1016 */
  static const uint64_t two[1] = {127};
  CHECK(cuzk_porep_piece_start(&start, two, 1, 1016) == CUZK_POREP_OK && start == 1016);
  uint64_t l, r;
  CHECK(cuzk_porep_piece_alignment(NULL, &r, 0, 127) == CUZK_POREP_EINVAL);
  CHECK(cuzk_porep_piece_alignment(&l, &r, 0, UINT64_MAX) == CUZK_POREP_EINVAL);
  CHECK(cuzk_porep_piece_alignment(&l, &r, UINT64_MAX, 127) == CUZK_POREP_EINVAL);
  CHECK(cuzk_porep_piece_alignment(&l, &r, 0, 68182605824ull) == CUZK_POREP_OK && l == 0 && r == 0);
  CHECK(cuzk_porep_piece_start(&start, NULL, 1, 127) == CUZK_POREP_EINVAL);
}

/* ---- replica_id and challenges (docs/spec/sdr-vanilla.md §4, §8) --------------------------------
 */
/* The common inputs of the seal regression records
 * (filecoin-proofs/tests/seal_regression_records-v16.json and -v18.json). Expected replica_ids /
 * challenges are those of docs/spec/sdr-vanilla.md §11.1.9 (computed there by an independent
 * implementation; the records themselves only carry proofs). */
static const char *rec_prover = "101cbe4b9c42604f04c703c396f788c6cb2d6d7d58f45430b12eb2edd640076c";
static const char *rec_ticket = "e8867f2000d5597a0a5f4382c52b8b89890019df5320d486a067f38e6c68624b";
static const char *rec_seed = "56964257e0d6c11e074117b36172fff3ebd1a6ec18fa79555e58df5a9d889dcb";
static const uint64_t rec_sector_id = 9259733836259213201ull;

typedef struct {
  const char *what;
  uint8_t porep_id_byte;
  bool porep_id_fill; /* all 32 bytes = porep_id_byte, else only byte 0 */
  const char *comm_d, *comm_r, *replica_id;
  unsigned proof; /* registered proof whose challenge kind and counts apply */
  unsigned n;
  uint64_t challenges[18];
} record;

static const record records[] = {
    {"v16 line 1 (2KiB V1_0_0)",
     0,
     false,
     "7e1e149ad957a46d34f58269bc8121aa249bc49f139d94760175f1006fd0a818",
     NULL,
     "eedafd70f8a0dfaa33964fc981f841c1e5f87df7f6a898d5ca77a28934c7f718",
     0,
     2,
     {11, 22}},
    {"v16 line 2 (2KiB V1_1_0)",
     5,
     false,
     "7e45f0925dc72593d6b296100e6ca63e3341c92a50c0e7a9461883a3c959ea28",
     NULL,
     "da838d3efe2e28665cd17ebfa274f67af8c3b51dfb01e8c6bf8892e712d62006",
     5,
     2,
     {57, 58}},
    {"v16 line 4 (2KiB Synthetic)",
     5,
     false,
     "ff23233fa2c6d7c6b7975910aea00f993afec957023ba51db1dadd0af526c038",
     "0183a38b6a9decc35a74ef1835a542d8ade1b187ea8df592d297a362d6392f08",
     "e673403e6126c0cfd6510caeff3c00a070a3c968a7d659f71a94b60b44286210",
     10,
     2,
     {4, 14}},
    {"v18 line 5 (8MiB NI)",
     0x81,
     true,
     "741abbf66dbbaa953674d3e488e7c1ccde1dbdffa2f5d7bd24076d828d05012e",
     "30f6435842182ed31c37c3bc44cda81b04180834f60abf739eef78545c424239",
     "53854123c8ada70bf843a6e9429fd44b9185525513170f4a73f8346c9e9c871a",
     16,
     2,
     {119877, 31264}},
    {"v16 line 443 (32GiB V1_1_0)",
     8,
     false,
     "eb7a26a6d07062559b9e8ca31cf56d76eb9d6a5e861dd2956d17e09c73ad1936",
     NULL,
     "3ca7c8110b2ccdcc89d8d7dabeed81b7a5b87a4f73ed43d0b2eb2220de963129",
     8,
     18,
     {980979701, 721418575, 824730872, 1022388640, 313254808, 1063608501, 153621234, 591422190,
      848122467, 46043795, 635931656, 334761064, 1037829961, 105884237, 1066709247, 77891472,
      578988757, 321801013}},
};

static void test_replica_id(void) {
  uint8_t pid[32];
  cuzk_porep_prover_id(pid, 1000);
  check_hex(pid, 32, "e807000000000000000000000000000000000000000000000000000000000000",
            "prover_id(1000)");
  cuzk_porep_prover_id(pid, 0);
  check_hex(pid, 32, "0000000000000000000000000000000000000000000000000000000000000000",
            "prover_id(0)");
  cuzk_porep_prover_id(pid, UINT64_MAX);
  check_hex(pid, 32, "ffffffffffffffffff0100000000000000000000000000000000000000000000",
            "prover_id(2^64-1)");
  uint8_t prover[32], ticket[32], comm_d[32], porep_id[32], rid[32];
  hex32(prover, rec_prover);
  hex32(ticket, rec_ticket);
  for (size_t i = 0; i < sizeof records / sizeof records[0]; i++) {
    const record *r = &records[i];
    hex32(comm_d, r->comm_d);
    memset(porep_id, r->porep_id_fill ? r->porep_id_byte : 0, 32);
    porep_id[0] = r->porep_id_byte;
    cuzk_porep_replica_id(rid, prover, rec_sector_id, ticket, comm_d, porep_id);
    check_hex(rid, 32, r->replica_id, r->what);
  }
  /* the message layout: sector_id big-endian at bytes 32..40 */
  uint8_t msg[136] = {0}, want[32];
  msg[39] = 1;
  memset(msg + 40, 0xab, 32);
  cuzk_sha256_trunc254(want, msg, sizeof msg);
  uint8_t zero[32] = {0}, t[32];
  memset(t, 0xab, 32);
  cuzk_porep_replica_id(rid, zero, 1, t, zero, zero);
  CHECK(!memcmp(rid, want, 32));
}

static void test_bytes_to_challenge(void) {
  uint8_t ff[32], seq[32];
  memset(ff, 0xff, 32);
  for (int i = 0; i < 32; i++)
    seq[i] = (uint8_t)i;
  /* (2^256 - 1) mod (N - 1) + 1, computed with Python */
  CHECK(cuzk_porep_bytes_to_challenge(ff, 2) == 1);
  CHECK(cuzk_porep_bytes_to_challenge(ff, 3) == 2);
  CHECK(cuzk_porep_bytes_to_challenge(ff, 64) == 16);
  CHECK(cuzk_porep_bytes_to_challenge(ff, 1ull << 30) == 65536);
  CHECK(cuzk_porep_bytes_to_challenge(ff, (1ull << 31) + 5) == 16777216);
  CHECK(cuzk_porep_bytes_to_challenge(ff, UINT64_MAX) == 16);
  CHECK(cuzk_porep_bytes_to_challenge(seq, 1ull << 30) == 645656645);
  CHECK(cuzk_porep_bytes_to_challenge(ff, 1) == 0 && cuzk_porep_bytes_to_challenge(ff, 0) == 0);
}

static void test_challenges(void) {
  uint8_t prover[32], ticket[32], seed_b[32], comm_d[32], comm_r[32], porep_id[32], rid[32];
  hex32(prover, rec_prover);
  hex32(ticket, rec_ticket);
  hex32(seed_b, rec_seed);
  uint64_t got[18];
  for (size_t i = 0; i < sizeof records / sizeof records[0]; i++) {
    const record *r = &records[i];
    hex32(comm_d, r->comm_d);
    if (r->comm_r) hex32(comm_r, r->comm_r);
    memset(porep_id, r->porep_id_fill ? r->porep_id_byte : 0, 32);
    porep_id[0] = r->porep_id_byte;
    cuzk_porep_replica_id(rid, prover, rec_sector_id, ticket, comm_d, porep_id);
    const cuzk_seal_proof *p = cuzk_seal_proof_at(r->proof);
    CHECK(cuzk_seal_proof_challenges_per_partition(p) == r->n);
    memset(got, 0, sizeof got);
    cuzk_porep_err e = cuzk_porep_challenges(got, p, rid, seed_b, r->comm_r ? comm_r : NULL, 0);
    CHECK_MSG(e == CUZK_POREP_OK, "%s: %s", r->what, cuzk_porep_strerror(e));
    for (unsigned j = 0; j < r->n; j++)
      CHECK_MSG(got[j] == r->challenges[j], "%s: challenge %u = %llu want %llu", r->what, j,
                (unsigned long long)got[j], (unsigned long long)r->challenges[j]);
  }
  /* synthetic selection indexes of v16 line 4 */
  {
    const record *r = &records[2];
    hex32(comm_d, r->comm_d);
    memset(porep_id, 0, 32);
    porep_id[0] = 5;
    cuzk_porep_replica_id(rid, prover, rec_sector_id, ticket, comm_d, porep_id);
    CHECK(cuzk_porep_synth_select(got, 64, rid, seed_b, 0, 2) == CUZK_POREP_OK);
    CHECK(got[0] == 39 && got[1] == 22);
  }
  /* partitions are slices of one global list */
  uint64_t flat[36], part[18];
  memset(rid, 0x11, 32);
  memset(comm_r, 0x22, 32);
  CHECK(cuzk_porep_challenges_interactive(flat, 1ull << 30, rid, seed_b, 0, 36) == CUZK_POREP_OK);
  CHECK(cuzk_porep_challenges_interactive(part, 1ull << 30, rid, seed_b, 1, 18) == CUZK_POREP_OK);
  CHECK(!memcmp(part, flat + 18, sizeof part));
  CHECK(cuzk_porep_challenges_ni(flat, 1ull << 30, rid, comm_r, 0, 36) == CUZK_POREP_OK);
  CHECK(cuzk_porep_challenges_ni(part, 1ull << 30, rid, comm_r, 1, 18) == CUZK_POREP_OK);
  CHECK(!memcmp(part, flat + 18, sizeof part));
  CHECK(cuzk_porep_synth_select(flat, 262144, rid, seed_b, 0, 36) == CUZK_POREP_OK);
  CHECK(cuzk_porep_synth_select(part, 262144, rid, seed_b, 1, 18) == CUZK_POREP_OK);
  CHECK(!memcmp(part, flat + 18, sizeof part));
  bool in_range = true;
  for (int i = 0; i < 36; i++)
    in_range &= flat[i] < 262144;
  CHECK(in_range);
  /* the generic entry point for the last NI partition of 32GiB and range checks */
  const cuzk_seal_proof *ni = cuzk_seal_proof_at(18), *syn = cuzk_seal_proof_at(13);
  CHECK(cuzk_porep_challenges(part, ni, rid, NULL, comm_r, 125) == CUZK_POREP_OK);
  CHECK(cuzk_porep_challenges(part, ni, rid, NULL, comm_r, 126) == CUZK_POREP_EPARTITION);
  CHECK(cuzk_porep_challenges(part, syn, rid, seed_b, comm_r, 9) == CUZK_POREP_OK);
  CHECK(cuzk_porep_challenges(part, syn, rid, seed_b, comm_r, 10) == CUZK_POREP_EPARTITION);
  CHECK(cuzk_porep_challenges(part, syn, rid, NULL, comm_r, 0) == CUZK_POREP_EINVAL);
  CHECK(cuzk_porep_challenges(part, ni, rid, seed_b, NULL, 0) == CUZK_POREP_EINVAL);
  CHECK(cuzk_porep_challenges(part, cuzk_seal_proof_at(8), rid, NULL, NULL, 0) ==
        CUZK_POREP_EINVAL);
  CHECK(cuzk_porep_challenges(part, NULL, rid, seed_b, comm_r, 0) == CUZK_POREP_EINVAL);
  CHECK(cuzk_porep_challenges_interactive(part, 1, rid, seed_b, 0, 1) == CUZK_POREP_EINVAL);
  CHECK(cuzk_porep_challenges_interactive(part, 64, rid, seed_b, 0x80000000u, 2) ==
        CUZK_POREP_EINVAL);
  CHECK(cuzk_porep_synth_challenges(part, 64, rid, comm_r, 60, 5) == CUZK_POREP_EINVAL);
  CHECK(cuzk_porep_synth_challenges(part, 64, rid, comm_r, 60, 4) == CUZK_POREP_OK);
  CHECK(cuzk_porep_synth_select(part, 0, rid, seed_b, 0, 1) == CUZK_POREP_EINVAL);
}

/* challenges.rs::test_synth_challenges_against_hardcoded */
static void test_synth_hardcoded(void) {
  static const uint64_t want_synth[21] = {178, 297, 869, 211, 875, 477, 94,  781, 124, 332, 856,
                                          801, 176, 692, 429, 691, 290, 204, 986, 210, 973};
  static const uint64_t want_sel[10] = {12, 7, 11, 18, 16, 3, 13, 10, 18, 9};
  static const uint64_t want_ch[10] = {176, 781, 801, 986, 290, 211, 692, 856, 986, 332};
  uint8_t rid[32] = {55}, comm_r[32] = {101}, rand[32];
  memset(rand, 1, 32);
  uint64_t synth[21], sel[10];
  CHECK(cuzk_porep_synth_challenges(synth, 1024, rid, comm_r, 0, 21) == CUZK_POREP_OK);
  for (int i = 0; i < 21; i++)
    CHECK_MSG(synth[i] == want_synth[i], "synth %d = %llu want %llu", i,
              (unsigned long long)synth[i], (unsigned long long)want_synth[i]);
  CHECK(cuzk_porep_synth_select(sel, 21, rid, rand, 0, 10) == CUZK_POREP_OK);
  for (int i = 0; i < 10; i++) {
    CHECK_MSG(sel[i] == want_sel[i], "selection %d = %llu", i, (unsigned long long)sel[i]);
    CHECK(sel[i] < 21 && synth[sel[i]] == want_ch[i]);
  }
  /* any window of the keystream: challenges first..first+count equal the full list's slice */
  uint64_t all[200], win[37];
  CHECK(cuzk_porep_synth_challenges(all, 1 << 20, rid, comm_r, 0, 200) == CUZK_POREP_OK);
  CHECK(cuzk_porep_synth_challenges(win, 1 << 20, rid, comm_r, 131, 37) == CUZK_POREP_OK);
  CHECK(!memcmp(win, all + 131, sizeof win));
  CHECK(cuzk_porep_synth_challenges(win, 1 << 20, rid, comm_r, 262143, 1) == CUZK_POREP_OK);
  CHECK(cuzk_porep_synth_challenges(win, 1 << 20, rid, comm_r, 262144, 1) == CUZK_POREP_EINVAL);
}

int main(void) {
  test_sector_table();
  test_proof_table();
  test_rejections();
  test_fr32_vectors();
  test_fr32_roundtrip();
  test_zero_commitments();
  test_tree_d_curio();
  test_comm_d_pieces();
  test_piece_alignment();
  test_bytes_to_challenge();
  test_synth_hardcoded();
  /* the SHA-256 users on every kernel this CPU has */
  static const cuzk_sha256_impl impls[] = {CUZK_SHA256_PORTABLE, CUZK_SHA256_SHANI};
  for (size_t i = 0; i < 2; i++) {
    if (!cuzk_sha256_use_impl(impls[i])) continue;
    test_comm_d_zero_hashed();
    test_tree_d();
    test_tree_d_pool();
    test_replica_id();
    test_challenges();
  }
  return check_summary("test_porep_base");
}
