/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The SRS manager: one parameter set per circuit of every proof kind, loaded on first use (or
 * PreloadSRS), shared by reference count, evicted least recently used among the unreferenced ones
 * when the loaded sets exceed the byte budget. An evicted set goes WARM when its file fits the WARM
 * budget: the .params file stays mapped and is read into the page cache, so loading it again only
 * decodes (no disk read); the least recently demoted WARM sets go COLD when the budget is exceeded.
 * Missing files of test sizes may be generated (TEST parameters) when the configuration allows it.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#ifdef __GLIBC__    /* defined by the headers above */
#include <malloc.h> /* malloc_trim */
#endif

#include "cuzk/hashes/sha256.h"
#include "engine/engine_internal.h"

/* Before a partition was measured: the witness, PROVE mode's a, b, c and densities, and what the
 * prover's backend takes for one proof (its domain vectors: docs/backends.md "Memory"). */
static uint64_t estimate_part_bytes(const cuzk_g16_set *set, bool precompiled) {
  uint64_t m = set->n_h + 1, vars = set->vk->n_ic + set->n_l;
  cuzk_g16_mem mem;
  cuzk_g16_estimate(set, precompiled, &mem);
  return 32 * vars + (precompiled ? 0 : 3 * 32 * m + m / 2) + mem.host_bytes;
}

/* Every circuit of every kind, in the kinds' order (GetStatus lists them so). */
void eng_srs_init(cuzk_engine *e) {
  e->n_srs = 0;
  const cuzk_kind *k;
  for (size_t n = 0; (k = cuzk_kind_at(n)); n++)
    for (unsigned i = 0; i < k->n_circuits && e->n_srs < ENG_MAX_SRS; i++) {
      srs_set *s = &e->srs[e->n_srs++];
      memset(s, 0, sizeof *s);
      atomic_init(&s->abandon, 0);
      s->circ = &k->circuits[i];
      if (!s->circ->param_base(s->base, sizeof s->base, e->param_cache, s->circ->arg) ||
          !s->circ->param_base(s->test_base, sizeof s->test_base, e->test_params_dir, s->circ->arg))
        s->base[0] = 0;
    }
}

srs_set *eng_srs_for(cuzk_engine *e, const cuzk_kind_circuit *c) {
  for (unsigned i = 0; i < e->n_srs; i++)
    if (e->srs[i].circ == c) return &e->srs[i];
  return NULL;
}

srs_set *eng_srs_by_id(cuzk_engine *e, const char *id) {
  for (unsigned i = 0; i < e->n_srs; i++)
    if (!strcmp(e->srs[i].circ->id, id)) return &e->srs[i];
  return NULL;
}

static bool file_ok(const char *base, const char *ext) {
  char path[4200];
  snprintf(path, sizeof path, "%s%s", base, ext);
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The daemon's log while TEST parameters are generated (minutes for the larger test sizes): the
 * generator's progress (cuzk/util/progress.h, points of the query vectors) as info lines, the
 * first, then at most one every ENG_PROGRESS_LOG_S seconds, and the last; the others as debug
 * lines. */
#define ENG_PROGRESS_LOG_S 5.0
typedef struct {
  cuzk_engine *e;
  const char *circuit;
  double t0, last;
} gen_log;

/* The level of a progress line at now: info for the first, the last and one every
 * ENG_PROGRESS_LOG_S seconds (noted in g), debug for the others. */
static cuzk_log_level progress_level(gen_log *g, bool last, double now) {
  if (g->last >= 0 && !last && now - g->last < ENG_PROGRESS_LOG_S) return CUZK_LOG_DEBUG;
  g->last = now;
  return CUZK_LOG_INFO;
}

static void gen_progress(void *ctx, const char *step, uint64_t done, uint64_t total) {
  gen_log *g = ctx;
  double now = eng_now(), dt = now - g->t0;
  bool last = done >= total;
  cuzk_log_level lv = progress_level(g, last, now);
  char rate[80] = "";
  if (done && dt > 0) {
    double r = (double)done / dt;
    if (last)
      snprintf(rate, sizeof rate, ", %.0f points/s, %.1f s", r, dt);
    else
      snprintf(rate, sizeof rate, ", %.0f points/s, %.0f s left", r, (double)(total - done) / r);
  }
  eng_log(g->e, lv, NULL, "%s: TEST parameters: %s %s, %llu of %llu points (%.0f%%)%s", g->circuit,
          last ? "all" : "vector", last ? "vectors" : step, (unsigned long long)done,
          (unsigned long long)total, total ? 100.0 * (double)done / (double)total : 100.0, rate);
}

/* Whether a set whose .params file has `bytes` is read in place (docs/engine.md "Parameter sets
 * read in place"): when decoding it would not fit the SRS budget, or half of physical memory
 * without one. */
static bool read_in_place(const cuzk_engine *e, uint64_t bytes) {
  switch (e->cfg.read_in_place) {
  case CUZK_IN_PLACE_ALWAYS: return true;
  case CUZK_IN_PLACE_NEVER: return false;
  case CUZK_IN_PLACE_AUTO: break;
  }
  uint64_t room = e->cfg.srs_budget ? e->cfg.srs_budget : e->phys_bytes / 2;
  return bytes > room;
}

/* unlocked: loads s's files into params/pvk (generating test parameters first if allowed), or,
 * with *in_place (decided here), only pvk: the backend then reads the bases from the file.
 * *used is the base the files were found under. Stops at s->abandon: a generation then writes
 * no file, a decode returns nothing. */
static bool load(cuzk_engine *e, srs_set *s, cuzk_g16_params **params, cuzk_g16_pvk **pvk,
                 const char **used, bool *in_place, char *msg, size_t len) {
  if (!s->base[0]) {
    snprintf(msg, len, "%s: parameter path too long", s->circ->id);
    return false;
  }
  const char *base = s->base;
  if (!file_ok(base, ".params") || !file_ok(base, ".vk")) {
    if (!e->cfg.generate_test_params || s->circ->sector_bytes > (UINT64_C(512) << 20)) {
      snprintf(msg, len, "%s: parameter file %s.params (or .vk) not found", s->circ->id, s->base);
      return false;
    }
    base = s->test_base;
    if (!file_ok(base, ".params") || !file_ok(base, ".vk")) {
      eng_log(e, CUZK_LOG_WARN, NULL,
              "%s: generating TEST parameters into %s (insecure: for tests and development)",
              s->circ->id, e->test_params_dir);
      double gen_s = 0;
      gen_log g = {e, s->circ->id, eng_now(), -1};
      cuzk_progress progress = {gen_progress, &g, &s->abandon};
      if (!s->circ->setup_test(s->circ->arg, e->test_params_dir, e->pool, &progress, &gen_s, msg,
                               len)) {
        if (atomic_load(&s->abandon))
          eng_log(e, CUZK_LOG_INFO, NULL, "%s: TEST parameters: generation stopped (cancelled)",
                  s->circ->id);
        return false;
      }
      eng_log(e, CUZK_LOG_INFO, NULL, "%s: TEST parameters generated in %.1f s", s->circ->id,
              gen_s);
    }
  }
  *used = base;
  char path[4200];
  struct stat st;
  snprintf(path, sizeof path, "%s.params", base);
  *in_place = stat(path, &st) == 0 && read_in_place(e, (uint64_t)st.st_size);
  if (*in_place) return cuzk_g16_pvk_load(base, pvk, msg, len) == CUZK_G16_OK;
  return cuzk_g16_params_load(base, e->pool, &s->abandon, params, pvk, msg, len) == CUZK_G16_OK;
}

/* unlocked: decodes a WARM set's mapping (consumed); false with *stale if the file changed since
 * it was mapped (the caller loads it afresh) */
static bool load_warm(cuzk_engine *e, srs_set *s, cuzk_file_map *m, const char *base,
                      cuzk_g16_params **params, bool *stale, bool *in_place, char *msg,
                      size_t len) {
  char path[4200];
  snprintf(path, sizeof path, "%s.params", base);
  *stale = !cuzk_file_map_current(m, path);
  *in_place = read_in_place(e, m->len); /* the backend then maps the file itself */
  bool ok = !*stale && (*in_place || cuzk_g16_params_decode(m, path, e->pool, &s->abandon, params,
                                                            msg, len) == CUZK_G16_OK);
  cuzk_file_map_close(m);
  if (*stale)
    eng_log(e, CUZK_LOG_WARN, NULL, "%s: %s changed since it was kept WARM: reading it again",
            s->circ->id, path);
  return ok;
}

/* The .params file's size of an attached set: its key and vector lengths give it (the reader
 * refuses trailing bytes), decoded or read in place alike. */
static uint64_t set_file_bytes(const cuzk_g16_set *set) {
  cuzk_g16_params p = {.vk = *set->vk,
                       .n_h = set->n_h,
                       .n_l = set->n_l,
                       .n_a = set->n_a,
                       .n_b1 = set->n_b1,
                       .n_b2 = set->n_b2};
  return cuzk_g16_params_size(&p);
}

/* What a .pce file must have been recorded for: SHA-256 over the circuit id, the verifying key's
 * bytes and the parameters' size — new parameters for a circuit make an old file stale. */
static bool pce_tag(uint8_t tag[32], const srs_set *s, const cuzk_g16_set *set) {
  size_t n = cuzk_g16_vk_size(set->vk);
  uint8_t *vk = malloc(n);
  if (!vk) return false;
  cuzk_g16_vk_write(vk, set->vk);
  uint64_t size = set_file_bytes(set);
  cuzk_sha256_ctx c;
  cuzk_sha256_init(&c);
  cuzk_sha256_update(&c, s->circ->id, strlen(s->circ->id) + 1);
  cuzk_sha256_update(&c, vk, n);
  cuzk_sha256_update(&c, &size, sizeof size);
  cuzk_sha256_final(&c, tag);
  free(vk);
  return true;
}

/* The circuit's matrices for the pre-compiled evaluator: from BASE.pce when it is valid for these
 * parameters, else a RECORD-mode synthesis of the blank circuit, compacted, then written there
 * (docs/r1cs.md "Pre-compiled constraints", "The .pce file"). NULL with msg on failure; both the
 * reading and the recording stop at s->abandon (the file is written only once recorded whole). */
static cuzk_pce *record_pce(cuzk_engine *e, srs_set *s, const cuzk_g16_set *set, const char *base,
                            char *msg, size_t len) {
  double t0 = eng_now();
  char path[sizeof s->base + 8], why[512] = "";
  uint8_t tag[32];
  bool file = e->cfg.pce_file && base && base[0] && pce_tag(tag, s, set) &&
              (size_t)snprintf(path, sizeof path, "%s.pce", base) < sizeof path;
  cuzk_pce *pce = NULL;
  if (file) {
    cuzk_r1cs_err r =
        cuzk_pce_read_file(&pce, path, s->circ->id, tag, &s->abandon, why, sizeof why);
    if (r == CUZK_R1CS_ECANCELLED) {
      snprintf(msg, len, "%s: %s", s->circ->id, why);
      return NULL;
    }
    if (!r) {
      eng_log(e, CUZK_LOG_INFO, NULL, "%s: constraint matrices read from %s in %.2f s (%.1f MiB)",
              s->circ->id, path, eng_now() - t0, (double)cuzk_pce_bytes(pce) / 1048576.0);
      return pce;
    }
    /* a missing file is the first load; anything else is a file not to be trusted */
    if (r != CUZK_R1CS_EIO)
      eng_log(e, CUZK_LOG_WARN, NULL, "%s: %s: recording the matrices again", s->circ->id, why);
  }
  cuzk_r1cs_err r = cuzk_pce_record(&pce, s->circ->blank, s->circ->arg, &s->abandon, msg, len);
  if (r == CUZK_R1CS_EINVAL) return NULL; /* the blank circuit's own message */
  if (r) {
    snprintf(msg, len, "%s: recording the constraint matrices: %s", s->circ->id,
             cuzk_r1cs_strerror(r));
    return NULL;
  }
  eng_log(e, CUZK_LOG_INFO, NULL,
          "%s: constraint matrices recorded in %.2f s (%zu constraints, %zu coefficients, %.1f "
          "MiB)",
          s->circ->id, eng_now() - t0, cuzk_pce_num_constraints(pce),
          cuzk_pce_num_coefficients(pce), (double)cuzk_pce_bytes(pce) / 1048576.0);
  /* written, then mapped in place of the recording: its pages are the page cache's, not the
   * set's (a 32 GiB circuit's evaluator is 6-8 GB) */
  if (file && (r = cuzk_pce_write_file_mapped(&pce, path, s->circ->id, tag, &s->abandon, NULL)))
    eng_log(e, CUZK_LOG_WARN, NULL, "%s: cannot write %s (%s): the next load records again",
            s->circ->id, path, cuzk_r1cs_strerror(r));
  return pce;
}

/* The log while a file read in place is checked once (minutes at 32 GiB), paced as gen_progress. */
static void check_progress(void *ctx, const char *step, uint64_t done, uint64_t total) {
  gen_log *g = ctx;
  double now = eng_now(), dt = now - g->t0;
  bool last = done >= total;
  cuzk_log_level lv = progress_level(g, last, now);
  char left[64] = "";
  if (done && dt > 0 && !last)
    snprintf(left, sizeof left, ", %.0f s left", (double)(total - done) * dt / (double)done);
  eng_log(g->e, lv, NULL,
          "%s: checking its parameter file once (read in place): %s, %llu of %llu "
          "points (%.0f%%)%s",
          g->circuit, last ? "all vectors" : step, (unsigned long long)done,
          (unsigned long long)total, total ? 100.0 * (double)done / (double)total : 100.0, left);
}

/* unlocked: the set attached to the prover's backend (the CPU one: docs/backends.md): the decoded
 * params (borrowed, detached before they are freed), or, without params, BASE.params read in
 * place (the backend maps it and checks it once). NULL with msg on failure. */
static cuzk_g16_set *attach(cuzk_engine *e, srs_set *s, const cuzk_g16_params *params,
                            const char *base, char *msg, size_t len) {
  char path[4200];
  snprintf(path, sizeof path, "%s.params", base);
  cuzk_g16_source src = {CUZK_G16_SOURCE_DECODED, params, NULL, NULL, false, false, NULL};
  gen_log g = {e, s->circ->id, eng_now(), -1};
  cuzk_progress progress = {check_progress, &g, &s->abandon};
  if (!params)
    src = (cuzk_g16_source){CUZK_G16_SOURCE_MAPPED, NULL, NULL, path, true, false, &progress};
  cuzk_g16_exec x = {e->pool, 0, &s->abandon};
  cuzk_g16_set *set = NULL;
  char why[256];
  if (cuzk_g16_attach(&set, cuzk_g16_backend_cpu(), &src, &x, why, sizeof why)) {
    snprintf(msg, len, "%s: attaching its parameters to the prover: %s", s->circ->id, why);
    return NULL;
  }
  return set;
}

/* locked: the acquirer (j, or PreloadSRS for NULL) no longer wants s: the load is abandoned when
 * nobody does. A cancelled job was already let go by eng_srs_job_cancelled. */
static void unwant(srs_set *s, eng_job *j) {
  if (j && j->acquiring != s) return;
  if (j) j->acquiring = NULL;
  if (s->wanted && --s->wanted == 0 && s->loading) atomic_store(&s->abandon, 1);
}

void eng_srs_job_cancelled(cuzk_engine *e, eng_job *j) {
  if (!j->acquiring) return;
  unwant(j->acquiring, j);
  pthread_cond_broadcast(&e->srs_cv); /* if it waits for another's load, it leaves now */
}

static bool cancelled(const eng_job *j) { return j && atomic_load(&j->cancel); }

bool eng_srs_acquire(cuzk_engine *e, srs_set *s, eng_job *j, double *load_s, char *msg,
                     size_t len) {
  *load_s = 0;
  pthread_mutex_lock(&e->mu);
  if (!cancelled(j)) { /* counted until it has the set, gives up, or is cancelled */
    s->wanted++;
    if (j) j->acquiring = s;
  }
  while (s->loading && !cancelled(j))
    pthread_cond_wait(&e->srs_cv, &e->mu);
  if (cancelled(j)) {
    pthread_mutex_unlock(&e->mu);
    snprintf(msg, len, "%s: cancelled while its parameters loaded", s->circ->id);
    return false;
  }
  if (s->set) {
    unwant(s, j);
    s->refs++;
    s->last_used = eng_now();
    pthread_mutex_unlock(&e->mu);
    return true;
  }
  s->loading = true;
  atomic_store(&s->abandon, 0);
  /* a WARM set's mapping and key pass to this thread while it loads */
  cuzk_file_map warm = s->warm;
  cuzk_g16_pvk *pvk = NULL;
  const char *used = s->loaded_base;
  if (warm.data) {
    e->warm_bytes -= warm.len;
    memset(&s->warm, 0, sizeof s->warm);
    pvk = s->pvk;
    s->pvk = NULL;
  }
  pthread_mutex_unlock(&e->mu);

  double t0 = eng_now();
  cuzk_g16_params *params = NULL; /* stays NULL for a set read in place */
  bool stale = false, from_warm = warm.data != NULL, in_place = false;
  bool ok = from_warm && load_warm(e, s, &warm, used, &params, &stale, &in_place, msg, len);
  if (from_warm && !ok) {
    cuzk_g16_pvk_free(pvk);
    pvk = NULL;
  }
  if (!from_warm || stale) ok = load(e, s, &params, &pvk, &used, &in_place, msg, len);
  cuzk_g16_set *set = NULL; /* the prover reaches the bases only through it */
  if (ok && !(set = attach(e, s, params, used, msg, len))) {
    cuzk_g16_params_free(params);
    cuzk_g16_pvk_free(pvk);
    ok = false;
  }
  cuzk_pce *pce = NULL; /* recorded with every load: it lives and goes with the parameters */
  if (ok && e->cfg.precompiled && !(pce = record_pce(e, s, set, used, msg, len))) {
    cuzk_g16_detach(set);
    set = NULL;
    cuzk_g16_params_free(params);
    cuzk_g16_pvk_free(pvk);
    ok = false;
  }
  /* deterministic r, s only where the .meta file marks TEST parameters (docs/config.md) */
  char meta[sizeof s->base + 8] = "";
  bool test = ok && e->cfg.test_deterministic_seed &&
              (size_t)snprintf(meta, sizeof meta, "%s.meta", used) < sizeof meta &&
              cuzk_g16_meta_is_test(meta);
  *load_s = eng_now() - t0;

  pthread_mutex_lock(&e->mu);
  /* abandoned (every acquirer cancelled): whatever the last step left is dropped, the set COLD */
  if (ok && atomic_load(&s->abandon)) {
    cuzk_g16_detach(set);
    set = NULL;
    cuzk_pce_free(pce);
    cuzk_g16_params_free(params);
    cuzk_g16_pvk_free(pvk);
    pce = NULL, params = NULL, pvk = NULL;
    ok = false;
  }
  if (!ok && atomic_load(&s->abandon)) {
    snprintf(msg, len, "%s: cancelled while its parameters loaded", s->circ->id);
    eng_log(e, CUZK_LOG_INFO, NULL,
            "%s: load abandoned after %.2f s: every job waiting for it was "
            "cancelled",
            s->circ->id, *load_s);
  }
  s->loading = false;
  unwant(s, j);
  if (ok) {
    s->seeded = test;
    if (e->cfg.test_deterministic_seed)
      eng_log(e, test ? CUZK_LOG_INFO : CUZK_LOG_WARN, NULL,
              test ? "%s: TEST parameters (%s): r, s of its proofs from the deterministic seed"
                   : "%s: %s does not mark TEST parameters: test_deterministic_seed ignored, r, s "
                     "stay random",
              s->circ->id, meta);
    s->params = params;
    s->set = set;
    s->pvk = pvk;
    s->pce = pce;
    s->loaded_base = used;
    /* what the set pins: a set read in place pins no bases, a mapped .pce none of its matrices
     * (the page cache holds what the prover reads, and gives it back under pressure) */
    s->in_place = in_place;
    s->bytes = (in_place ? 0 : cuzk_g16_params_size(params)) +
               (pce ? cuzk_pce_bytes(pce) - cuzk_pce_mapped_bytes(pce) : 0);
    e->srs_bytes += s->bytes;
    s->refs++;
    s->last_used = eng_now();
    if (!s->part_measured) s->part_bytes = estimate_part_bytes(set, pce != NULL);
    eng_stage(e, ST_SRS_LOAD, *load_s);
    eng_log(e, CUZK_LOG_INFO, NULL, "%s: loaded %.1f MiB in %.2f s%s", s->circ->id,
            (double)s->bytes / 1048576.0, *load_s,
            in_place              ? " (read in place: the MSMs decode the bases from the file)"
            : from_warm && !stale ? " (from WARM: decoded from the mapped file)"
                                  : "");
    eng_srs_evict_over_budget(e);
  }
  pthread_cond_broadcast(&e->srs_cv);
  pthread_mutex_unlock(&e->mu);
  return ok;
}

int eng_srs_tier(const srs_set *s) {
  return s->set ? CUZK_SRS_HOT : s->warm.data ? CUZK_SRS_WARM : CUZK_SRS_COLD;
}

/* locked: WARM -> COLD */
static void cool(cuzk_engine *e, srs_set *s) {
  eng_log(e, CUZK_LOG_INFO, NULL, "%s: WARM mapping dropped (%.1f MiB file): COLD", s->circ->id,
          (double)s->warm.len / 1048576.0);
  e->warm_bytes -= s->warm.len;
  cuzk_file_map_close(&s->warm);
  cuzk_g16_pvk_free(s->pvk);
  s->pvk = NULL;
}

/* locked: the least recently demoted WARM sets go COLD while the WARM files exceed the budget */
static void cool_over_budget(cuzk_engine *e) {
  while (e->warm_bytes > e->warm_budget) {
    srs_set *lru = NULL;
    for (unsigned i = 0; i < e->n_srs; i++) {
      srs_set *s = &e->srs[i];
      if (s->warm.data && (!lru || s->warm_since < lru->warm_since)) lru = s;
    }
    if (!lru) return;
    cool(e, lru);
  }
}

void eng_trim_heap(void) {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

void eng_give_back_memory(void) {
  cuzk_buffer_trim();
  eng_trim_heap();
}

/* locked: HOT -> WARM if its file fits the WARM budget, else COLD. Mapping the file and asking
 * for readahead are quick system calls; the reading happens in the background. */
static void unload(cuzk_engine *e, srs_set *s) {
  cuzk_g16_detach(s->set);
  s->set = NULL;
  cuzk_g16_params_free(s->params);
  s->params = NULL;
  cuzk_pce_free(s->pce);
  s->pce = NULL;
  /* give the memory back to the system: the vectors went to the buffer cache (for the next
   * load), and malloc keeps freed heap pages unless asked */
  eng_give_back_memory();
  e->srs_bytes -= s->bytes;
  double mib = (double)s->bytes / 1048576.0;
  s->bytes = 0;
  char path[4200];
  snprintf(path, sizeof path, "%s.params", s->loaded_base); /* set by the load that made it HOT */
  if (e->warm_budget && cuzk_file_map_open(&s->warm, path)) {
    if (s->warm.data && s->warm.len <= e->warm_budget) {
      cuzk_file_map_willneed(&s->warm);
      s->warm_since = eng_now();
      e->warm_bytes += s->warm.len;
      eng_log(e, CUZK_LOG_INFO, NULL, "%s: evicted from memory (%.1f MiB): WARM (file mapped)",
              s->circ->id, mib);
      cool_over_budget(e);
      return;
    }
    cuzk_file_map_close(&s->warm);
  }
  cuzk_g16_pvk_free(s->pvk);
  s->pvk = NULL;
  eng_log(e, CUZK_LOG_INFO, NULL, "%s: evicted (%.1f MiB): COLD", s->circ->id, mib);
}

void eng_srs_release(cuzk_engine *e, srs_set *s) {
  if (s->refs) s->refs--;
  s->last_used = eng_now();
  eng_srs_evict_over_budget(e);
}

void eng_srs_evict_over_budget(cuzk_engine *e) {
  while (e->cfg.srs_budget && e->srs_bytes > e->cfg.srs_budget) {
    srs_set *lru = NULL;
    for (unsigned i = 0; i < e->n_srs; i++) {
      srs_set *s = &e->srs[i];
      if (s->set && !s->refs && !s->loading && (!lru || s->last_used < lru->last_used)) lru = s;
    }
    if (!lru) return; /* everything loaded is in use */
    unload(e, lru);
  }
}

void eng_srs_free_all(cuzk_engine *e) {
  e->warm_budget = 0; /* nothing goes WARM on the way out */
  for (unsigned i = 0; i < e->n_srs; i++) {
    if (e->srs[i].set) unload(e, &e->srs[i]);
    if (e->srs[i].warm.data) cool(e, &e->srs[i]);
  }
}

cuzk_engine_err cuzk_engine_preload(cuzk_engine *e, const char *circuit_id, bool *already,
                                    uint64_t *load_ms, char *msg, size_t len) {
  if (!e || !circuit_id) return CUZK_ENGINE_EINVAL;
  srs_set *s = eng_srs_by_id(e, circuit_id);
  if (!s) {
    snprintf(msg, len, "unknown circuit id: %s", circuit_id);
    return CUZK_ENGINE_ENOTFOUND;
  }
  pthread_mutex_lock(&e->mu);
  bool was = s->set != NULL;
  pthread_mutex_unlock(&e->mu);
  double t = 0;
  if (!eng_srs_acquire(e, s, NULL, &t, msg, len)) return CUZK_ENGINE_EIO;
  pthread_mutex_lock(&e->mu);
  s->refs--; /* loaded, not held */
  pthread_mutex_unlock(&e->mu);
  if (already) *already = was;
  if (load_ms) *load_ms = was ? 0 : (uint64_t)(t * 1000.0 + 0.5);
  return CUZK_ENGINE_OK;
}

cuzk_engine_err cuzk_engine_evict(cuzk_engine *e, const char *circuit_id, bool *was_loaded,
                                  uint64_t *freed) {
  if (!e || !circuit_id) return CUZK_ENGINE_EINVAL;
  srs_set *s = eng_srs_by_id(e, circuit_id);
  if (!s) return CUZK_ENGINE_ENOTFOUND;
  pthread_mutex_lock(&e->mu);
  bool ok = s->set && !s->refs && !s->loading;
  uint64_t bytes = ok ? s->bytes : 0;
  if (ok)
    unload(e, s); /* HOT -> WARM or COLD */
  else if (s->warm.data && !s->loading)
    cool(e, s); /* WARM -> COLD: no process memory freed */
  pthread_mutex_unlock(&e->mu);
  if (was_loaded) *was_loaded = ok;
  if (freed) *freed = bytes;
  return CUZK_ENGINE_OK;
}
