/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The evaluator's product a, b, c = A·z, B·z, C·z (cuzk/pce.h, docs/r1cs.md "Pre-compiled
 * constraints"): row ranges in parallel on the shared pool, one kernel for the whole domain
 * (the prover) and for row windows (synth-only). */
#include <string.h>

#include "cuzk/pce.h"
#include "field/consts.h"
#include "field/limbs.h"
#include "field/mont.h"
#include "r1cs/coef_dict.h"
#include "r1cs/pce_internal.h"

typedef struct {
  const cuzk_pce *p;
  const cuzk_fr *inputs, *aux;
  const uint8_t *kinds; /* per aux variable (cuzk_cs_result.aux_kind), or NULL */
  cuzk_fr **out;
  size_t first; /* out[k][0] is row first */
  int k0, k1;   /* the matrices k0 .. k1-1 */
} eval_job;

static inline bool is_zero(const uint64_t *a) { return (a[0] | a[1] | a[2] | a[3]) == 0; }
static inline bool is_one(const uint64_t *a) {
  return ((a[0] ^ cuzk_fr_one.l[0]) | (a[1] ^ cuzk_fr_one.l[1]) | (a[2] ^ cuzk_fr_one.l[2]) |
          (a[3] ^ cuzk_fr_one.l[3])) == 0;
}

/* The row's running sum on four scalar limbs, kept in registers: acc = acc + x mod r and
 * acc - x mod r for acc, x < r. On x86-64 in assembly: the carry-chain intrinsics of limbs.h
 * compile here to a store per limb and a test before every cmov (61 instructions a term,
 * callgrind; 8 MiB partition). */
#if defined(__x86_64__)
#define ACC_ADD(x)                                                                               \
  do {                                                                                           \
    uint64_t t0, t1, t2, t3;                                                                     \
    __asm__("add %[x0], %[a0]\n\tadc %[x1], %[a1]\n\tadc %[x2], %[a2]\n\tadc %[x3], %[a3]\n\t"   \
            "mov %[a0], %[t0]\n\tmov %[a1], %[t1]\n\tmov %[a2], %[t2]\n\tmov %[a3], %[t3]\n\t"   \
            "sub %[r0], %[t0]\n\tsbb %[r1], %[t1]\n\tsbb %[r2], %[t2]\n\tsbb %[r3], %[t3]\n\t"   \
            "cmovnc %[t0], %[a0]\n\tcmovnc %[t1], %[a1]\n\tcmovnc %[t2], %[a2]\n\t"              \
            "cmovnc %[t3], %[a3]"                                                                \
            : [a0] "+&r"(a0), [a1] "+&r"(a1), [a2] "+&r"(a2), [a3] "+&r"(a3), [t0] "=&r"(t0),    \
              [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3)                                     \
            : [x0] "m"((x)[0]), [x1] "m"((x)[1]), [x2] "m"((x)[2]), [x3] "m"((x)[3]),            \
              [r0] "m"(CUZK_R[0]), [r1] "m"(CUZK_R[1]), [r2] "m"(CUZK_R[2]), [r3] "m"(CUZK_R[3]) \
            : "cc");                                                                             \
  } while (0)
#define ACC_SUB(x)                                                                               \
  do {                                                                                           \
    uint64_t t0, t1, t2, t3;                                                                     \
    __asm__("sub %[x0], %[a0]\n\tsbb %[x1], %[a1]\n\tsbb %[x2], %[a2]\n\tsbb %[x3], %[a3]\n\t"   \
            "sbb %[t0], %[t0]\n\tmov %[t0], %[t1]\n\tmov %[t0], %[t2]\n\tmov %[t0], %[t3]\n\t"   \
            "and %[r0], %[t0]\n\tand %[r1], %[t1]\n\tand %[r2], %[t2]\n\tand %[r3], %[t3]\n\t"   \
            "add %[t0], %[a0]\n\tadc %[t1], %[a1]\n\tadc %[t2], %[a2]\n\tadc %[t3], %[a3]"       \
            : [a0] "+&r"(a0), [a1] "+&r"(a1), [a2] "+&r"(a2), [a3] "+&r"(a3), [t0] "=&r"(t0),    \
              [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3)                                     \
            : [x0] "m"((x)[0]), [x1] "m"((x)[1]), [x2] "m"((x)[2]), [x3] "m"((x)[3]),            \
              [r0] "m"(CUZK_R[0]), [r1] "m"(CUZK_R[1]), [r2] "m"(CUZK_R[2]), [r3] "m"(CUZK_R[3]) \
            : "cc");                                                                             \
  } while (0)
#else
#define ACC_ADD(x)                                          \
  do {                                                      \
    uint64_t acc_[4] = {a0, a1, a2, a3};                    \
    limbs_add_mod(acc_, acc_, (x), CUZK_R, 4);              \
    a0 = acc_[0], a1 = acc_[1], a2 = acc_[2], a3 = acc_[3]; \
  } while (0)
#define ACC_SUB(x)                                          \
  do {                                                      \
    uint64_t acc_[4] = {a0, a1, a2, a3};                    \
    limbs_sub_mod(acc_, acc_, (x), CUZK_R, 4);              \
    a0 = acc_[0], a1 = acc_[1], a2 = acc_[2], a3 = acc_[3]; \
  } while (0)
#endif

/* The kind of a term's value: from the witness's notes when it has them (a byte read where the
 * value itself is 32 bytes and often not in cache), else from the value. */
static inline unsigned kind_of(const uint8_t *kinds, uint32_t col, size_t ni, const uint64_t *z) {
  if (kinds && col >= ni) return kinds[col - ni];
  return is_zero(z) ? CUZK_KIND_ZERO : is_one(z) ? CUZK_KIND_ONE : CUZK_KIND_OTHER;
}

/*
 * Row by row: the sum of coefficient * z[column]. A coefficient of 1 or -1 adds or subtracts the
 * value; most other terms are a coefficient times a bit, which adds the coefficient or nothing;
 * only the rest multiplies (as PROVE mode does, cs.c eval_row). The first term of a row sets the
 * sum rather than adding to 0. With the witness's kinds (docs/r1cs.md "The SpMV kernel") a bit's
 * term adds the coefficient masked by the bit, without loading the value and without a branch on
 * it: a branch on a random bit whose value is still on its way from memory mispredicts at the
 * worst time. Without kinds (a witness from another mode) the value is loaded and a 0 skipped.
 */
static inline void eval_rows_with(const eval_job *j, size_t begin, size_t end,
                                  const uint8_t *kinds) {
  begin += j->first;
  end += j->first;
  const cuzk_pce *p = j->p;
  const size_t ni = p->inputs;
  const cuzk_fr *aux_z = j->aux - ni; /* aux_z[c] for c >= ni: no branch on the column kind */
  for (int k = j->k0; k < j->k1; k++) {
    const uint32_t *row_ptr = p->m[k].row_ptr.p, *cols = p->m[k].cols.p;
    const uint16_t *coef = p->m[k].coef.p;
    cuzk_fr *out = j->out[k];
    uint32_t t = row_ptr[begin];
    for (size_t r = begin; r < end; r++) {
      uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
      const uint32_t t_end = row_ptr[r + 1];
      for (bool first = true; t < t_end; t++, first = false) {
        const uint32_t col = cols[t];
        const uint64_t *z = col < ni ? j->inputs[col].l : aux_z[col].l;
        const uint16_t d = coef[t];
        uint64_t v[4];
        const uint64_t *x; /* the term's value, to add */
        if (d == COEF_ONE) {
          x = z;
        } else if (d == COEF_MINUS_ONE) {
          ACC_SUB(z);
          continue;
        } else if (kinds) {
          const unsigned kd = kind_of(kinds, col, ni, z);
          if (__builtin_expect(kd == CUZK_KIND_OTHER, 0)) {
            cuzk_mont.fr_mul(v, p->dict[d].l, z);
          } else {
            const uint64_t m = 0 - (uint64_t)kd, *c = p->dict[d].l;
            v[0] = c[0] & m, v[1] = c[1] & m, v[2] = c[2] & m, v[3] = c[3] & m;
          }
          x = v;
        } else if (is_zero(z)) {
          continue;
        } else if (is_one(z)) {
          x = p->dict[d].l;
        } else {
          cuzk_mont.fr_mul(v, p->dict[d].l, z);
          x = v;
        }
        if (first) {
          a0 = x[0], a1 = x[1], a2 = x[2], a3 = x[3];
        } else {
          ACC_ADD(x);
        }
      }
      uint64_t *o = out[r - j->first].l;
      o[0] = a0;
      o[1] = a1;
      o[2] = a2;
      o[3] = a3;
    }
  }
}

static void eval_rows(void *ctx, size_t begin, size_t end) {
  const eval_job *j = ctx;
  if (j->kinds)
    eval_rows_with(j, begin, end, j->kinds);
  else
    eval_rows_with(j, begin, end, NULL);
}

void cuzk_pce_eval(const cuzk_pce *p, const cuzk_fr *inputs, const cuzk_fr *aux,
                   const uint8_t *aux_kind, cuzk_fr *out[3], size_t len, cuzk_pool *pool,
                   unsigned max_workers) {
  cuzk_pce_eval_rows(p, inputs, aux, aux_kind, out, 0, p->rows, pool, max_workers);
  size_t at = p->rows;
  for (size_t i = 0; i < p->inputs; i++, at++) { /* a = input i, b = c = 0 */
    out[0][at] = inputs[i];
    out[1][at] = cuzk_fr_zero;
    out[2][at] = cuzk_fr_zero;
  }
  for (int k = 0; k < 3; k++)
    memset(out[k] + at, 0, (len - at) * sizeof(cuzk_fr));
}

void cuzk_pce_eval_rows(const cuzk_pce *p, const cuzk_fr *inputs, const cuzk_fr *aux,
                        const uint8_t *aux_kind, cuzk_fr *out[3], size_t first, size_t count,
                        cuzk_pool *pool, unsigned max_workers) {
  eval_job j = {p, inputs, aux, aux_kind, out, first, 0, 3};
  if (first > p->rows || count > p->rows - first) return;
  cuzk_parallel_for(pool, count, 4096, eval_rows, &j, max_workers);
}

void cuzk_pce_eval_matrix(const cuzk_pce *p, int k, const cuzk_fr *inputs, const cuzk_fr *aux,
                          const uint8_t *aux_kind, cuzk_fr *out, size_t len, cuzk_pool *pool,
                          unsigned max_workers) {
  if (k < 0 || k > 2 || len < p->rows + p->inputs) return;
  cuzk_fr *outs[3] = {NULL, NULL, NULL};
  outs[k] = out;
  eval_job j = {p, inputs, aux, aux_kind, outs, 0, k, k + 1};
  cuzk_parallel_for(pool, p->rows, 4096, eval_rows, &j, max_workers);
  for (size_t i = 0; i < p->inputs; i++) /* the input constraints: a = input i, b = c = 0 */
    out[p->rows + i] = k == 0 ? inputs[i] : cuzk_fr_zero;
  memset(out + p->rows + p->inputs, 0, (len - p->rows - p->inputs) * sizeof(cuzk_fr));
}
