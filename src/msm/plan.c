/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Pippenger cost model. One tile (window w, a range of m points, B = 2^(c-1) buckets) costs
 *   m * scan                                   reading digits
 *   + (m - filled(m, B)) * add                 bucket additions (a bucket's first point is a copy)
 *   + B * reduction                            sum_b (b+1) bucket_b (reduce.inc)
 * with filled(m, B) = B (1 - e^(-m/B)) buckets hit at least once by m uniform digits. The
 * affine addition also carries its batch's share of the inversion, and both kinds of addition
 * slow down as the bucket array leaves the caches. Tiles run in rounds of `workers`, so the plan
 * minimises ceil(tiles / workers) * tile cost over c, the number of point ranges and the method.
 */
#include "msm/plan.h"

#include "cuzk/curve/curve.h"
#include "cuzk/field/field.h"
#include "cuzk/util/pool.h"

/* ns on the reference VM; see plan.h. */
const msm_costs msm_costs_g1 = {.affine_add = 250,
                                .affine_per_doubling = 8,
                                .xyzz_madd = 335,
                                .xyzz_per_doubling = 50,
                                .inversion = 1650,
                                .red_affine = 510,
                                .red_mixed = 800,
                                .red_xyzz = 900,
                                .scan = 4,
                                .mul = 62000,
                                .affine_bytes = sizeof(cuzk_g1_affine),
                                .xyzz_bytes = 4 * sizeof(cuzk_fp)};
/* G1 with the additions on IFMA lanes (docs/msm.md "Cost model with IFMA"), measured like the
 * table above on the 2-core Zen 5 VM (bench/msm --threads 1 --cpu --method affine --ifma, time
 * per point between two sizes at one window): 110 ns at c = 12 (2^16..2^18), 94.5 at c = 15
 * (2^18..2^20), each an addition, a scan, a share of the inversion and the cache penalty; 80 + 4
 * per doubling fits both within 15 % (the scalar table is 2 % off at c = 12, 15 % at c = 15).
 * red_affine from c = 16 at 2^16 (two of these additions per bucket); the inversion of a flush:
 * one scalar inversion and 21 products for the eight lanes' chain ends. XYZZ: the scalar values. */
const msm_costs msm_costs_g1_ifma = {.affine_add = 80,
                                     .affine_per_doubling = 4,
                                     .xyzz_madd = 335,
                                     .xyzz_per_doubling = 50,
                                     .inversion = 2350,
                                     .red_affine = 190,
                                     .red_mixed = 800,
                                     .red_xyzz = 900,
                                     .scan = 4,
                                     .mul = 62000,
                                     .affine_bytes = sizeof(cuzk_g1_affine),
                                     .xyzz_bytes = 4 * sizeof(cuzk_fp)};
/* G2 with the additions on IFMA lanes (batch_affine_ifma_g2.inc), measured as the G1 table
 * (bench/msm --g2 ... --threads 1 --cpu --method affine --ifma, time per point between two
 * sizes at one window, docs/msm.md "Cost model with IFMA"): 337 ns at c = 12 (2^16..2^18),
 * 354-380 at c = 15 (2^18..2^20); 320 + 20 per doubling fits both. red_affine: two of these
 * additions per bucket, as in the scalar table; the inversion of a flush: one scalar Fp2 batch
 * inversion of eight chain ends with their conversions. XYZZ: the scalar values. */
const msm_costs msm_costs_g2_ifma = {.affine_add = 320,
                                     .affine_per_doubling = 20,
                                     .xyzz_madd = 810,
                                     .xyzz_per_doubling = 70,
                                     .inversion = 4000,
                                     .red_affine = 640,
                                     .red_mixed = 1870,
                                     .red_xyzz = 2200,
                                     .scan = 4,
                                     .mul = 212000,
                                     .affine_bytes = sizeof(cuzk_g2_affine),
                                     .xyzz_bytes = 4 * sizeof(cuzk_fp2),
                                     .g2 = true};
const msm_costs msm_costs_g2 = {.affine_add = 570,
                                .affine_per_doubling = 18,
                                .xyzz_madd = 810,
                                .xyzz_per_doubling = 70,
                                .inversion = 1650,
                                .red_affine = 1150,
                                .red_mixed = 1870,
                                .red_xyzz = 2200,
                                .scan = 4,
                                .mul = 212000,
                                .affine_bytes = sizeof(cuzk_g2_affine),
                                .xyzz_bytes = 4 * sizeof(cuzk_fp2),
                                .g2 = true};

const msm_costs *msm_costs_for(bool g2) {
  bool ifma = cuzk_field_ifma_enabled();
  return g2 ? (ifma ? &msm_costs_g2_ifma : &msm_costs_g2)
            : (ifma ? &msm_costs_g1_ifma : &msm_costs_g1);
}

size_t msm_batch_cap(unsigned c) {
  size_t nb = (size_t)1 << (c - 1), cap = nb / 8;
  if (cap < 16) cap = 16;
  if (cap > 512) cap = 512;
  return cap;
}

unsigned msm_workers(const cuzk_msm_opts *o) {
  if (!o || !o->pool) return 1;
  unsigned t = cuzk_pool_threads(o->pool);
  if (o->max_workers && o->max_workers < t) t = o->max_workers;
  return t ? t : 1;
}

/* e^(-x) for x >= 0 without libm: halve x until small, 4 Taylor terms, square back. */
static double exp_neg(double x) {
  if (x > 60.0) return 0.0;
  int k = 0;
  while (x > 0.01) {
    x *= 0.5;
    k++;
  }
  double e = 1.0 - x + x * x / 2.0 - x * x * x / 6.0;
  while (k-- > 0)
    e *= e;
  return e;
}

/* Doublings of `bytes` beyond 512 KB (0 below). */
static double doublings(double bytes) {
  double d = 0;
  for (double b = bytes; b > 512.0 * 1024; b *= 0.5)
    d += 1.0;
  return d;
}

static double tile_cost(const msm_costs *k, cuzk_msm_method m, unsigned c, double pts) {
  double nb = (double)((size_t)1 << (c - 1));
  double filled = nb * (1.0 - exp_neg(pts / nb)), adds = pts - filled;
  if (m == CUZK_MSM_AFFINE) {
    double add = k->affine_add + k->affine_per_doubling * doublings(nb * k->affine_bytes) +
                 k->inversion / (double)msm_batch_cap(c);
    /* reduce.inc: batched lanes once at least half the buckets are filled */
    double red = nb >= 1024 && 2.0 * filled >= nb ? k->red_affine : k->red_mixed;
    return pts * k->scan + adds * add + nb * red + k->inversion;
  }
  double add = k->xyzz_madd + k->xyzz_per_doubling * doublings(nb * k->xyzz_bytes);
  return pts * k->scan + adds * add + nb * k->red_xyzz;
}

/* Bytes of one tile's buckets (the batch's queue and the reduction's lanes are small beside). */
static double tile_bytes(const msm_costs *k, cuzk_msm_method m, unsigned c) {
  double nb = (double)((size_t)1 << (c - 1));
  return m == CUZK_MSM_AFFINE ? nb * (double)(k->affine_bytes + k->xyzz_bytes + 1)
                              : nb * (double)(k->xyzz_bytes + 1);
}

void msm_plan_make(msm_plan *pl, size_t n, unsigned workers, const msm_costs *k,
                   const cuzk_msm_opts *o) {
  msm_plan_make_capped(pl, n, workers, k, o, 0);
}

void msm_plan_make_capped(msm_plan *pl, size_t n, unsigned workers, const msm_costs *k,
                          const cuzk_msm_opts *o, size_t all_tiles_bytes) {
  cuzk_msm_method m;
  unsigned c;
  if ((!o || (o->method == CUZK_MSM_AUTO && !o->window)) &&
      msm_cal_lookup(k, n, workers ? workers : 1, &m, &c)) {
    cuzk_msm_opts x = o ? *o : (cuzk_msm_opts){0};
    x.method = m;
    x.window = c;
    msm_plan_model(pl, n, workers, k, &x, all_tiles_bytes);
    pl->calibrated = true;
    if (pl->method != CUZK_MSM_NAIVE) return; /* else the window is over the bucket bound */
  }
  msm_plan_model(pl, n, workers, k, o, all_tiles_bytes);
}

void msm_plan_model(msm_plan *pl, size_t n, unsigned workers, const msm_costs *k,
                    const cuzk_msm_opts *o, size_t all_tiles_bytes) {
  cuzk_msm_method forced = o ? o->method : CUZK_MSM_AUTO;
  unsigned forced_c = o ? o->window : 0;
  if (workers == 0) workers = 1;
  double best = 1e300;
  *pl = (msm_plan){.method = CUZK_MSM_NAIVE,
                   .c = 1,
                   .nwin = 0,
                   .ny = 1,
                   .slots = 1,
                   .cap = 0,
                   .calibrated = false};
  if (forced == CUZK_MSM_NAIVE || (forced == CUZK_MSM_AUTO && !forced_c))
    best = (double)n * k->mul; /* run on the calling thread */
  if (forced == CUZK_MSM_NAIVE) return;
  unsigned c_lo = forced_c ? forced_c : 1, c_hi = forced_c ? forced_c : CUZK_MSM_MAX_WINDOW;
  for (unsigned c = c_lo; c <= c_hi; c++) {
    unsigned nwin = (255 + c - 1) / c;
    for (int mi = 0; mi < 2; mi++) {
      cuzk_msm_method m = mi ? CUZK_MSM_XYZZ : CUZK_MSM_AFFINE;
      if (forced != CUZK_MSM_AUTO && forced != m) continue;
      /* Point ranges beyond 4 per worker only add reductions. */
      for (unsigned ny = 1; ny <= 4 * workers; ny++) {
        double pts = (double)n / ny;
        if (ny > 1 && pts < 64) break;
        unsigned tiles = nwin * ny, rounds = (tiles + workers - 1) / workers;
        if (all_tiles_bytes && tiles * tile_bytes(k, m, c) > (double)all_tiles_bytes) break;
        double cost = rounds * tile_cost(k, m, c, pts) + nwin * c * k->red_xyzz / 2;
        if (cost < best * 0.999) { /* ties go to the smaller window and fewer ranges */
          best = cost;
          pl->method = m;
          pl->c = c;
          pl->nwin = nwin;
          pl->ny = ny;
        }
      }
    }
  }
  unsigned tiles = pl->nwin * pl->ny;
  pl->slots = pl->method == CUZK_MSM_NAIVE ? 1 : (tiles < workers ? tiles : workers);
  pl->cap = pl->method == CUZK_MSM_AFFINE ? msm_batch_cap(pl->c) : 0;
}
