/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* PoSt parameter files (docs/post.md "Parameters"): their Filecoin names, TEST parameters, and
 * verification of a partition proof against the request's re-derived public inputs. */
#include <stdio.h>
#include <stdlib.h>

#include "post/post_internal.h"

/* The prefix and identifier of p's parameter files. */
static void names(char prefix[128], char ident[256], const cuzk_post_proof *p) {
  snprintf(prefix, 128, "proof-of-spacetime-fallback-merkletree-poseidon_hasher-%u-%u-%u",
           p->sector->base_arity, p->sector->sub_arity, p->sector->top_arity);
  /* the Debug text of fallback::PublicParams: the circuit's counts, no API version, no tree */
  snprintf(ident, 256,
           "FallbackPoSt::PublicParams{sector_size: %llu, challenge_count: %u, sector_count: %u}",
           (unsigned long long)p->sector->bytes, p->challenge_count, p->sector_count);
}

cuzk_post_err cuzk_post_cache_id(char *out, size_t len, const cuzk_post_proof *p) {
  if (!out || !p || !p->sector) return CUZK_POST_EINVAL;
  char prefix[128], ident[256];
  names(prefix, ident, p);
  return cuzk_g16_cache_id(out, len, prefix, ident) ? CUZK_POST_EINVAL : CUZK_POST_OK;
}

bool cuzk_post_param_base(char *out, size_t len, const char *dir, const cuzk_post_proof *p) {
  char prefix[128], ident[256];
  if (!p || !p->sector) return false;
  names(prefix, ident, p);
  return cuzk_g16_param_base(out, len, dir, prefix, ident);
}

static bool blank(cuzk_cs *cs, const void *p, char *msg, size_t len) {
  return cuzk_post_synthesize(cs, p, NULL, msg, len) == CUZK_POST_OK;
}

cuzk_post_err cuzk_post_setup_test_params(const cuzk_post_proof *p, const char *dir,
                                          cuzk_pool *pool, const cuzk_progress *progress,
                                          double *gen_s, char *msg, size_t len) {
  char base[4096];
  if (!p || !dir || !cuzk_post_param_base(base, sizeof base, dir, p))
    return cuzk_post_fail(msg, len, CUZK_POST_EINVAL, "setup: no proof or the path is too long");
  cuzk_g16_err e =
      cuzk_g16_setup_test_params(base, p->sector->bytes, blank, p, pool, progress, gen_s, msg, len);
  return e == CUZK_G16_OK       ? CUZK_POST_OK
         : e == CUZK_G16_ENOMEM ? CUZK_POST_ENOMEM
                                : CUZK_POST_EINVAL;
}

cuzk_post_err cuzk_post_verify(bool *ok, const cuzk_post_request *rq, const cuzk_g16_pvk *pvk,
                               const cuzk_g16_proof *proof) {
  if (!ok || !rq || !rq->proof || !pvk || !proof) return CUZK_POST_EINVAL;
  *ok = false;
  size_t n = cuzk_post_num_public_inputs(rq->proof);
  cuzk_fr *in = malloc(n * sizeof *in);
  if (!in) return CUZK_POST_ENOMEM;
  cuzk_post_err e = cuzk_post_request_public_inputs(in, rq);
  if (!e && cuzk_g16_verify(ok, pvk, proof, in, n)) e = CUZK_POST_EINVAL;
  free(in);
  return e;
}

cuzk_post_err cuzk_post_verify_batch(bool *ok, const cuzk_post_request *const *rqs,
                                     const cuzk_g16_pvk *pvk, const cuzk_g16_proof *proofs,
                                     size_t n) {
  if (!ok || !rqs || !pvk || !proofs || !n || !rqs[0] || !rqs[0]->proof) return CUZK_POST_EINVAL;
  *ok = false;
  const cuzk_post_proof *p = rqs[0]->proof;
  for (size_t i = 1; i < n; i++) /* one circuit: same counts, same sector size */
    if (!rqs[i] || !rqs[i]->proof || rqs[i]->proof->type != p->type ||
        rqs[i]->proof->sector != p->sector)
      return CUZK_POST_EINVAL;
  size_t m = cuzk_post_num_public_inputs(p);
  cuzk_fr *in = malloc(n * m * sizeof *in);
  const cuzk_fr **rows = malloc(n * sizeof *rows);
  cuzk_post_err e = in && rows ? CUZK_POST_OK : CUZK_POST_ENOMEM;
  for (size_t i = 0; i < n && !e; i++) {
    rows[i] = in + i * m;
    e = cuzk_post_request_public_inputs(in + i * m, rqs[i]);
  }
  if (!e && cuzk_g16_verify_batch(ok, pvk, proofs, rows, m, n)) e = CUZK_POST_ENOMEM;
  free(rows);
  free(in);
  return e;
}
