/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Worker pool tests: parallel_for visits every index exactly once and matches the sequential
 * result over many sizes, grains and caps; max_workers and the pool size bound the number of
 * threads inside fn, also with several submitters at once; concurrent top-level jobs share the
 * pool; nested parallel_for and task groups complete; task groups past the queue capacity; a
 * pool of 1 runs inline; bad thread counts are rejected.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"
#include "cuzk/util/pool.h"
#include "util/pool_impl.h"

static void sleep_us(long us) {
  struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
  nanosleep(&ts, NULL);
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static cuzk_pool *make_pool(unsigned n) {
  cuzk_pool *p = NULL;
  cuzk_pool_err e = cuzk_pool_create(&p, n);
  CHECK_MSG(e == CUZK_POOL_OK && p, "create(%u): %s", n, cuzk_pool_strerror(e));
  if (!p) exit(1);
  return p;
}

/* Threads currently inside a region, and the most ever seen there at once. */
typedef struct {
  atomic_uint cur, max;
} conc;

static void conc_enter(conc *c) {
  unsigned now = atomic_fetch_add(&c->cur, 1) + 1;
  unsigned m = atomic_load(&c->max);
  while (now > m && !atomic_compare_exchange_weak(&c->max, &m, now)) {
  }
}

static void conc_leave(conc *c) { atomic_fetch_sub(&c->cur, 1); }

static void conc_reset(conc *c) {
  atomic_store(&c->cur, 0);
  atomic_store(&c->max, 0);
}

/* ---- argument checks ----------------------------------------------------------------------- */

static void sum_noop(void *ctx, size_t b, size_t e) {
  atomic_fetch_add((atomic_size_t *)ctx, e - b);
}

static void test_create_args(void) {
  cuzk_pool *p = (cuzk_pool *)&p;
  CHECK(cuzk_pool_create(&p, 0) == CUZK_POOL_EINVAL && p == NULL);
  p = (cuzk_pool *)&p;
  CHECK(cuzk_pool_create(&p, 1025) == CUZK_POOL_EINVAL && p == NULL);
  CHECK(cuzk_pool_create(&p, 100000) == CUZK_POOL_EINVAL && p == NULL);
  CHECK(cuzk_pool_create(NULL, 4) == CUZK_POOL_EINVAL);
  CHECK(cuzk_pool_threads(NULL) == 1);

  const char *msgs[] = {cuzk_pool_strerror(CUZK_POOL_OK), cuzk_pool_strerror(CUZK_POOL_EINVAL),
                        cuzk_pool_strerror(CUZK_POOL_ENOMEM), cuzk_pool_strerror(CUZK_POOL_ETHREAD),
                        cuzk_pool_strerror((cuzk_pool_err)99)};
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < i; j++)
      CHECK(msgs[i] && msgs[j] && strcmp(msgs[i], msgs[j]) != 0);

  /* The largest pool allowed is made, runs work, and joins. */
  p = make_pool(1024);
  CHECK(cuzk_pool_threads(p) == 1024);
  atomic_size_t total = 0;
  cuzk_parallel_for(p, 100000, 0, sum_noop, &total, 0);
  CHECK(atomic_load(&total) == 100000);
  cuzk_pool_destroy(p);
  cuzk_pool_destroy(NULL);
}

/* ---- parallel_for results ------------------------------------------------------------------ */

static uint64_t f_of(size_t i) { return (uint64_t)i * 0x9e3779b97f4a7c15ull ^ (uint64_t)i >> 3; }

typedef struct {
  uint64_t *out;
  atomic_uchar *count;
  atomic_uint_fast64_t sum;
  size_t n, max_chunk;
  atomic_uint bad_chunks;
} range_ctx;

static void range_fn(void *vctx, size_t b, size_t e) {
  range_ctx *c = vctx;
  if (!(b < e && e <= c->n && e - b <= c->max_chunk)) atomic_fetch_add(&c->bad_chunks, 1);
  uint64_t s = 0;
  for (size_t i = b; i < e && i < c->n; i++) {
    c->out[i] = f_of(i);
    atomic_fetch_add_explicit(&c->count[i], 1, memory_order_relaxed);
    s += f_of(i);
  }
  atomic_fetch_add(&c->sum, s);
}

static void check_range(cuzk_pool *p, size_t n, size_t grain, unsigned max_workers) {
  range_ctx c = {.n = n};
  c.out = calloc(n ? n : 1, sizeof *c.out);
  c.count = calloc(n ? n : 1, sizeof *c.count);
  atomic_init(&c.sum, 0);
  atomic_init(&c.bad_chunks, 0);
  c.max_chunk = grain ? grain : (size_t)-1;
  cuzk_parallel_for(p, n, grain, range_fn, &c, max_workers);

  uint64_t want = 0;
  size_t wrong_count = 0, wrong_out = 0;
  for (size_t i = 0; i < n; i++) {
    want += f_of(i);
    wrong_count += atomic_load(&c.count[i]) != 1;
    wrong_out += c.out[i] != f_of(i);
  }
  CHECK_MSG(wrong_count == 0 && wrong_out == 0 && atomic_load(&c.sum) == want &&
                atomic_load(&c.bad_chunks) == 0,
            "pool %u n %zu grain %zu cap %u: %zu counts != 1, %zu wrong, %u bad chunks",
            cuzk_pool_threads(p), n, grain, max_workers, wrong_count, wrong_out,
            atomic_load(&c.bad_chunks));
  free(c.out);
  free(c.count);
}

static void test_parallel_for_results(void) {
  static const size_t sizes[] = {0, 1, 2, 3, 7, 8, 9, 63, 64, 65, 1000, 4097};
  static const size_t grains[] = {0, 1, 2, 8, 64, 1000};
  static const unsigned caps[] = {0, 1, 2, 3, 1000};
  static const unsigned pools[] = {1, 2, 3, 4};
  cuzk_pool *ps[4];
  for (int k = 0; k < 4; k++)
    ps[k] = make_pool(pools[k]);

  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
    for (size_t g = 0; g < sizeof grains / sizeof *grains; g++)
      for (size_t m = 0; m < sizeof caps / sizeof *caps; m++) {
        check_range(NULL, sizes[s], grains[g], caps[m]);
        for (int k = 0; k < 4; k++)
          check_range(ps[k], sizes[s], grains[g], caps[m]);
      }
  /* grain equal to n, one more, and far more than n: one chunk */
  for (int k = 0; k < 4; k++) {
    check_range(ps[k], 100, 100, 0);
    check_range(ps[k], 100, 101, 0);
    check_range(ps[k], 100, (size_t)-1, 0);
    check_range(ps[k], 100, 99, 0);
  }
  /* 10^6 */
  for (int k = 0; k < 4; k++) {
    check_range(ps[k], 1000000, 0, 0);
    check_range(ps[k], 1000000, 4096, 2);
    check_range(ps[k], 1000000, 1000001, 0);
  }
  check_range(ps[3], 1000000, 1, 0);
  for (int k = 0; k < 4; k++)
    cuzk_pool_destroy(ps[k]);
}

/* ---- caps on concurrency ------------------------------------------------------------------- */

typedef struct {
  conc *global, job;
  long sleep_us;
  atomic_size_t done;
  atomic_uint_fast64_t sum;
} busy_ctx;

static void busy_fn(void *vctx, size_t b, size_t e) {
  busy_ctx *c = vctx;
  if (c->global) conc_enter(c->global);
  conc_enter(&c->job);
  for (size_t i = b; i < e; i++)
    atomic_fetch_add(&c->sum, i);
  sleep_us(c->sleep_us);
  conc_leave(&c->job);
  if (c->global) conc_leave(c->global);
  atomic_fetch_add(&c->done, e - b);
}

static void busy_init(busy_ctx *c, conc *global, long us) {
  c->global = global;
  conc_reset(&c->job);
  c->sleep_us = us;
  atomic_init(&c->done, 0);
  atomic_init(&c->sum, 0);
}

static void test_max_workers(void) {
  cuzk_pool *p = make_pool(4);
  for (unsigned cap = 0; cap <= 6; cap++) {
    busy_ctx c;
    busy_init(&c, NULL, 300);
    size_t n = cap == 0 || cap >= 4 ? 160 : 60;
    cuzk_parallel_for(p, n, 1, busy_fn, &c, cap);
    unsigned limit = cap == 0 || cap > 4 ? 4 : cap;
    unsigned seen = atomic_load(&c.job.max);
    CHECK_MSG(seen <= limit, "cap %u: %u threads inside fn", cap, seen);
    CHECK(atomic_load(&c.done) == n && atomic_load(&c.sum) == n * (n - 1) / 2);
    /* The workers did join: sleeping chunks overlap whatever the core count. */
    if (limit >= 2) CHECK_MSG(seen >= 2, "cap %u: only %u thread ran", cap, seen);
  }
  cuzk_pool_destroy(p);
}

/* Several threads submitting to one pool at once. */
typedef struct {
  cuzk_pool *pool;
  conc *global;
  unsigned cap, rounds;
  size_t n;
  unsigned job_max, bad;
} submitter;

static void *submit_main(void *arg) {
  submitter *s = arg;
  for (unsigned r = 0; r < s->rounds; r++) {
    busy_ctx c;
    busy_init(&c, s->global, 100);
    cuzk_parallel_for(s->pool, s->n, 1, busy_fn, &c, s->cap);
    if (atomic_load(&c.done) != s->n || atomic_load(&c.sum) != s->n * (s->n - 1) / 2) s->bad++;
    unsigned m = atomic_load(&c.job.max);
    if (m > s->job_max) s->job_max = m;
  }
  return NULL;
}

static void run_submitters(unsigned pool_threads, unsigned nsub, const unsigned *caps) {
  cuzk_pool *p = make_pool(pool_threads);
  conc global;
  conc_reset(&global);
  submitter s[4];
  pthread_t t[4];
  for (unsigned i = 0; i < nsub; i++) {
    s[i] = (submitter){.pool = p, .global = &global, .cap = caps[i], .rounds = 6, .n = 48};
    pthread_create(&t[i], NULL, submit_main, &s[i]);
  }
  for (unsigned i = 0; i < nsub; i++)
    pthread_join(t[i], NULL);
  CHECK_MSG(atomic_load(&global.max) <= pool_threads, "pool %u, %u submitters: %u threads in fn",
            pool_threads, nsub, atomic_load(&global.max));
  for (unsigned i = 0; i < nsub; i++) {
    unsigned limit = caps[i] == 0 || caps[i] > pool_threads ? pool_threads : caps[i];
    CHECK_MSG(s[i].bad == 0, "submitter %u: wrong result", i);
    CHECK_MSG(s[i].job_max <= limit, "submitter %u cap %u: %u threads", i, caps[i], s[i].job_max);
  }
  cuzk_pool_destroy(p);
}

static void test_concurrent_submitters(void) {
  run_submitters(4, 2, (const unsigned[]){0, 0});
  run_submitters(4, 2, (const unsigned[]){2, 2});
  run_submitters(4, 2, (const unsigned[]){3, 0});
  run_submitters(4, 2, (const unsigned[]){1, 0});
  run_submitters(2, 3, (const unsigned[]){0, 0, 0});
  run_submitters(3, 4, (const unsigned[]){0, 2, 1, 0});
  run_submitters(1, 2, (const unsigned[]){0, 0});
}

/* A long job A owns the whole pool; jobs B and C submitted while A runs get threads before A
 * ends. */
typedef struct {
  cuzk_pool *pool;
  busy_ctx a;
  atomic_bool a_running;
} share_ctx;

typedef struct {
  share_ctx *s;
  conc job_while_a;
  atomic_size_t done;
} b_ctx;

static void b_fn(void *vctx, size_t b, size_t e) {
  b_ctx *c = vctx;
  bool during_a = atomic_load(&c->s->a_running);
  if (during_a) conc_enter(&c->job_while_a);
  sleep_us(500);
  if (during_a) conc_leave(&c->job_while_a);
  atomic_fetch_add(&c->done, e - b);
}

static void *share_a_main(void *arg) {
  share_ctx *s = arg;
  cuzk_parallel_for(s->pool, 600, 1, busy_fn, &s->a, 0);
  atomic_store(&s->a_running, false);
  return NULL;
}

static void test_shares(void) {
  share_ctx s;
  s.pool = make_pool(4);
  busy_init(&s.a, NULL, 500);
  atomic_init(&s.a_running, true);
  pthread_t ta;
  pthread_create(&ta, NULL, share_a_main, &s);
  /* Wait until A has the whole pool. */
  double t0 = now_s();
  while (atomic_load(&s.a.job.cur) < 4 && now_s() - t0 < 5)
    sleep_us(100);
  CHECK(atomic_load(&s.a.job.cur) == 4);

  b_ctx b;
  conc_reset(&b.job_while_a);
  atomic_init(&b.done, 0);
  b.s = &s;
  cuzk_parallel_for(s.pool, 40, 1, b_fn, &b, 0);
  bool a_running_after_b = atomic_load(&s.a_running);

  /* C, with max_workers 1, finds the pool full: it too gets its share (one thread) at once. */
  b_ctx c;
  conc_reset(&c.job_while_a);
  atomic_init(&c.done, 0);
  c.s = &s;
  cuzk_parallel_for(s.pool, 10, 1, b_fn, &c, 1);
  bool a_running_after_c = atomic_load(&s.a_running);

  pthread_join(ta, NULL);
  CHECK(atomic_load(&b.done) == 40 && atomic_load(&c.done) == 10 && atomic_load(&s.a.done) == 600);
  /* Water-filling gives B 2 of the 4 threads while A runs; A's extra threads leave after their
   * current chunk. B and C were done while A (150+ ms of work) was still running. */
  CHECK(a_running_after_b && a_running_after_c);
  CHECK_MSG(atomic_load(&b.job_while_a.max) == 2, "B had %u threads while A ran",
            atomic_load(&b.job_while_a.max));
  CHECK_MSG(atomic_load(&c.job_while_a.max) == 1, "C had %u threads while A ran",
            atomic_load(&c.job_while_a.max));
  cuzk_pool_destroy(s.pool);
}

/* ---- nesting ------------------------------------------------------------------------------- */

typedef struct {
  cuzk_pool *pool;
  uint32_t *out;
  size_t inner;
  unsigned inner_cap;
  atomic_uint tasks;
} nest_ctx;

typedef struct {
  nest_ctx *c;
  size_t o;
} inner_ctx;

static void inner_fn(void *vctx, size_t b, size_t e) {
  inner_ctx *ic = vctx;
  for (size_t i = b; i < e; i++)
    ic->c->out[ic->o * ic->c->inner + i] += (uint32_t)(ic->o * 7 + i);
}

static void count_task(void *arg) { atomic_fetch_add((atomic_uint *)arg, 1); }

static void outer_fn(void *vctx, size_t b, size_t e) {
  nest_ctx *c = vctx;
  for (size_t o = b; o < e; o++) {
    inner_ctx ic = {c, o};
    cuzk_parallel_for(c->pool, c->inner, 16, inner_fn, &ic, c->inner_cap);
    cuzk_task_group *g = cuzk_task_group_begin(c->pool);
    for (int t = 0; t < 10; t++)
      cuzk_task_spawn(g, count_task, &c->tasks);
    cuzk_task_group_wait(g);
  }
}

static void test_nested(void) {
  for (unsigned nt = 1; nt <= 4; nt++) {
    cuzk_pool *p = make_pool(nt);
    for (unsigned oc = 0; oc <= 2; oc++) {
      nest_ctx c = {.pool = p, .inner = 1000, .inner_cap = oc == 1 ? 0 : oc};
      size_t outer = 16;
      c.out = calloc(outer * c.inner, sizeof *c.out);
      atomic_init(&c.tasks, 0);
      cuzk_parallel_for(p, outer, 1, outer_fn, &c, oc);
      size_t wrong = 0;
      for (size_t o = 0; o < outer; o++)
        for (size_t i = 0; i < c.inner; i++)
          wrong += c.out[o * c.inner + i] != o * 7 + i;
      CHECK_MSG(wrong == 0 && atomic_load(&c.tasks) == outer * 10,
                "pool %u outer cap %u: %zu wrong, %u tasks", nt, oc, wrong, atomic_load(&c.tasks));
      free(c.out);
    }
    cuzk_pool_destroy(p);
  }
}

/* parallel_for nested `depth` levels deep, 4 ways each: 4^depth leaves. */
typedef struct {
  cuzk_pool *pool;
  atomic_uint leaves;
} deep_ctx;

typedef struct {
  deep_ctx *d;
  int depth;
} level_ctx;

static void level_fn(void *vctx, size_t b, size_t e) {
  level_ctx *l = vctx;
  for (size_t i = b; i < e; i++) {
    if (l->depth == 0) {
      atomic_fetch_add(&l->d->leaves, 1);
    } else {
      level_ctx sub = {l->d, l->depth - 1};
      cuzk_parallel_for(l->d->pool, 4, 1, level_fn, &sub, 0);
    }
  }
}

/* Fibonacci by task groups: every call spawns two subtasks in a new group and waits. */
typedef struct {
  cuzk_pool *pool;
  unsigned n;
  uint64_t result;
} fib_arg;

static void fib_task(void *arg) {
  fib_arg *a = arg;
  if (a->n < 2) {
    a->result = a->n;
    return;
  }
  fib_arg x = {a->pool, a->n - 1, 0}, y = {a->pool, a->n - 2, 0};
  cuzk_task_group *g = cuzk_task_group_begin(a->pool);
  cuzk_task_spawn(g, fib_task, &x);
  cuzk_task_spawn(g, fib_task, &y);
  cuzk_task_group_wait(g);
  a->result = x.result + y.result;
}

static void test_deep_nesting(void) {
  for (unsigned nt = 1; nt <= 4; nt += 1) {
    cuzk_pool *p = make_pool(nt);
    deep_ctx d = {.pool = p};
    atomic_init(&d.leaves, 0);
    level_ctx top = {&d, 4};
    cuzk_parallel_for(p, 4, 1, level_fn, &top, 0);
    CHECK_MSG(atomic_load(&d.leaves) == 1024, "pool %u: %u leaves", nt, atomic_load(&d.leaves));

    fib_arg f = {p, 16, 0};
    fib_task(&f);
    CHECK_MSG(f.result == 987, "pool %u: fib(16) = %llu", nt, (unsigned long long)f.result);
    cuzk_pool_destroy(p);
  }
}

/* ---- task groups ----------------------------------------------------------------------------- */

typedef struct {
  atomic_uchar *count;
  atomic_uint_fast64_t sum;
  pthread_t owner;
  atomic_bool owner_waiting;
  atomic_uint inline_runs;
} tg_ctx;

typedef struct {
  tg_ctx *c;
  size_t i;
} tg_item;

static void tg_task(void *arg) {
  tg_item *it = arg;
  atomic_fetch_add(&it->c->count[it->i], 1);
  atomic_fetch_add(&it->c->sum, it->i);
  if (pthread_equal(pthread_self(), it->c->owner) && !atomic_load(&it->c->owner_waiting))
    atomic_fetch_add(&it->c->inline_runs, 1);
}

static void tg_init(tg_ctx *c, size_t n) {
  c->count = calloc(n, sizeof *c->count);
  atomic_init(&c->sum, 0);
  c->owner = pthread_self();
  atomic_init(&c->owner_waiting, false);
  atomic_init(&c->inline_runs, 0);
}

static size_t tg_miscounted(tg_ctx *c, size_t n) {
  size_t bad = 0;
  for (size_t i = 0; i < n; i++)
    bad += atomic_load(&c->count[i]) != 1;
  return bad + (atomic_load(&c->sum) != n * (n - 1) / 2);
}

static void test_task_groups(void) {
  const size_t n = 5000;
  tg_item *items = malloc(n * sizeof *items);
  for (unsigned nt = 1; nt <= 4; nt++) {
    cuzk_pool *p = make_pool(nt);
    for (int rep = 0; rep < 3; rep++) {
      tg_ctx c;
      tg_init(&c, n);
      cuzk_task_group *g = cuzk_task_group_begin(p);
      CHECK(g != NULL);
      for (size_t i = 0; i < n; i++) {
        items[i] = (tg_item){&c, i};
        cuzk_task_spawn(g, tg_task, &items[i]);
      }
      atomic_store(&c.owner_waiting, true);
      cuzk_task_group_wait(g);
      CHECK_MSG(tg_miscounted(&c, n) == 0, "pool %u: tasks miscounted", nt);
      /* A pool of 1 has no workers: spawn runs each task at once. */
      if (nt == 1) CHECK(atomic_load(&c.inline_runs) == n);
      free(c.count);
    }
    /* An empty group. */
    cuzk_task_group_wait(cuzk_task_group_begin(p));
    cuzk_pool_destroy(p);
  }
  /* No pool, and the NULL group of a failed begin: inline. */
  tg_ctx c;
  tg_init(&c, 3);
  cuzk_task_group *g = cuzk_task_group_begin(NULL);
  for (size_t i = 0; i < 2; i++) {
    items[i] = (tg_item){&c, i};
    cuzk_task_spawn(g, tg_task, &items[i]);
  }
  items[2] = (tg_item){&c, 2};
  cuzk_task_spawn(NULL, tg_task, &items[2]);
  CHECK(atomic_load(&c.inline_runs) == 3);
  cuzk_task_group_wait(g);
  cuzk_task_group_wait(NULL);
  CHECK(tg_miscounted(&c, 3) == 0);
  free(c.count);
  free(items);
}

/* The one worker of a pool of 2 is held in a task while the owner spawns past the queue: the
 * first CUZK_TASK_QUEUE_CAP tasks queue, every later one runs inline in spawn. */
typedef struct {
  atomic_bool started, release;
} blocker_ctx;

static void blocker_task(void *arg) {
  blocker_ctx *b = arg;
  atomic_store(&b->started, true);
  double t0 = now_s();
  while (!atomic_load(&b->release) && now_s() - t0 < 10)
    sleep_us(50);
}

static void test_queue_overflow(void) {
  cuzk_pool *p = make_pool(2);
  const size_t extra = 700, n = CUZK_TASK_QUEUE_CAP + extra;
  tg_item *items = malloc(n * sizeof *items);
  tg_ctx c;
  tg_init(&c, n);
  blocker_ctx b;
  atomic_init(&b.started, false);
  atomic_init(&b.release, false);

  cuzk_task_group *g = cuzk_task_group_begin(p);
  cuzk_task_spawn(g, blocker_task, &b);
  double t0 = now_s();
  while (!atomic_load(&b.started) && now_s() - t0 < 10)
    sleep_us(50);
  CHECK(atomic_load(&b.started));
  for (size_t i = 0; i < n; i++) {
    items[i] = (tg_item){&c, i};
    cuzk_task_spawn(g, tg_task, &items[i]);
  }
  CHECK_MSG(atomic_load(&c.inline_runs) == extra, "%u tasks ran inline, want %zu",
            atomic_load(&c.inline_runs), extra);
  atomic_store(&b.release, true);
  atomic_store(&c.owner_waiting, true);
  cuzk_task_group_wait(g);
  CHECK(tg_miscounted(&c, n) == 0);
  free(c.count);
  free(items);
  cuzk_pool_destroy(p);
}

/* ---- a pool of 1, lifetime, churn ---------------------------------------------------------- */

typedef struct {
  pthread_t caller;
  size_t next;
  unsigned off_thread, out_of_order;
} inline_ctx;

static void inline_fn(void *vctx, size_t b, size_t e) {
  inline_ctx *c = vctx;
  c->off_thread += !pthread_equal(pthread_self(), c->caller);
  c->out_of_order += b != c->next;
  c->next = e;
}

static void test_inline(void) {
  cuzk_pool *p = make_pool(1);
  CHECK(cuzk_pool_threads(p) == 1);
  for (size_t grain = 0; grain <= 10; grain += 5) {
    inline_ctx c = {.caller = pthread_self()};
    cuzk_parallel_for(p, 1000, grain, inline_fn, &c, 0);
    CHECK(c.off_thread == 0 && c.out_of_order == 0 && c.next == 1000);
    inline_ctx d = {.caller = pthread_self()};
    cuzk_parallel_for(NULL, 1000, grain, inline_fn, &d, 0);
    CHECK(d.off_thread == 0 && d.out_of_order == 0 && d.next == 1000);
  }
  cuzk_pool_destroy(p);
  /* max_workers = 1 on a larger pool also runs on the caller, in order. */
  p = make_pool(4);
  inline_ctx c = {.caller = pthread_self()};
  cuzk_parallel_for(p, 1000, 7, inline_fn, &c, 1);
  CHECK(c.off_thread == 0 && c.out_of_order == 0 && c.next == 1000);
  cuzk_pool_destroy(p);
}

static void test_lifetime_and_churn(void) {
  for (int i = 0; i < 30; i++) {
    cuzk_pool *p = make_pool(1 + (unsigned)i % 6);
    if (i % 2) {
      atomic_size_t total = 0;
      cuzk_parallel_for(p, 1000, 0, sum_noop, &total, 0);
      CHECK(atomic_load(&total) == 1000);
    }
    cuzk_pool_destroy(p); /* also right after create, workers maybe not yet started */
  }
  /* Many small jobs back to back: exercises wake-ups, spinning and job removal. */
  cuzk_pool *p = make_pool(4);
  size_t bad = 0;
  for (int it = 0; it < 3000; it++) {
    atomic_size_t total = 0;
    size_t n = 1 + (size_t)it % 97;
    cuzk_parallel_for(p, n, (size_t)it % 3, sum_noop, &total, (unsigned)it % 5);
    bad += atomic_load(&total) != n;
    if (it % 10 == 0) {
      atomic_uint cnt = 0;
      cuzk_task_group *g = cuzk_task_group_begin(p);
      for (int t = 0; t < 8; t++)
        cuzk_task_spawn(g, count_task, &cnt);
      cuzk_task_group_wait(g);
      bad += atomic_load(&cnt) != 8;
    }
  }
  CHECK_MSG(bad == 0, "%zu small jobs went wrong", bad);
  cuzk_pool_destroy(p);
}

/* ---- priorities ---------------------------------------------------------------------------- */
/* Low-priority work L (1 ms chunks, or an MSM-like tile loop that calls the yield point) runs on
 * a pool of 2; high-priority work H (2 chunks of 20 ms that wait for each other) arrives on the
 * main thread. H must get both threads at once, no chunk or tile of L may start while both H
 * chunks run (L only takes back a slot an H chunk has left), and L must finish with every index
 * done once. */
typedef struct {
  conc in;
  _Atomic int both;      /* both chunks were inside at once */
  _Atomic long first_us; /* when the first chunk entered, microseconds after t0_us */
  long t0_us;
} high_ctx;

typedef struct {
  cuzk_pool *p;
  bool tiles; /* one chunk per slot, looping over tiles with yield points */
  size_t n;
  _Atomic size_t done, sum, started;
  high_ctx *h;
  _Atomic size_t during_high; /* L pieces started while both H chunks ran */
  _Atomic size_t next_tile;
} low_ctx;

static void low_piece(low_ctx *c, size_t i) {
  if (atomic_load(&c->h->in.cur) == 2) atomic_fetch_add(&c->during_high, 1);
  atomic_fetch_add(&c->started, 1);
  sleep_us(1000);
  atomic_fetch_add(&c->sum, i);
  atomic_fetch_add(&c->done, 1);
}

static void low_fn(void *vctx, size_t b, size_t e) {
  low_ctx *c = vctx;
  if (!c->tiles) {
    for (size_t i = b; i < e; i++)
      low_piece(c, i);
    return;
  }
  for (size_t t; (t = atomic_fetch_add(&c->next_tile, 1)) < c->n;) {
    low_piece(c, t);
    cuzk_pool_yield_point(c->p);
  }
}

static void *low_main(void *arg) {
  low_ctx *c = arg;
  cuzk_pool_set_priority(0);
  if (c->tiles)
    cuzk_parallel_for(c->p, 2, 1, low_fn, c, 2);
  else
    cuzk_parallel_for(c->p, c->n, 1, low_fn, c, 0);
  return NULL;
}

static void high_fn(void *vctx, size_t b, size_t e) {
  (void)b, (void)e;
  high_ctx *h = vctx;
  conc_enter(&h->in);
  long zero = 0;
  atomic_compare_exchange_strong(&h->first_us, &zero, (long)(now_s() * 1e6) - h->t0_us + 1);
  double t0 = now_s();
  while (atomic_load(&h->in.max) < 2 && now_s() - t0 < 0.3)
    sleep_us(100);
  if (atomic_load(&h->in.max) >= 2) atomic_store(&h->both, 1);
  sleep_us(20000);
  conc_leave(&h->in);
}

static void test_priority(bool tiles) {
  high_ctx h;
  conc_reset(&h.in);
  atomic_init(&h.both, 0);
  low_ctx c = {.tiles = tiles, .n = 1000, .h = &h}; /* ~0.5 s: more than H waits for a thread */
  c.p = make_pool(2);
  pthread_t t;
  CHECK(pthread_create(&t, NULL, low_main, &c) == 0);
  double t0 = now_s();
  while (atomic_load(&c.started) < 20 && now_s() - t0 < 10)
    sleep_us(200);
  cuzk_pool_set_priority(1);
  atomic_init(&h.first_us, 0);
  h.t0_us = (long)(now_s() * 1e6);
  cuzk_parallel_for(c.p, 2, 1, high_fn, &h, 0);
  cuzk_pool_set_priority(0);
  pthread_join(t, NULL);
  CHECK_MSG(atomic_load(&h.both), "%s: H never had both threads", tiles ? "tiles" : "chunks");
  /* L's pieces last 1 ms: H starts at once, not when L is done (~0.4 s later) */
  CHECK_MSG(atomic_load(&h.first_us) < 100000, "%s: H started after %ld us",
            tiles ? "tiles" : "chunks", atomic_load(&h.first_us));
  CHECK_MSG(atomic_load(&c.during_high) == 0, "%s: %zu pieces of L started while H ran",
            tiles ? "tiles" : "chunks", atomic_load(&c.during_high));
  CHECK(atomic_load(&c.done) == c.n && atomic_load(&c.sum) == c.n * (c.n - 1) / 2);
  cuzk_pool_destroy(c.p);
}

int main(void) {
  double t0 = now_s();
  test_create_args();
  test_parallel_for_results();
  test_max_workers();
  test_concurrent_submitters();
  test_shares();
  test_nested();
  test_deep_nesting();
  test_task_groups();
  test_queue_overflow();
  test_inline();
  test_lifetime_and_churn();
  test_priority(false);
  test_priority(true);
  printf("test_pool: %.2f s\n", now_s() - t0);
  return check_summary("test_pool");
}
