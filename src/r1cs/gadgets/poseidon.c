/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Poseidon as neptune's legacy circuit (`circuit.rs` poseidon_hash), the gadget Filecoin's
 * trusted setups were made with (docs/spec/poseidon.md §6, docs/spec/porep-circuit.md §2.11). It
 * runs the static permutation (docs/spec/poseidon.md §4.3: compressed round constants,
 * pre-sparse and sparse matrices), so the witness is that algorithm's intermediate values.
 *
 * The state holds "Nums": an LC plus its value, never allocated by the mix. Each S-box first
 * allocates its input ("ensure allocated": v with (Num ; ONE ; v)), then l2, l4, l5 with one
 * constraint each; round 0 S-boxes the inputs directly with the pre key folded into the LC, and
 * folds the constant tag's S-box into a constant. Partial rounds leave elements 1.. as Nums that
 * grow by one term per round; their LCs come from per-arity coefficient tables (partial_table).
 *
 * aux = constraints = 3a + 4t(R_F - 1) + 4 R_P + 1.
 */
#define _POSIX_C_SOURCE 200809L /* pthread mutexes under -std=c17 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/r1cs/gadgets.h"
#include "r1cs/cs_internal.h"

#define MAXW CUZK_POSEIDON_MAX_WIDTH
#define MAX_PARTIAL 64 /* R_P is at most 60 (arity 36) */

typedef struct {
  cuzk_cs *cs;
  bool hv;  /* witness values kept */
  bool lcs; /* LCs built (their coefficients need field arithmetic even without values) */
  unsigned t;
  cuzk_lc st[MAXW]; /* the state as Nums (LC part) */
  cuzk_fr sv[MAXW]; /* ... and their values */
  cuzk_var y[MAXW]; /* the current round's S-box outputs */
  cuzk_fr yv[MAXW]; /* ... and their values */
} pstate;

/*
 * x^5 (+ post) of x = in + pre (pre NULL: no constant term), in three steps:
 *   l2 = x^2:           (x ; x ; l2)
 *   l4 = l2^2:          (l2 ; l2 ; l4)
 *   l5 = l4 x + post:   (x ; l4 ; l5 - post ONE)     (post NULL, the terminal round: C = l5)
 */
static cuzk_var sbox(pstate *s, cuzk_var in, const cuzk_fr *in_val, const cuzk_fr *pre,
                     const cuzk_fr *post, cuzk_fr *out_val) {
  cuzk_cs *cs = s->cs;
  cuzk_fr x, x2, x4;
  if (s->hv) {
    x = *in_val;
    if (pre) cuzk_fr_add(&x, &x, pre);
    cuzk_fr_sqr(&x2, &x);
    cuzk_fr_sqr(&x4, &x2);
    cuzk_fr_mul(out_val, &x4, &x);
    if (post) cuzk_fr_add(out_val, out_val, post);
  }
  cuzk_lc a, b, c;
  cuzk_var l2 = cuzk_cs_alloc(cs, s->hv ? &x2 : NULL);
  cuzk_lc_init3(&a, &b, &c, cs);
  cuzk_lc_add(&a, in, NULL);
  cuzk_lc_add(&b, in, NULL);
  if (pre) {
    cuzk_lc_add_const(&a, pre);
    cuzk_lc_add_const(&b, pre);
  }
  cuzk_lc_add(&c, l2, NULL);
  cuzk_cs_enforce(cs, "l^2", &a, &b, &c);

  cuzk_var l4 = cuzk_cs_alloc(cs, s->hv ? &x4 : NULL);
  cuzk_lc_init3(&a, &b, &c, cs);
  cuzk_lc_add(&a, l2, NULL);
  cuzk_lc_add(&b, l2, NULL);
  cuzk_lc_add(&c, l4, NULL);
  cuzk_cs_enforce(cs, "l^4", &a, &b, &c);

  cuzk_var l5 = cuzk_cs_alloc(cs, s->hv ? out_val : NULL);
  cuzk_lc_init3(&a, &b, &c, cs);
  cuzk_lc_add(&a, in, NULL);
  if (pre) cuzk_lc_add_const(&a, pre);
  cuzk_lc_add(&b, l4, NULL);
  cuzk_lc_add(&c, l5, NULL);
  if (post && s->lcs) {
    cuzk_fr neg;
    cuzk_fr_neg(&neg, post);
    cuzk_lc_add_const(&c, &neg);
  }
  cuzk_cs_enforce(cs, "l^5", &a, &b, &c);
  return l5;
}

/* Ensure allocated: v = value of the Num; (Num ; ONE ; v). Consumes the Num's LC. */
static cuzk_var materialize(pstate *s, cuzk_lc *num, const cuzk_fr *val) {
  cuzk_cs *cs = s->cs;
  cuzk_var v = cuzk_cs_alloc(cs, s->hv ? val : NULL);
  cuzk_lc b, c;
  cuzk_lc_init(&b, cs);
  cuzk_lc_init(&c, cs);
  cuzk_lc_add(&b, CUZK_VAR_ONE, NULL);
  cuzk_lc_add(&c, v, NULL);
  cuzk_cs_enforce(cs, "S-box input", num, &b, &c);
  return v;
}

/* A full round after round 0: every element materialized and S-boxed, in order. */
static void full_sboxes(pstate *s, const cuzk_fr *post) {
  for (unsigned i = 0; i < s->t; i++) {
    cuzk_cs_push(s->cs, "quintic s-box %u", i);
    cuzk_var v = materialize(s, &s->st[i], &s->sv[i]);
    s->y[i] = sbox(s, v, &s->sv[i], NULL, post ? &post[i] : NULL, &s->yv[i]);
    cuzk_cs_pop(s->cs);
  }
}

/* state_j = Σ_i A[i][j] y_i (column j of A: the row-vector product s * A), over the S-box
 * outputs; with k0, element 0 is the constant k0 instead of y_0 (round 0's folded tag). lcs
 * false: values only (the pre-sparse mix, whose LCs the partial-round table holds). */
static void mix_dense(pstate *s, const cuzk_fr *m, const cuzk_fr *k0, unsigned only, bool lcs) {
  const unsigned t = s->t;
  for (unsigned j = 0; j < t; j++) {
    if (only < t && j != only) continue;
    cuzk_lc *lc = &s->st[j];
    cuzk_lc_init(lc, s->cs);
    if (s->lcs && lcs) {
      if (k0) {
        cuzk_fr k;
        cuzk_fr_mul(&k, k0, &m[j]);
        cuzk_lc_add_const(lc, &k);
      } else {
        cuzk_lc_add(lc, s->y[0], &m[j]);
      }
      for (unsigned i = 1; i < t; i++)
        cuzk_lc_add(lc, s->y[i], &m[i * t + j]);
    }
    if (s->hv) {
      cuzk_fr x;
      cuzk_fr_mul(&s->sv[j], k0 ? k0 : &s->yv[0], &m[j]);
      for (unsigned i = 1; i < t; i++) {
        cuzk_fr_mul(&x, &s->yv[i], &m[i * t + j]);
        cuzk_fr_add(&s->sv[j], &s->sv[j], &x);
      }
    }
  }
}

/* The value part of one partial round's sparse matrix (w_hat, v_rest), element 0 being the
 * S-box output value yv: s0 = w_hat[0] yv + Σ_{j>=1} w_hat[j] s_j;  s_j += v_rest[j-1] yv. */
static void mix_sparse_values(pstate *s, const cuzk_fr *w, const cuzk_fr *yv) {
  const unsigned t = s->t;
  const cuzk_fr *v = w + t;
  cuzk_fr x, v0;
  cuzk_fr_mul(&v0, yv, &w[0]);
  for (unsigned j = 1; j < t; j++) {
    cuzk_fr_mul(&x, &s->sv[j], &w[j]);
    cuzk_fr_add(&v0, &v0, &x);
    cuzk_fr_mul(&x, yv, &v[j - 1]);
    cuzk_fr_add(&s->sv[j], &s->sv[j], &x);
  }
  s->sv[0] = v0;
}

/*
 * The LCs of the partial rounds, as coefficient tables computed once per arity. From the
 * pre-sparse mix on, every Num is a combination of one variable sequence: the round-3 S-box
 * outputs z_0..z_{t-1}, then the partial rounds' outputs y_0, y_1, ... Elements 1.. only ever
 * gain the term v_rest[j-1] y_k, so their coefficients are constants; element 0 is rebuilt
 * each round as w_hat[0] y_k + Σ_{j>=1} w_hat[j] state_j, constants too. The merged maps are
 * the reference's (exact arithmetic), without the (t - 1)(t + k) products per round and hash.
 * Layout: in_k (k < R_P), element 0's S-box input in partial round k over z, y_0..y_{k-1}
 * (t + k values); then fin_j (j < t), element j after the last partial round (t + R_P values).
 */
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(const cuzk_fr *) tables[CUZK_POSEIDON_MAX_ARITY + 1];

static const cuzk_fr *build_table(const cuzk_poseidon_params *p) {
  const size_t t = p->width, rp = p->partial_rounds, len = t + rp;
  cuzk_fr *tab = malloc((rp * t + rp * (rp - 1) / 2 + t * len) * sizeof *tab);
  cuzk_fr *c = calloc(t * len, sizeof *c); /* c[j * len + m]; all-zero limbs are 0 */
  if (!tab || !c) {
    free(tab);
    free(c);
    return NULL;
  }
  for (size_t j = 0; j < t; j++) /* after the pre-sparse mix: state_j = Σ_i P[i][j] z_i */
    for (size_t i = 0; i < t; i++)
      c[j * len + i] = p->pre_sparse[i * t + j];
  cuzk_fr *o = tab, x;
  const cuzk_fr *w = p->sparse;
  for (size_t k = 0; k < rp; k++, w += 2 * t - 1) {
    memcpy(o, c, (t + k) * sizeof *o);
    o += t + k;
    for (size_t m = 0; m < t + k; m++) {
      c[m] = cuzk_fr_zero;
      for (size_t j = 1; j < t; j++) {
        cuzk_fr_mul(&x, &c[j * len + m], &w[j]);
        cuzk_fr_add(&c[m], &c[m], &x);
      }
    }
    c[t + k] = w[0];
    for (size_t j = 1; j < t; j++)
      c[j * len + t + k] = w[t + j - 1];
  }
  memcpy(o, c, t * len * sizeof *o);
  free(c);
  return tab;
}

/* The table of p's arity, built on first use (thread-safe; kept for the process). */
static const cuzk_fr *partial_table(const cuzk_poseidon_params *p) {
  const cuzk_fr *tab = atomic_load_explicit(&tables[p->arity], memory_order_acquire);
  if (tab) return tab;
  pthread_mutex_lock(&table_lock);
  tab = atomic_load_explicit(&tables[p->arity], memory_order_relaxed);
  if (!tab && (tab = build_table(p)))
    atomic_store_explicit(&tables[p->arity], tab, memory_order_release);
  pthread_mutex_unlock(&table_lock);
  return tab;
}

/* lc = Σ_m tab[off + m] basis[m], m < n (no terms when LCs are not built: tab is NULL). */
static void lc_from_table(pstate *s, cuzk_lc *lc, const cuzk_var *basis, const cuzk_fr *tab,
                          size_t off, size_t n) {
  cuzk_lc_init(lc, s->cs);
  if (!s->lcs) return;
  for (size_t m = 0; m < n; m++)
    cuzk_lc_add(lc, basis[m], &tab[off + m]);
}

cuzk_num cuzk_gadget_poseidon(cuzk_cs *cs, const cuzk_poseidon_params *p, const cuzk_num *in) {
  return cuzk_gadget_poseidon_tagged(cs, p, &p->merkle_tag, in);
}

cuzk_num cuzk_gadget_poseidon_tagged(cuzk_cs *cs, const cuzk_poseidon_params *p, const cuzk_fr *tag,
                                     const cuzk_num *in) {
  pstate s;
  const unsigned t = p->width, a = p->arity, half = p->full_rounds / 2, rp = p->partial_rounds;
  const cuzk_fr *c = p->compressed_constants;
  s.cs = cs;
  s.hv = cuzk_cs_has_values(cs);
  s.lcs = cs->head.build_lcs != 0;
  s.t = t;
  const cuzk_fr *tab = NULL;
  if (rp > MAX_PARTIAL) { /* not for any arity neptune defines (R_P <= 60) */
    cs_fail(cs, CUZK_R1CS_EINVAL);
    s.lcs = s.hv = false;
  } else if (s.lcs && !(tab = partial_table(p))) {
    cs_fail(cs, CUZK_R1CS_ENOMEM); /* sticky: the counts go on, nothing is stored */
    s.lcs = false;
  }

  /* Round 0. Element 0 is the constant tag: (tag + C[0])^5 + C[t], no variable. The inputs are
   * S-boxed as they are, with the pre key C[i] inside the LCs and the post key C[t + i]. */
  cuzk_fr k0 = cuzk_fr_zero;
  if (s.hv || s.lcs) {
    cuzk_fr x, x2;
    cuzk_fr_add(&x, tag, &c[0]);
    cuzk_fr_sqr(&x2, &x);
    cuzk_fr_sqr(&x2, &x2);
    cuzk_fr_mul(&k0, &x2, &x);
    cuzk_fr_add(&k0, &k0, &c[t]);
  }
  cuzk_cs_push(cs, "first round");
  for (unsigned i = 1; i <= a; i++) {
    cuzk_cs_push(cs, "quintic s-box %u", i);
    s.y[i] = sbox(&s, in[i - 1].var, &in[i - 1].value, &c[i], &c[t + i], &s.yv[i]);
    cuzk_cs_pop(cs);
  }
  mix_dense(&s, p->mds, &k0, t, true);
  cuzk_cs_pop(cs);
  c += 2 * t;

  /* The other first-half full rounds; the last of them mixes with the pre-sparse matrix, whose
   * outputs z_0..z_{t-1} start the partial rounds' variable sequence. */
  cuzk_var basis[MAXW + MAX_PARTIAL];
  for (unsigned r = 1; r < half; r++, c += t) {
    cuzk_cs_push(cs, "initial full round %u", r);
    full_sboxes(&s, c);
    if (r + 1 < half) {
      mix_dense(&s, p->mds, NULL, t, true);
    } else {
      mix_dense(&s, p->pre_sparse, NULL, t, false);
      memcpy(basis, s.y, t * sizeof *basis);
    }
    cuzk_cs_pop(cs);
  }

  /* Partial rounds: element 0 only, one key each, then the round's sparse matrix. */
  const cuzk_fr *sp = p->sparse;
  size_t off = 0; /* of in_k in the table */
  for (unsigned k = 0; k < rp; k++, c++, sp += 2 * t - 1) {
    cuzk_cs_push(cs, "partial round %u", k);
    lc_from_table(&s, &s.st[0], basis, tab, off, t + k);
    off += t + k;
    cuzk_var v = materialize(&s, &s.st[0], &s.sv[0]);
    cuzk_fr yv;
    basis[t + k] = sbox(&s, v, &s.sv[0], NULL, c, &yv);
    if (s.hv) mix_sparse_values(&s, sp, &yv);
    cuzk_cs_pop(cs);
  }
  for (unsigned j = 0; j < t; j++) /* the Nums the partial rounds leave */
    lc_from_table(&s, &s.st[j], basis, tab, off + (size_t)j * (t + rp), t + rp);

  /* Second half: full rounds with keys, then the terminal round without one. */
  for (unsigned r = 0; r + 1 < half; r++, c += t) {
    cuzk_cs_push(cs, "final full round %u", r);
    full_sboxes(&s, c);
    mix_dense(&s, p->mds, NULL, t, true);
    cuzk_cs_pop(cs);
  }
  cuzk_cs_push(cs, "terminal full round");
  full_sboxes(&s, NULL);
  mix_dense(&s, p->mds, NULL, 1, true); /* only element 1, the hash, is used */
  cuzk_cs_pop(cs);

  cuzk_num out;
  out.value = s.hv ? s.sv[1] : cuzk_fr_zero;
  cuzk_cs_push(cs, "hash result");
  out.var = materialize(&s, &s.st[1], &s.sv[1]);
  cuzk_cs_pop(cs);
  return out;
}
