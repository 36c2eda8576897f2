/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The registered update proofs and the constants of each size (docs/spec/snap-circuit.md §1,
 * §2): one table indexed by id, filled once from the size rules of storage-proofs-update. */
#include <pthread.h>
#include <string.h>

#include "snap/snap_internal.h"

#define KiB (UINT64_C(1) << 10)
#define MiB (UINT64_C(1) << 20)
#define GiB (UINT64_C(1) << 30)

static const uint64_t sizes[CUZK_SNAP_NUM_PROOFS] = {2 * KiB, 8 * MiB, 512 * MiB, 32 * GiB,
                                                     64 * GiB};
static const char *const names[CUZK_SNAP_NUM_PROOFS] = {"StackedDrg2KiBV1", "StackedDrg8MiBV1",
                                                        "StackedDrg512MiBV1", "StackedDrg32GiBV1",
                                                        "StackedDrg64GiBV1"};

static cuzk_snap_proof table[CUZK_SNAP_NUM_PROOFS];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static unsigned log2u(uint64_t n) {
  unsigned k = 0;
  while (n > 1) {
    n >>= 1;
    k++;
  }
  return k;
}

/* The rules of constants.rs over the node count N (docs/spec/snap-circuit.md §2). */
static void fill(cuzk_snap_proof *p, unsigned id) {
  p->id = id;
  p->name = names[id];
  (void)cuzk_sector_by_bytes(&p->sector, sizes[id]);
  const uint64_t n = sizes[id] / 32;
  p->cbl = log2u(n);
  p->partitions = n <= (1u << 8) ? 1 : n <= (1u << 10) ? 2 : n <= (1u << 19) ? 4 : 16;
  p->pbl = log2u(p->partitions);
  p->challenges = n <= (1u << 19) ? 10 : 86;
  p->apex_leaves = n <= (1u << 8) ? 8 : 128;
  p->abl = log2u(p->apex_leaves);
  for (unsigned i = 0; i < CUZK_SNAP_HS; i++)
    p->hs[i] = n <= (1u << 10) ? 1 : 7 + i;
  p->h = p->hs[3];
  /* the first entry equal to h: index 0 when every entry is 1 (2 KiB: h_select 1, not 8) */
  unsigned first = 0;
  while (p->hs[first] != p->h)
    first++;
  p->h_select = 1u << first;
  p->rb = p->cbl - p->pbl;
  p->cpd = 254 / p->rb;
  p->digests = (p->challenges + p->cpd - 1) / p->cpd;
  p->tree_d_low = p->cbl - p->pbl - p->abl;
}

static void table_fill(void) {
  for (unsigned i = 0; i < CUZK_SNAP_NUM_PROOFS; i++)
    fill(&table[i], i);
}

const cuzk_snap_proof *cuzk_snap_proof_at(size_t i) {
  pthread_once(&table_once, table_fill);
  return i < CUZK_SNAP_NUM_PROOFS ? &table[i] : NULL;
}

cuzk_snap_err cuzk_snap_proof_by_id(const cuzk_snap_proof **p, uint64_t id) {
  if (!p) return CUZK_SNAP_EINVAL;
  *p = id < CUZK_SNAP_NUM_PROOFS ? cuzk_snap_proof_at((size_t)id) : NULL;
  return *p ? CUZK_SNAP_OK : CUZK_SNAP_EPROOF;
}

cuzk_snap_err cuzk_snap_proof_by_name(const cuzk_snap_proof **p, const char *name) {
  if (!p) return CUZK_SNAP_EINVAL;
  *p = NULL;
  if (!name) return CUZK_SNAP_EINVAL;
  for (size_t i = 0; i < CUZK_SNAP_NUM_PROOFS; i++)
    if (!strcmp(names[i], name)) return cuzk_snap_proof_by_id(p, i);
  return CUZK_SNAP_EPROOF;
}

cuzk_snap_err cuzk_snap_proof_for(const cuzk_snap_proof **p, uint64_t sector_bytes) {
  if (!p) return CUZK_SNAP_EINVAL;
  *p = NULL;
  for (size_t i = 0; i < CUZK_SNAP_NUM_PROOFS; i++)
    if (sizes[i] == sector_bytes) return cuzk_snap_proof_by_id(p, i);
  return CUZK_SNAP_EPROOF;
}

void snap_shape_r(cuzk_merkle_shape *s, const cuzk_snap_proof *p) {
  cuzk_merkle_shape_tree_r(s, p->sector);
}

void snap_shape_d(cuzk_merkle_shape *s, const cuzk_snap_proof *p) {
  (void)cuzk_merkle_shape_tree_d(s, p->cbl);
}

cuzk_merkle_view snap_view_r(const cuzk_snap_path_r *r) {
  cuzk_snap_path_r *m = (cuzk_snap_path_r *)r; /* the view is read or written by its user */
  return (cuzk_merkle_view){m->root, m->leaf, m->index, m->sib};
}

cuzk_merkle_view snap_view_d(const cuzk_snap_path_d *d) {
  cuzk_snap_path_d *m = (cuzk_snap_path_d *)d;
  return (cuzk_merkle_view){m->root, m->leaf, m->index, m->sib};
}
