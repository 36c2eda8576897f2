/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* What the kinds' descriptors share (docs/kinds.md): the five circuits of a kind by sector size,
 * their circuit functions over a registered proof id, and the checks every kind's prepare makes. */
#ifndef CUZK_KINDS_INTERNAL_H
#define CUZK_KINDS_INTERNAL_H

#include "cuzk/kinds/kinds.h"

/* The five registered sector sizes' circuits of a kind, "<prefix>-2k" ... "<prefix>-64g"; ids[i]
 * is the registered proof id that stands for size i (the circuits' arg). */
#define KIND_KIB UINT64_C(1024)
#define KIND_CIRCUITS_BY_SIZE(prefix, ids, param_base, setup_test, blank)                        \
  {                                                                                              \
    {prefix "-2k", 2 * KIND_KIB, &(ids)[0], param_base, setup_test, blank},                      \
        {prefix "-8m", 8 * KIND_KIB * KIND_KIB, &(ids)[1], param_base, setup_test, blank},       \
        {prefix "-512m", 512 * KIND_KIB * KIND_KIB, &(ids)[2], param_base, setup_test, blank},   \
        {prefix "-32g", 32 * KIND_KIB * KIND_KIB * KIND_KIB, &(ids)[3], param_base, setup_test,  \
         blank},                                                                                 \
    {                                                                                            \
      prefix "-64g", 64 * KIND_KIB *KIND_KIB *KIND_KIB, &(ids)[4], param_base, setup_test, blank \
    }                                                                                            \
  }
#define KIND_N_SIZES 5

/* A kind's param_base, setup_test and blank for circuits whose arg points at a registered proof
 * id: LOOKUP(&p, id) finds the proof of type T (0 = found), BASE(out, len, dir, p) names its
 * files, SETUP(p, dir, pool, progress, gen_s, msg, len) generates them and BLANK(cs, p, msg, len)
 * synthesizes the circuit without a witness (0 = done). */
#define KIND_DEFINE_PARAM_FNS(T, LOOKUP, BASE, SETUP, BLANK)                                       \
  static bool param_base(char *out, size_t len, const char *dir, const void *arg) {                \
    const T *p;                                                                                    \
    return !LOOKUP(&p, *(const unsigned *)arg) && BASE(out, len, dir, p);                          \
  }                                                                                                \
  static bool setup_test(const void *arg, const char *dir, cuzk_pool *pool,                        \
                         const cuzk_progress *progress, double *gen_s, char *msg, size_t len) {    \
    const T *p;                                                                                    \
    return !LOOKUP(&p, *(const unsigned *)arg) && !SETUP(p, dir, pool, progress, gen_s, msg, len); \
  }                                                                                                \
  static bool blank(const void *arg, cuzk_cs *cs, char *msg, size_t len) {                         \
    const T *p;                                                                                    \
    return !LOOKUP(&p, *(const unsigned *)arg) && !BLANK(cs, p, msg, len);                         \
  }

/* The proving functions a kind file defines, static, under these names, in its descriptor. */
#define KIND_PROVING_FNS                                                      \
  .synthesize = synthesize, .public_inputs = public_inputs, .verify = verify, \
  .describe = describe, .free_work = free_work

/* public_inputs' buffer for n inputs (malloc'd; NULL if memory ran out), and its result: in, or
 * NULL (in freed) when the derivation failed. */
cuzk_fr *kind_inputs_alloc(size_t n);
cuzk_fr *kind_inputs_result(cuzk_fr *in, bool failed);

/* A partition function for kinds whose proof k answers partition k (PoRep, SnapDeals). */
unsigned kind_partition_is_position(const void *work, unsigned k);
/* The request's sector_size (0: not set, as PSProve sends) against the proof's; false with msg. */
bool kind_check_sector_size(const cuzk_kind_request *r, uint64_t bytes, const char *proof_name,
                            const char *size_name, char *msg, size_t len);
/* The three SnapDeals commitments, or PoSt randomness: 32 bytes each; false with msg naming it. */
bool kind_check_32(const char *field, size_t have, char *msg, size_t len);
/* The circuit of k for sector_bytes into out->circuit; false with msg naming the kind. */
bool kind_set_circuit(const cuzk_kind *k, cuzk_kind_prepared *out, uint64_t sector_bytes, char *msg,
                      size_t len);
/* The refusal of a synthetic input when r->allow_synthetic is off: EREQUEST with msg naming
 * `what` (the field and how it is marked) and the setting that allows it. */
cuzk_kinds_err kind_refuse_synthetic(const char *what, char *msg, size_t len);
/* A "could not run" or "does not verify" verdict as verify reports it. */
bool kind_verdict(bool *ok, bool ran, bool all, const char *title, int bad_part, char *msg,
                  size_t len);

extern const cuzk_kind cuzk_kind_porep, cuzk_kind_snap, cuzk_kind_window_post,
    cuzk_kind_winning_post;

#endif
