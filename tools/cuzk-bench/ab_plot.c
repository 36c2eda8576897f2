/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* cuzk-bench synth-ab --plot: the SVG writer (see ab_plot.h). */
#include "ab_plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Layout, in SVG user units: a header, then one row per figure with two panels. */
enum { WIDTH = 980, HEADER = 64, ROW = 270, PLOT_TOP = 34, PLOT_H = 180 };
static const double panel_x[2][2] = {{90, 470}, {590, 950}}; /* samples, ratios: left, right */
static const char *const color_a = "#1f77b4", *const color_b = "#ff7f0e",
                         *const color_r = "#2ca02c";

/* Text content or attribute value: XML's five specials escaped, control bytes dropped, bytes
 * beyond ASCII written as '?' (the options may hold anything; the file stays well-formed). */
static void xml_text(FILE *f, const char *s) {
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    switch (c) {
    case '&': fputs("&amp;", f); break;
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '"': fputs("&quot;", f); break;
    case '\'': fputs("&apos;", f); break;
    default:
      if (c >= 0x20 && c < 0x7f)
        fputc(c, f);
      else if (c >= 0x80)
        fputc('?', f);
    }
  }
}

static void value_text(char *buf, size_t n, double v, bool seconds) {
  if (!isfinite(v))
    snprintf(buf, n, "n/a");
  else
    snprintf(buf, n, seconds ? "%.4f s" : "%.0f", v);
}

/* The range [lo, hi] of the finite values of x[0..n) and y[0..n) (y may be NULL) and of extra,
 * widened by a margin so that no point sits on the frame. */
static void value_range(double *lo, double *hi, const double *x, const double *y, size_t n,
                        const double *extra, size_t nextra) {
  *lo = INFINITY;
  *hi = -INFINITY;
  for (size_t i = 0; i < 2 * n + nextra; i++) {
    const double v = i < n ? x[i] : i < 2 * n ? (y ? y[i - n] : NAN) : extra[i - 2 * n];
    if (!isfinite(v)) continue;
    if (v < *lo) *lo = v;
    if (v > *hi) *hi = v;
  }
  if (!isfinite(*lo)) {
    *lo = 0;
    *hi = 1;
  }
  double d = *hi > *lo ? (*hi - *lo) * 0.08 : fabs(*hi) * 0.05;
  if (!(d > 0)) d = 1;
  *lo -= d;
  *hi += d;
}

/* A tick step of 1, 2 or 5 times a power of ten giving 3 to 6 ticks over span. */
static double tick_step(double span) {
  double raw = span / 4, p = pow(10, floor(log10(raw))), f = raw / p;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}

typedef struct {
  double x0, x1, y0, y1; /* the panel's frame: x0 left, y0 top */
  double lo, hi;         /* the value range on the y axis */
  size_t pairs;
} panel;

static double px(const panel *p, size_t pair) {
  return p->x0 + ((double)pair + 0.5) * (p->x1 - p->x0) / (double)p->pairs;
}
static double py(const panel *p, double v) {
  return p->y1 - (v - p->lo) / (p->hi - p->lo) * (p->y1 - p->y0);
}

/* Frame, grid, ticks and the axis labels. */
static void axes(FILE *f, const panel *p, const char *ylabel) {
  fprintf(f,
          "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#fafafa\" "
          "stroke=\"#999\"/>\n",
          p->x0, p->y0, p->x1 - p->x0, p->y1 - p->y0);
  double step = tick_step(p->hi - p->lo);
  for (double t = ceil(p->lo / step) * step; step > 0 && t <= p->hi; t += step) {
    double y = py(p, t);
    fprintf(f,
            "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
            "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.6g</text>\n",
            p->x0, p->x1, y, y, p->x0 - 4, y + 4, fabs(t) < step * 1e-9 ? 0.0 : t);
  }
  size_t every = p->pairs > 10 ? (p->pairs + 9) / 10 : 1;
  for (size_t i = 0; i < p->pairs; i += every)
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%zu</text>\n", px(p, i),
            p->y1 + 14, i + 1);
  fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">pair</text>\n",
          (p->x0 + p->x1) / 2, p->y1 + 30);
  fprintf(f, "<text transform=\"translate(%.1f %.1f) rotate(-90)\" text-anchor=\"middle\">",
          p->x0 - 62, (p->y0 + p->y1) / 2);
  xml_text(f, ylabel);
  fputs("</text>\n", f);
}

static void hline(FILE *f, const panel *p, double v, const char *color, bool dashed) {
  if (!isfinite(v) || v < p->lo || v > p->hi) return;
  fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"%s/>\n", p->x0,
          p->x1, py(p, v), py(p, v), color, dashed ? " stroke-dasharray=\"5 3\"" : "");
}

static void point(FILE *f, const char *cls, double x, double y, const char *color, size_t pair,
                  const char *what) {
  fprintf(f,
          "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"><title>pair %zu "
          "%s</title></circle>\n",
          cls, x, y, color, pair + 1, what);
}

/* One figure's row at y = top; ratio: room for the pairs' ratios. */
static void metric_row(FILE *f, const ab_plot_run *run, const ab_plot_metric *m, double top,
                       double *ratio) {
  char va[32], vb[32], what[64];
  value_text(va, sizeof va, m->sum->median_a, m->seconds);
  value_text(vb, sizeof vb, m->sum->median_b, m->seconds);
  fputs("<g class=\"metric\" data-metric=\"", f);
  xml_text(f, m->name);
  fprintf(f, "\">\n<text x=\"20\" y=\"%.1f\" font-size=\"14\" font-weight=\"bold\">", top + 18);
  xml_text(f, m->name);
  fprintf(f, "</text><text x=\"%.1f\" y=\"%.1f\">median A %s, median B %s, B/A ",
          32 + 9.0 * (double)strlen(m->name), top + 18, va, vb);
  if (isfinite(m->sum->ratio))
    fprintf(f, "%.4fx", m->sum->ratio);
  else
    fputs("n/a", f);
  if (isfinite(m->sum->ratio_min))
    fprintf(f, ", spread %.4fx..%.4fx", m->sum->ratio_min, m->sum->ratio_max);
  fputs(": ", f);
  xml_text(f, m->verdict);
  fputs("</text>\n", f);

  /* the samples of both sides, each pair joined */
  panel s = {panel_x[0][0], panel_x[0][1], top + PLOT_TOP, top + PLOT_TOP + PLOT_H, 0, 0,
             run->pairs};
  value_range(&s.lo, &s.hi, m->a, m->b, run->pairs, NULL, 0);
  char ylabel[64];
  snprintf(ylabel, sizeof ylabel, "%s (%s)", m->name, m->seconds ? "s" : "count");
  axes(f, &s, ylabel);
  hline(f, &s, m->sum->median_a, color_a, true);
  hline(f, &s, m->sum->median_b, color_b, true);
  double off = (s.x1 - s.x0) / (double)run->pairs / 5;
  if (off > 6) off = 6;
  for (size_t i = 0; i < run->pairs; i++)
    if (isfinite(m->a[i]) && isfinite(m->b[i]))
      fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#bbb\"/>\n",
              px(&s, i) - off, px(&s, i) + off, py(&s, m->a[i]), py(&s, m->b[i]));
  for (size_t i = 0; i < run->pairs; i++)
    for (int side = 0; side < 2; side++) {
      double v = side ? m->b[i] : m->a[i];
      if (!isfinite(v)) continue;
      char val[32];
      value_text(val, sizeof val, v, m->seconds);
      snprintf(what, sizeof what, "%s: %s", side ? "B" : "A", val);
      point(f, side ? "sample-b" : "sample-a", px(&s, i) + (side ? off : -off), py(&s, v),
            side ? color_b : color_a, i, what);
    }

  /* the per-pair ratios B/A against 1 and the band of the minimum effect */
  panel q = {panel_x[1][0], panel_x[1][1], s.y0, s.y1, 0, 0, run->pairs};
  double band[3] = {1 - run->min_effect, 1 + run->min_effect, m->sum->ratio};
  for (size_t i = 0; i < run->pairs; i++)
    ratio[i] = ab_ratio(m->a[i], m->b[i]);
  value_range(&q.lo, &q.hi, ratio, NULL, run->pairs, band, 3);
  axes(f, &q, "B / A (per pair)");
  if (run->min_effect > 0)
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#e4e4e4\"/>\n",
            q.x0, py(&q, band[1]), q.x1 - q.x0, py(&q, band[0]) - py(&q, band[1]));
  hline(f, &q, 1.0, "#333", false);
  hline(f, &q, m->sum->ratio, color_r, true);
  for (size_t i = 0; i < run->pairs; i++) {
    if (!isfinite(ratio[i])) continue;
    snprintf(what, sizeof what, "B/A: %.4fx", ratio[i]);
    point(f, "ratio", px(&q, i), py(&q, ratio[i]), color_r, i, what);
  }
  fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-weight=\"bold\">verdict: ", q.x0, q.y0 - 6);
  xml_text(f, m->verdict);
  fputs("</text>\n", f);
  if (isfinite(m->sum->ratio))
    fprintf(f,
            "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"%s\">median B / median A = "
            "%.4fx</text>\n",
            q.x1, q.y0 - 6, color_r, m->sum->ratio);
  fputs("</g>\n", f);
}

bool ab_plot_svg(const char *path, const ab_plot_run *run, const ab_plot_metric *m, size_t nm) {
  double *ratio = malloc((run->pairs ? run->pairs : 1) * sizeof *ratio);
  if (!ratio) return false;
  FILE *f = fopen(path, "w");
  if (!f) {
    free(ratio);
    return false;
  }
  double height = HEADER + (double)nm * ROW + 10;
  fprintf(f,
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" "
          "viewBox=\"0 0 %d %.0f\" font-family=\"sans-serif\" font-size=\"11\">\n"
          "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
          WIDTH, height, WIDTH, height);
  fputs("<text x=\"20\" y=\"24\" font-size=\"15\" font-weight=\"bold\">cuzk-bench synth-ab: A = \"",
        f);
  xml_text(f, run->side_a);
  fputs("\", B = \"", f);
  xml_text(f, run->side_b);
  fprintf(f, "\"</text>\n<text x=\"20\" y=\"44\">counter ");
  xml_text(f, run->counter);
  fprintf(f,
          ", %zu pairs interleaved (A B A B ...); left: each side's sample per pair (dashed: the "
          "medians), right: the per-pair ratio B/A",
          run->pairs);
  if (run->min_effect > 0) fprintf(f, " (grey band: 1 +/- %.2g %%)", run->min_effect * 100);
  fprintf(f,
          "</text>\n<circle cx=\"26\" cy=\"55\" r=\"3.5\" fill=\"%s\"/><text x=\"34\" y=\"59\">A"
          "</text><circle cx=\"56\" cy=\"55\" r=\"3.5\" fill=\"%s\"/><text x=\"64\" y=\"59\">B"
          "</text><circle cx=\"86\" cy=\"55\" r=\"3.5\" fill=\"%s\"/><text x=\"94\" y=\"59\">B/A"
          "</text>\n",
          color_a, color_b, color_r);
  for (size_t i = 0; i < nm; i++)
    metric_row(f, run, &m[i], HEADER + (double)i * ROW, ratio);
  fputs("</svg>\n", f);
  free(ratio);
  return fclose(f) == 0;
}
