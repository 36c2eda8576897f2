/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The measured window table the plans use (docs/msm.md "Calibration") and its file: "key value"
 * lines, every key exactly once, every value checked, so that a damaged or hostile file is
 * refused with its line and key named and never steers a plan.
 */
#include "cuzk/msm/msm_calibration.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/field/field.h"
#include "cuzk/util/cpu.h"
#include "cuzk/util/errmsg.h"
#include "msm/plan.h"

#define CAL_VERSION 1
#define CAL_MAX_BYTES 65536 /* a real file is ~700 bytes */
#define CAL_MAX_LINE 256
#define CAL_MAX_THREADS 1024

/* Sizes a group's table holds. */
static unsigned group_sizes(bool g2) {
  return ((g2 ? CUZK_MSM_CAL_MAX_LOG_G2 : CUZK_MSM_CAL_MAX_LOG_G1) - CUZK_MSM_CAL_MIN_LOG) / 2 + 1;
}

/* ---- the table in use ----------------------------------------------------------------------- */

/* Written only by cuzk_msm_calibration_use, before any plan is made on another thread
 * (cuzk/msm/msm_calibration.h); `active` publishes it. */
static cuzk_msm_calibration in_use;
static atomic_bool active;

bool cuzk_msm_calibration_in_use(void) { return atomic_load(&active); }

bool msm_cal_lookup(const msm_costs *k, size_t n, unsigned workers, cuzk_msm_method *m,
                    unsigned *c) {
  if (!atomic_load_explicit(&active, memory_order_acquire) || n < 2) return false;
  if (in_use.threads != workers || in_use.ifma != cuzk_field_ifma_enabled()) return false;
  /* the nearest measured size: n in [2^(s-1), 2^(s+1)) for an even s */
  unsigned bits = 0;
  for (size_t x = n; x > 1; x >>= 1)
    bits++; /* floor(log2 n) */
  unsigned s = bits % 2 ? bits + 1 : bits;
  if (s < CUZK_MSM_CAL_MIN_LOG || (s - CUZK_MSM_CAL_MIN_LOG) / 2 >= group_sizes(k->g2))
    return false;
  const cuzk_msm_cal_pick *p = &(k->g2 ? in_use.g2 : in_use.g1)[(s - CUZK_MSM_CAL_MIN_LOG) / 2];
  if (p->method == CUZK_MSM_AUTO) return false;
  *m = p->method;
  *c = p->window;
  return true;
}

/* A pick the plans can run: a bucket method and a window, or AUTO (not measured). */
static bool pick_ok(const cuzk_msm_cal_pick *p) {
  if (p->method == CUZK_MSM_AUTO) return p->window == 0;
  return (p->method == CUZK_MSM_AFFINE || p->method == CUZK_MSM_XYZZ) && p->window >= 1 &&
         p->window <= CUZK_MSM_MAX_WINDOW;
}

/* Every field of c usable; else msg names the first one that is not. */
static cuzk_msm_err check_values(const cuzk_msm_calibration *c, const char *what, char *msg,
                                 size_t len) {
  if (!memchr(c->cpu, 0, sizeof c->cpu) || !c->cpu[0] || strpbrk(c->cpu, "\n\r")) {
    cuzk_errmsg(msg, len, "%s: cpu: empty, unterminated or with a line break", what);
    return CUZK_MSM_EFORMAT;
  }
  if (c->threads < 1 || c->threads > CAL_MAX_THREADS) {
    cuzk_errmsg(msg, len, "%s: threads: %u is not in 1..%d", what, c->threads, CAL_MAX_THREADS);
    return CUZK_MSM_EFORMAT;
  }
  for (int g = 0; g < 2; g++)
    for (unsigned i = 0; i < CUZK_MSM_CAL_SIZES; i++) {
      const cuzk_msm_cal_pick *p = &(g ? c->g2 : c->g1)[i];
      bool held = i < group_sizes(g);
      if (held ? pick_ok(p) : p->method == CUZK_MSM_AUTO && !p->window) continue;
      cuzk_errmsg(msg, len, "%s: g%d.%u: method %d window %u is not a plan", what, g + 1,
                  CUZK_MSM_CAL_MIN_LOG + 2 * i, (int)p->method, p->window);
      return CUZK_MSM_EFORMAT;
    }
  return CUZK_MSM_OK;
}

cuzk_msm_err cuzk_msm_calibration_use(const cuzk_msm_calibration *c, char *msg, size_t len) {
  if (!c) {
    atomic_store_explicit(&active, false, memory_order_release);
    cuzk_errmsg(msg, len, "MSM plans from the built-in cost model");
    return CUZK_MSM_OK;
  }
  cuzk_msm_err e = check_values(c, "calibration", msg, len);
  if (e != CUZK_MSM_OK) return e;
  char here[sizeof c->cpu];
  cuzk_cpu_model(here, sizeof here);
  if (strcmp(here, c->cpu) != 0) {
    cuzk_errmsg(msg, len,
                "calibration measured on \"%s\", this CPU is \"%s\": the built-in model kept",
                c->cpu, here);
    return CUZK_MSM_EOTHERCPU;
  }
  atomic_store_explicit(&active, false, memory_order_release);
  in_use = *c;
  atomic_store_explicit(&active, true, memory_order_release);
  cuzk_errmsg(msg, len, "MSM windows measured on \"%s\" (%s kernels, %u threads)", c->cpu,
              c->ifma ? "IFMA" : "scalar", c->threads);
  return CUZK_MSM_OK;
}

/* ---- the file ---------------------------------------------------------------------------------
 */

static const char *method_word(cuzk_msm_method m) {
  return m == CUZK_MSM_AFFINE ? "affine" : m == CUZK_MSM_XYZZ ? "xyzz" : "auto";
}

cuzk_msm_err cuzk_msm_calibration_write(const cuzk_msm_calibration *c, const char *path, char *msg,
                                        size_t len) {
  if (!c || !path) return CUZK_MSM_EINVAL;
  cuzk_msm_err e = check_values(c, path, msg, len);
  if (e != CUZK_MSM_OK) return e;
  char tmp[4096];
  if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp) {
    cuzk_errmsg(msg, len, "%s: path too long", path);
    return CUZK_MSM_EINVAL;
  }
  FILE *f = fopen(tmp, "w");
  if (!f) {
    cuzk_errmsg(msg, len, "%s: %s", tmp, strerror(errno));
    return CUZK_MSM_EIO;
  }
  fprintf(f,
          "# cuzk MSM calibration (docs/msm.md \"Calibration\"): the fastest bucket method and\n"
          "# window measured at each size, by cuzk-bench calibrate. Delete it for the model's.\n"
          "version %d\ncpu %s\nkernel %s\nthreads %u\n",
          CAL_VERSION, c->cpu, c->ifma ? "ifma" : "scalar", c->threads);
  for (int g = 0; g < 2; g++)
    for (unsigned i = 0; i < group_sizes(g); i++) {
      const cuzk_msm_cal_pick *p = &(g ? c->g2 : c->g1)[i];
      fprintf(f, "g%d.%u %s %u\n", g + 1, CUZK_MSM_CAL_MIN_LOG + 2 * i, method_word(p->method),
              p->window);
    }
  bool ok = !ferror(f);
  ok = (fclose(f) == 0) && ok;
  if (!ok || rename(tmp, path) != 0) {
    cuzk_errmsg(msg, len, "%s: %s", ok ? path : tmp, strerror(errno));
    remove(tmp);
    return CUZK_MSM_EIO;
  }
  return CUZK_MSM_OK;
}

typedef struct {
  bool version, cpu, kernel, threads;
  bool pick[2][CUZK_MSM_CAL_SIZES];
} cal_seen;

/* A whole unsigned decimal number in [lo, hi]. */
static bool parse_uint(const char *s, unsigned lo, unsigned hi, unsigned *out) {
  if (*s < '0' || *s > '9' || strlen(s) > 6) return false;
  char *end;
  unsigned long v = strtoul(s, &end, 10);
  if (*end || v < lo || v > hi) return false;
  *out = (unsigned)v;
  return true;
}

/* The pick of "gG.S" or NULL. */
static cuzk_msm_cal_pick *pick_of(cuzk_msm_calibration *c, cal_seen *seen, const char *key,
                                  bool **mark) {
  unsigned s;
  if ((key[0] != 'g') || (key[1] != '1' && key[1] != '2') || key[2] != '.' ||
      !parse_uint(key + 3, CUZK_MSM_CAL_MIN_LOG, CUZK_MSM_CAL_MAX_LOG_G1, &s) ||
      (s - CUZK_MSM_CAL_MIN_LOG) % 2)
    return NULL;
  char canon[8]; /* one spelling per key: "g1.010" is not "g1.10" */
  snprintf(canon, sizeof canon, "%u", s);
  if (strcmp(canon, key + 3) != 0) return NULL;
  bool g2 = key[1] == '2';
  unsigned i = (s - CUZK_MSM_CAL_MIN_LOG) / 2;
  if (i >= group_sizes(g2)) return NULL;
  *mark = &seen->pick[g2][i];
  return &(g2 ? c->g2 : c->g1)[i];
}

static cuzk_msm_err parse_line(cuzk_msm_calibration *c, cal_seen *seen, char *line,
                               const char *path, unsigned ln, char *msg, size_t len) {
  char *sp = strchr(line, ' ');
  if (!sp || sp == line || !sp[1]) {
    cuzk_errmsg(msg, len, "%s:%u: expected \"key value\"", path, ln);
    return CUZK_MSM_EFORMAT;
  }
  *sp = 0;
  const char *key = line, *val = sp + 1;
  if (!seen->version && strcmp(key, "version") != 0) {
    cuzk_errmsg(msg, len, "%s:%u: %s: the first key must be version", path, ln, key);
    return CUZK_MSM_EFORMAT;
  }
  bool *mark = NULL, good = true;
  cuzk_msm_cal_pick *p = NULL;
  if (!strcmp(key, "version")) {
    mark = &seen->version;
    unsigned v = 0;
    good = parse_uint(val, CAL_VERSION, CAL_VERSION, &v);
  } else if (!strcmp(key, "cpu")) {
    mark = &seen->cpu;
    good = strlen(val) < sizeof c->cpu;
    if (good && !seen->cpu) snprintf(c->cpu, sizeof c->cpu, "%s", val);
  } else if (!strcmp(key, "kernel")) {
    mark = &seen->kernel;
    good = !strcmp(val, "ifma") || !strcmp(val, "scalar");
    c->ifma = !strcmp(val, "ifma");
  } else if (!strcmp(key, "threads")) {
    mark = &seen->threads;
    good = parse_uint(val, 1, CAL_MAX_THREADS, &c->threads);
  } else if ((p = pick_of(c, seen, key, &mark))) {
    char word[8];
    const char *w = strchr(val, ' ');
    good = w && (size_t)(w - val) < sizeof word;
    if (good) {
      memcpy(word, val, (size_t)(w - val));
      word[w - val] = 0;
      bool autom = !strcmp(word, "auto"); /* not measured: "auto 0" */
      p->method = !strcmp(word, "affine") ? CUZK_MSM_AFFINE
                  : !strcmp(word, "xyzz") ? CUZK_MSM_XYZZ
                                          : CUZK_MSM_AUTO;
      good = autom ? !strcmp(w + 1, "0")
                   : p->method != CUZK_MSM_AUTO &&
                         parse_uint(w + 1, 1, CUZK_MSM_MAX_WINDOW, &p->window);
    }
  } else {
    cuzk_errmsg(msg, len, "%s:%u: %s: unknown key", path, ln, key);
    return CUZK_MSM_EFORMAT;
  }
  if (!good) {
    cuzk_errmsg(msg, len, "%s:%u: %s: \"%.40s\" is not %s", path, ln, key, val,
                !strcmp(key, "version")   ? "1 (made by another cuzk: run cuzk-bench calibrate)"
                : !strcmp(key, "cpu")     ? "a model name of at most 127 bytes"
                : !strcmp(key, "kernel")  ? "ifma or scalar"
                : !strcmp(key, "threads") ? "a thread count in 1..1024"
                                          : "affine|xyzz and a window in 1..20, or auto 0");
    return CUZK_MSM_EFORMAT;
  }
  if (*mark) {
    cuzk_errmsg(msg, len, "%s:%u: %s: given twice", path, ln, key);
    return CUZK_MSM_EFORMAT;
  }
  *mark = true;
  return CUZK_MSM_OK;
}

static cuzk_msm_err check_complete(const cal_seen *seen, const char *path, char *msg, size_t len) {
  const char *top = !seen->version   ? "version"
                    : !seen->cpu     ? "cpu"
                    : !seen->kernel  ? "kernel"
                    : !seen->threads ? "threads"
                                     : NULL;
  if (top) {
    cuzk_errmsg(msg, len, "%s: %s: missing", path, top);
    return CUZK_MSM_EFORMAT;
  }
  for (int g = 0; g < 2; g++)
    for (unsigned i = 0; i < group_sizes(g); i++)
      if (!seen->pick[g][i]) {
        cuzk_errmsg(msg, len, "%s: g%d.%u: missing", path, g + 1, CUZK_MSM_CAL_MIN_LOG + 2 * i);
        return CUZK_MSM_EFORMAT;
      }
  return CUZK_MSM_OK;
}

cuzk_msm_err cuzk_msm_calibration_read(cuzk_msm_calibration *c, const char *path, char *msg,
                                       size_t len) {
  if (!c || !path) return CUZK_MSM_EINVAL;
  memset(c, 0, sizeof *c);
  FILE *f = fopen(path, "r");
  if (!f) {
    int err = errno;
    cuzk_errmsg(msg, len, "%s: %s", path, strerror(err));
    errno = err;
    return CUZK_MSM_EIO;
  }
  cal_seen seen = {0};
  char line[CAL_MAX_LINE + 2];
  size_t total = 0;
  unsigned ln = 0;
  cuzk_msm_err e = CUZK_MSM_OK;
  while (e == CUZK_MSM_OK && fgets(line, sizeof line, f)) {
    ln++;
    size_t n = strlen(line);
    total += n;
    if (total > CAL_MAX_BYTES) {
      cuzk_errmsg(msg, len, "%s: larger than %d bytes", path, CAL_MAX_BYTES);
      e = CUZK_MSM_EFORMAT;
    } else if (n && line[n - 1] != '\n' && !feof(f)) {
      cuzk_errmsg(msg, len, "%s:%u: line longer than %d bytes", path, ln, CAL_MAX_LINE);
      e = CUZK_MSM_EFORMAT;
    } else {
      while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
        line[--n] = 0;
      if (n && line[0] != '#') e = parse_line(c, &seen, line, path, ln, msg, len);
    }
  }
  if (e == CUZK_MSM_OK && ferror(f)) {
    cuzk_errmsg(msg, len, "%s: read error", path);
    e = CUZK_MSM_EIO;
  }
  fclose(f);
  if (e == CUZK_MSM_OK) e = check_complete(&seen, path, msg, len);
  if (e != CUZK_MSM_OK) memset(c, 0, sizeof *c);
  return e;
}

cuzk_msm_err cuzk_msm_calibration_use_dir(const char *dir, bool *used, char *msg, size_t len) {
  if (used) *used = false;
  if (!dir) return CUZK_MSM_EINVAL;
  char path[4096];
  if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, CUZK_MSM_CALIBRATION_FILE) >= sizeof path) {
    cuzk_errmsg(msg, len, "%s: path too long", dir);
    return CUZK_MSM_EINVAL;
  }
  cuzk_msm_calibration c;
  cuzk_msm_err e = cuzk_msm_calibration_read(&c, path, msg, len);
  if (e == CUZK_MSM_EIO && errno == ENOENT) {
    cuzk_errmsg(msg, len, "%s: none, MSM plans from the built-in cost model", path);
    return CUZK_MSM_OK;
  }
  if (e == CUZK_MSM_OK) e = cuzk_msm_calibration_use(&c, msg, len);
  if (used) *used = e == CUZK_MSM_OK;
  return e;
}
