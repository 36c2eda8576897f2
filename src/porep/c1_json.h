/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Internal to the C1 JSON reader and writer: one table-driven description of the serde layout
 * (docs/spec/sdr-vanilla.md §9.4) that both walk, so key names and orders are written once
 * (c1_json_schema.c).
 */
#ifndef CUZK_POREP_C1_JSON_H
#define CUZK_POREP_C1_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "porep/c1.h"

typedef enum {
  C1T_B32,        /* [u8;32]: array of exactly 32 numbers 0..255 */
  C1T_U32,        /* number 0..2^32-1 (uint32_t) */
  C1T_U64,        /* number 0..2^64-1 (uint64_t) */
  C1T_NULL,       /* PhantomData: null */
  C1T_PROOF_NAME, /* RegisteredSealProof unit variant: string, stored as uint32_t id */
  C1T_STRUCT,     /* object with named fields (any order, unknown keys skipped) */
  C1T_VEC,        /* array of elem; destination is {void *v; size_t n;} */
  C1T_TAGGED      /* externally tagged newtype enum: {"Variant": body} */
} c1_kind;

typedef struct c1_type c1_type;

typedef struct {
  const char *name;
  const c1_type *type;
  size_t off; /* destination offset from the struct's destination */
} c1_field;

typedef struct {
  const char *name;
  uint32_t value;
} c1_variant;

struct c1_type {
  c1_kind kind;
  const char *what; /* for "expected ..." messages */
  /* C1T_STRUCT */
  const c1_field *fields;
  uint32_t nfields, optional; /* optional: bit i set = field i may be absent */
  /* C1T_VEC */
  const c1_type *elem;
  size_t elem_size;
  /* C1T_TAGGED: the variant name's value goes to a uint32_t at tag_off; the body (bodies[i] for
   * variant i, all parsed into the same destination at body_off) */
  const c1_variant *variants;
  uint32_t nvariants;
  size_t tag_off, body_off;
  const c1_type *const *bodies;
};

typedef struct {
  void *v;
  size_t n;
} c1_anyvec;

extern const c1_type c1_json_root;

#endif
