/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The list of proof kinds and what their descriptors share (docs/kinds.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cuzk/util/errmsg.h"
#include "kinds/kinds_internal.h"

/* The order GetStatus lists the parameter sets in. A new kind: one line here. */
static const cuzk_kind *const kinds[] = {&cuzk_kind_porep, &cuzk_kind_snap, &cuzk_kind_window_post,
                                         &cuzk_kind_winning_post};
#define N_KINDS (sizeof kinds / sizeof *kinds)

const char *cuzk_kinds_strerror(cuzk_kinds_err e) {
  switch (e) {
  case CUZK_KINDS_OK: return "ok";
  case CUZK_KINDS_EREQUEST: return "a request field or vanilla proof is not valid";
  case CUZK_KINDS_EVANILLA: return "a vanilla proof does not hold";
  case CUZK_KINDS_ENOMEM: return "out of memory";
  }
  return "unknown error";
}

const cuzk_kind *cuzk_kind_at(size_t i) { return i < N_KINDS ? kinds[i] : NULL; }

const cuzk_kind *cuzk_kind_of(cuzk_proof_kind k) {
  for (size_t i = 0; i < N_KINDS; i++)
    if (kinds[i]->id == k) return kinds[i];
  return NULL;
}

const cuzk_kind *cuzk_kind_named(const char *name) {
  for (size_t i = 0; name && i < N_KINDS; i++) {
    const cuzk_kind *k = kinds[i];
    if (!strcasecmp(name, k->label) || !strcasecmp(name, k->wire) || !strcasecmp(name, k->proto))
      return k;
    for (const char *const *a = k->aliases; *a; a++)
      if (!strcasecmp(name, *a)) return k;
  }
  return NULL;
}

const char *cuzk_proof_kind_label(cuzk_proof_kind k) {
  const cuzk_kind *d = cuzk_kind_of(k);
  return d ? d->label : NULL;
}

const cuzk_kind_circuit *cuzk_kind_circuit_for(const cuzk_kind *k, uint64_t sector_bytes) {
  for (unsigned i = 0; i < k->n_circuits; i++)
    if (k->circuits[i].sector_bytes == sector_bytes) return &k->circuits[i];
  return NULL;
}

void cuzk_kind_prepared_free(const cuzk_kind *k, cuzk_kind_prepared *p) {
  if (!p) return;
  if (p->work && k) k->free_work(p->work);
  memset(p, 0, sizeof *p);
}

cuzk_fr *kind_inputs_alloc(size_t n) { return malloc((n ? n : 1) * sizeof(cuzk_fr)); }

cuzk_fr *kind_inputs_result(cuzk_fr *in, bool failed) {
  if (!failed) return in;
  free(in);
  return NULL;
}

unsigned kind_partition_is_position(const void *work, unsigned k) {
  (void)work;
  return k;
}

bool kind_check_sector_size(const cuzk_kind_request *r, uint64_t bytes, const char *proof_name,
                            const char *size_name, char *msg, size_t len) {
  if (!r->sector_size || r->sector_size == bytes) return true;
  cuzk_errmsg(msg, len, "sector_size: %llu, but %s proves %s sectors (%llu bytes)",
              (unsigned long long)r->sector_size, proof_name, size_name, (unsigned long long)bytes);
  return false;
}

bool kind_check_32(const char *field, size_t have, char *msg, size_t len) {
  if (have == 32) return true;
  cuzk_errmsg(msg, len, "%s: %zu bytes, expected 32", field, have);
  return false;
}

bool kind_set_circuit(const cuzk_kind *k, cuzk_kind_prepared *out, uint64_t sector_bytes, char *msg,
                      size_t len) {
  out->circuit = cuzk_kind_circuit_for(k, sector_bytes);
  if (!out->circuit)
    cuzk_errmsg(msg, len, "sector_size: no %s circuit for %llu-byte sectors", k->title,
                (unsigned long long)sector_bytes);
  return out->circuit != NULL;
}

bool kind_verdict(bool *ok, bool ran, bool all, const char *title, int bad_part, char *msg,
                  size_t len) {
  *ok = ran && all;
  if (!ran)
    cuzk_errmsg(msg, len, "%s proof self-check could not run (out of memory)", title);
  else if (!all && bad_part >= 0)
    cuzk_errmsg(msg, len, "%s proof self-check failed: partition %d does not verify", title,
                bad_part);
  else if (!all)
    cuzk_errmsg(msg, len, "%s proof self-check failed: the proofs do not verify", title);
  return ran;
}

cuzk_kinds_err kind_refuse_synthetic(const char *what, char *msg, size_t len) {
  return CUZK_FAIL(msg, len, CUZK_KINDS_EREQUEST,
                   "%s: a synthetic input (made by cuzk-bench gen-vanilla --synthetic, no stored "
                   "data behind it: its proof would prove nothing about a sector); refused "
                   "because daemon.allow_synthetic_inputs is off (docs/config.md)",
                   what);
}
