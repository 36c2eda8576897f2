/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The evaluator kept on disk next to its parameters (cuzk/pce.h, docs/r1cs.md "The .pce file"):
 * recording a 32 GiB circuit takes tens of seconds and is the same every time. The file is never
 * trusted: header fields, the caller's tag (which circuit, which parameters), the exact size, a
 * SHA-256 of the body and the matrices' structure are all checked before it is used; any failure
 * is reported so the caller records again and rewrites it.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/errmsg.h"
#include "cuzk/sha256.h"
#include "field/consts.h"
#include "field/limbs.h"
#include "r1cs/coef_dict.h"
#include "r1cs/pce_internal.h"

#define MAGIC "CUZKPCE1"
#define VERSION 2u /* 2: the segment marks */
#define ID_LEN 64
#define CHUNK ((size_t)64 << 20)

/* Little-endian, 8-byte fields after the magic; the body follows. */
typedef struct {
  char magic[8];
  uint64_t version, header_bytes;
  char circuit_id[ID_LEN];
  uint8_t tag[32], body_sha256[32];
  uint64_t inputs, aux, rows, n_dict, nnz[3], n_marks;
} pce_header;

_Static_assert(sizeof(pce_header) == 8 + 16 + ID_LEN + 64 + 8 * 8, "packed header");
_Static_assert(sizeof(cuzk_cs_mark) == 12, "a mark is three 4-byte counts");

/* The body's pieces in file order: the dictionary, per matrix row_ptr, cols, coef, then the
 * marks. */
typedef struct {
  void *p;
  size_t bytes;
} piece;

static size_t pieces(const cuzk_pce *p, piece out[11]) {
  out[0] = (piece){p->dict, p->n_dict * sizeof(cuzk_fr)};
  for (int k = 0; k < 3; k++) {
    const pce_matrix *m = &p->m[k];
    out[1 + 3 * k] = (piece){m->row_ptr.p, (p->rows + 1) * sizeof(uint32_t)};
    out[2 + 3 * k] = (piece){m->cols.p, m->nnz * sizeof(uint32_t)};
    out[3 + 3 * k] = (piece){m->coef.p, m->nnz * sizeof(uint16_t)};
  }
  out[10] = (piece){p->marks, p->n_marks * sizeof(cuzk_cs_mark)};
  return 11;
}

static bool write_all(int fd, const void *buf, size_t n) {
  const uint8_t *b = buf;
  while (n) {
    ssize_t w = write(fd, b, n < CHUNK ? n : CHUNK);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    b += w;
    n -= (size_t)w;
  }
  return true;
}

static bool read_all(int fd, void *buf, size_t n) {
  uint8_t *b = buf;
  while (n) {
    ssize_t r = read(fd, b, n < CHUNK ? n : CHUNK);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    b += r;
    n -= (size_t)r;
  }
  return true;
}

cuzk_r1cs_err cuzk_pce_write_file(const cuzk_pce *p, const char *path, const char *circuit_id,
                                  const uint8_t tag[32]) {
  if (!p || !path || !circuit_id || strlen(circuit_id) >= ID_LEN) return CUZK_R1CS_EINVAL;
  pce_header h;
  memset(&h, 0, sizeof h);
  memcpy(h.magic, MAGIC, 8);
  h.version = VERSION;
  h.header_bytes = sizeof h;
  strcpy(h.circuit_id, circuit_id);
  memcpy(h.tag, tag, 32);
  h.inputs = p->inputs, h.aux = p->aux, h.rows = p->rows, h.n_dict = p->n_dict;
  for (int k = 0; k < 3; k++)
    h.nnz[k] = p->m[k].nnz;
  h.n_marks = p->n_marks;
  piece pc[11];
  size_t n = pieces(p, pc);
  cuzk_sha256_ctx sc;
  cuzk_sha256_init(&sc);
  for (size_t i = 0; i < n; i++)
    cuzk_sha256_update(&sc, pc[i].p, pc[i].bytes);
  cuzk_sha256_final(&sc, h.body_sha256);
  /* written beside and renamed: a reader never sees half a file */
  char tmp[4096];
  if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >= sizeof tmp)
    return CUZK_R1CS_EINVAL;
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return CUZK_R1CS_EIO;
  bool ok = write_all(fd, &h, sizeof h);
  for (size_t i = 0; i < n && ok; i++)
    ok = write_all(fd, pc[i].p, pc[i].bytes);
  ok = fsync(fd) == 0 && ok;
  ok = close(fd) == 0 && ok;
  if (ok) ok = rename(tmp, path) == 0;
  if (!ok) {
    unlink(tmp);
    return CUZK_R1CS_EIO;
  }
  return CUZK_R1CS_OK;
}

/* size = a * b + c without overflow. */
static bool mul_add(size_t *out, uint64_t a, uint64_t b, size_t c) {
  if (b && a > (SIZE_MAX - c) / b) return false;
  *out = (size_t)(a * b) + c;
  return true;
}

/* The matrices' structure: row pointers from 0 rising to nnz, columns inside z and ascending
 * within a row, coefficient indices inside the dictionary; the dictionary canonical, with 1 and
 * -1 where the evaluator expects them. */
static const char *check_structure(const cuzk_pce *p) {
  cuzk_fr minus_one;
  cuzk_fr_neg(&minus_one, &cuzk_fr_one);
  if (p->n_dict < 2 || memcmp(&p->dict[COEF_ONE], &cuzk_fr_one, sizeof(cuzk_fr)) ||
      memcmp(&p->dict[COEF_MINUS_ONE], &minus_one, sizeof(cuzk_fr)))
    return "the dictionary does not start with 1 and -1";
  for (size_t i = 0; i < p->n_dict; i++)
    if (!limbs_lt(p->dict[i].l, CUZK_R, 4)) return "a dictionary value is not below r";
  for (size_t i = 0; i < p->n_marks; i++) {
    const cuzk_cs_mark *m = &p->marks[i];
    if (m->inputs < 1 || m->inputs > p->inputs || m->aux > p->aux || m->constraints > p->rows)
      return "a segment mark lies outside the circuit";
  }
  uint64_t width = (uint64_t)p->inputs + p->aux;
  for (int k = 0; k < 3; k++) {
    const pce_matrix *m = &p->m[k];
    const uint32_t *rp = m->row_ptr.p, *cols = m->cols.p;
    const uint16_t *coef = m->coef.p;
    if (rp[0] != 0 || rp[p->rows] != m->nnz) return "row pointers do not span the terms";
    for (size_t r = 0; r < p->rows; r++) {
      if (rp[r + 1] < rp[r]) return "row pointers fall";
      for (uint32_t t = rp[r]; t < rp[r + 1]; t++) {
        if (cols[t] >= width || coef[t] >= p->n_dict)
          return "a term's column or coefficient is out of range";
        /* recorded rows are canonical (distinct columns, ascending): anything else is corrupt */
        if (t > rp[r] && cols[t] <= cols[t - 1])
          return "a row's columns are not strictly ascending";
      }
    }
  }
  return NULL;
}

cuzk_r1cs_err cuzk_pce_read_file(cuzk_pce **out, const char *path, const char *circuit_id,
                                 const uint8_t tag[32], const _Atomic int *cancel, char *msg,
                                 size_t msg_len) {
  if (!out || !path || !circuit_id) return CUZK_R1CS_EINVAL;
  *out = NULL;
  int fd = open(path, O_RDONLY);
  if (fd < 0) {
    cuzk_errmsg(msg, msg_len, "%s: %s", path, strerror(errno));
    return CUZK_R1CS_EIO;
  }
  cuzk_pce *p = NULL;
  const char *why = NULL;
  cuzk_r1cs_err e = CUZK_R1CS_EINVAL;
  pce_header h;
  struct stat st;
  size_t body = 0, part;
  if (fstat(fd, &st) || !read_all(fd, &h, sizeof h)) {
    why = "shorter than its header";
  } else if (memcmp(h.magic, MAGIC, 8) || h.version != VERSION || h.header_bytes != sizeof h) {
    why = "not a cuzk .pce file of this version";
  } else if (h.circuit_id[ID_LEN - 1] || strcmp(h.circuit_id, circuit_id)) {
    why = "recorded for another circuit";
  } else if (memcmp(h.tag, tag, 32)) {
    why = "stale: recorded for other parameters of this circuit";
  } else if (h.n_dict > COEF_DICT_MAX || h.rows >= UINT32_MAX || h.inputs > UINT32_MAX ||
             h.aux > UINT32_MAX || !mul_add(&body, h.n_dict, sizeof(cuzk_fr), 0)) {
    why = "counts out of range";
  } else {
    for (int k = 0; k < 3 && !why; k++)
      if (h.nnz[k] >= UINT32_MAX || !mul_add(&part, h.rows + 1, 4, body) ||
          !mul_add(&body, h.nnz[k], 6, part))
        why = "counts out of range";
    if (!why && (h.n_marks > UINT32_MAX || !mul_add(&body, h.n_marks, sizeof(cuzk_cs_mark), body)))
      why = "counts out of range";
    if (!why && (uint64_t)st.st_size != sizeof h + body) why = "size does not match its counts";
  }
  if (!why && !(p = calloc(1, sizeof *p))) why = "out of memory", e = CUZK_R1CS_ENOMEM;
  if (!why) {
    p->inputs = h.inputs, p->aux = h.aux, p->rows = h.rows, p->n_dict = h.n_dict;
    p->dict = malloc((h.n_dict ? h.n_dict : 1) * sizeof(cuzk_fr));
    p->n_marks = h.n_marks;
    p->marks = malloc((h.n_marks ? h.n_marks : 1) * sizeof(cuzk_cs_mark));
    bool mem = p->dict != NULL && p->marks != NULL;
    for (int k = 0; k < 3 && mem; k++) {
      p->m[k].nnz = h.nnz[k];
      mem = cuzk_vec_reserve(&p->m[k].row_ptr, (h.rows + 1) * sizeof(uint32_t)) &&
            cuzk_vec_reserve(&p->m[k].cols, (h.nnz[k] ? h.nnz[k] : 1) * sizeof(uint32_t)) &&
            cuzk_vec_reserve(&p->m[k].coef, (h.nnz[k] ? h.nnz[k] : 1) * sizeof(uint16_t));
    }
    if (!mem) why = "out of memory", e = CUZK_R1CS_ENOMEM;
  }
  if (!why) {
    piece pc[11];
    size_t n = pieces(p, pc);
    cuzk_sha256_ctx sc;
    uint8_t digest[32];
    cuzk_sha256_init(&sc);
    for (size_t i = 0; i < n && !why; i++) /* a chunk at a time: the cancel flag between */
      for (size_t at = 0; at < pc[i].bytes && !why; at += CHUNK) {
        size_t k = pc[i].bytes - at < CHUNK ? pc[i].bytes - at : CHUNK;
        if (cancel && atomic_load_explicit(cancel, memory_order_relaxed))
          why = "cancelled", e = CUZK_R1CS_ECANCELLED;
        else if (!read_all(fd, (uint8_t *)pc[i].p + at, k))
          why = "cannot read its body";
        else
          cuzk_sha256_update(&sc, (const uint8_t *)pc[i].p + at, k);
      }
    cuzk_sha256_final(&sc, digest);
    if (!why && memcmp(digest, h.body_sha256, 32)) why = "corrupt: its body's SHA-256 differs";
  }
  close(fd);
  if (!why) why = check_structure(p);
  if (!why && (e = pce_finish(p))) why = "out of memory";
  if (why) {
    cuzk_pce_free(p);
    cuzk_errmsg(msg, msg_len, "%s: %s", path, why);
    return e ? e : CUZK_R1CS_EINVAL;
  }
  *out = p;
  return CUZK_R1CS_OK;
}
