/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The daemon's configuration: every key of cuzk.toml (docs/config.md has the table) as one plain
 * struct with fixed-size strings, filled from the built-in defaults, then a TOML file (-c), then
 * the command line (-l, --log-level).
 *
 * Loading never prints: keys the daemon does not know, or knows from the reference daemon but
 * does not use, become warnings the caller logs; a value of the wrong type or out of range is an
 * error that names the key and its line ("pipeline.synthesis_workers: expected an integer, got a
 * string (line 12)").
 */
#ifndef CUZK_SERVER_CONFIG_H
#define CUZK_SERVER_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
  CUZK_CONFIG_MAX_LISTEN = 8,
  CUZK_CONFIG_ADDR_LEN = 128, /* a unix:// path is at most 107 bytes on Linux */
  CUZK_CONFIG_PATH_LEN = 1024,
  CUZK_CONFIG_MAX_PRELOAD = 16,
  CUZK_CONFIG_ID_LEN = 64,
  CUZK_CONFIG_ERR_LEN = 256,
  CUZK_CONFIG_MAX_WARNINGS = 32
};
/* memory.warm_budget = "auto" (the engine's CUZK_ENGINE_WARM_AUTO: a quarter of physical memory) */
#define CUZK_CONFIG_WARM_AUTO UINT64_MAX

typedef enum {
  CUZK_CFG_TRACE,
  CUZK_CFG_DEBUG,
  CUZK_CFG_INFO,
  CUZK_CFG_WARN,
  CUZK_CFG_ERROR
} cuzk_cfg_level;
typedef enum { CUZK_LOG_TEXT, CUZK_LOG_JSON } cuzk_log_format;
/* What happens to a job whose caller is gone (disconnect, deadline) or at shutdown. */
typedef enum { CUZK_POLICY_CANCEL, CUZK_POLICY_FINISH } cuzk_job_policy;

typedef struct {
  /* [daemon] */
  char listen[CUZK_CONFIG_MAX_LISTEN][CUZK_CONFIG_ADDR_LEN]; /* gRPC: unix:///abs/path or IP:port */
  size_t n_listen;
  unsigned socket_mode;                     /* permissions of unix sockets, e.g. 0660 */
  char status_listen[CUZK_CONFIG_ADDR_LEN]; /* HTTP /metrics and /status, IP:port; "" = off */
  uint64_t max_message_size;                /* bytes, gRPC receive and send limit */
  cuzk_job_policy on_disconnect;            /* caller disconnected or its deadline passed */
  cuzk_job_policy shutdown;                 /* on SIGINT/SIGTERM */
  uint64_t shutdown_grace_ms;               /* how long "finish" may take before cancelling */
  /* TLS on TCP listeners: PEM files (absolute; "" = plaintext / no client CA) */
  char tls_cert[CUZK_CONFIG_PATH_LEN], tls_key[CUZK_CONFIG_PATH_LEN];
  char tls_client_ca[CUZK_CONFIG_PATH_LEN];
  bool tls_require_client_cert;
  bool allow_plaintext; /* TCP beyond loopback without TLS; else refused (cuzk_config_check) */
  /* synthetic inputs (docs/porep.md "Synthetic sectors") proven instead of refused; off by
   * default: a synthetic proof proves nothing about stored data */
  bool allow_synthetic_inputs;
  /* [srs] */
  char param_cache[CUZK_CONFIG_PATH_LEN];                    /* absolute; .params/.vk files */
  char preload[CUZK_CONFIG_MAX_PRELOAD][CUZK_CONFIG_ID_LEN]; /* circuit ids loaded at start */
  size_t n_preload;
  bool generate_test_params; /* test sector sizes only: make missing parameters on first use */
  char test_params_dir[CUZK_CONFIG_PATH_LEN]; /* absolute; where generated parameters go */
  uint64_t test_deterministic_seed;           /* TEST parameters only: r, s from it; 0 = off */
  /* [memory]; 0 = auto for the three budgets */
  uint64_t total_budget;
  uint64_t safety_margin;
  uint64_t srs_budget;
  uint64_t warm_budget; /* CUZK_CONFIG_WARM_AUTO, or bytes (0 = no WARM tier) */
  uint64_t partition_budget;
  uint64_t eviction_min_idle_ms;
  uint64_t idle_release_ms; /* prover memory given back after this long without a job */
  /* [scheduler] */
  unsigned max_batch_size;
  uint64_t max_batch_wait_ms;
  unsigned max_queued_jobs;  /* per priority; 0 = the engine's default (1000) */
  uint64_t max_queued_bytes; /* waiting inputs; 0 = auto (1/8 of physical memory) */
  unsigned max_results;      /* ended results kept; 0 = the engine's default (10000) */
  /* [synthesis] */
  unsigned threads;          /* worker pool size; 0 = all CPUs */
  bool synthesis_prove_mode; /* synthesis.mode = "prove": no pre-compiled constraints */
  int read_in_place;         /* srs.read_in_place: cuzk_engine_in_place */
  bool pce_file;             /* synthesis.pce_file: the recorded matrices kept beside the params */
  /* [pipeline] */
  unsigned synthesis_workers; /* 0 = auto (from partition_budget) */
  unsigned prove_workers;
  unsigned queue_depth; /* synthesized partitions waiting for a prove worker */
  /* [logging] */
  cuzk_cfg_level log_level;
  cuzk_log_format log_format;
} cuzk_daemon_config;

/* Warnings collected while loading (unknown or unused keys), in file order. */
typedef struct {
  char msg[CUZK_CONFIG_MAX_WARNINGS][CUZK_CONFIG_ERR_LEN];
  size_t n;       /* stored */
  size_t dropped; /* past CUZK_CONFIG_MAX_WARNINGS */
} cuzk_config_warnings;

/* The built-in configuration, used when no -c is given: every key with its default value. */
extern const char cuzk_config_default_toml[];

/* The defaults (cuzk_config_default_toml parsed, relative paths resolved against the working
 * directory, srs.param_cache from FIL_PROOFS_PARAMETER_CACHE). Returns false only if the working
 * directory cannot be read or is too long; err (CUZK_CONFIG_ERR_LEN bytes) says why. */
bool cuzk_config_defaults(cuzk_daemon_config *cfg, char *err);

/* Applies the TOML text over *cfg. source names it in messages ("cuzk.toml" or a path). On
 * failure *cfg may be partly updated and err holds "SOURCE:LINE:COL: KEY: what" for syntax or
 * "SOURCE: KEY: what (line N)" for values. warnings may be NULL. */
bool cuzk_config_load_string(cuzk_daemon_config *cfg, const char *text, size_t len,
                             const char *source, cuzk_config_warnings *warnings, char *err);
bool cuzk_config_load_file(cuzk_daemon_config *cfg, const char *path,
                           cuzk_config_warnings *warnings, char *err);

typedef enum {
  CUZK_CONFIG_ARGS_OK,      /* cfg is ready */
  CUZK_CONFIG_ARGS_HELP,    /* -h/--help: print cuzk_config_usage and exit 0 */
  CUZK_CONFIG_ARGS_VERSION, /* --version: print the build and exit 0 */
  CUZK_CONFIG_ARGS_ERROR    /* err says why */
} cuzk_config_args_result;

/* The daemon's command line: -c/--config FILE, -l/--listen ADDR (repeatable; replaces
 * daemon.listen), --log-level LEVEL, -h/--help, --version. Starts from the defaults, loads FILE (or
 * nothing more without -c), applies the overrides, then cuzk_config_check. Never prints or exits.
 */
cuzk_config_args_result cuzk_config_from_args(cuzk_daemon_config *cfg, int argc, char *const argv[],
                                              cuzk_config_warnings *warnings, char *err);
/* Usage text for -h (a static string). */
const char *cuzk_config_usage(void);

/* The checks of the final configuration, the command line's overrides applied (docs/config.md
 * "Checks at start"): a TCP listener beyond loopback without TLS needs daemon.allow_plaintext.
 * listen_source names where cfg->listen came from in err ("daemon.listen" or "--listen"). */
bool cuzk_config_check(const cuzk_daemon_config *cfg, const char *listen_source, char *err);

/* A listen address, parsed. */
typedef struct {
  bool is_unix;
  char path[CUZK_CONFIG_ADDR_LEN]; /* unix: the socket path */
  char host[64];                   /* tcp: the IP literal without brackets */
  bool ipv6;
  bool loopback; /* tcp: 127.0.0.0/8, ::1 or ::ffff:127.0.0.0/104 */
  uint16_t port;
} cuzk_listen_addr;

/* "unix://PATH" or "IP:port" ("[IPv6]:port"); hostnames are refused. false and err if malformed. */
bool cuzk_listen_parse(const char *s, cuzk_listen_addr *out, char *err);

/* Sizes: "64GiB", "512 MiB", "100GB", "4096"; units B, KiB, MiB, GiB, TiB, kB/KB, MB, GB, TB, none
 * for bytes. false if malformed (fractions such as "1.5GiB" too) or past 2^64 - 1. */
bool cuzk_parse_size(const char *s, uint64_t *bytes);
/* "250ms", "30s", "5m", "1h"; a bare number is seconds. */
bool cuzk_parse_duration_ms(const char *s, uint64_t *ms);

const char *cuzk_cfg_level_name(cuzk_cfg_level l);
bool cuzk_cfg_level_parse(const char *s, cuzk_cfg_level *out);

#endif
