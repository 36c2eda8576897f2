/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* PoRep C2 file names, test parameters, pre-proving checks, public inputs and verification;
 * see cuzk/porep/c2.h. */
#include "cuzk/porep/c2.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/porep/vanilla.h"
#include "porep/fail.h"

#define NPARENTS (CUZK_STACKED_DRG_PARENTS + CUZK_STACKED_EXP_PARENTS)

bool cuzk_c2_param_base(char *out, size_t len, const char *dir, const cuzk_seal_proof *p) {
  const cuzk_sector_info *si = p->sector;
  char tree[64], prefix[160], ident[512];
  snprintf(tree, sizeof tree, "merkletree-poseidon_hasher-8-%u-%u", si->sub_arity, si->top_arity);
  snprintf(prefix, sizeof prefix, "stacked-proof-of-replication-%s-sha256_hasher", tree);
  /* The Debug text of the proof's PublicParams (parameter_cache.rs identifier()). */
  snprintf(ident, sizeof ident,
           "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: 8 "
           "base_graph: drgraph::BucketGraph{size: %llu; degree: 6; hasher: poseidon_hasher} }, "
           "challenges: LayerChallenges { layers: %u, max_count: %u }, tree: %s }",
           (unsigned long long)si->nodes, si->layers, cuzk_seal_proof_challenges_per_partition(p),
           tree);
  return cuzk_g16_param_base(out, len, dir, prefix, ident);
}

static bool blank(cuzk_cs *cs, const void *cfg, char *msg, size_t len) {
  return cuzk_stacked_synthesize(cs, cfg, NULL, 0, msg, len) == CUZK_POREP_OK;
}

cuzk_porep_err cuzk_c2_setup_test_params(const cuzk_seal_proof *p, const char *dir, cuzk_pool *pool,
                                         const cuzk_progress *progress, double *gen_s, char *msg,
                                         size_t len) {
  char base[4096];
  if (!p || !dir || !cuzk_c2_param_base(base, sizeof base, dir, p))
    return cuzk_porep_fail(msg, len, CUZK_POREP_EINVAL, "setup: no proof or the path is too long");
  cuzk_stacked_config cfg;
  if (cuzk_stacked_config_from_proof(&cfg, p->id))
    return cuzk_porep_fail(msg, len, CUZK_POREP_EPROOF, "setup: no circuit for %s", p->name);
  cuzk_g16_err e = cuzk_g16_setup_test_params(base, p->sector->bytes, blank, &cfg, pool, progress,
                                              gen_s, msg, len);
  return e == CUZK_G16_OK       ? CUZK_POREP_OK
         : e == CUZK_G16_ENOMEM ? CUZK_POREP_ENOMEM
                                : CUZK_POREP_EINVAL;
}

static bool all_zero(const uint8_t b[32]) {
  uint8_t acc = 0;
  for (int i = 0; i < 32; i++)
    acc |= b[i];
  return acc == 0;
}

/* Challenged nodes and parent columns of partition k equal the re-derived ones. */
static cuzk_porep_err check_challenges(const cuzk_c2_ctx *ctx, unsigned k, uint64_t *xs, char *msg,
                                       size_t len) {
  const cuzk_c1 *c1 = ctx->c1;
  if (cuzk_porep_challenges(xs, ctx->proof, c1->replica_id, c1->seed, c1->comm_r, k))
    return cuzk_porep_fail(msg, len, CUZK_POREP_EINVAL,
                           "partition %u: cannot derive the challenges", k);
  const cuzk_c1_partition *pp = &c1->vanilla_proofs.v[k];
  for (unsigned i = 0; i < ctx->cfg.challenges; i++) {
    const cuzk_c1_challenge_proof *cp = &pp->v[i];
    if (cp->labeling_proofs.v[0].node != xs[i])
      return cuzk_porep_fail(
          msg, len, CUZK_POREP_EINVAL,
          "partition %u challenge %u: the C1 proves node %llu, but replica_id, seed and "
          "comm_r give challenge %llu (C1 of another seed or sector?)",
          k, i, (unsigned long long)cp->labeling_proofs.v[0].node, (unsigned long long)xs[i]);
    uint32_t par[NPARENTS];
    cuzk_sdr_graph_parents(&ctx->graph, xs[i], par);
    const cuzk_c1_replica_column_proof *rc = &cp->replica_column_proofs;
    for (unsigned p = 0; p < NPARENTS; p++) {
      const cuzk_c1_column_proof *col = p < CUZK_STACKED_DRG_PARENTS
                                            ? &rc->drg_parents.v[p]
                                            : &rc->exp_parents.v[p - CUZK_STACKED_DRG_PARENTS];
      if (col->index != par[p])
        return cuzk_porep_fail(
            msg, len, CUZK_POREP_EINVAL,
            "partition %u challenge %u: %s parent %u is column %u, the graph says %u", k, i,
            p < CUZK_STACKED_DRG_PARENTS ? "drg" : "exp",
            p < CUZK_STACKED_DRG_PARENTS ? p : p - CUZK_STACKED_DRG_PARENTS, col->index, par[p]);
    }
  }
  return CUZK_POREP_OK;
}

cuzk_porep_err cuzk_c2_ctx_init(cuzk_c2_ctx *ctx, const cuzk_c1 *c1, char *msg, size_t len) {
  if (!ctx || !c1) return cuzk_porep_fail(msg, len, CUZK_POREP_EINVAL, "c2: NULL context or C1");
  memset(ctx, 0, sizeof *ctx);
  ctx->c1 = c1;
  if (c1->synthetic_for_bench)
    return cuzk_porep_fail(msg, len, CUZK_POREP_EINVAL,
                           "cuzk_synthetic_for_bench: a synthetic C1 made up for benchmarks "
                           "(cuzk-bench gen-vanilla porep --synthetic-for-bench), not the output "
                           "of a sealed sector: C2 does not prove it");
  if (cuzk_seal_proof_by_id(&ctx->proof, c1->registered_proof))
    return cuzk_porep_fail(msg, len, CUZK_POREP_EPROOF, "registered_proof: unknown id %u",
                           c1->registered_proof);
  const cuzk_seal_proof *p = ctx->proof;
  if (c1->vanilla_variant != cuzk_c1_variant_of_proof(c1->registered_proof))
    return cuzk_porep_fail(
        msg, len, CUZK_POREP_EINVAL,
        "vanilla_proofs: variant %s does not match %s (sector size %s)",
        cuzk_c1_variant_name(c1->vanilla_variant) ? cuzk_c1_variant_name(c1->vanilla_variant) : "?",
        p->name, p->sector->name);
  if (p->feature == CUZK_POREP_FEAT_NON_INTERACTIVE)
    return cuzk_porep_fail(
        msg, len, CUZK_POREP_EPROOF,
        "registered_proof: %s is NI-PoRep, whose C2 output is a SnarkPack aggregate "
        "(not supported)",
        p->name);
  if (cuzk_stacked_config_from_proof(&ctx->cfg, p->id))
    return cuzk_porep_fail(msg, len, CUZK_POREP_EPROOF, "registered_proof: no circuit for %s",
                           p->name);
  static const struct {
    size_t off;
    const char *name;
  } nonzero[] = {{offsetof(cuzk_c1, comm_d), "comm_d"},
                 {offsetof(cuzk_c1, comm_r), "comm_r"},
                 {offsetof(cuzk_c1, seed), "seed"}};
  for (size_t i = 0; i < sizeof nonzero / sizeof nonzero[0]; i++)
    if (all_zero((const uint8_t *)c1 + nonzero[i].off))
      return cuzk_porep_fail(msg, len, CUZK_POREP_EINVAL, "%s: all zero (not a valid commitment)",
                             nonzero[i].name);
  cuzk_fr f;
  if (!cuzk_fr_from_bytes(&f, c1->replica_id))
    return cuzk_porep_fail(msg, len, CUZK_POREP_EINVAL,
                           "replica_id: not a canonical field element");
  if (!cuzk_fr_from_bytes(&f, c1->comm_r))
    return cuzk_porep_fail(msg, len, CUZK_POREP_EINVAL, "comm_r: not a canonical field element");
  if (!cuzk_fr_from_bytes(&f, c1->comm_d))
    return cuzk_porep_fail(msg, len, CUZK_POREP_EINVAL, "comm_d: not a canonical field element");
  ctx->partitions = cuzk_seal_proof_partitions(p);
  if (c1->vanilla_proofs.n != ctx->partitions)
    return cuzk_porep_fail(msg, len, CUZK_POREP_EINVAL, "vanilla_proofs: %zu partitions, %s has %u",
                           c1->vanilla_proofs.n, p->name, ctx->partitions);
  uint8_t porep_id[32];
  cuzk_seal_proof_porep_id(p, porep_id);
  if (cuzk_sdr_graph_init(&ctx->graph, porep_id, (cuzk_sdr_api)p->api, p->sector->nodes))
    return cuzk_porep_fail(msg, len, CUZK_POREP_EINVAL, "c2: cannot build the graph of %s",
                           p->name);
  ctx->num_inputs = cuzk_stacked_num_public_inputs(&ctx->cfg);
  return CUZK_POREP_OK;
}

cuzk_porep_err cuzk_c2_check(const cuzk_c2_ctx *ctx, const cuzk_c2_sector *sector, char *msg,
                             size_t len) {
  if (!ctx || !ctx->c1) return cuzk_porep_fail(msg, len, CUZK_POREP_EINVAL, "c2: NULL context");
  const cuzk_c1 *c1 = ctx->c1;
  const cuzk_seal_proof *p = ctx->proof;
  if (sector) {
    uint8_t prover_id[32], porep_id[32], rid[32];
    cuzk_porep_prover_id(prover_id, sector->miner_id);
    cuzk_seal_proof_porep_id(p, porep_id);
    cuzk_porep_replica_id(rid, prover_id, sector->sector_number, c1->ticket, c1->comm_d, porep_id);
    if (memcmp(rid, c1->replica_id, 32))
      return cuzk_porep_fail(
          msg, len, CUZK_POREP_EINVAL,
          "replica_id: not the one of miner %llu sector %llu with this ticket and comm_d",
          (unsigned long long)sector->miner_id, (unsigned long long)sector->sector_number);
  }
  uint64_t *xs = malloc(ctx->cfg.challenges * sizeof *xs);
  if (!xs) return cuzk_porep_fail(msg, len, CUZK_POREP_ENOMEM, "c2: out of memory");
  cuzk_porep_err e = CUZK_POREP_OK;
  char sub[384];
  for (unsigned k = 0; k < ctx->partitions && !e; k++) {
    if ((e = cuzk_stacked_check_c1(&ctx->cfg, c1, k, sub, sizeof sub)))
      e = cuzk_porep_fail(msg, len, e, "vanilla_proofs[%u]: %s", k, sub);
    else
      e = check_challenges(ctx, k, xs, msg, len);
  }
  free(xs);
  /* C1 verified these proofs, but the C1 travelled since; re-checking costs far less than
   * proving and names the bad part instead of ending in an invalid proof. */
  if (!e && (e = cuzk_vanilla_verify(c1, sub, sizeof sub)))
    e = cuzk_porep_fail(msg, len, e, "vanilla proofs do not verify: %s", sub);
  return e;
}

cuzk_porep_err cuzk_c2_public_inputs(cuzk_fr *out, const cuzk_c2_ctx *ctx, unsigned k) {
  if (!out || !ctx || k >= ctx->partitions) return CUZK_POREP_EINVAL;
  const cuzk_c1 *c1 = ctx->c1;
  unsigned c = ctx->cfg.challenges;
  uint64_t *xs = malloc(c * sizeof *xs);
  uint32_t *par = malloc((size_t)NPARENTS * c * sizeof *par);
  cuzk_porep_err e = CUZK_POREP_ENOMEM;
  if (xs && par) {
    e = cuzk_porep_challenges(xs, ctx->proof, c1->replica_id, c1->seed, c1->comm_r, k);
    if (!e) {
      for (unsigned j = 0; j < c; j++)
        cuzk_sdr_graph_parents(&ctx->graph, xs[j], par + (size_t)NPARENTS * j);
      e = cuzk_stacked_public_inputs(out, &ctx->cfg, c1->replica_id, c1->comm_d, c1->comm_r, xs,
                                     par);
    }
  }
  free(xs);
  free(par);
  return e;
}

cuzk_porep_err cuzk_c2_verify(bool *all_ok, bool *ok, const cuzk_c2_ctx *ctx,
                              const cuzk_g16_pvk *pvk, const cuzk_g16_proof *proofs, unsigned first,
                              unsigned count) {
  if (!all_ok || !ctx || !pvk || !proofs || first > ctx->partitions ||
      count > ctx->partitions - first)
    return CUZK_POREP_EINVAL;
  *all_ok = false;
  cuzk_fr *in = malloc(ctx->num_inputs * sizeof *in);
  if (!in) return CUZK_POREP_ENOMEM;
  bool every = true;
  cuzk_porep_err e = CUZK_POREP_OK;
  for (unsigned i = 0; i < count && !e; i++) {
    bool one = false;
    if ((e = cuzk_c2_public_inputs(in, ctx, first + i))) break;
    if (cuzk_g16_verify(&one, pvk, &proofs[i], in, ctx->num_inputs) != CUZK_G16_OK) one = false;
    if (ok) ok[i] = one;
    every = every && one;
  }
  free(in);
  if (!e) *all_ok = every;
  return e;
}
