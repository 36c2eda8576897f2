/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * A parameter set read in place (docs/groth16.md "Parameters read in place"): the .params file
 * stays mapped, its verifying key is decoded, and the MSMs decode each chunk of bases from the
 * mapping as they consume it (cuzk/msm/msm.h's streamed MSMs). Every point of the file is checked
 * once — canonical, on the curve, not the identity, and in the subgroup when asked — and marked
 * so (params_mark.c), so that later loads of the same file skip the check.
 */
#define _GNU_SOURCE /* MADV_* */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cuzk/util/errmsg.h"
#include "groth16/g16_internal.h"

#define fail CUZK_FAIL

cuzk_g16_err g16_in_place_open(g16_in_place **out, const char *path, bool subgroup, cuzk_pool *pool,
                               const _Atomic int *cancel, const cuzk_progress *progress,
                               bool *checked, char *msg, size_t len) {
  *out = NULL;
  if (checked) *checked = false;
  g16_in_place *ip = calloc(1, sizeof *ip);
  if (!ip) return fail(msg, len, CUZK_G16_ENOMEM, "%s: out of memory", path);
  if (!cuzk_file_map_open(&ip->map, path)) {
    int err = errno;
    free(ip);
    return fail(msg, len, CUZK_G16_EIO, "%s: %s", path, strerror(err));
  }
  bool trusted = g16_mark_trusted(&ip->map, path, subgroup);
  cuzk_g16_read_opts o = {
      .check_subgroup = subgroup, .pool = pool, .cancel = cancel, .progress = progress};
  cuzk_g16_read_error re = {0, NULL, 0};
  cuzk_g16_err e = ip->map.data ? g16_params_locate(ip->map.data, ip->map.len, &o, !trusted, true,
                                                    &ip->vk, ip->n, ip->off, &re)
                                : CUZK_G16_ETRUNCATED;
  if (e) {
    if (e == CUZK_G16_ECANCELLED)
      (void)fail(msg, len, e, "%s: checking its points: cancelled", path);
    else if (re.what)
      (void)fail(msg, len, e, "%s: %s (at byte %zu, %s[%zu])", path, cuzk_g16_strerror(e),
                 re.offset, re.what, re.index);
    else
      (void)fail(msg, len, e, "%s: %s", path, cuzk_g16_strerror(e));
    g16_in_place_free(ip);
    return e;
  }
  if (!trusted) {
    g16_mark_write(&ip->map, path, subgroup);
    if (checked) *checked = true;
  }
  /* read front to back by each MSM; the streamed MSMs ask for each next chunk ahead, which the
   * read-ahead thread reads while they compute (util/prefetch.h: WILLNEED alone reads 8 MiB) */
  cuzk_file_map_sequential(&ip->map);
  ip->pf = cuzk_prefetch_start(path, ip->map.dev, ip->map.ino);
  *out = ip;
  return CUZK_G16_OK;
}

void g16_in_place_free(g16_in_place *ip) {
  if (!ip) return;
  cuzk_prefetch_stop(ip->pf);
  cuzk_g16_vk_free(ip->vk);
  cuzk_file_map_close(&ip->map);
  free(ip);
}

/* ---- the MSM source -------------------------------------------------------------------------- */

static void fill_g1(const void *ctx, size_t first, size_t count, void *out) {
  const g16_in_place_src *s = ctx;
  const uint8_t *in = s->bytes + (s->first + first) * CUZK_G1_UNCOMPRESSED_BYTES;
  cuzk_g1_affine *r = out;
  /* checked when the file was opened: canonical coordinates, no flags (never the identity) */
  for (size_t i = 0; i < count; i++, in += CUZK_G1_UNCOMPRESSED_BYTES)
    g16_g1_trusted(&r[i], in);
}

static void fill_g2(const void *ctx, size_t first, size_t count, void *out) {
  const g16_in_place_src *s = ctx;
  const uint8_t *in = s->bytes + (s->first + first) * CUZK_G2_UNCOMPRESSED_BYTES;
  cuzk_g2_affine *r = out;
  for (size_t i = 0; i < count; i++, in += CUZK_G2_UNCOMPRESSED_BYTES)
    g16_g2_trusted(&r[i], in);
}

/* The pages holding bases first .. first + count - 1, widened to whole pages. */
static void page_range(const g16_in_place_src *s, size_t first, size_t count, uint8_t **p,
                       size_t *n) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  uintptr_t lo = (uintptr_t)(s->bytes + (s->first + first) * s->size);
  uintptr_t hi = lo + count * s->size;
  lo &= ~(uintptr_t)(page - 1);
  *p = (uint8_t *)lo;
  *n = hi - lo;
}

static void will_need(const void *ctx, size_t first, size_t count) {
  const g16_in_place_src *s = ctx;
  uint8_t *p;
  size_t n;
  page_range(ctx, first, count, &p, &n);
  if (s->ip->pf)
    cuzk_prefetch_want(s->ip->pf, (uint64_t)(p - s->ip->map.data), n);
  else
    (void)madvise(p, n, MADV_WILLNEED); /* advice: a failure only costs speed */
}

/* The chunk's pages leave this process's page tables (they stay in the page cache while the
 * kernel has room), so a proof's resident memory does not grow with the file it reads. Pages
 * shared with the next chunk or another proof are simply faulted in again. */
static void done(const void *ctx, size_t first, size_t count) {
  uint8_t *p;
  size_t n;
  page_range(ctx, first, count, &p, &n);
  (void)madvise(p, n, MADV_DONTNEED);
}

bool g16_in_place_source(const g16_in_place *ip, cuzk_g16_query q, size_t first, size_t count,
                         g16_in_place_src *ctx, cuzk_msm_source *out) {
  if (q > CUZK_G16_Q_B_G2 || first > ip->n[q] || count > ip->n[q] - first) return false;
  bool g2 = q == CUZK_G16_Q_B_G2;
  *ctx = (g16_in_place_src){.bytes = ip->map.data + ip->off[q],
                            .first = first,
                            .size = g2 ? CUZK_G2_UNCOMPRESSED_BYTES : CUZK_G1_UNCOMPRESSED_BYTES,
                            .ip = ip};
  *out = (cuzk_msm_source){
      .fill = g2 ? fill_g2 : fill_g1, .will_need = will_need, .done = done, .ctx = ctx, .chunk = 0};
  return true;
}
