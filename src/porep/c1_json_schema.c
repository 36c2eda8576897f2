/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The serde JSON layout of SealCommitPhase1Output (docs/spec/sdr-vanilla.md §9.4 key orders), as
 * tables over the C structs of porep/c1.h. Field order here = the order serde writes = declaration
 * order in Rust. */
#include <stddef.h>

#include "porep/c1_json.h"

_Static_assert(sizeof(cuzk_c1_b32_vec) == sizeof(c1_anyvec) &&
                   offsetof(cuzk_c1_b32_vec, n) == offsetof(c1_anyvec, n) &&
                   offsetof(cuzk_c1_path, n) == offsetof(c1_anyvec, n) &&
                   offsetof(cuzk_c1_column_proof_vec, n) == offsetof(c1_anyvec, n) &&
                   offsetof(cuzk_c1_labeling_proof_vec, n) == offsetof(c1_anyvec, n) &&
                   offsetof(cuzk_c1_partition, n) == offsetof(c1_anyvec, n) &&
                   offsetof(cuzk_c1_partition_vec, n) == offsetof(c1_anyvec, n),
               "vector layouts");

#define N(a) (uint32_t)(sizeof(a) / sizeof(a)[0])
#define STRUCT(fs, opt) \
  .kind = C1T_STRUCT, .what = "an object", .fields = fs, .nfields = N(fs), .optional = opt
#define VEC(e, size, w) .kind = C1T_VEC, .what = w, .elem = e, .elem_size = size

static const c1_type B32 = {.kind = C1T_B32, .what = "an array of 32 numbers"};
static const c1_type U32 = {.kind = C1T_U32, .what = "an integer 0..4294967295"};
static const c1_type U64 = {.kind = C1T_U64, .what = "an integer 0..18446744073709551615"};
static const c1_type NUL = {.kind = C1T_NULL, .what = "null"};
static const c1_type PROOF_NAME = {.kind = C1T_PROOF_NAME, .what = "a registered proof name"};

static const c1_type B32_VEC = {VEC(&B32, sizeof(cuzk_c1_b32), "an array of 32-byte values")};

/* PathElement {hashes, index}; InclusionPath {path} */
static const c1_field PATH_ELEM_F[] = {
    {"hashes", &B32_VEC, offsetof(cuzk_c1_path_elem, hashes)},
    {"index", &U64, offsetof(cuzk_c1_path_elem, index)},
};
static const c1_type PATH_ELEM = {STRUCT(PATH_ELEM_F, 0)};
static const c1_type PATH_ELEM_VEC = {
    VEC(&PATH_ELEM, sizeof(cuzk_c1_path_elem), "an array of path elements")};
static const c1_field PATH_F[] = {{"path", &PATH_ELEM_VEC, 0}};
static const c1_type PATH = {STRUCT(PATH_F, 0)};

/* MerkleProof {data: Single | Sub | Top} */
#define MP(f) offsetof(cuzk_c1_merkle_proof, f)
static const c1_field SINGLE_F[] = {
    {"root", &B32, MP(root)}, {"leaf", &B32, MP(leaf)}, {"path", &PATH, MP(base)}};
static const c1_field SUB_F[] = {{"base_proof", &PATH, MP(base)},
                                 {"sub_proof", &PATH, MP(sub)},
                                 {"root", &B32, MP(root)},
                                 {"leaf", &B32, MP(leaf)}};
static const c1_field TOP_F[] = {{"base_proof", &PATH, MP(base)},
                                 {"sub_proof", &PATH, MP(sub)},
                                 {"top_proof", &PATH, MP(top)},
                                 {"root", &B32, MP(root)},
                                 {"leaf", &B32, MP(leaf)}};
static const c1_type SINGLE = {STRUCT(SINGLE_F, 0)};
static const c1_type SUB = {STRUCT(SUB_F, 0)};
static const c1_type TOP = {STRUCT(TOP_F, 0)};
static const c1_variant MP_VARIANTS[] = {
    {"Single", CUZK_C1_MP_SINGLE}, {"Sub", CUZK_C1_MP_SUB}, {"Top", CUZK_C1_MP_TOP}};
static const c1_type *const MP_BODIES[] = {&SINGLE, &SUB, &TOP};
static const c1_type MP_DATA = {.kind = C1T_TAGGED,
                                .what = "an object {\"Single\"|\"Sub\"|\"Top\": {...}}",
                                .variants = MP_VARIANTS,
                                .nvariants = N(MP_VARIANTS),
                                .tag_off = MP(kind),
                                .body_off = 0,
                                .bodies = MP_BODIES};
static const c1_field MERKLE_F[] = {{"data", &MP_DATA, 0}};
static const c1_type MERKLE = {STRUCT(MERKLE_F, 0)};

/* ColumnProof {column: Column {index, rows, _h}, inclusion_proof} */
#define CP(f) offsetof(cuzk_c1_column_proof, f)
static const c1_field COLUMN_F[] = {
    {"index", &U32, CP(index)}, {"rows", &B32_VEC, CP(rows)}, {"_h", &NUL, 0}};
static const c1_type COLUMN = {STRUCT(COLUMN_F, 1u << 2)}; /* "_h" may be absent */
static const c1_field COLUMN_PROOF_F[] = {{"column", &COLUMN, 0},
                                          {"inclusion_proof", &MERKLE, CP(inclusion_proof)}};
static const c1_type COLUMN_PROOF = {STRUCT(COLUMN_PROOF_F, 0)};
static const c1_type COLUMN_PROOF_VEC = {
    VEC(&COLUMN_PROOF, sizeof(cuzk_c1_column_proof), "an array of column proofs")};

/* ReplicaColumnProof {c_x, drg_parents, exp_parents} */
#define RC(f) offsetof(cuzk_c1_replica_column_proof, f)
static const c1_field REPLICA_F[] = {{"c_x", &COLUMN_PROOF, RC(c_x)},
                                     {"drg_parents", &COLUMN_PROOF_VEC, RC(drg_parents)},
                                     {"exp_parents", &COLUMN_PROOF_VEC, RC(exp_parents)}};
static const c1_type REPLICA = {STRUCT(REPLICA_F, 0)};

/* LabelingProof / EncodingProof {parents, layer_index, node} */
#define LP(f) offsetof(cuzk_c1_labeling_proof, f)
static const c1_field LABELING_F[] = {{"parents", &B32_VEC, LP(parents)},
                                      {"layer_index", &U32, LP(layer_index)},
                                      {"node", &U64, LP(node)}};
static const c1_type LABELING = {STRUCT(LABELING_F, 0)};
static const c1_type LABELING_VEC = {
    VEC(&LABELING, sizeof(cuzk_c1_labeling_proof), "an array of labeling proofs")};

/* Proof {comm_d_proofs, comm_r_last_proof, replica_column_proofs, labeling_proofs,
 * encoding_proof} */
#define PR(f) offsetof(cuzk_c1_challenge_proof, f)
static const c1_field PROOF_F[] = {{"comm_d_proofs", &MERKLE, PR(comm_d_proofs)},
                                   {"comm_r_last_proof", &MERKLE, PR(comm_r_last_proof)},
                                   {"replica_column_proofs", &REPLICA, PR(replica_column_proofs)},
                                   {"labeling_proofs", &LABELING_VEC, PR(labeling_proofs)},
                                   {"encoding_proof", &LABELING, PR(encoding_proof)}};
static const c1_type PROOF = {STRUCT(PROOF_F, 0)};
static const c1_type PARTITION = {
    VEC(&PROOF, sizeof(cuzk_c1_challenge_proof), "an array of challenge proofs")};
static const c1_type PARTITIONS = {
    VEC(&PARTITION, sizeof(cuzk_c1_partition), "an array of partitions")};

/* VanillaSealProof {"StackedDrg<size>V1": [[Proof]]} */
static const c1_variant VANILLA_VARIANTS[] = {{"StackedDrg2KiBV1", 0},
                                              {"StackedDrg8MiBV1", 1},
                                              {"StackedDrg512MiBV1", 2},
                                              {"StackedDrg32GiBV1", 3},
                                              {"StackedDrg64GiBV1", 4}};
static const c1_type *const VANILLA_BODIES[] = {&PARTITIONS, &PARTITIONS, &PARTITIONS, &PARTITIONS,
                                                &PARTITIONS};
static const c1_type VANILLA = {.kind = C1T_TAGGED,
                                .what = "an object {\"StackedDrg<size>V1\": [...]}",
                                .variants = VANILLA_VARIANTS,
                                .nvariants = N(VANILLA_VARIANTS),
                                .tag_off = offsetof(cuzk_c1, vanilla_variant),
                                .body_off = offsetof(cuzk_c1, vanilla_proofs),
                                .bodies = VANILLA_BODIES};

/* SealCommitPhase1Output {registered_proof, vanilla_proofs, comm_r, comm_d, replica_id, seed,
 * ticket} */
static const c1_field ROOT_F[] = {
    {"registered_proof", &PROOF_NAME, offsetof(cuzk_c1, registered_proof)},
    {"vanilla_proofs", &VANILLA, 0},
    {"comm_r", &B32, offsetof(cuzk_c1, comm_r)},
    {"comm_d", &B32, offsetof(cuzk_c1, comm_d)},
    {"replica_id", &B32, offsetof(cuzk_c1, replica_id)},
    {"seed", &B32, offsetof(cuzk_c1, seed)},
    {"ticket", &B32, offsetof(cuzk_c1, ticket)},
    /* ours, not serde's: a made-up C1 for benchmarks (cuzk_c1_new_synthetic); written only when
     * set, so a real C1 is byte-identical to rust-fil-proofs' output */
    {"cuzk_synthetic_for_bench", &U32, offsetof(cuzk_c1, synthetic_for_bench)},
    /* ours too: the C1 of a synthetic sector (cuzk_c1_new_synthetic_sector), consistent but
     * with no stored data behind it; written only when set (docs/porep.md "Synthetic sectors") */
    {"cuzk_synthetic_sector", &U32, offsetof(cuzk_c1, synthetic_sector)}};
const c1_type c1_json_root = {STRUCT(ROOT_F, 1u << 7 | 1u << 8)};
