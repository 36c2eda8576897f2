/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The Prometheus registry (include/cuzk/util/prom.h): exact text format 0.0.4 for a counter, a
 * gauge and a histogram with labels (escaping, sorted series, le buckets with +Inf, _sum, _count),
 * the registration checks, and concurrent updates from threads that add up exactly. */
#define _POSIX_C_SOURCE 200809L
#include "cuzk/util/prom.h"

#include "check.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_text(void) {
  cuzk_prom_registry *r;
  CHECK(cuzk_prom_registry_create(&r) == CUZK_PROM_OK);
  cuzk_prom_metric *done, *queue, *dur, *odd, *empty;
  const char *kind[] = {"proof_kind"};
  const char *two[] = {"method", "code"};
  const double buckets[] = {0.5, 1, 2.5};
  CHECK(cuzk_prom_register(r, CUZK_PROM_COUNTER, "cuzk_proofs_completed",
                           "Per proof-kind completions", kind, 1, NULL, 0, &done) == CUZK_PROM_OK);
  CHECK(cuzk_prom_register(r, CUZK_PROM_GAUGE, "cuzk_queue_depth", "Current queue depth", NULL, 0,
                           NULL, 0, &queue) == CUZK_PROM_OK);
  CHECK(cuzk_prom_register(r, CUZK_PROM_HISTOGRAM, "cuzk_proof_duration_seconds", "Proof duration",
                           kind, 1, buckets, 3, &dur) == CUZK_PROM_OK);
  CHECK(cuzk_prom_register(r, CUZK_PROM_COUNTER, "odd_total",
                           "Help with \\ and\nnewline \"quoted\"", two, 2, NULL, 0,
                           &odd) == CUZK_PROM_OK);
  CHECK(cuzk_prom_register(r, CUZK_PROM_GAUGE, "unused", "No series yet", kind, 1, NULL, 0,
                           &empty) == CUZK_PROM_OK);

  /* series created out of order come out sorted */
  cuzk_prom_series *winning = cuzk_prom_series_get(done, (const char *[]){"winning_post"});
  cuzk_prom_series *porep = cuzk_prom_series_get(done, (const char *[]){"porep_c2"});
  CHECK(cuzk_prom_series_get(done, (const char *[]){"porep_c2"}) == porep);
  cuzk_prom_inc(porep);
  cuzk_prom_inc(porep);
  cuzk_prom_add(winning, 5);
  cuzk_prom_add(winning, -3); /* ignored: counters only go up */
  cuzk_prom_add(winning, NAN);
  cuzk_prom_series *q = cuzk_prom_series_get(queue, NULL);
  cuzk_prom_set(q, 7);
  cuzk_prom_add(q, -2.5);
  cuzk_prom_series *d = cuzk_prom_series_get(dur, (const char *[]){"porep_c2"});
  cuzk_prom_observe(d, 0.25);
  cuzk_prom_observe(d, 1); /* le="1" includes 1 */
  cuzk_prom_observe(d, 2);
  cuzk_prom_observe(d, 100);
  cuzk_prom_series *o = cuzk_prom_series_get(odd, (const char *[]){"a\"b\\c\nd", "0.1"});
  cuzk_prom_add(o, 0.1);
  cuzk_prom_add(o, 1.0 / 3);
  CHECK(cuzk_prom_value(porep) == 2 && cuzk_prom_value(winning) == 5);
  CHECK(cuzk_prom_value(q) == 4.5 && cuzk_prom_value(d) == 4);

  const char *want = "# HELP cuzk_proofs_completed Per proof-kind completions\n"
                     "# TYPE cuzk_proofs_completed counter\n"
                     "cuzk_proofs_completed{proof_kind=\"porep_c2\"} 2\n"
                     "cuzk_proofs_completed{proof_kind=\"winning_post\"} 5\n"
                     "# HELP cuzk_queue_depth Current queue depth\n"
                     "# TYPE cuzk_queue_depth gauge\n"
                     "cuzk_queue_depth 4.5\n"
                     "# HELP cuzk_proof_duration_seconds Proof duration\n"
                     "# TYPE cuzk_proof_duration_seconds histogram\n"
                     "cuzk_proof_duration_seconds_bucket{proof_kind=\"porep_c2\",le=\"0.5\"} 1\n"
                     "cuzk_proof_duration_seconds_bucket{proof_kind=\"porep_c2\",le=\"1\"} 2\n"
                     "cuzk_proof_duration_seconds_bucket{proof_kind=\"porep_c2\",le=\"2.5\"} 3\n"
                     "cuzk_proof_duration_seconds_bucket{proof_kind=\"porep_c2\",le=\"+Inf\"} 4\n"
                     "cuzk_proof_duration_seconds_sum{proof_kind=\"porep_c2\"} 103.25\n"
                     "cuzk_proof_duration_seconds_count{proof_kind=\"porep_c2\"} 4\n"
                     "# HELP odd_total Help with \\\\ and\\nnewline \"quoted\"\n"
                     "# TYPE odd_total counter\n"
                     "odd_total{method=\"a\\\"b\\\\c\\nd\",code=\"0.1\"} 0.43333333333333335\n";
  size_t len = 0;
  char *text = cuzk_prom_render(r, &len);
  CHECK_MSG(text && strcmp(text, want) == 0 && len == strlen(want), "got:\n%s",
            text ? text : "(null)");
  free(text);

  /* special values */
  cuzk_prom_set(q, INFINITY);
  text = cuzk_prom_render(r, NULL);
  CHECK(text && strstr(text, "cuzk_queue_depth +Inf\n"));
  free(text);
  cuzk_prom_set(q, NAN);
  text = cuzk_prom_render(r, NULL);
  CHECK(text && strstr(text, "cuzk_queue_depth NaN\n"));
  free(text);
  cuzk_prom_set(q, 1e21);
  text = cuzk_prom_render(r, NULL);
  CHECK(text && strstr(text, "cuzk_queue_depth 1e+21\n"));
  free(text);
  cuzk_prom_registry_destroy(r);

  /* an empty registry renders as "" */
  CHECK(cuzk_prom_registry_create(&r) == CUZK_PROM_OK);
  text = cuzk_prom_render(r, &len);
  CHECK(text && len == 0 && text[0] == 0);
  free(text);
  cuzk_prom_registry_destroy(r);
}

static void test_register_checks(void) {
  cuzk_prom_registry *r;
  cuzk_prom_metric *m;
  CHECK(cuzk_prom_registry_create(&r) == CUZK_PROM_OK);
  const char *le[] = {"le"};
  const char *dup[] = {"a", "a"};
  const char *bad[] = {"1a"};
  const char *reserved[] = {"__x"};
  const char *five[] = {"a", "b", "c", "d", "e"};
  const double up[] = {1, 2}, down[] = {2, 1}, inf[] = {1, INFINITY};
  CHECK(cuzk_prom_register(r, CUZK_PROM_COUNTER, "ok_total", "h", NULL, 0, NULL, 0, &m) == 0);
  CHECK(cuzk_prom_register(r, CUZK_PROM_GAUGE, "ok_total", "h", NULL, 0, NULL, 0, &m) ==
        CUZK_PROM_EEXIST);
  CHECK(cuzk_prom_register(r, CUZK_PROM_COUNTER, "1bad", "h", NULL, 0, NULL, 0, &m) ==
        CUZK_PROM_EINVAL);
  CHECK(cuzk_prom_register(r, CUZK_PROM_COUNTER, "bad-name", "h", NULL, 0, NULL, 0, &m) ==
        CUZK_PROM_EINVAL);
  CHECK(cuzk_prom_register(r, CUZK_PROM_COUNTER, "ns:ok", "h", NULL, 0, NULL, 0, &m) == 0);
  CHECK(cuzk_prom_register(r, CUZK_PROM_COUNTER, "x1", "h", bad, 1, NULL, 0, &m) ==
        CUZK_PROM_EINVAL);
  CHECK(cuzk_prom_register(r, CUZK_PROM_COUNTER, "x2", "h", reserved, 1, NULL, 0, &m) ==
        CUZK_PROM_EINVAL);
  CHECK(cuzk_prom_register(r, CUZK_PROM_COUNTER, "x3", "h", dup, 2, NULL, 0, &m) ==
        CUZK_PROM_EINVAL);
  CHECK(cuzk_prom_register(r, CUZK_PROM_COUNTER, "x4", "h", five, 5, NULL, 0, &m) ==
        CUZK_PROM_EINVAL);
  CHECK(cuzk_prom_register(r, CUZK_PROM_COUNTER, "x5", "h", le, 1, NULL, 0, &m) == 0);
  CHECK(cuzk_prom_register(r, CUZK_PROM_HISTOGRAM, "h1", "h", le, 1, up, 2, &m) ==
        CUZK_PROM_EINVAL);
  CHECK(cuzk_prom_register(r, CUZK_PROM_HISTOGRAM, "h2", "h", NULL, 0, down, 2, &m) ==
        CUZK_PROM_EINVAL);
  CHECK(cuzk_prom_register(r, CUZK_PROM_HISTOGRAM, "h3", "h", NULL, 0, inf, 2, &m) ==
        CUZK_PROM_EINVAL);
  CHECK(cuzk_prom_register(r, CUZK_PROM_HISTOGRAM, "h4", "h", NULL, 0, NULL, 0, &m) ==
        CUZK_PROM_EINVAL);
  CHECK(cuzk_prom_register(r, CUZK_PROM_GAUGE, "g1", "h", NULL, 0, up, 2, &m) == CUZK_PROM_EINVAL);
  CHECK(cuzk_prom_register(r, CUZK_PROM_HISTOGRAM, "h5", "h", NULL, 0, up, 2, &m) == 0);
  CHECK(cuzk_prom_series_get(m, NULL) != NULL);
  CHECK(cuzk_prom_series_get(NULL, NULL) == NULL);
  cuzk_prom_inc(NULL); /* no-ops */
  cuzk_prom_observe(NULL, 1);
  CHECK(strcmp(cuzk_prom_strerror(CUZK_PROM_EEXIST), "metric already registered") == 0);
  cuzk_prom_registry_destroy(r);
}

enum { THREADS = 8, ITERS = 50000 };

typedef struct {
  cuzk_prom_metric *counter, *gauge, *hist, *labelled;
  int id;
} worker_arg;

static void *worker(void *p) {
  worker_arg *a = p;
  cuzk_prom_series *c = cuzk_prom_series_get(a->counter, NULL);
  cuzk_prom_series *g = cuzk_prom_series_get(a->gauge, NULL);
  cuzk_prom_series *h = cuzk_prom_series_get(a->hist, NULL);
  char name[16];
  for (int i = 0; i < ITERS; i++) {
    cuzk_prom_inc(c);
    cuzk_prom_add(g, (a->id & 1) ? 1 : -1);
    cuzk_prom_observe(h, (double)(i % 4)); /* 0, 1, 2, 3 */
    if (i % 1000 == 0) {
      /* series created concurrently from every thread: 50 distinct values in total */
      snprintf(name, sizeof name, "s%02d", i / 1000);
      cuzk_prom_inc(cuzk_prom_series_get(a->labelled, (const char *[]){name}));
    }
  }
  return NULL;
}

static void test_threads(void) {
  cuzk_prom_registry *r;
  CHECK(cuzk_prom_registry_create(&r) == CUZK_PROM_OK);
  worker_arg base = {0};
  const double b[] = {0, 1, 2};
  CHECK(cuzk_prom_register(r, CUZK_PROM_COUNTER, "c", "c", NULL, 0, NULL, 0, &base.counter) == 0);
  CHECK(cuzk_prom_register(r, CUZK_PROM_GAUGE, "g", "g", NULL, 0, NULL, 0, &base.gauge) == 0);
  CHECK(cuzk_prom_register(r, CUZK_PROM_HISTOGRAM, "h", "h", NULL, 0, b, 3, &base.hist) == 0);
  CHECK(cuzk_prom_register(r, CUZK_PROM_COUNTER, "l", "l", (const char *[]){"k"}, 1, NULL, 0,
                           &base.labelled) == 0);
  pthread_t t[THREADS];
  worker_arg args[THREADS];
  for (int i = 0; i < THREADS; i++) {
    args[i] = base;
    args[i].id = i;
    CHECK(pthread_create(&t[i], NULL, worker, &args[i]) == 0);
  }
  /* render while they run: must not crash or tear */
  for (int i = 0; i < 20; i++)
    free(cuzk_prom_render(r, NULL));
  for (int i = 0; i < THREADS; i++)
    pthread_join(t[i], NULL);
  CHECK(cuzk_prom_value(cuzk_prom_series_get(base.counter, NULL)) == THREADS * ITERS);
  CHECK(cuzk_prom_value(cuzk_prom_series_get(base.gauge, NULL)) == 0);
  CHECK(cuzk_prom_value(cuzk_prom_series_get(base.hist, NULL)) == THREADS * ITERS);
  char *text = cuzk_prom_render(r, NULL);
  char line[128];
  snprintf(line, sizeof line,
           "h_bucket{le=\"0\"} %d\nh_bucket{le=\"1\"} %d\nh_bucket{le=\"2\"} %d\n"
           "h_bucket{le=\"+Inf\"} %d\nh_sum %d\nh_count %d\n",
           THREADS * ITERS / 4, THREADS * ITERS / 2, THREADS * ITERS / 4 * 3, THREADS * ITERS,
           THREADS * ITERS / 4 * 6, THREADS * ITERS);
  CHECK_MSG(text && strstr(text, line), "got:\n%s", text ? text : "(null)");
  CHECK(text && strstr(text, "l{k=\"s00\"} 8\n") && strstr(text, "l{k=\"s49\"} 8\nl") == NULL &&
        strstr(text, "l{k=\"s49\"} 8\n"));
  /* 50 sorted series */
  int n = 0;
  for (const char *p = text; (p = strstr(p, "\nl{k=")); p++)
    n++;
  CHECK(n == 50);
  free(text);
  cuzk_prom_registry_destroy(r);
}

int main(void) {
  test_text();
  test_register_checks();
  test_threads();
  return check_summary("test_prom");
}
