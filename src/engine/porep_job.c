/* A PoRep C2 job: before its partitions run, the C1 is parsed (raw JSON or Curio's envelope),
 * checked against the request and by seal_commit_phase2's rules (porep/c2.h), and its parameter
 * set acquired; after the last partition, the proofs are verified (verify_seal) and concatenated
 * in partition order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine_internal.h"

bool eng_porep_prepare(cuzk_engine *e, eng_job *j, char *msg, size_t len) {
  cuzk_c1_errbuf eb;
  cuzk_c1_read_info info;
  if (!j->input_len) {
    snprintf(msg, len, "vanilla_proof: empty (a PoRep job needs the C1 output)");
    return false;
  }
  if (cuzk_c1_read(&j->c1, j->input, j->input_len, 0, &info, &eb)) {
    snprintf(msg, len, "vanilla_proof: %s", eb.msg);
    return false;
  }
  free(j->input); /* up to ~70 MB at 32 GiB: not needed any more */
  j->input = NULL;
  j->input_len = 0;
  const cuzk_c1 *c1 = j->c1;
  /* 0 is also proto3's "not set": only a different nonzero id is a mismatch */
  if (j->registered_proof && j->registered_proof != c1->registered_proof) {
    const cuzk_seal_proof *p;
    snprintf(msg, len, "registered_proof: the request says %llu, the C1 says %u (%s)",
             (unsigned long long)j->registered_proof, c1->registered_proof,
             cuzk_seal_proof_by_id(&p, c1->registered_proof) ? "?" : p->name);
    return false;
  }
  char sub[512];
  if (cuzk_c2_ctx_init(&j->ctx, c1, sub, sizeof sub)) {
    snprintf(msg, len, "vanilla_proof: %s", sub);
    return false;
  }
  uint64_t bytes = j->ctx.proof->sector->bytes;
  if (j->sector_size && j->sector_size != bytes) {
    snprintf(msg, len, "sector_size: %llu, but %s seals %llu-byte sectors",
             (unsigned long long)j->sector_size, j->ctx.proof->name, (unsigned long long)bytes);
    return false;
  }
  if (info.source == CUZK_C1_SRC_ENVELOPE && j->sector_number &&
      (uint64_t)info.sector_num != j->sector_number) {
    snprintf(msg, len, "sector_number: %llu, but the envelope's SectorNum is %lld",
             (unsigned long long)j->sector_number, (long long)info.sector_num);
    return false;
  }
  cuzk_c2_sector sec = {j->miner_id, j->sector_number};
  if (cuzk_c2_check(&j->ctx, j->miner_id ? &sec : NULL, sub, sizeof sub)) {
    snprintf(msg, len, "vanilla_proof: %s", sub);
    return false;
  }
  srs_set *s = eng_srs_for_sector(e, bytes);
  if (!s) {
    snprintf(msg, len, "sector_size: no PoRep circuit for %llu-byte sectors",
             (unsigned long long)bytes);
    return false;
  }
  double load_s = 0;
  if (!eng_srs_acquire(e, s, &load_s, msg, len)) return false;
  j->srs_s = load_s;
  j->parts = j->ctx.partitions;
  j->proofs = calloc(j->parts, sizeof *j->proofs);
  pthread_mutex_lock(&e->mu);
  j->srs = s; /* released by eng_end */
  pthread_mutex_unlock(&e->mu);
  if (!j->proofs) {
    snprintf(msg, len, "out of memory");
    return false;
  }
  return true;
}

bool eng_porep_finish(cuzk_engine *e, eng_job *j, char *msg, size_t len) {
  double t0 = eng_now();
  if (e->cfg.verify_proofs) {
    bool all = false, *ok = calloc(j->parts, sizeof *ok);
    if (!ok || cuzk_c2_verify(&all, ok, &j->ctx, j->srs->pvk, j->proofs, 0, j->parts)) {
      free(ok);
      snprintf(msg, len, "PoRep proof self-check could not run (out of memory)");
      return false;
    }
    if (!all) {
      unsigned bad = 0;
      while (bad < j->parts && ok[bad])
        bad++;
      free(ok);
      snprintf(msg, len, "PoRep proof self-check failed: partition %u does not verify", bad);
      return false;
    }
    free(ok);
  }
  uint8_t *out = malloc((size_t)j->parts * CUZK_G16_PROOF_BYTES);
  if (!out) {
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
