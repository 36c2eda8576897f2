/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The Filecoin gadgets over cuzk_cs (r1cs.h), each reproducing the reference's exact allocation
 * and constraint order (docs/spec/porep-circuit.md §2-§3, docs/spec/poseidon.md §6): the same
 * code runs in every constraint-system mode. Values are computed only when cuzk_cs_has_values(cs);
 * otherwise the value fields of the results are unspecified (a blank circuit).
 *
 * Bit vectors are arrays of cuzk_bool; "LE" means least significant bit first.
 */
#ifndef CUZK_GADGETS_H
#define CUZK_GADGETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/field/field.h"
#include "cuzk/hashes/poseidon.h"
#include "cuzk/r1cs/r1cs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Boolean / AllocatedBit (bellpepper boolean.rs; docs/spec/porep-circuit.md §2.1-2.2) --- */
typedef enum { CUZK_BOOL_CONST = 0, CUZK_BOOL_IS = 1, CUZK_BOOL_NOT = 2 } cuzk_bool_kind;

typedef struct {
  cuzk_var var;  /* IS / NOT: the allocated bit */
  uint8_t kind;  /* cuzk_bool_kind */
  uint8_t value; /* the Boolean's value (negation applied) */
} cuzk_bool;

static inline cuzk_bool cuzk_bool_const(bool v) {
  cuzk_bool b = {0, CUZK_BOOL_CONST, (uint8_t)v};
  return b;
}
static inline cuzk_bool cuzk_bool_not(cuzk_bool a) {
  if (a.kind != CUZK_BOOL_CONST) a.kind = a.kind == CUZK_BOOL_IS ? CUZK_BOOL_NOT : CUZK_BOOL_IS;
  a.value ^= 1;
  return a;
}
static inline bool cuzk_bool_is_const(cuzk_bool a) { return a.kind == CUZK_BOOL_CONST; }

/* AllocatedBit::alloc: one aux + (ONE - a) * a = 0. Returns IS. */
cuzk_bool cuzk_bit_alloc(cuzk_cs *cs, bool value);
/* AllocatedBit operations; a and b must be allocated bits (their var is used as is, IS assumed).
 * Results are IS. The first operand goes to A, the second to B
 * (docs/spec/porep-circuit.md §2.1). */
cuzk_bool cuzk_bit_xor(cuzk_cs *cs, cuzk_bool a, cuzk_bool b);
cuzk_bool cuzk_bit_and(cuzk_cs *cs, cuzk_bool a, cuzk_bool b);
cuzk_bool cuzk_bit_and_not(cuzk_cs *cs, cuzk_bool a, cuzk_bool b); /* a & !b */
cuzk_bool cuzk_bit_nor(cuzk_cs *cs, cuzk_bool a, cuzk_bool b);     /* !a & !b */

/* Boolean operations with bellpepper's constant folding (docs/spec/porep-circuit.md §2.2). */
cuzk_bool cuzk_bool_xor(cuzk_cs *cs, cuzk_bool a, cuzk_bool b);
cuzk_bool cuzk_bool_and(cuzk_cs *cs, cuzk_bool a, cuzk_bool b);
cuzk_bool cuzk_bool_sha256_ch(cuzk_cs *cs, cuzk_bool a, cuzk_bool b, cuzk_bool c);
cuzk_bool cuzk_bool_sha256_maj(cuzk_cs *cs, cuzk_bool a, cuzk_bool b, cuzk_bool c);

/* lc += lc(b, k) (docs/spec/porep-circuit.md §1.6): nothing, k*ONE, k*v or k*ONE - k*v. */
void cuzk_lc_add_bool(cuzk_lc *lc, cuzk_bool b, const cuzk_fr *k);
/* The same with k = 2^e (e < 256), from the power tables. */
void cuzk_lc_add_bool_pow2(cuzk_lc *lc, cuzk_bool b, unsigned e);

/* ---- MultiEq (bellperson multieq.rs; docs/spec/porep-circuit.md §2.4) ------------------------ */
typedef struct {
  cuzk_cs *cs;
  unsigned bits_used;
  cuzk_lc lhs, rhs;
} cuzk_multieq;

void cuzk_multieq_init(cuzk_multieq *m, cuzk_cs *cs);
/* The power of two the next n-bit equality will be scaled by (0 if it starts a new batch). */
unsigned cuzk_multieq_shift(const cuzk_multieq *m, unsigned n);
/* Adds lhs = rhs, both already scaled by 2^cuzk_multieq_shift(m, n); first emits the pending
 * batch (lhs ; ONE ; rhs) if n bits no longer fit in 254. Consumes (releases) lhs and rhs. */
void cuzk_multieq_enforce_equal(cuzk_multieq *m, unsigned n, cuzk_lc *lhs, cuzk_lc *rhs);
/* Emits the pending batch, if any (bellperson: on drop). */
void cuzk_multieq_finish(cuzk_multieq *m);

/* ---- UInt32 (bellperson uint32.rs; docs/spec/porep-circuit.md §2.3) -------------------------- */
typedef struct {
  cuzk_bool bits[32]; /* LE */
} cuzk_u32;

void cuzk_u32_const(cuzk_u32 *r, uint32_t v);
void cuzk_u32_from_bits_be(cuzk_u32 *r, const cuzk_bool bits[32]);
void cuzk_u32_into_bits_be(cuzk_bool out[32], const cuzk_u32 *x);
uint32_t cuzk_u32_value(const cuzk_u32 *x);
void cuzk_u32_rotr(cuzk_u32 *r, const cuzk_u32 *x, unsigned by); /* r may not alias x */
void cuzk_u32_shr(cuzk_u32 *r, const cuzk_u32 *x, unsigned by);  /* r may not alias x */
void cuzk_u32_xor(cuzk_cs *cs, cuzk_u32 *r, const cuzk_u32 *a, const cuzk_u32 *b);
void cuzk_u32_sha256_ch(cuzk_cs *cs, cuzk_u32 *r, const cuzk_u32 *a, const cuzk_u32 *b,
                        const cuzk_u32 *c);
void cuzk_u32_sha256_maj(cuzk_cs *cs, cuzk_u32 *r, const cuzk_u32 *a, const cuzk_u32 *b,
                         const cuzk_u32 *c);
/* r = sum of n operands mod 2^32, 2 <= n <= 10, inside the MultiEq m. */
void cuzk_u32_addmany(cuzk_multieq *m, cuzk_u32 *r, const cuzk_u32 *const *ops, unsigned n);

/* ---- SHA-256 (bellperson sha256.rs; docs/spec/porep-circuit.md §2.5-2.6) --------------------- */
/* One compression of a 512-bit block (standard bit order: bytes in order, MSB first) from state. */
void cuzk_gadget_sha256_compress(cuzk_cs *cs, cuzk_u32 out[8], const cuzk_bool in[512],
                                 const cuzk_u32 state[8]);
/* SHA-256 of nbits bits (nbits % 8 == 0, else EINVAL), padding with constants; out is the digest
 * in standard order (byte 0 MSB first). */
cuzk_r1cs_err cuzk_gadget_sha256(cuzk_cs *cs, cuzk_bool out[256], const cuzk_bool *in,
                                 size_t nbits);
/* Reverses the bit order within each byte of n bits (n % 8 == 0): reverse_bit_numbering. */
void cuzk_bits_reverse_in_bytes(cuzk_bool *bits, size_t n);

/* ---- AllocatedNum (bellpepper num.rs; docs/spec/porep-circuit.md §2.7) ----------------------- */
typedef struct {
  cuzk_var var;
  cuzk_fr value;
} cuzk_num;

cuzk_num cuzk_num_alloc(cuzk_cs *cs, const cuzk_fr *value); /* 1 aux, no constraint */
/* cuzk_num_alloc of the field element in 32 little-endian bytes; b NULL (blank synthesis) or
 * non-canonical bytes allocate 0: the circuits check their inputs when they read them. */
cuzk_num cuzk_num_alloc_bytes(cuzk_cs *cs, const uint8_t *b);
/* alloc_input u; (u ; ONE ; x). Returns the new input. */
cuzk_var cuzk_num_inputize(cuzk_cs *cs, const cuzk_num *x);
/* 255 allocated bits (LE, canonical) + the unpacking constraint (∅ ; ∅ ; Σ 2^i b_i - x). */
void cuzk_num_to_bits_le(cuzk_cs *cs, cuzk_bool out[255], const cuzk_num *x);
cuzk_num cuzk_num_mul(cuzk_cs *cs, const cuzk_num *a, const cuzk_num *b);
cuzk_num cuzk_num_square(cuzk_cs *cs, const cuzk_num *a);

/* A field element as SHA-256 message bits, as Filecoin feeds it
 * (docs/spec/porep-circuit.md §2.6): to_bits_le, a constant 0 as bit 255, then reversed within
 * bytes (byte 0 first, MSB first). 255 aux, 256 constraints. */
void cuzk_num_to_sha256_bits(cuzk_cs *cs, cuzk_bool out[256], const cuzk_num *x);
/* A digest (standard order) to a field element: reversed within bytes, first 254 bits, pack_bits.
 * 1 aux, 1 constraint. */
cuzk_num cuzk_sha256_digest_to_num(cuzk_cs *cs, const cuzk_bool digest[256]);
/* Filecoin's SHA-256 Merkle node of n leaves (Sha256Function::hash_multi_leaf_circuit,
 * docs/spec/porep-circuit.md §3.3). */
cuzk_num cuzk_gadget_sha256_leaves(cuzk_cs *cs, const cuzk_num *leaves, unsigned n);

/* ---- multipack (bellperson multipack.rs; docs/spec/porep-circuit.md §2.8) -------------------- */
/* One input + (Σ 2^j bit_j ; ONE ; u) per chunk of 254 bits. */
void cuzk_multipack_pack_into_inputs(cuzk_cs *cs, const cuzk_bool *bits, size_t n);
/* The first min(n, 254) bits packed into one aux: (Σ 2^j bit_j ; ONE ; v). */
cuzk_num cuzk_multipack_pack_bits(cuzk_cs *cs, const cuzk_bool *bits, size_t n);
/* Off-circuit: the chunk values pack_into_inputs allocates; returns the number of chunks
 * (ceil(n / 254)); out holds that many. */
size_t cuzk_multipack_compute(cuzk_fr *out, const bool *bits, size_t n);

/* ---- UInt64 (storage-proofs-core uint64.rs; docs/spec/porep-circuit.md §2.9) ----------------- */
void cuzk_u64_alloc(cuzk_cs *cs, cuzk_bool out[64], uint64_t value); /* 64 bits LE */
void cuzk_u64_const(cuzk_bool out[64], uint64_t value);
void cuzk_u64_pack_into_input(cuzk_cs *cs, const cuzk_bool bits[64]);

/* ---- small storage-proofs gadgets (docs/spec/porep-circuit.md §2.10) ------------------------- */
void cuzk_gadget_equal(cuzk_cs *cs, const cuzk_num *a, const cuzk_num *b);   /* (a ; ONE ; b) */
cuzk_num cuzk_gadget_add(cuzk_cs *cs, const cuzk_num *a, const cuzk_num *b); /* (a + b ; ONE ; r) */
/* cond ? a : b: alloc c; (b - a ; lc(cond) ; b - c). */
cuzk_num cuzk_gadget_pick(cuzk_cs *cs, cuzk_bool cond, const cuzk_num *a, const cuzk_num *b);
/* insertion.rs: out[0..size) = x inserted at position Σ bits[i] 2^i among the size - 1
 * siblings; size a power of two from 2 to 2^CUZK_INSERT_MAX_LOG (log2(size) bits), else EINVAL.
 * Sizes 2, 4, 8 use the hand-optimized pick sequences (2 / 8 / 22 picks; size 8 needs its first
 * two bits allocated and unnegated), other sizes the generic one (size (size - 1) picks). */
#define CUZK_INSERT_MAX_LOG 6
cuzk_r1cs_err cuzk_gadget_insert(cuzk_cs *cs, cuzk_num *out, const cuzk_num *x,
                                 const cuzk_bool *bits, const cuzk_num *siblings, unsigned size);
/* The generic algorithm for any size 2^nbits (also for 2, 4, 8, where it costs more). */
cuzk_r1cs_err cuzk_gadget_insert_generic(cuzk_cs *cs, cuzk_num *out, const cuzk_num *x,
                                         const cuzk_bool *bits, const cuzk_num *siblings,
                                         unsigned nbits);
/* select: *out = from[Σ bits[i] 2^i] over 2^nbits elements (1 <= nbits <= CUZK_SELECT_MAX_LOG,
 * else EINVAL), halving from the most significant bit with 2^nbits - 1 picks. SnapDeals selects
 * among 128 apex leaves. */
#define CUZK_SELECT_MAX_LOG 7
cuzk_r1cs_err cuzk_gadget_select(cuzk_cs *cs, cuzk_num *out, const cuzk_num *from,
                                 const cuzk_bool *bits, unsigned nbits);
/* xor.rs: out[i] = in[i] XOR key[i % 256]; out may alias in. */
void cuzk_gadget_xor_key(cuzk_cs *cs, cuzk_bool *out, const cuzk_bool key[256], const cuzk_bool *in,
                         size_t n);

/* ---- Poseidon, legacy circuit (docs/spec/poseidon.md §6, docs/spec/porep-circuit.md §2.11) */
/* Poseidon(tag, in[0..arity)) with the MerkleTree tag of p's arity; 3a + 4t(R_F - 1) + 4 R_P + 1
 * aux and constraints. */
cuzk_num cuzk_gadget_poseidon(cuzk_cs *cs, const cuzk_poseidon_params *p, const cuzk_num *in);
/* The same with another constant domain tag (SnapDeals' 2^40): the tag only changes the constant
 * that round 0 folds, so the shape and the count are those of the MerkleTree hash. */
cuzk_num cuzk_gadget_poseidon_tagged(cuzk_cs *cs, const cuzk_poseidon_params *p, const cuzk_fr *tag,
                                     const cuzk_num *in);

/* ---- Merkle inclusion (storage-proofs-core por.rs; docs/spec/porep-circuit.md §3) ------------ */
typedef enum { CUZK_POR_POSEIDON = 0, CUZK_POR_SHA256 = 1 } cuzk_por_hash;

typedef struct {
  cuzk_por_hash hash;   /* SHA256 needs base_arity 2 and no sub/top */
  unsigned base_arity;  /* 2, 4 or 8 */
  unsigned sub_arity;   /* 0 (none), 2, 4 or 8 */
  unsigned top_arity;   /* 0 (none), 2, 4 or 8 */
  unsigned base_levels; /* log_base(leaves / sub / top) */
  bool public_root;     /* inputize the root at the end (never in PoRep) */
} cuzk_por_shape;

/* One path level: the index (0..arity-1) of the running hash among its children and the
 * arity - 1 siblings in order. */
typedef struct {
  unsigned index;
  const cuzk_fr *siblings;
} cuzk_por_level;

/* Number of levels of a shape: base_levels + (sub ? 1 : 0) + (top ? 1 : 0). */
unsigned cuzk_por_levels(const cuzk_por_shape *s);
/* PoRCircuit::synthesize with leaf and root as existing variables: per level the index bits,
 * the siblings, insert and the level hash; then pack_into_inputs(all index bits) and
 * equal(computed root, root). path has cuzk_por_levels(s) entries, leaf level first; NULL when
 * the constraint system keeps no values. EINVAL on a bad shape. */
cuzk_r1cs_err cuzk_gadget_por(cuzk_cs *cs, const cuzk_por_shape *s, const cuzk_num *leaf,
                              const cuzk_num *root, const cuzk_por_level *path);
/* por_no_challenge_input: the same hashing with the index bits and the siblings given (allocated
 * by the caller; bits LE, log2(arity) per level, leaf level first; siblings arity - 1 per level
 * in order), no public input, then (computed root ; ONE ; root). EINVAL on a bad shape or when
 * nbits is not the shape's bit count. */
cuzk_r1cs_err cuzk_gadget_por_bits(cuzk_cs *cs, const cuzk_por_shape *s, const cuzk_num *leaf,
                                   const cuzk_num *root, const cuzk_bool *bits, unsigned nbits,
                                   const cuzk_num *siblings);

#ifdef __cplusplus
}
#endif
#endif
