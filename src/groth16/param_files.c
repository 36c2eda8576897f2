/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* A circuit's parameter files as one unit (docs/groth16.md "Parameter files"): loading base.params
 * and base.vk with messages that name the file, and writing TEST parameters for a synthesized
 * circuit. Every proof kind uses these through its own file naming. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cuzk/errmsg.h"
#include "cuzk/groth16.h"
#include "cuzk/sha256.h"

#define fail CUZK_FAIL

cuzk_g16_err cuzk_g16_pvk_load(const char *base, cuzk_g16_pvk **pvk, char *msg, size_t len) {
  char path[4200];
  *pvk = NULL;
  snprintf(path, sizeof path, "%s.vk", base);
  cuzk_g16_vk *vk;
  cuzk_g16_err e = cuzk_g16_vk_read_file(&vk, path, NULL);
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
  cuzk_g16_read_opts ro = {false, pool, 0, cancel, NULL};
  cuzk_g16_err e = cuzk_g16_params_read(params, m->data, m->len, &ro, &re);
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
  if (!cuzk_file_map_open(&m, path)) {
    e = fail(msg, len, CUZK_G16_EIO, "%s: %s", path, cuzk_g16_strerror(CUZK_G16_EIO));
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

cuzk_g16_err cuzk_g16_setup_test_params(const char *base, uint64_t sector_bytes,
                                        cuzk_g16_synth_fn synth, const void *ctx, cuzk_pool *pool,
                                        const cuzk_progress *progress, double *gen_s, char *msg,
                                        size_t len) {
  if (!base || !synth) return fail(msg, len, CUZK_G16_EINVAL, "setup: NULL argument");
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, CUZK_CS_RECORD);
  o.cancel = progress ? progress->cancel : NULL; /* the blank synthesis stops too */
  cuzk_cs *cs;
  if (cuzk_cs_create(&cs, &o)) return fail(msg, len, CUZK_G16_ENOMEM, "setup: out of memory");
  char sub[512] = "";
  cuzk_g16_err e = CUZK_G16_OK;
  if (!synth(cs, ctx, sub, sizeof sub))
    e = fail(msg, len, CUZK_G16_EINVAL, "setup: synthesis: %s", sub);
  else
    e = cuzk_g16_write_test_params(base, cs, sector_bytes, pool, progress, gen_s, msg, len);
  cuzk_cs_destroy(cs);
  return e;
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
  if (!make_parent_dirs(base))
    return fail(msg, len, CUZK_G16_EIO, "setup: cannot create the directory of %s: %s", base,
                strerror(errno));
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  uint8_t seed[32];
  cuzk_sha256(seed, base, strlen(base)); /* deterministic per file name */
  cuzk_g16_params *params;
  cuzk_g16_err e = cuzk_g16_generate(&params, cs, seed, pool, 0, progress);
  if (e) return fail(msg, len, e, "setup: generating: %s", cuzk_g16_strerror(e));
  clock_gettime(CLOCK_MONOTONIC, &t1);
  if (gen_s) *gen_s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  char path[4200];
  snprintf(path, sizeof path, "%s.params", base);
  e = cuzk_g16_params_write_file(params, path);
  if (!e) {
    snprintf(path, sizeof path, "%s.vk", base);
    e = cuzk_g16_vk_write_file(&params->vk, path);
  }
  if (!e) {
    snprintf(path, sizeof path, "%s.meta", base);
    e = cuzk_g16_meta_write_file(path, sector_bytes, true);
  }
  cuzk_g16_params_free(params);
  if (e) return fail(msg, len, e, "setup: writing %s: %s", path, cuzk_g16_strerror(e));
  return CUZK_G16_OK;
}
