/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The two Proof-of-Spacetime kinds (docs/engine.md "Proof kinds", docs/post.md): WinningPoSt
 * (one sector, 66 challenges) and one WindowPoSt partition (up to S_w sectors, 10 challenges
 * each). Every sector's vanilla proof is parsed strictly and verified natively before anything is
 * proven; a request that does not hold ends FAILED naming the sector and challenge. One partition,
 * one 192-byte proof, checked against public inputs re-derived from the sector ids, comm_r and
 * the randomness. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/post.h"
#include "engine/engine_internal.h"

/* One circuit per type and sector size; Window V1 (5-9) and V1_1 (10-14) ids share it (the
 * parameter identifier holds no API version). */
static const unsigned winning_ids[] = {0, 1, 2, 3, 4};
static const unsigned window_ids[] = {10, 11, 12, 13, 14};

static int post_blank(cuzk_cs *cs, const cuzk_post_proof *p, char *msg, size_t len) {
  return cuzk_post_synthesize(cs, p, NULL, msg, len);
}

ENG_DEFINE_PARAM_FNS(cuzk_post_proof, cuzk_post_proof_by_id, cuzk_post_param_base,
                     cuzk_post_setup_test_params, post_blank)
static const eng_circuit winning_circuits[] =
    ENG_CIRCUITS_BY_SIZE("winning", winning_ids, param_base, setup_test, blank);
static const eng_circuit window_circuits[] =
    ENG_CIRCUITS_BY_SIZE("wpost", window_ids, param_base, setup_test, blank);

static void free_work(void *work) {
  cuzk_post_request *rq = work;
  if (!rq) return;
  cuzk_post_request_free(rq);
  free(rq);
}

/* The request's own fields, before its vanilla proofs are read. */
static bool check_fields(const eng_job *j, cuzk_post_type type, const cuzk_post_proof **p,
                         char *msg, size_t len) {
  if (cuzk_post_proof_by_id(p, j->registered_proof)) {
    snprintf(msg, len, "registered_proof: %llu is not a registered PoSt proof (0-14)",
             (unsigned long long)j->registered_proof);
    return false;
  }
  if ((*p)->type != type) {
    snprintf(msg, len, "registered_proof: %u (%s) is a %s proof, but proof_kind is %s", (*p)->id,
             (*p)->name, cuzk_post_type_name((*p)->type), cuzk_post_type_name(type));
    return false;
  }
  if (!eng_check_sector_size(j, (*p)->sector->bytes, (*p)->name, msg, len)) return false;
  if (j->randomness_len != 32) {
    snprintf(msg, len, "randomness: %zu bytes, expected 32", j->randomness_len);
    return false;
  }
  if (j->n_inputs != j->n_list_inputs) {
    snprintf(msg, len,
             "vanilla_proof: set, but a PoSt job takes one bincode sector proof per "
             "element of vanilla_proofs");
    return false;
  }
  return true;
}

static bool prepare(eng_job *j, cuzk_post_type type, const eng_circuit *circuits,
                    const eng_circuit **circuit, char *msg, size_t len) {
  const cuzk_post_proof *p;
  if (!check_fields(j, type, &p, msg, len)) return false;
  cuzk_post_request *rq = calloc(1, sizeof *rq);
  const uint8_t **pieces = rq ? eng_input_pieces(j, msg, len) : NULL;
  if (!pieces) {
    if (!rq) snprintf(msg, len, "out of memory");
    j->fail_reason = ENG_FAIL_MEMORY;
    free(rq);
    return false;
  }
  cuzk_post_err pe = cuzk_post_request_init(rq, p, j->randomness, j->partition_index, pieces,
                                            j->input_lens, j->n_inputs, msg, len);
  free(pieces);
  if (pe) {
    j->fail_reason = pe == CUZK_POST_EVERIFY  ? ENG_FAIL_VANILLA
                     : pe == CUZK_POST_ENOMEM ? ENG_FAIL_MEMORY
                                              : ENG_FAIL_REQUEST;
    free(rq);
    return false;
  }
  j->work = rq;
  j->parts = 1;
  *circuit = eng_circuit_for_bytes(circuits, ENG_N_SIZES, p->sector->bytes,
                                   cuzk_post_type_name(type), msg, len);
  return *circuit != NULL;
}

static bool prepare_winning(eng_job *j, const eng_circuit **c, char *msg, size_t len) {
  return prepare(j, CUZK_POST_WINNING, winning_circuits, c, msg, len);
}

static bool prepare_window(eng_job *j, const eng_circuit **c, char *msg, size_t len) {
  return prepare(j, CUZK_POST_WINDOW, window_circuits, c, msg, len);
}

static bool synthesize(const eng_job *j, cuzk_cs *cs, unsigned part, char *msg, size_t len) {
  (void)part; /* one partition */
  const cuzk_post_request *rq = j->work;
  return cuzk_post_synthesize(cs, rq->proof, rq, msg, len) == CUZK_POST_OK;
}

static bool verify(const eng_job *j, const cuzk_g16_pvk *pvk, const cuzk_g16_proof *proofs,
                   char *msg, size_t len) {
  bool ok = false;
  if (cuzk_post_verify(&ok, j->work, pvk, &proofs[0])) {
    snprintf(msg, len, "PoSt proof self-check could not run (out of memory)");
    return false;
  }
  if (!ok) snprintf(msg, len, "PoSt proof self-check failed: the proof does not verify");
  return ok;
}

static void describe(const eng_job *j, char *out, size_t len) {
  const cuzk_post_request *rq = j->work;
  snprintf(out, len, "%s: %zu sector(s), partition %u", rq->proof->name, rq->n_sectors,
           rq->partition_index);
}

/* One sector proof per sector of a partition of the registered proof (WinningPoSt: 1); a proof
 * of another type or unknown: the largest of the type (prepare fails naming registered_proof). */
static size_t max_list(cuzk_post_type type, uint64_t registered_proof, char *what, size_t len) {
  const char *kind = type == CUZK_POST_WINNING ? "a WinningPoSt" : "a WindowPoSt partition";
  const cuzk_post_proof *p;
  if (!cuzk_post_proof_by_id(&p, registered_proof) && p->type == type) {
    snprintf(what, len, "%s of %s (its sectors per partition)", kind, p->name);
    return p->vanilla_sectors;
  }
  size_t most = 0;
  for (size_t i = 0; (p = cuzk_post_proof_at(i)); i++)
    if (p->type == type && p->vanilla_sectors > most) most = p->vanilla_sectors;
  snprintf(what, len, "%s of any registered proof", kind);
  return most;
}

static size_t max_list_winning(uint64_t id, char *what, size_t len) {
  return max_list(CUZK_POST_WINNING, id, what, len);
}

static size_t max_list_window(uint64_t id, char *what, size_t len) {
  return max_list(CUZK_POST_WINDOW, id, what, len);
}

const eng_kind eng_kind_winning_post = {
    CUZK_KIND_WINNING_POST,
    winning_circuits,
    ENG_N_SIZES,
    prepare_winning,
    synthesize,
    verify,
    describe,
    free_work,
    max_list_winning,
};
const eng_kind eng_kind_window_post = {
    CUZK_KIND_WINDOW_POST_PARTITION,
    window_circuits,
    ENG_N_SIZES,
    prepare_window,
    synthesize,
    verify,
    describe,
    free_work,
    max_list_window,
};
