/* The SRS manager: one parameter set per PoRep sector size, loaded on first use (or PreloadSRS),
 * shared by reference count, evicted least recently used among the unreferenced ones when the
 * loaded sets exceed the byte budget. Missing files of test sizes may be generated (TEST
 * parameters) when the configuration allows it. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/engine_internal.h"

/* The registered proofs whose circuits the engine serves: the V1_1 proof of each registered
 * sector size (V1 and the synthetic variant prove with the same circuit and parameters). */
static const struct {
  unsigned proof_id;
  const char *id;
} sets[ENG_NUM_SRS] = {
    {5, "porep-2k"}, {6, "porep-8m"}, {7, "porep-512m"}, {8, "porep-32g"}, {9, "porep-64g"}};

/* A partition's admission cost before one was measured: the witness, a/b/c and the prover's
 * three domain-sized vectors (its MSM scratch is small next to them). */
static uint64_t estimate_part_bytes(const cuzk_g16_params *p) {
  uint64_t m = p->n_h + 1, vars = p->vk.n_ic + p->n_l;
  return 32 * vars + 3 * 32 * m + 3 * 32 * m + m / 2;
}

void eng_srs_init(cuzk_engine *e) {
  for (unsigned i = 0; i < ENG_NUM_SRS; i++) {
    srs_set *s = &e->srs[i];
    memset(s, 0, sizeof *s);
    snprintf(s->id, sizeof s->id, "%s", sets[i].id);
    if (cuzk_seal_proof_by_id(&s->proof, sets[i].proof_id) ||
        !cuzk_c2_param_base(s->base, sizeof s->base, e->param_cache, s->proof) ||
        !cuzk_c2_param_base(s->test_base, sizeof s->test_base, e->test_params_dir, s->proof))
      s->base[0] = 0;
  }
}

srs_set *eng_srs_for_sector(cuzk_engine *e, uint64_t sector_bytes) {
  for (unsigned i = 0; i < ENG_NUM_SRS; i++)
    if (e->srs[i].proof && e->srs[i].proof->sector->bytes == sector_bytes) return &e->srs[i];
  return NULL;
}

srs_set *eng_srs_by_id(cuzk_engine *e, const char *id) {
  for (unsigned i = 0; i < ENG_NUM_SRS; i++)
    if (!strcmp(e->srs[i].id, id)) return &e->srs[i];
  return NULL;
}

static bool file_ok(const char *base, const char *ext) {
  char path[4200];
  snprintf(path, sizeof path, "%s%s", base, ext);
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* unlocked: loads s's files into params/pvk (generating test parameters first if allowed) */
static bool load(cuzk_engine *e, srs_set *s, cuzk_g16_params **params, cuzk_g16_pvk **pvk,
                 char *msg, size_t len) {
  if (!s->base[0]) {
    snprintf(msg, len, "%s: parameter path too long", s->id);
    return false;
  }
  const char *base = s->base;
  if (!file_ok(base, ".params") || !file_ok(base, ".vk")) {
    if (!e->cfg.generate_test_params || s->proof->sector->bytes > (UINT64_C(512) << 20)) {
      snprintf(msg, len, "%s: parameter file %s.params (or .vk) not found", s->id, s->base);
      return false;
    }
    base = s->test_base;
    if (!file_ok(base, ".params") || !file_ok(base, ".vk")) {
      eng_log(e, CUZK_LOG_WARN, NULL,
              "%s: generating TEST parameters into %s (insecure: for tests and development)", s->id,
              e->test_params_dir);
      double gen_s = 0;
      if (cuzk_c2_setup_test_params(s->proof, e->test_params_dir, e->pool, &gen_s, msg, len))
        return false;
      eng_log(e, CUZK_LOG_INFO, NULL, "%s: TEST parameters generated in %.1f s", s->id, gen_s);
    }
  }
  return cuzk_c2_params_load(base, e->pool, params, pvk, msg, len) == CUZK_POREP_OK;
}

bool eng_srs_acquire(cuzk_engine *e, srs_set *s, double *load_s, char *msg, size_t len) {
  *load_s = 0;
  pthread_mutex_lock(&e->mu);
  while (s->loading)
    pthread_cond_wait(&e->srs_cv, &e->mu);
  if (s->params) {
    s->refs++;
    s->last_used = eng_now();
    pthread_mutex_unlock(&e->mu);
    return true;
  }
  s->loading = true;
  pthread_mutex_unlock(&e->mu);

  double t0 = eng_now();
  cuzk_g16_params *params = NULL;
  cuzk_g16_pvk *pvk = NULL;
  bool ok = load(e, s, &params, &pvk, msg, len);
  *load_s = eng_now() - t0;

  pthread_mutex_lock(&e->mu);
  s->loading = false;
  if (ok) {
    s->params = params;
    s->pvk = pvk;
    s->bytes = cuzk_g16_params_size(params);
    e->srs_bytes += s->bytes;
    s->refs++;
    s->last_used = eng_now();
    if (!s->part_measured) s->part_bytes = estimate_part_bytes(params);
    eng_stage(e, ST_SRS_LOAD, *load_s);
    eng_log(e, CUZK_LOG_INFO, NULL, "%s: loaded %.1f MiB in %.2f s", s->id,
            (double)s->bytes / 1048576.0, *load_s);
    eng_srs_evict_over_budget(e);
  }
  pthread_cond_broadcast(&e->srs_cv);
  pthread_mutex_unlock(&e->mu);
  return ok;
}

static void unload(cuzk_engine *e, srs_set *s) {
  eng_log(e, CUZK_LOG_INFO, NULL, "%s: evicted (%.1f MiB)", s->id, (double)s->bytes / 1048576.0);
  cuzk_g16_params_free(s->params);
  cuzk_g16_pvk_free(s->pvk);
  s->params = NULL;
  s->pvk = NULL;
  e->srs_bytes -= s->bytes;
  s->bytes = 0;
}

void eng_srs_release(cuzk_engine *e, srs_set *s) {
  if (s->refs) s->refs--;
  s->last_used = eng_now();
  eng_srs_evict_over_budget(e);
}

void eng_srs_evict_over_budget(cuzk_engine *e) {
  while (e->cfg.srs_budget && e->srs_bytes > e->cfg.srs_budget) {
    srs_set *lru = NULL;
    for (unsigned i = 0; i < ENG_NUM_SRS; i++) {
      srs_set *s = &e->srs[i];
      if (s->params && !s->refs && !s->loading && (!lru || s->last_used < lru->last_used)) lru = s;
    }
    if (!lru) return; /* everything loaded is in use */
    unload(e, lru);
  }
}

void eng_srs_free_all(cuzk_engine *e) {
  for (unsigned i = 0; i < ENG_NUM_SRS; i++)
    if (e->srs[i].params) unload(e, &e->srs[i]);
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
  bool was = s->params != NULL;
  pthread_mutex_unlock(&e->mu);
  double t = 0;
  if (!eng_srs_acquire(e, s, &t, msg, len)) return CUZK_ENGINE_EIO;
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
  bool ok = s->params && !s->refs && !s->loading;
  uint64_t bytes = ok ? s->bytes : 0;
  if (ok) unload(e, s);
  pthread_mutex_unlock(&e->mu);
  if (was_loaded) *was_loaded = ok;
  if (freed) *freed = bytes;
  return CUZK_ENGINE_OK;
}
