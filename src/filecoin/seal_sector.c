/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Sealing a test-size sector in memory (include/cuzk/filecoin/seal.h): PC1 (tree_d, replica_id,
 * parents, labels) then PC2 (encoding, tree_c, tree_r_last, comm_r), every step kept. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin/seal.h"
#include "filecoin/seal.h"

void cuzk_sealed_sector_free(cuzk_sealed_sector *s) {
  free(s->data);
  free(s->tree_d);
  free(s->parents);
  free(s->labels);
  free(s->replica);
  cuzk_sdr_tree_free(&s->tree_c);
  cuzk_sdr_tree_free(&s->tree_r);
  memset(s, 0, sizeof *s);
}

static bool bytes_to_fr(cuzk_fr *out, const uint8_t *in, uint64_t n) {
  for (uint64_t v = 0; v < n; v++)
    if (!cuzk_fr_from_bytes(&out[v], in + 32 * v)) return false;
  return true;
}

cuzk_porep_err cuzk_seal_sector(cuzk_sealed_sector *s, const cuzk_seal_proof *p,
                                const uint8_t *data, const uint8_t prover_id[32],
                                uint64_t sector_id, const uint8_t ticket[32], cuzk_pool *pool,
                                const cuzk_progress *progress) {
  memset(s, 0, sizeof *s);
  if (!p || !data || !prover_id || !ticket) return CUZK_POREP_EINVAL;
  const cuzk_sector_info *si = p->sector;
  uint64_t n = si->nodes;
  s->proof = p;
  s->n = n;
  s->layers = si->layers;
  s->sector_id = sector_id;
  memcpy(s->prover_id, prover_id, 32);
  memcpy(s->ticket, ticket, 32);
  cuzk_seal_proof_porep_id(p, s->porep_id);
  cuzk_porep_err e = CUZK_POREP_ENOMEM;
  cuzk_fr *leaves = malloc(n * sizeof *leaves);
  s->data = malloc(n * 32);
  s->tree_d = malloc(cuzk_porep_tree_d_bytes(n * 32));
  s->parents = malloc(CUZK_SDR_DEGREE * n * sizeof(uint32_t));
  s->labels = malloc((uint64_t)s->layers * n * 32);
  s->replica = malloc(n * 32);
  if (!leaves || !s->data || !s->tree_d || !s->parents || !s->labels || !s->replica) goto fail;
  memcpy(s->data, data, n * 32);
  /* progress in steps: tree_d, parents, every layer, encode, tree_c, tree_r_last */
  const uint64_t steps = (uint64_t)s->layers + 5;
  uint64_t step = 0;
  /* PC1: comm_d, replica_id, the graph, the labels */
  cuzk_progress_report(progress, "tree_d", step, steps);
  if ((e = cuzk_porep_tree_d_build(s->tree_d, s->data, n * 32))) goto fail;
  memcpy(s->comm_d, s->tree_d + (2 * n - 2) * 32, 32);
  cuzk_porep_replica_id(s->replica_id, prover_id, sector_id, ticket, s->comm_d, s->porep_id);
  cuzk_sdr_graph g;
  e = CUZK_POREP_EINVAL;
  cuzk_progress_report(progress, "parents", ++step, steps);
  if (cuzk_sdr_graph_init(&g, s->porep_id, (cuzk_sdr_api)p->api, n) ||
      cuzk_sdr_graph_parents_range(&g, pool, 0, n, s->parents))
    goto fail;
  for (unsigned l = 1; l <= s->layers; l++) {
    cuzk_progress_report(progress, "layer", ++step, steps);
    cuzk_sdr_label_layer(s->labels, s->replica_id, l, s->parents, n);
  }
  /* PC2: the replica, tree_c over the column hashes, tree_r_last over the replica, comm_r */
  const uint8_t *key = s->labels + (uint64_t)(s->layers - 1) * n * 32;
  e = CUZK_POREP_ENOTFR32;
  cuzk_progress_report(progress, "encode", ++step, steps);
  if (!cuzk_sdr_encode(s->replica, key, s->data, n)) goto fail;
  e = CUZK_POREP_ENOMEM;
  cuzk_progress_report(progress, "tree_c", ++step, steps);
  if (!cuzk_sdr_column_hashes(leaves, s->labels, s->layers, n, pool) ||
      !cuzk_sdr_tree_build(&s->tree_c, leaves, n, si->base_trees, si->sub_arity, si->top_arity,
                           pool))
    goto fail;
  cuzk_progress_report(progress, "tree_r_last", ++step, steps);
  if (!bytes_to_fr(leaves, s->replica, n) ||
      !cuzk_sdr_tree_build(&s->tree_r, leaves, n, si->base_trees, si->sub_arity, si->top_arity,
                           pool))
    goto fail;
  cuzk_fr comm_r;
  cuzk_sdr_comm_r(&comm_r, &s->tree_c.root, &s->tree_r.root);
  cuzk_fr_to_bytes(s->comm_c, &s->tree_c.root);
  cuzk_fr_to_bytes(s->comm_r_last, &s->tree_r.root);
  cuzk_fr_to_bytes(s->comm_r, &comm_r);
  free(leaves);
  cuzk_progress_report(progress, "done", ++step, steps);
  return CUZK_POREP_OK;
fail:
  free(leaves);
  cuzk_sealed_sector_free(s);
  return e;
}
