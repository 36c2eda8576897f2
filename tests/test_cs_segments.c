/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Segments (cuzk_cs_segments, docs/r1cs.md "Parallel witness"): a recording notes where each
 * segment starts and ends; a witness synthesis given those marks runs the segments at once on
 * views of the system and ends with exactly the witness of an in-order synthesis; marks that do
 * not fit (another start, a pool of one thread) fall back to in order; a segment that overruns
 * its mark is ESHAPE and a failing segment's own error is reported with its index.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuzk/r1cs/r1cs.h"
#include "rng.h"

enum { SEGMENTS = 5 };

typedef struct {
  cuzk_cs *parent;
  cuzk_var x;
  cuzk_fr xv;
  int fail_at;          /* a segment that returns EINVAL (-1: none) */
  _Atomic int on_views; /* segments run on a view rather than the parent */
} circuit;

/* Segment i: an input, then a chain t_k = t_{k-1} * x of 300 + 50 i products, starting at x:
 * every segment reads the prefix's x, and the segments differ in size. */
static cuzk_r1cs_err segment(cuzk_cs *cs, unsigned i, void *arg) {
  circuit *c = arg;
  if (cs != c->parent) atomic_fetch_add(&c->on_views, 1);
  if ((int)i == c->fail_at) return CUZK_R1CS_EINVAL;
  bool hv = cuzk_cs_has_values(cs);
  cuzk_fr in;
  cuzk_fr_from_u64(&in, 1000 + i);
  cuzk_cs_alloc_input(cs, hv ? &in : NULL);
  cuzk_var cur = c->x;
  cuzk_fr cv = c->xv;
  for (unsigned k = 0; k < 300 + 50 * i; k++) {
    cuzk_fr t;
    if (hv) cuzk_fr_mul(&t, &cv, &c->xv);
    cuzk_var tv = cuzk_cs_alloc(cs, hv ? &t : NULL);
    cuzk_lc a, b, o;
    cuzk_lc_init3(&a, &b, &o, cs);
    cuzk_lc_add(&a, cur, NULL);
    cuzk_lc_add(&b, c->x, NULL);
    cuzk_lc_add(&o, tv, NULL);
    cuzk_cs_enforce(cs, "product", &a, &b, &o);
    cur = tv;
    cv = t;
  }
  return CUZK_R1CS_OK;
}

/* The prefix (x, an input), the segments, then one constraint after them. */
static cuzk_r1cs_err synth(cuzk_cs *cs, circuit *c, unsigned *failed) {
  bool hv = cuzk_cs_has_values(cs);
  uint64_t seed = 77;
  cuzk_fr y;
  cuzk_fr_from_u64(&c->xv, rng_next(&seed));
  cuzk_fr_from_u64(&y, rng_next(&seed));
  c->parent = cs;
  c->x = cuzk_cs_alloc(cs, hv ? &c->xv : NULL);
  cuzk_cs_alloc_input(cs, hv ? &y : NULL);
  atomic_store(&c->on_views, 0);
  cuzk_r1cs_err e = cuzk_cs_segments(cs, SEGMENTS, segment, c, failed);
  cuzk_lc a;
  cuzk_lc_init(&a, cs);
  cuzk_lc_add(&a, c->x, NULL);
  cuzk_cs_enforce(cs, "after", &a, NULL, NULL);
  return e;
}

static cuzk_cs *make(cuzk_cs_mode mode) {
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, mode);
  cuzk_cs *cs = NULL;
  CHECK(cuzk_cs_create(&cs, &o) == CUZK_R1CS_OK);
  return cs;
}

static bool same_witness(const cuzk_cs *x, const cuzk_cs *y) {
  cuzk_cs_result a, b;
  cuzk_cs_result_get(x, &a);
  cuzk_cs_result_get(y, &b);
  return a.num_inputs == b.num_inputs && a.num_aux == b.num_aux &&
         a.num_constraints == b.num_constraints &&
         !memcmp(a.inputs, b.inputs, a.num_inputs * sizeof(cuzk_fr)) &&
         !memcmp(a.aux, b.aux, a.num_aux * sizeof(cuzk_fr));
}

int main(void) {
  circuit c = {.fail_at = -1};
  cuzk_pool *pool2 = NULL, *pool1 = NULL;
  CHECK(cuzk_pool_create(&pool2, 2) == CUZK_POOL_OK && cuzk_pool_create(&pool1, 1) == 0);

  /* RECORD: SEGMENTS + 1 marks, at the counts each segment starts and ends at */
  cuzk_cs *rec = make(CUZK_CS_RECORD);
  CHECK(synth(rec, &c, NULL) == CUZK_R1CS_OK);
  const cuzk_cs_mark *m;
  size_t n = cuzk_cs_marks(rec, &m);
  CHECK(n == SEGMENTS + 1);
  CHECK(m[0].inputs == 2 && m[0].aux == 1 && m[0].constraints == 0);
  for (unsigned i = 0; i < SEGMENTS && n == SEGMENTS + 1; i++)
    CHECK_MSG(m[i + 1].inputs == m[i].inputs + 1 && m[i + 1].aux == m[i].aux + 300 + 50 * i &&
                  m[i + 1].constraints == m[i].constraints + 300 + 50 * i,
              "mark %u", i + 1);
  CHECK(m[SEGMENTS].aux > 1024); /* more than a new system holds: reserved before the views */
  cuzk_cs_mark marks[SEGMENTS + 1];
  memcpy(marks, m, sizeof marks);

  /* WITNESS in order, then with the marks: the segments on views, the same witness */
  cuzk_cs *seq = make(CUZK_CS_WITNESS), *par = make(CUZK_CS_WITNESS);
  CHECK(synth(seq, &c, NULL) == CUZK_R1CS_OK && atomic_load(&c.on_views) == 0);
  cuzk_cs_set_layout(par, marks, SEGMENTS + 1, pool2);
  CHECK(synth(par, &c, NULL) == CUZK_R1CS_OK);
  CHECK_MSG(atomic_load(&c.on_views) == SEGMENTS, "%d segments on views", atomic_load(&c.on_views));
  CHECK(same_witness(seq, par));
  CHECK(cuzk_cs_num_constraints(par) == marks[SEGMENTS].constraints + 1);

  /* reset forgets the layout: in order again */
  cuzk_cs_reset(par);
  CHECK(synth(par, &c, NULL) == CUZK_R1CS_OK && atomic_load(&c.on_views) == 0);
  CHECK(same_witness(seq, par));

  /* marks of another start (as from another circuit), or a pool of one thread: in order */
  cuzk_cs_mark shifted[SEGMENTS + 1];
  memcpy(shifted, marks, sizeof marks);
  for (int i = 0; i <= SEGMENTS; i++)
    shifted[i].aux += 1;
  cuzk_cs_reset(par);
  cuzk_cs_set_layout(par, shifted, SEGMENTS + 1, pool2);
  CHECK(synth(par, &c, NULL) == CUZK_R1CS_OK && atomic_load(&c.on_views) == 0);
  CHECK(same_witness(seq, par));
  cuzk_cs_reset(par);
  cuzk_cs_set_layout(par, marks, SEGMENTS + 1, pool1);
  CHECK(synth(par, &c, NULL) == CUZK_R1CS_OK && atomic_load(&c.on_views) == 0);
  CHECK(same_witness(seq, par));
  cuzk_cs_reset(par);
  cuzk_cs_set_layout(par, marks, SEGMENTS, pool2); /* one mark short */
  CHECK(synth(par, &c, NULL) == CUZK_R1CS_OK && atomic_load(&c.on_views) == 0);
  CHECK(same_witness(seq, par));

  /* a segment that would overrun its end mark: ESHAPE, the first such segment named */
  cuzk_cs_mark tight[SEGMENTS + 1];
  memcpy(tight, marks, sizeof marks);
  tight[3].aux -= 1; /* segment 2 ends one variable early (and segment 3 starts early) */
  unsigned failed = 99;
  cuzk_cs_reset(par);
  cuzk_cs_set_layout(par, tight, SEGMENTS + 1, pool2);
  CHECK(synth(par, &c, &failed) == CUZK_R1CS_ESHAPE && failed == 2);
  CHECK(cuzk_cs_error(par) == CUZK_R1CS_ESHAPE);
  CHECK(strstr(cuzk_r1cs_strerror(CUZK_R1CS_ESHAPE), "recorded layout") != NULL);
  tight[3].aux += 1;
  tight[2].constraints += 1; /* segment 1 ends one constraint short of its mark */
  failed = 99;
  cuzk_cs_reset(par);
  cuzk_cs_set_layout(par, tight, SEGMENTS + 1, pool2);
  CHECK(synth(par, &c, &failed) == CUZK_R1CS_ESHAPE && failed == 1);

  /* a segment's own error, at once and in order */
  c.fail_at = 3;
  failed = 99;
  cuzk_cs_reset(par);
  cuzk_cs_set_layout(par, marks, SEGMENTS + 1, pool2);
  CHECK(synth(par, &c, &failed) == CUZK_R1CS_EINVAL && failed == 3);
  CHECK(cuzk_cs_error(par) == CUZK_R1CS_EINVAL);
  failed = 99;
  cuzk_cs_reset(seq);
  CHECK(synth(seq, &c, &failed) == CUZK_R1CS_EINVAL && failed == 3);

  cuzk_cs_destroy(rec);
  cuzk_cs_destroy(seq);
  cuzk_cs_destroy(par);
  cuzk_pool_destroy(pool2);
  cuzk_pool_destroy(pool1);
  return check_summary("test_cs_segments");
}
