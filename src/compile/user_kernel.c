/* user_kernel.c — bind a user's kernel file to an op (see user_kernel.h).
 *
 * Rules, each broken one a one-line error: every parameter is bound
 * exactly once (by --args or by its own name); a pointer binds to an input
 * or to out, an integer to n; a const pointer is never out; out is bound
 * exactly once and every input at least once; the arrays are all of one
 * element type, the dtype that --dtype asks for (f32 by default). */
#include "user_kernel.h"
#include "triton.h"
#include "paths.h"

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

static int bindable(const struct ub_op *op, const char *name)
{
	return input_of(op, name) >= 0 || !strcmp(name, "out") || !strcmp(name, "n");
}

/* "x, g, out, n" */
static const char *targets(const struct ub_op *op, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < op->ninputs && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s, ", op->inputs[i]);
	snprintf(buf + used, used < len ? len - used : 0, "out, n");
	return buf;
}

/* "in, dout, din, N" */
static const char *param_names(const struct ub_ksig *sig, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < sig->nparams && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
					 sig->params[i].name);
	return buf;
}

static int param_of(const struct ub_ksig *sig, const char *name, size_t len)
{
	for (int i = 0; i < sig->nparams; i++)
		if (strlen(sig->params[i].name) == len &&
		    !strncmp(sig->params[i].name, name, len))
			return i;
	return -1;
}

/* --args "PARAM=NAME,...": bind[k] = NAME for each PARAM k named. */
static int parse_spec(const char *spec, const struct ub_user_kernel *uk,
		      const struct ub_op *op, const char **bind, char *store,
		      struct ub_error *err)
{
	char valid[512];
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
				       "(e.g. in=x,dout=g,din=out,N=n)", it);
		int k = param_of(&uk->sig, it, plen);
		if (k < 0)
			return ub_fail(err, UB_USAGE, "--args: %s (%s:%d) has no parameter "
				       "'%.*s' (valid: %s)", uk->entry, uk->file, uk->sig.line,
				       (int)plen, it, param_names(&uk->sig, valid, sizeof valid));
		if (bind[k])
			return ub_fail(err, UB_USAGE, "--args: parameter '%s' is bound "
				       "twice", uk->sig.params[k].name);
		if (!bindable(op, name))
			return ub_fail(err, UB_USAGE, "--args: '%s' is not an input of %s, "
				       "out or n (valid: %s)", name, op->name,
				       targets(op, valid, sizeof valid));
		bind[k] = name;
	}
	return 0;
}

/* Parameter k may take NAME: arrays take inputs and out, integers n. */
static int kind_fits(const struct ub_user_kernel *uk, const struct ub_op *op,
		     int k, const char *name, struct ub_error *err)
{
	const struct ub_kparam *p = &uk->sig.params[k];
	char valid[512];
	const char *at = uk->file;
	int n = !strcmp(name, "n"), out = !strcmp(name, "out");
	if (p->kind == UB_KP_OTHER)
		return ub_fail(err, UB_USAGE, "%s:%d: parameter '%s' of %s has type "
			       "%s: ulpbench binds arrays (float, double, __half or "
			       "__nv_bfloat16 pointers) and the element count (an "
			       "integer)", at, uk->sig.line, p->name, uk->entry, p->type);
	if (p->kind == UB_KP_ARRAY && p->dtype < 0)
		return ub_fail(err, UB_USAGE, "%s:%d: parameter '%s' of %s is %s: "
			       "arrays must hold float, double, __half or __nv_bfloat16",
			       at, uk->sig.line, p->name, uk->entry, p->type);
	if (p->kind == UB_KP_ARRAY && n)
		return ub_fail(err, UB_USAGE, "%s:%d: parameter '%s' (%s) is an array: "
			       "bind it to an input or out (valid: %s), not n", at,
			       uk->sig.line, p->name, p->type, targets(op, valid, sizeof valid));
	if (p->kind == UB_KP_INT && !n)
		return ub_fail(err, UB_USAGE, "%s:%d: parameter '%s' (%s) is an integer: "
			       "bind it to n, not %s", at, uk->sig.line, p->name, p->type, name);
	if (p->kind == UB_KP_ARRAY && out && p->is_const)
		return ub_fail(err, UB_USAGE, "%s:%d: parameter '%s' (%s) is const: it "
			       "cannot be the output out", at, uk->sig.line, p->name, p->type);
	return 0;
}

/* Every parameter bound and fitting; out once; every input used. */
static int complete(const struct ub_user_kernel *uk, const struct ub_op *op,
		    const char **bind, struct ub_error *err)
{
	char valid[512];
	int outs = 0, st = 0;
	for (int k = 0; k < uk->sig.nparams && !st; k++) {
		const char *name = uk->sig.params[k].name;
		if (!bind[k] && bindable(op, name))
			bind[k] = name;
		if (!bind[k])
			return ub_fail(err, UB_USAGE, "%s:%d: parameter '%s' of %s is not "
				       "bound: add %s=NAME to --args (NAME: %s)", uk->file,
				       uk->sig.line, name, uk->entry, name,
				       targets(op, valid, sizeof valid));
		st = kind_fits(uk, op, k, bind[k], err);
		outs += !strcmp(bind[k], "out");
	}
	if (!st && outs != 1)
		st = ub_fail(err, UB_USAGE, "%s: %s: %s parameter is bound to out "
			     "(exactly one must take the result)", uk->file, uk->entry,
			     outs ? "more than one" : "no");
	for (int i = 0; i < op->ninputs && !st; i++) {
		int used = 0;
		for (int k = 0; k < uk->sig.nparams; k++)
			used |= !strcmp(bind[k], op->inputs[i]);
		if (!used)
			st = ub_fail(err, UB_USAGE, "%s: %s: input '%s' of %s is bound to "
				     "no parameter (add PARAM=%s to --args; parameters: %s)",
				     uk->file, uk->entry, op->inputs[i], op->name,
				     op->inputs[i], param_names(&uk->sig, valid, sizeof valid));
	}
	return st;
}

/* The arrays' one element dtype, which every dtype of cfg must be. */
static int dtype(const struct ub_user_kernel *uk, const struct ub_config *cfg,
		 int *dt, struct ub_error *err)
{
	*dt = -1;
	for (int k = 0; k < uk->sig.nparams; k++) {
		const struct ub_kparam *p = &uk->sig.params[k];
		if (p->kind != UB_KP_ARRAY)
			continue;
		if (*dt >= 0 && p->dtype != *dt)
			return ub_fail(err, UB_USAGE, "%s:%d: %s mixes %s and %s arrays: "
				       "ulpbench tests one dtype at a time", uk->file,
				       uk->sig.line, uk->entry, ub_dtypes[*dt].ctype,
				       ub_dtypes[p->dtype].ctype);
		*dt = p->dtype;
	}
	for (int t = 0; t < cfg->ndtypes; t++)
		if (cfg->dtypes[t] != (enum ub_dtype)*dt)
			return ub_fail(err, UB_USAGE, "%s: %s takes %s arrays (%s), not "
				       "%s: run it with --dtype %s", uk->file, uk->entry,
				       ub_dtypes[*dt].ctype, ub_dtypes[*dt].name,
				       ub_dtypes[cfg->dtypes[t]].name, ub_dtypes[*dt].name);
	return 0;
}

/* 32-bit n parameters need n < 2^31 (random inputs: known now). */
static int fits_int(const struct ub_user_kernel *uk, const struct ub_config *cfg,
		    const char **bind, struct ub_error *err)
{
	for (int k = 0; k < uk->sig.nparams; k++)
		if (uk->sig.params[k].kind == UB_KP_INT && !strcmp(bind[k], "n") &&
		    uk->sig.params[k].bits == 32 && !cfg->nfiles &&
		    cfg->n > 0x7fffffff)
			return ub_fail(err, UB_USAGE, "%s: %s: -n %zu does not fit "
				       "parameter '%s' (%s)", uk->file, uk->entry, cfg->n,
				       uk->sig.params[k].name, uk->sig.params[k].type);
	return 0;
}

static int bind_all(struct ub_user_kernel *uk, const struct ub_op *op,
		    const struct ub_config *cfg, const char *spec, int *dt,
		    struct ub_error *err)
{
	const char *bind[UB_KSIG_MAX_PARAMS] = {0};
	char *store = malloc(strlen(spec ? spec : "") + 1);
	int st = store ? 0 : ub_fail(err, UB_RUNTIME, "out of memory");
	if (!st && spec)
		st = parse_spec(spec, uk, op, bind, store, err);
	if (!st)
		st = complete(uk, op, bind, err);
	if (!st)
		st = dtype(uk, cfg, dt, err);
	if (!st)
		st = fits_int(uk, cfg, bind, err);
	if (!st && !(uk->args = calloc((size_t)uk->sig.nparams + 1, sizeof *uk->args)))
		st = ub_fail(err, UB_RUNTIME, "out of memory");
	for (int k = 0; !st && k < uk->sig.nparams; k++) {
		if (!(uk->args[k] = strdup(bind[k])))
			st = ub_fail(err, UB_RUNTIME, "out of memory");
		uk->nargs = k + 1;
	}
	free(store);
	return st;
}

int ub_user_kernel_bind(const char *file, const char *entry, const char *spec,
			struct ub_op *op, struct ub_config *cfg,
			struct ub_user_kernel *uk, struct ub_error *err)
{
	int dt = UB_F32;
	memset(uk, 0, sizeof *uk);
	int st = ub_read_file(file, &uk->src, err);
	if (!st)
		st = ub_ksig_find(uk->src, file, entry, &uk->sig, err);
	if (!st && !uk->sig.extern_c)
		st = ub_fail(err, UB_USAGE, "%s:%d: %s is not extern \"C\": ulpbench "
			     "finds kernels by their C name; declare it extern \"C\" "
			     "__global__ void %s(...)", file, uk->sig.line,
			     uk->sig.entry, uk->sig.entry);
	if (!st && (!(uk->file = strdup(file)) || !(uk->entry = strdup(uk->sig.entry))))
		st = ub_fail(err, UB_RUNTIME, "out of memory");
	if (!st)
		st = bind_all(uk, op, cfg, spec, &dt, err);
	if (st)
		return st;
	op->kernel = uk->file;
	op->entry = uk->entry;
	op->args = uk->args;
	op->nargs = uk->nargs;
	op->kernel_dtypes = 1u << dt;
	cfg->kernel_src = uk->src;
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
	if (uk->triton)
		ub_triton_free(uk->triton);
	free(uk->triton);
	free(uk->src);
	free(uk->file);
	free(uk->entry);
	for (int k = 0; k < uk->nargs; k++)
		free(uk->args[k]);
	free(uk->args);
	memset(uk, 0, sizeof *uk);
}
