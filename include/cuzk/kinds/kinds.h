/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The proof kinds (docs/kinds.md): one descriptor per kind of cuzk.v1.ProofKind, holding all that
 * the engine, the server and cuzk-bench know of it — its names (metric label, GetStatus name,
 * proto enum name), its default priority, the request fields it reads and their checks, its
 * circuits (parameter files, TEST setup, the blank circuit), and the proving steps over a
 * prepared request (synthesize, public inputs, verify). Nothing outside this layer branches on
 * a kind: it looks the descriptor up and calls it.
 *
 * Contract: the descriptors are static and read-only; every function is thread-safe on distinct
 * work. Errors are a class (cuzk_kinds_err) and a one-line message naming the request field.
 */
#ifndef CUZK_KINDS_H
#define CUZK_KINDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/field/field.h"
#include "cuzk/groth16/groth16.h"
#include "cuzk/r1cs/r1cs.h"
#include "cuzk/util/pool.h"
#include "cuzk/util/progress.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The wire values of cuzk.v1 ProofKind (the server static-asserts them against the proto's). A
 * new kind is one line here and one descriptor (docs/kinds.md "Adding a proof kind"). */
typedef enum {
  CUZK_KIND_UNSPECIFIED = 0,
  CUZK_KIND_POREP_SEAL_COMMIT = 1,
  CUZK_KIND_SNAP_DEALS_UPDATE = 2,
  CUZK_KIND_WINDOW_POST_PARTITION = 3,
  CUZK_KIND_WINNING_POST = 4,
} cuzk_proof_kind;
#define CUZK_NUM_PROOF_KINDS 5 /* one past the largest value */

/* The wire values of cuzk.v1 Priority. */
typedef enum {
  CUZK_PRIORITY_DEFAULT = 0, /* the kind's default_priority */
  CUZK_PRIORITY_LOW = 1,
  CUZK_PRIORITY_NORMAL = 2,
  CUZK_PRIORITY_HIGH = 3,
  CUZK_PRIORITY_CRITICAL = 4,
} cuzk_priority;

/* Why a request did not prepare: the class the engine counts a failure under. */
typedef enum {
  CUZK_KINDS_OK = 0,
  CUZK_KINDS_EREQUEST, /* a request field, or a vanilla proof that does not parse */
  CUZK_KINDS_EVANILLA, /* a vanilla proof (C1, PoSt sector, update) that parses but does not hold */
  CUZK_KINDS_ENOMEM,   /* allocation failed */
} cuzk_kinds_err;
const char *cuzk_kinds_strerror(cuzk_kinds_err e);

/* The request fields a kind reads (cuzk_kind.fields): a request file or a message of the kind
 * carries these; the others keep their default. registered_proof and sector_size are every
 * kind's. */
enum {
  CUZK_KIND_F_VANILLA_ONE = 1 << 0,  /* vanilla_proof (PoRep: the C1) */
  CUZK_KIND_F_VANILLA_LIST = 1 << 1, /* vanilla_proofs */
  CUZK_KIND_F_MINER = 1 << 2,        /* miner_id */
  CUZK_KIND_F_SECTOR_NUMBER = 1 << 3,
  CUZK_KIND_F_RANDOMNESS = 1 << 4,
  CUZK_KIND_F_PARTITION_INDEX = 1 << 5,
  CUZK_KIND_F_COMMS = 1 << 6, /* comm_r_old, comm_r_new, comm_d_new */
};

/* A request as a kind reads it (views, nothing owned). 0 is proto3's "not set". */
typedef struct {
  uint64_t registered_proof, sector_size, miner_id, sector_number;
  uint32_t partition_index;
  const uint8_t *vanilla_proof; /* PoRep: the C1 output (raw JSON or Curio's envelope) */
  size_t vanilla_proof_len;
  const uint8_t *const *vanilla_proofs; /* PoSt: one per sector; SnapDeals: one per partition */
  const size_t *vanilla_proofs_len;
  size_t n_vanilla_proofs;
  const uint8_t *randomness;
  size_t randomness_len;
  const uint8_t *comm[3]; /* comm_r_old, comm_r_new, comm_d_new */
  size_t comm_len[3];
  /* A synthetic input (the C1 of a synthetic sector, a synthetic replica's PoSt proof, a
   * synthetic SnapDeals update: docs/porep.md "Synthetic sectors") is refused unless set: its
   * proof would prove nothing about stored data. The daemon's daemon.allow_synthetic_inputs
   * (off by default); cuzk-bench's in-process commands set it. */
  bool allow_synthetic;
  /* May be NULL. Called once prepare no longer reads the vanilla bytes, so that their owner can
   * free them early (a 32 GiB sector's C1 is ~70 MB). */
  void (*release)(void *user);
  void *release_user;
} cuzk_kind_request;

/* One circuit of a kind: one parameter set. arg is the kind's description of it (a registered
 * proof id), passed to the kind's circuit functions. */
typedef struct {
  const char *id;        /* "porep-2k", "winning-32g", "wpost-8m", "snap-64g", ... */
  uint64_t sector_bytes; /* test sizes (<= 512 MiB) may get generated TEST parameters */
  const void *arg;
  /* dir/<Filecoin's file name without extension>; false if it does not fit */
  bool (*param_base)(char *out, size_t len, const char *dir, const void *arg);
  /* writes TEST parameters into dir, reporting to progress (may be NULL); false with msg */
  bool (*setup_test)(const void *arg, const char *dir, cuzk_pool *pool,
                     const cuzk_progress *progress, double *gen_s, char *msg, size_t len);
  /* the circuit without a witness (a cuzk_pce_blank_fn: RECORD mode for the pre-compiled
   * constraints); false with msg */
  bool (*blank)(const void *arg, cuzk_cs *cs, char *msg, size_t len);
} cuzk_kind_circuit;

/* A prepared request: the kind's parsed and checked work, its circuit and partition count. */
typedef struct {
  void *work; /* the kind's; cuzk_kind_prepared_free */
  const cuzk_kind_circuit *circuit;
  unsigned parts; /* proofs it answers, 192 bytes each, in order */
} cuzk_kind_prepared;

typedef struct cuzk_kind {
  cuzk_proof_kind id; /* the proto enum value */
  const char *label;  /* "porep_c2": metric label values, logs */
  const char *wire;   /* "porep-c2": GetStatus' proof_kind strings (the reference's) */
  const char *proto;  /* "POREP_SEAL_COMMIT": the proto enum name (proto3 JSON) */
  const char *title;  /* "PoRep": messages */
  /* other names cuzk-bench takes for it ("porep", "seal-commit"), NULL-terminated */
  const char *const *aliases;
  cuzk_priority default_priority; /* for a request's DEFAULT */
  unsigned fields;                /* CUZK_KIND_F_*: the request fields it reads */
  const cuzk_kind_circuit *circuits;
  unsigned n_circuits;
  /* The most elements vanilla_proofs may hold for registered_proof (docs/engine.md
   * "Admission"); what names whose bound it is ("a WindowPoSt partition of ..."). An unknown
   * registered_proof: the kind's largest bound (prepare then fails naming it). */
  size_t (*max_list)(uint64_t registered_proof, char *what, size_t len);
  /* Parses and checks r (every field the kind reads; vanilla proofs read strictly and verified
   * natively) into out. An error class with msg naming the field; out is then empty. */
  cuzk_kinds_err (*prepare)(cuzk_kind_prepared *out, const cuzk_kind_request *r, char *msg,
                            size_t len);
  /* Partition part of the prepared work into cs; concurrent calls for distinct partitions. */
  bool (*synthesize)(const void *work, cuzk_cs *cs, unsigned part, char *msg, size_t len);
  /* The public inputs of partition part, re-derived from the request (never from the vanilla
   * proofs' own claims); *n their count. malloc'd; NULL if memory ran out. */
  cuzk_fr *(*public_inputs)(const void *work, unsigned part, size_t *n);
  /* Every partition proof (parts of them) against its public inputs: *ok, with msg naming the
   * first that fails. false (msg says so) if the check could not run. */
  bool (*verify)(bool *ok, const void *work, const cuzk_g16_pvk *pvk, const cuzk_g16_proof *proofs,
                 char *msg, size_t len);
  /* The partition the proof of position k answers (a WindowPoSt: the request's
   * partition_index). */
  unsigned (*partition)(const void *work, unsigned k);
  /* One line of what the work holds: "<registered proof>: 10 partitions" (the engine's log line
   * once prepared, cuzk-bench's summaries) */
  void (*describe)(const void *work, char *out, size_t len);
  void (*free_work)(void *work);
} cuzk_kind;

/* The i-th kind (PoRep, SnapDeals, WindowPoSt, WinningPoSt: the order GetStatus lists their
 * parameter sets in); NULL past the last. */
const cuzk_kind *cuzk_kind_at(size_t i);
/* The kind of a proto value; NULL for UNSPECIFIED or a value no kind has. */
const cuzk_kind *cuzk_kind_of(cuzk_proof_kind k);
/* The kind named by its label, wire or proto name or an alias, in any case; NULL for none. */
const cuzk_kind *cuzk_kind_named(const char *name);
/* The kind's label ("porep_c2", ...); NULL for a value no kind has. */
const char *cuzk_proof_kind_label(cuzk_proof_kind k);
/* The kind's circuit for sector_bytes, or NULL. */
const cuzk_kind_circuit *cuzk_kind_circuit_for(const cuzk_kind *k, uint64_t sector_bytes);
/* Frees a prepared request's work and empties it (NULL or empty: nothing). */
void cuzk_kind_prepared_free(const cuzk_kind *k, cuzk_kind_prepared *p);

#ifdef __cplusplus
}
#endif
#endif
