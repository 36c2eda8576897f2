/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* A PoSt request checked before proving, and the public inputs of its partition (docs/post.md
 * "Request" and "Public inputs"). */
#include <stdlib.h>
#include <string.h>

#include "post/post_internal.h"

void cuzk_post_request_free(cuzk_post_request *rq) {
  if (!rq) return;
  for (size_t i = 0; i < rq->n_sectors; i++)
    cuzk_post_sector_proof_free(&rq->sectors[i]);
  free(rq->sectors);
  memset(rq, 0, sizeof *rq);
}

/* How many sector proofs a request may carry: WinningPoSt exactly one (the Rust API requires
 * WINNING_POST_SECTOR_COUNT = 1), a WindowPoSt partition 1..S_w. */
static cuzk_post_err check_count(const cuzk_post_proof *p, size_t n, char *msg, size_t len) {
  if (p->type == CUZK_POST_WINNING && n != 1)
    return cuzk_post_fail(msg, len, CUZK_POST_EINVAL,
                          "vanilla_proofs: %zu elements, but WinningPoSt takes exactly 1", n);
  if (n == 0) return cuzk_post_fail(msg, len, CUZK_POST_EINVAL, "vanilla_proofs: no sector proofs");
  if (n > p->vanilla_sectors)
    return cuzk_post_fail(msg, len, CUZK_POST_EINVAL,
                          "vanilla_proofs: %zu elements, more than the %u sectors of one %s "
                          "partition",
                          n, p->vanilla_sectors, p->name);
  return CUZK_POST_OK;
}

cuzk_post_err cuzk_post_request_init(cuzk_post_request *rq, const cuzk_post_proof *p,
                                     const uint8_t randomness[32], unsigned partition_index,
                                     const uint8_t *const *vanilla, const size_t *vanilla_len,
                                     size_t n, char *msg, size_t len) {
  if (!rq || !p || !randomness || (n && (!vanilla || !vanilla_len)))
    return cuzk_post_fail(msg, len, CUZK_POST_EINVAL, "PoSt request: NULL argument");
  memset(rq, 0, sizeof *rq);
  cuzk_fr f;
  if (!cuzk_fr_from_bytes(&f, randomness)) /* as_safe_commitment: rejected, not reduced */
    return cuzk_post_fail(msg, len, CUZK_POST_EINVAL,
                          "randomness: not a canonical field element (it must be below r; Curio "
                          "clears the top two bits of byte 31)");
  cuzk_post_err e = check_count(p, n, msg, len);
  if (e) return e;
  if (p->type == CUZK_POST_WINNING && partition_index)
    return cuzk_post_fail(msg, len, CUZK_POST_EINVAL,
                          "partition_index: %u, but WinningPoSt has one partition (0)",
                          partition_index);
  rq->proof = p;
  memcpy(rq->randomness, randomness, 32);
  rq->partition_index = partition_index;
  rq->sectors = calloc(n, sizeof *rq->sectors);
  if (!rq->sectors) return cuzk_post_fail(msg, len, CUZK_POST_ENOMEM, "out of memory");
  char sub[400];
  for (size_t i = 0; i < n; i++) {
    cuzk_post_sector_proof *sp = &rq->sectors[i];
    if ((e = cuzk_post_vanilla_read(sp, p, vanilla[i], vanilla_len[i], sub, sizeof sub))) {
      cuzk_post_request_free(rq);
      return cuzk_post_fail(msg, len, e, "vanilla_proofs[%zu]: %s", i, sub);
    }
    rq->n_sectors = i + 1;
    /* the chain verifies a partition's sectors in ascending id order (a BTreeMap), and Curio
     * sends them so: another order, or a repeated sector, can only give a rejected proof */
    if (i && sp->sector_id <= rq->sectors[i - 1].sector_id) {
      uint64_t id = sp->sector_id, prev = rq->sectors[i - 1].sector_id;
      cuzk_post_request_free(rq);
      return cuzk_post_fail(msg, len, CUZK_POST_EINVAL,
                            "vanilla_proofs[%zu]: sector %llu after sector %llu: sectors must be "
                            "distinct and in ascending order",
                            i, (unsigned long long)id, (unsigned long long)prev);
    }
    uint64_t sector_index = (uint64_t)partition_index * p->vanilla_sectors + i;
    if ((e = cuzk_post_vanilla_verify(p, randomness, sector_index, sp, sub, sizeof sub))) {
      uint64_t id = sp->sector_id;
      cuzk_post_request_free(rq);
      return cuzk_post_fail(msg, len, e, "vanilla_proofs[%zu] (sector %llu): %s", i,
                            (unsigned long long)id, sub);
    }
  }
  return CUZK_POST_OK;
}

size_t cuzk_post_num_public_inputs(const cuzk_post_proof *p) {
  return p ? (size_t)p->sector_count * (1 + p->challenge_count) : 0;
}

cuzk_post_err cuzk_post_public_inputs(cuzk_fr *out, const cuzk_post_proof *p,
                                      const uint8_t randomness[32], const uint64_t *sector_ids,
                                      const uint8_t (*comm_r)[32], size_t n,
                                      unsigned partition_index) {
  if (!out || !p || !randomness || !sector_ids || !comm_r) return CUZK_POST_EINVAL;
  bool winning = p->type == CUZK_POST_WINNING;
  if (n == 0 || (winning && n != 1) || (!winning && n > p->sector_count)) return CUZK_POST_EINVAL;
  /* Winning: the verifier's 66 copies of the one sector, block i at sector index i. */
  size_t blocks = winning ? p->sector_count : n, per = 1 + p->challenge_count;
  for (size_t b = 0; b < blocks; b++) {
    size_t s = winning ? 0 : b;
    cuzk_fr *o = out + b * per;
    if (!cuzk_fr_from_bytes(&o[0], comm_r[s])) return CUZK_POST_EINVAL;
    uint64_t sector_index = (uint64_t)partition_index * p->sector_count + b;
    for (unsigned c = 0; c < p->challenge_count; c++) {
      uint64_t ci = cuzk_post_challenge_index(p->api, sector_index, p->challenge_count, c);
      cuzk_fr_from_u64(&o[1 + c],
                       cuzk_post_leaf_challenge(randomness, sector_ids[s], ci, p->sector->nodes));
    }
  }
  /* a short partition repeats its last sector block */
  for (size_t b = blocks; b < p->sector_count; b++)
    memcpy(out + b * per, out + (blocks - 1) * per, per * sizeof *out);
  return CUZK_POST_OK;
}

cuzk_post_err cuzk_post_request_public_inputs(cuzk_fr *out, const cuzk_post_request *rq) {
  if (!rq || !rq->proof || !rq->n_sectors) return CUZK_POST_EINVAL;
  uint64_t *ids = malloc(rq->n_sectors * sizeof *ids);
  uint8_t(*comm_r)[32] = malloc(rq->n_sectors * sizeof *comm_r);
  cuzk_post_err e = CUZK_POST_ENOMEM;
  if (ids && comm_r) {
    for (size_t i = 0; i < rq->n_sectors; i++) {
      ids[i] = rq->sectors[i].sector_id;
      memcpy(comm_r[i], rq->sectors[i].comm_r, 32);
    }
    e = cuzk_post_public_inputs(out, rq->proof, rq->randomness, ids, (const uint8_t(*)[32])comm_r,
                                rq->n_sectors, rq->partition_index);
  }
  free(ids);
  free(comm_r);
  return e;
}
