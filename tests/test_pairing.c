/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Pairing layer: the known value e(G1, G2), bilinearity, the product check, prepared lines,
 * multi-Miller loops and points at infinity. */
#include <stdint.h>

#include "check.h"
#include "cuzk/pairing/pairing.h"
#include "rng.h"

/* e(G1, G2) as blst and noble compute it: tests/ref/bls12_381.py's pairing(G1_GEN, G2_GEN)**3,
 * in cuzk_fp12_to_bytes order (12 big-endian Fp coefficients, c0.c0.c0 first). */
static const char E_GEN_HEX[] = "1250ebd871fc0a92a7b2d83168d0d727272d441befa15c503dd8e90ce98db3e7b6"
                                "d194f60839c508a84305aaca1789b6"
                                "089a1c5b46e5110b86750ec6a532348868a84045483c92b7af5af689452eafabf1"
                                "a8943e50439f1d59882a98eaa0170f"
                                "1368bb445c7c2d209703f239689ce34c0378a68e72a6b3b216da0e22a5031b54dd"
                                "ff57309396b38c881c4c849ec23e87"
                                "193502b86edb8857c273fa075a50512937e0794e1e65a7617c90d8bd66065b1fff"
                                "e51d7a579973b1315021ec3c19934f"
                                "01b2f522473d171391125ba84dc4007cfbf2f8da752f7c74185203fcca589ac719"
                                "c34dffbbaad8431dad1c1fb597aaa5"
                                "018107154f25a764bd3c79937a45b84546da634b8f6be14a8061e55cceba478b23"
                                "f7dacaa35c8ca78beae9624045b4b6"
                                "19f26337d205fb469cd6bd15c3d5a04dc88784fbb3d0b2dbdea54d43b2b73f2cbb"
                                "12d58386a8703e0f948226e47ee89d"
                                "06fba23eb7c5af0d9f80940ca771b6ffd5857baaf222eb95a7d2809d61bfe02e1b"
                                "fd1b68ff02f0b8102ae1c2d5d5ab1a"
                                "11b8b424cd48bf38fcef68083b0b0ec5c81a93b330ee1a677d0d15ff7b984e8978"
                                "ef48881e32fac91b93b47333e2ba57"
                                "03350f55a7aefcd3c31b4fcb6ce5771cc6a0e9786ab5973320c806ad360829107b"
                                "a810c5a09ffdd9be2291a0c25a99a2"
                                "04c581234d086a9902249b64728ffd21a189e87935a954051c7cdba7b3872629a4"
                                "fafc05066245cb9108f0242d0fe3ef"
                                "0f41e58663bf08cf068672cbd01a7ec73baca4d72ca93544deff686bfd6df543d4"
                                "8eaa24afe47e1efde449383b676631";

static uint64_t rng_state = 20261130;

static cuzk_fr rand_fr(void) {
  cuzk_fr k;
  rng_fr(&rng_state, &k);
  return k;
}

static cuzk_g1_affine g1_times(const cuzk_g1_affine *p, const cuzk_fr *k) {
  cuzk_g1 j, t;
  cuzk_g1_affine a;
  cuzk_g1_from_affine(&j, p);
  cuzk_g1_mul(&t, &j, k);
  cuzk_g1_to_affine(&a, &t);
  return a;
}

static cuzk_g2_affine g2_times(const cuzk_g2_affine *q, const cuzk_fr *k) {
  cuzk_g2 j, t;
  cuzk_g2_affine a;
  cuzk_g2_from_affine(&j, q);
  cuzk_g2_mul(&t, &j, k);
  cuzk_g2_to_affine(&a, &t);
  return a;
}

/* r = a^e, e little-endian limbs; plain square-and-multiply. */
static void fp12_pow_limbs(cuzk_fp12 *r, const cuzk_fp12 *a, const uint64_t *e, size_t n) {
  cuzk_fp12 acc = cuzk_fp12_one;
  for (size_t i = 64 * n; i-- > 0;) {
    cuzk_fp12_sqr(&acc, &acc);
    if ((e[i / 64] >> (i % 64)) & 1) cuzk_fp12_mul(&acc, &acc, a);
  }
  *r = acc;
}

static void fp12_pow_fr(cuzk_fp12 *r, const cuzk_fp12 *a, const cuzk_fr *k) {
  uint64_t e[4];
  cuzk_fr_to_canonical(e, k);
  fp12_pow_limbs(r, a, e, 4);
}

static const uint64_t R_LIMBS[4] = {0xffffffff00000001u, 0x53bda402fffe5bfeu, 0x3339d80809a1d805u,
                                    0x73eda753299d7d48u};

static void test_generator_value(const cuzk_g1_affine *g1, const cuzk_g2_affine *g2) {
  cuzk_fp12 e, er;
  uint8_t got[576], want[576];
  char hex[2 * 576 + 1];
  cuzk_pairing(&e, g1, g2);
  cuzk_fp12_to_bytes(got, &e);
  CHECK(from_hex(want, E_GEN_HEX, 576) == 0);
  to_hex(hex, got, 576);
  CHECK_MSG(memcmp(got, want, 576) == 0, "e(G1, G2) = %s", hex);
  CHECK(!cuzk_fp12_is_one(&e));
  fp12_pow_limbs(&er, &e, R_LIMBS, 4);
  CHECK_MSG(cuzk_fp12_is_one(&er), "e(G1, G2)^r != 1");
}

static void test_bilinearity(const cuzk_g1_affine *g1, const cuzk_g2_affine *g2) {
  cuzk_fp12 e_gen;
  cuzk_pairing(&e_gen, g1, g2);
  for (int i = 0; i < 3; i++) {
    /* e(aG1, bG2) = e(G1, G2)^(ab) */
    cuzk_fr a = rand_fr(), b = rand_fr(), ab;
    cuzk_g1_affine p = g1_times(g1, &a);
    cuzk_g2_affine q = g2_times(g2, &b);
    cuzk_fp12 lhs, rhs;
    cuzk_pairing(&lhs, &p, &q);
    cuzk_fr_mul(&ab, &a, &b);
    fp12_pow_fr(&rhs, &e_gen, &ab);
    CHECK_MSG(cuzk_fp12_eq(&lhs, &rhs), "e(aG1, bG2) != e(G1, G2)^(ab), round %d", i);

    /* e(cP, dQ) = e(P, Q)^(cd) for the random P = aG1, Q = bG2 */
    cuzk_fr c = rand_fr(), d = rand_fr(), cd;
    cuzk_g1_affine cp = g1_times(&p, &c);
    cuzk_g2_affine dq = g2_times(&q, &d);
    cuzk_fp12 e_pq;
    cuzk_pairing(&lhs, &cp, &dq);
    cuzk_pairing(&e_pq, &p, &q);
    cuzk_fr_mul(&cd, &c, &d);
    fp12_pow_fr(&rhs, &e_pq, &cd);
    CHECK_MSG(cuzk_fp12_eq(&lhs, &rhs), "e(cP, dQ) != e(P, Q)^(cd), round %d", i);

    /* e(P1 + P2, Q) = e(P1, Q) e(P2, Q) */
    cuzk_g1 j1, j2;
    cuzk_g1_affine sum;
    cuzk_g1_from_affine(&j1, &p);
    cuzk_g1_from_affine(&j2, &cp);
    cuzk_g1_add(&j1, &j1, &j2);
    cuzk_g1_to_affine(&sum, &j1);
    cuzk_pairing(&lhs, &sum, &q);
    cuzk_fp12 e2;
    cuzk_pairing(&e2, &cp, &q);
    cuzk_fp12_mul(&rhs, &e_pq, &e2);
    CHECK_MSG(cuzk_fp12_eq(&lhs, &rhs), "e(P1 + P2, Q) != e(P1, Q) e(P2, Q), round %d", i);
  }
}

static void test_negation(const cuzk_g1_affine *g1, const cuzk_g2_affine *g2) {
  cuzk_fr a = rand_fr(), b = rand_fr();
  cuzk_g1_affine p = g1_times(g1, &a), np;
  cuzk_g2_affine q = g2_times(g2, &b), nq;
  cuzk_g2_affine_neg(&nq, &q);
  cuzk_g1_affine_neg(&np, &p);
  cuzk_fp12 e1, e2, prod;
  cuzk_pairing(&e1, &p, &nq);
  cuzk_pairing(&e2, &p, &q);
  cuzk_fp12_mul(&prod, &e1, &e2);
  CHECK_MSG(cuzk_fp12_is_one(&prod), "e(P, -Q) e(P, Q) != 1");
  /* e(-P, Q) = e(P, -Q) = e(P, Q)^-1 = conj(e(P, Q)) */
  cuzk_pairing(&e2, &np, &q);
  CHECK(cuzk_fp12_eq(&e1, &e2));
  cuzk_pairing(&e1, &p, &q);
  cuzk_fp12_conj(&e1, &e1);
  CHECK(cuzk_fp12_eq(&e1, &e2));
}

static void test_product_check(const cuzk_g1_affine *g1, const cuzk_g2_affine *g2) {
  for (int i = 0; i < 3; i++) {
    cuzk_fr a = rand_fr(), x = rand_fr(), y = rand_fr();
    cuzk_g1_affine p = g1_times(g1, &x);
    cuzk_g2_affine q = g2_times(g2, &y);
    cuzk_g1_affine pts[2];
    cuzk_g2_affine aq = g2_times(&q, &a);
    static cuzk_g2_prepared prep[2];
    pts[0] = g1_times(&p, &a);
    cuzk_g1_affine_neg(&pts[1], &p);
    cuzk_g2_prepare(&prep[0], &q);
    cuzk_g2_prepare(&prep[1], &aq);
    /* e(aP, Q) e(-P, aQ) = 1 */
    CHECK_MSG(cuzk_pairing_product_is_one(pts, prep, 2), "e(aP, Q) e(-P, aQ) != 1, round %d", i);
    /* perturbed: e(aP, Q) e(-P, (a+1)Q) != 1, e((a+1)P, Q) e(-P, aQ) != 1 */
    cuzk_fr a1;
    cuzk_fr_add(&a1, &a, &cuzk_fr_one);
    cuzk_g2_affine a1q = g2_times(&q, &a1);
    cuzk_g2_prepare(&prep[1], &a1q);
    CHECK(!cuzk_pairing_product_is_one(pts, prep, 2));
    cuzk_g2_prepare(&prep[1], &aq);
    pts[0] = g1_times(&p, &a1);
    CHECK(!cuzk_pairing_product_is_one(pts, prep, 2));
  }
}

static void test_prepared_and_multi(const cuzk_g1_affine *g1, const cuzk_g2_affine *g2) {
  enum { N = 3 };
  static cuzk_g2_prepared prep[N + 2];
  cuzk_g1_affine p[N + 2];
  cuzk_g2_affine q[N];
  cuzk_fp12 f, g, e, prod = cuzk_fp12_one;
  for (int i = 0; i < N; i++) {
    cuzk_fr a = rand_fr(), b = rand_fr();
    p[i] = g1_times(g1, &a);
    q[i] = g2_times(g2, &b);
    cuzk_g2_prepare(&prep[i], &q[i]);

    /* prepared and unprepared loops agree, before and after the final exponentiation */
    cuzk_miller_loop(&f, &p[i], &q[i]);
    cuzk_multi_miller_loop(&g, &p[i], &prep[i], 1);
    CHECK_MSG(cuzk_fp12_eq(&f, &g), "prepared and unprepared Miller loops differ, pair %d", i);
    cuzk_pairing(&e, &p[i], &q[i]);
    cuzk_final_exp(&g, &g);
    CHECK(cuzk_fp12_eq(&e, &g));
    cuzk_fp12_mul(&prod, &prod, &e);
  }
  /* a 3-pair multi-Miller loop then one final exponentiation = the product of 3 pairings */
  cuzk_multi_miller_loop(&f, p, prep, N);
  cuzk_final_exp(&f, &f);
  CHECK_MSG(cuzk_fp12_eq(&f, &prod), "multi-Miller loop of 3 pairs != product of pairings");

  /* pairs with infinity on either side contribute 1, wherever they sit */
  cuzk_g2_affine inf2 = {0};
  p[N] = p[0];
  cuzk_g2_prepare(&prep[N], &inf2);
  p[N + 1] = (cuzk_g1_affine){0};
  prep[N + 1] = prep[1];
  cuzk_multi_miller_loop(&f, p, prep, N + 2);
  cuzk_final_exp(&f, &f);
  CHECK_MSG(cuzk_fp12_eq(&f, &prod), "infinity pairs changed the multi-Miller product");
  /* ... also when they come first */
  cuzk_multi_miller_loop(&f, p + N, prep + N, 2);
  CHECK(cuzk_fp12_is_one(&f));
  static cuzk_g2_prepared rot[N + 2];
  cuzk_g1_affine prot[N + 2];
  for (int i = 0; i < N + 2; i++) {
    rot[i] = prep[(i + N) % (N + 2)];
    prot[i] = p[(i + N) % (N + 2)];
  }
  cuzk_multi_miller_loop(&f, prot, rot, N + 2);
  cuzk_final_exp(&f, &f);
  CHECK(cuzk_fp12_eq(&f, &prod));
  (void)g2;
}

static void test_infinity(const cuzk_g1_affine *g1, const cuzk_g2_affine *g2) {
  cuzk_g1_affine o1 = {0};
  cuzk_g2_affine o2 = {0};
  cuzk_fp12 e;
  cuzk_pairing(&e, &o1, g2);
  CHECK(cuzk_fp12_is_one(&e));
  cuzk_pairing(&e, g1, &o2);
  CHECK(cuzk_fp12_is_one(&e));
  cuzk_pairing(&e, &o1, &o2);
  CHECK(cuzk_fp12_is_one(&e));
  cuzk_miller_loop(&e, &o1, g2);
  CHECK(cuzk_fp12_is_one(&e));
  static cuzk_g2_prepared prep[2];
  cuzk_g2_prepare(&prep[0], &o2);
  cuzk_g2_prepare(&prep[1], g2);
  cuzk_g1_affine pts[2] = {*g1, o1};
  CHECK(cuzk_pairing_product_is_one(pts, prep, 2));
  CHECK(cuzk_pairing_product_is_one(pts, prep, 0));
  cuzk_multi_miller_loop(&e, pts, prep, 0);
  CHECK(cuzk_fp12_is_one(&e));
  /* e(G1, G2) alone is not one */
  pts[1] = *g1;
  CHECK(!cuzk_pairing_product_is_one(pts + 1, prep + 1, 1));
}

int main(void) {
  cuzk_g1_affine g1;
  cuzk_g2_affine g2;
  cuzk_g1_affine_generator(&g1);
  cuzk_g2_affine_generator(&g2);

  test_generator_value(&g1, &g2);
  test_bilinearity(&g1, &g2);
  test_negation(&g1, &g2);
  test_product_check(&g1, &g2);
  test_prepared_and_multi(&g1, &g2);
  test_infinity(&g1, &g2);
  return check_summary("test_pairing");
}
