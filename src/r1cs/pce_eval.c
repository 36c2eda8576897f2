/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The evaluator's product a, b, c = A·z, B·z, C·z (cuzk/r1cs/pce.h, docs/r1cs.md "Pre-compiled
 * constraints"): row ranges in parallel on the shared pool, one kernel for the whole domain
 * (the prover) and for row windows (synth-only). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/r1cs/pce.h"
#include "field/consts.h"
#include "field/limbs.h"
#include "field/mont.h"
#include "r1cs/coef_dict.h"
#include "r1cs/cs_internal.h"
#include "r1cs/pce_internal.h"

typedef struct {
  const cuzk_pce *p;
  const cuzk_fr *inputs, *aux;
  const uint8_t *kinds;    /* per aux variable (cuzk_cs_result.aux_kind), or NULL */
  const uint8_t *in_kinds; /* with kinds: per input, from its value (eval_run) */
  cuzk_fr **out;
  size_t first; /* out[k][0] is row first */
  int k0, k1;   /* the matrices k0 .. k1-1 */
} eval_job;

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

/* The kind of column col's value: from the witness's notes and the inputs' when given (a byte
 * read where the value itself is 32 bytes and often not in cache), else from the value
 * (cs_internal.h). */
static inline unsigned kind_of(const eval_job *j, const uint8_t *kinds, uint32_t col, size_t ni) {
  if (kinds) return col < ni ? j->in_kinds[col] : kinds[col - ni];
  return fr_kind(col < ni ? &j->inputs[col] : &j->aux[col - ni]);
}

/* The field element of a row's integer part v: the table below for |v| < 128, this for rows of
 * packed bits, where one conversion stands for tens of terms. */
static void int_to_fr(int64_t v, uint64_t y[4]) {
  cuzk_fr f;
  cuzk_fr_from_u64(&f, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
  if (v < 0) cuzk_fr_neg(&f, &f);
  memcpy(y, f.l, sizeof f.l);
}

/* v in Montgomery form for v in [-128, 127], at index v + 128: a row's integer part is mostly
 * that small (a bit, 1 - bit, a + b - c of bits). */
static cuzk_fr small_fr[256];
static pthread_once_t small_fr_once = PTHREAD_ONCE_INIT;

static void small_fr_init(void) {
  for (int v = -128; v < 128; v++)
    int_to_fr(v, small_fr[v + 128].l);
}

/* A sum of up to 2^32 values below r on five limbs, without reduction: x86-64 in assembly as
 * ACC_ADD. */
#if defined(__x86_64__)
#define WIDE_ADD(w, x)                                                                          \
  __asm__("add %[x0], %[w0]\n\tadc %[x1], %[w1]\n\tadc %[x2], %[w2]\n\tadc %[x3], %[w3]\n\t"    \
          "adc $0, %[w4]"                                                                       \
          : [w0] "+r"(w[0]), [w1] "+r"(w[1]), [w2] "+r"(w[2]), [w3] "+r"(w[3]), [w4] "+r"(w[4]) \
          : [x0] "r"((x)[0]), [x1] "r"((x)[1]), [x2] "r"((x)[2]), [x3] "r"((x)[3])              \
          : "cc")
#else
#define WIDE_ADD(w, x)                            \
  do {                                            \
    uint8_t c_ = 0;                               \
    for (int i_ = 0; i_ < 4; i_++)                \
      c_ = limb_addc(c_, w[i_], (x)[i_], &w[i_]); \
    w[4] += c_;                                   \
  } while (0)
#endif

/* w (below 2^288: up to 2^32 values of dict64, each c * 2^64 in Montgomery form) times 2^-64 mod
 * r, i.e. the sum of the c: one step of Montgomery reduction, (w + m r) / 2^64 < 2^224 + r, then
 * r subtracted once if needed. */
static void wide_reduce(const uint64_t w[5], uint64_t y[4]) {
  const uint64_t m = w[0] * CUZK_R_N0;
  uint64_t u[5], carry = 0;
  for (int i = 0; i < 4; i++) {
    cuzk_u128 v = (cuzk_u128)m * CUZK_R[i] + w[i] + carry;
    u[i] = (uint64_t)v; /* u[0] is 0 */
    carry = (uint64_t)(v >> 64);
  }
  u[4] = w[4] + carry; /* no carry out: w + m r < 2^288 + 2^319 */
  uint64_t t[4];
  uint8_t b = 0;
  for (int i = 0; i < 4; i++)
    b = limb_subb(b, u[i + 1], CUZK_R[i], &t[i]);
  for (int i = 0; i < 4; i++)
    y[i] = b ? u[i + 1] : t[i];
}

/* A row's integer part v joins the field sum (or is the row's value): from the table when small,
 * else converted. */
static inline void put_int(int64_t v, uint64_t o[4]) {
  if ((uint64_t)v + 128 < 256)
    memcpy(o, small_fr[(uint64_t)v + 128].l, sizeof small_fr[0].l);
  else
    int_to_fr(v, o);
}

/*
 * A row with a term the integer sum cannot take, terms t .. t_end - 1, into o: the field sum
 * beside the integer part. A coefficient of 1 or -1 adds or subtracts the value; a large
 * coefficient on a bit (a value unpacked into bits: 2^k up to 2^254) adds the coefficient times
 * 2^64, masked by the bit, to a sum on five limbs reduced once at the end; only a large
 * coefficient on another value multiplies (as PROVE mode does, cs.c eval_row). The first term sets
 * the sum rather than adding to 0. Apart from the hot loop so that its registers stay free.
 */
/* x into field_row's sum: the first term sets it. */
#define TAKE(x)                                           \
  do {                                                    \
    if (first) {                                          \
      a0 = (x)[0], a1 = (x)[1], a2 = (x)[2], a3 = (x)[3]; \
      first = false;                                      \
    } else {                                              \
      ACC_ADD(x);                                         \
    }                                                     \
  } while (0)
static __attribute__((noinline)) void field_row(const eval_job *j, int k, const uint8_t *kinds,
                                                uint32_t t, uint32_t t_end, uint64_t o[4]) {
  const cuzk_pce *p = j->p;
  const size_t ni = p->inputs;
  const uint32_t *cols = p->m[k].cols.p;
  const uint16_t *coef = p->m[k].coef.p;
  uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  int64_t iacc = 0; /* |sum| < 2^32 * 2^31 (PCE_SMALL_MAX) */
  uint64_t w[5] = {0, 0, 0, 0, 0};
  bool first = true, wide = false;
  for (; t < t_end; t++) {
    const uint32_t col = cols[t];
    const uint64_t *z = col < ni ? j->inputs[col].l : j->aux[col - ni].l;
    const uint16_t d = coef[t];
    const int64_t s = p->small[d];
    const unsigned kd = kind_of(j, kinds, col, ni);
    if (kd != CUZK_VALUE_OTHER && s != PCE_NOT_SMALL) {
      iacc += s & -(int64_t)kd;
      continue;
    }
    uint64_t v[4];
    const uint64_t *x; /* the term's value, to add */
    if (d == COEF_ONE) {
      x = z;
    } else if (d == COEF_MINUS_ONE) {
      ACC_SUB(z);
      first = false;
      continue;
    } else if (kd != CUZK_VALUE_OTHER) {
      const uint64_t m = 0 - (uint64_t)kd, *c = p->dict64[d].l;
      v[0] = c[0] & m, v[1] = c[1] & m, v[2] = c[2] & m, v[3] = c[3] & m;
      WIDE_ADD(w, v);
      wide = true;
      continue;
    } else {
      cuzk_mont.fr_mul(v, p->dict[d].l, z);
      x = v;
    }
    TAKE(x);
  }
  uint64_t y[4];
  if (wide) {
    wide_reduce(w, y);
    TAKE(y);
  }
  put_int(iacc, y);
  TAKE(y);
  o[0] = a0, o[1] = a1, o[2] = a2, o[3] = a3;
}
#undef TAKE

/*
 * Row by row: the sum of coefficient * z[column] (docs/r1cs.md "The SpMV kernel"). A term whose
 * value is a bit (0 or 1) and whose coefficient is a small integer (1, -1, 2^k, ...: pce.c
 * small_coefficients) adds coefficient & -bit to a plain integer sum: one add, no modular
 * reduction and, with the witness's kinds, no load of the 32-byte value. Most rows of a SHA-256
 * circuit have only such terms (a bit, 1 - bit, a + b - c of bits, packed words); the integer
 * is then the row's value, from a table when small. A row with any other term starts again in
 * field_row. A branch on a random bit whose value is still on its way from memory mispredicts at
 * the worst time: the bits are masks here, never branched on.
 */
static inline void eval_rows_with(const eval_job *j, size_t begin, size_t end,
                                  const uint8_t *kinds) {
  const cuzk_pce *p = j->p;
  const size_t ni = p->inputs;
  const int64_t *small = p->small;
  for (int k = j->k0; k < j->k1; k++) {
    /* row_ptr from the window's first row: out[i] is row i of it */
    const uint32_t *row_ptr = (const uint32_t *)p->m[k].row_ptr.p + j->first,
                   *cols = p->m[k].cols.p;
    const uint16_t *coef = p->m[k].coef.p;
    cuzk_fr *out = j->out[k];
    uint32_t t = row_ptr[begin];
    for (size_t r = begin; r < end; r++) {
      const uint32_t t0 = t, t_end = row_ptr[r + 1];
      int64_t iacc = 0; /* |sum| < 2^32 * 2^31 (PCE_SMALL_MAX) */
      for (; t < t_end; t++) {
        const uint32_t col = cols[t];
        const int64_t s = small[coef[t]];
        const unsigned kd = kind_of(j, kinds, col, ni);
        if (kd == CUZK_VALUE_OTHER || s == PCE_NOT_SMALL) break;
        iacc += s & -(int64_t)kd;
      }
      if (t < t_end) {
        field_row(j, k, kinds, t0, t_end, out[r].l);
        t = t_end;
      } else {
        put_int(iacc, out[r].l);
      }
    }
  }
}

/* A mapped evaluator's pages leave the resident set behind each block (pce.h
 * cuzk_pce_release_rows): a 32 GiB WindowPoSt circuit's 8.4 GB of matrices would otherwise stay
 * in the prover's RSS through its MSMs. */
static void eval_rows(void *ctx, size_t begin, size_t end) {
  const eval_job *j = ctx;
  if (j->kinds)
    eval_rows_with(j, begin, end, j->kinds);
  else
    eval_rows_with(j, begin, end, NULL);
  for (int k = j->k0; k < j->k1; k++)
    pce_release_matrix(j->p, k, j->first + begin, j->first + end);
}

/* count rows of job j on the pool; with the witness's kinds, the inputs' noted first. */
static void eval_run(eval_job *j, size_t count, cuzk_pool *pool, unsigned max_workers) {
  pthread_once(&small_fr_once, small_fr_init);
  uint8_t *in_kinds = NULL;
  if (j->kinds && !(in_kinds = malloc(j->p->inputs ? j->p->inputs : 1)))
    j->kinds = NULL; /* out of memory: the kinds are read off the values, same products */
  for (size_t i = 0; in_kinds && i < j->p->inputs; i++)
    in_kinds[i] = (uint8_t)fr_kind(&j->inputs[i]);
  j->in_kinds = in_kinds;
  cuzk_parallel_for(pool, count, 4096, eval_rows, j, max_workers);
  free(in_kinds);
  for (int k = j->k0; k < j->k1; k++) /* what fault-around mapped again: all of it, at the end */
    pce_release_matrix(j->p, k, j->first, j->first + count);
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
  eval_job j = {p, inputs, aux, aux_kind, NULL, out, first, 0, 3};
  if (first > p->rows || count > p->rows - first) return;
  eval_run(&j, count, pool, max_workers);
}

void cuzk_pce_eval_matrix(const cuzk_pce *p, int k, const cuzk_fr *inputs, const cuzk_fr *aux,
                          const uint8_t *aux_kind, cuzk_fr *out, size_t len, cuzk_pool *pool,
                          unsigned max_workers) {
  if (k < 0 || k > 2 || len < p->rows + p->inputs) return;
  cuzk_fr *outs[3] = {NULL, NULL, NULL};
  outs[k] = out;
  eval_job j = {p, inputs, aux, aux_kind, NULL, outs, 0, k, k + 1};
  eval_run(&j, p->rows, pool, max_workers);
  for (size_t i = 0; i < p->inputs; i++) /* the input constraints: a = input i, b = c = 0 */
    out[p->rows + i] = k == 0 ? inputs[i] : cuzk_fr_zero;
  memset(out + p->rows + p->inputs, 0, (len - p->rows - p->inputs) * sizeof(cuzk_fr));
}
