/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The parameters of every sector size (docs/spec/sdr-vanilla.md §2.1) and every registered seal
 * proof (§2.2), porep_id (§2.3), and sector sizes parsed from text. */
#include <string.h>

#include "cuzk/filecoin/sector.h"

/* Interactive minimum 2 / 176, non-interactive ceil(12.8 x interactive) = 26 / 2253; per
 * partition = ceil(minimum / partitions) (parameters.rs::select_challenges), <= 18. */
#define CPP(min, parts) (((min) + (parts)-1) / (parts))
#define SYNTH(nodes) \
  ((nodes) < CUZK_POREP_MAX_SYNTH_CHALLENGES ? (nodes) : CUZK_POREP_MAX_SYNTH_CHALLENGES)
#define TREES(sub, top) (((sub) ? (sub) : 1u) * ((top) ? (top) : 1u))
#define SECTOR(nm, b, lay, reg, min, parts, nimin, niparts, sub, top, depth, rtd)                \
  {                                                                                              \
    .name = nm, .bytes = (b), .nodes = (b) / 32, .layers = (lay), .registered = (reg),           \
    .min_challenges = (min), .partitions = (parts), .challenges_per_partition = CPP(min, parts), \
    .ni_min_challenges = (nimin), .ni_partitions = (niparts),                                    \
    .ni_challenges_per_partition = CPP(nimin, niparts), .synth_challenges = SYNTH((b) / 32),     \
    .base_arity = 8, .sub_arity = (sub), .top_arity = (top), .base_trees = TREES(sub, top),      \
    .leaves_per_base_tree = (b) / 32 / TREES(sub, top), .tree_d_depth = (depth),                 \
    .rows_to_discard = (rtd)                                                                     \
  }

#define KiB (UINT64_C(1) << 10)
#define MiB (UINT64_C(1) << 20)
#define GiB (UINT64_C(1) << 30)

/* filecoin-proofs constants.rs (LAYERS, POREP_PARTITIONS, minimum challenges) and the
 * SectorShape* aliases. Depth = log2(nodes); rows_to_discard per docs/spec/sdr-vanilla.md §7.5
 * (3-row base trees: 1). */
static const cuzk_sector_info sectors[CUZK_POREP_NUM_SECTOR_SIZES] = {
    SECTOR("2KiB", 2 * KiB, 2, true, 2, 1, 26, 13, 0, 0, 6, 1),
    SECTOR("4KiB", 4 * KiB, 2, false, 2, 1, 26, 13, 2, 0, 7, 1),
    SECTOR("16KiB", 16 * KiB, 2, false, 2, 1, 26, 13, 8, 0, 9, 1),
    SECTOR("32KiB", 32 * KiB, 2, false, 2, 1, 26, 13, 8, 2, 10, 1),
    SECTOR("8MiB", 8 * MiB, 2, true, 2, 1, 26, 13, 0, 0, 18, 2),
    SECTOR("16MiB", 16 * MiB, 2, false, 2, 1, 26, 13, 2, 0, 19, 2),
    SECTOR("512MiB", 512 * MiB, 2, true, 2, 1, 26, 13, 0, 0, 24, 2),
    SECTOR("1GiB", 1 * GiB, 2, false, 2, 1, 26, 13, 2, 0, 25, 2),
    SECTOR("32GiB", 32 * GiB, 11, true, 176, 10, 2253, 126, 8, 0, 30, 2),
    SECTOR("64GiB", 64 * GiB, 11, true, 176, 10, 2253, 126, 8, 2, 31, 2),
};

/* Index into sectors[] of the five registered sizes, in id order within each version. */
enum { S2K = 0, S8M = 4, S512M = 6, S32G = 8, S64G = 9 };

/* name = "StackedDrg" size suffix; the C1 JSON names the vanilla proofs of every version of a
 * size by its V1 name (docs/spec/sdr-vanilla.md §9.3). */
#define PROOF(i, size, suffix, s, v, f)                                                        \
  {                                                                                            \
    .id = (i), .name = "StackedDrg" #size #suffix, .vanilla_variant = "StackedDrg" #size "V1", \
    .sector = &sectors[s], .api = CUZK_API_##v, .feature = CUZK_POREP_FEAT_##f                 \
  }

/* rust-filecoin-proofs-api registry.rs (REGISTERED_PROOF_IDS); "V1_1_Feat_Synthetic" runs at
 * ApiVersion 1.2.0 despite its name. */
static const cuzk_seal_proof proofs[CUZK_POREP_NUM_SEAL_PROOFS] = {
    PROOF(0, 2KiB, V1, S2K, V1_0_0, NONE),
    PROOF(1, 8MiB, V1, S8M, V1_0_0, NONE),
    PROOF(2, 512MiB, V1, S512M, V1_0_0, NONE),
    PROOF(3, 32GiB, V1, S32G, V1_0_0, NONE),
    PROOF(4, 64GiB, V1, S64G, V1_0_0, NONE),
    PROOF(5, 2KiB, V1_1, S2K, V1_1_0, NONE),
    PROOF(6, 8MiB, V1_1, S8M, V1_1_0, NONE),
    PROOF(7, 512MiB, V1_1, S512M, V1_1_0, NONE),
    PROOF(8, 32GiB, V1_1, S32G, V1_1_0, NONE),
    PROOF(9, 64GiB, V1_1, S64G, V1_1_0, NONE),
    PROOF(10, 2KiB, V1_1_Feat_SyntheticPoRep, S2K, V1_2_0, SYNTHETIC),
    PROOF(11, 8MiB, V1_1_Feat_SyntheticPoRep, S8M, V1_2_0, SYNTHETIC),
    PROOF(12, 512MiB, V1_1_Feat_SyntheticPoRep, S512M, V1_2_0, SYNTHETIC),
    PROOF(13, 32GiB, V1_1_Feat_SyntheticPoRep, S32G, V1_2_0, SYNTHETIC),
    PROOF(14, 64GiB, V1_1_Feat_SyntheticPoRep, S64G, V1_2_0, SYNTHETIC),
    PROOF(15, 2KiB, V1_2_Feat_NonInteractivePoRep, S2K, V1_2_0, NON_INTERACTIVE),
    PROOF(16, 8MiB, V1_2_Feat_NonInteractivePoRep, S8M, V1_2_0, NON_INTERACTIVE),
    PROOF(17, 512MiB, V1_2_Feat_NonInteractivePoRep, S512M, V1_2_0, NON_INTERACTIVE),
    PROOF(18, 32GiB, V1_2_Feat_NonInteractivePoRep, S32G, V1_2_0, NON_INTERACTIVE),
    PROOF(19, 64GiB, V1_2_Feat_NonInteractivePoRep, S64G, V1_2_0, NON_INTERACTIVE),
};

/* ---- Sector sizes ------------------------------------------------------------------------------
 */
const cuzk_sector_info *cuzk_sector_at(size_t i) {
  return i < CUZK_POREP_NUM_SECTOR_SIZES ? &sectors[i] : NULL;
}

cuzk_porep_err cuzk_sector_by_bytes(const cuzk_sector_info **s, uint64_t bytes) {
  if (!s) return CUZK_POREP_EINVAL;
  *s = NULL;
  for (size_t i = 0; i < CUZK_POREP_NUM_SECTOR_SIZES; i++)
    if (sectors[i].bytes == bytes) {
      *s = &sectors[i];
      return CUZK_POREP_OK;
    }
  return CUZK_POREP_ESIZE;
}

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c; }

static bool unit_is(const char *u, const char *want) {
  while (*u && *want)
    if (lower(*u++) != *want++) return false;
  return !*u && !*want;
}

cuzk_porep_err cuzk_porep_parse_size(uint64_t *bytes, const char *text) {
  if (!bytes || !text) return CUZK_POREP_EINVAL;
  *bytes = 0;
  const char *p = text;
  uint64_t v = 0;
  if (*p < '0' || *p > '9') return CUZK_POREP_EINVAL;
  for (; *p >= '0' && *p <= '9'; p++) {
    unsigned d = (unsigned)(*p - '0');
    if (v > (UINT64_MAX - d) / 10) return CUZK_POREP_EINVAL;
    v = v * 10 + d;
  }
  unsigned shift = 0;
  if (!*p)
    shift = 0;
  else if (unit_is(p, "kib"))
    shift = 10;
  else if (unit_is(p, "mib"))
    shift = 20;
  else if (unit_is(p, "gib"))
    shift = 30;
  else if (unit_is(p, "tib"))
    shift = 40;
  else
    return CUZK_POREP_EINVAL;
  if (shift && v > (UINT64_MAX >> shift)) return CUZK_POREP_EINVAL;
  *bytes = v << shift;
  return CUZK_POREP_OK;
}

cuzk_porep_err cuzk_sector_parse(const cuzk_sector_info **s, const char *text) {
  if (!s) return CUZK_POREP_EINVAL;
  *s = NULL;
  uint64_t bytes;
  cuzk_porep_err e = cuzk_porep_parse_size(&bytes, text);
  return e ? e : cuzk_sector_by_bytes(s, bytes);
}

/* ---- Registered proofs -------------------------------------------------------------------------
 */
const cuzk_seal_proof *cuzk_seal_proof_at(size_t i) {
  return i < CUZK_POREP_NUM_SEAL_PROOFS ? &proofs[i] : NULL;
}

cuzk_porep_err cuzk_seal_proof_by_id(const cuzk_seal_proof **p, uint64_t id) {
  if (!p) return CUZK_POREP_EINVAL;
  *p = id < CUZK_POREP_NUM_SEAL_PROOFS ? &proofs[id] : NULL;
  return *p ? CUZK_POREP_OK : CUZK_POREP_EPROOF;
}

cuzk_porep_err cuzk_seal_proof_by_name(const cuzk_seal_proof **p, const char *name) {
  if (!p) return CUZK_POREP_EINVAL;
  *p = NULL;
  if (!name) return CUZK_POREP_EINVAL;
  for (size_t i = 0; i < CUZK_POREP_NUM_SEAL_PROOFS; i++)
    if (!strcmp(proofs[i].name, name)) {
      *p = &proofs[i];
      return CUZK_POREP_OK;
    }
  return CUZK_POREP_EPROOF;
}

cuzk_porep_err cuzk_seal_proof_by_sector(const cuzk_seal_proof **p, uint64_t sector_bytes) {
  if (!p) return CUZK_POREP_EINVAL;
  *p = NULL;
  const cuzk_sector_info *s;
  cuzk_porep_err e = cuzk_sector_by_bytes(&s, sector_bytes);
  if (e) return e;
  for (size_t i = 0; i < CUZK_POREP_NUM_SEAL_PROOFS; i++)
    if (proofs[i].sector == s && proofs[i].api == CUZK_API_V1_1_0) {
      *p = &proofs[i];
      return CUZK_POREP_OK;
    }
  return CUZK_POREP_ENOPROOF;
}

const char *cuzk_api_version_str(cuzk_api_version v) {
  switch (v) {
  case CUZK_API_V1_0_0: return "1.0.0";
  case CUZK_API_V1_1_0: return "1.1.0";
  case CUZK_API_V1_2_0: return "1.2.0";
  }
  return NULL;
}

const char *cuzk_porep_feature_str(cuzk_porep_feature f) {
  switch (f) {
  case CUZK_POREP_FEAT_NONE: return "";
  case CUZK_POREP_FEAT_SYNTHETIC: return "SyntheticPoRep";
  case CUZK_POREP_FEAT_NON_INTERACTIVE: return "NonInteractivePoRep";
  }
  return NULL;
}

cuzk_challenge_kind cuzk_seal_proof_challenge_kind(const cuzk_seal_proof *p) {
  switch (p ? p->feature : CUZK_POREP_FEAT_NONE) {
  case CUZK_POREP_FEAT_SYNTHETIC: return CUZK_CHALLENGES_SYNTHETIC;
  case CUZK_POREP_FEAT_NON_INTERACTIVE: return CUZK_CHALLENGES_NON_INTERACTIVE;
  case CUZK_POREP_FEAT_NONE: break;
  }
  return CUZK_CHALLENGES_INTERACTIVE;
}

unsigned cuzk_seal_proof_partitions(const cuzk_seal_proof *p) {
  if (!p) return 0;
  return p->feature == CUZK_POREP_FEAT_NON_INTERACTIVE ? p->sector->ni_partitions
                                                       : p->sector->partitions;
}

unsigned cuzk_seal_proof_challenges_per_partition(const cuzk_seal_proof *p) {
  if (!p) return 0;
  return p->feature == CUZK_POREP_FEAT_NON_INTERACTIVE ? p->sector->ni_challenges_per_partition
                                                       : p->sector->challenges_per_partition;
}

/* ---- porep_id ----------------------------------------------------------------------------------
 */
void cuzk_porep_id_make(uint8_t out[32], uint64_t proof_id, uint64_t nonce) {
  memset(out, 0, 32);
  for (int i = 0; i < 8; i++) {
    out[i] = (uint8_t)(proof_id >> (8 * i));
    out[8 + i] = (uint8_t)(nonce >> (8 * i));
  }
}

void cuzk_seal_proof_porep_id(const cuzk_seal_proof *p, uint8_t out[32]) {
  cuzk_porep_id_make(out, p->id, 0);
}
