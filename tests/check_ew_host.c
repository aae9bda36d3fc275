/* check_ew_host.c — an independent model of the elementwise kernels, to
 * check the sim on every (op, dtype, mode) whose PTX is exact.
 *
 * The host evaluates the same operations the kernel performs, element by
 * element, over the same inputs (the special values, then a seeded
 * sample), in host C built with -ffp-contract=off:
 *   - generated kernels compute in float (double for f64) and round once
 *     to the dtype; torch steps likewise, or round every operator
 *     (:torch-rounding every-op); native16 kernels round every operator
 *     to the 16-bit type, constants rounded from double;
 *   - where the compiler fuses, the host uses one rounding: NVVM (modes
 *     fma, ftz, fastmath, approxdiv, approxsqrt, torch) contracts
 *     (+ (* a b) c), (- ...), also through a negated product, with the
 *     product in operand a first, then b, as LLVM's DAG combiner does;
 *     ptxas fuses native16's mul into its one reader add/sub (also
 *     through a negation); nofma and rn keep every rounding;
 *   - .ftz (modes ftz, fastmath): f32 operands and results flushed;
 *   - a function call (sinf, logf, exp, ...) takes its value from the
 *     same function's PTX run alone on the sim, compiled with the row's
 *     flags ("oracle"): the composition is what this test checks; the
 *     functions themselves are checked against MPFR within CUDA's
 *     documented bounds at the end of this file.
 * 16-bit results are rounded by this file's own routine (exact value or
 * round-to-odd double, then nearest even), independent of ulpbench's.
 * NaN compares as "both NaN".
 *
 * The rows checked (check_ew_rows.c) are the exact ones at this commit
 * (sim_exact = yes), listed there (from a full run: ulpbench --op OP --dtype
 * f32,f16,bf16,f64 -n 200 --csv -, less tanh in f64, whose PTX takes an
 * rcp.approx path for some arguments); each row must still be exact.
 * Each runs twice: over the op's domain (the special values in every
 * combination, then samples) and over [-4, 4] (mostly samples). */
#include "check_ew_host.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "codegen.h"
#include "nvrtc.h"
#include "run.h"
#include "inputs.h"
#include "sim.h"

#define N 3500     /* > the special values' cross product (57 x 57) */
#define N_NARROW 1500
#define SEED 11

/* ---- formats and rounding (independent of src/ and src/exec/ptx/) ---- */

struct fmt {
	int p, emin, emax;
};
static const struct fmt F16 = {11, -14, 15}, BF16 = {8, -126, 127},
			F32 = {24, -126, 127};

static const struct fmt *fmt_of(enum ub_dtype dt)
{
	return dt == UB_F16 ? &F16 : dt == UB_BF16 ? &BF16 : &F32;
}

/* v (exact, or a round-to-odd double with >= p+2 bits) rounded to
 * nearest even in format f, as a double. */
static double rn(const struct fmt *f, double v)
{
	if (v != v || isinf(v) || v == 0)
		return v;
	int e;
	frexp(v, &e);
	e = e - 1 < f->emin ? f->emin : e - 1;
	double q = ldexp(v, f->p - 1 - e);       /* exact: a power of two */
	double r = nearbyint(q);                 /* ties to even (RN mode) */
	double y = ldexp(r, e - f->p + 1);
	if (fabs(y) >= ldexp(2.0, f->emax))      /* beyond the largest finite */
		return copysign(INFINITY, v);
	return y;
}

/* a + b rounded to odd in double: the exact sum's neighbours in double
 * bracket it; the odd one of them (TwoSum gives the error exactly). */
static double add_odd(double a, double b)
{
	double s = a + b;
	if (isinf(s) || s != s)
		return s;
	double bb = s - a, err = (a - (s - bb)) + (b - bb);
	uint64_t u;
	memcpy(&u, &s, 8);
	if (err != 0 && !(u & 1))
		s = nextafter(s, err > 0 ? INFINITY : -INFINITY);
	return s;
}

static double ftz32(double v)
{
	return fabs(v) < 0x1p-126 ? copysign(0.0, v) : v;
}

double ew_bits_value(enum ub_dtype dt, uint64_t b)
{
	return ub_bits_to_double(dt, b);
}

/* A value of dt (f16, bf16, f32, f64) as its encoding. */
uint64_t ew_value_bits(enum ub_dtype dt, double v)
{
	if (dt == UB_F64) {
		uint64_t u;
		memcpy(&u, &v, 8);
		return u;
	}
	float f = (float)v;                      /* exact: v is in dt */
	uint32_t u;
	memcpy(&u, &f, 4);
	if (dt == UB_F32)
		return u;
	if (dt == UB_BF16)
		return u >> 16;
	uint32_t s = (u >> 16) & 0x8000, a = u & 0x7fffffff;
	if (f != f)
		return 0x7fff;
	if (a >= 0x7f800000)
		return s | 0x7c00;
	if (a == 0)
		return s;
	int e;
	double m = frexp(fabs(v), &e);           /* v = m 2^e, m in [0.5, 1) */
	if (e - 1 < -14)                         /* subnormal: units of 2^-24 */
		return s | (uint32_t)ldexp(fabs(v), 24);
	return s | (uint32_t)(e - 1 + 15) << 10 | ((uint32_t)ldexp(m, 11) & 0x3ff);
}

/* ---- the oracle: one function's PTX alone, on the sim ---- */

struct oracle {
	int fop;
	enum ub_dtype dt;
	int mode;
	char *ptx;
};
static struct oracle oracles[128];
static int noracles;

static const char *oracle_ptx(int fop, enum ub_dtype dt, int mode)
{
	for (int i = 0; i < noracles; i++)
		if (oracles[i].fop == fop && oracles[i].dt == dt && oracles[i].mode == mode)
			return oracles[i].ptx;
	char text[128], *src = NULL, *ptx = NULL;
	struct ub_catalog cat;
	struct ub_error err;
	snprintf(text, sizeof text, "(FPCore f (x) (%s x))", ub_expr_ops[fop].name);
	ck_assert_int_eq(ub_catalog_parse(text, "oracle", &cat, &err), 0);
	ck_assert_int_eq(ub_codegen_kernel(&cat.ops[0], dt, &src, &err), 0);
	int s = ub_nvrtc_compile(src, "oracle.cu", ub_modes[mode].opts, "compute_90",
				 &ptx, NULL, &err);
	ck_assert_msg(s == 0, "%s", err.msg);
	free(src);
	ub_catalog_free(&cat);
	ck_assert(noracles < 128);
	oracles[noracles++] = (struct oracle){fop, dt, mode, ptx};
	return ptx;
}

/* res[i] = f(arg[i]) as the function's PTX computes it in dt; with
 * `exact`, the run must execute no approximate instruction (which paths
 * a function takes depends on its arguments). */
void ew_oracle_run(int fop, enum ub_dtype dt, int mode, const double *arg,
		       double *res, size_t n, int exact)
{
	struct ub_array in, out;
	struct ub_error err;
	struct ptx_run_info info;
	ck_assert_int_eq(ub_array_alloc(&in, dt, n), 0);
	for (size_t i = 0; i < n; i++)
		ub_array_set(&in, i, ew_value_bits(dt, arg[i]));
	ck_assert_int_eq(ub_array_alloc(&out, dt, n), 0);
	struct ub_karg a[3] = {{.arr = &in}, {.arr = &out, .writable = 1}, {.value = n}};
	int s = ub_sim_run(oracle_ptx(fop, dt, mode), UB_KERNEL_ENTRY, a, 3, n, &info, &err);
	ck_assert_msg(s == 0, "%s", err.msg);
	ck_assert_msg(!exact || info.approx_mask == 0, "oracle %s %s %s is not exact",
		      ub_expr_ops[fop].name, ub_dtypes[dt].name, ub_modes[mode].name);
	for (size_t i = 0; i < n; i++)
		res[i] = ew_bits_value(dt, ub_array_get(&out, i));
	ub_array_free(&in);
	ub_array_free(&out);
}

/* ---- the evaluator: one tree over all elements at once ---- */

enum style { ONCE, EVERY_OP, NATIVE };

struct ev {
	enum ub_dtype dt;      /* the tensor dtype */
	enum style style;
	int mode;              /* flags of the row (oracle kernels too) */
	int contract, ftz;
	size_t n;
	double *const *env;    /* per variable: n values (of dt) */
};

static double literal(const char *t)
{
	if (!strcmp(t, "PI"))
		return M_PI;
	if (!strcmp(t, "E"))
		return M_E;
	const char *slash = strchr(t, '/');
	return slash ? strtod(t, NULL) / strtod(slash + 1, NULL) : strtod(t, NULL);
}

/* One arithmetic result in the evaluator's precision: float, double, or
 * rounded to the 16-bit dtype (EVERY_OP, NATIVE: a, b of that dtype, so
 * a*b is exact in double and a + b is taken rounded to odd). */
static double arith(const struct ev *c, int op, double a, double b)
{
	int dbl = c->dt == UB_F64, half = c->style != ONCE && c->dt != UB_F32 &&
					 c->dt != UB_F64;
	if (c->ftz && !dbl && !half)
		a = ftz32(a), b = ftz32(b);
	double r;
	if (half && c->style == NATIVE) {
		double x = op == UB_ADD ? add_odd(a, b) : op == UB_SUB ? add_odd(a, -b)
			 : op == UB_MUL ? a * b : a / b;
		ck_assert_msg(op != UB_DIV, "native16 division (__hdiv) is approximate");
		return rn(fmt_of(c->dt), x);
	}
	if (dbl) {
		volatile double x = a, y = b;
		r = op == UB_ADD ? x + y : op == UB_SUB ? x - y : op == UB_MUL ? x * y : x / y;
		return r;
	}
	volatile float x = (float)a, y = (float)b, z;
	z = op == UB_ADD ? x + y : op == UB_SUB ? x - y : op == UB_MUL ? x * y : x / y;
	/* .ftz on a product or quotient that rounds up to 2^-126: flushed
	 * when its value rounded to 24 bits with an unbounded exponent is
	 * below 2^-126 (as an H200 does: docs/gpu-results.md); redone 2^64
	 * times larger, where 24 bits are float's own */
	if (c->ftz && fabsf(z) == 0x1p-126f && (op == UB_MUL || op == UB_DIV)) {
		volatile float big = 0x1p64f, t = op == UB_MUL
			? (fabsf(x) <= fabsf(y) ? (x * big) * y : x * (y * big))
			: (x * big) / y;
		if (fabsf(t) < 0x1p-62f)
			z = copysignf(0.0f, z);
	}
	r = c->ftz ? ftz32(z) : z;
	return half ? rn(fmt_of(c->dt), r) : r;   /* EVERY_OP: c10::Half op */
}

/* RN(s*a*b + t*d) with one rounding, in the evaluator's precision. */
static double fused(const struct ev *c, double a, double b, double d, int sa, int sd)
{
	a = sa ? -a : a;
	d = sd ? -d : d;
	if (c->dt == UB_F64)
		return fma(a, b, d);
	if (c->style == NATIVE)                  /* a*b exact in double */
		return rn(fmt_of(c->dt), add_odd(a * b, d));
	if (c->ftz)
		a = ftz32(a), b = ftz32(b), d = ftz32(d);
	double r = fmaf((float)a, (float)b, (float)d);
	return c->ftz ? ftz32(r) : r;
}

static double *eval(const struct ev *c, const struct ub_expr *e);

static int is_op(const struct ub_expr *e, int op)
{
	return e->kind == UB_E_OP && (int)e->op == op;
}

/* The product a fused add takes from operand x: (* a b), or (- (* a b))
 * (NVVM folds (fneg (fmul a b)) + c into fma(-a, b, c); ptxas looks
 * through a neg too); 0 if none. */
static int product(const struct ev *c, const struct ub_expr *x,
		   const struct ub_expr **m, int *neg)
{
	(void)c;
	*neg = 0;
	if (is_op(x, UB_NEG) && is_op(x->args[0], UB_MUL))
		*neg = 1, x = x->args[0];
	*m = x;
	return is_op(x, UB_MUL);
}

/* (+ a b) or (- a b) with one operand a product that the compiler fuses. */
static double *eval_fused(const struct ev *c, const struct ub_expr *e, int k,
			  const struct ub_expr *m, int neg)
{
	double *p = eval(c, m->args[0]), *q = eval(c, m->args[1]),
	       *d = eval(c, e->args[1 - k]);
	int sub = e->op == UB_SUB;
	for (size_t i = 0; i < c->n; i++)
		p[i] = fused(c, p[i], q[i], d[i], neg ^ (sub && k == 1), sub && k == 0);
	free(q);
	free(d);
	return p;
}

/* Whether the compiler fuses a product into this add: NVVM contracts in
 * float (not across EVERY_OP's roundings), ptxas in NATIVE (a second
 * product in the other operand would be a guess: such rows are not
 * exact). */
static int fuse_at(const struct ev *c, const struct ub_expr *e, int *k,
		   const struct ub_expr **m, int *neg)
{
	int half = c->dt == UB_F16 || c->dt == UB_BF16;
	if (!(is_op(e, UB_ADD) || is_op(e, UB_SUB)))
		return 0;
	if (c->style == NATIVE ? 0 : !c->contract || (half && c->style == EVERY_OP))
		return 0;
	for (*k = 0; *k < 2; ++*k)
		if (product(c, e->args[*k], m, neg))
			return 1;
	return 0;
}

double *ew_alloc(size_t n)
{
	double *v = calloc(n ? n : 1, sizeof *v);
	ck_assert_ptr_nonnull(v);
	return v;
}

static double *eval_call(const struct ev *c, const struct ub_expr *e)
{
	double *a = eval(c, e->args[0]), *r = ew_alloc(c->n);
	int half = c->dt == UB_F16 || c->dt == UB_BF16;
	if (e->op == UB_SQRT && c->style != NATIVE) {   /* sqrt.rn: IEEE */
		for (size_t i = 0; i < c->n; i++) {
			double x = c->ftz && c->dt != UB_F64 ? ftz32(a[i]) : a[i];
			r[i] = c->dt == UB_F64 ? sqrt(x) : sqrtf((float)x);
			r[i] = c->ftz && c->dt != UB_F64 ? ftz32(r[i]) : r[i];
		}
	} else if (e->op == UB_FABS) {
		for (size_t i = 0; i < c->n; i++)
			r[i] = fabs(a[i]);
	} else {
		enum ub_dtype odt = c->style == NATIVE ? c->dt : c->dt == UB_F64 ? UB_F64 : UB_F32;
		ew_oracle_run(e->op, odt, c->mode, a, r, c->n, 1);
	}
	if (half && c->style == EVERY_OP)
		for (size_t i = 0; i < c->n; i++)
			r[i] = rn(fmt_of(c->dt), r[i]);
	free(a);
	return r;
}

static int compare(int op, double a, double b)
{
	switch (op) {
	case UB_LT: return a < b;
	case UB_LE: return a <= b;
	case UB_GT: return a > b;
	case UB_GE: return a >= b;
	case UB_EQ: return a == b;
	default: return a != b;
	}
}

static double *eval(const struct ev *c, const struct ub_expr *e)
{
	double *r;
	int k, neg, half = c->dt == UB_F16 || c->dt == UB_BF16;
	const struct ub_expr *m;
	if (e->kind == UB_E_NUM) {
		double v = literal(e->num);
		v = c->dt == UB_F64 ? v : (half && c->style != ONCE) ? rn(fmt_of(c->dt), v)
			: (double)(float)v;
		r = ew_alloc(c->n);
		for (size_t i = 0; i < c->n; i++)
			r[i] = v;
		return r;
	}
	if (e->kind == UB_E_VAR) {
		r = ew_alloc(c->n);
		memcpy(r, c->env[e->var], c->n * sizeof *r);
		return r;
	}
	if (fuse_at(c, e, &k, &m, &neg))
		return eval_fused(c, e, k, m, neg);
	switch (e->op) {
	case UB_ADD: case UB_SUB: case UB_MUL: case UB_DIV: {
		double *a = eval(c, e->args[0]), *b = eval(c, e->args[1]);
		for (size_t i = 0; i < c->n; i++)
			a[i] = arith(c, e->op, a[i], b[i]);
		free(b);
		return a;
	}
	case UB_NEG:
		r = eval(c, e->args[0]);
		for (size_t i = 0; i < c->n; i++)
			r[i] = c->ftz && c->dt == UB_F32 ? -ftz32(r[i]) : -r[i];
		return r;
	case UB_IF: {
		const struct ub_expr *cnd = e->args[0];
		double *x = eval(c, cnd->args[0]), *y = eval(c, cnd->args[1]);
		double *t = eval(c, e->args[1]), *f = eval(c, e->args[2]);
		for (size_t i = 0; i < c->n; i++)
			t[i] = compare(cnd->op, c->ftz && c->dt == UB_F32 ? ftz32(x[i]) : x[i],
				       c->ftz && c->dt == UB_F32 ? ftz32(y[i]) : y[i]) ? t[i] : f[i];
		free(x), free(y), free(f);
		return t;
	}
	default:
		return eval_call(c, e);
	}
}

/* ---- rows ---- */

/* One kernel's expected output over env (ninputs + steps so far). */
static void model(const struct ub_expr *e, enum ub_dtype dt, enum style st,
		  int mode, double *const *env, size_t n, double *out)
{
	int m = mode;
	struct ev c = {dt, st, mode, m != UB_MODE_NOFMA && m != UB_MODE_RN,
		       m == UB_MODE_FTZ || m == UB_MODE_FASTMATH, n, env};
	double *v = eval(&c, e);
	for (size_t i = 0; i < n; i++)
		out[i] = dt == UB_F64 ? v[i] : dt == UB_F32 ? (double)(float)v[i]
			 : rn(fmt_of(dt), v[i]);
	free(v);
}

static void expect_same(const char *what, const struct ub_data *d, size_t i,
			uint64_t got, double want)
{
	uint64_t w = ew_value_bits(d->dt, want);
	if (want != want) {
		ck_assert_msg(ub_bits_isnan(d->dt, got), "%s i=%zu: want NaN, got 0x%llx",
			      what, i, (unsigned long long)got);
		return;
	}
	uint64_t x = ub_array_get(&d->in[0], i), g = d->nin > 1 ? ub_array_get(&d->in[1], i) : 0;
	UB_ASSERT(got == w, "%s i=%zu: in0=%a (0x%llx) in1=%a (0x%llx): sim 0x%llx, "
		  "host 0x%llx (%a)", what, i, ew_bits_value(d->dt, x),
		  (unsigned long long)x, ew_bits_value(d->dt, g), (unsigned long long)g,
		  (unsigned long long)got, (unsigned long long)w, want);
}

static double **inputs(const struct ub_data *d, int extra)
{
	double **env = calloc((size_t)(d->nin + extra), sizeof *env);
	for (int k = 0; k < d->nin; k++) {
		env[k] = ew_alloc(d->in[k].n);
		for (size_t i = 0; i < d->in[k].n; i++)
			env[k][i] = ew_bits_value(d->dt, ub_array_get(&d->in[k], i));
	}
	return env;
}

/* The torch plan, step by step, each rounded to the dtype. */
static void check_torch(const struct ub_op *op, const struct ub_data *d)
{
	size_t n = d->in[0].n;
	double **env = inputs(d, op->nsteps);
	for (int s = 0; s < op->nsteps; s++) {
		env[op->ninputs + s] = ew_alloc(n);
		model(op->torch[s].e, d->dt, op->torch[s].every_op ? EVERY_OP : ONCE,
		      UB_MODE_FMA, env, n, env[op->ninputs + s]);
	}
	char what[96];
	snprintf(what, sizeof what, "%s %s torch", op->name, ub_dtypes[d->dt].name);
	for (size_t i = 0; i < n; i++)
		expect_same(what, d, i, ub_array_get(&d->torch, i),
			    env[op->ninputs + op->nsteps - 1][i]);
	for (int k = 0; k < op->ninputs + op->nsteps; k++)
		free(env[k]);
	free(env);
}

static void check_mode(const struct ub_op *op, const struct ub_data *d, int m,
		       const struct ub_array *out)
{
	size_t n = d->in[0].n;
	double **env = inputs(d, 0), *want = ew_alloc(n);
	const struct ub_expr *e = op->kernel_expr ? op->kernel_expr : op->math;
	int native = m == UB_MODE_NATIVE16;
	model(e, d->dt, native ? NATIVE : ONCE, m, env, n, want);
	char what[96];
	snprintf(what, sizeof what, "%s %s %s", op->name, ub_dtypes[d->dt].name,
		 ub_modes[m].name);
	for (size_t i = 0; i < n; i++)
		expect_same(what, d, i, ub_array_get(out, i), want[i]);
	for (int k = 0; k < op->ninputs; k++)
		free(env[k]);
	free(env);
	free(want);
}

/* Runs op in dt under the listed modes (and the torch plan) and checks
 * every row against the host model; narrow: all inputs in [-4, 4] (and
 * the op's domain), where the arithmetic is least trivial. */
void ew_check_op(const struct ub_op *op0, enum ub_dtype dt, const char *modes,
		     int narrow)
{
	struct ub_op op = *op0;
	struct ub_config cfg = {
		.op = &op, .ndtypes = 1, .dtypes = {dt}, .n = narrow ? N_NARROW : N,
		.seed = SEED,
		.arch = "compute_90", .backend = "sim",
	};
	char buf[200];
	int torch = 0;
	for (int k = 0; narrow && k < op.ninputs; k++)
		op.dom[k] = (struct ub_domain){.lo = fmax(op.dom[k].lo, -4), .hi = fmin(op.dom[k].hi, 4)};
	snprintf(buf, sizeof buf, "%s", modes);
	for (char *sv, *t = strtok_r(buf, ",", &sv); t; t = strtok_r(NULL, ",", &sv))
		if (!strcmp(t, "torch"))
			torch = 1;
		else
			cfg.modes[cfg.nmodes++] = (enum ub_mode)ub_mode_find(t);
	struct ub_result res;
	struct ub_error err;
	int s = ub_run(&cfg, &res, &err);
	ck_assert_msg(s == 0, "%s", err.msg);
	const struct ub_data *d = &res.data[0];
	for (int r = 0; r < res.nrows; r++)
		ck_assert_msg(res.rows[r].sim_exact || (!torch && !strcmp(res.rows[r].mode, "torch")),
			      "%s %s %s is no longer exact", op.name, ub_dtypes[dt].name,
			      res.rows[r].mode);
	for (int m = 0; m < cfg.nmodes; m++)
		check_mode(&op, d, cfg.modes[m], &d->out[m]);
	if (torch)
		check_torch(&op, d);
	ub_result_free(&res);
}

void ew_oracles_free(void)
{
	for (int i = 0; i < noracles; i++)
		free(oracles[i].ptx);
	noracles = 0;
}
