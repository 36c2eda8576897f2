/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * A synthetic SnapDeals update of any size (cuzk/snap/snap.h cuzk_snap_synthetic_update,
 * docs/snap.md "Synthetic updates"): a synthetic CC sector whose replica (the sector key) is one
 * value K on every node, updated with new data that is one value D on every node. Every new replica
 * node is then K + D * rho(high), one value per rho region, so TreeR old, TreeD new and TreeR new
 * are sparse trees of uniform regions (filecoin/sparse_tree.h) whose roots cost one hash per level
 * and region: no node is stored, at 64 GiB neither. The challenges, drawn from comm_r_new, can only
 * be known once the trees are built: a uniform sector is what needs no node chosen before them.
 * SnapDeals never opens tree_c, so the old sector's comm_c is free: it is the synthetic marker
 * trunc254(SHA-256(tag ‖ comm_r_last_old)), which a sealed sector's comm_c (a Poseidon tree
 * root over its columns) cannot equal but by a hash collision (cuzk_snap_is_synthetic).
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/hashes/sha256.h"
#include "filecoin/seal.h"
#include "filecoin/sparse_tree.h"
#include "snap/snap_internal.h"

static const char marker_tag[] = "cuzk synthetic sector comm_c (SnapDeals)";

void cuzk_snap_synthetic_comm_c(uint8_t out[32], const uint8_t comm_r_last_old[32]) {
  uint8_t buf[sizeof marker_tag - 1 + 32];
  memcpy(buf, marker_tag, sizeof marker_tag - 1);
  memcpy(buf + sizeof marker_tag - 1, comm_r_last_old, 32);
  cuzk_sha256_trunc254(out, buf, sizeof buf);
}

bool cuzk_snap_is_synthetic(const cuzk_snap_proof *p, const cuzk_snap_partition_proof *pp) {
  if (!p || !pp || !pp->proofs || !p->challenges) return false;
  uint8_t want[32];
  cuzk_snap_synthetic_comm_c(want, pp->proofs[0].r_old.root);
  return memcmp(want, pp->comm_c, 32) == 0;
}

/* A value of the sector drawn from its id: trunc254(SHA-256(what ‖ sector_id u64 LE)). */
static void value(uint8_t out[32], const char *what, uint64_t sector_id) {
  uint8_t buf[64];
  size_t n = strlen(what);
  memcpy(buf, what, n);
  for (int i = 0; i < 8; i++)
    buf[n + i] = (uint8_t)(sector_id >> (8 * i));
  cuzk_sha256_trunc254(out, buf, n + 8);
}

static void open_r(cuzk_snap_path_r *o, const cuzk_sparse_tree *t, uint64_t c) {
  unsigned pos[CUZK_SPARSE_MAX_LEVELS];
  cuzk_sparse_open(t, c, o->leaf, pos, o->sib);
  memcpy(o->root, t->root, 32);
  for (unsigned l = 0; l < t->levels && l < sizeof o->index; l++)
    o->index[l] = (uint8_t)pos[l];
}

static void open_d(cuzk_snap_path_d *o, const cuzk_sparse_tree *t, uint64_t c) {
  unsigned pos[CUZK_SPARSE_MAX_LEVELS];
  cuzk_sparse_open(t, c, o->leaf, pos, o->sib);
  memcpy(o->root, t->root, 32);
  for (unsigned l = 0; l < t->levels && l < sizeof o->index; l++)
    o->index[l] = (uint8_t)pos[l];
}

cuzk_snap_err cuzk_snap_synthetic_update(cuzk_snap_partition_proof *parts, uint8_t comm_r_old[32],
                                         uint8_t comm_d_new[32], uint8_t comm_r_new[32],
                                         const cuzk_snap_proof *p, uint64_t sector_id, char *msg,
                                         size_t len) {
  if (!parts || !comm_r_old || !comm_d_new || !comm_r_new || !p)
    return cuzk_snap_fail(msg, len, CUZK_SNAP_EINVAL, "synthetic update: NULL argument");
  memset(parts, 0, p->partitions * sizeof *parts);
  const cuzk_sector_info *si = p->sector;
  const unsigned regions = 1u << p->h;
  uint8_t key[1][32], data[1][32], (*fresh)[32] = malloc((size_t)regions * 32);
  cuzk_sparse_tree r_old, d_new, r_new;
  memset(&r_old, 0, sizeof r_old);
  memset(&d_new, 0, sizeof d_new);
  memset(&r_new, 0, sizeof r_new);
  cuzk_snap_err e = CUZK_SNAP_ENOMEM;
  value(key[0], "cuzk synthetic sector key", sector_id);
  value(data[0], "cuzk synthetic sector data", sector_id);
  if (!fresh || !cuzk_sparse_init_sector(&r_old, si, key, 1) ||
      !cuzk_sparse_init(&d_new, true, si->nodes, 0, 0, 0, data, 1) || !cuzk_sparse_build(&r_old) ||
      !cuzk_sparse_build(&d_new))
    goto out;
  uint8_t comm_c[32];
  cuzk_fr c, root, r;
  cuzk_snap_synthetic_comm_c(comm_c, r_old.root);
  (void)cuzk_fr_from_bytes(&c, comm_c);
  (void)cuzk_fr_from_bytes(&root, r_old.root);
  cuzk_sdr_comm_r(&r, &c, &root);
  cuzk_fr_to_bytes(comm_r_old, &r);
  memcpy(comm_d_new, d_new.root, 32);
  /* new replica = key + data * rho(region) (docs/spec/snap-circuit.md §3) */
  cuzk_fr phi, k, d;
  (void)cuzk_snap_phi(&phi, comm_d_new, comm_r_old);
  (void)cuzk_fr_from_bytes(&k, key[0]);
  (void)cuzk_fr_from_bytes(&d, data[0]);
  for (unsigned g = 0; g < regions; g++) {
    cuzk_fr rho, v;
    cuzk_snap_rho(&rho, &phi, g);
    cuzk_fr_mul(&v, &d, &rho);
    cuzk_fr_add(&v, &v, &k);
    cuzk_fr_to_bytes(fresh[g], &v);
  }
  if (!cuzk_sparse_init_sector(&r_new, si, (const uint8_t(*)[32])fresh, regions) ||
      !cuzk_sparse_build(&r_new))
    goto out;
  (void)cuzk_fr_from_bytes(&root, r_new.root);
  cuzk_sdr_comm_r(&r, &c, &root);
  cuzk_fr_to_bytes(comm_r_new, &r);
  for (unsigned kk = 0; kk < p->partitions; kk++) {
    cuzk_snap_partition_proof *pp = &parts[kk];
    uint64_t ch[CUZK_SNAP_MAX_CHALLENGES];
    (void)cuzk_snap_challenges(ch, p, comm_r_new, kk);
    if (!(pp->proofs = calloc(p->challenges, sizeof *pp->proofs))) goto out;
    memcpy(pp->comm_c, comm_c, 32);
    for (unsigned a = 0; a < p->apex_leaves; a++)
      cuzk_sparse_get(&d_new, p->tree_d_low, (uint64_t)kk * p->apex_leaves + a, pp->apex[a]);
    for (unsigned n = 0; n < p->challenges; n++) {
      open_r(&pp->proofs[n].r_old, &r_old, ch[n]);
      open_d(&pp->proofs[n].d_new, &d_new, ch[n]);
      open_r(&pp->proofs[n].r_new, &r_new, ch[n]);
    }
  }
  e = CUZK_SNAP_OK;
out:
  free(fresh);
  cuzk_sparse_free(&r_old);
  cuzk_sparse_free(&d_new);
  cuzk_sparse_free(&r_new);
  if (e) {
    for (unsigned kk = 0; kk < p->partitions; kk++)
      cuzk_snap_partition_free(&parts[kk]);
    return cuzk_snap_fail(msg, len, e, "synthetic update: out of memory");
  }
  return CUZK_SNAP_OK;
}
