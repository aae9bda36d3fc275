/* kernel_dtypes.c — a --kernel run of several dtypes (user_kernel.h):
 *
 *   ulpbench --op sigmoid_bwd --kernel my.cu --entry 'k<float>' --dtype f32,bf16
 *
 * A kernel's arrays are of one element type, so each dtype needs a kernel
 * of its own: a template's instance, or another overload.  For each dtype
 * the entry is, in this order,
 *   1. the --entry as given, when its template arguments name the dtype's
 *      C type (float, __half, __nv_bfloat16, double) and no other one;
 *   2. the kernel of the file (as it is compiled) of the --entry's name (or
 *      any, without --entry) whose parameters' arrays are of the dtype, when
 *      exactly one is;
 *   3. the --entry with the C type its template arguments name replaced by
 *      the dtype's, word for word ('k<float, 4>' for bf16: 'k<__nv_bfloat16,
 *      4>');
 *   4. NAME<T>, T the dtype's C type, for an --entry without template
 *      arguments (or the file's one template without --entry);
 * then bound as for a run of that dtype alone, which checks that its
 * arrays are of the dtype (a mismatch: that one-dtype run's message). */
#include "user_kernel.h"
#include "paths.h"
#include "torch_ext.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INST 64

struct ub_kernel_dtypes {
	struct ub_user_kernel uk[UB_NDTYPES];
	struct ub_kernel_inst inst[UB_NDTYPES];
	int have[UB_NDTYPES];
	char entry[UB_NDTYPES][1100];
};

void ub_kernel_dtypes_free(struct ub_kernel_dtypes *kd)
{
	for (int t = 0; kd && t < UB_NDTYPES; t++)
		if (kd->have[t])
			ub_user_kernel_free(&kd->uk[t]);
	free(kd);
}

/* Whether the identifier w occurs in s as a word of its own. */
static const char *word_in(const char *s, const char *w)
{
	size_t n = strlen(w);
	for (const char *p = strstr(s, w); p; p = strstr(p + 1, w))
		if ((p == s || !(isalnum((unsigned char)p[-1]) || p[-1] == '_' ||
				 p[-1] == ':')) &&
		    !(isalnum((unsigned char)p[n]) || p[n] == '_'))
			return p;
	return NULL;
}

/* The dtype whose C type the text names, alone of the four; -1 if none
 * or several. */
static int dtype_named(const char *text)
{
	int found = -1;
	for (int t = 0; t < UB_NDTYPES; t++)
		if (word_in(text, ub_dtypes[t].ctype)) {
			if (found >= 0)
				return -1;
			found = t;
		}
	return found;
}

/* The dtype of the arrays among parameter types "float const*, float*,
 * int": the pointers' element types, all one of the four; -1 if not. */
static int params_dtype(const char *params)
{
	char buf[1024], *save;
	int dt = -1;
	snprintf(buf, sizeof buf, "%s", params);
	for (char *p = strtok_r(buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		if (!strchr(p, '*'))
			continue;
		int t = dtype_named(p);
		if (t < 0 || (dt >= 0 && t != dt))
			return -1;
		dt = t;
	}
	return dt;
}

/* want's name alone: up to its template arguments or parameters. */
static void base_of(const char *want, char *buf, size_t len)
{
	size_t n = strcspn(want, "<(");
	while (n && isspace((unsigned char)want[n - 1]))
		n--;
	const char *colon = NULL;
	for (size_t i = 0; i + 1 < n; i++)
		if (want[i] == ':' && want[i + 1] == ':')
			colon = want + i + 2;
	const char *b = colon ? colon : want;
	snprintf(buf, len, "%.*s", (int)(n - (size_t)(b - want)), b);
}

/* s with every word `from` replaced by `to`, into buf; -1 if too long. */
static int replace_word(const char *s, const char *from, const char *to,
			char *buf, size_t len)
{
	size_t u = 0, fl = strlen(from);
	for (const char *p; (p = word_in(s, from)); s = p + fl)
		u += (size_t)snprintf(buf + u, u < len ? len - u : 0, "%.*s%s",
				      (int)(p - s), s, to);
	u += (size_t)snprintf(buf + u, u < len ? len - u : 0, "%s", s);
	return u < len ? 0 : -1;
}

/* The entry of dtype t into buf (the rules above). */
static int entry_for(const char *want, int t, const struct ub_kinst *k, int nk,
		     const char *file, char *buf, size_t len, struct ub_error *err)
{
	char base[128] = "";
	const char *lt = want ? strchr(want, '<') : NULL;
	int own = lt ? dtype_named(lt) : -1, hit = -1, hits = 0;
	if (want)
		base_of(want, base, sizeof base);
	if (own == t)
		return snprintf(buf, len, "%s", want) < (int)len ? 0 :
			ub_fail(err, UB_USAGE, "--entry: too long");
	for (int i = 0; i < nk; i++)
		if ((!want || !strcmp(k[i].base, base)) && params_dtype(k[i].params) == t)
			hit = hit < 0 ? i : hit, hits++;
	if (hits == 1)
		return snprintf(buf, len, "%s", k[hit].mangled) < (int)len ? 0 :
			ub_fail(err, UB_USAGE, "--entry: too long");
	if (hits > 1)
		return ub_fail(err, UB_USAGE, "%s: several kernels of %s arrays%s%s: "
			       "run each with --entry and --dtype %s", file,
			       ub_dtypes[t].name, want ? " named " : "", want ? base : "",
			       ub_dtypes[t].name);
	if (lt && own >= 0)
		return replace_word(want, ub_dtypes[own].ctype, ub_dtypes[t].ctype, buf,
				    len) ? ub_fail(err, UB_USAGE, "--entry: too long") : 0;
	if (lt)
		return ub_fail(err, UB_USAGE, "%s: --entry %s names no dtype's type "
			       "(float, __half, __nv_bfloat16, double) in its template "
			       "arguments, and the file has no kernel of %s arrays "
			       "of that name: run each dtype with its own --entry",
			       file, want, ub_dtypes[t].name);
	if (!want) {   /* the file's one template, by its name */
		for (int i = 0; i < nk; i++)
			if (strchr(k[i].shown, '<'))
				snprintf(base, sizeof base, "%s", k[i].base);
		if (!base[0])
			return ub_fail(err, UB_USAGE, "%s: no kernel of %s arrays: name "
				       "one with --entry, or run --dtype %s alone", file,
				       ub_dtypes[t].name, ub_dtypes[t].name);
	}
	return snprintf(buf, len, "%s<%s>", base, ub_dtypes[t].ctype) < (int)len ? 0 :
		ub_fail(err, UB_USAGE, "--entry: too long");
}

/* The kernels of the file as it is (for rule 2): the unit that includes
 * it by its absolute path, as user_kernel.c makes it, compiled. */
static int instances(const struct ub_kernel_req *req, const struct ub_config *cfg,
		     struct ub_kinst *k, int *nk, struct ub_error *err)
{
	char abs[PATH_MAX], text[2 * PATH_MAX + 32], *q = text;
	*nk = 0;
	if (!realpath(req->file, abs))
		return ub_fail(err, UB_USAGE, "%s: cannot read", req->file);
	q += sprintf(q, "#include \"");
	for (const char *p = abs; *p; p++) {   /* a C string literal */
		if (*p == '"' || *p == '\\')
			*q++ = '\\';
		*q++ = *p;
	}
	strcpy(q, "\"\n");
	struct ub_nvcc_unit u = { .text = text, .file = req->file, .abspath = abs,
				  .nflags = req->nflags };
	for (int i = 0; i < req->nflags && i < UB_NVCC_MAX_FLAGS; i++)
		u.flags[i] = req->flags[i];
	char *src = NULL;
	int s = ub_read_file(req->file, &src, err);
	if (!s && ub_torch_ext_uses(src))   /* the flags the run's unit has */
		s = ub_torch_ext_flags(req->file, ub_torch_python(req->python), &u, err);
	if (!s)
		s = ub_kernel_instances(&u, cfg->arch, k, MAX_INST, nk, err);
	for (int i = req->nflags; i < u.nflags; i++)
		free((char *)u.flags[i]);
	free(src);
	return s;
}

int ub_user_kernel_bind_dtypes(const struct ub_kernel_req *req, struct ub_op *op,
			       struct ub_config *cfg, struct ub_user_kernel *uk,
			       struct ub_error *err)
{
	struct ub_kinst *k = calloc(MAX_INST, sizeof *k);
	struct ub_kernel_dtypes *kd = calloc(1, sizeof *kd);
	int nk = 0, s = k && kd ? 0 : ub_fail(err, UB_RUNTIME, "out of memory");
	unsigned mask = 0;
	memset(uk, 0, sizeof *uk);
	if (!s)
		s = instances(req, cfg, k, &nk, err);
	for (int i = 0; !s && i < cfg->ndtypes; i++) {
		int t = cfg->dtypes[i];
		struct ub_kernel_req one = *req;
		struct ub_config c1 = *cfg;
		struct ub_op o = *op;
		if (kd->have[t])
			continue;
		s = entry_for(req->entry, t, k, nk, req->file, kd->entry[t],
			      sizeof kd->entry[t], err);
		one.entry = kd->entry[t];
		c1.ndtypes = 1;
		c1.dtypes[0] = (enum ub_dtype)t;
		if (!s)
			s = ub_user_kernel_bind_one(&one, &o, &c1, &kd->uk[t], err);
		kd->have[t] = 1;   /* freed with kd, bound or not */
		if (s)
			break;
		kd->inst[t] = (struct ub_kernel_inst){ kd->uk[t].unit, o.entry,
			o.entry_shown, o.args, o.nargs, o.use_saved };
		mask |= 1u << t;
		if (i == 0) {   /* the run's op and cfg: the first dtype's */
			*op = o;
			cfg->kernel_src = c1.kernel_src;
			cfg->kernel_unit = c1.kernel_unit;
		}
	}
	free(k);
	if (s) {
		ub_kernel_dtypes_free(kd);
		return s;
	}
	for (int t = 0; t < UB_NDTYPES; t++)
		cfg->kernel_inst[t] = mask >> t & 1 ? &kd->inst[t] : NULL;
	op->kernel_dtypes = mask;
	uk->dtypes = kd;
	return 0;
}
