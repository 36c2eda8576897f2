/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* replica_id (docs/spec/sdr-vanilla.md §4, params.rs::generate_replica_id) and the Lotus/Curio
 * prover_id. */
#include <string.h>

#include "cuzk/filecoin/sector.h"
#include "cuzk/hashes/sha256.h"

/* A 136-byte message; sector_id is the one big-endian integer in it. */
void cuzk_porep_replica_id(uint8_t out[32], const uint8_t prover_id[32], uint64_t sector_id,
                           const uint8_t ticket[32], const uint8_t comm_d[32],
                           const uint8_t porep_id[32]) {
  uint8_t msg[32 + 8 + 32 + 32 + 32];
  memcpy(msg, prover_id, 32);
  for (int i = 0; i < 8; i++)
    msg[32 + i] = (uint8_t)(sector_id >> (56 - 8 * i));
  memcpy(msg + 40, ticket, 32);
  memcpy(msg + 72, comm_d, 32);
  memcpy(msg + 104, porep_id, 32);
  cuzk_sha256_trunc254(out, msg, sizeof msg);
}

/* The payload of an ID address (filecoin-ffi toProverID): unsigned LEB128, at most 10 bytes. */
void cuzk_porep_prover_id(uint8_t out[32], uint64_t actor_id) {
  memset(out, 0, 32);
  unsigned i = 0;
  do {
    uint8_t b = actor_id & 0x7f;
    actor_id >>= 7;
    out[i++] = actor_id ? (uint8_t)(b | 0x80) : b;
  } while (actor_id);
}
