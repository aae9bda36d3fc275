/* backend.c — the backend table and `--backend` resolution (backend.h). */
#include "backend.h"
#include "nvcc.h"
#include "nvrtc.h"
#include "toolkit.h"

#include <stdio.h>
#include <string.h>

static const struct ub_backend *const backends[] = {
#define X(name, var, help) &var,
	UB_BACKENDS(X)
#undef X
};
#define NBACKENDS (int)(sizeof backends / sizeof backends[0])

const char *ub_backend_names(char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "auto");
	for (int i = 0; i < NBACKENDS && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, ", %s",
					 backends[i]->name);
	return buf;
}

int ub_backend_valid(const char *name)
{
	if (strcmp(name, "auto") == 0)
		return 1;
	for (int i = 0; i < NBACKENDS; i++)
		if (strcmp(name, backends[i]->name) == 0)
			return 1;
	return 0;
}

int ub_backend_get(const char *name, const struct ub_backend **be,
		   struct ub_error *err)
{
	char valid[128];
	if (!name)
		name = "sim";
	if (strcmp(name, "auto") == 0) {
		/* the GPU when it is usable; why it is not is no error here */
		*be = ub_backend_cuda.probe(NULL) == 0 ? &ub_backend_cuda : &ub_backend_sim;
		return 0;
	}
	for (int i = 0; i < NBACKENDS; i++)
		if (strcmp(name, backends[i]->name) == 0) {
			*be = backends[i];
			return backends[i]->probe(err);
		}
	return ub_fail(err, UB_USAGE, "unknown backend '%s' (valid: %s)", name,
		       ub_backend_names(valid, sizeof valid));
}

/* compute_NN or sm_NN, NN digits, then at most one of the suffixes a
 * (architecture-specific) and f (family): its NN, or -1. */
static int arch_number(const char *arg)
{
	const char *p = !strncmp(arg, "compute_", 8) ? arg + 8 :
			!strncmp(arg, "sm_", 3) ? arg + 3 : NULL;
	int nn = 0, digits = 0;
	for (; p && *p >= '0' && *p <= '9' && digits < 4; p++, digits++)
		nn = 10 * nn + (*p - '0');
	if (p && (*p == 'a' || *p == 'f'))
		p++;
	return p && digits && !*p ? nn : -1;
}

int ub_arch_parse(const char *arg, const char **arch, int *arch_set,
		  struct ub_error *err)
{
	char valid[512] = "";
	int archs[128], n = ub_nvrtc_archs(archs, 128), nn = arch_number(arg), ok = 0;
	for (int i = 0; i < n; i++) {
		ok |= archs[i] == nn;
		snprintf(valid + strlen(valid), sizeof valid - strlen(valid), "%s%d",
			 i ? ", " : "", archs[i]);
	}
	/* the value reaches NVRTC as one option: nothing else may ride on it */
	if (!ok)
		return ub_fail(err, UB_USAGE, "--arch: '%s' is not compute_NN or sm_NN "
			       "(optionally with a or f after NN) with NN one of NVRTC "
			       "%s's: %s", arg, ub_nvrtc_version(), n ? valid : "(unknown)");
	*arch = arg;
	*arch_set = 1;
	return 0;
}

int ub_job_compile(const struct ub_job *job, int cubin, char **out,
		   size_t *size, struct ub_error *err)
{
	const struct ub_toolkit *tk = job->toolkit ? job->toolkit : ub_toolkit_default();
	*size = 0;
	if (job->unit)
		return ub_nvcc_compile_tk(tk, job->unit, job->opts, job->arch, cubin,
					  out, size, err);
	if (cubin)
		return ub_nvrtc_compile_cubin_tk(tk, job->src, job->name, job->opts,
						 job->arch, (void **)out, size, err);
	return ub_nvrtc_compile_tk(tk, job->src, job->name, job->opts, job->arch,
				   out, NULL, err);
}
