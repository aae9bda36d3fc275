/* inputs.c — the points an op is tested at (contract in inputs.h).
 *
 * Random samples.  Sample i of input k is a pure function of (seed, k, i):
 * a counter-based generator, splitmix64's output function applied to
 *   key_k = mix(seed + (k+1)*G),  r = mix(key_k + (i+1)*G),
 * G = 0x9e3779b97f4a7c15 (the golden-ratio increment) — i.e. element i of
 * the splitmix64 stream seeded with key_k.  r is reduced to [0, span] by
 * rejection (redrawing r = mix(r + G)), so no value is favoured, and added
 * to the domain's lower end in the ordered-integer order of the encodings
 * (ub.h: ub_ordered).  Every encoding between the ends is equally
 * likely, which gives each binade and the subnormals their share.  The
 * same bits come out on every platform; n only truncates.
 *
 * Domain ends are doubles, read as a closed set of values: lo becomes the
 * smallest encoding whose value is >= lo, hi the largest whose value is
 * <= hi (rounding inward: ub_ordered_bound, a bisection over the ordered
 * encodings, exact for f64).  A zero end is a value, so [0, inf] includes -0 and
 * [-1, 0] includes +0.  Infinite ends are included: -inf..inf may draw
 * +-inf (with probability 1/2^31 for f32); NaN never comes from sampling.
 *
 * Special values (ub_special_values), in this fixed order, each value then
 * its negation, skipped when not representable in dt or outside the domain
 * (+-inf are values like any other: inside only when that end is
 * infinite; NaN lies in no interval, so it comes only with the whole line
 * -inf..inf, the default), duplicates dropped:
 *   0, smallest subnormal, largest subnormal, smallest normal, largest
 *   finite; +inf, -inf, NaN (the default quiet NaN, sign clear); 1, 2,
 *   0.5; 1+ulp, 1-ulp (the spacing below 1), 2-ulp, 2+ulp; then for
 *   2^10, 2^-10, 2^60, 2^-60 and 2^emax: the power, its neighbour below and
 *   its neighbour above.
 *
 * ub_inputs_generate puts the special combinations first: for one input
 * its specials; for two the full cross product (input 0 slowest, input 1
 * fastest); for three or more, one block per input k in which input k
 * walks through its specials while every other input takes its random
 * sample for that element index.  All remaining elements are random.
 *
 * Rejection (inputs.h): attempt a >= 1 of element i draws input k with
 * the key mix(key_k ^ mix(a * G2)), G2 = 0xd6e8feb86659fd93, at index i:
 * a function of (seed, k, i, a) as the first draw is of (seed, k, i).
 * Uniform in value: 53 random bits u in [0, 1) give lo (1 - u) + hi u
 * (no overflow between huge ends), rounded to the nearest encoding of
 * the format and kept between the domain's ends. */
#include "inputs.h"
#include "reference.h"
#include "ub_bits.h"

#include <stdlib.h>

#include <math.h>
#include <string.h>

#define GOLDEN UINT64_C(0x9e3779b97f4a7c15)
#define MAX_SPECIALS 64 /* >= the 57 candidates */

static uint64_t mix64(uint64_t z) /* splitmix64's output function */
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Uniform in [0, span]: reject r below 2^64 mod (span+1). */
static uint64_t uniform(uint64_t r, uint64_t span)
{
	if (span == UINT64_MAX)
		return r;
	uint64_t range = span + 1, reject = (0 - range) % range;
	while (r < reject)
		r = mix64(r + GOLDEN);
	return r % range;
}

static double value_at(enum ub_dtype dt, int64_t o)
{
	return ub_bits_to_double(dt, ub_from_ordered(dt, o));
}

/* The domain's ends as ordered encodings; -1 if NaN or empty. */
static int domain_ords(enum ub_dtype dt, const struct ub_domain *dom,
		       int64_t *lo, int64_t *hi)
{
	static const struct ub_domain all = {-INFINITY, INFINITY, 0, 0};
	if (!dom)
		dom = &all;
	if (isnan(dom->lo) || isnan(dom->hi))
		return -1;
	*lo = ub_ordered_bound(dt, dom->lo, 1);
	*hi = ub_ordered_bound(dt, dom->hi, 0);
	return *lo <= *hi ? 0 : -1;
}

/* The candidate special values of the file comment, as doubles. */
static size_t candidates(const struct ub_dtype_info *f, double *c)
{
	static const int bins[] = {10, -10, 60, -60, 0 /* emax */};
	int p = f->prec;
	double sub = ldexp(1, f->emin - p + 1), norm = ldexp(1, f->emin);
	double u1 = ldexp(1, 1 - p); /* ulp(1) */
	size_t k = 0;
#define PM(v) (c[k++] = (v), c[k++] = -(v))
	PM(0.0);
	PM(sub);
	PM(norm - sub);
	PM(norm);
	PM(ldexp(2 - u1, f->emax));
	c[k++] = INFINITY;
	c[k++] = -INFINITY;
	c[k++] = NAN;
	PM(1.0);
	PM(2.0);
	PM(0.5);
	PM(1 + u1);
	PM(1 - u1 / 2);
	PM(2 - u1);
	PM(2 + 2 * u1);
	for (size_t b = 0; b < sizeof bins / sizeof bins[0]; b++) {
		int e = bins[b] ? bins[b] : f->emax;
		PM(ldexp(1, e));
		PM(ldexp(1, e) - ldexp(1, e - p));
		PM(ldexp(1, e) + ldexp(1, e - p + 1));
	}
#undef PM
	return k;
}

/* The encoding of d when d is exactly representable in dt. */
static int exact_bits(enum ub_dtype dt, double d, uint64_t *bits)
{
	const struct ub_dtype_info *f = &ub_dtypes[dt];
	if (isnan(d)) { /* default quiet NaN */
		*bits = ub_dt_inf(dt) | UINT64_C(1) << (f->prec - 2);
		return 1;
	}
	if (d == 0) {
		*bits = signbit(d) ? UINT64_C(1) << (f->bits - 1) : 0;
		return 1;
	}
	int64_t o = ub_ordered_bound(dt, d, 1);
	*bits = ub_from_ordered(dt, o);
	return value_at(dt, o) == d;
}

size_t ub_special_values(enum ub_dtype dt, const struct ub_domain *dom,
			 uint64_t *out, size_t max)
{
	double c[MAX_SPECIALS];
	size_t nc = candidates(&ub_dtypes[dt], c), k = 0;
	int64_t lo, hi;
	int empty = domain_ords(dt, dom, &lo, &hi) != 0;
	/* NaN is no value of any interval: only the whole line brings it,
	 * unless it comes from a bound of :pre (false for NaN) */
	int nan_ok = !dom || (dom->lo == -INFINITY && dom->hi == INFINITY && !dom->no_nan);
	for (size_t i = 0; i < nc && k < max; i++) {
		uint64_t b;
		if (!exact_bits(dt, c[i], &b))
			continue;
		int64_t o = ub_ordered(dt, b);
		if (isnan(c[i]) ? !nan_ok : empty || o < lo || o > hi)
			continue;
		size_t j = 0;
		while (j < k && out[j] != b)
			j++;
		if (j == k)
			out[k++] = b;
	}
	return k;
}

/* Whether input k of element i is a special value, and which (*j). */
static int special_at(int nin, const size_t *ns, size_t i, int k, size_t *j)
{
	if (nin == 1) {
		*j = i;
		return i < ns[0];
	}
	if (nin == 2) {
		if (i >= ns[0] * ns[1])
			return 0;
		*j = k == 0 ? i / ns[1] : i % ns[1];
		return 1;
	}
	for (int b = 0; b < nin; b++) {
		if (i < ns[b]) {
			*j = i;
			return b == k;
		}
		i -= ns[b];
	}
	return 0;
}

static uint64_t random_at(enum ub_dtype dt, uint64_t key, int64_t lo,
			  int64_t hi, size_t i)
{
	uint64_t r = mix64(key + ((uint64_t)i + 1) * GOLDEN);
	/* true span and lo + u are within range: modular arithmetic is exact
	 * (the conversion back to int64_t is two's complement in gcc/clang) */
	uint64_t u = uniform(r, (uint64_t)hi - (uint64_t)lo);
	return ub_from_ordered(dt, (int64_t)((uint64_t)lo + u));
}

/* The per-input parameters of the sampling: domain ends, specials, keys
 * (all in the input's own format). */
struct plan {
	uint64_t (*sp)[MAX_SPECIALS], *key;
	size_t *ns;
	int64_t *lo, *hi;
	double *vlo, *vhi;           /* the ends as values, finite */
};

static void free_plan(struct plan *p)
{
	free(p->sp);
	free(p->key);
	free(p->ns);
	free(p->lo);
	free(p->hi);
	free(p->vlo);
	free(p->vhi);
}

static int make_plan(int nin, const struct ub_sampling *s, uint64_t seed,
		     struct plan *p, struct ub_error *err)
{
	size_t n = (size_t)(nin > 0 ? nin : 1);
	memset(p, 0, sizeof *p);
	if (nin < 1 || nin > UB_MAX_INPUTS)
		return ub_fail(err, UB_USAGE, "%d inputs (1 to %d supported)",
			       nin, UB_MAX_INPUTS);
	p->sp = malloc(n * sizeof *p->sp);
	p->key = malloc(n * sizeof *p->key);
	p->ns = malloc(n * sizeof *p->ns);
	p->lo = malloc(n * sizeof *p->lo);
	p->hi = malloc(n * sizeof *p->hi);
	p->vlo = malloc(n * sizeof *p->vlo);
	p->vhi = malloc(n * sizeof *p->vhi);
	if (!p->sp || !p->key || !p->ns || !p->lo || !p->hi || !p->vlo || !p->vhi) {
		free_plan(p);
		return ub_fail(err, UB_RUNTIME, "out of memory");
	}
	for (int k = 0; k < nin; k++) {
		static const struct ub_domain all = {-INFINITY, INFINITY, 0, 0};
		const struct ub_domain *d = s->dom ? &s->dom[k] : &all;
		enum ub_dtype dt = (enum ub_dtype)s->sdt[k];
		if (domain_ords(dt, d, &p->lo[k], &p->hi[k])) {
			free_plan(p);
			return ub_fail(err, UB_USAGE, "input %d: domain [%.17g, "
				       "%.17g] holds no %s value", k + 1, d->lo,
				       d->hi, ub_dtypes[dt].name);
		}
		p->ns[k] = ub_special_values(dt, d, p->sp[k], MAX_SPECIALS);
		p->key[k] = mix64(seed + (uint64_t)(k + 1) * GOLDEN);
		/* the largest finite values stand for infinite ends */
		int64_t fin = ub_ordered(dt, ub_dt_inf(dt)) - 1;
		p->vlo[k] = value_at(dt, p->lo[k] < -fin - 1 ? -fin - 1 : p->lo[k]);
		p->vhi[k] = value_at(dt, p->hi[k] > fin ? fin : p->hi[k]);
	}
	return 0;
}

/* Uniform in value in [lo, hi] of plan input k, the nearest encoding of
 * dt (ordered), kept inside the domain. */
static int64_t by_value(enum ub_dtype dt, const struct plan *p, int k,
			uint64_t r)
{
	double u = (double)(r >> 11) * 0x1p-53;
	double v = p->vlo[k] * (1 - u) + p->vhi[k] * u;
	int64_t up = ub_ordered_bound(dt, v, 1), dn = ub_ordered_bound(dt, v, 0);
	int64_t o = fabs(value_at(dt, up) - v) <= fabs(v - value_at(dt, dn)) ? up : dn;
	return o < p->lo[k] ? p->lo[k] : o > p->hi[k] ? p->hi[k] : o;
}

/* The encoding of from's value b in to (which holds it exactly; NaN: the
 * default quiet NaN). */
static uint64_t widen(enum ub_dtype from, enum ub_dtype to, uint64_t b)
{
	uint64_t w;
	if (from == to)
		return b;
	double d = ub_bits_to_double(from, b);
	if (isnan(d) || d == 0) {
		exact_bits(to, d, &w);
		return w;
	}
	return ub_from_ordered(to, ub_ordered_bound(to, d, 1));
}

/* Input k of element i, attempt a (0: the specials or the first draw). */
static uint64_t draw(enum ub_dtype dt, const struct ub_sampling *s,
		     const struct plan *p, int nin, size_t i, int k, int a)
{
	enum ub_dtype sdt = (enum ub_dtype)s->sdt[k];
	size_t j;
	uint64_t key = a ? mix64(p->key[k] ^ mix64((uint64_t)a * UINT64_C(0xd6e8feb86659fd93)))
			 : p->key[k], b;
	int value = s->mode == UB_SAMPLE_VALUE || (a >= UB_SAMPLE_VALUE_FROM && (a & 1));
	if (a == 0 && special_at(nin, p->ns, i, k, &j))
		b = p->sp[k][j];
	else if (s->shape && ub_pre_draw(&s->shape[k], sdt, p->lo[k], p->hi[k], value,
					 mix64(key + ((uint64_t)i + 1) * GOLDEN), &b))
		; /* :pre's choice of points, or outside its hole */
	else if (value)
		b = ub_from_ordered(sdt, by_value(sdt, p, k,
			mix64(key + ((uint64_t)i + 1) * GOLDEN)));
	else
		b = random_at(sdt, key, p->lo[k], p->hi[k], i);
	return widen(sdt, dt, b);
}

/* Whether the candidate in[] satisfies every condition: 1, 0 (also when
 * the reference cannot decide), or -1 with err set. */
static int accept(enum ub_dtype dt, const struct ub_sampling *s,
		  const uint64_t *in, int nin, struct ub_error *err)
{
	for (int c = 0; c < s->npred; c++) {
		int truth = 0, st = ub_ref_pred(s->pred[c], dt, in, nin, &truth, err);
		if (st == UB_REF_UNDECIDED)
			return 0;
		if (st)
			return -1;
		if (!truth)
			return 0;
	}
	return 1;
}

int ub_inputs_sample_at(enum ub_dtype dt, int nin, const struct ub_sampling *s,
			uint64_t seed, size_t first, size_t n,
			struct ub_array *out, uint64_t *rejected,
			struct ub_error *err)
{
	struct plan p;
	uint64_t in[UB_MAX_INPUTS], rej = 0;
	int st = make_plan(nin, s, seed, &p, err);
	for (size_t i = 0; !st && i < n; i++) {
		int a = 0, ok = 0;
		for (; !st && !ok && a < UB_SAMPLE_MAX_TRIES; a++) {
			for (int k = 0; k < nin; k++)
				in[k] = draw(dt, s, &p, nin, first + i, k, a);
			ok = s->npred ? accept(dt, s, in, nin, err) : 1;
			st = ok < 0 ? UB_USAGE : 0;
		}
		if (!st && !ok)
			st = ub_fail(err, UB_USAGE, ":pre rejected %d candidates in a "
				     "row for element %zu (drawn over the encodings, and "
				     "every other one after the first %d in value, as "
				     "--sample value does): it holds almost nowhere in "
				     "the domain; narrow the domain with bounds in "
				     ":pre or --domain", UB_SAMPLE_MAX_TRIES, first + i,
				     UB_SAMPLE_VALUE_FROM);
		rej += (uint64_t)(a - 1);
		for (int k = 0; !st && k < nin; k++)
			ub_array_set(&out[k], i, in[k]);
	}
	if (rejected)
		*rejected += rej;
	free_plan(&p);
	return st;
}

int ub_sampling_init(const struct ub_op *op, enum ub_dtype dt,
		     enum ub_sample mode, struct ub_sampling *s,
		     struct ub_error *err)
{
	memset(s, 0, sizeof *s);
	s->dom = op->dom;
	s->mode = mode;
	for (int k = 0; k < op->nsampled; k++) {   /* saved inputs: computed */
		int a = op->arg_prec[k];
		/* every value of a is one of dt: bits and precision no larger,
		 * exponent range inside (f16 and bf16 hold each other's not) */
		int fits = a < 0 || (ub_dtypes[a].prec <= ub_dtypes[dt].prec &&
				     ub_dtypes[a].emin >= ub_dtypes[dt].emin &&
				     ub_dtypes[a].emax <= ub_dtypes[dt].emax);
		if (!fits)
			return ub_fail(err, UB_USAGE, "%s: argument '%s' is %s "
				       "(its annotation), whose values %s cannot hold",
				       op->name, op->inputs[k], ub_prec_name(a),
				       ub_dtypes[dt].name);
		s->sdt[k] = a < 0 ? (int)dt : a;
	}
	if (op->npre && !(s->pred = calloc((size_t)op->npre, sizeof *s->pred)))
		return ub_fail(err, UB_RUNTIME, "out of memory");
	int st = op->npre ? ub_pre_shapes(op, s, err) : 0;
	if (st)
		return st;
	for (int c = 0; c < op->npre; c++) {
		const struct ub_pre_clause *p = &op->pre[c];
		if (!p->exact && !(p->input >= 0 && op->dom[p->input].from_cli))
			s->pred[s->npred++] = p->e;
	}
	return 0;
}

void ub_sampling_free(struct ub_sampling *s)
{
	free(s->pred);
	free(s->shape);
	s->pred = NULL;
	s->shape = NULL;
	s->npred = 0;
}

static void dom_sampling(enum ub_dtype dt, const struct ub_domain *dom,
			 struct ub_sampling *s)
{
	memset(s, 0, sizeof *s);
	s->dom = dom;
	for (int k = 0; k < UB_MAX_INPUTS; k++)
		s->sdt[k] = (int)dt;
}

int ub_inputs_generate_at(enum ub_dtype dt, int nin,
			  const struct ub_domain *dom, uint64_t seed,
			  size_t first, size_t n, struct ub_array *out,
			  struct ub_error *err)
{
	struct ub_sampling s;
	dom_sampling(dt, dom, &s);
	return ub_inputs_sample_at(dt, nin, &s, seed, first, n, out, NULL, err);
}

int ub_inputs_generate(enum ub_dtype dt, int nin,
		       const struct ub_domain *dom, size_t n, uint64_t seed,
		       struct ub_array *out, struct ub_error *err)
{
	struct ub_sampling s;
	struct plan p;
	dom_sampling(dt, dom, &s);
	int st = make_plan(nin, &s, seed, &p, err); /* the domains, first */
	if (st)
		return st;
	free_plan(&p);
	for (int k = 0; k < nin; k++)
		if (ub_array_alloc(&out[k], dt, n)) {
			while (k-- > 0)
				ub_array_free(&out[k]);
			return ub_fail(err, UB_RUNTIME, "out of memory for %zu "
				       "inputs", n);
		}
	return ub_inputs_sample_at(dt, nin, &s, seed, 0, n, out, NULL, err);
}
