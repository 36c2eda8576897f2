/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* What the engine does around every proof kind (docs/engine.md "Proof kinds"): before the first
 * partition, the kind's prepare and the acquisition of its parameter set; after the last one, the
 * kind's self-check and the proof bytes (192 per partition, in partition order). */
#include <stdio.h>
#include <stdlib.h>

#include "engine/engine_internal.h"

const eng_kind *const eng_kinds[] = {&eng_kind_porep, &eng_kind_snap, &eng_kind_window_post,
                                     &eng_kind_winning_post, NULL};

const eng_kind *eng_kind_for(cuzk_proof_kind k) {
  for (const eng_kind *const *p = eng_kinds; *p; p++)
    if ((*p)->kind == k) return *p;
  return NULL;
}

const char *cuzk_engine_circuit_id(size_t i) {
  for (const eng_kind *const *k = eng_kinds; *k; k++) {
    if (i < (*k)->n_circuits) return (*k)->circuits[i].id;
    i -= (*k)->n_circuits;
  }
  return NULL;
}

const eng_circuit *eng_circuit_for_bytes(const eng_circuit *circuits, unsigned n,
                                         uint64_t sector_bytes, const char *kind_name, char *msg,
                                         size_t len) {
  for (unsigned i = 0; i < n; i++)
    if (circuits[i].sector_bytes == sector_bytes) return &circuits[i];
  snprintf(msg, len, "sector_size: no %s circuit for %llu-byte sectors", kind_name,
           (unsigned long long)sector_bytes);
  return NULL;
}

bool eng_check_sector_size(const eng_job *j, uint64_t bytes, const char *proof_name, char *msg,
                           size_t len) {
  if (!j->sector_size || j->sector_size == bytes) return true;
  snprintf(msg, len, "sector_size: %llu, but %s proves %llu-byte sectors",
           (unsigned long long)j->sector_size, proof_name, (unsigned long long)bytes);
  return false;
}

const uint8_t **eng_input_pieces(const eng_job *j, char *msg, size_t len) {
  const uint8_t **pieces = calloc(j->n_inputs ? j->n_inputs : 1, sizeof *pieces);
  if (!pieces) {
    snprintf(msg, len, "out of memory");
    return NULL;
  }
  for (size_t i = 0, at = 0; i < j->n_inputs; at += j->input_lens[i++])
    pieces[i] = j->input + at;
  return pieces;
}

bool eng_prepare_job(cuzk_engine *e, eng_job *j, char *msg, size_t len) {
  const eng_circuit *circ = NULL;
  j->fail_reason = ENG_FAIL_REQUEST; /* the kind's prepare names another class where it applies */
  if (!j->ops->prepare(j, &circ, msg, len)) return false;
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
  if (e->cfg.verify_proofs && !j->ops->verify(j, j->srs->pvk, j->proofs, msg, len)) return false;
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
