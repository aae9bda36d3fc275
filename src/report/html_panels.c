/* html_panels.c — small multiples against one input (html.h): one panel
 * per row of the section, never overlaid, all on one x axis and one y
 * range: either the row's ULP error against the exact value, or its
 * distance from the torch plan's result.
 *
 * Each panel draws, from the row's figures (figures.h), the exact largest
 * value in every binade column as a step line, and dots: for errors the
 * sampled elements (the same in every row), the row's worst and its
 * sampled NaN/inf disagreements; for distances the sampled disagreements,
 * over a strip that shades each column by how many elements differ there
 * (all of them counted).
 *
 * The y scales give the rounding regime the room: errors on a log scale in
 * three parts (10^-3..0.5, 0.5..4, 4..max, the middle one widest),
 * distances likewise (1..16 units, then up to the largest), so that an
 * overflow at 10^7 ulp or a fast-math distance of 10^9 does not squeeze a
 * mode's 2-ulp story into one line. */
#include "html.h"

#include <math.h>
#include <string.h>

enum { L = UB_HTML_LEFT, PLOT_W = UB_HTML_PLOT_W, PW = UB_HTML_LEFT + UB_HTML_PLOT_W + 10,
       PH = 116, T = 18, BAND = 14 };

/* y of a panel: value v (log10 error, or log2 distance) along breakpoints
 * v[0] < ... < v[n] taking fractions f[0] = 0 < ... < f[n] = 1 of the
 * plot's height. */
struct vmap {
	double top, bottom;
	int n;
	double v[4], f[4];
};

static double vy(const struct vmap *m, double v)
{
	v = v < m->v[0] ? m->v[0] : v > m->v[m->n] ? m->v[m->n] : v;
	int i = 0;
	while (i < m->n - 1 && v > m->v[i + 1])
		i++;
	double t = m->f[i] + (v - m->v[i]) / (m->v[i + 1] - m->v[i]) * (m->f[i + 1] - m->f[i]);
	return m->bottom - t * (m->bottom - m->top);
}

/* Two or three parts: lo..mid1, mid1..mid2 (the focus), mid2..hi. */
static void vmap_make(struct vmap *m, double lo, double mid1, double mid2, double hi,
		      double f1, double f2)
{
	m->top = T + BAND;
	m->bottom = PH - BAND - 4;
	m->v[0] = lo;
	m->f[0] = 0;
	m->n = 0;
	if (mid1 > lo) {
		m->n++;
		m->v[m->n] = mid1;
		m->f[m->n] = f1;
	}
	m->n++;
	m->v[m->n] = hi > mid2 ? mid2 : hi;
	m->f[m->n] = hi > mid2 ? f2 : 1;
	if (hi > mid2) {
		m->n++;
		m->v[m->n] = hi;
		m->f[m->n] = 1;
	}
}

static const struct ub_axis *axis_of(const struct ub_hsec *sec, int k, int torch)
{
	return torch ? &sec->taxis[k] : &sec->axis[k];
}

static void panel_start(FILE *f, const struct ub_axis *a, const struct vmap *m,
			const char *cls)
{
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"pan %s\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n", cls, PW, PH, PW, PH);
	fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" class=\"area\"/>\n",
		L, m->top - BAND, PLOT_W, m->bottom - m->top + 2 * BAND);
	ub_axis_grid(f, a, L, m->top - BAND, m->bottom + BAND);
	fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" class=\"band\"/>"
		"<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" class=\"band\"/>\n",
		L, L + PLOT_W, m->top - 1, m->top - 1, L, L + PLOT_W, m->bottom + 1,
		m->bottom + 1);
}

static void label(FILE *f, double x, double y, const char *anchor, const char *cls,
		  const char *text)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" class=\"%s\">", x, y,
		anchor, cls);
	ub_html_text(f, text);
	fprintf(f, "</text>\n");
}

/* The panel's title line: the row's name in its colour, then facts. */
static void title(FILE *f, const struct ub_hseries *s, const char *facts)
{
	fprintf(f, "<text x=\"%d\" y=\"13\"><tspan class=\"pname\" fill=\"%s\">", L,
		s->color);
	ub_html_text(f, s->row->mode);
	fprintf(f, "</tspan><tspan class=\"facts\" dx=\"8\">");
	ub_html_text(f, facts);
	fprintf(f, "</tspan></text>\n");
}

/* Small jitter for the bands, so that their density shows. */
static double jitter(uint64_t key)
{
	return (double)(key % 7) - 3;
}

/* The largest value of each shown column as a step line. */
static void steps(FILE *f, const struct ub_axis *a, int k, const struct ub_hseries *s,
		  const struct vmap *m, int dist)
{
	fprintf(f, "<path class=\"maxline\" stroke=\"%s\" d=\"", s->color);
	for (int i = 0; i < a->nseg; i++) {
		if (a->seg[i].gap)
			continue;
		double w = a->seg[i].pw / (a->seg[i].c1 - a->seg[i].c0);
		for (int c = a->seg[i].c0; c < a->seg[i].c1; c++) {
			const struct ub_fig_cell *cell = &s->fig->cell[k][c];
			double v = dist ? (cell->max_dist ? log2((double)cell->max_dist) : -1)
					: (cell->max_ulp > 0 ? log10(cell->max_ulp) : -99);
			if (dist ? v < 0 : v < m->v[0])
				continue;
			double x = L + a->seg[i].px0 + (c - a->seg[i].c0) * w;
			fprintf(f, "M%.1f %.1fh%.1f", x, vy(m, v), w > 1 ? w : 1);
		}
	}
	fprintf(f, "\"/>\n");
}

static void dots(FILE *f, const struct ub_hsec *sec, const struct ub_axis *a, int k,
		 const struct ub_hseries *s, const struct ub_fig_elem *e, size_t n,
		 const struct vmap *m, int dist)
{
	fprintf(f, "<path class=\"dots\" stroke=\"%s\" d=\"", s->color);
	for (size_t i = 0; i < n; i++) {
		double x = ub_axis_px(a, ub_fig_pos(sec->dt, e[i].in[k])), y;
		if (x < 0)
			continue;
		if (dist)
			y = e[i].dist == UINT64_MAX ? m->top - BAND / 2.0 + jitter(e[i].key)
			    : vy(m, log2((double)e[i].dist));
		else
			y = e[i].err < 0 ? m->top - BAND / 2.0 + jitter(e[i].key)
			    : e[i].err == 0 ? m->bottom + BAND / 2.0 + jitter(e[i].key)
			    : vy(m, log10(e[i].err));
		fprintf(f, "M%.1f %.1fh0", L + x, y);
	}
	fprintf(f, "\"/>\n");
}

static void y_tick(FILE *f, const struct vmap *m, double v, const char *text)
{
	label(f, L - 4, vy(m, v) + 3.5, "end", "small", text);
	fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>\n",
		L, L + PLOT_W, vy(m, v), vy(m, v));
}

/* y labels: the bands' names, the focus part's values, and a few decades
 * (or powers of two) of the context part above it. */
static void y_labels(FILE *f, const struct vmap *m, int dist)
{
	char buf[32];
	double top = m->v[m->n];
	/* the bands' names inside them, at the right end, clear of the y
	 * labels */
	label(f, L + PLOT_W - 4, m->top - BAND / 2.0 + 3, "end", "bandname",
	      dist ? "NaN against a number" : "NaN/inf disagreement");
	if (!dist)
		label(f, L + PLOT_W - 4, m->bottom + BAND / 2.0 + 3, "end", "bandname", "exact");
	if (dist) {
		for (int v = 0; v <= 4 && v <= top; v += 2) {
			snprintf(buf, sizeof buf, "%.0f", ldexp(1, v));
			y_tick(f, m, v, buf);
		}
		if (top > 6) { /* above 16 units: the top only */
			snprintf(buf, sizeof buf, "2^%d", (int)top);
			y_tick(f, m, (int)top, buf);
		}
		return;
	}
	y_tick(f, m, -3, "0.001");
	y_tick(f, m, log10(0.5), "0.5");
	for (int v = 0; v <= 2 && log10(ldexp(1, v)) <= top; v++) {
		snprintf(buf, sizeof buf, "%d", 1 << v);
		y_tick(f, m, log10(ldexp(1, v)), buf);
	}
	/* above 4 ulp: the top decade, and one between when there is room */
	int t = (int)top, mid = (t + 1) / 2;
	if (t >= 2) {
		snprintf(buf, sizeof buf, "1e%d", t);
		y_tick(f, m, t, buf);
	}
	if (t >= 5 && mid >= 2 && vy(m, log10(4)) - vy(m, mid) > 12 &&
	    vy(m, mid) - vy(m, t) > 12) { /* room for it */
		snprintf(buf, sizeof buf, "1e%d", mid);
		y_tick(f, m, mid, buf);
	}
}

static void ulp_panel(FILE *f, const struct ub_hsec *sec, int k,
		      const struct ub_hseries *s, const struct vmap *m)
{
	const struct ub_axis *a = axis_of(sec, k, 0);
	const struct ub_stats *st = &s->row->st;
	char facts[160];
	snprintf(facts, sizeof facts, "max %.4g ulp, mean %.3g, %zu NaN/inf", st->max_ulp,
		 ub_stats_mean(st), st->nan_mismatch);
	panel_start(f, a, m, "ulp");
	y_labels(f, m, 0);
	double y = vy(m, log10(0.5));
	fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" class=\"half\">"
		"<title>0.5 ulp: correctly rounded at or below</title></line>\n",
		L, L + PLOT_W, y, y);
	steps(f, a, k, s, m, 0);
	dots(f, sec, a, k, s, s->fig->sample, s->fig->nsample, m, 0);
	for (int b = 0; b < UB_FIG_BANDS; b++)
		dots(f, sec, a, k, s, s->fig->top[b], s->fig->ntop[b], m, 0);
	dots(f, sec, a, k, s, s->fig->nan, s->fig->nnan, m, 0);
	title(f, s, facts);
	fprintf(f, "</svg>");
}

/* Shades each shown column by the number of disagreements there (log). */
static void count_strip(FILE *f, const struct ub_axis *a, int k,
			const struct ub_hseries *s, const struct vmap *m)
{
	uint64_t most = 1;
	for (int c = 0; c < UB_FIG_COLS; c++)
		most = s->fig->cell[k][c].torch > most ? s->fig->cell[k][c].torch : most;
	for (int i = 0; i < a->nseg; i++) {
		double w = a->seg[i].pw / (a->seg[i].c1 - a->seg[i].c0);
		for (int c = a->seg[i].c0; !a->seg[i].gap && c < a->seg[i].c1; c++) {
			uint64_t t = s->fig->cell[k][c].torch;
			if (!t)
				continue;
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" "
				"fill=\"%s\" opacity=\"%.2f\"><title>%llu differ</title></rect>",
				L + a->seg[i].px0 + (c - a->seg[i].c0) * w, m->bottom + 2,
				w > 1 ? w : 1, BAND - 3, s->color,
				0.25 + 0.75 * log1p((double)t) / log1p((double)most),
				(unsigned long long)t);
		}
	}
	fputc('\n', f);
}

static void torch_panel(FILE *f, const struct ub_hsec *sec, int k,
			const struct ub_hseries *s, const struct vmap *m)
{
	const struct ub_axis *a = axis_of(sec, k, 1);
	const struct ub_stats *st = &s->row->st;
	char facts[200];
	panel_start(f, a, m, "dist");
	if (s->torch || !st->torch_mismatch) {
		label(f, L + PLOT_W / 2.0, (m->top + m->bottom) / 2 + 4, "middle", "quiet",
		      s->torch ? "the torch plan itself" : "bit for bit equal to the torch plan");
		snprintf(facts, sizeof facts, "0 of %zu differ", st->n);
		title(f, s, s->torch ? "" : facts);
		fprintf(f, "</svg>");
		return;
	}
	snprintf(facts, sizeof facts, "%zu of %zu differ (%.3g%%), by up to %llu units%s",
		 st->torch_mismatch, st->n, 100.0 * (double)st->torch_mismatch /
		 (double)(st->n ? st->n : 1), (unsigned long long)st->torch_max_dist,
		 s->fig->ntorch < st->torch_mismatch ? "; dots: a sample" : "");
	y_labels(f, m, 1);
	count_strip(f, a, k, s, m);
	steps(f, a, k, s, m, 1);
	dots(f, sec, a, k, s, s->fig->torch, s->fig->ntorch, m, 1);
	title(f, s, facts);
	fprintf(f, "</svg>");
}

/* The shared y range: errors from 10^-3 to the decade above the largest
 * (at least 1 ulp), distances from 1 to the power of two at or above the
 * largest (at least 4 units). */
static void range(const struct ub_hsec *sec, int torch, struct vmap *m)
{
	double emax = 0;
	uint64_t dmax = 4;
	for (int i = 0; i < sec->ns; i++) {
		emax = fmax(emax, sec->s[i].row->st.max_ulp);
		if (sec->s[i].row->has_torch && sec->s[i].row->st.torch_max_dist > dmax)
			dmax = sec->s[i].row->st.torch_max_dist;
	}
	if (torch)
		vmap_make(m, 0, 0, 4, ceil(log2((double)dmax)), 0, 0.6);
	else
		vmap_make(m, -3, log10(0.5), log10(4),
			  emax > 0 ? fmax(0, floor(log10(emax)) + 1) : 0, 0.22, 0.72);
}

void ub_html_panels(FILE *f, const struct ub_hsec *sec, int k, int torch)
{
	struct vmap m;
	range(sec, torch, &m);
	fprintf(f, "<h3>%s, against ", torch ? "Distance from the torch plan's result"
		: "Error from the exact value");
	ub_html_text(f, sec->in_names[k]);
	fprintf(f, "</h3>\n<div class=\"panels %s\">\n", torch ? "tp" : "ep");
	for (int i = 0; i < sec->ns; i++) {
		fprintf(f, "<div class=\"prow\" data-s=\"%d\">", sec->s[i].k);
		if (torch)
			torch_panel(f, sec, k, &sec->s[i], &m);
		else
			ulp_panel(f, sec, k, &sec->s[i], &m);
		fprintf(f, "</div>\n");
	}
	fprintf(f, "<div class=\"axisrow\"><svg xmlns=\"http://www.w3.org/2000/svg\" "
		"class=\"axis\" width=\"%d\" height=\"40\" viewBox=\"0 0 %d 40\">\n", PW, PW);
	ub_axis_labels(f, axis_of(sec, k, torch), L, 18);
	fprintf(f, "<text x=\"%.1f\" y=\"35\" text-anchor=\"middle\">", L + PLOT_W / 2.0);
	ub_html_text(f, sec->in_names[k]);
	fprintf(f, " (one column per binade; \xe2\x89\x88 marks a collapsed range: hover "
		   "over it)</text></svg></div>\n</div>\n");
	if (torch)
		fprintf(f, "<p class=\"note\">Distance in units of the format (how many "
			   "encodings apart) from the torch plan's result, for up to %d "
			   "sampled disagreements of each row; the line is the largest "
			   "distance in each binade, the strip at the bottom shades each "
			   "binade by how many elements differ there (all counted). The "
			   "scale gives 1 to 16 units most of the height.</p>\n", UB_FIG_TORCH);
	else
		fprintf(f, "<p class=\"note\">ULP error of %d sampled elements (the same "
			   "ones in every row), each row's worst and up to %d of its NaN/inf "
			   "disagreements (top band); exact results in the bottom band; the "
			   "line is the largest error in each binade over all elements. The "
			   "scale gives 0.5 to 4 ulp most of the height.</p>\n",
			UB_FIG_SAMPLE, UB_FIG_NANS);
}
