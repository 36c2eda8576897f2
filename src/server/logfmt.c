/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The daemon's log lines (include/cuzk/server/server.h cuzk_log_line_format; docs/config.md "Log
 * lines and client strings"). A job id and a message may hold a client's bytes (a request_id), so
 * whatever they hold an entry stays one line that cannot move the cursor, recolour the terminal or
 * hide text: text lines write control characters, C1 controls and bytes that are not UTF-8 as \xNN
 * (a backslash as \\), JSON lines write them as \u00NN, or \ufffd for a byte that is not UTF-8.
 */
#include "cuzk/server/server.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct {
  char *out;
  size_t cap, n; /* n counts every byte, also those past cap */
} sink;

static void put(sink *s, const char *p, size_t len) {
  for (size_t k = 0; k < len; k++, s->n++)
    if (s->n + 1 < s->cap) s->out[s->n] = p[k];
}

static void puts_(sink *s, const char *p) { put(s, p, strlen(p)); }

/* The length of the valid UTF-8 sequence at p (1-4), its code point in *cp; 0 if the bytes there
 * are not UTF-8 (a stray continuation byte, an overlong form, a surrogate, past U+10FFFF, cut
 * short). */
static size_t utf8_at(const unsigned char *p, uint32_t *cp) {
  unsigned char b = p[0];
  size_t len;
  unsigned char lo = 0x80, hi = 0xbf; /* range of the second byte */
  if (b < 0x80) {
    *cp = b;
    return 1;
  }
  if (b >= 0xc2 && b <= 0xdf) {
    len = 2;
    *cp = b & 0x1f;
  } else if (b >= 0xe0 && b <= 0xef) {
    len = 3;
    *cp = b & 0x0f;
    if (b == 0xe0) lo = 0xa0; /* overlong */
    if (b == 0xed) hi = 0x9f; /* surrogates */
  } else if (b >= 0xf0 && b <= 0xf4) {
    len = 4;
    *cp = b & 0x07;
    if (b == 0xf0) lo = 0x90; /* overlong */
    if (b == 0xf4) hi = 0x8f; /* past U+10FFFF */
  } else {
    return 0;
  }
  for (size_t k = 1; k < len; k++) {
    unsigned char c = p[k]; /* a NUL ends the string and fails here */
    if (c < (k == 1 ? lo : 0x80) || c > (k == 1 ? hi : 0xbf)) return 0;
    *cp = *cp << 6 | (c & 0x3f);
  }
  return len;
}

/* Whether a code point is a control character: C0, DEL, C1. */
static bool is_control(uint32_t cp) { return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f); }

static void put_text(sink *s, const char *str) {
  const unsigned char *p = (const unsigned char *)str;
  char hex[8];
  while (*p) {
    uint32_t cp;
    size_t len = utf8_at(p, &cp);
    if (*p == '\\') {
      puts_(s, "\\\\");
      p++;
    } else if (len && !is_control(cp)) {
      put(s, (const char *)p, len);
      p += len;
    } else {
      /* every byte of a C1 control (2 bytes in UTF-8), or the one byte that is not UTF-8 */
      for (size_t k = 0; k < (len ? len : 1); k++) {
        snprintf(hex, sizeof hex, "\\x%02x", p[k]);
        puts_(s, hex);
      }
      p += len ? len : 1;
    }
  }
}

static void put_json(sink *s, const char *str) {
  const unsigned char *p = (const unsigned char *)str;
  char esc[8];
  puts_(s, "\"");
  while (*p) {
    uint32_t cp;
    size_t len = utf8_at(p, &cp);
    if (*p == '"' || *p == '\\') {
      char two[2] = {'\\', (char)*p};
      put(s, two, 2);
    } else if (!len) {
      puts_(s, "\\ufffd"); /* JSON text is UTF-8: the byte is replaced, never copied */
    } else if (is_control(cp)) {
      snprintf(esc, sizeof esc, "\\u%04x", (unsigned)cp);
      puts_(s, esc);
    } else {
      put(s, (const char *)p, len);
    }
    p += len ? len : 1;
  }
  puts_(s, "\"");
}

static const char *level_name(cuzk_log_level l) {
  static const char *const n[] = {"ERROR", "WARN", "INFO", "DEBUG"};
  return (unsigned)l < 4 ? n[l] : "INFO";
}

size_t cuzk_log_line_format(char *out, size_t cap, bool json, const char *when,
                            cuzk_log_level level, const char *job_id, const char *msg) {
  sink s = {out, cap, 0};
  if (json) {
    puts_(&s, "{\"ts\":");
    put_json(&s, when);
    puts_(&s, ",\"level\":\"");
    puts_(&s, level_name(level));
    puts_(&s, "\",\"job_id\":");
    put_json(&s, job_id ? job_id : "");
    puts_(&s, ",\"msg\":");
    put_json(&s, msg);
    puts_(&s, "}\n");
  } else {
    char head[64];
    snprintf(head, sizeof head, " %-5s ", level_name(level));
    put_text(&s, when);
    puts_(&s, head);
    if (job_id) {
      puts_(&s, "[");
      put_text(&s, job_id);
      puts_(&s, "] ");
    }
    put_text(&s, msg);
    puts_(&s, "\n");
  }
  if (cap) out[s.n < cap ? s.n : cap - 1] = 0;
  return s.n;
}
