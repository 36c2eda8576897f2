/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Variable-time modular inversion: Bernstein-Yang "safegcd" (Bernstein, Yang, "Fast
 * constant-time gcd computation and modular inversion", 2019) run in batches of 62 divsteps,
 * each batch summarised by a 2x2 transition matrix, in the variable-time style: skip runs of
 * zero bits at once, clear several low bits of g per multiplication, stop as soon as g = 0, and
 * shorten f and g as they shrink.
 *
 * NOT constant time, on purpose. Callers only invert public values (point normalisation,
 * domain constants) or the single product inside a batch inversion of prover-internal data,
 * so the running time reveals nothing secret. See modinv.h.
 *
 * Numbers are held as n signed 62-bit limbs, value = sum x[i] * 2^(62 i), with limbs 0..n-2 in
 * [0, 2^62) and a signed top limb. n = 7 covers 384-bit moduli (434 bits of room), n = 5 covers
 * 256-bit ones (310 bits); that headroom is why no spare top bit is needed in m.
 *
 * Signed arithmetic stays within defined C: no left shift of a negative value, floor division
 * by 2^62 written as an exact division or via unsigned shifts (see shr62), and unsigned-to-signed
 * conversion through u2s, which is defined for every input and compiles to nothing.
 */
#include "modinv.h"

#include <string.h>

#define M62 (UINT64_MAX >> 2)
#define MAXN 7 /* 62-bit limbs for a 384-bit modulus */

__extension__ typedef __int128 i128; /* __extension__: quiet under -pedantic */
__extension__ typedef unsigned __int128 u128;

/* The int64 with the same bits as x (two's complement), without implementation-defined casts. */
static inline int64_t u2s(uint64_t x) {
  return x <= (uint64_t)INT64_MAX ? (int64_t)x : -(int64_t)~x - 1;
}

/* floor(x / 2^62) for int64 (cold path only). */
static inline int64_t shr62_64(int64_t x) {
  uint64_t neg = 0 - (uint64_t)(x < 0);
  return u2s((((uint64_t)x ^ neg) >> 62) ^ neg);
}

/*
 * floor(x / 2^62) for int128. Both forms are exact and defined; each is the one that its
 * compiler turns into a plain shrd/sar pair (GCC spills the other form to the stack, Clang
 * adds a few instructions to the first).
 */
static inline i128 shr62(i128 x) {
#if defined(__clang__)
  return (i128)u2s((uint64_t)((u128)x >> 64)) * 4 + (i128)((uint64_t)x >> 62);
#else
  return (x - (i128)((uint64_t)x & M62)) / ((i128)1 << 62);
#endif
}

/*
 * Transition matrix of one batch of 62 divsteps, scaled by 2^62:
 *   2^62 * [f'; g'] = [u v; q r] * [f; g].
 * Each row has |u| + |v| <= 2^62 (a divstep at most doubles a row's 1-norm while the scale
 * doubles), which bounds every product in the updates below.
 */
typedef struct {
  int64_t u, v, q, r;
} trans62;

/* NINV8[x] = -x^-1 mod 2^8 for odd x (even entries unused): one multiplication then gives the
 * multiple of f that clears up to 8 low bits of g. */
static const uint8_t NINV8[256] = {
    0, 255, 0, 85,  0, 51,  0, 73,  0, 199, 0, 93,  0, 59,  0, 17,  0, 15,  0, 229, 0, 195, 0, 89,
    0, 215, 0, 237, 0, 203, 0, 33,  0, 31,  0, 117, 0, 83,  0, 105, 0, 231, 0, 125, 0, 91,  0, 49,
    0, 47,  0, 5,   0, 227, 0, 121, 0, 247, 0, 13,  0, 235, 0, 65,  0, 63,  0, 149, 0, 115, 0, 137,
    0, 7,   0, 157, 0, 123, 0, 81,  0, 79,  0, 37,  0, 3,   0, 153, 0, 23,  0, 45,  0, 11,  0, 97,
    0, 95,  0, 181, 0, 147, 0, 169, 0, 39,  0, 189, 0, 155, 0, 113, 0, 111, 0, 69,  0, 35,  0, 185,
    0, 55,  0, 77,  0, 43,  0, 129, 0, 127, 0, 213, 0, 179, 0, 201, 0, 71,  0, 221, 0, 187, 0, 145,
    0, 143, 0, 101, 0, 67,  0, 217, 0, 87,  0, 109, 0, 75,  0, 161, 0, 159, 0, 245, 0, 211, 0, 233,
    0, 103, 0, 253, 0, 219, 0, 177, 0, 175, 0, 133, 0, 99,  0, 249, 0, 119, 0, 141, 0, 107, 0, 193,
    0, 191, 0, 21,  0, 243, 0, 9,   0, 135, 0, 29,  0, 251, 0, 209, 0, 207, 0, 165, 0, 131, 0, 25,
    0, 151, 0, 173, 0, 139, 0, 225, 0, 223, 0, 53,  0, 19,  0, 41,  0, 167, 0, 61,  0, 27,  0, 241,
    0, 239, 0, 197, 0, 163, 0, 57,  0, 183, 0, 205, 0, 171, 0, 1,
};

/*
 * 62 divsteps on the low 64 bits of f (odd) and g; returns the new eta, fills *t.
 *
 * With eta = -delta (delta as in the paper), one divstep is
 *   eta < 0 and g odd:  eta, f, g = -eta - 1, g, (g - f) / 2
 *   otherwise:          eta, f, g =  eta - 1, f, (g + (g odd ? f : 0)) / 2
 * The next i divsteps depend only on the low i bits of f and g, so 62 steps need 62 bits.
 * Rather than halving g we leave its bits in place and double (u, v), keeping the matrix
 * integral. Steps are taken in runs:
 *  - k zero low bits of g are k halvings: shift by k, eta -= k;
 *  - g odd and eta < 0: the step is a swap (f, g) <- (g, -f) followed by "add f, halve";
 *    this is the path taken almost every time (about 98%), hence the branch hint;
 *  - g odd and eta >= 0: the next min(eta + 1, steps left) steps cannot swap, so together they
 *    are g += w * f with w = -g / f mod 2^k, then k halvings; we take k <= 8 per round.
 * Everything is computed mod 2^64 in unsigned arithmetic; the true entries are at most 2^62 in
 * absolute value, so u2s recovers them exactly.
 */
static int64_t divsteps62_var(int64_t eta, uint64_t f, uint64_t g, trans62 *t) {
  uint64_t u = 1, v = 0, q = 0, r = 1;
  uint64_t stop = (uint64_t)1 << 62; /* 2^(divsteps left); also caps the zero-run below */
  for (;;) {
    uint64_t z = (uint64_t)__builtin_ctzll(g | stop);
    g >>= z;
    u <<= z;
    v <<= z;
    stop >>= z;
    eta -= (int64_t)z;
    if (stop == 1) break;
    /* g is odd now. */
    if (__builtin_expect(eta < 0, 1)) {
      const uint64_t f0 = f, u0 = u, v0 = v;
      eta = -eta;
      f = g;
      g = 0 - f0;
      u = q;
      q = 0 - u0;
      v = r;
      r = 0 - v0;
    }
    /* eta >= 0, f and g odd: clear the low min(eta + 1, steps left, 8) bits of g. */
    uint64_t mask = (stop - 1) & (UINT64_MAX >> (63 - (eta < 7 ? eta : 7)));
    uint64_t w = (g * NINV8[f & 255]) & mask;
    g += w * f;
    q += w * u;
    r += w * v;
  }
  t->u = u2s(u);
  t->v = u2s(v);
  t->q = u2s(q);
  t->r = u2s(r);
  return eta;
}

/*
 * [f; g] <- [u v; q r] [f; g] / 2^62 on the low len limbs; exact, as the batch cleared the low
 * 62 bits. Divsteps never increase max(|f|, |g|), so the results fit the same len limbs.
 */
static inline void update_fg(int len, int64_t *f, int64_t *g, const trans62 *t) {
  const int64_t u = t->u, v = t->v, q = t->q, r = t->r;
  i128 cf = (i128)u * f[0] + (i128)v * g[0];
  i128 cg = (i128)q * f[0] + (i128)r * g[0];
  cf = shr62(cf);
  cg = shr62(cg);
  for (int i = 1; i < len; i++) {
    cf += (i128)u * f[i] + (i128)v * g[i];
    cg += (i128)q * f[i] + (i128)r * g[i];
    f[i - 1] = (int64_t)((uint64_t)cf & M62);
    g[i - 1] = (int64_t)((uint64_t)cg & M62);
    cf = shr62(cf);
    cg = shr62(cg);
  }
  f[len - 1] = (int64_t)cf;
  g[len - 1] = (int64_t)cg;
}

/*
 * [d; e] <- [u v; q r] [d; e] / 2^62 mod m, keeping d, e in (-2m, m).
 * A negative d (resp. e) first gets m added, so both lie in (-m, m) and |u d + v e| < 2^62 m.
 * Then k m is added with k = -(u d + v e) m^-1 mod 2^62 in [0, 2^62), which zeroes the low 62
 * bits; the exact quotient lies in ((-2^62 m - 2^62 m) / 2^62, 2^62 m / 2^62) = (-2m, m).
 * md, me collect both multiples of m: |md| <= 2^62 before, > -2^63 after subtracting k.
 */
static inline void update_de(int n, int64_t *d, int64_t *e, const trans62 *t, const int64_t *m,
                             uint64_t minv) {
  const int64_t u = t->u, v = t->v, q = t->q, r = t->r;
  const int dneg = d[n - 1] < 0, eneg = e[n - 1] < 0;
  int64_t md = (dneg ? u : 0) + (eneg ? v : 0);
  int64_t me = (dneg ? q : 0) + (eneg ? r : 0);
  i128 cd = (i128)u * d[0] + (i128)v * e[0];
  i128 ce = (i128)q * d[0] + (i128)r * e[0];
  md -= (int64_t)((minv * (uint64_t)cd + (uint64_t)md) & M62);
  me -= (int64_t)((minv * (uint64_t)ce + (uint64_t)me) & M62);
  cd += (i128)md * m[0];
  ce += (i128)me * m[0];
  cd = shr62(cd);
  ce = shr62(ce);
  for (int i = 1; i < n; i++) {
    cd += (i128)u * d[i] + (i128)v * e[i] + (i128)md * m[i];
    ce += (i128)q * d[i] + (i128)r * e[i] + (i128)me * m[i];
    d[i - 1] = (int64_t)((uint64_t)cd & M62);
    e[i - 1] = (int64_t)((uint64_t)ce & M62);
    cd = shr62(cd);
    ce = shr62(ce);
  }
  d[n - 1] = (int64_t)cd;
  e[n - 1] = (int64_t)ce;
}

/* nw little-endian 64-bit words -> n 62-bit limbs (n * 62 >= nw * 64). */
static inline void to62(int64_t *x, const uint64_t *a, int nw, int n) {
  for (int i = 0; i < n; i++) {
    int bit = 62 * i, w = bit >> 6, s = bit & 63;
    uint64_t lo = w < nw ? a[w] >> s : 0;
    if (s > 2 && w + 1 < nw) lo |= a[w + 1] << (64 - s);
    x[i] = (int64_t)(lo & M62);
  }
}

/* Normalised limbs holding a value in [0, 2^(64 nw)) -> nw 64-bit words. */
static inline void from62(uint64_t *a, const int64_t *x, int nw) {
  for (int j = 0; j < nw; j++) {
    int bit = 64 * j, i = bit / 62, s = bit % 62; /* s <= 10 for nw <= 6: two limbs suffice */
    a[j] = ((uint64_t)x[i] >> s) | ((uint64_t)x[i + 1] << (62 - s));
  }
}

/* Propagate carries so limbs 0..n-2 are in [0, 2^62); the top limb absorbs the rest. */
static inline void carry62(int64_t *x, int n) {
  int64_t c = 0;
  for (int i = 0; i < n - 1; i++) {
    c += x[i];
    x[i] = (int64_t)((uint64_t)c & M62);
    c = shr62_64(c);
  }
  x[n - 1] += c;
}

/* Is the normalised len-limb x equal to s (s = 1 or -1)? -1 has low limbs 2^62 - 1, top -1. */
static inline int equals_pm1(const int64_t *x, int len, int s) {
  if (len == 1) return x[0] == s;
  const int64_t low = s > 0 ? 0 : (int64_t)M62;
  if (x[0] != (s > 0 ? 1 : (int64_t)M62)) return 0;
  for (int i = 1; i < len - 1; i++)
    if (x[i] != low) return 0;
  return x[len - 1] == (s > 0 ? 0 : -1);
}

static inline __attribute__((always_inline)) int
modinv_core(uint64_t *res, const uint64_t *a, const uint64_t *mod, int nw, const int n) {
  int64_t f[MAXN], g[MAXN], d[MAXN], e[MAXN], m[MAXN];
  trans62 t;

  /* Guard the preconditions that would otherwise loop forever (even m) or break the bounds
   * (m = 1): both are rejected as "not invertible". */
  uint64_t above1 = 0;
  for (int i = 1; i < nw; i++)
    above1 |= mod[i];
  if (!(mod[0] & 1) || (mod[0] == 1 && above1 == 0)) {
    memset(res, 0, sizeof(uint64_t) * (size_t)nw);
    return -1;
  }

  to62(m, mod, nw, n);
  to62(g, a, nw, n);
  memcpy(f, m, sizeof(int64_t) * (size_t)n);
  memset(d, 0, sizeof(int64_t) * (size_t)n);
  memset(e, 0, sizeof(int64_t) * (size_t)n);
  e[0] = 1;

  /* m^-1 mod 2^64 by Newton's iteration: m * m = 1 mod 8, each step doubles the valid bits. */
  uint64_t minv = mod[0];
  for (int k = 0; k < 5; k++)
    minv *= 2 - mod[0] * minv;

  /*
   * Main loop. Invariants: f = d a and g = e a (mod m), f odd, gcd(f, g) = gcd(m, a).
   * Start: f = m, g = a, d = 0, e = 1, eta = -1 (delta = 1). Each round runs 62 divsteps on
   * the low bits only, then applies their matrix to (f, g) over the integers and to (d, e)
   * mod m. Divsteps drive g to 0 and leave f = +-gcd(m, a) (random inputs need 13 rounds on
   * average for the 381-bit p, 9 for the 255-bit r). Then d a = f = +-1, so a^-1 = +-d.
   * Variable-time: we stop as soon as g = 0, and drop the top limb of f and g once both are mere
   * sign extension, so later rounds multiply fewer limbs.
   */
  int64_t eta = -1;
  int len = n;
  for (;;) {
    eta = divsteps62_var(eta, (uint64_t)f[0], (uint64_t)g[0], &t);
    /* f, g first: the next batch needs only their low limb, and can start while (d, e) are
     * still being updated. */
    update_fg(len, f, g, &t);
    update_de(n, d, e, &t, m, minv);
    if (g[0] == 0) {
      int64_t any = 0;
      for (int i = 1; i < len; i++)
        any |= g[i];
      if (any == 0) break;
    }
    /* If the top limbs of f and g are both 0 or -1, fold them into the limb below, which then
     * becomes a signed top limb in [-2^62, 2^62). */
    if (len > 1) {
      const int64_t fn = f[len - 1], gn = g[len - 1];
      if ((fn == 0 || fn == -1) && (gn == 0 || gn == -1)) {
        f[len - 2] -= fn != 0 ? (int64_t)1 << 62 : 0;
        g[len - 2] -= gn != 0 ? (int64_t)1 << 62 : 0;
        len--;
      }
    }
  }

  const int sign = equals_pm1(f, len, 1) ? 1 : equals_pm1(f, len, -1) ? -1 : 0;
  if (sign == 0) { /* |f| = gcd(a, m) != 1, including a = 0 mod m */
    memset(res, 0, sizeof(uint64_t) * (size_t)nw);
    return -1;
  }
  /* a^-1 = sign * d with d in (-2m, m), so sign * d in (-2m, 2m): negate if needed, then add m
   * up to twice or subtract it once to land in [0, m). */
  if (sign < 0) {
    for (int i = 0; i < n; i++)
      d[i] = -d[i];
    carry62(d, n);
  }
  for (int k = 0; k < 2 && d[n - 1] < 0; k++) {
    for (int i = 0; i < n; i++)
      d[i] += m[i];
    carry62(d, n);
  }
  int64_t tmp[MAXN];
  for (int i = 0; i < n; i++)
    tmp[i] = d[i] - m[i];
  carry62(tmp, n);
  if (tmp[n - 1] >= 0) memcpy(d, tmp, sizeof(int64_t) * (size_t)n);
  from62(res, d, nw);
  return 0;
}

int cuzk_modinv_384(uint64_t r[6], const uint64_t a[6], const uint64_t m[6]) {
  return modinv_core(r, a, m, 6, 7);
}

int cuzk_modinv_256(uint64_t r[4], const uint64_t a[4], const uint64_t m[4]) {
  return modinv_core(r, a, m, 4, 5);
}
