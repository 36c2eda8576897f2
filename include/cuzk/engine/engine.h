/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The proving engine behind the daemon: jobs with server-generated ids, priority scheduling
 * (CRITICAL > HIGH > NORMAL > LOW, FIFO within one), the PoRep partition pipeline (synthesis
 * workers -> bounded queue -> prove workers, admission by the bytes a partition is measured to
 * use), partition batching across sectors, the SRS manager (parameter sets loaded once, shared
 * by reference, evicted LRU within a byte budget) and the metrics. Generic over proof kinds
 * (their descriptors: cuzk/kinds/kinds.h). All functions are thread-safe. Library
 * code: errors are returned, log lines go to the configured callback.
 */
#ifndef CUZK_ENGINE_H
#define CUZK_ENGINE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/kinds/kinds.h"
#include "cuzk/util/prom.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  CUZK_ENGINE_OK = 0,
  CUZK_ENGINE_EINVAL,    /* bad argument (message says which) */
  CUZK_ENGINE_ENOMEM,    /* allocation failed */
  CUZK_ENGINE_ENOTFOUND, /* no such job id (never existed or its result expired) / circuit id */
  CUZK_ENGINE_ESHUTDOWN, /* the engine is shutting down: no new jobs */
  CUZK_ENGINE_ETHREAD,   /* a thread could not be created */
  CUZK_ENGINE_EIO,       /* a parameter file could not be read or written */
  CUZK_ENGINE_EBUSY,     /* a queue limit: too many jobs of that priority waiting, or the bytes
                            of waiting inputs at their budget (RESOURCE_EXHAUSTED) */
} cuzk_engine_err;

/* A request_id longer than this is refused (EINVAL): it is kept with the result and logged. */
#define CUZK_REQUEST_ID_MAX 256

/* The configuration's ranges, one table for the engine and the daemon's config reader. */
#define CUZK_ENGINE_MAX_SYNTH_WORKERS 64
#define CUZK_ENGINE_MAX_PROVE_WORKERS 16
#define CUZK_ENGINE_MAX_PROVE_QUEUE 1024
#define CUZK_ENGINE_MAX_BATCH 64
/* batch_wait_ms at most: a partition never waits longer for company (docs/engine.md "Batching") */
#define CUZK_ENGINE_MAX_BATCH_WAIT_MS 10000
#define CUZK_ENGINE_MAX_QUEUED_JOBS 1000000
#define CUZK_ENGINE_MAX_RESULTS 10000000
const char *cuzk_engine_strerror(cuzk_engine_err e);

/* ProofKind and Priority are the kinds layer's (cuzk/kinds/kinds.h); AwaitProofResponse.Status's
 * wire values are below. */
/* "low", "normal", "high", "critical" (the metric label values); NULL for DEFAULT or another. */
const char *cuzk_priority_label(cuzk_priority p);

typedef enum {
  CUZK_JOB_UNKNOWN = 0, /* still queued or running (never a final status) */
  CUZK_JOB_COMPLETED = 1,
  CUZK_JOB_FAILED = 2,
  CUZK_JOB_CANCELLED = 3,
  CUZK_JOB_TIMEOUT = 4, /* only for a watch whose timeout passed; the job goes on */
} cuzk_job_status;

#define CUZK_JOB_ID_LEN 37 /* a UUIDv4 in text, NUL included */

typedef struct {
  const char *request_id; /* the caller's opaque, non-unique string (logs only); may be NULL */
  cuzk_proof_kind kind;
  cuzk_priority priority;
  uint64_t sector_size;         /* 0 = take it from the registered proof */
  uint64_t registered_proof;    /* the FFI ordinal */
  const uint8_t *vanilla_proof; /* PoRep: the C1 output (raw JSON or Curio's envelope); copied */
  size_t vanilla_proof_len;
  /* PoSt: one bincode FallbackPoStSectorProof per sector (WinningPoSt: exactly one); copied. */
  const uint8_t *const *vanilla_proofs;
  const size_t *vanilla_proofs_len;
  size_t n_vanilla_proofs;
  const uint8_t *randomness; /* PoSt: 32 bytes (another length fails the job, naming it) */
  size_t randomness_len;
  uint32_t partition_index; /* WindowPoSt: the partition's index in the deadline's sector list */
  /* PoRep: when miner_id != 0, the C1's replica_id must be the one of this miner and sector. */
  uint64_t sector_number, miner_id;
  /* SnapDeals: the three commitments, 32 bytes each (another length fails the job, naming it);
   * vanilla_proofs holds one bincode PartitionProof per partition, in partition order. */
  const uint8_t *comm_r_old, *comm_r_new, *comm_d_new;
  size_t comm_r_old_len, comm_r_new_len, comm_d_new_len;
} cuzk_job_request;

typedef struct {
  char job_id[CUZK_JOB_ID_LEN];
  cuzk_job_status status;
  uint8_t *proof; /* 192 bytes per partition, in partition order (COMPLETED only) */
  size_t proof_len;
  char error[512]; /* FAILED / CANCELLED: why */
  uint64_t queue_wait_ms, srs_load_ms, synthesis_ms, prove_ms, total_ms;
  /* how long its synthesized partitions waited in the prove queue for partners to batch with
   * (docs/engine.md "Batching"; part of total_ms, not of queue_wait_ms) */
  uint64_t batch_wait_ms;
} cuzk_job_result;

typedef enum {
  CUZK_IN_PLACE_AUTO = 0,
  CUZK_IN_PLACE_ALWAYS,
  CUZK_IN_PLACE_NEVER,
} cuzk_engine_in_place;

/* Log levels (the config's log_level picks the least severe printed). */
typedef enum { CUZK_LOG_ERROR, CUZK_LOG_WARN, CUZK_LOG_INFO, CUZK_LOG_DEBUG } cuzk_log_level;
typedef void (*cuzk_log_fn)(void *user, cuzk_log_level level, const char *job_id, const char *msg);

/* The one formatter of log lines for the engine, the service and the daemon: printf into a line
 * (cut at 1 KB) and handed to fn (nothing when fn is NULL); the sink adds time and level. */
void cuzk_logf(cuzk_log_fn fn, void *user, cuzk_log_level level, const char *job_id,
               const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void cuzk_vlogf(cuzk_log_fn fn, void *user, cuzk_log_level level, const char *job_id,
                const char *fmt, va_list ap) __attribute__((format(printf, 5, 0)));

typedef struct {
  unsigned threads;            /* the one shared pool; 0 = one per CPU */
  unsigned synthesis_workers;  /* partitions synthesized at once (each on one pool thread) */
  unsigned prove_workers;      /* proofs computed at once (each uses the pool) */
  unsigned prove_queue;        /* synthesized partitions waiting for a prove worker, at most */
  uint64_t memory_budget;      /* bytes for in-flight partitions; 0 = 3/4 of physical memory */
  uint64_t srs_budget;         /* bytes of loaded parameter sets; 0 = no limit but the memory */
  uint64_t warm_budget;        /* bytes of .params files of evicted sets kept mapped (WARM tier:
                                  reloaded without disk reads); 0 = no WARM tier,
                                  CUZK_ENGINE_WARM_AUTO = a quarter of physical memory */
  const char *param_cache;     /* parameter directory (NULL: $FIL_PROOFS_PARAMETER_CACHE, then
                                  /var/tmp/filecoin-proof-parameters) */
  bool generate_test_params;   /* parameters of test sizes (<= 512 MiB) missing from param_cache:
                                  use, or generate on first use, TEST parameters (seeded,
                                  insecure) in test_params_dir */
  const char *test_params_dir; /* NULL: param_cache */
  unsigned batch_max;          /* partitions proven together at most (1 = no batching) */
  unsigned batch_wait_ms;      /* how long a ready partition may wait for a partner on its way
                                  (at most CUZK_ENGINE_MAX_BATCH_WAIT_MS; docs/engine.md
                                  "Batching") */
  unsigned result_ttl_s;       /* how long an ended job's result stays retrievable */
  unsigned result_max;         /* ended results kept at most (the oldest go first); 0 = 10000 */
  /* Admission (docs/engine.md "Admission"): inputs of jobs not yet prepared are held in memory.
   * input_budget: their bytes at most (0 = 1/8 of physical memory); queue_max: waiting jobs per
   * priority at most (0 = 1000). Jobs other than CRITICAL may fill 3/4 of the budget only, so a
   * flood of them always leaves room for a WinningPoSt. Beyond a limit submit answers EBUSY. */
  uint64_t input_budget;
  unsigned queue_max;
  /* After this long without a job, the prover's cached buffers and the spare constraint systems
   * go back to the system (docs/engine.md "Memory given back"): back-to-back jobs reuse them,
   * an idle daemon does not hold gigabytes. 0 = at once; CUZK_ENGINE_IDLE_KEEP = never. */
  unsigned idle_release_ms;
  /* Synthesis of a partition: the witness only, with a, b, c from the circuit's matrices recorded
   * once per parameter set (true, the default: docs/r1cs.md "Pre-compiled constraints"), or every
   * linear combination built again (false: PROVE mode, kept for A/B). */
  bool precompiled;
  /* With precompiled: the recorded matrices also kept in a file beside the parameters (BASE.pce,
   * docs/r1cs.md "The .pce file"), read back at the next load when it is valid for them — never
   * trusted otherwise: a missing, stale or corrupt file is recorded again and rewritten. On by
   * default; a parameter directory that cannot be written only costs the recording. */
  bool pce_file;
  /* Where a loaded set's MSM bases are (docs/engine.md "Parameter sets read in place"): AUTO
   * reads a set in place (its .params file mapped, each MSM decoding its bases as it goes) when
   * the decoded set would not fit (its file larger than srs_budget, or than half of physical
   * memory without one), else decodes it; ALWAYS and NEVER force either. */
  cuzk_engine_in_place read_in_place;
  /* Accept synthetic inputs (the C1 of a synthetic sector, synthetic PoSt replicas, synthetic
   * SnapDeals updates: docs/porep.md "Synthetic sectors"); off by default: refused at prepare
   * with a message naming the setting (cuzk_kind_request.allow_synthetic). */
  bool allow_synthetic;
  bool verify_proofs; /* check every PoRep proof before answering (seal_commit_phase2's
                         verify_seal); on by default */
  /* Nonzero: r and s of every partition proven with TEST parameters come from this seed and the
   * partition index (cuzk_g16_seeded_rs, as cuzk-bench prove --deterministic), so the same
   * request gives the same proof bytes. Parameter sets whose .meta does not mark them TEST
   * parameters (cuzk_g16_meta_is_test) keep random r, s, and their load logs a warning: the same
   * r, s on two witnesses of one circuit reveal the witness. 0 = off (always random). */
  uint64_t test_deterministic_seed;
  cuzk_log_fn log;
  void *log_user;
  cuzk_log_level log_level;
} cuzk_engine_config;
#define CUZK_ENGINE_WARM_AUTO UINT64_MAX
#define CUZK_ENGINE_IDLE_KEEP UINT32_MAX
void cuzk_engine_config_default(cuzk_engine_config *c);

typedef struct cuzk_engine cuzk_engine;

cuzk_engine_err cuzk_engine_create(cuzk_engine **out, const cuzk_engine_config *cfg, char *msg,
                                   size_t msg_len);

/*
 * Queues a job and writes its new id. Only a request that cannot be a job is refused here
 * (EINVAL: a proof_kind no kind has (cuzk_kind_of), priority outside 0..4, a request_id over
 * CUZK_REQUEST_ID_MAX bytes, more vanilla_proofs than its kind can use
 * (cuzk_engine_check_vanilla_count); EBUSY: a queue limit, named in msg; ESHUTDOWN); every other
 * problem (a bad C1, missing parameters) makes the job end FAILED with the reason, so callers see
 * it in-band. queue_position: jobs queued ahead of it (may be NULL).
 */
cuzk_engine_err cuzk_engine_submit(cuzk_engine *e, const cuzk_job_request *r,
                                   char job_id[CUZK_JOB_ID_LEN], uint32_t *queue_position,
                                   char *msg, size_t msg_len);
/* EINVAL, msg naming the field, the count and the bound, when n elements of vanilla_proofs are
 * more than a job of kind and registered_proof can use (docs/engine.md "Admission"): none for
 * PoRep (its C1 goes in vanilla_proof), the sectors of one partition of the registered PoSt proof
 * (WinningPoSt: 1), the partitions of the update's sector size; for a registered_proof the kind
 * does not know, the kind's largest. cuzk_engine_submit checks it first; a server may check it
 * before it decodes the elements. OK for a proof_kind no kind has (submit refuses those). */
cuzk_engine_err cuzk_engine_check_vanilla_count(cuzk_proof_kind kind, uint64_t registered_proof,
                                                size_t n, char *msg, size_t msg_len);
/* The bytes r counts against input_budget while its job waits: the vanilla bytes, one length per
 * piece, the request_id and the job's own record. */
uint64_t cuzk_engine_input_charge(const cuzk_job_request *r);

/*
 * Waits for a job without blocking: fn(user, result) is called exactly once — with the final
 * result (at once, on this thread, if the job has ended), with status TIMEOUT when timeout_ms
 * (0 = none) passes first, or with status UNKNOWN when the watch is dropped (unwatch, shutdown).
 * The result and its proof belong to the engine and are valid only during the call. fn runs on an
 * engine thread and must not block; it may call any engine function but unwatch of its own watch.
 * *watch (may be NULL) names the watch. ENOTFOUND for an unknown or expired job id (fn is not
 * called).
 */
typedef void (*cuzk_job_done_fn)(void *user, const cuzk_job_result *r);
cuzk_engine_err cuzk_engine_watch(cuzk_engine *e, const char *job_id, uint64_t timeout_ms,
                                  cuzk_job_done_fn fn, void *user, uint64_t *watch);
/* Ends a watch early: if its fn has not been called, it is called now (status UNKNOWN) before
 * this returns; if it is being called on another thread, this waits for it to return. */
void cuzk_engine_unwatch(cuzk_engine *e, uint64_t watch);

/* Blocking wait: copies the result (proof malloc'd; cuzk_job_result_clear frees it). */
cuzk_engine_err cuzk_engine_await(cuzk_engine *e, const char *job_id, uint64_t timeout_ms,
                                  cuzk_job_result *out);
void cuzk_job_result_clear(cuzk_job_result *r);

/*
 * Cancels a job. Queued: it ends CANCELLED at once. Running: it stops at the next partition or
 * prover stage boundary and ends CANCELLED (*was_running = true); while its parameter set loads,
 * it stops waiting for another job's load at once, and a load no other job (nor PreloadSRS)
 * wants is abandoned between chunks, leaving the set COLD and no file written (docs/engine.md
 * "Cancellation"). Ended: nothing changes. ENOTFOUND for an unknown id.
 */
cuzk_engine_err cuzk_engine_cancel(cuzk_engine *e, const char *job_id, bool *was_running);

/* ---- parameter sets ------------------------------------------------------------------------- */
/* Circuit ids: "porep-2k", "porep-8m", "porep-512m", "porep-32g", "porep-64g", the same sizes
 * for "winning-*" and "wpost-*" (WinningPoSt, WindowPoSt; docs/engine.md "Proof kinds"). Tier as
 * SRSStatus.Tier: HOT (decoded in memory), WARM (evicted from memory, its .params file kept mapped
 * and in the page cache: loading it again decodes without disk reads), COLD (on disk only). */
enum { CUZK_SRS_HOT = 0, CUZK_SRS_WARM = 1, CUZK_SRS_COLD = 2 };
typedef struct {
  char circuit_id[24];
  int tier;
  uint64_t bytes; /* decoded in memory when HOT, the mapped file when WARM, 0 when COLD */
  uint32_t refs;  /* jobs using it now */
} cuzk_srs_info;

/* The i-th circuit id the engine knows, in the order GetStatus lists the sets; NULL past the last.
 * Needs no engine: the daemon checks srs.preload against it before starting one. */
const char *cuzk_engine_circuit_id(size_t i);

/* Loads a set now (already: it was loaded). ENOTFOUND for an unknown circuit id, EIO for a
 * missing or bad file (msg has the path). */
cuzk_engine_err cuzk_engine_preload(cuzk_engine *e, const char *circuit_id, bool *already,
                                    uint64_t *load_ms, char *msg, size_t msg_len);
/* Unloads a set no job is using: HOT -> WARM (or COLD when the WARM tier is off or too small),
 * freed_bytes its decoded size; a WARM set goes COLD (was_loaded false, nothing freed in the
 * process). was_loaded is false if it was not HOT or is in use. */
cuzk_engine_err cuzk_engine_evict(cuzk_engine *e, const char *circuit_id, bool *was_loaded,
                                  uint64_t *freed_bytes);

/* ---- status and metrics --------------------------------------------------------------------- */
/* Where a job is. A running job's partitions move through a pipeline, several at once: its stage
 * is the furthest any of them has got (PROVING while one is in the prover, else SYNTHESIZING while
 * one is being synthesized, else WAITING: partitions wait for memory, a worker or the prover). */
typedef enum {
  CUZK_STAGE_QUEUED,    /* waiting for the scheduler */
  CUZK_STAGE_PREPARING, /* its request parsed and checked, its parameters loaded (or generated) */
  CUZK_STAGE_SYNTHESIZING, /* a partition being synthesized, none in the prover */
  CUZK_STAGE_PROVING,      /* a partition in the prover */
  CUZK_STAGE_WAITING,      /* running, nothing computed for it right now */
  CUZK_STAGE_VERIFYING,    /* every partition proven: the self-check, then the answer */
} cuzk_job_stage;
/* "queued", "preparing", "synthesizing", "proving", "waiting", "verifying"; NULL for another. */
const char *cuzk_job_stage_name(cuzk_job_stage s);

/* A job queued or running (cuzk_engine_status.jobs, GetStatus, /status). */
typedef struct {
  char job_id[CUZK_JOB_ID_LEN];
  cuzk_proof_kind kind;
  cuzk_priority priority; /* LOW..CRITICAL (the kind's default resolved) */
  cuzk_job_stage stage;
  uint32_t partitions;      /* 0 until prepared */
  uint32_t partitions_done; /* proven */
  /* the partition worked on (0-based): the lowest in the prover, else the lowest being
   * synthesized, else the lowest synthesized and waiting for the prover; -1 when none */
  int32_t partition;
  uint64_t submitted_ms_ago;
} cuzk_job_info;

typedef struct {
  cuzk_srs_info *srs; /* every known set, loaded or not */
  size_t n_srs;
  cuzk_job_info *jobs; /* every job queued or running, in scheduling order */
  size_t n_jobs;
  uint32_t pending[CUZK_NUM_PROOF_KINDS], running[CUZK_NUM_PROOF_KINDS];
  uint64_t completed, failed, cancelled, uptime_s;
  uint64_t memory_used, memory_budget; /* in-flight partitions + loaded sets */
} cuzk_engine_status;
cuzk_engine_err cuzk_engine_get_status(cuzk_engine *e, cuzk_engine_status *out);
void cuzk_engine_status_free(cuzk_engine_status *s);
/* Prometheus text exposition (the reference's metric names plus per-stage histograms, queue
 * depth, memory, SRS bytes) and the /status JSON; malloc'd, NULL on allocation failure. */
char *cuzk_engine_metrics_text(cuzk_engine *e);
/* The registry behind cuzk_engine_metrics_text, where a program adds families of its own (the
 * daemon's cuzk_build_info); it lives as long as the engine. */
cuzk_prom_registry *cuzk_engine_prom(cuzk_engine *e);
char *cuzk_engine_status_json(cuzk_engine *e);

/* Holds stages of the pipeline (hold true) or lets them go on (false), for tests that need jobs
 * to meet at a stage whatever the machine's speed, and for maintenance. SYNTHESIS: no job is
 * prepared and no partition handed out (the CRITICAL lane's included); PROVING: prove workers
 * take nothing and synthesized partitions wait in the prove queue (synthesis stops when it is
 * full). Work already started runs to its end. */
enum { CUZK_ENGINE_HOLD_SYNTHESIS = 1, CUZK_ENGINE_HOLD_PROVING = 2 };
void cuzk_engine_hold(cuzk_engine *e, unsigned stages, bool hold);

/* Stops accepting jobs. cancel: queued and running jobs end CANCELLED (running ones at their next
 * boundary); else they run to the end. Returns when no job is running or grace_ms passed
 * (0 = wait for ever); false if jobs were still running then (they are cancelled). */
bool cuzk_engine_shutdown(cuzk_engine *e, bool cancel, unsigned grace_ms);
/* Shuts down (cancelling) if needed, ends every watch, joins the threads, frees. */
void cuzk_engine_destroy(cuzk_engine *e);

#ifdef __cplusplus
}
#endif
#endif
