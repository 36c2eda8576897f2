/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Test sectors for SnapDeals (docs/snap.md "Test sectors"): a CC sector sealed in memory by the
 * filecoin layer, updated with new data (TreeD new, the encoded replica, TreeR new, comm_r_new with
 * the old comm_c), and the partition proofs it answers (EmptySectorUpdate::prove_inner,
 * docs/spec/snap-circuit.md §5.2). */
#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin/seal.h"
#include "filecoin/seal.h"
#include "snap/snap_internal.h"

struct cuzk_snap_sector {
  const cuzk_snap_proof *p;
  uint8_t *key, *replica; /* old and new replica, nodes x 32 */
  uint8_t *tree_d;        /* TreeD new, cuzk_porep_tree_d_build layout */
  cuzk_sdr_tree tree_r_old, tree_r_new;
  uint8_t comm_c[32], comm_r_old[32], comm_d_new[32], comm_r_new[32];
};

/* Sealing keeps every layer in memory ((layers + 4) x the sector): only the test sizes. */
#define MAX_SEAL_BYTES (UINT64_C(512) << 20)

void cuzk_snap_sector_free(cuzk_snap_sector *s) {
  if (!s) return;
  free(s->key);
  free(s->replica);
  free(s->tree_d);
  cuzk_sdr_tree_free(&s->tree_r_old);
  cuzk_sdr_tree_free(&s->tree_r_new);
  free(s);
}

/* Progress of the whole update: the seal's steps, then the update's UPDATE_STEPS; the seal's own
 * "done" is passed on as the first update step's start. */
#define UPDATE_STEPS 3
typedef struct {
  const cuzk_progress *to;
  uint64_t total; /* the seal's steps + UPDATE_STEPS, once the seal reported */
} whole;

static void seal_step(void *ctx, const char *step, uint64_t done, uint64_t total) {
  whole *w = ctx;
  w->total = total + UPDATE_STEPS;
  cuzk_progress_report(w->to, done >= total ? "tree_d_new" : step, done, w->total);
}

/* The CC sector: sealed zeros; keeps the replica (the sector key), tree_r_last and comm_c. */
static cuzk_snap_err seal_cc(cuzk_snap_sector *s, const uint8_t prover_id[32], uint64_t sector_id,
                             const uint8_t ticket[32], cuzk_pool *pool,
                             const cuzk_progress *progress, char *msg, size_t len) {
  const cuzk_sector_info *si = s->p->sector;
  const cuzk_seal_proof *sealp;
  if (cuzk_seal_proof_by_sector(&sealp, si->bytes) != CUZK_POREP_OK)
    return cuzk_snap_fail(msg, len, CUZK_SNAP_EINVAL, "no seal proof for %s", si->name);
  uint8_t *zeros = calloc(si->nodes, 32);
  if (!zeros) return cuzk_snap_fail(msg, len, CUZK_SNAP_ENOMEM, "seal: out of memory");
  cuzk_sealed_sector ss;
  cuzk_porep_err pe =
      cuzk_seal_sector(&ss, sealp, zeros, prover_id, sector_id, ticket, pool, progress);
  free(zeros);
  if (pe != CUZK_POREP_OK)
    return cuzk_snap_fail(msg, len, pe == CUZK_POREP_ENOMEM ? CUZK_SNAP_ENOMEM : CUZK_SNAP_EINVAL,
                          "seal: %s", cuzk_porep_strerror(pe));
  s->key = ss.replica;
  ss.replica = NULL;
  s->tree_r_old = ss.tree_r;
  ss.tree_r.nodes = NULL;
  memcpy(s->comm_c, ss.comm_c, 32);
  memcpy(s->comm_r_old, ss.comm_r, 32);
  cuzk_sealed_sector_free(&ss);
  return CUZK_SNAP_OK;
}

/* TreeD new over data, the encoding, TreeR new and comm_r_new (docs/spec/snap-circuit.md §3). */
static cuzk_snap_err update(cuzk_snap_sector *s, const uint8_t *data, cuzk_pool *pool,
                            const whole *w, char *msg, size_t len) {
  const cuzk_sector_info *si = s->p->sector;
  const uint64_t n = si->nodes;
  s->tree_d = malloc(cuzk_porep_tree_d_bytes(n * 32));
  s->replica = malloc(n * 32);
  cuzk_fr *leaves = malloc(n * sizeof *leaves);
  cuzk_snap_err e = CUZK_SNAP_ENOMEM;
  if (!s->tree_d || !s->replica || !leaves) goto out;
  e = CUZK_SNAP_EINVAL;
  if (cuzk_porep_tree_d_build_pool(pool, s->tree_d, data, n * 32) != CUZK_POREP_OK) {
    e = cuzk_snap_fail(msg, len, e, "data: not Fr32-padded");
    goto out;
  }
  memcpy(s->comm_d_new, s->tree_d + (2 * n - 2) * 32, 32);
  cuzk_progress_report(w->to, "encode_new", w->total - 2, w->total);
  if ((e = cuzk_snap_encode(s->replica, s->p, s->key, data, s->comm_d_new, s->comm_r_old, pool, msg,
                            len)))
    goto out;
  for (uint64_t i = 0; i < n; i++)
    (void)cuzk_fr_from_bytes(&leaves[i], s->replica + 32 * i); /* canonical: written by encode */
  e = CUZK_SNAP_ENOMEM;
  cuzk_progress_report(w->to, "tree_r_new", w->total - 1, w->total);
  if (!cuzk_sdr_tree_build(&s->tree_r_new, leaves, n, si->base_trees, si->sub_arity, si->top_arity,
                           pool)) {
    e = cuzk_snap_fail(msg, len, e, "TreeR new: out of memory");
    goto out;
  }
  cuzk_fr comm_c, comm_r_new;
  (void)cuzk_fr_from_bytes(&comm_c, s->comm_c);
  cuzk_sdr_comm_r(&comm_r_new, &comm_c, &s->tree_r_new.root); /* the old comm_c, kept */
  cuzk_fr_to_bytes(s->comm_r_new, &comm_r_new);
  cuzk_progress_report(w->to, "done", w->total, w->total);
  e = CUZK_SNAP_OK;
out:
  free(leaves);
  return e;
}

cuzk_snap_err cuzk_snap_sector_update(cuzk_snap_sector **out, const cuzk_snap_proof *p,
                                      const uint8_t *data, const uint8_t prover_id[32],
                                      uint64_t sector_id, const uint8_t ticket[32], cuzk_pool *pool,
                                      const cuzk_progress *progress, char *msg, size_t msg_len) {
  if (!out) return cuzk_snap_fail(msg, msg_len, CUZK_SNAP_EINVAL, "no output");
  *out = NULL;
  if (!p || !p->sector || !prover_id || !ticket)
    return cuzk_snap_fail(msg, msg_len, CUZK_SNAP_EINVAL, "missing argument");
  if (p->sector->bytes > MAX_SEAL_BYTES)
    return cuzk_snap_fail(msg, msg_len, CUZK_SNAP_EINVAL,
                          "sealing in memory is for 2KiB, 8MiB and 512MiB sectors, not %s",
                          p->sector->name);
  cuzk_snap_sector *s = calloc(1, sizeof *s);
  uint8_t *zeros = data ? NULL : calloc(p->sector->nodes, 32);
  if (!s || (!data && !zeros)) {
    free(s);
    free(zeros);
    return cuzk_snap_fail(msg, msg_len, CUZK_SNAP_ENOMEM, "out of memory");
  }
  s->p = p;
  whole w = {progress, 0};
  cuzk_progress seal = {seal_step, &w, NULL};
  cuzk_snap_err e = seal_cc(s, prover_id, sector_id, ticket, pool, &seal, msg, msg_len);
  if (!e) e = update(s, data ? data : zeros, pool, &w, msg, msg_len);
  free(zeros);
  if (e) {
    cuzk_snap_sector_free(s);
    return e;
  }
  *out = s;
  return CUZK_SNAP_OK;
}

void cuzk_snap_sector_comms(const cuzk_snap_sector *s, uint8_t comm_r_old[32],
                            uint8_t comm_d_new[32], uint8_t comm_r_new[32], uint8_t comm_c[32]) {
  if (!s) return;
  if (comm_r_old) memcpy(comm_r_old, s->comm_r_old, 32);
  if (comm_d_new) memcpy(comm_d_new, s->comm_d_new, 32);
  if (comm_r_new) memcpy(comm_r_new, s->comm_r_new, 32);
  if (comm_c) memcpy(comm_c, s->comm_c, 32);
}

const uint8_t *cuzk_snap_sector_key(const cuzk_snap_sector *s) { return s ? s->key : NULL; }
const uint8_t *cuzk_snap_sector_replica(const cuzk_snap_sector *s) { return s ? s->replica : NULL; }

/* ---- partition proofs --------------------------------------------------------------------- */
static void open_r(cuzk_snap_path_r *o, const cuzk_sdr_tree *t, uint64_t c) {
  cuzk_sdr_tree_open_bytes(t, c, o->leaf, o->root, o->index, o->sib);
}

static const uint8_t *node_d(const cuzk_snap_sector *s, unsigned level, uint64_t i) {
  return s->tree_d + 32 * (cuzk_porep_tree_d_level_start(s->p->sector->nodes, level) + i);
}

static void open_d(cuzk_snap_path_d *o, const cuzk_snap_sector *s, uint64_t c) {
  memcpy(o->leaf, node_d(s, 0, c), 32);
  memcpy(o->root, s->comm_d_new, 32);
  const unsigned levels = s->p->cbl < CUZK_MERKLE_MAX_LEVELS ? s->p->cbl : CUZK_MERKLE_MAX_LEVELS;
  for (unsigned l = 0; l < levels; l++, c >>= 1) {
    memcpy(o->sib[l], node_d(s, l, c ^ 1), 32);
    o->index[l] = (uint8_t)(c & 1);
  }
}

cuzk_snap_err cuzk_snap_vanilla_generate(cuzk_snap_partition_proof *out, const cuzk_snap_proof *p,
                                         const cuzk_snap_sector *s, unsigned k) {
  if (!out) return CUZK_SNAP_EINVAL;
  memset(out, 0, sizeof *out);
  if (!p || !s || s->p != p || k >= p->partitions) return CUZK_SNAP_EINVAL;
  uint64_t ch[CUZK_SNAP_MAX_CHALLENGES];
  (void)cuzk_snap_challenges(ch, p, s->comm_r_new, k);
  out->proofs = calloc(p->challenges, sizeof *out->proofs);
  if (!out->proofs) return CUZK_SNAP_ENOMEM;
  memcpy(out->comm_c, s->comm_c, 32);
  /* the apex leaves: partition k's group of the TreeD row L */
  for (unsigned a = 0; a < p->apex_leaves; a++)
    memcpy(out->apex[a], node_d(s, p->tree_d_low, (uint64_t)k * p->apex_leaves + a), 32);
  for (unsigned n = 0; n < p->challenges; n++) {
    open_r(&out->proofs[n].r_old, &s->tree_r_old, ch[n]);
    open_d(&out->proofs[n].d_new, s, ch[n]);
    open_r(&out->proofs[n].r_new, &s->tree_r_new, ch[n]);
  }
  return CUZK_SNAP_OK;
}
