/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* CHECK mode: namespaces and constraint names, and is_satisfied. Other modes return at once
 * from push/pop, so gadgets can name everything at no cost outside CHECK. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "r1cs/cs_internal.h"

void cuzk_cs_push(cuzk_cs *cs, const char *fmt, ...) {
  if (!cs->head.keep_names) return;
  if (cs->depth >= sizeof cs->path_stack / sizeof cs->path_stack[0]) {
    cs->depth_over++;
    return;
  }
  cs->path_stack[cs->depth++] = cs->path_len;
  size_t room = sizeof cs->path - cs->path_len;
  if (room > 1) {
    int w = 0;
    if (cs->path_len) w = snprintf(cs->path + cs->path_len, room, "/");
    va_list ap;
    va_start(ap, fmt);
    if (w >= 0 && (size_t)w < room) w += vsnprintf(cs->path + cs->path_len + w, room - w, fmt, ap);
    va_end(ap);
    cs->path_len = w < 0               ? cs->path_len
                   : (size_t)w >= room ? sizeof cs->path - 1
                                       : cs->path_len + w;
  }
  cs->path_dirty = true;
}

void cuzk_cs_pop(cuzk_cs *cs) {
  if (!cs->head.keep_names) return;
  if (cs->depth_over) {
    cs->depth_over--;
    return;
  }
  if (!cs->depth) return;
  cs->path_len = cs->path_stack[--cs->depth];
  cs->path[cs->path_len] = 0;
  cs->path_dirty = true;
}

void names_on_enforce(cuzk_cs *cs, const char *leaf) {
  size_t row = cs->n_cons;
  if (cs->path_dirty || !cs->names_len) {
    if (!cuzk_vec_reserve(&cs->names, cs->names_len + cs->path_len + 1)) {
      cs_fail(cs, CUZK_R1CS_ENOMEM);
      return;
    }
    memcpy((char *)cs->names.p + cs->names_len, cs->path, cs->path_len);
    ((char *)cs->names.p)[cs->names_len + cs->path_len] = 0;
    cs->cur_path = cs->names_len;
    cs->names_len += cs->path_len + 1;
    cs->path_dirty = false;
  }
  ((uint64_t *)cs->name_path.p)[row] = cs->cur_path;
  ((const char **)cs->name_leaf.p)[row] = leaf;
}

void names_reset(cuzk_cs *cs) {
  cs->names_len = 0;
  cs->path_len = 0;
  cs->path[0] = 0;
  cs->depth = cs->depth_over = 0;
  cs->path_dirty = true;
}

void names_free(cuzk_cs *cs) {
  cuzk_vec_free(&cs->name_path);
  cuzk_vec_free(&cs->name_leaf);
  cuzk_vec_free(&cs->names);
}

void cuzk_cs_constraint_name(const cuzk_cs *cs, size_t i, char *buf, size_t len) {
  if (!len) return;
  buf[0] = 0;
  if (!cs->head.keep_names || i >= cs->n_cons || cs->err) return;
  const char *path = (const char *)cs->names.p + ((const uint64_t *)cs->name_path.p)[i];
  const char *leaf = ((const char *const *)cs->name_leaf.p)[i];
  snprintf(buf, len, "%s%s%s", path, *path ? "/" : "", leaf ? leaf : "?");
}

static void row_value(cuzk_fr *out, const cuzk_cs *cs, const csr_store *m, size_t r) {
  const uint32_t *rp = m->row_ptr.p, *cols = m->cols.p;
  const cuzk_fr *vals = m->vals.p, *in = cs->inputs.p, *aux = cs->aux.p;
  cuzk_fr acc = cuzk_fr_zero;
  for (uint32_t t = rp[r]; t < rp[r + 1]; t++) {
    uint32_t c = cols[t];
    const cuzk_fr *x = c < cs->n_inputs ? &in[c] : &aux[c - cs->n_inputs];
    cuzk_fr p;
    cuzk_fr_mul(&p, &vals[t], x);
    cuzk_fr_add(&acc, &acc, &p);
  }
  *out = acc;
}

cuzk_r1cs_err cuzk_cs_is_satisfied(cuzk_cs *cs, cuzk_cs_check *out) {
  memset(out, 0, sizeof *out);
  if (cs->mode != CUZK_CS_CHECK) return CUZK_R1CS_EMODE;
  cuzk_r1cs_err e = cuzk_cs_finish(cs);
  if (e) return e;
  out->satisfied = true;
  for (size_t r = 0; r < cs->n_cons; r++) {
    cuzk_fr a, b, c, ab;
    row_value(&a, cs, &cs->m[0], r);
    row_value(&b, cs, &cs->m[1], r);
    row_value(&c, cs, &cs->m[2], r);
    cuzk_fr_mul(&ab, &a, &b);
    if (!cuzk_fr_eq(&ab, &c)) {
      out->satisfied = false;
      out->first_failure = r;
      cuzk_cs_constraint_name(cs, r, out->name, sizeof out->name);
      break;
    }
  }
  return CUZK_R1CS_OK;
}
