/* report_svg.h — the plots of the HTML report, drawn as inline SVG by
 * ulpbench itself (no scripts, no network): ULP error against an input on
 * a symmetric log axis, and the ULP histogram, one colour per series. */
#ifndef UB_REPORT_SVG_H
#define UB_REPORT_SVG_H

#include <stdio.h>

#include "metrics.h"

/* One plotted element: the input's value and the result's ULP error
 * (negative: a NaN/inf disagreement, drawn in a band above the plot). */
struct ub_plot_pt {
	double x, err;
};

struct ub_plot_series {
	const char *name;
	const char *color;       /* CSS colour */
	int halo;                /* drawn larger, under the others */
	size_t n;
	const struct ub_plot_pt *pt;
	size_t hist[UB_HIST_BINS];
	size_t nan_mismatch;
};

/* The colour of mode number i (CSS), and the torch plan's. */
const char *ub_svg_color(int i);
#define UB_SVG_TORCH_COLOR "#444444"

/* Writes s with &, <, > and " escaped, for HTML and SVG text. */
void ub_html_text(FILE *f, const char *s);

/* CSS the plots need, once per page: class sK of series K (K below
 * nseries, the most series of any plot on the page) is hidden when the
 * checkbox of class sK before the plot is cleared.  Series beyond the
 * palette's colours reuse them; their names tell them apart. */
void ub_svg_style(FILE *f, int nseries);

/* A legend of checkboxes (ids "pID_K") followed by an SVG plot of ULP
 * error (log scale) against the value of input xname (symmetric log
 * scale: sign(x) * log2|x|, zero in the middle) for values of dtype dt.
 * Wrap it in an element of class "plot" (ub_svg_style's rules apply to
 * siblings). */
void ub_svg_scatter(FILE *f, int id, enum ub_dtype dt, const char *xname,
		    const struct ub_plot_series *s, int ns);

/* The same legend and grouped bars: per histogram bin (ub_hist_labels,
 * then NaN/inf) one bar per series, counts on a log scale. */
void ub_svg_histogram(FILE *f, int id, const struct ub_plot_series *s, int ns);

#endif
