/* html_map.c — the per-binade map of one input (html.h): one line per row
 * of the section, one cell per binade column of the input's value, its
 * colour the largest ULP error there (exact, over all elements); below, in
 * their own band, the binades where a row has NaN/inf disagreements.  The
 * columns are those of the section's input axis (html_axis.c), drawn
 * wider. */
#include "html.h"

#include <math.h>
#include <string.h>

enum { ML = UB_HTML_LEFT, MR = 10, MW = UB_HTML_PLOT_W, RH = 15, NH = 9, TOPM = 6 };

/* Colour classes of the largest error, declared once: upper bound
 * (inclusive), colour, legend text. */
#define MAP_CLASSES(X)                               \
	X(0.5, "#e3efdc", "\xe2\x89\xa4 0.5")          \
	X(1.0, "#fff1a8", "\xe2\x89\xa4 1")            \
	X(2.0, "#fed976", "\xe2\x89\xa4 2")            \
	X(4.0, "#feb24c", "\xe2\x89\xa4 4")            \
	X(16.0, "#fd8d3c", "\xe2\x89\xa4 16")          \
	X(256.0, "#f03b20", "\xe2\x89\xa4 256")        \
	X(65536.0, "#bd0026", "\xe2\x89\xa4 65536")    \
	X(INFINITY, "#5c0019", "> 65536")

static const struct {
	double upper;
	const char *color, *text;
} classes[] = {
#define X(u, c, t) { u, c, t },
	MAP_CLASSES(X)
#undef X
};
enum { NCLASSES = sizeof classes / sizeof classes[0] };

static int class_of(const struct ub_fig_cell *c)
{
	if (!c->n)
		return -1;
	for (int i = 0; i < NCLASSES; i++)
		if (c->max_ulp <= classes[i].upper)
			return i;
	return NCLASSES - 1;
}

/* A column's range as text, "[2^3, 2^4)" and the like. */
static void col_text(enum ub_dtype dt, int c, char *buf, size_t len)
{
	struct ub_fig_coldesc d;
	ub_fig_coldesc(dt, c, &d);
	const char *s = d.neg ? "-" : "";
	switch (d.kind) {
	case UB_FK_INF: snprintf(buf, len, "%sinf", s); break;
	case UB_FK_NAN: snprintf(buf, len, "NaN"); break;
	case UB_FK_ZERO: snprintf(buf, len, "\xc2\xb1" "0"); break;
	case UB_FK_SUB: snprintf(buf, len, "%ssubnormal", s); break;
	default:
		snprintf(buf, len, "%s[2^%d, 2^%d)", s, d.elo, d.ehi);
	}
}

static int interesting(const struct ub_fig_cell *c)
{
	return c->max_ulp > 0.5 || c->nan || c->torch;
}

static void cell(FILE *f, const struct ub_hsec *sec, int k, const struct ub_hseries *s,
		 int c, double x, double w, double y)
{
	const struct ub_fig_cell *cl = &s->fig->cell[k][c];
	int cls = class_of(cl);
	char where[48];
	col_text(sec->dt, c, where, sizeof where);
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"%s\">"
		"<title>", x, y, w, RH - 1, cls < 0 ? "#ffffff" : classes[cls].color);
	ub_html_text(f, s->row->mode);
	fprintf(f, ", ");
	ub_html_text(f, sec->in_names[k]);
	fprintf(f, " %s: max %.4g ulp, %llu elements, %llu NaN/inf", where, cl->max_ulp,
		(unsigned long long)cl->n, (unsigned long long)cl->nan);
	if (s->row->has_torch && !s->torch)
		fprintf(f, ", %llu differ from torch", (unsigned long long)cl->torch);
	fprintf(f, "</title></rect>");
}

/* One line of the map: quiet neighbours of one colour share a rect. */
static void line(FILE *f, const struct ub_hsec *sec, int k, const struct ub_axis *a,
		 const struct ub_hseries *s, double y)
{
	for (int i = 0; i < a->nseg; i++) {
		if (a->seg[i].gap)
			continue;
		double w = a->seg[i].pw / (a->seg[i].c1 - a->seg[i].c0);
		for (int c = a->seg[i].c0; c < a->seg[i].c1;) {
			const struct ub_fig_cell *cl = &s->fig->cell[k][c];
			double x = ML + a->seg[i].px0 + (c - a->seg[i].c0) * w;
			if (interesting(cl)) {
				cell(f, sec, k, s, c, x, w, y);
				c++;
				continue;
			}
			int e = c + 1, cls = class_of(cl);
			while (e < a->seg[i].c1 && !interesting(&s->fig->cell[k][e]) &&
			       class_of(&s->fig->cell[k][e]) == cls)
				e++;
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" "
				"fill=\"%s\"/>", x, y, w * (e - c), RH - 1,
				cls < 0 ? "#ffffff" : classes[cls].color);
			c = e;
		}
	}
	fputc('\n', f);
}

/* The NaN/inf band of one row: a mark where it has disagreements. */
static void nan_line(FILE *f, const struct ub_hsec *sec, int k, const struct ub_axis *a,
		     const struct ub_hseries *s, double y)
{
	for (int i = 0; i < a->nseg; i++) {
		double w = a->seg[i].pw / (a->seg[i].c1 - a->seg[i].c0);
		for (int c = a->seg[i].c0; !a->seg[i].gap && c < a->seg[i].c1; c++) {
			const struct ub_fig_cell *cl = &s->fig->cell[k][c];
			char where[48];
			if (!cl->nan)
				continue;
			col_text(sec->dt, c, where, sizeof where);
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" "
				"class=\"nanmark\"><title>", ML + a->seg[i].px0 +
				(c - a->seg[i].c0) * w, y, w > 1.5 ? w : 1.5, NH - 1);
			ub_html_text(f, s->row->mode);
			fprintf(f, ", %s: %llu of %llu NaN/inf disagreements</title></rect>", where,
				(unsigned long long)cl->nan, (unsigned long long)cl->n);
		}
	}
	fputc('\n', f);
}

static void names(FILE *f, const struct ub_hseries *s, double y, int h)
{
	fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"%s\">", ML - 6,
		y + h - 4, s->color);
	ub_html_text(f, s->row->mode);
	fprintf(f, "</text>");
}

static void color_key(FILE *f, double y)
{
	double x = ML;
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">largest ULP error:</text>\n", x, y + 10);
	x += 118;
	for (int i = 0; i < NCLASSES; i++, x += 78) {
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"12\" fill=\"%s\" "
			"class=\"keybox\"/><text x=\"%.1f\" y=\"%.1f\">%s</text>\n", x, y,
			classes[i].color, x + 18, y + 10, classes[i].text);
	}
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"12\" class=\"nanmark\"/>"
		"<text x=\"%.1f\" y=\"%.1f\">NaN/inf</text>\n", x, y, x + 18, y + 10);
}

void ub_html_map(FILE *f, const struct ub_hsec *sec, int k)
{
	const struct ub_axis *a = &sec->axis[k]; /* the error figures' */
	int ns = sec->ns;
	double nan_top = TOPM + ns * RH + 18, axis_y = nan_top + ns * NH + 26;
	int h = (int)axis_y + 40;
	fprintf(f, "<h3>Largest ULP error per binade of ");
	ub_html_text(f, sec->in_names[k]);
	fprintf(f, "</h3>\n<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"map\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n", ML + MW + MR, h,
		ML + MW + MR, h);
	ub_axis_grid(f, a, ML, TOPM - 2, nan_top + ns * NH);
	for (int i = 0; i < ns; i++) {
		double y = TOPM + i * RH;
		fprintf(f, "<g data-s=\"%d\">", sec->s[i].k);
		names(f, &sec->s[i], y, RH);
		line(f, sec, k, a, &sec->s[i], y);
		fprintf(f, "</g>\n");
	}
	fprintf(f, "<text x=\"%d\" y=\"%.1f\" class=\"small\">NaN/inf disagreements</text>\n",
		ML, nan_top - 5);
	for (int i = 0; i < ns; i++) {
		double y = nan_top + i * NH;
		fprintf(f, "<g data-s=\"%d\"><rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%d\" "
			"class=\"nanrow\"/>", sec->s[i].k, ML, y, MW, NH - 1);
		nan_line(f, sec, k, a, &sec->s[i], y);
		fprintf(f, "</g>\n");
	}
	ub_axis_labels(f, a, ML, axis_y);
	color_key(f, axis_y + 8);
	fprintf(f, "</svg>\n");
}
