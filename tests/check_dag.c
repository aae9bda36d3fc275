/* check_dag.c — expressions as shared nodes (dag.h): a let binding is one
 * node however often its name is used, every evaluator computes it once
 * and gets what the written-out tree gives, and no depth crashes anything.
 *
 * Expected values: a chain of k doublings of x = 1 is 2^k exactly (f32
 * encoding (127 + k) << 23); the written-out tree of a let is built here by
 * substitution, independently of the reader, and evaluated by the same
 * reference on every input: sharing must not change a bit. */
#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "codegen.h"
#include "dag.h"
#include "inputs.h"
#include "reference.h"

static void parse(const char *text, struct ub_catalog *cat)
{
	struct ub_error err = {""};
	int st = ub_catalog_parse(text, "t.fpcore", cat, &err);
	ck_assert_msg(st == 0, "%s", err.msg);
}

/* (FPCore dbl (x) (let* ([a1 (+ x x)] [a2 (+ a1 a1)] ...) ak)) */
static char *doublings(int k)
{
	size_t len = 64 + 40 * (size_t)k, used = 0;
	char *s = malloc(len);
	used += (size_t)snprintf(s, len, "(FPCore dbl (x) (let* (");
	for (int i = 1; i <= k; i++) {
		char prev[16] = "x";
		if (i > 1)
			snprintf(prev, sizeof prev, "a%d", i - 1);
		used += (size_t)snprintf(s + used, len - used, "[a%d (+ %s %s)] ", i,
					 prev, prev);
	}
	snprintf(s + used, len - used, ") a%d))", k);
	return s;
}

/* 60 doublings: written out, 2^61 - 1 nodes; shared, 62 (x is read
 * twice, as two leaves, by a1). */
START_TEST(test_let_shares)
{
	struct ub_catalog cat;
	struct ub_error err = {""};
	const struct ub_dag *d;
	char *text = doublings(60);
	parse(text, &cat);
	free(text);
	const struct ub_expr *e = cat.ops[0].math;
	ck_assert_int_eq(e->depth, 61);
	ck_assert_int_eq(ub_expr_dag(e, &d, &err), 0);
	ck_assert_int_eq(d->n, 62);
	int twice = 0; /* a1 ... a59: both arguments of the next binding */
	for (int i = 0; i < d->n; i++)
		twice += d->uses[i] == 2;
	ck_assert_int_eq(twice, 59);
	uint64_t one = 0x3f800000, cr;
	struct ub_exact ex;
	ck_assert_int_eq(ub_ref_eval(e, UB_F32, &one, 1, &cr, &ex, &err), 0);
	ck_assert_uint_eq(cr, (uint64_t)(127 + 60) << 23);
	ck_assert(ex.hi == 0x1p60);
	ck_assert_int_eq(ub_ref_eval_fast(e, UB_F32, &one, 1, &cr, &ex), 1);
	ck_assert_uint_eq(cr, (uint64_t)(127 + 60) << 23);
	char *src = NULL;
	ck_assert_int_eq(ub_codegen_kernel(&cat.ops[0], UB_F32, &src, &err), 0);
	ck_assert_ptr_nonnull(strstr(src, "t59 = UB_ADD(t58, t58)"));
	ck_assert_uint_lt(strlen(src), 8000); /* one line per binding */
	free(src);
	ub_catalog_free(&cat);
}
END_TEST

/* e with every use of variable `var` replaced by a copy of `val`: the
 * written-out tree of (let ([v val]) e), built without the reader. */
static struct ub_expr *subst(const struct ub_expr *e, int var,
			     const struct ub_expr *val)
{
	if (e->kind == UB_E_VAR)
		return e->var == var ? subst(val, -1, NULL) : ub_expr_new_var(e->var);
	if (e->kind == UB_E_NUM)
		return ub_expr_new_num(e->num);
	struct ub_expr *a[3] = {NULL, NULL, NULL};
	for (int i = 0; i < e->nargs; i++)
		a[i] = subst(e->args[i], var, val);
	return ub_expr_new_op(e->op, e->nargs, a);
}

/* Each let body uses y (variable 1, bound to the binding) more than once;
 * x is variable 0. */
static const struct {
	const char *shared, *binding, *body;
} lets[] = {
	{"(let ([y (/ 1 x)]) (* (- x) (* y y)))", "(/ 1 x)", "(* (- x) (* y y))"},
	{"(let ([y (sqrt x)]) (+ (* y y) x))", "(sqrt x)", "(+ (* y y) x)"},
	{"(let ([y (sin x)]) (if (< y 0.5) (+ y y) (/ y (+ y 1))))", "(sin x)",
	 "(if (< y 0.5) (+ y y) (/ y (+ y 1)))"},
	{"(let ([y (fma x x -1)]) (/ y (fabs y)))", "(fma x x -1)", "(/ y (fabs y))"},
};

START_TEST(test_let_as_tree)
{
	char text[512];
	struct ub_catalog parts;
	struct ub_error err = {""};
	struct ub_array in[1];
	snprintf(text, sizeof text, "(FPCore s (x) %s)\n(FPCore b (x) %s)\n"
		 "(FPCore u (x y) %s)", lets[_i].shared, lets[_i].binding, lets[_i].body);
	parse(text, &parts);
	struct ub_expr *tree = subst(parts.ops[2].math, 1, parts.ops[1].math);
	ck_assert_int_eq(ub_inputs_generate(UB_F32, 1, NULL, 3000, 5, in, &err), 0);
	for (size_t i = 0; i < in[0].n; i++) {
		uint64_t x = ub_array_get(&in[0], i), a, b;
		struct ub_exact ea, eb;
		ck_assert_int_eq(ub_ref_eval(parts.ops[0].math, UB_F32, &x, 1, &a, &ea, &err), 0);
		ck_assert_int_eq(ub_ref_eval(tree, UB_F32, &x, 1, &b, &eb, &err), 0);
		ck_assert_msg(a == b, "%s at x=0x%08llx: shared 0x%08llx, tree 0x%08llx",
			      lets[_i].shared, (unsigned long long)x,
			      (unsigned long long)a, (unsigned long long)b);
		int fa = ub_ref_eval_fast(parts.ops[0].math, UB_F32, &x, 1, &a, &ea);
		int fb = ub_ref_eval_fast(tree, UB_F32, &x, 1, &b, &eb);
		ck_assert_int_eq(fa, fb);
		ck_assert(!fa || (a == b && (ea.hi == eb.hi || (ea.hi != ea.hi && eb.hi != eb.hi))));
	}
	ub_array_free(&in[0]);
	ub_expr_free(tree);
	ub_catalog_free(&parts);
}
END_TEST

/* A chain of k bindings, each adding 1 to the last: depth k + 1. */
static char *chain(int k)
{
	size_t len = 64 + 32 * (size_t)k, used = 0;
	char *s = malloc(len);
	used += (size_t)snprintf(s, len, "(FPCore c (x)\n (let* (");
	for (int i = 1; i <= k; i++)
		used += (size_t)snprintf(s + used, len - used, "[a%d (+ %s%.0d 1)]", i,
					 i > 1 ? "a" : "x", i - 1);
	snprintf(s + used, len - used, ")\n a%d))", k);
	return s;
}

START_TEST(test_depth_limit)
{
	struct ub_catalog cat;
	struct ub_error err = {""};
	char *ok = chain(UB_EXPR_MAX_DEPTH - 1), *deep = chain(UB_EXPR_MAX_DEPTH);
	parse(ok, &cat);
	ck_assert_int_eq(cat.ops[0].math->depth, UB_EXPR_MAX_DEPTH);
	ub_catalog_free(&cat);
	ck_assert_int_eq(ub_catalog_parse(deep, "t.fpcore", &cat, &err), 0);
	ck_assert_int_eq(cat.nops, 0); /* the core did not load: why */
	ck_assert_int_eq(cat.nbroken, 1);
	snprintf(err.msg, sizeof err.msg, "%s", cat.broken[0].msg);
	ub_catalog_free(&cat);
	char want[128];
	snprintf(want, sizeof want, "expression nested deeper than %d", UB_EXPR_MAX_DEPTH);
	ck_assert_msg(strncmp(err.msg, "t.fpcore:2:", 11) == 0 && strstr(err.msg, want),
		      "%s", err.msg);
	free(ok);
	free(deep);
}
END_TEST

/* Built without the reader: a million nested negations.  Freeing and the
 * evaluators must not recurse over it; the reference refuses it. */
START_TEST(test_deep_built)
{
	struct ub_expr *e = ub_expr_new_var(0);
	struct ub_error err = {""};
	uint64_t x = 0x3f800000, cr;
	for (int i = 0; i < 1000000 && e; i++)
		e = ub_expr_new_op(UB_NEG, 1, &e);
	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(e->depth, 1000001);
	ck_assert_int_eq(ub_ref_eval(e, UB_F32, &x, 1, &cr, NULL, &err), UB_USAGE);
	ck_assert_ptr_nonnull(strstr(err.msg, "nested deeper than"));
	ck_assert_int_eq(ub_ref_eval_fast(e, UB_F32, &x, 1, &cr, NULL), 0);
	char buf[64];
	ck_assert_int_ge(ub_expr_print(e, NULL, buf, sizeof buf), (int)sizeof buf);
	ub_expr_free(e);
}
END_TEST

Suite *ub_dag_suite(void)
{
	Suite *s = suite_create("dag");
	TCase *tc = tcase_create("dag");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_let_shares);
	tcase_add_loop_test(tc, test_let_as_tree, 0, sizeof lets / sizeof lets[0]);
	tcase_add_test(tc, test_depth_limit);
	tcase_add_test(tc, test_deep_built);
	suite_add_tcase(s, tc);
	return s;
}
