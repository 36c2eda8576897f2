/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The PoRep C2 kind: the C1 is parsed (raw JSON or Curio's envelope) and checked against the
 * request and by seal_commit_phase2's rules (cuzk/c2.h) before any partition runs; partitions
 * are the StackedCircuit's; the self-check is verify_seal's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/c2.h"
#include "engine/engine_internal.h"
#include "porep/c1.h"

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

ENG_DEFINE_PARAM_FNS(cuzk_seal_proof, cuzk_seal_proof_by_id, cuzk_c2_param_base,
                     cuzk_c2_setup_test_params, porep_blank)
static const eng_circuit circuits[] =
    ENG_CIRCUITS_BY_SIZE("porep", proof_ids, param_base, setup_test, blank);

static void free_work(void *work) {
  porep_work *w = work;
  if (!w) return;
  cuzk_c1_free(w->c1);
  free(w);
}

/* The request's fields against the C1 (0 is also proto3's "not set": only a different nonzero
 * value is a mismatch). */
static bool check_request(const eng_job *j, const porep_work *w, const cuzk_c1_read_info *info,
                          char *msg, size_t len) {
  const cuzk_c1 *c1 = w->c1;
  if (j->registered_proof && j->registered_proof != c1->registered_proof) {
    const cuzk_seal_proof *p;
    snprintf(msg, len, "registered_proof: the request says %llu, the C1 says %u (%s)",
             (unsigned long long)j->registered_proof, c1->registered_proof,
             cuzk_seal_proof_by_id(&p, c1->registered_proof) ? "?" : p->name);
    return false;
  }
  if (!eng_check_sector_size(j, w->ctx.proof->sector->bytes, w->ctx.proof->name, msg, len))
    return false;
  if (info->source == CUZK_C1_SRC_ENVELOPE && j->sector_number &&
      (uint64_t)info->sector_num != j->sector_number) {
    snprintf(msg, len, "sector_number: %llu, but the envelope's SectorNum is %lld",
             (unsigned long long)j->sector_number, (long long)info->sector_num);
    return false;
  }
  return true;
}

static bool prepare(eng_job *j, const eng_circuit **circuit, char *msg, size_t len) {
  if (j->n_list_inputs) {
    snprintf(msg, len,
             "vanilla_proofs: %zu elements, but a PoRep job takes its C1 in vanilla_proof",
             j->n_list_inputs);
    return false;
  }
  if (j->n_inputs != 1 || !j->input_len) {
    snprintf(msg, len, "vanilla_proof: empty (a PoRep job needs the C1 output)");
    return false;
  }
  /* the C1's replica_id must be this miner's and sector's: without the miner, a C1 of another
   * sector, or with another ticket, would be proven */
  if (!j->miner_id) {
    snprintf(msg, len,
             "miner_id: 0, but a PoRep job needs the miner and sector_number (the C1's "
             "replica_id is checked against them)");
    return false;
  }
  porep_work *w = calloc(1, sizeof *w);
  if (!w) {
    j->fail_reason = ENG_FAIL_MEMORY;
    snprintf(msg, len, "out of memory");
    return false;
  }
  j->work = w;
  char eb[512];
  cuzk_c1_read_info info;
  if (cuzk_c1_read(&w->c1, j->input, j->input_len, 0, &info, eb, sizeof eb)) {
    snprintf(msg, len, "vanilla_proof: %s", eb);
    return false;
  }
  eng_free_input(j); /* up to ~70 MB at 32 GiB: not needed any more */
  char sub[512];
  if (cuzk_c2_ctx_init(&w->ctx, w->c1, sub, sizeof sub)) {
    snprintf(msg, len, "vanilla_proof: %s", sub);
    return false;
  }
  if (!check_request(j, w, &info, msg, len)) return false;
  cuzk_c2_sector sec = {j->miner_id, j->sector_number};
  cuzk_porep_err ce = cuzk_c2_check(&w->ctx, j->miner_id ? &sec : NULL, sub, sizeof sub);
  if (ce) { /* a C1 that reads well but does not hold (for this sector) */
    j->fail_reason = ce == CUZK_POREP_ENOMEM ? ENG_FAIL_MEMORY : ENG_FAIL_VANILLA;
    snprintf(msg, len, "vanilla_proof: %s", sub);
    return false;
  }
  *circuit =
      eng_circuit_for_bytes(circuits, ENG_N_SIZES, w->ctx.proof->sector->bytes, "PoRep", msg, len);
  if (!*circuit) return false;
  j->parts = w->ctx.partitions;
  return true;
}

static bool synthesize(const eng_job *j, cuzk_cs *cs, unsigned part, char *msg, size_t len) {
  const porep_work *w = j->work;
  return cuzk_stacked_synthesize(cs, &w->ctx.cfg, w->c1, part, msg, len) == CUZK_POREP_OK;
}

static bool verify(const eng_job *j, const cuzk_g16_pvk *pvk, const cuzk_g16_proof *proofs,
                   char *msg, size_t len) {
  const porep_work *w = j->work;
  bool all = false, *ok = calloc(j->parts, sizeof *ok);
  if (!ok || cuzk_c2_verify(&all, ok, &w->ctx, pvk, proofs, 0, j->parts)) {
    free(ok);
    snprintf(msg, len, "PoRep proof self-check could not run (out of memory)");
    return false;
  }
  unsigned bad = 0;
  while (bad < j->parts && ok[bad])
    bad++;
  free(ok);
  if (!all) snprintf(msg, len, "PoRep proof self-check failed: partition %u does not verify", bad);
  return all;
}

static void describe(const eng_job *j, char *out, size_t len) {
  const porep_work *w = j->work;
  snprintf(out, len, "%s: %u partitions", w->ctx.proof->name, j->parts);
}

/* A PoRep job's C1 goes in vanilla_proof: its list stays empty. */
static size_t max_list(uint64_t registered_proof, char *what, size_t len) {
  (void)registered_proof;
  snprintf(what, len, "a PoRep job (its C1 goes in vanilla_proof)");
  return 0;
}

const eng_kind eng_kind_porep = {
    CUZK_KIND_POREP_SEAL_COMMIT,
    circuits,
    sizeof circuits / sizeof *circuits,
    prepare,
    synthesize,
    verify,
    describe,
    free_work,
    max_list,
};
