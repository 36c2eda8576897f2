/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The MSM calibration (docs/msm.md "Calibration"):
 *   - a short real calibration (2^10 points, two threads; short because the sanitizer run takes
 *     it on the portable kernels): every measured pick is a bucket method at a window within
 *     three of the model's, the larger sizes left to the model;
 *   - the file: written and read back equal; refused with the line and key named when cut after
 *     any line, a value replaced by garbage, a key repeated or unknown, a line or the file too
 *     long, another version; no file is not an error for use_dir;
 *   - use: a table from another CPU model is refused and the model kept; an accepted one sets the
 *     plans of the sizes, kernel and worker count it was measured for (and no others), never the
 *     MSM's point; NULL brings the model back.
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cuzk/field/field.h"
#include "cuzk/msm/msm.h"
#include "cuzk/msm/msm_calibration.h"
#include "cuzk/util/cpu.h"
#include "cuzk/util/pool.h"

static char dir[64], path[128];
static cuzk_pool *pool;

static void write_text(const char *text) {
  FILE *f = fopen(path, "w");
  CHECK(f && fputs(text, f) >= 0);
  if (f) fclose(f);
}

/* text read back: the error, and a message naming `names` and the file */
static void refused(const char *text, const char *names, const char *what) {
  write_text(text);
  cuzk_msm_calibration c;
  char msg[512] = "";
  cuzk_msm_err e = cuzk_msm_calibration_read(&c, path, msg, sizeof msg);
  CHECK_MSG(e == CUZK_MSM_EFORMAT && strstr(msg, names) && strstr(msg, path),
            "%s: %d, \"%s\" (want %s)", what, e, msg, names);
}

static void read_all(char *buf, size_t len) {
  FILE *f = fopen(path, "r");
  size_t n = f ? fread(buf, 1, len - 1, f) : 0;
  if (f) fclose(f);
  buf[n] = 0;
}

/* The calibration of 2^10 on the pool: picks near the model's, the rest AUTO. */
static void test_calibrate(cuzk_msm_calibration *c) {
  CHECK(cuzk_msm_calibrate(c, pool, 10, NULL) == CUZK_MSM_OK);
  char here[128];
  cuzk_cpu_model(here, sizeof here);
  CHECK(!strcmp(c->cpu, here) && c->threads == 2 && c->ifma == cuzk_field_ifma_enabled());
  cuzk_msm_opts o = {.pool = pool};
  for (int g = 0; g < 2; g++)
    for (unsigned i = 0; i < CUZK_MSM_CAL_SIZES; i++) {
      const cuzk_msm_cal_pick *p = &(g ? c->g2 : c->g1)[i];
      size_t n = (size_t)1 << (CUZK_MSM_CAL_MIN_LOG + 2 * i);
      if (i >= 1) {
        CHECK(p->method == CUZK_MSM_AUTO && p->window == 0);
        continue;
      }
      cuzk_msm_opts a = {.pool = pool, .method = CUZK_MSM_AFFINE};
      cuzk_msm_plan_info model = g ? cuzk_g2_msm_plan(n, &a) : cuzk_g1_msm_plan(n, &a);
      CHECK_MSG((p->method == CUZK_MSM_AFFINE || p->method == CUZK_MSM_XYZZ) &&
                    p->window + 3 >= model.window && p->window <= model.window + 3,
                "g%d 2^%u: %d %u (model %u)", g + 1, CUZK_MSM_CAL_MIN_LOG + 2 * i, (int)p->method,
                p->window, model.window);
      CHECK(!(g ? cuzk_g2_msm_plan(n, &o) : cuzk_g1_msm_plan(n, &o)).calibrated);
    }
  /* cancelled before it starts: nothing measured */
  _Atomic int stop = 1;
  cuzk_progress pr = {NULL, NULL, &stop};
  cuzk_msm_calibration x;
  CHECK(cuzk_msm_calibrate(&x, pool, 10, &pr) == CUZK_MSM_ECANCELLED && x.threads == 0);
  CHECK(cuzk_msm_calibrate(&x, pool, 8, NULL) == CUZK_MSM_EINVAL);
}

static void test_file(const cuzk_msm_calibration *good) {
  char msg[512];
  CHECK(cuzk_msm_calibration_write(good, path, msg, sizeof msg) == CUZK_MSM_OK);
  cuzk_msm_calibration back;
  CHECK(cuzk_msm_calibration_read(&back, path, msg, sizeof msg) == CUZK_MSM_OK);
  CHECK(!memcmp(&back, good, sizeof back));
  static char text[8192], cut[8192 + 512];
  read_all(text, sizeof text);
  CHECK(strstr(text, "\ng1.22 auto 0\n") && strstr(text, "\ng2.20 auto 0\n") &&
        !strstr(text, "g2.22"));
  /* cut after every line: the first key left out is named */
  unsigned cuts = 0;
  for (const char *nl = strchr(text, '\n'); nl && nl[1]; nl = strchr(nl + 1, '\n')) {
    const char *next = nl + 1;
    if (next[0] == '#') continue;
    snprintf(cut, sizeof cut, "%.*s", (int)(next - text), text);
    char key[64];
    snprintf(key, sizeof key, "%.*s: missing", (int)strcspn(next, " \n"), next);
    refused(cut, key, "cut");
    cuts++;
  }
  CHECK_MSG(cuts == 4 + 7 + 6, "%u cuts", cuts);
  /* every value replaced by garbage, or left out */
  static const char *const bad[] = {"abc",      "-1",      "0",      "99999999",    "affine 21",
                                    "affine 0", "fast 12", "affine", "affine 12 3", "auto 5"};
  unsigned lines = 0;
  for (const char *ln = text; *ln; ln = strchr(ln, '\n') + 1) {
    size_t len = strcspn(ln, "\n");
    const char *sp = memchr(ln, ' ', len);
    if (ln[0] == '#' || !sp || !strncmp(ln, "cpu ", 4)) continue;
    char key[64];
    snprintf(key, sizeof key, "%.*s", (int)(sp - ln), ln);
    for (size_t b = 0; b < sizeof bad / sizeof *bad; b++) {
      snprintf(cut, sizeof cut, "%.*s%s%s", (int)(sp + 1 - text), text, bad[b], ln + len);
      char want[80];
      snprintf(want, sizeof want, "%s: \"%s\" is not", key, bad[b]);
      refused(cut, want, bad[b]);
    }
    snprintf(cut, sizeof cut, "%.*s%s", (int)(sp - text), text, ln + len); /* no value */
    refused(cut, "key value", "no value");
    lines++;
  }
  CHECK_MSG(lines == 3 + 7 + 6, "%u lines", lines);
  cut[0] = 0;
  /* a line repeated, unknown keys, a long line, a large file, keys out of order, empty */
  static const char *const extra[][2] = {
      {"g1.10 affine 9\n", "g1.10: given twice"},   {"threads 3\n", "threads: given twice"},
      {"g1.11 affine 9\n", "g1.11: unknown key"},   {"g1.24 affine 9\n", "g1.24: unknown key"},
      {"g2.22 affine 9\n", "g2.22: unknown key"},   {"g3.10 affine 9\n", "g3.10: unknown key"},
      {"g1.010 affine 9\n", "g1.010: unknown key"}, {"speed 9\n", "speed: unknown key"}};
  for (size_t i = 0; i < sizeof extra / sizeof *extra; i++) {
    snprintf(cut, sizeof cut, "%s%s", text, extra[i][0]);
    refused(cut, extra[i][1], extra[i][0]);
  }
  snprintf(cut, sizeof cut, "%s# %0300d\n", text, 0);
  refused(cut, "line longer than", "long line");
  char *big = malloc(80000);
  CHECK(big != NULL);
  if (big) {
    size_t o = (size_t)snprintf(big, 80000, "%s", text);
    while (o + 20 < 79000)
      o += (size_t)snprintf(big + o, 80000 - o, "# padding padding\n");
    refused(big, "larger than", "large file");
    free(big);
  }
  refused("cpu x\nversion 1\n", "cpu: the first key must be version", "order");
  refused("", "version: missing", "empty");
  /* no file */
  remove(path);
  CHECK(cuzk_msm_calibration_read(&back, path, msg, sizeof msg) == CUZK_MSM_EIO &&
        errno == ENOENT && strstr(msg, path));
  bool used = true;
  CHECK(cuzk_msm_calibration_use_dir(dir, &used, msg, sizeof msg) == CUZK_MSM_OK && !used);
  CHECK(!cuzk_msm_calibration_in_use());
  CHECK(cuzk_msm_calibration_write(good, "/nonexistent-dir/x.txt", msg, sizeof msg) ==
            CUZK_MSM_EIO &&
        strstr(msg, "/nonexistent-dir/x.txt.tmp"));
}

static void test_use(cuzk_msm_calibration c) {
  char msg[512];
  cuzk_msm_opts two = {.pool = pool}, one = {0};
  size_t n = (size_t)1 << 12;
  cuzk_msm_plan_info p0 = cuzk_g1_msm_plan(n, &two);
  CHECK(p0.method == CUZK_MSM_AFFINE && !p0.calibrated);
  /* 2^12: XYZZ at window 5 (a pick the model never makes), G2 2^14 AFFINE at 9 */
  c.g1[1] = (cuzk_msm_cal_pick){CUZK_MSM_XYZZ, 5};
  c.g2[2] = (cuzk_msm_cal_pick){CUZK_MSM_AFFINE, 9};
  char model[sizeof c.cpu];
  snprintf(model, sizeof model, "%s", c.cpu);
  snprintf(c.cpu, sizeof c.cpu, "Another CPU");
  CHECK(cuzk_msm_calibration_use(&c, msg, sizeof msg) == CUZK_MSM_EOTHERCPU &&
        strstr(msg, "Another CPU"));
  CHECK(!cuzk_msm_calibration_in_use() && !cuzk_g1_msm_plan(n, &two).calibrated);
  snprintf(c.cpu, sizeof c.cpu, "%s", model);
  c.g1[0].window = 30; /* a pick out of range is refused, not used */
  CHECK(cuzk_msm_calibration_use(&c, msg, sizeof msg) == CUZK_MSM_EFORMAT && strstr(msg, "g1.10"));
  c.g1[0].window = 11;
  CHECK(cuzk_msm_calibration_use(&c, msg, sizeof msg) == CUZK_MSM_OK &&
        cuzk_msm_calibration_in_use());
  cuzk_msm_plan_info p = cuzk_g1_msm_plan(n, &two);
  CHECK(p.calibrated && p.method == CUZK_MSM_XYZZ && p.window == 5);
  /* the nearest measured size within a factor of two: 2^11 and 2^13 - 1 take 2^12's, 2^11 - 1
   * takes 2^10's */
  CHECK(cuzk_g1_msm_plan(n / 2, &two).window == 5 && cuzk_g1_msm_plan(2 * n - 1, &two).window == 5);
  p = cuzk_g1_msm_plan(n / 2 - 1, &two);
  CHECK(p.calibrated && p.method == c.g1[0].method && p.window == c.g1[0].window);
  p = cuzk_g2_msm_plan((size_t)1 << 14, &two);
  CHECK(p.calibrated && p.method == CUZK_MSM_AFFINE && p.window == 9);
  /* not for another worker count, an option that forces, sizes past the table, the other kernel */
  CHECK(!cuzk_g1_msm_plan(n, &one).calibrated);
  cuzk_msm_opts forced = {.pool = pool, .window = 12};
  CHECK(!cuzk_g1_msm_plan(n, &forced).calibrated && cuzk_g1_msm_plan(n, &forced).window == 12);
  CHECK(!cuzk_g1_msm_plan((size_t)1 << 24, &two).calibrated);
  CHECK(!cuzk_g1_msm_plan((size_t)1 << 14, &two).calibrated); /* not measured: auto */
  CHECK(!cuzk_g2_msm_plan((size_t)1 << 22, &two).calibrated);
  if (cuzk_field_ifma_supported()) {
    bool was = cuzk_field_ifma_enabled();
    cuzk_field_use_ifma(!was);
    CHECK(!cuzk_g1_msm_plan(n, &two).calibrated);
    cuzk_field_use_ifma(was);
  }
  /* the point is the same under either plan */
  enum { N = 1 << 12 };
  cuzk_g1_affine *b = malloc(N * sizeof *b);
  cuzk_fr *k = malloc(N * sizeof *k);
  CHECK(b && k);
  if (b && k) {
    cuzk_g1 g, q, r1, r2;
    cuzk_g1_generator(&g);
    q = g;
    for (int i = 0; i < N; i++) {
      cuzk_g1_add(&q, &q, &g);
      cuzk_g1_to_affine(&b[i], &q);
      uint64_t x[4] = {0x9e3779b97f4a7c15ULL * (uint64_t)(i + 1), (uint64_t)i, 7, 1};
      CHECK(cuzk_fr_from_canonical(&k[i], x));
    }
    CHECK(cuzk_g1_msm(&r1, b, k, N, &two) == CUZK_MSM_OK);
    CHECK(cuzk_msm_calibration_use(NULL, msg, sizeof msg) == CUZK_MSM_OK);
    CHECK(!cuzk_g1_msm_plan(N, &two).calibrated);
    CHECK(cuzk_g1_msm(&r2, b, k, N, &two) == CUZK_MSM_OK);
    CHECK(cuzk_g1_eq(&r1, &r2));
  }
  free(b);
  free(k);
  cuzk_msm_plan_info p1 = cuzk_g1_msm_plan(n, &two);
  CHECK(p1.method == p0.method && p1.window == p0.window && p1.ranges == p0.ranges);
  /* use_dir reads the file beside the parameters */
  CHECK(cuzk_msm_calibration_write(&c, path, msg, sizeof msg) == CUZK_MSM_OK);
  bool used = false;
  CHECK(cuzk_msm_calibration_use_dir(dir, &used, msg, sizeof msg) == CUZK_MSM_OK && used);
  CHECK(cuzk_g1_msm_plan(n, &two).window == 5);
  cuzk_msm_calibration_use(NULL, msg, sizeof msg);
  remove(path);
}

int main(void) {
  CHECK(cuzk_pool_create(&pool, 2) == CUZK_POOL_OK);
  snprintf(dir, sizeof dir, "/tmp/cuzk-cal-XXXXXX");
  CHECK(mkdtemp(dir) != NULL);
  snprintf(path, sizeof path, "%s/%s", dir, CUZK_MSM_CALIBRATION_FILE);
  cuzk_msm_calibration c;
  test_calibrate(&c);
  test_file(&c);
  test_use(c);
  rmdir(dir);
  cuzk_pool_destroy(pool);
  return check_summary("test_msm_calibration");
}
