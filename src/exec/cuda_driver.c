/* cuda_driver.c — load the NVIDIA driver at run time and open device 0
 * (cuda_driver.h). */
#include "cuda_driver.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static struct {
	int done, status;
	struct ub_error err;
	struct ub_cu cu;
	struct ub_cuda_device dev;
} st;

int ub_cu_fail(struct ub_error *err, CUresult r, const char *what)
{
	const char *name = NULL, *desc = NULL;
	if (st.cu.cuGetErrorName_ && st.cu.cuGetErrorName_(r, &name) != CUDA_SUCCESS)
		name = NULL;
	if (st.cu.cuGetErrorString_ && st.cu.cuGetErrorString_(r, &desc) != CUDA_SUCCESS)
		desc = NULL;
	if (name && desc)
		return ub_fail(err, UB_RUNTIME, "cuda: %s: %s (%s)", what, name, desc);
	if (name)
		return ub_fail(err, UB_RUNTIME, "cuda: %s: %s", what, name);
	return ub_fail(err, UB_RUNTIME, "cuda: %s: CUDA error %d", what, (int)r);
}

/* dlopen()s the driver and resolves every entry point of UB_CU_FUNCS. */
static int load(struct ub_error *err)
{
	const char *path = getenv("ULPBENCH_LIBCUDA");
	if (!path || !*path)
		path = "libcuda.so.1";
	dlerror();
	void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		const char *why = dlerror();
		return ub_fail(err, UB_RUNTIME, "cuda: no NVIDIA driver: %s",
			       why ? why : path);
	}
#define X(fn, sym, req)                                                      \
	st.cu.fn##_ = (__typeof__(fn) *)dlsym(lib, sym);                     \
	if ((req) && !st.cu.fn##_)                                           \
		return ub_fail(err, UB_RUNTIME, "cuda: %s has no %s: the NVIDIA " \
			       "driver is too old", path, sym);
	UB_CU_FUNCS(X)
#undef X
	return 0; /* the library stays loaded for the life of the process */
}

#define CALL(fn, args)                                                     \
	do {                                                               \
		CUresult r_ = st.cu.fn##_ args;                            \
		if (r_ != CUDA_SUCCESS)                                    \
			return ub_cu_fail(err, r_, #fn);                   \
	} while (0)

static int attribute(CUdevice d, CUdevice_attribute a, int *v,
		     struct ub_error *err)
{
	CALL(cuDeviceGetAttribute, (v, a, d));
	return 0;
}

/* Initializes the driver, describes device 0 and makes its primary
 * context current. */
static int init(struct ub_error *err)
{
	struct ub_cuda_device *dv = &st.dev;
	int count = 0, s;
	CUdevice d;
	CUcontext ctx;
	/* Kernels loaded when their module is, not on first use (lazy
	 * loading, the driver's default since CUDA 12.2, read at cuInit, reads
	 * a module's kernels when they are first asked for).  Seen on an H200
	 * with driver 580 while images were freed right after loading them:
	 * the modes after the first of a run gave the first mode's results
	 * (docs/gpu-results.md).  A user's own setting is kept. */
	setenv("CUDA_MODULE_LOADING", "EAGER", 0);
	CALL(cuInit, (0));
	CALL(cuDriverGetVersion, (&dv->driver));
	CALL(cuDeviceGetCount, (&count));
	if (count < 1)
		return ub_fail(err, UB_RUNTIME, "cuda: no CUDA device (the driver "
			       "reports none; CUDA_VISIBLE_DEVICES?)");
	CALL(cuDeviceGet, (&d, 0));
	CALL(cuDeviceGetName, (dv->name, (int)sizeof dv->name - 1, d));
	if ((s = attribute(d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &dv->major, err)) ||
	    (s = attribute(d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &dv->minor, err)) ||
	    (s = attribute(d, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &dv->sms, err)))
		return s;
	CALL(cuDeviceTotalMem, (&dv->mem, d));
	CALL(cuDevicePrimaryCtxRetain, (&ctx, d));
	CALL(cuCtxSetCurrent, (ctx));
	return 0;
}

int ub_cuda_open(const struct ub_cu **cu, const struct ub_cuda_device **dev,
		 struct ub_error *err)
{
	if (!st.done) {
		st.done = 1;
		st.status = load(&st.err);
		if (!st.status)
			st.status = init(&st.err);
	}
	if (st.status)
		return ub_fail(err, st.status, "%s", st.err.msg);
	*cu = &st.cu;
	*dev = &st.dev;
	return 0;
}
