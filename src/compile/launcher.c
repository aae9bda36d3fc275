/* launcher.c — a --launcher's parameters, and its host code built and
 * loaded (launcher.h).  Calling it is launcher_rt.c's. */
#include "launcher.h"
#include "launcher_rt.h"
#include "tmpfiles.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct ub_launcher {
	void *dl;
	int (*call)(void **a);
	char name[128];
};

/* u's text with the launcher header and the line `tail` after it. */
static char *unit_with(const struct ub_nvcc_unit *u, const char *tail, const char *name)
{
	size_t n = strlen(u->text) + strlen(tail) + strlen(name) + 128;
	char *t = malloc(n);
	if (t)
		snprintf(t, n, "%s#include \"ulpbench_launcher.h\"\n#line 1 \""
			 UB_NVCC_UNIT_LINES "\"\n%s(%s);\n", u->text, tail, name);
	return t;
}

int ub_launcher_find(const struct ub_nvcc_unit *u, const char *src, const char *name,
		     const char *arch, struct ub_kfound *k, struct ub_error *err)
{
	struct ub_kdecl d;
	struct ub_nvcc_unit pu = *u;
	char *ptx = NULL;
	size_t n;
	uint64_t v[33];
	memset(k, 0, sizeof *k);
	int s = ub_ksig_find_function(src, u->file, name, &d, err);
	if (!s && !(k->unit = unit_with(u, "ULPBENCH_LAUNCHER_PROBE", name)))
		s = ub_fail(err, UB_RUNTIME, "out of memory");
	pu.text = k->unit;
	if (!s)
		s = ub_nvcc_compile(&pu, "", arch, 0, &ptx, &n, err);
	if (!s && (ub_ptx_read_var(ptx, "ulpbench_params", v, 33, NULL, 0) ||
		   v[0] > UB_KSIG_MAX_PARAMS))
		s = ub_fail(err, UB_COMPILE, "%s: the PTX lacks ulpbench_launcher.h's "
			    "variables", u->file);
	if (!s && (int)v[0] != d.nparams)
		s = ub_fail(err, UB_USAGE, "%s:%d: %s: %d parameters in the source, %d to the "
			    "compiler (an overload? --launcher takes one function)", u->file,
			    d.line, name, d.nparams, (int)v[0]);
	free(ptx);
	if (s)
		return s;
	snprintf(k->base, sizeof k->base, "%s", name);
	k->line = d.line;
	k->extern_c = d.extern_c;
	k->nparams = d.nparams;
	size_t used = (size_t)snprintf(k->shown, sizeof k->shown, "%s(", name);
	for (int i = 0; i < k->nparams; i++) {
		struct ub_kparam *p = &k->params[i];
		ub_kparam_decode(v[i + 1], p);
		snprintf(p->name, sizeof p->name, "%s", d.params[i].name);
		snprintf(p->type, sizeof p->type, "%s", d.params[i].type);
		if (used < sizeof k->shown)
			used += (size_t)snprintf(k->shown + used, sizeof k->shown - used, "%s%s",
						 i ? ", " : "", p->type);
		if (!p->name[0])
			return ub_fail(err, UB_USAGE, "%s:%d: parameter %d of %s has no name",
				       u->file, d.line, i + 1, name);
	}
	if (used < sizeof k->shown)
		snprintf(k->shown + used, sizeof k->shown - used, ")");
	snprintf(k->entry, sizeof k->entry, "%s", name);
	return 0;
}

int ub_launcher_load(const struct ub_nvcc_unit *u, const char *name,
		     struct ub_launcher **lp, struct ub_error *err)
{
	struct ub_nvcc_unit hu = *u, file = *u;
	char *so = NULL, path[4200], base[4096], inc[8300], *q = inc;
	size_t size = 0;
	int slot = -1, fd = -1;
	struct ub_launcher *l = calloc(1, sizeof *l);
	*lp = l;
	q += sprintf(q, "#include \"");   /* the file alone, as a C string */
	for (const char *p = u->abspath; *p && q < inc + sizeof inc - 8; p++) {
		if (*p == '"' || *p == '\\')
			*q++ = '\\';
		*q++ = *p;
	}
	strcpy(q, "\"\n");
	file.text = inc;
	if (!l || !(hu.text = unit_with(&file, "ULPBENCH_LAUNCHER", name)))
		return ub_fail(err, UB_RUNTIME, "out of memory");
	snprintf(l->name, sizeof l->name, "%s", name);
	int s = ub_nvcc_compile(&hu, "", "compute_90", UB_NVCC_SHARED, &so, &size, err);
	free((char *)hu.text);
	const char *dir = getenv("TMPDIR");
	snprintf(base, sizeof base, "%s/ulpbench-launcher.so", dir && dir[0] ? dir : "/tmp");
	if (!s && (fd = ub_tmp_create(base, path, sizeof path, &slot)) < 0)
		s = ub_fail(err, UB_RUNTIME, "%s: cannot make a temporary file: %s", u->file,
			    strerror(errno));
	if (!s && (write(fd, so, size) != (ssize_t)size))
		s = ub_fail(err, UB_RUNTIME, "%s: cannot write %s: %s", u->file, path,
			    strerror(errno));
	if (fd >= 0)
		close(fd);
	free(so);
	if (!s && !(l->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
		s = ub_fail(err, UB_USAGE, "%s: --launcher %s: its host code does not load "
			    "against ulpbench's CUDA runtime stand-in (docs/user-kernels.md): %s",
			    u->file, name, dlerror());
	if (slot >= 0)
		ub_tmp_discard(slot);   /* loaded: the file is no longer needed */
	if (!s && !(*(void **)&l->call = dlsym(l->dl, "ulpbench_call")))
		s = ub_fail(err, UB_USAGE, "%s: --launcher %s: no ulpbench_call in its host "
			    "code", u->file, name);
	return s;
}

void ub_launcher_free(struct ub_launcher *l)
{
	if (!l)
		return;
	if (l->dl)
		dlclose(l->dl);
	free(l);
}

int ub_launcher_call(struct ub_launcher *l, const char *ptx, const struct ub_karg *args,
		     int nargs, const struct ub_geom *geom, uint64_t *approx,
		     struct ub_error *err)
{
	return ub_lrt_call(l->call, l->name, ptx, args, nargs, geom, approx, err);
}
