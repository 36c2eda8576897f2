/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * SnapDeals' vanilla side (docs/snap.md, docs/spec/snap-circuit.md):
 *  - the per-size constants equal the table of §2 (partitions, challenges, apex leaves, h,
 *    h_select, bits per challenge, digests, TreeD levels) and the PartitionProof sizes of §5.1;
 *  - the published challenge vectors of §10.3 (storage-proofs-update challenges.rs) and the phi /
 *    rho values of §10.4; the public inputs of every partition of every size (k + h_select·2^pbl:
 *    1, k + 32, k + 128), partition P refused;
 *  - a 2 KiB CC sector updated with random data: decoding gives the data back, the partition
 *    proof verifies, its bincode round-trips byte for byte, and every mutation class is refused
 *    naming what changed: each commitment, a path element of each tree, an apex leaf, a leaf,
 *    every truncation point, trailing bytes, a flipped byte anywhere, another size's reader, a
 *    wrong count of partitions, a partition index past the last;
 *  - a WindowPoSt over the updated sector (its new replica, the old comm_c) verifies against
 *    comm_r_new, and not against comm_r_old.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuzk/post/post.h"
#include "cuzk/snap/snap.h"
#include "rng.h"

#define MiB (UINT64_C(1) << 20)

static void test_constants(void) {
  /* §2: P C A h h_select rb cpd D L, and §5.1's bytes of one PartitionProof */
  static const unsigned want[5][10] = {{1, 10, 8, 1, 1, 6, 42, 1, 3, 15064},
                                       {4, 10, 128, 10, 8, 16, 15, 1, 9, 43864},
                                       {16, 86, 128, 10, 8, 20, 12, 8, 13, 453064},
                                       {16, 86, 128, 10, 8, 26, 9, 10, 19, 561768},
                                       {16, 86, 128, 10, 8, 27, 9, 10, 20, 575528}};
  for (unsigned i = 0; i < CUZK_SNAP_NUM_PROOFS; i++) {
    const cuzk_snap_proof *p = cuzk_snap_proof_at(i);
    CHECK(p && p->id == i && p->sector);
    unsigned got[10] = {p->partitions,  p->challenges,
                        p->apex_leaves, p->h,
                        p->h_select,    p->rb,
                        p->cpd,         p->digests,
                        p->tree_d_low,  (unsigned)cuzk_snap_vanilla_size(p)};
    for (int j = 0; j < 10; j++)
      CHECK_MSG(got[j] == want[i][j], "%s column %d: %u, expected %u", p->name, j, got[j],
                want[i][j]);
  }
  const cuzk_snap_proof *p;
  CHECK(cuzk_snap_proof_by_name(&p, "StackedDrg32GiBV1") == CUZK_SNAP_OK && p->id == 3);
  CHECK(cuzk_snap_proof_by_id(&p, 5) == CUZK_SNAP_EPROOF && !p);
  CHECK(cuzk_snap_proof_for(&p, 8 * MiB) == CUZK_SNAP_OK && p->id == 1);
  CHECK(cuzk_snap_proof_for(&p, 4096) == CUZK_SNAP_EPROOF);
  CHECK(cuzk_snap_proof_by_name(&p, "StackedDrg2KiBV1_1") == CUZK_SNAP_EPROOF);
}

static void be_hex_to_le(uint8_t out[32], const char *hex) {
  uint8_t be[32];
  CHECK(from_hex(be, hex, 32) == 0);
  for (int i = 0; i < 32; i++)
    out[i] = be[31 - i];
}

static void test_challenge_vectors(void) {
  uint8_t comm_r_new[32];
  be_hex_to_le(comm_r_new, "6c0740d6edb22eb13054f4587d6d2dcbc688f796c303c7044f60429c4bbe1c10");
  static const struct {
    unsigned id, k;
    uint64_t c[5];
  } v[] = {
      {0, 0, {53, 51, 56, 3, 0}},
      {1, 0, {36085, 32783, 44060, 10950, 3731}},
      {1, 1, {78878, 130797, 112892, 93994, 78379}},
      {2, 0, {1019125, 116736, 706220, 59698, 799498}},
      {2, 15, {16388544, 15794686, 16637142, 16319148, 16328348}},
      {3, 0, {1019125, 27985696, 15282860, 11586600, 44651330}},
      {3, 1, {109168525, 127316247, 80331041, 97065716, 72310052}},
      {3, 14, {990420169, 955146989, 968005601, 976863263, 944650706}},
      {3, 15, {1038629497, 1053983614, 1030421316, 1027373887, 1068685433}},
      {4, 0, {1019125, 13992848, 3820715, 18225541, 57316660}},
      {4, 15, {2045262457, 2036941247, 2136653521, 2091356007, 2147167623}},
  };
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    const cuzk_snap_proof *p = cuzk_snap_proof_at(v[i].id);
    uint64_t c[CUZK_SNAP_MAX_CHALLENGES];
    CHECK(cuzk_snap_challenges(c, p, comm_r_new, v[i].k));
    for (int j = 0; j < 5; j++)
      CHECK_MSG(c[j] == v[i].c[j], "%s partition %u challenge %d: %llu, expected %llu", p->name,
                v[i].k, j, (unsigned long long)c[j], (unsigned long long)v[i].c[j]);
    /* every challenge of partition k lies in its slice of the nodes */
    uint64_t slice = p->sector->nodes / p->partitions;
    for (unsigned j = 0; j < p->challenges; j++)
      CHECK(c[j] / slice == v[i].k);
  }
  const cuzk_snap_proof *p = cuzk_snap_proof_at(0);
  uint64_t c[CUZK_SNAP_MAX_CHALLENGES];
  CHECK(!cuzk_snap_challenges(c, p, comm_r_new, 1)); /* 2 KiB has one partition */
  uint8_t big[32];
  memset(big, 0xff, 32);
  CHECK(!cuzk_snap_challenges(c, p, big, 0)); /* not canonical */
}

static void test_phi_rho(void) {
  uint8_t comm_d[32], comm_r[32], b[32];
  char hex[65];
  CHECK(cuzk_porep_comm_d_zero(comm_d, UINT64_C(32) << 30) == CUZK_POREP_OK);
  to_hex(hex, comm_d, 32);
  CHECK(!strncmp(hex, "077e5fde", 8) && !strcmp(hex + 60, "a63e"));
  CHECK(from_hex(comm_r, "df691086e3c673c95a45908713d4c5938e5ced43f21b888bd9bc6e181c9f326b", 32) ==
        0);
  cuzk_fr phi, rho, x, d;
  CHECK(cuzk_snap_phi(&phi, comm_d, comm_r));
  cuzk_fr_to_bytes(b, &phi);
  to_hex(hex, b, 32);
  CHECK_MSG(!strcmp(hex, "3c05ef9f6fe1978a195a0d9a4b5bac7726e4345de5ca909cd05f438cc8ae3007"),
            "phi %s", hex);
  static const struct {
    uint64_t high;
    const char *hex;
  } r[3] = {{0, "56afb4d2a44f38f42ad805464f648c46129dd7294d402e8b62cf28c73b2a5655"},
            {1, "280ef85e11df6c60b13d9260a3fa40441dd6fa1afdbd59da773e4bf37753cb21"},
            {1023, "88bce15e40f9d4e009b6021d7a52b0a6344529abe675860c55c0293aa4831c07"}};
  for (int i = 0; i < 3; i++) {
    cuzk_snap_rho(&rho, &phi, r[i].high);
    cuzk_fr_to_bytes(b, &rho);
    to_hex(hex, b, 32);
    CHECK_MSG(!strcmp(hex, r[i].hex), "rho(%llu) %s", (unsigned long long)r[i].high, hex);
  }
  CHECK(cuzk_fr_from_bytes(&x, comm_r));
  cuzk_fr_from_u64(&d, 0);
  cuzk_snap_hash_gen(&rho, &x, &d);
  cuzk_fr_to_bytes(b, &rho);
  to_hex(hex, b, 32);
  CHECK(!strcmp(hex, "eee701dbbbf5844a8bd306c618b207fbbd1181ae103e9d3ba74d2775419cf71f"));
  uint64_t c[CUZK_SNAP_MAX_CHALLENGES];
  CHECK(cuzk_snap_challenges(c, cuzk_snap_proof_at(3), comm_r, 0));
  CHECK(c[0] == 50456558 && c[1] == 20803318 && c[2] == 20493480);
}

/* The public inputs of partition k (§8): k + h_select * 2^pbl, then the three commitments as
 * given: 1 at 2 KiB, k + 32 at 8 MiB, k + 128 above (h_select 8 and pbl 2 / 4); k = P refused. */
static void test_public_inputs(void) {
  static const uint64_t base[5] = {1, 32, 128, 128, 128};
  uint8_t c[3][32];
  for (int i = 0; i < 3; i++) {
    memset(c[i], 0x11 * (i + 1), 32);
    c[i][31] &= 0x3f;
  }
  for (unsigned i = 0; i < CUZK_SNAP_NUM_PROOFS; i++) {
    const cuzk_snap_proof *p = cuzk_snap_proof_at(i);
    for (unsigned k = 0; k <= p->partitions; k++) {
      cuzk_fr in[CUZK_SNAP_PUBLIC_INPUTS], want;
      cuzk_snap_err e = cuzk_snap_public_inputs(in, p, k, c[0], c[1], c[2]);
      if (k == p->partitions) {
        CHECK_MSG(e == CUZK_SNAP_EINVAL, "%s: partition %u accepted", p->name, k);
        continue;
      }
      CHECK(e == CUZK_SNAP_OK);
      cuzk_fr_from_u64(&want, base[i] + k);
      CHECK_MSG(cuzk_fr_eq(&in[0], &want), "%s partition %u: first input", p->name, k);
      for (int j = 0; j < 3; j++)
        CHECK(cuzk_fr_from_bytes(&want, c[j]) && cuzk_fr_eq(&in[1 + j], &want));
    }
  }
}

/* ---- a 2 KiB update ------------------------------------------------------------------------ */
static const cuzk_snap_proof *p2k;
static cuzk_snap_sector *sector;
static uint8_t *data;
static uint8_t c_old[32], c_d[32], c_new[32];
static uint8_t *good;
static size_t good_len;

static void make_sector(void) {
  p2k = cuzk_snap_proof_at(0);
  uint64_t s = 20261201;
  size_t n = p2k->sector->nodes;
  data = malloc(n * 32);
  for (size_t i = 0; i < n; i++) {
    cuzk_fr f;
    rng_fr(&s, &f);
    cuzk_fr_to_bytes(data + 32 * i, &f);
    data[32 * i + 31] &= 0x3f; /* Fr32 padding: the two top bits clear */
  }
  uint8_t prover[32] = {7}, ticket[32] = {9};
  char msg[256] = "";
  CHECK_MSG(cuzk_snap_sector_update(&sector, p2k, data, prover, 77, ticket, NULL, NULL, msg,
                                    sizeof msg) == CUZK_SNAP_OK,
            "update: %s", msg);
  cuzk_snap_sector_comms(sector, c_old, c_d, c_new, NULL);
  /* comm_d_new is TreeD's root over the data */
  uint8_t want[32];
  CHECK(cuzk_porep_comm_d(want, data, n * 32) == CUZK_POREP_OK && !memcmp(want, c_d, 32));
}

static void test_encoding(void) {
  size_t n = p2k->sector->nodes;
  uint8_t *back = malloc(n * 32);
  char msg[256];
  CHECK(cuzk_snap_decode(back, p2k, cuzk_snap_sector_replica(sector), cuzk_snap_sector_key(sector),
                         c_d, c_old, NULL, msg, sizeof msg) == CUZK_SNAP_OK);
  CHECK(!memcmp(back, data, n * 32));
  /* node by node: new = key + data * rho(i >> 5) (h = 1 at 2 KiB: two rhos) */
  cuzk_fr phi, rho, k, d, r;
  CHECK(cuzk_snap_phi(&phi, c_d, c_old));
  for (size_t i = 0; i < n; i += 21) {
    cuzk_snap_rho(&rho, &phi, i >> 5);
    CHECK(cuzk_fr_from_bytes(&k, cuzk_snap_sector_key(sector) + 32 * i));
    CHECK(cuzk_fr_from_bytes(&d, data + 32 * i));
    CHECK(cuzk_fr_from_bytes(&r, cuzk_snap_sector_replica(sector) + 32 * i));
    cuzk_fr_mul(&d, &d, &rho);
    cuzk_fr_add(&d, &d, &k);
    CHECK(cuzk_fr_eq(&d, &r));
  }
  memset(back + 32 * 5, 0xff, 32); /* a non-canonical data node is named */
  CHECK(cuzk_snap_encode(back, p2k, cuzk_snap_sector_key(sector), back, c_d, c_old, NULL, msg,
                         sizeof msg) == CUZK_SNAP_EINVAL);
  CHECK_MSG(strstr(msg, "node 5 ") != NULL, "%s", msg);
  free(back);
}

static cuzk_snap_err read_verify(const uint8_t *b, size_t len, char *msg, size_t msg_len) {
  cuzk_snap_request rq;
  const uint8_t *v[1] = {b};
  size_t l[1] = {len};
  cuzk_snap_err e = cuzk_snap_request_init(&rq, p2k, c_old, c_d, c_new, v, l, 1, msg, msg_len);
  if (!e) cuzk_snap_request_free(&rq);
  return e;
}

static void test_partition_proof(void) {
  cuzk_snap_partition_proof pp, back;
  CHECK(cuzk_snap_vanilla_generate(&pp, p2k, sector, 0) == CUZK_SNAP_OK);
  char msg[256] = "";
  CHECK_MSG(cuzk_snap_vanilla_verify(p2k, 0, c_old, c_d, c_new, &pp, msg, sizeof msg) ==
                CUZK_SNAP_OK,
            "%s", msg);
  good_len = cuzk_snap_vanilla_size(p2k);
  good = malloc(good_len);
  CHECK(cuzk_snap_vanilla_write(good, p2k, &pp) == CUZK_SNAP_OK);
  CHECK(cuzk_snap_vanilla_read(&back, p2k, good, good_len, msg, sizeof msg) == CUZK_SNAP_OK);
  uint8_t *again = malloc(good_len);
  CHECK(cuzk_snap_vanilla_write(again, p2k, &back) == CUZK_SNAP_OK);
  CHECK(!memcmp(good, again, good_len));
  free(again);
  cuzk_snap_partition_free(&back);
  CHECK(read_verify(good, good_len, msg, sizeof msg) == CUZK_SNAP_OK);
  /* the partition index: 0 is the only one at 2 KiB */
  CHECK(cuzk_snap_vanilla_verify(p2k, 1, c_old, c_d, c_new, &pp, msg, sizeof msg) ==
        CUZK_SNAP_EINVAL);
  CHECK_MSG(!strcmp(msg, "partition 1: StackedDrg2KiBV1 has 1 partitions"), "%s", msg);

  /* the layout of §5.1 at fixed offsets: comm_c, count 8, apex leaves, count 10, then tag 0 */
  CHECK(!memcmp(good, pp.comm_c, 32) && good[32] == 8 && good[40 + 8 * 32] == 10);
  CHECK(!memcmp(good + 40, pp.apex[0], 32));

  /* each mutation class, refused with its name */
  static const struct {
    size_t off;
    const char *want;
  } flips[] = {
      {0, "comm_c"},                           /* comm_r_old / comm_r_new no longer hold */
      {40 + 3 * 32, "apex"},                   /* an apex leaf */
      {40 + 8 * 32 + 8 + 4, "TreeR old"},      /* proof_r_old.root of challenge 0 */
      {40 + 8 * 32 + 8 + 4 + 32, "TreeR old"}, /* its leaf */
  };
  uint8_t *m = malloc(good_len + 1);
  for (size_t i = 0; i < sizeof flips / sizeof flips[0]; i++) {
    memcpy(m, good, good_len);
    m[flips[i].off] ^= 1;
    CHECK(read_verify(m, good_len, msg, sizeof msg) != CUZK_SNAP_OK);
    CHECK_MSG(strstr(msg, flips[i].want) != NULL, "flip at %zu: %s", flips[i].off, msg);
  }
  /* the commitments of the request */
  uint8_t bad[32];
  const uint8_t *v[1] = {good};
  size_t l[1] = {good_len};
  cuzk_snap_request rq;
  const char *names[3] = {"comm_r_old", "comm_d_new", "comm_r_new"};
  for (int c = 0; c < 3; c++) {
    const uint8_t *src = c == 0 ? c_old : c == 1 ? c_d : c_new;
    memcpy(bad, src, 32);
    bad[3] ^= 4;
    CHECK(cuzk_snap_request_init(&rq, p2k, c == 0 ? bad : c_old, c == 1 ? bad : c_d,
                                 c == 2 ? bad : c_new, v, l, 1, msg,
                                 sizeof msg) == CUZK_SNAP_EVERIFY);
    CHECK_MSG(strstr(msg, c == 1   ? "comm_d_new"
                          : c == 0 ? "comm_r_old"
                                   : "TreeR new") ||
                  strstr(msg, names[c]) || strstr(msg, "path indices"),
              "%s: %s", names[c], msg);
    bad[31] = 0xff; /* not canonical */
    CHECK(cuzk_snap_request_init(&rq, p2k, c == 0 ? bad : c_old, c == 1 ? bad : c_d,
                                 c == 2 ? bad : c_new, v, l, 1, msg,
                                 sizeof msg) == CUZK_SNAP_EINVAL);
    CHECK_MSG(strstr(msg, names[c]) != NULL, "%s", msg);
  }
  /* a flipped bit anywhere: refused (format or verification), never accepted */
  size_t accepted = 0;
  for (size_t off = 0; off < good_len; off += 7) {
    memcpy(m, good, good_len);
    m[off] ^= 0x10;
    if (read_verify(m, good_len, NULL, 0) == CUZK_SNAP_OK) accepted++;
  }
  CHECK_MSG(accepted == 0, "%zu flipped proofs accepted", accepted);
  /* every truncation point, and one byte too many */
  size_t wrong = 0;
  for (size_t len = 0; len < good_len; len++)
    if (read_verify(good, len, msg, sizeof msg) != CUZK_SNAP_EFORMAT || !strstr(msg, "truncated"))
      wrong++;
  CHECK_MSG(wrong == 0, "%zu truncations not reported as such", wrong);
  memcpy(m, good, good_len);
  m[good_len] = 0;
  CHECK(read_verify(m, good_len + 1, msg, sizeof msg) == CUZK_SNAP_EFORMAT);
  CHECK(strstr(msg, "trailing bytes: 1") != NULL);
  /* a count or an index out of range names the field */
  memcpy(m, good, good_len);
  m[32] = 9;
  CHECK(read_verify(m, good_len, msg, sizeof msg) == CUZK_SNAP_EFORMAT);
  CHECK_MSG(strstr(msg, "apex_leafs: count 9, expected 8 (at byte 32)") != NULL, "%s", msg);
  /* challenge 0's proof_r_old: tag, root, leaf, path count, path[0] hashes count, 7 hashes, index
   */
  size_t idx = 40 + 8 * 32 + 8 + 4 + 32 + 32 + 8 + 8 + 7 * 32;
  memcpy(m, good, good_len);
  m[idx] = 8;
  CHECK(read_verify(m, good_len, msg, sizeof msg) == CUZK_SNAP_EFORMAT);
  CHECK_MSG(strstr(msg, "challenge_proofs[0].proof_r_old.path[0].index: 8, expected < 8") != NULL,
            "%s", msg);
  memcpy(m, good, good_len);
  m[40 + 8 * 32 + 8] = 1; /* tag Sub where the 2 KiB tree is Single */
  CHECK(read_verify(m, good_len, msg, sizeof msg) == CUZK_SNAP_EFORMAT);
  CHECK_MSG(strstr(msg, "challenge_proofs[0].proof_r_old.tag: 1 (Sub), expected 0 (Single)"), "%s",
            msg);
  /* another size's reader, and the partition count */
  CHECK(cuzk_snap_vanilla_read(&back, cuzk_snap_proof_at(1), good, good_len, msg, sizeof msg) ==
        CUZK_SNAP_EFORMAT);
  const uint8_t *two[2] = {good, good};
  size_t two_len[2] = {good_len, good_len};
  CHECK(cuzk_snap_request_init(&rq, p2k, c_old, c_d, c_new, two, two_len, 2, msg, sizeof msg) ==
        CUZK_SNAP_EINVAL);
  CHECK_MSG(strstr(msg, "2 elements, but StackedDrg2KiBV1 has 1 partitions"), "%s", msg);
  /* leaf_r_new that is not the encoding of leaf_r_old and leaf_d_new (paths regenerated) */
  cuzk_snap_partition_proof t;
  CHECK(cuzk_snap_vanilla_generate(&t, p2k, sector, 0) == CUZK_SNAP_OK);
  memcpy(&t.proofs[2].r_new, &t.proofs[3].r_new, sizeof t.proofs[2].r_new);
  CHECK(cuzk_snap_vanilla_verify(p2k, 0, c_old, c_d, c_new, &t, msg, sizeof msg) ==
        CUZK_SNAP_EVERIFY);
  CHECK_MSG(strstr(msg, "challenge 2") != NULL, "%s", msg);
  cuzk_snap_partition_free(&t);
  free(m);
  cuzk_snap_partition_free(&pp);
}

/* After the update the sector is proven by PoSt with the new replica and comm_r_new. */
static void test_post_after_update(void) {
  const cuzk_post_proof *wp;
  CHECK(cuzk_post_proof_by_id(&wp, 10) == CUZK_POST_OK); /* WindowPoSt 2 KiB V1_1 */
  uint8_t comm_c[32], comm_r[32], rnd[32];
  cuzk_snap_sector_comms(sector, NULL, NULL, NULL, comm_c);
  cuzk_post_replica *r;
  CHECK(cuzk_post_replica_from_bytes(&r, wp, cuzk_snap_sector_replica(sector), comm_c, 77, NULL) ==
        CUZK_POST_OK);
  cuzk_post_replica_comm_r(r, comm_r);
  CHECK(!memcmp(comm_r, c_new, 32));
  memset(rnd, 5, 32);
  rnd[31] &= 0x3f;
  cuzk_post_sector_proof sp;
  char msg[256] = "";
  CHECK(cuzk_post_vanilla_generate(&sp, wp, r, rnd, 0) == CUZK_POST_OK);
  CHECK_MSG(cuzk_post_vanilla_verify(wp, rnd, 0, &sp, msg, sizeof msg) == CUZK_POST_OK, "%s", msg);
  memcpy(sp.comm_r, c_old, 32); /* the old commitment no longer describes the sector */
  CHECK(cuzk_post_vanilla_verify(wp, rnd, 0, &sp, msg, sizeof msg) == CUZK_POST_EVERIFY);
  cuzk_post_sector_proof_free(&sp);
  cuzk_post_replica_free(r);
}

int main(void) {
  test_constants();
  test_challenge_vectors();
  test_phi_rho();
  test_public_inputs();
  make_sector();
  if (sector) {
    test_encoding();
    test_partition_proof();
    test_post_after_update();
  }
  cuzk_snap_sector_free(sector);
  free(data);
  free(good);
  return check_summary("test_snap_vanilla");
}
