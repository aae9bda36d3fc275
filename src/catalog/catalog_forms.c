/* catalog_forms.c — FPCore's forms beyond operators and let (FPCore 2.0,
 * fpbench.org/spec/fpcore-2.0.html):
 *   (! :precision P :round R ... e)  e read in rounding context P
 *     (binary16 binary32 binary64 bfloat16 (float E N) of those, real,
 *     integer: results rounded to integers), its direction R (nearestEven
 *     toPositive toNegative toZero; nearestAway is refused); binary80 is
 *     refused with its reason; other properties are read past;
 *   (cast e)              e rounded in the current context (a node of its
 *                         own: the reference rounds only where the
 *                         context is a format, ref_mpfr.c);
 *   (digits m e b)        the exact number m * b^e (integers, b >= 2),
 *                         kept as a literal: an integer or a rational n/d;
 *   (while c ([x init upd] ...) body), while*: loops, their arguments laid
 *                         out as expr.h says, each variable one leaf
 *                         shared by its uses, typed by its initial value;
 *   for for* tensor tensor* array ref dim size: refused, one line each.
 * Errors are FILE:LINE:COL messages (UB_USAGE). */
#include "catalog_internal.h"

#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail_at(const struct ub_cat_ctx *c, const struct ub_sx *x,
		   const char *fmt, const char *arg)
{
	return ub_sx_fail(c->err, c->file, x->line, x->col, fmt, arg);
}

/* ---- precisions ------------------------------------------------------- */

/* The formats ulpbench runs, by FPCore name and as (float E N). */
static const struct {
	const char *name;
	int ebits, nbits, dt;
} formats[] = {
	{"binary16", 5, 16, UB_F16}, {"binary32", 8, 32, UB_F32},
	{"binary64", 11, 64, UB_F64}, {"bfloat16", 8, 16, UB_BF16},
};
#define NFORMATS (int)(sizeof formats / sizeof formats[0])

static int unsupported_precision(const struct ub_cat_ctx *c,
				 const struct ub_sx *x, const char *what,
				 const char *text)
{
	return ub_sx_fail(c->err, c->file, x->line, x->col, "%s: precision %s is "
			  "not supported (supported: binary16, binary32, binary64, "
			  "bfloat16 = (float 8 16), real)", what, text);
}

int ub_cat_precision(const struct ub_cat_ctx *c, const struct ub_sx *x,
		     const char *what, int *prec)
{
	if (x->kind == UB_SX_SYM) {
		for (int i = 0; i < NFORMATS; i++)
			if (!strcmp(x->text, formats[i].name))
				return *prec = formats[i].dt, 0;
		if (!strcmp(x->text, "real"))
			return *prec = UB_PREC_REAL, 0;
		if (!strcmp(x->text, "integer") && !strcmp(what, "!"))
			return *prec = UB_PREC_INTEGER, 0; /* inside an expression only */
		if (!strcmp(x->text, "binary80"))
			return ub_sx_fail(c->err, c->file, x->line, x->col, "%s: precision "
					  "binary80 is not supported (no GPU has an 80-bit "
					  "format)", what);
		return unsupported_precision(c, x, what, x->text);
	}
	if (x->kind == UB_SX_LIST && x->n == 3 && ub_sx_is(&x->kids[0], "float") &&
	    ub_sx_is(&x->kids[1], "15") && ub_sx_is(&x->kids[2], "80"))
		return ub_sx_fail(c->err, c->file, x->line, x->col, "%s: precision "
				  "(float 15 80) is not supported (no GPU has an 80-bit "
				  "format)", what);
	if (x->kind == UB_SX_LIST && x->n == 3 && ub_sx_is(&x->kids[0], "float") &&
	    x->kids[1].kind == UB_SX_NUM && x->kids[2].kind == UB_SX_NUM) {
		char text[96];
		long e = strtol(x->kids[1].text, NULL, 10), n = strtol(x->kids[2].text, NULL, 10);
		for (int i = 0; i < NFORMATS; i++)
			if (e == formats[i].ebits && n == formats[i].nbits)
				return *prec = formats[i].dt, 0;
		snprintf(text, sizeof text, "(float %.30s %.30s)", x->kids[1].text,
			 x->kids[2].text);
		return unsupported_precision(c, x, what, text);
	}
	if (x->kind == UB_SX_LIST && x->n && x->kids[0].kind == UB_SX_SYM) {
		char text[96];
		snprintf(text, sizeof text, "(%.60s ...)", x->kids[0].text);
		return unsupported_precision(c, x, what, text);
	}
	return fail_at(c, x, "%s: expected a precision such as binary32", what);
}

/* ---- (! props... e) ---------------------------------------------------- */

int ub_cat_round(const struct ub_cat_ctx *c, const struct ub_sx *v,
		 const char *what, int *rnd)
{
	for (int r = 0; r < 4; r++)
		if (ub_sx_is(v, ub_rnd_names[r]))
			return *rnd = r, 0;
	if (ub_sx_is(v, "nearestAway"))
		return ub_sx_fail(c->err, c->file, v->line, v->col, "%s: rounding "
				  "nearestAway is not supported (no GPU instruction "
				  "rounds ties away from zero)", what);
	return ub_sx_fail(c->err, c->file, v->line, v->col, "%s: unknown rounding "
			  "%s (known: nearestEven toPositive toNegative toZero)", what,
			  v->kind == UB_SX_LIST ? "(...)" : v->text);
}

static int annotation(const struct ub_cat_ctx *c, const struct ub_sx *x,
		      const struct ub_scope *sc, struct ub_expr **out)
{
	struct ub_cat_ctx inner = *c;
	int i = 1, st = 0;
	for (; i + 1 < x->n && x->kids[i].kind == UB_SX_KEY && !st; i += 2) {
		const struct ub_sx *k = &x->kids[i], *v = &x->kids[i + 1];
		if (!strcmp(k->text, ":precision"))
			st = ub_cat_precision(c, v, "!", &inner.prec);
		else if (!strcmp(k->text, ":round"))
			st = ub_cat_round(c, v, "!", &inner.rnd);
	}
	if (st)
		return st;
	if (i != x->n - 1)
		return fail_at(c, x, "%s", "expected (! :property value ... expr)");
	return ub_cat_expr(&inner, &x->kids[i], sc, out);
}

/* ---- (cast e), (digits m e b) ------------------------------------------ */

static int cast(const struct ub_cat_ctx *c, const struct ub_sx *x,
		const struct ub_scope *sc, struct ub_expr **out)
{
	struct ub_expr *a = NULL;
	if (x->n != 2)
		return fail_at(c, x, "%s", "'cast' takes 1 argument");
	int st = ub_cat_expr(c, &x->kids[1], sc, &a);
	if (!st)
		st = ub_cat_typed(c, &x->kids[0], &x->kids[1], UB_T_REAL, a);
	if (st) {
		ub_expr_free(a);
		return st;
	}
	if (!(*out = ub_expr_new_op(UB_CAST, 1, &a)))
		return ub_cat_oom(c);
	(*out)->prec = c->prec;
	(*out)->rnd = c->rnd;
	return ub_cat_depth(c, x, out);
}

/* An integer literal (optional sign, digits) into z. */
static int integer(const struct ub_cat_ctx *c, const struct ub_sx *x, mpz_t z)
{
	const char *t = x->kind == UB_SX_NUM ? x->text : "";
	t += *t == '+';
	if (!*t || strspn(t + (*t == '-'), "0123456789") != strlen(t + (*t == '-')) ||
	    mpz_set_str(z, t, 10))
		return fail_at(c, x, "%s", "digits: expected an integer");
	return 0;
}

/* |e| * log2(b) beyond this: refused (the literal would be huge). */
#define DIGITS_MAX_BITS 100000

static int digits(const struct ub_cat_ctx *c, const struct ub_sx *x,
		  struct ub_expr **out)
{
	mpz_t m, e, b, p;
	int st = 0;
	if (x->n != 4)
		return fail_at(c, x, "%s", "expected (digits m e b)");
	mpz_inits(m, e, b, p, (mpz_ptr)0);
	for (int i = 1; i < 4 && !st; i++)
		st = integer(c, &x->kids[i], i == 1 ? m : i == 2 ? e : b);
	if (!st && mpz_cmp_ui(b, 2) < 0)
		st = fail_at(c, &x->kids[3], "%s", "digits: the base must be at least 2");
	if (!st && (!mpz_fits_slong_p(e) || !mpz_fits_slong_p(b) ||
		    (double)labs(mpz_get_si(e)) * (double)mpz_sizeinbase(b, 2) > DIGITS_MAX_BITS))
		st = fail_at(c, x, "%s", "digits: the number is too large to write out");
	char *text = NULL;
	if (!st) {
		long k = mpz_get_si(e);
		mpz_pow_ui(p, b, (unsigned long)labs(k));
		if (k >= 0)
			mpz_mul(m, m, p);
		mpq_t q;
		mpq_init(q);
		mpq_set_num(q, m);
		mpq_set_den(q, k >= 0 ? (mpz_set_ui(e, 1), e) : p);
		mpq_canonicalize(q);
		/* "-0" stays a signed zero; others n or n/d */
		if (!(text = mpz_sgn(m) == 0 && x->kids[1].text[0] == '-' ? strdup("-0")
			     : mpq_get_str(NULL, 10, q)))
			st = ub_cat_oom(c);
		mpq_clear(q);
	}
	if (!st && !(*out = ub_expr_new_num(text)))
		st = ub_cat_oom(c);
	if (!st)
		(*out)->prec = c->prec, (*out)->rnd = c->rnd;
	free(text);
	mpz_clears(m, e, b, p, (mpz_ptr)0);
	return st;
}

/* ---- loops ------------------------------------------------------------- */

struct loop {
	int n, seq;
	const struct ub_sx *b;      /* the binding list */
	struct ub_scope *sc;        /* one per variable, linked innermost out */
	struct ub_expr **a;         /* the loop's arguments, expr.h's layout */
};

/* [x init upd] */
static int binding3(const struct ub_cat_ctx *c, const struct ub_sx *b)
{
	if (b->kind == UB_SX_LIST && b->n == 3 && b->kids[0].kind == UB_SX_SYM)
		return 0;
	return fail_at(c, b, "%s", "expected a loop binding [name init update]");
}

/* Initial values and variables: init k in the scope outside the loop
 * (while) or with the variables before k (while*). */
static int inits(const struct ub_cat_ctx *c, struct loop *L,
		 const struct ub_scope *outer)
{
	const struct ub_scope *inner = outer;
	int n = L->n, st = 0;
	for (int k = 0; k < n && !st; k++) {
		const struct ub_sx *bk = &L->b->kids[k];
		if ((st = binding3(c, bk)) != 0)
			break;
		for (int j = 0; j < k; j++)
			if (ub_sx_is(&L->b->kids[j].kids[0], bk->kids[0].text))
				return fail_at(c, bk, "loop variable '%s' appears twice",
					       bk->kids[0].text);
		st = ub_cat_expr(c, &bk->kids[1], L->seq ? inner : outer,
				 &L->a[UB_LOOP_INIT(n, k)]);
		if (st)
			break;
		int is_bool = ub_expr_type_of(L->a[UB_LOOP_INIT(n, k)]) == UB_T_BOOL;
		struct ub_expr *v = ub_expr_new_lvar(bk->kids[0].text, is_bool);
		if (!v)
			return ub_cat_oom(c);
		L->a[UB_LOOP_VAR(n, k)] = v;
		L->sc[k] = (struct ub_scope){bk->kids[0].text, 0, v, inner};
		inner = &L->sc[k];
	}
	return st;
}

/* Condition, updates (of their variables' types), body, shadows. */
static int parts(const struct ub_cat_ctx *c, const struct ub_sx *x,
		 struct loop *L, const struct ub_scope *outer)
{
	int n = L->n, st;
	const struct ub_scope *all = n ? &L->sc[n - 1] : outer;
	st = ub_cat_expr(c, &x->kids[1], all, &L->a[UB_LOOP_COND(n)]);
	if (!st)
		st = ub_cat_typed(c, &x->kids[0], &x->kids[1], UB_T_BOOL,
				  L->a[UB_LOOP_COND(n)]);
	for (int k = 0; k < n && !st; k++) {
		const struct ub_sx *u = &L->b->kids[k].kids[2];
		const struct ub_expr *v = L->a[UB_LOOP_VAR(n, k)];
		st = ub_cat_expr(c, u, all, &L->a[UB_LOOP_UPD(n, k)]);
		if (!st)
			st = ub_cat_typed(c, &x->kids[0], u, v->is_bool ? UB_T_BOOL
					  : UB_T_REAL, L->a[UB_LOOP_UPD(n, k)]);
	}
	if (!st)
		st = ub_cat_expr(c, &x->kids[3], all, &L->a[UB_LOOP_BODY(n)]);
	for (int k = 0; !L->seq && k < n && !st; k++) {
		const struct ub_expr *v = L->a[UB_LOOP_VAR(n, k)];
		if (!(L->a[UB_LOOP_SHADOW(n, k)] = ub_expr_new_lvar(v->num, v->is_bool)))
			st = ub_cat_oom(c);
	}
	return st;
}

static int loop(const struct ub_cat_ctx *c, const struct ub_sx *x,
		const struct ub_scope *sc, struct ub_expr **out)
{
	struct loop L = {0, ub_sx_is(&x->kids[0], "while*"), NULL, NULL, NULL};
	if (x->n != 4 || x->kids[2].kind != UB_SX_LIST)
		return fail_at(c, x, "'%s' takes a condition, a list of bindings "
			       "[name init update] and a body", x->kids[0].text);
	L.b = &x->kids[2];
	L.n = L.b->n;
	int nargs = (L.seq ? 3 : 4) * L.n + 2, st = 0;
	L.a = calloc((size_t)nargs, sizeof *L.a);
	L.sc = calloc((size_t)L.n + 1, sizeof *L.sc);
	if (!L.a || !L.sc)
		st = ub_cat_oom(c);
	if (!st)
		st = inits(c, &L, sc);
	if (!st)
		st = parts(c, x, &L, sc);
	if (!st) {
		*out = ub_expr_new_op(L.seq ? UB_WHILES : UB_WHILE, nargs, L.a);
		st = *out ? 0 : ub_cat_oom(c);
	} else {
		for (int i = 0; L.a && i < nargs; i++)
			ub_expr_free(L.a[i]);
	}
	free(L.a);
	free(L.sc);
	if (!st)
		(*out)->prec = c->prec, (*out)->rnd = c->rnd;
	return st ? st : ub_cat_depth(c, x, out);
}

/* ---- dispatch ---------------------------------------------------------- */

static const char *const tensor_forms[] = {
	"for", "for*", "tensor", "tensor*", "array", "ref", "dim", "size"};

int ub_cat_form(const struct ub_cat_ctx *c, const struct ub_sx *x,
		const struct ub_scope *sc, struct ub_expr **out, int *st)
{
	const struct ub_sx *h = &x->kids[0];
	*out = NULL;
	if (ub_sx_is(h, "!"))
		*st = annotation(c, x, sc, out);
	else if (ub_sx_is(h, "cast"))
		*st = cast(c, x, sc, out);
	else if (ub_sx_is(h, "digits"))
		*st = digits(c, x, out);
	else if (ub_sx_is(h, "while") || ub_sx_is(h, "while*"))
		*st = loop(c, x, sc, out);
	else {
		for (size_t i = 0; i < sizeof tensor_forms / sizeof tensor_forms[0]; i++)
			if (ub_sx_is(h, tensor_forms[i]))
				return *st = fail_at(c, h, "tensor form '%s' is not "
						     "supported (ulpbench tests scalar "
						     "elementwise computations)", h->text), 1;
		return 0;
	}
	return 1;
}
