/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The C1 output inside the porep layer: the public contract is include/cuzk/c1.h; errors are
 * reported as everywhere in the layer (porep/fail.h). */
#ifndef CUZK_POREP_C1_H
#define CUZK_POREP_C1_H

#include "cuzk/c1.h"
#include "porep/fail.h"

#endif
