/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Groth16 internals shared by the files of the layer. */
#ifndef CUZK_GROTH16_G16_INTERNAL_H
#define CUZK_GROTH16_G16_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "cuzk/groth16/g16_backend.h"
#include "cuzk/groth16/groth16.h"
#include "cuzk/msm/msm.h"
#include "cuzk/ntt/ntt.h"
#include "cuzk/util/file_map.h"
#include "util/prefetch.h"

/* Parameter sets and verifying keys are allocated here only, so that cuzk_g16_params_free and
 * cuzk_g16_vk_free can release what any producer (readers, generator) made. Vectors are large
 * (tens of GiB for 32 GiB PoRep): they come from the huge-page buffer cache. Contents are
 * uninitialized; NULL if out of memory. */
cuzk_g16_params *g16_params_alloc(size_t n_ic, size_t n_h, size_t n_l, size_t n_a, size_t n_b1,
                                  size_t n_b2);
cuzk_g16_vk *g16_vk_alloc(size_t n_ic);

/* A lower layer's error as ours (errors.c; docs/architecture.md "Conventions"): encoding and
 * curve errors are EPOINT, a point outside the subgroup ESUBGROUP; out of memory and cancelled
 * keep their meaning; anything else an NTT or MSM reports is the prover's own bug, EINVAL. */
cuzk_g16_err g16_from_ec(cuzk_ec_err e);
cuzk_g16_err g16_from_ntt(cuzk_ntt_err e);
cuzk_g16_err g16_from_msm(cuzk_msm_err e);

/* params_io.c: a full .params file's verifying key (decoded, fully checked) and where its query
 * vectors h, l, a, b_g1, b_g2 lie (counts n, byte offsets off); with check_points every query
 * point is checked as cuzk_g16_params_read would decode it (on the curve, not the identity, in
 * the subgroup with opts->check_subgroup), err naming the first bad one; mapped: buf is a
 * read-only file mapping, whose pages the check gives back as it goes (MADV_DONTNEED: the
 * process's resident set does not grow with the file). *vk is the caller's. */
cuzk_g16_err g16_params_locate(const uint8_t *buf, size_t len, const cuzk_g16_read_opts *opts,
                               bool check_points, bool mapped, cuzk_g16_vk **vk, size_t n[5],
                               size_t off[5], cuzk_g16_read_error *err);

/* params_io.c: a point of a file checked before (PATH.checked, or the check of an in-place
 * attach), decoded with nothing checked: the coordinates into Montgomery form. */
void g16_g1_trusted(cuzk_g1_affine *r, const uint8_t *src);
void g16_g2_trusted(cuzk_g2_affine *r, const uint8_t *src);

/* params_mark.c: PATH.checked. Whether it names this very file (m mapped from path) as checked,
 * with the subgroup tests when subgroup; and writing it once every point of the file was checked
 * so (a directory we cannot write only means the next load checks again). */
bool g16_mark_trusted(const cuzk_file_map *m, const char *path, bool subgroup);
void g16_mark_write(const cuzk_file_map *m, const char *path, bool subgroup);

/* params_in_place.c: a parameter set read in place (docs/groth16.md "Parameters read in
 * place"): its own mapping of the .params file, the verifying key, the query vectors' counts and
 * offsets (h, l, a, b_g1, b_g2: cuzk_g16_query's order). */
typedef struct {
  cuzk_file_map map;
  cuzk_g16_vk *vk;
  size_t n[5], off[5];
  cuzk_prefetch *pf; /* the read-ahead thread of the MSMs' next chunks, or NULL (madvise) */
} g16_in_place;

/* Maps path and checks every point (in the subgroup too with subgroup) unless PATH.checked says
 * this very file was checked so (*checked: whether it was checked now); msg names the file and
 * the first bad point. */
cuzk_g16_err g16_in_place_open(g16_in_place **out, const char *path, bool subgroup, cuzk_pool *pool,
                               const _Atomic int *cancel, const cuzk_progress *progress,
                               bool *checked, char *msg, size_t len);
void g16_in_place_free(g16_in_place *ip);

/* A streamed MSM's source over bases first .. first + count - 1 of query q (ctx is filled and
 * must live as long as the source); false when they run past the vector. */
typedef struct {
  const uint8_t *bytes; /* the vector's first point */
  size_t first, size;   /* the MSM's base 0, bytes per point */
  const g16_in_place *ip;
} g16_in_place_src;
bool g16_in_place_source(const g16_in_place *ip, cuzk_g16_query q, size_t first, size_t count,
                         g16_in_place_src *ctx, cuzk_msm_source *out);

/* n bytes from getrandom (retrying on EINTR and short reads); false if the source fails. */
bool g16_os_random(void *buf, size_t n);

#endif
