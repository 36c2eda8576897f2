/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Segments (cuzk/r1cs/r1cs.h, docs/r1cs.md "Parallel witness"): parts of a circuit that read only
 * what was synthesized before them, such as a PoRep partition's challenges. A recording notes where
 * each starts; a later witness synthesis of the same circuit then knows every segment's variable
 * and constraint numbers in advance and runs the segments at once, each on a view of the
 * constraint system that writes into the shared witness at its own place.
 */
#include <stdatomic.h>
#include <stdlib.h>

#include "r1cs/cs_internal.h"

static cuzk_cs_mark here(const cuzk_cs *cs) {
  return (cuzk_cs_mark){(uint32_t)cs->n_inputs, (uint32_t)cs->n_aux, (uint32_t)cs->n_cons};
}

static bool mark_eq(const cuzk_cs_mark *a, const cuzk_cs_mark *b) {
  return a->inputs == b->inputs && a->aux == b->aux && a->constraints == b->constraints;
}

static bool note_mark(cuzk_cs *cs) {
  if (!cuzk_vec_reserve(&cs->marks, (cs->n_marks + 1) * sizeof(cuzk_cs_mark))) return false;
  ((cuzk_cs_mark *)cs->marks.p)[cs->n_marks++] = here(cs);
  return true;
}

size_t cuzk_cs_marks(const cuzk_cs *cs, const cuzk_cs_mark **out) {
  *out = cs->marks.p;
  return cs->n_marks;
}

void cuzk_cs_set_layout(cuzk_cs *cs, const cuzk_cs_mark *marks, size_t n, cuzk_pool *pool) {
  cs->layout = marks;
  cs->layout_n = marks ? n : 0;
  cs->layout_at = 0;
  cs->layout_pool = pool;
}

typedef struct {
  cuzk_cs *cs;
  const cuzk_cs_mark *m; /* m[0 .. n]: the segments' starts and the end */
  cuzk_cs_segment_fn fn;
  void *ctx;
  cuzk_r1cs_err *err; /* per segment */
} run;

typedef struct {
  run *r;
  unsigned i;
} seg_task;

/* Segment i on a view of r->cs: the parent's buffers (sized beforehand: a view never grows
 * them), counts starting at the segment's mark and capacities ending at the next. */
static void run_segment(void *arg) {
  const seg_task *t = arg;
  const run *r = t->r;
  const cuzk_cs *p = r->cs;
  const cuzk_cs_mark *start = &r->m[t->i], *end = &r->m[t->i + 1];
  cuzk_cs *v = calloc(1, sizeof *v);
  if (!v) {
    r->err[t->i] = CUZK_R1CS_ENOMEM;
    return;
  }
  v->head = p->head;
  v->mode = p->mode;
  v->borrowed = true;
  v->inputs = p->inputs;
  v->aux = p->aux;
  v->kind = p->kind;
  v->keep_kind = p->keep_kind;
  v->n_inputs = start->inputs, v->input_cap = end->inputs;
  v->n_aux = start->aux, v->aux_cap = end->aux;
  v->n_cons = start->constraints, v->cons_cap = end->constraints;
  cuzk_r1cs_err e = r->fn(v, t->i, r->ctx);
  if (e == CUZK_R1CS_OK) e = v->err;
  cuzk_cs_mark at = here(v);
  if (e == CUZK_R1CS_OK && !mark_eq(&at, end)) e = CUZK_R1CS_ESHAPE;
  r->err[t->i] = e;
  cuzk_cs_destroy(v);
}

/* The layout's marks from layout_at place these n segments, and the parent can hold them all. */
static bool layout_fits(cuzk_cs *cs, unsigned n) {
  if (cs->mode != CUZK_CS_WITNESS || !cs->layout || cs->err != CUZK_R1CS_OK || cs->finished ||
      cuzk_pool_threads(cs->layout_pool) < 2 || n < 2 || cs->layout_at > cs->layout_n ||
      cs->layout_n - cs->layout_at < (size_t)n + 1)
    return false;
  const cuzk_cs_mark *m = cs->layout + cs->layout_at, now = here(cs);
  if (!mark_eq(&m[0], &now)) return false;
  for (unsigned i = 0; i < n; i++)
    if (m[i + 1].inputs < m[i].inputs || m[i + 1].aux < m[i].aux ||
        m[i + 1].constraints < m[i].constraints)
      return false;
  /* room for everything before any view writes: a view's buffers must never move */
  return cuzk_cs_reserve_aux(cs, m[n].aux) && cs_reserve_inputs(cs, m[n].inputs);
}

/* The n segments at once; false (nothing run) if the bookkeeping cannot be allocated. */
static bool in_parallel(cuzk_cs *cs, unsigned n, cuzk_cs_segment_fn fn, void *ctx, unsigned *failed,
                        cuzk_r1cs_err *out) {
  const cuzk_cs_mark *m = cs->layout + cs->layout_at;
  cuzk_r1cs_err *err = calloc(n, sizeof *err);
  seg_task *tasks = calloc(n, sizeof *tasks);
  cuzk_task_group *g = err && tasks ? cuzk_task_group_begin(cs->layout_pool) : NULL;
  if (!g) {
    free(err);
    free(tasks);
    return false;
  }
  run r = {cs, m, fn, ctx, err};
  for (unsigned i = 0; i < n; i++) {
    tasks[i] = (seg_task){&r, i};
    cuzk_task_spawn(g, run_segment, &tasks[i]);
  }
  cuzk_task_group_wait(g);
  cuzk_r1cs_err e = CUZK_R1CS_OK;
  for (unsigned i = 0; i < n && !e; i++)
    if ((e = err[i]) != CUZK_R1CS_OK && failed) *failed = i;
  free(err);
  free(tasks);
  /* the parent now stands where the last segment ended */
  cs->n_inputs = m[n].inputs;
  cs->n_aux = m[n].aux;
  cs->n_cons = m[n].constraints;
  cs->layout_at += (size_t)n + 1;
  cs_fail(cs, e);
  *out = e;
  return true;
}

cuzk_r1cs_err cuzk_cs_segments(cuzk_cs *cs, unsigned n, cuzk_cs_segment_fn fn, void *ctx,
                               unsigned *failed) {
  if (!cs || !fn) return CUZK_R1CS_EINVAL;
  if (n == 0) return CUZK_R1CS_OK;
  cuzk_r1cs_err e;
  if (layout_fits(cs, n) && in_parallel(cs, n, fn, ctx, failed, &e)) return e;
  cs->layout = NULL; /* out of step with the layout from here on: the rest runs in order */
  for (unsigned i = 0; i < n; i++) {
    if (cs->record && !note_mark(cs)) cs_fail(cs, CUZK_R1CS_ENOMEM);
    e = fn(cs, i, ctx);
    if (e == CUZK_R1CS_OK) e = cs->err;
    if (e != CUZK_R1CS_OK) {
      if (failed) *failed = i;
      cs_fail(cs, e);
      return e;
    }
  }
  if (cs->record && !note_mark(cs)) cs_fail(cs, CUZK_R1CS_ENOMEM);
  return cs->err;
}
