/* user_roles.c — binding a kernel's array to one of several outputs, in
 * place, as an accumulator, or as scratch (kernel_roles.h), for the
 * stand-in of an op over rows, whose outputs have names (op->out_names;
 * user_kernel.h).  The canonical bindings the runs read:
 *   "OUT"                an output, written whole
 *   "OUT:inplace=IN"     starts as input IN, compared as output OUT
 *   "OUT:acc=IN"         starts as input IN, compared as IN + OUT
 *   "scratch:size=EXPR"  a buffer, not compared */
#include "user_kernel.h"
#include "kernel_roles.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ub_op_output(const struct ub_op *op, const char *name)
{
	for (int o = 0; o < op->nouts; o++)
		if (!strcmp(op->out_names[o], name))
			return o;
	return op->nouts && !strcmp(name, "out") ? 0 : -1;
}

static int input(const struct ub_op *op, const char *name)
{
	for (int k = 0; k < op->ninputs; k++)
		if (!strcmp(op->inputs[k], name))
			return k;
	return -1;
}

static int pointer(const struct ub_kparam *p)
{
	return p->kind == UB_KP_ARRAY || p->kind == UB_KP_IARRAY ||
	       (p->kind == UB_KP_OTHER && (p->code >> 8 & 3) == 1);
}

static int set(char **arg, const char *fmt, const char *a, const char *b,
	       struct ub_error *err)
{
	char buf[512];
	snprintf(buf, sizeof buf, fmt, a, b);
	return (*arg = strdup(buf)) ? 0 : ub_fail(err, UB_RUNTIME, "out of memory");
}

/* A float array written by the kernel, for output o (messages). */
static int writable(const struct ub_user_kernel *uk, const struct ub_kparam *p,
		    const char *text, struct ub_error *err)
{
	if (p->kind != UB_KP_ARRAY)
		return ub_fail(err, UB_USAGE, "%s:%d: parameter '%s' (%s) is bound to %s: an "
			       "output is an array of the dtype", uk->file, uk->kf->line,
			       p->name, p->type, text);
	if (p->is_const)
		return ub_fail(err, UB_USAGE, "%s:%d: parameter '%s' (%s) is const: it "
			       "cannot be written (%s)", uk->file, uk->kf->line, p->name,
			       p->type, text);
	return 0;
}

int ub_bind_role(const struct ub_user_kernel *uk, const struct ub_op *op,
		 const struct ub_kparam *p, const char *text, char **arg,
		 struct ub_error *err)
{
	struct ub_role r;
	int st = ub_role_parse(p->name, text, &r, err);
	if (st)
		return st;
	if (!op->nouts)
		return ub_fail(err, UB_USAGE, "--args: %s=%s: roles (%s) are for ops over "
			       "rows and FPCore ops of several outputs (docs/rowops.md); %s "
			       "has the one output out", p->name, text, ub_role_list(), op->name);
	if (r.role == UB_RL_SIZE) {
		unsigned long long v;
		if (!pointer(p))
			return ub_fail(err, UB_USAGE, "%s:%d: parameter '%s' (%s) is not a "
				       "pointer: it cannot be scratch", uk->file, uk->kf->line,
				       p->name, p->type);
		if ((st = ub_role_size(r.arg, 1, 1, 1, &v, err)))
			return st;
		return set(arg, "scratch:size=%s%s", r.arg, "", err);
	}
	int o = ub_op_output(op, r.target), in = r.role ? input(op, r.arg) : input(op, r.target);
	if (o < 0) {
		char outs[400] = "";
		for (int k = 0; k < op->nouts; k++)
			snprintf(outs + strlen(outs), sizeof outs - strlen(outs), "%s%s",
				 k ? ", " : "", op->out_names[k]);
		return ub_fail(err, UB_USAGE, "--args: %s=%s: '%s' is not an output of %s "
			       "(outputs: %s)", p->name, text, r.target, op->name, outs);
	}
	if (r.role && in < 0)
		return ub_fail(err, UB_USAGE, "--args: %s=%s: '%s' is not an input of %s",
			       p->name, text, r.arg, op->name);
	const char *out = op->out_names[o];
	if (!r.role && in >= 0 && p->is_const) /* named like both: the input */
		return set(arg, "%s%s", r.target, "", err);
	if ((st = writable(uk, p, text, err)))
		return st;
	if (!r.role && in >= 0)   /* an output named like an input: in place */
		return set(arg, "%s:inplace=%s", out, op->inputs[in], err);
	if (!r.role)
		return set(arg, "%s%s", out, "", err);
	return set(arg, r.role == UB_RL_ACC ? "%s:acc=%s" : "%s:inplace=%s", out,
		   op->inputs[in], err);
}
