/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Native verification of one partition proof (docs/spec/snap-circuit.md §5.3, docs/snap.md
 * "Vanilla verification"): what EmptySectorUpdate::verify checks, with the apex leaves checked
 * by position (the circuit selects them by the challenge bits) and the apex tree checked against
 * comm_d_new, so a proof that passes cannot make the circuit unsatisfiable. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "filecoin/seal.h"
#include "snap/snap_internal.h"

typedef struct {
  const cuzk_snap_proof *p;
  unsigned k;
  char *msg;
  size_t len;
} ctx;

/* EVERIFY naming the partition, the challenge (n < 0: none) and what failed. */
static cuzk_snap_err refuse(const ctx *c, int n, uint64_t node, const char *what) {
  if (n < 0)
    return cuzk_snap_fail(c->msg, c->len, CUZK_SNAP_EVERIFY, "partition %u: %s", c->k, what);
  return cuzk_snap_fail(c->msg, c->len, CUZK_SNAP_EVERIFY,
                        "partition %u, challenge %d (node %" PRIu64 "): %s", c->k, n, node, what);
}

/* The apex tree's root: abl rows of SHA-256 pairs over the apex leaves. */
static void apex_root(uint8_t out[32], const cuzk_snap_proof *p,
                      const cuzk_snap_partition_proof *pp) {
  uint8_t row[CUZK_SNAP_MAX_APEX][32];
  memcpy(row, pp->apex, (size_t)p->apex_leaves * 32);
  for (unsigned w = p->apex_leaves; w > 1; w /= 2)
    for (unsigned i = 0; i < w / 2; i++)
      cuzk_porep_tree_d_node(row[i], row[2 * i], row[2 * i + 1]);
  memcpy(out, row[0], 32);
}

/* One TreeR path: its root is want, it hashes to it, it opens node c. */
static cuzk_snap_err check_r(const ctx *x, const cuzk_merkle_shape *s, const cuzk_snap_path_r *r,
                             const uint8_t want[32], unsigned n, uint64_t c, const char *tree) {
  char what[128];
  uint8_t got[32];
  uint64_t at = 0;
  cuzk_merkle_view v = snap_view_r(r);
  if (memcmp(r->root, want, 32) != 0) {
    snprintf(what, sizeof what, "%s: root differs from the first challenge's", tree);
    return refuse(x, (int)n, c, what);
  }
  if (!cuzk_merkle_root(got, &at, s, &v)) {
    snprintf(what, sizeof what, "%s: a non-canonical value or an index out of range", tree);
    return refuse(x, (int)n, c, what);
  }
  if (at != c) { /* the indices first: a moved challenge says so instead of "does not hash" */
    snprintf(what, sizeof what, "%s: path indices open node %" PRIu64, tree, at);
    return refuse(x, (int)n, c, what);
  }
  if (memcmp(got, want, 32) != 0) {
    snprintf(what, sizeof what, "%s: leaf and path do not hash to the root", tree);
    return refuse(x, (int)n, c, what);
  }
  return CUZK_SNAP_OK;
}

/* The TreeD path: root comm_d_new, indices spell c, the node of row L is the apex leaf at its
 * position, the node of row L + abl is the apex root, and it hashes to comm_d_new. */
static cuzk_snap_err check_d(const ctx *x, const cuzk_snap_partition_proof *pp, unsigned n,
                             uint64_t c, const uint8_t comm_d_new[32], const uint8_t aroot[32]) {
  const cuzk_snap_proof *p = x->p;
  const cuzk_snap_path_d *d = &pp->proofs[n].d_new;
  if (memcmp(d->root, comm_d_new, 32) != 0)
    return refuse(x, (int)n, c, "TreeD new: root differs from comm_d_new");
  /* cbl <= 31 for every size; the bound also tells the compiler the arrays' size */
  const unsigned levels = p->cbl < CUZK_MERKLE_MAX_LEVELS ? p->cbl : CUZK_MERKLE_MAX_LEVELS;
  uint64_t at = 0;
  for (unsigned l = 0; l < levels; l++)
    at |= (uint64_t)d->index[l] << l;
  if (at != c) {
    char what[96];
    snprintf(what, sizeof what, "TreeD new: path indices open node %" PRIu64, at);
    return refuse(x, (int)n, c, what);
  }
  uint8_t cur[32];
  memcpy(cur, d->leaf, 32);
  for (unsigned l = 0; l < levels; l++) {
    if (l == p->tree_d_low &&
        memcmp(cur, pp->apex[(c >> l) - (uint64_t)x->k * p->apex_leaves], 32) != 0)
      return refuse(x, (int)n, c, "TreeD new: the path's apex-row node differs from its apex leaf");
    if (l == p->tree_d_low + p->abl && memcmp(cur, aroot, 32) != 0)
      return refuse(x, (int)n, c, "TreeD new: the apex leaves do not hash to the path's node");
    if (d->index[l])
      cuzk_porep_tree_d_node(cur, d->sib[l], cur);
    else
      cuzk_porep_tree_d_node(cur, cur, d->sib[l]);
  }
  if (p->tree_d_low + p->abl == p->cbl && memcmp(cur, aroot, 32) != 0) /* one partition */
    return refuse(x, (int)n, c, "TreeD new: the apex leaves do not hash to comm_d_new");
  if (memcmp(cur, comm_d_new, 32) != 0)
    return refuse(x, (int)n, c, "TreeD new: leaf and path do not hash to comm_d_new");
  return CUZK_SNAP_OK;
}

cuzk_snap_err cuzk_snap_vanilla_verify(const cuzk_snap_proof *p, unsigned k,
                                       const uint8_t comm_r_old[32], const uint8_t comm_d_new[32],
                                       const uint8_t comm_r_new[32],
                                       const cuzk_snap_partition_proof *pp, char *msg,
                                       size_t msg_len) {
  if (!p || !p->sector || !comm_r_old || !comm_d_new || !comm_r_new || !pp || !pp->proofs)
    return cuzk_snap_fail(msg, msg_len, CUZK_SNAP_EINVAL, "missing argument");
  const ctx x = {p, k, msg, msg_len};
  if (k >= p->partitions)
    return cuzk_snap_fail(msg, msg_len, CUZK_SNAP_EINVAL, "partition %u: %s has %u partitions", k,
                          p->name, p->partitions);
  cuzk_fr comm_c, root, want, got, phi;
  if (!cuzk_fr_from_bytes(&comm_c, pp->comm_c))
    return refuse(&x, -1, 0, "comm_c is not a canonical field element");
  if (!cuzk_snap_phi(&phi, comm_d_new, comm_r_old) || !cuzk_fr_from_bytes(&want, comm_r_new))
    return cuzk_snap_fail(msg, msg_len, CUZK_SNAP_EINVAL,
                          "comm_r_old, comm_d_new or comm_r_new is not a canonical field element");
  /* both comm_r: Poseidon2(comm_c, root of the first challenge's TreeR proof) */
  const uint8_t *roots[2] = {pp->proofs[0].r_old.root, pp->proofs[0].r_new.root};
  const uint8_t *comms[2] = {comm_r_old, comm_r_new};
  for (unsigned i = 0; i < 2; i++) {
    if (!cuzk_fr_from_bytes(&root, roots[i]) || !cuzk_fr_from_bytes(&want, comms[i]))
      return refuse(&x, 0, 0, "a TreeR root is not a canonical field element");
    cuzk_sdr_comm_r(&got, &comm_c, &root);
    if (!cuzk_fr_eq(&got, &want))
      return refuse(&x, -1, 0,
                    i ? "comm_r_new is not Poseidon2(comm_c, the TreeR new root)"
                      : "comm_r_old is not Poseidon2(comm_c, the TreeR old root)");
  }
  uint64_t ch[CUZK_SNAP_MAX_CHALLENGES];
  (void)cuzk_snap_challenges(ch, p, comm_r_new, k);
  uint8_t aroot[32];
  apex_root(aroot, p, pp);
  cuzk_merkle_shape sr;
  snap_shape_r(&sr, p);
  for (unsigned n = 0; n < p->challenges; n++) {
    const cuzk_snap_challenge_proof *cp = &pp->proofs[n];
    cuzk_snap_err e;
    if ((e = check_r(&x, &sr, &cp->r_old, roots[0], n, ch[n], "TreeR old")) ||
        (e = check_r(&x, &sr, &cp->r_new, roots[1], n, ch[n], "TreeR new")) ||
        (e = check_d(&x, pp, n, ch[n], comm_d_new, aroot)))
      return e;
    /* the encoding of this node: new = old + data * rho(high bits) */
    cuzk_fr lo, ld, ln, rho;
    (void)cuzk_fr_from_bytes(&lo, cp->r_old.leaf); /* canonical: checked by the paths */
    (void)cuzk_fr_from_bytes(&ln, cp->r_new.leaf);
    if (!cuzk_fr_from_bytes(&ld, cp->d_new.leaf))
      return refuse(&x, (int)n, ch[n], "TreeD new: the leaf is not a canonical field element");
    cuzk_snap_rho(&rho, &phi, snap_high(p, ch[n]));
    cuzk_fr_mul(&ld, &ld, &rho);
    cuzk_fr_add(&ld, &ld, &lo);
    if (!cuzk_fr_eq(&ld, &ln))
      return refuse(&x, (int)n, ch[n], "leaf_r_new is not leaf_r_old + leaf_d_new * rho");
  }
  return CUZK_SNAP_OK;
}
