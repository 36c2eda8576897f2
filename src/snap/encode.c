/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The update encoding and its inverse (docs/spec/snap-circuit.md §3): node i of the new replica
 * is sector_key[i] + data[i] * rho(i >> (cbl - h)), with one rho per value of the h high bits. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "snap/snap_internal.h"

typedef struct {
  uint8_t *out;
  const uint8_t *a, *b; /* encode: key, data; decode: replica, key */
  const cuzk_fr *rho;   /* 2^h values (decode: their inverses) */
  const cuzk_snap_proof *p;
  bool decode;
  _Atomic uint64_t bad; /* the first non-canonical node seen (UINT64_MAX: none) */
} job;

static void note_bad(job *j, uint64_t i) {
  uint64_t cur = atomic_load(&j->bad);
  while (i < cur && !atomic_compare_exchange_weak(&j->bad, &cur, i)) {
  }
}

static void run(void *ctx, size_t begin, size_t end) {
  job *j = ctx;
  for (size_t i = begin; i < end; i++) {
    cuzk_fr x, y, r;
    if (!cuzk_fr_from_bytes(&x, j->a + 32 * i) || !cuzk_fr_from_bytes(&y, j->b + 32 * i)) {
      note_bad(j, i);
      continue;
    }
    const cuzk_fr *rho = &j->rho[snap_high(j->p, i)];
    if (j->decode) { /* data = (replica - key) / rho */
      cuzk_fr_sub(&r, &x, &y);
      cuzk_fr_mul(&r, &r, rho);
    } else { /* replica = key + data * rho */
      cuzk_fr_mul(&r, &y, rho);
      cuzk_fr_add(&r, &r, &x);
    }
    cuzk_fr_to_bytes(j->out + 32 * i, &r);
  }
}

static cuzk_snap_err apply(uint8_t *out, const cuzk_snap_proof *p, const uint8_t *a,
                           const uint8_t *b, const uint8_t comm_d_new[32],
                           const uint8_t comm_r_old[32], bool decode, cuzk_pool *pool, char *msg,
                           size_t len) {
  if (!out || !p || !a || !b || !comm_d_new || !comm_r_old)
    return cuzk_snap_fail(msg, len, CUZK_SNAP_EINVAL, "encoding: missing argument");
  cuzk_fr phi;
  if (!cuzk_snap_phi(&phi, comm_d_new, comm_r_old))
    return cuzk_snap_fail(msg, len, CUZK_SNAP_EINVAL,
                          "encoding: comm_d_new or comm_r_old is not a canonical field element");
  size_t nrho = (size_t)1 << p->h;
  cuzk_fr *rho = malloc(nrho * sizeof *rho);
  if (!rho) return cuzk_snap_fail(msg, len, CUZK_SNAP_ENOMEM, "encoding: out of memory");
  for (size_t i = 0; i < nrho; i++) {
    cuzk_snap_rho(&rho[i], &phi, i);
    if (decode) (void)cuzk_fr_inv(&rho[i], &rho[i]); /* rho = 0 has probability 2^-255 */
  }
  job j = {out, a, b, rho, p, decode, UINT64_MAX};
  cuzk_parallel_for(pool, p->sector->nodes, 1 << 14, run, &j, 0);
  free(rho);
  uint64_t bad = atomic_load(&j.bad);
  if (bad != UINT64_MAX)
    return cuzk_snap_fail(msg, len, CUZK_SNAP_EINVAL,
                          "encoding: node %llu of the %s is not a canonical field element",
                          (unsigned long long)bad,
                          decode ? "replica or sector key" : "sector key or data");
  return CUZK_SNAP_OK;
}

cuzk_snap_err cuzk_snap_encode(uint8_t *new_replica, const cuzk_snap_proof *p,
                               const uint8_t *sector_key, const uint8_t *data,
                               const uint8_t comm_d_new[32], const uint8_t comm_r_old[32],
                               cuzk_pool *pool, char *msg, size_t msg_len) {
  return apply(new_replica, p, sector_key, data, comm_d_new, comm_r_old, false, pool, msg, msg_len);
}

cuzk_snap_err cuzk_snap_decode(uint8_t *data, const cuzk_snap_proof *p, const uint8_t *new_replica,
                               const uint8_t *sector_key, const uint8_t comm_d_new[32],
                               const uint8_t comm_r_old[32], cuzk_pool *pool, char *msg,
                               size_t msg_len) {
  return apply(data, p, new_replica, sector_key, comm_d_new, comm_r_old, true, pool, msg, msg_len);
}
