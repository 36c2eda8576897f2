/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Strict bincode of Filecoin's vanilla proofs (docs/bincode.md): a reader whose every error
 * names the field and the byte it stopped at, and the MerkleProof enum of storage-proofs-core
 * (Single / Sub / Top) for any tree shape, with the root its path hashes to. PoSt's sector
 * proofs and SnapDeals' partition proofs are read and written with these.
 *
 * bincode as Filecoin uses it: integers fixed-width little-endian, Vec lengths u64, enum tags
 * u32, 32-byte domain values raw (little-endian field elements, checked canonical here).
 */
#ifndef CUZK_FILECOIN_BINCODE_H
#define CUZK_FILECOIN_BINCODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/field/field.h"
#include "cuzk/filecoin/sector.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the reader ----------------------------------------------------------------------------
 * Every read returns false on failure after writing "<name>: <what> (at byte N)" into msg, where
 * <name> is the reader's current name (parts pushed by the caller, e.g. "partitions[2]" then
 * "challenge_proofs[5]") joined with the field. Once failed, later reads fail at once. */
typedef struct {
  const uint8_t *buf;
  size_t len, pos;
  char *msg;
  size_t msg_len;
  char name[192];
  size_t name_len;
  bool failed;
} cuzk_bc_reader;

void cuzk_bc_init(cuzk_bc_reader *r, const uint8_t *buf, size_t len, char *msg, size_t msg_len);
/* Appends a part to the name ("." between parts unless it starts with '['); returns the length
 * to restore with cuzk_bc_pop. */
size_t cuzk_bc_push(cuzk_bc_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cuzk_bc_pop(cuzk_bc_reader *r, size_t len);
/* Fails with "<name>.<field>: <what> (at byte at)"; at SIZE_MAX: no byte. field may be NULL. */
bool cuzk_bc_fail(cuzk_bc_reader *r, const char *field, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
bool cuzk_bc_u32(cuzk_bc_reader *r, uint32_t *v, const char *field);
bool cuzk_bc_u64(cuzk_bc_reader *r, uint64_t *v, const char *field);
/* A Vec length that must be exactly want (read before anything is allocated for it). */
bool cuzk_bc_count(cuzk_bc_reader *r, uint64_t want, const char *field);
/* 32 bytes that must be a canonical field element. */
bool cuzk_bc_fr(cuzk_bc_reader *r, uint8_t out[32], const char *field);
/* 32 raw bytes (SHA-256 domain values are still checked canonical: Filecoin's are < 2^254). */
#define cuzk_bc_domain cuzk_bc_fr
/* The end: fails with "trailing bytes: N after the proof (at byte P)" if bytes remain. */
bool cuzk_bc_end(cuzk_bc_reader *r);

/* Writer helpers: each returns the position after what it wrote. */
uint8_t *cuzk_bc_put_u32(uint8_t *o, uint32_t v);
uint8_t *cuzk_bc_put_u64(uint8_t *o, uint64_t v);
uint8_t *cuzk_bc_put32(uint8_t *o, const uint8_t v[32]);

/* ---- MerkleProof ---------------------------------------------------------------------------
 * Levels run from the leaf up. A tree_r_last of base arity 8 with an optional sub level (arity
 * 2 or 8) and top level (2) is a Single, Sub or Top proof whose paths are the base levels, then
 * one level each; tree_d is a Single binary SHA-256 path. At level l the running node sits at
 * index[l] among arity[l] children and the other arity[l] - 1 siblings follow in position order
 * (docs/bincode.md "MerkleProof"). */
#define CUZK_MERKLE_MAX_LEVELS 32 /* a binary tree of 2^31 leaves (64 GiB tree_d) */
#define CUZK_MERKLE_MAX_SIBLINGS 7
typedef enum { CUZK_MERKLE_POSEIDON = 0, CUZK_MERKLE_SHA256 = 1 } cuzk_merkle_hash;

typedef struct {
  cuzk_merkle_hash hash;
  unsigned tag; /* 0 Single, 1 Sub, 2 Top */
  unsigned levels;
  uint8_t arity[CUZK_MERKLE_MAX_LEVELS];
} cuzk_merkle_shape;

/* tree_r_last of a sector size (Poseidon, 8-S-T). */
void cuzk_merkle_shape_tree_r(cuzk_merkle_shape *s, const cuzk_sector_info *si);
/* tree_d of 2^levels leaves (binary SHA-256, Single). false if levels is out of range. */
bool cuzk_merkle_shape_tree_d(cuzk_merkle_shape *s, unsigned levels);
/* Siblings of all levels together: Σ (arity[l] - 1). */
unsigned cuzk_merkle_siblings(const cuzk_merkle_shape *s);

/* Where one proof's values live: root and leaf (32 bytes each), index[levels], and
 * sib[cuzk_merkle_siblings(s)] level by level. */
typedef struct {
  uint8_t *root, *leaf;
  uint8_t *index;
  uint8_t (*sib)[32];
} cuzk_merkle_view;

size_t cuzk_merkle_size(const cuzk_merkle_shape *s); /* bytes of one proof's bincode */
/* Reads one MerkleProof of shape s (tag, then root/leaf and paths in the variant's order, every
 * count, index and value checked) under the reader's current name. */
bool cuzk_merkle_read(cuzk_bc_reader *r, const cuzk_merkle_shape *s, const cuzk_merkle_view *v);
/* Writes cuzk_merkle_size(s) bytes; returns the end. Indices must be < their level's arity. */
uint8_t *cuzk_merkle_write(uint8_t *o, const cuzk_merkle_shape *s, const cuzk_merkle_view *v);
/* The root the leaf and path hash to, and the leaf index the indices spell (mixed radix, leaf
 * level least significant). false if a value is not canonical or an index is out of range.
 * Poseidon levels use the MerkleTree tag of their arity; SHA-256 levels trunc254(SHA-256(l ‖ r)).
 */
bool cuzk_merkle_root(uint8_t root[32], uint64_t *leaf_index, const cuzk_merkle_shape *s,
                      const cuzk_merkle_view *v);

#ifdef __cplusplus
}
#endif
#endif
