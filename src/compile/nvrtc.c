/* nvrtc.c — compile CUDA C to PTX with NVRTC.
 *
 * Options are the mode's NVRTC flags plus -arch and include paths; the
 * kernel's own #include "ulpbench.h" resolves to kernels/ (found by
 * ub_data_path) or, once installed, to $(includedir), where `make install`
 * puts it for users' own builds too; a kernel's "" includes also resolve
 * beside its file (NVRTC searches the directory of the program's name).
 *
 * The library (UB_NVRTC_LIB, found by configure) is loaded on first use,
 * not linked: loading it costs a process about 8 ms of CPU (its
 * relocations and constructors), while a run whose kernels are all in the
 * compile cache needs only its version.  That version is cached too,
 * keyed by the library file itself (path, device, inode, size, time of
 * modification), and written the first time the library is loaded. */
#include "config.h"
#include "nvrtc.h"
#include "nvrtc_cache.h"
#include "paths.h"

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
	X(DestroyProgram)

static struct {
	void *h;
	char why[600];   /* when h is NULL: why not */
#define X(f) __typeof__(nvrtc##f) *f;
	NVRTC_FNS(X)
#undef X
} nv;
static pthread_once_t nv_once = PTHREAD_ONCE_INIT;

static void nv_open(void)
{
	void *h = dlopen(UB_NVRTC_LIB, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *e = dlerror();
		snprintf(nv.why, sizeof nv.why, "%s", e ? e : UB_NVRTC_LIB);
		return;
	}
#define X(f)                                                                 \
	if (!(nv.f = (__typeof__(nvrtc##f) *)dlsym(h, "nvrtc" #f))) {        \
		snprintf(nv.why, sizeof nv.why, "%s: no nvrtc" #f, UB_NVRTC_LIB); \
		dlclose(h);                                                  \
		return;                                                      \
	}
	NVRTC_FNS(X)
#undef X
	nv.h = h;
}

/* NVRTC loaded (0), or why not into err. */
static int nv_load(struct ub_error *err)
{
	pthread_once(&nv_once, nv_open);
	return nv.h ? 0 : ub_fail(err, UB_COMPILE, "cannot load NVRTC: %s", nv.why);
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

static int compile_log(nvrtcProgram prog, char **log)
{
	size_t size = 0;
	if (nv.GetProgramLogSize(prog, &size) != NVRTC_SUCCESS)
		return -1;
	*log = malloc(size + 1);
	if (!*log)
		return -1;
	(*log)[0] = '\0';
	return nv.GetProgramLog(prog, *log) == NVRTC_SUCCESS ? 0 : -1;
}

/* Creates and compiles the program; on success *prog is live (the caller
 * destroys it).  The log goes to *logp if non-NULL. */
#define NINCL 3
/* The include options: kernels/, the CUDA headers and, installed,
 * $(includedir) where ulpbench.h lives. */
static int include_opts(char inc[NINCL][4200], struct ub_error *err)
{
	char kdir[4096];
	if (ub_data_path("kernels", kdir, sizeof kdir, err))
		return UB_USAGE;
	snprintf(inc[0], sizeof inc[0], "-I%s", kdir);
	snprintf(inc[1], sizeof inc[1], "-I%s/include", CUDA_HOME);
	snprintf(inc[2], sizeof inc[2], "-I%s", INCLUDEDIR);
	return 0;
}

static int compile(const char *src, const char *name, const char *opts,
		   const char *arch, nvrtcProgram *prog, char **logp,
		   struct ub_error *err)
{
	char buf[1024], archopt[64], inc[NINCL][4200];
	const char *argv[MAX_OPTS];
	int argc = 0;
	if (include_opts(inc, err))
		return UB_USAGE;
	if (nv_load(err))
		return UB_COMPILE;
	snprintf(archopt, sizeof archopt, "-arch=%s", arch);
	argv[argc++] = archopt;
	for (int i = 0; i < NINCL; i++)
		argv[argc++] = inc[i];
	snprintf(buf, sizeof buf, "%s", opts);
	argc += split_opts(buf, argv + argc, MAX_OPTS - argc);

	nvrtcResult r = nv.CreateProgram(prog, src, name, 0, NULL, NULL);
	if (r != NVRTC_SUCCESS)
		return ub_fail(err, UB_COMPILE, "%s: nvrtcCreateProgram: %s",
			       name, nv.GetErrorString(r));
	r = nv.CompileProgram(*prog, argc, argv);
	char *log = NULL;
	compile_log(*prog, &log);
	int status = 0;
	if (r != NVRTC_SUCCESS) {
		char head[800];
		ub_compile_log_head(log ? log : "", head, sizeof head, 3);
		status = ub_fail(err, UB_COMPILE, "%s: compile failed (%s): %s",
				 name, opts[0] ? opts : "default flags", head);
		nv.DestroyProgram(prog);
	}
	if (logp)
		*logp = log;
	else
		free(log);
	return status;
}

int ub_nvrtc_compile(const char *src, const char *name, const char *opts,
		     const char *arch, char **ptx, char **logp,
		     struct ub_error *err)
{
	char cpath[4096], inc[NINCL][4200], incls[sizeof inc + NINCL];
	int cached = !logp && include_opts(inc, NULL) == 0;
	snprintf(incls, sizeof incls, "%s %s %s", inc[0], inc[1], inc[2]);
	struct ub_cache_key key = {src, name, opts, arch, ub_nvrtc_version(), incls};
	cached = cached && ub_cache_path(&key, cpath, sizeof cpath);
	if (cached && (*ptx = ub_cache_get(cpath)) != NULL)
		return 0;
	nvrtcProgram prog;
	int status = compile(src, name, opts, arch, &prog, logp, err);
	if (status)
		return status;
	size_t size = 0;
	nv.GetPTXSize(prog, &size);
	*ptx = malloc(size + 1);
	if (!*ptx || nv.GetPTX(prog, *ptx) != NVRTC_SUCCESS)
		status = ub_fail(err, UB_COMPILE, "%s: cannot get PTX", name);
	else if (cached)
		ub_cache_put(cpath, *ptx);
	nv.DestroyProgram(&prog);
	return status;
}

int ub_nvrtc_compile_cubin(const char *src, const char *name, const char *opts,
			   const char *arch, void **cubin, size_t *size,
			   struct ub_error *err)
{
	nvrtcProgram prog;
	int status = compile(src, name, opts, arch, &prog, NULL, err);
	if (status)
		return status;
	*size = 0;
	nvrtcResult r = nv.GetCUBINSize(prog, size);
	if (r == NVRTC_SUCCESS && *size == 0)
		status = ub_fail(err, UB_COMPILE, "%s: no CUBIN for %s (a real "
				 "architecture sm_NN is needed)", name, arch);
	else if (r != NVRTC_SUCCESS || !(*cubin = malloc(*size)) ||
		 nv.GetCUBIN(prog, *cubin) != NVRTC_SUCCESS)
		status = ub_fail(err, UB_COMPILE, "%s: cannot get the CUBIN (%s)",
				 name, nv.GetErrorString(r));
	nv.DestroyProgram(&prog);
	return status;
}

int ub_nvrtc_archs(int *archs, int max)
{
	int n = 0, all[128];
	struct ub_error err;
	if (nv_load(&err) || nv.GetNumSupportedArchs(&n) != NVRTC_SUCCESS || n < 1 ||
	    n > 128 || nv.GetSupportedArchs(all) != NVRTC_SUCCESS)
		return 0;
	for (int i = 0; i < n && i < max; i++)
		archs[i] = all[i];
	return n < max ? n : max;
}

int ub_nvrtc_best_arch(int sm)
{
	int best = 0, archs[128], n = ub_nvrtc_archs(archs, 128);
	for (int i = 0; i < n; i++)
		if (archs[i] <= sm && archs[i] > best)
			best = archs[i];
	return best;
}

static char version[32];
static pthread_once_t version_once = PTHREAD_ONCE_INIT;

/* A version as NVRTC's own: "MAJOR.MINOR". */
static int version_like(const char *v)
{
	int major, minor, n = 0;
	return strlen(v) < sizeof version && sscanf(v, "%d.%d%n", &major, &minor, &n) == 2 &&
	       v[n] == '\0' && major >= 0 && minor >= 0;
}

static void find_version(void)
{
	char id[4400], path[4200];
	struct stat st;
	int cached = 0, major = 0, minor = 0;
	if (stat(UB_NVRTC_LIB, &st) == 0) {   /* the file the loader would map */
		snprintf(id, sizeof id, "%s %ju %ju %jd %jd.%09ld", UB_NVRTC_LIB,
			 (uintmax_t)st.st_dev, (uintmax_t)st.st_ino, (intmax_t)st.st_size,
			 (intmax_t)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
		struct ub_cache_key key = { "libnvrtc", id, "", "", "", "" };
		cached = ub_cache_path_ext(&key, ".nvrtc", path, sizeof path);
		char *v = cached ? ub_cache_peek(path) : NULL;
		if (v && version_like(v)) {
			snprintf(version, sizeof version, "%s", v);
			free(v);
			return;
		}
		free(v);
	}
	struct ub_error err;
	if (nv_load(&err) || nv.Version(&major, &minor) != NVRTC_SUCCESS) {
		snprintf(version, sizeof version, "unknown");
		return;
	}
	snprintf(version, sizeof version, "%d.%d", major, minor);
	if (cached)
		ub_cache_put(path, version);
}

const char *ub_nvrtc_version(void)
{
	pthread_once(&version_once, find_version);
	return version;
}
