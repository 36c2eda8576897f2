/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The Groth16 test-parameter generator and the verifier (docs/spec/groth16.md §5, §6), checked with
 * a reference prover written here from the textbook formulas (docs/spec/groth16.md §4.4) on top of
 * the public APIs: a PROVE-mode system gives the witness, a/b/c and the densities; cuzk_ntt_h the
 * quotient; the query points are consumed in density order. Circuits: x^3 + c x + 5 = y (y public),
 * a chain of Poseidon hashes with a public leaf and root, and one with an unconstrained aux
 * variable.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "cuzk/groth16/groth16.h"
#include "cuzk/hashes/poseidon.h"
#include "cuzk/msm/msm.h"
#include "cuzk/ntt/ntt.h"
#include "cuzk/r1cs/gadgets.h"
#include "cuzk/r1cs/r1cs.h"
#include "rng.h"

typedef void (*synth_fn)(cuzk_cs *cs, void *ctx);

/* ---- circuits ---------------------------------------------------------------------------------
 */
typedef struct {
  uint64_t x, c, d;   /* x^3 + c x + (5 + d) = y */
  bool unconstrained; /* one more aux variable used nowhere */
} cubic_ctx;

static void cubic_y(cuzk_fr *y, const cubic_ctx *k) {
  cuzk_fr x, t, c;
  cuzk_fr_from_u64(&x, k->x);
  cuzk_fr_from_u64(&c, k->c);
  cuzk_fr_sqr(y, &x);
  cuzk_fr_mul(y, y, &x);
  cuzk_fr_mul(&t, &c, &x);
  cuzk_fr_add(y, y, &t);
  cuzk_fr_from_u64(&t, 5 + k->d);
  cuzk_fr_add(y, y, &t);
}

static void synth_cubic(cuzk_cs *cs, void *vctx) {
  const cubic_ctx *k = vctx;
  cuzk_fr x, x2, x3, y, c, five;
  cuzk_fr_from_u64(&x, k->x);
  cuzk_fr_from_u64(&c, k->c);
  cuzk_fr_from_u64(&five, 5 + k->d);
  cuzk_fr_sqr(&x2, &x);
  cuzk_fr_mul(&x3, &x2, &x);
  cubic_y(&y, k);
  cuzk_var vx = cuzk_cs_alloc(cs, &x), vx2 = cuzk_cs_alloc(cs, &x2), vx3 = cuzk_cs_alloc(cs, &x3);
  cuzk_lc a, b, d;
  cuzk_lc_init(&a, cs);
  cuzk_lc_init(&b, cs);
  cuzk_lc_init(&d, cs);
  cuzk_lc_add(&a, vx, NULL);
  cuzk_lc_add(&b, vx, NULL);
  cuzk_lc_add(&d, vx2, NULL);
  cuzk_cs_enforce(cs, "x2", &a, &b, &d);
  cuzk_lc_add(&a, vx2, NULL);
  cuzk_lc_add(&b, vx, NULL);
  cuzk_lc_add(&d, vx3, NULL);
  cuzk_cs_enforce(cs, "x3", &a, &b, &d);
  cuzk_var vy = cuzk_cs_alloc_input(cs, &y);
  cuzk_lc_add(&a, vx3, NULL);
  cuzk_lc_add(&a, vx, &c);
  cuzk_lc_add_const(&a, &five);
  cuzk_lc_add(&b, CUZK_VAR_ONE, NULL);
  cuzk_lc_add(&d, vy, NULL);
  cuzk_cs_enforce(cs, "y", &a, &b, &d);
  if (k->unconstrained) cuzk_cs_alloc(cs, &x);
}

typedef struct {
  const cuzk_poseidon_params *p;
  cuzk_fr leaf, sib;
  unsigned rounds;
  cuzk_fr root; /* out: the public root */
} pos_ctx;

static void synth_poseidon(cuzk_cs *cs, void *vctx) {
  pos_ctx *k = vctx;
  cuzk_num in[2];
  in[0] = cuzk_num_alloc(cs, &k->leaf);
  in[1] = cuzk_num_alloc(cs, &k->sib);
  cuzk_num_inputize(cs, &in[0]);
  for (unsigned i = 0; i < k->rounds; i++) {
    cuzk_num o = cuzk_gadget_poseidon(cs, k->p, in);
    in[0] = o;
  }
  cuzk_num_inputize(cs, &in[0]);
  k->root = in[0].value;
}

/* ---- helpers ----------------------------------------------------------------------------------
 */
static cuzk_cs *synth(cuzk_cs_mode mode, synth_fn f, void *ctx) {
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, mode);
  cuzk_cs *cs = NULL;
  if (cuzk_cs_create(&cs, &o) != CUZK_R1CS_OK) return NULL;
  f(cs, ctx);
  return cs;
}

/* What the generator reported through its progress callback (cuzk/util/progress.h). */
typedef struct {
  unsigned calls;
  uint64_t done, total;
  bool monotone, same_total;
  char last_step[16];
} progress_log;

static void record_progress(void *ctx, const char *step, uint64_t done, uint64_t total) {
  progress_log *l = ctx;
  if (l->calls && done < l->done) l->monotone = false;
  if (l->calls && total != l->total) l->same_total = false;
  l->calls++;
  l->done = done;
  l->total = total;
  snprintf(l->last_step, sizeof l->last_step, "%s", step);
}

/* Every generation reports monotone counts of one total that end at that total, in step
 * "done", the total being the points of every query vector. */
static cuzk_g16_err gen(cuzk_g16_params **p, synth_fn f, void *ctx, uint8_t seed_byte,
                        cuzk_pool *pool) {
  uint8_t seed[32];
  memset(seed, seed_byte, sizeof seed);
  cuzk_cs *cs = synth(CUZK_CS_RECORD, f, ctx);
  if (!cs) return CUZK_G16_ENOMEM;
  progress_log l = {.monotone = true, .same_total = true};
  cuzk_progress pr = {record_progress, &l, NULL};
  cuzk_g16_err e = cuzk_g16_generate(p, cs, seed, pool, 0, &pr);
  cuzk_cs_destroy(cs);
  if (e == CUZK_G16_OK) {
    const cuzk_g16_params *q = *p;
    uint64_t points = q->vk.n_ic + q->n_l + q->n_h + q->n_a + q->n_b1 + q->n_b2;
    CHECK_MSG(l.calls == 8 && l.monotone && l.same_total && l.done == l.total &&
                  l.total == points && !strcmp(l.last_step, "done"),
              "progress: %u calls, monotone %d, one total %d, last %s %llu/%llu (%llu points)",
              l.calls, l.monotone, l.same_total, l.last_step, (unsigned long long)l.done,
              (unsigned long long)l.total, (unsigned long long)points);
  }
  return e;
}

static size_t pow2_at_least(size_t n) {
  size_t m = 1;
  while (m < n)
    m <<= 1;
  return m;
}

static bool params_eq(const cuzk_g16_params *x, const cuzk_g16_params *y) {
  if (x->vk.n_ic != y->vk.n_ic || x->n_h != y->n_h || x->n_l != y->n_l || x->n_a != y->n_a ||
      x->n_b1 != y->n_b1 || x->n_b2 != y->n_b2)
    return false;
  const size_t g1 = sizeof(cuzk_g1_affine), g2 = sizeof(cuzk_g2_affine);
  return !memcmp(&x->vk.alpha_g1, &y->vk.alpha_g1, g1) &&
         !memcmp(&x->vk.beta_g1, &y->vk.beta_g1, g1) &&
         !memcmp(&x->vk.delta_g1, &y->vk.delta_g1, g1) &&
         !memcmp(&x->vk.beta_g2, &y->vk.beta_g2, g2) &&
         !memcmp(&x->vk.gamma_g2, &y->vk.gamma_g2, g2) &&
         !memcmp(&x->vk.delta_g2, &y->vk.delta_g2, g2) &&
         !memcmp(x->vk.ic, y->vk.ic, x->vk.n_ic * g1) && !memcmp(x->h, y->h, x->n_h * g1) &&
         !memcmp(x->l, y->l, x->n_l * g1) && !memcmp(x->a, y->a, x->n_a * g1) &&
         !memcmp(x->b_g1, y->b_g1, x->n_b1 * g1) && !memcmp(x->b_g2, y->b_g2, x->n_b2 * g2);
}

static bool all_valid_g1(const cuzk_g1_affine *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (cuzk_g1_affine_is_infinity(&v[i]) || !cuzk_g1_affine_is_on_curve(&v[i]) ||
        !cuzk_g1_affine_is_in_subgroup(&v[i]))
      return false;
  return true;
}

static bool all_valid_g2(const cuzk_g2_affine *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (cuzk_g2_affine_is_infinity(&v[i]) || !cuzk_g2_affine_is_on_curve(&v[i]) ||
        !cuzk_g2_affine_is_in_subgroup(&v[i]))
      return false;
  return true;
}

static void g1_acc_mul(cuzk_g1 *acc, const cuzk_g1_affine *p, const cuzk_fr *k) {
  cuzk_g1 t;
  cuzk_g1_from_affine(&t, p);
  cuzk_g1_mul(&t, &t, k);
  cuzk_g1_add(acc, acc, &t);
}

static void g2_acc_mul(cuzk_g2 *acc, const cuzk_g2_affine *p, const cuzk_fr *k) {
  cuzk_g2 t;
  cuzk_g2_from_affine(&t, p);
  cuzk_g2_mul(&t, &t, k);
  cuzk_g2_add(acc, acc, &t);
}

/*
 * The reference prover: synthesizes f in PROVE mode, checks the parameter shape against it and
 * builds the proof with randomizers r, s. pub gets the public inputs without ONE (n_ic - 1).
 */
static bool ref_prove(cuzk_g16_proof *pf, cuzk_fr *pub, const cuzk_g16_params *p, synth_fn f,
                      void *ctx, const cuzk_fr *r, const cuzk_fr *s) {
  cuzk_cs *cs = synth(CUZK_CS_PROVE, f, ctx);
  if (!cs) return false;
  cuzk_cs_enforce_input_constraints(cs);
  cuzk_cs_finish(cs);
  cuzk_cs_result w;
  cuzk_cs_result_get(cs, &w);
  const size_t ni = w.num_inputs, na = w.num_aux, m = pow2_at_least(w.num_constraints);
  /* The shape (groth16.h cuzk_g16_params_check_shape). */
  bool shape = p->vk.n_ic == ni && p->n_l == na && p->n_h == m - 1 &&
               p->n_a == ni + w.a_aux.count && p->n_b1 == w.b_input.count + w.b_aux.count &&
               p->n_b2 == p->n_b1;
  CHECK_MSG(shape, "n_ic %zu/%zu n_l %zu/%zu n_h %zu/%zu n_a %zu/%zu n_b %zu/%zu", p->vk.n_ic, ni,
            p->n_l, na, p->n_h, m - 1, p->n_a, ni + w.a_aux.count, p->n_b1,
            w.b_input.count + w.b_aux.count);
  cuzk_g16_shape sh;
  CHECK(cuzk_g16_shape_of(&sh, cs) == CUZK_G16_OK);
  CHECK(cuzk_g16_params_check_shape(p, &sh) == CUZK_G16_OK);
  CHECK(cuzk_g16_domain_size(sh.num_constraints) == m);
  if (!shape) {
    cuzk_cs_destroy(cs);
    return false;
  }
  /* H: the quotient's coefficients. */
  cuzk_fr *ha = calloc(m, sizeof *ha), *hb = calloc(m, sizeof *hb), *hc = calloc(m, sizeof *hc);
  memcpy(ha, w.a, w.num_constraints * sizeof *ha);
  memcpy(hb, w.b, w.num_constraints * sizeof *hb);
  memcpy(hc, w.c, w.num_constraints * sizeof *hc);
  CHECK(cuzk_ntt_h(ha, hb, hc, m, NULL, 0) == CUZK_NTT_OK);
  CHECK(cuzk_fr_is_zero(&ha[m - 1])); /* satisfied */
  /* Scalars for the a and b queries in density order, inputs first. */
  cuzk_fr *sa = calloc(p->n_a + 1, sizeof *sa), *sb = calloc(p->n_b1 + 1, sizeof *sb);
  size_t ia = 0, ib = 0;
  for (size_t i = 0; i < ni; i++) {
    sa[ia++] = w.inputs[i];
    if (cuzk_density_get(&w.b_input, i)) sb[ib++] = w.inputs[i];
  }
  for (size_t j = 0; j < na; j++) {
    if (cuzk_density_get(&w.a_aux, j)) sa[ia++] = w.aux[j];
    if (cuzk_density_get(&w.b_aux, j)) sb[ib++] = w.aux[j];
  }
  CHECK(ia == p->n_a && ib == p->n_b1);
  cuzk_g1 a_sum, b1_sum, h_acc, l_acc, t1;
  cuzk_g2 b2_sum, t2;
  CHECK(cuzk_g1_msm(&a_sum, p->a, sa, ia, NULL) == CUZK_MSM_OK);
  CHECK(cuzk_g1_msm(&b1_sum, p->b_g1, sb, ib, NULL) == CUZK_MSM_OK);
  CHECK(cuzk_g2_msm(&b2_sum, p->b_g2, sb, ib, NULL) == CUZK_MSM_OK);
  CHECK(cuzk_g1_msm(&h_acc, p->h, ha, m - 1, NULL) == CUZK_MSM_OK);
  CHECK(cuzk_g1_msm(&l_acc, p->l, w.aux, na, NULL) == CUZK_MSM_OK);
  cuzk_fr rs;
  cuzk_fr_mul(&rs, r, s);
  /* A = alpha + A_sum + r delta */
  cuzk_g1_add_affine(&t1, &a_sum, &p->vk.alpha_g1);
  g1_acc_mul(&t1, &p->vk.delta_g1, r);
  cuzk_g1_to_affine(&pf->a, &t1);
  /* B = beta + B2_sum + s delta */
  cuzk_g2_add_affine(&t2, &b2_sum, &p->vk.beta_g2);
  g2_acc_mul(&t2, &p->vk.delta_g2, s);
  cuzk_g2_to_affine(&pf->b, &t2);
  /* C = s A_sum + r B1_sum + rs delta + s alpha + r beta + H + L */
  cuzk_g1_add(&t1, &h_acc, &l_acc);
  cuzk_g1 u;
  cuzk_g1_mul(&u, &a_sum, s);
  cuzk_g1_add(&t1, &t1, &u);
  cuzk_g1_mul(&u, &b1_sum, r);
  cuzk_g1_add(&t1, &t1, &u);
  g1_acc_mul(&t1, &p->vk.delta_g1, &rs);
  g1_acc_mul(&t1, &p->vk.alpha_g1, s);
  g1_acc_mul(&t1, &p->vk.beta_g1, r);
  cuzk_g1_to_affine(&pf->c, &t1);
  if (pub)
    for (size_t i = 1; i < ni; i++)
      pub[i - 1] = w.inputs[i];
  free(ha);
  free(hb);
  free(hc);
  free(sa);
  free(sb);
  cuzk_cs_destroy(cs);
  return true;
}

static bool verify1(const cuzk_g16_pvk *pvk, const cuzk_g16_proof *pf, const cuzk_fr *pub,
                    size_t n) {
  bool ok = false;
  cuzk_g16_err e = cuzk_g16_verify(&ok, pvk, pf, pub, n);
  CHECK_MSG(e == CUZK_G16_OK, "verify: error %d", (int)e);
  return e == CUZK_G16_OK && ok;
}

static void g1_add_gen(cuzk_g1_affine *p) {
  cuzk_g1 t, g;
  cuzk_g1_from_affine(&t, p);
  cuzk_g1_generator(&g);
  cuzk_g1_add(&t, &t, &g);
  cuzk_g1_to_affine(p, &t);
}

static void g1_sub_gen(cuzk_g1_affine *p) {
  cuzk_g1 t, g;
  cuzk_g1_from_affine(&t, p);
  cuzk_g1_generator(&g);
  cuzk_g1_neg(&g, &g);
  cuzk_g1_add(&t, &t, &g);
  cuzk_g1_to_affine(p, &t);
}

/* ---- tests ------------------------------------------------------------------------------------
 */
static void test_cubic(cuzk_pool *pool) {
  cubic_ctx k = {.x = 3, .c = 1};
  cuzk_g16_params *p = NULL, *p2 = NULL, *q = NULL, *v = NULL;
  CHECK(gen(&p, synth_cubic, &k, 1, NULL) == CUZK_G16_OK);
  CHECK(gen(&p2, synth_cubic, &k, 1, pool) == CUZK_G16_OK); /* pool or not: identical */
  CHECK(gen(&q, synth_cubic, &k, 2, NULL) == CUZK_G16_OK);
  /* Another circuit of the same shape with the same toxic waste: c only touches aux x, so the
   * keys are equal; the constant changes ONE's column and so ic[0]. */
  cubic_ctx kc = {.x = 3, .c = 2}, kv = {.x = 3, .c = 1, .d = 1};
  cuzk_g16_params *pc = NULL;
  CHECK(gen(&pc, synth_cubic, &kc, 1, NULL) == CUZK_G16_OK);
  if (pc) CHECK(!memcmp(pc->vk.ic, p->vk.ic, 2 * sizeof *pc->vk.ic));
  if (pc) CHECK(memcmp(pc->l, p->l, sizeof *pc->l) != 0);
  cuzk_g16_params_free(pc);
  CHECK(gen(&v, synth_cubic, &kv, 1, NULL) == CUZK_G16_OK);
  if (!p || !p2 || !q || !v) goto out;
  /* Shape: 1 input + ONE, 3 aux, 3 + 2 constraints -> m = 8. */
  CHECK(p->vk.n_ic == 2 && p->n_l == 3 && p->n_h == 7);
  CHECK(p->n_a == 2 + 3 && p->n_b1 == 1 + 1 && p->n_b2 == 2); /* B: ONE (y row) and x */
  CHECK(params_eq(p, p2));
  CHECK(!params_eq(p, q));
  CHECK(memcmp(&p->vk.alpha_g1, &q->vk.alpha_g1, sizeof p->vk.alpha_g1) != 0);
  CHECK(memcmp(p->h, q->h, sizeof *p->h) != 0);
  CHECK(all_valid_g1(p->vk.ic, p->vk.n_ic) && all_valid_g1(p->h, p->n_h));
  CHECK(all_valid_g1(p->l, p->n_l) && all_valid_g1(p->a, p->n_a));
  CHECK(all_valid_g1(p->b_g1, p->n_b1) && all_valid_g2(p->b_g2, p->n_b2));
  CHECK(all_valid_g1(&p->vk.alpha_g1, 1) && all_valid_g1(&p->vk.beta_g1, 1) &&
        all_valid_g1(&p->vk.delta_g1, 1));
  CHECK(all_valid_g2(&p->vk.beta_g2, 1) && all_valid_g2(&p->vk.gamma_g2, 1) &&
        all_valid_g2(&p->vk.delta_g2, 1));

  cuzk_g16_pvk *pvk = NULL, *pvk_q = NULL, *pvk_v = NULL;
  CHECK(cuzk_g16_pvk_prepare(&pvk, &p->vk) == CUZK_G16_OK);
  CHECK(cuzk_g16_pvk_prepare(&pvk_q, &q->vk) == CUZK_G16_OK);
  CHECK(cuzk_g16_pvk_prepare(&pvk_v, &v->vk) == CUZK_G16_OK);
  uint64_t rs = 5;
  cuzk_fr r, s, pub[1], y;
  rng_fr(&rs, &r);
  rng_fr(&rs, &s);
  cuzk_g16_proof pf, pf0;
  CHECK(ref_prove(&pf, pub, p, synth_cubic, &k, &r, &s));
  cubic_y(&y, &k);
  CHECK(cuzk_fr_eq(&pub[0], &y));
  CHECK(verify1(pvk, &pf, pub, 1));
  CHECK(ref_prove(&pf0, NULL, p, synth_cubic, &k, &cuzk_fr_zero, &cuzk_fr_zero));
  CHECK(verify1(pvk, &pf0, pub, 1));
  /* Another witness (x = 4) with its own output. */
  cubic_ctx k4 = {.x = 4, .c = 1};
  cuzk_g16_proof pf4;
  cuzk_fr pub4[1];
  CHECK(ref_prove(&pf4, pub4, p, synth_cubic, &k4, &s, &r));
  CHECK(verify1(pvk, &pf4, pub4, 1));
  CHECK(!verify1(pvk, &pf4, pub, 1));
  /* Flipped input, other keys, tampered points. */
  cuzk_fr bad;
  cuzk_fr_add(&bad, &pub[0], &cuzk_fr_one);
  CHECK(!verify1(pvk, &pf, &bad, 1));
  CHECK(!verify1(pvk_q, &pf, pub, 1));
  CHECK(!verify1(pvk_v, &pf, pub, 1));
  cuzk_g16_proof t = pf;
  g1_add_gen(&t.a);
  CHECK(!verify1(pvk, &t, pub, 1));
  t = pf;
  g1_add_gen(&t.c);
  CHECK(!verify1(pvk, &t, pub, 1));
  t = pf;
  t.b = pf4.b;
  CHECK(!verify1(pvk, &t, pub, 1));
  /* Wrong input counts. */
  bool ok = true;
  cuzk_fr two[2] = {pub[0], pub[0]};
  CHECK(cuzk_g16_verify(&ok, pvk, &pf, two, 2) == CUZK_G16_EINVAL && !ok);
  ok = true;
  CHECK(cuzk_g16_verify(&ok, pvk, &pf, NULL, 0) == CUZK_G16_EINVAL && !ok);
  const cuzk_fr *ins[2] = {two, two};
  cuzk_g16_proof two_pf[2] = {pf, pf};
  CHECK(cuzk_g16_verify_batch(&ok, pvk, two_pf, ins, 2, 2) == CUZK_G16_EINVAL);
  CHECK(cuzk_g16_verify_batch(&ok, pvk, two_pf, ins, 0, 2) == CUZK_G16_EINVAL);
  /* Batches over the cubic key: two proofs for different statements, then one bad. */
  const cuzk_fr *ins2[2] = {pub, pub4};
  cuzk_g16_proof pfs[2] = {pf, pf4};
  CHECK(cuzk_g16_verify_batch(&ok, pvk, pfs, ins2, 1, 2) == CUZK_G16_OK && ok);
  const cuzk_fr *ins_bad[2] = {pub, pub};
  CHECK(cuzk_g16_verify_batch(&ok, pvk, pfs, ins_bad, 1, 2) == CUZK_G16_OK && !ok);
  cuzk_g16_pvk_free(pvk);
  cuzk_g16_pvk_free(pvk_q);
  cuzk_g16_pvk_free(pvk_v);
out:
  cuzk_g16_params_free(p);
  cuzk_g16_params_free(p2);
  cuzk_g16_params_free(q);
  cuzk_g16_params_free(v);
}

static void test_poseidon(cuzk_pool *pool) {
  pos_ctx k[3];
  uint64_t rs = 77;
  for (int i = 0; i < 3; i++) {
    memset(&k[i], 0, sizeof k[i]);
    CHECK(cuzk_poseidon_params_get(&k[i].p, 2) == CUZK_HASH_OK);
    rng_fr(&rs, &k[i].leaf);
    rng_fr(&rs, &k[i].sib);
    k[i].rounds = 3;
  }
  cuzk_g16_params *p = NULL;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  CHECK(gen(&p, synth_poseidon, &k[0], 9, pool) == CUZK_G16_OK);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  if (!p) return;
  printf("poseidon x3: %zu aux, %zu h, generated in %.3f s\n", p->n_l, p->n_h,
         (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
  CHECK(p->vk.n_ic == 3);
  cuzk_g16_pvk *pvk = NULL;
  CHECK(cuzk_g16_pvk_prepare(&pvk, &p->vk) == CUZK_G16_OK);
  cuzk_g16_proof pf[3];
  cuzk_fr pub[3][2];
  for (int i = 0; i < 3; i++) {
    cuzk_fr r, s;
    rng_fr(&rs, &r);
    rng_fr(&rs, &s);
    CHECK(ref_prove(&pf[i], pub[i], p, synth_poseidon, &k[i], &r, &s));
    CHECK(cuzk_fr_eq(&pub[i][0], &k[i].leaf) && cuzk_fr_eq(&pub[i][1], &k[i].root));
    CHECK(verify1(pvk, &pf[i], pub[i], 2));
  }
  CHECK(!verify1(pvk, &pf[0], pub[1], 2));
  cuzk_fr swapped[2] = {pub[0][1], pub[0][0]};
  CHECK(!verify1(pvk, &pf[0], swapped, 2));
  /* Batches: k = 1 and 3 valid; one bad proof (tampered C, tampered input) rejects. */
  const cuzk_fr *ins[3] = {pub[0], pub[1], pub[2]};
  bool ok = false;
  CHECK(cuzk_g16_verify_batch(&ok, pvk, pf, ins, 2, 1) == CUZK_G16_OK && ok);
  ok = false;
  CHECK(cuzk_g16_verify_batch(&ok, pvk, pf, ins, 2, 3) == CUZK_G16_OK && ok);
  ok = true;
  CHECK(cuzk_g16_verify_batch(&ok, pvk, pf, ins, 2, 0) == CUZK_G16_OK && ok);
  cuzk_g16_proof bad[3] = {pf[0], pf[1], pf[2]};
  g1_add_gen(&bad[1].c);
  CHECK(cuzk_g16_verify_batch(&ok, pvk, bad, ins, 2, 3) == CUZK_G16_OK && !ok);
  CHECK(cuzk_g16_verify_batch(&ok, pvk, bad + 1, ins + 1, 2, 1) == CUZK_G16_OK && !ok);
  const cuzk_fr *ins_bad[3] = {pub[0], pub[1], pub[1]};
  CHECK(cuzk_g16_verify_batch(&ok, pvk, pf, ins_bad, 2, 3) == CUZK_G16_OK && !ok);
  /* Two compensating errors must not cancel: swap the A points of two proofs. */
  cuzk_g16_proof sw[3] = {pf[0], pf[1], pf[2]};
  sw[0].a = pf[1].a;
  sw[1].a = pf[0].a;
  CHECK(cuzk_g16_verify_batch(&ok, pvk, sw, ins, 2, 3) == CUZK_G16_OK && !ok);
  /* Errors that cancel in an unweighted product: C0 + G and C1 - G leave the sum of the C points
   * (and so the product of the e(C_i, delta)) unchanged; only random weights catch them. */
  cuzk_g16_proof cc[3] = {pf[0], pf[1], pf[2]};
  g1_add_gen(&cc[0].c);
  g1_sub_gen(&cc[1].c);
  CHECK(!verify1(pvk, &cc[0], pub[0], 2) && !verify1(pvk, &cc[1], pub[1], 2));
  CHECK(cuzk_g16_verify_batch(&ok, pvk, cc, ins, 2, 3) == CUZK_G16_OK && !ok);
  CHECK(cuzk_g16_verify_batch(&ok, pvk, cc, ins, 2, 2) == CUZK_G16_OK && !ok);
  cuzk_g16_pvk_free(pvk);
  cuzk_g16_params_free(p);
}

/* The library prover (cuzk_g16_prove): bit-identical to the reference prover for the same r, s;
 * its proofs verify, singly, as a batch and after the 192-byte encoding round trip. */
static void test_prover(cuzk_pool *pool) {
  pos_ctx k[3];
  uint64_t rs = 99;
  for (int i = 0; i < 3; i++) {
    memset(&k[i], 0, sizeof k[i]);
    CHECK(cuzk_poseidon_params_get(&k[i].p, 2) == CUZK_HASH_OK);
    rng_fr(&rs, &k[i].leaf);
    rng_fr(&rs, &k[i].sib);
    k[i].rounds = 2;
  }
  cuzk_g16_params *p = NULL;
  CHECK(gen(&p, synth_poseidon, &k[0], 21, pool) == CUZK_G16_OK);
  if (!p) return;
  cuzk_g16_pvk *pvk = NULL;
  CHECK(cuzk_g16_pvk_prepare(&pvk, &p->vk) == CUZK_G16_OK);
  cuzk_fr r[3], s[3], pub[3][2];
  cuzk_g16_proof ref[3], pf[3];
  cuzk_cs *cs[3];
  for (int i = 0; i < 3; i++) {
    rng_fr(&rs, &r[i]);
    rng_fr(&rs, &s[i]);
    CHECK(ref_prove(&ref[i], pub[i], p, synth_poseidon, &k[i], &r[i], &s[i]));
    cs[i] = synth(CUZK_CS_PROVE, synth_poseidon, &k[i]);
  }
  cuzk_g16_prove_opts o = {.pool = pool, .max_workers = 0, .r = r, .s = s};
  cuzk_g16_err e = cuzk_g16_prove(pf, cs, 3, p, &o, NULL);
  CHECK_MSG(e == CUZK_G16_OK, "prove: %s", cuzk_g16_strerror(e));
  for (int i = 0; i < 3 && e == CUZK_G16_OK; i++) {
    CHECK(cuzk_g1_affine_eq(&pf[i].a, &ref[i].a));
    CHECK(cuzk_g2_affine_eq(&pf[i].b, &ref[i].b));
    CHECK(cuzk_g1_affine_eq(&pf[i].c, &ref[i].c));
    CHECK(verify1(pvk, &pf[i], pub[i], 2));
    uint8_t bytes[CUZK_G16_PROOF_BYTES];
    cuzk_g16_proof back;
    cuzk_g16_proof_write(bytes, &pf[i]);
    CHECK(cuzk_g16_proof_read(&back, bytes) == CUZK_G16_OK);
    CHECK(verify1(pvk, &back, pub[i], 2));
  }
  const cuzk_fr *ins[3] = {pub[0], pub[1], pub[2]};
  bool ok = false;
  CHECK(cuzk_g16_verify_batch(&ok, pvk, pf, ins, 2, 3) == CUZK_G16_OK && ok);
  for (int i = 0; i < 3; i++)
    cuzk_cs_destroy(cs[i]);
  /* OS randomizers. */
  cs[0] = synth(CUZK_CS_PROVE, synth_poseidon, &k[1]);
  CHECK(cuzk_g16_prove(pf, cs, 1, p, NULL, NULL) == CUZK_G16_OK);
  CHECK(verify1(pvk, &pf[0], pub[1], 2));
  CHECK(!verify1(pvk, &pf[0], pub[0], 2));
  cuzk_cs_destroy(cs[0]);
  cuzk_g16_pvk_free(pvk);
  cuzk_g16_params_free(p);
}

static void test_errors(void) {
  cubic_ctx k = {.x = 3, .c = 1, .unconstrained = true};
  cuzk_g16_params *p = NULL;
  CHECK(gen(&p, synth_cubic, &k, 1, NULL) == CUZK_G16_EUNCONSTRAINED && p == NULL);
  k.unconstrained = false;
  cuzk_cs *cs = synth(CUZK_CS_PROVE, synth_cubic, &k);
  uint8_t seed[32] = {0};
  CHECK(cuzk_g16_generate(&p, cs, seed, NULL, 0, NULL) == CUZK_G16_ESYNTH && p == NULL);
  CHECK(cuzk_g16_generate(&p, NULL, seed, NULL, 0, NULL) == CUZK_G16_EINVAL);
  CHECK(cuzk_g16_generate(NULL, cs, seed, NULL, 0, NULL) == CUZK_G16_EINVAL);
  cuzk_cs_destroy(cs);
  cuzk_g16_pvk *pvk = NULL;
  CHECK(cuzk_g16_pvk_prepare(&pvk, NULL) == CUZK_G16_EINVAL);
  cuzk_g16_pvk_free(NULL);
}

/* Files for tests/interop/verify.mjs (an independent check with @noble/curves): vk, a valid and
 * a tampered 192-byte proof, the public inputs (hex of 32-byte little-endian, one per line) and
 * a flipped copy of them. */
static bool write_file(const char *dir, const char *name, const void *data, size_t len) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  if (!f) return false;
  bool ok = fwrite(data, 1, len, f) == len;
  return fclose(f) == 0 && ok;
}

static bool write_inputs(const char *dir, const char *name, const cuzk_fr *x, size_t n) {
  char text[2 * 65 * 4];
  size_t off = 0;
  for (size_t i = 0; i < n && i < 4; i++) {
    uint8_t b[32];
    cuzk_fr_to_bytes(b, &x[i]);
    to_hex(text + off, b, 32);
    off += 64;
    text[off++] = '\n';
  }
  return write_file(dir, name, text, off);
}

static void interop_write(const char *dir) {
  pos_ctx k;
  memset(&k, 0, sizeof k);
  uint64_t rs = 1234;
  CHECK(cuzk_poseidon_params_get(&k.p, 2) == CUZK_HASH_OK);
  rng_fr(&rs, &k.leaf);
  rng_fr(&rs, &k.sib);
  k.rounds = 1;
  cuzk_g16_params *p = NULL;
  CHECK(gen(&p, synth_poseidon, &k, 42, NULL) == CUZK_G16_OK);
  if (!p) return;
  cuzk_fr r, s, pub[2];
  rng_fr(&rs, &r);
  rng_fr(&rs, &s);
  cuzk_g16_proof pf, bad;
  CHECK(ref_prove(&pf, pub, p, synth_poseidon, &k, &r, &s));
  bad = pf;
  g1_add_gen(&bad.c);
  cuzk_g16_pvk *pvk = NULL;
  CHECK(cuzk_g16_pvk_prepare(&pvk, &p->vk) == CUZK_G16_OK);
  CHECK(verify1(pvk, &pf, pub, 2) && !verify1(pvk, &bad, pub, 2));
  cuzk_g16_pvk_free(pvk);
  char path[4096];
  snprintf(path, sizeof path, "%s/test.vk", dir);
  CHECK(cuzk_g16_vk_write_file(&p->vk, path) == CUZK_G16_OK);
  uint8_t b[CUZK_G16_PROOF_BYTES];
  cuzk_g16_proof_write(b, &pf);
  CHECK(write_file(dir, "valid.proof", b, sizeof b));
  cuzk_g16_proof_write(b, &bad);
  CHECK(write_file(dir, "tampered.proof", b, sizeof b));
  CHECK(write_inputs(dir, "inputs.txt", pub, 2));
  cuzk_fr_add(&pub[1], &pub[1], &cuzk_fr_one);
  CHECK(write_inputs(dir, "flipped_inputs.txt", pub, 2));
  cuzk_g16_params_free(p);
}

int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[1], "--interop")) {
    interop_write(argv[2]);
    return check_summary("test_g16_verify --interop");
  }
  cuzk_pool *pool = NULL;
  CHECK(cuzk_pool_create(&pool, 2) == CUZK_POOL_OK);
  test_cubic(pool);
  test_poseidon(pool);
  test_prover(pool);
  test_errors();
  cuzk_pool_destroy(pool);
  return check_summary("test_g16_verify");
}
