/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Groth16 internals shared by the files of the layer. */
#ifndef CUZK_GROTH16_G16_INTERNAL_H
#define CUZK_GROTH16_G16_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "cuzk/groth16.h"

/* Parameter sets and verifying keys are allocated here only, so that cuzk_g16_params_free and
 * cuzk_g16_vk_free can release what any producer (readers, generator) made. Vectors are large
 * (tens of GiB for 32 GiB PoRep): they come from the huge-page buffer cache. Contents are
 * uninitialized; NULL if out of memory. */
cuzk_g16_params *g16_params_alloc(size_t n_ic, size_t n_h, size_t n_l, size_t n_a, size_t n_b1,
                                  size_t n_b2);
cuzk_g16_vk *g16_vk_alloc(size_t n_ic);

/* A point decoder's error as ours (errors.c): encoding and curve errors are EPOINT, a point
 * outside the subgroup ESUBGROUP. */
cuzk_g16_err g16_from_ec(cuzk_ec_err e);

/* n bytes from getrandom (retrying on EINTR and short reads); false if the source fails. */
bool g16_os_random(void *buf, size_t n);

#endif
