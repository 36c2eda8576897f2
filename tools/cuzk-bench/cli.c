/* Helpers shared by the cuzk-bench subcommands. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/pool.h"

int cli_fail(int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("cuzk-bench: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return code;
}

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool cli_hex32(uint8_t out[32], const char *hex) {
  if (!hex || strlen(hex) != 64) return false;
  for (int i = 0; i < 32; i++) {
    int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    out[i] = (uint8_t)(hi << 4 | lo);
  }
  return true;
}

void cli_print_hex(const uint8_t *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    printf("%02x", b[i]);
}

bool cli_u64(uint64_t *out, const char *text) {
  if (!text || !*text || *text == '-') return false;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(text, &end, 10);
  if (errno || *end) return false;
  *out = v;
  return true;
}

bool cli_proof(const cuzk_seal_proof **p, const char *proof_arg, const char *size_arg) {
  if (proof_arg) {
    uint64_t id;
    if (cli_u64(&id, proof_arg)) return cuzk_seal_proof_by_id(p, id) == CUZK_POREP_OK;
    return cuzk_seal_proof_by_name(p, proof_arg) == CUZK_POREP_OK;
  }
  uint64_t bytes;
  if (!size_arg || cuzk_porep_parse_size(&bytes, size_arg)) return false;
  return cuzk_seal_proof_by_sector(p, bytes) == CUZK_POREP_OK;
}

bool cli_read_file(const char *path, uint8_t **data, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return false;
  size_t cap = 1 << 16, n = 0;
  uint8_t *buf = malloc(cap);
  while (buf) {
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (n < cap) break;
    uint8_t *nb = realloc(buf, cap * 2);
    if (!nb) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = nb;
    cap *= 2;
  }
  bool ok = buf && !ferror(f);
  fclose(f);
  if (!ok) {
    free(buf);
    return false;
  }
  *data = buf;
  *len = n;
  return true;
}

bool cli_write_file(const char *path, const uint8_t *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f) return false;
  bool ok = fwrite(data, 1, len, f) == len;
  return fclose(f) == 0 && ok;
}

double cli_now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

cuzk_pool *cli_pool(unsigned threads) {
  if (!threads) {
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    threads = cpus > 0 ? (unsigned)cpus : 1;
  }
  cuzk_pool *pool = NULL;
  if (cuzk_pool_create(&pool, threads)) pool = NULL;
  return pool;
}

void cli_json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') fputc('\\', f);
    if ((unsigned char)*s >= 0x20) fputc(*s, f);
  }
  fputc('"', f);
}
