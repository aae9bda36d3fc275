/* figures.c — a row's figures for the HTML page (figures.h).
 *
 * The sets of elements are heaps whose root is the element to drop first
 * when a better one arrives: the largest key for the samples, the smallest
 * error (then the larger index) for top[].  What a heap holds in the end is
 * the K best elements by that total order, whatever order they came in;
 * merging inserts the other heap's elements one by one.  The order inside
 * the arrays is the heaps' and means nothing: readers sort what they
 * show. */
#include "figures.h"
#include "metrics.h"
#include "ub_bits.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct ub_figs *ub_figs_new(enum ub_dtype dt, int nin, int has_torch)
{
	struct ub_figs *f = calloc(1, sizeof *f);
	if (!f)
		return NULL;
	f->dt = dt;
	f->nin = nin;
	f->has_torch = has_torch;
	ub_figs_reset(f);
	return f;
}

void ub_figs_reset(struct ub_figs *f)
{
	memset(f->fine, 0, sizeof f->fine);
	f->nsample = f->ntorch = f->nnan = 0;
	memset(f->ntop, 0, sizeof f->ntop);
	memset(f->cell, 0, sizeof f->cell[0] * (size_t)f->nin);
}

/* --- heaps --- */

typedef int (*drop_first_fn)(const struct ub_fig_elem *, const struct ub_fig_elem *);

static int larger_key(const struct ub_fig_elem *a, const struct ub_fig_elem *b)
{
	return a->key > b->key;
}

/* a is less bad than b: a smaller error, or the same at a later index */
static int less_bad(const struct ub_fig_elem *a, const struct ub_fig_elem *b)
{
	return a->err < b->err || (a->err == b->err && a->idx > b->idx);
}

/* Would e enter heap h (n of cap)? */
static int admits(const struct ub_fig_elem *h, size_t n, size_t cap,
		  const struct ub_fig_elem *e, drop_first_fn drop)
{
	return n < cap || drop(&h[0], e);
}

static void heap_put(struct ub_fig_elem *h, size_t *n, size_t cap,
		     const struct ub_fig_elem *e, drop_first_fn drop)
{
	size_t i;
	if (*n < cap) {
		for (i = (*n)++; i > 0 && drop(e, &h[(i - 1) / 2]); i = (i - 1) / 2)
			h[i] = h[(i - 1) / 2];
		h[i] = *e;
		return;
	}
	if (!drop(&h[0], e))
		return;
	for (i = 0;;) { /* sift e down from the root */
		size_t c = 2 * i + 1;
		if (c >= cap)
			break;
		if (c + 1 < cap && drop(&h[c + 1], &h[c]))
			c++;
		if (!drop(&h[c], e))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = *e;
}

/* --- fine bins --- */

double ub_fine_upper(int b)
{
	if (b <= 0)
		return 0;
	if (b == 1)
		return ldexp(1, UB_FINE_LO);
	if (b >= UB_FINE_BINS - 1)
		return INFINITY;
	int k = (b - 2) / UB_FINE_SUB + UB_FINE_LO, j = (b - 2) % UB_FINE_SUB;
	return ldexp(1 + (double)(j + 1) / UB_FINE_SUB, k);
}

/* e is in (a, b] exactly when the double below it is in [a, b); a and b
 * have few mantissa bits, so that one's exponent and top mantissa bits
 * name the bin. */
int ub_fine_bin(double e)
{
	if (!(e > 0))
		return 0;
	uint64_t u;
	memcpy(&u, &e, sizeof u);
	u--;
	int k = (int)(u >> 52) - 1023;
	if (k < UB_FINE_LO)
		return 1;
	if (k >= UB_FINE_HI)
		return UB_FINE_BINS - 1;
	int j = (int)(u >> (52 - 3)) & (UB_FINE_SUB - 1);
	return 2 + (k - UB_FINE_LO) * UB_FINE_SUB + j;
}

_Static_assert(UB_FINE_SUB == 8, "ub_fine_bin reads 3 mantissa bits");

double ub_figs_quantile(const struct ub_figs *f, double q, double max)
{
	uint64_t total = 0, seen = 0;
	for (int b = 0; b < UB_FINE_BINS; b++)
		total += f->fine[b];
	if (!total)
		return -1;
	double r = ceil(q * (double)total);
	uint64_t rank = r < 1 ? 1 : r > (double)total ? total : (uint64_t)r;
	for (int b = 0; b < UB_FINE_BINS; b++) {
		seen += f->fine[b];
		if (seen >= rank)
			return fmin(ub_fine_upper(b), max);
	}
	return max;
}

/* --- binade columns --- */

struct layout {
	int mb, eb;     /* mantissa and exponent field widths */
	int per, groups; /* binades per column, columns per sign */
};

static struct layout layout_of(enum ub_dtype dt)
{
	struct layout l;
	l.mb = ub_dtypes[dt].prec - 1;
	l.eb = ub_dtypes[dt].bits - 1 - l.mb;
	int normal = (1 << l.eb) - 2; /* binades of normal values */
	l.per = (normal + UB_FIG_GROUPS - 1) / UB_FIG_GROUPS;
	l.groups = (normal + l.per - 1) / l.per;
	return l;
}

int ub_fig_ncols(enum ub_dtype dt)
{
	return 2 * layout_of(dt).groups + 6;
}

/* Column of (sign, exponent field, mantissa) in layout l. */
static int col_of(const struct layout *l, int neg, uint64_t e, uint64_t m)
{
	int G = l->groups;
	if (e == ((UINT64_C(1) << l->eb) - 1))
		return m ? 2 * G + 5 : neg ? 0 : 2 * G + 4;
	if (e == 0)
		return !m ? G + 2 : neg ? G + 1 : G + 3;
	int j = (int)(e - 1) / l->per;
	return neg ? G - j : G + 4 + j;
}

int ub_fig_col(enum ub_dtype dt, uint64_t x)
{
	struct layout l = layout_of(dt);
	return col_of(&l, (int)(x >> (ub_dtypes[dt].bits - 1)) & 1,
		      x >> l.mb & ((UINT64_C(1) << l.eb) - 1),
		      x & ((UINT64_C(1) << l.mb) - 1));
}

void ub_fig_coldesc(enum ub_dtype dt, int col, struct ub_fig_coldesc *d)
{
	struct layout l = layout_of(dt);
	int G = l.groups, emin = ub_dtypes[dt].emin;
	memset(d, 0, sizeof *d);
	d->neg = col <= G + 1;
	if (col == 0 || col == 2 * G + 4)
		d->kind = UB_FK_INF;
	else if (col >= 2 * G + 5)
		d->kind = UB_FK_NAN;
	else if (col == G + 2)
		d->kind = UB_FK_ZERO;
	else if (col == G + 1 || col == G + 3)
		d->kind = UB_FK_SUB;
	else {
		int j = d->neg ? G - col : col - G - 4;
		int top = ub_dtypes[dt].emax + 1;
		d->kind = UB_FK_NORMAL;
		d->elo = emin + j * l.per;
		d->ehi = d->elo + l.per < top ? d->elo + l.per : top;
	}
	if (d->kind == UB_FK_ZERO || d->kind == UB_FK_NAN)
		d->neg = 0;
}

double ub_fig_pos_value(enum ub_dtype dt, double v)
{
	struct layout l = layout_of(dt);
	int G = l.groups, emin = ub_dtypes[dt].emin, neg = signbit(v) != 0;
	double a = fabs(v), frac;
	int col;
	if (isnan(v))
		return 2 * G + 5.5;
	if (v == 0)
		return G + 2.5;
	if (isinf(v))
		return neg ? 0.5 : 2 * G + 4.5;
	if (a < ldexp(1, emin)) { /* subnormal: linear up to 2^emin */
		col = neg ? G + 1 : G + 3;
		frac = a / ldexp(1, emin);
	} else {
		int e;
		frexp(a, &e);
		e--; /* a in [2^e, 2^(e+1)) */
		if (e > ub_dtypes[dt].emax)
			return neg ? 0.5 : 2 * G + 4.5; /* inf, or beyond the format */
		int j = (e - emin) / l.per;
		col = neg ? G - j : G + 4 + j;
		frac = (log2(a) - (emin + j * l.per)) / l.per;
		frac = frac < 0 ? 0 : frac;
	}
	if (neg)
		frac = 1 - frac; /* larger magnitudes further left */
	return col + fmin(frac, 1 - 0x1p-30); /* inside the column once added */
}

double ub_fig_pos(enum ub_dtype dt, uint64_t x)
{
	return ub_bits_isnan_i(dt, x) ? ub_fig_pos_value(dt, NAN)
				      : ub_fig_pos_value(dt, ub_bits_to_double(dt, x));
}

int ub_fig_band(double err)
{
	static const double upper[UB_FIG_BANDS - 1] = { 0.5, 1, 2, 4, 16, 256 };
	int b = 0;
	while (b < UB_FIG_BANDS - 1 && !(err <= upper[b]))
		b++;
	return b;
}

/* --- adding elements --- */

static void record(struct ub_fig_elem *r, const struct ub_figs *f,
		   const struct ub_array *in, uint64_t idx, size_t i, double err,
		   uint64_t y, uint64_t cr, uint64_t t, uint64_t dist,
		   const struct ub_exact *ex)
{
	memset(r, 0, sizeof *r);
	r->idx = idx;
	r->key = ub_fig_key(idx);
	r->err = err;
	r->y = y;
	r->cr = cr;
	r->torch = t;
	r->dist = dist;
	r->exact = ex->hi;
	for (int k = 0; k < f->nin; k++)
		r->in[k] = ub_array_get(&in[k], i);
}

/* undecided: the reference has no value for it (metrics.h), so it counts
 * as an element and for torch only */
static void add_cells(struct ub_figs *f, const struct ub_array *in, size_t i,
		      int nan, int undecided, double err, uint64_t dist)
{
	for (int k = 0; k < f->nin; k++) {
		struct ub_fig_cell *c =
			&f->cell[k][ub_fig_col(f->dt, ub_array_get(&in[k], i))];
		c->n++;
		if (nan)
			c->nan++;
		else if (!undecided && err > c->max_ulp)
			c->max_ulp = err;
		if (dist) {
			c->torch++;
			if (dist != UINT64_MAX && dist > c->max_dist)
				c->max_dist = dist;
		}
	}
}

void ub_figs_add(struct ub_figs *f, const struct ub_array *in,
		 const struct ub_array *y, const struct ub_array *cr,
		 const struct ub_exact *exact, const struct ub_array *torch,
		 size_t offset)
{
	enum ub_dtype dt = f->dt;
	for (size_t i = 0; i < y->n; i++) {
		uint64_t yi = ub_array_get(y, i), ci = ub_array_get(cr, i);
		uint64_t ti = torch ? ub_array_get(torch, i) : 0, idx = offset + i;
		uint64_t dist = torch && !ub_bits_same_i(dt, yi, ti)
			? ub_bits_distance_i(dt, yi, ti) : 0;
		double err = -1;
		int rc = ub_ulp_error(dt, yi, ci, &exact[i], &err);
		int nan = rc == 1, undecided = rc == 2, ok = rc == 0;
		if (ok)
			f->fine[ub_fine_bin(err)]++;
		else
			err = -1;
		add_cells(f, in, i, nan, undecided, err, dist);
		struct ub_fig_elem e = { .idx = idx, .key = ub_fig_key(idx), .err = err };
		struct ub_fig_elem r;
		/* the sample: every decided element (the same in every row, since
		 * being undecided is the reference's) */
		int s = !undecided && admits(f->sample, f->nsample, UB_FIG_SAMPLE, &e, larger_key);
		int t = dist && admits(f->torch, f->ntorch, UB_FIG_TORCH, &e, larger_key);
		int n = nan && admits(f->nan, f->nnan, UB_FIG_NANS, &e, larger_key);
		int band = ok ? ub_fig_band(err) : 0;
		int w = ok && admits(f->top[band], f->ntop[band], UB_FIG_TOP, &e, less_bad);
		if (!(s || t || n || w))
			continue;
		record(&r, f, in, idx, i, err, yi, ci, ti, dist, &exact[i]);
		if (s)
			heap_put(f->sample, &f->nsample, UB_FIG_SAMPLE, &r, larger_key);
		if (t)
			heap_put(f->torch, &f->ntorch, UB_FIG_TORCH, &r, larger_key);
		if (n)
			heap_put(f->nan, &f->nnan, UB_FIG_NANS, &r, larger_key);
		if (w)
			heap_put(f->top[band], &f->ntop[band], UB_FIG_TOP, &r, less_bad);
	}
}

static int by_index(const void *a, const void *b)
{
	uint64_t x = ((const struct ub_fig_elem *)a)->idx, y = ((const struct ub_fig_elem *)b)->idx;
	return x < y ? -1 : x > y;
}

struct ub_figs *ub_figs_sorted(const struct ub_figs *f)
{
	struct ub_figs *s = malloc(sizeof *s);
	if (!s)
		return NULL;
	memcpy(s, f, sizeof *s);
	qsort(s->sample, s->nsample, sizeof s->sample[0], by_index);
	qsort(s->torch, s->ntorch, sizeof s->torch[0], by_index);
	qsort(s->nan, s->nnan, sizeof s->nan[0], by_index);
	for (int b = 0; b < UB_FIG_BANDS; b++)
		qsort(s->top[b], s->ntop[b], sizeof s->top[b][0], by_index);
	return s;
}

void ub_figs_merge(struct ub_figs *dst, const struct ub_figs *src)
{
	for (int b = 0; b < UB_FINE_BINS; b++)
		dst->fine[b] += src->fine[b];
	for (int k = 0; k < dst->nin && k < src->nin; k++)
		for (int c = 0; c < UB_FIG_COLS; c++) {
			struct ub_fig_cell *a = &dst->cell[k][c];
			const struct ub_fig_cell *b = &src->cell[k][c];
			a->n += b->n;
			a->nan += b->nan;
			a->torch += b->torch;
			a->max_dist = b->max_dist > a->max_dist ? b->max_dist : a->max_dist;
			a->max_ulp = b->max_ulp > a->max_ulp ? b->max_ulp : a->max_ulp;
		}
	for (size_t i = 0; i < src->nsample; i++)
		heap_put(dst->sample, &dst->nsample, UB_FIG_SAMPLE, &src->sample[i], larger_key);
	for (size_t i = 0; i < src->ntorch; i++)
		heap_put(dst->torch, &dst->ntorch, UB_FIG_TORCH, &src->torch[i], larger_key);
	for (size_t i = 0; i < src->nnan; i++)
		heap_put(dst->nan, &dst->nnan, UB_FIG_NANS, &src->nan[i], larger_key);
	for (int b = 0; b < UB_FIG_BANDS; b++)
		for (size_t i = 0; i < src->ntop[b]; i++)
			heap_put(dst->top[b], &dst->ntop[b], UB_FIG_TOP, &src->top[b][i],
				 less_bad);
}
