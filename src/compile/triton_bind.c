/* triton_bind.c — binding a Triton kernel's parameters to an op
 * (triton.h).
 *
 * Rules, each broken one a one-line error: every value parameter (one not
 * annotated tl.constexpr) is bound exactly once, by --args, by its own
 * name or by its default, to an input of the op or out (a pointer, whose
 * element type follows --dtype), to n (the element count) or to a number
 * (a scalar: fp32 when it is written as a float, i32/i64 as an integer,
 * as Triton's launcher types a Python float or int); out exactly once and
 * every input at least once.  Every constexpr has a value: --constexpr or
 * its default.  The grid divides n by the one constexpr named like BLOCK
 * (BLOCK, XBLOCK, BLOCK_SIZE, ...) unless --grid says otherwise. */
#include "triton.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int input_of(const struct ub_op *op, const char *name)
{
	for (int i = 0; i < op->ninputs; i++)
		if (strcmp(op->inputs[i], name) == 0)
			return i;
	return -1;
}

/* A shaped op's :param (rows, cols), or NULL. */
static const struct ub_param *param_named(const struct ub_op *op, const char *name)
{
	for (int i = 0; i < op->nparams; i++)
		if (!strcmp(op->params[i].name, name))
			return &op->params[i];
	return NULL;
}

static int bindable(const struct ub_op *op, const char *name)
{
	return input_of(op, name) >= 0 || !strcmp(name, "out") || !strcmp(name, "n");
}

/* "x, g, out, n or a number" */
static const char *targets(const struct ub_op *op, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < op->ninputs && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s, ", op->inputs[i]);
	snprintf(buf + used, used < len ? len - used : 0, "out, n or a number");
	return buf;
}

/* "x_ptr, g_ptr, ..." of the parameters that are (not) constexpr. */
static const char *names(const struct ub_triton *t, int cexpr, char *buf,
			 size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < t->d.nparams && used < len; i++)
		if (t->d.params[i].is_constexpr == cexpr)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 used ? ", " : "", t->d.params[i].name);
	return used ? buf : "none";
}

static int param_of(const struct ub_triton *t, const char *name)
{
	for (int i = 0; i < t->d.nparams; i++)
		if (!strcmp(t->d.params[i].name, name))
			return i;
	return -1;
}

/* An integer written in decimal or 0x hex (as Python writes them: a
 * leading 0 is not octal); 0, or -1 when text is not one. */
static int integer(const char *text, long long *v)
{
	const char *p = text + (text[0] == '-' || text[0] == '+');
	int hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
	char *end;
	if (!isdigit((unsigned char)p[0]))
		return -1;
	errno = 0;
	*v = strtoll(text, &end, hex ? 16 : 10);
	return end != text && !*end && !errno ? 0 : -1;
}

/* A number as Triton's launcher passes it: an integer (decimal or 0x) is
 * i32 when it fits, else i64; anything else strtod reads whole is a
 * Python float, rounded to fp32 as the launcher converts it (double to
 * float).  0 and the bits and type, or -1 when text is not a number. */
static int number(const char *text, uint64_t *bits, char ty[8])
{
	char *end;
	long long i;
	if (integer(text, &i) == 0) {
		int wide = i < INT32_MIN || i > INT32_MAX;
		*bits = (uint64_t)i & (wide ? ~0ull : 0xffffffffull);
		snprintf(ty, 8, "%s", wide ? "i64" : "i32");
		return 0;
	}
	errno = 0;
	double d = strtod(text, &end);
	if (end == text || *end || isspace((unsigned char)text[0]))
		return -1;
	float f = (float)d;
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	*bits = u;
	snprintf(ty, 8, "fp32");
	return 0;
}

/* Binds value parameter k (index among all) to name: an op name or a
 * number. */
static int bind_one(struct ub_triton *t, const struct ub_op *op, int k,
		    const char *name, char **bind, struct ub_error *err)
{
	char valid[512], ty[8];
	uint64_t bits;
	if (bind[k])
		return ub_fail(err, UB_USAGE, "--args: parameter '%s' is bound twice",
			       t->d.params[k].name);
	const struct ub_param *pm = t->per_row ? param_named(op, name) : NULL;
	if (pm)  /* a shaped run's rows or cols: its value, a number */
		name = pm->text;
	if (bindable(op, name) && !pm)
		bind[k] = strdup(name);
	else if (number(name, &bits, ty) == 0) {
		char hex[32];
		snprintf(hex, sizeof hex, "=0x%llx", (unsigned long long)bits);
		bind[k] = strdup(hex);
		snprintf(t->scalar_ty[k], sizeof t->scalar_ty[k], "%s", ty);
	} else
		return ub_fail(err, UB_USAGE, "--args: %s=%s: '%s' is not an input of "
			       "%s (valid: %s)", t->d.params[k].name, name, name,
			       op->name, targets(op, valid, sizeof valid));
	return bind[k] ? 0 : ub_fail(err, UB_RUNTIME, "out of memory");
}

/* Splits "A=B,C=D" and calls fn(t, lhs, rhs) on each item. */
typedef int (*item_fn)(struct ub_triton *t, const struct ub_op *op,
		       const char *lhs, const char *rhs, char **bind,
		       struct ub_error *err);
static int each_item(const char *opt, const char *spec, item_fn fn,
		     struct ub_triton *t, const struct ub_op *op, char **bind,
		     struct ub_error *err)
{
	char *store = strdup(spec), *save;
	int s = store ? 0 : ub_fail(err, UB_RUNTIME, "out of memory");
	for (char *it = s ? NULL : strtok_r(store, ",", &save); it && !s;
	     it = strtok_r(NULL, ",", &save)) {
		it += strspn(it, " \t");
		char *eq = strchr(it, '=');
		if (!eq || eq == it || !eq[1]) {
			s = ub_fail(err, UB_USAGE, "%s: '%s' is not NAME=VALUE", opt, it);
			break;
		}
		*eq = '\0';
		s = fn(t, op, it, eq + 1, bind, err);
	}
	free(store);
	return s;
}

static int arg_item(struct ub_triton *t, const struct ub_op *op,
		    const char *lhs, const char *rhs, char **bind,
		    struct ub_error *err)
{
	char valid[512];
	int k = param_of(t, lhs);
	if (k < 0)
		return ub_fail(err, UB_USAGE, "--args: %s (%s:%d) has no parameter '%s' "
			       "(valid: %s)", t->kernel, t->file, t->d.line, lhs,
			       names(t, 0, valid, sizeof valid));
	if (t->d.params[k].is_constexpr)
		return ub_fail(err, UB_USAGE, "--args: '%s' of %s is a tl.constexpr: "
			       "give it with --constexpr %s=VALUE", lhs, t->kernel, lhs);
	return bind_one(t, op, k, rhs, bind, err);
}

/* A constexpr's value as JSON: an integer, a float, true or false. */
static int cexpr_json(const char *v, char *out, size_t len)
{
	char *end;
	long long i;
	if (integer(v, &i) == 0)
		return snprintf(out, len, "%lld", i), 0;
	if (!strcmp(v, "True") || !strcmp(v, "true") || !strcmp(v, "False") ||
	    !strcmp(v, "false"))
		return snprintf(out, len, "%s", v[0] == 'T' || v[0] == 't' ? "true" : "false"), 0;
	double d = strtod(v, &end);
	if (end == v || *end || !isfinite(d))
		return -1;
	snprintf(out, len, "%.17g", d);
	if (!strpbrk(out, ".e"))   /* 2.0 stays a float for Python: "2.0" */
		snprintf(out + strlen(out), len - strlen(out), ".0");
	return 0;
}

static int cexpr_item(struct ub_triton *t, const struct ub_op *op,
		      const char *lhs, const char *rhs, char **cx,
		      struct ub_error *err)
{
	char valid[512], json[64];
	(void)op;
	int k = param_of(t, lhs);
	if (k < 0 || !t->d.params[k].is_constexpr)
		return ub_fail(err, UB_USAGE, "--constexpr: %s (%s:%d) has no "
			       "tl.constexpr parameter '%s' (its constexprs: %s)",
			       t->kernel, t->file, t->d.line, lhs,
			       names(t, 1, valid, sizeof valid));
	if (cexpr_json(rhs, json, sizeof json))
		return ub_fail(err, UB_USAGE, "--constexpr: %s=%s: a constexpr takes "
			       "an integer, a finite float, True or False", lhs, rhs);
	if (cx[k])
		return ub_fail(err, UB_USAGE, "--constexpr: '%s' is given twice", lhs);
	return (cx[k] = strdup(json)) ? 0 : ub_fail(err, UB_RUNTIME, "out of memory");
}

/* Value parameters --args left: by own name or default; then the rules. */
static int complete(struct ub_triton *t, const struct ub_op *op, char **bind,
		    struct ub_error *err)
{
	char valid[512];
	int outs = 0, s = 0;
	for (int k = 0; k < t->d.nparams && !s; k++) {
		const struct ub_triton_param *p = &t->d.params[k];
		if (p->is_constexpr || bind[k])
			continue;
		if (bindable(op, p->name) || (t->per_row && param_named(op, p->name)))
			s = bind_one(t, op, k, p->name, bind, err);
		else if (p->has_default)
			s = bind_one(t, op, k, p->dflt, bind, err);
		else
			s = ub_fail(err, UB_USAGE, "%s:%d: parameter '%s' of %s is not "
				    "bound: add %s=NAME to --args (NAME: %s)", t->file,
				    t->d.line, p->name, t->kernel, p->name,
				    targets(op, valid, sizeof valid));
	}
	for (int k = 0; k < t->d.nparams && !s; k++)
		outs += bind[k] && !strcmp(bind[k], "out");
	if (!s && outs != 1)
		s = ub_fail(err, UB_USAGE, "%s: %s: %s parameter is bound to out "
			    "(exactly one must take the result)", t->file, t->kernel,
			    outs ? "more than one" : "no");
	for (int i = 0; i < op->ninputs && !s; i++) {
		int used = 0;
		for (int k = 0; k < t->d.nparams; k++)
			used |= bind[k] && !strcmp(bind[k], op->inputs[i]);
		if (!used)
			s = ub_fail(err, UB_USAGE, "%s: %s: input '%s' of %s is bound to no "
				    "parameter (add PARAM=%s to --args; parameters: %s)",
				    t->file, t->kernel, op->inputs[i], op->name,
				    op->inputs[i], names(t, 0, valid, sizeof valid));
	}
	return s;
}

/* Every constexpr's value (given or default) into t->constexprs (JSON)
 * and t->shown ("BLOCK=1024"). */
static int constexprs(struct ub_triton *t, char **cx, struct ub_error *err)
{
	size_t uj = 0, us = 0;
	uj += (size_t)snprintf(t->constexprs, sizeof t->constexprs, "{");
	for (int k = 0; k < t->d.nparams; k++) {
		const struct ub_triton_param *p = &t->d.params[k];
		char json[64];
		if (!p->is_constexpr)
			continue;
		if (!cx[k] && (!p->has_default || cexpr_json(p->dflt, json, sizeof json)))
			return ub_fail(err, UB_USAGE, "%s:%d: tl.constexpr '%s' of %s has "
				       "no %svalue: add --constexpr %s=VALUE", t->file,
				       t->d.line, p->name, t->kernel,
				       p->has_default ? "usable " : "", p->name);
		const char *v = cx[k] ? cx[k] : json;
		uj += (size_t)snprintf(t->constexprs + uj, sizeof t->constexprs - uj,
				       "%s\"%s\": %s", uj > 1 ? ", " : "", p->name, v);
		us += (size_t)snprintf(t->shown + us, sizeof t->shown - us, "%s%s=%s",
				       us ? " " : "", p->name, v);
		if (uj >= sizeof t->constexprs || us >= sizeof t->shown)
			return ub_fail(err, UB_USAGE, "%s: too many constexprs", t->file);
	}
	snprintf(t->constexprs + uj, sizeof t->constexprs - uj, "}");
	return 0;
}

/* The value of constexpr k as a positive integer, or 0. */
static unsigned long long cexpr_count(const struct ub_triton *t, char **cx, int k)
{
	long long v;
	return integer(cx[k] ? cx[k] : t->d.params[k].dflt, &v) == 0 && v > 0 ?
	       (unsigned long long)v : 0;
}

/* Whether a constexpr's name says it is the block size (XBLOCK, ...). */
static int blocklike(const char *name)
{
	size_t n = strlen(name);
	return (n >= 5 && !strcasecmp(name + n - 5, "BLOCK")) ||
	       (n >= 10 && !strcasecmp(name + n - 10, "BLOCK_SIZE"));
}

/* --grid N, --grid n/NAME, or the BLOCK-like constexpr. */
static int grid(struct ub_triton *t, const char *spec, char **cx,
		struct ub_error *err)
{
	char valid[512] = "";
	int k = -1, several = 0;
	if (!spec && t->per_row) { /* a shaped run: one program a row */
		t->per_program = 1;
		t->per_name[0] = '\0';
		return 0;
	}
	if (spec && strncmp(spec, "n/", 2) != 0) {
		char *end;
		unsigned long long g = strtoull(spec, &end, 10);
		if (end == spec || *end || g < 1 || g > UB_MAX_GRID || spec[0] == '-')
			return ub_fail(err, UB_USAGE, "--grid: '%s' is not a number of "
				       "programs (1 to %u) or n/NAME", spec, UB_MAX_GRID);
		t->grid = (unsigned)g;
		return 0;
	}
	for (int i = 0; i < t->d.nparams; i++)
		if (t->d.params[i].is_constexpr &&
		    (spec ? !strcmp(spec + 2, t->d.params[i].name) : blocklike(t->d.params[i].name))) {
			several |= k >= 0;
			k = i;
		}
	if (k < 0 || several)
		return ub_fail(err, UB_USAGE, "%s:%d: %s: %s: say how many programs to "
			       "launch with --grid N or --grid n/NAME (its constexprs: %s)",
			       t->file, t->d.line, t->kernel, spec ? "no such constexpr" :
			       several ? "several constexprs are named like BLOCK" :
			       "no constexpr is named like BLOCK (XBLOCK, BLOCK_SIZE)",
			       names(t, 1, valid, sizeof valid));
	t->per_program = cexpr_count(t, cx, k);
	snprintf(t->per_name, sizeof t->per_name, "%s", t->d.params[k].name);
	if (!t->per_program)
		return ub_fail(err, UB_USAGE, "%s: %s: constexpr %s must be a positive "
			       "integer to divide n into programs", t->file, t->kernel,
			       t->per_name);
	return 0;
}

/* --args, defaults, --constexpr and --grid into t. */
int ub_triton_bind_params(struct ub_triton *t, const struct ub_triton_req *req,
			  const struct ub_op *op, struct ub_error *err)
{
	char *bind[UB_TRITON_MAX_PARAMS] = {0}, *cx[UB_TRITON_MAX_PARAMS] = {0};
	int s = 0;
	t->per_row = req->per_row;
	if (req->args)
		s = each_item("--args", req->args, arg_item, t, op, bind, err);
	if (!s && req->constexprs)
		s = each_item("--constexpr", req->constexprs, cexpr_item, t, op, cx, err);
	if (!s)
		s = complete(t, op, bind, err);
	if (!s)
		s = constexprs(t, cx, err);
	if (!s)
		s = grid(t, req->grid, cx, err);
	for (int k = 0; k < t->d.nparams; k++) {
		if (!s && !t->d.params[k].is_constexpr) {
			t->args[t->nargs] = bind[k];
			memmove(t->scalar_ty[t->nargs], t->scalar_ty[k], sizeof t->scalar_ty[k]);
			t->nargs++;
		} else {
			free(bind[k]);
		}
		free(cx[k]);
	}
	return s;
}
