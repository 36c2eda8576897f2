/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The factors a pass multiplies its tiles by, shared by the scalar passes (engine.c) and the IFMA
 * kernels (ifma.c), so that neither kernel file depends on the orchestrator: the column factors
 * of a scaling (pre/post twist, coset shift, 1/n) and the bases of the twiddle levels derived per
 * tile. See pass.h. */
#include "ntt/pass.h"

void ntt_scale_cols(cuzk_fr *colf, const ntt_pass_ctx *P, const ntt_scale *sc, const cuzk_fr *cstep,
                    size_t g, size_t c0) {
  const unsigned k = P->job->k, lo = P->lo, b = P->b;
  if (sc->kind == NTT_SCALE_CONST) {
    for (size_t c = 0; c < P->C; c++)
      colf[c] = sc->K;
  } else if (sc->kind == NTT_SCALE_NAT) {
    ntt_fr_pow_u64(&colf[0], &sc->s, ((uint64_t)g << (lo + b)) + c0);
    cuzk_fr_mul(&colf[0], &colf[0], &sc->K);
    for (size_t c = 1; c < P->C; c++)
      cuzk_fr_mul(&colf[c], &colf[c - 1], &sc->s);
  } else {
    cuzk_fr base;
    ntt_fr_pow_u64(&base, &sc->s, ntt_bitrev(g, k - lo - b));
    cuzk_fr_mul(&base, &base, &sc->K);
    for (size_t c = 0; c < P->C; c++) {
      ntt_fr_pow_u64(&colf[c], cstep, ntt_bitrev(c0 + c, lo));
      cuzk_fr_mul(&colf[c], &colf[c], &base);
    }
  }
}

const cuzk_fr *ntt_scale_rows_of(const ntt_scale *sc, const cuzk_fr *rows) {
  return sc->kind == NTT_SCALE_CONST ? NULL : rows;
}

/* One power at the highest derived level, then squarings down: (ω_{2h}^j)^2 = ω_h^j. */
void ntt_tile_bases(cuzk_fr *wb, const ntt_pass_ctx *P, size_t c0) {
  const unsigned lo = P->lo, top = lo + P->b - 1;
  const size_t C = P->C;
  if (!P->derive[top]) return;
  cuzk_fr *w = wb + (size_t)(top - lo) * C;
  ntt_fr_pow_u64(&w[0], &P->wgen[top], c0);
  for (size_t c = 1; c < C; c++)
    P->mul(w[c].l, w[c - 1].l, P->wgen[top].l);
  for (unsigned s = top; s > lo && P->derive[s - 1]; s--) {
    cuzk_fr *lower = wb + (size_t)(s - 1 - lo) * C, *upper = wb + (size_t)(s - lo) * C;
    for (size_t c = 0; c < C; c++)
      cuzk_mont.fr_sqr(lower[c].l, upper[c].l);
  }
}
