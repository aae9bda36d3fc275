/* check_ref_fast.c — the fast path of the reference (reference/ref_fast.c)
 * against the MPFR reference, the independent source: whenever the fast
 * path decides, its correctly rounded result equals MPFR's bit for bit
 * and its exact value is within 2^-45 relative of MPFR's, or 2^-22 of the
 * format's smallest subnormal (docs/reference.md: the fractional ULP
 * error then moves by at most 2^-21 ulp).  Points: every op of the
 * shipped catalog on every f16 and bf16 encoding (one-input ops) or
 * seeded samples (the others), and on the special values and seeded
 * samples of every binade (inputs.h) in f32; test expressions and the
 * functions of LLVM libc in f32, f16 and bf16.  It must decide most points
 * of what it supports (the functions only when LLVM libc is built in and
 * usable, never otherwise), and none of what it does not (tan). */
#include "suites.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "ref_fast_prog.h"
#include "catalog.h"
#include "inputs.h"
#include "ref_llvm.h"
#include "ub_bits.h"

#define NPTS 6000

/* fast against MPFR at one point x of dtype dt: when fast decides, the
 * same encoding and an exact value within 2^-45 relative (or 2^-22 of the
 * format's smallest subnormal: docs/reference.md).  Returns whether fast
 * decided. */
static int compare_at(const struct ub_expr *e, enum ub_dtype dt, int nin,
		      const uint64_t *x, const char *what)
{
	struct ub_error err = {""};
	uint64_t fcr, mcr;
	struct ub_exact fx, mx;
	if (!ub_ref_eval_fast(e, dt, x, nin, &fcr, &fx))
		return 0;
	UB_ASSERT(ub_ref_eval(e, dt, x, nin, &mcr, &mx, &err) == 0, "%s %s: %s", what,
		  ub_dtypes[dt].name, err.msg);
	UB_ASSERT(fcr == mcr, "%s %s at x=0x%08llx y=0x%08llx z=0x%08llx: "
		  "fast 0x%08llx, MPFR 0x%08llx", what, ub_dtypes[dt].name,
		  (unsigned long long)x[0], (unsigned long long)(nin > 1 ? x[1] : 0),
		  (unsigned long long)(nin > 2 ? x[2] : 0),
		  (unsigned long long)fcr, (unsigned long long)mcr);
	double d = fabs((fx.hi - mx.hi) - mx.lo);
	if (fx.hi != fx.hi && mx.hi != mx.hi)   /* NaN in, NaN out */
		d = 0;
	if (isinf(mx.hi) && fx.hi == mx.hi && fx.lo == mx.lo)   /* beyond the doubles */
		d = 0;
	double tiny = ldexp(1, ub_dt_emin(dt) - ub_dt_prec(dt) + 1 - 22);
	UB_ASSERT(d <= 0x1p-45 * fabs(mx.hi) || d <= tiny, "%s %s at 0x%08llx: "
		  "exact %a, MPFR %a%+a", what, ub_dtypes[dt].name,
		  (unsigned long long)x[0], fx.hi, mx.hi, mx.lo);
	return 1;
}

/* Compares fast and MPFR on n points of dt (special values, then seeded
 * samples of every binade); returns how many fast decided. */
static size_t compare_n(const struct ub_expr *e, enum ub_dtype dt, int nin,
			size_t n, const char *what)
{
	struct ub_array in[UB_MAX_INPUTS];
	struct ub_error err = {""};
	size_t decided = 0;
	ck_assert_int_eq(ub_inputs_generate(dt, nin, NULL, n, 7, in, &err), 0);
	for (size_t i = 0; i < n; i++) {
		uint64_t x[UB_MAX_INPUTS];
		for (int k = 0; k < nin; k++)
			x[k] = ub_array_get(&in[k], i);
		decided += (size_t)compare_at(e, dt, nin, x, what);
	}
	for (int k = 0; k < nin; k++)
		ub_array_free(&in[k]);
	return decided;
}

static size_t compare(const struct ub_expr *e, int nin, const char *what)
{
	return compare_n(e, UB_F32, nin, NPTS, what);
}

START_TEST(test_catalog)
{
	struct ub_catalog cat = {0};
	struct ub_error err = {""};
	ck_assert_int_eq(ub_catalog_load(SRCDIR "/suites/ops.fpcore", &cat, &err), 0);
	for (int i = 0; i < cat.nops; i++)
		compare(cat.ops[i].math, cat.ops[i].ninputs, cat.ops[i].name);
	ub_catalog_free(&cat);
}
END_TEST

/* f16 and bf16: every encoding of a one-input op, NPTS16 samples of the
 * others; f32: NPTS32 samples (special values first). */
#define NPTS16 10000
#define NPTS32 20000

START_TEST(test_catalog_16)
{
	enum ub_dtype dt = _i ? UB_BF16 : UB_F16;
	struct ub_catalog cat = {0};
	struct ub_error err = {""};
	ck_assert_int_eq(ub_catalog_load(SRCDIR "/suites/ops.fpcore", &cat, &err), 0);
	for (int i = 0; i < cat.nops; i++) {
		const struct ub_op *op = &cat.ops[i];
		if (op->ninputs > 1) {
			compare_n(op->math, dt, op->ninputs, NPTS16, op->name);
			continue;
		}
		for (uint64_t x = 0; x < 65536; x++)
			compare_at(op->math, dt, 1, &x, op->name);
	}
	ub_catalog_free(&cat);
}
END_TEST

START_TEST(test_catalog_f32)
{
	struct ub_catalog cat = {0};
	struct ub_error err = {""};
	ck_assert_int_eq(ub_catalog_load(SRCDIR "/suites/ops.fpcore", &cat, &err), 0);
	for (int i = 0; i < cat.nops; i++)
		compare_n(cat.ops[i].math, UB_F32, cat.ops[i].ninputs, NPTS32, cat.ops[i].name);
	ub_catalog_free(&cat);
}
END_TEST

/* The functions are decided by the fast path when LLVM libc is built in
 * and usable (over a third of the points: the rest are outside the
 * domain, NaN, infinite, or near a rounding boundary), and never without
 * it: the results then all come from MPFR. */
static const char *const fns[] = {
	"(exp a)", "(expm1 a)", "(log a)", "(log1p a)", "(sin a)", "(cos a)",
	"(atan a)", "(asin a)", "(acos a)", "(tanh a)", "(erf a)", "(erfc a)",
	"(sinh a)", "(cosh a)", "(cbrt a)", "(exp2 a)", "(log2 a)", "(log10 a)",
	"(* a (exp (- (* a a))))", "(/ 1 (+ 1 (exp (- a))))",
};

START_TEST(test_functions)
{
	struct ub_catalog cat = {0};
	struct ub_error err = {""};
	char text[300];
	snprintf(text, sizeof text, "(FPCore t (a) %s)", fns[_i]);
	ck_assert_msg(ub_catalog_parse(text, "t", &cat, &err) == 0, "%s", err.msg);
	for (int d = 0; d < 3; d++) {
		enum ub_dtype dt = d == 0 ? UB_F32 : d == 1 ? UB_F16 : UB_BF16;
		size_t n = compare_n(cat.ops[0].math, dt, 1, NPTS, fns[_i]);
		if (ub_llvm_usable())
			ck_assert_msg(n > NPTS / 3, "%s %s: decided %zu of %d", fns[_i],
				      ub_dtypes[dt].name, n, NPTS);
		else
			ck_assert_msg(n == 0, "%s: decided %zu without LLVM libc", fns[_i], n);
	}
	ub_catalog_free(&cat);
}
END_TEST

static const struct {
	const char *body;
	int nin, some; /* some: the fast path decides over a third of the
			  points (sqrt of a negative half is NaN: MPFR) */
} exprs[] = {
	{"(/ a (+ (* b b) 1))", 2, 1},     /* atan_bwd's shape */
	{"(sqrt a)", 1, 1},
	{"(rsqrt a)", 1, 1},
	{"(/ 1 (sqrt a))", 1, 1},
	{"(fma a b c)", 3, 1},
	{"(- (* a b) (* b c))", 3, 1},
	{"(+ a 0.1)", 1, 1},               /* an inexact literal */
	{"(* (- a) 1e-3)", 1, 1},
	{"(fabs (- a b))", 2, 1},
	{"(/ (- a b) (+ a b))", 2, 1},     /* cancellation: falls back */
	{"(tan a)", 1, 0},                 /* unsupported: never decides */
};

START_TEST(test_exprs)
{
	struct ub_catalog cat = {0};
	struct ub_error err = {""};
	char text[300];
	snprintf(text, sizeof text, "(FPCore t (a b c) %s)", exprs[_i].body);
	ck_assert_msg(ub_catalog_parse(text, "t", &cat, &err) == 0, "%s", err.msg);
	size_t n = compare(cat.ops[0].math, exprs[_i].nin, exprs[_i].body);
	if (exprs[_i].some)
		ck_assert_msg(n > NPTS / 3, "%s: decided %zu of %d", exprs[_i].body,
			      n, NPTS);
	else
		ck_assert_msg(n == 0, "%s: decided %zu", exprs[_i].body, n);
	ub_catalog_free(&cat);
}
END_TEST

/* A random enclosure for the lane test: values from every range (zeros
 * of both signs, subnormals, huge, near the top of the doubles, exact
 * powers of two), bounds 0, tiny or wide, and every ok and sign. */
static struct fval random_fval(unsigned *seed)
{
	static const double special[] = { 0.0, -0.0, 1.0, -2.0, 0x1p-1074, -0x1p-1030,
					  0x1.fffffffffffffp+1023, -0x1p1000, 3.0, 0.1 };
	double v, e;
	int k = rand_r(seed) % 4;
	if (k == 0) {
		v = special[rand_r(seed) % 10];
	} else {   /* a random double of a random binade */
		v = ldexp(1 + rand_r(seed) / (double)RAND_MAX, rand_r(seed) % 2100 - 1075);
		if (rand_r(seed) & 1)
			v = -v;
	}
	switch (rand_r(seed) % 4) {
	case 0: e = 0; break;
	case 1: e = fabs(v) * 0x1p-52; break;
	case 2: e = ldexp(1, rand_r(seed) % 2100 - 1075); break;
	default: e = fabs(v) * (rand_r(seed) / (double)RAND_MAX); break;
	}
	signed char ok = (signed char)(rand_r(seed) % 5 != 0);
	signed char sg = (signed char)(rand_r(seed) % 3 - 1);
	return (struct fval){ v, e, ok, sg };
}

/* The lanes of + - * / neg fabs (ref_fast_col.c, FAST_W at once) against
 * ref_fast.h's scalar rules: ok always, and where there is an enclosure
 * (ok) v, e and sg bit for bit; a failed node's v, e and sign are read by
 * no one (its NaN's sign may differ from one compilation to another). */
static void check_lane(int op, const struct fval *x, const struct fval *y,
		       const struct fval *got, int j)
{
	struct fval want, ny;
	switch (op) {
	case UB_ADD: fast_add(x, y, &want); break;
	case UB_SUB: fast_neg(y, &ny); fast_add(x, &ny, &want); break;
	case UB_MUL: fast_mul(x, y, &want); break;
	case UB_DIV: fast_div(x, y, &want); break;
	case UB_NEG: fast_neg(x, &want); break;
	default:     /* fabs: exact, the bound kept, the sign known unless 0 */
		want = (struct fval){ fabs(x->v), x->e, x->ok, (signed char)(x->sg ? 1 : 0) };
		break;
	}
	UB_ASSERT(got->ok == want.ok &&
		  (!want.ok || (!memcmp(&got->v, &want.v, sizeof want.v) &&
				!memcmp(&got->e, &want.e, sizeof want.e) && got->sg == want.sg)),
		  "op %d lane %d: (%a %a %d %d) (%a %a %d %d): got (%a %a %d %d), "
		  "want (%a %a %d %d)", op, j, x->v, x->e, x->ok, x->sg, y->v, y->e,
		  y->ok, y->sg, got->v, got->e, got->ok, got->sg, want.v, want.e,
		  want.ok, want.sg);
}

START_TEST(test_lanes)
{
	static const int ops[] = { UB_ADD, UB_SUB, UB_MUL, UB_DIV, UB_NEG, UB_FABS };
	struct fprog *p = calloc(1, sizeof *p + 3 * sizeof p->node[0]);
	struct fcol *val = calloc(3, sizeof *val);
	unsigned seed = 11;
	ck_assert(p && val);
	p->n = 3;
	p->node[0] = (struct fnode){ .kind = FK_VAR, .self = 0 };
	p->node[1] = (struct fnode){ .kind = FK_VAR, .self = 1, .var = 1 };
	for (int o = 0; o < (int)(sizeof ops / sizeof ops[0]); o++)
		for (int rep = 0; rep < 200; rep++) {
			p->node[2] = (struct fnode){ .kind = FK_OP, .op = (unsigned char)ops[o],
						     .nargs = 2, .self = 2, .a = { 0, 1 } };
			for (int j = 0; j < BLOCK; j++) {
				struct fval x = random_fval(&seed), y = random_fval(&seed);
				val[0].v[j] = x.v, val[0].e[j] = x.e, val[0].ok[j] = x.ok, val[0].sg[j] = x.sg;
				val[1].v[j] = y.v, val[1].e[j] = y.e, val[1].ok[j] = y.ok, val[1].sg[j] = y.sg;
			}
			fast_run(p, val, BLOCK, 0);
			for (int j = 0; j < BLOCK; j++) {
				struct fval x = get(&val[0], j), y = get(&val[1], j), r = get(&val[2], j);
				check_lane(ops[o], &x, &y, &r, j);
			}
		}
	free(val);
	free(p);
}
END_TEST

/* A whole chunk (blocks of lanes, decide's common way on FAST_W elements at
 * once: ref_fast.c easy_f32) against the same elements one at a time
 * (ub_ref_eval_auto: element(), the scalar decide, or MPFR), bit for bit,
 * the exact values too: every op of the catalog in f32, f16 and bf16, on
 * a length that is no multiple of the lanes or the block. */
START_TEST(test_chunk)
{
	enum ub_dtype dt = _i == 0 ? UB_F32 : _i == 1 ? UB_F16 : UB_BF16;
	struct ub_catalog cat = {0};
	struct ub_error err = {""};
	const size_t n = 3 * 256 + 7;
	ck_assert_int_eq(ub_catalog_load(SRCDIR "/suites/ops.fpcore", &cat, &err), 0);
	for (int i = 0; i < cat.nops; i++) {
		const struct ub_op *op = &cat.ops[i];
		struct ub_array in[UB_MAX_INPUTS], cr;
		struct ub_exact *ex = calloc(n, sizeof *ex);
		ck_assert(ex && ub_array_alloc(&cr, dt, n) == 0);
		ck_assert_int_eq(ub_inputs_generate(dt, op->ninputs, NULL, n, 5, in, &err), 0);
		ck_assert_int_eq(ub_ref_eval_chunk(op->math, dt, in, op->ninputs, n, 1, &cr, ex,
						   &err), 0);
		for (size_t k = 0; k < n; k++) {
			uint64_t x[UB_MAX_INPUTS], y;
			struct ub_exact one;
			for (int v = 0; v < op->ninputs; v++)
				x[v] = ub_array_get(&in[v], k);
			int s = ub_ref_eval_auto(op->math, dt, x, op->ninputs, 1, &y, &one, &err);
			UB_ASSERT(s == 0 || s == UB_REF_UNDECIDED, "%s %s element %zu: status %d: %s",
				  op->name, ub_dtypes[dt].name, k, s, err.msg);
			UB_ASSERT(ub_array_get(&cr, k) == y &&
				  !memcmp(&ex[k].hi, &one.hi, sizeof one.hi) &&
				  !memcmp(&ex[k].lo, &one.lo, sizeof one.lo),
				  "%s %s element %zu: chunk 0x%llx %a%+a, one by one 0x%llx %a%+a",
				  op->name, ub_dtypes[dt].name, k,
				  (unsigned long long)ub_array_get(&cr, k), ex[k].hi, ex[k].lo,
				  (unsigned long long)y, one.hi, one.lo);
		}
		for (int v = 0; v < op->ninputs; v++)
			ub_array_free(&in[v]);
		ub_array_free(&cr);
		free(ex);
	}
	ub_catalog_free(&cat);
}
END_TEST

Suite *ub_ref_fast_suite(void)
{
	Suite *s = suite_create("ref_fast");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_catalog);
	tcase_add_loop_test(tc, test_exprs, 0, (int)(sizeof exprs / sizeof exprs[0]));
	tcase_add_loop_test(tc, test_functions, 0, (int)(sizeof fns / sizeof fns[0]));
	tcase_add_loop_test(tc, test_catalog_16, 0, 2);
	tcase_add_test(tc, test_catalog_f32);
	tcase_add_test(tc, test_lanes);
	tcase_add_loop_test(tc, test_chunk, 0, 3);
	suite_add_tcase(s, tc);
	return s;
}
