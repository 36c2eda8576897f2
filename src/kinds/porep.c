/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The PoRep C2 kind (docs/kinds.md, docs/porep.md): the C1 is parsed (raw JSON or Curio's
 * envelope) and checked against the request and by seal_commit_phase2's rules (cuzk/porep/c2.h)
 * before any partition runs; partitions are the StackedCircuit's; the self-check: verify_seal's. */
#include <stdlib.h>

#include "cuzk/porep/c1.h"
#include "cuzk/porep/c2.h"
#include "cuzk/util/errmsg.h"
#include "kinds/kinds_internal.h"

typedef struct {
  cuzk_c1 *c1;
  cuzk_c2_ctx ctx;
} porep_work;

/* The circuits: the V1_1 proof of each registered sector size stands for all its variants (V1
 * and synthetic prove with the same circuit and parameters). */
static const unsigned proof_ids[] = {5, 6, 7, 8, 9};

/* the StackedCircuit of p's size without a witness (every partition has this shape) */
static int porep_blank(cuzk_cs *cs, const cuzk_seal_proof *p, char *msg, size_t len) {
  cuzk_stacked_config cfg;
  if (cuzk_stacked_config_from_proof(&cfg, p->id)) return -1;
  return cuzk_stacked_synthesize(cs, &cfg, NULL, 0, msg, len);
}

KIND_DEFINE_PARAM_FNS(cuzk_seal_proof, cuzk_seal_proof_by_id, cuzk_c2_param_base,
                      cuzk_c2_setup_test_params, porep_blank)
static const cuzk_kind_circuit circuits[] =
    KIND_CIRCUITS_BY_SIZE("porep", proof_ids, param_base, setup_test, blank);

static void free_work(void *work) {
  porep_work *w = work;
  if (!w) return;
  cuzk_c1_free(w->c1);
  free(w);
}

/* The request's fields against the C1 (0 is also proto3's "not set": only a different nonzero
 * value is a mismatch). */
static bool check_request(const cuzk_kind_request *r, const porep_work *w,
                          const cuzk_c1_read_info *info, char *msg, size_t len) {
  const cuzk_c1 *c1 = w->c1;
  if (r->registered_proof && r->registered_proof != c1->registered_proof) {
    const cuzk_seal_proof *p;
    cuzk_errmsg(msg, len, "registered_proof: the request says %llu, the C1 says %u (%s)",
                (unsigned long long)r->registered_proof, c1->registered_proof,
                cuzk_seal_proof_by_id(&p, c1->registered_proof) ? "?" : p->name);
    return false;
  }
  const cuzk_seal_proof *p = w->ctx.proof;
  if (!kind_check_sector_size(r, p->sector->bytes, p->name, p->sector->name, msg, len))
    return false;
  if (info->source == CUZK_C1_SRC_ENVELOPE && r->sector_number &&
      (uint64_t)info->sector_num != r->sector_number) {
    cuzk_errmsg(msg, len, "sector_number: %llu, but the envelope's SectorNum is %lld",
                (unsigned long long)r->sector_number, (long long)info->sector_num);
    return false;
  }
  return true;
}

/* The C1 read, checked against the request and by seal_commit_phase2's rules into w. */
static cuzk_kinds_err read_c1(porep_work *w, const cuzk_kind_request *r, char *msg, size_t len) {
  char sub[512];
  cuzk_c1_read_info info;
  if (cuzk_c1_read(&w->c1, r->vanilla_proof, r->vanilla_proof_len, 0, &info, sub, sizeof sub))
    return CUZK_FAIL(msg, len, CUZK_KINDS_EREQUEST, "vanilla_proof: %s", sub);
  if (r->release) r->release(r->release_user); /* up to ~70 MB at 32 GiB: not needed any more */
  if (w->c1->synthetic_sector && !r->allow_synthetic)
    return kind_refuse_synthetic("vanilla_proof: \"cuzk_synthetic_sector\": 1", msg, len);
  if (cuzk_c2_ctx_init(&w->ctx, w->c1, sub, sizeof sub))
    return CUZK_FAIL(msg, len, CUZK_KINDS_EREQUEST, "vanilla_proof: %s", sub);
  if (!check_request(r, w, &info, msg, len)) return CUZK_KINDS_EREQUEST;
  cuzk_c2_sector sec = {r->miner_id, r->sector_number};
  cuzk_porep_err ce = cuzk_c2_check(&w->ctx, &sec, sub, sizeof sub);
  if (ce) /* a C1 that reads well but does not hold (for this sector) */
    return CUZK_FAIL(msg, len, ce == CUZK_POREP_ENOMEM ? CUZK_KINDS_ENOMEM : CUZK_KINDS_EVANILLA,
                     "vanilla_proof: %s", sub);
  return CUZK_KINDS_OK;
}

static cuzk_kinds_err prepare(cuzk_kind_prepared *out, const cuzk_kind_request *r, char *msg,
                              size_t len) {
  if (r->n_vanilla_proofs)
    return CUZK_FAIL(msg, len, CUZK_KINDS_EREQUEST,
                     "vanilla_proofs: %zu elements, but a PoRep job takes its C1 in vanilla_proof",
                     r->n_vanilla_proofs);
  if (!r->vanilla_proof_len)
    return CUZK_FAIL(msg, len, CUZK_KINDS_EREQUEST,
                     "vanilla_proof: empty (a PoRep job needs the C1 output)");
  /* the C1's replica_id must be this miner's and sector's: without the miner, a C1 of another
   * sector, or with another ticket, would be proven */
  if (!r->miner_id)
    return CUZK_FAIL(msg, len, CUZK_KINDS_EREQUEST,
                     "miner_id: 0, but a PoRep job needs the miner and sector_number (the C1's "
                     "replica_id is checked against them)");
  porep_work *w = calloc(1, sizeof *w);
  if (!w) return CUZK_FAIL(msg, len, CUZK_KINDS_ENOMEM, "out of memory");
  cuzk_kinds_err err = read_c1(w, r, msg, len);
  if (!err && !kind_set_circuit(&cuzk_kind_porep, out, w->ctx.proof->sector->bytes, msg, len))
    err = CUZK_KINDS_EREQUEST;
  if (err) {
    free_work(w);
    return err;
  }
  out->work = w;
  out->parts = w->ctx.partitions;
  return CUZK_KINDS_OK;
}

static bool synthesize(const void *work, cuzk_cs *cs, unsigned part, char *msg, size_t len) {
  const porep_work *w = work;
  return cuzk_stacked_synthesize(cs, &w->ctx.cfg, w->c1, part, msg, len) == CUZK_POREP_OK;
}

static cuzk_fr *public_inputs(const void *work, unsigned part, size_t *n) {
  const porep_work *w = work;
  cuzk_fr *in = kind_inputs_alloc(*n = w->ctx.num_inputs);
  return kind_inputs_result(in, in && cuzk_c2_public_inputs(in, &w->ctx, part));
}

static bool verify(bool *ok, const void *work, const cuzk_g16_pvk *pvk,
                   const cuzk_g16_proof *proofs, char *msg, size_t len) {
  const porep_work *w = work;
  unsigned parts = w->ctx.partitions;
  bool all = false, *each = calloc(parts, sizeof *each);
  bool ran = each && !cuzk_c2_verify(&all, each, &w->ctx, pvk, proofs, 0, parts);
  unsigned bad = 0;
  while (ran && bad < parts && each[bad])
    bad++;
  free(each);
  return kind_verdict(ok, ran, all, "PoRep", (int)bad, msg, len);
}

static void describe(const void *work, char *out, size_t len) {
  const porep_work *w = work;
  cuzk_errmsg(out, len, "%s: %u partitions", w->ctx.proof->name, w->ctx.partitions);
}

/* A PoRep job's C1 goes in vanilla_proof: its list stays empty. */
static size_t max_list(uint64_t registered_proof, char *what, size_t len) {
  (void)registered_proof;
  cuzk_errmsg(what, len, "a PoRep job (its C1 goes in vanilla_proof)");
  return 0;
}

const cuzk_kind cuzk_kind_porep = {
    .id = CUZK_KIND_POREP_SEAL_COMMIT,
    .label = "porep_c2",
    .wire = "porep-c2",
    .proto = "POREP_SEAL_COMMIT",
    .title = "PoRep",
    .aliases = (const char *const[]){"porep", "seal-commit", NULL},
    .default_priority = CUZK_PRIORITY_NORMAL,
    .fields = CUZK_KIND_F_VANILLA_ONE | CUZK_KIND_F_MINER | CUZK_KIND_F_SECTOR_NUMBER,
    .circuits = circuits,
    .n_circuits = KIND_N_SIZES,
    .max_list = max_list,
    .prepare = prepare,
    .partition = kind_partition_is_position,
    KIND_PROVING_FNS,
};
