/* html.h — what the parts of the HTML page (report_html.c) share: one
 * section per dtype, its rows and their figures (figures.h), and the
 * input axis that every figure of one input shares.
 *
 * The page is drawn from the rows alone (their statistics and figures),
 * never from per-element arrays, so that a streamed run and a merged one
 * draw it as a whole-array run does. */
#ifndef UB_HTML_H
#define UB_HTML_H

#include <stdio.h>

#include "report.h"

/* The input axis of one input in one section: the binade columns where
 * something happens, in order, with runs of quiet columns and of empty
 * ones collapsed into narrow gaps.  Quiet: every row at most 0.5 ulp, no
 * NaN/inf or torch disagreement (the error axis), or no torch
 * disagreement (the torch axis). */
#define UB_AXIS_MAX (UB_FIG_COLS + 1)
struct ub_axis {
	enum ub_dtype dt;
	int nseg;
	struct {
		int c0, c1;      /* columns c0..c1-1 */
		int gap;         /* 1: collapsed quiet columns, 2: empty ones */
		double px0, pw;  /* pixels from the plot's left edge */
	} seg[UB_AXIS_MAX];
	double width;            /* pixels in all */
};

/* One row of a section that has figures. */
struct ub_hseries {
	const struct ub_row *row;
	struct ub_figs *fig;     /* the row's, sorted (ub_figs_sorted); owned */
	const char *color;
	int k;                   /* its number in the section (data-s) */
	int torch;               /* the torch plan's own row */
};

struct ub_hsec {
	const struct ub_result *res;
	enum ub_dtype dt;
	int id;                  /* section number, for ids */
	int nin;
	const char *const *in_names;
	const struct ub_row **rows; /* every row of the dtype, n/a ones too */
	int nrows;
	struct ub_hseries *s;    /* those with figures */
	int ns;
	struct ub_axis axis[UB_MAX_INPUTS];  /* error figures */
	struct ub_axis taxis[UB_MAX_INPUTS]; /* torch distance figures */
	size_t n;                /* elements per row */
};

/* Colours: mode i's (CSS), the torch plan's. */
const char *ub_html_color(int i);
#define UB_HTML_TORCH_COLOR "#555555"

/* Text with &, <, > and " escaped. */
void ub_html_text(FILE *f, const char *s);
/* An input or result: "0x3f800001" and, smaller, its value. */
void ub_html_bits(FILE *f, enum ub_dtype dt, uint64_t b);
/* A number as "%.4g" ("0" for 0, "inf"). */
void ub_html_num(FILE *f, double v);

/* The axis of input k over the section's rows, width pixels wide; torch:
 * the torch axis. */
void ub_axis_build(struct ub_axis *a, const struct ub_hsec *sec, int k,
		   double width, int torch);
/* Pixel of a position along the columns (ub_fig_pos); -1 when the
 * position lies outside the axis or in a gap. */
double ub_axis_px(const struct ub_axis *a, double pos);
/* Ticks, gap marks and labels along the axis, into an SVG whose plot
 * starts at x = left; y is the baseline of the labels.  grid: vertical
 * lines from y0 to y1 instead of labels. */
void ub_axis_labels(FILE *f, const struct ub_axis *a, double left, double y);
void ub_axis_grid(FILE *f, const struct ub_axis *a, double left, double y0,
		  double y1);

/* The page's first screen: per dtype and row, against PyTorch and the
 * exact value (html_glance.c). */
void ub_html_glance(FILE *f, const struct ub_result *res);
/* The parts of a section, in page order. */
void ub_html_dist(FILE *f, const struct ub_hsec *sec);
void ub_html_map(FILE *f, const struct ub_hsec *sec, int k);
void ub_html_panels(FILE *f, const struct ub_hsec *sec, int k, int torch);
void ub_html_worst(FILE *f, const struct ub_hsec *sec);
/* --why: each differing mode's explanation, fix and blame (html_why.c) */
void ub_html_why(FILE *f, const struct ub_hsec *sec);

/* The page's stylesheet and script, inline. */
void ub_html_style(FILE *f);
void ub_html_script(FILE *f);
/* The figures' left margin and plot width: their axes are built for it. */
#define UB_HTML_LEFT 76
#define UB_HTML_PLOT_W (1100 - UB_HTML_LEFT - 10)

#endif
