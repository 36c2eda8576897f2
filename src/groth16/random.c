/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* OS randomness for the prover's r, s and the batch verifier's weights (g16_internal.h). */
#define _GNU_SOURCE /* getrandom */
#include <errno.h>
#include <sys/random.h>

#include "groth16/g16_internal.h"

bool g16_os_random(void *buf, size_t n) {
  unsigned char *b = buf;
  size_t got = 0;
  while (got < n) {
    ssize_t k = getrandom(b + got, n - got, 0);
    if (k < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    got += (size_t)k;
  }
  return true;
}
