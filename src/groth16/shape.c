/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Circuit shape and the parameter-shape check (docs/spec/groth16.md §2.1, §13 step 2). */
#include "groth16/g16_internal.h"

#define G16_MAX_LOG_DOMAIN 27

/* Assumes the per-input constraints x_i * 0 = 0 have NOT been appended yet (the prover and the
 * generator append them; a cuzk_cs cannot tell), so num_inputs is added to the constraint count.
 * They touch only A (every input, already counted as present by n_a = inputs + a_aux) and leave
 * the densities unchanged. */
cuzk_g16_err cuzk_g16_shape_of(cuzk_g16_shape *s, const cuzk_cs *cs) {
  if (!s || !cs) return CUZK_G16_EINVAL;
  if (cuzk_cs_error(cs) != CUZK_R1CS_OK || cuzk_cs_mode_of(cs) != CUZK_CS_PROVE)
    return CUZK_G16_ESYNTH;
  cuzk_cs_result r;
  cuzk_cs_result_get(cs, &r);
  s->num_inputs = r.num_inputs;
  s->num_aux = r.num_aux;
  s->num_constraints = r.num_constraints + r.num_inputs;
  s->a_aux_density = r.a_aux.count;
  s->b_input_density = r.b_input.count;
  s->b_aux_density = r.b_aux.count;
  return CUZK_G16_OK;
}

/* bellperson's EvaluationDomain: m = 1, doubled while m < n (so 0 and 1 constraints give 1). */
size_t cuzk_g16_domain_size(size_t num_constraints) {
  size_t m = 1;
  while (m < num_constraints) {
    if (m == (size_t)1 << G16_MAX_LOG_DOMAIN) return 0;
    m <<= 1;
  }
  return m;
}

cuzk_g16_err cuzk_g16_params_check_shape(const cuzk_g16_params *p, const cuzk_g16_shape *s) {
  if (!p || !s) return CUZK_G16_EINVAL;
  size_t m = cuzk_g16_domain_size(s->num_constraints);
  if (!m) return CUZK_G16_ESHAPE;
  size_t nb = s->b_input_density + s->b_aux_density;
  if (p->vk.n_ic != s->num_inputs || p->n_h != m - 1 || p->n_l != s->num_aux ||
      p->n_a != s->num_inputs + s->a_aux_density || p->n_b1 != nb || p->n_b2 != nb)
    return CUZK_G16_ECOUNT;
  return CUZK_G16_OK;
}
