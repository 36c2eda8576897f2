/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Synthetic sectors (docs/porep.md "Synthetic sectors", docs/snap.md "Synthetic updates"), checks
 * only, no proof (the 2 KiB proofs are tests/cli/synthetic.sh's):
 *  - the sparse trees (src/filecoin/sparse_tree.c) equal the full trees over the same leaves: roots
 *    and openings of tree_d and of Poseidon trees of every shape (Single, Sub, Top), with set
 *    leaves and with uniform regions;
 *  - the synthetic C1 at 2 KiB, 8 MiB and 32 GiB passes C2's checks (cuzk_c2_check: the shape,
 *    the challenges, the parents' columns, every vanilla proof verified natively) for its miner
 *    and sector, carries its marker through JSON, and an interactive proof is required;
 *  - one changed label, labeling parent, tree_c / tree_r_last / tree_d sibling makes C2 refuse it,
 *    naming what failed;
 *  - the synthetic SnapDeals update at 2 KiB and 8 MiB passes the request checks, a
 *    changed sibling is refused; a sealed test sector's update is not marked synthetic;
 *  - the kinds' prepare refuses each synthetic input (PoRep, SnapDeals, WinningPoSt) without
 *    allow_synthetic, naming daemon.allow_synthetic_inputs, and prepares it with. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuzk/filecoin/seal.h"
#include "cuzk/kinds/kinds.h"
#include "cuzk/porep/c1.h"
#include "cuzk/porep/c2.h"
#include "cuzk/post/post.h"
#include "cuzk/snap/snap.h"
#include "filecoin/seal.h"
#include "filecoin/sparse_tree.h"
#include "rng.h"

#define MINER 1000
#define SECTOR 7

static void rnd_fr(uint8_t out[32], uint64_t *st) {
  for (int i = 0; i < 32; i++)
    out[i] = (uint8_t)rng_next(st);
  out[31] &= 0x3f;
}

/* ---- sparse trees against full ones ---------------------------------------------------------- */
static void check_poseidon_shape(uint64_t n, unsigned base_trees, unsigned sub, unsigned top,
                                 unsigned regions, unsigned set) {
  uint64_t st = n * 31 + regions + set;
  unsigned base_levels = 0;
  for (uint64_t w = n / base_trees; w > 1; w /= 8)
    base_levels++;
  uint8_t(*rv)[32] = malloc(regions * 32), (*bytes)[32] = malloc(n * 32);
  cuzk_fr *leaves = malloc(n * sizeof *leaves);
  for (unsigned g = 0; g < regions; g++)
    rnd_fr(rv[g], &st);
  for (uint64_t i = 0; i < n; i++)
    memcpy(bytes[i], rv[i / (n / regions)], 32);
  cuzk_sparse_tree t;
  CHECK(cuzk_sparse_init(&t, false, n, base_levels, sub, top, (const uint8_t(*)[32])rv, regions));
  for (unsigned k = 0; k < set; k++) {
    uint64_t x = rng_next(&st) % n;
    rnd_fr(bytes[x], &st);
    CHECK(cuzk_sparse_set(&t, x, bytes[x]));
  }
  CHECK(cuzk_sparse_build(&t));
  for (uint64_t i = 0; i < n; i++)
    CHECK(cuzk_fr_from_bytes(&leaves[i], bytes[i]));
  cuzk_sdr_tree full;
  CHECK(cuzk_sdr_tree_build(&full, leaves, n, base_trees, sub, top, NULL));
  uint8_t root[32];
  cuzk_fr_to_bytes(root, &full.root);
  CHECK_MSG(memcmp(root, t.root, 32) == 0, "sparse root, %llu leaves, %u regions, %u set",
            (unsigned long long)n, regions, set);
  for (unsigned k = 0; k < 8; k++) {
    uint64_t x = k < 4 ? rng_next(&st) % n : (k - 4) * (n / 4);
    uint8_t leaf[32], fleaf[32], froot[32], fidx[16], fsib[16 * 7][32], sib[16 * 7][32];
    unsigned pos[CUZK_SPARSE_MAX_LEVELS];
    cuzk_sparse_open(&t, x, leaf, pos, sib);
    cuzk_sdr_tree_open_bytes(&full, x, fleaf, froot, fidx, fsib);
    unsigned sibs = 0;
    for (unsigned l = 0; l < t.levels; l++) {
      CHECK(pos[l] == fidx[l]);
      sibs += t.arity[l] - 1;
    }
    CHECK(memcmp(leaf, fleaf, 32) == 0 && memcmp(sib, fsib, sibs * 32) == 0);
  }
  cuzk_sdr_tree_free(&full);
  cuzk_sparse_free(&t);
  free(rv);
  free(bytes);
  free(leaves);
}

static void test_sparse_trees(void) {
  check_poseidon_shape(64, 1, 0, 0, 1, 0);     /* 2 KiB, all default */
  check_poseidon_shape(64, 1, 0, 0, 1, 5);     /* 2 KiB, set leaves */
  check_poseidon_shape(64, 1, 0, 0, 2, 3);     /* 2 KiB, SnapDeals' two rho regions */
  check_poseidon_shape(4096, 1, 0, 0, 16, 9);  /* regions smaller than a level's span */
  check_poseidon_shape(128, 2, 2, 0, 4, 4);    /* Sub (arity 2) */
  check_poseidon_shape(512, 8, 8, 0, 8, 6);    /* Sub (arity 8), the 32 GiB shape */
  check_poseidon_shape(1024, 16, 8, 2, 32, 7); /* Top, the 64 GiB shape */
  /* tree_d: binary SHA-256 over the same leaves as cuzk_porep_tree_d_build */
  const uint64_t n = 256;
  uint64_t st = 5;
  uint8_t(*data)[32] = calloc(n, 32), *td = malloc(cuzk_porep_tree_d_bytes(n * 32));
  uint8_t zero[1][32] = {{0}};
  cuzk_sparse_tree t;
  CHECK(cuzk_sparse_init(&t, true, n, 0, 0, 0, (const uint8_t(*)[32])zero, 1));
  for (int k = 0; k < 4; k++) {
    uint64_t x = rng_next(&st) % n;
    rnd_fr(data[x], &st);
    CHECK(cuzk_sparse_set(&t, x, data[x]));
  }
  CHECK(cuzk_sparse_build(&t));
  CHECK(cuzk_porep_tree_d_build(td, &data[0][0], n * 32) == CUZK_POREP_OK);
  CHECK(memcmp(td + (2 * n - 2) * 32, t.root, 32) == 0);
  uint8_t leaf[32], sib[8][32];
  unsigned pos[CUZK_SPARSE_MAX_LEVELS];
  cuzk_sparse_open(&t, 77, leaf, pos, sib);
  for (unsigned l = 0; l < 8; l++) {
    uint64_t node = 77 >> l;
    CHECK(pos[l] == (node & 1));
    CHECK(memcmp(sib[l], td + 32 * (cuzk_porep_tree_d_level_start(n, l) + (node ^ 1)), 32) == 0);
  }
  cuzk_sparse_free(&t);
  /* an all-zero tree_d is the CC sector's comm_d */
  uint8_t cc[32];
  CHECK(cuzk_sparse_init(&t, true, n, 0, 0, 0, (const uint8_t(*)[32])zero, 1));
  CHECK(cuzk_sparse_build(&t) && !cuzk_porep_comm_d_zero(cc, n * 32));
  CHECK(memcmp(cc, t.root, 32) == 0);
  cuzk_sparse_free(&t);
  free(data);
  free(td);
}

/* ---- the PoRep C1 -----------------------------------------------------------------------------
 */
static cuzk_c1 *synthetic_c1(unsigned proof_id) {
  uint8_t prover_id[32], ticket[32], seed[32];
  cuzk_porep_prover_id(prover_id, MINER);
  memset(ticket, 3, 32);
  memset(seed, 4, 32);
  cuzk_c1 *c1 = NULL;
  char msg[256];
  CHECK_MSG(cuzk_c1_new_synthetic_sector(&c1, proof_id, prover_id, SECTOR, ticket, seed, msg,
                                         sizeof msg) == CUZK_POREP_OK,
            "%s", msg);
  return c1;
}

static cuzk_porep_err c2_checks(const cuzk_c1 *c1, char *msg, size_t len) {
  cuzk_c2_ctx ctx;
  cuzk_c2_sector sec = {MINER, SECTOR};
  msg[0] = 0;
  cuzk_porep_err e = cuzk_c2_ctx_init(&ctx, c1, msg, len);
  return e ? e : cuzk_c2_check(&ctx, &sec, msg, len);
}

#define EXPECT_REFUSED(c1, needle)                                                             \
  do {                                                                                         \
    char m_[512];                                                                              \
    cuzk_porep_err e_ = c2_checks(c1, m_, sizeof m_);                                          \
    CHECK_MSG(e_ != CUZK_POREP_OK && strstr(m_, needle), "expected '%s', got %d '%s'", needle, \
              (int)e_, m_);                                                                    \
  } while (0)

/* Checks pass at 2 KiB, 8 MiB, 32 GiB; the marker survives JSON; real C1s are unmarked. */
static void test_c1_consistent(void) {
  static const unsigned ids[] = {5, 6, 8}; /* StackedDrg{2KiB,8MiB,32GiB}V1_1 */
  for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
    cuzk_c1 *c1 = synthetic_c1(ids[i]);
    if (!c1) continue;
    char msg[512];
    CHECK_MSG(c2_checks(c1, msg, sizeof msg) == CUZK_POREP_OK, "proof %u: %s", ids[i], msg);
    CHECK(c1->synthetic_sector == 1 && !c1->synthetic_for_bench);
    if (ids[i] == 5) {
      uint8_t *json;
      size_t len;
      cuzk_c1 *back = NULL;
      CHECK(cuzk_c1_write_json(c1, &json, &len, msg, sizeof msg) == CUZK_POREP_OK);
      CHECK(len > 30 && memcmp(json + len - 27, ",\"cuzk_synthetic_sector\":1}", 27) == 0);
      CHECK(cuzk_c1_read_json(&back, json, len, 0, msg, sizeof msg) == CUZK_POREP_OK);
      CHECK(back && back->synthetic_sector == 1);
      CHECK(back && c2_checks(back, msg, sizeof msg) == CUZK_POREP_OK);
      cuzk_c1_free(back);
      free(json);
    }
    cuzk_c1_free(c1);
  }
  /* SyntheticPoRep (10) and NI (15) draw challenges from comm_r: refused */
  uint8_t id32[32] = {1};
  cuzk_c1 *c1 = NULL;
  char msg[256];
  CHECK(cuzk_c1_new_synthetic_sector(&c1, 10, id32, 1, id32, id32, msg, sizeof msg) ==
            CUZK_POREP_EINVAL &&
        !c1 && strstr(msg, "interactive"));
}

/* Each change of one value makes C2's checks refuse the C1, naming what failed. */
static void test_c1_tampered(void) {
  cuzk_c1 *c1 = synthetic_c1(5);
  if (!c1) return;
  cuzk_c1_challenge_proof *cp = &c1->vanilla_proofs.v[0].v[1];
  uint8_t keep[32];
#define TAMPER(field, needle)   \
  do {                          \
    memcpy(keep, field, 32);    \
    (field)[0] ^= 1;            \
    EXPECT_REFUSED(c1, needle); \
    memcpy(field, keep, 32);    \
  } while (0)
  /* a label of the challenged node (its column's row) */
  TAMPER(cp->replica_column_proofs.c_x.rows.v[1], "challenge 1 (node");
  TAMPER(cp->replica_column_proofs.c_x.rows.v[1], "replica_column_proofs.c_x");
  /* a parent's label, in the parent's column and in the labeling proof */
  TAMPER(cp->replica_column_proofs.drg_parents.v[2].rows.v[0], "drg_parents[2]");
  TAMPER(cp->labeling_proofs.v[1].parents.v[7], "labeling_proofs[1].parents[7]");
  /* Merkle siblings of tree_r_last, tree_c and tree_d */
  TAMPER(cp->comm_r_last_proof.base.v[1].hashes.v[5], "comm_r_last_proof does not open");
  TAMPER(cp->replica_column_proofs.exp_parents.v[6].inclusion_proof.base.v[0].hashes.v[2],
         "exp_parents[6]");
  TAMPER(cp->comm_d_proofs.base.v[4].hashes.v[0], "comm_d_proofs does not open comm_d");
  /* the encoding: the replica node no longer key + data */
  TAMPER(cp->comm_r_last_proof.leaf, "comm_r_last_proof");
#undef TAMPER
  char msg[256];
  CHECK_MSG(c2_checks(c1, msg, sizeof msg) == CUZK_POREP_OK, "restored: %s", msg);
  cuzk_c1_free(c1);
}

/* ---- SnapDeals ---------------------------------------------------------------------------------
 */
typedef struct {
  const cuzk_snap_proof *p;
  cuzk_snap_partition_proof parts[CUZK_SNAP_MAX_PARTITIONS];
  uint8_t comm_r_old[32], comm_d_new[32], comm_r_new[32];
  uint8_t *bytes[CUZK_SNAP_MAX_PARTITIONS];
  size_t lens[CUZK_SNAP_MAX_PARTITIONS];
} snap_update;

static bool snap_make(snap_update *u, uint64_t bytes) {
  memset(u, 0, sizeof *u);
  char msg[256];
  if (cuzk_snap_proof_for(&u->p, bytes)) return false;
  CHECK_MSG(cuzk_snap_synthetic_update(u->parts, u->comm_r_old, u->comm_d_new, u->comm_r_new, u->p,
                                       SECTOR, msg, sizeof msg) == CUZK_SNAP_OK,
            "%s", msg);
  size_t size = cuzk_snap_vanilla_size(u->p);
  for (unsigned k = 0; k < u->p->partitions; k++) {
    u->bytes[k] = malloc(size);
    u->lens[k] = size;
    CHECK(cuzk_snap_vanilla_write(u->bytes[k], u->p, &u->parts[k]) == CUZK_SNAP_OK);
    CHECK(cuzk_snap_is_synthetic(u->p, &u->parts[k]));
  }
  return true;
}

static void snap_free(snap_update *u) {
  for (unsigned k = 0; u->p && k < u->p->partitions; k++) {
    cuzk_snap_partition_free(&u->parts[k]);
    free(u->bytes[k]);
  }
}

static cuzk_snap_err snap_check(const snap_update *u, char *msg, size_t len) {
  cuzk_snap_request rq;
  cuzk_snap_err e =
      cuzk_snap_request_init(&rq, u->p, u->comm_r_old, u->comm_d_new, u->comm_r_new,
                             (const uint8_t *const *)u->bytes, u->lens, u->p->partitions, msg, len);
  if (!e) cuzk_snap_request_free(&rq);
  return e;
}

static void test_snap(void) {
  /* 8 MiB: 4 partitions, 2^10 rho regions (32 GiB: gen-vanilla snap --synthetic checks it) */
  static const uint64_t sizes[] = {2048, UINT64_C(8) << 20};
  for (size_t i = 0; i < 2; i++) {
    snap_update u;
    char msg[512];
    if (!snap_make(&u, sizes[i])) continue;
    CHECK_MSG(snap_check(&u, msg, sizeof msg) == CUZK_SNAP_OK, "%s: %s", u.p->name, msg);
    if (i == 0) {
      /* one TreeR new sibling, then one TreeD new sibling, changed */
      cuzk_snap_partition_proof *pp = &u.parts[0];
      pp->proofs[3].r_new.sib[2][0] ^= 1;
      CHECK(cuzk_snap_vanilla_write(u.bytes[0], u.p, pp) == CUZK_SNAP_OK);
      cuzk_snap_err e = snap_check(&u, msg, sizeof msg);
      CHECK_MSG(e == CUZK_SNAP_EVERIFY && strstr(msg, "challenge 3") && strstr(msg, "new"), "%s",
                msg);
      pp->proofs[3].r_new.sib[2][0] ^= 1;
      pp->proofs[5].d_new.sib[1][0] ^= 1;
      CHECK(cuzk_snap_vanilla_write(u.bytes[0], u.p, pp) == CUZK_SNAP_OK);
      e = snap_check(&u, msg, sizeof msg);
      CHECK_MSG(e == CUZK_SNAP_EVERIFY && strstr(msg, "challenge 5"), "%s", msg);
    }
    snap_free(&u);
  }
  /* a sealed test sector's update is not marked */
  const cuzk_snap_proof *p;
  CHECK(cuzk_snap_proof_for(&p, 2048) == CUZK_SNAP_OK);
  uint8_t prover_id[32], ticket[32];
  cuzk_porep_prover_id(prover_id, MINER);
  memset(ticket, 1, 32);
  cuzk_snap_sector *s = NULL;
  char msg[256];
  CHECK(cuzk_snap_sector_update(&s, p, NULL, prover_id, SECTOR, ticket, NULL, NULL, msg,
                                sizeof msg) == CUZK_SNAP_OK);
  cuzk_snap_partition_proof pp;
  CHECK(s && cuzk_snap_vanilla_generate(&pp, p, s, 0) == CUZK_SNAP_OK);
  CHECK(!cuzk_snap_is_synthetic(p, &pp));
  cuzk_snap_partition_free(&pp);
  cuzk_snap_sector_free(s);
}

/* ---- the kinds' prepare: refused without allow_synthetic, prepared with -------------------- */
static void expect_policy(cuzk_proof_kind id, cuzk_kind_request *r, const char *what) {
  const cuzk_kind *k = cuzk_kind_of(id);
  char msg[768];
  cuzk_kind_prepared prep = {0};
  r->allow_synthetic = false;
  cuzk_kinds_err e = k->prepare(&prep, r, msg, sizeof msg);
  CHECK_MSG(e == CUZK_KINDS_EREQUEST && strstr(msg, what) &&
                strstr(msg, "refused because daemon.allow_synthetic_inputs is off"),
            "%s refused: %d %s", k->title, (int)e, msg);
  r->allow_synthetic = true;
  e = k->prepare(&prep, r, msg, sizeof msg);
  CHECK_MSG(e == CUZK_KINDS_OK, "%s allowed: %s", k->title, msg);
  cuzk_kind_prepared_free(k, &prep);
}

static void test_kinds_policy(void) {
  /* PoRep: the C1's key */
  cuzk_c1 *c1 = synthetic_c1(5);
  uint8_t *json = NULL;
  size_t len = 0;
  char msg[256];
  CHECK(c1 && cuzk_c1_write_json(c1, &json, &len, msg, sizeof msg) == CUZK_POREP_OK);
  cuzk_kind_request r = {.registered_proof = 5,
                         .miner_id = MINER,
                         .sector_number = SECTOR,
                         .vanilla_proof = json,
                         .vanilla_proof_len = len};
  expect_policy(CUZK_KIND_POREP_SEAL_COMMIT, &r, "vanilla_proof: \"cuzk_synthetic_sector\": 1");
  free(json);
  cuzk_c1_free(c1);
  /* SnapDeals: comm_c is the marker */
  snap_update u;
  if (snap_make(&u, 2048)) {
    cuzk_kind_request s = {.registered_proof = u.p->id,
                           .vanilla_proofs = (const uint8_t *const *)u.bytes,
                           .vanilla_proofs_len = u.lens,
                           .n_vanilla_proofs = u.p->partitions,
                           .comm = {u.comm_r_old, u.comm_r_new, u.comm_d_new},
                           .comm_len = {32, 32, 32}};
    expect_policy(CUZK_KIND_SNAP_DEALS_UPDATE, &s, "vanilla_proofs[0].comm_c");
    snap_free(&u);
  }
  /* WinningPoSt over a synthetic replica; a replica with another comm_c is not marked */
  const cuzk_post_proof *p;
  CHECK(cuzk_post_proof_for(&p, CUZK_POST_WINNING, 2048) == CUZK_POST_OK);
  uint8_t comm_c[32], rand[32];
  memset(rand, 9, 32);
  rand[31] = 0;
  for (int marked = 1; marked >= 0; marked--) {
    cuzk_post_synthetic_comm_c(comm_c, SECTOR);
    if (!marked) comm_c[0] ^= 1;
    cuzk_post_replica *rep = NULL;
    cuzk_post_sector_proof sp;
    CHECK(cuzk_post_replica_synthetic(&rep, p, SECTOR, comm_c) == CUZK_POST_OK);
    CHECK(cuzk_post_vanilla_generate(&sp, p, rep, rand, 0) == CUZK_POST_OK);
    CHECK(cuzk_post_sector_is_synthetic(&sp) == (marked == 1));
    size_t n = cuzk_post_vanilla_size(p);
    uint8_t *b = malloc(n);
    const uint8_t *list[1] = {b};
    CHECK(cuzk_post_vanilla_write(b, p, &sp) == CUZK_POST_OK);
    cuzk_kind_request w = {.registered_proof = p->id,
                           .vanilla_proofs = list,
                           .vanilla_proofs_len = &n,
                           .n_vanilla_proofs = 1,
                           .randomness = rand,
                           .randomness_len = 32};
    if (marked) {
      expect_policy(CUZK_KIND_WINNING_POST, &w, "comm_c is the synthetic marker");
    } else {
      cuzk_kind_prepared prep = {0};
      char m[512];
      w.allow_synthetic = false;
      CHECK_MSG(cuzk_kind_of(CUZK_KIND_WINNING_POST)->prepare(&prep, &w, m, sizeof m) ==
                    CUZK_KINDS_OK,
                "an unmarked replica: %s", m);
      cuzk_kind_prepared_free(cuzk_kind_of(CUZK_KIND_WINNING_POST), &prep);
    }
    free(b);
    cuzk_post_sector_proof_free(&sp);
    cuzk_post_replica_free(rep);
  }
}

int main(void) {
  test_sparse_trees();
  test_c1_consistent();
  test_c1_tampered();
  test_snap();
  test_kinds_policy();
  return check_summary("test_synthetic");
}
