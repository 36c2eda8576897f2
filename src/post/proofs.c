/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The registered PoSt proofs (docs/post.md "Registered proofs"): one table indexed by id, its
 * lookups and the tree_r_last path shape of each. */
#include <pthread.h>
#include <string.h>

#include "post/post_internal.h"

#define KiB (UINT64_C(1) << 10)
#define MiB (UINT64_C(1) << 20)
#define GiB (UINT64_C(1) << 30)

/* WINDOW_POST_SECTOR_COUNT: sectors in one Window partition (filecoin-proofs constants.rs). */
#define SW_TEST 2u
#define SW_32G 2349u
#define SW_64G 2300u

/* Winning: the circuit is 66 blocks of one challenge, the API 1 sector of 66 (docs/post.md
 * "Registered proofs"). Window: S_w sectors of 10 in both views. */
#define WINNING(i, size)                                                                         \
  {                                                                                              \
    .id = (i), .name = "StackedDrgWinning" size "V1", .api_name = "StackedDrgWinning" size "V1", \
    .type = CUZK_POST_WINNING, .api = CUZK_API_V1_0_0,                                           \
    .sector_count = CUZK_POST_WINNING_CHALLENGES, .challenge_count = 1,                          \
    .vanilla_challenges = CUZK_POST_WINNING_CHALLENGES, .vanilla_sectors = 1                     \
  }
#define WINDOW(i, size, sw, suffix, api_suffix, v)                                        \
  {                                                                                       \
    .id = (i), .name = "StackedDrgWindow" size suffix,                                    \
    .api_name = "StackedDrgWindow" size api_suffix, .type = CUZK_POST_WINDOW, .api = (v), \
    .sector_count = (sw), .challenge_count = CUZK_POST_WINDOW_CHALLENGES,                 \
    .vanilla_challenges = CUZK_POST_WINDOW_CHALLENGES, .vanilla_sectors = (sw)            \
  }
#define WINDOW_V1(i, size, sw) WINDOW(i, size, sw, "V1", "V1", CUZK_API_V1_0_0)
/* The chain's V1_1 window proofs are the proofs API's V1_2 (the challenge-index fix). */
#define WINDOW_V1_1(i, size, sw) WINDOW(i, size, sw, "V1_1", "V1_2", CUZK_API_V1_2_0)

/* abi.RegisteredPoStProof order. The sector pointers are filled once from the filecoin layer's
 * table (static initializers cannot call cuzk_sector_by_bytes). */
static cuzk_post_proof table[CUZK_POST_NUM_PROOFS] = {
    WINNING(0, "2KiB"),
    WINNING(1, "8MiB"),
    WINNING(2, "512MiB"),
    WINNING(3, "32GiB"),
    WINNING(4, "64GiB"),
    WINDOW_V1(5, "2KiB", SW_TEST),
    WINDOW_V1(6, "8MiB", SW_TEST),
    WINDOW_V1(7, "512MiB", SW_TEST),
    WINDOW_V1(8, "32GiB", SW_32G),
    WINDOW_V1(9, "64GiB", SW_64G),
    WINDOW_V1_1(10, "2KiB", SW_TEST),
    WINDOW_V1_1(11, "8MiB", SW_TEST),
    WINDOW_V1_1(12, "512MiB", SW_TEST),
    WINDOW_V1_1(13, "32GiB", SW_32G),
    WINDOW_V1_1(14, "64GiB", SW_64G),
};

/* The five sizes in the table's order within each group of five ids. */
static const uint64_t sizes[5] = {2 * KiB, 8 * MiB, 512 * MiB, 32 * GiB, 64 * GiB};

static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void table_fill(void) {
  for (size_t i = 0; i < CUZK_POST_NUM_PROOFS; i++)
    (void)cuzk_sector_by_bytes(&table[i].sector, sizes[i % 5]);
}

static const cuzk_post_proof *table_get(size_t i) {
  pthread_once(&table_once, table_fill);
  return i < CUZK_POST_NUM_PROOFS ? &table[i] : NULL;
}

const cuzk_post_proof *cuzk_post_proof_at(size_t i) { return table_get(i); }

cuzk_post_err cuzk_post_proof_by_id(const cuzk_post_proof **p, uint64_t id) {
  if (!p) return CUZK_POST_EINVAL;
  *p = id < CUZK_POST_NUM_PROOFS ? table_get((size_t)id) : NULL;
  return *p ? CUZK_POST_OK : CUZK_POST_EPROOF;
}

cuzk_post_err cuzk_post_proof_by_name(const cuzk_post_proof **p, const char *name) {
  if (!p) return CUZK_POST_EINVAL;
  *p = NULL;
  if (!name) return CUZK_POST_EINVAL;
  for (size_t i = 0; i < CUZK_POST_NUM_PROOFS; i++) {
    const cuzk_post_proof *q = table_get(i);
    if (!strcmp(q->name, name) || !strcmp(q->api_name, name)) {
      *p = q;
      return CUZK_POST_OK;
    }
  }
  return CUZK_POST_EPROOF;
}

cuzk_post_err cuzk_post_proof_for(const cuzk_post_proof **p, cuzk_post_type type,
                                  uint64_t sector_bytes) {
  if (!p) return CUZK_POST_EINVAL;
  *p = NULL;
  if (type != CUZK_POST_WINNING && type != CUZK_POST_WINDOW) return CUZK_POST_EINVAL;
  /* Winning ids 0-4; Window the V1_1 ids 10-14 (the chain's since network version 19) */
  size_t first = type == CUZK_POST_WINNING ? 0 : 10;
  for (size_t k = 0; k < 5; k++)
    if (sizes[k] == sector_bytes) {
      *p = table_get(first + k);
      return CUZK_POST_OK;
    }
  return CUZK_POST_EPROOF;
}

const char *cuzk_post_type_name(cuzk_post_type t) {
  switch (t) {
  case CUZK_POST_WINNING: return "winning-post";
  case CUZK_POST_WINDOW: return "window-post";
  }
  return NULL;
}

/* Base levels: log8 of one base tree's leaves (8^k). */
static unsigned base_levels(const cuzk_sector_info *s) {
  unsigned k = 0;
  for (uint64_t w = s->leaves_per_base_tree; w > 1; w /= s->base_arity)
    k++;
  return k;
}

unsigned cuzk_post_path_levels(const cuzk_post_proof *p) {
  if (!p || !p->sector) return 0;
  const cuzk_sector_info *s = p->sector;
  return base_levels(s) + (s->sub_arity ? 1 : 0) + (s->top_arity ? 1 : 0);
}

unsigned cuzk_post_level_arity(const cuzk_post_proof *p, unsigned level) {
  if (!p || !p->sector) return 0;
  const cuzk_sector_info *s = p->sector;
  unsigned base = base_levels(s);
  if (level < base) return s->base_arity;
  if (level == base && s->sub_arity) return s->sub_arity;
  if (level == base + (s->sub_arity ? 1 : 0) && s->top_arity) return s->top_arity;
  return 0;
}
