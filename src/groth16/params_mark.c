/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * PATH.checked beside a .params file (docs/groth16.md "Parameters read in place"): the identity
 * of a file whose every point was checked — size, device, inode, mtime and a SHA-256 of its
 * first and last MiB — and whether the subgroup tests ran. A later load of the same file, read
 * in place or decoded, skips the point checks; a changed, replaced or truncated file no longer
 * matches and is checked again.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/hashes/sha256.h"
#include "groth16/g16_internal.h"

/* Bytes of the file's head and tail in its identity digest: the verifying key and the vector
 * counts are in the head; a file cut short or extended changes the size. */
#define DIGEST_SPAN ((size_t)1 << 20)

static void identity_digest(char hex[65], const cuzk_file_map *m) {
  uint8_t d[32];
  cuzk_sha256_ctx c;
  size_t head = m->len < DIGEST_SPAN ? m->len : DIGEST_SPAN;
  cuzk_sha256_init(&c);
  cuzk_sha256_update(&c, m->data, head);
  cuzk_sha256_update(&c, m->data + (m->len - head), head);
  cuzk_sha256_final(&c, d);
  for (int i = 0; i < 32; i++)
    snprintf(hex + 2 * i, 3, "%02x", d[i]);
}

/* The file's identity as PATH.checked holds it, before the " subgroup=0|1" that ends the line. */
static void identity_line(char *out, size_t len, const cuzk_file_map *m) {
  char hex[65];
  identity_digest(hex, m);
  snprintf(out, len,
           "cuzk-params-checked 1 size=%zu dev=%" PRIu64 " ino=%" PRIu64 " mtime_ns=%" PRIu64
           " sha256-head-tail=%s",
           m->len, m->dev, m->ino, m->mtime_ns, hex);
}

/* PATH.checked names this very file, checked with the subgroup tests if they are wanted. */
static bool already_checked(const char *mark, const char *line, bool subgroup) {
  char got[600] = "", want[600];
  FILE *f = fopen(mark, "r");
  if (!f) return false;
  bool ok = fgets(got, sizeof got, f) != NULL;
  fclose(f);
  for (int sg = subgroup; sg <= 1 && ok; sg++) {
    snprintf(want, sizeof want, "%s subgroup=%d\n", line, sg);
    if (!strcmp(got, want)) return true;
  }
  return false;
}

/* Written to a temporary name and renamed; a directory we cannot write only means the next
 * load checks again. */
static void write_mark(const char *mark, const char *line) {
  char tmp[4300];
  if ((size_t)snprintf(tmp, sizeof tmp, "%s.%ld.tmp", mark, (long)getpid()) >= sizeof tmp) return;
  FILE *f = fopen(tmp, "w");
  if (!f) return;
  bool ok = fputs(line, f) >= 0;
  ok = fclose(f) == 0 && ok;
  if (!ok || rename(tmp, mark) != 0) unlink(tmp);
}

bool g16_mark_trusted(const cuzk_file_map *m, const char *path, bool subgroup) {
  char mark[4200], line[400];
  if (!m->len || (size_t)snprintf(mark, sizeof mark, "%s.checked", path) >= sizeof mark)
    return false;
  identity_line(line, sizeof line, m);
  return already_checked(mark, line, subgroup);
}

void g16_mark_write(const cuzk_file_map *m, const char *path, bool subgroup) {
  char mark[4200], line[400], full[600];
  if ((size_t)snprintf(mark, sizeof mark, "%s.checked", path) >= sizeof mark) return;
  identity_line(line, sizeof line, m);
  snprintf(full, sizeof full, "%s subgroup=%d\n", line, subgroup ? 1 : 0);
  write_mark(mark, full);
}
