/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The engine's shared state (include/cuzk/engine/engine.h). One mutex (e->mu) guards everything
 * below that changes after creation; the heavy work (C1 parsing, synthesis, proving, parameter
 * loading, verification, watch callbacks) always runs with it released. Jobs move
 * QUEUED -> PREPARING -> RUNNING -> FINISHING -> ENDED; the active list holds the first four in
 * scheduling order (priority, then submission order), which is also the order partitions are
 * synthesized and proven in.
 */
#ifndef CUZK_ENGINE_INTERNAL_H
#define CUZK_ENGINE_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "cuzk/engine/engine.h"
#include "cuzk/groth16/g16_backend.h"
#include "cuzk/groth16/groth16.h"
#include "cuzk/kinds/kinds.h"
#include "cuzk/r1cs/pce.h"
#include "cuzk/r1cs/r1cs.h"
#include "cuzk/util/file_map.h"
#include "cuzk/util/pool.h"
#include "cuzk/util/progress.h"
#include "cuzk/util/prom.h"

typedef enum { JOB_QUEUED, JOB_PREPARING, JOB_RUNNING, JOB_FINISHING, JOB_ENDED } job_state;

/* Why a job failed, the label of cuzk_proofs_failed_by_reason_total (metrics.c names them): a
 * small fixed set, never the message. Set where the failure is found (prepare_finish.c from the
 * kind's error class, workers.c); read by eng_end. */
typedef enum {
  ENG_FAIL_REQUEST,    /* a request field, or a vanilla proof that does not parse */
  ENG_FAIL_VANILLA,    /* a vanilla proof (C1, PoSt sector, update) that parses but does not hold */
  ENG_FAIL_PARAMETERS, /* the parameter set could not be found, generated, loaded or recorded */
  ENG_FAIL_SYNTHESIS,  /* a partition's synthesis */
  ENG_FAIL_PROVING,    /* the prover */
  ENG_FAIL_VERIFICATION, /* the proofs' self-check */
  ENG_FAIL_MEMORY,       /* an allocation */
  ENG_NUM_FAIL_REASONS
} eng_fail_reason;

/* Where each partition of a running job is (eng_job.part_state): what GetStatus and /status
 * report as the job's stage and current partition (jobs.c: eng_job_stage). */
typedef enum {
  PART_PENDING,      /* not handed out yet */
  PART_SYNTHESIZING, /* a synthesis worker has it */
  PART_SYNTHESIZED,  /* waiting for room in the prove queue, or in it */
  PART_PROVING,      /* in a prove worker's batch */
  PART_PROVEN,
  PART_DROPPED, /* left without a proof: its job failed or was cancelled */
  ENG_NUM_PART_STATES
} eng_part_state;

typedef struct eng_job eng_job;

/* One parameter set (a circuit): loaded once, shared by reference count. Tiers: HOT (attached to
 * the prover's backend: params decoded in memory, or read in place from its mapped file), WARM
 * (not attached, its .params file kept mapped and read into the page cache: loading it again
 * reads no disk), COLD (neither). pvk stays while HOT or WARM. */
typedef struct {
  const cuzk_kind_circuit *circ;
  char base[4096];         /* file path without extension, in param_cache */
  char test_base[4096];    /* the same in test_params_dir (generated TEST parameters) */
  cuzk_g16_params *params; /* NULL unless loaded decoded */
  cuzk_g16_set *set;       /* attached to the prover's backend while loaded (HOT) */
  bool in_place;           /* HOT and read in place (docs/engine.md "Parameter sets read in
                              place"): params NULL */
  cuzk_g16_pvk *pvk;
  const char *loaded_base; /* base or test_base: the files params/pvk came from */
  cuzk_file_map warm;      /* mapped while WARM */
  double warm_since;       /* LRU among WARM sets */
  uint64_t bytes;          /* in memory while loaded */
  unsigned refs;           /* jobs holding it */
  bool loading;            /* one thread loads; the others wait on srs_cv */
  /* While loading: the acquirers (the loader and those waiting) that still want the set — every
   * job not cancelled, and PreloadSRS. When it drops to 0, abandon is set: the loader stops at
   * its next check (decode, generation, .pce reading or recording) and leaves the set COLD
   * (docs/engine.md "Cancellation"). */
  unsigned wanted;
  _Atomic int abandon;
  double last_used;    /* LRU */
  uint64_t part_bytes; /* admission cost of one partition: estimated, then measured */
  bool part_measured;
  cuzk_pce *pce; /* with precompiled: the recorded matrices, made with params, freed with them */
  bool seeded;   /* TEST parameters with test_deterministic_seed set: r, s from the seed */
} srs_set;
#define ENG_MAX_SRS 24

typedef struct watch {
  uint64_t id;
  eng_job *job;
  cuzk_job_done_fn fn;
  void *user;
  double deadline; /* monotonic seconds; 0 = none */
  int state;       /* W_WAITING, W_FIRING */
  struct watch *next;
} watch;
enum { W_WAITING = 0, W_FIRING = 1 };

struct eng_job {
  char id[CUZK_JOB_ID_LEN];
  char *request_id;
  cuzk_proof_kind kind;
  cuzk_priority prio;
  uint64_t seq;
  const cuzk_kind *ops; /* its kind (docs/kinds.md) */
  uint64_t registered_proof, sector_size, miner_id, sector_number;
  /* The request's vanilla proofs until prepared: n_inputs pieces of input_lens[i] bytes, stored
   * one after another in input: vanilla_proof first if it was set (PoRep: the C1), then the
   * n_list_inputs elements of vanilla_proofs (PoSt: one per sector). */
  uint8_t *input;
  size_t input_len, n_inputs, n_list_inputs, *input_lens;
  /* what the job counts against input_budget until eng_free_input (cuzk_engine_input_charge:
   * the bytes, their lengths, the request_id and the job itself) */
  uint64_t input_charge;
  _Atomic uint64_t *input_meter; /* the engine's input_used while input_charge is counted in it */
  uint8_t randomness[32];        /* PoSt; randomness_len as received (only 32 is valid) */
  size_t randomness_len;
  uint32_t partition_index;
  uint8_t comm[3][32]; /* SnapDeals: comm_r_old, comm_r_new, comm_d_new; comm_len as received */
  size_t comm_len[3];
  job_state state;
  _Atomic int cancel;          /* read by workers and the prover without the lock */
  bool failed;                 /* a partition failed: skip the others */
  char error[512];             /* the first failure */
  eng_fail_reason fail_reason; /* its class, when the job ends FAILED */
  void *work;                  /* the kind's prepared request (ops->free_work) */
  srs_set *srs;
  srs_set *acquiring; /* locked: the set it loads or waits for, counted in its wanted */
  unsigned parts, next_part, in_flight, proved;
  cuzk_g16_proof *proofs;
  uint8_t *part_state; /* eng_part_state per partition; set (locked) once prepared */
  /* monotonic seconds */
  double t_submit, t_start, t_end, synth_s, prove_s, srs_s;
  double batch_wait_s;    /* its partitions' waits for a batch to fill (workers.c) */
  cuzk_job_result result; /* valid once ENDED */
  unsigned refs;          /* workers and firing watches using it */
  eng_job *hnext;         /* job table bucket */
  eng_job *anext;         /* active list */
};

/* A synthesized partition waiting for a prove worker. */
typedef struct prove_item {
  eng_job *job;
  unsigned part;
  cuzk_cs *cs;
  uint64_t bytes; /* reserved from the memory budget */
  double t_ready; /* when it was queued (its wait for a batch starts no earlier) */
  struct prove_item *next;
} prove_item;

#define ENG_BUCKETS 1024
enum { ST_QUEUE, ST_SRS_LOAD, ST_SYNTHESIS, ST_BATCH_WAIT, ST_PROVE, ST_VERIFY, ENG_NUM_STAGES };

struct cuzk_engine {
  cuzk_engine_config cfg;
  char param_cache[4096], test_params_dir[4096];
  pthread_mutex_t mu;
  pthread_cond_t work_cv;  /* synthesis workers: new job, partition, budget or state change */
  pthread_cond_t prove_cv; /* prove workers: items queued */
  pthread_cond_t space_cv; /* the prove queue has room */
  pthread_cond_t timer_cv; /* the timer thread: watches to fire, deadlines changed */
  pthread_cond_t watch_cv; /* a firing watch returned */
  pthread_cond_t srs_cv;   /* a parameter set finished loading */
  pthread_cond_t idle_cv;  /* a job ended */
  cuzk_pool *pool;
  pthread_t *threads;                   /* synthesis workers, prove workers, the timer */
  unsigned n_threads, n_synth, n_prove; /* n_synth / n_prove include the CRITICAL lane's one */
  struct eng_worker *workers;           /* the arguments of the synthesis and prove threads */
  bool stopping;                        /* no new jobs */
  bool quitting;                        /* threads exit */
  bool hold_synth, hold_prove;          /* cuzk_engine_hold: those workers take nothing */

  eng_job *buckets[ENG_BUCKETS];
  eng_job *active; /* QUEUED..FINISHING, scheduling order */
  uint64_t next_seq;

  prove_item *pq; /* ordered like the active list, then by partition */
  unsigned pq_len;

  cuzk_cs **free_cs; /* PROVE-mode systems kept for reuse (their buffers stay mapped) */
  unsigned n_free_cs, max_free_cs;
  double idle_since; /* when the last active job ended; 0 while jobs run or once released */
  /* Inputs of cancelled and failed jobs freed since the heap was last trimmed, and when the timer
   * thread trims it (docs/engine.md "Memory given back"; 0: not due) */
  uint64_t trim_bytes;
  double trim_at;

  uint64_t mem_used, mem_budget;
  uint64_t phys_bytes;         /* physical memory (8 GiB when unknown) */
  uint64_t input_budget;       /* admission: bytes of unprepared inputs (cfg or default) */
  _Atomic uint64_t input_used; /* ... held now; freed by eng_free_input without the lock */
  unsigned queue_max, result_max;
  unsigned n_ended; /* ended jobs still in the table */
  srs_set srs[ENG_MAX_SRS];
  unsigned n_srs;
  uint64_t srs_bytes;
  uint64_t warm_bytes, warm_budget; /* file bytes of WARM sets; 0 budget: no WARM tier */

  watch *watches;
  uint64_t next_watch;

  double t_created;
  unsigned synth_active, prove_active;
  /* metrics (metrics.c): updated as things happen, the one record of the counts; gauges
   * refreshed when rendered */
  cuzk_prom_registry *prom;
  cuzk_prom_series *m_completed_total, *m_failed_total, *m_cancelled_total, *m_uptime,
      *m_queue_depth, *m_running, *m_workers, *m_mem_used, *m_mem_budget, *m_srs_bytes,
      *m_warm_bytes, *m_prove_queue, *m_synth_active, *m_synth_held, *m_prove_active, *m_rss,
      *m_input_used, *m_input_budget;
  cuzk_prom_series *m_completed[CUZK_NUM_PROOF_KINDS], *m_failed[CUZK_NUM_PROOF_KINDS],
      *m_duration[CUZK_NUM_PROOF_KINDS];
  cuzk_prom_series *m_stage[ENG_NUM_STAGES];
  cuzk_prom_series *m_failed_reason[ENG_NUM_FAIL_REASONS];
  cuzk_prom_series *m_queued_prio[CUZK_PRIORITY_CRITICAL + 1]; /* [LOW..CRITICAL] */
  cuzk_prom_metric *f_srs_loaded;
};

/* ---- jobs.c -----------------------------------------------------------------------------------
 */
double eng_now(void);
void eng_log(cuzk_engine *e, cuzk_log_level lv, const char *job_id, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
bool eng_new_id(char id[CUZK_JOB_ID_LEN]);
eng_job *eng_find(cuzk_engine *e, const char *id); /* locked */
void eng_insert(cuzk_engine *e, eng_job *j);       /* locked: table + active list */
/* The scheduling order, the one rule for the active list and the prove queue: a runs before b
 * if its priority is higher, or equal and it was submitted first. */
bool eng_job_before(const eng_job *a, const eng_job *b);
void eng_free_input(eng_job *j); /* the request's vanilla proofs, once prepared */
/* locked: the job ends with status/msg; removes it from the active list, releases its parameter
 * set, frees its work data, counts it and wakes its watches. */
void eng_end(cuzk_engine *e, eng_job *j, cuzk_job_status status, const char *msg);
void *eng_timer_main(void *arg);
void eng_free_job(eng_job *j);
/* locked: j's stage and the partition worked on (-1: none), as cuzk_job_info describes them. */
cuzk_job_stage eng_job_stage(const eng_job *j, int *partition);
extern const char *const eng_part_state_names[ENG_NUM_PART_STATES];

/* ---- srs.c ------------------------------------------------------------------------------------
 */
void eng_srs_init(cuzk_engine *e);
srs_set *eng_srs_for(cuzk_engine *e, const cuzk_kind_circuit *c);
srs_set *eng_srs_by_id(cuzk_engine *e, const char *id);
/* unlocked: loads (or generates test parameters, if allowed and missing) and takes a
 * reference for j (NULL: PreloadSRS). false with msg on failure, or once j is cancelled: a job
 * waiting for another's load leaves at once; the loader stops when no acquirer wants the set any
 * more (eng_srs_job_cancelled). */
bool eng_srs_acquire(cuzk_engine *e, srs_set *s, eng_job *j, double *load_s, char *msg, size_t len);
/* locked: j was just cancelled; if it was acquiring a set it no longer wants it (the load is
 * abandoned if nobody else does) and it stops waiting. */
void eng_srs_job_cancelled(cuzk_engine *e, eng_job *j);
void eng_srs_release(cuzk_engine *e, srs_set *s); /* locked */
void eng_srs_evict_over_budget(cuzk_engine *e);   /* locked */
int eng_srs_tier(const srs_set *s);               /* locked: CUZK_SRS_HOT/WARM/COLD */
void eng_srs_free_all(cuzk_engine *e);
/* Unmaps the buffer cache's idle buffers and returns freed heap pages (malloc_trim). */
void eng_give_back_memory(void);
/* Returns freed heap pages only (malloc_trim): the buffer cache stays for the next job. */
void eng_trim_heap(void);
/* Inputs of cancelled or failed jobs freed go back to the system at once when they reach this
 * many bytes since the last trim or the last job ends, else ENG_TRIM_DELAY_S after the last of
 * them (a flood cancelled job by job is trimmed once it is all gone). */
#define ENG_TRIM_BYTES (UINT64_C(64) << 20)
#define ENG_TRIM_DELAY_S 0.2

/* ---- prepare_finish.c -------------------------------------------------------------------------
 */
/* unlocked: the kind's prepare over the job's request, then its parameter set acquired; fills
 * work, parts, proofs. */
bool eng_prepare_job(cuzk_engine *e, eng_job *j, char *msg, size_t len);
/* unlocked: the kind's self-check (when configured), then the proof bytes in j->result. */
bool eng_finish_job(cuzk_engine *e, eng_job *j, char *msg, size_t len);

/* ---- metrics.c --------------------------------------------------------------------------------
 */
bool eng_metrics_init(cuzk_engine *e); /* false if memory ran out */
void eng_stage(cuzk_engine *e, int stage, double seconds);

/* ---- workers.c --------------------------------------------------------------------------------
 */
/* A synthesis or prove thread. The configured workers take any work; one more of each, the
 * CRITICAL lane, takes only CRITICAL work, so that a WinningPoSt never waits for a worker busy
 * with lower-priority work (docs/engine.md "Priorities"). */
typedef struct eng_worker {
  cuzk_engine *e;
  bool critical_lane;
} eng_worker;
void *eng_synth_main(void *arg); /* arg: eng_worker */
void *eng_prove_main(void *arg);
/* locked: ends j if it has nothing in flight and is done, failed or cancelled (may unlock to
 * verify). */
void eng_maybe_finish(cuzk_engine *e, eng_job *j);

#endif
