/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The PoRep challenges (docs/spec/sdr-vanilla.md §8; docs/porep.md): which nodes a partition of a
 * seal proof opens, interactive, non-interactive or synthetic. Over the sector and proof tables
 * of include/cuzk/filecoin/sector.h (included: a PoRep caller needs both). Only PoRep challenges
 * nodes this way; PoSt and SnapDeals have their own challenges in their layers.
 */
#ifndef CUZK_POREP_H
#define CUZK_POREP_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/filecoin/sector.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Challenges (docs/spec/sdr-vanilla.md §8) ---------------------------------------------------
 * All return node indexes in [1, N-1] (x mod (N-1) + 1, x the 32 bytes read little-endian).
 * Partition k, c challenges per partition: global challenge numbers k*c .. k*c+c-1. */
/* 0 (never a challenge) if nodes < 2. */
uint64_t cuzk_porep_bytes_to_challenge(const uint8_t b[32], uint64_t nodes);
/* docs/spec/sdr-vanilla.md §8.1: SHA-256(replica_id ‖ seed ‖ j u32 LE). */
cuzk_porep_err cuzk_porep_challenges_interactive(uint64_t *out, uint64_t nodes,
                                                 const uint8_t replica_id[32],
                                                 const uint8_t seed[32], unsigned partition,
                                                 unsigned count);
/* docs/spec/sdr-vanilla.md §8.2: SHA-256("filecoin.io|PoRep|1|NonInteractive|1" ‖ replica_id ‖
 * comm_r ‖ j u32 LE). */
cuzk_porep_err cuzk_porep_challenges_ni(uint64_t *out, uint64_t nodes, const uint8_t replica_id[32],
                                        const uint8_t comm_r[32], unsigned partition,
                                        unsigned count);
/* docs/spec/sdr-vanilla.md §8.3: the synthetic challenges first .. first+count-1 of num_synth =
 * min(N, 2^18). */
cuzk_porep_err cuzk_porep_synth_challenges(uint64_t *out, uint64_t nodes,
                                           const uint8_t replica_id[32], const uint8_t comm_r[32],
                                           uint64_t first, uint64_t count);
/* docs/spec/sdr-vanilla.md §8.3: which synthetic challenges partition k's c porep challenges are
 * (indexes < num_synth). */
cuzk_porep_err cuzk_porep_synth_select(uint64_t *out, uint64_t num_synth,
                                       const uint8_t replica_id[32], const uint8_t seed[32],
                                       unsigned partition, unsigned count);
/* docs/spec/sdr-vanilla.md §8.3: selection followed by the synthetic challenges it picks. */
cuzk_porep_err cuzk_porep_challenges_synthetic(uint64_t *out, uint64_t nodes,
                                               const uint8_t replica_id[32],
                                               const uint8_t comm_r[32], const uint8_t seed[32],
                                               unsigned partition, unsigned count);
/* The proof's kind, node count and per-partition count: out has
 * cuzk_seal_proof_challenges_per_partition(p) entries. comm_r is unused by interactive proofs
 * (may be NULL), seed by NI proofs (may be NULL). EPARTITION if partition is out of range. */
cuzk_porep_err cuzk_porep_challenges(uint64_t *out, const cuzk_seal_proof *p,
                                     const uint8_t replica_id[32], const uint8_t seed[32],
                                     const uint8_t comm_r[32], unsigned partition);

#ifdef __cplusplus
}
#endif
#endif
