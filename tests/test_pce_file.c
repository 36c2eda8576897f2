/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The .pce file (cuzk/r1cs/pce.h, docs/r1cs.md "The .pce file"): a recorded evaluator written and
 * read back gives the same matrices and the same a, b, c; every way a file can be wrong — missing,
 * another magic or version, another circuit, another tag (stale), truncated at every field of the
 * header and in the body, padded, a flipped body byte, counts that would allocate without bound,
 * a body whose digest was fixed up around an out-of-range column, a row's columns out of order or
 * repeated, a segment mark beyond the circuit — is refused with a message saying which, never
 * trusted. A read whose cancel flag is set, and a recording whose system's flag is, stop with
 * ECANCELLED and return nothing.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cuzk/hashes/sha256.h"
#include "cuzk/r1cs/pce.h"
#include "rng.h"
#include "smaps.h"

static uint64_t g_rng = 0x9ce5f11eULL;

static cuzk_r1cs_err constraints(cuzk_cs *cs, unsigned seg, void *ctx);

/* A random circuit: 3 inputs, 400 aux, 1500 constraints of 0-5 terms per side, coefficients
 * drawn from 1, -1, powers of two and random values; witness random (values kept or not). */
static void synth(cuzk_cs *cs) {
  uint64_t seed = g_rng;
  bool hv = cuzk_cs_has_values(cs);
  cuzk_var v[403];
  for (int i = 0; i < 403; i++) {
    cuzk_fr x;
    cuzk_fr_from_u64(&x, rng_next(&g_rng));
    v[i] = i < 3 ? cuzk_cs_alloc_input(cs, hv ? &x : NULL) : cuzk_cs_alloc(cs, hv ? &x : NULL);
  }
  cuzk_cs_segments(cs, 3, constraints, v, NULL); /* 3 x 500: the file keeps the 4 marks */
  g_rng = seed;                                  /* the same circuit and witness every time */
}

/* 500 random constraints over v (one segment of the circuit). */
static cuzk_r1cs_err constraints(cuzk_cs *cs, unsigned seg, void *ctx) {
  const cuzk_var *v = ctx;
  (void)seg;
  for (int c = 0; c < 500; c++) {
    cuzk_lc lc[3];
    cuzk_lc_init3(&lc[0], &lc[1], &lc[2], cs);
    for (int k = 0; k < 3; k++) {
      int terms = (int)(rng_next(&g_rng) % 6);
      for (int t = 0; t < terms; t++) {
        cuzk_fr k2;
        uint64_t kind = rng_next(&g_rng) % 4, r = rng_next(&g_rng);
        if (kind == 0)
          k2 = cuzk_fr_one;
        else if (kind == 1)
          cuzk_fr_neg(&k2, &cuzk_fr_one);
        else if (kind == 2)
          cuzk_fr_from_u64(&k2, (uint64_t)1 << (r % 64));
        else
          cuzk_fr_from_u64(&k2, r % 5000 + 2);
        cuzk_lc_add(&lc[k], v[rng_next(&g_rng) % 403], &k2);
      }
    }
    cuzk_cs_enforce(cs, "c", &lc[0], &lc[1], &lc[2]);
  }
  return CUZK_R1CS_OK;
}

static cuzk_cs *run_spill(cuzk_cs_mode mode, const char *spill_dir, size_t spill_bytes) {
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, mode);
  o.record_compact = mode == CUZK_CS_RECORD;
  o.spill_dir = spill_dir;
  o.spill_bytes = spill_bytes;
  cuzk_cs *cs = NULL;
  CHECK(cuzk_cs_create(&cs, &o) == CUZK_R1CS_OK);
  synth(cs);
  return cs;
}

static cuzk_cs *run(cuzk_cs_mode mode) {
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, mode);
  o.record_compact = mode == CUZK_CS_RECORD;
  cuzk_cs *cs = NULL;
  CHECK(cuzk_cs_create(&cs, &o) == CUZK_R1CS_OK);
  synth(cs);
  CHECK(cuzk_cs_finish(cs) == CUZK_R1CS_OK);
  return cs;
}

static bool same_matrices(const cuzk_pce *x, const cuzk_pce *y) {
  for (int k = 0; k < 3; k++) {
    cuzk_pce_matrix a, b;
    if (cuzk_pce_matrix_get(x, k, &a) || cuzk_pce_matrix_get(y, k, &b)) return false;
    if (a.rows != b.rows || a.nnz != b.nnz ||
        memcmp(a.row_ptr, b.row_ptr, (a.rows + 1) * sizeof(uint32_t)) ||
        memcmp(a.cols, b.cols, a.nnz * 4) || memcmp(a.coef, b.coef, a.nnz * 2))
      return false;
    for (size_t t = 0; t < a.nnz; t++)
      if (memcmp(&a.dict[a.coef[t]], &b.dict[b.coef[t]], sizeof(cuzk_fr))) return false;
  }
  return cuzk_pce_bytes(x) == cuzk_pce_bytes(y) &&
         cuzk_pce_num_coefficients(x) == cuzk_pce_num_coefficients(y);
}

typedef struct {
  uint8_t *p;
  size_t n;
} blob;

static blob slurp(const char *path) {
  blob b = {NULL, 0};
  FILE *f = fopen(path, "rb");
  if (!f) return b;
  fseek(f, 0, SEEK_END);
  b.n = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  b.p = malloc(b.n ? b.n : 1);
  if (fread(b.p, 1, b.n, f) != b.n) b.n = 0;
  fclose(f);
  return b;
}

static void spit(const char *path, const uint8_t *p, size_t n) {
  FILE *f = fopen(path, "wb");
  CHECK(f && fwrite(p, 1, n, f) == n);
  if (f) fclose(f);
}

/* the header's layout (pce_file.c): magic, version, size, circuit id, tag, body SHA-256, counts */
enum { HDR = 216, OFF_SHA = 120, OFF_COUNTS = 152, OFF_NDICT = 176, N_COUNTS = 8 };
/* version 3: every piece starts at a multiple of 64 bytes */
static size_t al64(size_t x) { return (x + 63) / 64 * 64; }

/* Reads path expecting a refusal whose message contains want. */
static void refused(const char *path, const uint8_t tag[32], const char *want, const char *what) {
  cuzk_pce *p = NULL;
  char msg[512] = "";
  cuzk_r1cs_err e = cuzk_pce_read_file(&p, path, "test-circuit", tag, NULL, msg, sizeof msg);
  CHECK_MSG(e != CUZK_R1CS_OK && p == NULL && strstr(msg, want) != NULL,
            "%s: error %d, message '%s', wanted '%s'", what, (int)e, msg, want);
  cuzk_pce_free(p);
}

int main(void) {
  char dir[] = "/tmp/cuzk-pce-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char path[256], bad[256];
  snprintf(path, sizeof path, "%s/c.pce", dir);
  snprintf(bad, sizeof bad, "%s/bad.pce", dir);
  uint8_t tag[32], other[32];
  cuzk_sha256(tag, "tag", 3);
  cuzk_sha256(other, "other", 5);

  cuzk_cs *rec = run(CUZK_CS_RECORD), *wit = run(CUZK_CS_WITNESS);
  cuzk_pce *pce = NULL, *back = NULL;
  CHECK(cuzk_pce_create(&pce, rec) == CUZK_R1CS_OK);
  CHECK(cuzk_pce_write_file(pce, path, "test-circuit", tag) == CUZK_R1CS_OK);
  char msg[512] = "";
  CHECK_MSG(cuzk_pce_read_file(&back, path, "test-circuit", tag, NULL, msg, sizeof msg) ==
                CUZK_R1CS_OK,
            "read back: %s", msg);
  CHECK(back && same_matrices(pce, back));
  const cuzk_cs_mark *mk, *mb;
  size_t nk = cuzk_pce_marks(pce, &mk), nb = back ? cuzk_pce_marks(back, &mb) : 0;
  CHECK_MSG(nk == 4 && nb == 4 && !memcmp(mk, mb, 4 * sizeof *mk) && mk[0].aux == 400 &&
                mk[0].constraints == 0 && mk[1].constraints == 500 && mk[3].constraints == 1500 &&
                mk[3].inputs == 4,
            "the segment marks read back: %zu, %zu", nk, nb);
  if (back) { /* and the same products */
    cuzk_cs_result r;
    CHECK(cuzk_pce_result(back, wit, &r) == CUZK_R1CS_OK);
    size_t len = 1600;
    cuzk_fr *x[3], *y[3];
    for (int k = 0; k < 3; k++)
      x[k] = malloc(len * sizeof(cuzk_fr)), y[k] = malloc(len * sizeof(cuzk_fr));
    cuzk_pce_eval(pce, r.inputs, r.aux, r.aux_kind, x, len, NULL, 0);
    /* the evaluation gives the mapped pages it read back (pce_eval.c): same_matrices mapped them
     * all, the release takes them out of the page tables, the evaluation leaves none behind */
    cuzk_pce_matrix am; /* an address inside the file's mapping */
    CHECK(cuzk_pce_matrix_get(back, 0, &am) == CUZK_R1CS_OK);
    long all = smaps_kb(am.row_ptr, "Rss:");
    cuzk_pce_release_rows(back, 0, cuzk_pce_num_constraints(back));
    long before = smaps_kb(am.row_ptr, "Rss:");
    cuzk_pce_eval(back, r.inputs, r.aux, NULL, y, len, NULL, 0);
    long after = smaps_kb(am.row_ptr, "Rss:");
    CHECK_MSG(all > 0 && before < all && after <= before,
              "mapped pages resident: %ld kB read, %ld kB released, %ld kB after the evaluation",
              all, before, after);
    for (int k = 0; k < 3; k++) {
      CHECK(memcmp(x[k], y[k], len * sizeof(cuzk_fr)) == 0);
      free(x[k]);
      free(y[k]);
    }
  }
  blob b = slurp(path);
  printf(".pce file: %zu bytes for %zu constraints, %zu coefficients\n", b.n,
         cuzk_pce_num_constraints(pce), cuzk_pce_num_coefficients(pce));
  CHECK(b.n > HDR && memcmp(b.p, "CUZKPCE1", 8) == 0);

  /* what a reader refuses */
  refused("/nonexistent/c.pce", tag, "No such file", "missing file");
  cuzk_pce *q = NULL;
  CHECK(cuzk_pce_read_file(&q, path, "test-circuit", other, NULL, msg, sizeof msg) ==
            CUZK_R1CS_EINVAL &&
        strstr(msg, "stale: recorded for other parameters") && !q);
  CHECK(cuzk_pce_read_file(&q, path, "porep-2k", tag, NULL, msg, sizeof msg) == CUZK_R1CS_EINVAL &&
        strstr(msg, "recorded for another circuit") && !q);
  /* cancelled (the engine's abandoned load): nothing returned; cleared, the same file reads */
  _Atomic int stop;
  atomic_init(&stop, 1);
  CHECK(cuzk_pce_read_file(&q, path, "test-circuit", tag, &stop, msg, sizeof msg) ==
            CUZK_R1CS_ECANCELLED &&
        strstr(msg, "cancelled") && !q);
  atomic_store(&stop, 0);
  CHECK(cuzk_pce_read_file(&q, path, "test-circuit", tag, &stop, msg, sizeof msg) == CUZK_R1CS_OK &&
        q);
  cuzk_pce_free(q);
  q = NULL;
  cuzk_cs_opts co;
  cuzk_cs_opts_default(&co, CUZK_CS_RECORD);
  co.cancel = &stop;
  atomic_store(&stop, 1);
  cuzk_cs *cs = NULL;
  CHECK(cuzk_cs_create(&cs, &co) == CUZK_R1CS_OK);
  if (cs) {
    synth(cs); /* stores nothing once the flag is read (at the first constraint) */
    CHECK(cuzk_cs_finish(cs) == CUZK_R1CS_ECANCELLED);
    cuzk_cs_destroy(cs);
  }
  for (size_t cut = 0; cut < HDR; cut += 8) { /* every header field */
    spit(bad, b.p, cut);
    refused(bad, tag, "shorter than its header", "truncated header");
  }
  size_t cuts[] = {HDR, HDR + 1, HDR + 32, b.n / 2, b.n - 1};
  for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
    spit(bad, b.p, cuts[i]);
    refused(bad, tag, "size does not match its counts", "truncated body");
  }
  uint8_t *m = malloc(b.n + 1);
  memcpy(m, b.p, b.n);
  m[b.n] = 0;
  spit(bad, m, b.n + 1);
  refused(bad, tag, "size does not match its counts", "a byte appended");
  memcpy(m, b.p, b.n);
  m[0] ^= 1;
  spit(bad, m, b.n);
  refused(bad, tag, "not a cuzk .pce file of this version", "magic");
  memcpy(m, b.p, b.n);
  m[8] = 4;
  spit(bad, m, b.n);
  refused(bad, tag, "not a cuzk .pce file of this version", "version");
  size_t flips[] = {HDR, HDR + 100, b.n / 3, b.n - 1};
  for (size_t i = 0; i < sizeof flips / sizeof flips[0]; i++) {
    memcpy(m, b.p, b.n);
    m[flips[i]] ^= 0x10;
    spit(bad, m, b.n);
    refused(bad, tag, "corrupt: its body's SHA-256 differs", "flipped body byte");
  }
  for (int f = 0; f < 2 * N_COUNTS;
       f++) { /* each count huge: no allocation follows, the file is refused */
    memcpy(m, b.p, b.n);
    uint64_t huge = f % 2 ? UINT64_MAX : (uint64_t)1 << 40;
    memcpy(m + OFF_COUNTS + 8 * (size_t)(f / 2), &huge, 8);
    spit(bad, m, b.n);
    cuzk_pce *z = NULL;
    cuzk_r1cs_err e = cuzk_pce_read_file(&z, bad, "test-circuit", tag, NULL, msg, sizeof msg);
    CHECK_MSG(e == CUZK_R1CS_EINVAL && !z &&
                  (strstr(msg, "counts out of range") || strstr(msg, "size does not match")),
              "huge count %d: %s", f, msg);
  }
  /* a body whose digest was recomputed around a column beyond z: the structure check */
  {
    memcpy(m, b.p, b.n);
    uint64_t ndict;
    memcpy(&ndict, m + OFF_NDICT, 8);
    size_t cols_a = al64(al64(al64(HDR) + ndict * 32) + 1501 * 4); /* A's first column */
    uint32_t big = 0x7fffffff;
    memcpy(m + cols_a, &big, 4);
    cuzk_sha256(m + OFF_SHA, m + HDR, b.n - HDR);
    spit(bad, m, b.n);
    refused(bad, tag, "out of range", "column beyond z");
  }
  /* the same around a row of A whose columns are not strictly ascending: two terms swapped with
   * their coefficients (the same sum, not the recorded form), or a column repeated */
  {
    uint64_t ndict, rows;
    memcpy(&ndict, b.p + OFF_NDICT, 8);
    memcpy(&rows, b.p + OFF_COUNTS + 16, 8);
    const uint8_t *rp = b.p + al64(al64(HDR) + ndict * 32);
    size_t cols_a = al64(al64(al64(HDR) + ndict * 32) + (rows + 1) * 4), t = SIZE_MAX;
    uint64_t nnz_a;
    memcpy(&nnz_a, b.p + OFF_COUNTS + 32, 8);
    for (size_t r = 0; r < rows && t == SIZE_MAX; r++) { /* the first row with two terms */
      uint32_t lo, hi;
      memcpy(&lo, rp + 4 * r, 4);
      memcpy(&hi, rp + 4 * (r + 1), 4);
      if (hi >= lo + 2) t = lo;
    }
    CHECK(t != SIZE_MAX);
    if (t != SIZE_MAX) {
      size_t coef_a = al64(cols_a + nnz_a * 4);
      for (int repeat = 0; repeat < 2; repeat++) {
        memcpy(m, b.p, b.n);
        uint32_t c0, c1;
        memcpy(&c0, m + cols_a + 4 * t, 4);
        memcpy(&c1, m + cols_a + 4 * (t + 1), 4);
        CHECK(c0 < c1);
        if (repeat) {
          memcpy(m + cols_a + 4 * (t + 1), &c0, 4);
        } else {
          uint16_t k0, k1;
          memcpy(&k0, m + coef_a + 2 * t, 2);
          memcpy(&k1, m + coef_a + 2 * (t + 1), 2);
          memcpy(m + cols_a + 4 * t, &c1, 4);
          memcpy(m + cols_a + 4 * (t + 1), &c0, 4);
          memcpy(m + coef_a + 2 * t, &k1, 2);
          memcpy(m + coef_a + 2 * (t + 1), &k0, 2);
        }
        cuzk_sha256(m + OFF_SHA, m + HDR, b.n - HDR);
        spit(bad, m, b.n);
        refused(bad, tag, "a row's columns are not strictly ascending",
                repeat ? "a repeated column" : "two columns swapped");
      }
    }
  }
  /* the same around a segment mark beyond the circuit's aux (the marks end the body) */
  {
    memcpy(m, b.p, b.n);
    uint32_t big = 401; /* aux of the last mark: the circuit has 400 */
    memcpy(m + b.n - 8, &big, 4);
    cuzk_sha256(m + OFF_SHA, m + HDR, b.n - HDR);
    spit(bad, m, b.n);
    refused(bad, tag, "a segment mark lies outside the circuit", "mark beyond the aux");
  }
  /* nonzero padding between two pieces, the digest fixed up around it */
  {
    memcpy(m, b.p, b.n);
    CHECK(m[HDR] == 0);
    m[HDR] = 1;
    cuzk_sha256(m + OFF_SHA, m + HDR, b.n - HDR);
    spit(bad, m, b.n);
    refused(bad, tag, "padding between its pieces is not zero", "nonzero padding");
  }
  /* a recording spilled to temporary files from its first byte (docs/r1cs.md "Recordings
   * spilled to disk"): the same matrices and the same file; a spill directory that does not
   * exist fails the recording with EIO and its errno */
  {
    cuzk_cs *sp = run_spill(CUZK_CS_RECORD, dir, 1);
    CHECK(cuzk_cs_finish(sp) == CUZK_R1CS_OK);
    cuzk_pce *spe = NULL;
    CHECK(cuzk_pce_create(&spe, sp) == CUZK_R1CS_OK);
    CHECK(spe && same_matrices(pce, spe) && !cuzk_pce_mapped(spe));
    char sp_path[300];
    snprintf(sp_path, sizeof sp_path, "%s/spilled.pce", dir);
    CHECK(spe && cuzk_pce_write_file(spe, sp_path, "test-circuit", tag) == CUZK_R1CS_OK);
    blob c = slurp(sp_path);
    CHECK_MSG(c.n == b.n && !memcmp(c.p, b.p, b.n), "the spilled recording's file differs");
    free(c.p);
    unlink(sp_path);
    cuzk_pce_free(spe);
    cuzk_cs_destroy(sp);
    sp = run_spill(CUZK_CS_RECORD, "/nonexistent-cuzk-spill", 1);
    CHECK(cuzk_cs_finish(sp) == CUZK_R1CS_EIO && cuzk_cs_io_errno(sp) == ENOENT);
    cuzk_cs_destroy(sp);
  }
  /* the file is mapped (version 3); a version-2 file (pieces packed: the same pieces without the
   * padding) is still read, into memory, to the same matrices and products */
  CHECK(back && cuzk_pce_mapped(back) && cuzk_pce_mapped_bytes(back) == b.n);
  CHECK(cuzk_pce_mapped_bytes(pce) == 0 && !cuzk_pce_mapped(pce));
  {
    uint8_t *v2 = malloc(b.n);
    memcpy(v2, b.p, HDR);
    uint64_t ver = 2, ndict, rows, nnz[3], nmarks;
    memcpy(v2 + 8, &ver, 8);
    memcpy(&ndict, b.p + OFF_NDICT, 8);
    memcpy(&rows, b.p + OFF_COUNTS + 16, 8);
    memcpy(nnz, b.p + OFF_COUNTS + 32, 24);
    memcpy(&nmarks, b.p + OFF_COUNTS + 56, 8);
    size_t len[11] = {ndict * 32}, at = HDR, from = HDR;
    for (int k = 0; k < 3; k++)
      len[1 + 3 * k] = (rows + 1) * 4, len[2 + 3 * k] = nnz[k] * 4, len[3 + 3 * k] = nnz[k] * 2;
    len[10] = nmarks * 12;
    for (int i = 0; i < 11; i++) {
      from = al64(from);
      memcpy(v2 + at, b.p + from, len[i]);
      at += len[i], from += len[i];
    }
    CHECK(from == b.n && at < b.n);
    cuzk_sha256(v2 + OFF_SHA, v2 + HDR, at - HDR);
    spit(bad, v2, at);
    cuzk_pce *old = NULL;
    CHECK_MSG(cuzk_pce_read_file(&old, bad, "test-circuit", tag, NULL, msg, sizeof msg) ==
                  CUZK_R1CS_OK,
              "version 2: %s", msg);
    CHECK(old && !cuzk_pce_mapped(old) && same_matrices(pce, old));
    cuzk_pce_free(old);
    free(v2);
  }
  free(m);
  free(b.p);
  unlink(bad);
  unlink(path);
  rmdir(dir);
  cuzk_pce_free(pce);
  cuzk_pce_free(back);
  cuzk_cs_destroy(rec);
  cuzk_cs_destroy(wit);
  return check_summary("test_pce_file");
}
