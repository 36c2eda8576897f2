/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Groth16 files and encodings: .params/.vk round trips, every reader error with its location,
 * subgroup and identity rules, a cancelled read, a mutation fuzz loop, proofs, Filecoin file
 * names, shapes. */
#define _GNU_SOURCE /* mkdtemp */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cuzk/groth16/groth16.h"
#include "cuzk/r1cs/r1cs.h"
#include "groth16/g16_internal.h"
#include "rng.h"

#define G1U CUZK_G1_UNCOMPRESSED_BYTES
#define G2U CUZK_G2_UNCOMPRESSED_BYTES

static uint64_t seed = 0x6731366f696f;
static cuzk_pool *pool;

static void rand_g1(cuzk_g1_affine *r) {
  cuzk_g1 g, p;
  cuzk_fr k;
  rng_fr(&seed, &k);
  cuzk_g1_generator(&g);
  cuzk_g1_mul(&p, &g, &k);
  cuzk_g1_to_affine(r, &p);
}

static void rand_g2(cuzk_g2_affine *r) {
  cuzk_g2 g, p;
  cuzk_fr k;
  rng_fr(&seed, &k);
  cuzk_g2_generator(&g);
  cuzk_g2_mul(&p, &g, &k);
  cuzk_g2_to_affine(r, &p);
}

/* On the curve but outside the subgroup: a random x with a square x^3 + b (no cofactor
 * clearing); the compressed decoder without the subgroup check finds y. */
static void bad_subgroup_g1(uint8_t out[G1U]) {
  for (;;) {
    uint8_t c[CUZK_G1_COMPRESSED_BYTES];
    for (size_t i = 0; i < sizeof c; i++)
      c[i] = (uint8_t)rng_next(&seed);
    c[0] = 0x80 | (c[0] & 0x0f); /* compressed, x < p */
    cuzk_g1_affine a;
    if (cuzk_g1_from_compressed_unchecked(&a, c) != CUZK_EC_OK) continue;
    if (cuzk_g1_affine_is_in_subgroup(&a)) continue;
    cuzk_g1_to_uncompressed(out, &a);
    return;
  }
}

static void bad_subgroup_g2(uint8_t out[G2U]) {
  for (;;) {
    uint8_t c[CUZK_G2_COMPRESSED_BYTES];
    for (size_t i = 0; i < sizeof c; i++)
      c[i] = (uint8_t)rng_next(&seed);
    c[0] = 0x80 | (c[0] & 0x0f);
    c[48] &= 0x0f;
    cuzk_g2_affine a;
    if (cuzk_g2_from_compressed_unchecked(&a, c) != CUZK_EC_OK) continue;
    if (cuzk_g2_affine_is_in_subgroup(&a)) continue;
    cuzk_g2_to_uncompressed(out, &a);
    return;
  }
}

static cuzk_g16_params *make_params(size_t n_ic, size_t n_h, size_t n_l, size_t n_a, size_t n_b) {
  cuzk_g16_params *p = g16_params_alloc(n_ic, n_h, n_l, n_a, n_b, n_b);
  if (!p) abort();
  rand_g1(&p->vk.alpha_g1);
  rand_g1(&p->vk.beta_g1);
  rand_g2(&p->vk.beta_g2);
  rand_g2(&p->vk.gamma_g2);
  rand_g1(&p->vk.delta_g1);
  rand_g2(&p->vk.delta_g2);
  for (size_t i = 0; i < n_ic; i++)
    rand_g1(&p->vk.ic[i]);
  for (size_t i = 0; i < n_h; i++)
    rand_g1(&p->h[i]);
  for (size_t i = 0; i < n_l; i++)
    rand_g1(&p->l[i]);
  for (size_t i = 0; i < n_a; i++)
    rand_g1(&p->a[i]);
  for (size_t i = 0; i < n_b; i++)
    rand_g1(&p->b_g1[i]);
  for (size_t i = 0; i < n_b; i++)
    rand_g2(&p->b_g2[i]);
  return p;
}

static uint8_t *serialize(const cuzk_g16_params *p, size_t *len) {
  *len = cuzk_g16_params_size(p);
  uint8_t *b = malloc(*len + 1);
  if (!b) abort();
  cuzk_g16_params_write(b, p);
  return b;
}

static bool g1v_eq(const cuzk_g1_affine *x, const cuzk_g1_affine *y, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!cuzk_g1_affine_eq(&x[i], &y[i])) return false;
  return true;
}

static bool g2v_eq(const cuzk_g2_affine *x, const cuzk_g2_affine *y, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!cuzk_g2_affine_eq(&x[i], &y[i])) return false;
  return true;
}

static bool vk_eq(const cuzk_g16_vk *x, const cuzk_g16_vk *y) {
  return cuzk_g1_affine_eq(&x->alpha_g1, &y->alpha_g1) &&
         cuzk_g1_affine_eq(&x->beta_g1, &y->beta_g1) &&
         cuzk_g2_affine_eq(&x->beta_g2, &y->beta_g2) &&
         cuzk_g2_affine_eq(&x->gamma_g2, &y->gamma_g2) &&
         cuzk_g1_affine_eq(&x->delta_g1, &y->delta_g1) &&
         cuzk_g2_affine_eq(&x->delta_g2, &y->delta_g2) && x->n_ic == y->n_ic &&
         g1v_eq(x->ic, y->ic, x->n_ic);
}

static bool params_eq(const cuzk_g16_params *x, const cuzk_g16_params *y) {
  return vk_eq(&x->vk, &y->vk) && x->n_h == y->n_h && x->n_l == y->n_l && x->n_a == y->n_a &&
         x->n_b1 == y->n_b1 && x->n_b2 == y->n_b2 && g1v_eq(x->h, y->h, x->n_h) &&
         g1v_eq(x->l, y->l, x->n_l) && g1v_eq(x->a, y->a, x->n_a) &&
         g1v_eq(x->b_g1, y->b_g1, x->n_b1) && g2v_eq(x->b_g2, y->b_g2, x->n_b2);
}

/* Byte layout of a parameter set, computed independently of the library. */
enum { V_IC, V_H, V_L, V_A, V_B1, V_B2, V_N };
static const char *const vname[V_N] = {"ic", "h", "l", "a", "b_g1", "b_g2"};
static const char *const fixed_name[6] = {"alpha_g1", "beta_g1",  "beta_g2",
                                          "gamma_g2", "delta_g1", "delta_g2"};
static const size_t fixed_off[7] = {0, 96, 192, 384, 576, 672, 864};

typedef struct {
  size_t count_off[V_N], data_off[V_N], n[V_N], end;
} lay;

static lay layout_of(const cuzk_g16_params *p) {
  lay L;
  size_t n[V_N] = {p->vk.n_ic, p->n_h, p->n_l, p->n_a, p->n_b1, p->n_b2};
  size_t pos = 864;
  for (int k = 0; k < V_N; k++) {
    L.n[k] = n[k];
    L.count_off[k] = pos;
    L.data_off[k] = pos + 4;
    pos += 4 + n[k] * (k == V_B2 ? G2U : G1U);
  }
  L.end = pos;
  return L;
}

static size_t elem_off(const lay *L, int k, size_t i) {
  return L->data_off[k] + i * (k == V_B2 ? G2U : G1U);
}

static void put_be32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

/* Reads buf as parameters (with and without the pool) and checks the error and location. */
static void expect_read(const uint8_t *buf, size_t len, bool subgroup, cuzk_g16_err want,
                        size_t off, const char *what, size_t index, const char *label) {
  for (int par = 0; par < 2; par++) {
    cuzk_g16_read_opts o = {.check_subgroup = subgroup, .pool = par ? pool : NULL};
    cuzk_g16_read_error err = {0};
    cuzk_g16_params *p = NULL;
    cuzk_g16_err e = cuzk_g16_params_read(&p, buf, len, &o, &err);
    CHECK_MSG(e == want, "%s: got %s, want %s", label, cuzk_g16_strerror(e),
              cuzk_g16_strerror(want));
    if (e == CUZK_G16_OK) {
      CHECK(p != NULL);
      cuzk_g16_params_free(p);
      continue;
    }
    CHECK(p == NULL);
    if (!what) continue;
    CHECK_MSG(err.offset == off && err.what && !strcmp(err.what, what) && err.index == index,
              "%s: at %zu %s[%zu], want %zu %s[%zu]", label, err.offset,
              err.what ? err.what : "(null)", err.index, off, what, index);
  }
}

static void test_round_trip(void) {
  cuzk_g16_params *p = make_params(3, 7, 5, 6, 4);
  size_t len;
  uint8_t *buf = serialize(p, &len);
  lay L = layout_of(p);
  CHECK(len == L.end);
  CHECK(cuzk_g16_vk_size(&p->vk) == 864 + 4 + 3 * 96);

  for (int par = 0; par < 2; par++)
    for (int sub = 0; sub < 2; sub++) {
      cuzk_g16_read_opts o = {.check_subgroup = sub, .pool = par ? pool : NULL};
      cuzk_g16_params *q = NULL;
      CHECK(cuzk_g16_params_read(&q, buf, len, &o, NULL) == CUZK_G16_OK);
      if (!q) continue;
      CHECK(params_eq(p, q));
      size_t len2;
      uint8_t *buf2 = serialize(q, &len2);
      CHECK(len2 == len && !memcmp(buf, buf2, len));
      free(buf2);
      cuzk_g16_params_free(q);
    }

  /* The .vk is the prefix of the .params. */
  size_t vlen = cuzk_g16_vk_size(&p->vk);
  uint8_t *vbuf = malloc(vlen);
  cuzk_g16_vk_write(vbuf, &p->vk);
  CHECK(!memcmp(vbuf, buf, vlen));
  cuzk_g16_vk *vk = NULL;
  CHECK(cuzk_g16_vk_read(&vk, vbuf, vlen, NULL) == CUZK_G16_OK);
  CHECK(vk && vk_eq(vk, &p->vk));
  cuzk_g16_vk_free(vk);
  cuzk_g16_read_error err;
  CHECK(cuzk_g16_vk_read(&vk, buf, len, &err) == CUZK_G16_ETRAILING);
  CHECK(vk == NULL && err.offset == vlen && !strcmp(err.what, "file"));
  CHECK(cuzk_g16_vk_read(&vk, vbuf, vlen - 1, &err) == CUZK_G16_ETRUNCATED);
  CHECK(cuzk_g16_vk_read(&vk, vbuf, 0, &err) == CUZK_G16_ETRUNCATED);
  CHECK(!strcmp(err.what, "alpha_g1") && err.offset == 0);

  /* Files: written atomically, read back by mmap. */
  char dir[] = "/tmp/cuzk_g16_io_XXXXXX";
  if (mkdtemp(dir)) {
    char pp[64], vp[64], np[64];
    snprintf(pp, sizeof pp, "%s/x.params", dir);
    snprintf(vp, sizeof vp, "%s/x.vk", dir);
    snprintf(np, sizeof np, "%s/none.params", dir);
    CHECK(cuzk_g16_params_write_file(p, pp) == CUZK_G16_OK);
    CHECK(cuzk_g16_params_write_file(p, pp) == CUZK_G16_OK); /* over an existing file */
    CHECK(cuzk_g16_vk_write_file(&p->vk, vp) == CUZK_G16_OK);
    cuzk_g16_params *q = NULL;
    cuzk_g16_read_opts o = {.check_subgroup = true, .pool = pool};
    CHECK(cuzk_g16_params_read_file(&q, pp, &o, NULL) == CUZK_G16_OK);
    CHECK(q && params_eq(p, q));
    cuzk_g16_params_free(q);
    _Atomic int stop; /* a cancelled read (the engine's abandoned load): nothing returned */
    atomic_init(&stop, 1);
    o.cancel = &stop;
    CHECK(cuzk_g16_params_read_file(&q, pp, &o, NULL) == CUZK_G16_ECANCELLED && q == NULL);
    o.cancel = NULL;
    CHECK(cuzk_g16_vk_read_file(&vk, vp, NULL) == CUZK_G16_OK);
    CHECK(vk && vk_eq(vk, &p->vk));
    cuzk_g16_vk_free(vk);
    CHECK(cuzk_g16_vk_read_file(&vk, pp, NULL) == CUZK_G16_ETRAILING);
    CHECK(cuzk_g16_params_read_file(&q, np, NULL, NULL) == CUZK_G16_EIO && q == NULL);
    CHECK(cuzk_g16_params_read_file(&q, dir, NULL, NULL) == CUZK_G16_EIO);
    FILE *f = fopen(np, "wb"); /* empty file: truncated, not an I/O error */
    if (f) fclose(f);
    CHECK(cuzk_g16_params_read_file(&q, np, NULL, NULL) == CUZK_G16_ETRUNCATED);
    char bad[80];
    snprintf(bad, sizeof bad, "%s/no/such/dir/x.params", dir);
    CHECK(cuzk_g16_params_write_file(p, bad) == CUZK_G16_EIO);
    unlink(pp);
    unlink(vp);
    unlink(np);
    CHECK(rmdir(dir) == 0); /* no temporary file left behind */
  }

  CHECK(cuzk_g16_params_read(NULL, buf, len, NULL, NULL) == CUZK_G16_EINVAL);
  free(vbuf);
  free(buf);
  cuzk_g16_params_free(p);
}

static void test_structure_errors(void) {
  cuzk_g16_params *p = make_params(3, 7, 5, 6, 4);
  size_t len;
  uint8_t *buf = serialize(p, &len);
  lay L = layout_of(p);
  char label[96];

  /* Truncation at every boundary +-1 and at random offsets: ETRUNCATED with the right item. */
  size_t cuts[64], nc = 0;
  for (int i = 0; i < 7; i++)
    cuts[nc++] = fixed_off[i];
  for (int k = 0; k < V_N; k++) {
    cuts[nc++] = L.count_off[k];
    cuts[nc++] = L.count_off[k] + 2;
    cuts[nc++] = L.data_off[k];
    cuts[nc++] = elem_off(&L, k, L.n[k] / 2) + 7;
  }
  cuts[nc++] = L.end;
  for (size_t c = 0; c < nc; c++)
    for (int d = -1; d <= 1; d++) {
      size_t cut = cuts[c] + (size_t)d;
      if (cut >= len) continue;
      snprintf(label, sizeof label, "truncated at %zu", cut);
      expect_read(buf, cut, false, CUZK_G16_ETRUNCATED, 0, NULL, 0, label);
    }
  for (int i = 0; i < 200; i++) {
    size_t cut = rng_next(&seed) % len;
    snprintf(label, sizeof label, "truncated at %zu", cut);
    expect_read(buf, cut, false, CUZK_G16_ETRUNCATED, 0, NULL, 0, label);
  }
  /* Locations: inside a fixed point, inside a count, inside a vector. */
  expect_read(buf, 700, false, CUZK_G16_ETRUNCATED, 672, "delta_g2", 0, "cut in delta_g2");
  expect_read(buf, L.count_off[V_L] + 3, false, CUZK_G16_ETRUNCATED, L.count_off[V_L], "l", 0,
              "cut in l's count");
  expect_read(buf, elem_off(&L, V_A, 2) + 95, false, CUZK_G16_ETRUNCATED, elem_off(&L, V_A, 2), "a",
              2, "cut in a[2]");
  expect_read(buf, elem_off(&L, V_B2, 3) + 1, false, CUZK_G16_ETRUNCATED, elem_off(&L, V_B2, 3),
              "b_g2", 3, "cut in b_g2[3]");

  /* One byte too many. */
  buf[len] = 0;
  expect_read(buf, len + 1, false, CUZK_G16_ETRAILING, len, "file", 0, "trailing byte");

  /* Counts. */
  uint8_t *m = malloc(len);
  struct {
    int k;
    uint32_t v;
    cuzk_g16_err want;
  } counts[] = {
      {V_IC, 0, CUZK_G16_ECOUNT},              /* ONE is always an input */
      {V_H, 6, CUZK_G16_ECOUNT},               /* |h| + 1 must be a power of two */
      {V_H, 0xffffffffu, CUZK_G16_ETRUNCATED}, /* 2^32 - 1: a power-of-two domain, too long */
      {V_B2, 3, CUZK_G16_ECOUNT},              /* b_g2 and b_g1 list the same variables */
      {V_B2, 5, CUZK_G16_ECOUNT},
      {V_IC, 0xffffffffu, CUZK_G16_ETRUNCATED},
      {V_L, 0x10000000u, CUZK_G16_ETRUNCATED},
      {V_A, 1000, CUZK_G16_ETRUNCATED},
      {V_B1, 0xffffffffu, CUZK_G16_ETRUNCATED},
  };
  for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
    memcpy(m, buf, len);
    int k = counts[i].k;
    put_be32(m + L.count_off[k], counts[i].v);
    snprintf(label, sizeof label, "%s count %u", vname[k], counts[i].v);
    bool at_count = counts[i].want == CUZK_G16_ECOUNT;
    size_t sz = k == V_B2 ? G2U : G1U, avail = (len - L.data_off[k]) / sz;
    expect_read(m, len, false, counts[i].want,
                at_count ? L.count_off[k] : L.data_off[k] + avail * sz, vname[k],
                at_count ? 0 : avail, label);
  }
  /* Any count off by one is an error of some kind. */
  for (int k = 0; k < V_N; k++)
    for (int d = -1; d <= 1; d += 2) {
      memcpy(m, buf, len);
      put_be32(m + L.count_off[k], (uint32_t)(L.n[k] + (size_t)d));
      cuzk_g16_params *q = NULL;
      cuzk_g16_err e = cuzk_g16_params_read(&q, m, len, NULL, NULL);
      CHECK_MSG(e != CUZK_G16_OK && q == NULL, "%s count %+d accepted", vname[k], d);
    }
  free(m);
  free(buf);
  cuzk_g16_params_free(p);
}

/* Replaces one point and expects want at its location (with and without check_subgroup, with
 * want_sub when subgroup checks are on). */
static void point_case(const uint8_t *buf, size_t len, size_t off, const uint8_t *pt, size_t sz,
                       cuzk_g16_err want_nosub, cuzk_g16_err want_sub, const char *what,
                       size_t index) {
  uint8_t *m = malloc(len);
  memcpy(m, buf, len);
  memcpy(m + off, pt, sz);
  char label[96];
  snprintf(label, sizeof label, "%s[%zu] nosub", what, index);
  expect_read(m, len, false, want_nosub, off, what, index, label);
  snprintf(label, sizeof label, "%s[%zu] sub", what, index);
  expect_read(m, len, true, want_sub, off, what, index, label);
  free(m);
}

static void test_point_errors(void) {
  cuzk_g16_params *p = make_params(3, 7, 5, 6, 4);
  size_t len;
  uint8_t *buf = serialize(p, &len);
  lay L = layout_of(p);
  uint8_t bad1[G1U], bad2[G2U], inf1[G1U] = {0x40}, inf2[G2U] = {0x40};
  bad_subgroup_g1(bad1);
  bad_subgroup_g2(bad2);

  /* The fixed VK points: always fully checked; the identity is accepted (bellperson). */
  for (int i = 0; i < 6; i++) {
    size_t off = fixed_off[i], sz = fixed_off[i + 1] - off;
    bool g2 = sz == G2U;
    uint8_t pt[G2U];
    memcpy(pt, buf + off, sz);
    pt[sz - 1] ^= 1; /* y's lowest bit: off the curve */
    point_case(buf, len, off, pt, sz, CUZK_G16_EPOINT, CUZK_G16_EPOINT, fixed_name[i], 0);
    memcpy(pt, buf + off, sz);
    pt[0] |= 0x80; /* compressed flag in an uncompressed encoding */
    point_case(buf, len, off, pt, sz, CUZK_G16_EPOINT, CUZK_G16_EPOINT, fixed_name[i], 0);
    point_case(buf, len, off, g2 ? bad2 : bad1, sz, CUZK_G16_ESUBGROUP, CUZK_G16_ESUBGROUP,
               fixed_name[i], 0);
    point_case(buf, len, off, g2 ? inf2 : inf1, sz, CUZK_G16_OK, CUZK_G16_OK, fixed_name[i], 0);
    uint8_t junk_inf[G2U] = {0x40};
    junk_inf[sz - 1] = 1; /* infinity flag with coordinate bits */
    point_case(buf, len, off, junk_inf, sz, CUZK_G16_EPOINT, CUZK_G16_EPOINT, fixed_name[i], 0);
  }
  /* The vectors: ic fully checked; the others subgroup-checked only on request; no identity. */
  for (int k = 0; k < V_N; k++) {
    size_t sz = k == V_B2 ? G2U : G1U;
    for (size_t idx = 0; idx<L.n[k]; idx += L.n[k] - 1> 0 ? L.n[k] - 1 : 1) {
      size_t off = elem_off(&L, k, idx);
      uint8_t pt[G2U];
      memcpy(pt, buf + off, sz);
      pt[sz - 1] ^= 1;
      point_case(buf, len, off, pt, sz, CUZK_G16_EPOINT, CUZK_G16_EPOINT, vname[k], idx);
      memset(pt, 0xff, sz); /* coordinates >= p (and every flag) */
      pt[0] = 0x1f;
      point_case(buf, len, off, pt, sz, CUZK_G16_EPOINT, CUZK_G16_EPOINT, vname[k], idx);
      point_case(buf, len, off, sz == G2U ? bad2 : bad1, sz,
                 k == V_IC ? CUZK_G16_ESUBGROUP : CUZK_G16_OK, CUZK_G16_ESUBGROUP, vname[k], idx);
      point_case(buf, len, off, sz == G2U ? inf2 : inf1, sz, CUZK_G16_EINFINITY, CUZK_G16_EINFINITY,
                 vname[k], idx);
    }
  }
  /* Several bad points in one vector: the lowest index is reported, pool or not. */
  uint8_t *m = malloc(len);
  memcpy(m, buf, len);
  for (size_t idx = 2; idx < 7; idx += 2)
    m[elem_off(&L, V_H, idx) + G1U - 1] ^= 1;
  memcpy(m + elem_off(&L, V_B2, 1), inf2, G2U); /* later vectors do not matter */
  expect_read(m, len, false, CUZK_G16_EPOINT, elem_off(&L, V_H, 2), "h", 2, "lowest bad h");
  /* A larger set through the pool: one bad point near the end of a long vector. */
  cuzk_g16_params *big = make_params(1, 255, 300, 2, 1);
  size_t blen;
  uint8_t *bbuf = serialize(big, &blen);
  lay BL = layout_of(big);
  bbuf[elem_off(&BL, V_L, 299) + G1U - 1] ^= 1;
  bbuf[elem_off(&BL, V_L, 250) + G1U - 1] ^= 1;
  expect_read(bbuf, blen, false, CUZK_G16_EPOINT, elem_off(&BL, V_L, 250), "l", 250, "big l");
  free(bbuf);
  cuzk_g16_params_free(big);

  /* A VK-only read applies the VK rules. */
  size_t vlen = cuzk_g16_vk_size(&p->vk);
  memcpy(m, buf, vlen);
  memcpy(m + L.data_off[V_IC] + G1U, inf1, G1U);
  cuzk_g16_vk *vk = NULL;
  cuzk_g16_read_error err;
  CHECK(cuzk_g16_vk_read(&vk, m, vlen, &err) == CUZK_G16_EINFINITY && vk == NULL);
  CHECK(!strcmp(err.what, "ic") && err.index == 1 && err.offset == L.data_off[V_IC] + G1U);
  memcpy(m, buf, vlen);
  memcpy(m + fixed_off[3], bad2, G2U);
  CHECK(cuzk_g16_vk_read(&vk, m, vlen, &err) == CUZK_G16_ESUBGROUP && vk == NULL);
  CHECK(!strcmp(err.what, "gamma_g2") && err.offset == fixed_off[3]);
  free(m);
  free(buf);
  cuzk_g16_params_free(p);
}

/* Random bit flips, byte writes, truncations and extensions of a small valid file: every read
 * returns OK or an error, and whatever reads OK writes back to the same bytes (the uncompressed
 * encoding is canonical). */
static void test_fuzz(void) {
  cuzk_g16_params *p = make_params(1, 1, 1, 1, 1);
  size_t len;
  uint8_t *buf = serialize(p, &len);
  uint8_t *m = malloc(len + 64);
  lay L = layout_of(p);
  uint8_t bad1[G1U], inf1[G1U] = {0x40};
  bad_subgroup_g1(bad1);
  unsigned ok = 0, errs[CUZK_G16_ERANDOM + 1] = {0};
  for (int it = 0; it < 3000; it++) {
    memcpy(m, buf, len);
    size_t mlen = len;
    unsigned nmut = 1 + (unsigned)(rng_next(&seed) % 3);
    for (unsigned j = 0; j < nmut; j++) {
      uint64_t r = rng_next(&seed);
      switch (r % 10) {
      case 0:
      case 1:
      case 2: m[(r >> 8) % mlen] ^= (uint8_t)(1u << ((r >> 40) % 8)); break;
      case 3: m[(r >> 8) % mlen] = (uint8_t)(r >> 40); break;
      case 4: mlen = (r >> 8) % (mlen + 1); break;
      case 5:
        if (mlen < len + 64) m[mlen++] = (uint8_t)(r >> 8);
        break;
      case 6: m[(r >> 8) % 4 + 864 + (r >> 16) % 2 * (4 + G1U)] ^= (uint8_t)(r >> 40); break;
      case 7: m[((r >> 8) % mlen) & ~(size_t)0x3f] ^= 0xe0; break; /* flag bits */
      case 8:
      case 9: { /* the identity or a point outside the subgroup as one G1 element */
        int k = (int)((r >> 8) % V_B2);
        size_t off = elem_off(&L, k, 0);
        if (off + G1U <= mlen) memcpy(m + off, r % 10 == 8 ? inf1 : bad1, G1U);
        break;
      }
      }
      if (mlen == 0) break;
    }
    cuzk_g16_read_opts o = {.check_subgroup = it & 1, .pool = it % 3 == 0 ? pool : NULL};
    cuzk_g16_params *q = NULL;
    cuzk_g16_read_error err = {0};
    cuzk_g16_err e = cuzk_g16_params_read(&q, mlen ? m : NULL, mlen, &o, &err);
    CHECK_MSG(e <= CUZK_G16_ERANDOM, "fuzz %d: code %d", it, (int)e);
    if (e > CUZK_G16_ERANDOM) continue;
    errs[e]++;
    if (e == CUZK_G16_OK) {
      ok++;
      size_t len2;
      uint8_t *b2 = serialize(q, &len2);
      CHECK_MSG(len2 == mlen && !memcmp(b2, m, mlen), "fuzz %d: accepted, not canonical", it);
      free(b2);
      cuzk_g16_params_free(q);
    } else {
      CHECK(q == NULL && err.what != NULL && err.offset <= mlen);
    }
    cuzk_g16_vk *vk = NULL;
    e = cuzk_g16_vk_read(&vk, mlen ? m : NULL, mlen < 964 ? mlen : 964, &err);
    CHECK(e <= CUZK_G16_ERANDOM && (e == CUZK_G16_OK) == (vk != NULL));
    cuzk_g16_vk_free(vk);
  }
  printf("fuzz: %u accepted; truncated %u, trailing %u, count %u, point %u, subgroup %u, "
         "infinity %u\n",
         ok, errs[CUZK_G16_ETRUNCATED], errs[CUZK_G16_ETRAILING], errs[CUZK_G16_ECOUNT],
         errs[CUZK_G16_EPOINT], errs[CUZK_G16_ESUBGROUP], errs[CUZK_G16_EINFINITY]);
  CHECK(errs[CUZK_G16_ETRUNCATED] && errs[CUZK_G16_EPOINT] && errs[CUZK_G16_ECOUNT]);
  free(m);
  free(buf);
  cuzk_g16_params_free(p);
}

static void test_proofs(void) {
  cuzk_g16_proof pr[3];
  for (int i = 0; i < 3; i++) {
    rand_g1(&pr[i].a);
    rand_g2(&pr[i].b);
    rand_g1(&pr[i].c);
  }
  uint8_t b[3 * CUZK_G16_PROOF_BYTES];
  for (int i = 0; i < 3; i++)
    cuzk_g16_proof_write(b + i * CUZK_G16_PROOF_BYTES, &pr[i]);
  cuzk_g16_proof q[3];
  CHECK(cuzk_g16_proof_read(&q[0], b) == CUZK_G16_OK);
  CHECK(cuzk_g1_affine_eq(&q[0].a, &pr[0].a) && cuzk_g2_affine_eq(&q[0].b, &pr[0].b) &&
        cuzk_g1_affine_eq(&q[0].c, &pr[0].c));
  /* Compressed flags: A and C at bytes 0 and 144, B at byte 48. */
  CHECK((b[0] & 0x80) && (b[48] & 0x80) && (b[144] & 0x80));
  CHECK(cuzk_g16_proofs_read(q, 3, b, sizeof b) == CUZK_G16_OK);
  for (int i = 0; i < 3; i++)
    CHECK(cuzk_g1_affine_eq(&q[i].a, &pr[i].a) && cuzk_g2_affine_eq(&q[i].b, &pr[i].b) &&
          cuzk_g1_affine_eq(&q[i].c, &pr[i].c));
  CHECK(cuzk_g16_proofs_read(q, 3, b, sizeof b - 1) == CUZK_G16_ECOUNT);
  CHECK(cuzk_g16_proofs_read(q, 2, b, sizeof b) == CUZK_G16_ECOUNT);
  CHECK(cuzk_g16_proofs_read(q, 4, b, sizeof b) == CUZK_G16_ECOUNT);
  CHECK(cuzk_g16_proofs_read(q, 0, b, 0) == CUZK_G16_OK);

  /* A flipped bit: rejected, or a different proof. */
  for (int t = 0; t < 300; t++) {
    uint8_t f[CUZK_G16_PROOF_BYTES];
    memcpy(f, b, sizeof f);
    static const size_t flag_byte[3] = {0, 48, 144};
    size_t bit = t < 24 ? flag_byte[t / 8] * 8 + (size_t)t % 8 /* every bit of the flag bytes */
                        : (size_t)(rng_next(&seed) % (8 * sizeof f));
    f[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    cuzk_g16_proof x;
    cuzk_g16_err e = cuzk_g16_proof_read(&x, f);
    bool same = e == CUZK_G16_OK && cuzk_g1_affine_eq(&x.a, &pr[0].a) &&
                cuzk_g2_affine_eq(&x.b, &pr[0].b) && cuzk_g1_affine_eq(&x.c, &pr[0].c);
    CHECK_MSG(!same, "bit %zu flipped, same proof", bit);
  }
  /* The identity in A, B or C. */
  for (int w = 0; w < 3; w++) {
    cuzk_g16_proof z = pr[0];
    if (w == 0) memset(&z.a, 0, sizeof z.a);
    if (w == 1) memset(&z.b, 0, sizeof z.b);
    if (w == 2) memset(&z.c, 0, sizeof z.c);
    uint8_t f[CUZK_G16_PROOF_BYTES];
    cuzk_g16_proof_write(f, &z);
    CHECK(f[w == 0 ? 0 : w == 1 ? 48 : 144] == 0xc0);
    cuzk_g16_proof x;
    CHECK(cuzk_g16_proof_read(&x, f) == CUZK_G16_EINFINITY);
    memcpy(b + CUZK_G16_PROOF_BYTES, f, sizeof f);
    CHECK(cuzk_g16_proofs_read(q, 3, b, sizeof b) == CUZK_G16_EINFINITY);
  }
  /* A point outside the subgroup in B. */
  uint8_t u[G2U], f[CUZK_G16_PROOF_BYTES];
  bad_subgroup_g2(u);
  cuzk_g2_affine nb;
  CHECK(cuzk_g2_from_uncompressed_unchecked(&nb, u) == CUZK_EC_OK);
  cuzk_g16_proof z = pr[0];
  z.b = nb;
  cuzk_g16_proof_write(f, &z);
  CHECK(cuzk_g16_proof_read(&q[0], f) == CUZK_G16_ESUBGROUP);
}

static void test_naming(void) {
  static const char *id32 =
      "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: 8 "
      "base_graph: drgraph::BucketGraph{size: 1073741824; degree: 6; hasher: poseidon_hasher} }, "
      "challenges: LayerChallenges { layers: 11, max_count: 18 }, tree: "
      "merkletree-poseidon_hasher-8-8-0 }";
  static const char *id2k =
      "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: 8 "
      "base_graph: drgraph::BucketGraph{size: 64; degree: 6; hasher: poseidon_hasher} }, "
      "challenges: LayerChallenges { layers: 2, max_count: 2 }, tree: "
      "merkletree-poseidon_hasher-8-0-0 }";
  const char *pre32 = "stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher";
  const char *pre2k = "stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher";
  char id[256], name[300];
  CHECK(cuzk_g16_cache_id(id, sizeof id, pre32, id32) == CUZK_G16_OK);
  CHECK(!strcmp(id, "stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
                    "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820"));
  CHECK(cuzk_g16_file_name(name, sizeof name, id, "params") == CUZK_G16_OK);
  CHECK(!strcmp(name, "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-"
                      "sha256_hasher-82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef"
                      "7820.params"));
  CHECK(cuzk_g16_file_name(name, sizeof name, id, ".vk") == CUZK_G16_OK);
  CHECK(!strcmp(name, "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-"
                      "sha256_hasher-82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef"
                      "7820.vk"));
  CHECK(cuzk_g16_cache_id(id, sizeof id, pre2k, id2k) == CUZK_G16_OK);
  CHECK(cuzk_g16_file_name(name, sizeof name, id, "params") == CUZK_G16_OK);
  CHECK(!strcmp(name, "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-"
                      "sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06"
                      "832f.params"));
  /* Buffers: exactly enough works, one byte less is EINVAL. */
  size_t need = strlen(pre2k) + 1 + 64 + 1;
  CHECK(cuzk_g16_cache_id(id, need, pre2k, id2k) == CUZK_G16_OK);
  CHECK(cuzk_g16_cache_id(id, need - 1, pre2k, id2k) == CUZK_G16_EINVAL && id[0] == 0);
  CHECK(cuzk_g16_cache_id(id, 0, pre2k, id2k) == CUZK_G16_EINVAL);
  CHECK(cuzk_g16_cache_id(id, sizeof id, NULL, id2k) == CUZK_G16_EINVAL);
  CHECK(cuzk_g16_file_name(name, 13, "abc", "meta") == CUZK_G16_OK &&
        !strcmp(name, "v28-abc.meta"));
  CHECK(cuzk_g16_file_name(name, 13, "abcd", "meta") == CUZK_G16_EINVAL && name[0] == 0);
  /* .meta: exactly rust-fil-proofs' JSON, plus the test-parameter note when asked */
  char meta[] = "/tmp/cuzk-meta-XXXXXX";
  int fd = mkstemp(meta);
  CHECK(fd >= 0);
  if (fd >= 0) {
    close(fd);
    char buf[512] = {0};
    CHECK(cuzk_g16_meta_write_file(meta, 34359738368ULL, false) == CUZK_G16_OK);
    FILE *f = fopen(meta, "r");
    size_t got = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f) fclose(f);
    CHECK(got == strlen(buf) && !strcmp(buf, "{\"sector_size\":34359738368}"));
    CHECK(cuzk_g16_meta_write_file(meta, 2048, true) == CUZK_G16_OK);
    memset(buf, 0, sizeof buf);
    f = fopen(meta, "r");
    got = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f) fclose(f);
    CHECK(!strncmp(buf, "{\"sector_size\":2048,\"cuzk_note\":\"TEST PARAMETERS", 48) &&
          buf[got - 1] == '}');
    unlink(meta);
  }
}

static void test_shape(void) {
  CHECK(cuzk_g16_domain_size(0) == 1 && cuzk_g16_domain_size(1) == 1);
  CHECK(cuzk_g16_domain_size(2) == 2 && cuzk_g16_domain_size(3) == 4);
  CHECK(cuzk_g16_domain_size(130278869) == (size_t)1 << 27);
  CHECK(cuzk_g16_domain_size((size_t)1 << 27) == (size_t)1 << 27);
  CHECK(cuzk_g16_domain_size(((size_t)1 << 27) + 1) == 0);

  cuzk_g16_params *p = make_params(3, 7, 5, 6, 4);
  cuzk_g16_shape s = {.num_inputs = 3,
                      .num_aux = 5,
                      .num_constraints = 6,
                      .a_aux_density = 3,
                      .b_input_density = 1,
                      .b_aux_density = 3};
  CHECK(cuzk_g16_params_check_shape(p, &s) == CUZK_G16_OK);
  s.num_constraints = 8;
  CHECK(cuzk_g16_params_check_shape(p, &s) == CUZK_G16_OK);
  s.num_constraints = 9; /* m = 16 */
  CHECK(cuzk_g16_params_check_shape(p, &s) == CUZK_G16_ECOUNT);
  s.num_constraints = 4; /* m = 4 */
  CHECK(cuzk_g16_params_check_shape(p, &s) == CUZK_G16_ECOUNT);
  s.num_constraints = ((size_t)1 << 27) + 1;
  CHECK(cuzk_g16_params_check_shape(p, &s) == CUZK_G16_ESHAPE);
  s.num_constraints = 6;
  size_t *fields[] = {&s.num_inputs, &s.num_aux, &s.a_aux_density, &s.b_input_density,
                      &s.b_aux_density};
  for (size_t i = 0; i < 5; i++) {
    (*fields[i])++;
    CHECK_MSG(cuzk_g16_params_check_shape(p, &s) == CUZK_G16_ECOUNT, "shape field %zu", i);
    (*fields[i])--;
  }
  size_t *lens[] = {&p->vk.n_ic, &p->n_h, &p->n_l, &p->n_a, &p->n_b1, &p->n_b2};
  for (size_t i = 0; i < 6; i++) {
    (*lens[i])--;
    CHECK_MSG(cuzk_g16_params_check_shape(p, &s) == CUZK_G16_ECOUNT, "params length %zu", i);
    (*lens[i])++;
  }
  CHECK(cuzk_g16_params_check_shape(p, &s) == CUZK_G16_OK);
  cuzk_g16_params_free(p);

  /* shape_of on a PROVE system: x (input) * y = z; y * ONE = y. */
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, CUZK_CS_PROVE);
  cuzk_cs *cs = NULL;
  CHECK(cuzk_cs_create(&cs, &o) == CUZK_R1CS_OK);
  if (!cs) return;
  cuzk_fr two, three, six;
  cuzk_fr_from_u64(&two, 2);
  cuzk_fr_from_u64(&three, 3);
  cuzk_fr_from_u64(&six, 6);
  cuzk_var x = cuzk_cs_alloc_input(cs, &two);
  cuzk_var y = cuzk_cs_alloc(cs, &three);
  cuzk_var z = cuzk_cs_alloc(cs, &six);
  cuzk_lc a, b, c;
  cuzk_lc_init(&a, cs);
  cuzk_lc_init(&b, cs);
  cuzk_lc_init(&c, cs);
  cuzk_lc_add(&a, x, NULL);
  cuzk_lc_add(&b, y, NULL);
  cuzk_lc_add(&c, z, NULL);
  cuzk_cs_enforce(cs, "xy", &a, &b, &c);
  cuzk_lc_add(&a, y, NULL);
  cuzk_lc_add(&b, CUZK_VAR_ONE, NULL);
  cuzk_lc_add(&c, y, NULL);
  cuzk_cs_enforce(cs, "y1", &a, &b, &c);
  cuzk_g16_shape sh;
  CHECK(cuzk_g16_shape_of(&sh, cs) == CUZK_G16_OK);
  CHECK(sh.num_inputs == 2 && sh.num_aux == 2 && sh.num_constraints == 4);
  CHECK(sh.a_aux_density == 1 && sh.b_input_density == 1 && sh.b_aux_density == 1);
  /* The input constraints the prover appends change the count only, as assumed. */
  cuzk_cs_enforce_input_constraints(cs);
  cuzk_cs_result r;
  cuzk_cs_result_get(cs, &r);
  CHECK(r.num_constraints == 4 && r.a_aux.count == 1 && r.b_input.count == 1 && r.b_aux.count == 1);
  cuzk_cs_destroy(cs);
  cuzk_cs_opts_default(&o, CUZK_CS_RECORD);
  CHECK(cuzk_cs_create(&cs, &o) == CUZK_R1CS_OK);
  if (cs) {
    CHECK(cuzk_g16_shape_of(&sh, cs) == CUZK_G16_ESYNTH);
    cuzk_cs_destroy(cs);
  }
  CHECK(cuzk_g16_shape_of(&sh, NULL) == CUZK_G16_EINVAL);
}

static void test_strerror(void) {
  for (int e = CUZK_G16_OK; e <= CUZK_G16_ERANDOM; e++) {
    const char *s = cuzk_g16_strerror((cuzk_g16_err)e);
    CHECK(s && *s && strcmp(s, cuzk_g16_strerror((cuzk_g16_err)99)));
    for (int f = CUZK_G16_OK; f < e; f++)
      CHECK(strcmp(s, cuzk_g16_strerror((cuzk_g16_err)f)));
  }
}

int main(void) {
  if (cuzk_pool_create(&pool, 3) != CUZK_POOL_OK) pool = NULL;
  test_strerror();
  test_round_trip();
  test_structure_errors();
  test_point_errors();
  test_fuzz();
  test_proofs();
  test_naming();
  test_shape();
  cuzk_pool_destroy(pool);
  return check_summary("test_g16_io");
}
