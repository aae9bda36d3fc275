/* html_dist.c — the distribution of each row's ULP error (html.h): a
 * histogram by octave on axes shared by every row, beside the median, p99,
 * p99.9 and max.  Percentiles are read from the fine bins of figures.h
 * (an eighth of an octave): each is the upper edge of the bin that holds
 * it, so it is exact at 0 and at bin edges and otherwise at most 12.5%
 * above the true value; max is exact. */
#include "html.h"

#include <math.h>
#include <string.h>

enum { SW = 440, SH = 46, SL = 4, SR = 4, KLO = -12 };

/* Octave bars: 0 exact, 1 (0, 2^KLO], then (2^k, 2^(k+1)] for k = KLO..khi,
 * then NaN/inf. */
static int nbars(int khi)
{
	return 2 + (khi - KLO + 1) + 1;
}

static int bar_of_fine(int b)
{
	if (b == 0)
		return 0;
	if (b == 1)
		return 1;
	/* bin b holds (2^k (1 + j/8), 2^k (1 + (j+1)/8)]: octave (2^k, 2^(k+1)] */
	int k = (b - 2) / UB_FINE_SUB + UB_FINE_LO;
	if (b == UB_FINE_BINS - 1)
		k = UB_FINE_HI;
	return k < KLO ? 1 : 2 + (k - KLO);
}

/* The top octave over the section: that of the largest max_ulp (at least
 * (1, 2]). */
static int top_octave(const struct ub_hsec *sec)
{
	int khi = 0;
	for (int i = 0; i < sec->ns; i++) {
		double m = sec->s[i].row->st.max_ulp;
		if (m > 0) {
			int k = (int)ceil(log2(m)) - 1; /* m in (2^k, 2^(k+1)] */
			k = k > UB_FINE_HI ? UB_FINE_HI : k;
			khi = k > khi ? k : khi;
		}
	}
	return khi;
}

static void spark(FILE *f, const struct ub_hseries *s, int khi, const double *q)
{
	int nb = nbars(khi);
	uint64_t count[2 + (UB_FINE_HI - KLO + 1) + 1] = {0}, most = 1;
	for (int b = 0; b < UB_FINE_BINS; b++) {
		int bar = bar_of_fine(b);
		if (bar < nb - 1)
			count[bar] += s->fig->fine[b];
		else
			count[nb - 2] += s->fig->fine[b];
	}
	count[nb - 1] = s->row->st.nan_mismatch;
	for (int b = 0; b < nb; b++)
		most = count[b] > most ? count[b] : most;
	double bw = (double)(SW - SL - SR) / nb;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"spark\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\">\n<rect x=\"%d\" y=\"1\" width=\"%d\" "
		"height=\"%d\" class=\"area\"/>\n", SW, SH, SW, SH, SL, SW - SL - SR, SH - 2);
	for (int b = 0; b < nb; b++) {
		if (!count[b])
			continue;
		double h = (SH - 6) * (0.15 + 0.85 * log1p((double)count[b]) / log1p((double)most));
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"%s>"
			"<title>%llu</title></rect>", SL + b * bw + 0.5, SH - 2 - h, bw - 1, h,
			b == nb - 1 ? "#5e3c99" : s->color, b == 0 ? " opacity=\"0.55\"" : "",
			(unsigned long long)count[b]);
	}
	/* the quantiles: a mark at the bar that holds each */
	static const char *const qname[] = { "median", "p99", "p99.9", "max" };
	for (int i = 0; i < 4; i++) {
		if (q[i] < 0)
			continue;
		int bar = q[i] == 0 ? 0 : q[i] <= ldexp(1, KLO) ? 1
			: 2 + ((int)ceil(log2(q[i])) - 1 - KLO);
		bar = bar > nb - 2 ? nb - 2 : bar;
		double x = SL + (bar + 0.5) * bw;
		fprintf(f, "<path d=\"M%.1f 1v%d\" class=\"q%d\"><title>%s %.4g</title></path>",
			x, SH - 2, i, qname[i], q[i]);
	}
	fprintf(f, "</svg>");
}

static void spark_axis(FILE *f, int khi)
{
	int nb = nbars(khi);
	double bw = (double)(SW - SL - SR) / nb;
	char buf[24];
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"spark\" width=\"%d\" "
		"height=\"16\" viewBox=\"0 0 %d 16\">", SW, SW);
	fprintf(f, "<text x=\"%.1f\" y=\"12\" text-anchor=\"middle\">0</text>", SL + bw / 2);
	fprintf(f, "<text x=\"%.1f\" y=\"12\" text-anchor=\"middle\">NaN</text>",
		SL + (nb - 0.5) * bw);
	int step = (khi - KLO + 1) > 24 ? 8 : 4;
	for (int k = KLO + step; k <= khi + 1 && SL + (2 + (k - KLO)) * bw <
	     SL + (nb - 0.5) * bw - 24; k += step) { /* clear of "NaN" */
		snprintf(buf, sizeof buf, k >= -3 && k <= 10 ? "%g" : "2^%.0f",
			 k >= -3 && k <= 10 ? ldexp(1, k) : (double)k);
		/* the edge 2^k between the octaves below and above it */
		fprintf(f, "<text x=\"%.1f\" y=\"12\" text-anchor=\"middle\">%s</text>",
			SL + (2 + (k - KLO)) * bw, buf);
	}
	fprintf(f, "</svg>");
}

/* A figure; bound: it is an upper bound (a bin's upper edge, or max),
 * shown as such ("≤ 0.5") unless it is 0; the edge of the first bin as
 * "≈ 0" (the note under the table says what it means). */
static void qcell(FILE *f, double v, int bound)
{
	fprintf(f, "<td>");
	if (v < 0)
		fprintf(f, "-");
	else if (bound && v > 0 && v <= ub_fine_upper(1))
		fprintf(f, "<span title=\"\xe2\x89\xa4 %.3g\">\xe2\x89\x88 0</span>", v);
	else {
		if (bound && v != 0)
			fprintf(f, "\xe2\x89\xa4 ");
		ub_html_num(f, v);
	}
	fprintf(f, "</td>");
}

void ub_html_dist(FILE *f, const struct ub_hsec *sec)
{
	int khi = top_octave(sec);
	fprintf(f, "<h3>Distribution of ULP error</h3>\n<table class=\"dist\"><tr><th>row</th>"
		   "<th>elements by ULP error: exact, octaves, NaN/inf (log count)</th>"
		   "<th>median</th><th>p99</th><th>p99.9</th><th>max</th><th>mean</th>"
		   "<th>NaN/inf</th></tr>\n");
	for (int i = 0; i < sec->ns; i++) {
		const struct ub_hseries *s = &sec->s[i];
		const struct ub_stats *st = &s->row->st;
		double q[4] = { ub_figs_quantile(s->fig, 0.5, st->max_ulp),
				ub_figs_quantile(s->fig, 0.99, st->max_ulp),
				ub_figs_quantile(s->fig, 0.999, st->max_ulp),
				st->ncomparable ? st->max_ulp : -1 };
		fprintf(f, "<tr data-s=\"%d\"><td><span class=\"sw\" style=\"background:%s\">"
			"</span>", s->k, s->color);
		ub_html_text(f, s->row->mode);
		fprintf(f, "</td><td class=\"sparkcell\">");
		spark(f, s, khi, q);
		fprintf(f, "</td>");
		for (int j = 0; j < 4; j++)
			qcell(f, q[j], j < 3);
		qcell(f, st->ncomparable ? ub_stats_mean(st) : -1, 0);
		fprintf(f, "<td>%zu</td></tr>\n", st->nan_mismatch);
	}
	fprintf(f, "<tr class=\"axisrow\"><td></td><td class=\"sparkcell\">");
	spark_axis(f, khi);
	fprintf(f, "</td><td colspan=\"6\"></td></tr>\n</table>\n");
	fprintf(f, "<p class=\"note\">Percentiles of the comparable elements (NaN/inf "
		   "disagreements apart), read from bins of an eighth of an octave: each is "
		   "the upper edge of the bin holding it, at most 12.5%% above the true value "
		   "(exact at 0); max is exact. &asymp; 0: at most 2^-24 ulp (the first bin): "
		   "exact results, or results within a tiny part of a unit of the exact value, "
		   "such as 0 for an exact value far below the smallest subnormal, which random "
		   "encodings give often.</p>\n");
}
