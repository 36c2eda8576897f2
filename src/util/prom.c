/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The Prometheus registry (cuzk/util/prom.h). Text format 0.0.4, per family:
 *
 *   # HELP name help text with \\ and \n escaped
 *   # TYPE name counter|gauge|histogram
 *   name{l1="v1",l2="v2"} value              (counter, gauge)
 *   name_bucket{l1="v1",le="0.5"} cumulative  (histogram: each bound, then le="+Inf")
 *   name_sum{l1="v1"} sum
 *   name_count{l1="v1"} count
 *
 * Label values escape \\, \" and \n. Numbers print as the shortest of %.15g/%.17g that reads back
 * exactly, with +Inf, -Inf and NaN spelled as Prometheus does.
 */
#define _POSIX_C_SOURCE 200809L /* pthread mutexes under -std=c17 */
#include "cuzk/util/prom.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cuzk_prom_series {
  cuzk_prom_metric *m;
  char *values[CUZK_PROM_MAX_LABELS];
  _Atomic uint64_t bits; /* counter or gauge: the double's bit pattern */
  /* histogram: counts per bucket (not cumulative; the last is the +Inf overflow) under lock */
  pthread_mutex_t lock;
  uint64_t *counts;
  double sum;
  uint64_t count;
};

struct cuzk_prom_metric {
  cuzk_prom_registry *r;
  cuzk_prom_type type;
  char *name, *help;
  char *labels[CUZK_PROM_MAX_LABELS];
  size_t nlabels;
  double buckets[CUZK_PROM_MAX_BUCKETS];
  size_t nbuckets;
  cuzk_prom_series **series; /* sorted by label values */
  size_t n, cap;
};

struct cuzk_prom_registry {
  pthread_mutex_t lock;
  cuzk_prom_metric **metrics; /* registration order */
  size_t n, cap;
};

const char *cuzk_prom_strerror(cuzk_prom_err e) {
  switch (e) {
  case CUZK_PROM_OK: return "ok";
  case CUZK_PROM_EINVAL: return "invalid metric name, label or bucket list";
  case CUZK_PROM_ENOMEM: return "out of memory";
  case CUZK_PROM_EEXIST: return "metric already registered";
  }
  return "unknown error";
}

static double bits_to_double(uint64_t b) {
  double d;
  memcpy(&d, &b, sizeof d);
  return d;
}

static uint64_t double_to_bits(double d) {
  uint64_t b;
  memcpy(&b, &d, sizeof b);
  return b;
}

cuzk_prom_err cuzk_prom_registry_create(cuzk_prom_registry **out) {
  *out = NULL;
  cuzk_prom_registry *r = calloc(1, sizeof *r);
  if (!r) return CUZK_PROM_ENOMEM;
  if (pthread_mutex_init(&r->lock, NULL) != 0) {
    free(r);
    return CUZK_PROM_ENOMEM;
  }
  *out = r;
  return CUZK_PROM_OK;
}

static void series_free(cuzk_prom_series *s) {
  if (!s) return;
  for (size_t k = 0; k < CUZK_PROM_MAX_LABELS; k++)
    free(s->values[k]);
  if (s->counts) pthread_mutex_destroy(&s->lock);
  free(s->counts);
  free(s);
}

static void metric_free(cuzk_prom_metric *m) {
  if (!m) return;
  for (size_t k = 0; k < m->n; k++)
    series_free(m->series[k]);
  free(m->series);
  for (size_t k = 0; k < m->nlabels; k++)
    free(m->labels[k]);
  free(m->name);
  free(m->help);
  free(m);
}

void cuzk_prom_registry_destroy(cuzk_prom_registry *r) {
  if (!r) return;
  for (size_t k = 0; k < r->n; k++)
    metric_free(r->metrics[k]);
  free(r->metrics);
  pthread_mutex_destroy(&r->lock);
  free(r);
}

static bool valid_name(const char *s, bool colon) {
  if (!s || !*s) return false;
  for (size_t i = 0; s[i]; i++) {
    char c = s[i];
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (colon && c == ':') ||
              (i > 0 && c >= '0' && c <= '9');
    if (!ok) return false;
  }
  return true;
}

/* Creates a series with the given values (NULL for none); histograms get their buckets. */
static cuzk_prom_series *series_new(cuzk_prom_metric *m, const char *const *values) {
  cuzk_prom_series *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->m = m;
  atomic_init(&s->bits, double_to_bits(0.0));
  for (size_t k = 0; k < m->nlabels; k++) {
    s->values[k] = strdup(values[k]);
    if (!s->values[k]) goto fail;
  }
  if (m->type == CUZK_PROM_HISTOGRAM) {
    s->counts = calloc(m->nbuckets + 1, sizeof *s->counts);
    if (!s->counts) goto fail;
    if (pthread_mutex_init(&s->lock, NULL) != 0) {
      free(s->counts);
      s->counts = NULL;
      goto fail;
    }
  }
  return s;
fail:
  series_free(s);
  return NULL;
}

static bool grow(void **items, size_t *cap, size_t n, size_t size) {
  if (n < *cap) return true;
  size_t c = *cap ? 2 * *cap : 8;
  void *q = realloc(*items, c * size);
  if (!q) return false;
  *items = q;
  *cap = c;
  return true;
}

cuzk_prom_err cuzk_prom_register(cuzk_prom_registry *r, cuzk_prom_type type, const char *name,
                                 const char *help, const char *const *label_names, size_t nlabels,
                                 const double *buckets, size_t nbuckets, cuzk_prom_metric **out) {
  if (out) *out = NULL;
  if (!r || !valid_name(name, true) || (name[0] == '_' && name[1] == '_') || !help ||
      nlabels > CUZK_PROM_MAX_LABELS || (nlabels && !label_names))
    return CUZK_PROM_EINVAL;
  if (type != CUZK_PROM_COUNTER && type != CUZK_PROM_GAUGE && type != CUZK_PROM_HISTOGRAM)
    return CUZK_PROM_EINVAL;
  for (size_t k = 0; k < nlabels; k++) {
    const char *l = label_names[k];
    if (!valid_name(l, false) || (l[0] == '_' && l[1] == '_')) return CUZK_PROM_EINVAL;
    if (type == CUZK_PROM_HISTOGRAM && strcmp(l, "le") == 0) return CUZK_PROM_EINVAL;
    for (size_t j = 0; j < k; j++)
      if (strcmp(label_names[j], l) == 0) return CUZK_PROM_EINVAL;
  }
  if (type == CUZK_PROM_HISTOGRAM) {
    if (!buckets || nbuckets == 0 || nbuckets > CUZK_PROM_MAX_BUCKETS) return CUZK_PROM_EINVAL;
    for (size_t k = 0; k < nbuckets; k++)
      if (!isfinite(buckets[k]) || (k > 0 && !(buckets[k] > buckets[k - 1])))
        return CUZK_PROM_EINVAL;
  } else if (buckets || nbuckets) {
    return CUZK_PROM_EINVAL;
  }

  cuzk_prom_metric *m = calloc(1, sizeof *m);
  if (!m) return CUZK_PROM_ENOMEM;
  m->r = r;
  m->type = type;
  m->name = strdup(name);
  m->help = strdup(help);
  bool ok = m->name && m->help;
  for (size_t k = 0; k < nlabels && ok; k++) {
    m->labels[k] = strdup(label_names[k]);
    m->nlabels = k + 1;
    ok = m->labels[k] != NULL;
  }
  if (nbuckets) memcpy(m->buckets, buckets, nbuckets * sizeof *buckets);
  m->nbuckets = nbuckets;
  if (ok && nlabels == 0) { /* the one series exists from the start */
    ok = grow((void **)&m->series, &m->cap, 0, sizeof *m->series);
    if (ok) ok = (m->series[0] = series_new(m, NULL)) != NULL;
    if (ok) m->n = 1;
  }
  if (!ok) {
    metric_free(m);
    return CUZK_PROM_ENOMEM;
  }

  pthread_mutex_lock(&r->lock);
  cuzk_prom_err e = CUZK_PROM_OK;
  for (size_t k = 0; k < r->n && !e; k++)
    if (strcmp(r->metrics[k]->name, name) == 0) e = CUZK_PROM_EEXIST;
  if (!e && !grow((void **)&r->metrics, &r->cap, r->n, sizeof *r->metrics)) e = CUZK_PROM_ENOMEM;
  if (!e) r->metrics[r->n++] = m;
  pthread_mutex_unlock(&r->lock);
  if (e) {
    metric_free(m);
    return e;
  }
  if (out) *out = m;
  return CUZK_PROM_OK;
}

static int compare_values(const cuzk_prom_metric *m, const cuzk_prom_series *s,
                          const char *const *values) {
  for (size_t k = 0; k < m->nlabels; k++) {
    int c = strcmp(s->values[k], values[k]);
    if (c) return c;
  }
  return 0;
}

cuzk_prom_series *cuzk_prom_series_get(cuzk_prom_metric *m, const char *const *values) {
  if (!m) return NULL;
  if (m->nlabels) {
    if (!values) return NULL;
    for (size_t k = 0; k < m->nlabels; k++)
      if (!values[k]) return NULL;
  }
  pthread_mutex_lock(&m->r->lock);
  size_t lo = 0, hi = m->n; /* binary search for the first series >= values */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (compare_values(m, m->series[mid], values) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  cuzk_prom_series *s = NULL;
  if (lo < m->n && compare_values(m, m->series[lo], values) == 0) {
    s = m->series[lo];
  } else if (grow((void **)&m->series, &m->cap, m->n, sizeof *m->series) &&
             (s = series_new(m, values)) != NULL) {
    memmove(&m->series[lo + 1], &m->series[lo], (m->n - lo) * sizeof *m->series);
    m->series[lo] = s;
    m->n++;
  }
  pthread_mutex_unlock(&m->r->lock);
  return s;
}

static void atomic_add_double(_Atomic uint64_t *a, double v) {
  uint64_t old = atomic_load_explicit(a, memory_order_relaxed);
  while (!atomic_compare_exchange_weak_explicit(a, &old, double_to_bits(bits_to_double(old) + v),
                                                memory_order_relaxed, memory_order_relaxed)) {
  }
}

void cuzk_prom_add(cuzk_prom_series *s, double v) {
  if (!s) return;
  if (s->m->type == CUZK_PROM_HISTOGRAM) abort();
  if (s->m->type == CUZK_PROM_COUNTER && !(v >= 0)) return;
  atomic_add_double(&s->bits, v);
}

void cuzk_prom_inc(cuzk_prom_series *s) { cuzk_prom_add(s, 1.0); }

void cuzk_prom_set(cuzk_prom_series *s, double v) {
  if (!s) return;
  if (s->m->type != CUZK_PROM_GAUGE) abort();
  atomic_store_explicit(&s->bits, double_to_bits(v), memory_order_relaxed);
}

void cuzk_prom_observe(cuzk_prom_series *s, double v) {
  if (!s) return;
  if (s->m->type != CUZK_PROM_HISTOGRAM) abort();
  size_t b = 0; /* first bucket with v <= bound; nbuckets = the +Inf bucket (NaN lands there) */
  while (b < s->m->nbuckets && !(v <= s->m->buckets[b]))
    b++;
  pthread_mutex_lock(&s->lock);
  s->counts[b]++;
  s->sum += v;
  s->count++;
  pthread_mutex_unlock(&s->lock);
}

double cuzk_prom_value(const cuzk_prom_series *s) {
  if (!s) return 0;
  if (s->m->type == CUZK_PROM_HISTOGRAM) {
    pthread_mutex_lock((pthread_mutex_t *)&s->lock);
    double c = (double)s->count;
    pthread_mutex_unlock((pthread_mutex_t *)&s->lock);
    return c;
  }
  return bits_to_double(atomic_load_explicit(&s->bits, memory_order_relaxed));
}

/* ---- rendering ---------------------------------------------------------------------------- */

typedef struct {
  char *p;
  size_t n, cap;
  bool oom;
} text;

static void put(text *t, const char *s, size_t n) {
  if (t->oom) return;
  if (t->n + n + 1 > t->cap) {
    size_t cap = t->cap ? t->cap : 1024;
    while (cap < t->n + n + 1)
      cap *= 2;
    char *q = realloc(t->p, cap);
    if (!q) {
      t->oom = true;
      return;
    }
    t->p = q;
    t->cap = cap;
  }
  memcpy(t->p + t->n, s, n);
  t->n += n;
  t->p[t->n] = 0;
}

static void puts_(text *t, const char *s) { put(t, s, strlen(s)); }

/* Escapes \ and newline, and " too when quote is set (label values); HELP leaves " alone. */
static void put_escaped(text *t, const char *s, bool quote) {
  for (; *s; s++) {
    if (*s == '\\')
      put(t, "\\\\", 2);
    else if (*s == '\n')
      put(t, "\\n", 2);
    else if (quote && *s == '"')
      put(t, "\\\"", 2);
    else
      put(t, s, 1);
  }
}

static void format_double(char buf[40], double v) {
  if (isnan(v)) {
    strcpy(buf, "NaN");
  } else if (isinf(v)) {
    strcpy(buf, v > 0 ? "+Inf" : "-Inf");
  } else {
    snprintf(buf, 40, "%.15g", v);
    if (strtod(buf, NULL) != v) snprintf(buf, 40, "%.17g", v);
  }
}

static void put_double(text *t, double v) {
  char buf[40];
  format_double(buf, v);
  puts_(t, buf);
}

static void put_u64(text *t, uint64_t v) {
  char buf[24];
  snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
  puts_(t, buf);
}

/* name{labels...[,le="x"]} — the braces are left out when there is nothing to put in them. */
static void put_series_name(text *t, const cuzk_prom_metric *m, const char *suffix,
                            const cuzk_prom_series *s, const char *le) {
  puts_(t, m->name);
  puts_(t, suffix);
  if (m->nlabels == 0 && !le) {
    put(t, " ", 1);
    return;
  }
  put(t, "{", 1);
  for (size_t k = 0; k < m->nlabels; k++) {
    if (k) put(t, ",", 1);
    puts_(t, m->labels[k]);
    put(t, "=\"", 2);
    put_escaped(t, s->values[k], true);
    put(t, "\"", 1);
  }
  if (le) {
    if (m->nlabels) put(t, ",", 1);
    put(t, "le=\"", 4);
    puts_(t, le);
    put(t, "\"", 1);
  }
  put(t, "} ", 2);
}

static void render_histogram(text *t, const cuzk_prom_metric *m, cuzk_prom_series *s) {
  uint64_t counts[CUZK_PROM_MAX_BUCKETS + 1];
  pthread_mutex_lock(&s->lock);
  memcpy(counts, s->counts, (m->nbuckets + 1) * sizeof *counts);
  double sum = s->sum;
  uint64_t count = s->count;
  pthread_mutex_unlock(&s->lock);
  uint64_t cumulative = 0;
  for (size_t b = 0; b < m->nbuckets; b++) {
    char le[40];
    format_double(le, m->buckets[b]);
    cumulative += counts[b];
    put_series_name(t, m, "_bucket", s, le);
    put_u64(t, cumulative);
    put(t, "\n", 1);
  }
  put_series_name(t, m, "_bucket", s, "+Inf");
  put_u64(t, count);
  put(t, "\n", 1);
  put_series_name(t, m, "_sum", s, NULL);
  put_double(t, sum);
  put(t, "\n", 1);
  put_series_name(t, m, "_count", s, NULL);
  put_u64(t, count);
  put(t, "\n", 1);
}

char *cuzk_prom_render(cuzk_prom_registry *r, size_t *len) {
  static const char *const type_names[] = {"counter", "gauge", "histogram"};
  text t = {0};
  put(&t, "", 0); /* an empty registry renders as "" */
  pthread_mutex_lock(&r->lock);
  for (size_t k = 0; k < r->n; k++) {
    const cuzk_prom_metric *m = r->metrics[k];
    if (m->n == 0) continue;
    puts_(&t, "# HELP ");
    puts_(&t, m->name);
    put(&t, " ", 1);
    put_escaped(&t, m->help, false);
    puts_(&t, "\n# TYPE ");
    puts_(&t, m->name);
    put(&t, " ", 1);
    puts_(&t, type_names[m->type]);
    put(&t, "\n", 1);
    for (size_t j = 0; j < m->n; j++) {
      cuzk_prom_series *s = m->series[j];
      if (m->type == CUZK_PROM_HISTOGRAM) {
        render_histogram(&t, m, s);
      } else {
        put_series_name(&t, m, "", s, NULL);
        put_double(&t, bits_to_double(atomic_load_explicit(&s->bits, memory_order_relaxed)));
        put(&t, "\n", 1);
      }
    }
  }
  pthread_mutex_unlock(&r->lock);
  if (t.oom) {
    free(t.p);
    return NULL;
  }
  if (len) *len = t.n;
  return t.p;
}
