/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* C1 output (SealCommitPhase1Output): JSON write -> read -> write byte identity on a synthetic,
 * structurally complete 2KiB C1; the writer's shape against the docs/spec/sdr-vanilla.md §9.5
 * skeleton; the Curio envelope; a corpus of malformed inputs with their error paths; a
 * random-mutation loop.
 * Extra modes (not run by ctest):
 *   test_porep_c1 --bench-gen FILE [ID]   write a random C1 of registered proof ID (default 8,
 *                                         StackedDrg32GiBV1_1) to FILE, with timings
 *   test_porep_c1 --bench-read FILE       parse FILE, report time and peak RSS */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "check.h"
#include "cuzk/porep/c2.h"
#include "cuzk/porep/porep.h"
#include "cuzk/porep/stacked_circuit.h"
#include "porep/c1.h"
#include "rng.h"

static uint64_t g_rng = 0x5eed0c1ULL;

static void fill_b32(cuzk_c1_b32 b) {
  for (int i = 0; i < 32; i += 8) {
    uint64_t x = rng_next(&g_rng);
    memcpy(b + i, &x, 8);
  }
}

static void fill_vec(cuzk_c1_b32_vec *v) {
  for (size_t i = 0; i < v->n; i++)
    fill_b32(v->v[i]);
}

static void fill_path(cuzk_c1_path *p) {
  for (size_t i = 0; i < p->n; i++) {
    fill_vec(&p->v[i].hashes);
    p->v[i].index = rng_next(&g_rng) % (p->v[i].hashes.n + 1);
  }
}

static void fill_mp(cuzk_c1_merkle_proof *m) {
  fill_b32(m->root);
  fill_b32(m->leaf);
  fill_path(&m->base);
  fill_path(&m->sub);
  fill_path(&m->top);
}

static void fill_column(cuzk_c1_column_proof *c, uint64_t nodes) {
  c->index = (uint32_t)(rng_next(&g_rng) % nodes);
  fill_vec(&c->rows);
  fill_mp(&c->inclusion_proof);
}

/* Random values everywhere in a shaped C1 (counts and layer indices kept). */
static void fill_c1(cuzk_c1 *c1) {
  const cuzk_c1_proof_info *pi = cuzk_c1_proof_info_get(c1->registered_proof);
  uint64_t nodes = pi->sector_size / 32;
  for (size_t k = 0; k < c1->vanilla_proofs.n; k++)
    for (size_t i = 0; i < c1->vanilla_proofs.v[k].n; i++) {
      cuzk_c1_challenge_proof *p = &c1->vanilla_proofs.v[k].v[i];
      uint64_t x = 1 + rng_next(&g_rng) % (nodes - 1);
      fill_mp(&p->comm_d_proofs);
      fill_mp(&p->comm_r_last_proof);
      fill_column(&p->replica_column_proofs.c_x, nodes);
      p->replica_column_proofs.c_x.index = (uint32_t)x;
      for (size_t j = 0; j < p->replica_column_proofs.drg_parents.n; j++)
        fill_column(&p->replica_column_proofs.drg_parents.v[j], nodes);
      for (size_t j = 0; j < p->replica_column_proofs.exp_parents.n; j++)
        fill_column(&p->replica_column_proofs.exp_parents.v[j], nodes);
      for (size_t l = 0; l < p->labeling_proofs.n; l++) {
        fill_vec(&p->labeling_proofs.v[l].parents);
        p->labeling_proofs.v[l].node = x;
      }
      fill_vec(&p->encoding_proof.parents);
      p->encoding_proof.node = x;
    }
  fill_b32(c1->comm_r);
  fill_b32(c1->comm_d);
  fill_b32(c1->replica_id);
  fill_b32(c1->seed);
  fill_b32(c1->ticket);
}

typedef struct {
  uint8_t *p;
  size_t n;
} doc;

static doc write_doc(const cuzk_c1 *c1) {
  doc d = {0};
  char e[512];
  cuzk_porep_err r = cuzk_c1_write_json(c1, &d.p, &d.n, e, sizeof e);
  CHECK_MSG(r == CUZK_POREP_OK, "write: %s", e);
  return d;
}

/* A C1 with every kind of value but tiny vectors (for the mutation loop; shape check off). */
static cuzk_c1 *mini_c1(void) {
  cuzk_c1 *c1 = cuzk_c1_new();
  c1->registered_proof = 14; /* 64GiB synthetic: its Merkle proofs are Top */
  c1->vanilla_variant = 4;
  c1->vanilla_proofs.n = 1;
  c1->vanilla_proofs.v = cuzk_c1_alloc(c1, sizeof(cuzk_c1_partition));
  cuzk_c1_partition *part = &c1->vanilla_proofs.v[0];
  part->n = 1;
  part->v = cuzk_c1_alloc(c1, sizeof(cuzk_c1_challenge_proof));
  cuzk_c1_challenge_proof *p = part->v;
#define VEC(vec, count)                                                         \
  do {                                                                          \
    (vec).n = (count);                                                          \
    (vec).v = (count) ? cuzk_c1_alloc(c1, (count) * sizeof((vec).v[0])) : NULL; \
  } while (0)
  VEC(p->comm_d_proofs.base, 2);
  for (int i = 0; i < 2; i++)
    VEC(p->comm_d_proofs.base.v[i].hashes, 1);
  cuzk_c1_merkle_proof *m = &p->comm_r_last_proof;
  m->kind = CUZK_C1_MP_TOP;
  VEC(m->base, 1);
  VEC(m->base.v[0].hashes, 2);
  VEC(m->sub, 1);
  VEC(m->sub.v[0].hashes, 1);
  VEC(m->top, 1);
  VEC(m->top.v[0].hashes, 1);
  cuzk_c1_replica_column_proof *r = &p->replica_column_proofs;
  VEC(r->c_x.rows, 1);
  r->c_x.inclusion_proof.kind = CUZK_C1_MP_SUB;
  VEC(r->c_x.inclusion_proof.base, 1);
  VEC(r->c_x.inclusion_proof.base.v[0].hashes, 1);
  VEC(r->c_x.inclusion_proof.sub, 1);
  VEC(r->drg_parents, 1);
  VEC(r->drg_parents.v[0].rows, 2);
  VEC(r->exp_parents, 0);
  VEC(p->labeling_proofs, 1);
  VEC(p->labeling_proofs.v[0].parents, 2);
  p->labeling_proofs.v[0].layer_index = 1;
  VEC(p->encoding_proof.parents, 1);
  p->encoding_proof.layer_index = 1;
  p->encoding_proof.node = 18446744073709551615ull;
#undef VEC
  fill_b32(c1->comm_r);
  fill_b32(m->root);
  fill_b32(r->drg_parents.v[0].rows.v[1]);
  return c1;
}

/* ---- skeleton: every [32 numbers] -> '#', every number after "index": / "node": -> 'N' ---- */

static char *skeleton(const doc *d) {
  char *s = malloc(d->n + 1);
  size_t j = 0;
  for (size_t i = 0; i < d->n;) {
    if (d->p[i] == '[' && i + 1 < d->n && d->p[i + 1] >= '0' && d->p[i + 1] <= '9') {
      size_t k = i + 1, commas = 0;
      while (k < d->n && d->p[k] != ']') {
        if (d->p[k] == ',') commas++;
        k++;
      }
      if (commas == 31) {
        s[j++] = '#';
        i = k + 1;
        continue;
      }
    }
    if (d->p[i] >= '0' && d->p[i] <= '9' && i > 0 && d->p[i - 1] == ':') {
      s[j++] = 'N';
      while (i < d->n && d->p[i] >= '0' && d->p[i] <= '9')
        i++;
      continue;
    }
    s[j++] = (char)d->p[i++];
  }
  s[j] = 0;
  return s;
}

typedef struct {
  char *s;
  size_t n, cap;
} sbuf;

static void sb_add(sbuf *b, const char *t) {
  size_t n = strlen(t);
  if (b->n + n + 1 > b->cap) {
    b->cap = (b->n + n + 1) * 2;
    b->s = realloc(b->s, b->cap);
  }
  memcpy(b->s + b->n, t, n + 1);
  b->n += n;
}

static void sb_rep(sbuf *b, const char *t, int count, const char *sep) {
  for (int i = 0; i < count; i++) {
    if (i) sb_add(b, sep);
    sb_add(b, t);
  }
}

/* Single{root,leaf,path} with `levels` elements of `hashes` siblings. */
static void sb_single(sbuf *b, int levels, int hashes) {
  sb_add(b, "{\"data\":{\"Single\":{\"root\":#,\"leaf\":#,\"path\":{\"path\":[");
  for (int l = 0; l < levels; l++) {
    if (l) sb_add(b, ",");
    sb_add(b, "{\"hashes\":[");
    sb_rep(b, "#", hashes, ",");
    sb_add(b, "],\"index\":N}");
  }
  sb_add(b, "]}}}}");
}

static void sb_column(sbuf *b) {
  sb_add(b, "{\"column\":{\"index\":N,\"rows\":[#,#],\"_h\":null},\"inclusion_proof\":");
  sb_single(b, 2, 7);
  sb_add(b, "}");
}

/* The docs/spec/sdr-vanilla.md §9.5 skeleton, key names and orders literally, for 2KiB (2
 * challenges, 2 layers). */
static char *expected_2kib_skeleton(void) {
  sbuf b = {0};
  sb_add(
      &b,
      "{\"registered_proof\":\"StackedDrg2KiBV1_1\",\"vanilla_proofs\":{\"StackedDrg2KiBV1\":[[");
  for (int c = 0; c < 2; c++) {
    if (c) sb_add(&b, ",");
    sb_add(&b, "{\"comm_d_proofs\":");
    sb_single(&b, 6, 1);
    sb_add(&b, ",\"comm_r_last_proof\":");
    sb_single(&b, 2, 7);
    sb_add(&b, ",\"replica_column_proofs\":{\"c_x\":");
    sb_column(&b);
    sb_add(&b, ",\"drg_parents\":[");
    for (int i = 0; i < 6; i++) {
      if (i) sb_add(&b, ",");
      sb_column(&b);
    }
    sb_add(&b, "],\"exp_parents\":[");
    for (int i = 0; i < 8; i++) {
      if (i) sb_add(&b, ",");
      sb_column(&b);
    }
    sb_add(&b, "]},\"labeling_proofs\":[");
    for (int l = 0; l < 2; l++) {
      if (l) sb_add(&b, ",");
      sb_add(&b, "{\"parents\":[");
      sb_rep(&b, "#", 37, ",");
      sb_add(&b, "],\"layer_index\":N,\"node\":N}");
    }
    sb_add(&b, "],\"encoding_proof\":{\"parents\":[");
    sb_rep(&b, "#", 37, ",");
    sb_add(&b, "],\"layer_index\":N,\"node\":N}}");
  }
  sb_add(&b, "]]},\"comm_r\":#,\"comm_d\":#,\"replica_id\":#,\"seed\":#,\"ticket\":#}");
  return b.s;
}

/* ---- text surgery for the malformed corpus ---- */

static char *dup_doc(const doc *d) {
  char *s = malloc(d->n + 1);
  memcpy(s, d->p, d->n);
  s[d->n] = 0;
  return s;
}

/* Position of the nth (0-based) occurrence of needle at or after from. */
static size_t find(const char *s, size_t from, const char *needle, int nth) {
  const char *p = s + from;
  for (;;) {
    p = strstr(p, needle);
    if (!p) {
      fprintf(stderr, "find: '%s' not found\n", needle);
      abort();
    }
    if (nth-- == 0) return (size_t)(p - s);
    p++;
  }
}

/* s with [a, b) replaced by rep (frees s). */
static char *splice(char *s, size_t a, size_t b, const char *rep) {
  size_t n = strlen(s), r = strlen(rep);
  char *o = malloc(n - (b - a) + r + 1);
  memcpy(o, s, a);
  memcpy(o + a, rep, r);
  memcpy(o + a + r, s + b, n - b + 1);
  free(s);
  return o;
}

/* End (one past ']') of the array or value starting at i: brackets balanced. */
static size_t value_end(const char *s, size_t i) {
  int depth = 0;
  for (;; i++) {
    if (s[i] == '[' || s[i] == '{') depth++;
    if (s[i] == ']' || s[i] == '}') depth--;
    if (depth == 0 && (s[i] == ']' || s[i] == '}')) return i + 1;
    if (depth == 0 && (s[i] == ',')) return i;
  }
}

typedef struct {
  const char *name;
  char *text;
  cuzk_porep_err code;
  const char *msg; /* expected message up to " (at byte" (or a substring when prefixed '~') */
  unsigned flags;
} bad_case;

static void run_bad(const bad_case *c) {
  cuzk_c1 *c1 = NULL;
  char e[512] = "";
  cuzk_porep_err r =
      cuzk_c1_read(&c1, (const uint8_t *)c->text, strlen(c->text), c->flags, NULL, e, sizeof e);
  if (getenv("C1_VERBOSE")) printf("%-34s %s\n", c->name, r ? e : "ok");
  CHECK_MSG(r == c->code, "%s: code %d, want %d (%s)", c->name, r, c->code, e);
  CHECK_MSG(c1 == NULL || r == CUZK_POREP_OK, "%s: output on error", c->name);
  if (c->msg && c->msg[0] == '~') {
    CHECK_MSG(strstr(e, c->msg + 1) != NULL, "%s: message '%s' lacks '%s'", c->name, e, c->msg + 1);
  } else if (c->msg) {
    size_t n = strlen(c->msg);
    int ok = strncmp(e, c->msg, n) == 0 && (e[n] == 0 || strncmp(e + n, " (at byte", 9) == 0);
    CHECK_MSG(ok, "%s:\n   got '%s'\n  want '%s'", c->name, e, c->msg);
  }
  cuzk_c1_free(c1);
}

#define P0 "vanilla_proofs.StackedDrg2KiBV1[0][0]."
#define P1 "vanilla_proofs.StackedDrg2KiBV1[0][1]."

static void test_malformed(const doc *d) {
  bad_case cases[64];
  int n = 0;
  char *s;
  size_t a, b;
#define ADD(nm, txt, cd, m) cases[n++] = (bad_case){nm, txt, cd, m, 0}

  /* syntax */
  s = dup_doc(d);
  s[d->n / 2] = 0;
  ADD("truncated", s, CUZK_POREP_EFORMAT, "~premature EOF");
  s = dup_doc(d);
  s[d->n - 1] = 0;
  ADD("truncated last brace", s, CUZK_POREP_EFORMAT, "~premature EOF");
  s = dup_doc(d);
  s = splice(s, d->n, d->n, " x");
  ADD("trailing garbage", s, CUZK_POREP_EFORMAT, "~trailing garbage");
  s = dup_doc(d);
  s = splice(s, d->n, d->n, "{}");
  ADD("second value", s, CUZK_POREP_EFORMAT, "~trailing garbage");
  ADD("empty", strdup(""), CUZK_POREP_EFORMAT, "~premature EOF");
  ADD("root array", strdup("[1,2]"), CUZK_POREP_EFORMAT,
      "(root): expected an object, got an array");
  ADD("root null", strdup(" null "), CUZK_POREP_EFORMAT, "(root): expected an object, got null");
  s = dup_doc(d);
  a = find(s, 0, "\"comm_r\":[", 0) + 10;
  s = splice(s, a, a + 1, "\xff");
  ADD("bad token", s, CUZK_POREP_EFORMAT, "~comm_r: JSON");

  /* wrong lengths and ranges in 32-byte values */
  s = dup_doc(d);
  a = find(s, 0, "\"comm_r\":[", 0) + 10;
  b = find(s, a, ",", 0);
  s = splice(s, a, b + 1, "");
  ADD("comm_r 31 numbers", s, CUZK_POREP_EFORMAT,
      "comm_r: expected an array of 32 numbers, got 31");
  s = dup_doc(d);
  a = find(s, 0, "\"comm_r\":[", 0) + 10;
  s = splice(s, a, a, "7,");
  ADD("comm_r 33 numbers", s, CUZK_POREP_EFORMAT,
      "comm_r: expected an array of 32 numbers, got more");
  s = dup_doc(d);
  a = find(s, 0, "\"comm_d\":[", 0) + 10;
  b = find(s, a, ",", 0);
  s = splice(s, a, b, "256");
  ADD("comm_d[0] = 256", s, CUZK_POREP_EFORMAT, "comm_d[0]: expected a number 0..255, got 256");
  s = dup_doc(d);
  a = find(s, 0, "\"seed\":[", 0) + 8;
  a = find(s, a, ",", 4) + 1;
  b = find(s, a, ",", 0);
  s = splice(s, a, b, "-1");
  ADD("seed[5] = -1", s, CUZK_POREP_EFORMAT, "seed[5]: expected a number 0..255, got -1");
  s = dup_doc(d);
  a = find(s, 0, "\"ticket\":[", 0) + 10;
  b = find(s, a, ",", 0);
  s = splice(s, a, b, "1.5");
  ADD("ticket[0] = 1.5", s, CUZK_POREP_EFORMAT, "ticket[0]: expected a number 0..255, got 1.5");
  s = dup_doc(d);
  a = find(s, 0, "\"ticket\":[", 0) + 10;
  b = find(s, a, ",", 0);
  s = splice(s, a, b, "[1]");
  ADD("ticket[0] = [1]", s, CUZK_POREP_EFORMAT,
      "ticket[0]: expected a number 0..255, got an array");
  s = dup_doc(d);
  a = find(s, 0, "\"replica_id\":", 0) + 13;
  b = value_end(s, a);
  s = splice(s, a, b, "\"AAAA\"");
  ADD("replica_id string", s, CUZK_POREP_EFORMAT,
      "replica_id: expected an array of 32 numbers, got a string");

  /* deep paths (second challenge) */
  s = dup_doc(d);
  a = find(s, 0, "\"c_x\":", 1);
  a = find(s, a, "\"path\":[", 0);
  a = find(s, a, "\"hashes\":[", 1) + 10;
  b = value_end(s, a);
  s = splice(s, a, b, "\"x\"");
  ADD("c_x path hash string", s, CUZK_POREP_EFORMAT,
      P1 "replica_column_proofs.c_x.inclusion_proof.data.Single.path.path[1].hashes[0]: "
         "expected an array of 32 numbers, got a string");
  s = dup_doc(d);
  a = find(s, 0, "\"c_x\":", 1);
  a = find(s, a, "\"path\":[", 0);
  a = find(s, a, "\"hashes\":[", 0) + 10;
  a = find(s, a, "[", 2) + 1;
  b = find(s, a, ",", 0);
  s = splice(s, a, b, "1000");
  ADD("c_x path hash byte 1000", s, CUZK_POREP_EFORMAT,
      P1 "replica_column_proofs.c_x.inclusion_proof.data.Single.path.path[0].hashes[2][0]: "
         "expected a number 0..255, got 1000");
  s = dup_doc(d);
  a = find(s, 0, "\"exp_parents\":", 0);
  a = find(s, a, "\"rows\":[", 3) + 8;
  a = find(s, a, "],[", 0) + 3;
  a = find(s, a, ",", 4) + 1;
  b = find(s, a, ",", 0);
  s = splice(s, a, b, "300");
  ADD("exp_parents rows byte", s, CUZK_POREP_EFORMAT,
      P0 "replica_column_proofs.exp_parents[3].column.rows[1][5]: expected a number 0..255, got "
         "300");
  s = dup_doc(d);
  a = find(s, 0, "\"column\":{\"index\":", 0) + 18;
  b = find(s, a, ",", 0);
  s = splice(s, a, b, "4294967296");
  ADD("column index > u32", s, CUZK_POREP_EFORMAT,
      P0 "replica_column_proofs.c_x.column.index: expected an integer 0..4294967295, got "
         "4294967296");
  s = dup_doc(d);
  a = find(s, 0, "\"node\":", 0) + 7;
  b = find(s, a, "}", 0);
  s = splice(s, a, b, "18446744073709551616");
  ADD("node > u64", s, CUZK_POREP_EFORMAT,
      P0 "labeling_proofs[0].node: expected an integer 0..18446744073709551615, got "
         "18446744073709551616");
  s = dup_doc(d);
  a = find(s, 0, "\"node\":", 0) + 7;
  b = find(s, a, "}", 0);
  s = splice(s, a, b, "true");
  ADD("node bool", s, CUZK_POREP_EFORMAT,
      P0 "labeling_proofs[0].node: expected an integer 0..18446744073709551615, got a boolean");
  s = dup_doc(d);
  a = find(s, 0, "\"_h\":null", 2) + 5;
  s = splice(s, a, a + 4, "0");
  ADD("_h not null", s, CUZK_POREP_EFORMAT,
      P0 "replica_column_proofs.drg_parents[1].column._h: expected null, got a number");
  s = dup_doc(d);
  a = find(s, 0, "\"labeling_proofs\":", 1) + 18;
  b = value_end(s, a);
  s = splice(s, a, b, "{\"a\":1}");
  ADD("labeling_proofs object", s, CUZK_POREP_EFORMAT,
      P1 "labeling_proofs: expected an array of labeling proofs, got an object");

  /* fields */
  s = dup_doc(d);
  a = find(s, 0, ",\"seed\":", 0);
  b = value_end(s, a + 8);
  s = splice(s, a, b, "");
  ADD("missing seed", s, CUZK_POREP_EFORMAT, "(root): missing field `seed`");
  s = dup_doc(d);
  a = find(s, 0, "\"layer_index\":", 0);
  b = value_end(s, a + 14);
  s = splice(s, a, b + 1, "");
  ADD("missing layer_index", s, CUZK_POREP_EFORMAT,
      P0 "labeling_proofs[0]: missing field `layer_index`");
  s = dup_doc(d);
  a = find(s, 0, "\"leaf\":", 2);
  b = value_end(s, a + 7);
  s = splice(s, a, b + 1, "");
  ADD("missing leaf", s, CUZK_POREP_EFORMAT,
      P0 "replica_column_proofs.c_x.inclusion_proof.data.Single: missing field `leaf`");
  s = dup_doc(d);
  a = find(s, 0, "\"comm_d\":", 0);
  s = splice(s, a, a, "\"comm_r\":[1],");
  ADD("duplicate comm_r", s, CUZK_POREP_EFORMAT, "comm_r: duplicate field `comm_r`");
  s = dup_doc(d);
  a = find(s, 0, "\"registered_proof\":", 0) + 19;
  b = value_end(s, a);
  s = splice(s, a, b, "5");
  ADD("registered_proof number", s, CUZK_POREP_EFORMAT,
      "registered_proof: expected a registered proof name, got a number");
  s = dup_doc(d);
  a = find(s, 0, "StackedDrg2KiBV1_1", 0);
  s = splice(s, a, a + 18, "StackedDrg2KiBV9");
  ADD("registered_proof unknown", s, CUZK_POREP_EFORMAT,
      "registered_proof: unknown registered proof \"StackedDrg2KiBV9\"");
  s = dup_doc(d);
  a = find(s, 0, "\"StackedDrg2KiBV1\":", 0);
  s = splice(s, a, a + 18, "\"StackedDrg4KiBV1\"");
  ADD("vanilla variant unknown", s, CUZK_POREP_EFORMAT,
      "vanilla_proofs: unknown variant `StackedDrg4KiBV1`, expected an object "
      "{\"StackedDrg<size>V1\": [...]}");
  s = dup_doc(d);
  a = find(s, 0, "\"vanilla_proofs\":", 0) + 17;
  b = value_end(s, a);
  s = splice(s, a, b, "{}");
  ADD("vanilla empty object", s, CUZK_POREP_EFORMAT,
      "vanilla_proofs: expected an object {\"StackedDrg<size>V1\": [...]}, got {}");
  s = dup_doc(d);
  a = find(s, 0, "\"Single\":", 1);
  s = splice(s, a, a + 9, "\"Double\":");
  ADD("merkle variant unknown", s, CUZK_POREP_EFORMAT,
      "~" P0 "comm_r_last_proof.data: unknown variant `Double`");
  s = dup_doc(d);
  a = find(s, 0, "\"comm_r_last_proof\":{\"data\":", 0) + 28;
  b = value_end(s, a);
  s = splice(s, b - 1, b - 1, ",\"Sub\":{}");
  ADD("merkle two variants", s, CUZK_POREP_EFORMAT,
      P0 "comm_r_last_proof.data.Sub: expected a single-key object (an externally tagged enum), "
         "got a second key");

  /* accepted variations */
  s = dup_doc(d);
  a = find(s, 0, ",\"_h\":null", 0);
  s = splice(s, a, a + 10, "");
  ADD("missing _h accepted", s, CUZK_POREP_OK, NULL);
  s = dup_doc(d);
  a = find(s, 0, "\"comm_d_proofs\":", 0);
  s = splice(s, a, a, "\"extra\":{\"a\":[1,{\"b\":null},\"s\",true],\"c\":[[[[]]]]},\"n\":-1.5e3,");
  ADD("unknown keys skipped", s, CUZK_POREP_OK, NULL);
  s = dup_doc(d);
  s = splice(s, d->n, d->n, " \n\t ");
  s = splice(s, 0, 0, "\r\n ");
  ADD("surrounding whitespace", s, CUZK_POREP_OK, NULL);

  /* shapes (the data model is well typed, the counts are not those of the registered proof) */
  s = dup_doc(d);
  a = find(s, 0, "\"drg_parents\":[", 0) + 15;
  b = value_end(s, a);
  s = splice(s, a, b + 1, "");
  ADD("drg_parents 5", s, CUZK_POREP_EINVAL,
      P0 "replica_column_proofs.drg_parents: expected 6 column proofs, got 5 (StackedDrg2KiBV1_1)");
  cases[n] = cases[n - 1];
  cases[n].name = "drg_parents 5 without shape check";
  cases[n].text = strdup(cases[n - 1].text);
  cases[n].code = CUZK_POREP_OK;
  cases[n].msg = NULL;
  cases[n++].flags = CUZK_C1_READ_NO_SHAPE_CHECK;
  s = dup_doc(d);
  a = find(s, 0, "\"path\":{\"path\":[", 0) + 16;
  b = value_end(s, a);
  s = splice(s, a, b + 1, "");
  ADD("comm_d path 5", s, CUZK_POREP_EINVAL,
      P0
      "comm_d_proofs.data.Single.path.path: expected 6 path elements, got 5 (StackedDrg2KiBV1_1)");
  s = dup_doc(d);
  a = find(s, 0, "\"comm_r_last_proof\":", 0);
  a = find(s, a, "\"index\":", 1) + 8;
  s = splice(s, a, a + 1, "8");
  ADD("tree_r path index 8", s, CUZK_POREP_EINVAL,
      P0 "comm_r_last_proof.data.Single.path.path[1]: expected index < 8, got 8 "
         "(StackedDrg2KiBV1_1)");
  /* a path element with one sibling less / more than arity - 1 (a shortened Merkle level) */
  s = dup_doc(d);
  a = find(s, 0, "\"comm_r_last_proof\":", 0);
  a = find(s, a, "\"hashes\":[", 0) + 10;
  b = value_end(s, a);
  s = splice(s, a, b + 1, "");
  ADD("tree_r path hashes 6", s, CUZK_POREP_EINVAL,
      P0 "comm_r_last_proof.data.Single.path.path[0]: expected 7 hashes, got 6 "
         "(StackedDrg2KiBV1_1)");
  s = dup_doc(d);
  a = find(s, 0, "\"comm_r_last_proof\":", 0);
  a = find(s, a, "\"hashes\":[", 0) + 10;
  b = value_end(s, a);
  {
    size_t hl = b - a;
    char *h = malloc(hl + 2);
    memcpy(h, s + a, hl);
    h[hl] = ',';
    h[hl + 1] = 0;
    s = splice(s, a, a, h); /* the first sibling twice: 8 */
    free(h);
  }
  ADD("tree_r path hashes 8", s, CUZK_POREP_EINVAL,
      P0 "comm_r_last_proof.data.Single.path.path[0]: expected 7 hashes, got 8 "
         "(StackedDrg2KiBV1_1)");
  s = dup_doc(d);
  a = find(s, 0, "\"layer_index\":2", 1) + 14;
  s = splice(s, a, a + 1, "1");
  ADD("encoding layer_index", s, CUZK_POREP_EINVAL,
      P0 "encoding_proof.layer_index: expected 2, got 1 (StackedDrg2KiBV1_1)");
  s = dup_doc(d);
  a = find(s, 0, "StackedDrg2KiBV1_1", 0);
  s = splice(s, a, a + 18, "StackedDrg32GiBV1_1");
  ADD("variant/proof mismatch", s, CUZK_POREP_EINVAL,
      "vanilla_proofs: variant StackedDrg2KiBV1 does not match registered_proof "
      "StackedDrg32GiBV1_1 (expected StackedDrg32GiBV1)");
#undef ADD
  for (int i = 0; i < n; i++) {
    run_bad(&cases[i]);
    free(cases[i].text);
  }
}

/* ---- envelope ---- */

static void test_envelope(const doc *d, const cuzk_c1 *orig) {
  uint8_t *env = NULL;
  size_t env_n = 0;
  char e[512];
  CHECK(cuzk_c1_envelope_write(d->p, d->n, 42, 2048, &env, &env_n, e, sizeof e) == CUZK_POREP_OK);
  static const char head[] = "{\"SectorNum\":42,\"Phase1Out\":\"";
  static const char tail[] = "\",\"SectorSize\":2048}";
  CHECK(env_n > sizeof head && memcmp(env, head, sizeof head - 1) == 0);
  CHECK(memcmp(env + env_n - (sizeof tail - 1), tail, sizeof tail - 1) == 0);
  CHECK(env_n == sizeof head - 1 + (d->n + 2) / 3 * 4 + sizeof tail - 1);

  cuzk_c1 *c1 = NULL;
  cuzk_c1_read_info info;
  cuzk_porep_err r = cuzk_c1_read(&c1, env, env_n, 0, &info, e, sizeof e);
  CHECK_MSG(r == CUZK_POREP_OK, "envelope read: %s", e);
  if (r == CUZK_POREP_OK) {
    CHECK(info.source == CUZK_C1_SRC_ENVELOPE && info.sector_num == 42 && info.sector_size == 2048);
    doc d2 = write_doc(c1);
    CHECK(d2.n == d->n && memcmp(d2.p, d->p, d->n) == 0);
    free(d2.p);
    CHECK(memcmp(c1->comm_r, orig->comm_r, 32) == 0);
    cuzk_c1_free(c1);
  }
  r = cuzk_c1_read(&c1, d->p, d->n, 0, &info, e, sizeof e);
  CHECK(r == CUZK_POREP_OK && info.source == CUZK_C1_SRC_JSON && info.sector_size == 0);
  cuzk_c1_free(c1);

  /* keys in another order, negative SectorNum, unknown key first */
  char *alt = malloc(env_n + 64);
  size_t hn = sizeof head - 1, tn = sizeof tail - 1;
  int w = sprintf(alt, "{\"X\":[1],\"SectorSize\":2048,\"Phase1Out\":\"");
  memcpy(alt + w, env + hn, env_n - hn - tn);
  w += (int)(env_n - hn - tn);
  w += sprintf(alt + w, "\",\"SectorNum\":-7}");
  r = cuzk_c1_read(&c1, (uint8_t *)alt, (size_t)w, 0, &info, e, sizeof e);
  CHECK_MSG(r == CUZK_POREP_OK && info.source == CUZK_C1_SRC_ENVELOPE && info.sector_num == -7,
            "reordered envelope: %s", e);
  cuzk_c1_free(c1);
  free(alt);

  /* envelope errors */
  struct {
    const char *text;
    cuzk_porep_err code;
    const char *msg;
  } bad[] = {
      {"{\"SectorNum\":1,\"Phase1Out\":\"e30=\"}", CUZK_POREP_EFORMAT,
       "(root): missing field `SectorSize`"},
      {"{\"SectorNum\":1,\"Phase1Out\":\"e30\",\"SectorSize\":2048}", CUZK_POREP_EFORMAT,
       "Phase1Out: invalid standard base64"},
      {"{\"SectorNum\":1,\"Phase1Out\":\"e3-=\",\"SectorSize\":2048}", CUZK_POREP_EFORMAT,
       "Phase1Out: invalid standard base64"},
      {"{\"SectorNum\":1,\"Phase1Out\":5,\"SectorSize\":2048}", CUZK_POREP_EFORMAT,
       "Phase1Out: expected a base64 string, got a number"},
      {"{\"SectorNum\":\"1\",\"Phase1Out\":\"\",\"SectorSize\":2048}", CUZK_POREP_EFORMAT,
       "SectorNum: expected an integer, got a string"},
      {"{\"SectorNum\":1,\"Phase1Out\":\"\",\"SectorSize\":-1}", CUZK_POREP_EFORMAT,
       "SectorSize: expected an unsigned integer"},
      {"{\"SectorNum\":9223372036854775808,\"Phase1Out\":\"\",\"SectorSize\":1}",
       CUZK_POREP_EFORMAT, "SectorNum: expected an integer"},
      {"{\"SectorNum\":1,\"SectorNum\":1}", CUZK_POREP_EFORMAT, "SectorNum: duplicate field"},
      {"{\"SectorNum\":1,\"Phase1Out\":\"AAEC\",\"SectorSize\":2048}", CUZK_POREP_EFORMAT,
       "Phase1Out: decoded payload is not a JSON object"},
      {"{\"SectorNum\":1,\"Phase1Out\":\"e30=\",\"SectorSize\":2048}", CUZK_POREP_EFORMAT,
       "Phase1Out: (root): missing field `registered_proof`"},
      {"{\"SectorNum\":1,\"Phase1Out\":\"e30=\",\"SectorSize\":2048", CUZK_POREP_EFORMAT,
       "(envelope): JSON parse error: premature EOF"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char eb[512] = "";
    r = cuzk_c1_read(&c1, (const uint8_t *)bad[i].text, strlen(bad[i].text), 0, NULL, eb,
                     sizeof eb);
    CHECK_MSG(r == bad[i].code && c1 == NULL, "envelope case %zu: code %d (%s)", i, r, eb);
    CHECK_MSG(strncmp(eb, bad[i].msg, strlen(bad[i].msg)) == 0,
              "envelope case %zu:\n   got '%s'\n  want '%s'", i, eb, bad[i].msg);
  }
  /* SectorSize must match the registered proof; an inner error gets the Phase1Out prefix */
  uint8_t *env2 = NULL;
  size_t env2_n = 0;
  CHECK(cuzk_c1_envelope_write(d->p, d->n, 1, 4096, &env2, &env2_n, e, sizeof e) == CUZK_POREP_OK);
  r = cuzk_c1_read(&c1, env2, env2_n, 0, NULL, e, sizeof e);
  CHECK_MSG(r == CUZK_POREP_EINVAL && strcmp(e, "SectorSize: 4096 does not match registered_proof "
                                                "StackedDrg2KiBV1_1 (2048)") == 0,
            "size mismatch: %s", e);
  free(env2);
  uint8_t *broken = malloc(d->n);
  memcpy(broken, d->p, d->n);
  CHECK(cuzk_c1_envelope_write(broken, d->n - 1, 1, 2048, &env2, &env2_n, e, sizeof e) ==
        CUZK_POREP_OK);
  r = cuzk_c1_read(&c1, env2, env2_n, 0, NULL, e, sizeof e);
  CHECK_MSG(r == CUZK_POREP_EFORMAT && strncmp(e, "Phase1Out: (root): JSON parse error", 35) == 0,
            "inner truncated: %s", e);
  free(env2);
  free(broken);
  free(env);
}

/* ---- random mutations: never a crash; an accepted document is a fixed point ---- */

static void mutate_check(const uint8_t *m, size_t n, unsigned flags, unsigned *ok_count) {
  cuzk_c1 *c1 = NULL;
  char e[512] = "";
  cuzk_porep_err r = cuzk_c1_read(&c1, m, n, flags, NULL, e, sizeof e);
  if (r != CUZK_POREP_OK) {
    CHECK_MSG(c1 == NULL && e[0] != 0, "error without message (code %d)", r);
    return;
  }
  (*ok_count)++;
  doc a = write_doc(c1);
  cuzk_c1 *c2 = NULL;
  r = cuzk_c1_read_json(&c2, a.p, a.n, flags | CUZK_C1_READ_NO_SHAPE_CHECK, e, sizeof e);
  CHECK_MSG(r == CUZK_POREP_OK, "re-read of an accepted mutation: %s", e);
  if (r == CUZK_POREP_OK) {
    doc b = write_doc(c2);
    CHECK(a.n == b.n && memcmp(a.p, b.p, a.n) == 0);
    free(b.p);
  }
  free(a.p);
  cuzk_c1_free(c1);
  cuzk_c1_free(c2);
}

static size_t mutate(uint8_t *m, size_t n, size_t cap, const uint8_t *src, size_t src_n) {
  static const char TOK[] = "[]{}\",:0123456789-.eE ntrufals\\";
  memcpy(m, src, src_n);
  n = src_n;
  int edits = 1 + (int)(rng_next(&g_rng) % 3);
  for (int k = 0; k < edits && n > 0; k++) {
    size_t i = rng_next(&g_rng) % n;
    switch (rng_next(&g_rng) % 6) {
    case 0: m[i] = (uint8_t)TOK[rng_next(&g_rng) % (sizeof TOK - 1)]; break;
    case 1: m[i] = (uint8_t)rng_next(&g_rng); break;
    case 2: { /* delete a range */
      size_t len = 1 + rng_next(&g_rng) % 16;
      if (len > n - i) len = n - i;
      memmove(m + i, m + i + len, n - i - len);
      n -= len;
      break;
    }
    case 3: { /* duplicate a range */
      size_t len = 1 + rng_next(&g_rng) % 40;
      if (len > n - i) len = n - i;
      if (n + len > cap) break;
      memmove(m + i + len, m + i, n - i);
      n += len;
      break;
    }
    case 4: n = i; break; /* truncate */
    default:              /* insert a digit */
      if (n + 1 > cap) break;
      memmove(m + i + 1, m + i, n - i);
      m[i] = (uint8_t)('0' + rng_next(&g_rng) % 10);
      n++;
      break;
    }
  }
  return n;
}

static void fuzz_loop(const doc *full, const doc *mini, const doc *mini_env) {
  unsigned ok = 0, runs = 0;
  const doc *srcs[3] = {mini, mini_env, full};
  const int iters[3] = {3000, 1500, 1000};
  for (int s = 0; s < 3; s++) {
    size_t cap = srcs[s]->n + 256;
    uint8_t *m = malloc(cap);
    for (int it = 0; it < iters[s]; it++) {
      size_t n = mutate(m, 0, cap, srcs[s]->p, srcs[s]->n);
      mutate_check(m, n, s == 2 ? 0 : CUZK_C1_READ_NO_SHAPE_CHECK, &ok);
      runs++;
    }
    free(m);
  }
  printf("fuzz: %u mutations, %u accepted\n", runs, ok);
}

/* ---- the synthetic C1 for benchmarks (cuzk_c1_new_synthetic) ---- */

static void test_synthetic(void) {
  char e[512] = "";
  for (uint32_t id = 5; id <= 9; id++) { /* V1_1: 2KiB .. 64GiB */
    const cuzk_c1_proof_info *pi = cuzk_c1_proof_info_get(id);
    cuzk_c1 *c1 = cuzk_c1_new_synthetic(id, 42);
    CHECK_MSG(c1 && c1->synthetic_for_bench == 1, "%s: synthetic C1", pi->name);
    if (!c1) continue;
    CHECK_MSG(cuzk_c1_check_shape(c1, e, sizeof e) == CUZK_POREP_OK, "%s: shape: %s", pi->name, e);
    /* what the circuit checks before synthesis: canonical values, paths spelling the challenge,
     * one comm_c and comm_r_last per partition — in every partition */
    cuzk_stacked_config cfg;
    CHECK(cuzk_stacked_config_from_proof(&cfg, id) == CUZK_POREP_OK);
    for (unsigned k = 0; k < c1->vanilla_proofs.n; k++)
      CHECK_MSG(cuzk_stacked_check_c1(&cfg, c1, k, e, sizeof e) == CUZK_POREP_OK,
                "%s partition %u: %s", pi->name, k, e);
    /* C2 refuses it, naming the label */
    cuzk_c2_ctx ctx;
    cuzk_porep_err r = cuzk_c2_ctx_init(&ctx, c1, e, sizeof e);
    CHECK_MSG(r == CUZK_POREP_EINVAL &&
                  strncmp(e, "cuzk_synthetic_for_bench: a synthetic C1", 40) == 0,
              "%s: C2 of a synthetic C1: %s", pi->name, e);
    if (id == 5) {
      /* the label survives JSON, written last; the same seed gives the same document */
      doc d = write_doc(c1);
      const char tail[] = ",\"cuzk_synthetic_for_bench\":1}";
      CHECK(d.n > sizeof tail && memcmp(d.p + d.n - (sizeof tail - 1), tail, sizeof tail - 1) == 0);
      cuzk_c1 *back = NULL, *again = cuzk_c1_new_synthetic(id, 42),
              *other = cuzk_c1_new_synthetic(id, 43);
      CHECK_MSG(cuzk_c1_read_json(&back, d.p, d.n, 0, e, sizeof e) == CUZK_POREP_OK, "read: %s", e);
      CHECK(back && back->synthetic_for_bench == 1);
      doc d2 = write_doc(again), d3 = write_doc(other);
      CHECK(d2.n == d.n && memcmp(d2.p, d.p, d.n) == 0);
      CHECK(d3.n != d.n || memcmp(d3.p, d.p, d.n) != 0);
      /* a real C1 carries no such key */
      back->synthetic_for_bench = 0;
      doc d4 = write_doc(back);
      CHECK(d4.n == d.n - (sizeof tail - 2) && memcmp(d4.p + d4.n - 2, "]}", 2) == 0);
      free(d.p);
      free(d2.p);
      free(d3.p);
      free(d4.p);
      cuzk_c1_free(back);
      cuzk_c1_free(again);
      cuzk_c1_free(other);
    }
    cuzk_c1_free(c1);
  }
  CHECK(cuzk_c1_new_synthetic(20, 1) == NULL);
}

/* ---- benchmark modes ---- */

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static long maxrss_kib(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

static int bench_gen(const char *path, uint32_t id) {
  double t0 = now();
  cuzk_c1 *c1 = cuzk_c1_new_shaped(id);
  if (!c1) return 1;
  fill_c1(c1);
  double t1 = now();
  doc d = write_doc(c1);
  double t2 = now();
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(d.p, 1, d.n, f) != d.n) return 1;
  fclose(f);
  printf("gen %s: %zu bytes; build %.3f s, write_json %.3f s (%.1f MB/s), peak RSS %ld KiB\n",
         cuzk_c1_proof_info_get(id)->name, d.n, t1 - t0, t2 - t1, (double)d.n / (t2 - t1) / 1e6,
         maxrss_kib());
  free(d.p);
  cuzk_c1_free(c1);
  return 0;
}

static int bench_read(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return 1;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *buf = malloc((size_t)n);
  if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) return 1;
  fclose(f);
  long rss0 = maxrss_kib();
  cuzk_c1 *c1 = NULL;
  char e[512];
  double t0 = now();
  cuzk_porep_err r = cuzk_c1_read(&c1, buf, (size_t)n, 0, NULL, e, sizeof e);
  double t1 = now();
  if (r) {
    printf("read failed: %s\n", e);
    return 1;
  }
  long rss1 = maxrss_kib();
  doc d = write_doc(c1);
  double t2 = now();
  int same = d.n == (size_t)n && memcmp(d.p, buf, d.n) == 0;
  printf("read %ld bytes: %.3f s (%.1f MB/s); peak RSS %ld KiB after loading the file, %ld KiB "
         "after parsing (+%ld KiB); re-write %.3f s, byte-identical %s\n",
         n, t1 - t0, (double)n / (t1 - t0) / 1e6, rss0, rss1, rss1 - rss0, t2 - t1,
         same ? "yes" : "NO");
  free(d.p);
  cuzk_c1_free(c1);
  free(buf);
  return same ? 0 : 1;
}

int main(int argc, char **argv) {
  if (argc >= 3 && strcmp(argv[1], "--bench-gen") == 0)
    return bench_gen(argv[2], argc >= 4 ? (uint32_t)atoi(argv[3]) : 8);
  if (argc >= 3 && strcmp(argv[1], "--bench-read") == 0) return bench_read(argv[2]);

  /* the registered-proof table */
  CHECK(cuzk_c1_proof_id_from_name("StackedDrg32GiBV1_1", 19) == 8);
  CHECK(cuzk_c1_proof_id_from_name("StackedDrg64GiBV1_2_Feat_NonInteractivePoRep", 44) == 19);
  CHECK(cuzk_c1_proof_id_from_name("StackedDrg32GiBV1_", 18) == -1);
  CHECK(cuzk_c1_variant_of_proof(13) == 3 && cuzk_c1_variant_of_proof(15) == 0);
  CHECK(cuzk_c1_proof_info_get(20) == NULL && cuzk_c1_new_shaped(20) == NULL);
  CHECK(cuzk_c1_proof_info_get(18)->partitions == 126);

  /* the same numbers as the filecoin layer's table (include/cuzk/filecoin/sector.h) */
  for (uint32_t id = 0; id < CUZK_C1_NUM_PROOFS; id++) {
    const cuzk_c1_proof_info *pi = cuzk_c1_proof_info_get(id);
    const cuzk_seal_proof *sp = cuzk_seal_proof_at(id);
    CHECK_MSG(sp && sp->id == id, "seal proof %u", id);
    if (!sp) continue;
    const cuzk_sector_info *si = sp->sector;
    unsigned levels = 0;
    for (uint64_t l = si->leaves_per_base_tree; l > 1; l /= 8)
      levels++;
    CHECK_MSG(strcmp(pi->name, sp->name) == 0 && strcmp(pi->variant, sp->vanilla_variant) == 0 &&
                  pi->sector_size == si->bytes && pi->layers == si->layers &&
                  pi->partitions == cuzk_seal_proof_partitions(sp) &&
                  pi->challenges == cuzk_seal_proof_challenges_per_partition(sp) &&
                  pi->tree_d_depth == si->tree_d_depth && pi->base_levels == levels &&
                  pi->sub_arity == si->sub_arity && pi->top_arity == si->top_arity,
              "proof table differs from cuzk/porep/porep.h for %s", pi->name);
  }

  /* every registered proof's shaped C1 passes the shape check (except the big ones: slow) */
  for (uint32_t id = 0; id < CUZK_C1_NUM_PROOFS; id++) {
    const cuzk_c1_proof_info *pi = cuzk_c1_proof_info_get(id);
    if (pi->sector_size > (512u << 20)) continue;
    cuzk_c1 *c1 = cuzk_c1_new_shaped(id);
    char e[512];
    CHECK_MSG(c1 && cuzk_c1_check_shape(c1, e, sizeof e) == CUZK_POREP_OK, "%s: %s", pi->name, e);
    cuzk_c1_free(c1);
  }

  /* 2KiB StackedDrg2KiBV1_1: write -> read -> write byte-identical */
  cuzk_c1 *c1 = cuzk_c1_new_shaped(5);
  CHECK(c1 != NULL);
  fill_c1(c1);
  doc d = write_doc(c1);
  printf("2KiB C1 JSON: %zu bytes\n", d.n);
  CHECK(d.n > 50000 && d.n < 200000);
  cuzk_c1 *back = NULL;
  char e[512];
  cuzk_porep_err r = cuzk_c1_read_json(&back, d.p, d.n, 0, e, sizeof e);
  CHECK_MSG(r == CUZK_POREP_OK, "read: %s", e);
  if (r == CUZK_POREP_OK) {
    doc d2 = write_doc(back);
    CHECK(d2.n == d.n && memcmp(d2.p, d.p, d.n) == 0);
    free(d2.p);
    const cuzk_c1_challenge_proof *p0 = &c1->vanilla_proofs.v[0].v[1],
                                  *p1 = &back->vanilla_proofs.v[0].v[1];
    CHECK(memcmp(p0->replica_column_proofs.exp_parents.v[7].inclusion_proof.base.v[1].hashes.v[6],
                 p1->replica_column_proofs.exp_parents.v[7].inclusion_proof.base.v[1].hashes.v[6],
                 32) == 0);
    CHECK(p1->encoding_proof.layer_index == 2 &&
          p1->encoding_proof.node == p0->encoding_proof.node);
    CHECK(back->registered_proof == 5 && back->vanilla_variant == 0);
    cuzk_c1_free(back);
  }

  /* the writer's shape = the docs/spec/sdr-vanilla.md §9.5 skeleton */
  char *sk = skeleton(&d), *want = expected_2kib_skeleton();
  CHECK_MSG(strcmp(sk, want) == 0, "skeleton differs:\n got %.300s\nwant %.300s", sk, want);
  free(sk);
  free(want);

  /* Sub / Top variants: key order and round trip (mini C1, shape check off) */
  cuzk_c1 *mini = mini_c1();
  doc md = write_doc(mini);
  sk = skeleton(&md);
  CHECK_MSG(strstr(sk, "\"comm_r_last_proof\":{\"data\":{\"Top\":{\"base_proof\":{\"path\":[{"
                       "\"hashes\":[#,#],\"index\":N}]},\"sub_proof\":{\"path\":[{\"hashes\":[#],"
                       "\"index\":N}]},\"top_proof\":{\"path\":[{\"hashes\":[#],\"index\":N}]},"
                       "\"root\":#,\"leaf\":#}}}") != NULL,
            "Top layout: %s", sk);
  CHECK_MSG(
      strstr(sk,
             "{\"data\":{\"Sub\":{\"base_proof\":{\"path\":[{\"hashes\":[#],\"index\":N}]},"
             "\"sub_proof\":{\"path\":[{\"hashes\":[],\"index\":N}]},\"root\":#,\"leaf\":#}}}") !=
          NULL,
      "Sub layout: %s", sk);
  CHECK(strstr(sk, "\"exp_parents\":[]") != NULL);
  CHECK(strstr((char *)md.p, "\"node\":18446744073709551615}") != NULL);
  free(sk);
  r = cuzk_c1_read_json(&back, md.p, md.n, CUZK_C1_READ_NO_SHAPE_CHECK, e, sizeof e);
  CHECK_MSG(r == CUZK_POREP_OK, "mini read: %s", e);
  if (r == CUZK_POREP_OK) {
    doc d2 = write_doc(back);
    CHECK(d2.n == md.n && memcmp(d2.p, md.p, md.n) == 0);
    free(d2.p);
    cuzk_c1_free(back);
  }
  r = cuzk_c1_read_json(&back, md.p, md.n, 0, e, sizeof e);
  CHECK_MSG(r == CUZK_POREP_EINVAL &&
                strcmp(e, "vanilla_proofs.StackedDrg64GiBV1: expected 10 partitions, got 1 "
                          "(StackedDrg64GiBV1_1_Feat_SyntheticPoRep)") == 0,
            "mini shape: %s", e);

  test_malformed(&d);
  test_envelope(&d, c1);
  test_synthetic();

  uint8_t *menv = NULL;
  size_t menv_n = 0;
  CHECK(cuzk_c1_envelope_write(md.p, md.n, 7, 1, &menv, &menv_n, e, sizeof e) == CUZK_POREP_OK);
  doc mini_env = {menv, menv_n};
  fuzz_loop(&d, &md, &mini_env);

  free(menv);
  free(md.p);
  cuzk_c1_free(mini);
  free(d.p);
  cuzk_c1_free(c1);
  cuzk_c1_free(NULL);
  return check_summary("test_porep_c1");
}
