/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* What the engine does around every proof kind (docs/engine.md "Proof kinds"): before the first
 * partition, the kind's prepare over the job's request and the acquisition of its parameter set;
 * after the last one, the kind's self-check and the proof bytes (192 per partition, in partition
 * order). The kinds themselves are descriptors (cuzk/kinds/kinds.h, docs/kinds.md). */
#include <stdio.h>
#include <stdlib.h>

#include "engine/engine_internal.h"

const char *cuzk_engine_circuit_id(size_t i) {
  const cuzk_kind *k;
  for (size_t n = 0; (k = cuzk_kind_at(n)); n++) {
    if (i < k->n_circuits) return k->circuits[i].id;
    i -= k->n_circuits;
  }
  return NULL;
}

static void release_input(void *job) { eng_free_input(job); }

/* The kind's error class as the failure counter's reason. */
static eng_fail_reason fail_reason_of(cuzk_kinds_err e) {
  return e == CUZK_KINDS_EVANILLA ? ENG_FAIL_VANILLA
         : e == CUZK_KINDS_ENOMEM ? ENG_FAIL_MEMORY
                                  : ENG_FAIL_REQUEST;
}

/* The kind's prepare over j's request: its pieces point into the copied input. */
static bool prepare_request(const cuzk_engine *e, eng_job *j, const cuzk_kind_circuit **circ,
                            char *msg, size_t len) {
  cuzk_kind_request r = {
      .allow_synthetic = e->cfg.allow_synthetic,
      .registered_proof = j->registered_proof,
      .sector_size = j->sector_size,
      .miner_id = j->miner_id,
      .sector_number = j->sector_number,
      .partition_index = j->partition_index,
      .randomness = j->randomness,
      .randomness_len = j->randomness_len,
      .comm = {j->comm[0], j->comm[1], j->comm[2]},
      .comm_len = {j->comm_len[0], j->comm_len[1], j->comm_len[2]},
      .release = release_input,
      .release_user = j,
  };
  size_t one = j->n_inputs - j->n_list_inputs; /* 1 when vanilla_proof was set */
  if (one) {
    r.vanilla_proof = j->input;
    r.vanilla_proof_len = j->input_lens[0];
  }
  const uint8_t **pieces = calloc(j->n_inputs ? j->n_inputs : 1, sizeof *pieces);
  if (!pieces) {
    j->fail_reason = ENG_FAIL_MEMORY;
    snprintf(msg, len, "out of memory");
    return false;
  }
  for (size_t i = 0, at = 0; i < j->n_inputs; at += j->input_lens[i++])
    pieces[i] = j->input + at;
  r.vanilla_proofs = pieces + one;
  r.vanilla_proofs_len = j->n_list_inputs ? j->input_lens + one : NULL;
  r.n_vanilla_proofs = j->n_list_inputs;
  cuzk_kind_prepared p = {0};
  cuzk_kinds_err err = j->ops->prepare(&p, &r, msg, len);
  free(pieces);
  if (err) {
    j->fail_reason = fail_reason_of(err);
    return false;
  }
  j->work = p.work;
  j->parts = p.parts;
  *circ = p.circuit;
  return true;
}

bool eng_prepare_job(cuzk_engine *e, eng_job *j, char *msg, size_t len) {
  const cuzk_kind_circuit *circ = NULL;
  if (!prepare_request(e, j, &circ, msg, len)) return false;
  eng_free_input(j);
  j->fail_reason = ENG_FAIL_PARAMETERS;
  srs_set *s = eng_srs_for(e, circ);
  if (!s) {
    snprintf(msg, len, "no parameter set for circuit %s", circ ? circ->id : "?");
    return false;
  }
  double load_s = 0;
  if (!eng_srs_acquire(e, s, j, &load_s, msg, len)) return false;
  j->srs_s = load_s;
  j->proofs = calloc(j->parts, sizeof *j->proofs);
  uint8_t *part_state = calloc(j->parts ? j->parts : 1, 1); /* all PART_PENDING */
  pthread_mutex_lock(&e->mu);
  j->srs = s; /* released by eng_end */
  j->part_state = part_state;
  pthread_mutex_unlock(&e->mu);
  if (!j->proofs || !part_state) {
    j->fail_reason = ENG_FAIL_MEMORY;
    snprintf(msg, len, "out of memory");
    return false;
  }
  return true;
}

bool eng_finish_job(cuzk_engine *e, eng_job *j, char *msg, size_t len) {
  double t0 = eng_now();
  j->fail_reason = ENG_FAIL_VERIFICATION; /* also a self-check that could not run */
  bool ok = true;
  if (e->cfg.verify_proofs &&
      (!j->ops->verify(&ok, j->work, j->srs->pvk, j->proofs, msg, len) || !ok))
    return false;
  uint8_t *out = malloc((size_t)j->parts * CUZK_G16_PROOF_BYTES);
  if (!out) {
    j->fail_reason = ENG_FAIL_MEMORY;
    snprintf(msg, len, "out of memory");
    return false;
  }
  for (unsigned k = 0; k < j->parts; k++)
    cuzk_g16_proof_write(out + (size_t)k * CUZK_G16_PROOF_BYTES, &j->proofs[k]);
  j->result.proof = out;
  j->result.proof_len = (size_t)j->parts * CUZK_G16_PROOF_BYTES;
  eng_stage(e, ST_VERIFY, eng_now() - t0); /* prom series are thread-safe */
  return true;
}
