/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Run-time ISA choices (docs/testing.md "Portable paths"): every extension cuzk uses (the ADX
 * field kernels, SHA-NI, the AVX-512 IFMA NTT butterflies) is picked from CPUID when the process
 * starts, with a portable path beside it. Setting the environment variable CUZK_FORCE_PORTABLE
 * to anything but "" or "0" makes every choice take the portable path, so that a machine that has
 * the extensions can still run the portable code end to end.
 */
#ifndef CUZK_CPU_H
#define CUZK_CPU_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* CUZK_FORCE_PORTABLE is set (read once). */
bool cuzk_cpu_force_portable(void);

/* The CPU's model name (/proc/cpuinfo "model name", spaces collapsed; "unknown" where there is
 * none), written NUL-terminated and cut to len - 1 bytes. What measured costs are tied to
 * (cuzk/msm/msm_calibration.h). */
void cuzk_cpu_model(char *out, size_t len);

#ifdef __cplusplus
}
#endif
#endif
