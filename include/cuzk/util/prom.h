/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * A small Prometheus metrics registry: counters, gauges and histograms, each a family with a
 * fixed list of label names (at most CUZK_PROM_MAX_LABELS) and one series per combination of
 * label values. Rendered as the Prometheus text exposition format 0.0.4.
 *
 * Thread safety: registering, looking up series and rendering take the registry's lock; updating
 * a series does not (counters and gauges are atomics, a histogram series has its own lock), so a
 * hot path looks its series up once and keeps the pointer. Series live as long as the registry.
 *
 * Output order is deterministic: families in registration order, series sorted by their label
 * values (byte order, first label first). A family with labels and no series yet is left out; a
 * family without labels always has its one series (starting at 0).
 */
#ifndef CUZK_PROM_H
#define CUZK_PROM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  CUZK_PROM_OK = 0,
  CUZK_PROM_EINVAL, /* bad name, label name, bucket list or argument */
  CUZK_PROM_ENOMEM, /* allocation failed */
  CUZK_PROM_EEXIST  /* a family with this name is already registered */
} cuzk_prom_err;

const char *cuzk_prom_strerror(cuzk_prom_err e);

typedef enum { CUZK_PROM_COUNTER, CUZK_PROM_GAUGE, CUZK_PROM_HISTOGRAM } cuzk_prom_type;

enum { CUZK_PROM_MAX_LABELS = 4, CUZK_PROM_MAX_BUCKETS = 32 };

typedef struct cuzk_prom_registry cuzk_prom_registry;
typedef struct cuzk_prom_metric cuzk_prom_metric; /* a family: name, help, type, label names */
typedef struct cuzk_prom_series cuzk_prom_series; /* one set of label values */

cuzk_prom_err cuzk_prom_registry_create(cuzk_prom_registry **out);
void cuzk_prom_registry_destroy(cuzk_prom_registry *r); /* frees every family and series */

/* Registers a family. name: [a-zA-Z_:][a-zA-Z0-9_:]*; label names: [a-zA-Z_][a-zA-Z0-9_]*, not
 * starting "__", distinct, and not "le" for a histogram. help is any UTF-8 text (escaped on
 * output). buckets (histograms only, else NULL/0): 1..CUZK_PROM_MAX_BUCKETS finite upper bounds,
 * strictly increasing; the +Inf bucket is added on output. Strings are copied. */
cuzk_prom_err cuzk_prom_register(cuzk_prom_registry *r, cuzk_prom_type type, const char *name,
                                 const char *help, const char *const *label_names, size_t nlabels,
                                 const double *buckets, size_t nbuckets, cuzk_prom_metric **out);

/* The series for these label values (exactly the family's label count; NULL when it has none),
 * created at 0 on first use. Values are any UTF-8 text and are copied. NULL only if memory ran
 * out or m is NULL. */
cuzk_prom_series *cuzk_prom_series_get(cuzk_prom_metric *m, const char *const *values);

/* Updates. Counters: inc/add (an add of a negative or NaN amount is ignored: counters only go
 * up). Gauges: inc/add/set. Histograms: observe. Using an update on the wrong type aborts
 * (a programming error). NULL series are ignored, so a failed series_get costs nothing. */
void cuzk_prom_inc(cuzk_prom_series *s);
void cuzk_prom_add(cuzk_prom_series *s, double v);
void cuzk_prom_set(cuzk_prom_series *s, double v);
void cuzk_prom_observe(cuzk_prom_series *s, double v);

/* A counter's or gauge's value; a histogram's observation count. 0 for NULL. */
double cuzk_prom_value(const cuzk_prom_series *s);

/* The whole registry as text format 0.0.4 (serve as "text/plain; version=0.0.4"). Returns a
 * malloc'd NUL-terminated string and its length in *len (if not NULL); NULL if memory ran out. */
char *cuzk_prom_render(cuzk_prom_registry *r, size_t *len);

#ifdef __cplusplus
}
#endif

#endif
