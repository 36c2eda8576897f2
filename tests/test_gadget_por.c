/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Merkle inclusion (storage-proofs-core por.rs; docs/spec/porep-circuit.md §3): the private-root
 * costs of docs/spec/porep-circuit.md §3.4 (SHAPE), the por_circuit.rs counts of §6.1 through the
 * mode harness, real Poseidon trees (arity 8, 8-2, 8-8-2) and a SHA-256 binary tree built natively:
 * satisfied with the true root, unsatisfied with a wrong root or sibling, the packed input equal to
 * the leaf index; shape validation. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cs_modes.h"
#include "cuzk/hashes/poseidon.h"
#include "cuzk/hashes/sha256.h"
#include "cuzk/r1cs/gadgets.h"
#include "cuzk/r1cs/r1cs.h"
#include "rng.h"

#define MAX_LEVELS 32

/* ---- native trees --------------------------------------------------------------------------- */

static unsigned level_arity(const cuzk_por_shape *s, unsigned l) {
  if (l < s->base_levels) return s->base_arity;
  if (l == s->base_levels && s->sub_arity) return s->sub_arity;
  return s->top_arity;
}

static void node_hash(cuzk_fr *out, const cuzk_por_shape *s, unsigned arity, const cuzk_fr *in) {
  if (s->hash == CUZK_POR_POSEIDON) {
    cuzk_poseidon_hash(out, arity, in);
    return;
  }
  /* Filecoin's SHA-256 node: the children's 32-byte LE encodings, hashed, then truncated */
  uint8_t buf[64], d[32];
  cuzk_fr_to_bytes(buf, &in[0]);
  cuzk_fr_to_bytes(buf + 32, &in[1]);
  cuzk_sha256_trunc254(d, buf, 64);
  cuzk_fr_from_bytes(out, d);
}

/* A path with its own values: siblings and index per level, the leaf, the root. */
typedef struct {
  cuzk_por_shape shape;
  uint64_t index;
  cuzk_fr leaf, root;
  cuzk_fr sib[MAX_LEVELS][7];
  cuzk_por_level path[MAX_LEVELS];
  /* Root::Val in por_circuit.rs: leaf and root allocated as values by the test */
  size_t gadget_aux_from; /* aux count before the gadget */
  cuzk_r1cs_err err;
} por_ctx;

static size_t num_leaves(const cuzk_por_shape *s) {
  size_t n = 1;
  for (unsigned l = 0; l < cuzk_por_levels(s); l++)
    n *= level_arity(s, l);
  return n;
}

/* A whole tree natively; the path of leaf idx, the root. */
static void tree_path(por_ctx *c, const cuzk_fr *leaves, uint64_t idx) {
  const cuzk_por_shape *s = &c->shape;
  size_t n = num_leaves(s);
  cuzk_fr *layer = malloc(n * sizeof *layer), *next = malloc(n * sizeof *next);
  memcpy(layer, leaves, n * sizeof *layer);
  c->index = idx;
  c->leaf = leaves[idx];
  uint64_t pos = idx;
  for (unsigned l = 0; l < cuzk_por_levels(s); l++) {
    unsigned ar = level_arity(s, l);
    size_t group = pos / ar;
    c->path[l].index = (unsigned)(pos % ar);
    for (unsigned i = 0, j = 0; i < ar; i++)
      if (i != c->path[l].index) c->sib[l][j++] = layer[group * ar + i];
    c->path[l].siblings = c->sib[l];
    for (size_t g = 0; g < n / ar; g++)
      node_hash(&next[g], s, ar, &layer[g * ar]);
    n /= ar;
    memcpy(layer, next, n * sizeof *layer);
    pos = group;
  }
  c->root = layer[0];
  free(layer);
  free(next);
}

/* A random path (siblings random) and the root it leads to: enough for the harness. */
static void random_path(por_ctx *c, uint64_t *s) {
  rng_fr(s, &c->leaf);
  cuzk_fr cur = c->leaf;
  c->index = 0;
  uint64_t scale = 1;
  for (unsigned l = 0; l < cuzk_por_levels(&c->shape); l++) {
    unsigned ar = level_arity(&c->shape, l), idx = (unsigned)(rng_next(s) % ar);
    cuzk_fr in[8];
    for (unsigned j = 0; j + 1 < ar; j++)
      rng_fr(s, &c->sib[l][j]);
    for (unsigned i = 0, j = 0; i < ar; i++)
      in[i] = i == idx ? cur : c->sib[l][j++];
    node_hash(&cur, &c->shape, ar, in);
    c->path[l].index = idx;
    c->path[l].siblings = c->sib[l];
    c->index += scale * idx;
    scale *= ar;
  }
  c->root = cur;
}

static void synth_por(cuzk_cs *cs, void *vctx) {
  por_ctx *c = vctx;
  bool hv = cuzk_cs_has_values(cs);
  cuzk_num leaf = cuzk_num_alloc(cs, &c->leaf);
  cuzk_num root = cuzk_num_alloc(cs, &c->root);
  c->gadget_aux_from = cuzk_cs_num_aux(cs);
  cuzk_cs_push(cs, "por");
  c->err = cuzk_gadget_por(cs, &c->shape, &leaf, &root, hv ? c->path : NULL);
  cuzk_cs_pop(cs);
}

static cuzk_cs *run(cuzk_cs_mode mode, por_ctx *c) {
  return cs_modes_run(mode, 2, false, synth_por, c);
}

static bool satisfied(cuzk_cs *cs, char *name, size_t len) {
  cuzk_cs_check r;
  bool ok = cuzk_cs_is_satisfied(cs, &r) == CUZK_R1CS_OK && r.satisfied;
  if (name) snprintf(name, len, "%s", r.name);
  return ok;
}

static cuzk_por_shape shape(cuzk_por_hash h, unsigned base, unsigned sub, unsigned top,
                            unsigned levels, bool pub) {
  cuzk_por_shape s = {h, base, sub, top, levels, pub};
  return s;
}

/* ---- docs/spec/porep-circuit.md §3.4: the gadget alone, private root (SHAPE) -------------- */
static void test_costs(void) {
  static const struct {
    const char *what;
    cuzk_por_hash h;
    unsigned base, sub, top, levels;
    size_t aux, cons;
  } t[] = {
      {"2 KiB", CUZK_POR_POSEIDON, 8, 0, 0, 2, 1074, 1062},
      {"8 MiB", CUZK_POR_POSEIDON, 8, 0, 0, 6, 3222, 3182},
      {"512 MiB", CUZK_POR_POSEIDON, 8, 0, 0, 8, 4296, 4242},
      {"32 GiB", CUZK_POR_POSEIDON, 8, 8, 0, 9, 5370, 5302},
      {"64 GiB", CUZK_POR_POSEIDON, 8, 8, 2, 9, 5685, 5616},
      {"arity 4 level", CUZK_POR_POSEIDON, 4, 0, 0, 1, 390, 387 + 2},
      {"arity 2 level", CUZK_POR_POSEIDON, 2, 0, 0, 1, 315, 314 + 2},
      {"comm_d 2 KiB", CUZK_POR_SHA256, 2, 0, 0, 6, 272010, 272294},
      {"comm_d 32 GiB", CUZK_POR_SHA256, 2, 0, 0, 30, 1360050, 1361462},
      {"comm_d 64 GiB", CUZK_POR_SHA256, 2, 0, 0, 31, 1405385, 1406844},
  };
  for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
    por_ctx c;
    memset(&c, 0, sizeof c);
    c.shape = shape(t[i].h, t[i].base, t[i].sub, t[i].top, t[i].levels, false);
    cuzk_cs *cs = run(CUZK_CS_SHAPE, &c);
    size_t aux = cuzk_cs_num_aux(cs) - c.gadget_aux_from;
    size_t cons = cuzk_cs_num_constraints(cs), in = cuzk_cs_num_inputs(cs) - 1;
    CHECK_MSG(c.err == CUZK_R1CS_OK && aux == t[i].aux && cons == t[i].cons && in == 1,
              "PoR %s: %zu aux / %zu constraints / %zu inputs, expected %zu / %zu / 1", t[i].what,
              aux, cons, in, t[i].aux, t[i].cons);
    cuzk_cs_destroy(cs);
  }
}

/* ---- docs/spec/porep-circuit.md §6.1: por_circuit.rs counts (leaf and root allocated by the
 * test, 64 leaves per base tree: log_base(64) base levels) ------------------------------------ */
static void test_por_circuit_counts(void) {
  static const struct {
    unsigned base, sub, top;
    bool pub;
    size_t cons;
  } t[] = {
      {8, 0, 0, true, 1063},  {4, 0, 0, true, 1164},  {2, 0, 0, true, 1887}, {8, 0, 0, false, 1062},
      {4, 0, 0, false, 1163}, {2, 0, 0, false, 1886}, {8, 2, 0, true, 1377}, {8, 4, 2, true, 1764},
      {8, 8, 0, true, 1593},  {8, 8, 2, true, 1907},  {8, 2, 4, true, 1764},
  };
  uint64_t s = 21;
  for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
    por_ctx c;
    memset(&c, 0, sizeof c);
    unsigned levels = t[i].base == 8 ? 2 : t[i].base == 4 ? 3 : 6;
    c.shape = shape(CUZK_POR_POSEIDON, t[i].base, t[i].sub, t[i].top, levels, t[i].pub);
    random_path(&c, &s);
    cs_counts k = cs_modes_check("por_circuit", synth_por, &c, 12, 200 + i);
    /* aux: leaf, root, then per level bits + siblings + insert + Poseidon */
    size_t aux = 2;
    for (unsigned l = 0; l < cuzk_por_levels(&c.shape); l++) {
      unsigned ar = level_arity(&c.shape, l);
      aux += ar == 2 ? 315 : ar == 4 ? 390 : 537;
    }
    CHECK_MSG(c.err == CUZK_R1CS_OK && k.inputs == 2u + t[i].pub && k.constraints == t[i].cons &&
                  k.aux == aux,
              "por_circuit %u-%u-%u %s: %zu inputs %zu aux %zu constraints, expected %zu",
              t[i].base, t[i].sub, t[i].top, t[i].pub ? "public" : "private", k.inputs, k.aux,
              k.constraints, t[i].cons);
    /* the path input is the leaf index; the public root input is the root */
    cuzk_cs *cs = run(CUZK_CS_WITNESS, &c);
    cuzk_cs_result r;
    cuzk_cs_result_get(cs, &r);
    cuzk_fr idx;
    cuzk_fr_from_u64(&idx, c.index);
    CHECK(cuzk_fr_eq(&r.inputs[1], &idx));
    if (t[i].pub) CHECK(cuzk_fr_eq(&r.inputs[2], &c.root));
    cuzk_cs_destroy(cs);
  }
  /* the SHA-256 public-root case (272,295), counts only */
  por_ctx c;
  memset(&c, 0, sizeof c);
  c.shape = shape(CUZK_POR_SHA256, 2, 0, 0, 6, true);
  cuzk_cs *cs = run(CUZK_CS_SHAPE, &c);
  CHECK_MSG(cuzk_cs_num_constraints(cs) == 272295 && cuzk_cs_num_inputs(cs) == 3,
            "sha256 por_circuit %zu", cuzk_cs_num_constraints(cs));
  cuzk_cs_destroy(cs);
}

/* ---- real trees ------------------------------------------------------------------------- */
static void check_tree(cuzk_por_shape sh, uint64_t seed, const char *what) {
  por_ctx c;
  memset(&c, 0, sizeof c);
  c.shape = sh;
  size_t n = num_leaves(&sh);
  cuzk_fr *leaves = malloc(n * sizeof *leaves);
  uint64_t s = seed;
  for (size_t i = 0; i < n; i++)
    rng_fr(&s, &leaves[i]);
  /* a few leaf positions, the first and last among them */
  uint64_t picks[3] = {0, n - 1, rng_next(&s) % n};
  for (int p = 0; p < 3; p++) {
    tree_path(&c, leaves, picks[p]);
    cuzk_cs *cs = run(CUZK_CS_CHECK, &c);
    char name[512];
    CHECK_MSG(c.err == CUZK_R1CS_OK && satisfied(cs, name, sizeof name), "%s leaf %llu: %s", what,
              (unsigned long long)picks[p], name);
    cuzk_cs_result r;
    cuzk_cs_result_get(cs, &r);
    cuzk_fr idx;
    cuzk_fr_from_u64(&idx, picks[p]);
    CHECK_MSG(r.num_inputs == 2 && cuzk_fr_eq(&r.inputs[1], &idx), "%s: packed index", what);
    cuzk_cs_destroy(cs);
  }
  /* a wrong root: only the equality fails */
  cuzk_fr good = c.root;
  cuzk_fr_add(&c.root, &c.root, &cuzk_fr_one);
  cuzk_cs *cs = run(CUZK_CS_CHECK, &c);
  char name[512];
  CHECK_MSG(!satisfied(cs, name, sizeof name) && strcmp(name, "por/equal") == 0,
            "%s wrong root: %s", what, name);
  cuzk_cs_destroy(cs);
  c.root = good;
  /* a wrong sibling (at the top level): the computed root differs */
  unsigned top = cuzk_por_levels(&sh) - 1;
  cuzk_fr_add(&c.sib[top][0], &c.sib[top][0], &cuzk_fr_one);
  cs = run(CUZK_CS_CHECK, &c);
  CHECK_MSG(!satisfied(cs, name, sizeof name) && strcmp(name, "por/equal") == 0,
            "%s wrong sibling: %s", what, name);
  cuzk_cs_destroy(cs);
  free(leaves);
}

static void test_trees(void) {
  check_tree(shape(CUZK_POR_POSEIDON, 8, 0, 0, 2, false), 31, "poseidon 8, 64 leaves");
  check_tree(shape(CUZK_POR_POSEIDON, 8, 2, 0, 2, false), 32, "poseidon 8-2, 128 leaves");
  check_tree(shape(CUZK_POR_POSEIDON, 8, 8, 2, 2, false), 33, "poseidon 8-8-2, 1024 leaves");
  check_tree(shape(CUZK_POR_SHA256, 2, 0, 0, 3, false), 34, "sha256 binary, 8 leaves");
}

/* cuzk_gadget_sha256_leaves against the native node: the harness on one level hash. */
typedef struct {
  cuzk_fr l[2];
  cuzk_num out;
} leaves_ctx;

static void synth_leaves(cuzk_cs *cs, void *vctx) {
  leaves_ctx *c = vctx;
  cuzk_num in[2] = {cuzk_num_alloc(cs, &c->l[0]), cuzk_num_alloc(cs, &c->l[1])};
  c->out = cuzk_gadget_sha256_leaves(cs, in, 2);
}

static void test_sha256_leaves(void) {
  /* the harness on a one-level SHA-256 path (45,382 constraints) */
  uint64_t s0 = 42;
  por_ctx pc;
  memset(&pc, 0, sizeof pc);
  pc.shape = shape(CUZK_POR_SHA256, 2, 0, 0, 1, false);
  random_path(&pc, &s0);
  cs_counts k = cs_modes_check("sha256 por level", synth_por, &pc, 16, 300);
  CHECK_MSG(k.aux == 2 + 45335 && k.constraints == 45382 + 2 && k.inputs == 2,
            "sha256 level %zu/%zu", k.aux, k.constraints);

  uint64_t s = 41;
  leaves_ctx c;
  rng_fr(&s, &c.l[0]);
  rng_fr(&s, &c.l[1]); /* any canonical value: the gadget takes all 255 bits */
  cuzk_cs *cs = cs_modes_run(CUZK_CS_CHECK, 2, false, synth_leaves, &c);
  CHECK(cuzk_cs_num_aux(cs) == 2 + 45331 && cuzk_cs_num_constraints(cs) == 45379);
  CHECK(satisfied(cs, NULL, 0));
  cuzk_fr native;
  cuzk_por_shape sh = shape(CUZK_POR_SHA256, 2, 0, 0, 1, false);
  node_hash(&native, &sh, 2, c.l);
  CHECK(cuzk_fr_eq(&c.out.value, &native));
  cuzk_cs_destroy(cs);
}

/* ---- shape validation --------------------------------------------------------------------- */
static void test_invalid(void) {
  static const cuzk_por_shape bad[] = {
      {CUZK_POR_POSEIDON, 3, 0, 0, 2, false},   {CUZK_POR_POSEIDON, 16, 0, 0, 2, false},
      {CUZK_POR_POSEIDON, 8, 5, 0, 2, false},   {CUZK_POR_POSEIDON, 8, 8, 1, 2, false},
      {CUZK_POR_SHA256, 4, 0, 0, 2, false},     {CUZK_POR_SHA256, 2, 2, 0, 2, false},
      {CUZK_POR_SHA256, 2, 0, 2, 2, false},     {(cuzk_por_hash)7, 2, 0, 0, 2, false},
      {CUZK_POR_POSEIDON, 2, 0, 0, 255, false},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    por_ctx c;
    memset(&c, 0, sizeof c);
    c.shape = bad[i];
    cuzk_cs *cs = run(CUZK_CS_SHAPE, &c);
    CHECK_MSG(c.err == CUZK_R1CS_EINVAL && cuzk_cs_num_aux(cs) == 2 &&
                  cuzk_cs_num_constraints(cs) == 0,
              "bad shape %zu accepted", i);
    cuzk_cs_destroy(cs);
  }
  /* with values: a missing path, an index out of range */
  por_ctx c;
  memset(&c, 0, sizeof c);
  uint64_t s = 51;
  c.shape = shape(CUZK_POR_POSEIDON, 4, 0, 0, 2, false);
  random_path(&c, &s);
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, CUZK_CS_WITNESS);
  cuzk_cs *cs;
  CHECK(cuzk_cs_create(&cs, &o) == CUZK_R1CS_OK);
  cuzk_num leaf = cuzk_num_alloc(cs, &c.leaf), root = cuzk_num_alloc(cs, &c.root);
  CHECK(cuzk_gadget_por(cs, &c.shape, &leaf, &root, NULL) == CUZK_R1CS_EINVAL);
  c.path[1].index = 4;
  CHECK(cuzk_gadget_por(cs, &c.shape, &leaf, &root, c.path) == CUZK_R1CS_EINVAL);
  CHECK(cuzk_cs_num_aux(cs) == 2 && cuzk_cs_num_constraints(cs) == 0);
  c.path[1].index = 3;
  CHECK(cuzk_gadget_por(cs, &c.shape, &leaf, &root, c.path) == CUZK_R1CS_OK);
  cuzk_cs_destroy(cs);
  /* cuzk_por_levels */
  cuzk_por_shape sh = shape(CUZK_POR_POSEIDON, 8, 8, 2, 9, false);
  CHECK(cuzk_por_levels(&sh) == 11);
  sh.top_arity = 0;
  CHECK(cuzk_por_levels(&sh) == 10);
}

int main(void) {
  test_costs();
  test_por_circuit_counts();
  test_trees();
  test_sha256_leaves();
  test_invalid();
  return check_summary("test_gadget_por");
}
