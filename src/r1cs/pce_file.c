/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The evaluator kept on disk next to its parameters (cuzk/r1cs/pce.h, docs/r1cs.md "The .pce
 * file"): recording a 32 GiB circuit takes tens of seconds and is the same every time. The file is
 * never trusted: header fields, the caller's tag (which circuit, which parameters), the exact size,
 * a SHA-256 of the body and the matrices' structure are all checked before it is used; any failure
 * is reported so the caller records again and rewrites it.
 *
 * Version 3 starts every piece of the body at a multiple of 64 bytes (zero padding between), so
 * that the reader maps the file and the evaluator's matrices point into the mapping: the page
 * cache holds them, not the process's anonymous memory, and a second process proving the same
 * circuit shares them. Version 2 (pieces packed) is still read, into memory as before.
 */
#define _GNU_SOURCE /* MADV_DONTNEED */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/hashes/sha256.h"
#include "cuzk/util/errmsg.h"
#include "field/consts.h"
#include "field/limbs.h"
#include "r1cs/coef_dict.h"
#include "r1cs/pce_internal.h"

#define MAGIC "CUZKPCE1"
#define VERSION 3u        /* 2: the segment marks; 3: pieces aligned to PIECE_ALIGN, mapped */
#define VERSION_PACKED 2u /* still read, copied into memory */
#define PIECE_ALIGN ((size_t)64)
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

enum { N_PIECES = 11 };

/* The body's pieces in file order: the dictionary, per matrix row_ptr, cols, coef, then the
 * marks. */
typedef struct {
  void *p;
  size_t bytes;
  const cuzk_vec *v; /* the matrix array it is, or NULL */
} piece;

static size_t pieces(const cuzk_pce *p, piece out[N_PIECES]) {
  out[0] = (piece){p->dict, p->n_dict * sizeof(cuzk_fr), NULL};
  for (int k = 0; k < 3; k++) {
    const pce_matrix *m = &p->m[k];
    out[1 + 3 * k] = (piece){m->row_ptr.p, (p->rows + 1) * sizeof(uint32_t), &m->row_ptr};
    out[2 + 3 * k] = (piece){m->cols.p, m->nnz * sizeof(uint32_t), &m->cols};
    out[3 + 3 * k] = (piece){m->coef.p, m->nnz * sizeof(uint16_t), &m->coef};
  }
  out[10] = (piece){p->marks, p->n_marks * sizeof(cuzk_cs_mark), NULL};
  return N_PIECES;
}

/* x rounded up to a multiple of a (a power of two); false on overflow. */
static bool align_up(size_t *out, size_t x, size_t a) {
  if (x > SIZE_MAX - (a - 1)) return false;
  *out = (x + a - 1) & ~(a - 1);
  return true;
}

/* size = a * b + c without overflow. */
static bool mul_add(size_t *out, uint64_t a, uint64_t b, size_t c) {
  if (b && a > (SIZE_MAX - c) / b) return false;
  *out = (size_t)(a * b) + c;
  return true;
}

/* Where each piece starts in a file of this version, and the file's size; false if the counts
 * overflow. Version 2 packs the pieces; version 3 aligns each to PIECE_ALIGN. */
static bool layout(const pce_header *h, size_t off[N_PIECES], size_t len[N_PIECES], size_t *size) {
  size_t bytes[N_PIECES];
  if (!mul_add(&bytes[0], h->n_dict, sizeof(cuzk_fr), 0) ||
      !mul_add(&bytes[10], h->n_marks, sizeof(cuzk_cs_mark), 0))
    return false;
  for (int k = 0; k < 3; k++)
    if (h->rows == UINT64_MAX || !mul_add(&bytes[1 + 3 * k], h->rows + 1, 4, 0) ||
        !mul_add(&bytes[2 + 3 * k], h->nnz[k], 4, 0) ||
        !mul_add(&bytes[3 + 3 * k], h->nnz[k], 2, 0))
      return false;
  size_t at = sizeof(pce_header), a = h->version == VERSION_PACKED ? 1 : PIECE_ALIGN;
  for (int i = 0; i < N_PIECES; i++) {
    if (!align_up(&at, at, a)) return false;
    off[i] = at, len[i] = bytes[i];
    if (!mul_add(&at, 1, bytes[i], at)) return false;
  }
  *size = at;
  return true;
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

static const uint8_t zeros[PIECE_ALIGN];

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
  piece pc[N_PIECES];
  size_t n = pieces(p, pc), off[N_PIECES], len[N_PIECES], size;
  if (!layout(&h, off, len, &size)) return CUZK_R1CS_EINVAL;
  /* written beside and renamed: a reader never sees half a file */
  char tmp[4096];
  if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >= sizeof tmp)
    return CUZK_R1CS_EINVAL;
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return CUZK_R1CS_EIO;
  /* One pass over the pieces: each chunk is hashed and written, then a spilled array's pages go
   * (gigabytes at 32 GiB, read once); the header, with the body's SHA-256 (every byte after the
   * header, the zero padding included), goes in its place at the end. */
  cuzk_sha256_ctx sc;
  cuzk_sha256_init(&sc);
  bool ok = lseek(fd, (off_t)sizeof h, SEEK_SET) == (off_t)sizeof h;
  size_t at = sizeof h;
  for (size_t i = 0; i < n && ok; i++) {
    cuzk_sha256_update(&sc, zeros, off[i] - at);
    ok = write_all(fd, zeros, off[i] - at);
    for (size_t o = 0; ok && o < pc[i].bytes; o += CHUNK) {
      size_t c = pc[i].bytes - o < CHUNK ? pc[i].bytes - o : CHUNK;
      cuzk_sha256_update(&sc, (const uint8_t *)pc[i].p + o, c);
      ok = write_all(fd, (const uint8_t *)pc[i].p + o, c);
      if (pc[i].v) cuzk_vec_release(pc[i].v, o, c); /* a spilled array: read, then let go */
    }
    at = off[i] + pc[i].bytes;
  }
  cuzk_sha256_final(&sc, h.body_sha256);
  ok = ok && pwrite(fd, &h, sizeof h, 0) == (ssize_t)sizeof h;
  ok = fsync(fd) == 0 && ok;
  ok = close(fd) == 0 && ok;
  if (ok) ok = rename(tmp, path) == 0;
  if (!ok) {
    unlink(tmp);
    return CUZK_R1CS_EIO;
  }
  return CUZK_R1CS_OK;
}

/* ---- pages of a mapped evaluator --------------------------------------------------------- */
/* [ptr, ptr + len) leaves the resident set (madvise DONTNEED, outward to whole pages inside the
 * mapping): the pages stay in the page cache and fault back in if read again. Only for a mapped
 * evaluator's read-only pages, never for memory it owns. */
static void release_mapped(const cuzk_pce *p, const void *ptr, size_t len) {
  if (!p->map.data || !len) return;
  uintptr_t lo = (uintptr_t)p->map.data, hi = lo + p->map.len, a = (uintptr_t)ptr, b = a + len;
  if (a < lo || b > hi) return; /* a piece the evaluator owns (copied) */
  uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  a = a / page * page;
  b = (b + page - 1) / page * page;
  if (b > hi) b = hi / page * page; /* the file's last partial page stays */
  if (a < lo) a = lo;
  if (b > a) madvise((void *)a, b - a, MADV_DONTNEED);
}

/* Bytes [off, off + len) of a matrix array the same way: a spilled recording's file-backed array
 * (cuzk/r1cs/r1cs.h spill_dir) through its own release, a mapped one as above; anonymous memory
 * is left alone. */
static void release(const cuzk_pce *p, const cuzk_vec *v, size_t off, size_t len) {
  if (v->file)
    cuzk_vec_release(v, off, len);
  else
    release_mapped(p, (const char *)v->p + off, len);
}

void pce_release_matrix(const cuzk_pce *p, int k, size_t first, size_t end) {
  if (!p || k < 0 || k > 2 || first >= end || end > p->rows) return;
  const pce_matrix *m = &p->m[k];
  const uint32_t *rp = m->row_ptr.p;
  size_t t0 = rp[first], t1 = rp[end];
  release(p, &m->row_ptr, first * 4, (end - first + 1) * 4);
  release(p, &m->cols, t0 * 4, (t1 - t0) * 4);
  release(p, &m->coef, t0 * 2, (t1 - t0) * 2);
}

void cuzk_pce_release_rows(const cuzk_pce *p, size_t first, size_t end) {
  for (int k = 0; k < 3; k++)
    pce_release_matrix(p, k, first, end);
}

bool cuzk_pce_mapped(const cuzk_pce *p) { return p && p->map.data; }

/* The matrices' structure: row pointers from 0 rising to nnz, columns inside z and ascending
 * within a row, coefficient indices inside the dictionary; the dictionary canonical, with 1 and
 * -1 where the evaluator expects them. A mapped evaluator's pages leave the resident set behind
 * the walk. */
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
    for (size_t r0 = 0; r0 < p->rows; r0 += PCE_RELEASE_ROWS) {
      size_t r1 = p->rows - r0 < PCE_RELEASE_ROWS ? p->rows : r0 + PCE_RELEASE_ROWS;
      for (size_t r = r0; r < r1; r++) {
        /* rp[rows] = nnz: a pointer above nnz falls further on (and must not be followed) */
        if (rp[r + 1] < rp[r] || rp[r + 1] > m->nnz) return "row pointers fall";
        for (uint32_t t = rp[r]; t < rp[r + 1]; t++) {
          if (cols[t] >= width || coef[t] >= p->n_dict)
            return "a term's column or coefficient is out of range";
          /* recorded rows are canonical (distinct columns, ascending): anything else is corrupt */
          if (t > rp[r] && cols[t] <= cols[t - 1])
            return "a row's columns are not strictly ascending";
        }
      }
      cuzk_pce_release_rows(p, r0 ? r0 - PCE_RELEASE_ROWS : 0, r1); /* pce.h */
    }
  }
  cuzk_pce_release_rows(p, 0, p->rows);
  return NULL;
}

cuzk_r1cs_err cuzk_pce_read_file(cuzk_pce **out, const char *path, const char *circuit_id,
                                 const uint8_t tag[32], const _Atomic int *cancel, char *msg,
                                 size_t msg_len) {
  if (!out || !path || !circuit_id) return CUZK_R1CS_EINVAL;
  *out = NULL;
  cuzk_file_map map;
  if (!cuzk_file_map_open(&map, path)) {
    cuzk_errmsg(msg, msg_len, "%s: %s", path, strerror(errno));
    return CUZK_R1CS_EIO;
  }
  cuzk_pce *p = NULL;
  const char *why = NULL;
  cuzk_r1cs_err e = CUZK_R1CS_EINVAL;
  pce_header h;
  size_t off[N_PIECES], len[N_PIECES], size = 0;
  if (map.len < sizeof h) {
    why = "shorter than its header";
  } else if (memcpy(&h, map.data, sizeof h),
             memcmp(h.magic, MAGIC, 8) || (h.version != VERSION && h.version != VERSION_PACKED) ||
                 h.header_bytes != sizeof h) {
    why = "not a cuzk .pce file of this version";
  } else if (h.circuit_id[ID_LEN - 1] || strcmp(h.circuit_id, circuit_id)) {
    why = "recorded for another circuit";
  } else if (memcmp(h.tag, tag, 32)) {
    why = "stale: recorded for other parameters of this circuit";
  } else if (h.n_dict > COEF_DICT_MAX || h.rows >= UINT32_MAX || h.inputs > UINT32_MAX ||
             h.aux > UINT32_MAX || h.nnz[0] >= UINT32_MAX || h.nnz[1] >= UINT32_MAX ||
             h.nnz[2] >= UINT32_MAX || h.n_marks > UINT32_MAX || !layout(&h, off, len, &size)) {
    why = "counts out of range";
  } else if (map.len != size) {
    why = "size does not match its counts";
  }
  /* the body's SHA-256 (every byte after the header), a chunk at a time: the cancel flag
   * between, and the pages leave the resident set behind the hash */
  if (!why) {
    cuzk_sha256_ctx sc;
    uint8_t digest[32];
    cuzk_sha256_init(&sc);
    const cuzk_pce probe = {.map = map};
    for (size_t at = sizeof h; at < map.len && !why; at += CHUNK) {
      size_t k = map.len - at < CHUNK ? map.len - at : CHUNK;
      if (cancel && atomic_load_explicit(cancel, memory_order_relaxed)) {
        why = "cancelled", e = CUZK_R1CS_ECANCELLED;
      } else {
        cuzk_sha256_update(&sc, map.data + at, k);
        release_mapped(&probe, map.data + at, k);
      }
    }
    cuzk_sha256_final(&sc, digest);
    if (!why && memcmp(digest, h.body_sha256, 32)) why = "corrupt: its body's SHA-256 differs";
    for (int i = 0; i < N_PIECES && !why; i++) /* the padding before each piece */
      for (size_t at = i ? off[i - 1] + len[i - 1] : sizeof h; at < off[i] && !why; at++)
        if (map.data[at]) why = "corrupt: padding between its pieces is not zero";
  }
  if (!why && !(p = calloc(1, sizeof *p))) why = "out of memory", e = CUZK_R1CS_ENOMEM;
  if (!why) {
    /* the dictionary and the marks are copied (small); the matrices point into the mapping
     * (version 3) or are copied (version 2: pieces not aligned) */
    bool mapped = h.version == VERSION;
    p->inputs = h.inputs, p->aux = h.aux, p->rows = h.rows, p->n_dict = h.n_dict;
    p->n_marks = h.n_marks;
    p->dict = malloc((h.n_dict ? h.n_dict : 1) * sizeof(cuzk_fr));
    p->marks = malloc((h.n_marks ? h.n_marks : 1) * sizeof(cuzk_cs_mark));
    bool mem = p->dict != NULL && p->marks != NULL;
    if (mem) {
      memcpy(p->dict, map.data + off[0], len[0]);
      memcpy(p->marks, map.data + off[10], len[10]);
    }
    for (int k = 0; k < 3 && mem; k++) {
      pce_matrix *m = &p->m[k];
      m->nnz = h.nnz[k];
      cuzk_vec *v[3] = {&m->row_ptr, &m->cols, &m->coef};
      for (int j = 0; j < 3 && mem; j++) {
        size_t i = 1 + 3 * (size_t)k + (size_t)j;
        if (mapped) {
          *v[j] = (cuzk_vec){.p = (void *)(uintptr_t)(map.data + off[i])}; /* cap 0: not owned */
        } else {
          mem = cuzk_vec_reserve(v[j], len[i] ? len[i] : 1);
          if (mem) memcpy(v[j]->p, map.data + off[i], len[i]);
        }
      }
    }
    if (!mem) why = "out of memory", e = CUZK_R1CS_ENOMEM;
    if (mapped && !why) {
      p->map = map; /* the evaluator keeps the mapping open */
      memset(&map, 0, sizeof map);
    }
  }
  cuzk_file_map_close(&map); /* a no-op once the evaluator holds it */
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

cuzk_r1cs_err cuzk_pce_write_file_mapped(cuzk_pce **p, const char *path, const char *circuit_id,
                                         const uint8_t tag[32], const _Atomic int *cancel,
                                         bool *mapped) {
  if (mapped) *mapped = false;
  if (!p || !*p) return CUZK_R1CS_EINVAL;
  cuzk_r1cs_err r = cuzk_pce_write_file(*p, path, circuit_id, tag);
  if (r) return r;
  cuzk_pce *back;
  if (cuzk_pce_read_file(&back, path, circuit_id, tag, cancel, NULL, 0)) return CUZK_R1CS_OK;
  cuzk_pce_free(*p);
  *p = back;
  if (mapped) *mapped = true;
  return CUZK_R1CS_OK;
}
