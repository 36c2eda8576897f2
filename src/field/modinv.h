/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Variable-time modular inversion (Bernstein-Yang safegcd, 62 divsteps per batch).
 *
 * NOT constant time: the running time depends on the input. That is acceptable here because
 * every caller inverts either public data (e.g. affine conversion of public points, domain
 * constants) or the one product that a batch inversion of prover-internal data inverts.
 * Do not use it on secrets such as the proof's blinding scalars r, s.
 */
#ifndef CUZK_FIELD_MODINV_H
#define CUZK_FIELD_MODINV_H

#include <stdint.h>

/*
 * r = a^-1 mod m for plain (non-Montgomery) little-endian integers; m odd and m > 1.
 * Any odd m of the stated width works (no spare top bit is needed), and any a < 2^384
 * (resp. 2^256), a >= m included; the result is fully reduced, 0 <= r < m.
 * Returns 0 on success, -1 if a is not invertible (a == 0 mod m, or gcd(a, m) != 1); r is then
 * set to zero. An even m, or m = 1, also returns -1. r may alias a or m.
 * Typical cost (random inputs, one 2.1 GHz Zen 5 core): ~1.8 us for the 381-bit p,
 * ~1.2 us for the 255-bit r.
 */
int cuzk_modinv_384(uint64_t r[6], const uint64_t a[6], const uint64_t m[6]);
int cuzk_modinv_256(uint64_t r[4], const uint64_t a[4], const uint64_t m[4]);

#endif
