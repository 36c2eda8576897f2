/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The SnapDeals update kind (docs/kinds.md, docs/snap.md): one request proves every partition of
 * one sector's update (1, 4 or 16). The request's commitments and sector size are checked against
 * the registered proof, every partition's vanilla proof is parsed strictly and verified natively
 * before anything is proven, and the proofs are checked against public inputs re-derived from the
 * request's commitments. */
#include <stdlib.h>

#include "cuzk/snap/snap.h"
#include "cuzk/util/errmsg.h"
#include "kinds/kinds_internal.h"

static const unsigned ids[CUZK_SNAP_NUM_PROOFS] = {0, 1, 2, 3, 4};

static int snap_blank(cuzk_cs *cs, const cuzk_snap_proof *p, char *msg, size_t len) {
  return cuzk_snap_synthesize(cs, p, NULL, 0, msg, len);
}

KIND_DEFINE_PARAM_FNS(cuzk_snap_proof, cuzk_snap_proof_by_id, cuzk_snap_param_base,
                      cuzk_snap_setup_test_params, snap_blank)
static const cuzk_kind_circuit circuits[CUZK_SNAP_NUM_PROOFS] =
    KIND_CIRCUITS_BY_SIZE("snap", ids, param_base, setup_test, blank);

static void free_work(void *work) {
  cuzk_snap_request *rq = work;
  if (!rq) return;
  cuzk_snap_request_free(rq);
  free(rq);
}

/* The request's own fields, before its vanilla proofs are read. PSProve sends sector_size 0:
 * the size then comes from registered_proof. */
static bool check_fields(const cuzk_kind_request *r, const cuzk_snap_proof **p, char *msg,
                         size_t len) {
  if (r->vanilla_proof_len)
    return CUZK_FAIL(msg, len, false,
                     "vanilla_proof: set, but an update job takes one bincode partition proof per "
                     "element of vanilla_proofs");
  if (cuzk_snap_proof_by_id(p, r->registered_proof))
    return CUZK_FAIL(msg, len, false,
                     "registered_proof: %llu is not a registered update proof (0-%d)",
                     (unsigned long long)r->registered_proof, CUZK_SNAP_NUM_PROOFS - 1);
  if (!kind_check_sector_size(r, (*p)->sector->bytes, (*p)->name, (*p)->sector->name, msg, len))
    return false;
  static const char *const names[3] = {"comm_r_old", "comm_r_new", "comm_d_new"};
  for (int c = 0; c < 3; c++)
    if (!kind_check_32(names[c], r->comm_len[c], msg, len)) return false;
  return true;
}

static cuzk_kinds_err prepare(cuzk_kind_prepared *out, const cuzk_kind_request *r, char *msg,
                              size_t len) {
  const cuzk_snap_proof *p;
  if (!check_fields(r, &p, msg, len)) return CUZK_KINDS_EREQUEST;
  cuzk_snap_request *rq = calloc(1, sizeof *rq);
  if (!rq) return CUZK_FAIL(msg, len, CUZK_KINDS_ENOMEM, "out of memory");
  cuzk_snap_err se =
      cuzk_snap_request_init(rq, p, r->comm[0], r->comm[2], r->comm[1], r->vanilla_proofs,
                             r->vanilla_proofs_len, r->n_vanilla_proofs, msg, len);
  if (se) {
    free(rq); /* cuzk_snap_request_init leaves nothing behind when it fails */
    return se == CUZK_SNAP_EVERIFY  ? CUZK_KINDS_EVANILLA
           : se == CUZK_SNAP_ENOMEM ? CUZK_KINDS_ENOMEM
                                    : CUZK_KINDS_EREQUEST;
  }
  if (!r->allow_synthetic && cuzk_snap_is_synthetic(p, &rq->parts[0])) {
    free_work(rq);
    return kind_refuse_synthetic("vanilla_proofs[0].comm_c: the synthetic marker", msg, len);
  }
  out->work = rq;
  out->parts = p->partitions;
  out->circuit = &circuits[p->id];
  return CUZK_KINDS_OK;
}

static bool synthesize(const void *work, cuzk_cs *cs, unsigned part, char *msg, size_t len) {
  const cuzk_snap_request *rq = work;
  return cuzk_snap_synthesize(cs, rq->proof, rq, part, msg, len) == CUZK_SNAP_OK;
}

static cuzk_fr *public_inputs(const void *work, unsigned part, size_t *n) {
  const cuzk_snap_request *rq = work;
  cuzk_fr *in = kind_inputs_alloc(*n = CUZK_SNAP_PUBLIC_INPUTS);
  return kind_inputs_result(in, in && cuzk_snap_public_inputs(in, rq->proof, part, rq->comm_r_old,
                                                              rq->comm_d_new, rq->comm_r_new));
}

static bool verify(bool *ok, const void *work, const cuzk_g16_pvk *pvk,
                   const cuzk_g16_proof *proofs, char *msg, size_t len) {
  bool all = false, ran = !cuzk_snap_verify(&all, work, pvk, proofs);
  return kind_verdict(ok, ran, all, "update", -1, msg, len); /* one batch check: no partition */
}

static void describe(const void *work, char *out, size_t len) {
  const cuzk_snap_request *rq = work;
  cuzk_errmsg(out, len, "%s: %u partition%s, %u challenges each", rq->proof->name,
              rq->proof->partitions, rq->proof->partitions == 1 ? "" : "s", rq->proof->challenges);
}

/* One partition proof per partition of the update's sector size. */
static size_t max_list(uint64_t registered_proof, char *what, size_t len) {
  const cuzk_snap_proof *p;
  if (cuzk_snap_proof_by_id(&p, registered_proof)) {
    cuzk_errmsg(what, len, "an update of any registered proof");
    return CUZK_SNAP_MAX_PARTITIONS;
  }
  cuzk_errmsg(what, len, "an update of %s (its partitions)", p->name);
  return p->partitions;
}

const cuzk_kind cuzk_kind_snap = {
    .id = CUZK_KIND_SNAP_DEALS_UPDATE,
    .label = "snap_update",
    .wire = "snap-update",
    .proto = "SNAP_DEALS_UPDATE",
    .title = "SnapDeals",
    .aliases = (const char *const[]){"snap", "snap-deals", "update", NULL},
    .default_priority = CUZK_PRIORITY_NORMAL,
    .fields = CUZK_KIND_F_VANILLA_LIST | CUZK_KIND_F_MINER | CUZK_KIND_F_SECTOR_NUMBER |
              CUZK_KIND_F_COMMS,
    .circuits = circuits,
    .n_circuits = CUZK_SNAP_NUM_PROOFS,
    .max_list = max_list,
    .prepare = prepare,
    .partition = kind_partition_is_position,
    KIND_PROVING_FNS,
};
