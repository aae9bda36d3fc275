/* check_catalog.c — the FPCore reader and the op catalog.
 *
 * Expected values come from reading the FPCore text by hand: the shipped
 * suites/ops.fpcore, and small forms written here.  Error positions were
 * counted in the test strings (1-based line:column of the offending
 * token); messages are checked by a fragment. */
#include "suites.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"

/* e printed as FPCore with variables v0, v1, ... (their indices). */
static const char *printed(const struct ub_expr *e)
{
	static char buf[512];
	ub_expr_print(e, NULL, buf, sizeof buf);
	return buf;
}

/* The body of a one-op catalog (FPCore f (x y z) TEXT) */
static void parse_ok(const char *text, struct ub_catalog *cat)
{
	struct ub_error err = {""};
	int st = ub_catalog_parse(text, "t.fpcore", cat, &err);
	ck_assert_msg(st == 0, "parse failed (%d): %s\n%s", st, err.msg, text);
	ck_assert_msg(cat->nbroken == 0, "%s", cat->nbroken ? cat->broken[0].msg : "");
	ck_assert_int_eq(cat->nops, 1);
}

/* The line of path that starts with prefix (a plain scan, not the
 * parser), or -1. */
static int line_of(const char *path, const char *prefix)
{
	char buf[1024];
	FILE *f = fopen(path, "r");
	int n = 0, at = -1;
	while (f && at < 0 && fgets(buf, sizeof buf, f))
		if (n++, !strncmp(buf, prefix, strlen(prefix)))
			at = n;
	if (f)
		fclose(f);
	return at;
}

START_TEST(test_shipped_atan_bwd)
{
	struct ub_catalog cat;
	struct ub_error err = {""};
	int st = ub_catalog_load(SRCDIR "/suites/ops.fpcore", &cat, &err);
	ck_assert_msg(st == 0, "%s", err.msg);
	const struct ub_op *op = ub_catalog_find(&cat, "atan_bwd");
	ck_assert_ptr_nonnull(op);
	ck_assert_ptr_null(ub_catalog_find(&cat, "no_such_op"));
	/* the line of (FPCore atan_bwd (x g) ...) in ops.fpcore */
	int want = line_of(SRCDIR "/suites/ops.fpcore", "(FPCore atan_bwd (x g)");
	ck_assert_int_gt(want, 1);
	ck_assert_int_eq(op->line, want);
	ck_assert_str_eq(op->desc, "atan backward: g / (x*x + 1)");
	ck_assert_int_eq(op->ninputs, 2);
	ck_assert_str_eq(op->inputs[0], "x");
	ck_assert_str_eq(op->inputs[1], "g");
	for (int i = 0; i < 2; i++) { /* no :pre: every value, NaN too */
		ck_assert(op->dom[i].lo == -INFINITY);
		ck_assert(op->dom[i].hi == INFINITY);
		ck_assert(!op->dom[i].no_nan);
	}
	ck_assert_int_eq(op->npre, 0);
	/* body (/ g (+ (* x x) 1)): x is v0, g is v1 */
	ck_assert_str_eq(printed(op->math), "(/ v1 (+ (* v0 v0) 1))");
	const char *names[] = {"x", "g"};
	char buf[100];
	ub_expr_print(op->math, names, buf, sizeof buf);
	ck_assert_str_eq(buf, "(/ g (+ (* x x) 1))");
	/* (let* ([s (* x x)] [t (+ s 1)]) (/ g t)): s is v2, t is v3 */
	ck_assert_int_eq(op->nsteps, 3);
	const char *step[3][2] = {{"s", "(* v0 v0)"}, {"t", "(+ v2 1)"},
				  {"out", "(/ v1 v3)"}};
	for (int i = 0; i < 3; i++) {
		ck_assert_str_eq(op->torch[i].name, step[i][0]);
		ck_assert_str_eq(printed(op->torch[i].e), step[i][1]);
	}
	ck_assert_int_eq(op->torch[2].e->args[1]->var, 3);
	ck_assert_str_eq(op->kernel, "atan_bwd.cu");
	ck_assert_str_eq(op->entry, "atan_bwd");
	ck_assert_int_eq(op->nargs, 4);
	const char *args[] = {"x", "g", "out", "n"};
	for (int i = 0; i < 4; i++)
		ck_assert_str_eq(op->args[i], args[i]);
	ck_assert_uint_eq(op->kernel_dtypes, 1u << UB_F32); /* :dtypes (f32) */
	ub_catalog_free(&cat);
}
END_TEST

/* Bodies and their expected trees, by FPCore's rules: + and * fold left,
 * (- x) negates, let substitutes in parallel and let* in sequence, numbers
 * keep their spelling, constants stay number nodes. */
static const struct {
	const char *body, *want;
} bodies[] = {
	{"(let* ([a (* x x)] [b (+ a y)]) (/ b a))", "(/ (+ (* v0 v0) v1) (* v0 v0))"},
	{"(let ([x y] [y x]) (- x y))", "(- v1 v0)"},
	{"(let* ([x (+ x 1)] [x (* x 2)]) x)", "(* (+ v0 1) 2)"},
	{"(let ([a 1]) (let* ([b (+ a z)]) (* b b)))", "(* (+ 1 v2) (+ 1 v2))"},
	{"(+ x y z 1)", "(+ (+ (+ v0 v1) v2) 1)"},
	{"(* x y z)", "(* (* v0 v1) v2)"},
	{"(- x)", "(- v0)"},
	{"[fma x y (- z)]", "(fma v0 v1 (- v2))"},
	{"(+ 1/3 -0.5 1e-3 0x1.8p3 .5)", "(+ (+ (+ (+ 1/3 -0.5) 1e-3) 0x1.8p3) .5)"},
	{"(* PI (+ E (- INFINITY NAN)))", "(* PI (+ E (- INFINITY NAN)))"},
	{"(pow (fabs x) (fmin y (fmax z 2)))", "(pow (fabs v0) (fmin v1 (fmax v2 2)))"},
	{"; comment\n(atan (tanh (erf (rsqrt (log1p (expm1 z))))))",
	 "(atan (tanh (erf (rsqrt (log1p (expm1 v2))))))"},
};

START_TEST(test_bodies)
{
	char text[300];
	struct ub_catalog cat;
	snprintf(text, sizeof text, "(FPCore f (x y z)\n  %s)", bodies[_i].body);
	parse_ok(text, &cat);
	ck_assert_str_eq(printed(cat.ops[0].math), bodies[_i].want);
	ub_catalog_free(&cat);
}
END_TEST

START_TEST(test_domain_and_props)
{
	struct ub_catalog cat;
	parse_ok("(FPCore f (x y z w)\n"
		 " :pre (and (and (<= -1 x 1)) (< 0 y +inf) (>= 2 z) (<= (- INFINITY) x)\n"
		 "           (> 10 w -1/4) (<= w 1e300))\n"
		 " :cuda-note (anything [goes] \"here\") :torch (+ x y)\n"
		 " (- x))", &cat);
	const struct ub_op *op = &cat.ops[0];
	ck_assert(op->dom[0].lo == -1 && op->dom[0].hi == 1);
	/* (0, inf): strict bounds exclude 0 and inf, the next doubles inward */
	ck_assert(op->dom[1].lo == 0x1p-1074 && op->dom[1].hi == 0x1.fffffffffffffp+1023);
	ck_assert(op->dom[2].lo == -INFINITY && op->dom[2].hi == 2);
	/* (-1/4, 10) intersected with [.., 1e300]: strict bounds move by one
	 * double (ulp(0.25)/2 below 0.25 is 2^-55, ulp(10) is 2^-49) */
	ck_assert(op->dom[3].lo == -0.25 + 0x1p-55);
	ck_assert(op->dom[3].hi == 10 - 0x1p-49);
	ck_assert_int_eq(op->nsteps, 1); /* a plain expression: one step */
	ck_assert_str_eq(op->torch[0].name, "out");
	ck_assert_str_eq(printed(op->torch[0].e), "(+ v0 v1)");
	ck_assert_ptr_null(op->kernel);
	ck_assert_ptr_null(op->desc);
	ck_assert_int_eq(op->nargs, 0);
	ub_catalog_free(&cat);
}
END_TEST

/* A let (parallel) plan: bindings see only the inputs, later steps are
 * numbered after the inputs. */
START_TEST(test_plan_let)
{
	struct ub_catalog cat;
	parse_ok("(FPCore f (x) :torch (let ([a (* x x)] [b (- x)]) (+ a b)) x)",
		 &cat);
	const struct ub_op *op = &cat.ops[0];
	ck_assert_int_eq(op->nsteps, 3);
	ck_assert_str_eq(printed(op->torch[1].e), "(- v0)");
	ck_assert_str_eq(printed(op->torch[2].e), "(+ v1 v2)");
	ub_catalog_free(&cat);
}
END_TEST

START_TEST(test_many_ops)
{
	struct ub_catalog cat;
	struct ub_error err;
	int st = ub_catalog_parse("(FPCore a (x) x) ; one\n(FPCore b (x) (- x))\n"
				  "[FPCore c () 1]", "t.fpcore", &cat, &err);
	ck_assert_int_eq(st, 0);
	ck_assert_int_eq(cat.nops, 3);
	ck_assert_int_eq(ub_catalog_find(&cat, "c")->line, 3);
	/* no arguments: one hidden input, the placeholder "_" (docs/fpcore.md) */
	ck_assert_int_eq(ub_catalog_find(&cat, "c")->noargs, 1);
	ck_assert_int_eq(ub_catalog_find(&cat, "c")->ninputs, 1);
	ck_assert_str_eq(ub_catalog_find(&cat, "c")->inputs[0], "_");
	ck_assert_str_eq(ub_catalog_find(&cat, "b")->file, "t.fpcore");
	ub_catalog_free(&cat);
	st = ub_catalog_parse("", "empty.fpcore", &cat, &err);
	ck_assert_int_eq(st, 0);
	ck_assert_int_eq(cat.nops, 0);
	ub_catalog_free(&cat);
}
END_TEST

/* Malformed text: where the error points and what it says.  A core that
 * does not read is a broken entry (the file still loads); text that is not
 * s-expressions fails the file. */
static const struct {
	const char *text, *pos, *msg;
} bad[] = {
	{"(FPCore f (x)\n  (+ x 1)", "1:1", "unclosed '('"},
	{"(FPCore f (x) x))", "1:17", "unexpected ')'"},
	{"(FPCore f (x) [+ x 1))", "1:21", "')' closes '['"},
	{"(FPCore f (x) (frobnicate x))", "1:16", "unknown operator 'frobnicate'"},
	{"(FPCore f (x)\n  (sqrt x x))", "2:3", "'sqrt' takes 1 argument, got 2"},
	{"(FPCore f (x) (fma x x))", "1:15", "'fma' takes 3 arguments, got 2"},
	{"(FPCore f (x) (/))", "1:15", "'/' takes at least 1 argument, got 0"},
	{"(FPCore f (x) (- x x (<)))", "1:22", "'<' takes at least 2 arguments, got 0"},
	{"(FPCore f (x) (+ x #))", "1:20", "'#' must be followed by an expression"},
	{"(FPCore f (x) (! :round nearestAway x))", "1:25", "nearestAway is not supported"},
	{"(FPCore f (x) (+ x y))", "1:20", "unknown variable 'y'"},
	{"(FPCore f (x g) :args (x z out n) x)", "1:26", ":args: 'z' is not an input"},
	{"(FPCore f (x g) :args (x out out) x)", "1:30", "'out' appears twice"},
	{"(FPCore f (x) :pre (+ x 1) x)", "1:20", ":pre must be a condition"},
	{"(FPCore f (x) :pre (<= 0 y 1) x)", "1:26", "unknown variable 'y'"},
	{"(FPCore f (x) :pre (and (<= 2 x) (<= x 1)) x)", "1:20", "empty domain for 'x'"},
	{"(FPCore f (x) x)\n(FPCore f (y) y)", "2:1", "duplicate op 'f'"},
	{"(FPCore f (x) :name \"a\")", "1:24", "missing body"},
	{"(FPCore f (x) :name \"abc)", "1:21", "unterminated string"},
	{"(FPCore f (x) (tgamma x x))", "1:15", "'tgamma' takes 1 argument, got 2"},
	{"(FPCore f (x) :torch x :torch-rounding ([y every-op]) x)", "1:41", "'y' is not a step"},
	{"(FPCore f (x) :torch x :torch-rounding ([out fast]) x)", "1:41", "expected [STEP every-op]"},
	{"(FPCore f (x) :kernel \"k.cu\" :kernel-expr x x)", "1:43", ":kernel-expr is for generated kernels"},
	{"(FPCore f (x) (let ([a]) a))", "1:21", "expected a binding [name expr]"},
	{"(FPCore 3 (x) x)", "1:9", "expected (FPCore (ARGS...)"},
	{"(FPCore f (x) :kernel k.cu x)", "1:23", ":kernel: expected a string"},
	{"(FPCore f (x x) x)", "1:14", "argument 'x' appears twice"},
	{"(FPCore f (x) x y)", "1:17", "unexpected element after the body"},
	{"(FPCore f (x) :name)", "1:15", "property :name has no value"},
	{"(foo)", "1:1", "expected (FPCore"},
	{"(FPCore f (x) ())", "1:15", "empty expression"},
	{"(FPCore f (x) \"s\")", "1:15", "expected an expression, found a string"},
	{"(FPCore f (x) (+ x 1/00))", "1:20", "zero denominator"},
	{"(FPCore f (x) :dtypes (f32 f8) x)", "1:28", ":dtypes: unknown dtype 'f8' (valid: f32, f16, bf16, f64)"},
	{"(FPCore f (x) :dtypes f32 x)", "1:23", ":dtypes: expected a list"},
};

START_TEST(test_malformed)
{
	struct ub_catalog cat;
	struct ub_error err = {""};
	char want[40];
	int st = ub_catalog_parse(bad[_i].text, "t.fpcore", &cat, &err);
	if (st == 0) { /* the file read: the core is a broken entry */
		ck_assert_msg(cat.nbroken == 1, "%d broken for\n%s", cat.nbroken, bad[_i].text);
		snprintf(err.msg, sizeof err.msg, "%s", cat.broken[0].msg);
		ub_catalog_free(&cat);
	}
	snprintf(want, sizeof want, "t.fpcore:%s: ", bad[_i].pos);
	ck_assert_msg(strncmp(err.msg, want, strlen(want)) == 0 &&
		      strstr(err.msg, bad[_i].msg),
		      "for\n%s\nwant \"%s...%s\", got \"%s\"", bad[_i].text, want,
		      bad[_i].msg, err.msg);
}
END_TEST

/* :dtypes sets one bit per dtype; without it a hand-written kernel is f32
 * only, and a generated one (no :kernel) serves all four dtypes. */
START_TEST(test_dtypes)
{
	struct ub_catalog cat;
	parse_ok("(FPCore f (x) :dtypes (bf16 f32) x)", &cat);
	ck_assert_uint_eq(cat.ops[0].kernel_dtypes, (1u << UB_BF16) | (1u << UB_F32));
	ub_catalog_free(&cat);
	parse_ok("(FPCore f (x) :kernel \"k.cu\" x)", &cat);
	ck_assert_uint_eq(cat.ops[0].kernel_dtypes, 1u << UB_F32);
	ub_catalog_free(&cat);
	parse_ok("(FPCore f (x) x)", &cat);
	ck_assert_uint_eq(cat.ops[0].kernel_dtypes, 0xfu); /* f32 f16 bf16 f64 */
	ub_catalog_free(&cat);
}
END_TEST

START_TEST(test_load_missing)
{
	struct ub_catalog cat;
	struct ub_error err;
	int st = ub_catalog_load("/nonexistent/ops.fpcore", &cat, &err);
	ck_assert_int_eq(st, UB_USAGE);
	/* strerror(ENOENT) in glibc */
	ck_assert_str_eq(err.msg, "/nonexistent/ops.fpcore: cannot read: "
				  "No such file or directory");
}
END_TEST

START_TEST(test_print_truncates)
{
	struct ub_catalog cat;
	char buf[8];
	parse_ok("(FPCore f (x) (+ x 1))", &cat);
	/* "(+ v0 1)" is 8 characters: snprintf-style length, cut to fit */
	ck_assert_int_eq(ub_expr_print(cat.ops[0].math, NULL, buf, sizeof buf), 8);
	ck_assert_str_eq(buf, "(+ v0 1");
	ub_catalog_free(&cat);
}
END_TEST

Suite *ub_catalog_suite(void)
{
	Suite *s = suite_create("catalog");
	TCase *tc = tcase_create("catalog");
	tcase_add_test(tc, test_shipped_atan_bwd);
	tcase_add_loop_test(tc, test_bodies, 0, sizeof bodies / sizeof bodies[0]);
	tcase_add_test(tc, test_domain_and_props);
	tcase_add_test(tc, test_plan_let);
	tcase_add_test(tc, test_many_ops);
	tcase_add_loop_test(tc, test_malformed, 0, sizeof bad / sizeof bad[0]);
	tcase_add_test(tc, test_dtypes);
	tcase_add_test(tc, test_load_missing);
	tcase_add_test(tc, test_print_truncates);
	suite_add_tcase(s, tc);
	return s;
}
