/* html_glance.c — the page's first screen (html.h): one line per dtype and
 * row that answers the page's question before any figure.
 *
 *  - Against PyTorch: equal bit for bit, or how many elements differ, by
 *    how many units at most, and where: for each input whose values
 *    localise them, the range of its magnitudes holding 99% of them.
 *  - Against the exact value, the far region apart from the rounding
 *    story.  Random encodings bring inputs where an intermediate
 *    overflows or underflows and the result is another number; their
 *    errors (up to 10^7 ulp and NaN) dominate every figure and hide how
 *    a mode rounds.  A binade column of an input is far when some element
 *    there is more than UB_GLANCE_FAR ulp off or a NaN/inf disagreement;
 *    the input whose far columns hold the fewest elements (x for atan_bwd:
 *    |x| >= 2^64) splits the elements into the far region, told with its
 *    share, its ranges and its largest error, and the rest, whose largest
 *    error is the rounding story.  When no input separates them (far
 *    columns holding at most half the elements), the split is by error
 *    instead: the shares within 1 and UB_GLANCE_FAR ulp, and how many
 *    are further off.
 *
 * Everything comes from the rows' statistics and figures (counts and
 * maxima per binade column, the bands' largest errors: figures.h), so a
 * streamed run gives the same lines. */
#include "html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Errors above this many ulp mark a column as far (the edge of a band of
 * figures.h, so the largest error within it is exact). */
#define UB_GLANCE_FAR 16.0
/* A range of one input is shown when it holds at most this share of the
 * elements: wider, it does not localise anything. */
#define UB_GLANCE_LOCAL 0.5
#define UB_GLANCE_RUNS 3 /* far ranges shown per input */

/* The magnitude ranks of a dtype's columns: 0 zero, 1 subnormal, 2.. the
 * normal columns upwards, then inf; NaN apart. */
struct ranks {
	enum ub_dtype dt;
	int nc, nr;          /* columns, ranks (NaN not counted) */
	int of[UB_FIG_COLS]; /* a column's rank, -1 for NaN */
	int neg[UB_FIG_COLS];
	double lo[UB_FIG_COLS + 4], hi[UB_FIG_COLS + 4]; /* a rank's magnitudes */
};

static void ranks_init(struct ranks *k, enum ub_dtype dt)
{
	int G = 0, emin = ub_dtypes[dt].emin;
	k->dt = dt;
	k->nc = ub_fig_ncols(dt);
	for (int c = 0; c < k->nc; c++) {
		struct ub_fig_coldesc d;
		ub_fig_coldesc(dt, c, &d);
		G += d.kind == UB_FK_NORMAL && !d.neg;
	}
	k->nr = G + 3;
	for (int c = 0; c < k->nc; c++) {
		struct ub_fig_coldesc d;
		int r;
		ub_fig_coldesc(dt, c, &d);
		k->neg[c] = d.neg;
		switch (d.kind) {
		case UB_FK_ZERO: r = 0, k->lo[r] = k->hi[r] = 0; break;
		case UB_FK_SUB: r = 1, k->lo[r] = 0, k->hi[r] = ldexp(1, emin); break;
		case UB_FK_INF: r = G + 2, k->lo[r] = k->hi[r] = INFINITY; break;
		case UB_FK_NAN: r = -1; break;
		default:
			r = 2 + (d.elo - emin) / (d.ehi - d.elo > 0 ? d.ehi - d.elo : 1);
			k->lo[r] = ldexp(1, d.elo);
			k->hi[r] = ldexp(1, d.ehi);
		}
		k->of[c] = r;
	}
}

static void number(FILE *f, double v)
{
	fprintf(f, v == floor(v) && v < 1e6 ? "%.0f" : "%.3g", v);
}

/* "a ≤ |x| < b" for ranks lo..hi, the signs seen there (1 negative, 2
 * positive, 3 both) deciding |x|, x or −x. */
static void range(FILE *f, const struct ranks *k, const char *name, int lo, int hi,
		  int sides)
{
	const char *a = sides == 1 ? "&minus;" : sides == 2 ? "" : "|";
	const char *b = sides == 3 ? "|" : "";
	if (hi == 0)
		fprintf(f, "%s = 0", name);
	else if (lo == k->nr - 1)
		fprintf(f, "%s = %sinf", name, sides == 1 ? "&minus;" : sides == 2 ? "+" : "&plusmn;");
	else if (lo <= 1) {
		fprintf(f, "%s%s%s &lt; ", a, name, b);
		number(f, k->hi[hi]);
	} else if (hi == k->nr - 1) { /* inf included */
		fprintf(f, "%s%s%s &ge; ", a, name, b);
		number(f, k->lo[lo]);
	} else if (hi == k->nr - 2) { /* up to the largest finite binade */
		number(f, k->lo[lo]);
		fprintf(f, " &le; %s%s%s &lt; inf", a, name, b);
	} else {
		number(f, k->lo[lo]);
		fprintf(f, " &le; %s%s%s &lt; ", a, name, b);
		number(f, k->hi[hi]);
	}
}

/* Per rank, the sum of w over the columns of input kin; and the signs
 * with any weight there. */
static uint64_t by_rank(const struct ranks *k, const struct ub_figs *g, int kin,
			uint64_t (*w)(const struct ub_fig_cell *), uint64_t *by, int *sides,
			uint64_t *nan)
{
	uint64_t total = 0;
	memset(by, 0, sizeof(uint64_t) * (size_t)k->nr);
	memset(sides, 0, sizeof(int) * (size_t)k->nr);
	*nan = 0;
	for (int c = 0; c < k->nc; c++) {
		uint64_t v = w(&g->cell[kin][c]);
		if (k->of[c] < 0) {
			*nan += v;
			continue;
		}
		by[k->of[c]] += v;
		sides[k->of[c]] |= v ? (k->neg[c] ? 1 : 2) : 0;
		total += v;
	}
	return total;
}

static uint64_t w_n(const struct ub_fig_cell *c) { return c->n; }
static uint64_t w_torch(const struct ub_fig_cell *c) { return c->torch; }
static uint64_t w_far(const struct ub_fig_cell *c)
{
	return c->nan || c->max_ulp > UB_GLANCE_FAR ? c->n : 0;
}

/* Input kin's magnitudes holding all but 1% of what w counts, when they
 * hold at most UB_GLANCE_LOCAL of the elements; returns whether it wrote. */
static int localised(FILE *f, const struct ranks *k, const struct ub_figs *g, int kin,
		     const char *name, uint64_t (*w)(const struct ub_fig_cell *))
{
	uint64_t by[UB_FIG_COLS + 4], pop[UB_FIG_COLS + 4], nan, pnan, cut = 0, in = 0;
	int sides[UB_FIG_COLS + 4], psides[UB_FIG_COLS + 4], lo = 0, hi = k->nr - 1, s = 0;
	uint64_t total = by_rank(k, g, kin, w, by, sides, &nan) + nan;
	uint64_t all = by_rank(k, g, kin, w_n, pop, psides, &pnan) + pnan;
	if (total == nan) /* none, or only at NaN inputs */
		return 0;
	uint64_t allow = total / 100;
	while (!by[lo] || (lo < hi && cut + nan + by[lo] <= allow))
		cut += by[lo++];
	while (!by[hi] || (hi > lo && cut + nan + by[hi] <= allow))
		cut += by[hi--];
	for (int r = lo; r <= hi; r++) {
		in += pop[r];
		s |= sides[r];
	}
	if ((double)in > UB_GLANCE_LOCAL * (double)all)
		return 0;
	if (cut + nan)
		fprintf(f, "%.0f%% at ", floor(100.0 * (double)(total - cut - nan) / (double)total));
	range(f, k, name, lo, hi, s ? s : 3);
	return 1;
}

/* The torch disagreements' ranges, for each input that localises them. */
static void torch_where(FILE *f, const struct ranks *k, const struct ub_row *r,
			const char *const *names)
{
	int any = 0;
	for (int kin = 0; kin < r->fig->nin; kin++) {
		char *text = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&text, &len);
		int wrote = m && localised(m, k, r->fig, kin, names[kin], w_torch);
		if (m)
			fclose(m);
		if (wrote)
			fprintf(f, "%s%s", any ? "; " : "", text);
		any |= wrote;
		free(text);
	}
	if (!any)
		fprintf(f, "spread over the inputs' ranges");
}

static void pct(FILE *f, uint64_t a, uint64_t n)
{
	double p = n ? 100.0 * (double)a / (double)n : 0;
	fprintf(f, p > 0 && p < 0.01 ? "%.1g%%" : p < 10 ? "%.2f%%" : "%.1f%%", p);
}

/* A count with thousands separators. */
static void count(FILE *f, uint64_t n)
{
	char d[32];
	int len = snprintf(d, sizeof d, "%llu", (unsigned long long)n);
	for (int i = 0; i < len; i++)
		fprintf(f, "%s%c", i && (len - i) % 3 == 0 ? "," : "", d[i]);
}

static void vs_torch(FILE *f, const struct ranks *k, const struct ub_row *r,
		     const char *const *names)
{
	const struct ub_stats *st = &r->st;
	if (!strcmp(r->mode, "torch"))
		fprintf(f, "<td>the torch plan itself</td>");
	else if (!r->has_torch)
		fprintf(f, "<td>no torch plan</td>");
	else if (!st->torch_mismatch)
		fprintf(f, "<td><span class=\"geq\">equal, bit for bit</span></td>");
	else {
		fprintf(f, "<td><span class=\"gne\">differs in ");
		count(f, st->torch_mismatch);
		fprintf(f, " of ");
		count(f, st->n);
		fprintf(f, " (");
		pct(f, st->torch_mismatch, st->n);
		fprintf(f, "), by up to ");
		count(f, st->torch_max_dist);
		fprintf(f, " unit%s</span><br><small>", st->torch_max_dist == 1 ? "" : "s");
		torch_where(f, k, r, names);
		fprintf(f, "</small></td>");
	}
}

/* The input whose far columns hold the fewest elements, when they hold
 * at most half of them (a minority, told apart); -1 when none does. */
static int far_input(const struct ranks *k, const struct ub_figs *g, uint64_t *far_n)
{
	int best = -1;
	for (int kin = 0; kin < g->nin; kin++) {
		uint64_t by[UB_FIG_COLS + 4], nan, pnan, far;
		int sides[UB_FIG_COLS + 4];
		far = by_rank(k, g, kin, w_far, by, sides, &nan) + nan;
		uint64_t all = by_rank(k, g, kin, w_n, by, sides, &pnan) + pnan;
		if (far && 2 * far <= all && (best < 0 || far < *far_n)) {
			best = kin;
			*far_n = far;
		}
	}
	return best;
}

/* The far columns of input kin as up to UB_GLANCE_RUNS runs of ranks, the
 * largest first, and NaN. */
static void far_ranges(FILE *f, const struct ranks *k, const struct ub_figs *g, int kin,
		       const char *name)
{
	uint64_t by[UB_FIG_COLS + 4], nan;
	int sides[UB_FIG_COLS + 4], lo[UB_FIG_COLS + 4], hi[UB_FIG_COLS + 4], n = 0;
	uint64_t w[UB_FIG_COLS + 4];
	by_rank(k, g, kin, w_far, by, sides, &nan);
	for (int r = 0; r < k->nr; r++) {
		if (!by[r])
			continue;
		if (n && hi[n - 1] == r - 1)
			hi[n - 1] = r, w[n - 1] += by[r];
		else
			lo[n] = hi[n] = r, w[n++] = by[r];
	}
	for (int shown = 0; shown < UB_GLANCE_RUNS && shown < n; shown++) {
		int b = 0, s = 0;
		for (int i = 1; i < n; i++)
			b = w[i] > w[b] ? i : b;
		for (int r = lo[b]; r <= hi[b]; r++)
			s |= sides[r];
		fprintf(f, "%s", shown ? ", " : "");
		range(f, k, name, lo[b], hi[b], s ? s : 3);
		w[b] = 0;
	}
	if (n > UB_GLANCE_RUNS)
		fprintf(f, " and %d more range%s", n - UB_GLANCE_RUNS,
			n - UB_GLANCE_RUNS == 1 ? "" : "s");
	if (nan)
		fprintf(f, "%s%s NaN", n ? ", " : "", name);
}

/* How many comparable elements are at most e ulp off (e a fine bin's
 * edge). */
static uint64_t up_to(const struct ub_figs *g, double e)
{
	uint64_t n = 0;
	for (int b = 0; b < UB_FINE_BINS && (b == 0 || ub_fine_upper(b) <= e); b++)
		n += g->fine[b];
	return n;
}

/* How many elements are more than UB_GLANCE_FAR ulp off (fine bins above
 * it). */
static int within(const struct ub_figs *g, uint64_t *beyond)
{
	*beyond = 0;
	for (int b = 1; b < UB_FINE_BINS; b++)
		*beyond += ub_fine_upper(b - 1) >= UB_GLANCE_FAR ? g->fine[b] : 0;
	return *beyond != 0;
}

static void vs_exact(FILE *f, const struct ranks *k, const struct ub_row *r,
		     const char *const *names)
{
	const struct ub_stats *st = &r->st;
	const struct ub_figs *g = r->fig;
	uint64_t far = 0, decided = st->n - st->undecided;
	int kin = far_input(k, g, &far);
	double m = -1;
	if (kin >= 0) /* the largest error outside kin's far columns */
		for (int c = 0; c < k->nc; c++)
			if (!w_far(&g->cell[kin][c]) && g->cell[kin][c].max_ulp > m &&
			    g->cell[kin][c].n)
				m = g->cell[kin][c].max_ulp;
	fprintf(f, "<td>");
	if (kin >= 0)
		fprintf(f, "max %.4g ulp outside the far region", m < 0 ? 0 : m);
	else if (!st->ncomparable)
		fprintf(f, "&ndash;");
	else if (!within(g, &far))
		fprintf(f, "max %.4g ulp", st->max_ulp);
	else { /* no region to set apart: how many are close */
		fprintf(f, "within 1 ulp: ");
		pct(f, up_to(g, 1), st->ncomparable);
		fprintf(f, ", within %.0f ulp: ", UB_GLANCE_FAR);
		pct(f, up_to(g, UB_GLANCE_FAR), st->ncomparable);
		fprintf(f, " of the elements");
	}
	if (decided) {
		fprintf(f, "<br><small>");
		pct(f, decided - st->cr_mismatch, decided);
		fprintf(f, " of all the elements correctly rounded</small>");
	}
	fprintf(f, "</td><td>");
	if (kin >= 0) {
		count(f, far);
		fprintf(f, " elements (");
		pct(f, far, st->n);
		fprintf(f, "): max %.4g ulp%s", st->max_ulp,
			st->nan_mismatch ? ", " : "");
		if (st->nan_mismatch) {
			count(f, st->nan_mismatch);
			fprintf(f, " NaN/inf disagreement%s", st->nan_mismatch == 1 ? "" : "s");
		}
		fprintf(f, "<br><small>at ");
		far_ranges(f, k, g, kin, names[kin]);
		fprintf(f, "</small>");
	} else if (far || st->nan_mismatch) {
		count(f, far);
		fprintf(f, " elements off by more than %.0f ulp (max %.4g)", UB_GLANCE_FAR,
			st->max_ulp);
		if (st->nan_mismatch) {
			fprintf(f, ", ");
			count(f, st->nan_mismatch);
			fprintf(f, " NaN/inf disagreement%s", st->nan_mismatch == 1 ? "" : "s");
		}
		fprintf(f, "<br><small>spread over the inputs' ranges</small>");
	} else
		fprintf(f, "none");
	fprintf(f, "</td>");
}

static void glance_row(FILE *f, const struct ranks *k, const struct ub_row *r,
		       const char *const *names, const char *color)
{
	fprintf(f, "<tr><td><a href=\"#row-%s-", ub_dtypes[r->dt].name);
	ub_html_text(f, r->mode);
	fprintf(f, "\">");
	if (color)
		fprintf(f, "<span class=\"sw\" style=\"background:%s\"></span>", color);
	ub_html_text(f, r->mode);
	fprintf(f, "</a></td>");
	if (r->na || !r->fig) {
		fprintf(f, "<td colspan=\"3\">n/a: ");
		ub_html_text(f, r->na ? r->na : "no figures");
		fprintf(f, "</td></tr>\n");
		return;
	}
	vs_torch(f, k, r, names);
	vs_exact(f, k, r, names);
	fprintf(f, "</tr>\n");
}

void ub_html_glance(FILE *f, const struct ub_result *res)
{
	struct ranks *k = malloc(sizeof *k);
	if (!k)
		return; /* the sections still say everything */
	fprintf(f, "<div class=\"glance\" id=\"glance\"><h2>At a glance</h2>\n"
		   "<table class=\"glance\"><tr><th style=\"width:8%%\">row</th>"
		   "<th style=\"width:34%%\">against PyTorch (the torch plan), bit for bit</th>"
		   "<th style=\"width:26%%\">against the exact value: rounding</th>"
		   "<th>the far region: overflow, underflow, NaN</th></tr>\n");
	for (int t = 0; t < res->ndata; t++) {
		const struct ub_op *op = ub_data_op(res, &res->data[t]);
		int colors = 0;
		ranks_init(k, res->data[t].dt);
		if (res->ndata > 1)
			fprintf(f, "<tr class=\"gdt\"><td colspan=\"4\"><a href=\"#sec-%s\">%s</a>"
				"</td></tr>\n", ub_dtypes[k->dt].name, ub_dtypes[k->dt].name);
		for (int i = 0; i < res->nrows; i++) {
			const struct ub_row *r = &res->rows[i];
			if (r->data != t)
				continue;
			/* the colours of the section's legend (report_html.c) */
			const char *color = r->na ? NULL : !strcmp(r->mode, "torch") ?
					    UB_HTML_TORCH_COLOR : ub_html_color(colors++);
			glance_row(f, k, r, (const char *const *)op->inputs, color);
		}
	}
	free(k);
	fprintf(f, "</table>\n<p class=\"note\">Units: how many encodings apart two results "
		   "are; a range holding 99%% of the differences is shown for each input "
		   "whose values localise them. The far region: the binades of an input where "
		   "some element is more than %.0f ulp off or disagrees on NaN/inf, for the "
		   "input that confines them best; random encodings bring such inputs "
		   "(an intermediate overflows or underflows and the result is another "
		   "number), and their errors would hide how each mode rounds, which the "
		   "rounding column tells for the rest. The sections below have the "
		   "figures.</p></div>\n", UB_GLANCE_FAR);
}
