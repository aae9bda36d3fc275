/* report_svg.c — the HTML report's plots as inline SVG (report_svg.h).
 *
 * Scatter: x is the input on a symmetric log axis, t = sign(x) * (log2|x|
 * - emin + 1) for normal values of the dtype (|x| >= 2^emin), linear
 * t = x / 2^emin below (zero and the subnormals, |t| < 1), +-inf one binade
 * beyond the largest finite value.  Each binade, and the subnormals
 * together, hold as many encodings and get the same width, so inputs
 * sampled uniformly over the encodings (as ulpbench samples them) spread
 * evenly along it.  y is log10 of the ULP
 * error from 10^-3 (smaller errors are drawn on the bottom edge) up to the
 * decade above the largest (at least 1); exact results (error 0) lie in a band
 * below the axis, NaN/inf disagreements in a band above it.  Each point is
 * a zero-length path segment with round caps (a dot in a few bytes),
 * opaque; the first series is drawn last, on top, and a `halo` series
 * (the torch plan) with larger dots, so a mode's dot ringed in its colour
 * marks an element where the mode and torch agree.
 *
 * Histogram: the bins of metrics.h and NaN/inf, one bar per series, counts
 * on a log axis (a count of 1 still shows). */
#include "report_svg.h"

#include <math.h>
#include <string.h>

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
	"#e377c2", "#17becf"
};

const char *ub_svg_color(int i)
{
	return palette[i % (int)(sizeof palette / sizeof palette[0])];
}

void ub_svg_style(FILE *f, int nseries)
{
	fprintf(f, ".plot input{display:none}\n"
		   ".legend{margin:.3em 0}\n"
		   ".legend label{margin-right:1.4em;cursor:pointer;user-select:none}\n"
		   ".sw{display:inline-block;width:.8em;height:.8em;border-radius:50%%;"
		   "margin-right:.35em;vertical-align:-.05em}\n"
		   ".plot svg{display:block;font:11px sans-serif}\n");
	for (int k = 0; k < nseries; k++)
		fprintf(f, ".plot input.s%d:not(:checked)~svg .s%d{display:none}\n"
			   ".plot input.s%d:not(:checked)~.legend .s%d{opacity:.35;"
			   "text-decoration:line-through}\n", k, k, k, k);
}

/* Plot area inside a W x H picture. */
enum { W = 920, LEFT = 64, RIGHT = 16, TOP = 34, BOTTOM = 56 };

struct frame {
	double x0, x1, y0, y1;   /* data range */
	double px0, pw, py0, ph; /* pixels: left, width, top, height */
};

static double px(const struct frame *fr, double x)
{
	return fr->px0 + (x - fr->x0) / (fr->x1 - fr->x0) * fr->pw;
}

static double py(const struct frame *fr, double y)
{
	return fr->py0 + fr->ph - (y - fr->y0) / (fr->y1 - fr->y0) * fr->ph;
}

static void legend(FILE *f, int id, const struct ub_plot_series *s, int ns)
{
	for (int k = 0; k < ns; k++)
		fprintf(f, "<input type=\"checkbox\" class=\"s%d\" id=\"p%d_%d\" checked>",
			k, id, k);
	fprintf(f, "\n<div class=\"legend\">");
	for (int k = 0; k < ns; k++)
	{
		fprintf(f, "<label class=\"s%d\" for=\"p%d_%d\"><span class=\"sw\" "
			"style=\"background:%s\"></span>", k, id, k, s[k].color);
		ub_html_text(f, s[k].name);
		fprintf(f, "</label>");
	}
	fprintf(f, "</div>\n");
}

static void hline(FILE *f, const struct frame *fr, double y, const char *extra)
{
	fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" %s/>\n",
		fr->px0, fr->px0 + fr->pw, y, y, extra);
}

void ub_html_text(FILE *f, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
}

static void text(FILE *f, double x, double y, const char *anchor, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", x, y, anchor);
	ub_html_text(f, s);
	fprintf(f, "</text>\n");
}

/* --- scatter --- */

static double symlog(enum ub_dtype dt, double v)
{
	int emin = ub_dtypes[dt].emin;
	if (fabs(v) < ldexp(1, emin))
		return ldexp(v, -emin);
	double t = isinf(v) ? ub_dtypes[dt].emax + 2 - emin
			    : log2(fabs(v)) - emin + 1;
	return v < 0 ? -t : t;
}

/* Ticks at +-10^k every `step` decades (fewer when crowded), 0, +-inf. */
static void x_ticks(FILE *f, const struct frame *fr, enum ub_dtype dt)
{
	static const int steps[] = { 1, 2, 5, 10, 20, 50, 100, 200 };
	double per_decade = log2(10.0) / (fr->x1 - fr->x0) * fr->pw, bottom =
		fr->py0 + fr->ph;
	int step = 200, kmin = (int)ceil(ub_dtypes[dt].emin / log2(10.0));
	int kmax = (int)ceil((ub_dtypes[dt].emax + 1) / log2(10.0));
	char buf[32];
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
		if (steps[i] * per_decade >= 48) {
			step = steps[i];
			break;
		}
	int zero = fr->x0 <= 0 && fr->x1 >= 0;
	for (int sign = -1; sign <= 1; sign += 2)
		for (int k = kmin - kmin % step; k <= kmax; k += step) {
			double t = sign * symlog(dt, pow(10.0, k)), x = px(fr, t);
			if (t < fr->x0 || t > fr->x1 || (zero && fabs(x - px(fr, 0)) < 36))
				continue;
			snprintf(buf, sizeof buf, k ? "%s1e%d" : "%s1", sign < 0 ? "-" : "", k);
			fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" "
				"class=\"grid\"/>\n", x, x, fr->py0, bottom);
			text(f, x, bottom + 30, "middle", buf);
		}
	if (zero)
		text(f, px(fr, 0), bottom + 30, "middle", "0");
	for (int sign = -1; sign <= 1; sign += 2) {
		double t = sign * symlog(dt, INFINITY);
		if (t >= fr->x0 && t <= fr->x1)
			text(f, px(fr, t), bottom + 30, "middle", sign < 0 ? "-inf" : "inf");
	}
}

static void y_ticks(FILE *f, const struct frame *fr)
{
	char buf[32];
	int step = (int)ceil((fr->y1 - fr->y0) / 10);
	for (int k = (int)fr->y0 + step; k <= (int)fr->y1; k += step) {
		double y = py(fr, k);
		snprintf(buf, sizeof buf, k >= -3 && k <= 4 ? "%g" : "1e%.0f",
			 k >= -3 && k <= 4 ? pow(10.0, k) : (double)k);
		hline(f, fr, y, "class=\"grid\"");
		text(f, fr->px0 - 6, y + 4, "end", buf);
	}
	text(f, fr->px0 - 6, fr->py0 + fr->ph + 18, "end", "0");
	text(f, fr->px0 - 6, fr->py0 + fr->ph + 4, "end", "\xe2\x89\xa4" "0.001");
	text(f, fr->px0 - 6, fr->py0 - 14, "end", "NaN/inf");
	hline(f, fr, py(fr, log10(0.5)), "class=\"half\"");
	text(f, fr->px0 + fr->pw - 4, py(fr, log10(0.5)) - 3, "end", "0.5 ulp");
}

/* Pixel position of a point; bands get a little jitter (by j) so that
 * their density shows. */
static void point_px(const struct frame *fr, enum ub_dtype dt,
		     const struct ub_plot_pt *p, size_t j, double *x, double *y)
{
	double jit = (double)((j * 2654435761u) % 9) - 4;
	*x = px(fr, symlog(dt, p->x));
	if (p->err < 0)
		*y = fr->py0 - 14 + jit;
	else if (p->err == 0)
		*y = fr->py0 + fr->ph + 14 + jit;
	else
		*y = py(fr, fmax(log10(p->err), fr->y0));
}

static void data_range(enum ub_dtype dt, const struct ub_plot_series *s, int ns,
		       struct frame *fr)
{
	double lo = INFINITY, hi = -INFINITY, emax = 0;
	for (int k = 0; k < ns; k++)
		for (size_t i = 0; i < s[k].n; i++) {
			const struct ub_plot_pt *p = &s[k].pt[i];
			if (isnan(p->x))
				continue;
			lo = fmin(lo, symlog(dt, p->x));
			hi = fmax(hi, symlog(dt, p->x));
			emax = fmax(emax, p->err);
		}
	if (lo > hi)
		lo = -1, hi = 1;
	if (hi - lo < 2)
		lo -= 1, hi += 1;
	double pad = (hi - lo) * 0.02;
	fr->x0 = lo - pad;
	fr->x1 = hi + pad;
	fr->y0 = -3;
	fr->y1 = emax > 0 ? fmax(0, floor(log10(emax)) + 1) : 0; /* above the max */
}

void ub_svg_scatter(FILE *f, int id, enum ub_dtype dt, const char *xname,
		    const struct ub_plot_series *s, int ns)
{
	const int H = 400;
	struct frame fr = { .px0 = LEFT, .pw = W - LEFT - RIGHT, .py0 = TOP,
			    .ph = H - TOP - BOTTOM };
	data_range(dt, s, ns, &fr);
	legend(f, id, s, ns);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\">\n<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		"height=\"%.1f\" class=\"area\"/>\n", W, H, W, H, fr.px0, fr.py0,
		fr.pw, fr.ph);
	x_ticks(f, &fr, dt);
	y_ticks(f, &fr);
	fprintf(f, "<g fill=\"none\" stroke-linecap=\"round\">\n");
	for (int k = ns - 1; k >= 0; k--) { /* the first series on top */
		fprintf(f, "<path class=\"s%d\" stroke=\"%s\" stroke-width=\"%s\" d=\"",
			k, s[k].color, s[k].halo ? "6.5" : "3.5");
		for (size_t i = 0; i < s[k].n; i++) {
			double x, y;
			if (isnan(s[k].pt[i].x))
				continue;
			point_px(&fr, dt, &s[k].pt[i], i, &x, &y);
			fprintf(f, "M%.1f %.1fh0", x, y);
		}
		fprintf(f, "\"/>\n");
	}
	fprintf(f, "</g>\n");
	fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">input ",
		fr.px0 + fr.pw / 2, H - 8);
	ub_html_text(f, xname);
	fprintf(f, " (symmetric log scale)</text>\n");
	fprintf(f, "<text transform=\"translate(14 %.1f) rotate(-90)\" "
		"text-anchor=\"middle\">ULP error (log scale)</text>\n</svg>\n",
		fr.py0 + fr.ph / 2);
}

/* --- histogram --- */

void ub_svg_histogram(FILE *f, int id, const struct ub_plot_series *s, int ns)
{
	const int H = 300, G = UB_HIST_BINS + 1;
	struct frame fr = { .px0 = LEFT, .pw = W - LEFT - RIGHT, .py0 = TOP - 14,
			    .ph = H - TOP + 14 - BOTTOM, .x0 = 0, .x1 = G,
			    .y0 = -0.3 };
	size_t maxc = 1;
	char buf[32];
	for (int k = 0; k < ns; k++)
		for (int b = 0; b < G; b++)
			maxc = b < UB_HIST_BINS ? (s[k].hist[b] > maxc ? s[k].hist[b] : maxc)
				: (s[k].nan_mismatch > maxc ? s[k].nan_mismatch : maxc);
	fr.y1 = fmax(1, ceil(log10((double)maxc)));
	legend(f, id, s, ns);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\">\n<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		"height=\"%.1f\" class=\"area\"/>\n", W, H, W, H, fr.px0, fr.py0,
		fr.pw, fr.ph);
	for (int k = 0; k <= (int)fr.y1; k++) {
		snprintf(buf, sizeof buf, k <= 4 ? "%.0f" : "1e%.0f",
			 k <= 4 ? pow(10.0, k) : (double)k);
		hline(f, &fr, py(&fr, k), "class=\"grid\"");
		text(f, fr.px0 - 6, py(&fr, k) + 4, "end", buf);
	}
	double gw = fr.pw / G, bw = gw * 0.8 / ns;
	for (int b = 0; b < G; b++) {
		text(f, px(&fr, b + 0.5), fr.py0 + fr.ph + 18, "middle",
		     b < UB_HIST_BINS ? ub_hist_labels[b] : "NaN/inf");
		for (int k = 0; k < ns; k++) {
			size_t c = b < UB_HIST_BINS ? s[k].hist[b] : s[k].nan_mismatch;
			if (!c)
				continue;
			double top = py(&fr, log10((double)c));
			fprintf(f, "<rect class=\"s%d\" fill=\"%s\" x=\"%.1f\" y=\"%.1f\" "
				"width=\"%.1f\" height=\"%.1f\"><title>", k, s[k].color,
				px(&fr, b) + gw * 0.1 + k * bw, top, bw, fr.py0 + fr.ph - top);
			ub_html_text(f, s[k].name);
			fputc(' ', f);
			ub_html_text(f, b < UB_HIST_BINS ? ub_hist_labels[b] : "NaN/inf");
			fprintf(f, ": %zu</title></rect>\n", c);
		}
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">ULP error</text>\n",
		fr.px0 + fr.pw / 2, H - 14);
	fprintf(f, "<text transform=\"translate(14 %.1f) rotate(-90)\" "
		"text-anchor=\"middle\">elements (log scale)</text>\n</svg>\n",
		fr.py0 + fr.ph / 2);
}
