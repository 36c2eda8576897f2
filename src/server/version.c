/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* What this build is (include/cuzk/server/version.h). The commit comes from build_id.c, which the
 * build rewrites only when the commit or the dirty flag changes (src/server/build_id.cmake), so a
 * new commit recompiles that one file; the version comes from CMake (a definition on this file
 * only), the compiler from its own macros, the kernels from the layers that chose them. */
#include "cuzk/server/version.h"

#include <stdio.h>

#include "cuzk/field/field.h"
#include "cuzk/hashes/sha256.h"
#include "server/build_id.h"

#ifndef CUZK_PROJECT_VERSION
#error "CUZK_PROJECT_VERSION comes from src/server/version.cmake"
#endif

#define STR_(x) #x
#define STR(x) STR_(x)
#if defined(__clang__)
#define CUZK_COMPILER \
  "clang " STR(__clang_major__) "." STR(__clang_minor__) "." STR(__clang_patchlevel__)
#elif defined(__GNUC__)
#define CUZK_COMPILER "gcc " STR(__GNUC__) "." STR(__GNUC_MINOR__) "." STR(__GNUC_PATCHLEVEL__)
#else
#define CUZK_COMPILER "unknown"
#endif

void cuzk_build_info_get(cuzk_build_info *out) {
  out->version = CUZK_PROJECT_VERSION;
  out->commit = cuzk_build_id_commit[0] ? cuzk_build_id_commit : "unknown";
  out->dirty = cuzk_build_id_dirty;
  out->compiler = CUZK_COMPILER;
  out->adx = cuzk_field_active_kernel() == CUZK_KERNEL_ADX;
  out->ifma = cuzk_field_ifma_enabled();
  out->sha_ni = cuzk_sha256_active_impl() == CUZK_SHA256_SHANI;
}

size_t cuzk_build_kernels(const cuzk_build_info *b, char *buf, size_t len) {
  if (!b->adx && !b->ifma && !b->sha_ni) return (size_t)snprintf(buf, len, "portable");
  int n = snprintf(buf, len, "%s%s%s%s%s", b->adx ? "adx" : "", b->adx && b->ifma ? "," : "",
                   b->ifma ? "ifma" : "", (b->adx || b->ifma) && b->sha_ni ? "," : "",
                   b->sha_ni ? "sha-ni" : "");
  return n < 0 ? 0 : (size_t)n;
}

size_t cuzk_build_commit(const cuzk_build_info *b, char *buf, size_t len) {
  int n = snprintf(buf, len, "%s%s", b->commit, b->dirty ? "-dirty" : "");
  return n < 0 ? 0 : (size_t)n;
}

size_t cuzk_build_info_line(const cuzk_build_info *b, char *buf, size_t len) {
  char commit[64], kernels[32];
  cuzk_build_commit(b, commit, sizeof commit);
  cuzk_build_kernels(b, kernels, sizeof kernels);
  int n = snprintf(buf, len, "%s (commit %s, %s, kernels %s)", b->version, commit, b->compiler,
                   kernels);
  return n < 0 ? 0 : (size_t)n;
}
