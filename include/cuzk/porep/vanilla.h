/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * PoRep's vanilla proofs (docs/spec/sdr-vanilla.md §8-§9): the C1 of a sector sealed in memory
 * (include/cuzk/filecoin/seal.h) — the proofs of every partition's challenges — and the native
 * verification of a C1: recomputed challenges, labels, encodings and Merkle roots, the checks C1
 * itself makes and the circuit enforces.
 */
#ifndef CUZK_VANILLA_H
#define CUZK_VANILLA_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/filecoin/seal.h"
#include "cuzk/porep/c1.h"
#include "cuzk/porep/porep.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The C1 output for seed: every partition's challenges (docs/spec/sdr-vanilla.md §8 by the proof's
 * kind) and their proofs (§9.1). */
cuzk_porep_err cuzk_vanilla_prove(cuzk_c1 **out, const cuzk_sealed_sector *s,
                                  const uint8_t seed[32]);

/* Verifies every proof of c1 natively (docs/spec/sdr-vanilla.md §9.1 "Vanilla verification" + the
 * consistency the circuit requires: labeling parents equal the parent columns' rows). EINVAL with a
 * message naming the partition, the challenge and the part on the first failure. */
cuzk_porep_err cuzk_vanilla_verify(const cuzk_c1 *c1, char *msg, size_t msg_len);

#ifdef __cplusplus
}
#endif
#endif
