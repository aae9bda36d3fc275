/* cuda.c — the cuda backend: NVRTC (nvcc for a --kernel file) to a CUBIN
 * for the device's own architecture (or PTX for a compute_NN --arch,
 * which the driver compiles),
 * then the kernel on the GPU over device copies of the arrays, with the
 * sim's launch geometry (sim.h).  Every driver call is checked; a failure
 * names the kernel, the call and the error ("cuda: atan_bwd.cu:
 * cuModuleLoadData: CUDA_ERROR_INVALID_PTX (...)"). */
#include "backend.h"
#include "cuda_driver.h"
#include "nvrtc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS UB_MAX_KARGS

static int cuda_probe(struct ub_error *err)
{
	const struct ub_cu *cu;
	const struct ub_cuda_device *dev;
	return ub_cuda_open(&cu, &dev, err);
}

/* sm_XY of the device when NVRTC knows it; else PTX for the newest
 * architecture NVRTC has below it, for the driver to compile. */
static const char *cuda_arch(const char *arch, int arch_set)
{
	static char buf[32];
	const struct ub_cu *cu;
	const struct ub_cuda_device *dev;
	if (arch_set || ub_cuda_open(&cu, &dev, NULL))
		return arch;
	int sm = dev->major * 10 + dev->minor, best = ub_nvrtc_best_arch(sm);
	if (best == sm || best == 0)
		snprintf(buf, sizeof buf, "sm_%d", sm);
	else
		snprintf(buf, sizeof buf, "compute_%d", best);
	return buf;
}

/* What one launch holds on the device, released by release(). */
struct launch {
	const struct ub_cu *cu;
	CUmodule mod;
	char *image;   /* what mod was loaded from */
	int nbufs;
	CUdeviceptr dptr[MAX_ARGS];
};

/* "NAME: WHAT" for messages. */
static int fail(const struct ub_job *job, CUresult r, const char *what,
		struct ub_error *err)
{
	char buf[512];
	snprintf(buf, sizeof buf, "%s: %s", job->name, what);
	return ub_cu_fail(err, r, buf);
}

/* Frees everything; a failure to do so is the run's error unless it had
 * one already (then the context is likely broken and frees fail too). */
static int release(const struct ub_job *job, struct launch *l, int s,
		   struct ub_error *err)
{
	CUresult r;
	for (int i = 0; i < l->nbufs; i++)
		if (l->dptr[i] && (r = l->cu->cuMemFree_(l->dptr[i])) != CUDA_SUCCESS && !s)
			s = fail(job, r, "cuMemFree", err);
	if (l->mod && (r = l->cu->cuModuleUnload_(l->mod)) != CUDA_SUCCESS && !s)
		s = fail(job, r, "cuModuleUnload", err);
	free(l->image);
	return s;
}

/* Compiles the job and loads it: a CUBIN for sm_NN, else PTX. */
static int load(const struct ub_job *job, struct launch *l, struct ub_error *err)
{
	char *image = NULL;
	size_t size = 0;
	if (job->ptx)   /* Triton's: ptxas options of its own (triton.h) */
		return ub_fail(err, UB_USAGE, "cuda: %s: Triton kernels run on the "
			       "sim backend only (--backend sim)", job->name);
	int s = ub_job_compile(job, strncmp(job->arch, "sm_", 3) == 0, &image, &size, err);
	if (s)
		return s;
	/* the image lives until the module is unloaded (release): with lazy
	 * loading, CUDA's default since 12.2, kernels are read from it later
	 * than cuModuleLoadData (ub_cuda_open asks for eager loading too) */
	CUresult r = l->cu->cuModuleLoadData_(&l->mod, image);
	l->image = image;
	if (r != CUDA_SUCCESS) {
		l->mod = NULL;
		return fail(job, r, "cuModuleLoadData", err);
	}
	return 0;
}

/* The kernel, checked against the bindings as the sim checks them. */
static int function(const struct ub_job *job, struct launch *l, CUfunction *f,
		    struct ub_error *err)
{
	CUresult r = l->cu->cuModuleGetFunction_(f, l->mod, job->entry);
	if (r == CUDA_ERROR_NOT_FOUND)
		return ub_fail(err, UB_USAGE, "%s: no such kernel in the module "
			       "(is it declared extern \"C\" __global__?)", job->entry);
	if (r != CUDA_SUCCESS)
		return fail(job, r, "cuModuleGetFunction", err);
	if (!l->cu->cuFuncGetParamInfo_) /* drivers before CUDA 12.4 */
		return 0;
	int np = 0;
	size_t off, size;
	while (np <= MAX_ARGS && l->cu->cuFuncGetParamInfo_(*f, (size_t)np, &off, &size) == CUDA_SUCCESS)
		np++;
	if (np != job->nargs)
		return ub_fail(err, UB_USAGE, "%s: the kernel takes %d parameters, "
			       "%d are bound", job->entry, np, job->nargs);
	return 0;
}

/* Device copies of the arrays (outputs too, so the kernel starts from the
 * same contents as on the sim); vals[i] is parameter i. */
static int bind(const struct ub_job *job, struct launch *l, uint64_t *vals,
		struct ub_error *err)
{
	for (int i = 0; i < job->nargs; i++) {
		const struct ub_array *a = job->args[i].arr;
		if (!a) {
			vals[i] = job->args[i].value;
			continue;
		}
		size_t bytes = ub_karg_bytes(&job->args[i]);
		CUdeviceptr *p = &l->dptr[l->nbufs++];
		CUresult r = l->cu->cuMemAlloc_(p, bytes ? bytes : 1);
		if (r != CUDA_SUCCESS) {
			*p = 0;
			return fail(job, r, "cuMemAlloc", err);
		}
		if (bytes && (r = l->cu->cuMemcpyHtoD_(*p, a->data, bytes)) != CUDA_SUCCESS)
			return fail(job, r, "cuMemcpyHtoD", err);
		vals[i] = (uint64_t)*p;
	}
	return 0;
}

static int copy_back(const struct ub_job *job, struct launch *l,
		     struct ub_error *err)
{
	for (int i = 0, b = 0; i < job->nargs; i++) {
		const struct ub_array *a = job->args[i].arr;
		if (!a)
			continue;
		size_t bytes = ub_karg_bytes(&job->args[i]);
		CUresult r = CUDA_SUCCESS;
		if (job->args[i].writable && bytes)
			r = l->cu->cuMemcpyDtoH_(a->data, l->dptr[b], bytes);
		if (r != CUDA_SUCCESS)
			return fail(job, r, "cuMemcpyDtoH", err);
		b++;
	}
	return 0;
}

static int launch(const struct ub_job *job, struct launch *l, CUfunction f,
		  uint64_t *vals, struct ub_error *err)
{
	void *params[MAX_ARGS];
	for (int i = 0; i < job->nargs; i++)
		params[i] = &vals[i];
	unsigned grid[3], block[3];
	ub_geom_dims(&job->geom, job->n, grid, block);
	CUresult r = l->cu->cuLaunchKernel_(f, grid[0], grid[1], grid[2], block[0],
					   block[1], block[2],
					   (unsigned)job->geom.shared, NULL, params, NULL);
	if (r != CUDA_SUCCESS)
		return fail(job, r, "cuLaunchKernel", err);
	if ((r = l->cu->cuCtxSynchronize_()) != CUDA_SUCCESS) {
		char what[256];
		snprintf(what, sizeof what, "kernel %s failed: cuCtxSynchronize", job->entry);
		return fail(job, r, what, err);
	}
	return 0;
}

static int cuda_run(const struct ub_job *job, uint64_t *approx,
		    struct ub_error *err)
{
	const struct ub_cuda_device *dev;
	struct launch l = {0};
	uint64_t vals[MAX_ARGS];
	CUfunction f;
	(void)approx; /* the GPU's own bits: nothing modelled */
	if (job->launcher)
		return ub_fail(err, UB_USAGE, "%s: --launcher runs on the sim backend "
			       "(--backend sim): its CUDA runtime is ulpbench's stand-in",
			       job->name);
	if (job->nargs > MAX_ARGS)
		return ub_fail(err, UB_USAGE, "%s: more than %d parameters",
			       job->entry, MAX_ARGS);
	int s = ub_cuda_open(&l.cu, &dev, err);
	if (!s)
		s = load(job, &l, err);
	if (!s)
		s = function(job, &l, &f, err);
	if (!s)
		s = bind(job, &l, vals, err);
	if (!s)
		s = launch(job, &l, f, vals, err);
	if (!s)
		s = copy_back(job, &l, err);
	return l.cu ? release(job, &l, s, err) : s;
}

const struct ub_backend ub_backend_cuda = {
	.name = "cuda", .probe = cuda_probe, .arch = cuda_arch, .run = cuda_run,
};
