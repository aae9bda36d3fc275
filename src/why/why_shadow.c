/* why_shadow.c — exact shadows and local errors of a traced run
 * (why_shadow.h). */
#include "why_shadow.h"
#include "metrics.h"
#include "ref_internal.h"   /* ub_ref_round: one rounding to a format */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PREC 256
#define NSLOT 4096          /* registers and values followed (a power of 2) */

struct entry {
	int used;
	const void *func;   /* register entries: the function; values: NULL */
	uint32_t reg;
	uint64_t bits;      /* the value it holds */
	mpfr_t v;           /* the exact value of what computed it */
};

struct ub_shadow {
	struct entry reg[NSLOT], val[NSLOT];
	struct ub_shadow_worst worst;
};

/* One instruction as the analysis reads its mnemonic. */
struct op {
	char base[16];
	int dt, src_dt;     /* result and operand formats (-1: not a float) */
	int exact_by_def;   /* it rounds on purpose */
	int approx;
};

static int dt_of(const char *p, size_t len)
{
	char t[8];
	if (len >= sizeof t)
		return -1;
	snprintf(t, sizeof t, "%.*s", (int)len, p);
	return ub_dtype_find(t);
}

static void parse(const char *mn, struct op *o)
{
	static const char *const onpurpose[] = { "rz", "rm", "rp", "rni", "rzi", "rmi",
						 "rpi", "sat" };
	size_t n = strcspn(mn, ".");
	int last = -1;
	*o = (struct op){ .dt = -1, .src_dt = -1 };
	snprintf(o->base, sizeof o->base, "%.*s", (int)(n < 15 ? n : 15), mn);
	for (const char *p = mn + n; *p == '.';) {
		size_t len = strcspn(++p, ".");
		int d = dt_of(p, len);
		if (d >= 0 && o->dt < 0)
			o->dt = d;
		last = d;
		for (size_t k = 0; k < sizeof onpurpose / sizeof onpurpose[0]; k++)
			o->exact_by_def |= len == strlen(onpurpose[k]) && !strncmp(p, onpurpose[k], len);
		o->approx |= (len == 6 && !strncmp(p, "approx", 6)) || (len == 4 && !strncmp(p, "full", 4));
		p += len;
	}
	/* cvt.DST.SRC: the operand's format is the last part (an integer
	 * type: none); the others compute in one format */
	o->src_dt = strcmp(o->base, "cvt") ? o->dt : last;
}

static size_t hash(const void *f, uint64_t k)
{
	uint64_t h = (k ^ (uint64_t)(uintptr_t)f) * UINT64_C(0x9e3779b97f4a7c15);
	return (size_t)(h >> 40) & (NSLOT - 1);
}

/* The entry of (f, k) in t, a free one for it, or NULL when full. */
static struct entry *slot(struct entry *t, const void *f, uint32_t reg, uint64_t bits,
			  int is_val)
{
	size_t h = hash(f, is_val ? bits : reg);
	for (size_t i = 0; i < NSLOT; i++) {
		struct entry *e = &t[(h + i) & (NSLOT - 1)];
		if (!e->used || (is_val ? e->bits == bits : e->func == f && e->reg == reg))
			return e;
	}
	return NULL;
}

/* The exact value of operand k of ev into x (format dt). */
static void operand(struct ub_shadow *s, const struct ptx_trace_event *ev, int k,
		    int dt, mpfr_t x)
{
	struct entry *e = slot(s->reg, ev->func, ev->src_reg[k], 0, 0);
	if (e && e->used && e->bits == ev->src[k]) {
		mpfr_set(x, e->v, MPFR_RNDN);
		return;
	}
	e = slot(s->val, NULL, 0, ev->src[k], 1);
	if (e && e->used && dt >= 0 && ev->src_bits[k] == (unsigned)ub_dtypes[dt].bits) {
		mpfr_set(x, e->v, MPFR_RNDN);
		return;
	}
	mpfr_set_d(x, dt >= 0 ? ub_bits_to_double((enum ub_dtype)dt, ev->src[k]) : 0,
		   MPFR_RNDN);
}

/* r = op(a) exactly enough (PREC bits); 0, or -1 for an op not modelled. */
static int apply(const struct op *o, int n, mpfr_t *a, mpfr_t r)
{
	const char *b = o->base;
	if ((!strcmp(b, "add") && n == 2) || (!strcmp(b, "sub") && n == 2))
		(b[0] == 'a' ? mpfr_add : mpfr_sub)(r, a[0], a[1], MPFR_RNDN);
	else if (!strcmp(b, "mul") && n == 2)
		mpfr_mul(r, a[0], a[1], MPFR_RNDN);
	else if ((!strcmp(b, "fma") || !strcmp(b, "mad")) && n == 3)
		mpfr_fma(r, a[0], a[1], a[2], MPFR_RNDN);
	else if (!strcmp(b, "div") && n == 2)
		mpfr_div(r, a[0], a[1], MPFR_RNDN);
	else if (!strcmp(b, "rcp") && n == 1)
		mpfr_ui_div(r, 1, a[0], MPFR_RNDN);
	else if (!strcmp(b, "sqrt") && n == 1)
		mpfr_sqrt(r, a[0], MPFR_RNDN);
	else if (!strcmp(b, "rsqrt") && n == 1)
		mpfr_rec_sqrt(r, a[0], MPFR_RNDN);
	else if (!strcmp(b, "ex2") && n == 1)
		mpfr_exp2(r, a[0], MPFR_RNDN);
	else if (!strcmp(b, "lg2") && n == 1)
		mpfr_log2(r, a[0], MPFR_RNDN);
	else if (!strcmp(b, "sin") && n == 1)
		mpfr_sin(r, a[0], MPFR_RNDN);
	else if (!strcmp(b, "cos") && n == 1)
		mpfr_cos(r, a[0], MPFR_RNDN);
	else if (!strcmp(b, "tanh") && n == 1)
		mpfr_tanh(r, a[0], MPFR_RNDN);
	else if (!strcmp(b, "neg") && n == 1)
		mpfr_neg(r, a[0], MPFR_RNDN);
	else if (!strcmp(b, "abs") && n == 1)
		mpfr_abs(r, a[0], MPFR_RNDN);
	else if ((!strcmp(b, "min") || !strcmp(b, "max")) && n == 2)
		(b[1] == 'i' ? mpfr_min : mpfr_max)(r, a[0], a[1], MPFR_RNDN);
	else if (!strcmp(b, "cvt") && n == 1)
		mpfr_set(r, a[0], MPFR_RNDN);
	else
		return -1;
	return 0;
}

/* x rounded once to format dt, as an encoding. */
static uint64_t round_to(int dt, const mpfr_t x)
{
	mpfr_t y;
	mpfr_init2(y, ub_dtypes[dt].prec);
	int t = mpfr_set(y, x, MPFR_RNDN);
	uint64_t r = ub_ref_round((enum ub_dtype)dt, y, t);
	mpfr_clear(y);
	return r;
}

/* |y - v| in ulps of v (format dt); inf when y is inf or NaN and v is
 * finite; 0 when v is not finite in a double (nothing to measure). */
static double ulps(int dt, uint64_t y, const mpfr_t v, char *note, size_t len)
{
	double vd = mpfr_get_d(v, MPFR_RNDN), yd = ub_bits_to_double((enum ub_dtype)dt, y);
	if (!isfinite(vd))
		return 0;
	if (!isfinite(yd)) {
		snprintf(note, len, isnan(yd) ? "NaN where the exact value is %.4g"
			 : "overflows where the exact value is %.4g", vd);
		return INFINITY;
	}
	mpfr_t d;
	mpfr_init2(d, PREC);
	mpfr_set_d(d, yd, MPFR_RNDN);
	mpfr_sub(d, d, v, MPFR_RNDN);
	double r = fabs(mpfr_get_d(d, MPFR_RNDN)) / ub_ulp((enum ub_dtype)dt, vd);
	mpfr_clear(d);
	return r;
}

/* Herbie's local error of ev, whose operands' exact values are a[] and
 * result's ex. */
static double local_error(const struct op *o, const struct ptx_trace_event *ev, int n,
			  mpfr_t *a, const mpfr_t ex, char *note, size_t len)
{
	mpfr_t ar[3], r;
	int same = 1;
	for (int k = 0; k < n; k++) {
		mpfr_init2(ar[k], PREC);
		uint64_t rb = round_to(o->src_dt, a[k]);
		same &= rb == ev->src[k];
		mpfr_set_d(ar[k], ub_bits_to_double((enum ub_dtype)o->src_dt, rb), MPFR_RNDN);
	}
	mpfr_init2(r, PREC);
	/* an approximation from exact operands: its own result */
	uint64_t y = o->approx && same ? ev->dst : (apply(o, n, ar, r), round_to(o->dt, r));
	double e = ulps(o->dt, y, ex, note, len);
	for (int k = 0; k < n; k++)
		mpfr_clear(ar[k]);
	mpfr_clear(r);
	return e;
}

/* ev's result and its exact value into the register and value tables. */
static void keep(struct ub_shadow *s, const struct ptx_trace_event *ev, const mpfr_t ex)
{
	struct entry *e[2] = { slot(s->reg, ev->func, ev->dst_reg, 0, 0),
			       slot(s->val, NULL, 0, ev->dst, 1) };
	for (int i = 0; i < 2; i++) {
		if (!e[i])
			continue;
		if (!e[i]->used)
			mpfr_init2(e[i]->v, PREC);
		e[i]->used = 1;
		e[i]->func = i ? NULL : ev->func;
		e[i]->reg = ev->dst_reg;
		e[i]->bits = ev->dst;
		mpfr_set(e[i]->v, ex, MPFR_RNDN);
	}
}

void ub_shadow_event(void *self, const struct ptx_trace_event *ev)
{
	struct ub_shadow *s = self;
	struct op o;
	mpfr_t a[3], ex;
	char note[96] = "";
	if (ev->thread != 0)
		return;
	parse(ev->text, &o);
	if (o.dt < 0 || o.src_dt < 0 || !strcmp(o.base, "setp") || !strcmp(o.base, "testp"))
		return; /* no float result, or operands that are not floats */
	int n = ev->nsrc < 3 ? ev->nsrc : 3;
	for (int k = 0; k < n; k++) {
		mpfr_init2(a[k], PREC);
		operand(s, ev, k, o.src_dt, a[k]);
	}
	mpfr_init2(ex, PREC);
	int modelled = !o.exact_by_def && !apply(&o, n, a, ex);
	if (!strcmp(o.base, "selp") && n == 3 && (ev->dst == ev->src[0] || ev->dst == ev->src[1]))
		mpfr_set(ex, a[ev->dst == ev->src[0] ? 0 : 1], MPFR_RNDN); /* the one chosen */
	else if (!modelled) /* exact by definition, or not modelled: as computed */
		mpfr_set_d(ex, ub_bits_to_double((enum ub_dtype)o.dt, ev->dst), MPFR_RNDN);
	double loc = modelled ? local_error(&o, ev, n, a, ex, note, sizeof note) : 0;
	if (modelled && (!s->worst.found || loc > s->worst.local)) {
		s->worst = (struct ub_shadow_worst){ .found = 1, .line = ev->line, .local = loc,
						    .result_err = ulps(o.dt, ev->dst, ex, note,
								       sizeof note) };
		snprintf(s->worst.mn, sizeof s->worst.mn, "%s", ev->text);
		snprintf(s->worst.note, sizeof s->worst.note, "%s", note);
	}
	keep(s, ev, ex);
	for (int k = 0; k < n; k++)
		mpfr_clear(a[k]);
	mpfr_clear(ex);
}

struct ub_shadow *ub_shadow_new(void)
{
	return calloc(1, sizeof(struct ub_shadow));
}

void ub_shadow_worst(const struct ub_shadow *s, struct ub_shadow_worst *w)
{
	*w = s->worst;
}

void ub_shadow_free(struct ub_shadow *s)
{
	for (int i = 0; s && i < NSLOT; i++) {
		if (s->reg[i].used)
			mpfr_clear(s->reg[i].v);
		if (s->val[i].used)
			mpfr_clear(s->val[i].v);
	}
	free(s);
}
