/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The proof-kind descriptors (cuzk/kinds/kinds.h, docs/kinds.md) against the values the protocol
 * and the operators know:
 *  - the four kinds in GetStatus order with their proto values and names (metric label, the
 *    reference's GetStatus string, the proto enum name) and default priorities; lookups by value
 *    and by every name (any case), nothing for 0, 5 or an unknown name;
 *  - every kind's five circuits: ids "<prefix>-2k" ... "<prefix>-64g" of the registered sector
 *    sizes, found by size, Filecoin's v28 file names all distinct, the engine's circuit ids the
 *    same list in the same order;
 *  - the request fields each kind reads, its bound on vanilla_proofs for real registered proofs;
 *  - prepare refusing requests with the error class and a message naming the field, leaving
 *    nothing behind.
 * The proto's own enum is compared with the table in tests/server/test_kinds_proto.c.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuzk/engine/engine.h"
#include "cuzk/kinds/kinds.h"

static const struct {
  cuzk_proof_kind id;
  const char *label, *wire, *proto, *alias, *prefix;
  cuzk_priority prio;
  unsigned fields;
} expect[] = {
    {1, "porep_c2", "porep-c2", "POREP_SEAL_COMMIT", "porep", "porep", CUZK_PRIORITY_NORMAL,
     CUZK_KIND_F_VANILLA_ONE | CUZK_KIND_F_MINER | CUZK_KIND_F_SECTOR_NUMBER},
    {2, "snap_update", "snap-update", "SNAP_DEALS_UPDATE", "snap", "snap", CUZK_PRIORITY_NORMAL,
     CUZK_KIND_F_VANILLA_LIST | CUZK_KIND_F_MINER | CUZK_KIND_F_SECTOR_NUMBER | CUZK_KIND_F_COMMS},
    {3, "window_post", "window-post", "WINDOW_POST_PARTITION", "wpost", "wpost", CUZK_PRIORITY_HIGH,
     CUZK_KIND_F_VANILLA_LIST | CUZK_KIND_F_MINER | CUZK_KIND_F_RANDOMNESS |
         CUZK_KIND_F_PARTITION_INDEX},
    {4, "winning_post", "winning-post", "WINNING_POST", "winning", "winning",
     CUZK_PRIORITY_CRITICAL,
     CUZK_KIND_F_VANILLA_LIST | CUZK_KIND_F_MINER | CUZK_KIND_F_RANDOMNESS |
         CUZK_KIND_F_PARTITION_INDEX},
};
#define N_EXPECT (sizeof expect / sizeof *expect)

static void upper(char *out, const char *s) {
  for (; *s; s++)
    *out++ = (char)(*s >= 'a' && *s <= 'z' ? *s - 32 : *s);
  *out = 0;
}

static void test_table(void) {
  CHECK(cuzk_kind_at(N_EXPECT) == NULL);
  CHECK(cuzk_kind_of(CUZK_KIND_UNSPECIFIED) == NULL);
  CHECK(cuzk_kind_of((cuzk_proof_kind)CUZK_NUM_PROOF_KINDS) == NULL);
  CHECK(cuzk_kind_named("nosuch") == NULL && cuzk_kind_named("") == NULL);
  CHECK(cuzk_proof_kind_label(CUZK_KIND_UNSPECIFIED) == NULL);
  for (size_t i = 0; i < N_EXPECT; i++) {
    const cuzk_kind *k = cuzk_kind_at(i);
    CHECK_MSG(k && k->id == expect[i].id, "kind %zu", i);
    if (!k) continue;
    CHECK(expect[i].id < CUZK_NUM_PROOF_KINDS);
    CHECK(cuzk_kind_of(expect[i].id) == k);
    CHECK(!strcmp(k->label, expect[i].label) && !strcmp(k->wire, expect[i].wire) &&
          !strcmp(k->proto, expect[i].proto));
    CHECK(!strcmp(cuzk_proof_kind_label(k->id), expect[i].label));
    CHECK(k->default_priority == expect[i].prio);
    CHECK_MSG(k->fields == expect[i].fields, "%s fields %#x", k->label, k->fields);
    const char *names[] = {expect[i].label, expect[i].wire, expect[i].proto, expect[i].alias};
    for (size_t n = 0; n < 4; n++) {
      char up[64];
      upper(up, names[n]);
      CHECK_MSG(cuzk_kind_named(names[n]) == k && cuzk_kind_named(up) == k, "%s", names[n]);
    }
    for (const char *const *a = k->aliases; *a; a++)
      CHECK_MSG(cuzk_kind_named(*a) == k, "alias %s", *a);
    CHECK(k->max_list && k->prepare && k->synthesize && k->public_inputs && k->verify &&
          k->partition && k->describe && k->free_work && k->title && k->title[0]);
  }
}

static void test_circuits(void) {
  static const char *const sizes[] = {"2k", "8m", "512m", "32g", "64g"};
  static const uint64_t bytes[] = {2048, 8 << 20, 512 << 20, UINT64_C(32) << 30,
                                   UINT64_C(64) << 30};
  char bases[4 * 5][512];
  size_t n = 0;
  for (size_t i = 0; i < N_EXPECT; i++) {
    const cuzk_kind *k = cuzk_kind_at(i);
    CHECK(k->n_circuits == 5);
    for (unsigned c = 0; c < k->n_circuits && c < 5; c++) {
      char id[32];
      snprintf(id, sizeof id, "%s-%s", expect[i].prefix, sizes[c]);
      CHECK_MSG(!strcmp(k->circuits[c].id, id), "%s", k->circuits[c].id);
      CHECK(k->circuits[c].sector_bytes == bytes[c]);
      CHECK(cuzk_kind_circuit_for(k, bytes[c]) == &k->circuits[c]);
      CHECK(!strcmp(cuzk_engine_circuit_id(n), id));
      CHECK(k->circuits[c].param_base(bases[n], sizeof bases[n], "d", k->circuits[c].arg));
      CHECK_MSG(!strncmp(bases[n], "d/v28-", 6), "%s", bases[n]);
      for (size_t o = 0; o < n; o++)
        CHECK_MSG(strcmp(bases[o], bases[n]), "%s twice", bases[n]);
      n++;
    }
    CHECK(cuzk_kind_circuit_for(k, 4096) == NULL);
  }
  CHECK(n == 20 && cuzk_engine_circuit_id(n) == NULL);
}

static void test_max_list(void) {
  char what[160];
  CHECK(cuzk_kind_of(CUZK_KIND_POREP_SEAL_COMMIT)->max_list(8, what, sizeof what) == 0);
  CHECK(cuzk_kind_of(CUZK_KIND_WINNING_POST)->max_list(0, what, sizeof what) == 1);
  CHECK(cuzk_kind_of(CUZK_KIND_WINDOW_POST_PARTITION)->max_list(10, what, sizeof what) == 2);
  CHECK(!strcmp(what, "a WindowPoSt partition of StackedDrgWindow2KiBV1_1 (its sectors per "
                      "partition)"));
  CHECK(cuzk_kind_of(CUZK_KIND_WINDOW_POST_PARTITION)->max_list(13, what, sizeof what) == 2349);
  CHECK(cuzk_kind_of(CUZK_KIND_SNAP_DEALS_UPDATE)->max_list(0, what, sizeof what) == 1);
  CHECK(cuzk_kind_of(CUZK_KIND_SNAP_DEALS_UPDATE)->max_list(3, what, sizeof what) == 16);
  CHECK(cuzk_kind_of(CUZK_KIND_SNAP_DEALS_UPDATE)->max_list(99, what, sizeof what) == 16);
}

/* k's prepare refuses r with class err and a message starting with want; nothing is left. */
static void refused(cuzk_proof_kind kind, const cuzk_kind_request *r, cuzk_kinds_err err,
                    const char *want) {
  const cuzk_kind *k = cuzk_kind_of(kind);
  cuzk_kind_prepared p = {0};
  char msg[512] = "";
  cuzk_kinds_err got = k->prepare(&p, r, msg, sizeof msg);
  CHECK_MSG(got == err && !strncmp(msg, want, strlen(want)), "%s: %d '%s'", k->label, got, msg);
  CHECK(!p.work && !p.circuit && !p.parts);
}

static void test_prepare_refuses(void) {
  static const uint8_t zero[32], c1[] = "{\"registered_proof\": 5}";
  const uint8_t *list[1] = {zero};
  size_t lens[1] = {0};
  cuzk_kind_request r = {.registered_proof = 10, .randomness = zero, .randomness_len = 31};
  refused(CUZK_KIND_WINDOW_POST_PARTITION, &r, CUZK_KINDS_EREQUEST,
          "randomness: 31 bytes, expected 32");
  r.registered_proof = 0;
  refused(CUZK_KIND_WINDOW_POST_PARTITION, &r, CUZK_KINDS_EREQUEST,
          "registered_proof: 0 (StackedDrgWinning2KiBV1) is a WinningPoSt proof, but proof_kind "
          "is WINDOW_POST_PARTITION");
  r.randomness_len = 32;
  r.sector_size = 8 << 20;
  refused(CUZK_KIND_WINNING_POST, &r, CUZK_KINDS_EREQUEST,
          "sector_size: 8388608, but StackedDrgWinning2KiBV1 proves 2KiB sectors (2048 bytes)");
  r.sector_size = 0;
  r.vanilla_proofs = list;
  r.vanilla_proofs_len = lens;
  r.n_vanilla_proofs = 1;
  refused(CUZK_KIND_WINNING_POST, &r, CUZK_KINDS_EREQUEST, "vanilla_proofs[0]");
  refused(CUZK_KIND_POREP_SEAL_COMMIT, &r, CUZK_KINDS_EREQUEST,
          "vanilla_proofs: 1 elements, but a PoRep job takes its C1 in vanilla_proof");
  r.registered_proof = 99;
  refused(CUZK_KIND_SNAP_DEALS_UPDATE, &r, CUZK_KINDS_EREQUEST,
          "registered_proof: 99 is not a registered update proof (0-4)");
  r.registered_proof = 0;
  refused(CUZK_KIND_SNAP_DEALS_UPDATE, &r, CUZK_KINDS_EREQUEST, "comm_r_old: 0 bytes, expected 32");
  cuzk_kind_request porep = {.vanilla_proof = c1, .vanilla_proof_len = sizeof c1 - 1};
  refused(CUZK_KIND_POREP_SEAL_COMMIT, &porep, CUZK_KINDS_EREQUEST, "miner_id: 0");
  porep.miner_id = 1000;
  refused(CUZK_KIND_POREP_SEAL_COMMIT, &porep, CUZK_KINDS_EREQUEST, "vanilla_proof: ");
  porep.vanilla_proof_len = 0;
  refused(CUZK_KIND_POREP_SEAL_COMMIT, &porep, CUZK_KINDS_EREQUEST, "vanilla_proof: empty");
}

int main(void) {
  test_table();
  test_circuits();
  test_max_list();
  test_prepare_refuses();
  return check_summary("test_kinds");
}
