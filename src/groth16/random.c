/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* OS randomness for the prover's r, s and the batch verifier's weights (g16_internal.h), and the
 * seeded r, s of deterministic test proofs (cuzk_g16_seeded_rs). */
#define _GNU_SOURCE /* getrandom */
#include <errno.h>
#include <sys/random.h>

#include "cuzk/hashes/sha256.h"
#include "groth16/g16_internal.h"

bool g16_os_random(void *buf, size_t n) {
  unsigned char *b = buf;
  size_t got = 0;
  while (got < n) {
    ssize_t k = getrandom(b + got, n - got, 0);
    if (k < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    got += (size_t)k;
  }
  return true;
}

/* A field element from SHA-256("cuzk-bench deterministic" ‖ seed ‖ label ‖ k ‖ counter): the
 * first 255 bits, again with the next counter while not canonical. (The label string is where
 * the derivation began, cuzk-bench prove; changing it would change every seeded proof.) */
static void seeded_fr(cuzk_fr *out, uint64_t seed, char label, unsigned k) {
  for (uint32_t ctr = 0;; ctr++) {
    uint8_t in[40] = "cuzk-bench deterministic", h[32];
    for (int i = 0; i < 8; i++)
      in[24 + i] = (uint8_t)(seed >> (8 * i));
    in[32] = (uint8_t)label;
    for (int i = 0; i < 3; i++)
      in[33 + i] = (uint8_t)(k >> (8 * i));
    for (int i = 0; i < 4; i++)
      in[36 + i] = (uint8_t)(ctr >> (8 * i));
    cuzk_sha256(h, in, sizeof in);
    h[31] &= 0x7f;
    if (cuzk_fr_from_bytes(out, h)) return;
  }
}

void cuzk_g16_seeded_rs(cuzk_fr *r, cuzk_fr *s, uint64_t seed, unsigned k) {
  seeded_fr(r, seed, 'r', k);
  seeded_fr(s, seed, 's', k);
}
