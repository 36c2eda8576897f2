/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* A circuit's parameter files as one unit (docs/groth16.md "Parameter files"): loading base.params
 * and base.vk with messages that name the file, and writing TEST parameters for a synthesized
 * circuit. Every proof kind uses these through its own file naming. */
#define _GNU_SOURCE /* fallocate */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/groth16/groth16.h"
#include "cuzk/hashes/sha256.h"
#include "cuzk/util/errmsg.h"
#include "groth16/g16_internal.h"

#define fail CUZK_FAIL

cuzk_g16_err cuzk_g16_pvk_load(const char *base, cuzk_g16_pvk **pvk, char *msg, size_t len) {
  char path[4200];
  *pvk = NULL;
  snprintf(path, sizeof path, "%s.vk", base);
  cuzk_g16_vk *vk;
  errno = 0;
  cuzk_g16_err e = cuzk_g16_vk_read_file(&vk, path, NULL);
  if (e == CUZK_G16_EIO && errno) /* name the cause: a missing file, a permission */
    return fail(msg, len, e, "%s: %s", path, strerror(errno));
  if (e) return fail(msg, len, e, "%s: %s", path, cuzk_g16_strerror(e));
  e = cuzk_g16_pvk_prepare(pvk, vk);
  cuzk_g16_vk_free(vk);
  if (e) return fail(msg, len, e, "%s: %s", path, cuzk_g16_strerror(e));
  return CUZK_G16_OK;
}

cuzk_g16_err cuzk_g16_params_decode(const cuzk_file_map *m, const char *path, cuzk_pool *pool,
                                    const _Atomic int *cancel, cuzk_g16_params **params, char *msg,
                                    size_t len) {
  cuzk_g16_read_error re = {0, NULL, 0};
  cuzk_g16_read_opts ro = {false, pool, 0, cancel, NULL, false};
  /* a file whose points were checked before (by either path) is decoded unchecked, and one
   * checked now is marked so: docs/groth16.md "Parameters read in place" */
  ro.trusted = path && g16_mark_trusted(m, path, false);
  cuzk_g16_err e = cuzk_g16_params_read(params, m->data, m->len, &ro, &re);
  if (!e && !ro.trusted && path) g16_mark_write(m, path, false);
  if (!e) return CUZK_G16_OK;
  if (re.what)
    return fail(msg, len, e, "%s: %s (at byte %zu, %s[%zu])", path, cuzk_g16_strerror(e), re.offset,
                re.what, re.index);
  return fail(msg, len, e, "%s: %s", path, cuzk_g16_strerror(e));
}

cuzk_g16_err cuzk_g16_params_load(const char *base, cuzk_pool *pool, const _Atomic int *cancel,
                                  cuzk_g16_params **params, cuzk_g16_pvk **pvk, char *msg,
                                  size_t len) {
  char path[4200];
  *params = NULL;
  cuzk_g16_err e = cuzk_g16_pvk_load(base, pvk, msg, len);
  if (e) return e;
  snprintf(path, sizeof path, "%s.params", base);
  cuzk_file_map m;
  errno = 0;
  if (!cuzk_file_map_open(&m, path)) {
    e = fail(msg, len, CUZK_G16_EIO, "%s: %s", path,
             errno ? strerror(errno) : cuzk_g16_strerror(CUZK_G16_EIO));
  } else {
    cuzk_file_map_sequential(&m);
    e = cuzk_g16_params_decode(&m, path, pool, cancel, params, msg, len);
  }
  cuzk_file_map_close(&m);
  if (e) {
    cuzk_g16_pvk_free(*pvk);
    *pvk = NULL;
  }
  return e;
}

/* mkdir -p of the directory part of base (mode 0755); false with errno on failure. */
static bool make_parent_dirs(const char *base) {
  char buf[4096];
  size_t n = strlen(base);
  if (n == 0 || n >= sizeof buf) return false;
  memcpy(buf, base, n + 1);
  for (size_t i = 1; i < n; i++) {
    if (buf[i] != '/') continue;
    buf[i] = 0;
    struct stat st;
    if (stat(buf, &st) != 0) {
      if (mkdir(buf, 0755) != 0 && errno != EEXIST) return false;
    } else if (!S_ISDIR(st.st_mode)) {
      errno = ENOTDIR;
      return false;
    }
    buf[i] = '/';
  }
  return true;
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void cuzk_g16_testgen_opts_default(cuzk_g16_testgen_opts *o) {
  memset(o, 0, sizeof *o);
  o->free_bytes = -1;
  o->spill_pce_bytes = (size_t)64 << 20;
  o->spill_record_bytes = (size_t)256 << 20;
  const char *g = getenv("CUZK_SETUP_GENERATOR"), *mem = getenv("CUZK_SETUP_MEM_MIB");
  o->in_memory = g && !strcmp(g, "memory");
  if (mem && *mem) {
    char *end;
    unsigned long long mib = strtoull(mem, &end, 10);
    if (!*end && mib && mib < ((size_t)1 << 40)) o->mem_bytes = (size_t)mib << 20;
  }
}

/* The directory base's files go to ("." for a bare name); false if it does not fit. */
static bool base_dir(const char *base, char dir[4096]) {
  const char *slash = strrchr(base, '/');
  size_t n = slash ? (size_t)(slash - base) : 0;
  if (n >= 4096) return false;
  if (slash && n == 0) n = 1; /* "/name" */
  memcpy(dir, slash ? base : ".", slash ? n : 1);
  dir[slash ? n : 1] = 0;
  return true;
}

/* Bytes free to an unprivileged writer in the directory of base (statvfs), or the options'. */
static bool free_space(const char *base, const cuzk_g16_testgen_opts *o, uint64_t *out) {
  if (o->free_bytes >= 0) {
    *out = (uint64_t)o->free_bytes;
    return true;
  }
  char dir[4096];
  if (!base_dir(base, dir)) return false;
  struct statvfs st;
  if (statvfs(dir, &st) != 0) return false;
  *out = (uint64_t)st.f_bavail * (uint64_t)st.f_frsize;
  return true;
}

/* The space check: what the files need against what is free, an error naming both. A partial
 * file of an earlier run (truncated when this one starts) counts as free. */
static cuzk_g16_err check_space(const char *base, uint64_t need, const cuzk_g16_testgen_opts *o,
                                uint64_t *avail_out, char *msg, size_t len) {
  uint64_t avail;
  if (!free_space(base, o, &avail))
    return fail(msg, len, CUZK_G16_EIO, "setup: cannot tell the free space beside %s: %s", base,
                strerror(errno));
  char partial[4200];
  struct stat st;
  snprintf(partial, sizeof partial, "%s.params.partial", base);
  if (o->free_bytes < 0 && stat(partial, &st) == 0 && S_ISREG(st.st_mode))
    avail += (uint64_t)st.st_blocks * 512;
  if (avail_out) *avail_out = avail;
  if (need > avail)
    return fail(msg, len, CUZK_G16_EIO,
                "setup: not enough disk space for %s.{params,vk,meta}: %llu bytes needed "
                "(%.2f GiB), %llu bytes free (%.2f GiB)",
                base, (unsigned long long)need, (double)need / (double)(1u << 30),
                (unsigned long long)avail, (double)avail / (double)(1u << 30));
  return CUZK_G16_OK;
}

#define META_BYTES 4096 /* a .meta file's block, at most */

/* The evaluator moved to a temporary .pce file beside base and mapped from it: the generator's
 * walks then give its pages back (cuzk_pce_release_rows) instead of holding them as anonymous
 * memory. The file is unlinked as soon as it is mapped (the mapping keeps the inode), so nothing
 * stays behind whatever happens next. On failure *pce is unchanged if the file could not be
 * written, NULL if it could not be mapped back. */
static cuzk_g16_err spill_pce(const char *base, cuzk_pce **pce, char *msg, size_t len) {
  char path[4200], why[512] = "";
  static const uint8_t tag[32];
  snprintf(path, sizeof path, "%s.setup.pce.partial", base);
  if (cuzk_pce_write_file(*pce, path, "cuzk-setup", tag) != CUZK_R1CS_OK) {
    unlink(path);
    return fail(msg, len, CUZK_G16_EIO, "setup: writing %s: %s", path, strerror(errno));
  }
  cuzk_pce_free(*pce); /* first: the two never resident together */
  *pce = NULL;
  cuzk_r1cs_err e = cuzk_pce_read_file(pce, path, "cuzk-setup", tag, NULL, why, sizeof why);
  unlink(path);
  if (e) return fail(msg, len, CUZK_G16_EIO, "setup: mapping the matrices back: %s", why);
  return CUZK_G16_OK;
}

/* The .vk and .meta files beside a .params file already in place. */
static cuzk_g16_err write_vk_meta(const char *base, const cuzk_g16_vk *vk, uint64_t sector_bytes,
                                  char *msg, size_t len) {
  char path[4200];
  snprintf(path, sizeof path, "%s.vk", base);
  cuzk_g16_err e = cuzk_g16_vk_write_file(vk, path);
  if (!e) {
    snprintf(path, sizeof path, "%s.meta", base);
    e = cuzk_g16_meta_write_file(path, sector_bytes, true);
  }
  if (e) return fail(msg, len, e, "setup: writing %s: %s", path, cuzk_g16_strerror(e));
  return CUZK_G16_OK;
}

/* What both generators do first: base's directory made, and the seed (o->seed, or SHA-256 of
 * the base path: deterministic per file name). */
static cuzk_g16_err testgen_begin(const char *base, const cuzk_g16_testgen_opts *o,
                                  uint8_t seed[32], char *msg, size_t len) {
  if (!make_parent_dirs(base))
    return fail(msg, len, CUZK_G16_EIO, "setup: cannot create the directory of %s: %s", base,
                strerror(errno));
  if (o->seed)
    memcpy(seed, o->seed, 32);
  else
    cuzk_sha256(seed, base, strlen(base));
  return CUZK_G16_OK;
}

/* The streaming path; *pce may be replaced by its mapped copy (may_spill). */
static cuzk_g16_err testgen_stream(const char *base, cuzk_pce **pce, bool may_spill,
                                   uint64_t sector_bytes, cuzk_pool *pool,
                                   const cuzk_progress *progress, const cuzk_g16_testgen_opts *o,
                                   double *gen_s, char *msg, size_t len) {
  double t0 = now_s();
  uint8_t seed[32];
  cuzk_g16_err e = testgen_begin(base, o, seed, msg, len);
  if (e) return e;
  cuzk_g16_gen_plan plan;
  e = cuzk_g16_gen_plan_of(*pce, &plan);
  if (e) return fail(msg, len, e, "setup: %s", cuzk_g16_strerror(e));
  bool spill = may_spill && !cuzk_pce_mapped(*pce) && cuzk_pce_bytes(*pce) >= o->spill_pce_bytes;
  uint64_t need = plan.params_bytes + plan.vk_bytes + META_BYTES, avail = 0;
  if ((e = check_space(base, need, o, &avail, msg, len))) return e;
  /* the temporary .pce only where the disk holds it too: otherwise the evaluator stays in memory
   * (its size more resident, the same file) */
  if (spill && avail - need < cuzk_pce_bytes(*pce)) spill = false;
  if (spill && (e = spill_pce(base, pce, msg, len))) return e;
  char path[4200], partial[4200];
  snprintf(path, sizeof path, "%s.params", base);
  snprintf(partial, sizeof partial, "%s.params.partial", base);
  int fd = open(partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return fail(msg, len, CUZK_G16_EIO, "setup: creating %s: %s", partial, strerror(errno));
  /* the whole file reserved up front: a disk that fills meanwhile fails here, not at 90 % */
  if (fallocate(fd, 0, 0, (off_t)plan.params_bytes) != 0) {
    int err = errno;
    if ((err != EOPNOTSUPP && err != ENOSYS) || ftruncate(fd, (off_t)plan.params_bytes) != 0) {
      close(fd);
      unlink(partial);
      return fail(msg, len, CUZK_G16_EIO, "setup: reserving %llu bytes for %s: %s",
                  (unsigned long long)plan.params_bytes, partial, strerror(err));
    }
  }
  cuzk_g16_gen_opts go = {.pool = pool, .progress = progress, .mem_bytes = o->mem_bytes};
  cuzk_g16_vk *vk = NULL;
  e = cuzk_g16_generate_fd(*pce, seed, fd, &vk, &go);
  int err = 0;
  if (!e && (fsync(fd) != 0 || close(fd) != 0)) {
    err = errno;
    e = CUZK_G16_EIO;
    fd = -1;
  }
  if (e) {
    if (fd >= 0) close(fd);
    unlink(partial);
    cuzk_g16_vk_free(vk);
    if (err) return fail(msg, len, e, "setup: writing %s: %s", partial, strerror(err));
    return fail(msg, len, e, "setup: generating %s: %s", path, cuzk_g16_strerror(e));
  }
  if (rename(partial, path) != 0) {
    err = errno;
    unlink(partial);
    cuzk_g16_vk_free(vk);
    return fail(msg, len, CUZK_G16_EIO, "setup: renaming %s: %s", partial, strerror(err));
  }
  /* every point was made here as a multiple of a generator: on the curve and in the subgroup,
   * so the file is marked checked at once and its first load skips the check (minutes at 32 GiB;
   * docs/groth16.md "Parameters read in place") */
  cuzk_file_map m;
  if (cuzk_file_map_open(&m, path)) {
    g16_mark_write(&m, path, true);
    cuzk_file_map_close(&m);
  }
  if (gen_s) *gen_s = now_s() - t0;
  e = write_vk_meta(base, vk, sector_bytes, msg, len);
  cuzk_g16_vk_free(vk);
  return e;
}

cuzk_g16_err cuzk_g16_write_test_params_pce(const char *base, const cuzk_pce *pce,
                                            uint64_t sector_bytes, cuzk_pool *pool,
                                            const cuzk_progress *progress,
                                            const cuzk_g16_testgen_opts *opts, double *gen_s,
                                            char *msg, size_t len) {
  if (!base || !pce) return fail(msg, len, CUZK_G16_EINVAL, "setup: NULL argument");
  cuzk_g16_testgen_opts o;
  if (opts)
    o = *opts;
  else
    cuzk_g16_testgen_opts_default(&o);
  cuzk_pce *p = (cuzk_pce *)(uintptr_t)pce; /* never replaced: no spill of the caller's */
  return testgen_stream(base, &p, false, sector_bytes, pool, progress, &o, gen_s, msg, len);
}

/* The in-memory path (cuzk_g16_generate, then the files), as before the streaming generator. */
static cuzk_g16_err testgen_memory(const char *base, cuzk_cs *cs, uint64_t sector_bytes,
                                   cuzk_pool *pool, const cuzk_progress *progress,
                                   const cuzk_g16_testgen_opts *o, double *gen_s, char *msg,
                                   size_t len) {
  double t0 = now_s();
  uint8_t seed[32];
  cuzk_g16_err e = testgen_begin(base, o, seed, msg, len);
  if (e) return e;
  cuzk_g16_params *params;
  e = cuzk_g16_generate(&params, cs, seed, pool, 0, progress);
  if (e) return fail(msg, len, e, "setup: generating: %s", cuzk_g16_strerror(e));
  if (gen_s) *gen_s = now_s() - t0;
  uint64_t need = cuzk_g16_params_size(params) + cuzk_g16_vk_size(&params->vk) + META_BYTES;
  if ((e = check_space(base, need, o, NULL, msg, len))) {
    cuzk_g16_params_free(params);
    return e;
  }
  char path[4200];
  snprintf(path, sizeof path, "%s.params", base);
  e = cuzk_g16_params_write_file(params, path);
  if (e) {
    cuzk_g16_params_free(params);
    return fail(msg, len, e, "setup: writing %s: %s", path, cuzk_g16_strerror(e));
  }
  e = write_vk_meta(base, &params->vk, sector_bytes, msg, len);
  cuzk_g16_params_free(params);
  return e;
}

/* cs (owned: destroyed as soon as its matrices are in the evaluator, when *cs_owned) */
static cuzk_g16_err write_test_params(const char *base, cuzk_cs **cs_owned, cuzk_cs *cs,
                                      uint64_t sector_bytes, cuzk_pool *pool,
                                      const cuzk_progress *progress, const cuzk_g16_testgen_opts *o,
                                      double *gen_s, char *msg, size_t len) {
  if (o->in_memory)
    return testgen_memory(base, cs, sector_bytes, pool, progress, o, gen_s, msg, len);
  cuzk_pce *pce = NULL;
  cuzk_r1cs_err r = cuzk_cs_finish(cs);
  if (!r) r = cuzk_cs_error(cs);
  if (!r) r = cuzk_pce_create(&pce, cs); /* a compact recording's matrices move: no copy */
  int io = cuzk_cs_io_errno(cs);
  if (cs_owned) { /* what the recording kept besides the matrices goes before the generation */
    cuzk_cs_destroy(*cs_owned);
    *cs_owned = NULL;
  }
  if (r == CUZK_R1CS_ENOMEM) return fail(msg, len, CUZK_G16_ENOMEM, "setup: out of memory");
  if (r == CUZK_R1CS_EIO)
    return fail(msg, len, CUZK_G16_EIO,
                "setup: recording the circuit into a temporary file beside %s: %s", base,
                strerror(io));
  if (r == CUZK_R1CS_ECANCELLED)
    return fail(msg, len, CUZK_G16_ECANCELLED, "setup: %s", cuzk_g16_strerror(CUZK_G16_ECANCELLED));
  if (r)
    return fail(msg, len, CUZK_G16_ESYNTH, "setup: the recorded circuit: %s",
                cuzk_r1cs_strerror(r));
  cuzk_g16_err e =
      testgen_stream(base, &pce, true, sector_bytes, pool, progress, o, gen_s, msg, len);
  cuzk_pce_free(pce);
  return e;
}

cuzk_g16_err cuzk_g16_setup_test_params_opts(const char *base, uint64_t sector_bytes,
                                             cuzk_g16_synth_fn synth, const void *ctx,
                                             cuzk_pool *pool, const cuzk_progress *progress,
                                             const cuzk_g16_testgen_opts *opts, double *gen_s,
                                             char *msg, size_t len) {
  if (!base || !synth) return fail(msg, len, CUZK_G16_EINVAL, "setup: NULL argument");
  cuzk_g16_testgen_opts o;
  if (opts)
    o = *opts;
  else
    cuzk_g16_testgen_opts_default(&o);
  cuzk_cs_opts co;
  cuzk_cs_opts_default(&co, CUZK_CS_RECORD);
  co.cancel = progress ? progress->cancel : NULL; /* the blank synthesis stops too */
  co.record_compact = !o.in_memory;               /* 6 bytes a term, moved into the evaluator */
  /* a recording beyond o.spill_record_bytes goes to temporary files beside the parameters, so
   * the generator's memory stays bounded at any size (docs/groth16.md "TEST parameters written
   * as they are made") */
  char dir[4096];
  if (!o.in_memory && o.spill_record_bytes != SIZE_MAX && base_dir(base, dir)) {
    if (!make_parent_dirs(base))
      return fail(msg, len, CUZK_G16_EIO, "setup: cannot create the directory of %s: %s", base,
                  strerror(errno));
    co.spill_dir = dir;
    co.spill_bytes = o.spill_record_bytes;
  }
  cuzk_cs *cs;
  if (cuzk_cs_create(&cs, &co)) return fail(msg, len, CUZK_G16_ENOMEM, "setup: out of memory");
  char sub[512] = "";
  cuzk_g16_err e = CUZK_G16_OK;
  if (!synth(cs, ctx, sub, sizeof sub))
    e = fail(msg, len, CUZK_G16_EINVAL, "setup: synthesis: %s", sub);
  else
    e = write_test_params(base, &cs, cs, sector_bytes, pool, progress, &o, gen_s, msg, len);
  cuzk_cs_destroy(cs);
  return e;
}

cuzk_g16_err cuzk_g16_setup_test_params(const char *base, uint64_t sector_bytes,
                                        cuzk_g16_synth_fn synth, const void *ctx, cuzk_pool *pool,
                                        const cuzk_progress *progress, double *gen_s, char *msg,
                                        size_t len) {
  return cuzk_g16_setup_test_params_opts(base, sector_bytes, synth, ctx, pool, progress, NULL,
                                         gen_s, msg, len);
}

bool cuzk_g16_param_base(char *out, size_t len, const char *dir, const char *prefix,
                         const char *identifier) {
  char id[512];
  if (!out || !dir || cuzk_g16_cache_id(id, sizeof id, prefix, identifier)) return false;
  int n = snprintf(out, len, "%s/v%d-%s", dir, CUZK_G16_PARAMS_VERSION, id);
  return n > 0 && (size_t)n < len;
}

cuzk_g16_err cuzk_g16_write_test_params(const char *base, cuzk_cs *cs, uint64_t sector_bytes,
                                        cuzk_pool *pool, const cuzk_progress *progress,
                                        double *gen_s, char *msg, size_t len) {
  if (!base || !cs) return fail(msg, len, CUZK_G16_EINVAL, "setup: NULL argument");
  cuzk_g16_testgen_opts o;
  cuzk_g16_testgen_opts_default(&o);
  return write_test_params(base, NULL, cs, sector_bytes, pool, progress, &o, gen_s, msg, len);
}
