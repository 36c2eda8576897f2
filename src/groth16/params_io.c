/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * `.params` and `.vk` files (docs/spec/groth16.md §2.1-2.2): readers with every check bellperson
 * makes, sizes and writers.
 *
 * A reader works in two passes. The layout pass walks the counts and vector extents without
 * touching a point and reports truncation (ETRUNCATED), impossible counts (ECOUNT) and trailing
 * bytes (ETRAILING) first, so a damaged 44 GiB file fails before anything is decoded. The decode
 * pass then runs in file order (VK, ic, h, l, a, b_g1, b_g2) and reports the first bad point; the
 * big vectors are decoded in parallel, and the lowest failing index of a vector is the one
 * reported whatever the thread count.
 *
 * Decisions (documented here, tested in tests/test_g16_io.c):
 *  - The six fixed VK points are decoded with the full check (on-curve and subgroup), and the
 *    identity is ACCEPTED there, as in bellperson's VerifyingKey::read (blstrs from_uncompressed
 *    accepts the infinity encoding and only ic rejects it). ic, h, l, a, b_g1 and b_g2 reject it
 *    (EINFINITY).
 *  - A count larger than the rest of the data can hold is ETRUNCATED (the data ends inside that
 *    vector; a truncated file and an inflated count cannot be told apart). ECOUNT is kept for
 *    counts that no generator can produce: n_ic = 0 (ONE is always an input), n_h + 1 not a power
 *    of two (|h| = m - 1), and n_b2 != n_b1 (b_g1 and b_g2 list the same variables). These checks
 *    are stricter than bellperson's reader, which accepts any count.
 */
#define _GNU_SOURCE /* mkstemp, fchmod, MADV_DONTNEED */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/util/file_map.h"
#include "cuzk/util/pool.h"
#include "groth16/g16_internal.h"

#define G1U CUZK_G1_UNCOMPRESSED_BYTES
#define G2U CUZK_G2_UNCOMPRESSED_BYTES
#define VK_FIXED_BYTES (3 * G1U + 3 * G2U) /* 864 */

/* The fixed VK points in file order. */
static const struct {
  const char *name;
  bool g2;
} vk_fixed[6] = {{"alpha_g1", false}, {"beta_g1", false},  {"beta_g2", true},
                 {"gamma_g2", true},  {"delta_g1", false}, {"delta_g2", true}};

static void set_err(cuzk_g16_read_error *err, size_t offset, const char *what, size_t index) {
  if (!err) return;
  err->offset = offset;
  err->what = what;
  err->index = index;
}

/* ---- layout pass ------------------------------------------------------------------------------
 */
typedef struct {
  size_t n;   /* elements */
  size_t off; /* byte offset of element 0 */
} span;

enum { V_IC, V_H, V_L, V_A, V_B1, V_B2, V_COUNT };
static const char *const vec_name[V_COUNT] = {"ic", "h", "l", "a", "b_g1", "b_g2"};

typedef struct {
  span v[V_COUNT];
} layout;

static uint32_t be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static bool is_pow2(size_t x) { return x && !(x & (x - 1)); }

/* Reads vector k's count at *pos and takes its extent; *pos moves past the vector. */
static cuzk_g16_err layout_vector(layout *lo, int k, const uint8_t *buf, size_t len, size_t *pos,
                                  cuzk_g16_read_error *err) {
  const char *what = vec_name[k];
  if (len - *pos < 4) {
    set_err(err, *pos, what, 0);
    return CUZK_G16_ETRUNCATED;
  }
  size_t n = be32(buf + *pos);
  bool bad =
      (k == V_IC && n == 0) || (k == V_H && !is_pow2(n + 1)) || (k == V_B2 && n != lo->v[V_B1].n);
  if (bad) {
    set_err(err, *pos, what, 0);
    return CUZK_G16_ECOUNT;
  }
  *pos += 4;
  size_t sz = k == V_B2 ? G2U : G1U, avail = (len - *pos) / sz;
  if (n > avail) {
    set_err(err, *pos + avail * sz, what, avail); /* the first element that does not fit */
    return CUZK_G16_ETRUNCATED;
  }
  lo->v[k] = (span){n, *pos};
  *pos += n * sz;
  return CUZK_G16_OK;
}

/* The VK (and, for full parameters, the five query vectors), then no trailing bytes. */
static cuzk_g16_err layout_parse(layout *lo, const uint8_t *buf, size_t len, bool full,
                                 cuzk_g16_read_error *err) {
  memset(lo, 0, sizeof *lo);
  size_t pos = 0;
  for (int i = 0; i < 6; i++) {
    size_t sz = vk_fixed[i].g2 ? G2U : G1U;
    if (len - pos < sz) {
      set_err(err, pos, vk_fixed[i].name, 0);
      return CUZK_G16_ETRUNCATED;
    }
    pos += sz;
  }
  for (int k = V_IC; k <= (full ? V_B2 : V_IC); k++) {
    cuzk_g16_err e = layout_vector(lo, k, buf, len, &pos, err);
    if (e != CUZK_G16_OK) return e;
  }
  if (pos != len) {
    set_err(err, pos, "file", 0);
    return CUZK_G16_ETRAILING;
  }
  return CUZK_G16_OK;
}

/* ---- decode pass ------------------------------------------------------------------------------
 */
/* One point of a query vector: on-curve always, subgroup when asked, never the identity. */
static cuzk_g16_err decode_point(void *dst, const uint8_t *src, bool g2, bool subgroup) {
  cuzk_ec_err e;
  bool inf;
  if (g2) {
    cuzk_g2_affine *r = dst;
    e = subgroup ? cuzk_g2_from_uncompressed(r, src) : cuzk_g2_from_uncompressed_unchecked(r, src);
    inf = e == CUZK_EC_OK && cuzk_g2_affine_is_infinity(r);
  } else {
    cuzk_g1_affine *r = dst;
    e = subgroup ? cuzk_g1_from_uncompressed(r, src) : cuzk_g1_from_uncompressed_unchecked(r, src);
    inf = e == CUZK_EC_OK && cuzk_g1_affine_is_infinity(r);
  }
  if (e != CUZK_EC_OK) return g16_from_ec(e);
  return inf ? CUZK_G16_EINFINITY : CUZK_G16_OK;
}

void g16_g1_trusted(cuzk_g1_affine *r, const uint8_t *src) {
  cuzk_fp_from_bytes(&r->x, src);
  cuzk_fp_from_bytes(&r->y, src + 48);
}

void g16_g2_trusted(cuzk_g2_affine *r, const uint8_t *src) {
  /* an Fp2 coordinate is written c1 first (docs/groth16.md "Parameter files") */
  cuzk_fp_from_bytes(&r->x.c1, src);
  cuzk_fp_from_bytes(&r->x.c0, src + 48);
  cuzk_fp_from_bytes(&r->y.c1, src + 96);
  cuzk_fp_from_bytes(&r->y.c0, src + 144);
}

typedef struct {
  const uint8_t *src;
  uint8_t *dst;
  size_t n, base; /* base: the slice's first element (the parallel loop counts from 0) */
  bool g2, subgroup, trusted;
  _Atomic size_t first_bad; /* lowest failing index found so far; n if none */
  const _Atomic int *cancel;
  atomic_bool cancelled;
} decode_job;

static void decode_range(void *ctx, size_t begin, size_t end) {
  decode_job *j = ctx;
  size_t ssz = j->g2 ? G2U : G1U, dsz = j->g2 ? sizeof(cuzk_g2_affine) : sizeof(cuzk_g1_affine);
  union {
    cuzk_g1_affine g1;
    cuzk_g2_affine g2;
  } scratch; /* a check without a destination decodes here */
  begin += j->base;
  end += j->base;
  for (size_t i = begin; i < end; i++) {
    /* Past a known failure nothing can become the reported one. */
    if (i >= atomic_load_explicit(&j->first_bad, memory_order_relaxed)) return;
    if (j->cancel && (i - begin) % CUZK_G16_READ_CANCEL_POINTS == 0 &&
        atomic_load_explicit(j->cancel, memory_order_relaxed)) {
      atomic_store(&j->cancelled, true);
      return;
    }
    void *dst = j->dst ? j->dst + i * dsz : (void *)&scratch;
    if (j->trusted && j->dst) {
      if (j->g2)
        g16_g2_trusted(dst, j->src + i * ssz);
      else
        g16_g1_trusted(dst, j->src + i * ssz);
      continue;
    }
    if (decode_point(dst, j->src + i * ssz, j->g2, j->subgroup) == CUZK_G16_OK) continue;
    size_t cur = atomic_load_explicit(&j->first_bad, memory_order_relaxed);
    while (i < cur && !atomic_compare_exchange_weak_explicit(
                          &j->first_bad, &cur, i, memory_order_relaxed, memory_order_relaxed)) {
    }
    return;
  }
}

/* A reader's progress over all its query vectors (cuzk_g16_read_opts.progress). */
typedef struct {
  const cuzk_progress *p;
  uint64_t done, total;
  bool release; /* buf is a file mapping read once: each slice's pages leave our page tables */
} read_progress;

/* Points reported at a time: a few seconds of decoding on two cores. */
#define PROGRESS_SLICE ((size_t)1 << 22)

static read_progress progress_of(const cuzk_g16_read_opts *o, const layout *lo) {
  read_progress rp = {o->progress, 0, 0, false};
  for (int k = V_H; k < V_COUNT; k++)
    rp.total += lo->v[k].n;
  return rp;
}

/* Decodes vector k into dst (NULL: checks it only); on failure reports its lowest bad element.
 * With a progress (rp, may be NULL), in slices, reported after each. */
static cuzk_g16_err decode_vector(void *dst, const uint8_t *buf, const span *s, int k,
                                  bool subgroup, bool trusted, cuzk_pool *pool,
                                  unsigned max_workers, const _Atomic int *cancel,
                                  read_progress *rp, cuzk_g16_read_error *err) {
  if (s->n == 0) return CUZK_G16_OK;
  bool g2 = k == V_B2;
  decode_job j = {.src = buf + s->off,
                  .dst = dst,
                  .n = s->n,
                  .g2 = g2,
                  .subgroup = subgroup,
                  .trusted = trusted,
                  .cancel = cancel};
  atomic_init(&j.first_bad, s->n);
  atomic_init(&j.cancelled, false);
  size_t slice = rp && (rp->p || rp->release) ? PROGRESS_SLICE : s->n;
  for (size_t b = 0; b < s->n; b += slice) {
    size_t e = s->n - b < slice ? s->n : b + slice;
    j.base = b;
    cuzk_parallel_for(pool, e - b, 0, decode_range, &j, max_workers);
    if (atomic_load(&j.cancelled) || atomic_load(&j.first_bad) < s->n) break;
    if (rp && rp->release) { /* whole pages inside the slice; advice: failure costs nothing */
      size_t sz = g2 ? G2U : G1U, page = (size_t)sysconf(_SC_PAGESIZE);
      uintptr_t lo = (uintptr_t)(buf + s->off + b * sz), hi = (uintptr_t)(buf + s->off + e * sz);
      lo = (lo + page - 1) & ~(uintptr_t)(page - 1);
      hi &= ~(uintptr_t)(page - 1);
      if (hi > lo) (void)madvise((void *)lo, hi - lo, MADV_DONTNEED);
    }
    if (rp && rp->p) {
      rp->done += e - b;
      cuzk_progress_report(rp->p, vec_name[k], rp->done, rp->total);
    }
  }
  if (atomic_load(&j.cancelled)) return CUZK_G16_ECANCELLED;
  size_t bad = atomic_load(&j.first_bad);
  if (bad == s->n) return CUZK_G16_OK;
  size_t ssz = g2 ? G2U : G1U;
  union {
    cuzk_g1_affine g1;
    cuzk_g2_affine g2;
  } tmp;
  set_err(err, s->off + bad * ssz, vec_name[k], bad);
  cuzk_g16_err e = decode_point(&tmp, buf + s->off + bad * ssz, g2, subgroup);
  return e != CUZK_G16_OK ? e : CUZK_G16_EPOINT; /* unreachable: the decoders are pure */
}

/* The six fixed points (full checks, identity allowed) and ic (full checks, no identity). */
static cuzk_g16_err decode_vk(cuzk_g16_vk *vk, const uint8_t *buf, const layout *lo,
                              cuzk_pool *pool, unsigned max_workers, cuzk_g16_read_error *err) {
  void *dst[6] = {&vk->alpha_g1, &vk->beta_g1,  &vk->beta_g2,
                  &vk->gamma_g2, &vk->delta_g1, &vk->delta_g2};
  size_t pos = 0;
  for (int i = 0; i < 6; i++) {
    cuzk_ec_err e = vk_fixed[i].g2 ? cuzk_g2_from_uncompressed(dst[i], buf + pos)
                                   : cuzk_g1_from_uncompressed(dst[i], buf + pos);
    if (e != CUZK_EC_OK) {
      set_err(err, pos, vk_fixed[i].name, 0);
      return g16_from_ec(e);
    }
    pos += vk_fixed[i].g2 ? G2U : G1U;
  }
  return decode_vector(vk->ic, buf, &lo->v[V_IC], V_IC, true, false, pool, max_workers, NULL, NULL,
                       err);
}

cuzk_g16_err cuzk_g16_vk_read(cuzk_g16_vk **out, const uint8_t *buf, size_t len,
                              cuzk_g16_read_error *err) {
  if (!out) return CUZK_G16_EINVAL;
  *out = NULL;
  if (!buf && len) return CUZK_G16_EINVAL;
  set_err(err, 0, "file", 0);
  layout lo;
  cuzk_g16_err e = layout_parse(&lo, buf, len, false, err);
  if (e != CUZK_G16_OK) return e;
  cuzk_g16_vk *vk = g16_vk_alloc(lo.v[V_IC].n);
  if (!vk) return CUZK_G16_ENOMEM;
  e = decode_vk(vk, buf, &lo, NULL, 0, err);
  if (e != CUZK_G16_OK) {
    cuzk_g16_vk_free(vk);
    return e;
  }
  *out = vk;
  return CUZK_G16_OK;
}

cuzk_g16_err cuzk_g16_params_read(cuzk_g16_params **out, const uint8_t *buf, size_t len,
                                  const cuzk_g16_read_opts *opts, cuzk_g16_read_error *err) {
  if (!out) return CUZK_G16_EINVAL;
  *out = NULL;
  if (!buf && len) return CUZK_G16_EINVAL;
  set_err(err, 0, "file", 0);
  cuzk_g16_read_opts o = {0};
  if (opts) o = *opts;
  layout lo;
  cuzk_g16_err e = layout_parse(&lo, buf, len, true, err);
  if (e != CUZK_G16_OK) return e;
  cuzk_g16_params *p = g16_params_alloc(lo.v[V_IC].n, lo.v[V_H].n, lo.v[V_L].n, lo.v[V_A].n,
                                        lo.v[V_B1].n, lo.v[V_B2].n);
  if (!p) return CUZK_G16_ENOMEM;
  e = decode_vk(&p->vk, buf, &lo, o.pool, o.max_workers, err);
  void *dst[V_COUNT] = {p->vk.ic, p->h, p->l, p->a, p->b_g1, p->b_g2};
  read_progress rp = progress_of(&o, &lo);
  for (int k = V_H; k < V_COUNT && e == CUZK_G16_OK; k++)
    e = decode_vector(dst[k], buf, &lo.v[k], k, o.check_subgroup, o.trusted, o.pool, o.max_workers,
                      o.cancel, &rp, err);
  if (e != CUZK_G16_OK) {
    cuzk_g16_params_free(p);
    return e;
  }
  cuzk_progress_report(o.progress, "done", rp.total, rp.total);
  *out = p;
  return CUZK_G16_OK;
}

cuzk_g16_err g16_params_locate(const uint8_t *buf, size_t len, const cuzk_g16_read_opts *opts,
                               bool check_points, bool mapped, cuzk_g16_vk **vk, size_t n[5],
                               size_t off[5], cuzk_g16_read_error *err) {
  *vk = NULL;
  if (!buf) return CUZK_G16_EINVAL;
  set_err(err, 0, "file", 0);
  cuzk_g16_read_opts o = {0};
  if (opts) o = *opts;
  layout lo;
  cuzk_g16_err e = layout_parse(&lo, buf, len, true, err);
  if (e != CUZK_G16_OK) return e;
  cuzk_g16_vk *v = g16_vk_alloc(lo.v[V_IC].n);
  if (!v) return CUZK_G16_ENOMEM;
  e = decode_vk(v, buf, &lo, o.pool, o.max_workers, err);
  read_progress rp = progress_of(&o, &lo);
  rp.release = mapped;
  for (int k = V_H; k < V_COUNT && e == CUZK_G16_OK; k++) {
    n[k - V_H] = lo.v[k].n;
    off[k - V_H] = lo.v[k].off;
    if (check_points)
      e = decode_vector(NULL, buf, &lo.v[k], k, o.check_subgroup, false, o.pool, o.max_workers,
                        o.cancel, &rp, err);
  }
  if (e != CUZK_G16_OK) {
    cuzk_g16_vk_free(v);
    return e;
  }
  if (check_points) cuzk_progress_report(o.progress, "done", rp.total, rp.total);
  *vk = v;
  return CUZK_G16_OK;
}

/* ---- files ------------------------------------------------------------------------------------
 */
cuzk_g16_err cuzk_g16_params_read_file(cuzk_g16_params **out, const char *path,
                                       const cuzk_g16_read_opts *opts, cuzk_g16_read_error *err) {
  if (!out) return CUZK_G16_EINVAL;
  *out = NULL;
  cuzk_file_map m;
  if (!cuzk_file_map_open(&m, path)) return path ? CUZK_G16_EIO : CUZK_G16_EINVAL;
  cuzk_file_map_sequential(&m);
  cuzk_g16_err e = cuzk_g16_params_read(out, m.data, m.len, opts, err);
  cuzk_file_map_close(&m);
  return e;
}

cuzk_g16_err cuzk_g16_vk_read_file(cuzk_g16_vk **out, const char *path, cuzk_g16_read_error *err) {
  if (!out) return CUZK_G16_EINVAL;
  *out = NULL;
  cuzk_file_map m;
  if (!cuzk_file_map_open(&m, path)) return path ? CUZK_G16_EIO : CUZK_G16_EINVAL;
  cuzk_g16_err e = cuzk_g16_vk_read(out, m.data, m.len, err);
  cuzk_file_map_close(&m);
  return e;
}

/* ---- sizes and writers ------------------------------------------------------------------------
 */
/* Sizes are 0 when a count does not fit the u32 length (such a key cannot be written). */
size_t cuzk_g16_vk_size(const cuzk_g16_vk *vk) {
  if (!vk || vk->n_ic > UINT32_MAX) return 0;
  return VK_FIXED_BYTES + 4 + G1U * vk->n_ic;
}

size_t cuzk_g16_params_size(const cuzk_g16_params *p) {
  if (!p) return 0;
  size_t vk = cuzk_g16_vk_size(&p->vk);
  size_t n[5] = {p->n_h, p->n_l, p->n_a, p->n_b1, p->n_b2};
  for (int i = 0; i < 5; i++)
    if (n[i] > UINT32_MAX) return 0;
  if (!vk) return 0;
  return vk + 5 * 4 + G1U * (p->n_h + p->n_l + p->n_a + p->n_b1) + G2U * p->n_b2;
}

/* Output goes to memory (mem) or, through a buffer, to a file descriptor. */
typedef struct {
  uint8_t *mem;
  int fd;
  uint8_t *buf;
  size_t fill, cap;
  bool failed;
} sink;

static void sink_flush(sink *s) {
  size_t done = 0;
  while (!s->failed && done < s->fill) {
    ssize_t w = write(s->fd, s->buf + done, s->fill - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0)
      s->failed = true;
    else
      done += (size_t)w;
  }
  s->fill = 0;
}

static void sink_put(sink *s, const void *p, size_t n) {
  if (s->mem) {
    memcpy(s->mem, p, n);
    s->mem += n;
    return;
  }
  if (s->fill + n > s->cap) sink_flush(s);
  memcpy(s->buf + s->fill, p, n);
  s->fill += n;
}

static void put_u32(sink *s, size_t n) {
  uint8_t b[4] = {(uint8_t)(n >> 24), (uint8_t)(n >> 16), (uint8_t)(n >> 8), (uint8_t)n};
  sink_put(s, b, 4);
}

static void put_g1s(sink *s, const cuzk_g1_affine *v, size_t n, bool count) {
  uint8_t b[G1U];
  if (count) put_u32(s, n);
  for (size_t i = 0; i < n; i++) {
    cuzk_g1_to_uncompressed(b, &v[i]);
    sink_put(s, b, sizeof b);
  }
}

static void put_g2s(sink *s, const cuzk_g2_affine *v, size_t n, bool count) {
  uint8_t b[G2U];
  if (count) put_u32(s, n);
  for (size_t i = 0; i < n; i++) {
    cuzk_g2_to_uncompressed(b, &v[i]);
    sink_put(s, b, sizeof b);
  }
}

static void put_vk(sink *s, const cuzk_g16_vk *vk) {
  put_g1s(s, &vk->alpha_g1, 1, false);
  put_g1s(s, &vk->beta_g1, 1, false);
  put_g2s(s, &vk->beta_g2, 1, false);
  put_g2s(s, &vk->gamma_g2, 1, false);
  put_g1s(s, &vk->delta_g1, 1, false);
  put_g2s(s, &vk->delta_g2, 1, false);
  put_g1s(s, vk->ic, vk->n_ic, true);
}

static void put_params(sink *s, const cuzk_g16_params *p) {
  put_vk(s, &p->vk);
  put_g1s(s, p->h, p->n_h, true);
  put_g1s(s, p->l, p->n_l, true);
  put_g1s(s, p->a, p->n_a, true);
  put_g1s(s, p->b_g1, p->n_b1, true);
  put_g2s(s, p->b_g2, p->n_b2, true);
}

void cuzk_g16_vk_write(uint8_t *out, const cuzk_g16_vk *vk) {
  if (!out || !cuzk_g16_vk_size(vk)) return;
  sink s = {.mem = out, .fd = -1};
  put_vk(&s, vk);
}

void cuzk_g16_params_write(uint8_t *out, const cuzk_g16_params *p) {
  if (!out || !cuzk_g16_params_size(p)) return;
  sink s = {.mem = out, .fd = -1};
  put_params(&s, p);
}

/* Writes a temporary file next to path, syncs it and renames it over path, so that readers see
 * either the old file or the complete new one. */
static cuzk_g16_err write_file(const char *path, const void *obj, bool params) {
  size_t plen = strlen(path);
  char *tmp = malloc(plen + sizeof ".tmp-XXXXXX");
  uint8_t *buf = malloc((size_t)1 << 20);
  if (!tmp || !buf) {
    free(tmp);
    free(buf);
    return CUZK_G16_ENOMEM;
  }
  memcpy(tmp, path, plen);
  memcpy(tmp + plen, ".tmp-XXXXXX", sizeof ".tmp-XXXXXX");
  cuzk_g16_err e = CUZK_G16_OK;
  int fd = mkstemp(tmp);
  if (fd < 0) {
    e = CUZK_G16_EIO;
    goto out;
  }
  sink s = {.fd = fd, .buf = buf, .cap = (size_t)1 << 20};
  if (params)
    put_params(&s, obj);
  else
    put_vk(&s, obj);
  sink_flush(&s);
  bool ok = !s.failed && fchmod(fd, 0644) == 0 && fsync(fd) == 0;
  if (close(fd) != 0) ok = false;
  if (!ok || rename(tmp, path) != 0) {
    unlink(tmp);
    e = CUZK_G16_EIO;
  }
out:
  free(tmp);
  free(buf);
  return e;
}

cuzk_g16_err cuzk_g16_vk_write_file(const cuzk_g16_vk *vk, const char *path) {
  if (!path || !cuzk_g16_vk_size(vk)) return CUZK_G16_EINVAL;
  return write_file(path, vk, false);
}

cuzk_g16_err cuzk_g16_params_write_file(const cuzk_g16_params *p, const char *path) {
  if (!path || !cuzk_g16_params_size(p)) return CUZK_G16_EINVAL;
  return write_file(path, p, true);
}
