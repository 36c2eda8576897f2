/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Field-layer tests that the reference vectors do not cover: published constants
 * (docs/spec/groth16.md §1), agreement of the portable and ADX kernels on 10^5 random inputs, codec
 * range checks, batch inversion and the NTT roots of unity.
 */
#include "check.h"
#include "cuzk/field/field.h"
#include "field/consts.h"
#include "field/mont.h"
#include "rng.h"

static void hex_of_fr(char *out, const cuzk_fr *a) {
  unsigned char le[32], be[32];
  cuzk_fr_to_bytes(le, a);
  for (int i = 0; i < 32; i++)
    be[i] = le[31 - i];
  to_hex(out, be, 32);
}

static void fr_from_hex(cuzk_fr *r, const char *hex) {
  unsigned char be[32], le[32];
  CHECK(from_hex(be, hex, 32) == 0);
  for (int i = 0; i < 32; i++)
    le[i] = be[31 - i];
  CHECK(cuzk_fr_from_bytes(r, le));
}

static void test_montgomery_constants(void) {
  /* docs/spec/groth16.md §1.1: Fp's R = 2^384 mod p, Fr's R = 2^256 mod r, and 7 in Montgomery
   * form */
  static const uint64_t fp_r[6] = {0x760900000002fffdULL, 0xebf4000bc40c0002ULL,
                                   0x5f48985753c758baULL, 0x77ce585370525745ULL,
                                   0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL};
  CHECK(!memcmp(cuzk_fp_one.l, fp_r, sizeof fp_r));
  CHECK(CUZK_P_N0 == 0x89f3fffcfffcfffdULL);
  CHECK(CUZK_R_N0 == 0xfffffffeffffffffULL);
  static const uint64_t fp_r2[6] = {0xf4df1f341c341746ULL, 0x0a76e6a609d104f1ULL,
                                    0x8de5476c4c95b6d5ULL, 0x67eb88a9939d83c0ULL,
                                    0x9a793e85b519952dULL, 0x11988fe592cae3aaULL};
  CHECK(!memcmp(CUZK_P_R2, fp_r2, sizeof fp_r2));
  char hex[65];
  unsigned char be[32];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 8; j++)
      be[31 - (i * 8 + j)] = (unsigned char)(cuzk_fr_one.l[i] >> (8 * j));
  to_hex(hex, be, 32);
  CHECK(!strcmp(hex, "1824b159acc5056f998c4fefecbc4ff55884b7fa0003480200000001fffffffe"));
  static const uint64_t seven[4] = {0x0000000efffffff1ULL, 0x17e363d300189c0fULL,
                                    0xff9c57876f8457b0ULL, 0x351332208fc5a8c4ULL};
  cuzk_fr s;
  cuzk_fr_from_u64(&s, 7);
  CHECK(!memcmp(s.l, seven, sizeof seven));
  CHECK(cuzk_fr_eq(&s, &CUZK_FR_GENERATOR));
}

/* docs/spec/groth16.md §1.4: 2-adicity 32, generator 7 a non-residue, the root of unity and its
 * powers. */
static void test_ntt_roots(void) {
  char hex[65];
  CHECK(cuzk_fr_legendre(&CUZK_FR_GENERATOR) == -1);
  hex_of_fr(hex, &CUZK_FR_ROOT_OF_UNITY);
  CHECK(!strcmp(hex, "16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b"));
  static const uint64_t rou_mont[4] = {0xb9b58d8c5f0e466aULL, 0x5b1b4c801819d7ecULL,
                                       0x0af53ae352a31e64ULL, 0x5bf3adda19e9b27bULL};
  CHECK(!memcmp(CUZK_FR_ROOT_OF_UNITY.l, rou_mont, sizeof rou_mont));

  cuzk_fr w = CUZK_FR_ROOT_OF_UNITY, minus_one;
  cuzk_fr_neg(&minus_one, &cuzk_fr_one);
  for (int k = 32; k > 27; k--)
    cuzk_fr_sqr(&w, &w); /* omega_27 */
  hex_of_fr(hex, &w);
  CHECK(!strcmp(hex, "23397a9300f8f98bece8ea224f31d25db94f1101b1d7a628e2d0a7869f0319ed"));
  cuzk_fr t = CUZK_FR_ROOT_OF_UNITY;
  for (int i = 0; i < 31; i++)
    cuzk_fr_sqr(&t, &t);
  CHECK(cuzk_fr_eq(&t, &minus_one)); /* primitive: omega^(2^31) = -1 */
  cuzk_fr_sqr(&t, &t);
  CHECK(cuzk_fr_is_one(&t));

  /* 7^-1, 2^-1 and Z = 7^(2^27) - 1 on the coset of the 2^27 domain */
  cuzk_fr x, e;
  cuzk_fr_inv(&x, &CUZK_FR_GENERATOR);
  fr_from_hex(&e, "211f5460e751918257c7624b7077624aaa362edc49241a48db6db6db24924925");
  CHECK(cuzk_fr_eq(&x, &e));
  cuzk_fr_from_u64(&x, 2);
  cuzk_fr_inv(&x, &x);
  fr_from_hex(&e, "39f6d3a994cebea4199cec0404d0ec02a9ded2017fff2dff7fffffff80000001");
  CHECK(cuzk_fr_eq(&x, &e));
  uint64_t m = 1ULL << 27;
  cuzk_fr_pow(&x, &CUZK_FR_GENERATOR, &m, 1);
  cuzk_fr_sub(&x, &x, &cuzk_fr_one);
  fr_from_hex(&e, "2a98b3de1e8d05396c576a792ed0dd3cafe4f76895ae53bfade986863f8b7152");
  CHECK(cuzk_fr_eq(&x, &e));
}

#if defined(CUZK_HAVE_ADX_ASM)
static unsigned fp2_mul_differs(const cuzk_fp2 *a, const cuzk_fp2 *b) {
  cuzk_fp2 r1, r2;
  cuzk_fp2_mul_portable((uint64_t *)&r1, (const uint64_t *)a, (const uint64_t *)b);
  cuzk_fp2_mul_adx((uint64_t *)&r2, (const uint64_t *)a, (const uint64_t *)b);
  return !cuzk_fp2_eq(&r1, &r2);
}

static unsigned fp2_sqr_differs(const cuzk_fp2 *a) {
  cuzk_fp2 r1, r2;
  cuzk_fp2_sqr_portable((uint64_t *)&r1, (const uint64_t *)a);
  cuzk_fp2_sqr_adx((uint64_t *)&r2, (const uint64_t *)a);
  return !cuzk_fp2_eq(&r1, &r2);
}

/* The Fp2 kernels (lazy reduction in the assembly): random inputs, every pair of edge elements
 * (each coordinate 0, 1 or p - 1) and aliasing. */
static void test_fp2_kernels_agree(uint64_t *s) {
  unsigned bad = 0;
  for (int i = 0; i < 100000; i++) {
    cuzk_fp2 a, b;
    rng_fp(s, &a.c0);
    rng_fp(s, &a.c1);
    rng_fp(s, &b.c0);
    rng_fp(s, &b.c1);
    bad += fp2_mul_differs(&a, &b);
    bad += fp2_sqr_differs(&a);
  }
  cuzk_fp e[3];
  e[0] = cuzk_fp_zero;
  e[1] = cuzk_fp_one;
  cuzk_fp_neg(&e[2], &cuzk_fp_one);
  cuzk_fp2 edge[9];
  for (int i = 0; i < 9; i++) {
    edge[i].c0 = e[i % 3];
    edge[i].c1 = e[i / 3];
  }
  for (int i = 0; i < 9; i++) {
    bad += fp2_sqr_differs(&edge[i]);
    for (int j = 0; j < 9; j++)
      bad += fp2_mul_differs(&edge[i], &edge[j]);
  }
  /* aliasing: r == a == b, r == a, r == b (mul) and r == a (sqr) */
  for (int i = 0; i < 100; i++) {
    cuzk_fp2 a, b, r, x, y;
    rng_fp(s, &a.c0);
    rng_fp(s, &a.c1);
    rng_fp(s, &b.c0);
    rng_fp(s, &b.c1);
    if (i < 9) a = edge[i];
    cuzk_fp2_mul_portable((uint64_t *)&r, (const uint64_t *)&a, (const uint64_t *)&a);
    x = a;
    cuzk_fp2_mul_adx((uint64_t *)&x, (const uint64_t *)&x, (const uint64_t *)&x);
    bad += !cuzk_fp2_eq(&x, &r);
    cuzk_fp2_mul_portable((uint64_t *)&r, (const uint64_t *)&a, (const uint64_t *)&b);
    x = a;
    y = b;
    cuzk_fp2_mul_adx((uint64_t *)&x, (const uint64_t *)&x, (const uint64_t *)&b);
    cuzk_fp2_mul_adx((uint64_t *)&y, (const uint64_t *)&a, (const uint64_t *)&y);
    bad += !cuzk_fp2_eq(&x, &r) + !cuzk_fp2_eq(&y, &r);
    cuzk_fp2_sqr_portable((uint64_t *)&r, (const uint64_t *)&a);
    x = a;
    cuzk_fp2_sqr_adx((uint64_t *)&x, (const uint64_t *)&x);
    bad += !cuzk_fp2_eq(&x, &r);
  }
  /* the portable kernels themselves, aliased, against unaliased calls */
  for (int i = 0; i < 100; i++) {
    cuzk_fp2 a, b, r, x;
    rng_fp(s, &a.c0);
    rng_fp(s, &a.c1);
    rng_fp(s, &b.c0);
    rng_fp(s, &b.c1);
    cuzk_fp2_mul_portable((uint64_t *)&r, (const uint64_t *)&a, (const uint64_t *)&b);
    x = a;
    cuzk_fp2_mul_portable((uint64_t *)&x, (const uint64_t *)&x, (const uint64_t *)&b);
    bad += !cuzk_fp2_eq(&x, &r);
    cuzk_fp2_sqr_portable((uint64_t *)&r, (const uint64_t *)&a);
    x = a;
    cuzk_fp2_sqr_portable((uint64_t *)&x, (const uint64_t *)&x);
    bad += !cuzk_fp2_eq(&x, &r);
  }
  CHECK_MSG(bad == 0, "%u Fp2 kernel mismatches", bad);
}
#endif

/* The portable and ADX kernels must agree bit for bit (issue: 10^5 random inputs). */
static void test_kernels_agree(void) {
  if (!cuzk_field_kernel_supported(CUZK_KERNEL_ADX)) {
    printf("ADX kernel unavailable (CPU or CUZK_ASM=OFF): only the portable kernel runs\n");
    return;
  }
#if defined(CUZK_HAVE_ADX_ASM)
  uint64_t s = 42;
  unsigned bad = 0;
  for (int i = 0; i < 100000; i++) {
    cuzk_fp a, b, r1, r2;
    cuzk_fr c, d, q1, q2;
    rng_fp(&s, &a);
    rng_fp(&s, &b);
    rng_fr(&s, &c);
    rng_fr(&s, &d);
    cuzk_fp_mul_portable(r1.l, a.l, b.l);
    cuzk_fp_mul_adx(r2.l, a.l, b.l);
    bad += !cuzk_fp_eq(&r1, &r2);
    cuzk_fp_sqr_portable(r1.l, a.l);
    cuzk_fp_sqr_adx(r2.l, a.l);
    bad += !cuzk_fp_eq(&r1, &r2);
    cuzk_fr_mul_portable(q1.l, c.l, d.l);
    cuzk_fr_mul_adx(q2.l, c.l, d.l);
    bad += !cuzk_fr_eq(&q1, &q2);
    cuzk_fr_sqr_portable(q1.l, c.l);
    cuzk_fr_sqr_adx(q2.l, c.l);
    bad += !cuzk_fr_eq(&q1, &q2);
  }
  /* edges: 0, 1, m - 1, and the largest reduced values */
  cuzk_fp fe[3];
  fe[0] = cuzk_fp_zero;
  fe[1] = cuzk_fp_one;
  cuzk_fp_neg(&fe[2], &cuzk_fp_one);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      cuzk_fp r1, r2;
      cuzk_fp_mul_portable(r1.l, fe[i].l, fe[j].l);
      cuzk_fp_mul_adx(r2.l, fe[i].l, fe[j].l);
      bad += !cuzk_fp_eq(&r1, &r2);
    }
  /* aliasing: r == a == b */
  cuzk_fp a, b;
  rng_fp(&s, &a);
  b = a;
  cuzk_fp_mul_adx(a.l, a.l, a.l);
  cuzk_fp_mul_portable(b.l, b.l, b.l);
  bad += !cuzk_fp_eq(&a, &b);
  CHECK_MSG(bad == 0, "%u kernel mismatches", bad);
  test_fp2_kernels_agree(&s);
#else
  printf("built without the assembly kernels (CUZK_ASM=OFF)\n");
#endif
}

static void test_codecs(void) {
  unsigned char b[48];
  /* p itself, p + 1 and 2^384 - 1 are not canonical; p - 1 is */
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 8; j++)
      b[(5 - i) * 8 + j] = (unsigned char)(CUZK_P[i] >> (56 - 8 * j));
  cuzk_fp x;
  CHECK(!cuzk_fp_from_bytes(&x, b));
  b[47]++;
  CHECK(!cuzk_fp_from_bytes(&x, b));
  b[47] -= 2;
  CHECK(cuzk_fp_from_bytes(&x, b));
  cuzk_fp m1;
  cuzk_fp_neg(&m1, &cuzk_fp_one);
  CHECK(cuzk_fp_eq(&x, &m1));
  memset(b, 0xff, 48);
  CHECK(!cuzk_fp_from_bytes(&x, b));

  unsigned char s[32];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 8; j++)
      s[i * 8 + j] = (unsigned char)(CUZK_R[i] >> (8 * j));
  cuzk_fr y;
  CHECK(!cuzk_fr_from_bytes(&y, s));
  s[0]--;
  CHECK(cuzk_fr_from_bytes(&y, s)); /* r - 1 */
  cuzk_fr r1;
  cuzk_fr_neg(&r1, &cuzk_fr_one);
  CHECK(cuzk_fr_eq(&y, &r1));

  /* round trips on random values; the Fr encoding is little-endian */
  uint64_t st = 7;
  for (int i = 0; i < 1000; i++) {
    cuzk_fp a, a2;
    cuzk_fr c, c2;
    rng_fp(&st, &a);
    rng_fr(&st, &c);
    cuzk_fp_to_bytes(b, &a);
    CHECK(cuzk_fp_from_bytes(&a2, b) && cuzk_fp_eq(&a, &a2));
    cuzk_fr_to_bytes(s, &c);
    CHECK(cuzk_fr_from_bytes(&c2, s) && cuzk_fr_eq(&c, &c2));
  }
  cuzk_fr_from_u64(&y, 0x0102);
  cuzk_fr_to_bytes(s, &y);
  CHECK(s[0] == 0x02 && s[1] == 0x01 && s[2] == 0);
}

static void test_inversion(void) {
  uint64_t st = 99;
  enum { N = 64 };
  cuzk_fp a[N], inv[N], scratch[N];
  cuzk_fr c[N], cinv[N], cscratch[N];
  cuzk_fp2 d[N], dinv[N], dscratch[N];
  for (int i = 0; i < N; i++) {
    rng_fp(&st, &a[i]);
    rng_fr(&st, &c[i]);
    rng_fp(&st, &d[i].c0);
    rng_fp(&st, &d[i].c1);
  }
  a[5] = cuzk_fp_zero; /* zeros pass through as zeros */
  c[0] = cuzk_fr_zero;
  d[N - 1] = cuzk_fp2_zero;
  cuzk_fp_batch_inv(inv, a, N, scratch);
  cuzk_fr_batch_inv(cinv, c, N, cscratch);
  cuzk_fp2_batch_inv(dinv, d, N, dscratch);
  for (int i = 0; i < N; i++) {
    cuzk_fp e, t;
    cuzk_fr f, u;
    cuzk_fp2 g, v;
    CHECK(cuzk_fp_inv(&e, &a[i]) == !cuzk_fp_is_zero(&a[i]));
    CHECK(cuzk_fp_eq(&e, &inv[i]));
    cuzk_fp_mul(&t, &a[i], &inv[i]);
    CHECK(cuzk_fp_is_zero(&a[i]) || cuzk_fp_is_one(&t));
    CHECK(cuzk_fr_inv(&f, &c[i]) == !cuzk_fr_is_zero(&c[i]));
    CHECK(cuzk_fr_eq(&f, &cinv[i]));
    cuzk_fr_mul(&u, &c[i], &cinv[i]);
    CHECK(cuzk_fr_is_zero(&c[i]) || cuzk_fr_is_one(&u));
    CHECK(cuzk_fp2_inv(&g, &d[i]) == !cuzk_fp2_is_zero(&d[i]));
    CHECK(cuzk_fp2_eq(&g, &dinv[i]));
    cuzk_fp2_mul(&v, &d[i], &dinv[i]);
    CHECK(cuzk_fp2_is_zero(&d[i]) || cuzk_fp2_is_one(&v));
  }
  /* in place */
  cuzk_fp_batch_inv(a, a, N, scratch);
  for (int i = 0; i < N; i++)
    CHECK(cuzk_fp_eq(&a[i], &inv[i]));
  /* Fermat: a^(p-1) = 1 through pow */
  uint64_t pm1[6];
  memcpy(pm1, CUZK_P, sizeof pm1);
  pm1[0] -= 1;
  cuzk_fp t;
  cuzk_fp_pow(&t, &inv[1], pm1, 6);
  CHECK(cuzk_fp_is_one(&t));
}

int main(void) {
  cuzk_field_kernel kernels[] = {CUZK_KERNEL_PORTABLE, CUZK_KERNEL_ADX};
  test_kernels_agree();
  for (int k = 0; k < 2; k++) {
    if (!cuzk_field_use_kernel(kernels[k])) continue;
    test_montgomery_constants();
    test_ntt_roots();
    test_codecs();
    test_inversion();
  }
  return check_summary("test_field");
}
