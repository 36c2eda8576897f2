/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The PoSt vanilla layer (docs/post.md): the registered PoSt proofs, challenges against known
 * answers (tests/ref/post_challenges.py), bincode sizes, synthetic replicas of every size and a
 * sealed 2 KiB replica through generate -> write -> read -> verify, and every class of malformed
 * or wrong vanilla proof refused with a message naming the field (an inclusion proof too few and
 * too many included, in the struct and in the bytes). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuzk/post/post.h"
#include "filecoin/seal.h"

#define KiB (UINT64_C(1) << 10)
#define MiB (UINT64_C(1) << 20)
#define GiB (UINT64_C(1) << 30)

static const uint64_t sizes[5] = {2 * KiB, 8 * MiB, 512 * MiB, 32 * GiB, 64 * GiB};
static const char *const size_names[5] = {"2KiB", "8MiB", "512MiB", "32GiB", "64GiB"};
static const unsigned s_w[5] = {2, 2, 2, 2349, 2300};
static const unsigned levels[5] = {2, 6, 8, 10, 11};

/* The randomness of tests/ref/post_challenges.py: bytes 0..31 (byte 31 & 0x3f = 31). */
static void ref_randomness(uint8_t r[32]) {
  for (int i = 0; i < 32; i++)
    r[i] = (uint8_t)i;
}

static const cuzk_post_proof *proof(unsigned id) {
  const cuzk_post_proof *p = NULL;
  CHECK(cuzk_post_proof_by_id(&p, id) == CUZK_POST_OK && p);
  return p;
}

/* ---- table ---------------------------------------------------------------------------------- */
static void test_table(void) {
  char name[64];
  for (unsigned id = 0; id < CUZK_POST_NUM_PROOFS; id++) {
    const cuzk_post_proof *p = cuzk_post_proof_at(id);
    CHECK(p && p->id == id && p == proof(id));
    if (!p) continue;
    unsigned k = id % 5;
    bool winning = id < 5, v1_1 = id >= 10;
    snprintf(name, sizeof name, "StackedDrg%s%s%s", winning ? "Winning" : "Window", size_names[k],
             v1_1 ? "V1_1" : "V1");
    CHECK_MSG(!strcmp(p->name, name), "%u: %s", id, p->name);
    snprintf(name, sizeof name, "StackedDrg%s%s%s", winning ? "Winning" : "Window", size_names[k],
             v1_1 ? "V1_2" : "V1");
    CHECK_MSG(!strcmp(p->api_name, name), "%u: %s", id, p->api_name);
    const cuzk_post_proof *q = NULL;
    CHECK(cuzk_post_proof_by_name(&q, p->name) == CUZK_POST_OK && q == p);
    CHECK(cuzk_post_proof_by_name(&q, p->api_name) == CUZK_POST_OK && q == p);
    CHECK(p->type == (winning ? CUZK_POST_WINNING : CUZK_POST_WINDOW));
    CHECK(p->sector && p->sector->bytes == sizes[k]);
    CHECK(p->api == (v1_1 ? CUZK_API_V1_2_0 : CUZK_API_V1_0_0));
    CHECK(p->sector_count == (winning ? 66 : s_w[k]));
    CHECK(p->challenge_count == (winning ? 1 : 10));
    CHECK(p->vanilla_challenges == (winning ? 66 : 10));
    CHECK(p->vanilla_sectors == (winning ? 1 : s_w[k]));
    CHECK_MSG(cuzk_post_path_levels(p) == levels[k], "%u: %u levels", id, cuzk_post_path_levels(p));
    /* base levels of arity 8, then 32 GiB's sub level (8), 64 GiB's sub (8) and top (2) */
    for (unsigned l = 0; l < levels[k]; l++)
      CHECK(cuzk_post_level_arity(p, l) == (k == 4 && l == 10 ? 2u : 8u));
    CHECK(cuzk_post_level_arity(p, levels[k]) == 0);
    CHECK(cuzk_post_proof_for(&q, p->type, sizes[k]) == CUZK_POST_OK && q &&
          q->id == (winning ? k : 10 + k));
  }
  const cuzk_post_proof *q = (const cuzk_post_proof *)1;
  CHECK(cuzk_post_proof_at(15) == NULL);
  CHECK(cuzk_post_proof_by_id(&q, 15) == CUZK_POST_EPROOF && !q);
  CHECK(cuzk_post_proof_by_id(&q, UINT64_MAX) == CUZK_POST_EPROOF);
  CHECK(cuzk_post_proof_by_name(&q, "StackedDrgWindow32GiBV1_3") == CUZK_POST_EPROOF && !q);
  CHECK(cuzk_post_proof_by_name(&q, "stackeddrgwindow32gibv1_1") == CUZK_POST_EPROOF);
  CHECK(cuzk_post_proof_by_name(&q, NULL) == CUZK_POST_EINVAL);
  CHECK(cuzk_post_proof_by_id(NULL, 0) == CUZK_POST_EINVAL);
  CHECK(cuzk_post_proof_for(&q, CUZK_POST_WINDOW, 4 * KiB) == CUZK_POST_EPROOF && !q);
  CHECK(cuzk_post_proof_for(&q, (cuzk_post_type)7, 2 * KiB) == CUZK_POST_EINVAL);
  CHECK(!strcmp(cuzk_post_type_name(CUZK_POST_WINNING), "winning-post"));
  CHECK(!strcmp(cuzk_post_type_name(CUZK_POST_WINDOW), "window-post"));
  CHECK(cuzk_post_path_levels(NULL) == 0 && cuzk_post_level_arity(NULL, 0) == 0);
  CHECK(!strcmp(cuzk_post_strerror(CUZK_POST_EFORMAT), "malformed vanilla proof bytes"));
}

/* ---- challenges (answers from tests/ref/post_challenges.py) --------------------------------- */
static void test_challenges(void) {
  uint8_t rnd[32], prover_id[32];
  ref_randomness(rnd);
  cuzk_porep_prover_id(prover_id, 1000);
  static const struct {
    uint64_t sector_id, ci, leaf32g, leaf64g, leaf2k;
  } leaves[] = {
      {7, 0, 608454561, 1682196385, 33},
      {7, 1, 354995621, 1428737445, 37},
      {7, 65, 102939289, 102939289, 25},
      {123456789012, 3, 957784460, 2031526284, 12},
      {123456789012, 20000, 497020710, 1570762534, 38},
  };
  for (size_t i = 0; i < sizeof leaves / sizeof leaves[0]; i++) {
    CHECK(cuzk_post_leaf_challenge(rnd, leaves[i].sector_id, leaves[i].ci, 1u << 30) ==
          leaves[i].leaf32g);
    CHECK(cuzk_post_leaf_challenge(rnd, leaves[i].sector_id, leaves[i].ci, 1u << 31) ==
          leaves[i].leaf64g);
    CHECK(cuzk_post_leaf_challenge(rnd, leaves[i].sector_id, leaves[i].ci, 64) == leaves[i].leaf2k);
  }
  /* index rules: V1_0 / V1_1 sector_index * C + n, V1_2 n */
  CHECK(cuzk_post_challenge_index(CUZK_API_V1_0_0, 3, 10, 4) == 34);
  CHECK(cuzk_post_challenge_index(CUZK_API_V1_1_0, 3, 10, 4) == 34);
  CHECK(cuzk_post_challenge_index(CUZK_API_V1_2_0, 3, 10, 4) == 4);
  CHECK(cuzk_post_challenge_index(CUZK_API_V1_0_0, 2348, 10, 9) == 23489);
  /* one 32 GiB Window sector at position 3: ids 8 (V1_0) and 13 (V1_2) */
  static const uint64_t v1_0[10] = {757299421, 580800989, 964946519, 11258340,  965368692,
                                    340352703, 13448339,  208896294, 178450507, 109830925};
  static const uint64_t v1_2[10] = {1055234733, 553779552, 549391765, 957784460, 984482112,
                                    304289288,  335535753, 832562342, 929759914, 740194988};
  uint64_t got[66];
  cuzk_post_sector_challenges(got, proof(8), rnd, 123456789012, 3);
  CHECK(!memcmp(got, v1_0, sizeof v1_0));
  cuzk_post_sector_challenges(got, proof(13), rnd, 123456789012, 3);
  CHECK(!memcmp(got, v1_2, sizeof v1_2));
  cuzk_post_sector_challenges(got, proof(13), rnd, 123456789012, 0); /* position-independent */
  CHECK(!memcmp(got, v1_2, sizeof v1_2));
  /* Winning: the API view (1 sector of 66, indices 0..65) and the circuit view (66 blocks of 1,
   * block i at sector_index i) open the same leaves */
  static const uint64_t win[66] = {
      33, 37, 45, 53, 36, 46, 51, 23, 4,  31, 12, 48, 20, 17, 57, 62, 17, 44, 19, 29, 54, 1,
      40, 39, 52, 18, 55, 12, 38, 39, 54, 3,  20, 49, 6,  26, 59, 60, 21, 46, 36, 52, 61, 42,
      7,  47, 27, 20, 3,  11, 33, 34, 6,  19, 45, 35, 32, 18, 18, 24, 38, 5,  4,  4,  26, 25};
  cuzk_post_sector_challenges(got, proof(0), rnd, 7, 0);
  CHECK(!memcmp(got, win, sizeof win));
  for (unsigned i = 0; i < 66; i++) {
    uint64_t ci = cuzk_post_challenge_index(CUZK_API_V1_0_0, i, 1, 0);
    CHECK(ci == i && cuzk_post_leaf_challenge(rnd, 7, ci, 64) == win[i]);
  }
  CHECK(cuzk_post_winning_sector(prover_id, rnd, 0, 1) == 0);
  CHECK(cuzk_post_winning_sector(prover_id, rnd, 0, 10) == 6);
  CHECK(cuzk_post_winning_sector(prover_id, rnd, 0, 2349) == 2315);
  CHECK(cuzk_post_winning_sector(prover_id, rnd, 0, UINT64_C(1) << 40) == UINT64_C(140654362398));
  CHECK(cuzk_post_winning_sector(prover_id, rnd, 0, 0) == 0);
}

/* ---- sizes ---------------------------------------------------------------------------------- */
static void test_sizes(void) {
  static const size_t window[5] = {5680, 15280, 20080, 24960, 25520};
  static const size_t winning[5] = {36816, 100176, 131856, 164064, 167760};
  for (unsigned id = 0; id < CUZK_POST_NUM_PROOFS; id++) {
    size_t want = id < 5 ? winning[id % 5] : window[id % 5];
    CHECK_MSG(cuzk_post_vanilla_size(proof(id)) == want, "id %u: %zu", id,
              cuzk_post_vanilla_size(proof(id)));
  }
  CHECK(cuzk_post_vanilla_size(NULL) == 0);
}

static bool same_proof(const cuzk_post_sector_proof *a, const cuzk_post_sector_proof *b) {
  return a->sector_id == b->sector_id && !memcmp(a->comm_r, b->comm_r, 32) &&
         !memcmp(a->comm_c, b->comm_c, 32) && !memcmp(a->comm_r_last, b->comm_r_last, 32) &&
         a->n_proofs == b->n_proofs &&
         !memcmp(a->proofs, b->proofs, a->n_proofs * sizeof *a->proofs);
}

/* write -> read -> identical struct -> write -> identical bytes; returns the bytes (caller
 * frees). */
static uint8_t *round_trip(const cuzk_post_proof *p, const cuzk_post_sector_proof *sp) {
  size_t len = cuzk_post_vanilla_size(p);
  uint8_t *a = malloc(len), *b = malloc(len);
  char msg[256] = "";
  cuzk_post_sector_proof rd;
  CHECK(cuzk_post_vanilla_write(a, p, sp) == CUZK_POST_OK);
  CHECK_MSG(cuzk_post_vanilla_read(&rd, p, a, len, msg, sizeof msg) == CUZK_POST_OK, "%s: %s",
            p->name, msg);
  CHECK(same_proof(&rd, sp));
  CHECK(cuzk_post_vanilla_write(b, p, &rd) == CUZK_POST_OK && !memcmp(a, b, len));
  cuzk_post_sector_proof_free(&rd);
  free(b);
  return a;
}

/* ---- synthetic replicas of every size ------------------------------------------------------ */
static void test_synthetic(void) {
  uint8_t rnd[32], comm_c[32] = {9, 8, 7}, comm_r[32];
  ref_randomness(rnd);
  char msg[256] = "";
  for (unsigned id = 0; id < CUZK_POST_NUM_PROOFS; id++) {
    const cuzk_post_proof *p = proof(id);
    cuzk_post_replica *r = NULL;
    CHECK(cuzk_post_replica_synthetic(&r, p, 1000 + id, comm_c) == CUZK_POST_OK && r);
    if (!r) continue;
    CHECK(cuzk_post_replica_sector_id(r) == 1000 + id);
    cuzk_post_replica_comm_r(r, comm_r);
    cuzk_post_sector_proof sp;
    uint64_t sector_index = id < 5 ? 0 : 1;
    CHECK(cuzk_post_vanilla_generate(&sp, p, r, rnd, sector_index) == CUZK_POST_OK);
    CHECK(sp.n_proofs == p->vanilla_challenges && !memcmp(sp.comm_r, comm_r, 32) &&
          !memcmp(sp.comm_c, comm_c, 32));
    CHECK_MSG(cuzk_post_vanilla_verify(p, rnd, sector_index, &sp, msg, sizeof msg) == CUZK_POST_OK,
              "%s: %s", p->name, msg);
    free(round_trip(p, &sp));
    /* the proofs open the challenged leaves: index digits spell them */
    uint64_t ch[66];
    cuzk_post_sector_challenges(ch, p, rnd, 1000 + id, sector_index);
    for (size_t n = 0; n < sp.n_proofs; n++) {
      uint64_t x = 0, below = 1;
      for (unsigned l = 0; l < cuzk_post_path_levels(p); l++) {
        x += sp.proofs[n].index[l] * below;
        below *= cuzk_post_level_arity(p, l);
      }
      CHECK(x == ch[n] && below == p->sector->nodes);
    }
    cuzk_post_sector_proof_free(&sp);
    cuzk_post_replica_free(r);
  }
  /* the 2 KiB synthetic root is the root of a real tree over 64 zero leaves */
  cuzk_fr zeros[64] = {{{0}}}, root;
  cuzk_sdr_tree t;
  cuzk_post_replica *r = NULL;
  CHECK(cuzk_sdr_tree_build(&t, zeros, 64, 1, 0, 0, NULL));
  CHECK(cuzk_post_replica_synthetic(&r, proof(5), 1, comm_c) == CUZK_POST_OK);
  cuzk_fr c;
  CHECK(cuzk_fr_from_bytes(&c, comm_c));
  cuzk_sdr_comm_r(&root, &c, &t.root);
  uint8_t want[32];
  cuzk_fr_to_bytes(want, &root);
  cuzk_post_replica_comm_r(r, comm_r);
  CHECK(!memcmp(want, comm_r, 32));
  cuzk_post_replica_free(r);
  cuzk_sdr_tree_free(&t);
  /* comm_c must be canonical; the sizes must match */
  uint8_t bad[32];
  memset(bad, 0xff, 32);
  CHECK(cuzk_post_replica_synthetic(&r, proof(5), 1, bad) == CUZK_POST_EINVAL && !r);
  CHECK(cuzk_post_replica_synthetic(&r, proof(5), 1, comm_c) == CUZK_POST_OK);
  cuzk_post_sector_proof sp;
  CHECK(cuzk_post_vanilla_generate(&sp, proof(6), r, rnd, 0) == CUZK_POST_EINVAL && !sp.proofs);
  cuzk_post_replica_free(r);
}

/* ---- the sealed 2 KiB replica: struct mutations -------------------------------------------- */
/* Verifies sp after a mutation: EVERIFY with a message containing every given word. */
static void expect_refused(const cuzk_post_proof *p, const uint8_t rnd[32], uint64_t sector_index,
                           const cuzk_post_sector_proof *sp, const char *what, const char *w1,
                           const char *w2) {
  char msg[256] = "";
  cuzk_post_err e = cuzk_post_vanilla_verify(p, rnd, sector_index, sp, msg, sizeof msg);
  CHECK_MSG(e == CUZK_POST_EVERIFY && strstr(msg, w1) && (!w2 || strstr(msg, w2)), "%s: %d '%s'",
            what, e, msg);
}

static void test_verify_mutations(const cuzk_post_proof *p, cuzk_post_sector_proof *sp,
                                  const uint8_t rnd[32]) {
  char msg[256] = "";
  CHECK_MSG(cuzk_post_vanilla_verify(p, rnd, 0, sp, msg, sizeof msg) == CUZK_POST_OK, "%s", msg);
  cuzk_post_merkle_proof *mp = &sp->proofs[3];
  sp->comm_c[0] ^= 1;
  expect_refused(p, rnd, 0, sp, "comm_c", "sector 7", "comm_c");
  sp->comm_c[0] ^= 1;
  sp->comm_r_last[0] ^= 1;
  expect_refused(p, rnd, 0, sp, "comm_r_last", "sector 7", "comm_r_last");
  sp->comm_r_last[0] ^= 1;
  sp->comm_r[0] ^= 1;
  expect_refused(p, rnd, 0, sp, "comm_r", "sector 7", "comm_r is not");
  sp->comm_r[0] ^= 1;
  mp->hashes[1][4][0] ^= 1;
  expect_refused(p, rnd, 0, sp, "sibling", "challenge 3 (leaf", "path do not hash");
  mp->hashes[1][4][0] ^= 1;
  mp->leaf[0] ^= 1;
  expect_refused(p, rnd, 0, sp, "leaf", "challenge 3 (leaf", "leaf and path");
  mp->leaf[0] ^= 1;
  mp->root[0] ^= 1;
  expect_refused(p, rnd, 0, sp, "root", "challenge 3", "root differs from comm_r_last");
  mp->root[0] ^= 1;
  uint8_t saved = mp->index[0];
  mp->index[0] = (uint8_t)((saved + 1) % 8);
  expect_refused(p, rnd, 0, sp, "index", "challenge 3", "path indices open leaf");
  mp->index[0] = 9;
  expect_refused(p, rnd, 0, sp, "index range", "challenge 3", "index out of range");
  mp->index[0] = saved;
  uint8_t keep[32];
  memcpy(keep, mp->hashes[0][2], 32);
  memset(mp->hashes[0][2], 0xff, 32);
  expect_refused(p, rnd, 0, sp, "non-canonical", "challenge 3", "non-canonical");
  memcpy(mp->hashes[0][2], keep, 32);
  sp->sector_id = 8; /* other challenges */
  expect_refused(p, rnd, 0, sp, "sector id", "sector 8, challenge", "path indices open leaf");
  sp->sector_id = 7;
  uint8_t other[32];
  memcpy(other, rnd, 32);
  other[5] ^= 1;
  expect_refused(p, other, 0, sp, "randomness", "sector 7, challenge", "path indices open leaf");
  sp->n_proofs--;
  expect_refused(p, rnd, 0, sp, "count", "sector 7", "inclusion proofs");
  sp->n_proofs++;
  /* one inclusion proof too many (a valid one, repeated): refused, and not written */
  cuzk_post_merkle_proof *more = realloc(sp->proofs, (sp->n_proofs + 1) * sizeof *more);
  CHECK(more != NULL);
  if (more) {
    sp->proofs = more;
    sp->proofs[sp->n_proofs++] = sp->proofs[0];
    CHECK(cuzk_post_vanilla_verify(p, rnd, 0, sp, msg, sizeof msg) == CUZK_POST_EVERIFY);
    CHECK_MSG(!strcmp(msg, "sector 7: 11 inclusion proofs, expected 10"), "%s", msg);
    uint8_t *out = malloc(cuzk_post_vanilla_size(p) + 1024);
    CHECK(out && cuzk_post_vanilla_write(out, p, sp) == CUZK_POST_EINVAL);
    free(out);
    sp->n_proofs--;
  }
  CHECK(cuzk_post_vanilla_verify(p, NULL, 0, sp, msg, sizeof msg) == CUZK_POST_EINVAL);
  CHECK_MSG(cuzk_post_vanilla_verify(p, rnd, 0, sp, msg, sizeof msg) == CUZK_POST_OK, "%s", msg);
}

/* ---- the byte layout, walked independently of the reader ----------------------------------- */
typedef struct {
  size_t off;
  char name[80];
} field;

typedef struct {
  field *f;
  size_t n, cap, off;
} layout;

static void add(layout *l, size_t bytes, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void add(layout *l, size_t bytes, const char *fmt, ...) {
  if (l->n < l->cap) {
    va_list ap;
    va_start(ap, fmt);
    l->f[l->n].off = l->off;
    vsnprintf(l->f[l->n].name, sizeof l->f[l->n].name, fmt, ap);
    va_end(ap);
    l->n++;
  }
  l->off += bytes;
}

/* One InclusionPath of `elems` elements of arity `arity` (levels from `first`). */
static void add_path(layout *l, const cuzk_post_proof *p, const char *pre, const char *path,
                     unsigned first, unsigned elems) {
  add(l, 8, "%s.%s", pre, path);
  for (unsigned i = 0; i < elems; i++) {
    unsigned arity = cuzk_post_level_arity(p, first + i);
    add(l, 8, "%s.%s[%u].hashes", pre, path, i);
    for (unsigned k = 0; k + 1 < arity; k++)
      add(l, 32, "%s.%s[%u].hashes[%u]", pre, path, i, k);
    add(l, 8, "%s.%s[%u].index", pre, path, i);
  }
}

/* Every field of p's FallbackPoStSectorProof with its offset, in byte order; returns the total. */
static size_t walk(layout *l, const cuzk_post_proof *p) {
  l->n = l->off = 0;
  add(l, 8, "sector_id");
  add(l, 32, "comm_r");
  add(l, 8, "sectors");
  add(l, 8, "sectors[0].inclusion_proofs");
  unsigned lv = cuzk_post_path_levels(p), sub = p->sector->sub_arity, top = p->sector->top_arity;
  unsigned base = lv - (sub ? 1 : 0) - (top ? 1 : 0);
  char pre[64];
  for (unsigned n = 0; n < p->vanilla_challenges; n++) {
    snprintf(pre, sizeof pre, "sectors[0].inclusion_proofs[%u]", n);
    add(l, 4, "%s.tag", pre);
    if (!sub) {
      add(l, 32, "%s.root", pre);
      add(l, 32, "%s.leaf", pre);
      add_path(l, p, pre, "path", 0, base);
      continue;
    }
    add_path(l, p, pre, "base_proof", 0, base);
    add_path(l, p, pre, "sub_proof", base, 1);
    if (top) add_path(l, p, pre, "top_proof", base + 1, 1);
    add(l, 32, "%s.root", pre);
    add(l, 32, "%s.leaf", pre);
  }
  add(l, 32, "sectors[0].comm_c");
  add(l, 32, "sectors[0].comm_r_last");
  return l->off;
}

static size_t off_of(const layout *l, const char *name) {
  for (size_t i = 0; i < l->n; i++)
    if (!strcmp(l->f[i].name, name)) return l->f[i].off;
  CHECK_MSG(0, "no field %s", name);
  return 0;
}

static void put_u64(uint8_t *b, uint64_t v) {
  for (int i = 0; i < 8; i++)
    b[i] = (uint8_t)(v >> (8 * i));
}

/* Reading buf[0..len) fails with EFORMAT and a message starting with `want`. */
static void expect_format(const cuzk_post_proof *p, const uint8_t *buf, size_t len,
                          const char *want) {
  char msg[256] = "";
  cuzk_post_sector_proof sp;
  cuzk_post_err e = cuzk_post_vanilla_read(&sp, p, buf, len, msg, sizeof msg);
  CHECK_MSG(e == CUZK_POST_EFORMAT && !strncmp(msg, want, strlen(want)) && !sp.proofs,
            "%s: %d '%s', expected '%s'", p->name, e, msg, want);
}

/* Truncation at every field boundary names that field and its offset. */
static void test_boundaries(const cuzk_post_proof *p, const uint8_t *bytes, layout *l) {
  size_t len = walk(l, p);
  CHECK(len == cuzk_post_vanilla_size(p) && l->n < l->cap);
  char want[160];
  for (size_t i = 0; i < l->n; i++) {
    size_t need = (i + 1 < l->n ? l->f[i + 1].off : len) - l->f[i].off;
    snprintf(want, sizeof want, "%s: truncated (at byte %zu, %zu bytes needed, 0 left)",
             l->f[i].name, l->f[i].off, need);
    expect_format(p, bytes, l->f[i].off, want);
  }
}

/* One value of buf replaced: reading fails naming the field. */
static void mutate_u64(const cuzk_post_proof *p, uint8_t *buf, size_t len, size_t at, uint64_t v,
                       const char *want) {
  uint8_t keep[8];
  memcpy(keep, buf + at, 8);
  put_u64(buf + at, v);
  expect_format(p, buf, len, want);
  memcpy(buf + at, keep, 8);
}

static void mutate_fr(const cuzk_post_proof *p, uint8_t *buf, size_t len, const layout *l,
                      const char *name) {
  /* r itself and all-ones are both >= r */
  static const char r_hex[] = "01000000fffffffffe5bfeff02a4bd5305d8a10908d83933487d9d2953a7ed73";
  uint8_t keep[32], r_bytes[32];
  CHECK(from_hex(r_bytes, r_hex, 32) == 0);
  size_t at = off_of(l, name);
  char want[160];
  snprintf(want, sizeof want, "%s: not a canonical field element (at byte %zu)", name, at);
  memcpy(keep, buf + at, 32);
  memset(buf + at, 0xff, 32);
  expect_format(p, buf, len, want);
  memcpy(buf + at, r_bytes, 32);
  expect_format(p, buf, len, want);
  r_bytes[0]--; /* r - 1 is canonical: reading goes past this field */
  memcpy(buf + at, r_bytes, 32);
  char msg[256];
  cuzk_post_sector_proof sp;
  CHECK(cuzk_post_vanilla_read(&sp, p, buf, len, msg, sizeof msg) == CUZK_POST_OK);
  cuzk_post_sector_proof_free(&sp);
  memcpy(buf + at, keep, 32);
}

/* Every malformed-bytes class on one sector's bytes of a Single-shape proof (2 KiB Window). */
static void test_bytes_single(const cuzk_post_proof *p, uint8_t *buf, layout *l) {
  size_t len = walk(l, p);
  char want[160], msg[256];
  /* truncation at every byte: EFORMAT, never a crash */
  for (size_t n = 0; n < len; n++) {
    cuzk_post_sector_proof sp;
    cuzk_post_err e = cuzk_post_vanilla_read(&sp, p, buf, n, msg, sizeof msg);
    CHECK_MSG(e == CUZK_POST_EFORMAT && strstr(msg, ": truncated (at byte ") && !sp.proofs,
              "length %zu: %d '%s'", n, e, msg);
  }
  test_boundaries(p, buf, l);
  walk(l, p);
  /* trailing bytes */
  uint8_t *longer = calloc(len + 5, 1);
  memcpy(longer, buf, len);
  snprintf(want, sizeof want, "trailing bytes: 5 after the proof (at byte %zu)", len);
  expect_format(p, longer, len + 5, want);
  free(longer);
  /* counts: sectors, inclusion proofs, path elements, hashes; checked before any allocation */
  mutate_u64(p, buf, len, 40, 0, "sectors: count 0, expected 1 (at byte 40)");
  mutate_u64(p, buf, len, 40, 2, "sectors: count 2, expected 1 (at byte 40)");
  mutate_u64(p, buf, len, 48, 9, "sectors[0].inclusion_proofs: count 9, expected 10 (at byte 48)");
  mutate_u64(p, buf, len, 48, 11,
             "sectors[0].inclusion_proofs: count 11, expected 10 (at byte 48)");
  { /* an eleventh inclusion proof (proof 9's bytes again) with its count, or without */
    size_t p9 = off_of(l, "sectors[0].inclusion_proofs[9].tag"),
           end = off_of(l, "sectors[0].comm_c");
    uint8_t *more = malloc(len + (end - p9));
    memcpy(more, buf, end);
    memcpy(more + end, buf + p9, end - p9);
    memcpy(more + end + (end - p9), buf + end, len - end);
    put_u64(more + 48, 11);
    expect_format(p, more, len + (end - p9),
                  "sectors[0].inclusion_proofs: count 11, expected 10 (at byte 48)");
    put_u64(more + 48, 10);
    cuzk_post_sector_proof sp;
    CHECK(cuzk_post_vanilla_read(&sp, p, more, len + (end - p9), msg, sizeof msg) ==
              CUZK_POST_EFORMAT &&
          !sp.proofs);
    free(more);
  }
  mutate_u64(p, buf, len, 48, UINT64_C(1) << 63,
             "sectors[0].inclusion_proofs: count 9223372036854775808, expected 10 (at byte 48)");
  size_t at = off_of(l, "sectors[0].inclusion_proofs[3].path");
  snprintf(want, sizeof want,
           "sectors[0].inclusion_proofs[3].path: count 3, expected 2 (at byte %zu)", at);
  mutate_u64(p, buf, len, at, 3, want);
  at = off_of(l, "sectors[0].inclusion_proofs[3].path[1].hashes");
  snprintf(want, sizeof want,
           "sectors[0].inclusion_proofs[3].path[1].hashes: count 6, expected 7 (at byte %zu)", at);
  mutate_u64(p, buf, len, at, 6, want);
  snprintf(want, sizeof want,
           "sectors[0].inclusion_proofs[3].path[1].hashes: count 9223372036854775808, expected 7 "
           "(at byte %zu)",
           at);
  mutate_u64(p, buf, len, at, UINT64_C(1) << 63, want);
  /* an index out of range */
  at = off_of(l, "sectors[0].inclusion_proofs[3].path[0].index");
  snprintf(want, sizeof want,
           "sectors[0].inclusion_proofs[3].path[0].index: 8, expected < 8 (at byte %zu)", at);
  mutate_u64(p, buf, len, at, 8, want);
  mutate_u64(p, buf, len, at, UINT64_MAX, "sectors[0].inclusion_proofs[3].path[0].index: 1844");
  /* the MerkleProof tag of another shape or none */
  at = off_of(l, "sectors[0].inclusion_proofs[3].tag");
  uint8_t keep[4];
  memcpy(keep, buf + at, 4);
  buf[at] = 1;
  snprintf(want, sizeof want,
           "sectors[0].inclusion_proofs[3].tag: 1 (Sub), expected 0 (Single) (at byte %zu)", at);
  expect_format(p, buf, len, want);
  memset(buf + at, 0xff, 4);
  snprintf(want, sizeof want,
           "sectors[0].inclusion_proofs[3].tag: 4294967295 (unknown), expected 0 (Single) (at byte "
           "%zu)",
           at);
  expect_format(p, buf, len, want);
  memcpy(buf + at, keep, 4);
  /* non-canonical 32-byte values in every kind of place */
  static const char *const frs[] = {"comm_r",
                                    "sectors[0].inclusion_proofs[0].root",
                                    "sectors[0].inclusion_proofs[5].leaf",
                                    "sectors[0].inclusion_proofs[9].path[1].hashes[6]",
                                    "sectors[0].comm_c",
                                    "sectors[0].comm_r_last"};
  for (size_t i = 0; i < sizeof frs / sizeof frs[0]; i++)
    mutate_fr(p, buf, len, l, frs[i]);
  /* the untouched bytes still read */
  cuzk_post_sector_proof sp;
  CHECK(cuzk_post_vanilla_read(&sp, p, buf, len, NULL, 0) == CUZK_POST_OK);
  cuzk_post_sector_proof_free(&sp);
  CHECK(cuzk_post_vanilla_read(&sp, p, NULL, 0, msg, sizeof msg) == CUZK_POST_EFORMAT &&
        !strncmp(msg, "sector_id: truncated (at byte 0, 8 bytes needed, 0 left)", 56));
  CHECK(cuzk_post_vanilla_read(&sp, p, buf, 3, msg, sizeof msg) == CUZK_POST_EFORMAT &&
        !strcmp(msg, "sector_id: truncated (at byte 0, 8 bytes needed, 3 left)"));
  CHECK(cuzk_post_vanilla_read(&sp, NULL, buf, len, msg, sizeof msg) == CUZK_POST_EINVAL);
}

/* Sub and Top shapes (synthetic 32 GiB and 64 GiB Window): layout, tags, one-element paths. */
static void test_bytes_compound(unsigned id, layout *l) {
  const cuzk_post_proof *p = proof(id);
  uint8_t rnd[32], comm_c[32] = {1};
  char want[160];
  ref_randomness(rnd);
  cuzk_post_replica *r = NULL;
  cuzk_post_sector_proof sp;
  CHECK(cuzk_post_replica_synthetic(&r, p, 42, comm_c) == CUZK_POST_OK);
  CHECK(cuzk_post_vanilla_generate(&sp, p, r, rnd, 0) == CUZK_POST_OK);
  uint8_t *buf = round_trip(p, &sp);
  size_t len = walk(l, p);
  test_boundaries(p, buf, l);
  walk(l, p);
  bool top = p->sector->top_arity != 0;
  size_t at = off_of(l, "sectors[0].inclusion_proofs[2].tag");
  buf[at] = 0;
  snprintf(want, sizeof want, "sectors[0].inclusion_proofs[2].tag: 0 (Single), expected %s",
           top ? "2 (Top)" : "1 (Sub)");
  expect_format(p, buf, len, want);
  buf[at] = top ? 2 : 1;
  at = off_of(l, "sectors[0].inclusion_proofs[2].sub_proof");
  snprintf(want, sizeof want,
           "sectors[0].inclusion_proofs[2].sub_proof: count 2, expected 1 (at byte %zu)", at);
  mutate_u64(p, buf, len, at, 2, want);
  if (top) {
    at = off_of(l, "sectors[0].inclusion_proofs[2].top_proof[0].hashes");
    mutate_u64(p, buf, len, at, 7,
               "sectors[0].inclusion_proofs[2].top_proof[0].hashes: count 7, expected 1");
    at = off_of(l, "sectors[0].inclusion_proofs[2].top_proof[0].index");
    mutate_u64(p, buf, len, at, 2,
               "sectors[0].inclusion_proofs[2].top_proof[0].index: 2, expected < 2");
  }
  /* another size's bytes do not read */
  expect_format(proof(10), buf, len, "sectors[0].inclusion_proofs[0].tag: ");
  /* the writer refuses a struct of another shape */
  CHECK(cuzk_post_vanilla_write(buf, proof(10), &sp) == CUZK_POST_EINVAL);
  sp.proofs[1].index[cuzk_post_path_levels(p) - 1] = top ? 2 : 8;
  CHECK(cuzk_post_vanilla_write(buf, p, &sp) == CUZK_POST_EINVAL);
  sp.n_proofs--;
  CHECK(cuzk_post_vanilla_write(buf, p, &sp) == CUZK_POST_EINVAL);
  sp.n_proofs++;
  free(buf);
  cuzk_post_sector_proof_free(&sp);
  cuzk_post_replica_free(r);
}

/* ---- a sealed 2 KiB sector ------------------------------------------------------------------ */
static void test_sealed(cuzk_pool *pool, layout *l) {
  uint8_t prover_id[32], ticket[32], rnd[32];
  char msg[256];
  cuzk_porep_prover_id(prover_id, 1000);
  memset(ticket, 3, 32);
  ref_randomness(rnd);
  cuzk_post_replica *r = NULL;
  CHECK_MSG(cuzk_post_replica_seal(&r, proof(10), NULL, prover_id, 7, ticket, pool, msg,
                                   sizeof msg) == CUZK_POST_OK,
            "%s", msg);
  if (!r) return;
  /* every 2 KiB proof: Winning 0, Window V1_0 5, Window V1_1 10 */
  static const unsigned ids[] = {0, 5, 10};
  for (size_t i = 0; i < 3; i++) {
    const cuzk_post_proof *p = proof(ids[i]);
    cuzk_post_sector_proof sp;
    CHECK(cuzk_post_vanilla_generate(&sp, p, r, rnd, 0) == CUZK_POST_OK);
    CHECK_MSG(cuzk_post_vanilla_verify(p, rnd, 0, &sp, msg, sizeof msg) == CUZK_POST_OK, "%s: %s",
              p->name, msg);
    uint8_t *bytes = round_trip(p, &sp);
    /* V1_0 binds the sector's position, V1_2 does not */
    cuzk_post_err e = cuzk_post_vanilla_verify(p, rnd, 1, &sp, msg, sizeof msg);
    CHECK_MSG(ids[i] == 10 ? e == CUZK_POST_OK : e == CUZK_POST_EVERIFY, "%s: %d", p->name, e);
    if (ids[i] == 10) {
      test_verify_mutations(p, &sp, rnd);
      /* a canonical flip in the bytes reads, then fails verification */
      size_t at = (walk(l, p), off_of(l, "sectors[0].inclusion_proofs[4].path[0].hashes[2]"));
      bytes[at] ^= 1;
      cuzk_post_sector_proof rd;
      CHECK(cuzk_post_vanilla_read(&rd, p, bytes, cuzk_post_vanilla_size(p), NULL, 0) ==
            CUZK_POST_OK);
      expect_refused(p, rnd, 0, &rd, "bytes", "challenge 4", "path do not hash");
      cuzk_post_sector_proof_free(&rd);
      bytes[at] ^= 1;
      test_bytes_single(p, bytes, l);
    }
    free(bytes);
    cuzk_post_sector_proof_free(&sp);
  }
  cuzk_post_replica_free(r);
  /* sealing is for the test sizes; data must be Fr32 */
  CHECK(cuzk_post_replica_seal(&r, proof(13), NULL, prover_id, 7, ticket, pool, msg, sizeof msg) ==
            CUZK_POST_EINVAL &&
        !r && strstr(msg, "32GiB"));
  uint8_t data[2048];
  memset(data, 0xff, sizeof data);
  CHECK(cuzk_post_replica_seal(&r, proof(0), data, prover_id, 7, ticket, pool, msg, sizeof msg) ==
            CUZK_POST_EINVAL &&
        !r);
}

int main(void) {
  cuzk_pool *pool = NULL;
  if (cuzk_pool_create(&pool, 2) != 0) pool = NULL;
  layout l = {calloc(8192, sizeof(field)), 0, 8192, 0};
  test_table();
  test_challenges();
  test_sizes();
  test_synthetic();
  test_sealed(pool, &l);
  test_bytes_compound(13, &l);
  test_bytes_compound(14, &l);
  static const unsigned window[] = {6, 7};
  for (size_t i = 0; i < 2; i++) {
    const cuzk_post_proof *p = proof(window[i]);
    uint8_t rnd[32], comm_c[32] = {5};
    ref_randomness(rnd);
    cuzk_post_replica *r = NULL;
    cuzk_post_sector_proof sp;
    CHECK(cuzk_post_replica_synthetic(&r, p, 9, comm_c) == CUZK_POST_OK);
    CHECK(cuzk_post_vanilla_generate(&sp, p, r, rnd, 0) == CUZK_POST_OK);
    uint8_t *buf = round_trip(p, &sp);
    test_boundaries(p, buf, &l);
    free(buf);
    cuzk_post_sector_proof_free(&sp);
    cuzk_post_replica_free(r);
  }
  free(l.f);
  cuzk_pool_destroy(pool);
  return check_summary("test_post_vanilla");
}
