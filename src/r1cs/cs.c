/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The constraint system core: creation, variables, and what enforce does in each mode. */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "field/consts.h"
#include "field/limbs.h"
#include "field/mont.h"
#include "r1cs/cs_internal.h"

#define MAX_VARS ((size_t)1 << 31)

const char *cuzk_cs_mode_name(cuzk_cs_mode m) {
  switch (m) {
  case CUZK_CS_PROVE: return "prove";
  case CUZK_CS_WITNESS: return "witness";
  case CUZK_CS_RECORD: return "record";
  case CUZK_CS_CHECK: return "check";
  case CUZK_CS_SHAPE: return "shape";
  }
  return "?";
}

void cuzk_cs_opts_default(cuzk_cs_opts *o, cuzk_cs_mode mode) {
  memset(o, 0, sizeof *o);
  o->mode = mode;
  o->lc_inline = 2;
}

void cs_fail(cuzk_cs *cs, cuzk_r1cs_err e) {
  if (cs->err == CUZK_R1CS_OK) cs->err = e;
}

cuzk_r1cs_err cuzk_cs_error(const cuzk_cs *cs) { return cs->err; }

int cuzk_cs_io_errno(const cuzk_cs *cs) { return cs->err == CUZK_R1CS_EIO ? cs->io_errno : 0; }
cuzk_cs_mode cuzk_cs_mode_of(const cuzk_cs *cs) { return cs->mode; }
size_t cuzk_cs_num_inputs(const cuzk_cs *cs) { return cs->n_inputs; }
size_t cuzk_cs_num_aux(const cuzk_cs *cs) { return cs->n_aux; }
size_t cuzk_cs_num_constraints(const cuzk_cs *cs) { return cs->n_cons; }

size_t cuzk_cs_memory_bytes(const cuzk_cs *cs) {
  if (!cs) return 0;
  const cuzk_vec *v[] = {&cs->inputs,      &cs->aux,         &cs->abc[0],    &cs->abc[1],
                         &cs->abc[2],      &cs->dens[0],     &cs->dens[1],   &cs->dens[2],
                         &cs->seen_aux,    &cs->seen_in,     &cs->sort_keys, &cs->sort_vars,
                         &cs->sort_coeffs, &cs->merge_slots, &cs->name_path, &cs->name_leaf,
                         &cs->names,       &cs->marks,       &cs->kind};
  size_t n = sizeof *cs;
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
    n += v[i]->cap;
  for (int k = 0; k < 3; k++)
    n += cs->m[k].row_ptr.cap + cs->m[k].cols.cap + cs->m[k].vals.cap;
  return n + coef_dict_bytes(&cs->dict);
}

/* ---- growth: one capacity per index space, covering every array indexed by it ---------------- */

static bool grow_bits(cuzk_vec *v, size_t bits) {
  return cuzk_vec_reserve(v, (bits + 63) / 64 * 8);
}

static bool grow_inputs(cuzk_cs *cs, size_t want) {
  if (cs->borrowed) return false;
  size_t cap = cs->input_cap * 2 > want ? cs->input_cap * 2 : want;
  if (cap < 64) cap = 64;
  if (cs->head.has_values && !cuzk_vec_reserve(&cs->inputs, cap * sizeof(cuzk_fr))) return false;
  if (cs->track_density && !grow_bits(&cs->dens[DENS_B_INPUT], cap)) return false;
  if (cs->head.build_lcs && !grow_bits(&cs->seen_in, cap)) return false;
  cs->input_cap = cap;
  return true;
}

static bool grow_aux(cuzk_cs *cs, size_t want) {
  if (cs->borrowed) return false;
  size_t cap = cs->aux_cap * 2 > want ? cs->aux_cap * 2 : want;
  if (cap < 1024) cap = 1024;
  if (cs->head.has_values && !cuzk_vec_reserve(&cs->aux, cap * sizeof(cuzk_fr))) return false;
  if (cs->keep_kind && !cuzk_vec_reserve(&cs->kind, cap)) return false;
  if (cs->track_density &&
      (!grow_bits(&cs->dens[DENS_A_AUX], cap) || !grow_bits(&cs->dens[DENS_B_AUX], cap)))
    return false;
  if (cs->head.build_lcs && !grow_bits(&cs->seen_aux, cap)) return false;
  cs->aux_cap = cap;
  return true;
}

static bool grow_cons(cuzk_cs *cs, size_t want) {
  if (cs->borrowed) return false;
  size_t cap = cs->cons_cap * 2 > want ? cs->cons_cap * 2 : want;
  if (cap < 1024) cap = 1024;
  if (cs->mode == CUZK_CS_PROVE)
    for (int k = 0; k < 3; k++)
      if (!cuzk_vec_reserve(&cs->abc[k], cap * sizeof(cuzk_fr))) return false;
  if (cs->record) {
    for (int k = 0; k < 3; k++)
      if (!cuzk_vec_reserve(&cs->m[k].row_ptr, (cap + 1) * sizeof(uint32_t))) {
        if (cs->m[k].row_ptr.file) cs->io_errno = errno; /* a full disk, not memory */
        return false;
      }
  }
  if (cs->head.keep_names && (!cuzk_vec_reserve(&cs->name_path, cap * sizeof(uint64_t)) ||
                              !cuzk_vec_reserve(&cs->name_leaf, cap * sizeof(const char *))))
    return false;
  cs->cons_cap = cap;
  return true;
}

bool cuzk_cs_reserve_aux(cuzk_cs *cs, size_t n) {
  if (n <= cs->aux_cap) return true;
  return n < MAX_VARS && grow_aux(cs, n);
}

bool cs_reserve_inputs(cuzk_cs *cs, size_t n) {
  if (n <= cs->input_cap) return true;
  return n < MAX_VARS && grow_inputs(cs, n);
}

/* ---- lifetime ------------------------------------------------------------------------------- */

static char *copy_string(const char *s) {
  size_t n = strlen(s) + 1;
  char *c = malloc(n);
  return c ? memcpy(c, s, n) : NULL;
}

cuzk_r1cs_err cuzk_cs_create(cuzk_cs **out, const cuzk_cs_opts *o) {
  *out = NULL;
  if (!o || o->lc_inline > CUZK_LC_INLINE_MAX || (unsigned)o->mode > CUZK_CS_SHAPE)
    return CUZK_R1CS_EINVAL;
  cuzk_cs *cs = calloc(1, sizeof *cs);
  if (!cs) return CUZK_R1CS_ENOMEM;
  cs->mode = o->mode;
  cs->head.lc_inline = (uint8_t)o->lc_inline;
  cs->head.has_values =
      o->mode == CUZK_CS_PROVE || o->mode == CUZK_CS_WITNESS || o->mode == CUZK_CS_CHECK;
  cs->count_nnz = o->mode == CUZK_CS_SHAPE && o->shape_nnz;
  cs->record = o->mode == CUZK_CS_RECORD || o->mode == CUZK_CS_CHECK;
  cs->compact = o->mode == CUZK_CS_RECORD && o->record_compact;
  cs->head.build_lcs = o->mode == CUZK_CS_PROVE || cs->record || cs->count_nnz;
  cs->head.keep_names = o->mode == CUZK_CS_CHECK;
  cs->track_density = o->mode == CUZK_CS_PROVE || cs->count_nnz;
  cs->keep_kind = o->mode == CUZK_CS_WITNESS;
  cs->cancel = o->cancel;
  cs->spill_bytes = o->spill_bytes ? o->spill_bytes : (size_t)256 << 20;
  bool ok = !(cs->record && o->spill_dir) || (cs->spill_dir = copy_string(o->spill_dir));
  ok = ok && grow_inputs(cs, 64) && grow_aux(cs, o->hint_aux > 1024 ? o->hint_aux : 1024) &&
       grow_cons(cs, o->hint_constraints > 1024 ? o->hint_constraints : 1024) &&
       (!cs->compact || coef_dict_init(&cs->dict));
  if (!ok) {
    cuzk_cs_destroy(cs);
    return CUZK_R1CS_ENOMEM;
  }
  cuzk_cs_reset(cs);
  *out = cs;
  return CUZK_R1CS_OK;
}

void cuzk_cs_reset(cuzk_cs *cs) {
  for (int k = 0; k < 3; k++) {
    if (cs->dens[k].p) {
      size_t bits = k == DENS_B_INPUT ? cs->n_inputs : cs->n_aux;
      memset(cs->dens[k].p, 0, (bits + 63) / 64 * 8);
    }
    cs->nnz[k] = 0;
  }
  cs->n_inputs = cs->n_aux = cs->n_cons = 0;
  cs->err = CUZK_R1CS_OK;
  cs->finished = false;
  csr_reset(cs);
  names_reset(cs);
  cs->n_marks = 0;
  cs->layout = NULL;
  cs->layout_n = cs->layout_at = 0;
  cs->layout_pool = NULL;
  cuzk_cs_alloc_input(cs, &cuzk_fr_one); /* ONE = Input(0) */
}

void cuzk_cs_destroy(cuzk_cs *cs) {
  if (!cs) return;
  if (!cs->borrowed) {
    cuzk_vec_free(&cs->inputs);
    cuzk_vec_free(&cs->aux);
    cuzk_vec_free(&cs->kind);
  }
  cuzk_vec_free(&cs->marks);
  free(cs->spill_dir);
  for (int k = 0; k < 3; k++) {
    cuzk_vec_free(&cs->abc[k]);
    cuzk_vec_free(&cs->dens[k]);
  }
  cuzk_vec_free(&cs->seen_aux);
  cuzk_vec_free(&cs->seen_in);
  cuzk_vec_free(&cs->sort_keys);
  cuzk_vec_free(&cs->sort_vars);
  cuzk_vec_free(&cs->sort_coeffs);
  cuzk_vec_free(&cs->merge_slots);
  csr_free(cs);
  coef_dict_free(&cs->dict);
  names_free(cs);
  for (cuzk_lc_block *b = cs->free_blocks, *next; b; b = next) {
    next = b->next;
    free(b->vars);
    free(b->coeffs);
    free(b);
  }
  free(cs);
}

/* ---- variables ------------------------------------------------------------------------------ */

static bool usable(cuzk_cs *cs) {
  if (cs->finished) {
    cs_fail(cs, CUZK_R1CS_EFINISHED);
    return false;
  }
  return true;
}

/* An aux variable; kind: the value's (CUZK_KIND_*), noted in WITNESS mode. */
static cuzk_var alloc_aux(cuzk_cs *cs, const cuzk_fr *value, unsigned kind) {
  size_t i = cs->n_aux;
  if (!usable(cs)) return CUZK_VAR_AUX;
  if (i >= MAX_VARS - 1) {
    cs_fail(cs, CUZK_R1CS_ETOOBIG);
    return CUZK_VAR_AUX;
  }
  if (i >= cs->aux_cap && !grow_aux(cs, i + 1)) {
    cs_fail_grow(cs);
    return CUZK_VAR_AUX;
  }
  if (cs->head.has_values) ((cuzk_fr *)cs->aux.p)[i] = *value;
  if (cs->keep_kind) ((uint8_t *)cs->kind.p)[i] = (uint8_t)kind;
  cs->n_aux = i + 1;
  return CUZK_VAR_AUX | (cuzk_var)i;
}

cuzk_var cuzk_cs_alloc(cuzk_cs *cs, const cuzk_fr *value) {
  if (!value) value = &cuzk_fr_zero;
  return alloc_aux(cs, value, cs->keep_kind ? fr_kind(value) : CUZK_VALUE_OTHER);
}

cuzk_var cuzk_cs_alloc_bit(cuzk_cs *cs, bool value) {
  return alloc_aux(cs, value ? &cuzk_fr_one : &cuzk_fr_zero, value);
}

cuzk_var cuzk_cs_alloc_input(cuzk_cs *cs, const cuzk_fr *value) {
  size_t i = cs->n_inputs;
  if (!usable(cs)) return CUZK_VAR_ONE;
  if (i >= MAX_VARS - 1) {
    cs_fail(cs, CUZK_R1CS_ETOOBIG);
    return CUZK_VAR_ONE;
  }
  if (i >= cs->input_cap && !grow_inputs(cs, i + 1)) {
    cs_fail_grow(cs);
    return CUZK_VAR_ONE;
  }
  if (cs->head.has_values) ((cuzk_fr *)cs->inputs.p)[i] = value ? *value : cuzk_fr_zero;
  cs->n_inputs = i + 1;
  return (cuzk_var)i;
}

/* ---- PROVE: evaluation with density tracking (bellperson eval_with_trackers) ----------------- */

static inline void fr_acc(cuzk_fr *acc, const cuzk_fr *x) {
  limbs_add_mod(acc->l, acc->l, x->l, CUZK_R, 4);
}

/* acc = sum of coeff * value over terms with a nonzero coefficient; the aux (and, for B, input)
 * variables among them get their density bit. A 0/1 value (every bit variable) costs an addition,
 * a unit coefficient too; only the rest multiplies. */
static void eval_row(cuzk_cs *cs, cuzk_lc *lc, cuzk_fr *out, int dens_aux, int dens_in) {
  cuzk_fr acc = cuzk_fr_zero;
  if (!lc || !lc->cs) {
    *out = acc;
    return;
  }
  if (lc->n > 2 && dens_aux >= 0 && lc_has_repeat(lc)) lc_merge(lc);
  if (lc->has_one && !fr_zero(&lc->one)) {
    acc = lc->one; /* ONE's value is 1 */
    if (dens_in >= 0) bitmap_set(cs->dens[dens_in].p, 0);
  }
  const uint32_t *vars = cuzk_lc_vars(lc);
  const cuzk_fr *coeffs = cuzk_lc_coeffs(lc);
  const cuzk_fr *aux = cs->aux.p, *inputs = cs->inputs.p;
  uint64_t *da = dens_aux >= 0 ? cs->dens[dens_aux].p : NULL;
  uint64_t *di = dens_in >= 0 ? cs->dens[dens_in].p : NULL;
  for (uint32_t t = 0; t < lc->n; t++) {
    const cuzk_fr *k = &coeffs[t];
    if (fr_zero(k)) continue;
    cuzk_var v = vars[t];
    uint32_t idx = cuzk_var_index(v);
    const cuzk_fr *x;
    if (cuzk_var_is_aux(v)) {
      x = &aux[idx];
      if (da) bitmap_set(da, idx);
    } else {
      x = &inputs[idx];
      if (di) bitmap_set(di, idx);
    }
    if (fr_zero(x)) continue;
    if (fr_one(x)) {
      fr_acc(&acc, k);
    } else if (fr_one(k)) {
      fr_acc(&acc, x);
    } else {
      cuzk_fr p;
      cuzk_mont.fr_mul(p.l, k->l, x->l);
      fr_acc(&acc, &p);
    }
  }
  *out = acc;
}

/* SHAPE with nnz: the same density marks, no values. */
static void mark_row(cuzk_cs *cs, cuzk_lc *lc, int dens_aux, int dens_in) {
  if (!lc || !lc->cs) return;
  if (lc->has_one && !fr_zero(&lc->one) && dens_in >= 0) bitmap_set(cs->dens[dens_in].p, 0);
  const uint32_t *vars = cuzk_lc_vars(lc);
  const cuzk_fr *coeffs = cuzk_lc_coeffs(lc);
  for (uint32_t t = 0; t < lc->n; t++) {
    if (fr_zero(&coeffs[t])) continue;
    cuzk_var v = vars[t];
    int d = cuzk_var_is_aux(v) ? dens_aux : dens_in;
    if (d >= 0) bitmap_set(cs->dens[d].p, cuzk_var_index(v));
  }
}

void cuzk_cs_enforce(cuzk_cs *cs, const char *name, cuzk_lc *a, cuzk_lc *b, cuzk_lc *c) {
  size_t row = cs->n_cons;
  if (!usable(cs)) goto out;
  if (row >= UINT32_MAX - 1) {
    cs_fail(cs, CUZK_R1CS_ETOOBIG);
    goto out;
  }
  if (row >= cs->cons_cap && !grow_cons(cs, row + 1)) {
    cs_fail_grow(cs);
    goto out;
  }
  if (cs->cancel && row % CUZK_CS_CANCEL_ROWS == 0 &&
      atomic_load_explicit(cs->cancel, memory_order_relaxed))
    cs_fail(cs, CUZK_R1CS_ECANCELLED);
  if (cs->err != CUZK_R1CS_OK) {
    cs->n_cons = row + 1; /* keep counting; store nothing */
    goto out;
  }
  switch (cs->mode) {
  case CUZK_CS_PROVE:
    eval_row(cs, a, &((cuzk_fr *)cs->abc[0].p)[row], DENS_A_AUX, -1);
    eval_row(cs, b, &((cuzk_fr *)cs->abc[1].p)[row], DENS_B_AUX, DENS_B_INPUT);
    eval_row(cs, c, &((cuzk_fr *)cs->abc[2].p)[row], -1, -1);
    break;
  case CUZK_CS_RECORD:
  case CUZK_CS_CHECK: {
    cuzk_lc *rows[3] = {a, b, c};
    csr_append_row(cs, rows);
    if (cs->head.keep_names) names_on_enforce(cs, name);
    break;
  }
  case CUZK_CS_SHAPE:
    if (cs->count_nnz) {
      cuzk_lc *rows[3] = {a, b, c};
      csr_count_row(cs, rows);
      mark_row(cs, a, DENS_A_AUX, -1);
      mark_row(cs, b, DENS_B_AUX, DENS_B_INPUT);
    }
    break;
  case CUZK_CS_WITNESS: break;
  }
  cs->n_cons = row + 1;
out:
  if (a) cuzk_lc_release(a);
  if (b) cuzk_lc_release(b);
  if (c) cuzk_lc_release(c);
}

void cuzk_cs_enforce_input_constraints(cuzk_cs *cs) {
  size_t n = cs->n_inputs;
  for (size_t i = 0; i < n; i++) {
    cuzk_lc a;
    cuzk_lc_init(&a, cs);
    cuzk_lc_add(&a, (cuzk_var)i, NULL);
    cuzk_cs_enforce(cs, "input constraint", &a, NULL, NULL);
  }
}

cuzk_r1cs_err cuzk_cs_finish(cuzk_cs *cs) {
  if (cs->finished) return cs->err;
  if (cs->record && cs->err == CUZK_R1CS_OK) csr_remap(cs);
  cs->finished = true;
  return cs->err;
}

void cuzk_cs_result_get(const cuzk_cs *cs, cuzk_cs_result *r) {
  memset(r, 0, sizeof *r);
  r->num_inputs = cs->n_inputs;
  r->num_aux = cs->n_aux;
  r->num_constraints = cs->n_cons;
  if (cs->head.has_values) {
    r->inputs = cs->inputs.p;
    r->aux = cs->aux.p;
  }
  if (cs->keep_kind) r->aux_kind = cs->kind.p;
  if (cs->mode == CUZK_CS_PROVE) {
    r->a = cs->abc[0].p;
    r->b = cs->abc[1].p;
    r->c = cs->abc[2].p;
  }
  if (cs->track_density) {
    cuzk_density *d[3] = {&r->a_aux, &r->b_input, &r->b_aux};
    for (int k = 0; k < 3; k++) {
      d[k]->bits = cs->dens[k].p;
      d[k]->len = k == DENS_B_INPUT ? cs->n_inputs : cs->n_aux;
      size_t words = (d[k]->len + 63) / 64, cnt = 0;
      for (size_t w = 0; w < words; w++)
        cnt += (size_t)__builtin_popcountll(d[k]->bits[w]);
      d[k]->count = cnt; /* counted here rather than per term: no branch in the hot loop */
    }
  }
  for (int k = 0; k < 3; k++)
    r->nnz[k] = cs->record ? cs->m[k].nnz : cs->nnz[k];
}

cuzk_fr *cuzk_cs_aux_mut(cuzk_cs *cs) { return cs->mode == CUZK_CS_CHECK ? cs->aux.p : NULL; }

const char *cuzk_r1cs_strerror(cuzk_r1cs_err e) {
  switch (e) {
  case CUZK_R1CS_OK: return "ok";
  case CUZK_R1CS_EINVAL: return "invalid argument";
  case CUZK_R1CS_ENOMEM: return "out of memory growing the constraint system";
  case CUZK_R1CS_ETOOBIG: return "circuit too large (2^31 variables or 2^32 nonzeros per matrix)";
  case CUZK_R1CS_EFINISHED: return "constraint system already finished";
  case CUZK_R1CS_EMODE: return "operation not available in this constraint-system mode";
  case CUZK_R1CS_EIO: return "writing the file failed";
  case CUZK_R1CS_ESHAPE:
    return "the synthesis does not match the recorded layout of its circuit (a segment did not "
           "end at its mark)";
  case CUZK_R1CS_ECANCELLED: return "cancelled";
  }
  return "unknown r1cs error";
}
