/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Branch-free Fr addition and subtraction for the NTT's inner loops.
 *
 * Why not limbs_add_mod: for 4 limbs gcc 12 turns its final select into a conditional branch; on
 * the random data of a transform that branch mispredicts about half the time (measured 11 ns per
 * addition against 2 ns here, on the 2-core Zen 5 VM). The x86-64 versions pin the select to
 * cmov/and-mask with inline assembly; elsewhere plain C with a mask.
 *
 * Preconditions as in the field layer: inputs fully reduced (< r); outputs fully reduced. Because
 * r < 2^255, a + b never carries out of 256 bits.
 */
#ifndef CUZK_NTT_FR_BFLY_H
#define CUZK_NTT_FR_BFLY_H

#include <stdint.h>

#include "cuzk/field/field.h"
#include "field/consts.h"
#include "field/mont.h"

/* s = a + b, d = a - b (mod r). s and d may alias a or b: all loads happen before the stores. */
static inline void ntt_fr_addsub(cuzk_fr *s, cuzk_fr *d, const cuzk_fr *a, const cuzk_fr *b) {
/* Unoptimized builds (-O0) cannot allocate the asm's 9 registers plus addressing: plain C. */
#if defined(__x86_64__) && defined(__OPTIMIZE__)
  uint64_t s0, s1, s2, s3, t0, t1, t2, t3;
  /* s = a + b; t = s - r; keep t unless that borrowed (then s < r) */
  __asm__("mov %[a0], %[s0]\n\t"
          "mov %[a1], %[s1]\n\t"
          "mov %[a2], %[s2]\n\t"
          "mov %[a3], %[s3]\n\t"
          "add %[b0], %[s0]\n\t"
          "adc %[b1], %[s1]\n\t"
          "adc %[b2], %[s2]\n\t"
          "adc %[b3], %[s3]\n\t"
          "mov %[s0], %[t0]\n\t"
          "mov %[s1], %[t1]\n\t"
          "mov %[s2], %[t2]\n\t"
          "mov %[s3], %[t3]\n\t"
          "sub %[m0], %[t0]\n\t"
          "sbb %[m1], %[t1]\n\t"
          "sbb %[m2], %[t2]\n\t"
          "sbb %[m3], %[t3]\n\t"
          "cmovnc %[t0], %[s0]\n\t"
          "cmovnc %[t1], %[s1]\n\t"
          "cmovnc %[t2], %[s2]\n\t"
          "cmovnc %[t3], %[s3]"
          : [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3), [t0] "=&r"(t0),
            [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3)
          : [a0] "m"(a->l[0]), [a1] "m"(a->l[1]), [a2] "m"(a->l[2]), [a3] "m"(a->l[3]),
            [b0] "m"(b->l[0]), [b1] "m"(b->l[1]), [b2] "m"(b->l[2]), [b3] "m"(b->l[3]),
            [m0] "m"(CUZK_R[0]), [m1] "m"(CUZK_R[1]), [m2] "m"(CUZK_R[2]), [m3] "m"(CUZK_R[3])
          : "cc");
  uint64_t d0, d1, d2, d3, z;
  /* d = a - b; on borrow add r back (r masked by the borrow) */
  __asm__("mov %[a0], %[d0]\n\t"
          "mov %[a1], %[d1]\n\t"
          "mov %[a2], %[d2]\n\t"
          "mov %[a3], %[d3]\n\t"
          "sub %[b0], %[d0]\n\t"
          "sbb %[b1], %[d1]\n\t"
          "sbb %[b2], %[d2]\n\t"
          "sbb %[b3], %[d3]\n\t"
          "sbb %[z], %[z]\n\t"
          "mov %[m0], %[t0]\n\t"
          "mov %[m1], %[t1]\n\t"
          "mov %[m2], %[t2]\n\t"
          "mov %[m3], %[t3]\n\t"
          "and %[z], %[t0]\n\t"
          "and %[z], %[t1]\n\t"
          "and %[z], %[t2]\n\t"
          "and %[z], %[t3]\n\t"
          "add %[t0], %[d0]\n\t"
          "adc %[t1], %[d1]\n\t"
          "adc %[t2], %[d2]\n\t"
          "adc %[t3], %[d3]"
          : [d0] "=&r"(d0), [d1] "=&r"(d1), [d2] "=&r"(d2), [d3] "=&r"(d3), [z] "=&r"(z),
            [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3)
          : [a0] "m"(a->l[0]), [a1] "m"(a->l[1]), [a2] "m"(a->l[2]), [a3] "m"(a->l[3]),
            [b0] "m"(b->l[0]), [b1] "m"(b->l[1]), [b2] "m"(b->l[2]), [b3] "m"(b->l[3]),
            [m0] "m"(CUZK_R[0]), [m1] "m"(CUZK_R[1]), [m2] "m"(CUZK_R[2]), [m3] "m"(CUZK_R[3])
          : "cc");
  s->l[0] = s0, s->l[1] = s1, s->l[2] = s2, s->l[3] = s3;
  d->l[0] = d0, d->l[1] = d1, d->l[2] = d2, d->l[3] = d3;
#else
  uint64_t sv[4], tv[4], dv[4];
  unsigned __int128 acc = 0;
  for (int i = 0; i < 4; i++) {
    acc += (unsigned __int128)a->l[i] + b->l[i];
    sv[i] = (uint64_t)acc;
    acc >>= 64;
  }
  uint64_t br = 0;
  for (int i = 0; i < 4; i++) {
    unsigned __int128 x = (unsigned __int128)sv[i] - CUZK_R[i] - br;
    tv[i] = (uint64_t)x;
    br = (uint64_t)(x >> 64) & 1;
  }
  uint64_t keep = 0 - br; /* all ones: s < r, keep s */
  uint64_t bd = 0;
  for (int i = 0; i < 4; i++) {
    unsigned __int128 x = (unsigned __int128)a->l[i] - b->l[i] - bd;
    dv[i] = (uint64_t)x;
    bd = (uint64_t)(x >> 64) & 1;
  }
  uint64_t mask = 0 - bd;
  acc = 0;
  for (int i = 0; i < 4; i++) {
    acc += (unsigned __int128)dv[i] + (CUZK_R[i] & mask);
    dv[i] = (uint64_t)acc;
    acc >>= 64;
  }
  for (int i = 0; i < 4; i++) {
    s->l[i] = (sv[i] & keep) | (tv[i] & ~keep);
    d->l[i] = dv[i];
  }
#endif
}

/* r = a - b (mod r), branch-free. */
static inline void ntt_fr_sub(cuzk_fr *r, const cuzk_fr *a, const cuzk_fr *b) {
  cuzk_fr s;
  ntt_fr_addsub(&s, r, a, b); /* the unused sum costs ~1 ns; keeps one audited asm body */
}

/* Montgomery product through the field layer's kernel seam (ADX or portable, chosen at start). */
typedef void (*ntt_mul_fn)(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
static inline ntt_mul_fn ntt_mul_kernel(void) { return cuzk_mont.fr_mul; }

#endif
