/* nvrtc.c — compile CUDA C to PTX with NVRTC.
 *
 * Options are the mode's NVRTC flags plus -arch and include paths; the
 * kernel's own #include "ulpbench.h" resolves to kernels/ (found by
 * ub_data_path) or, once installed, to $(includedir), where `make install`
 * puts it for users' own builds too; a kernel's "" includes also resolve
 * beside its file (NVRTC searches the directory of the program's name).
 *
 * Each toolkit's library (toolkit.h; the default one is configure's
 * UB_NVRTC_LIB) is loaded on first use, not linked: loading it costs a
 * process about 8 ms of CPU (its relocations and constructors), while a
 * run whose kernels are all in the compile cache needs only its version
 * and identity.  Both are cached too, keyed by the library file itself
 * (path, device, inode, size, time of modification), and written the
 * first time they are computed. */
#include "config.h"
#include "nvrtc.h"
#include "nvrtc_cache.h"
#include "paths.h"
#include "toolkit.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <nvrtc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The functions this file calls, by the toolkit header's declarations. */
#define NVRTC_FNS(X)                                                         \
	X(GetErrorString) X(Version) X(GetNumSupportedArchs) X(GetSupportedArchs) \
	X(CreateProgram) X(CompileProgram) X(GetPTXSize) X(GetPTX)           \
	X(GetCUBINSize) X(GetCUBIN) X(GetProgramLogSize) X(GetProgramLog)    \
	X(DestroyProgram) X(AddNameExpression) X(GetLoweredName)

/* Each toolkit's NVRTC (toolkit.h), by its slot. */
static struct nvrtc_fns {
	void *h;
	int tried;
	char why[600];   /* when h is NULL: why not */
#define X(f) __typeof__(nvrtc##f) *f;
	NVRTC_FNS(X)
#undef X
} nvs[UB_TK_MAX];
static pthread_mutex_t nv_mu = PTHREAD_MUTEX_INITIALIZER;

static void nv_open(struct nvrtc_fns *nv, const struct ub_toolkit *tk)
{
	const char *lib = tk->nvrtc;
	/* NVRTC opens its builtins by name (libnvrtc-builtins.so.13.0), which
	 * a wheel's directory is not searched for (its $ORIGIN is no help to
	 * a library the program itself dlopen'ed): loaded first by path, the
	 * name then finds it loaded */
	if (tk->builtins[0])
		dlopen(tk->builtins, RTLD_NOW | RTLD_LOCAL);
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *e = dlerror();
		snprintf(nv->why, sizeof nv->why, "%.500s", e ? e : lib);
		return;
	}
#define X(f)                                                                 \
	if (!(nv->f = (__typeof__(nvrtc##f) *)dlsym(h, "nvrtc" #f))) {       \
		snprintf(nv->why, sizeof nv->why, "%.500s: no nvrtc" #f, lib); \
		dlclose(h);                                                  \
		return;                                                      \
	}
	NVRTC_FNS(X)
#undef X
	nv->h = h;
}

/* tk's NVRTC loaded (*nv), or why not into err. */
static int nv_load(const struct ub_toolkit *tk, struct nvrtc_fns **nv,
		   struct ub_error *err)
{
	*nv = &nvs[tk->slot];
	pthread_mutex_lock(&nv_mu);
	if (!(*nv)->tried++)
		nv_open(*nv, tk);
	pthread_mutex_unlock(&nv_mu);
	return (*nv)->h ? 0 : ub_fail(err, UB_COMPILE, "cannot load NVRTC %s: %s",
				      tk->name, (*nv)->why);
}

#define MAX_OPTS 32

/* Splits the space-separated opts into argv (in place, in buf). */
static int split_opts(char *buf, const char **argv, int max)
{
	int n = 0;
	for (char *tok = strtok(buf, " "); tok && n < max; tok = strtok(NULL, " "))
		argv[n++] = tok;
	return n;
}

/* Whether the log line [p, p + l) is an error: "FILE(LINE): [catastrophic
 * ]error" (NVRTC, nvcc's front end) or "FILE:LINE:COL: [fatal ]error:"
 * (the host compiler's preprocessor, under nvcc). */
static int error_line(const char *p, size_t l)
{
	static const char *const marks[] = { "): error", "): catastrophic error",
					     ": error:", ": fatal error:" };
	for (size_t i = 0; i < sizeof marks / sizeof *marks; i++) {
		const char *a = strstr(p, marks[i]);
		if (a && a < p + l)
			return 1;
	}
	return 0;
}

void ub_compile_log_head(const char *log, char *out, size_t len, int max)
{
	size_t used = 0;
	int lines = 0, errors = error_line(log, strlen(log));
	out[0] = '\0';
	for (const char *p = log; *p && lines < max && used + 1 < len;) {
		const char *e = strchr(p, '\n');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		if (l > 0 && (!errors || error_line(p, l))) {
			used += (size_t)snprintf(out + used, len - used, "%s%.*s",
						 lines ? "; " : "", (int)l, p);
			lines++;
		}
		p += l + (e != NULL);
	}
}

static int compile_log(struct nvrtc_fns *nv, nvrtcProgram prog, char **log)
{
	size_t size = 0;
	if (nv->GetProgramLogSize(prog, &size) != NVRTC_SUCCESS)
		return -1;
	*log = malloc(size + 1);
	if (!*log)
		return -1;
	(*log)[0] = '\0';
	return nv->GetProgramLog(prog, *log) == NVRTC_SUCCESS ? 0 : -1;
}

/* The include options: kernels/, the toolkit's header directories and,
 * installed, $(includedir) where ulpbench.h lives; how many. */
#define NINCL (UB_TK_MAX_INC + 2)
static int include_opts(const struct ub_toolkit *tk, char inc[NINCL][4200],
			int *n, struct ub_error *err)
{
	char kdir[4096];
	if (ub_data_path("kernels", kdir, sizeof kdir, err))
		return UB_USAGE;
	*n = 0;
	snprintf(inc[(*n)++], sizeof inc[0], "-I%s", kdir);
	for (int i = 0; i < tk->ninc; i++)
		snprintf(inc[(*n)++], sizeof inc[0], "-I%s", tk->inc[i]);
	snprintf(inc[(*n)++], sizeof inc[0], "-I%s", INCLUDEDIR);
	return 0;
}

/* Creates and compiles the program; on success *prog is live (the caller
 * destroys it with (*nv)->DestroyProgram).  The log goes to *logp if
 * non-NULL. */
static int compile_expr(const struct ub_toolkit *tk, const char *src,
			const char *name, const char *opts, const char *arch,
			const char *expr, struct nvrtc_fns **nvp, nvrtcProgram *prog,
			char **logp, struct ub_error *err);

static int compile(const struct ub_toolkit *tk, const char *src, const char *name,
		   const char *opts, const char *arch, struct nvrtc_fns **nvp,
		   nvrtcProgram *prog, char **logp, struct ub_error *err)
{
	return compile_expr(tk, src, name, opts, arch, NULL, nvp, prog, logp, err);
}

/* The same, with expr (NULL: none) added as a name expression (NVRTC
 * instantiates what it names). */
static int compile_expr(const struct ub_toolkit *tk, const char *src,
			const char *name, const char *opts, const char *arch,
			const char *expr, struct nvrtc_fns **nvp, nvrtcProgram *prog,
			char **logp, struct ub_error *err)
{
	char buf[1024], archopt[64], inc[NINCL][4200];
	const char *argv[MAX_OPTS];
	int argc = 0, ninc;
	struct nvrtc_fns *nv;
	if (include_opts(tk, inc, &ninc, err))
		return UB_USAGE;
	if (nv_load(tk, &nv, err))
		return UB_COMPILE;
	*nvp = nv;
	snprintf(archopt, sizeof archopt, "-arch=%s", arch);
	argv[argc++] = archopt;
	for (int i = 0; i < ninc; i++)
		argv[argc++] = inc[i];
	snprintf(buf, sizeof buf, "%s", opts);
	argc += split_opts(buf, argv + argc, MAX_OPTS - argc);

	nvrtcResult r = nv->CreateProgram(prog, src, name, 0, NULL, NULL);
	if (r != NVRTC_SUCCESS)
		return ub_fail(err, UB_COMPILE, "%s: nvrtcCreateProgram: %s",
			       name, nv->GetErrorString(r));
	if (expr && (r = nv->AddNameExpression(*prog, expr)) != NVRTC_SUCCESS) {
		nv->DestroyProgram(prog);
		return ub_fail(err, UB_COMPILE, "%s: nvrtcAddNameExpression(%s): %s",
			       name, expr, nv->GetErrorString(r));
	}
	r = nv->CompileProgram(*prog, argc, argv);
	char *log = NULL;
	compile_log(nv, *prog, &log);
	int status = 0;
	if (r != NVRTC_SUCCESS) {
		char head[800];
		ub_compile_log_head(log ? log : "", head, sizeof head, 3);
		status = ub_fail(err, UB_COMPILE, "%s: compile failed (%s%s%s): %s",
				 name, opts[0] ? opts : "default flags",
				 tk->slot ? ", NVRTC " : "", tk->slot ? tk->name : "", head);
		nv->DestroyProgram(prog);
	}
	if (logp)
		*logp = log;
	else
		free(log);
	return status;
}

/* The key of tk's compilation of src: its identity (toolkit.h) in place
 * of a bare version, and its include options; 0 when the cache is off
 * (nothing computed then). */
static int cache_entry(const struct ub_toolkit *tk, const char *src,
		       const char *name, const char *opts, const char *arch,
		       char *cpath, size_t len)
{
	char inc[NINCL][4200], incls[sizeof inc + NINCL] = "", dir[4096], version[96];
	int ninc;
	if (!ub_cache_dir(dir, sizeof dir))
		return 0;
	if (include_opts(tk, inc, &ninc, NULL))
		return 0;
	for (int i = 0; i < ninc; i++)
		snprintf(incls + strlen(incls), sizeof incls - strlen(incls), "%s%s",
			 i ? " " : "", inc[i]);
	snprintf(version, sizeof version, "%s %s", ub_nvrtc_version_tk(tk),
		 ub_toolkit_id(tk));
	struct ub_cache_key key = {src, name, opts, arch, version, incls};
	return ub_cache_path(&key, cpath, len);
}

int ub_nvrtc_compile_tk(const struct ub_toolkit *tk, const char *src,
			const char *name, const char *opts, const char *arch,
			char **ptx, char **logp, struct ub_error *err)
{
	char cpath[4096];
	struct nvrtc_fns *nv;
	int cached = !logp && cache_entry(tk, src, name, opts, arch, cpath, sizeof cpath);
	if (cached && (*ptx = ub_cache_get(cpath)) != NULL)
		return 0;
	nvrtcProgram prog;
	int status = compile(tk, src, name, opts, arch, &nv, &prog, logp, err);
	if (status)
		return status;
	size_t size = 0;
	nv->GetPTXSize(prog, &size);
	*ptx = malloc(size + 1);
	if (!*ptx || nv->GetPTX(prog, *ptx) != NVRTC_SUCCESS)
		status = ub_fail(err, UB_COMPILE, "%s: cannot get PTX", name);
	else if (cached)
		ub_cache_put(cpath, *ptx);
	nv->DestroyProgram(&prog);
	return status;
}

int ub_nvrtc_compile(const char *src, const char *name, const char *opts,
		     const char *arch, char **ptx, char **logp,
		     struct ub_error *err)
{
	return ub_nvrtc_compile_tk(ub_toolkit_default(), src, name, opts, arch, ptx,
				   logp, err);
}

int ub_nvrtc_compile_cubin_tk(const struct ub_toolkit *tk, const char *src,
			      const char *name, const char *opts, const char *arch,
			      void **cubin, size_t *size, struct ub_error *err)
{
	nvrtcProgram prog;
	struct nvrtc_fns *nv;
	int status = compile(tk, src, name, opts, arch, &nv, &prog, NULL, err);
	if (status)
		return status;
	*size = 0;
	nvrtcResult r = nv->GetCUBINSize(prog, size);
	if (r == NVRTC_SUCCESS && *size == 0)
		status = ub_fail(err, UB_COMPILE, "%s: no CUBIN for %s (a real "
				 "architecture sm_NN is needed)", name, arch);
	else if (r != NVRTC_SUCCESS || !(*cubin = malloc(*size)) ||
		 nv->GetCUBIN(prog, *cubin) != NVRTC_SUCCESS)
		status = ub_fail(err, UB_COMPILE, "%s: cannot get the CUBIN (%s)",
				 name, nv->GetErrorString(r));
	nv->DestroyProgram(&prog);
	return status;
}

int ub_nvrtc_compile_cubin(const char *src, const char *name, const char *opts,
			   const char *arch, void **cubin, size_t *size,
			   struct ub_error *err)
{
	return ub_nvrtc_compile_cubin_tk(ub_toolkit_default(), src, name, opts, arch,
					 cubin, size, err);
}

int ub_nvrtc_compile_expr(const struct ub_toolkit *tk, const char *src,
			  const char *name, const char *opts, const char *arch,
			  int cubin, const char *expr, char *lowered, size_t lowlen,
			  char **out, size_t *size, struct ub_error *err)
{
	nvrtcProgram prog;
	struct nvrtc_fns *nv;
	const char *low = NULL;
	char *log = NULL;
	int status = compile_expr(tk, src, name, opts, arch, expr, &nv, &prog, &log, err);
	free(log);
	if (status)
		return status;
	nvrtcResult r = expr ? nv->GetLoweredName(prog, expr, &low) : NVRTC_SUCCESS;
	if (expr && (r != NVRTC_SUCCESS || !low))
		status = ub_fail(err, UB_COMPILE, "%s: no entry for %s (%s)", name, expr,
				 nv->GetErrorString(r));
	else if (expr)
		snprintf(lowered, lowlen, "%s", low);
	*size = 0;
	if (!status && cubin) {
		if ((r = nv->GetCUBINSize(prog, size)) != NVRTC_SUCCESS || !*size ||
		    !(*out = malloc(*size)) || nv->GetCUBIN(prog, *out) != NVRTC_SUCCESS)
			status = ub_fail(err, UB_COMPILE, "%s: cannot get the CUBIN for %s",
					 name, arch);
	} else if (!status) {
		nv->GetPTXSize(prog, size);
		if (!(*out = malloc(*size + 1)) || nv->GetPTX(prog, *out) != NVRTC_SUCCESS)
			status = ub_fail(err, UB_COMPILE, "%s: cannot get PTX", name);
		*size = 0;
	}
	nv->DestroyProgram(&prog);
	return status;
}

int ub_nvrtc_archs_tk(const struct ub_toolkit *tk, int *archs, int max)
{
	int n = 0, all[128];
	struct ub_error err;
	struct nvrtc_fns *nv;
	if (nv_load(tk, &nv, &err) || nv->GetNumSupportedArchs(&n) != NVRTC_SUCCESS ||
	    n < 1 || n > 128 || nv->GetSupportedArchs(all) != NVRTC_SUCCESS)
		return 0;
	for (int i = 0; i < n && i < max; i++)
		archs[i] = all[i];
	return n < max ? n : max;
}

int ub_nvrtc_archs(int *archs, int max)
{
	return ub_nvrtc_archs_tk(ub_toolkit_default(), archs, max);
}

int ub_nvrtc_best_arch(int sm)
{
	int best = 0, archs[128], n = ub_nvrtc_archs(archs, 128);
	for (int i = 0; i < n; i++)
		if (archs[i] <= sm && archs[i] > best)
			best = archs[i];
	return best;
}

static char versions[UB_TK_MAX][32];

/* A version as NVRTC's own: "MAJOR.MINOR". */
static int version_like(const char *v)
{
	int major, minor, n = 0;
	return strlen(v) < sizeof versions[0] &&
	       sscanf(v, "%d.%d%n", &major, &minor, &n) == 2 && v[n] == '\0' &&
	       major >= 0 && minor >= 0;
}

/* tk's NVRTC version into version: from the cache (keyed by the library
 * file itself), else from the library, then cached. */
static void find_version(const struct ub_toolkit *tk, char *version)
{
	char id[4400], path[4200];
	struct stat st;
	struct nvrtc_fns *nv;
	int cached = 0, major = 0, minor = 0;
	if (stat(tk->nvrtc, &st) == 0) {   /* the file the loader would map */
		snprintf(id, sizeof id, "%s %ju %ju %jd %jd.%09ld", tk->nvrtc,
			 (uintmax_t)st.st_dev, (uintmax_t)st.st_ino, (intmax_t)st.st_size,
			 (intmax_t)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
		struct ub_cache_key key = { "libnvrtc", id, "", "", "", "" };
		cached = ub_cache_path_ext(&key, ".nvrtc", path, sizeof path);
		char *v = cached ? ub_cache_peek(path) : NULL;
		if (v && version_like(v)) {
			snprintf(version, sizeof versions[0], "%s", v);
			free(v);
			return;
		}
		free(v);
	}
	struct ub_error err;
	if (nv_load(tk, &nv, &err) || nv->Version(&major, &minor) != NVRTC_SUCCESS) {
		snprintf(version, sizeof versions[0], "unknown");
		return;
	}
	snprintf(version, sizeof versions[0], "%d.%d", major, minor);
	if (cached)
		ub_cache_put(path, version);
}

const char *ub_nvrtc_version_tk(const struct ub_toolkit *tk)
{
	char *v = versions[tk->slot];
	pthread_mutex_lock(&nv_mu);
	int known = v[0] != '\0';
	pthread_mutex_unlock(&nv_mu);
	if (!known) {
		char buf[sizeof versions[0]];
		find_version(tk, buf);
		pthread_mutex_lock(&nv_mu);
		memcpy(v, buf, sizeof buf);
		pthread_mutex_unlock(&nv_mu);
	}
	return v;
}

const char *ub_nvrtc_version(void)
{
	return ub_nvrtc_version_tk(ub_toolkit_default());
}
