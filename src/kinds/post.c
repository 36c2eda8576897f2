/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The two Proof-of-Spacetime kinds (docs/kinds.md, docs/post.md): WinningPoSt (one sector, 66
 * challenges) and one WindowPoSt partition (up to S_w sectors, 10 challenges each). Every
 * sector's vanilla proof is parsed strictly and verified natively before anything is proven; a
 * request that does not hold fails naming the sector and challenge. One partition, one 192-byte
 * proof, checked against public inputs re-derived from the sector ids, comm_r and the
 * randomness. */
#include <stdio.h>
#include <stdlib.h>

#include "cuzk/post/post.h"
#include "cuzk/util/errmsg.h"
#include "kinds/kinds_internal.h"

/* One circuit per type and sector size; Window V1 (5-9) and V1_1 (10-14) ids share it (the
 * parameter identifier holds no API version). */
static const unsigned winning_ids[] = {0, 1, 2, 3, 4};
static const unsigned window_ids[] = {10, 11, 12, 13, 14};

static int post_blank(cuzk_cs *cs, const cuzk_post_proof *p, char *msg, size_t len) {
  return cuzk_post_synthesize(cs, p, NULL, msg, len);
}

KIND_DEFINE_PARAM_FNS(cuzk_post_proof, cuzk_post_proof_by_id, cuzk_post_param_base,
                      cuzk_post_setup_test_params, post_blank)
static const cuzk_kind_circuit winning_circuits[] =
    KIND_CIRCUITS_BY_SIZE("winning", winning_ids, param_base, setup_test, blank);
static const cuzk_kind_circuit window_circuits[] =
    KIND_CIRCUITS_BY_SIZE("wpost", window_ids, param_base, setup_test, blank);

static const cuzk_kind *kind_of_type(cuzk_post_type t) {
  return t == CUZK_POST_WINNING ? &cuzk_kind_winning_post : &cuzk_kind_window_post;
}

static void free_work(void *work) {
  cuzk_post_request *rq = work;
  if (!rq) return;
  cuzk_post_request_free(rq);
  free(rq);
}

/* The request's own fields, before its vanilla proofs are read. */
static bool check_fields(const cuzk_kind_request *r, cuzk_post_type type, const cuzk_post_proof **p,
                         char *msg, size_t len) {
  if (cuzk_post_proof_by_id(p, r->registered_proof))
    return CUZK_FAIL(msg, len, false,
                     "registered_proof: %llu is not a registered PoSt proof (0-%d)",
                     (unsigned long long)r->registered_proof, CUZK_POST_NUM_PROOFS - 1);
  if ((*p)->type != type)
    return CUZK_FAIL(msg, len, false,
                     "registered_proof: %u (%s) is a %s proof, but proof_kind is %s", (*p)->id,
                     (*p)->name, kind_of_type((*p)->type)->title, kind_of_type(type)->proto);
  if (!kind_check_sector_size(r, (*p)->sector->bytes, (*p)->name, (*p)->sector->name, msg, len))
    return false;
  if (!kind_check_32("randomness", r->randomness_len, msg, len)) return false;
  if (r->vanilla_proof_len)
    return CUZK_FAIL(msg, len, false,
                     "vanilla_proof: set, but a PoSt job takes one bincode sector proof per "
                     "element of vanilla_proofs");
  return true;
}

static cuzk_kinds_err prepare(cuzk_kind_prepared *out, const cuzk_kind_request *r,
                              cuzk_post_type type, char *msg, size_t len) {
  const cuzk_post_proof *p;
  if (!check_fields(r, type, &p, msg, len)) return CUZK_KINDS_EREQUEST;
  cuzk_post_request *rq = calloc(1, sizeof *rq);
  if (!rq) return CUZK_FAIL(msg, len, CUZK_KINDS_ENOMEM, "out of memory");
  cuzk_post_err pe =
      cuzk_post_request_init(rq, p, r->randomness, r->partition_index, r->vanilla_proofs,
                             r->vanilla_proofs_len, r->n_vanilla_proofs, msg, len);
  if (pe) {
    free(rq); /* cuzk_post_request_init leaves nothing behind when it fails */
    return pe == CUZK_POST_EVERIFY  ? CUZK_KINDS_EVANILLA
           : pe == CUZK_POST_ENOMEM ? CUZK_KINDS_ENOMEM
                                    : CUZK_KINDS_EREQUEST;
  }
  for (size_t i = 0; i < rq->n_sectors && !r->allow_synthetic; i++)
    if (cuzk_post_sector_is_synthetic(&rq->sectors[i])) {
      char what[96];
      snprintf(what, sizeof what,
               "vanilla_proofs[%zu] (sector %llu): comm_c is the synthetic marker", i,
               (unsigned long long)rq->sectors[i].sector_id);
      free_work(rq);
      return kind_refuse_synthetic(what, msg, len);
    }
  if (!kind_set_circuit(kind_of_type(type), out, p->sector->bytes, msg, len)) {
    free_work(rq);
    return CUZK_KINDS_EREQUEST;
  }
  out->work = rq;
  out->parts = 1;
  return CUZK_KINDS_OK;
}

static cuzk_kinds_err prepare_winning(cuzk_kind_prepared *out, const cuzk_kind_request *r,
                                      char *msg, size_t len) {
  return prepare(out, r, CUZK_POST_WINNING, msg, len);
}

static cuzk_kinds_err prepare_window(cuzk_kind_prepared *out, const cuzk_kind_request *r, char *msg,
                                     size_t len) {
  return prepare(out, r, CUZK_POST_WINDOW, msg, len);
}

static bool synthesize(const void *work, cuzk_cs *cs, unsigned part, char *msg, size_t len) {
  (void)part; /* one partition */
  const cuzk_post_request *rq = work;
  return cuzk_post_synthesize(cs, rq->proof, rq, msg, len) == CUZK_POST_OK;
}

static cuzk_fr *public_inputs(const void *work, unsigned part, size_t *n) {
  (void)part;
  const cuzk_post_request *rq = work;
  cuzk_fr *in = kind_inputs_alloc(*n = cuzk_post_num_public_inputs(rq->proof));
  return kind_inputs_result(in, in && cuzk_post_request_public_inputs(in, rq));
}

static bool verify(bool *ok, const void *work, const cuzk_g16_pvk *pvk,
                   const cuzk_g16_proof *proofs, char *msg, size_t len) {
  const cuzk_post_request *rq = work;
  bool all = false, ran = !cuzk_post_verify(&all, rq, pvk, &proofs[0]);
  return kind_verdict(ok, ran, all, kind_of_type(rq->proof->type)->title, 0, msg, len);
}

/* The proof answers the request's partition of the deadline. */
static unsigned partition(const void *work, unsigned k) {
  (void)k;
  return ((const cuzk_post_request *)work)->partition_index;
}

static void describe(const void *work, char *out, size_t len) {
  const cuzk_post_request *rq = work;
  cuzk_errmsg(out, len, "%s: %zu sector(s), partition %u", rq->proof->name, rq->n_sectors,
              rq->partition_index);
}

/* One sector proof per sector of a partition of the registered proof (WinningPoSt: 1); a proof
 * of another type or unknown: the largest of the type (prepare fails naming registered_proof). */
static size_t max_list(cuzk_post_type type, uint64_t registered_proof, char *what, size_t len) {
  const char *kind = type == CUZK_POST_WINNING ? "a WinningPoSt" : "a WindowPoSt partition";
  const cuzk_post_proof *p;
  if (!cuzk_post_proof_by_id(&p, registered_proof) && p->type == type) {
    cuzk_errmsg(what, len, "%s of %s (its sectors per partition)", kind, p->name);
    return p->vanilla_sectors;
  }
  size_t most = 0;
  for (size_t i = 0; (p = cuzk_post_proof_at(i)); i++)
    if (p->type == type && p->vanilla_sectors > most) most = p->vanilla_sectors;
  cuzk_errmsg(what, len, "%s of any registered proof", kind);
  return most;
}

static size_t max_list_winning(uint64_t id, char *what, size_t len) {
  return max_list(CUZK_POST_WINNING, id, what, len);
}

static size_t max_list_window(uint64_t id, char *what, size_t len) {
  return max_list(CUZK_POST_WINDOW, id, what, len);
}

#define POST_FIELDS                                                        \
  (CUZK_KIND_F_VANILLA_LIST | CUZK_KIND_F_MINER | CUZK_KIND_F_RANDOMNESS | \
   CUZK_KIND_F_PARTITION_INDEX)

const cuzk_kind cuzk_kind_winning_post = {
    .id = CUZK_KIND_WINNING_POST,
    .label = "winning_post",
    .wire = "winning-post",
    .proto = "WINNING_POST",
    .title = "WinningPoSt",
    .aliases = (const char *const[]){"winning", "winningpost", NULL},
    .default_priority = CUZK_PRIORITY_CRITICAL, /* back within the epoch, whatever else runs */
    .fields = POST_FIELDS,
    .circuits = winning_circuits,
    .n_circuits = KIND_N_SIZES,
    .max_list = max_list_winning,
    .prepare = prepare_winning,
    .partition = partition,
    KIND_PROVING_FNS,
};

const cuzk_kind cuzk_kind_window_post = {
    .id = CUZK_KIND_WINDOW_POST_PARTITION,
    .label = "window_post",
    .wire = "window-post",
    .proto = "WINDOW_POST_PARTITION",
    .title = "WindowPoSt",
    .aliases = (const char *const[]){"window", "wpost", "windowpost", NULL},
    .default_priority = CUZK_PRIORITY_HIGH, /* due within its deadline */
    .fields = POST_FIELDS,
    .circuits = window_circuits,
    .n_circuits = KIND_N_SIZES,
    .max_list = max_list_window,
    .prepare = prepare_window,
    .partition = partition,
    KIND_PROVING_FNS,
};
