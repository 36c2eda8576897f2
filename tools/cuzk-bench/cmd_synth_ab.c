/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * cuzk-bench synth-ab: A/B of a synthesis change. Runs `synth-only` for side A and side B
 * interleaved (A B A B ..., N pairs), each sample in a fresh child process of this executable so
 * that the two sides share no heap, page or allocator state, and prints for every figure the median
 * of each side, the B/A ratio of the medians, the min/max of the per-pair ratios and a verdict that
 * is given only when every pair's ratio lies on the same side of 1 (ab_stats.h).
 *   --counter time       wall / synth seconds (synth-only --perf-json: its min over the child's
 *                        iterations, after --warmup iterations that fault the buffers in)
 *   --counter perf       those plus the per-iteration perf_event counters of the last iteration
 *   --counter callgrind  instructions (Ir) of the whole child under valgrind --tool=callgrind, -i 1
 */
#define _GNU_SOURCE /* mkdtemp, readlink, posix_spawn */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yajl/yajl_tree.h>

#include "ab_plot.h"
#include "ab_stats.h"
#include "cli.h"

extern char **environ;

enum { COUNTER_TIME, COUNTER_PERF, COUNTER_CALLGRIND };
enum { MAX_ARGS = 96, MAX_METRICS = 16, MAX_PAIRS = 1000 };

/* One figure of a sample: "wall", "synth", a perf counter, or "Ir". */
typedef struct {
  char name[32];
  bool lower_is_faster; /* verdict words: "B faster/slower" rather than "B lower/higher" */
  bool seconds;
  double *v[2]; /* [side][pair] */
} metric;

typedef struct {
  int counter;
  const char *exe, *dir;
  const char *shared[MAX_ARGS];
  int nshared;
  char *side_args[2][MAX_ARGS];
  int nside[2];
  const char *side_text[2];
  uint64_t pairs, warmup;
  metric m[MAX_METRICS];
  int nm;
  bool hw_missing; /* --counter perf: the child reported null for some hardware counter */
} ab_run;

static const char *const side_name[2] = {"A", "B"};

/* Splits s on blanks into out[] (pointers into a copy of s); -1 if there are too many words. */
static int split_words(char **out, int max, const char *s, char **copy) {
  *copy = strdup(s);
  if (!*copy) return -1;
  int n = 0;
  for (char *p = strtok(*copy, " \t\n"); p; p = strtok(NULL, " \t\n")) {
    if (n == max) return -1;
    out[n++] = p;
  }
  return n;
}

/* Options that synth-ab sets itself and a side may not change. */
static const char *reserved_option(char *const *w, int n) {
  static const char *const reserved[] = {"-i",     "--iterations", "--perf-json", "--perf",
                                         "--help", "-h",           "--c1"};
  for (int i = 0; i < n; i++)
    for (size_t k = 0; k < sizeof reserved / sizeof reserved[0]; k++)
      if (!strcmp(w[i], reserved[k]) ||
          (reserved[k][1] == '-' && !strncmp(w[i], reserved[k], strlen(reserved[k])) &&
           w[i][strlen(reserved[k])] == '=')) /* --iterations=N too */
        return w[i];
  return NULL;
}

/* Whether an executable `name` is on $PATH. */
static bool on_path(const char *name) {
  const char *path = getenv("PATH");
  if (!path) path = "/usr/bin:/bin";
  while (*path) {
    size_t len = strcspn(path, ":");
    char buf[PATH_MAX];
    if (len && len + strlen(name) + 2 <= sizeof buf) {
      memcpy(buf, path, len);
      buf[len] = '/';
      strcpy(buf + len + 1, name);
      if (access(buf, X_OK) == 0) return true;
    }
    path += len;
    if (*path == ':') path++;
  }
  return false;
}

/* Prints the last part of a child's log to stderr. */
static void print_log_tail(const char *log) {
  uint8_t *data;
  size_t len;
  if (!cli_read_file(log, &data, &len)) return;
  size_t from = len > 3000 ? len - 3000 : 0;
  fprintf(stderr, "---- its output%s ----\n", from ? " (last 3000 bytes)" : "");
  fwrite(data + from, 1, len - from, stderr);
  if (len && data[len - 1] != '\n') fputc('\n', stderr);
  fprintf(stderr, "----\n");
  free(data);
}

/* Runs argv (argv[0] looked up on $PATH) with stdout and stderr to `log`; returns its exit status,
 * 128 + signal when killed, or -1 if it could not be started. */
static int run_child(char *const *argv, const char *log) {
  posix_spawn_file_actions_t fa;
  if (posix_spawn_file_actions_init(&fa)) return -1;
  posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid;
  int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc) {
    errno = rc;
    return -1;
  }
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) return -1;
  if (WIFEXITED(st)) return WEXITSTATUS(st);
  return 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

static bool lower_is_faster(const char *name) {
  static const char *const faster[] = {"wall",   "synth",        "Ir",
                                       "cycles", "instructions", "task-clock-ns"};
  for (size_t i = 0; i < sizeof faster / sizeof faster[0]; i++)
    if (!strcmp(name, faster[i])) return true;
  return false;
}

/* The metric called name (added on the first sample; NULL for a new name after the first pair's
 * A, which would leave holes, or when there are too many). */
static metric *metric_get(ab_run *r, const char *name, bool first) {
  for (int i = 0; i < r->nm; i++)
    if (!strcmp(r->m[i].name, name)) return &r->m[i];
  if (!first || r->nm == MAX_METRICS || strlen(name) >= sizeof r->m[0].name) return NULL;
  metric *m = &r->m[r->nm];
  memset(m, 0, sizeof *m);
  strcpy(m->name, name);
  m->lower_is_faster = lower_is_faster(name);
  m->seconds = !strcmp(name, "wall") || !strcmp(name, "synth");
  for (int s = 0; s < 2; s++) {
    m->v[s] = malloc(r->pairs * sizeof(double));
    if (!m->v[s]) {
      free(m->v[0]);
      return NULL;
    }
    for (uint64_t p = 0; p < r->pairs; p++)
      m->v[s][p] = NAN;
  }
  r->nm++;
  return m;
}

static double yajl_number(yajl_val v) {
  if (YAJL_IS_INTEGER(v)) return (double)YAJL_GET_INTEGER(v);
  return YAJL_IS_DOUBLE(v) ? YAJL_GET_DOUBLE(v) : NAN;
}

/* Reads synth-only's --perf-json of one sample into the metrics. */
static bool read_perf_json(ab_run *r, const char *path, int side, uint64_t pair) {
  uint8_t *data;
  size_t len;
  if (!cli_read_file(path, &data, &len)) return !cli_fail(1, "synth-ab: cannot read %s", path);
  char *text = realloc(data, len + 1);
  if (!text) {
    free(data);
    return !cli_fail(1, "out of memory");
  }
  text[len] = 0;
  char err[256];
  yajl_val root = yajl_tree_parse(text, err, sizeof err);
  free(text);
  if (!root) return !cli_fail(1, "synth-ab: %s: bad JSON: %s", path, err);
  bool first = side == 0 && pair == 0, ok = true;
  static const char *const times[][2] = {{"wall", "wall_min"}, {"synth", "synth_min"}};
  for (size_t t = 0; t < 2 && ok; t++) {
    const char *key[] = {times[t][1], NULL};
    yajl_val v = yajl_tree_get(root, key, yajl_t_number);
    metric *m = metric_get(r, times[t][0], first);
    if (!v || !m) ok = !cli_fail(1, "synth-ab: %s: no %s", path, times[t][1]);
    if (ok) m->v[side][pair] = yajl_number(v);
  }
  const char *ikey[] = {"iterations", NULL};
  yajl_val its = yajl_tree_get(root, ikey, yajl_t_array);
  if (ok && r->counter == COUNTER_PERF) {
    if (!its || !its->u.array.len) {
      ok = !cli_fail(1, "synth-ab: %s: no iterations", path);
    } else {
      yajl_val last = its->u.array.values[its->u.array.len - 1];
      for (size_t k = 0; ok && YAJL_IS_OBJECT(last) && k < last->u.object.len; k++) {
        const char *name = last->u.object.keys[k];
        yajl_val v = last->u.object.values[k];
        if (!strcmp(name, "iteration")) continue;
        if (YAJL_IS_NULL(v)) {
          r->hw_missing = true;
          continue;
        }
        metric *m = metric_get(r, name, first);
        if (m) m->v[side][pair] = yajl_number(v);
      }
    }
  }
  yajl_tree_free(root);
  return ok;
}

/* The total instruction count of a callgrind output file ("totals:", else "summary:"). */
static bool read_callgrind(ab_run *r, const char *path, int side, uint64_t pair) {
  FILE *f = fopen(path, "r");
  if (!f) return !cli_fail(1, "synth-ab: cannot read %s", path);
  char line[512];
  double summary = NAN, totals = NAN;
  bool ir_first = false;
  while (fgets(line, sizeof line, f)) {
    if (!strncmp(line, "events:", 7)) {
      char ev[16] = "";
      ir_first = sscanf(line + 7, "%15s", ev) == 1 && !strcmp(ev, "Ir");
    } else if (!strncmp(line, "summary:", 8)) {
      summary = strtod(line + 8, NULL);
    } else if (!strncmp(line, "totals:", 7)) {
      totals = strtod(line + 7, NULL);
    }
  }
  fclose(f);
  double ir = !isnan(totals) ? totals : summary;
  if (!ir_first || isnan(ir))
    return !cli_fail(1, "synth-ab: %s: no Ir total (events:/totals:/summary: lines)", path);
  metric *m = metric_get(r, "Ir", side == 0 && pair == 0);
  if (!m) return !cli_fail(1, "out of memory");
  m->v[side][pair] = ir;
  return true;
}

/* Runs one sample; on failure prints why and returns the exit code (2 when the child rejected its
 * options, 1 otherwise), else 0. */
static int run_sample(ab_run *r, int side, uint64_t pair) {
  char out[PATH_MAX], log[PATH_MAX], cg_arg[PATH_MAX + 32], iters[24];
  snprintf(out, sizeof out, "%s/%llu%s.%s", r->dir, (unsigned long long)pair + 1, side_name[side],
           r->counter == COUNTER_CALLGRIND ? "callgrind" : "json");
  snprintf(log, sizeof log, "%s/%llu%s.log", r->dir, (unsigned long long)pair + 1, side_name[side]);
  snprintf(cg_arg, sizeof cg_arg, "--callgrind-out-file=%s", out);
  snprintf(iters, sizeof iters, "%llu",
           r->counter == COUNTER_CALLGRIND ? 1ULL : (unsigned long long)r->warmup + 1);
  char *argv[2 * MAX_ARGS + 16];
  int n = 0;
  if (r->counter == COUNTER_CALLGRIND) {
    argv[n++] = (char *)"valgrind";
    argv[n++] = (char *)"--tool=callgrind";
    argv[n++] = cg_arg;
  }
  argv[n++] = (char *)r->exe;
  argv[n++] = (char *)"synth-only";
  for (int i = 0; i < r->nshared; i++)
    argv[n++] = (char *)r->shared[i];
  for (int i = 0; i < r->nside[side]; i++)
    argv[n++] = r->side_args[side][i];
  argv[n++] = (char *)"-i";
  argv[n++] = iters;
  if (r->counter != COUNTER_CALLGRIND) {
    argv[n++] = (char *)"--perf-json";
    argv[n++] = out;
  }
  argv[n] = NULL;
  int rc = run_child(argv, log);
  if (rc) {
    if (rc < 0)
      cli_fail(1, "synth-ab: cannot start %s: %s", argv[0], strerror(errno));
    else
      cli_fail(1, "synth-ab: side %s (\"%s\"), pair %llu: %s exited with status %d",
               side_name[side], r->side_text[side], (unsigned long long)pair + 1,
               r->counter == COUNTER_CALLGRIND ? "valgrind ... synth-only" : "synth-only", rc);
    print_log_tail(log);
    return rc == 2 ? 2 : 1;
  }
  bool ok = r->counter == COUNTER_CALLGRIND ? read_callgrind(r, out, side, pair)
                                            : read_perf_json(r, out, side, pair);
  unlink(out);
  unlink(log);
  if (!ok) return 1;
  printf("  [%llu %s]", (unsigned long long)pair + 1, side_name[side]);
  for (int i = 0; i < r->nm; i++)
    printf(r->m[i].seconds ? " %s=%.4fs" : " %s=%.0f", r->m[i].name, r->m[i].v[side][pair]);
  printf("\n");
  fflush(stdout);
  return 0;
}

static void print_value(char *buf, size_t n, const metric *m, double v) {
  if (isnan(v) || isinf(v))
    snprintf(buf, n, "n/a");
  else if (m->seconds)
    snprintf(buf, n, "%.4f s", v);
  else
    snprintf(buf, n, "%.0f", v);
}

static void ratio_text(char *buf, size_t n, double r) {
  if (isnan(r) || isinf(r))
    snprintf(buf, n, "n/a");
  else
    snprintf(buf, n, "%.4fx", r);
}

static void json_num(FILE *f, double v) {
  if (isnan(v) || isinf(v))
    fputs("null", f);
  else if (v > -9e15 && v < 9e15 && v == (double)(long long)v)
    fprintf(f, "%.0f", v);
  else
    fprintf(f, "%.10g", v);
}

static bool write_json(const ab_run *r, const char *path, const char *c1, const ab_summary *sum,
                       double min_effect) {
  static const char *const counter_name[] = {"time", "perf", "callgrind"};
  FILE *f = fopen(path, "w");
  if (!f) return false;
  fputs("{\"c1\": ", f);
  cli_json_str(f, c1);
  fprintf(f, ", \"counter\": \"%s\", \"pairs\": %llu, \"warmup\": %llu, \"min_effect\": ",
          counter_name[r->counter], (unsigned long long)r->pairs,
          r->counter == COUNTER_CALLGRIND ? 0ULL : (unsigned long long)r->warmup);
  json_num(f, min_effect);
  fputs(",\n \"shared\": [", f);
  for (int i = 0; i < r->nshared; i++) {
    if (i) fputs(", ", f);
    cli_json_str(f, r->shared[i]);
  }
  fputs("], \"a\": ", f);
  cli_json_str(f, r->side_text[0]);
  fputs(", \"b\": ", f);
  cli_json_str(f, r->side_text[1]);
  fputs(",\n \"samples\": [\n", f);
  for (uint64_t p = 0; p < r->pairs; p++)
    for (int s = 0; s < 2; s++) {
      fprintf(f, "  {\"pair\": %llu, \"side\": \"%s\"", (unsigned long long)p + 1, side_name[s]);
      for (int i = 0; i < r->nm; i++) {
        fputs(", ", f);
        cli_json_str(f, r->m[i].name);
        fputs(": ", f);
        json_num(f, r->m[i].v[s][p]);
      }
      fprintf(f, "}%s\n", p + 1 == r->pairs && s == 1 ? "" : ",");
    }
  fputs(" ],\n \"summary\": [\n", f);
  for (int i = 0; i < r->nm; i++) {
    fputs("  {\"metric\": ", f);
    cli_json_str(f, r->m[i].name);
    fputs(", \"median_a\": ", f);
    json_num(f, sum[i].median_a);
    fputs(", \"median_b\": ", f);
    json_num(f, sum[i].median_b);
    fputs(", \"ratio\": ", f);
    json_num(f, sum[i].ratio);
    fputs(", \"pair_ratio_min\": ", f);
    json_num(f, sum[i].ratio_min);
    fputs(", \"pair_ratio_max\": ", f);
    json_num(f, sum[i].ratio_max);
    fputs(", \"verdict\": ", f);
    cli_json_str(f, ab_verdict_text(sum[i].verdict, r->m[i].lower_is_faster));
    fprintf(f, "}%s\n", i + 1 == r->nm ? "" : ",");
  }
  fputs(" ]}\n", f);
  return fclose(f) == 0;
}

/* Removes the run's directory and what a failed sample left in it (only files of ours). */
static void remove_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (d) {
    for (struct dirent *e; (e = readdir(d));)
      if (e->d_name[0] != '.') unlinkat(dirfd(d), e->d_name, 0);
    closedir(d);
  }
  rmdir(dir);
}

int cmd_synth_ab(int argc, char **argv) {
  static const char usage[] =
      "usage: cuzk-bench synth-ab --c1 FILE --a \"OPTS\" --b \"OPTS\" [-i|--pairs N]\n"
      "         [--partition N] [--sector-num N] [--miner-id N] [--mode prove|witness]\n"
      "         [--shape-only] [--counter time|perf|callgrind] [--warmup N]\n"
      "         [--min-effect PCT] [--json FILE] [--plot FILE.svg]\n"
      "A/B of a synthesis change: runs 'synth-only' for side A and side B interleaved (A B A B,\n"
      "N pairs, default 5), each in a child process of this program. OPTS are extra synth-only\n"
      "options (split on blanks, e.g. --a \"--lc-inline 0\"), applied after the shared ones.\n"
      "Prints each side's median, the B/A ratio of the medians, the min/max of the per-pair\n"
      "ratios and a verdict only when every pair's ratio is on the same side of 1 by more than\n"
      "--min-effect percent (default 0; 0.1 for callgrind, whose counts vary by ~1e-7 run to "
      "run).\n"
      "  time       wall and synth seconds: min over the child's iterations (-i 1+warmup)\n"
      "  perf       also synth-only's perf counters of the child's last iteration\n"
      "  callgrind  instructions (Ir) of 'valgrind --tool=callgrind cuzk-bench synth-only -i 1'\n"
      "--warmup N: iterations each child runs first to fault its buffers in (default 1; 0 "
      "measures\n"
      "the cold first synthesis); not used by callgrind.\n"
      "--json FILE: every sample and the summary. --plot FILE.svg: per figure, each side's sample\n"
      "per pair and the per-pair ratios B/A against 1 with the median ratio and the verdict.\n";
  const char *c1 = NULL, *json_path = NULL, *plot_path = NULL, *counter_s = "time",
             *side_s[2] = {NULL, NULL};
  uint64_t pairs = 5, warmup = 1;
  double min_effect = -1;
  ab_run *r = calloc(1, sizeof *r);
  if (!r) return cli_fail(1, "out of memory");
  int rc = 2;
  char *copies[2] = {NULL, NULL};
  static const int opts[] = {
      O_HELP,      O_SHAPE_ONLY, O_C1,        O_A,          O_B,     O_COUNTER,
      O_JSON,      O_MIN_EFFECT, O_PARTITION, O_SECTOR_NUM, O_MINER, O_MODE,
      O_LC_INLINE, O_PAIRS,      O_WARMUP,    O_PLOT,       0};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v;
    char *end;
    uint64_t x;
    int at = i, id = cli_next_opt(opts, argc, argv, &i, &v);
    if (id == O_HELP) {
      fputs(usage, stdout);
      rc = 0;
      goto done;
    }
    if (r->nshared + 4 > MAX_ARGS) { /* room for this option and --c1 FILE */
      cli_fail(2, "synth-ab: too many options");
      goto done;
    }
    switch (id) {
    case O_SHAPE_ONLY: r->shared[r->nshared++] = a; break;
    case O_C1: c1 = v; break;
    case O_A:
    case O_B: side_s[id == O_B] = v; break;
    case O_COUNTER: counter_s = v; break;
    case O_JSON: json_path = v; break;
    case O_PLOT: plot_path = v; break;
    case O_MIN_EFFECT:
      min_effect = strtod(v, &end) / 100;
      if (*end || !(min_effect >= 0 && min_effect < 1)) {
        cli_fail(2, "synth-ab: --min-effect: a percentage in [0, 100), not %s", v);
        goto done;
      }
      break;
    case O_PARTITION: /* synth-only's, passed on to both sides as given: "--mode V", "--mode=V" */
    case O_SECTOR_NUM:
    case O_MINER:
    case O_MODE:
    case O_LC_INLINE:
      r->shared[r->nshared++] = a;
      if (i > at) r->shared[r->nshared++] = v;
      break;
    case O_PAIRS:
    case O_WARMUP:
      if (!cli_u64(&x, v) || (id == O_PAIRS ? x < 1 || x > MAX_PAIRS : x > 1000)) {
        cli_fail(2, "synth-ab: bad option or value: %s %s\n%s", a, v, usage);
        goto done;
      }
      *(id == O_PAIRS ? &pairs : &warmup) = x;
      break;
    case CLI_MISSING: goto done;
    default: cli_fail(2, "synth-ab: unknown option '%s'\n%s", a, usage); goto done;
    }
  }
  if (!c1 || !side_s[0] || !side_s[1]) {
    cli_fail(2, "synth-ab: --c1 FILE, --a \"OPTS\" and --b \"OPTS\" are required\n%s", usage);
    goto done;
  }
  r->counter = !strcmp(counter_s, "time")        ? COUNTER_TIME
               : !strcmp(counter_s, "perf")      ? COUNTER_PERF
               : !strcmp(counter_s, "callgrind") ? COUNTER_CALLGRIND
                                                 : -1;
  if (r->counter < 0) {
    cli_fail(2, "synth-ab: --counter time|perf|callgrind, not '%s'", counter_s);
    goto done;
  }
  if (min_effect < 0) min_effect = r->counter == COUNTER_CALLGRIND ? 0.001 : 0;
  for (int s = 0; s < 2; s++) {
    r->side_text[s] = side_s[s];
    r->nside[s] = split_words(r->side_args[s], MAX_ARGS, side_s[s], &copies[s]);
    if (r->nside[s] < 0) {
      cli_fail(2, "synth-ab: --%c: too many words", s ? 'b' : 'a');
      goto done;
    }
    const char *bad = reserved_option(r->side_args[s], r->nside[s]);
    if (bad) {
      cli_fail(2, "synth-ab: --%c may not contain %s (synth-ab sets it; --c1 is shared)",
               s ? 'b' : 'a', bad);
      goto done;
    }
  }
  if (access(c1, R_OK)) {
    rc = cli_fail(1, "synth-ab: cannot read %s: %s", c1, strerror(errno));
    goto done;
  }
  if (r->counter == COUNTER_CALLGRIND && !on_path("valgrind")) {
    rc = cli_fail(1, "synth-ab: --counter callgrind needs valgrind, which is not installed "
                     "(Debian package 'valgrind': apt-get install valgrind)");
    goto done;
  }
  static char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) {
    rc = cli_fail(1, "synth-ab: cannot find this executable (/proc/self/exe): %s", strerror(errno));
    goto done;
  }
  exe[n] = 0;
  r->exe = exe;
  r->shared[r->nshared++] = "--c1";
  r->shared[r->nshared++] = c1;
  r->pairs = pairs;
  r->warmup = warmup;
  static char dir[PATH_MAX];
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/cuzk-synth-ab-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir)) {
    rc = cli_fail(1, "synth-ab: cannot create a directory %s: %s", dir, strerror(errno));
    goto done;
  }
  r->dir = dir;

  printf("=== Synthesis A/B (synth-ab) ===\n");
  printf("c1:       %s\n", c1);
  printf("shared:  ");
  for (int i = 0; i < r->nshared - 2; i++)
    printf(" %s", r->shared[i]);
  printf("%s\n", r->nshared > 2 ? "" : " (none)");
  printf("A:        %s\nB:        %s\n", *side_s[0] ? side_s[0] : "(no options)",
         *side_s[1] ? side_s[1] : "(no options)");
  printf("counter:  %s", counter_s);
  if (r->counter == COUNTER_CALLGRIND)
    printf(" (instructions of the whole child, -i 1)\n");
  else
    printf(" (child runs -i %llu: %llu warm-up)\n", (unsigned long long)warmup + 1,
           (unsigned long long)warmup);
  printf("pairs:    %llu, interleaved A B A B ...\n\n", (unsigned long long)pairs);
  fflush(stdout);
  rc = 0;
  for (uint64_t p = 0; p < pairs && !rc; p++)
    for (int s = 0; s < 2 && !rc; s++)
      rc = run_sample(r, s, p);
  remove_dir(dir);
  if (rc) goto done;

  ab_summary sum[MAX_METRICS];
  const char *verdict[MAX_METRICS];
  printf("\n=== Summary (%llu pairs; ratio = B/A, spread = min..max of the per-pair ratios) ===\n",
         (unsigned long long)pairs);
  printf("%-16s %16s %16s %8s %19s  %s\n", "", "median A", "median B", "B/A", "spread", "verdict");
  for (int i = 0; i < r->nm; i++) {
    metric *m = &r->m[i];
    bool holes = false;
    for (int s = 0; s < 2; s++)
      for (uint64_t p = 0; p < pairs; p++)
        holes |= isnan(m->v[s][p]);
    ab_summarize(&sum[i], m->v[0], m->v[1], holes ? 0 : pairs, min_effect);
    char va[32], vb[32], ratio[32], spread[48];
    print_value(va, sizeof va, m, sum[i].median_a);
    print_value(vb, sizeof vb, m, sum[i].median_b);
    ratio_text(ratio, sizeof ratio, sum[i].ratio);
    if (isnan(sum[i].ratio_min))
      snprintf(spread, sizeof spread, "n/a");
    else
      snprintf(spread, sizeof spread, "%.4fx..%.4fx", sum[i].ratio_min, sum[i].ratio_max);
    verdict[i] =
        holes ? "undefined (missing samples)" : ab_verdict_text(sum[i].verdict, m->lower_is_faster);
    printf("%-16s %16s %16s %8s %19s  %s\n", m->name, va, vb, ratio, spread, verdict[i]);
  }
  if (min_effect > 0)
    printf("(a verdict needs every pair beyond 1 +/- %.2g %%)\n", min_effect * 100);
  if (r->counter == COUNTER_PERF && r->hw_missing)
    printf("(hardware counters are not available on this machine: only software events)\n");
  if (pairs < 5 && r->counter != COUNTER_CALLGRIND)
    printf("(with %llu pairs, all on one side of 1 happens by chance with probability %.2g)\n",
           (unsigned long long)pairs, 2.0 / (double)(1ULL << pairs));
  if (json_path && !write_json(r, json_path, c1, sum, min_effect))
    rc = cli_fail(1, "cannot write %s", json_path);
  ab_plot_metric pm[MAX_METRICS];
  for (int i = 0; i < r->nm; i++)
    pm[i] = (ab_plot_metric){.name = r->m[i].name,
                             .seconds = r->m[i].seconds,
                             .a = r->m[i].v[0],
                             .b = r->m[i].v[1],
                             .sum = &sum[i],
                             .verdict = verdict[i]};
  ab_plot_run run = {side_s[0], side_s[1], counter_s, pairs, min_effect};
  if (plot_path && !ab_plot_svg(plot_path, &run, pm, (size_t)r->nm))
    rc = cli_fail(1, "cannot write %s: %s", plot_path, strerror(errno));

done:
  for (int i = 0; i < r->nm; i++) {
    free(r->m[i].v[0]);
    free(r->m[i].v[1]);
  }
  free(copies[0]);
  free(copies[1]);
  free(r);
  return rc;
}
