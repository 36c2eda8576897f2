/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * What a build is and what it chose on this machine (docs/deployment.md "Which build answers"):
 * the project's version, the git commit it was built from and whether tracked files differed from
 * it, the compiler, and the CPU kernels picked at start-up (cuzk/util/cpu.h). The programs print it
 * for --version, the daemon logs it when it starts, answers it in GetStatus (cuzk's `build` field)
 * and exports it as the cuzk_build_info metric, so the same line names a build everywhere.
 */
#ifndef CUZK_VERSION_H
#define CUZK_VERSION_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  const char *version;  /* CMakeLists.txt's project() version, "0.1.0" */
  const char *commit;   /* 12 hex digits of the commit built; "unknown" outside a git checkout */
  bool dirty;           /* tracked files differed from that commit when it was built */
  const char *compiler; /* "gcc 12.2.0", "clang 14.0.6" */
  /* the kernels this process runs (chosen from CPUID at start-up, portable without them) */
  bool adx;    /* the field's MULX/ADCX/ADOX Montgomery kernels */
  bool ifma;   /* AVX-512 IFMA: the field's 8-lane kernel and the NTT butterflies */
  bool sha_ni; /* SHA-256 on the SHA extensions */
} cuzk_build_info;

void cuzk_build_info_get(cuzk_build_info *out);

/* The kernels as one word list: "adx,ifma,sha-ni" (those in use, in that order), "portable" when
 * none. Formatted like snprintf: returns the length the whole text needs. */
size_t cuzk_build_kernels(const cuzk_build_info *b, char *buf, size_t len);

/* The commit with "-dirty" appended when tracked files differed ("0123456789ab-dirty"). */
size_t cuzk_build_commit(const cuzk_build_info *b, char *buf, size_t len);

/* The line --version prints after the program's name, the daemon logs and GetStatus answers:
 * "0.1.0 (commit 0123456789ab-dirty, gcc 12.2.0, kernels adx,ifma,sha-ni)". */
size_t cuzk_build_info_line(const cuzk_build_info *b, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
