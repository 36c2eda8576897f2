/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The bincode of one sector's vanilla proof, FallbackPoStSectorProof (docs/post.md "Vanilla proof
 * bytes"): a strict reader that names the field and byte of every error, the writer, the size. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "post/post_internal.h"

/* ---- the MerkleProof variant of a tree shape (docs/post.md "Vanilla proof bytes") ---------- */
typedef struct {
  unsigned tag;                 /* 0 Single, 1 Sub, 2 Top */
  unsigned n_paths;             /* tag + 1 InclusionPaths */
  const char *path_name[3];     /* the Rust field names */
  unsigned first[3], levels[3]; /* each path's levels within cuzk_post_merkle_proof */
} proof_shape;

static const char *const tag_names[3] = {"Single", "Sub", "Top"};

static void shape_of(proof_shape *s, const cuzk_post_proof *p) {
  unsigned total = cuzk_post_path_levels(p);
  s->tag = p->sector->top_arity ? 2 : p->sector->sub_arity ? 1 : 0;
  s->n_paths = s->tag + 1;
  s->first[0] = 0;
  s->levels[0] = total - s->tag; /* the base levels; sub and top paths have one element each */
  s->path_name[0] = s->tag ? "base_proof" : "path";
  s->path_name[1] = "sub_proof";
  s->path_name[2] = "top_proof";
  for (unsigned i = 1; i < s->n_paths; i++) {
    s->first[i] = s->levels[0] + i - 1;
    s->levels[i] = 1;
  }
}

static size_t merkle_proof_size(const cuzk_post_proof *p) {
  size_t n = 4 + 32 + 32; /* tag, root, leaf */
  proof_shape s;
  shape_of(&s, p);
  n += 8 * s.n_paths; /* each InclusionPath's element count */
  for (unsigned l = 0; l < cuzk_post_path_levels(p); l++)
    n += 8 + 32 * (size_t)(cuzk_post_level_arity(p, l) - 1) + 8; /* hashes count, hashes, index */
  return n;
}

size_t cuzk_post_vanilla_size(const cuzk_post_proof *p) {
  if (!p || !p->sector) return 0;
  /* sector_id, comm_r, sectors count, inclusion_proofs count, the proofs, comm_c, comm_r_last */
  return 8 + 32 + 8 + 8 + p->vanilla_challenges * merkle_proof_size(p) + 32 + 32;
}

void cuzk_post_sector_proof_free(cuzk_post_sector_proof *sp) {
  if (!sp) return;
  free(sp->proofs);
  memset(sp, 0, sizeof *sp);
}

/* ---- reader -------------------------------------------------------------------------------- */
typedef struct {
  const uint8_t *buf;
  size_t len, pos;
  char *msg;
  size_t msg_len;
  const char *outer; /* "" at the top level, else "sectors[0]" */
  int proof;         /* the inclusion proof being read, -1 outside one */
} reader;

/* A field: [outer.][inclusion_proofs[proof].]path[elem].field[item], the parts that are set. */
typedef struct {
  const char *path;
  int elem;
  const char *field;
  int item;
} fname;

/* Appends to out[0..n) at *k; a name that does not fit is cut short. */
__attribute__((format(printf, 4, 5))) static void cat(char *out, size_t n, size_t *k,
                                                      const char *fmt, ...) {
  if (*k >= n) return;
  va_list ap;
  va_start(ap, fmt);
  int w = vsnprintf(out + *k, n - *k, fmt, ap);
  va_end(ap);
  if (w > 0) *k += (size_t)w;
}

static void name_of(char *out, size_t n, const reader *r, const fname *f) {
  size_t k = 0;
  out[0] = 0;
  if (*r->outer) cat(out, n, &k, "%s.", r->outer);
  if (r->proof >= 0) cat(out, n, &k, "inclusion_proofs[%d].", r->proof);
  if (f->path) cat(out, n, &k, "%s", f->path);
  if (f->elem >= 0) cat(out, n, &k, "[%d]", f->elem);
  if (f->path && f->field) cat(out, n, &k, ".");
  if (f->field) cat(out, n, &k, "%s", f->field);
  if (f->item >= 0) cat(out, n, &k, "[%d]", f->item);
}

/* EFORMAT: "<field>: <what> (at byte <at>)"; at SIZE_MAX: what says where itself. */
__attribute__((format(printf, 4, 5))) static cuzk_post_err bad(const reader *r, const fname *f,
                                                               size_t at, const char *fmt, ...) {
  if (!r->msg || !r->msg_len) return CUZK_POST_EFORMAT;
  char name[160], what[160];
  name_of(name, sizeof name, r, f);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  if (at == SIZE_MAX)
    return cuzk_post_fail(r->msg, r->msg_len, CUZK_POST_EFORMAT, "%s: %s", name, what);
  return cuzk_post_fail(r->msg, r->msg_len, CUZK_POST_EFORMAT, "%s: %s (at byte %zu)", name, what,
                        at);
}

static const uint8_t *take(reader *r, size_t n, const fname *f, cuzk_post_err *e) {
  if (r->len - r->pos < n) {
    *e = bad(r, f, SIZE_MAX, "truncated (at byte %zu, %zu bytes needed, %zu left)", r->pos, n,
             r->len - r->pos);
    return NULL;
  }
  const uint8_t *at = r->buf + r->pos;
  r->pos += n;
  return at;
}

static uint64_t le(const uint8_t *b, unsigned n) {
  uint64_t v = 0;
  for (unsigned i = n; i-- > 0;)
    v = v << 8 | b[i];
  return v;
}

static cuzk_post_err read_u64(reader *r, uint64_t *v, const fname *f) {
  cuzk_post_err e = CUZK_POST_OK;
  const uint8_t *b = take(r, 8, f, &e);
  if (b) *v = le(b, 8);
  return e;
}

/* A Vec length that must be exactly `want` (checked before anything is allocated for it). */
static cuzk_post_err read_count(reader *r, uint64_t want, const fname *f) {
  uint64_t v = 0;
  size_t at = r->pos;
  cuzk_post_err e = read_u64(r, &v, f);
  if (!e && v != want) e = bad(r, f, at, "count %" PRIu64 ", expected %" PRIu64, v, want);
  return e;
}

static cuzk_post_err read_fr(reader *r, uint8_t out[32], const fname *f) {
  cuzk_post_err e = CUZK_POST_OK;
  size_t at = r->pos;
  const uint8_t *b = take(r, 32, f, &e);
  if (!b) return e;
  cuzk_fr x;
  if (!cuzk_fr_from_bytes(&x, b)) return bad(r, f, at, "not a canonical field element");
  memcpy(out, b, 32);
  return CUZK_POST_OK;
}

/* One InclusionPath into mp's levels first .. first + levels - 1. */
static cuzk_post_err read_path(reader *r, cuzk_post_merkle_proof *mp, const cuzk_post_proof *p,
                               const char *path, unsigned first, unsigned levels) {
  cuzk_post_err e = read_count(r, levels, &(fname){path, -1, NULL, -1});
  for (unsigned i = 0; !e && i < levels; i++) {
    unsigned l = first + i, arity = cuzk_post_level_arity(p, l);
    e = read_count(r, arity - 1, &(fname){path, (int)i, "hashes", -1});
    for (unsigned k = 0; !e && k < arity - 1; k++)
      e = read_fr(r, mp->hashes[l][k], &(fname){path, (int)i, "hashes", (int)k});
    uint64_t index = 0;
    size_t at = r->pos;
    const fname fi = {path, (int)i, "index", -1};
    if (!e && !(e = read_u64(r, &index, &fi)) && index >= arity)
      e = bad(r, &fi, at, "%" PRIu64 ", expected < %u", index, arity);
    if (!e) mp->index[l] = (uint8_t)index;
  }
  return e;
}

static cuzk_post_err read_merkle_proof(reader *r, cuzk_post_merkle_proof *mp,
                                       const cuzk_post_proof *p, const proof_shape *s) {
  memset(mp, 0, sizeof *mp);
  size_t at = r->pos;
  const fname ft = {NULL, -1, "tag", -1};
  cuzk_post_err e = CUZK_POST_OK;
  const uint8_t *b = take(r, 4, &ft, &e);
  if (!b) return e;
  uint64_t tag = le(b, 4);
  if (tag != s->tag)
    return bad(r, &ft, at, "%" PRIu64 " (%s), expected %u (%s)", tag,
               tag < 3 ? tag_names[tag] : "unknown", s->tag, tag_names[s->tag]);
  /* Single: root, leaf, path; Sub and Top: the paths, then root and leaf */
  if (s->tag == 0 && ((e = read_fr(r, mp->root, &(fname){NULL, -1, "root", -1})) ||
                      (e = read_fr(r, mp->leaf, &(fname){NULL, -1, "leaf", -1}))))
    return e;
  for (unsigned i = 0; i < s->n_paths; i++)
    if ((e = read_path(r, mp, p, s->path_name[i], s->first[i], s->levels[i]))) return e;
  if (s->tag != 0 && ((e = read_fr(r, mp->root, &(fname){NULL, -1, "root", -1})) ||
                      (e = read_fr(r, mp->leaf, &(fname){NULL, -1, "leaf", -1}))))
    return e;
  return CUZK_POST_OK;
}

/* The one SectorProof: inclusion_proofs, comm_c, comm_r_last. */
static cuzk_post_err read_sector_proof(reader *r, cuzk_post_sector_proof *out,
                                       const cuzk_post_proof *p) {
  r->outer = "sectors[0]";
  cuzk_post_err e =
      read_count(r, p->vanilla_challenges, &(fname){"inclusion_proofs", -1, NULL, -1});
  if (e) return e;
  out->proofs = malloc(p->vanilla_challenges * sizeof *out->proofs);
  if (!out->proofs) return CUZK_POST_ENOMEM;
  out->n_proofs = p->vanilla_challenges;
  proof_shape s;
  shape_of(&s, p);
  for (unsigned n = 0; n < p->vanilla_challenges; n++) {
    r->proof = (int)n;
    if ((e = read_merkle_proof(r, &out->proofs[n], p, &s))) return e;
  }
  r->proof = -1;
  if ((e = read_fr(r, out->comm_c, &(fname){NULL, -1, "comm_c", -1})) ||
      (e = read_fr(r, out->comm_r_last, &(fname){NULL, -1, "comm_r_last", -1})))
    return e;
  return CUZK_POST_OK;
}

cuzk_post_err cuzk_post_vanilla_read(cuzk_post_sector_proof *out, const cuzk_post_proof *p,
                                     const uint8_t *buf, size_t len, char *msg, size_t msg_len) {
  if (!out) return cuzk_post_fail(msg, msg_len, CUZK_POST_EINVAL, "no output");
  memset(out, 0, sizeof *out);
  if (!p || !p->sector || (!buf && len))
    return cuzk_post_fail(msg, msg_len, CUZK_POST_EINVAL, "no proof type or no bytes");
  reader r = {buf, len, 0, msg, msg_len, "", -1};
  cuzk_post_err e;
  if ((e = read_u64(&r, &out->sector_id, &(fname){NULL, -1, "sector_id", -1})) ||
      (e = read_fr(&r, out->comm_r, &(fname){NULL, -1, "comm_r", -1})) ||
      (e = read_count(&r, 1, &(fname){NULL, -1, "sectors", -1})) ||
      (e = read_sector_proof(&r, out, p)))
    goto fail;
  if (r.pos != len) {
    e = cuzk_post_fail(msg, msg_len, CUZK_POST_EFORMAT,
                       "trailing bytes: %zu after the proof (at byte %zu)", len - r.pos, r.pos);
    goto fail;
  }
  return CUZK_POST_OK;
fail:
  if (e == CUZK_POST_ENOMEM) e = cuzk_post_fail(msg, msg_len, e, "inclusion_proofs: out of memory");
  cuzk_post_sector_proof_free(out);
  return e;
}

/* ---- writer -------------------------------------------------------------------------------- */
static uint8_t *put_le(uint8_t *o, uint64_t v, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    o[i] = (uint8_t)(v >> (8 * i));
  return o + n;
}

static uint8_t *put32(uint8_t *o, const uint8_t v[32]) {
  memcpy(o, v, 32);
  return o + 32;
}

static uint8_t *write_path(uint8_t *o, const cuzk_post_merkle_proof *mp, const cuzk_post_proof *p,
                           unsigned first, unsigned levels) {
  o = put_le(o, levels, 8);
  for (unsigned l = first; l < first + levels; l++) {
    unsigned arity = cuzk_post_level_arity(p, l);
    o = put_le(o, arity - 1, 8);
    for (unsigned k = 0; k < arity - 1; k++)
      o = put32(o, mp->hashes[l][k]);
    o = put_le(o, mp->index[l], 8);
  }
  return o;
}

static uint8_t *write_merkle_proof(uint8_t *o, const cuzk_post_merkle_proof *mp,
                                   const cuzk_post_proof *p, const proof_shape *s) {
  o = put_le(o, s->tag, 4);
  if (s->tag == 0) o = put32(put32(o, mp->root), mp->leaf);
  for (unsigned i = 0; i < s->n_paths; i++)
    o = write_path(o, mp, p, s->first[i], s->levels[i]);
  if (s->tag != 0) o = put32(put32(o, mp->root), mp->leaf);
  return o;
}

cuzk_post_err cuzk_post_vanilla_write(uint8_t *out, const cuzk_post_proof *p,
                                      const cuzk_post_sector_proof *sp) {
  if (!out || !p || !p->sector || !sp || !sp->proofs || sp->n_proofs != p->vanilla_challenges)
    return CUZK_POST_EINVAL;
  /* every index within its level's arity, and 0 beyond p's levels (as the reader leaves them):
   * a proof of a deeper tree is refused instead of being cut short */
  unsigned levels = cuzk_post_path_levels(p);
  for (size_t n = 0; n < sp->n_proofs; n++)
    for (unsigned l = 0; l < CUZK_POST_MAX_LEVELS; l++)
      if (sp->proofs[n].index[l] >= (l < levels ? cuzk_post_level_arity(p, l) : 1))
        return CUZK_POST_EINVAL;
  proof_shape s;
  shape_of(&s, p);
  uint8_t *o = put32(put_le(out, sp->sector_id, 8), sp->comm_r);
  o = put_le(put_le(o, 1, 8), sp->n_proofs, 8); /* one SectorProof */
  for (size_t n = 0; n < sp->n_proofs; n++)
    o = write_merkle_proof(o, &sp->proofs[n], p, &s);
  put32(put32(o, sp->comm_c), sp->comm_r_last);
  return CUZK_POST_OK;
}
