/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * cuzk.toml (config.h, docs/config.md). One table of known keys drives loading: each entry names
 * its [table] and key, the setter that checks the TOML value and stores it, where in the struct,
 * and the allowed range. A second table lists the reference daemon's keys that mean nothing here,
 * with the reason given in the warning.
 */
#define _POSIX_C_SOURCE 200809L /* getcwd, inet_pton */
#include "server/config.h"

#include "cuzk/engine/engine.h" /* the engine's ranges: one table for both */
#include "cuzk/post/post.h"     /* the smallest request (scheduler.max_queued_bytes) */
#include "cuzk/util/errmsg.h"

#include "server/toml.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Every key with its default. Relative paths are resolved against the working directory when the
 * configuration is loaded; an empty srs.param_cache means $FIL_PROOFS_PARAMETER_CACHE, else
 * /var/tmp/filecoin-proof-parameters; an empty srs.test_params_dir means
 * <param_cache>/cuzk-generated. docs/config.md and cuzk.example.toml explain each key. */
const char cuzk_config_default_toml[] = "# cuzk built-in configuration (used when no -c is given)\n"
                                        "[daemon]\n"
                                        "listen = \"unix://cuzk.sock\"\n"
                                        "socket_mode = \"0660\"\n"
                                        "status_listen = \"\"\n"
                                        "max_message_size = \"128MiB\"\n"
                                        "on_disconnect = \"cancel\"\n"
                                        "shutdown = \"finish\"\n"
                                        "shutdown_grace = \"5m\"\n"
                                        "tls_cert = \"\"\n"
                                        "tls_key = \"\"\n"
                                        "tls_client_ca = \"\"\n"
                                        "tls_require_client_cert = false\n"
                                        "allow_plaintext = false\n"
                                        "allow_synthetic_inputs = false\n"
                                        "\n"
                                        "[srs]\n"
                                        "param_cache = \"\"\n"
                                        "preload = []\n"
                                        "generate_test_params = false\n"
                                        "test_params_dir = \"\"\n"
                                        "test_deterministic_seed = 0\n"
                                        "read_in_place = \"auto\"\n"
                                        "\n"
                                        "[memory]\n"
                                        "total_budget = \"auto\"\n"
                                        "safety_margin = \"5GiB\"\n"
                                        "srs_budget = \"auto\"\n"
                                        "warm_budget = \"auto\"\n"
                                        "partition_budget = \"auto\"\n"
                                        "eviction_min_idle = \"5m\"\n"
                                        "idle_release = \"30s\"\n"
                                        "\n"
                                        "[scheduler]\n"
                                        "max_batch_size = 1\n"
                                        "max_batch_wait_ms = 10000\n"
                                        "max_queued_jobs = 0\n"
                                        "max_queued_bytes = \"auto\"\n"
                                        "max_results = 0\n"
                                        "\n"
                                        "[synthesis]\n"
                                        "threads = 0\n"
                                        "mode = \"pce\"\n"
                                        "pce_file = true\n"
                                        "\n"
                                        "[pipeline]\n"
                                        "synthesis_workers = 0\n"
                                        "prove_workers = 1\n"
                                        "queue_depth = 2\n"
                                        "\n"
                                        "[logging]\n"
                                        "level = \"info\"\n"
                                        "format = \"text\"\n";

static const char default_param_cache[] = "/var/tmp/filecoin-proof-parameters";
static const char generated_subdir[] = "/cuzk-generated";

/* ---- small parsers -------------------------------------------------------------------------- */

static bool parse_u64_prefix(const char **s, uint64_t *out) {
  const char *p = *s;
  uint64_t x = 0;
  if (*p < '0' || *p > '9') return false;
  for (; *p >= '0' && *p <= '9'; p++) {
    unsigned d = (unsigned)(*p - '0');
    if (x > (UINT64_MAX - d) / 10) return false;
    x = x * 10 + d;
  }
  *s = p;
  *out = x;
  return true;
}

bool cuzk_parse_size(const char *s, uint64_t *bytes) {
  static const struct {
    const char *unit;
    uint64_t mul;
  } units[] = {{"", 1},
               {"B", 1},
               {"KiB", UINT64_C(1) << 10},
               {"MiB", UINT64_C(1) << 20},
               {"GiB", UINT64_C(1) << 30},
               {"TiB", UINT64_C(1) << 40},
               {"kB", 1000},
               {"KB", 1000},
               {"MB", 1000000},
               {"GB", 1000000000},
               {"TB", UINT64_C(1000000000000)}};
  uint64_t x;
  if (!parse_u64_prefix(&s, &x)) return false;
  if (*s == ' ' && s[1]) s++;
  for (size_t k = 0; k < sizeof units / sizeof units[0]; k++) {
    if (strcmp(s, units[k].unit) == 0) {
      if (x > UINT64_MAX / units[k].mul) return false;
      *bytes = x * units[k].mul;
      return true;
    }
  }
  return false;
}

bool cuzk_parse_duration_ms(const char *s, uint64_t *ms) {
  static const struct {
    const char *unit;
    uint64_t mul;
  } units[] = {{"", 1000}, {"ms", 1}, {"s", 1000}, {"m", 60000}, {"h", 3600000}};
  uint64_t x;
  if (!parse_u64_prefix(&s, &x)) return false;
  for (size_t k = 0; k < sizeof units / sizeof units[0]; k++) {
    if (strcmp(s, units[k].unit) == 0) {
      if (x > UINT64_MAX / units[k].mul) return false;
      *ms = x * units[k].mul;
      return true;
    }
  }
  return false;
}

static const char *const level_names[] = {"trace", "debug", "info", "warn", "error"};

const char *cuzk_cfg_level_name(cuzk_cfg_level l) {
  return (unsigned)l < 5 ? level_names[l] : "info";
}

bool cuzk_cfg_level_parse(const char *s, cuzk_cfg_level *out) {
  for (unsigned k = 0; k < 5; k++) {
    if (strcmp(s, level_names[k]) == 0) {
      *out = (cuzk_cfg_level)k;
      return true;
    }
  }
  return false;
}

bool cuzk_listen_parse(const char *s, cuzk_listen_addr *out, char *err) {
  memset(out, 0, sizeof *out);
  if (strncmp(s, "unix://", 7) == 0) {
    const char *path = s + 7;
    if (!*path) {
      snprintf(err, CUZK_CONFIG_ERR_LEN, "\"%s\": empty socket path", s);
      return false;
    }
    if (strlen(path) >= 108) { /* sizeof(sockaddr_un.sun_path) on Linux */
      snprintf(err, CUZK_CONFIG_ERR_LEN, "\"%s\": socket path longer than 107 bytes", s);
      return false;
    }
    out->is_unix = true;
    snprintf(out->path, sizeof out->path, "%s", path);
    return true;
  }
  const char *colon;
  size_t hostlen;
  const char *host = s;
  if (s[0] == '[') {
    const char *close = strchr(s, ']');
    if (!close || close[1] != ':') goto bad;
    host = s + 1;
    hostlen = (size_t)(close - host);
    colon = close + 1;
    out->ipv6 = true;
  } else {
    colon = strrchr(s, ':');
    if (!colon) goto bad;
    hostlen = (size_t)(colon - s);
    if (memchr(s, ':', hostlen)) goto bad; /* an IPv6 literal needs brackets */
  }
  if (hostlen == 0 || hostlen >= sizeof out->host) goto bad;
  memcpy(out->host, host, hostlen);
  out->host[hostlen] = 0;
  const char *port = colon + 1;
  uint64_t p;
  if (!parse_u64_prefix(&port, &p) || *port || p > 65535 || strlen(colon + 1) > 5) goto bad;
  unsigned char addr[16];
  if (inet_pton(out->ipv6 ? AF_INET6 : AF_INET, out->host, addr) != 1) {
    snprintf(err, CUZK_CONFIG_ERR_LEN,
             "\"%s\": not an IP address (give an IP literal, e.g. 127.0.0.1:9820 or [::1]:9820; "
             "hostnames are not accepted)",
             s);
    return false;
  }
  out->port = (uint16_t)p;
  static const unsigned char v6loop[16] = {[15] = 1}, v4mapped[12] = {[10] = 0xff, [11] = 0xff};
  out->loopback = out->ipv6 ? memcmp(addr, v6loop, 16) == 0 ||
                                  (memcmp(addr, v4mapped, 12) == 0 && addr[12] == 127)
                            : addr[0] == 127;
  return true;
bad:
  snprintf(err, CUZK_CONFIG_ERR_LEN, "\"%s\": expected unix://PATH, IP:PORT or [IPv6]:PORT", s);
  return false;
}

/* ---- loading -------------------------------------------------------------------------------- */

typedef struct {
  cuzk_daemon_config *cfg;
  const char *source;
  cuzk_config_warnings *warnings;
  char *err;
  bool test_params_dir_given;
} loader;

typedef struct keydef keydef;
typedef bool (*setter)(const keydef *d, loader *L, const char *key, const cuzk_toml_value *v);
struct keydef {
  const char *table, *name;
  setter set;
  size_t off;
  uint64_t min, max;
};

#define FIELD(T) ((T *)((char *)L->cfg + d->off))

static void warn(loader *L, const char *fmt, ...) {
  cuzk_config_warnings *w = L->warnings;
  if (!w) return;
  if (w->n == CUZK_CONFIG_MAX_WARNINGS) {
    w->dropped++;
    return;
  }
  char msg[CUZK_CONFIG_ERR_LEN];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  cuzk_errmsg(w->msg[w->n++], CUZK_CONFIG_ERR_LEN, "%s: %s", L->source, msg);
}

static bool failf(loader *L, const char *fmt, ...) {
  char msg[CUZK_CONFIG_ERR_LEN];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  cuzk_errmsg(L->err, CUZK_CONFIG_ERR_LEN, "%s: %s", L->source, msg);
  return false;
}

static bool wrong_type(loader *L, const char *key, const char *expected, const cuzk_toml_value *v) {
  return failf(L, "%s: expected %s, got %s (line %u)", key, expected, cuzk_toml_type_name(v->type),
               v->line);
}

/* An integer within the key's [min, max] into *out; false after the error. */
static bool int_in_range(const keydef *d, loader *L, const char *key, const cuzk_toml_value *v,
                         uint64_t *out) {
  if (v->type != CUZK_TOML_INTEGER) return wrong_type(L, key, "an integer", v);
  if (v->u.integer < 0 || (uint64_t)v->u.integer < d->min || (uint64_t)v->u.integer > d->max)
    return failf(L, "%s: must be between %llu and %llu, got %lld (line %u)", key,
                 (unsigned long long)d->min, (unsigned long long)d->max, (long long)v->u.integer,
                 v->line);
  *out = (uint64_t)v->u.integer;
  return true;
}

static bool set_uint(const keydef *d, loader *L, const char *key, const cuzk_toml_value *v) {
  uint64_t x = 0;
  if (!int_in_range(d, L, key, v, &x)) return false;
  *FIELD(unsigned) = (unsigned)x; /* the key's max fits an unsigned */
  return true;
}

static bool set_u64(const keydef *d, loader *L, const char *key, const cuzk_toml_value *v) {
  return int_in_range(d, L, key, v, FIELD(uint64_t));
}

static bool set_bool(const keydef *d, loader *L, const char *key, const cuzk_toml_value *v) {
  if (v->type != CUZK_TOML_BOOL) return wrong_type(L, key, "a boolean", v);
  *FIELD(bool) = v->u.boolean;
  return true;
}

/* Sizes: an integer number of bytes or a size string like "64GiB", within [d->min, d->max]; a
 * budget also takes "auto", stored as auto_value (0 for most budgets, so that an explicit one must
 * then be at least 1 byte). */
static bool set_size_common(const keydef *d, loader *L, const char *key, const cuzk_toml_value *v,
                            bool allow_auto, uint64_t auto_value) {
  uint64_t x;
  const char *what = allow_auto ? "\"auto\" or a size (e.g. \"64GiB\" or bytes)"
                                : "a size (e.g. \"128MiB\" or bytes)";
  if (v->type == CUZK_TOML_INTEGER) {
    if (v->u.integer < 0) return failf(L, "%s: must not be negative (line %u)", key, v->line);
    x = (uint64_t)v->u.integer;
  } else if (v->type == CUZK_TOML_STRING) {
    if (allow_auto && strcmp(v->u.str.ptr, "auto") == 0) {
      *FIELD(uint64_t) = auto_value;
      return true;
    }
    if (!cuzk_parse_size(v->u.str.ptr, &x))
      return failf(L, "%s: expected %s, got \"%s\" (line %u)", key, what, v->u.str.ptr, v->line);
  } else {
    return wrong_type(L, key, what, v);
  }
  uint64_t min = allow_auto && auto_value == 0 ? 1 : d->min;
  if (x < min || x > d->max)
    return failf(L, "%s: must be between %llu and %llu bytes, got %llu (line %u)", key,
                 (unsigned long long)min, (unsigned long long)d->max, (unsigned long long)x,
                 v->line);
  *FIELD(uint64_t) = x;
  return true;
}

static bool set_size(const keydef *d, loader *L, const char *key, const cuzk_toml_value *v) {
  return set_size_common(d, L, key, v, false, 0);
}

static bool set_budget(const keydef *d, loader *L, const char *key, const cuzk_toml_value *v) {
  return set_size_common(d, L, key, v, true, 0);
}

/* The bytes the engine charges for the smallest request of the kind that must always be admitted:
 * one 2 KiB sector's WinningPoSt vanilla proof (its input is the sectors' vanilla proofs,
 * docs/post.md "Vanilla proof bytes"; larger sectors' are larger). docs/config.md "Checks at
 * start". */
static uint64_t smallest_winning_request(void) {
  const cuzk_post_proof *p = NULL;
  if (cuzk_post_proof_for(&p, CUZK_POST_WINNING, 2048) != CUZK_POST_OK) return 0;
  /* as the engine charges it (payload, lengths, the job record: docs/engine.md "Admission") for
   * the one element a WinningPoSt request carries */
  size_t len = cuzk_post_vanilla_size(p);
  const uint8_t *piece = NULL;
  cuzk_job_request r = {.kind = CUZK_KIND_WINNING_POST,
                        .vanilla_proofs = &piece,
                        .vanilla_proofs_len = &len,
                        .n_vanilla_proofs = 1};
  return cuzk_engine_input_charge(&r);
}

/* scheduler.max_queued_bytes: "auto" or a size that leaves room for a WinningPoSt, which may use
 * the whole budget (CRITICAL); below it every WinningPoSt would be refused. */
static bool set_input_budget(const keydef *d, loader *L, const char *key,
                             const cuzk_toml_value *v) {
  if (!set_size_common(d, L, key, v, true, 0)) return false;
  uint64_t x = *FIELD(uint64_t), min = smallest_winning_request();
  if (x && x < min)
    return failf(L,
                 "%s: %llu bytes is less than the smallest request, a 2 KiB WinningPoSt (%llu "
                 "bytes): every WinningPoSt would be refused (line %u)",
                 key, (unsigned long long)x, (unsigned long long)min, v->line);
  return true;
}

/* memory.warm_budget: "auto" (CUZK_CONFIG_WARM_AUTO) or a size, where 0 turns the tier off */
static bool set_warm(const keydef *d, loader *L, const char *key, const cuzk_toml_value *v) {
  return set_size_common(d, L, key, v, true, CUZK_CONFIG_WARM_AUTO);
}

static bool set_duration(const keydef *d, loader *L, const char *key, const cuzk_toml_value *v) {
  uint64_t ms;
  if (v->type == CUZK_TOML_INTEGER) {
    if (v->u.integer < 0 || (uint64_t)v->u.integer > UINT64_MAX / 1000)
      return failf(L, "%s: must not be negative (line %u)", key, v->line);
    ms = (uint64_t)v->u.integer * 1000;
  } else if (v->type == CUZK_TOML_STRING) {
    if (!cuzk_parse_duration_ms(v->u.str.ptr, &ms))
      return failf(
          L, "%s: expected a duration (e.g. \"30s\", \"5m\", \"250ms\"), got \"%s\" (line %u)", key,
          v->u.str.ptr, v->line);
  } else {
    return wrong_type(L, key, "a duration (e.g. \"30s\" or seconds)", v);
  }
  if (ms > d->max)
    return failf(L, "%s: must be at most %llu s (line %u)", key,
                 (unsigned long long)(d->max / 1000), v->line);
  *FIELD(uint64_t) = ms;
  return true;
}

/* One of a fixed list of words; words[] is NULL-terminated and the index is stored as an int
 * enum. */
static bool set_word(loader *L, const char *key, const cuzk_toml_value *v, const char *const *words,
                     int *out) {
  char list[128] = "";
  for (size_t k = 0; words[k]; k++) {
    size_t used = strlen(list);
    snprintf(list + used, sizeof list - used, "%s\"%s\"", k ? ", " : "", words[k]);
  }
  if (v->type != CUZK_TOML_STRING) return wrong_type(L, key, "a string", v);
  for (size_t k = 0; words[k]; k++) {
    if (strcmp(v->u.str.ptr, words[k]) == 0) {
      *out = (int)k;
      return true;
    }
  }
  return failf(L, "%s: expected one of %s, got \"%s\" (line %u)", key, list, v->u.str.ptr, v->line);
}

static bool set_policy(const keydef *d, loader *L, const char *key, const cuzk_toml_value *v) {
  static const char *const words[] = {"cancel", "finish", NULL};
  int k;
  if (!set_word(L, key, v, words, &k)) return false;
  *FIELD(cuzk_job_policy) = (cuzk_job_policy)k;
  return true;
}

/* srs.read_in_place: "auto", "always", "never" (cuzk_engine_in_place's order) */
static bool set_in_place(const keydef *d, loader *L, const char *key, const cuzk_toml_value *v) {
  static const char *const words[] = {"auto", "always", "never", NULL};
  return set_word(L, key, v, words, FIELD(int));
}

/* synthesis.mode: "pce" (pre-compiled constraints, the default) or "prove" (PROVE mode) */
static bool set_synthesis(const keydef *d, loader *L, const char *key, const cuzk_toml_value *v) {
  static const char *const words[] = {"pce", "prove", NULL};
  int k;
  if (!set_word(L, key, v, words, &k)) return false;
  *FIELD(bool) = k == 1;
  return true;
}

static bool set_level(const keydef *d, loader *L, const char *key, const cuzk_toml_value *v) {
  static const char *const words[] = {"trace", "debug", "info", "warn", "error", NULL};
  int k;
  if (!set_word(L, key, v, words, &k)) return false;
  *FIELD(cuzk_cfg_level) = (cuzk_cfg_level)k;
  return true;
}

static bool set_format(const keydef *d, loader *L, const char *key, const cuzk_toml_value *v) {
  static const char *const words[] = {"text", "json", NULL};
  int k;
  if (!set_word(L, key, v, words, &k)) return false;
  *FIELD(cuzk_log_format) = (cuzk_log_format)k;
  return true;
}

static bool set_mode(const keydef *d, loader *L, const char *key, const cuzk_toml_value *v) {
  if (v->type != CUZK_TOML_STRING) return wrong_type(L, key, "an octal string like \"0660\"", v);
  const char *s = v->u.str.ptr;
  unsigned mode = 0;
  size_t n = strlen(s);
  bool ok = n >= 3 && n <= 4;
  for (size_t k = 0; k < n && ok; k++) {
    ok = s[k] >= '0' && s[k] <= '7';
    mode = mode * 8 + (unsigned)(s[k] - '0');
  }
  if (!ok || mode > 0777)
    return failf(L, "%s: expected an octal mode like \"0660\", got \"%s\" (line %u)", key, s,
                 v->line);
  *FIELD(unsigned) = mode;
  return true;
}

/* Makes a path absolute against the working directory; false if it does not fit in cap. */
static bool absolute_path(char *dst, size_t cap, const char *path) {
  if (path[0] == '/') return (size_t)snprintf(dst, cap, "%s", path) < cap;
  char cwd[CUZK_CONFIG_PATH_LEN];
  if (!getcwd(cwd, sizeof cwd)) return false;
  const char *rel = path;
  while (rel[0] == '.' && rel[1] == '/')
    rel += 2;
  if (strcmp(rel, ".") == 0 || !*rel) return (size_t)snprintf(dst, cap, "%s", cwd) < cap;
  return (size_t)snprintf(dst, cap, "%s%s%s", cwd, strcmp(cwd, "/") ? "/" : "", rel) < cap;
}

/* A path; "" is kept as "" (the key's documented fallback), anything else made absolute. */
static bool set_path(const keydef *d, loader *L, const char *key, const cuzk_toml_value *v) {
  if (v->type != CUZK_TOML_STRING) return wrong_type(L, key, "a string", v);
  char *dst = FIELD(char);
  if (!v->u.str.ptr[0]) {
    dst[0] = 0;
  } else if (!absolute_path(dst, CUZK_CONFIG_PATH_LEN, v->u.str.ptr)) {
    return failf(L, "%s: path too long or working directory unreadable (line %u)", key, v->line);
  }
  if (strcmp(d->name, "test_params_dir") == 0) L->test_params_dir_given = true;
  return true;
}

/* One listen address into dst: checked, and a relative unix:// path made absolute. */
static bool listen_one(char *dst, const char *addr, bool allow_unix, char *why) {
  cuzk_listen_addr a;
  if (!cuzk_listen_parse(addr, &a, why)) return false;
  if (a.is_unix && !allow_unix) {
    snprintf(why, CUZK_CONFIG_ERR_LEN, "\"%s\": expected IP:PORT (no unix sockets here)", addr);
    return false;
  }
  if (a.is_unix && a.path[0] != '/') {
    char abs[CUZK_CONFIG_PATH_LEN];
    if (!absolute_path(abs, sizeof abs, a.path) || strlen(abs) >= 108) {
      snprintf(why, CUZK_CONFIG_ERR_LEN, "\"%s\": socket path longer than 107 bytes", addr);
      return false;
    }
    /* "unix://" and a path of at most 107 bytes fit; copied, not printed, so that gcc's
     * format-truncation check (it sees abs's whole buffer) has nothing to guess */
    _Static_assert(CUZK_CONFIG_ADDR_LEN >= 7 + 108, "a unix:// address fits");
    memcpy(dst, "unix://", 7);
    memcpy(dst + 7, abs, strlen(abs) + 1);
  } else {
    snprintf(dst, CUZK_CONFIG_ADDR_LEN, "%s", addr);
  }
  return true;
}

static bool set_listen(const keydef *d, loader *L, const char *key, const cuzk_toml_value *v) {
  (void)d;
  const cuzk_toml_value *items = v;
  size_t n = 1;
  if (v->type == CUZK_TOML_ARRAY) {
    items = v->u.array.items;
    n = v->u.array.n;
    if (n == 0) return failf(L, "%s: needs at least one address (line %u)", key, v->line);
    if (n > CUZK_CONFIG_MAX_LISTEN)
      return failf(L, "%s: at most %d addresses (line %u)", key, CUZK_CONFIG_MAX_LISTEN, v->line);
  } else if (v->type != CUZK_TOML_STRING) {
    return wrong_type(L, key, "a string or an array of strings", v);
  }
  char list[CUZK_CONFIG_MAX_LISTEN][CUZK_CONFIG_ADDR_LEN] = {{0}};
  for (size_t k = 0; k < n; k++) {
    char why[CUZK_CONFIG_ERR_LEN];
    if (items[k].type != CUZK_TOML_STRING) return wrong_type(L, key, "a string", &items[k]);
    if (!listen_one(list[k], items[k].u.str.ptr, true, why))
      return failf(L, "%s: %s (line %u)", key, why, items[k].line);
  }
  memcpy(L->cfg->listen, list, sizeof list);
  L->cfg->n_listen = n;
  return true;
}

static bool set_status_listen(const keydef *d, loader *L, const char *key,
                              const cuzk_toml_value *v) {
  if (v->type != CUZK_TOML_STRING) return wrong_type(L, key, "a string", v);
  char why[CUZK_CONFIG_ERR_LEN];
  char *dst = FIELD(char);
  if (!v->u.str.ptr[0]) {
    dst[0] = 0;
    return true;
  }
  if (!listen_one(dst, v->u.str.ptr, false, why))
    return failf(L, "%s: %s (line %u)", key, why, v->line);
  return true;
}

/* srs.preload: an id the engine knows (cuzk_engine_circuit_id); an unknown one used to start the
 * daemon with only an ERROR line. */
static bool known_circuit(const char *id) {
  for (size_t i = 0; cuzk_engine_circuit_id(i); i++)
    if (strcmp(cuzk_engine_circuit_id(i), id) == 0) return true;
  return false;
}

/* Appends word (wlen bytes) to the ", "-separated list unless the list holds it already. */
static void append_once(char *list, size_t cap, const char *word, size_t wlen) {
  for (const char *p = list; *p;) {
    const char *end = strstr(p, ", ");
    size_t n = end ? (size_t)(end - p) : strlen(p);
    if (n == wlen && memcmp(p, word, n) == 0) return;
    p += n + (end ? 2 : 0);
  }
  size_t used = strlen(list);
  snprintf(list + used, cap - used, "%s%.*s", used ? ", " : "", (int)wlen, word);
}

/* The engine's ids split at their first '-' into kinds and sizes, each listed once, in order. */
static void circuit_id_parts(char *kinds, char *sizes, size_t cap) {
  kinds[0] = sizes[0] = 0;
  for (size_t i = 0; cuzk_engine_circuit_id(i); i++) {
    const char *id = cuzk_engine_circuit_id(i), *dash = strchr(id, '-');
    if (!dash) continue;
    append_once(kinds, cap, id, (size_t)(dash - id));
    append_once(sizes, cap, dash + 1, strlen(dash + 1));
  }
}

static bool set_preload(const keydef *d, loader *L, const char *key, const cuzk_toml_value *v) {
  (void)d;
  if (v->type != CUZK_TOML_ARRAY) return wrong_type(L, key, "an array of circuit ids", v);
  if (v->u.array.n > CUZK_CONFIG_MAX_PRELOAD)
    return failf(L, "%s: at most %d entries (line %u)", key, CUZK_CONFIG_MAX_PRELOAD, v->line);
  for (size_t k = 0; k < v->u.array.n; k++) {
    const cuzk_toml_value *it = &v->u.array.items[k];
    if (it->type != CUZK_TOML_STRING) return wrong_type(L, key, "a string", it);
    const char *s = it->u.str.ptr;
    bool ok = s[0] && strlen(s) < CUZK_CONFIG_ID_LEN;
    for (size_t j = 0; s[j] && ok; j++)
      ok = (s[j] >= 'a' && s[j] <= 'z') || (s[j] >= '0' && s[j] <= '9') || s[j] == '-' ||
           s[j] == '_' || s[j] == '.';
    if (!ok)
      return failf(L, "%s: \"%s\" is not a circuit id like \"porep-32g\" (line %u)", key, s,
                   it->line);
    if (!known_circuit(s)) {
      char kinds[96], sizes[96];
      circuit_id_parts(kinds, sizes, sizeof kinds);
      return failf(L,
                   "%s: unknown parameter set id \"%s\" (an id is KIND-SIZE, KIND one of %s, "
                   "SIZE one of %s) (line %u)",
                   key, s, kinds, sizes, it->line);
    }
    snprintf(L->cfg->preload[k], CUZK_CONFIG_ID_LEN, "%s", s);
  }
  L->cfg->n_preload = v->u.array.n;
  return true;
}

#define OFF(f) offsetof(cuzk_daemon_config, f)
#define MIB (UINT64_C(1) << 20)
static const keydef keys[] = {
    {"daemon", "listen", set_listen, 0, 0, 0},
    {"daemon", "socket_mode", set_mode, OFF(socket_mode), 0, 0},
    {"daemon", "status_listen", set_status_listen, OFF(status_listen), 0, 0},
    {"daemon", "max_message_size", set_size, OFF(max_message_size), MIB, 2147483647},
    {"daemon", "on_disconnect", set_policy, OFF(on_disconnect), 0, 0},
    {"daemon", "shutdown", set_policy, OFF(shutdown), 0, 0},
    {"daemon", "shutdown_grace", set_duration, OFF(shutdown_grace_ms), 0, 86400000},
    {"daemon", "tls_cert", set_path, OFF(tls_cert), 0, 0},
    {"daemon", "tls_key", set_path, OFF(tls_key), 0, 0},
    {"daemon", "tls_client_ca", set_path, OFF(tls_client_ca), 0, 0},
    {"daemon", "tls_require_client_cert", set_bool, OFF(tls_require_client_cert), 0, 0},
    {"daemon", "allow_plaintext", set_bool, OFF(allow_plaintext), 0, 0},
    {"daemon", "allow_synthetic_inputs", set_bool, OFF(allow_synthetic_inputs), 0, 0},
    {"srs", "param_cache", set_path, OFF(param_cache), 0, 0},
    {"srs", "preload", set_preload, 0, 0, 0},
    {"srs", "generate_test_params", set_bool, OFF(generate_test_params), 0, 0},
    {"srs", "test_params_dir", set_path, OFF(test_params_dir), 0, 0},
    {"srs", "test_deterministic_seed", set_u64, OFF(test_deterministic_seed), 0, INT64_MAX},
    {"srs", "read_in_place", set_in_place, OFF(read_in_place), 0, 0},
    {"memory", "total_budget", set_budget, OFF(total_budget), 0, UINT64_MAX},
    {"memory", "safety_margin", set_size, OFF(safety_margin), 0, UINT64_MAX},
    {"memory", "srs_budget", set_budget, OFF(srs_budget), 0, UINT64_MAX},
    {"memory", "warm_budget", set_warm, OFF(warm_budget), 0, UINT64_MAX - 1},
    {"memory", "partition_budget", set_budget, OFF(partition_budget), 0, UINT64_MAX},
    {"memory", "eviction_min_idle", set_duration, OFF(eviction_min_idle_ms), 0, 604800000},
    {"memory", "idle_release", set_duration, OFF(idle_release_ms), 0, 604800000},
    {"scheduler", "max_batch_size", set_uint, OFF(max_batch_size), 1, CUZK_ENGINE_MAX_BATCH},
    {"scheduler", "max_batch_wait_ms", set_u64, OFF(max_batch_wait_ms), 0,
     CUZK_ENGINE_MAX_BATCH_WAIT_MS},
    {"scheduler", "max_queued_jobs", set_uint, OFF(max_queued_jobs), 0,
     CUZK_ENGINE_MAX_QUEUED_JOBS},
    {"scheduler", "max_queued_bytes", set_input_budget, OFF(max_queued_bytes), 0, UINT64_MAX},
    {"scheduler", "max_results", set_uint, OFF(max_results), 0, CUZK_ENGINE_MAX_RESULTS},
    {"synthesis", "threads", set_uint, OFF(threads), 0, 1024},
    {"synthesis", "mode", set_synthesis, OFF(synthesis_prove_mode), 0, 0},
    {"synthesis", "pce_file", set_bool, OFF(pce_file), 0, 0},
    {"pipeline", "synthesis_workers", set_uint, OFF(synthesis_workers), 0,
     CUZK_ENGINE_MAX_SYNTH_WORKERS},
    {"pipeline", "prove_workers", set_uint, OFF(prove_workers), 1, CUZK_ENGINE_MAX_PROVE_WORKERS},
    {"pipeline", "queue_depth", set_uint, OFF(queue_depth), 1, CUZK_ENGINE_MAX_PROVE_QUEUE},
    {"logging", "level", set_level, OFF(log_level), 0, 0},
    {"logging", "format", set_format, OFF(log_format), 0, 0},
};

/* Keys of the reference daemon's cuzk.toml that this daemon reads past, and why. */
static const struct {
  const char *table, *name, *why;
} reference_keys[] = {
    {"memory", "pinned_budget", "deprecated in the reference daemon; see memory.partition_budget"},
    {"memory", "working_memory_budget",
     "deprecated in the reference daemon; see memory.partition_budget"},
    {"gpus", "devices", "GPU setting, not used by this CPU daemon"},
    {"gpus", "gpu_threads", "GPU setting, not used by this CPU daemon; see synthesis.threads"},
    {"gpus", "gpu_workers_per_device",
     "GPU setting, not used by this CPU daemon; see pipeline.prove_workers"},
    {"scheduler", "sort_by_type", "unused in the reference daemon too"},
    {"synthesis", "partition_workers",
     "deprecated in the reference daemon; see pipeline.synthesis_workers"},
    {"pipeline", "enabled", "this daemon always pipelines"},
    {"pipeline", "synthesis_lookahead",
     "no effect in the reference daemon; see pipeline.queue_depth"},
    {"pipeline", "synthesis_concurrency", "reference-only; see pipeline.synthesis_workers"},
    {"pipeline", "max_parallel_synthesis", "reference-only; see pipeline.synthesis_workers"},
    {"pipeline", "slot_size", "unreachable in the reference daemon"},
    {"pipeline", "max_gpu_queue_depth", "reference-only; see pipeline.queue_depth"},
};

static const char *const tables[] = {"daemon",    "srs",       "memory",   "gpus",
                                     "scheduler", "synthesis", "pipeline", "logging"};

static bool apply_table(loader *L, const char *table, const cuzk_toml_value *t) {
  for (size_t k = 0; k < t->u.table.n; k++) {
    const cuzk_toml_kv *kv = t->u.table.items[k];
    char key[128];
    snprintf(key, sizeof key, "%s.%s", table, kv->key);
    const keydef *d = NULL;
    for (size_t j = 0; j < sizeof keys / sizeof keys[0] && !d; j++)
      if (strcmp(keys[j].table, table) == 0 && strcmp(keys[j].name, kv->key) == 0) d = &keys[j];
    if (d) {
      if (!d->set(d, L, key, &kv->value)) return false;
      continue;
    }
    const char *why = NULL;
    for (size_t j = 0; j < sizeof reference_keys / sizeof reference_keys[0] && !why; j++)
      if (strcmp(reference_keys[j].table, table) == 0 &&
          strcmp(reference_keys[j].name, kv->key) == 0)
        why = reference_keys[j].why;
    if (why)
      warn(L, "%s: %s; ignored (line %u)", key, why, kv->line);
    else
      warn(L, "%s: unknown key, ignored (line %u)", key, kv->line);
  }
  return true;
}

/* The TLS keys as a whole (docs/config.md "Checks at start"): a certificate needs its key and the
 * key its certificate, and the client-certificate keys mean something only over TLS. Without this
 * a client CA set with no certificate was ignored and the listener served plaintext. */
static bool check_tls(loader *L) {
  const cuzk_daemon_config *cfg = L->cfg;
  bool cert = cfg->tls_cert[0], key = cfg->tls_key[0];
  if (cert && !key)
    return failf(L, "daemon.tls_cert: set without daemon.tls_key (TLS needs the certificate's "
                    "private key too)");
  if (key && !cert)
    return failf(L, "daemon.tls_key: set without daemon.tls_cert (TLS needs the certificate "
                    "too)");
  if (cfg->tls_client_ca[0] && !cert)
    return failf(L, "daemon.tls_client_ca: set without daemon.tls_cert and daemon.tls_key "
                    "(client certificates are checked only over TLS)");
  if (cfg->tls_require_client_cert && !cert)
    return failf(L, "daemon.tls_require_client_cert: true without daemon.tls_cert and "
                    "daemon.tls_key (client certificates are checked only over TLS)");
  if (cfg->tls_require_client_cert && !cfg->tls_client_ca[0])
    return failf(L, "daemon.tls_require_client_cert: true without daemon.tls_client_ca (the CA "
                    "that signs the client certificates)");
  return true;
}

/* Fills the documented fallbacks of the empty path keys. */
static bool finish(loader *L) {
  cuzk_daemon_config *cfg = L->cfg;
  if (!check_tls(L)) return false;
  if (!cfg->param_cache[0]) {
    const char *env = getenv("FIL_PROOFS_PARAMETER_CACHE");
    const char *src = env && *env ? env : default_param_cache;
    if (!absolute_path(cfg->param_cache, sizeof cfg->param_cache, src))
      return failf(L, "srs.param_cache: FIL_PROOFS_PARAMETER_CACHE is too long");
  }
  if (!L->test_params_dir_given && cfg->test_params_dir[0]) {
    /* derived from an earlier param_cache: derive again from the current one */
    cfg->test_params_dir[0] = 0;
  }
  if (!cfg->test_params_dir[0]) {
    size_t n = strlen(cfg->param_cache);
    if (n + sizeof generated_subdir > sizeof cfg->test_params_dir)
      return failf(L, "srs.test_params_dir: srs.param_cache is too long");
    memcpy(cfg->test_params_dir, cfg->param_cache, n);
    memcpy(cfg->test_params_dir + n, generated_subdir, sizeof generated_subdir);
  }
  return true;
}

bool cuzk_config_load_string(cuzk_daemon_config *cfg, const char *text, size_t len,
                             const char *source, cuzk_config_warnings *warnings, char *err) {
  loader L = {.cfg = cfg, .source = source, .warnings = warnings, .err = err};
  err[0] = 0;
  cuzk_toml_value *root;
  cuzk_toml_error te;
  cuzk_toml_err e = cuzk_toml_parse(text, len, &root, &te);
  if (e) {
    char msg[CUZK_CONFIG_ERR_LEN];
    cuzk_toml_error_format(&te, msg, sizeof msg);
    cuzk_errmsg(err, CUZK_CONFIG_ERR_LEN, "%s:%s", source, msg);
    return false;
  }
  /* A test_params_dir that was derived from param_cache stays derived unless this text sets it:
   * remember whether it was derived before. */
  char derived[CUZK_CONFIG_PATH_LEN];
  size_t pc = strlen(cfg->param_cache);
  bool was_derived = cfg->test_params_dir[0] && pc &&
                     (size_t)snprintf(derived, sizeof derived, "%s%s", cfg->param_cache,
                                      generated_subdir) < sizeof derived &&
                     strcmp(derived, cfg->test_params_dir) == 0;
  if (!was_derived && cfg->test_params_dir[0]) L.test_params_dir_given = true;
  bool ok = true;
  for (size_t k = 0; k < root->u.table.n && ok; k++) {
    const cuzk_toml_kv *kv = root->u.table.items[k];
    bool known = false;
    for (size_t j = 0; j < sizeof tables / sizeof tables[0]; j++)
      known |= strcmp(kv->key, tables[j]) == 0;
    if (kv->value.type != CUZK_TOML_TABLE)
      warn(&L, "%s: unknown key, ignored (line %u)", kv->key, kv->line);
    else if (!known)
      warn(&L, "[%s]: unknown table, ignored (line %u)", kv->key, kv->value.line);
    else
      ok = apply_table(&L, kv->key, &kv->value);
  }
  cuzk_toml_free(root);
  return ok && finish(&L);
}

bool cuzk_config_load_file(cuzk_daemon_config *cfg, const char *path,
                           cuzk_config_warnings *warnings, char *err) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, CUZK_CONFIG_ERR_LEN, "%s: %s", path, strerror(errno));
    return false;
  }
  char *buf = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (n == cap) {
      if (cap >= (size_t)16 << 20) {
        fclose(f);
        free(buf);
        snprintf(err, CUZK_CONFIG_ERR_LEN, "%s: larger than 16 MiB", path);
        return false;
      }
      cap = cap ? 2 * cap : 16384;
      char *q = realloc(buf, cap);
      if (!q) {
        fclose(f);
        free(buf);
        snprintf(err, CUZK_CONFIG_ERR_LEN, "%s: out of memory", path);
        return false;
      }
      buf = q;
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) break;
  }
  int read_errno = ferror(f) ? errno : 0;
  fclose(f);
  if (read_errno) {
    free(buf);
    snprintf(err, CUZK_CONFIG_ERR_LEN, "%s: %s", path, strerror(read_errno));
    return false;
  }
  bool ok = cuzk_config_load_string(cfg, buf ? buf : "", n, path, warnings, err);
  free(buf);
  return ok;
}

bool cuzk_config_defaults(cuzk_daemon_config *cfg, char *err) {
  memset(cfg, 0, sizeof *cfg);
  return cuzk_config_load_string(cfg, cuzk_config_default_toml, sizeof cuzk_config_default_toml - 1,
                                 "built-in", NULL, err);
}

/* ---- the command line ----------------------------------------------------------------------- */

const char *cuzk_config_usage(void) {
  return "Usage: cuzk-daemon [OPTIONS]\n"
         "\n"
         "Options:\n"
         "  -c, --config FILE      read the configuration from FILE (TOML); without it the\n"
         "                         built-in configuration is used (docs/config.md)\n"
         "  -l, --listen ADDR      gRPC listen address, unix://PATH or IP:PORT; repeat for more;\n"
         "                         replaces daemon.listen\n"
         "      --log-level LEVEL  trace, debug, info, warn or error; replaces logging.level\n"
         "  -h, --help             print this help and exit\n"
         "      --version          print the version, commit, compiler and CPU kernels and exit\n";
}

/* Matches argv[*i] against a short and a long option that take a value ("-c FILE", "-cFILE",
 * "--config FILE", "--config=FILE"). Returns 1 with *value set, 0 if it is another option, -1
 * (err set) if the value is missing. */
static int option_value(int argc, char *const argv[], int *i, const char *shrt, const char *lng,
                        const char **value, char *err) {
  const char *a = argv[*i];
  size_t ll = strlen(lng);
  const char *v = NULL;
  if (shrt && strcmp(a, shrt) == 0) {
  } else if (shrt && strncmp(a, shrt, 2) == 0 && a[2]) {
    v = a + 2;
  } else if (strcmp(a, lng) == 0) {
  } else if (strncmp(a, lng, ll) == 0 && a[ll] == '=') {
    v = a + ll + 1;
  } else {
    return 0;
  }
  if (!v) {
    if (*i + 1 >= argc) {
      snprintf(err, CUZK_CONFIG_ERR_LEN, "option '%s' needs a value", a);
      return -1;
    }
    v = argv[++*i];
  }
  *value = v;
  return 1;
}

cuzk_config_args_result cuzk_config_from_args(cuzk_daemon_config *cfg, int argc, char *const argv[],
                                              cuzk_config_warnings *warnings, char *err) {
  const char *config = NULL, *level = NULL;
  const char *listens[CUZK_CONFIG_MAX_LISTEN];
  size_t n_listen = 0;
  err[0] = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v;
    int r;
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) return CUZK_CONFIG_ARGS_HELP;
    if (strcmp(a, "--version") == 0) return CUZK_CONFIG_ARGS_VERSION;
    if ((r = option_value(argc, argv, &i, "-c", "--config", &v, err)) != 0) {
      if (r < 0) return CUZK_CONFIG_ARGS_ERROR;
      if (config) {
        snprintf(err, CUZK_CONFIG_ERR_LEN, "option '-c/--config' given twice");
        return CUZK_CONFIG_ARGS_ERROR;
      }
      config = v;
    } else if ((r = option_value(argc, argv, &i, "-l", "--listen", &v, err)) != 0) {
      if (r < 0) return CUZK_CONFIG_ARGS_ERROR;
      if (n_listen == CUZK_CONFIG_MAX_LISTEN) {
        snprintf(err, CUZK_CONFIG_ERR_LEN, "at most %d listen addresses", CUZK_CONFIG_MAX_LISTEN);
        return CUZK_CONFIG_ARGS_ERROR;
      }
      listens[n_listen++] = v;
    } else if ((r = option_value(argc, argv, &i, NULL, "--log-level", &v, err)) != 0) {
      if (r < 0) return CUZK_CONFIG_ARGS_ERROR;
      level = v;
    } else if (a[0] == '-') {
      snprintf(err, CUZK_CONFIG_ERR_LEN, "unknown option '%s' (see --help)", a);
      return CUZK_CONFIG_ARGS_ERROR;
    } else {
      snprintf(err, CUZK_CONFIG_ERR_LEN, "unexpected argument '%s' (see --help)", a);
      return CUZK_CONFIG_ARGS_ERROR;
    }
  }
  if (!cuzk_config_defaults(cfg, err)) return CUZK_CONFIG_ARGS_ERROR;
  if (config && !cuzk_config_load_file(cfg, config, warnings, err)) return CUZK_CONFIG_ARGS_ERROR;
  if (n_listen) {
    char list[CUZK_CONFIG_MAX_LISTEN][CUZK_CONFIG_ADDR_LEN] = {{0}};
    for (size_t k = 0; k < n_listen; k++) {
      char why[CUZK_CONFIG_ERR_LEN];
      if (!listen_one(list[k], listens[k], true, why)) {
        cuzk_errmsg(err, CUZK_CONFIG_ERR_LEN, "--listen: %s", why);
        return CUZK_CONFIG_ARGS_ERROR;
      }
    }
    memcpy(cfg->listen, list, sizeof list);
    cfg->n_listen = n_listen;
  }
  if (level && !cuzk_cfg_level_parse(level, &cfg->log_level)) {
    snprintf(err, CUZK_CONFIG_ERR_LEN,
             "--log-level: expected trace, debug, info, warn or error, got \"%s\"", level);
    return CUZK_CONFIG_ARGS_ERROR;
  }
  if (!cuzk_config_check(cfg, n_listen ? "--listen" : "daemon.listen", err))
    return CUZK_CONFIG_ARGS_ERROR;
  return CUZK_CONFIG_ARGS_OK;
}

/* ---- the configuration as a whole ----------------------------------------------------------- */

bool cuzk_config_check(const cuzk_daemon_config *cfg, const char *listen_source, char *err) {
  err[0] = 0;
  /* plaintext beyond this machine: anyone who reaches the port may submit, cancel and evict, so
   * it takes TLS or an explicit allow_plaintext (docs/config.md "Checks at start") */
  for (size_t i = 0; i < cfg->n_listen && !cfg->tls_cert[0] && !cfg->allow_plaintext; i++) {
    cuzk_listen_addr a;
    char why[CUZK_CONFIG_ERR_LEN];
    if (!cuzk_listen_parse(cfg->listen[i], &a, why)) {
      cuzk_errmsg(err, CUZK_CONFIG_ERR_LEN, "%s: %s", listen_source, why);
      return false;
    }
    if (!a.is_unix && !a.loopback) {
      cuzk_errmsg(err, CUZK_CONFIG_ERR_LEN,
                  "%s: \"%s\" is not a loopback address and TLS is off: set daemon.tls_cert and "
                  "daemon.tls_key, or daemon.allow_plaintext = true",
                  listen_source, cfg->listen[i]);
      return false;
    }
  }
  return true;
}
