/* nvrtc.c — compile CUDA C to PTX with NVRTC.
 *
 * Options are the mode's NVRTC flags plus -arch and include paths; the
 * kernel's own #include "ulpbench.h" resolves to kernels/ (found by
 * ub_data_path) so kernels compile the same way in the build tree and once
 * installed. */
#include "nvrtc.h"
#include "paths.h"

#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OPTS 32

/* Splits the space-separated opts into argv (in place, in buf). */
static int split_opts(char *buf, const char **argv, int max)
{
	int n = 0;
	for (char *tok = strtok(buf, " "); tok && n < max; tok = strtok(NULL, " "))
		argv[n++] = tok;
	return n;
}

/* First `max` lines of the log, joined with "; ", into out. */
static void log_head(const char *log, char *out, size_t len, int max)
{
	size_t used = 0;
	int lines = 0;
	out[0] = '\0';
	for (const char *p = log; *p && lines < max && used + 1 < len;) {
		const char *e = strchr(p, '\n');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		if (l > 0) {
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
	if (nvrtcGetProgramLogSize(prog, &size) != NVRTC_SUCCESS)
		return -1;
	*log = malloc(size + 1);
	if (!*log)
		return -1;
	(*log)[0] = '\0';
	return nvrtcGetProgramLog(prog, *log) == NVRTC_SUCCESS ? 0 : -1;
}

/* The last compiles, so that the same source with the same options and
 * architecture (a torch step shared by several dtypes' runs, a kernel
 * compiled again by a test) is compiled once per process.  Kept until
 * exit. */
#define CACHE 64
static struct {
	char *key, *ptx;
} cache[CACHE];
static int cache_next;

static char *cache_key(const char *src, const char *opts, const char *arch)
{
	size_t n = strlen(src) + strlen(opts) + strlen(arch) + 3;
	char *k = malloc(n);
	if (k)
		snprintf(k, n, "%s\n%s\n%s", arch, opts, src);
	return k;
}

static char *cache_find(const char *key)
{
	for (int i = 0; key && i < CACHE; i++)
		if (cache[i].key && !strcmp(cache[i].key, key))
			return strdup(cache[i].ptx);
	return NULL;
}

static void cache_put(char *key, const char *ptx)
{
	char *copy = key ? strdup(ptx) : NULL;
	if (!copy) {
		free(key);
		return;
	}
	free(cache[cache_next].key);
	free(cache[cache_next].ptx);
	cache[cache_next].key = key;
	cache[cache_next].ptx = copy;
	cache_next = (cache_next + 1) % CACHE;
}

static int compile(const char *src, const char *name, const char *opts,
		   const char *arch, char **ptx, char **logp,
		   struct ub_error *err);

int ub_nvrtc_compile(const char *src, const char *name, const char *opts,
		     const char *arch, char **ptx, char **logp,
		     struct ub_error *err)
{
	char *key = logp ? NULL : cache_key(src, opts, arch);
	if ((*ptx = cache_find(key)) != NULL) {
		free(key);
		return 0;
	}
	int st = compile(src, name, opts, arch, ptx, logp, err);
	if (!st)
		cache_put(key, *ptx);
	else
		free(key);
	return st;
}

static int compile(const char *src, const char *name, const char *opts,
		   const char *arch, char **ptx, char **logp,
		   struct ub_error *err)
{
	char kdir[4096], buf[1024], archopt[64], incl[4200], cincl[4200];
	const char *argv[MAX_OPTS];
	int argc = 0;
	if (ub_data_path("kernels", kdir, sizeof kdir, err))
		return UB_USAGE;
	snprintf(archopt, sizeof archopt, "-arch=%s", arch);
	snprintf(incl, sizeof incl, "-I%s", kdir);
	snprintf(cincl, sizeof cincl, "-I%s/include", CUDA_HOME);
	argv[argc++] = archopt;
	argv[argc++] = incl;
	argv[argc++] = cincl;
	snprintf(buf, sizeof buf, "%s", opts);
	argc += split_opts(buf, argv + argc, MAX_OPTS - argc);

	nvrtcProgram prog;
	nvrtcResult r = nvrtcCreateProgram(&prog, src, name, 0, NULL, NULL);
	if (r != NVRTC_SUCCESS)
		return ub_fail(err, UB_COMPILE, "%s: nvrtcCreateProgram: %s",
			       name, nvrtcGetErrorString(r));
	r = nvrtcCompileProgram(prog, argc, argv);
	char *log = NULL;
	compile_log(prog, &log);
	int status = 0;
	if (r != NVRTC_SUCCESS) {
		char head[800];
		log_head(log ? log : "", head, sizeof head, 3);
		status = ub_fail(err, UB_COMPILE, "%s: compile failed (%s): %s",
				 name, opts[0] ? opts : "default flags", head);
	} else {
		size_t size = 0;
		nvrtcGetPTXSize(prog, &size);
		*ptx = malloc(size + 1);
		if (!*ptx || nvrtcGetPTX(prog, *ptx) != NVRTC_SUCCESS)
			status = ub_fail(err, UB_COMPILE, "%s: cannot get PTX", name);
	}
	if (logp)
		*logp = log;
	else
		free(log);
	nvrtcDestroyProgram(&prog);
	return status;
}

const char *ub_nvrtc_version(void)
{
	static char buf[32];
	int major = 0, minor = 0;
	if (!buf[0]) {
		nvrtcVersion(&major, &minor);
		snprintf(buf, sizeof buf, "%d.%d", major, minor);
	}
	return buf;
}
