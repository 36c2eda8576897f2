/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Replays the vectors of the Python big-integer model (tests/ref/gen_vectors.py) through the C
 * library, once per available Montgomery kernel, and requires exact equality: field elements are
 * compared in Montgomery form, so a result that is correct but not fully reduced also fails.
 */
#include <stdlib.h>

#include "check.h"
#include "cuzk/curve/curve.h"
#include "cuzk/field/field.h"
#include "cuzk/pairing/pairing.h"

#define MAX_TOKENS 8

/* ---- token parsers: false on malformed input ---- */
static bool parse_fp(cuzk_fp *r, const char *tok, size_t len) {
  char hex[97];
  unsigned char b[48];
  if (len != 96) return false;
  memcpy(hex, tok, 96);
  hex[96] = 0;
  return from_hex(b, hex, 48) == 0 && cuzk_fp_from_bytes(r, b);
}

/* A comma-separated list of n Fp elements. */
static bool parse_fps(cuzk_fp *r, const char *tok, size_t n) {
  for (size_t i = 0; i < n; i++) {
    const char *end = strchr(tok, ',');
    size_t len = end ? (size_t)(end - tok) : strlen(tok);
    if (!parse_fp(&r[i], tok, len)) return false;
    if ((end == NULL) != (i + 1 == n)) return false;
    if (end) tok = end + 1;
  }
  return true;
}

static bool parse_fr(cuzk_fr *r, const char *tok) {
  unsigned char be[32], le[32];
  if (from_hex(be, tok, 32) != 0) return false;
  for (int i = 0; i < 32; i++)
    le[i] = be[31 - i];
  return cuzk_fr_from_bytes(r, le);
}

/* Tower elements are laid out as consecutive Fp in tower order, as the model prints them. */
#define PARSE_TOWER(r, tok, n) parse_fps((cuzk_fp *)(r), tok, n)

static bool parse_g1(cuzk_g1_affine *r, const char *tok) {
  unsigned char b[96];
  return from_hex(b, tok, 96) == 0 && cuzk_g1_from_uncompressed(r, b) == CUZK_EC_OK;
}
static bool parse_g2(cuzk_g2_affine *r, const char *tok) {
  unsigned char b[192];
  return from_hex(b, tok, 192) == 0 && cuzk_g2_from_uncompressed(r, b) == CUZK_EC_OK;
}

static unsigned op_count[64];
static char op_names[64][24];
static size_t n_ops;

static void count_op(const char *op) {
  for (size_t i = 0; i < n_ops; i++)
    if (!strcmp(op_names[i], op)) {
      op_count[i]++;
      return;
    }
  if (n_ops < 64) {
    snprintf(op_names[n_ops], sizeof op_names[n_ops], "%s", op);
    op_count[n_ops++] = 1;
  }
}

/* Binary and unary ops over one field type, named by the model's op suffixes. */
#define FIELD_OPS(PFX, T, PARSE)                                                             \
  static bool PFX##_vector(const char *op, char **t, int nt) {                               \
    T a, b, e, r;                                                                            \
    if (!strcmp(op, "add") || !strcmp(op, "sub") || !strcmp(op, "mul")) {                    \
      if (nt != 4 || !PARSE(&a, t[1]) || !PARSE(&b, t[2]) || !PARSE(&e, t[3])) return false; \
      if (!strcmp(op, "add")) cuzk_##PFX##_add(&r, &a, &b);                                  \
      if (!strcmp(op, "sub")) cuzk_##PFX##_sub(&r, &a, &b);                                  \
      if (!strcmp(op, "mul")) cuzk_##PFX##_mul(&r, &a, &b);                                  \
      CHECK_MSG(cuzk_##PFX##_eq(&r, &e), "%s_%s %s %s", #PFX, op, t[1], t[2]);               \
      return true;                                                                           \
    }                                                                                        \
    if (nt != 3 || !PARSE(&a, t[1])) return false;                                           \
    if (!strcmp(op, "sqr")) {                                                                \
      if (!PARSE(&e, t[2])) return false;                                                    \
      cuzk_##PFX##_sqr(&r, &a);                                                              \
    } else if (!strcmp(op, "inv")) {                                                         \
      if (!PARSE(&e, t[2])) return false;                                                    \
      CHECK(cuzk_##PFX##_inv(&r, &a));                                                       \
    } else {                                                                                 \
      return PFX##_extra(op, &a, t[2]);                                                      \
    }                                                                                        \
    CHECK_MSG(cuzk_##PFX##_eq(&r, &e), "%s_%s %s", #PFX, op, t[1]);                          \
    return true;                                                                             \
  }

static bool legendre_token(int got, const char *tok) {
  return (!strcmp(tok, "1") && got == 1) || (!strcmp(tok, "-1") && got == -1) ||
         (!strcmp(tok, "0") && got == 0);
}

#define PARSE_FP1(r, tok) parse_fps(r, tok, 1)
static bool fp_extra(const char *op, const cuzk_fp *a, const char *out) {
  cuzk_fp r, e;
  if (!strcmp(op, "neg")) {
    if (!PARSE_FP1(&e, out)) return false;
    cuzk_fp_neg(&r, a);
    CHECK(cuzk_fp_eq(&r, &e));
  } else if (!strcmp(op, "legendre")) {
    CHECK_MSG(legendre_token(cuzk_fp_legendre(a), out), "fp_legendre -> %s", out);
  } else if (!strcmp(op, "sqrt")) {
    bool ok = cuzk_fp_sqrt(&r, a);
    if (!strcmp(out, "none")) {
      CHECK(!ok);
    } else {
      if (!PARSE_FP1(&e, out)) return false;
      if (ok && cuzk_fp_sgn(&r)) cuzk_fp_neg(&r, &r); /* the model prints the root with sign 0 */
      CHECK(ok && cuzk_fp_eq(&r, &e));
    }
  } else {
    return false;
  }
  return true;
}

static bool fr_extra(const char *op, const cuzk_fr *a, const char *out) {
  cuzk_fr r, e;
  if (!strcmp(op, "neg")) {
    if (!parse_fr(&e, out)) return false;
    cuzk_fr_neg(&r, a);
    CHECK(cuzk_fr_eq(&r, &e));
  } else if (!strcmp(op, "legendre")) {
    CHECK_MSG(legendre_token(cuzk_fr_legendre(a), out), "fr_legendre -> %s", out);
  } else {
    return false;
  }
  return true;
}

#define PARSE_FP2(r, tok) PARSE_TOWER(r, tok, 2)
static bool fp2_extra(const char *op, const cuzk_fp2 *a, const char *out) {
  cuzk_fp2 r, e;
  if (!strcmp(op, "sqrt")) {
    bool ok = cuzk_fp2_sqrt(&r, a);
    if (!strcmp(out, "none")) {
      CHECK(!ok);
      return true;
    }
    if (!PARSE_FP2(&e, out)) return false;
    if (ok && cuzk_fp2_sgn(&r)) cuzk_fp2_neg(&r, &r);
    CHECK(ok && cuzk_fp2_eq(&r, &e));
    return true;
  }
  if (!PARSE_FP2(&e, out)) return false;
  if (!strcmp(op, "mul_nonres"))
    cuzk_fp2_mul_nonres(&r, a);
  else if (!strcmp(op, "frob"))
    cuzk_fp2_conj(&r, a);
  else
    return false;
  CHECK_MSG(cuzk_fp2_eq(&r, &e), "fp2_%s", op);
  return true;
}

#define PARSE_FP6(r, tok) PARSE_TOWER(r, tok, 6)
static bool fp6_extra(const char *op, const cuzk_fp6 *a, const char *out) {
  cuzk_fp6 r, e;
  if (!PARSE_FP6(&e, out) || strcmp(op, "mul_nonres")) return false;
  cuzk_fp6_mul_nonres(&r, a);
  CHECK(cuzk_fp6_eq(&r, &e));
  return true;
}

#define PARSE_FP12(r, tok) PARSE_TOWER(r, tok, 12)
static bool fp12_extra(const char *op, const cuzk_fp12 *a, const char *out) {
  cuzk_fp12 r, e;
  if (!PARSE_FP12(&e, out)) return false;
  if (!strcmp(op, "conj"))
    cuzk_fp12_conj(&r, a);
  else if (!strcmp(op, "frob1"))
    cuzk_fp12_frobenius(&r, a, 1);
  else if (!strcmp(op, "frob2"))
    cuzk_fp12_frobenius(&r, a, 2);
  else if (!strcmp(op, "frob3"))
    cuzk_fp12_frobenius(&r, a, 3);
  else if (!strcmp(op, "cyclo_sqr"))
    cuzk_fp12_cyclotomic_sqr(&r, a);
  else
    return false;
  CHECK_MSG(cuzk_fp12_eq(&r, &e), "fp12_%s", op);
  return true;
}

FIELD_OPS(fp, cuzk_fp, PARSE_FP1)
FIELD_OPS(fr, cuzk_fr, parse_fr)
FIELD_OPS(fp2, cuzk_fp2, PARSE_FP2)
FIELD_OPS(fp6, cuzk_fp6, PARSE_FP6)
FIELD_OPS(fp12, cuzk_fp12, PARSE_FP12)

/* Point ops, written once for both groups. */
#define POINT_OPS(G, AFF, JAC, PARSE, CBYTES)                                                    \
  static bool G##_vector(const char *op, char **t, int nt) {                                     \
    AFF a, b, e;                                                                                 \
    JAC p, q, r;                                                                                 \
    if (nt < 3 || !PARSE(&a, t[1])) return false;                                                \
    cuzk_##G##_from_affine(&p, &a);                                                              \
    if (!strcmp(op, "compress")) {                                                               \
      unsigned char got[CBYTES], want[CBYTES];                                                   \
      if (nt != 3 || from_hex(want, t[2], CBYTES) != 0) return false;                            \
      cuzk_##G##_to_compressed(got, &a);                                                         \
      CHECK_MSG(!memcmp(got, want, CBYTES), "%s_compress %s", #G, t[1]);                         \
      CHECK(cuzk_##G##_from_compressed(&b, want) == CUZK_EC_OK && cuzk_##G##_affine_eq(&b, &a)); \
      return true;                                                                               \
    }                                                                                            \
    if (!strcmp(op, "dbl")) {                                                                    \
      if (nt != 3 || !PARSE(&e, t[2])) return false;                                             \
      cuzk_##G##_dbl(&r, &p);                                                                    \
    } else if (!strcmp(op, "add")) {                                                             \
      if (nt != 4 || !PARSE(&b, t[2]) || !PARSE(&e, t[3])) return false;                         \
      cuzk_##G##_from_affine(&q, &b);                                                            \
      JAC r2;                                                                                    \
      cuzk_##G##_add_affine(&r2, &p, &b);                                                        \
      cuzk_##G##_add(&r, &p, &q);                                                                \
      CHECK_MSG(cuzk_##G##_eq(&r, &r2), "%s_add_affine", #G);                                    \
      AFF pair[2] = {a, b};                                                                      \
      cuzk_##G##_affine_sum(&r2, pair, 2);                                                       \
      CHECK_MSG(cuzk_##G##_eq(&r, &r2), "%s_affine_sum", #G);                                    \
    } else if (!strcmp(op, "mul")) {                                                             \
      cuzk_fr k;                                                                                 \
      if (nt != 4 || !parse_fr(&k, t[2]) || !PARSE(&e, t[3])) return false;                      \
      cuzk_##G##_mul(&r, &p, &k);                                                                \
    } else {                                                                                     \
      return false;                                                                              \
    }                                                                                            \
    AFF ra;                                                                                      \
    cuzk_##G##_to_affine(&ra, &r);                                                               \
    CHECK_MSG(cuzk_##G##_affine_eq(&ra, &e), "%s_%s %s", #G, op, t[1]);                          \
    return true;                                                                                 \
  }

POINT_OPS(g1, cuzk_g1_affine, cuzk_g1, parse_g1, 48)
POINT_OPS(g2, cuzk_g2_affine, cuzk_g2, parse_g2, 96)

/* The model computes the textbook reduced pairing; blst, noble and cuzk return its cube
 * (hard part 3(p^4 - p^2 + 1)/r; tests/ref/README.md). */
static bool pairing_vector(char **t, int nt) {
  cuzk_g1_affine p;
  cuzk_g2_affine q;
  cuzk_fp12 e, e3, r;
  if (nt != 4 || !parse_g1(&p, t[1]) || !parse_g2(&q, t[2]) || !PARSE_FP12(&e, t[3])) return false;
  cuzk_fp12_sqr(&e3, &e);
  cuzk_fp12_mul(&e3, &e3, &e);
  cuzk_pairing(&r, &p, &q);
  CHECK_MSG(cuzk_fp12_eq(&r, &e3), "pairing %s %s", t[1], t[2]);
  return true;
}

static bool run_vector(char *line) {
  char *t[MAX_TOKENS];
  int nt = 0;
  for (char *s = strtok(line, " \n"); s && nt < MAX_TOKENS; s = strtok(NULL, " \n"))
    t[nt++] = s;
  if (nt == 0) return true;
  count_op(t[0]);
  const char *us = strchr(t[0], '_');
  if (!strcmp(t[0], "pairing")) return pairing_vector(t, nt);
  if (!us) return false;
  size_t plen = (size_t)(us - t[0]);
  const char *op = us + 1;
#define DISPATCH(PFX) \
  if (plen == strlen(#PFX) && !strncmp(t[0], #PFX, plen)) return PFX##_vector(op, t, nt);
  DISPATCH(fp)
  DISPATCH(fr)
  DISPATCH(fp2) DISPATCH(fp6) DISPATCH(fp12) DISPATCH(g1) DISPATCH(g2)
#undef DISPATCH
      return false;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s VECTORS\n", argv[0]);
    return 2;
  }
  cuzk_field_kernel kernels[] = {CUZK_KERNEL_PORTABLE, CUZK_KERNEL_ADX};
  for (size_t k = 0; k < 2; k++) {
    if (!cuzk_field_use_kernel(kernels[k])) {
      printf("kernel %zu not supported on this CPU: skipped\n", k);
      continue;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
      perror(argv[1]);
      return 2;
    }
    static char line[16384];
    unsigned lines = 0;
    while (fgets(line, sizeof line, f)) {
      char copy[64];
      snprintf(copy, sizeof copy, "%.60s", line);
      lines++;
      CHECK_MSG(run_vector(line), "malformed or unknown vector at line %u: %s", lines, copy);
    }
    fclose(f);
    printf("kernel %s: %u vectors\n", k == 0 ? "portable" : "adx", lines);
    CHECK(lines > 5000); /* the generator's defaults give ~10^4 vectors */
  }
  for (size_t i = 0; i < n_ops; i++)
    printf("  %-16s %u\n", op_names[i], op_count[i]);
  return check_summary("test_ref_vectors");
}
