/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Curve-layer tests beyond the reference vectors: decoder rejections with their distinct error
 * codes, subgroup checks on crafted points outside G1/G2 (checked against the slow [r]P = O test),
 * scalar-multiplication edge cases, batch affine conversion and affine batch sums.
 */
#include "check.h"
#include "cuzk/curve/curve.h"
#include "field/consts.h"
#include "field/limbs.h"
#include "rng.h"

/* Cofactors (docs/spec/groth16.md §1.2), little-endian limbs. */
static const uint64_t H1[2] = {0x8c00aaab0000aaabULL, 0x396c8c005555e156ULL};

static void h2_limbs(uint64_t out[10]) {
  /* h2 = 0x5d543a95414e7f1091d50792876a202cd91de4547085abaa68a205b2e5a7ddfa628f1cb4d9e82ef2
   *      1537e293a6691ae1616ec6e786f0c70cf1c38e31c7238e5 */
  static const char *hex =
      "5d543a95414e7f1091d50792876a202cd91de4547085abaa68a205b2e5a7ddfa628f1cb4"
      "d9e82ef21537e293a6691ae1616ec6e786f0c70cf1c38e31c7238e5";
  memset(out, 0, 10 * sizeof(uint64_t));
  size_t n = strlen(hex);
  for (size_t i = 0; i < n; i++) {
    size_t bit = 4 * (n - 1 - i);
    out[bit / 64] |= (uint64_t)hex_val(hex[i]) << (bit % 64);
  }
}

/* A random point of E(Fp) (almost surely outside G1): x random until x^3 + 4 is a square. */
static void random_e1_point(uint64_t *s, cuzk_g1_affine *a) {
  for (;;) {
    cuzk_fp rhs;
    rng_fp(s, &a->x);
    cuzk_fp_sqr(&rhs, &a->x);
    cuzk_fp_mul(&rhs, &rhs, &a->x);
    cuzk_fp_add(&rhs, &rhs, &CUZK_G1_B);
    if (cuzk_fp_sqrt(&a->y, &rhs)) return;
  }
}

static void random_e2_point(uint64_t *s, cuzk_g2_affine *a) {
  for (;;) {
    cuzk_fp2 rhs;
    rng_fp(s, &a->x.c0);
    rng_fp(s, &a->x.c1);
    cuzk_fp2_sqr(&rhs, &a->x);
    cuzk_fp2_mul(&rhs, &rhs, &a->x);
    cuzk_fp2_add(&rhs, &rhs, &CUZK_G2_B);
    if (cuzk_fp2_sqrt(&a->y, &rhs)) return;
  }
}

static void test_subgroup_checks(void) {
  uint64_t s = 5;
  uint64_t h2[10];
  h2_limbs(h2);
  for (int i = 0; i < 8; i++) {
    cuzk_g1_affine a;
    cuzk_g1 p, q;
    random_e1_point(&s, &a);
    CHECK(cuzk_g1_affine_is_on_curve(&a));
    cuzk_g1_from_affine(&p, &a);
    cuzk_g1_mul_limbs(&q, &p, CUZK_R, 4); /* slow reference: [r]P */
    CHECK(!cuzk_g1_is_infinity(&q));
    CHECK(!cuzk_g1_is_in_subgroup(&p));
    cuzk_g1_mul_limbs(&q, &p, H1, 2); /* clearing the cofactor lands in G1 */
    CHECK(cuzk_g1_is_in_subgroup(&q));
    cuzk_g1 o;
    cuzk_g1_mul_limbs(&o, &q, CUZK_R, 4);
    CHECK(cuzk_g1_is_infinity(&o));

    /* encodings of the outside point decode only without the subgroup check */
    cuzk_g1_affine d;
    unsigned char c[48], u[96];
    cuzk_g1_to_compressed(c, &a);
    cuzk_g1_to_uncompressed(u, &a);
    CHECK(cuzk_g1_from_compressed(&d, c) == CUZK_EC_NOT_IN_SUBGROUP);
    CHECK(cuzk_g1_from_uncompressed(&d, u) == CUZK_EC_NOT_IN_SUBGROUP);
    CHECK(cuzk_g1_from_compressed_unchecked(&d, c) == CUZK_EC_OK && cuzk_g1_affine_eq(&d, &a));
    CHECK(cuzk_g1_from_uncompressed_unchecked(&d, u) == CUZK_EC_OK && cuzk_g1_affine_eq(&d, &a));
  }
  for (int i = 0; i < 4; i++) {
    cuzk_g2_affine a;
    cuzk_g2 p, q;
    random_e2_point(&s, &a);
    CHECK(cuzk_g2_affine_is_on_curve(&a));
    cuzk_g2_from_affine(&p, &a);
    cuzk_g2_mul_limbs(&q, &p, CUZK_R, 4);
    CHECK(!cuzk_g2_is_infinity(&q));
    CHECK(!cuzk_g2_is_in_subgroup(&p));
    cuzk_g2_mul_limbs(&q, &p, h2, 10);
    CHECK(cuzk_g2_is_in_subgroup(&q));
    cuzk_g2 o;
    cuzk_g2_mul_limbs(&o, &q, CUZK_R, 4);
    CHECK(cuzk_g2_is_infinity(&o));

    cuzk_g2_affine d;
    unsigned char c[96], u[192];
    cuzk_g2_to_compressed(c, &a);
    cuzk_g2_to_uncompressed(u, &a);
    CHECK(cuzk_g2_from_compressed(&d, c) == CUZK_EC_NOT_IN_SUBGROUP);
    CHECK(cuzk_g2_from_uncompressed(&d, u) == CUZK_EC_NOT_IN_SUBGROUP);
    CHECK(cuzk_g2_from_compressed_unchecked(&d, c) == CUZK_EC_OK && cuzk_g2_affine_eq(&d, &a));
    CHECK(cuzk_g2_from_uncompressed_unchecked(&d, u) == CUZK_EC_OK && cuzk_g2_affine_eq(&d, &a));
  }
  /* (0, ±2) is on E but of order 3: NOT_IN_SUBGROUP, as blst reports it */
  unsigned char u[96] = {0}, c[48] = {0};
  u[95] = 2;
  cuzk_g1_affine d;
  CHECK(cuzk_g1_from_uncompressed(&d, u) == CUZK_EC_NOT_IN_SUBGROUP);
  c[0] = 0x80;
  CHECK(cuzk_g1_from_compressed(&d, c) == CUZK_EC_NOT_IN_SUBGROUP);
}

/* The published encodings of the standard generators (docs/spec/groth16.md §1.5). */
static void test_generator_vectors(void) {
  cuzk_g1_affine g;
  cuzk_g2_affine g2;
  unsigned char c[96];
  char hex[2 * 96 + 1];
  cuzk_g1_affine_generator(&g);
  cuzk_g2_affine_generator(&g2);
  cuzk_g1_to_compressed(c, &g);
  to_hex(hex, c, 48);
  CHECK(!strcmp(hex, "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff9"
                     "7a1aeffb3af00adb22c6bb"));
  cuzk_g2_to_compressed(c, &g2);
  to_hex(hex, c, 96);
  CHECK(!strcmp(hex, "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213"
                     "945d57e5ac7d055d042b7e024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4"
                     "510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"));
  CHECK(cuzk_g1_affine_is_on_curve(&g) && cuzk_g1_affine_is_in_subgroup(&g));
  CHECK(cuzk_g2_affine_is_on_curve(&g2) && cuzk_g2_affine_is_in_subgroup(&g2));
}

static void test_decoder_rejections(void) {
  cuzk_g1_affine g, d;
  cuzk_g2_affine g2, d2;
  cuzk_g1_affine_generator(&g);
  cuzk_g2_affine_generator(&g2);
  unsigned char c[48], u[96], c2[96], u2[192], t[192];

  cuzk_g1_to_compressed(c, &g);
  cuzk_g1_to_uncompressed(u, &g);
  cuzk_g2_to_compressed(c2, &g2);
  cuzk_g2_to_uncompressed(u2, &g2);
  CHECK(cuzk_g1_from_compressed(&d, c) == CUZK_EC_OK && cuzk_g1_affine_eq(&d, &g));
  CHECK(cuzk_g1_from_uncompressed(&d, u) == CUZK_EC_OK && cuzk_g1_affine_eq(&d, &g));
  CHECK(cuzk_g2_from_compressed(&d2, c2) == CUZK_EC_OK && cuzk_g2_affine_eq(&d2, &g2));
  CHECK(cuzk_g2_from_uncompressed(&d2, u2) == CUZK_EC_OK && cuzk_g2_affine_eq(&d2, &g2));

  /* flags: compressed without C, uncompressed with C, uncompressed with S alone */
  memcpy(t, c, 48);
  t[0] &= 0x7f;
  CHECK(cuzk_g1_from_compressed(&d, t) == CUZK_EC_BAD_FLAGS);
  memcpy(t, u, 96);
  t[0] |= 0x80;
  CHECK(cuzk_g1_from_uncompressed(&d, t) == CUZK_EC_BAD_FLAGS);
  memcpy(t, u, 96);
  t[0] |= 0x20;
  CHECK(cuzk_g1_from_uncompressed(&d, t) == CUZK_EC_BAD_FLAGS);
  memcpy(t, c2, 96);
  t[0] &= 0x7f;
  CHECK(cuzk_g2_from_compressed(&d2, t) == CUZK_EC_BAD_FLAGS);
  memcpy(t, u2, 192);
  t[0] |= 0x20;
  CHECK(cuzk_g2_from_uncompressed(&d2, t) == CUZK_EC_BAD_FLAGS);

  /* infinity: the canonical forms decode, any junk bit (sign or coordinate) is rejected */
  memset(t, 0, sizeof t);
  t[0] = 0xc0;
  CHECK(cuzk_g1_from_compressed(&d, t) == CUZK_EC_OK && cuzk_g1_affine_is_infinity(&d));
  CHECK(cuzk_g2_from_compressed(&d2, t) == CUZK_EC_OK && cuzk_g2_affine_is_infinity(&d2));
  t[0] = 0xe0;
  CHECK(cuzk_g1_from_compressed(&d, t) == CUZK_EC_BAD_INFINITY);
  t[0] = 0xc0;
  t[47] = 1;
  CHECK(cuzk_g1_from_compressed(&d, t) == CUZK_EC_BAD_INFINITY);
  CHECK(cuzk_g2_from_compressed(&d2, t) == CUZK_EC_BAD_INFINITY);
  memset(t, 0, sizeof t);
  t[0] = 0x40;
  CHECK(cuzk_g1_from_uncompressed(&d, t) == CUZK_EC_OK && cuzk_g1_affine_is_infinity(&d));
  CHECK(cuzk_g2_from_uncompressed(&d2, t) == CUZK_EC_OK && cuzk_g2_affine_is_infinity(&d2));
  t[95] = 1;
  CHECK(cuzk_g1_from_uncompressed(&d, t) == CUZK_EC_BAD_INFINITY);
  t[95] = 0;
  t[191] = 1;
  CHECK(cuzk_g2_from_uncompressed(&d2, t) == CUZK_EC_BAD_INFINITY);
  t[191] = 0;
  t[0] = 0x41;
  CHECK(cuzk_g1_from_uncompressed(&d, t) == CUZK_EC_BAD_INFINITY);
  /* all zeros without the infinity flag is the point (0, 0): off the curve */
  memset(t, 0, sizeof t);
  CHECK(cuzk_g1_from_uncompressed(&d, t) == CUZK_EC_NOT_ON_CURVE);
  CHECK(cuzk_g2_from_uncompressed(&d2, t) == CUZK_EC_NOT_ON_CURVE);

  /* coordinates >= p: x = p in every position an Fp is read from */
  unsigned char pbe[48];
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 8; j++)
      pbe[(5 - i) * 8 + j] = (unsigned char)(CUZK_P[i] >> (56 - 8 * j));
  memcpy(t, pbe, 48);
  t[0] |= 0x80;
  CHECK(cuzk_g1_from_compressed(&d, t) == CUZK_EC_NON_CANONICAL);
  memcpy(t, u, 96);
  memcpy(t + 48, pbe, 48);
  CHECK(cuzk_g1_from_uncompressed(&d, t) == CUZK_EC_NON_CANONICAL);
  memcpy(t, u, 96);
  memset(t, 0xff, 48);
  t[0] = 0x1f;
  CHECK(cuzk_g1_from_uncompressed(&d, t) == CUZK_EC_NON_CANONICAL);
  for (int pos = 0; pos < 4; pos++) { /* x.c1, x.c0, y.c1, y.c0 */
    memcpy(t, u2, 192);
    memcpy(t + 48 * pos, pbe, 48);
    CHECK(cuzk_g2_from_uncompressed(&d2, t) == CUZK_EC_NON_CANONICAL);
  }
  memcpy(t, c2, 96);
  memcpy(t + 48, pbe, 48);
  CHECK(cuzk_g2_from_compressed(&d2, t) == CUZK_EC_NON_CANONICAL);

  /* off the curve: y + 1 uncompressed; an x with no y compressed */
  memcpy(t, u, 96);
  t[95] ^= 1;
  CHECK(cuzk_g1_from_uncompressed(&d, t) == CUZK_EC_NOT_ON_CURVE);
  memcpy(t, u2, 192);
  t[191] ^= 1;
  CHECK(cuzk_g2_from_uncompressed(&d2, t) == CUZK_EC_NOT_ON_CURVE);
  uint64_t s = 11;
  int g1_nox = 0, g2_nox = 0;
  for (int i = 0; i < 40 && (!g1_nox || !g2_nox); i++) {
    cuzk_fp x, rhs, y;
    cuzk_fp2 x2, rhs2, y2;
    rng_fp(&s, &x);
    cuzk_fp_sqr(&rhs, &x);
    cuzk_fp_mul(&rhs, &rhs, &x);
    cuzk_fp_add(&rhs, &rhs, &CUZK_G1_B);
    if (!g1_nox && !cuzk_fp_sqrt(&y, &rhs)) {
      cuzk_fp_to_bytes(t, &x);
      t[0] |= 0x80;
      CHECK(cuzk_g1_from_compressed(&d, t) == CUZK_EC_NOT_ON_CURVE);
      g1_nox = 1;
    }
    rng_fp(&s, &x2.c0);
    rng_fp(&s, &x2.c1);
    cuzk_fp2_sqr(&rhs2, &x2);
    cuzk_fp2_mul(&rhs2, &rhs2, &x2);
    cuzk_fp2_add(&rhs2, &rhs2, &CUZK_G2_B);
    if (!g2_nox && !cuzk_fp2_sqrt(&y2, &rhs2)) {
      cuzk_fp_to_bytes(t, &x2.c1);
      cuzk_fp_to_bytes(t + 48, &x2.c0);
      t[0] |= 0x80;
      CHECK(cuzk_g2_from_compressed(&d2, t) == CUZK_EC_NOT_ON_CURVE);
      g2_nox = 1;
    }
  }
  CHECK(g1_nox && g2_nox);
  CHECK(strstr(cuzk_ec_strerror(CUZK_EC_NOT_IN_SUBGROUP), "subgroup") != NULL);
}

/* The sign bit picks the root: flipping S decodes to -P. */
static void test_sign_bit(void) {
  cuzk_g1_affine g, n, d;
  cuzk_g1_affine_generator(&g);
  cuzk_g1_affine_neg(&n, &g);
  unsigned char c[48], cn[48];
  cuzk_g1_to_compressed(c, &g);
  cuzk_g1_to_compressed(cn, &n);
  CHECK((c[0] ^ cn[0]) == 0x20 && !memcmp(c + 1, cn + 1, 47));
  c[0] ^= 0x20;
  CHECK(cuzk_g1_from_compressed(&d, c) == CUZK_EC_OK && cuzk_g1_affine_eq(&d, &n));
  cuzk_g2_affine g2, n2, d2;
  unsigned char c2[96];
  cuzk_g2_affine_generator(&g2);
  cuzk_g2_affine_neg(&n2, &g2);
  cuzk_g2_to_compressed(c2, &g2);
  c2[0] ^= 0x20;
  CHECK(cuzk_g2_from_compressed(&d2, c2) == CUZK_EC_OK && cuzk_g2_affine_eq(&d2, &n2));
}

static void test_scalar_edges(void) {
  cuzk_g1 g, r, e;
  cuzk_g1_generator(&g);
  cuzk_fr k = cuzk_fr_zero;
  cuzk_g1_mul(&r, &g, &k);
  CHECK(cuzk_g1_is_infinity(&r));
  cuzk_g1_mul(&r, &g, &cuzk_fr_one);
  CHECK(cuzk_g1_eq(&r, &g));
  cuzk_fr_neg(&k, &cuzk_fr_one); /* r - 1: -G */
  cuzk_g1_mul(&r, &g, &k);
  cuzk_g1_neg(&e, &g);
  CHECK(cuzk_g1_eq(&r, &e));
  cuzk_g1 inf;
  cuzk_g1_set_infinity(&inf);
  cuzk_g1_mul(&r, &inf, &k);
  CHECK(cuzk_g1_is_infinity(&r));
  /* G1's GLV path against the plain wNAF path, at the split's edges: lambda - 1, lambda,
   * lambda + 1, lambda^2 + lambda = r - 1, and random scalars */
  static const uint64_t lam[4] = {0x00000000ffffffffULL, 0xac45a4010001a402ULL, 0, 0};
  uint64_t edges[5][4];
  for (int i = 0; i < 3; i++)
    memcpy(edges[i], lam, sizeof lam);
  edges[0][0] -= 1;
  edges[2][0] += 1;
  memcpy(edges[3], CUZK_R, sizeof lam);
  edges[3][0] -= 1;
  memcpy(edges[4], CUZK_R, sizeof lam); /* r - lambda */
  {
    uint8_t borrow = 0;
    for (int i = 0; i < 4; i++)
      borrow = limb_subb(borrow, edges[4][i], lam[i], &edges[4][i]);
  }
  uint64_t s0 = 77;
  for (int i = 0; i < 25; i++) {
    cuzk_fr kk;
    uint64_t c[4];
    if (i < 5) {
      CHECK(cuzk_fr_from_canonical(&kk, edges[i]));
    } else {
      rng_fr(&s0, &kk);
    }
    cuzk_fr_to_canonical(c, &kk);
    cuzk_g1 a, b, base;
    cuzk_g1_mul(&base, &g, &kk); /* a random-ish base point */
    cuzk_g1_mul(&a, &base, &kk);
    cuzk_g1_mul_limbs(&b, &base, c, 4);
    CHECK_MSG(cuzk_g1_eq(&a, &b), "GLV vs wNAF, case %d", i);
  }

  /* (a + b) G = aG + bG, (ab) G = a (b G), on both groups */
  uint64_t s = 3;
  for (int i = 0; i < 8; i++) {
    cuzk_fr a, b, ab, apb;
    rng_fr(&s, &a);
    rng_fr(&s, &b);
    cuzk_fr_mul(&ab, &a, &b);
    cuzk_fr_add(&apb, &a, &b);
    cuzk_g1 x, y, z;
    cuzk_g1_mul(&x, &g, &a);
    cuzk_g1_mul(&y, &g, &b);
    cuzk_g1_add(&x, &x, &y);
    cuzk_g1_mul(&z, &g, &apb);
    CHECK(cuzk_g1_eq(&x, &z));
    cuzk_g1_mul(&y, &y, &a);
    cuzk_g1_mul(&z, &g, &ab);
    CHECK(cuzk_g1_eq(&y, &z));
    cuzk_g2 g2, x2, y2, z2;
    cuzk_g2_generator(&g2);
    cuzk_g2_mul(&x2, &g2, &a);
    cuzk_g2_mul(&y2, &g2, &b);
    cuzk_g2_add(&x2, &x2, &y2);
    cuzk_g2_mul(&z2, &g2, &apb);
    CHECK(cuzk_g2_eq(&x2, &z2));
    CHECK(cuzk_g2_is_in_subgroup(&z2) && cuzk_g2_is_on_curve(&z2));
  }
}

/* Batch conversion and affine sums against one-at-a-time Jacobian arithmetic, with infinity,
 * repeated points (doubling inside the tree) and opposite pairs (cancellation). */
static void test_batch_ops(void) {
  enum { N = 600 };
  static cuzk_g1 jac[N];
  static cuzk_g1_affine aff[N], one[N];
  cuzk_g1 g, acc, sum;
  cuzk_g1_generator(&g);
  uint64_t s = 17;
  cuzk_g1_set_infinity(&acc);
  for (int i = 0; i < N; i++) {
    cuzk_fr k;
    rng_fr(&s, &k);
    if (i % 50 == 7)
      cuzk_g1_set_infinity(&jac[i]);
    else if (i % 50 == 9)
      jac[i] = jac[i - 1]; /* repeat */
    else if (i % 50 == 11)
      cuzk_g1_neg(&jac[i], &jac[i - 1]); /* cancels its neighbour */
    else
      cuzk_g1_mul(&jac[i], &g, &k);
    cuzk_g1_add(&acc, &acc, &jac[i]);
    cuzk_g1_to_affine(&one[i], &jac[i]);
  }
  cuzk_g1_batch_to_affine(aff, jac, N);
  int same = 1;
  for (int i = 0; i < N; i++)
    same &= cuzk_g1_affine_eq(&aff[i], &one[i]);
  CHECK(same);
  cuzk_g1_affine_sum(&sum, aff, N);
  CHECK(cuzk_g1_eq(&sum, &acc));
  cuzk_g1_affine_sum(&sum, aff, 0);
  CHECK(cuzk_g1_is_infinity(&sum));
  cuzk_g1_affine_sum(&sum, aff, 1);
  cuzk_g1 first;
  cuzk_g1_from_affine(&first, &aff[0]);
  CHECK(cuzk_g1_eq(&sum, &first));
  /* all copies of one point: the tree doubles at every level */
  for (int i = 0; i < 256; i++)
    aff[i] = one[0];
  cuzk_g1_affine_sum(&sum, aff, 256);
  uint64_t k256 = 256;
  cuzk_g1_mul_limbs(&acc, &first, &k256, 1);
  CHECK(cuzk_g1_eq(&sum, &acc));

  enum { M = 300 };
  static cuzk_g2 j2[M];
  static cuzk_g2_affine a2[M];
  cuzk_g2 g2, acc2, sum2;
  cuzk_g2_generator(&g2);
  cuzk_g2_set_infinity(&acc2);
  for (int i = 0; i < M; i++) {
    cuzk_fr k;
    rng_fr(&s, &k);
    if (i % 40 == 5)
      cuzk_g2_neg(&j2[i], &j2[i - 1]);
    else if (i % 40 == 6)
      j2[i] = j2[i - 2];
    else
      cuzk_g2_mul(&j2[i], &g2, &k);
    cuzk_g2_add(&acc2, &acc2, &j2[i]);
  }
  cuzk_g2_batch_to_affine(a2, j2, M);
  cuzk_g2_affine_sum(&sum2, a2, M);
  CHECK(cuzk_g2_eq(&sum2, &acc2));
}

int main(void) {
  test_generator_vectors();
  test_decoder_rejections();
  test_sign_bit();
  test_subgroup_checks();
  test_scalar_edges();
  test_batch_ops();
  return check_summary("test_curve");
}
