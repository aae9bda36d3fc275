/* html_axis.c — the input axis of the HTML page's figures (html.h).
 *
 * Positions are binade columns (figures.h: each binade of the input, and
 * the subnormals together, one column, log scale inside), from -inf on the
 * left to +inf and NaN on the right.  The range is chosen from where the
 * errors are: columns no row has an element in are left out at both ends;
 * inside, a long run of empty columns becomes a narrow gap ("no inputs"),
 * and so does a long run of quiet columns, where every row is within 0.5 ulp,
 * has no NaN/inf disagreement and agrees with the torch plan bit for bit
 * (for an op such as atan backward, |x| below 2^-12: half the axis that
 * would show nothing).  The torch distance figures have an axis of their
 * own, quiet where no row differs from the torch plan, so that a mode's
 * few differences are not squeezed into a corner.  When no column has
 * anything to show, only the empty ones are collapsed. */
#include "html.h"

#include <math.h>
#include <string.h>

enum { GAP_PX = 14, LABEL_PX = 38 };
enum { SHOWN = 0, QUIET = 1, EMPTY = 2 };

static int col_class(const struct ub_hsec *sec, int k, int c, int torch)
{
	int n = 0, busy = 0;
	for (int i = 0; i < sec->ns; i++) {
		const struct ub_fig_cell *cell = &sec->s[i].fig->cell[k][c];
		n |= cell->n > 0;
		busy |= cell->torch || (!torch && (cell->max_ulp > 0.5 || cell->nan));
	}
	return !n ? EMPTY : busy ? SHOWN : QUIET;
}

static void add_seg(struct ub_axis *a, int c0, int c1, int gap)
{
	if (a->nseg && a->seg[a->nseg - 1].gap == gap && !gap) {
		a->seg[a->nseg - 1].c1 = c1; /* extend the shown run */
		return;
	}
	a->seg[a->nseg].c0 = c0;
	a->seg[a->nseg].c1 = c1;
	a->seg[a->nseg].gap = gap;
	a->nseg++;
}

void ub_axis_build(struct ub_axis *a, const struct ub_hsec *sec, int k,
		   double width, int torch)
{
	int nc = ub_fig_ncols(sec->dt), cls[UB_FIG_COLS], lo = -1, hi = -1, busy = 0;
	memset(a, 0, sizeof *a);
	a->dt = sec->dt;
	a->width = width;
	for (int c = 0; c < nc; c++) {
		cls[c] = col_class(sec, k, c, torch);
		if (cls[c] != EMPTY) {
			lo = lo < 0 ? c : lo;
			hi = c;
		}
		busy |= cls[c] == SHOWN;
	}
	if (lo < 0) { /* no element at all: the whole range */
		lo = 0;
		hi = nc - 1;
	}
	int active = 0;
	for (int c = lo; c <= hi; c++)
		active += cls[c] != EMPTY;
	int min_quiet = active / 16 > 4 ? active / 16 : 4;
	for (int c = lo; c <= hi;) {
		int e = c;
		while (e <= hi && cls[e] == cls[c])
			e++;
		if (cls[c] == EMPTY && e - c >= min_quiet)
			add_seg(a, c, e, 2);
		else if (cls[c] == QUIET && busy && e - c >= min_quiet)
			add_seg(a, c, e, 1);
		else
			add_seg(a, c, e, 0);
		c = e;
	}
	int shown = 0, gaps = 0;
	for (int i = 0; i < a->nseg; i++) {
		if (a->seg[i].gap)
			gaps++;
		else
			shown += a->seg[i].c1 - a->seg[i].c0;
	}
	/* gaps take at most a third of the width */
	double gap_px = gaps * GAP_PX > width / 3 ? width / 3 / gaps : GAP_PX;
	double colw = shown ? (width - gaps * gap_px) / shown : 0, x = 0;
	for (int i = 0; i < a->nseg; i++) {
		a->seg[i].px0 = x;
		a->seg[i].pw = a->seg[i].gap ? (shown ? gap_px : width / gaps)
					     : colw * (a->seg[i].c1 - a->seg[i].c0);
		x += a->seg[i].pw;
	}
}

double ub_axis_px(const struct ub_axis *a, double pos)
{
	for (int i = 0; i < a->nseg; i++)
		if (pos >= a->seg[i].c0 && pos < a->seg[i].c1) {
			if (a->seg[i].gap) /* nothing is drawn in a gap */
				return -1;
			return a->seg[i].px0 + (pos - a->seg[i].c0) /
				(a->seg[i].c1 - a->seg[i].c0) * a->seg[i].pw;
		}
	return -1;
}

/* A candidate tick: its value's position, label and priority (lower is
 * kept first). */
struct tick {
	double px;
	char label[16];
	int prio;
};

static int add_tick(struct tick *t, int n, const struct ub_axis *a, double pos,
		    const char *label, int prio)
{
	for (int i = 0; i < a->nseg; i++)
		if (!a->seg[i].gap && pos >= a->seg[i].c0 && pos < a->seg[i].c1) {
			t[n].px = ub_axis_px(a, pos);
			snprintf(t[n].label, sizeof t[n].label, "%s", label);
			t[n].prio = prio;
			return n + 1;
		}
	return n;
}

/* The ticks to draw: 0, +-inf and NaN, then the powers of ten, round
 * decades first, each kept when no kept one is near it. */
enum { MAX_TICKS = 72 };
static int ticks(const struct ub_axis *a, struct tick *keep)
{
	struct tick t[2 * 700 + 8];
	int n = 0, nk = 0, dmin = (int)floor(log10(ldexp(1, ub_dtypes[a->dt].emin -
		ub_dtypes[a->dt].prec + 1))), dmax = (int)floor(log10(ldexp(1.9999,
		ub_dtypes[a->dt].emax)));
	char buf[16];
	n = add_tick(t, n, a, ub_fig_pos_value(a->dt, 0), "0", 0);
	n = add_tick(t, n, a, ub_fig_pos_value(a->dt, INFINITY), "inf", 0);
	n = add_tick(t, n, a, ub_fig_pos_value(a->dt, -INFINITY), "-inf", 0);
	n = add_tick(t, n, a, ub_fig_pos_value(a->dt, NAN), "NaN", 0);
	for (int d = dmin; d <= dmax && n < (int)(sizeof t / sizeof t[0]) - 2; d++)
		for (int sign = -1; sign <= 1; sign += 2) {
			if (d >= -3 && d <= 3)
				snprintf(buf, sizeof buf, "%s%g", sign < 0 ? "-" : "", pow(10, d));
			else
				snprintf(buf, sizeof buf, "%s1e%d", sign < 0 ? "-" : "", d);
			n = add_tick(t, n, a, ub_fig_pos_value(a->dt, sign * pow(10, d)), buf,
				     d % 10 == 0 ? 1 : d % 5 == 0 ? 2 : d % 2 == 0 ? 3 : 4);
		}
	for (int prio = 0; prio <= 4; prio++)
		for (int i = 0; i < n; i++) {
			int ok = t[i].prio == prio;
			for (int j = 0; ok && j < nk; j++)
				ok = nk < MAX_TICKS;
			for (int j = 0; ok && j < nk; j++)
				ok = fabs(keep[j].px - t[i].px) >= LABEL_PX;
			if (ok)
				keep[nk++] = t[i];
		}
	return nk;
}

/* The value at the left (right = 0) or right edge of column c, as text. */
static void edge(enum ub_dtype dt, int c, int right, char *buf, size_t len)
{
	struct ub_fig_coldesc d;
	ub_fig_coldesc(dt, c, &d);
	int emin = ub_dtypes[dt].emin;
	switch (d.kind) {
	case UB_FK_INF: snprintf(buf, len, d.neg ? "-inf" : "inf"); return;
	case UB_FK_NAN: snprintf(buf, len, "NaN"); return;
	case UB_FK_ZERO: snprintf(buf, len, "0"); return;
	case UB_FK_SUB: /* [-2^emin, -0] or [+0, 2^emin] */
		if (d.neg != right)
			snprintf(buf, len, "%s2^%d", d.neg ? "-" : "", emin);
		else
			snprintf(buf, len, d.neg ? "-0" : "+0");
		return;
	default:
		snprintf(buf, len, "%s2^%d", d.neg ? "-" : "",
			 d.neg == right ? d.elo : d.ehi);
	}
}

void ub_axis_labels(FILE *f, const struct ub_axis *a, double left, double y)
{
	struct tick keep[MAX_TICKS];
	int nk = ticks(a, keep);
	for (int i = 0; i < nk; i++)
		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" "
			"class=\"tick\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s"
			"</text>\n", left + keep[i].px, left + keep[i].px, y - 16, y - 11,
			left + keep[i].px, y, keep[i].label);
	for (int i = 0; i < a->nseg; i++)
		if (a->seg[i].gap)
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
				"class=\"gapmark\">%s</text>\n", left + a->seg[i].px0 +
				a->seg[i].pw / 2, y - 8, "\xe2\x89\x88"); /* ≈ */
}

void ub_axis_grid(FILE *f, const struct ub_axis *a, double left, double y0,
		  double y1)
{
	struct tick keep[MAX_TICKS];
	int nk = ticks(a, keep);
	for (int i = 0; i < nk; i++)
		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" "
			"class=\"grid\"/>\n", left + keep[i].px, left + keep[i].px, y0, y1);
	for (int i = 0; i < a->nseg; i++)
		if (a->seg[i].gap)
		{
			char lo[32], hi[32];
			edge(a->dt, a->seg[i].c0, 0, lo, sizeof lo);
			edge(a->dt, a->seg[i].c1 - 1, 1, hi, sizeof hi);
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				"class=\"gap%d\"><title>inputs from %s to %s: %s</title></rect>\n",
				left + a->seg[i].px0, y0, a->seg[i].pw, y1 - y0, a->seg[i].gap,
				lo, hi, a->seg[i].gap == 1 ? "every row within 0.5 ulp, no NaN/inf "
				"disagreement, equal to the torch plan (collapsed)" : "no inputs");
		}
}
