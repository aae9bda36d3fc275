/* ref_shaped.c — the exact reference of the shaped ops (shaped.h,
 * docs/reductions.md), one row at a time.
 *
 * Every input is a binary float, so every sum of inputs (and of their
 * products, and cols*x - sum) is exact in an MPFR number wide enough to
 * span the format's whole exponent range plus the carries: such sums never
 * round.  What cannot be exact (exp, log, a division by cols, 1/sqrt) is
 * computed at a working precision p, each such MPFR operation rounding to
 * nearest with a relative error of at most u = 2^-p; the bound on each
 * output's absolute error is derived below, per op, next to its code.
 * An output is decided when the two ends of [v - bound, v + bound] round
 * to the same encoding (rounding is monotonic, so the exact value, which
 * lies between them, rounds there too); else p doubles, up to
 * UB_REF_SHAPED_PREC_MAX, and an output still undecided is marked so. */
#include "shaped.h"
#include "reference.h"
#include "ref_internal.h"

#include <math.h>
#include <mpfr.h>
#include <stdlib.h>
#include <string.h>

#define P_START 64

/* What one row's computation works with. */
struct row {
	const struct ub_shaped_op *op;
	enum ub_dtype dt;
	size_t cols, r;
	mpfr_prec_t pex;         /* exact sums of inputs */
	mpfr_t *x, *w, *b;       /* the row's inputs, exact; w, b: NULL */
	int special;             /* a NaN or inf among them */
	size_t finite;           /* finite x of the row */
	size_t t;                /* cross_entropy: the row's class */
	int oom;                 /* out of memory on the way */
	uint64_t *cr[UB_SHAPED_MAX_OUT];
	struct ub_exact *ex[UB_SHAPED_MAX_OUT];
	char *done[UB_SHAPED_MAX_OUT]; /* per output element of the row */
};

void ub_ref_set_exact(struct ub_exact *x, mpfr_srcptr v)
{
	mpfr_t t;
	x->hi = mpfr_get_d(v, MPFR_RNDN);
	x->lo = 0;
	if (!mpfr_number_p(v) || !isfinite(x->hi))
		return;
	mpfr_init2(t, mpfr_get_prec(v) + 64);
	mpfr_sub_d(t, v, x->hi, MPFR_RNDN);
	x->lo = mpfr_get_d(t, MPFR_RNDN);
	mpfr_clear(t);
}

uint64_t ub_ref_round_to(enum ub_dtype dt, mpfr_srcptr a)
{
	mpfr_t y;
	mpfr_init2(y, ub_dtypes[dt].prec);
	int t = mpfr_set(y, a, MPFR_RNDN);
	uint64_t bits = mpfr_nan_p(a) ? ub_ref_encode(dt, NAN) : ub_ref_round(dt, y, t);
	mpfr_clear(y);
	return bits;
}

uint64_t ub_shaped_round(enum ub_dtype dt, double d)
{
	mpfr_t v;
	mpfr_init2(v, 53);
	mpfr_set_d(v, d, MPFR_RNDN); /* exact */
	uint64_t bits = ub_ref_round_to(dt, v);
	mpfr_clear(v);
	return bits;
}

/* Output o's element k of the row is the exact value v. */
static void put_exact(struct row *w, int o, size_t k, mpfr_srcptr v)
{
	w->cr[o][k] = ub_ref_round_to(w->dt, v);
	ub_ref_set_exact(&w->ex[o][k], v);
	w->done[o][k] = 1;
}

static void put_nan(struct row *w, int o, size_t k)
{
	w->cr[o][k] = ub_ref_encode(w->dt, NAN);
	w->ex[o][k] = (struct ub_exact){NAN, 0};
	w->done[o][k] = 1;
}

/* v is within 2^ea of the exact value: decides output o's element k when
 * both ends of the interval round alike. */
static void decide(struct row *w, int o, size_t k, mpfr_srcptr v, mpfr_exp_t ea)
{
	if (w->done[o][k] || !mpfr_number_p(v))
		return;
	mpfr_prec_t p = mpfr_get_prec(v);
	if (!mpfr_zero_p(v) && mpfr_get_exp(v) - ea + 4 > p)
		p = (mpfr_prec_t)(mpfr_get_exp(v) - ea + 4);
	if (!mpfr_zero_p(v) && ea > mpfr_get_exp(v)) /* the bound's bit on top */
		p += (mpfr_prec_t)(ea - mpfr_get_exp(v)) + 2;
	mpfr_t lo, hi, e;
	mpfr_inits2(p + 8, lo, hi, (mpfr_ptr)0);
	mpfr_init2(e, 2);
	mpfr_set_ui_2exp(e, 1, ea, MPFR_RNDN);
	int lo_inexact = mpfr_sub(lo, v, e, MPFR_RNDN);
	int hi_inexact = mpfr_add(hi, v, e, MPFR_RNDN);
	int exact = !lo_inexact && !hi_inexact;
	if (exact && ub_ref_round_to(w->dt, lo) == ub_ref_round_to(w->dt, hi)) {
		w->cr[o][k] = ub_ref_round_to(w->dt, v);
		ub_ref_set_exact(&w->ex[o][k], v);
		w->done[o][k] = 1;
	}
	mpfr_clears(lo, hi, e, (mpfr_ptr)0);
}

static mpfr_exp_t ex(mpfr_srcptr v)
{
	return mpfr_zero_p(v) || !mpfr_number_p(v) ? 0 : mpfr_get_exp(v);
}

static mpfr_exp_t max3(mpfr_exp_t a, mpfr_exp_t b, mpfr_exp_t c)
{
	return a > b ? (a > c ? a : c) : (b > c ? b : c);
}

/* The exact sum of the row (s of precision w->pex: exact). */
static void exact_sum(struct row *w, mpfr_ptr s)
{
	mpfr_ptr *t = calloc(w->cols, sizeof *t);
	w->oom |= !t;
	for (size_t k = 0; t && k < w->cols; k++)
		t[k] = w->x[k];
	if (t)
		mpfr_sum(s, t, (unsigned long)w->cols, MPFR_RNDN);
	else
		mpfr_set_nan(s);
	free(t);
}

static void row_sum(struct row *w)
{
	mpfr_t s;
	mpfr_init2(s, w->pex);
	exact_sum(w, s);
	put_exact(w, 0, 0, s);
	mpfr_clear(s);
}

/* softmax and log_softmax.  m = max x and d_k = x_k - m are exact; e_k =
 * exp(d_k) (1+d), |d| <= u; S = sum e_k rounded once: S~ = S (1+s), |s|
 * <= 2u + u^2 (S >= 1, the maximum's term is exactly 1).  softmax: q =
 * e_j / S~ rounded: relative error <= (1+u)^2 / (1-2u-u^2) - 1 <= 5u, so
 * |error| <= 2^(exp(q) - p + 3).  log_softmax: L = log(S~) rounded,
 * |L - log S| <= 1.01 |s| + u |L| <= 2^-p (2.1 + 2^exp(L)); out = d_j - L
 * rounded adds u |out|: |error| <= 2^(max(1, exp(L), exp(out)) + 2 - p). */
/* What softmax, log_softmax and cross_entropy share, at precision p: the
 * row's maximum m (exact, at the dtype's precision), d (room for an
 * exact x_k - m), e_k = exp(x_k - m) rounded and their sum S rounded once
 * (their bounds above).  0, or -1 out of memory (w->oom; nothing held);
 * expsum_free gives it back. */
struct expsum {
	mpfr_t m, d, S, q;
	mpfr_t *e;
};

static int expsum(struct row *w, mpfr_prec_t p, struct expsum *x)
{
	size_t C = w->cols;
	x->e = malloc(C * sizeof *x->e);
	mpfr_ptr *t = calloc(C, sizeof *t);
	if (!x->e || !t) {
		w->oom = 1;
		free(x->e);
		free(t);
		return -1;
	}
	mpfr_init2(x->m, ub_dtypes[w->dt].prec);
	mpfr_set_inf(x->m, -1);
	for (size_t k = 0; k < C; k++)
		mpfr_max(x->m, x->m, w->x[k], MPFR_RNDN);
	mpfr_init2(x->d, w->pex);
	mpfr_inits2(p, x->S, x->q, (mpfr_ptr)0);
	for (size_t k = 0; k < C; k++) {
		mpfr_init2(x->e[k], p);
		mpfr_sub(x->d, w->x[k], x->m, MPFR_RNDN);
		mpfr_exp(x->e[k], x->d, MPFR_RNDN);
		t[k] = x->e[k];
	}
	mpfr_sum(x->S, t, (unsigned long)C, MPFR_RNDN);
	free(t);
	return 0;
}

static void expsum_free(const struct row *w, struct expsum *x)
{
	for (size_t k = 0; k < w->cols; k++)
		mpfr_clear(x->e[k]);
	mpfr_clears(x->m, x->d, x->S, x->q, (mpfr_ptr)0);
	free(x->e);
}

static void row_softmax(struct row *w, mpfr_prec_t p, int lg)
{
	size_t C = w->cols;
	struct expsum x;
	if (expsum(w, p, &x))
		return;
	mpfr_ptr m = x.m, d = x.d, S = x.S, q = x.q;
	mpfr_t *e = x.e;
	if (lg)
		mpfr_log(S, S, MPFR_RNDN); /* L */
	for (size_t j = 0; j < C; j++) {
		if (mpfr_inf_p(w->x[j])) { /* -inf: exp 0, log -inf: exact */
			mpfr_set_inf(q, -1);
			if (!lg)
				mpfr_set_zero(q, 1);
			put_exact(w, 0, j, q);
			continue;
		}
		if (w->finite == 1) { /* the only finite entry: 1, log 0, exact */
			mpfr_set_ui(q, !lg, MPFR_RNDN);
			put_exact(w, 0, j, q);
			continue;
		}
		if (lg) {
			mpfr_sub(d, w->x[j], m, MPFR_RNDN);
			mpfr_sub(q, d, S, MPFR_RNDN);
			decide(w, 0, j, q, max3(1, ex(S), ex(q)) + 2 - p);
		} else if (mpfr_zero_p(e[j])) { /* exp underflowed MPFR's range */
			mpfr_set_zero(q, 1); /* 0 < exact < 2^-2^62: rounds to +0 */
			put_exact(w, 0, j, q);
		} else {
			mpfr_div(q, e[j], S, MPFR_RNDN);
			decide(w, 0, j, q, ex(q) - p + 3);
		}
	}
	expsum_free(w, &x);
}

/* cross_entropy: loss = L - d_t with L = log(sum exp(x_k - m)) and d_t =
 * x_t - m exact: as log_softmax's entry t with the sign turned, the same
 * bound, |error| <= 2^(max(1, exp(L), exp(loss)) + 2 - p).  x_t = -inf
 * (another finite): +inf exactly; x_t the row's only finite entry: 0. */
static void row_xent(struct row *w, mpfr_prec_t p)
{
	struct expsum x;
	if (expsum(w, p, &x))
		return;
	mpfr_ptr m = x.m, d = x.d, S = x.S, q = x.q;
	mpfr_log(S, S, MPFR_RNDN); /* L */
	if (mpfr_inf_p(w->x[w->t])) {
		mpfr_set_inf(q, 1);
		put_exact(w, 0, 0, q);
	} else if (w->finite == 1) {
		mpfr_set_zero(q, 1);
		put_exact(w, 0, 0, q);
	} else {
		mpfr_sub(d, w->x[w->t], m, MPFR_RNDN);
		mpfr_sub(q, S, d, MPFR_RNDN);
		decide(w, 0, 0, q, max3(1, ex(S), ex(q)) + 2 - p);
	}
	expsum_free(w, &x);
}

/* a = var + eps from the exact numerator N of var = N / C^k: N / C^k
 * rounded (u), + eps rounded (both >= 0: 2.01u in all), then 1/sqrt
 * rounded: rstd within 0.5 * 2.01u * 1.01 + u <= 2.1u relative. */
static void rstd_of(mpfr_ptr rs, mpfr_srcptr N, size_t C, int k)
{
	mpfr_prec_t p = mpfr_get_prec(rs);
	mpfr_t c;
	mpfr_init2(c, 256);
	mpfr_set_ui(c, (unsigned long)C, MPFR_RNDN);
	mpfr_pow_ui(c, c, (unsigned long)k, MPFR_RNDN); /* exact: < 2^93 */
	mpfr_set_prec(rs, p);
	mpfr_div(rs, N, c, MPFR_RNDN);
	mpfr_add_d(rs, rs, UB_SHAPED_EPS, MPFR_RNDN);
	mpfr_rec_sqrt(rs, rs, MPFR_RNDN);
	mpfr_clear(c);
}

/* The exact sum of f(k) for the row's k, f(k) of precision pk. */
static int exact_sum_sq(mpfr_ptr s, mpfr_t *v, size_t C, mpfr_prec_t pk)
{
	mpfr_t *sq = malloc(C * sizeof *sq);
	mpfr_ptr *t = calloc(C, sizeof *t);
	if (!sq || !t) {
		free(sq);
		free(t);
		mpfr_set_nan(s);
		return 1;
	}
	for (size_t k = 0; k < C; k++) {
		mpfr_init2(sq[k], pk);
		mpfr_sqr(sq[k], v[k], MPFR_RNDN); /* exact */
		t[k] = sq[k];
	}
	mpfr_sum(s, t, (unsigned long)C, MPFR_RNDN); /* exact: s is wide */
	for (size_t k = 0; k < C; k++)
		mpfr_clear(sq[k]);
	free(sq);
	free(t);
	return 0;
}

/* rms_norm: rstd as rstd_of (2.1u) from the exact sum of squares; out =
 * (x_j w_j, exact) * rstd rounded: relative error <= 3.2u, |error| <=
 * 2^(exp(out) - p + 3).  A zero x_j w_j is an exact zero. */
static void row_rms(struct row *w, mpfr_prec_t p)
{
	size_t C = w->cols;
	mpfr_t Q, rs, xw, o;
	mpfr_init2(Q, 2 * w->pex + 64);
	mpfr_init2(rs, p);
	mpfr_init2(xw, 2 * ub_dtypes[w->dt].prec);
	mpfr_init2(o, p);
	w->oom |= exact_sum_sq(Q, w->x, C, 2 * ub_dtypes[w->dt].prec);
	rstd_of(rs, Q, C, 1);
	for (size_t j = 0; j < C; j++) {
		mpfr_mul(xw, w->x[j], w->w[j], MPFR_RNDN); /* exact */
		mpfr_mul(o, xw, rs, MPFR_RNDN);
		if (mpfr_zero_p(xw))
			put_exact(w, 0, j, o);
		else
			decide(w, 0, j, o, ex(o) - p + 3);
	}
	mpfr_clears(Q, rs, xw, o, (mpfr_ptr)0);
}

/* layer_norm.  S = sum x exact; mean = S / C as a rational, rounded once.
 * D_k = C x_k - S exact, V = sum D_k^2 exact, var = V / C^3: rstd as
 * rstd_of (2.1u: |error| <= 2^(exp(rstd) - p + 2)).  out_j: t = D_j w_j
 * exact, t / C rounded, * rstd rounded: relative <= 4.2u, |error| <=
 * 2^(exp(t~) - p + 3); + b_j rounded adds u |out|: |error| <=
 * 2^(max(exp(t~) + 3, exp(out)) - p + 1).  t = 0: out = b_j exactly. */
static void row_layer(struct row *w, mpfr_prec_t p)
{
	size_t C = w->cols;
	mpfr_prec_t pd = w->pex + 40;
	mpfr_t S, V, rs, t, o;
	mpq_t q;
	mpfr_t *D = malloc(C * sizeof *D);
	if (!D) {
		w->oom = 1;
		return;
	}
	mpfr_init2(S, w->pex);
	exact_sum(w, S);
	if (!w->done[1][0]) {
		mpq_init(q);
		mpfr_get_q(q, S);
		mpz_mul_ui(mpq_denref(q), mpq_denref(q), (unsigned long)C);
		mpq_canonicalize(q);
		w->cr[1][0] = ub_ref_round_q(w->dt, q, mpfr_zero_p(S) && mpfr_signbit(S));
		ub_ref_exact_q(q, mpfr_zero_p(S) && mpfr_signbit(S), &w->ex[1][0]);
		w->done[1][0] = 1;
		mpq_clear(q);
	}
	for (size_t k = 0; k < C; k++) {
		mpfr_init2(D[k], pd);
		mpfr_mul_ui(D[k], w->x[k], (unsigned long)C, MPFR_RNDN);
		mpfr_sub(D[k], D[k], S, MPFR_RNDN); /* exact */
	}
	mpfr_init2(V, 2 * pd + 64);
	w->oom |= exact_sum_sq(V, D, C, 2 * pd);
	mpfr_init2(rs, p);
	rstd_of(rs, V, C, 3);
	decide(w, 2, 0, rs, ex(rs) - p + 2);
	mpfr_init2(t, pd + ub_dtypes[w->dt].prec);
	mpfr_init2(o, p);
	for (size_t j = 0; j < C; j++) {
		mpfr_mul(t, D[j], w->w[j], MPFR_RNDN); /* exact */
		if (mpfr_zero_p(t)) {
			mpfr_add(o, t, w->b[j], MPFR_RNDN); /* exact: b_j */
			put_exact(w, 0, j, o);
			continue;
		}
		mpfr_div_ui(o, t, (unsigned long)C, MPFR_RNDN);
		mpfr_mul(o, o, rs, MPFR_RNDN);
		mpfr_exp_t et = ex(o);
		mpfr_add(o, o, w->b[j], MPFR_RNDN);
		decide(w, 0, j, o, (et + 3 > ex(o) ? et + 3 : ex(o)) - p + 1);
	}
	for (size_t k = 0; k < C; k++)
		mpfr_clear(D[k]);
	free(D);
	mpfr_clears(S, V, rs, t, o, (mpfr_ptr)0);
}

/* Elements of output o in one row. */
static size_t row_len(const struct row *w, int o)
{
	return w->op->out[o].ext == UB_EXT_FULL ? w->cols : 1;
}

static int all_done(const struct row *w)
{
	for (int o = 0; o < w->op->nout; o++)
		for (size_t k = 0; k < row_len(w, o); k++)
			if (!w->done[o][k])
				return 0;
	return 1;
}

/* A row with a NaN or inf among its inputs: NaN everywhere (but sum,
 * whose IEEE sum of infinities is exact: mpfr_sum gives it). */
static void row_special(struct row *w)
{
	for (int o = 0; o < w->op->nout; o++)
		for (size_t k = 0; k < row_len(w, o); k++)
			put_nan(w, o, k);
}

/* Ops whose -inf inputs are values (exp(-inf) = 0). */
static int softmax_like(enum ub_shaped_kind k)
{
	return k == UB_SH_SOFTMAX || k == UB_SH_LOG_SOFTMAX || k == UB_SH_CROSS_ENTROPY;
}

/* Loads input k's elements of the row into exact MPFR numbers. */
static mpfr_t *load(struct row *w, const struct ub_array *a, enum ub_extent e)
{
	mpfr_t *v = malloc(w->cols * sizeof *v);
	size_t base = e == UB_EXT_FULL ? w->r * w->cols : 0;
	for (size_t k = 0; v && k < w->cols; k++) {
		mpfr_init2(v[k], ub_dtypes[w->dt].prec);
		uint64_t bits = ub_array_get(a, base + k);
		mpfr_set_d(v[k], ub_bits_to_double(w->dt, bits), MPFR_RNDN);
		if (mpfr_nan_p(v[k]) || (mpfr_inf_p(v[k]) &&
		    (e == UB_EXT_COLS || mpfr_sgn(v[k]) > 0 || !softmax_like(w->op->kind))))
			w->special = 1; /* softmax: -inf is a value (exp 0) */
		w->finite += e == UB_EXT_FULL && mpfr_number_p(v[k]);
	}
	return v;
}

static void unload(mpfr_t *v, size_t n)
{
	for (size_t k = 0; v && k < n; k++)
		mpfr_clear(v[k]);
	free(v);
}

/* The row's results into cr (at the outputs' own indices); an element
 * still undecided is marked so, with no value, and counted. */
static void store(struct row *w, struct ub_array *cr, size_t *undecided)
{
	for (int o = 0; o < w->op->nout; o++) {
		size_t at = w->op->out[o].ext == UB_EXT_FULL ? w->r * w->cols : w->r;
		for (size_t k = 0; k < row_len(w, o); k++) {
			if (!w->done[o][k]) {
				w->cr[o][k] = ub_ref_encode(w->dt, NAN);
				w->ex[o][k] = (struct ub_exact){NAN, NAN};
				++*undecided;
			}
			ub_array_set(&cr[o], at + k, w->cr[o][k]);
		}
	}
}

int ub_shaped_ref_row(const struct ub_shaped_op *op, enum ub_dtype dt,
		      const struct ub_array *in, size_t rows, size_t cols,
		      size_t r, struct ub_array *cr, struct ub_exact **exact,
		      size_t *undecided, struct ub_error *err)
{
	(void)rows;
	if (op->kind == UB_SH_LAYER_NORM_BWD || op->kind == UB_SH_RMS_NORM_BWD)
		return ub_shaped_ref_bwd_row(op, dt, in, cols, r, cr, exact);
	struct row w = {.op = op, .dt = dt, .cols = cols, .r = r};
	const struct ub_dtype_info *f = &ub_dtypes[dt];
	size_t lg = 1;
	while ((size_t)1 << lg < cols)
		lg++;
	w.pex = (mpfr_prec_t)(f->emax - f->emin + f->prec + 2 * lg + 16);
	int s = 0;
	for (int o = 0; o < op->nout; o++) {
		size_t at = op->out[o].ext == UB_EXT_FULL ? r * cols : r;
		w.cr[o] = malloc(cols * sizeof *w.cr[o]);
		w.ex[o] = exact[o] + at;
		w.done[o] = calloc(cols, 1);
		if (!w.cr[o] || !w.done[o])
			s = ub_fail(err, UB_RUNTIME, "out of memory");
	}
	w.x = load(&w, &in[0], op->in[0].ext);
	if (op->kind == UB_SH_CROSS_ENTROPY) /* in[1]: classes, checked on input */
		w.t = (size_t)ub_shaped_class(&in[1], r);
	else if (op->nin > 1)
		w.w = load(&w, &in[1], op->in[1].ext);
	if (op->nin > 2)
		w.b = load(&w, &in[2], op->in[2].ext);
	if (!s && (!w.x || (op->nin > 1 && !w.w && op->kind != UB_SH_CROSS_ENTROPY) ||
		    (op->nin > 2 && !w.b)))
		s = ub_fail(err, UB_RUNTIME, "out of memory");
	mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
	mpfr_set_emin(mpfr_get_emin_min());
	mpfr_set_emax(mpfr_get_emax_max());
	if (!s && op->kind == UB_SH_SUM)
		row_sum(&w); /* exact; mpfr_sum gives inf and NaN as IEEE does */
	else if (!s && (w.special || !w.finite)) /* softmax of no finite: 0/0 */
		row_special(&w);
	for (mpfr_prec_t p = P_START; !s && !w.oom && !all_done(&w) && p <= UB_REF_SHAPED_PREC_MAX;
	     p *= 2) {
		if (op->kind == UB_SH_SOFTMAX || op->kind == UB_SH_LOG_SOFTMAX)
			row_softmax(&w, p, op->kind == UB_SH_LOG_SOFTMAX);
		else if (op->kind == UB_SH_RMS_NORM)
			row_rms(&w, p);
		else if (op->kind == UB_SH_CROSS_ENTROPY)
			row_xent(&w, p);
		else
			row_layer(&w, p);
	}
	mpfr_set_emin(emin);
	mpfr_set_emax(emax);
	if (!s && w.oom)
		s = ub_fail(err, UB_RUNTIME, "out of memory");
	if (!s)
		store(&w, cr, undecided);
	for (int o = 0; o < op->nout; o++) {
		free(w.cr[o]);
		free(w.done[o]);
	}
	unload(w.x, cols);
	unload(w.w, w.w ? cols : 0);
	unload(w.b, w.b ? cols : 0);
	return s;
}
