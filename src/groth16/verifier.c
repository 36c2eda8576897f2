/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Groth16 verification (docs/spec/groth16.md §5): single proofs with one multi-Miller loop and one
 * final exponentiation against a prepared key, and batches with random 128-bit weights
 * (docs/spec/groth16.md §5.3).
 *
 * GT values are whatever cuzk_final_exp produces (the cube of the textbook pairing, pairing.h);
 * both sides of every check go through the same functions, so the convention cancels.
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/msm/msm.h"
#include "cuzk/pairing/pairing.h"
#include "groth16/g16_internal.h"

struct cuzk_g16_pvk {
  cuzk_fp12 alpha_beta;                  /* e(alpha, beta) */
  cuzk_g2_prepared neg_gamma, neg_delta; /* single proofs */
  cuzk_g2_prepared gamma, delta;         /* batches */
  size_t n_ic;
  cuzk_g1_affine *ic;
};

cuzk_g16_err cuzk_g16_pvk_prepare(cuzk_g16_pvk **out, const cuzk_g16_vk *vk) {
  if (!out || !vk || vk->n_ic == 0 || !vk->ic) return CUZK_G16_EINVAL;
  *out = NULL;
  cuzk_g16_pvk *p = calloc(1, sizeof *p);
  if (!p) return CUZK_G16_ENOMEM;
  p->ic = malloc(vk->n_ic * sizeof *p->ic);
  if (!p->ic) {
    free(p);
    return CUZK_G16_ENOMEM;
  }
  memcpy(p->ic, vk->ic, vk->n_ic * sizeof *p->ic);
  p->n_ic = vk->n_ic;
  cuzk_pairing(&p->alpha_beta, &vk->alpha_g1, &vk->beta_g2);
  cuzk_g2_affine neg;
  cuzk_g2_affine_neg(&neg, &vk->gamma_g2);
  cuzk_g2_prepare(&p->neg_gamma, &neg);
  cuzk_g2_affine_neg(&neg, &vk->delta_g2);
  cuzk_g2_prepare(&p->neg_delta, &neg);
  cuzk_g2_prepare(&p->gamma, &vk->gamma_g2);
  cuzk_g2_prepare(&p->delta, &vk->delta_g2);
  *out = p;
  return CUZK_G16_OK;
}

void cuzk_g16_pvk_free(cuzk_g16_pvk *pvk) {
  if (!pvk) return;
  free(pvk->ic);
  free(pvk);
}

/* r = ic[0]·c0 + Σ_{i≥1} coeffs[i-1]·ic[i] (c0 NULL: 1). */
static cuzk_g16_err input_acc(cuzk_g1_affine *r, const cuzk_g16_pvk *pvk, const cuzk_fr *c0,
                              const cuzk_fr *coeffs) {
  cuzk_g1 acc, t;
  if (pvk->n_ic > 1 && cuzk_g1_msm(&acc, pvk->ic + 1, coeffs, pvk->n_ic - 1, NULL) != CUZK_MSM_OK)
    return CUZK_G16_ENOMEM;
  if (pvk->n_ic == 1) cuzk_g1_set_infinity(&acc);
  if (c0) {
    cuzk_g1_from_affine(&t, &pvk->ic[0]);
    cuzk_g1_mul(&t, &t, c0);
    cuzk_g1_add(&acc, &acc, &t);
  } else {
    cuzk_g1_add_affine(&acc, &acc, &pvk->ic[0]);
  }
  cuzk_g1_to_affine(r, &acc);
  return CUZK_G16_OK;
}

cuzk_g16_err cuzk_g16_verify(bool *ok, const cuzk_g16_pvk *pvk, const cuzk_g16_proof *proof,
                             const cuzk_fr *inputs, size_t n_inputs) {
  if (!ok || !pvk || !proof || (n_inputs && !inputs)) return CUZK_G16_EINVAL;
  *ok = false;
  if (n_inputs + 1 != pvk->n_ic) return CUZK_G16_EINVAL;
  cuzk_g1_affine p[3];
  cuzk_g2_prepared *q = malloc(3 * sizeof *q);
  if (!q) return CUZK_G16_ENOMEM;
  cuzk_g16_err err = input_acc(&p[1], pvk, NULL, inputs);
  if (err != CUZK_G16_OK) {
    free(q);
    return err;
  }
  /* e(A, B) · e(acc, -gamma) · e(C, -delta) == e(alpha, beta) */
  p[0] = proof->a;
  cuzk_g2_prepare(&q[0], &proof->b);
  q[1] = pvk->neg_gamma;
  p[2] = proof->c;
  q[2] = pvk->neg_delta;
  cuzk_fp12 f;
  cuzk_multi_miller_loop(&f, p, q, 3);
  free(q);
  cuzk_final_exp(&f, &f);
  *ok = cuzk_fp12_eq(&f, &pvk->alpha_beta);
  return CUZK_G16_OK;
}

/* r = a^e for a in GT (cyclotomic squarings), e little-endian limbs. */
static void gt_pow(cuzk_fp12 *r, const cuzk_fp12 *a, const uint64_t *e, size_t nlimbs) {
  cuzk_fp12 acc = cuzk_fp12_one;
  for (size_t i = nlimbs * 64; i-- > 0;) {
    cuzk_fp12_cyclotomic_sqr(&acc, &acc);
    if ((e[i / 64] >> (i % 64)) & 1) cuzk_fp12_mul(&acc, &acc, a);
  }
  *r = acc;
}

/* n nonzero 128-bit weights from the OS CSPRNG. */
static bool draw_weights(cuzk_fr *z, size_t n) {
  for (size_t j = 0; j < n; j++) {
    uint64_t x[4] = {0, 0, 0, 0};
    do {
      if (!g16_os_random(x, 16)) return false;
    } while (x[0] == 0 && x[1] == 0);
    cuzk_fr_from_canonical(&z[j], x); /* < 2^128 < r */
  }
  return true;
}

cuzk_g16_err cuzk_g16_verify_batch(bool *ok, const cuzk_g16_pvk *pvk, const cuzk_g16_proof *proofs,
                                   const cuzk_fr *const *inputs, size_t n_inputs, size_t n) {
  if (!ok || !pvk || (n && (!proofs || !inputs))) return CUZK_G16_EINVAL;
  *ok = false;
  if (n_inputs + 1 != pvk->n_ic) return CUZK_G16_EINVAL;
  for (size_t j = 0; j < n; j++)
    if (n_inputs && !inputs[j]) return CUZK_G16_EINVAL;
  if (n == 0) {
    *ok = true;
    return CUZK_G16_OK;
  }
  if (n == 1) return cuzk_g16_verify(ok, pvk, &proofs[0], inputs[0], n_inputs);

  /* Π_j e(z_j A_j, B_j) · e(Σ_i c_i ic_i, -gamma) · e(Σ_j z_j C_j, -delta) == e(alpha, beta)^Y
   * with c_0 = Y = Σ_j z_j and c_i = Σ_j z_j x_{j,i}. */
  cuzk_g16_err err = CUZK_G16_ENOMEM;
  cuzk_fr *z = malloc(n * sizeof *z);
  cuzk_fr *c = calloc(n_inputs ? n_inputs : 1, sizeof *c);
  cuzk_g1 *za = malloc(n * sizeof *za);
  cuzk_g1_affine *pts = malloc((n + 2) * sizeof *pts);
  cuzk_g2_prepared *q = malloc((n + 2) * sizeof *q);
  if (!z || !c || !za || !pts || !q) goto done;
  if (!draw_weights(z, n)) {
    err = CUZK_G16_ERANDOM;
    goto done;
  }
  cuzk_fr y = cuzk_fr_zero;
  for (size_t j = 0; j < n; j++) {
    cuzk_fr_add(&y, &y, &z[j]);
    for (size_t i = 0; i < n_inputs; i++) {
      cuzk_fr t;
      cuzk_fr_mul(&t, &z[j], &inputs[j][i]);
      cuzk_fr_add(&c[i], &c[i], &t);
    }
    uint64_t k[4];
    cuzk_fr_to_canonical(k, &z[j]);
    cuzk_g1 a;
    cuzk_g1_from_affine(&a, &proofs[j].a);
    cuzk_g1_mul_limbs(&za[j], &a, k, 2);
    cuzk_g2_prepare(&q[j], &proofs[j].b);
  }
  cuzk_g1_batch_to_affine(pts, za, n);
  err = input_acc(&pts[n], pvk, &y, c);
  if (err != CUZK_G16_OK) goto done;
  q[n] = pvk->neg_gamma;
  /* Σ z_j C_j: the C points gathered as MSM bases (za is free again). */
  cuzk_g1_affine *cs = (cuzk_g1_affine *)za; /* n affine points fit in n Jacobian ones */
  for (size_t j = 0; j < n; j++)
    cs[j] = proofs[j].c;
  cuzk_g1 sc;
  if (cuzk_g1_msm(&sc, cs, z, n, NULL) != CUZK_MSM_OK) {
    err = CUZK_G16_ENOMEM;
    goto done;
  }
  cuzk_g1_to_affine(&pts[n + 1], &sc);
  q[n + 1] = pvk->neg_delta;

  cuzk_fp12 f, rhs;
  cuzk_multi_miller_loop(&f, pts, q, n + 2);
  cuzk_final_exp(&f, &f);
  uint64_t ye[4];
  cuzk_fr_to_canonical(ye, &y);
  gt_pow(&rhs, &pvk->alpha_beta, ye, 4);
  *ok = cuzk_fp12_eq(&f, &rhs);
  err = CUZK_G16_OK;
done:
  free(z);
  free(c);
  free(za);
  free(pts);
  free(q);
  return err;
}
