/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The SDR PoRep commit-phase-2 circuit, StackedCircuit, for one partition
 * (docs/spec/porep-circuit.md §4) over cuzk_cs, and its public-input vector (§5).
 *
 * The same synthesis serves every constraint-system mode: with a C1 and a constraint system that
 * keeps values it is the prover's circuit (witness from the partition's vanilla proofs, §4.4);
 * with c1 NULL it is the blank circuit (parameter generation, R1CS extraction, SHAPE counts).
 */
#ifndef CUZK_STACKED_CIRCUIT_H
#define CUZK_STACKED_CIRCUIT_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/field/field.h"
#include "cuzk/porep/c1.h"
#include "cuzk/porep/porep.h"
#include "cuzk/r1cs/r1cs.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUZK_STACKED_DRG_PARENTS 6 /* BASE_DEGREE */
#define CUZK_STACKED_EXP_PARENTS 8 /* EXP_DEGREE */
#define CUZK_STACKED_MAX_LAYERS 16

/* The circuit's shape: everything that changes the R1CS. */
typedef struct {
  uint64_t nodes;      /* sector nodes N (a power of two) */
  unsigned layers;     /* L: the column hash is Poseidon of arity L */
  unsigned challenges; /* C per partition */
  /* tree_c / tree_r_last: base arity (2, 4, 8), sub and top arity (0 = absent, 2, 4, 8) */
  unsigned base_arity, sub_arity, top_arity;
  unsigned base_levels;   /* log_base(N / max(sub,1) / max(top,1)) */
  unsigned comm_d_levels; /* log2 N (binary SHA-256 tree_d) */
} cuzk_stacked_config;

/* A configuration set directly (e.g. the stacked_circuit.rs test shapes: nodes 8, L 2, C 1,
 * trees 2-0-0, 8-0-0; nodes 32 8-4-0; nodes 64 8-4-2). EINVAL (with a message in msg when
 * msg_len > 0) for a shape the circuit cannot have. */
cuzk_porep_err cuzk_stacked_config_init(cuzk_stacked_config *cfg, uint64_t nodes, unsigned layers,
                                        unsigned challenges, unsigned base_arity,
                                        unsigned sub_arity, unsigned top_arity, char *msg,
                                        size_t msg_len);
/* The configuration of a registered seal proof (its sector's N, L, trees; C per partition by
 * its challenge kind, NI included). EPROOF for an unknown id. */
cuzk_porep_err cuzk_stacked_config_from_proof(cuzk_stacked_config *cfg, uint32_t registered_proof);

/* Public inputs without ONE: 3 + 18 C. */
size_t cuzk_stacked_num_public_inputs(const cuzk_stacked_config *cfg);

/*
 * StackedCircuit::synthesize for partition `partition` (docs/spec/porep-circuit.md §4.1-§4.3, exact
 * allocation and constraint order). c1 NULL: the blank circuit (the constraint system must not keep
 * values). With a c1, its partition is checked against cfg first: the shape rules of the C1
 * reader (C challenges, L rows and labeling proofs, 6 + 8 parent columns, Merkle variants, levels,
 * sibling counts and indices; its messages, JSON paths), then what the circuit needs besides (the
 * paths' leaf positions equal to the challenge (comm_d, comm_r_last, c_x) or the column index
 * (parents), comm_r_last/comm_c agreement across the partition, canonical field elements); the
 * witness comes from vanilla_proofs[partition] (§4.4). Errors: EINVAL (msg says what),
 * EPARTITION, ENOMEM; a constraint-system failure is EINVAL with cuzk_r1cs_strerror in msg. The
 * input constraints of §1.4 are not appended (the prover does that).
 */
cuzk_porep_err cuzk_stacked_synthesize(cuzk_cs *cs, const cuzk_stacked_config *cfg,
                                       const cuzk_c1 *c1, unsigned partition, char *msg,
                                       size_t msg_len);

/* Checks c1's partition against cfg without synthesizing (the validation above). */
cuzk_porep_err cuzk_stacked_check_c1(const cuzk_stacked_config *cfg, const cuzk_c1 *c1,
                                     unsigned partition, char *msg, size_t msg_len);

/*
 * StackedCompound::generate_public_inputs (docs/spec/porep-circuit.md §5): out
 * (cuzk_stacked_num_public_inputs entries) = [replica_id, comm_d, comm_r] then per challenge c: c,
 * its 6 drg parents, its 8 exp parents, c, c, c. The commitments are 32-byte LE field elements
 * (EINVAL if not canonical); challenges has C entries, parents 14 per challenge (6 base then 8
 * expansion, the graph's order).
 */
cuzk_porep_err cuzk_stacked_public_inputs(cuzk_fr *out, const cuzk_stacked_config *cfg,
                                          const uint8_t replica_id[32], const uint8_t comm_d[32],
                                          const uint8_t comm_r[32], const uint64_t *challenges,
                                          const uint32_t *parents);

/* The same vector from c1's partition as the prover sees it (after cuzk_stacked_check_c1):
 * challenges from labeling_proofs[0].node, parents from the columns' indices. A verifier must
 * re-derive them (challenges by the proof's kind, parents from the graph) instead. */
cuzk_porep_err cuzk_stacked_public_inputs_c1(cuzk_fr *out, const cuzk_stacked_config *cfg,
                                             const cuzk_c1 *c1, unsigned partition, char *msg,
                                             size_t msg_len);

#ifdef __cplusplus
}
#endif
#endif
