/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The prover's backend seam (docs/backends.md): a backend wrapping the CPU one counts every call
 * and checks that the prover ran each H chain and MSM through the table, covering every base of
 * every query exactly once per proof, with the same proof bytes as the CPU backend; the CPU
 * backend's memory estimate; a set attached from its mapped .params file proves after the decoded
 * set is gone; the decoded load marks a file it checked and trusts a file marked so (until the
 * file changes); a set read in place with its vectors past 4 GiB of the file; cancellation and a
 * backend's error stop the prover with the domain given back. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, utimensat */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "cuzk/groth16/g16_backend.h"
#include "cuzk/hashes/sha256.h"
#include "cuzk/r1cs/gadgets.h"
#include "groth16/g16_internal.h"

/* What the counting backend saw. */
typedef struct {
  unsigned attach, detach, domain_get, domain_put, h_abc, h_pce, msms, msm_g1, msm_g1_w, msm_g2_w;
  size_t points[5];        /* bases of each query the MSMs covered */
  _Atomic int *raise_in_h; /* raised by the H entry as it ends (a cancel during H) */
  cuzk_g16_err g2_err;     /* what the G2 entry returns instead of running (OK: runs) */
} seen;

static const cuzk_g16_backend *cpu(void) { return cuzk_g16_backend_cpu(); }
static seen *seen_of(const cuzk_g16_backend *be) { return be->ctx; }

static cuzk_g16_err c_attach(const cuzk_g16_backend *be, cuzk_g16_set *set,
                             const cuzk_g16_source *src, const cuzk_g16_exec *x, char *msg,
                             size_t len) {
  seen_of(be)->attach++;
  return cpu()->attach(cpu(), set, src, x, msg, len);
}
static void c_detach(const cuzk_g16_backend *be, cuzk_g16_set *set) {
  seen_of(be)->detach++;
  cpu()->detach(cpu(), set);
}
static void c_estimate(const cuzk_g16_backend *be, const cuzk_g16_set *set, bool pre,
                       cuzk_g16_mem *out) {
  (void)be;
  cpu()->estimate(cpu(), set, pre, out);
}
static cuzk_g16_err c_domain_get(const cuzk_g16_backend *be, size_t m, bool pre,
                                 cuzk_g16_domain **out) {
  seen_of(be)->domain_get++;
  return cpu()->domain_get(cpu(), m, pre, out);
}
static void c_domain_put(const cuzk_g16_backend *be, cuzk_g16_domain *d) {
  seen_of(be)->domain_put++;
  cpu()->domain_put(cpu(), d);
}
static cuzk_g16_err c_h_abc(const cuzk_g16_backend *be, cuzk_g16_domain *d, const cuzk_cs_result *w,
                            const cuzk_g16_exec *x) {
  seen *s = seen_of(be);
  s->h_abc++;
  cuzk_g16_err e = cpu()->h_from_abc(cpu(), d, w, x);
  if (s->raise_in_h) *s->raise_in_h = 1; /* H done: the prover must stop before the MSMs */
  return e;
}
static cuzk_g16_err c_h_pce(const cuzk_g16_backend *be, cuzk_g16_domain *d, const cuzk_pce *pce,
                            const cuzk_cs_result *w, const cuzk_g16_exec *x) {
  seen_of(be)->h_pce++;
  return cpu()->h_from_pce(cpu(), d, pce, w, x);
}
static cuzk_g16_err c_msm_g1(const cuzk_g16_backend *be, const cuzk_g16_set *set, cuzk_g16_query q,
                             size_t first, size_t n, const cuzk_g16_domain *d,
                             const cuzk_g16_exec *x, cuzk_g1 *out) {
  seen *s = seen_of(be);
  s->msm_g1++;
  s->points[q] += n;
  return cpu()->msm_g1(cpu(), set, q, first, n, d, x, out);
}
static cuzk_g16_err c_msm_g1_w(const cuzk_g16_backend *be, const cuzk_g16_set *set,
                               cuzk_g16_query q, size_t first, size_t nb, const cuzk_fr *sc,
                               size_t n, const uint64_t *dens, const cuzk_g16_exec *x,
                               cuzk_g1 *out) {
  seen *s = seen_of(be);
  s->msm_g1_w++;
  s->points[q] += nb;
  return cpu()->msm_g1_witness(cpu(), set, q, first, nb, sc, n, dens, x, out);
}
static cuzk_g16_err c_msm_g2_w(const cuzk_g16_backend *be, const cuzk_g16_set *set,
                               cuzk_g16_query q, size_t first, size_t nb, const cuzk_fr *sc,
                               size_t n, const uint64_t *dens, const cuzk_g16_exec *x,
                               cuzk_g2 *out) {
  seen *s = seen_of(be);
  s->msm_g2_w++;
  s->points[q] += nb;
  if (s->g2_err) return s->g2_err;
  return cpu()->msm_g2_witness(cpu(), set, q, first, nb, sc, n, dens, x, out);
}
/* the batch entry counted, then the single entries of this table one after the other */
static cuzk_g16_err c_msms(const cuzk_g16_backend *be, const cuzk_g16_set *set,
                           const cuzk_g16_domain *d, const cuzk_cs_result *w,
                           const cuzk_g16_exec *x, cuzk_g16_msm_sums *out, cuzk_g16_timings *t) {
  seen_of(be)->msms++;
  return cuzk_g16_msms_each(be, set, d, w, x, out, t);
}

static cuzk_g16_backend counting(seen *s) {
  cuzk_g16_backend b = {.name = "counting",
                        .ctx = s,
                        .attach = c_attach,
                        .detach = c_detach,
                        .estimate = c_estimate,
                        .domain_get = c_domain_get,
                        .domain_put = c_domain_put,
                        .h_from_abc = c_h_abc,
                        .h_from_pce = c_h_pce,
                        .msm_g1 = c_msm_g1,
                        .msm_g1_witness = c_msm_g1_w,
                        .msm_g2_witness = c_msm_g2_w,
                        .msms = c_msms};
  return b;
}

/* 24 secret values squared and multiplied into a public product, and 24 bits beside them (in A
 * and B through their boolean constraints): inputs and aux in every query, densities with gaps. */
static cuzk_fr synth(cuzk_cs *cs, uint64_t seed) {
  cuzk_num acc = {0};
  for (unsigned i = 0; i < 24; i++) {
    cuzk_fr x;
    cuzk_fr_from_u64(&x, seed * 131 + i + 2);
    cuzk_num v = cuzk_num_alloc(cs, &x);
    cuzk_num sq = cuzk_num_square(cs, &v);
    acc = i ? cuzk_num_mul(cs, &acc, &sq) : sq;
    cuzk_bit_alloc(cs, (seed >> i) & 1);
  }
  cuzk_num_inputize(cs, &acc);
  return acc.value;
}

static cuzk_cs *make(cuzk_cs_mode mode, uint64_t seed, cuzk_fr *pub) {
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, mode);
  cuzk_cs *cs = NULL;
  if (cuzk_cs_create(&cs, &o)) return NULL;
  cuzk_fr y = synth(cs, seed);
  if (pub) *pub = y;
  return cs;
}

/* p written to a new file named from path's template; mark: its PATH.checked name. */
static bool temp_params(char *path, char *mark, size_t len, const cuzk_g16_params *p) {
  int fd = mkstemp(path);
  if (fd < 0) return false;
  close(fd);
  snprintf(mark, len, "%s.checked", path);
  return cuzk_g16_params_write_file(p, path) == CUZK_G16_OK;
}

static bool same_bytes(const cuzk_g16_proof *x, const cuzk_g16_proof *y, size_t n) {
  for (size_t i = 0; i < n; i++) {
    uint8_t a[CUZK_G16_PROOF_BYTES], b[CUZK_G16_PROOF_BYTES];
    cuzk_g16_proof_write(a, &x[i]);
    cuzk_g16_proof_write(b, &y[i]);
    if (memcmp(a, b, sizeof a)) return false;
  }
  return true;
}

/* every query's bases covered once per proof, by one H MSM and seven witness MSMs */
static void check_covered(const seen *s, const cuzk_g16_set *set, unsigned proofs) {
  CHECK(s->msms == proofs);
  CHECK(s->msm_g1 == proofs);
  CHECK(s->msm_g1_w == 5 * proofs);
  CHECK(s->msm_g2_w == 2 * proofs);
  CHECK(s->points[CUZK_G16_Q_H] == proofs * set->n_h);
  CHECK(s->points[CUZK_G16_Q_L] == proofs * set->n_l);
  CHECK(s->points[CUZK_G16_Q_A] == proofs * set->n_a);
  CHECK(s->points[CUZK_G16_Q_B_G1] == proofs * set->n_b1);
  CHECK(s->points[CUZK_G16_Q_B_G2] == proofs * set->n_b2);
  CHECK(s->domain_get == 1 && s->domain_put == 1);
}

enum { N = 3 };

/* PROVE-mode systems take the input constraints at every proof: fresh ones for each */
static void fresh(cuzk_cs *cs[N]) {
  for (unsigned i = 0; i < N; i++) {
    cuzk_cs_destroy(cs[i]);
    cs[i] = make(CUZK_CS_PROVE, 1000 + i, NULL);
  }
}

/* A set read in place whose l, a, b_g1 and b_g2 lie past 4 GiB of the file (byte offsets that
 * overflow 32 bits, as every vector after h does at 32 GiB): p's file with its h vector replaced
 * by 2^26 - 1 points of zeros, written sparse (a hole, no disk blocks), and a PATH.checked mark
 * for it, as the library writes one, so the attach skips the point check. Each base the MSM
 * sources decode must be the point p's own file holds at that index. */
static void test_past_4gib(const cuzk_g16_params *p) {
  const size_t n_h = ((size_t)1 << 26) - 1, head = cuzk_g16_vk_size(&p->vk);
  size_t bytes = cuzk_g16_params_size(p), old_tail = head + 4 + 96 * p->n_h;
  uint8_t *small = malloc(bytes);
  char path[] = "/tmp/cuzk_backend_XXXXXX";
  int fd = mkstemp(path);
  CHECK(small && fd >= 0);
  if (!small || fd < 0) {
    free(small);
    return;
  }
  cuzk_g16_params_write(small, p);
  uint8_t cnt[4] = {(uint8_t)(n_h >> 24), (uint8_t)(n_h >> 16), (uint8_t)(n_h >> 8), (uint8_t)n_h};
  size_t l_at = head + 4 + 96 * n_h; /* the new file's l count */
  CHECK(l_at > ((size_t)1 << 32));
  CHECK(pwrite(fd, small, head, 0) == (ssize_t)head && pwrite(fd, cnt, 4, (off_t)head) == 4 &&
        pwrite(fd, small + old_tail, bytes - old_tail, (off_t)l_at) == (ssize_t)(bytes - old_tail));
  struct stat st;
  CHECK(fstat(fd, &st) == 0);
  close(fd);
  /* a file system without holes would have written 6 GB: then this check is left out */
  bool sparse = st.st_blocks * 512 < ((off_t)64 << 20);
  if (!sparse) printf("  past 4 GiB: /tmp keeps no holes, left out\n");
  char mark[64];
  snprintf(mark, sizeof mark, "%s.checked", path);
  cuzk_file_map fm;
  bool mapped = sparse && cuzk_file_map_open(&fm, path);
  if (mapped) {
    g16_mark_write(&fm, path, false);
    cuzk_file_map_close(&fm);
  }
  g16_in_place *ip = NULL;
  bool checked = true;
  char msg[512] = "";
  CHECK_MSG(!sparse || (mapped && g16_in_place_open(&ip, path, false, NULL, NULL, NULL, &checked,
                                                    msg, sizeof msg) == CUZK_G16_OK),
            "%s", msg);
  if (ip) {
    CHECK(!checked && ip->n[0] == n_h && ip->off[0] == head + 4 && ip->off[1] == l_at + 4);
    const size_t n[4] = {p->n_l, p->n_a, p->n_b1, p->n_b2};
    size_t at = old_tail; /* the vector's count in p's own file */
    for (int q = 1; q <= 4; q++) {
      bool g2 = q == CUZK_G16_Q_B_G2;
      size_t sz = g2 ? 192 : 96;
      CHECK_MSG(ip->n[q] == n[q - 1] && ip->off[q] == at + 4 + (l_at - old_tail) &&
                    ip->off[q] > ((size_t)1 << 32),
                "query %d: %zu points at byte %zu", q, ip->n[q], ip->off[q]);
      /* from the middle to the end, as one chunk of an MSM sees it */
      size_t first = ip->n[q] / 2, count = ip->n[q] - first;
      g16_in_place_src ctx;
      cuzk_msm_source src;
      uint8_t *pts = malloc(count * (g2 ? sizeof(cuzk_g2_affine) : sizeof(cuzk_g1_affine)));
      CHECK(!g16_in_place_source(ip, (cuzk_g16_query)q, first, count + 1, &ctx, &src));
      bool have = pts && g16_in_place_source(ip, (cuzk_g16_query)q, first, count, &ctx, &src);
      CHECK(have);
      if (have) {
        src.will_need(src.ctx, 0, count);
        src.fill(src.ctx, 0, count, pts);
        size_t same = 0;
        for (size_t i = 0; i < count; i++) {
          uint8_t enc[192];
          if (g2)
            cuzk_g2_to_uncompressed(enc, &((cuzk_g2_affine *)pts)[i]);
          else
            cuzk_g1_to_uncompressed(enc, &((cuzk_g1_affine *)pts)[i]);
          same += memcmp(enc, small + at + 4 + (first + i) * sz, sz) == 0;
        }
        CHECK_MSG(same == count, "query %d: %zu of %zu bases as in the file", q, same, count);
        src.done(src.ctx, 0, count);
      }
      free(pts);
      at += 4 + n[q - 1] * sz;
    }
    g16_in_place_free(ip);
  }
  free(small);
  unlink(path);
  unlink(mark);
}

int main(void) {
  cuzk_pool *pool = NULL;
  CHECK(cuzk_pool_create(&pool, 2) == CUZK_POOL_OK);
  cuzk_cs *rec = make(CUZK_CS_RECORD, 0, NULL);
  cuzk_g16_params *p = NULL;
  uint8_t seed[32] = {7};
  CHECK(rec && cuzk_g16_generate(&p, rec, seed, pool, 0, NULL) == CUZK_G16_OK);
  cuzk_cs_destroy(rec);
  if (!p) return check_summary("test_g16_backend");
  cuzk_g16_pvk *pvk = NULL;
  CHECK(cuzk_g16_pvk_prepare(&pvk, &p->vk) == CUZK_G16_OK);

  cuzk_cs *cs[N], *wit[N];
  cuzk_fr pub[N], r[N], s[N];
  for (unsigned i = 0; i < N; i++) {
    cs[i] = make(CUZK_CS_PROVE, 1000 + i, &pub[i]);
    wit[i] = make(CUZK_CS_WITNESS, 1000 + i, NULL);
    CHECK(cs[i] && wit[i] && cuzk_cs_finish(wit[i]) == CUZK_R1CS_OK);
    cuzk_fr_from_u64(&r[i], 17 + i);
    cuzk_fr_from_u64(&s[i], 91 + i);
  }
  cuzk_g16_prove_opts po = {pool, 0, r, s, NULL};
  cuzk_g16_proof want[N], got[N];
  CHECK(cuzk_g16_prove(want, cs, N, p, &po, NULL) == CUZK_G16_OK);
  bool ok = false;
  const cuzk_fr *ins[N] = {&pub[0], &pub[1], &pub[2]};
  CHECK(cuzk_g16_verify_batch(&ok, pvk, want, ins, 1, N) == CUZK_G16_OK && ok);

  cuzk_g16_source dec = {CUZK_G16_SOURCE_DECODED, p, NULL, NULL, false, false, NULL};
  cuzk_g16_exec x = {pool, 0, NULL};
  test_past_4gib(p);
  { /* PROVE mode through the counting table: every step through it, the same bytes */
    seen sn = {0};
    cuzk_g16_backend be = counting(&sn);
    cuzk_g16_set *set = NULL;
    CHECK(cuzk_g16_attach(&set, &be, &dec, &x, NULL, 0) == CUZK_G16_OK && set);
    fresh(cs);
    CHECK(set && set->backend == &be && set->n_h == p->n_h && set->vk->n_ic == 2);
    cuzk_g16_timings t;
    CHECK(set && cuzk_g16_prove_set(got, cs, N, set, &po, &t) == CUZK_G16_OK);
    CHECK(same_bytes(want, got, N));
    CHECK(sn.attach == 1 && sn.h_abc == N && sn.h_pce == 0);
    if (set) check_covered(&sn, set, N);
    CHECK(t.total_s >= t.h_s + t.msm_h_s + t.msm_l_s);
    cuzk_g16_detach(set);
    CHECK(sn.detach == 1);
  }
  { /* pre-compiled constraints: the PCE evaluation and H through h_from_pce, the same bytes */
    cuzk_cs *r2 = make(CUZK_CS_RECORD, 0, NULL);
    cuzk_pce *pce = NULL;
    CHECK(r2 && cuzk_cs_finish(r2) == CUZK_R1CS_OK && cuzk_pce_create(&pce, r2) == CUZK_R1CS_OK);
    cuzk_cs_destroy(r2);
    seen sn = {0};
    cuzk_g16_backend be = counting(&sn);
    cuzk_g16_set *set = NULL;
    CHECK(cuzk_g16_attach(&set, &be, &dec, &x, NULL, 0) == CUZK_G16_OK);
    memset(got, 0, sizeof got);
    CHECK(set && pce && cuzk_g16_prove_pce_set(got, wit, N, pce, set, &po, NULL) == CUZK_G16_OK);
    CHECK(same_bytes(want, got, N));
    CHECK(sn.h_pce == N && sn.h_abc == 0);
    if (set) check_covered(&sn, set, N);
    cuzk_g16_detach(set);
    cuzk_pce_free(pce);
  }
  { /* the CPU backend's memory: three domain vectors, two with pre-compiled constraints */
    cuzk_g16_set *set = NULL;
    CHECK(cuzk_g16_attach(&set, NULL, &dec, NULL, NULL, 0) == CUZK_G16_OK);
    cuzk_g16_mem m3 = {1, 1}, m2 = {1, 1};
    if (set) {
      CHECK(set->backend == cuzk_g16_backend_cpu());
      cuzk_g16_estimate(set, false, &m3);
      cuzk_g16_estimate(set, true, &m2);
    }
    uint64_t m = p->n_h + 1;
    CHECK(m == 128); /* 72 constraints and the 2 input ones: domain 2^7 */
    CHECK(m3.host_bytes == 3 * 32 * m && m3.device_bytes == 0);
    CHECK(m2.host_bytes == 2 * 32 * m && m2.device_bytes == 0);
    cuzk_g16_detach(set);
  }
  { /* a cancel raised as H ends: no MSM starts, the domain goes back */
    _Atomic int flag = 0;
    seen sn = {0};
    sn.raise_in_h = &flag;
    cuzk_g16_backend be = counting(&sn);
    cuzk_g16_set *set = NULL;
    CHECK(cuzk_g16_attach(&set, &be, &dec, &x, NULL, 0) == CUZK_G16_OK);
    cuzk_cs *one = make(CUZK_CS_PROVE, 5, NULL);
    cuzk_g16_prove_opts co = {pool, 0, r, s, &flag};
    CHECK(set && cuzk_g16_prove_set(got, &one, 1, set, &co, NULL) == CUZK_G16_ECANCELLED);
    CHECK(sn.h_abc == 1 && sn.msms == 0 && sn.msm_g1 == 0);
    CHECK(sn.domain_get == 1 && sn.domain_put == 1);
    cuzk_cs_destroy(one);
    cuzk_g16_detach(set);
  }
  { /* a backend's error is the prover's, after the G2 MSM was asked for; the domain goes back */
    seen sn = {0};
    sn.g2_err = CUZK_G16_ENOMEM;
    cuzk_g16_backend be = counting(&sn);
    cuzk_g16_set *set = NULL;
    CHECK(cuzk_g16_attach(&set, &be, &dec, &x, NULL, 0) == CUZK_G16_OK);
    cuzk_cs *one = make(CUZK_CS_PROVE, 6, NULL);
    CHECK(set && cuzk_g16_prove_set(got, &one, 1, set, &po, NULL) == CUZK_G16_ENOMEM);
    CHECK(sn.msm_g2_w == 1 && sn.msm_g1_w == 5 && sn.domain_put == 1);
    cuzk_cs_destroy(one);
    cuzk_g16_detach(set);
  }
  { /* attach refusals: no decoded set; a mapping of a file that is not a parameter file */
    cuzk_g16_source none = {CUZK_G16_SOURCE_DECODED, NULL, NULL, NULL, false, false, NULL};
    cuzk_g16_set dummy, *set = &dummy; /* cleared on failure */
    CHECK(cuzk_g16_attach(&set, NULL, &none, NULL, NULL, 0) == CUZK_G16_EINVAL && !set);
    char path[] = "/tmp/cuzk_backend_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0 && write(fd, "not a parameter file", 20) == 20);
    if (fd >= 0) close(fd);
    cuzk_file_map fm;
    CHECK(cuzk_file_map_open(&fm, path));
    cuzk_g16_source bad = {CUZK_G16_SOURCE_MAPPED, NULL, &fm, path, false, false, NULL};
    char msg[512] = "";
    CHECK(cuzk_g16_attach(&set, NULL, &bad, &x, msg, sizeof msg) != CUZK_G16_OK && !set);
    CHECK_MSG(strstr(msg, path) != NULL, "%s", msg);
    cuzk_file_map_close(&fm);
    unlink(path);
  }
  { /* read in place: the MSMs stream the bases from the file, through the counting table, with
     * the same bytes (PROVE mode and pre-compiled); every point checked once, PATH.checked
     * written; a file changed after that, with a point flipped, or truncated, is refused
     * naming the vector and index */
    char path[] = "/tmp/cuzk_backend_XXXXXX", mark[64];
    CHECK(temp_params(path, mark, sizeof mark, p));
    cuzk_g16_source inplace = {CUZK_G16_SOURCE_MAPPED, NULL, NULL, path, true, true, NULL};
    for (int round = 0; round < 2; round++) { /* the second attach trusts PATH.checked */
      inplace.check_subgroup = round == 0;    /* a file checked with them satisfies one without */
      seen sn = {0};
      cuzk_g16_backend be = counting(&sn);
      cuzk_g16_set *set = NULL;
      char msg[512] = "";
      CHECK_MSG(cuzk_g16_attach(&set, &be, &inplace, &x, msg, sizeof msg) == CUZK_G16_OK, "%s",
                msg);
      CHECK(access(mark, R_OK) == 0);
      memset(got, 0, sizeof got);
      fresh(cs);
      CHECK(set && cuzk_g16_prove_set(got, cs, N, set, &po, NULL) == CUZK_G16_OK);
      CHECK(same_bytes(want, got, N));
      if (set) check_covered(&sn, set, N);
      cuzk_cs *r2 = make(CUZK_CS_RECORD, 0, NULL);
      cuzk_pce *pce = NULL;
      CHECK(r2 && cuzk_cs_finish(r2) == CUZK_R1CS_OK && cuzk_pce_create(&pce, r2) == CUZK_R1CS_OK);
      cuzk_cs_destroy(r2);
      memset(got, 0, sizeof got);
      CHECK(set && pce && cuzk_g16_prove_pce_set(got, wit, N, pce, set, &po, NULL) == CUZK_G16_OK);
      CHECK(same_bytes(want, got, N));
      cuzk_g16_mem m2 = {0, 1};
      if (set) cuzk_g16_estimate(set, true, &m2);
      CHECK(m2.host_bytes > 2 * 32 * (p->n_h + 1) && m2.device_bytes == 0); /* + chunk, buckets */
      cuzk_pce_free(pce);
      cuzk_g16_detach(set);
    }
    /* The file rewritten, so its identity differs from PATH.checked's and it is checked again:
     * l[3]'s x coordinate changed (no longer on the curve); 10 bytes cut off the end; l[3] a
     * point on the curve outside the subgroup (refused only with the subgroup tests). */
    size_t bytes = cuzk_g16_params_size(p);
    uint8_t *buf = malloc(bytes), *good = malloc(bytes), xb[48] = {0};
    if (buf) cuzk_g16_params_write(buf, p);
    if (good && buf) memcpy(good, buf, bytes);
    size_t l3 = cuzk_g16_vk_size(&p->vk) + 4 + 96 * p->n_h + 4 + 96 * 3;
    cuzk_g1_affine outside;
    bool have_outside = false;
    for (uint8_t t = 1; t < 100 && !have_outside; t++) { /* x = t: on the curve for some t */
      xb[0] = 0x80;                                      /* compressed flag */
      xb[47] = t;
      have_outside = cuzk_g1_from_compressed_unchecked(&outside, xb) == CUZK_EC_OK &&
                     !cuzk_g1_affine_is_in_subgroup(&outside);
    }
    CHECK(have_outside);
    static const struct {
      const char *what;
      size_t cut, flip;
      bool outside, subgroup;
    } bad[] = {{"l[3]", 0, 1, false, false},
               {"b_g2", 10, 0, false, false},
               {"l[3]", 0, 0, true, true},
               {NULL, 0, 0, true, false}};
    for (size_t b = 0; b < 4 && buf && good; b++) {
      memcpy(buf, good, bytes);
      buf[l3 + 20] ^= (uint8_t)bad[b].flip;
      if (bad[b].outside) cuzk_g1_to_uncompressed(buf + l3, &outside);
      FILE *f = fopen(path, "wb");
      CHECK(f && fwrite(buf, 1, bytes - bad[b].cut, f) == bytes - bad[b].cut);
      if (f) fclose(f);
      inplace.check_subgroup = bad[b].subgroup;
      cuzk_g16_set *set = NULL;
      char msg[512] = "";
      cuzk_g16_err e = cuzk_g16_attach(&set, NULL, &inplace, &x, msg, sizeof msg);
      if (bad[b].what) {
        CHECK(e != CUZK_G16_OK && !set);
        CHECK_MSG(strstr(msg, path) && strstr(msg, bad[b].what), "%s", msg);
      } else {
        CHECK_MSG(e == CUZK_G16_OK && set, "%s", msg); /* on the curve: the check it asked for */
      }
      cuzk_g16_detach(set);
    }
    free(buf);
    free(good);
    unlink(path);
    unlink(mark);
  }
  { /* the decoded load and PATH.checked (docs/groth16.md "Parameters read in place"): a file
     * decoded with its checks is marked; a file the mark names is decoded without them (here one
     * with l[3] off the curve, under a mark written for it as the library writes one); once
     * its modification time changes, the same file is checked and refused naming l[3] */
    char path[] = "/tmp/cuzk_backend_XXXXXX", mark[64];
    CHECK(temp_params(path, mark, sizeof mark, p));
    for (int round = 0; round < 3; round++) {
      if (round == 1) { /* l[3]'s x changed, and a mark naming this very file */
        size_t bytes = cuzk_g16_params_size(p);
        uint8_t *buf = malloc(bytes), d[32];
        CHECK(buf != NULL);
        if (!buf) break;
        cuzk_g16_params_write(buf, p);
        buf[cuzk_g16_vk_size(&p->vk) + 4 + 96 * p->n_h + 4 + 96 * 3 + 20] ^= 1;
        FILE *f = fopen(path, "wb");
        CHECK(f && fwrite(buf, 1, bytes, f) == bytes);
        if (f) fclose(f);
        cuzk_sha256_ctx c; /* the file is under 1 MiB: its head and its tail are all of it */
        cuzk_sha256_init(&c);
        cuzk_sha256_update(&c, buf, bytes);
        cuzk_sha256_update(&c, buf, bytes);
        cuzk_sha256_final(&c, d);
        free(buf);
        struct stat st;
        CHECK(stat(path, &st) == 0 && bytes < (1u << 20));
        f = fopen(mark, "w");
        CHECK(f != NULL);
        if (!f) break;
        fprintf(f,
                "cuzk-params-checked 1 size=%zu dev=%llu ino=%llu mtime_ns=%llu sha256-head-tail=",
                bytes, (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
                (unsigned long long)st.st_mtim.tv_sec * 1000000000ull +
                    (unsigned long long)st.st_mtim.tv_nsec);
        for (int i = 0; i < 32; i++)
          fprintf(f, "%02x", d[i]);
        fprintf(f, " subgroup=0\n");
        fclose(f);
      }
      if (round == 2) { /* the same bytes, another modification time */
        struct timespec t[2] = {{0, UTIME_OMIT}, {1000000000, 0}};
        CHECK(utimensat(AT_FDCWD, path, t, 0) == 0);
      }
      cuzk_file_map fm;
      CHECK(cuzk_file_map_open(&fm, path));
      cuzk_g16_source mapped = {CUZK_G16_SOURCE_MAPPED, NULL, &fm, path, false, false, NULL};
      cuzk_g16_set *set = NULL;
      char msg[512] = "";
      cuzk_g16_err e = cuzk_g16_attach(&set, NULL, &mapped, &x, msg, sizeof msg);
      if (round < 2) {
        CHECK_MSG(e == CUZK_G16_OK && set && access(mark, R_OK) == 0, "round %d: %s", round, msg);
      } else {
        CHECK(e != CUZK_G16_OK && !set);
        CHECK_MSG(strstr(msg, path) && strstr(msg, "l[3]"), "%s", msg);
      }
      if (round == 0 && set) { /* checked, marked, and the same proofs */
        memset(got, 0, sizeof got);
        fresh(cs);
        CHECK(cuzk_g16_prove_set(got, cs, N, set, &po, NULL) == CUZK_G16_OK);
        CHECK(same_bytes(want, got, N));
      }
      cuzk_g16_detach(set);
      cuzk_file_map_close(&fm);
    }
    unlink(path);
    unlink(mark);
  }
  { /* attached from the mapped .params file: the backend holds its own bases, so the prover
     * proves the same bytes once the decoded set and the mapping are gone */
    char path[] = "/tmp/cuzk_backend_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd >= 0) close(fd);
    CHECK(cuzk_g16_params_write_file(p, path) == CUZK_G16_OK);
    cuzk_file_map fm;
    CHECK(cuzk_file_map_open(&fm, path));
    cuzk_g16_source mapped = {CUZK_G16_SOURCE_MAPPED, NULL, &fm, path, false, false, NULL};
    cuzk_g16_set *set = NULL;
    char msg[512] = "";
    CHECK_MSG(cuzk_g16_attach(&set, NULL, &mapped, &x, msg, sizeof msg) == CUZK_G16_OK, "%s", msg);
    cuzk_file_map_close(&fm);
    char mark[64]; /* the attach checked the file and marked it: nothing left in /tmp */
    snprintf(mark, sizeof mark, "%s.checked", path);
    CHECK(access(mark, R_OK) == 0);
    unlink(mark);
    unlink(path);
    cuzk_g16_params_free(p);
    p = NULL;
    memset(got, 0, sizeof got);
    fresh(cs);
    CHECK(set && cuzk_g16_prove_set(got, cs, N, set, &po, NULL) == CUZK_G16_OK);
    CHECK(same_bytes(want, got, N));
    cuzk_g16_detach(set);
  }
  for (unsigned i = 0; i < N; i++) {
    cuzk_cs_destroy(cs[i]);
    cuzk_cs_destroy(wit[i]);
  }
  cuzk_g16_pvk_free(pvk);
  cuzk_g16_params_free(p);
  cuzk_pool_destroy(pool);
  return check_summary("test_g16_backend");
}
