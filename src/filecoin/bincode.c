/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Strict bincode reading and writing (docs/bincode.md) and the MerkleProof enum for any tree
 * shape, with the root a path hashes to. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cuzk/filecoin/bincode.h"
#include "cuzk/hashes/poseidon.h"

/* ---- reader -------------------------------------------------------------------------------- */
void cuzk_bc_init(cuzk_bc_reader *r, const uint8_t *buf, size_t len, char *msg, size_t msg_len) {
  memset(r, 0, sizeof *r);
  r->buf = buf;
  r->len = buf ? len : 0;
  r->msg = msg;
  r->msg_len = msg_len;
}

size_t cuzk_bc_push(cuzk_bc_reader *r, const char *fmt, ...) {
  size_t old = r->name_len;
  char part[96];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(part, sizeof part, fmt, ap);
  va_end(ap);
  int w =
      snprintf(r->name + old, sizeof r->name - old, "%s%s", old && part[0] != '[' ? "." : "", part);
  if (w > 0) r->name_len = old + (size_t)w < sizeof r->name ? old + (size_t)w : sizeof r->name - 1;
  return old;
}

void cuzk_bc_pop(cuzk_bc_reader *r, size_t len) {
  if (len < sizeof r->name) {
    r->name_len = len;
    r->name[len] = 0;
  }
}

bool cuzk_bc_fail(cuzk_bc_reader *r, const char *field, size_t at, const char *fmt, ...) {
  r->failed = true;
  if (!r->msg || !r->msg_len) return false;
  char what[192];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  const char *dot = r->name_len && field && field[0] != '[' ? "." : "";
  if (at == SIZE_MAX)
    snprintf(r->msg, r->msg_len, "%s%s%s: %s", r->name, dot, field ? field : "", what);
  else
    snprintf(r->msg, r->msg_len, "%s%s%s: %s (at byte %zu)", r->name, dot, field ? field : "", what,
             at);
  return false;
}

static const uint8_t *take(cuzk_bc_reader *r, size_t n, const char *field) {
  if (r->failed) return NULL;
  if (r->len - r->pos < n) {
    cuzk_bc_fail(r, field, SIZE_MAX, "truncated (at byte %zu, %zu bytes needed, %zu left)", r->pos,
                 n, r->len - r->pos);
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

bool cuzk_bc_u32(cuzk_bc_reader *r, uint32_t *v, const char *field) {
  const uint8_t *b = take(r, 4, field);
  if (b) *v = (uint32_t)le(b, 4);
  return b != NULL;
}

bool cuzk_bc_u64(cuzk_bc_reader *r, uint64_t *v, const char *field) {
  const uint8_t *b = take(r, 8, field);
  if (b) *v = le(b, 8);
  return b != NULL;
}

bool cuzk_bc_count(cuzk_bc_reader *r, uint64_t want, const char *field) {
  size_t at = r->pos;
  uint64_t v = 0;
  if (!cuzk_bc_u64(r, &v, field)) return false;
  if (v != want) return cuzk_bc_fail(r, field, at, "count %" PRIu64 ", expected %" PRIu64, v, want);
  return true;
}

bool cuzk_bc_fr(cuzk_bc_reader *r, uint8_t out[32], const char *field) {
  size_t at = r->pos;
  const uint8_t *b = take(r, 32, field);
  if (!b) return false;
  cuzk_fr x;
  if (!cuzk_fr_from_bytes(&x, b))
    return cuzk_bc_fail(r, field, at, "not a canonical field element");
  memcpy(out, b, 32);
  return true;
}

bool cuzk_bc_end(cuzk_bc_reader *r) {
  if (r->failed) return false;
  if (r->pos == r->len) return true;
  r->failed = true;
  if (r->msg && r->msg_len)
    snprintf(r->msg, r->msg_len, "trailing bytes: %zu after the proof (at byte %zu)",
             r->len - r->pos, r->pos);
  return false;
}

uint8_t *cuzk_bc_put_u32(uint8_t *o, uint32_t v) {
  for (unsigned i = 0; i < 4; i++)
    o[i] = (uint8_t)(v >> (8 * i));
  return o + 4;
}

uint8_t *cuzk_bc_put_u64(uint8_t *o, uint64_t v) {
  for (unsigned i = 0; i < 8; i++)
    o[i] = (uint8_t)(v >> (8 * i));
  return o + 8;
}

uint8_t *cuzk_bc_put32(uint8_t *o, const uint8_t v[32]) {
  memcpy(o, v, 32);
  return o + 32;
}

/* ---- shapes -------------------------------------------------------------------------------- */
void cuzk_merkle_shape_tree_r(cuzk_merkle_shape *s, const cuzk_sector_info *si) {
  memset(s, 0, sizeof *s);
  s->hash = CUZK_MERKLE_POSEIDON;
  s->tag = si->top_arity ? 2 : si->sub_arity ? 1 : 0;
  for (uint64_t n = si->leaves_per_base_tree; n > 1; n /= si->base_arity)
    s->arity[s->levels++] = (uint8_t)si->base_arity;
  if (si->sub_arity) s->arity[s->levels++] = (uint8_t)si->sub_arity;
  if (si->top_arity) s->arity[s->levels++] = (uint8_t)si->top_arity;
}

bool cuzk_merkle_shape_tree_d(cuzk_merkle_shape *s, unsigned levels) {
  memset(s, 0, sizeof *s);
  if (levels == 0 || levels > CUZK_MERKLE_MAX_LEVELS) return false;
  s->hash = CUZK_MERKLE_SHA256;
  s->levels = levels;
  memset(s->arity, 2, levels);
  return true;
}

unsigned cuzk_merkle_siblings(const cuzk_merkle_shape *s) {
  unsigned n = 0;
  for (unsigned l = 0; l < s->levels; l++)
    n += s->arity[l] - 1u;
  return n;
}

/* The InclusionPaths of a variant: Single one of every level; Sub and Top the base levels,
 * then one path of one level each (sub, top). */
typedef struct {
  unsigned n;
  const char *name[3];
  unsigned first[3], levels[3];
} paths;

static void paths_of(paths *p, const cuzk_merkle_shape *s) {
  static const char *const names[2][3] = {{"path", "", ""},
                                          {"base_proof", "sub_proof", "top_proof"}};
  p->n = s->tag + 1;
  p->first[0] = 0;
  p->levels[0] = s->levels - s->tag;
  for (unsigned i = 0; i < 3; i++)
    p->name[i] = names[s->tag != 0][i];
  for (unsigned i = 1; i < p->n; i++) {
    p->first[i] = p->levels[0] + i - 1;
    p->levels[i] = 1;
  }
}

size_t cuzk_merkle_size(const cuzk_merkle_shape *s) {
  size_t n = 4 + 32 + 32 + 8 * (size_t)(s->tag + 1); /* tag, root, leaf, each path's count */
  for (unsigned l = 0; l < s->levels; l++)
    n += 8 + 32 * (size_t)(s->arity[l] - 1) + 8; /* hashes count, hashes, index */
  return n;
}

/* ---- MerkleProof reader and writer -------------------------------------------------------- */
static const char *const tag_names[3] = {"Single", "Sub", "Top"};

static bool read_path(cuzk_bc_reader *r, const cuzk_merkle_shape *s, const cuzk_merkle_view *v,
                      const char *name, unsigned first, unsigned levels, unsigned *sib) {
  if (!cuzk_bc_count(r, levels, name)) return false;
  for (unsigned i = 0; i < levels; i++) {
    unsigned l = first + i, arity = s->arity[l];
    size_t mark = cuzk_bc_push(r, "%s[%u]", name, i);
    if (!cuzk_bc_count(r, arity - 1, "hashes")) return false;
    for (unsigned k = 0; k + 1 < arity; k++) {
      char f[24];
      snprintf(f, sizeof f, "hashes[%u]", k);
      if (!cuzk_bc_fr(r, v->sib[(*sib)++], f)) return false;
    }
    uint64_t index = 0;
    size_t at = r->pos;
    if (!cuzk_bc_u64(r, &index, "index")) return false;
    if (index >= arity)
      return cuzk_bc_fail(r, "index", at, "%" PRIu64 ", expected < %u", index, arity);
    v->index[l] = (uint8_t)index;
    cuzk_bc_pop(r, mark);
  }
  return true;
}

bool cuzk_merkle_read(cuzk_bc_reader *r, const cuzk_merkle_shape *s, const cuzk_merkle_view *v) {
  size_t at = r->pos;
  uint32_t tag = 0;
  if (!cuzk_bc_u32(r, &tag, "tag")) return false;
  if (tag != s->tag)
    return cuzk_bc_fail(r, "tag", at, "%" PRIu32 " (%s), expected %u (%s)", tag,
                        tag < 3 ? tag_names[tag] : "unknown", s->tag, tag_names[s->tag]);
  /* Single: root, leaf, path; Sub and Top: the paths, then root and leaf */
  if (s->tag == 0 && !(cuzk_bc_fr(r, v->root, "root") && cuzk_bc_fr(r, v->leaf, "leaf")))
    return false;
  paths p;
  paths_of(&p, s);
  unsigned sib = 0;
  for (unsigned i = 0; i < p.n; i++)
    if (!read_path(r, s, v, p.name[i], p.first[i], p.levels[i], &sib)) return false;
  if (s->tag != 0 && !(cuzk_bc_fr(r, v->root, "root") && cuzk_bc_fr(r, v->leaf, "leaf")))
    return false;
  return true;
}

uint8_t *cuzk_merkle_write(uint8_t *o, const cuzk_merkle_shape *s, const cuzk_merkle_view *v) {
  o = cuzk_bc_put_u32(o, s->tag);
  if (s->tag == 0) o = cuzk_bc_put32(cuzk_bc_put32(o, v->root), v->leaf);
  paths p;
  paths_of(&p, s);
  unsigned sib = 0;
  for (unsigned i = 0; i < p.n; i++) {
    o = cuzk_bc_put_u64(o, p.levels[i]);
    for (unsigned l = p.first[i]; l < p.first[i] + p.levels[i]; l++) {
      o = cuzk_bc_put_u64(o, s->arity[l] - 1u);
      for (unsigned k = 0; k + 1 < s->arity[l]; k++)
        o = cuzk_bc_put32(o, v->sib[sib++]);
      o = cuzk_bc_put_u64(o, v->index[l]);
    }
  }
  if (s->tag != 0) o = cuzk_bc_put32(cuzk_bc_put32(o, v->root), v->leaf);
  return o;
}

/* ---- the root of a path ------------------------------------------------------------------- */
bool cuzk_merkle_root(uint8_t root[32], uint64_t *leaf_index, const cuzk_merkle_shape *s,
                      const cuzk_merkle_view *v) {
  cuzk_fr node, in[CUZK_MERKLE_MAX_SIBLINGS + 1];
  uint8_t cur[32];
  if (!cuzk_fr_from_bytes(&node, v->leaf)) return false;
  memcpy(cur, v->leaf, 32);
  uint64_t index = 0, below = 1; /* below: leaves under one node of the current level */
  unsigned sib = 0;
  for (unsigned l = 0; l < s->levels; l++) {
    unsigned arity = s->arity[l], at = v->index[l];
    if (at >= arity) return false;
    if (s->hash == CUZK_MERKLE_SHA256) {
      if (arity != 2) return false;
      cuzk_fr x;
      if (!cuzk_fr_from_bytes(&x, v->sib[sib])) return false;
      if (at)
        cuzk_porep_tree_d_node(cur, v->sib[sib++], cur);
      else
        cuzk_porep_tree_d_node(cur, cur, v->sib[sib++]);
    } else {
      const cuzk_poseidon_params *pp;
      if (cuzk_poseidon_params_get(&pp, arity) != CUZK_HASH_OK) return false;
      /* the siblings in position order with the running node inserted at its index */
      for (unsigned k = 0; k < arity; k++)
        if (k == at)
          in[k] = node;
        else if (!cuzk_fr_from_bytes(&in[k], v->sib[sib++]))
          return false;
      cuzk_poseidon_hash_tagged(&node, pp, &pp->merkle_tag, in);
      cuzk_fr_to_bytes(cur, &node);
    }
    index += at * below;
    below *= arity;
  }
  memcpy(root, cur, 32);
  if (leaf_index) *leaf_index = index;
  return true;
}
