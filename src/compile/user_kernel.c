/* user_kernel.c — bind a user's kernel file to an op (see user_kernel.h).
 *
 * Rules, each broken one a one-line error: every parameter is bound
 * exactly once (by --args or by its own name); an array binds to an input
 * or to out (out:acc: an output the kernel accumulates into, which starts
 * at +0 and may be read), an integer to n or a whole number, a float or bool value to
 * a number or one of the op's :params; a const array is never out; out is
 * bound exactly once and every input the op's math needs at least once;
 * the arrays are all of one element type, the dtype that --dtype asks for
 * (f32 by default).  Values are checked where they are read (user_value.c). */
#include "user_kernel.h"
#include "dag.h"
#include "kernel_roles.h"
#include "launcher.h"
#include "torch_ext.h"
#include "triton.h"
#include "paths.h"

#include <limits.h>
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

static int param_of_op(const struct ub_op *op, const char *name)
{
	for (int i = 0; i < op->nparams; i++)
		if (strcmp(op->params[i].name, name) == 0)
			return i;
	return -1;
}

static int saved_of(const struct ub_op *op, const char *name)
{
	for (int i = 0; i < op->nsaved; i++)
		if (strcmp(op->saved[i].name, name) == 0)
			return i;
	return -1;
}

/* The roles a binding may give its target (PARAM=TARGET:ROLE),
 * declared once: X(role, the target it applies to, what it means). */
#define UB_BIND_ROLES(X)                                                    \
	X("acc", "out", "the kernel accumulates into its output (+=, "         \
	  "atomicAdd): it starts at +0 and may be read")

/* Whether name is out, with a role or without. */
static int is_out(const char *name)
{
	return !strcmp(name, "out") || !strcmp(name, "out:acc");
}

/* A name an array may take: an input (saved ones too), out, or one of
 * the named outputs of an op over rows. */
static int array_target(const struct ub_op *op, const char *name)
{
	return input_of(op, name) >= 0 || saved_of(op, name) >= 0 || is_out(name) ||
	       ub_op_output(op, name) >= 0;
}

/* TARGET:ROLE in name (from --args): a role it knows for that target,
 * else UB_USAGE naming it and the valid ones. */
static int role_ok(const char *param, const char *name, struct ub_error *err)
{
	const char *colon = strchr(name, ':');
	if (!colon)
		return 0;
#define X(role, target, what)                                               \
	if (!strcmp(colon + 1, role) && strlen(target) == (size_t)(colon - name) && \
	    !strncmp(name, target, (size_t)(colon - name)))                    \
		return 0;
	UB_BIND_ROLES(X)
#undef X
	return ub_fail(err, UB_USAGE, "--args: %s=%s: no role '%s' for %.*s (roles: "
#define X(role, target, what) "%s:" role " (" what ")"
		       UB_BIND_ROLES(X)
#undef X
		       "; roles (%s) are for ops over rows and FPCore ops of several "
		       "outputs, docs/rowops.md)", param, name, colon + 1,
		       (int)(colon - name), name
#define X(role, target, what) , target
		       UB_BIND_ROLES(X)
#undef X
		       , ub_role_list());
}

/* "x, g, y, out" (an array's targets) or "n" (an integer's); the named
 * outputs in out's place. */
static const char *targets(const struct ub_op *op, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < op->ninputs && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s, ", op->inputs[i]);
	for (int i = 0; i < op->nsaved && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s, ", op->saved[i].name);
	for (int o = 0; o < op->nouts && used < len; o++)
		if (input_of(op, op->out_names[o]) < 0)
			used += (size_t)snprintf(buf + used, len - used, "%s, ", op->out_names[o]);
	snprintf(buf + used, used < len ? len - used : 0, "%sn", op->nouts ? "" : "out, ");
	return buf;
}

/* For an op over rows, the roles an array may take besides (messages). */
static const char *roles_too(const struct ub_op *op, char *buf, size_t len)
{
	if (op->nouts)
		snprintf(buf, len, "; or a role: %s (docs/user-kernels.md)", ub_role_list());
	else if (len)
		buf[0] = '\0';
	return buf;
}

/* "alpha, beta" or "none" */
static const char *param_names_of_op(const struct ub_op *op, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < op->nparams && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
					 op->params[i].name);
	return op->nparams ? buf : "none";
}

/* "in, dout, din, N" */
static const char *param_names(const struct ub_kfound *k, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < k->nparams && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
					 k->params[i].name);
	return buf;
}

static int param_of(const struct ub_kfound *k, const char *name, size_t len)
{
	for (int i = 0; i < k->nparams; i++)
		if (strlen(k->params[i].name) == len &&
		    !strncmp(k->params[i].name, name, len))
			return i;
	return -1;
}

/* What the op's input or saved input `name` is, or NULL if none. */
static const char *input_doc(const struct ub_op *op, const char *name)
{
	int i = input_of(op, name), j = saved_of(op, name);
	return i >= 0 ? (op->input_doc[i] ? op->input_doc[i] : "an input")
		      : j >= 0 ? op->saved[j].desc : NULL;
}

/* A parameter named like one input of the op and bound to another is
 * almost surely a mistake (a kernel's y is the forward output, not x):
 * refused unless the target ends in '!'. */
static int misnamed(const struct ub_user_kernel *uk, const struct ub_op *op,
		    const struct ub_kparam *p, char *name, struct ub_error *err)
{
	size_t l = strlen(name);
	if (l > 1 && name[l - 1] == '!') {
		name[l - 1] = '\0';
		return 0;
	}
	const char *mine = input_doc(op, p->name), *theirs = input_doc(op, name);
	if (!mine || !theirs || !strcmp(p->name, name))
		return 0;
	return ub_fail(err, UB_USAGE, "--args: parameter '%s' of %s has the name of "
		       "%s's input %s (%s) but is bound to %s (%s): bind %s=%s, or "
		       "write %s=%s! if that is what the kernel means", p->name,
		       uk->kf->base, op->name, p->name, mine, name, theirs, p->name,
		       p->name, p->name, name);
}

/* A role that role_ok refused for an op of one output: one of an op over
 * rows (kernel_roles.h) says so (ub_bind_role's message), else role_ok's
 * message stands.  UB_USAGE. */
static int row_role(const struct ub_user_kernel *uk, const struct ub_op *op,
		    const struct ub_kparam *p, const char *name, struct ub_error *err)
{
	struct ub_role r;
	struct ub_error quiet;
	char *arg = NULL;
	if (ub_role_parse(p->name, name, &r, &quiet))
		return UB_USAGE;
	int s = ub_bind_role(uk, op, p, name, &arg, err);
	free(arg);
	return s ? s : UB_USAGE;
}

/* --args "PARAM=NAME,...": bind[k] = NAME for each PARAM k named. */
static int parse_spec(const char *spec, const struct ub_user_kernel *uk,
		      const struct ub_op *op, const char **bind, char *store,
		      struct ub_error *err)
{
	char valid[512];
	const struct ub_kfound *k = uk->kf;
	strcpy(store, spec);
	for (char *save, *it = strtok_r(store, ",", &save); it;
	     it = strtok_r(NULL, ",", &save)) {
		it += strspn(it, " \t");
		char *eq = strchr(it, '='), *name = eq ? eq + 1 : NULL;
		size_t plen = eq ? (size_t)(eq - it) : 0;
		while (plen && (it[plen - 1] == ' ' || it[plen - 1] == '\t'))
			plen--;
		if (name) {
			name += strspn(name, " \t");
			name[strcspn(name, " \t")] = '\0';
		}
		if (!eq || !plen || !*name)
			return ub_fail(err, UB_USAGE, "--args: '%s' is not PARAM=NAME "
				       "(e.g. in=x,dout=g,din=out,N=n,alpha=0.5)", it);
		int p = param_of(k, it, plen);
		if (p < 0)
			return ub_fail(err, UB_USAGE, "--args: %s (%s:%d) has no parameter "
				       "'%.*s' (valid: %s)", k->shown, uk->file, k->line,
				       (int)plen, it, param_names(k, valid, sizeof valid));
		if (bind[p])
			return ub_fail(err, UB_USAGE, "--args: parameter '%s' is bound "
				       "twice", k->params[p].name);
		if (misnamed(uk, op, &k->params[p], name, err))
			return UB_USAGE;
		if (!op->nouts && role_ok(k->params[p].name, name, err))
			return row_role(uk, op, &k->params[p], name, err);
		bind[p] = name;
	}
	return 0;
}

/* A parameter's own name, when it is one the parameter may take. */
static const char *by_name(const struct ub_op *op, const struct ub_kparam *p)
{
	switch (p->kind) {
	case UB_KP_ARRAY: case UB_KP_IARRAY:
		return array_target(op, p->name) ? p->name : NULL;
	case UB_KP_INT: return !strcmp(p->name, "n") || param_of_op(op, p->name) >= 0
			       ? p->name : NULL;
	case UB_KP_FLOAT: case UB_KP_BOOL:
		return param_of_op(op, p->name) >= 0 ? p->name : NULL;
	default: return NULL;
	}
}

/* How to bind p, for messages: "NAME: x, g, out" and the like. */
static const char *how(const struct ub_op *op, const struct ub_kparam *p,
		       char *buf, size_t len)
{
	char t[400], q[200], r[200];
	if (p->kind == UB_KP_ARRAY || (p->kind == UB_KP_IARRAY && op->nouts))
		snprintf(buf, len, "%s=NAME to --args (NAME: %s)%s", p->name,
			 targets(op, t, sizeof t), roles_too(op, r, sizeof r));
	else if (p->kind == UB_KP_INT)
		snprintf(buf, len, "%s=n (the element count) or %s=VALUE to --args",
			 p->name, p->name);
	else
		snprintf(buf, len, "%s=VALUE to --args (a number%s%s%s)", p->name,
			 op->nparams ? ", or one of the op's :params: " : "",
			 op->nparams ? param_names_of_op(op, q, sizeof q) : "", "");
	return buf;
}

/* A launcher's cudaStream_t (a pointer to the incomplete CUstream_st). */
static int stream(const struct ub_kparam *p)
{
	return p->kind == UB_KP_OTHER && (p->code >> 8 & 3) == 1 && p->size == 0 &&
	       (strstr(p->type, "Stream") || strstr(p->type, "stream"));
}

/* An array of integers takes class indices (and only them): 32 or 64
 * bits, as PyTorch's int64 targets or an int kernel's. */
static int int_array_fits(const struct ub_user_kernel *uk, const struct ub_op *op,
			  const struct ub_kparam *p, const char *name,
			  struct ub_error *err)
{
	int k = input_of(op, name);
	int is_class = k >= 0 && (op->in_class >> k & 1);
	if (p->kind == UB_KP_IARRAY && !is_class)
		return ub_fail(err, UB_USAGE, "%s:%d: parameter '%s' (%s) is an array of "
			       "integers: it can take class indices only, not %s",
			       uk->file, uk->kf->line, p->name, p->type, name);
	if (p->kind == UB_KP_ARRAY && is_class)
		return ub_fail(err, UB_USAGE, "%s:%d: parameter '%s' (%s) takes %s, which "
			       "holds class indices: make it an array of integers "
			       "(const int * or const int64_t *)", uk->file, uk->kf->line,
			       p->name, p->type, name);
	if (p->kind == UB_KP_IARRAY && p->bits != 32 && p->bits != 64 &&
	    !(p->bits == 8 && !p->is_signed && op->nouts))
		return ub_fail(err, UB_USAGE, "%s:%d: parameter '%s' (%s): class indices "
			       "are passed as 32- or 64-bit integers%s", uk->file,
			       uk->kf->line, p->name, p->type, op->nouts ?
			       " (ids and masks also as uint8_t)" : "");
	return 0;
}

/* Array parameter p (k-th) may take NAME. */
static int array_fits(const struct ub_user_kernel *uk, const struct ub_op *op,
		      const struct ub_kparam *p, const char *name,
		      struct ub_error *err)
{
	char valid[512], r[200];
	if (array_target(op, name) && int_array_fits(uk, op, p, name, err))
		return UB_USAGE;
	if (!array_target(op, name))
		return ub_fail(err, UB_USAGE, "%s:%d: parameter '%s' (%s) is an array: "
			       "bind it to an input or out (valid: %s), not %s%s",
			       uk->file, uk->kf->line, p->name, p->type,
			       targets(op, valid, sizeof valid), name, roles_too(op, r, sizeof r));
	if (is_out(name) && p->is_const)
		return ub_fail(err, UB_USAGE, "%s:%d: parameter '%s' (%s) is const: it "
			       "cannot be the output out", uk->file, uk->kf->line,
			       p->name, p->type);
	return 0;
}

/* Parameter p takes NAME: into *arg ("x", "out", "n" or "=0xBITS"). */
static int fits(const struct ub_user_kernel *uk, const struct ub_op *op,
		const struct ub_kparam *p, const char *name, char **arg,
		struct ub_error *err)
{
	char buf[64];
	uint64_t bits;
	int s = 0, pk = param_of_op(op, name);
	const char *at = uk->file;
	if (uk->is_launcher && stream(p) && !strcmp(name, "0"))
		return (*arg = strdup("=0")) ? 0 : ub_fail(err, UB_RUNTIME, "out of memory");
	if ((strchr(name, ':') && op->nouts) || (op->nouts && ub_op_output(op, name) >= 0 &&
				  !(p->is_const && input_of(op, name) >= 0)))
		return ub_bind_role(uk, op, p, name, arg, err);
	if (p->kind == UB_KP_OTHER || (p->kind == UB_KP_IARRAY && !op->in_class))
		return ub_fail(err, UB_USAGE, "%s:%d: parameter '%s' of %s has type %s: "
			       "ulpbench binds arrays of float, double, __half or "
			       "__nv_bfloat16 (or of a struct of one of them), integers, "
			       "floating-point values and bools", at, uk->kf->line,
			       p->name, uk->kf->base, p->type);
	if (p->kind == UB_KP_ARRAY || p->kind == UB_KP_IARRAY)
		s = array_fits(uk, op, p, name, err);
	else if (p->kind == UB_KP_INT && !strcmp(name, "n"))
		s = 0;
	else if (array_target(op, name))
		return ub_fail(err, UB_USAGE, "%s:%d: parameter '%s' (%s) is %s: bind "
			       "it to %s, not %s", at, uk->kf->line, p->name, p->type,
			       p->kind == UB_KP_INT ? "an integer" : "a value",
			       p->kind == UB_KP_INT ? "n or a number" : "a number",
			       name);
	else if ((s = ub_kparam_value(p, pk >= 0 ? op->params[pk].text : name, &bits,
				      err)) == 0)
		snprintf(buf, sizeof buf, "=0x%llx", (unsigned long long)bits);
	if (s)
		return s;
	return (*arg = strdup(p->kind == UB_KP_ARRAY || p->kind == UB_KP_IARRAY ||
			      !strcmp(name, "n") ? name : buf))
		? 0 : ub_fail(err, UB_RUNTIME, "out of memory");
}

/* Whether the exact math of the run reads variable v (then the kernel
 * must take it): every sampled input, or with a saved input taken, those
 * :saved-math reads (v counts the sampled inputs, then the saved ones). */
static int needed(const struct ub_op *op, int use_saved, int v)
{
	const struct ub_dag *d;
	struct ub_error e;
	if (!use_saved)
		return v < op->nsampled;
	if (ub_expr_dag(op->saved_math, &d, &e))
		return 1;
	for (int i = 0; i < d->n; i++)
		if (d->node[i]->kind == UB_E_VAR && d->node[i]->var == v)
			return 1;
	return 0;
}

/* Whether some parameter takes input name: bound to it, or starting as
 * it (OUT:inplace=name, OUT:acc=name). */
static int takes(const struct ub_user_kernel *uk, const char *name)
{
	for (int j = 0; j < uk->nargs; j++) {
		const char *eq = strchr(uk->args[j], ':') ? strchr(uk->args[j], '=') : NULL;
		if (!strcmp(uk->args[j], name) || (eq && strncmp(uk->args[j], "scratch:", 8) &&
						   !strcmp(eq + 1, name)))
			return 1;
	}
	return 0;
}

/* Whether some parameter is bound to name. */
static int bound_to(const struct ub_kfound *k, const char **bind, const char *name)
{
	for (int j = 0; j < k->nparams; j++)
		if (!strcmp(bind[j], name))
			return 1;
	return 0;
}

/* An op over rows: each named output taken by exactly one parameter. */
static int outputs_bound(struct ub_user_kernel *uk, const struct ub_op *op,
			 struct ub_error *err)
{
	for (int o = 0; o < op->nouts; o++) {
		int n = 0;
		size_t l = strlen(op->out_names[o]);
		int in = input_of(op, op->out_names[o]) >= 0; /* "NAME" alone: the input */
		for (int i = 0; i < uk->nargs; i++)
			n += !strncmp(uk->args[i], op->out_names[o], l) &&
			     ((uk->args[i][l] == '\0' && !in) || uk->args[i][l] == ':');
		if (n != 1)
			return ub_fail(err, UB_USAGE, "%s: %s: %s parameter is bound to output "
				       "%s (exactly one must take it: P=%s, or P=%s:inplace=INPUT)",
				       uk->file, uk->kf->base, n ? "more than one" : "no",
				       op->out_names[o], op->out_names[o], op->out_names[o]);
	}
	return 0;
}

/* Every parameter bound and fitting; out once; every input used. */
static int complete(struct ub_user_kernel *uk, const struct ub_op *op,
		    const char **bind, struct ub_error *err)
{
	char valid[512];
	int outs = 0, st = 0;
	const struct ub_kfound *k = uk->kf;
	for (int i = 0; i < k->nparams && !st; i++) {
		const struct ub_kparam *p = &k->params[i];
		if (!bind[i])
			bind[i] = by_name(op, p);
		if (!bind[i] && uk->is_launcher && stream(p))
			bind[i] = "0";   /* a launcher's stream: the default one */
		if (!bind[i] && (p->kind == UB_KP_OTHER ||
				 (p->kind == UB_KP_IARRAY && !op->in_class)))
			bind[i] = "";   /* fits() says why */
		if (!bind[i])
			return ub_fail(err, UB_USAGE, "%s:%d: parameter '%s' of %s is not "
				       "bound: add %s", uk->file, k->line, p->name, k->base,
				       how(op, p, valid, sizeof valid));
		st = fits(uk, op, p, bind[i], &uk->args[i], err);
		uk->nargs = st ? i : i + 1;
		outs += !st && is_out(bind[i]);
	}
	if (!st && op->nouts)
		st = outputs_bound(uk, op, err);
	else if (!st && outs != 1)
		st = ub_fail(err, UB_USAGE, "%s: %s: %s parameter is bound to out "
			     "(exactly one must take the result)", uk->file, k->base,
			     outs ? "more than one" : "no");
	int use_saved = 0;
	for (int i = 0; i < op->nsaved; i++)
		use_saved |= bound_to(k, bind, op->saved[i].name);
	for (int v = 0; v < op->nsampled + op->nsaved && !st; v++) {
		const char *name = v < op->nsampled ? op->inputs[v]
						    : op->saved[v - op->nsampled].name;
		if (needed(op, use_saved, v) && !takes(uk, name))
			st = ub_fail(err, UB_USAGE, "%s: %s: input '%s' of %s is bound to "
				     "no parameter (add PARAM=%s to --args; parameters: %s)",
				     uk->file, k->base, name, op->name, name,
				     param_names(k, valid, sizeof valid));
	}
	uk->use_saved = use_saved;
	return st;
}

/* The arrays' one element dtype, which every dtype of cfg must be (but
 * arrays of the op's float32 inputs: float whatever the dtype). */
static int dtype(const struct ub_user_kernel *uk, const struct ub_op *op,
		 const struct ub_config *cfg, int *dt, struct ub_error *err)
{
	const struct ub_kfound *k = uk->kf;
	*dt = -1;
	for (int i = 0; i < k->nparams; i++) {
		const struct ub_kparam *p = &k->params[i];
		int in = input_of(op, uk->args[i]);
		if (p->kind != UB_KP_ARRAY || !strncmp(uk->args[i], "scratch:", 8))
			continue;
		if (in >= 0 && (op->in_f32 >> in & 1)) {
			if (p->dtype != UB_F32)
				return ub_fail(err, UB_USAGE, "%s:%d: parameter '%s' (%s) "
					       "takes %s, which is float32 whatever the "
					       "dtype: make it const float *", uk->file,
					       k->line, p->name, p->type, uk->args[i]);
			continue;
		}
		if (*dt >= 0 && p->dtype != *dt)
			return ub_fail(err, UB_USAGE, "%s:%d: %s mixes %s and %s arrays: "
				       "ulpbench tests one dtype at a time", uk->file,
				       k->line, k->base, ub_dtypes[*dt].ctype,
				       ub_dtypes[p->dtype].ctype);
		*dt = p->dtype;
	}
	if (*dt < 0)
		return ub_fail(err, UB_USAGE, "%s: %s takes no array", uk->file, k->base);
	for (int t = 0; t < cfg->ndtypes; t++)
		if (cfg->dtypes[t] != (enum ub_dtype)*dt)
			return ub_fail(err, UB_USAGE, "%s: %s takes %s arrays (%s), not "
				       "%s: run it with --dtype %s", uk->file, k->base,
				       ub_dtypes[*dt].ctype, ub_dtypes[*dt].name,
				       ub_dtypes[cfg->dtypes[t]].name, ub_dtypes[*dt].name);
	return 0;
}

/* An integer parameter bound to n must hold every n of the run. */
static int fits_n(const struct ub_user_kernel *uk, const struct ub_config *cfg,
		  struct ub_error *err)
{
	for (int i = 0; i < uk->kf->nparams; i++) {
		const struct ub_kparam *p = &uk->kf->params[i];
		if (p->kind != UB_KP_INT || strcmp(uk->args[i], "n") || cfg->nfiles)
			continue;
		int vb = p->bits - p->is_signed;
		if (vb < 64 && cfg->n > (((uint64_t)1 << vb) - 1))
			return ub_fail(err, UB_USAGE, "%s: %s: -n %zu does not fit "
				       "parameter '%s' (%s)", uk->file, uk->kf->base, cfg->n,
				       p->name, p->type);
	}
	return 0;
}

static int bind_all(struct ub_user_kernel *uk, const struct ub_op *op,
		    const struct ub_config *cfg, const char *spec, int *dt,
		    struct ub_error *err)
{
	const char *bind[UB_KSIG_MAX_PARAMS] = {0};
	char *store = malloc(strlen(spec ? spec : "") + 1);
	int st = store ? 0 : ub_fail(err, UB_RUNTIME, "out of memory");
	if (!st && (!(uk->args = calloc((size_t)uk->kf->nparams + 1, sizeof *uk->args)) ||
		    !(uk->pnames = calloc((size_t)uk->kf->nparams + 1, sizeof *uk->pnames))))
		st = ub_fail(err, UB_RUNTIME, "out of memory");
	for (int i = 0; !st && i < uk->kf->nparams; i++)
		uk->pnames[i] = uk->kf->params[i].name;
	if (!st && spec)
		st = parse_spec(spec, uk, op, bind, store, err);
	if (!st)
		st = complete(uk, op, bind, err);
	if (!st)
		st = dtype(uk, op, cfg, dt, err);
	if (!st)
		st = fits_n(uk, cfg, err);
	free(store);
	return st;
}

/* The file, its absolute path and the unit that #includes it. */
static int read_kernel(const struct ub_kernel_req *req, const struct ub_config *cfg,
		       struct ub_user_kernel *uk, struct ub_error *err)
{
	char abs[PATH_MAX];
	int st = ub_read_file(req->file, &uk->src, err);
	if (!st && !realpath(req->file, abs))
		st = ub_fail(err, UB_USAGE, "%s: cannot read", req->file);
	if (!st && (!(uk->file = strdup(req->file)) || !(uk->abspath = strdup(abs))))
		st = ub_fail(err, UB_RUNTIME, "out of memory");
	if (st)
		return st;
	size_t n = 2 * strlen(abs) + 32;
	char *text = malloc(n), *q = text;
	if (!text)
		return ub_fail(err, UB_RUNTIME, "out of memory");
	q += sprintf(q, "#include \"");
	for (const char *p = abs; *p; p++) {   /* a C string literal */
		if (*p == '"' || *p == '\\')
			*q++ = '\\';
		*q++ = *p;
	}
	strcpy(q, "\"\n");
	if (!(uk->unit = calloc(1, sizeof *uk->unit)) || !(uk->kf = calloc(1, sizeof *uk->kf))) {
		free(text);
		return ub_fail(err, UB_RUNTIME, "out of memory");
	}
	*uk->unit = (struct ub_nvcc_unit){ .text = text, .file = uk->file,
					   .abspath = uk->abspath };
	for (int i = 0; i < req->nflags && i < UB_NVCC_MAX_FLAGS; i++)
		if ((uk->unit->flags[uk->unit->nflags] = strdup(req->flags[i])))
			uk->unit->nflags++;
	if (uk->unit->nflags < req->nflags) {
		free(text);
		return ub_fail(err, UB_RUNTIME, "out of memory");
	}
	if (ub_torch_ext_uses(uk->src) &&   /* as cpp_extension builds it */
	    (st = ub_torch_ext_flags(uk->file, ub_torch_python(req->python), uk->unit,
				     err)) != 0) {
		free(text);
		return st;
	}
	/* the modes the run compiles, side by side with the probe's own
	 * (nvcc.h; rn only where it means something, ub_mode_na) */
	const char *warm[UB_NMODES + 1] = { NULL };
	for (int m = 0, w = 0; m < cfg->nmodes; m++) {
		int applies = 0;   /* to one of the run's dtypes (native16) */
		for (int t = 0; t < cfg->ndtypes; t++)
			applies |= ub_mode_applies(cfg->modes[m], cfg->dtypes[t]);
		if (applies && (cfg->modes[m] != UB_MODE_RN || ub_ksig_uses_macros(uk->src)))
			warm[w++] = ub_modes[cfg->modes[m]].opts;
	}
	uk->unit->warm = warm;
	uk->unit->progress = cfg->progress;
	uk->unit->progress_ctx = cfg->progress_ctx;
	st = req->launcher ? ub_launcher_find(uk->unit, uk->src, req->launcher, cfg->arch,
					      uk->kf, err)
			   : ub_kernel_find(uk->unit, uk->src, req->entry, cfg->arch, uk->kf, err);
	uk->unit->warm = NULL;
	free(text);
	uk->unit->text = uk->kf->unit;   /* what every mode compiles */
	return st;
}

int ub_user_kernel_bind(const struct ub_kernel_req *req, struct ub_op *op,
			struct ub_config *cfg, struct ub_user_kernel *uk,
			struct ub_error *err)
{
	if (cfg->ndtypes > 1)   /* each dtype its kernel (kernel_dtypes.c) */
		return ub_user_kernel_bind_dtypes(req, op, cfg, uk, err);
	return ub_user_kernel_bind_one(req, op, cfg, uk, err);
}

int ub_user_kernel_bind_one(const struct ub_kernel_req *req, struct ub_op *op,
			    struct ub_config *cfg, struct ub_user_kernel *uk,
			    struct ub_error *err)
{
	int dt = UB_F32;
	memset(uk, 0, sizeof *uk);
	int st = read_kernel(req, cfg, uk, err);
	uk->is_launcher = req->launcher != NULL;
	if (!st)
		st = bind_all(uk, op, cfg, req->args, &dt, err);
	if (!st && req->launcher)
		st = ub_launcher_load(uk->unit, req->launcher, &uk->launcher, err);
	if (st)
		return st;
	op->kernel = uk->file;
	op->entry = uk->kf->entry;
	op->entry_shown = uk->kf->shown;
	op->args = uk->args;
	op->nargs = uk->nargs;
	op->arg_params = (const char *const *)uk->pnames;
	op->kernel_dtypes = 1u << dt;
	op->use_saved = uk->use_saved;
	cfg->kernel_src = uk->src;
	cfg->kernel_unit = uk->unit;
	cfg->launcher = uk->launcher;
	return 0;
}

int ub_user_kernel_triton(const struct ub_triton_req *req, struct ub_op *op,
			  struct ub_config *cfg, struct ub_user_kernel *uk,
			  struct ub_error *err)
{
	memset(uk, 0, sizeof *uk);
	if (!(uk->triton = calloc(1, sizeof *uk->triton)))
		return ub_fail(err, UB_RUNTIME, "out of memory");
	return ub_triton_bind(req, op, cfg, uk->triton, err);
}

void ub_user_kernel_free(struct ub_user_kernel *uk)
{
	ub_kernel_dtypes_free(uk->dtypes);
	if (uk->triton)
		ub_triton_free(uk->triton);
	ub_launcher_free(uk->launcher);
	free(uk->triton);
	free(uk->src);
	free(uk->file);
	free(uk->abspath);
	for (int k = 0; uk->args && uk->kf && k < uk->kf->nparams; k++)
		free(uk->args[k]);
	if (uk->kf)
		ub_kfound_free(uk->kf);
	free(uk->kf);
	for (int i = 0; uk->unit && i < uk->unit->nflags; i++)
		free((char *)uk->unit->flags[i]);
	free(uk->unit);
	free(uk->args);
	free(uk->pnames);
	memset(uk, 0, sizeof *uk);
}
