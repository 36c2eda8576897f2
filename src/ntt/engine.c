/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The radix-2 pass engine: one DIF or DIT transform, cache-blocked and multi-threaded.
 *
 * The k levels are cut into a few passes of at most NTT_PASS_LG levels each (2^20: 10 + 10;
 * 2^24: 8 + 8 + 8; 2^27: 9 + 9 + 9). A pass over levels [lo, lo + b) splits the vector into
 * independent tiles: an entry's position is p = g·2^(lo+b) + r·2^lo + c, and the levels of the
 * pass only mix entries that share g and c. A tile is one g and C consecutive c (4 to 16),
 * with all 2^b rows r:
 *   - the bottom pass (lo = 0) has one column, so a tile is a contiguous block worked in place;
 *   - the other passes copy the tile (2^b rows of C entries, C·32 B apart in the scratch) into a
 *     worker's scratch, run the b levels there and copy it back. The rows are 2^lo entries apart
 *     in the vector, a power of two: worked in place they would fall into the same few cache
 *     sets. In the scratch a level is an ordinary radix-2 stage with half-size 2^(s-lo)·C and
 *     one twiddle per butterfly column, gathered per tile from the tower.
 * Each pass is one cuzk_parallel_for over its tiles; the transform makes about k / 10 sweeps of
 * memory instead of k.
 *
 * Element scalings (1/n, the coset powers) ride along in the copy-in or copy-out of the first or
 * last pass. Butterflies with twiddle 1 skip the multiplication (in the bottom pass, every
 * block's first butterfly; about n multiplications per transform).
 *
 * Kernels: on CPUs with AVX-512 IFMA, passes run ifma.c's eight-lane tiles (eight blocks of the
 * bottom pass, or eight columns of a strided tile, at once; ~4x the scalar butterflies); the
 * scalar stages below serve small sizes (< 2^11), other CPUs, and check the vector ones in tests.
 */
#include <stdatomic.h>
#include <string.h>

#include "field/limbs.h"
#include "ntt/pass.h"

#define NTT_PASS_LG 10 /* levels per pass (scalar blocks 32 KiB; IFMA tiles 8 x 2^10, 320 KiB) */
#define NTT_TILE_LG 12 /* a strided tile holds about 2^12 entries (128 KiB, within L2) */
#define NTT_TILE_MIN_COLS 4 /* at least 128 B (two cache lines) per row */
#define NTT_PAR_MIN_LG 11   /* below this the transform runs on the calling thread */
#define NTT_IFMA_MIN_LG 11  /* and below this on the scalar kernels (a few microseconds) */

/* Test and benchmark knobs (ntt_set_tuning); relaxed atomics, read once per transform. */
static atomic_uint tune_pass_lg = NTT_PASS_LG, tune_tower_top = NTT_TOWER_TOP,
                   tune_tile_lg = NTT_TILE_LG;

void ntt_set_tuning(unsigned pass_lg, unsigned tower_top, unsigned tile_lg) {
  atomic_store_explicit(&tune_tile_lg, tile_lg ? tile_lg : NTT_TILE_LG, memory_order_relaxed);
  /* a derived level s reads the stored level s - lo < pass_lg */
  if (pass_lg == 0 || pass_lg > NTT_TOWER_TOP + 1) pass_lg = NTT_PASS_LG;
  atomic_store_explicit(&tune_pass_lg, pass_lg, memory_order_relaxed);
  atomic_store_explicit(&tune_tower_top, tower_top < NTT_TOWER_TOP ? tower_top : NTT_TOWER_TOP,
                        memory_order_relaxed);
}

typedef struct {
  unsigned lo, b; /* levels [lo, lo + b) */
} ntt_pass;

/* Passes in DIF order (top levels first), sizes as equal as possible, larger ones at the bottom
 * (the contiguous pass is the cheapest per level). */
static unsigned ntt_plan(unsigned k, unsigned pass_lg, ntt_pass *out) {
  unsigned np = (k + pass_lg - 1) / pass_lg;
  unsigned base = k / np, extra = k % np, lo = 0;
  for (unsigned i = 0; i < np; i++) { /* i = 0 is the bottom pass */
    unsigned b = base + (i < extra);
    out[np - 1 - i] = (ntt_pass){lo, b};
    lo += b;
  }
  return np;
}

/* ---- stage kernels --------------------------------------------------------------------------
 * A stage over a contiguous array of len entries with half-size H: for each block of 2H entries,
 * butterflies (x[e], x[e + H]) for e < H. */

/* DIF with explicit twiddles tw[e]: (u, v) <- (u + v, (u - v)·tw[e]) */
static void dif_stage_tw(cuzk_fr *x, size_t len, size_t H, const cuzk_fr *tw, ntt_mul_fn mul) {
  for (size_t blk = 0; blk < len; blk += 2 * H) {
    cuzk_fr *u = x + blk, *v = u + H;
    for (size_t e = 0; e < H; e++) {
      cuzk_fr d;
      ntt_fr_addsub(&u[e], &d, &u[e], &v[e]);
      mul(v[e].l, d.l, tw[e].l);
    }
  }
}

/* DIT with explicit twiddles: t = v·tw[e]; (u, v) <- (u + t, u - t) */
static void dit_stage_tw(cuzk_fr *x, size_t len, size_t H, const cuzk_fr *tw, ntt_mul_fn mul) {
  for (size_t blk = 0; blk < len; blk += 2 * H) {
    cuzk_fr *u = x + blk, *v = u + H;
    for (size_t e = 0; e < H; e++) {
      cuzk_fr t;
      mul(t.l, v[e].l, tw[e].l);
      ntt_fr_addsub(&u[e], &v[e], &u[e], &t);
    }
  }
}

/* The bottom pass reads the tower level T = T_s (H = 2^s) directly. e = 0 has twiddle 1. The
 * inverse twiddle ω^-e is -T[H - e], so the inverse butterflies are written with the sign moved
 * into the additions: DIF (u + v, (v - u)·T[H-e]); DIT t = v·T[H-e], (u - t, u + t). */
static void dif_stage_tower(cuzk_fr *x, size_t len, size_t H, const cuzk_fr *T, bool inv,
                            ntt_mul_fn mul) {
  for (size_t blk = 0; blk < len; blk += 2 * H) {
    cuzk_fr *u = x + blk, *v = u + H;
    ntt_fr_addsub(&u[0], &v[0], &u[0], &v[0]);
    if (inv) {
      for (size_t e = 1; e < H; e++) {
        cuzk_fr d;
        ntt_fr_addsub(&u[e], &d, &v[e], &u[e]);
        mul(v[e].l, d.l, T[H - e].l);
      }
    } else {
      for (size_t e = 1; e < H; e++) {
        cuzk_fr d;
        ntt_fr_addsub(&u[e], &d, &u[e], &v[e]);
        mul(v[e].l, d.l, T[e].l);
      }
    }
  }
}

static void dit_stage_tower(cuzk_fr *x, size_t len, size_t H, const cuzk_fr *T, bool inv,
                            ntt_mul_fn mul) {
  for (size_t blk = 0; blk < len; blk += 2 * H) {
    cuzk_fr *u = x + blk, *v = u + H;
    ntt_fr_addsub(&u[0], &v[0], &u[0], &v[0]);
    if (inv) {
      for (size_t e = 1; e < H; e++) {
        cuzk_fr t;
        mul(t.l, v[e].l, T[H - e].l);
        ntt_fr_addsub(&v[e], &u[e], &u[e], &t);
      }
    } else {
      for (size_t e = 1; e < H; e++) {
        cuzk_fr t;
        mul(t.l, v[e].l, T[e].l);
        ntt_fr_addsub(&u[e], &v[e], &u[e], &t);
      }
    }
  }
}

/* ---- one pass ------------------------------------------------------------------------------ */

/*
 * Row factors of a scaling for the pass: factor(g, r, c) = rows[r] · colf(g, c), with
 *   NAT: rows[r] = (s^(2^lo))^r,                  colf = K · s^(g·2^(lo+b) + c)
 *   REV: rows[r] = (s^(2^(k-lo-b)))^bitrev_b(r),  colf = K · s^bitrev(g) ·
 * (s^(2^(k-lo)))^bitrev_lo(c) since bitrev_k(p) = bitrev_lo(c)·2^(k-lo) + bitrev_b(r)·2^(k-lo-b) +
 * bitrev_(k-lo-b)(g).
 */
static void scale_rows(cuzk_fr *rows, cuzk_fr *cstep, const ntt_scale *sc, unsigned k, unsigned lo,
                       unsigned b) {
  size_t nr = (size_t)1 << b;
  if (sc->kind == NTT_SCALE_NAT) {
    cuzk_fr step;
    ntt_fr_pow_u64(&step, &sc->s, (uint64_t)1 << lo);
    rows[0] = cuzk_fr_one;
    for (size_t r = 1; r < nr; r++)
      cuzk_fr_mul(&rows[r], &rows[r - 1], &step);
  } else if (sc->kind == NTT_SCALE_REV) {
    cuzk_fr step, p = cuzk_fr_one;
    ntt_fr_pow_u64(&step, &sc->s, (uint64_t)1 << (k - lo - b));
    for (size_t r = 0; r < nr; r++) { /* rows[bitrev(r)] = step^r */
      rows[ntt_bitrev(r, b)] = p;
      cuzk_fr_mul(&p, &p, &step);
    }
    ntt_fr_pow_u64(cstep, &sc->s, (uint64_t)1 << (k - lo));
  }
}

/* x[r·stride + c] *= rows[r]·colf[c] for the tile's rows × C entries (rows = NULL: CONST). */
static void scale_tile(cuzk_fr *x, size_t stride, size_t nrows, size_t C, const cuzk_fr *rows,
                       const cuzk_fr *colf, ntt_mul_fn mul) {
  for (size_t r = 0; r < nrows; r++) {
    cuzk_fr *row = x + r * stride;
    for (size_t c = 0; c < C; c++) {
      if (rows) {
        cuzk_fr f;
        mul(f.l, rows[r].l, colf[c].l);
        mul(row[c].l, row[c].l, f.l);
      } else {
        mul(row[c].l, row[c].l, colf[c].l);
      }
    }
  }
}

/* Bottom pass: block g of 2^b contiguous entries, in place. */
static void run_block(const ntt_pass_ctx *P, size_t g) {
  const ntt_job *J = P->job;
  const size_t len = (size_t)1 << P->b;
  cuzk_fr *x = J->x + g * len, colf;
  if (P->pre) {
    ntt_scale_cols(&colf, P, P->pre, &P->pre_cstep, g, 0);
    scale_tile(x, 1, len, 1, ntt_scale_rows_of(P->pre, P->pre_rows), &colf, P->mul);
  }
  for (unsigned i = 0; i < P->b; i++) {
    unsigned s = J->dit ? i : P->b - 1 - i;
    size_t H = (size_t)1 << s;
    if (J->dit)
      dit_stage_tower(x, len, H, P->lv[s], J->inverse, P->mul);
    else
      dif_stage_tower(x, len, H, P->lv[s], J->inverse, P->mul);
  }
  if (P->post) {
    ntt_scale_cols(&colf, P, P->post, &P->post_cstep, g, 0);
    scale_tile(x, 1, len, 1, ntt_scale_rows_of(P->post, P->post_rows), &colf, P->mul);
  }
}

/*
 * Twiddles of level s for the tile's columns c0 .. c0+C-1, laid out as the scratch stage wants
 * them: tw[r'·C + c] = ω_{2h}^(±j), j = r'·2^lo + c0 + c, r' < 2^(s-lo), h = 2^s.
 * Stored levels are gathered (inverse: -T_s[h - j], 1 for j = 0). Derived levels are
 * ω_{2h}^(±(c0+c)) · ω_{2^(s-lo+1)}^(±r'): the first factor from tile_bases, the second from
 * the stored level s - lo.
 */
static void tile_twiddles(cuzk_fr *tw, const cuzk_fr *wb, const ntt_pass_ctx *P, unsigned s,
                          size_t c0) {
  const bool inv = P->job->inverse;
  const size_t C = P->C, hr = (size_t)1 << (s - P->lo), hlo = (size_t)1 << P->lo;
  if (!P->derive[s]) {
    const cuzk_fr *T = P->lv[s];
    const size_t h = (size_t)1 << s;
    for (size_t r = 0; r < hr; r++) {
      size_t j = r * hlo + c0;
      if (!inv) {
        memcpy(tw + r * C, T + j, C * sizeof(cuzk_fr));
      } else {
        for (size_t c = 0; c < C; c++, j++) {
          if (j == 0)
            tw[r * C + c] = cuzk_fr_one;
          else
            limbs_neg_mod(tw[r * C + c].l, T[h - j].l, CUZK_R, 4);
        }
      }
    }
    return;
  }
  const cuzk_fr *R = P->lv[s - P->lo]; /* ω_{2hr}^r' */
  const cuzk_fr *base = wb + (size_t)(s - P->lo) * C;
  for (size_t r = 0; r < hr; r++) {
    cuzk_fr rr;
    if (!inv)
      rr = R[r];
    else if (r == 0)
      rr = cuzk_fr_one;
    else
      limbs_neg_mod(rr.l, R[hr - r].l, CUZK_R, 4);
    for (size_t c = 0; c < C; c++)
      P->mul(tw[r * C + c].l, base[c].l, rr.l);
  }
}

/* Scratch of a strided tile, in entries: the tile, one level's twiddles, colf, the bases. */
static size_t tile_scratch_len(unsigned b, size_t C) {
  return ((size_t)1 << b) * C + ((size_t)1 << (b - 1)) * C + C + b * C;
}

/* Strided pass: tile t = (g, c0), copied into scr, transformed, copied back. */
static void run_tile(const ntt_pass_ctx *P, size_t t, cuzk_fr *scr) {
  const ntt_job *J = P->job;
  const unsigned lo = P->lo, b = P->b;
  const size_t C = P->C, nrows = (size_t)1 << b, hlo = (size_t)1 << lo, per_g = hlo / C;
  const size_t g = t / per_g, c0 = (t % per_g) * C;
  cuzk_fr *src = J->x + (g << (lo + b)) + c0;
  cuzk_fr *buf = scr, *tw = buf + nrows * C, *colf = tw + nrows / 2 * C, *wb = colf + C;

  for (size_t r = 0; r < nrows; r++)
    memcpy(buf + r * C, src + r * hlo, C * sizeof(cuzk_fr));
  if (P->pre) {
    ntt_scale_cols(colf, P, P->pre, &P->pre_cstep, g, c0);
    scale_tile(buf, C, nrows, C, ntt_scale_rows_of(P->pre, P->pre_rows), colf, P->mul);
  }
  ntt_tile_bases(wb, P, c0);
  for (unsigned i = 0; i < b; i++) {
    unsigned s = J->dit ? lo + i : lo + b - 1 - i;
    size_t H = ((size_t)1 << (s - lo)) * C;
    tile_twiddles(tw, wb, P, s, c0);
    if (J->dit)
      dit_stage_tw(buf, nrows * C, H, tw, P->mul);
    else
      dif_stage_tw(buf, nrows * C, H, tw, P->mul);
  }
  if (P->post) {
    ntt_scale_cols(colf, P, P->post, &P->post_cstep, g, c0);
    scale_tile(buf, C, nrows, C, ntt_scale_rows_of(P->post, P->post_rows), colf, P->mul);
  }
  for (size_t r = 0; r < nrows; r++)
    memcpy(src + r * hlo, buf + r * C, C * sizeof(cuzk_fr));
}

static void pass_range(void *ctx, size_t begin, size_t end) {
  ntt_pass_ctx *P = ctx;
  if (P->lo == 0 && !P->ifma) {
    for (size_t t = begin; t < end; t++)
      run_block(P, t);
    return;
  }
  size_t bytes =
      P->ifma ? ntt_ifma_scratch_bytes(P) : tile_scratch_len(P->b, P->C) * sizeof(cuzk_fr);
  void *scr = cuzk_buffer_get(bytes);
  if (!scr) {
    atomic_store(&P->failed, 1);
    return;
  }
  for (size_t t = begin; t < end; t++) {
    if (!P->ifma)
      run_tile(P, t, scr);
    else if (P->lo == 0)
      ntt_ifma_blocks(P, t * NTT_IFMA_LANES, scr);
    else
      ntt_ifma_tile(P, t, scr);
  }
  cuzk_buffer_put(scr);
}

/* Row factors in the IFMA kernels' form (5 words per row). */
static void rows_to_w52(uint64_t *out, const cuzk_fr *rows, unsigned b) {
  for (size_t r = 0; r < ((size_t)1 << b); r++)
    ntt_fr_to_w52(out + 5 * r, &rows[r]);
}

cuzk_ntt_err ntt_run(const ntt_job *J) {
  const unsigned k = J->k;
  ntt_mul_fn mul = ntt_mul_kernel();
  if (k == 0) { /* one entry: no butterflies; the scalings' factor at position 0 is K */
    if (J->pre.kind != NTT_SCALE_NONE) mul(J->x[0].l, J->x[0].l, J->pre.K.l);
    if (J->post.kind != NTT_SCALE_NONE) mul(J->x[0].l, J->x[0].l, J->post.K.l);
    return CUZK_NTT_OK;
  }
  if (!ntt_tower_ensure(k - 1)) return CUZK_NTT_ENOMEM;

  ntt_pass passes[CUZK_NTT_MAX_LG];
  const unsigned np =
      ntt_plan(k, atomic_load_explicit(&tune_pass_lg, memory_order_relaxed), passes);
  const unsigned tower_top = atomic_load_explicit(&tune_tower_top, memory_order_relaxed);
  const unsigned tile_lg = atomic_load_explicit(&tune_tile_lg, memory_order_relaxed);
  unsigned maxb = 0;
  for (unsigned i = 0; i < np; i++)
    if (passes[i].b > maxb) maxb = passes[i].b;

  /* The IFMA kernels take eight blocks or eight columns at a time. */
  const bool ifma = ntt_ifma_enabled() && k >= NTT_IFMA_MIN_LG;
  if (ifma && !ntt_ifma_tower_ensure(k - 1)) return CUZK_NTT_ENOMEM;

  /* Row-factor tables of the two scalings (2^maxb entries each), then the same in W-form. */
  const size_t rmax = (size_t)1 << maxb;
  cuzk_fr *rows = cuzk_buffer_get(2 * rmax * sizeof(cuzk_fr) + 2 * rmax * 5 * sizeof(uint64_t));
  if (!rows) return CUZK_NTT_ENOMEM;
  uint64_t *rows52 = (uint64_t *)(rows + 2 * rmax);

  ntt_pass_ctx P;
  memset(&P, 0, sizeof P);
  atomic_init(&P.failed, 0);
  P.job = J;
  P.mul = mul;
  for (unsigned s = 0; s < k; s++) {
    if (s <= NTT_TOWER_TOP) P.lv[s] = ntt_tower_level(s);
    if (ifma && s <= NTT_TOWER_TOP) P.ifma_lv[s] = ntt_ifma_tower_level(s);
    P.derive[s] = s > tower_top;
    if (!P.derive[s]) continue;
    if (J->inverse)
      ntt_root_inv(&P.wgen[s], s + 1);
    else
      ntt_root(&P.wgen[s], s + 1);
  }
  cuzk_pool *pool = k >= NTT_PAR_MIN_LG ? J->pool : NULL;
  cuzk_ntt_err err = CUZK_NTT_OK;
  for (unsigned i = 0; i < np; i++) {
    /* execution order: DIF top pass first, DIT bottom pass first */
    const ntt_pass ps = passes[J->dit ? np - 1 - i : i];
    P.lo = ps.lo;
    P.b = ps.b;
    /* Columns: 1 in the bottom pass; else enough for a ~2^12-entry tile, at least 4, at most
     * 2^lo. Wider rows help most for the top passes, whose rows are megabytes apart. */
    P.C = 1;
    if (ps.lo > 0) {
      P.C = ps.b < tile_lg ? (size_t)1 << (tile_lg - ps.b) : 1;
      if (P.C < NTT_TILE_MIN_COLS) P.C = NTT_TILE_MIN_COLS;
      if (P.C > ((size_t)1 << ps.lo)) P.C = (size_t)1 << ps.lo;
    }
    /* IFMA: the bottom pass needs 8 blocks, the others rows of a multiple of 8 columns. */
    P.ifma = ifma && (ps.lo == 0 ? k - ps.b >= 3 : ps.lo >= 3);
    if (P.ifma && P.C < NTT_IFMA_LANES && ps.lo > 0) P.C = NTT_IFMA_LANES;
    P.pre = i == 0 && J->pre.kind != NTT_SCALE_NONE ? &J->pre : NULL;
    P.post = i == np - 1 && J->post.kind != NTT_SCALE_NONE ? &J->post : NULL;
    P.pre_rows = rows;
    P.post_rows = rows + rmax;
    P.pre_rows52 = rows52;
    P.post_rows52 = rows52 + 5 * rmax;
    if (P.pre) scale_rows(rows, &P.pre_cstep, P.pre, k, P.lo, P.b);
    if (P.post) scale_rows(rows + rmax, &P.post_cstep, P.post, k, P.lo, P.b);
    if (P.ifma && P.pre && P.pre->kind != NTT_SCALE_CONST) rows_to_w52(rows52, rows, P.b);
    if (P.ifma && P.post && P.post->kind != NTT_SCALE_CONST)
      rows_to_w52(rows52 + 5 * rmax, rows + rmax, P.b);
    size_t ntiles = ((size_t)1 << k) / (((size_t)1 << P.b) * P.C);
    if (P.ifma && ps.lo == 0) ntiles /= NTT_IFMA_LANES; /* a tile is 8 blocks */
    cuzk_parallel_for(pool, ntiles, 0, pass_range, &P, J->max_workers);
    if (atomic_load(&P.failed)) {
      err = CUZK_NTT_ENOMEM;
      break;
    }
  }
  cuzk_buffer_put(rows);
  return err;
}
