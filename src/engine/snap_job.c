/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The SnapDeals update kind (docs/engine.md "Proof kinds", docs/snap.md): one job proves every
 * partition of one sector's update (1, 4 or 16). The request's commitments and sector size are
 * checked against the registered proof, every partition's vanilla proof is parsed strictly and
 * verified natively before anything is proven, and the proofs are checked against public inputs
 * re-derived from the request's commitments. Partitions of update jobs of one size share a
 * parameter set, so the prove queue batches them like PoRep partitions. */
#include <stdio.h>
#include <stdlib.h>

#include "cuzk/snap.h"
#include "engine/engine_internal.h"

static const unsigned ids[CUZK_SNAP_NUM_PROOFS] = {0, 1, 2, 3, 4};

static int snap_blank(cuzk_cs *cs, const cuzk_snap_proof *p, char *msg, size_t len) {
  return cuzk_snap_synthesize(cs, p, NULL, 0, msg, len);
}

ENG_DEFINE_PARAM_FNS(cuzk_snap_proof, cuzk_snap_proof_by_id, cuzk_snap_param_base,
                     cuzk_snap_setup_test_params, snap_blank)
static const eng_circuit circuits[CUZK_SNAP_NUM_PROOFS] =
    ENG_CIRCUITS_BY_SIZE("snap", ids, param_base, setup_test, blank);

static void free_work(void *work) {
  cuzk_snap_request *rq = work;
  if (!rq) return;
  cuzk_snap_request_free(rq);
  free(rq);
}

/* The request's own fields, before its vanilla proofs are read. PSProve sends sector_size 0:
 * the size then comes from registered_proof. */
static bool check_fields(const eng_job *j, const cuzk_snap_proof **p, char *msg, size_t len) {
  if (j->n_inputs != j->n_list_inputs) {
    snprintf(msg, len,
             "vanilla_proof: set, but an update job takes one bincode partition proof per "
             "element of vanilla_proofs");
    return false;
  }
  if (cuzk_snap_proof_by_id(p, j->registered_proof)) {
    snprintf(msg, len, "registered_proof: %llu is not a registered update proof (0-4)",
             (unsigned long long)j->registered_proof);
    return false;
  }
  if (!eng_check_sector_size(j, (*p)->sector->bytes, (*p)->name, msg, len)) return false;
  static const char *const names[3] = {"comm_r_old", "comm_r_new", "comm_d_new"};
  for (int c = 0; c < 3; c++)
    if (j->comm_len[c] != 32) {
      snprintf(msg, len, "%s: %zu bytes, expected 32", names[c], j->comm_len[c]);
      return false;
    }
  return true;
}

static bool prepare(eng_job *j, const eng_circuit **circuit, char *msg, size_t len) {
  const cuzk_snap_proof *p;
  if (!check_fields(j, &p, msg, len)) return false;
  cuzk_snap_request *rq = calloc(1, sizeof *rq);
  const uint8_t **pieces = rq ? eng_input_pieces(j, msg, len) : NULL;
  if (!pieces) {
    if (!rq) snprintf(msg, len, "out of memory");
    j->fail_reason = ENG_FAIL_MEMORY;
    free(rq);
    return false;
  }
  cuzk_snap_err se = cuzk_snap_request_init(rq, p, j->comm[0], j->comm[2], j->comm[1], pieces,
                                            j->input_lens, j->n_inputs, msg, len);
  free(pieces);
  if (se) {
    j->fail_reason = se == CUZK_SNAP_EVERIFY  ? ENG_FAIL_VANILLA
                     : se == CUZK_SNAP_ENOMEM ? ENG_FAIL_MEMORY
                                              : ENG_FAIL_REQUEST;
    free(rq);
    return false;
  }
  j->work = rq;
  j->parts = p->partitions;
  *circuit = &circuits[p->id];
  return true;
}

static bool synthesize(const eng_job *j, cuzk_cs *cs, unsigned part, char *msg, size_t len) {
  const cuzk_snap_request *rq = j->work;
  return cuzk_snap_synthesize(cs, rq->proof, rq, part, msg, len) == CUZK_SNAP_OK;
}

static bool verify(const eng_job *j, const cuzk_g16_pvk *pvk, const cuzk_g16_proof *proofs,
                   char *msg, size_t len) {
  bool ok = false;
  if (cuzk_snap_verify(&ok, j->work, pvk, proofs)) {
    snprintf(msg, len, "update proof self-check could not run (out of memory)");
    return false;
  }
  if (!ok) snprintf(msg, len, "update proof self-check failed: the partition proofs do not verify");
  return ok;
}

static void describe(const eng_job *j, char *out, size_t len) {
  const cuzk_snap_request *rq = j->work;
  snprintf(out, len, "%s: %u partition(s)", rq->proof->name, rq->proof->partitions);
}

/* One partition proof per partition of the update's sector size. */
static size_t max_list(uint64_t registered_proof, char *what, size_t len) {
  const cuzk_snap_proof *p;
  if (cuzk_snap_proof_by_id(&p, registered_proof)) {
    snprintf(what, len, "an update of any registered proof");
    return CUZK_SNAP_MAX_PARTITIONS;
  }
  snprintf(what, len, "an update of %s (its partitions)", p->name);
  return p->partitions;
}

const eng_kind eng_kind_snap = {
    CUZK_KIND_SNAP_DEALS_UPDATE,
    circuits,
    CUZK_SNAP_NUM_PROOFS,
    prepare,
    synthesize,
    verify,
    describe,
    free_work,
    max_list,
};
