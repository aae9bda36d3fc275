/* cuda_driver.h — the NVIDIA driver API, loaded at run time.
 *
 * ulpbench has no link-time dependency on the driver: the first use
 * dlopen()s libcuda.so.1 (or $ULPBENCH_LIBCUDA, so tests can load a stub),
 * resolves the entry points below by their versioned names, initializes the
 * driver and retains device 0's primary context.  Every failure becomes one
 * line saying why: no driver, a driver too old, no device, an error code
 * with its name ("cuda: cuInit: CUDA_ERROR_NO_DEVICE (no CUDA-capable
 * device is detected)"). */
#ifndef UB_CUDA_DRIVER_H
#define UB_CUDA_DRIVER_H

#include <cuda.h>

#include "ub.h"

/* Entry points, declared once: X(name in cuda.h, exported symbol,
 * required).  The symbol is the versioned one cuda.h maps the name to
 * (cuMemAlloc -> cuMemAlloc_v2), which every driver since CUDA 4 exports;
 * optional ones may be missing from older drivers. */
#define UB_CU_FUNCS(X)                                                    \
	X(cuGetErrorName, "cuGetErrorName", 1)                              \
	X(cuGetErrorString, "cuGetErrorString", 0)                          \
	X(cuInit, "cuInit", 1)                                              \
	X(cuDriverGetVersion, "cuDriverGetVersion", 1)                      \
	X(cuDeviceGetCount, "cuDeviceGetCount", 1)                          \
	X(cuDeviceGet, "cuDeviceGet", 1)                                    \
	X(cuDeviceGetName, "cuDeviceGetName", 1)                            \
	X(cuDeviceGetAttribute, "cuDeviceGetAttribute", 1)                  \
	X(cuDeviceTotalMem, "cuDeviceTotalMem_v2", 1)                       \
	X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", 1)          \
	X(cuCtxSetCurrent, "cuCtxSetCurrent", 1)                            \
	X(cuCtxSynchronize, "cuCtxSynchronize", 1)                          \
	X(cuModuleLoadData, "cuModuleLoadData", 1)                          \
	X(cuModuleGetFunction, "cuModuleGetFunction", 1)                    \
	X(cuModuleUnload, "cuModuleUnload", 1)                              \
	X(cuFuncGetParamInfo, "cuFuncGetParamInfo", 0)                      \
	X(cuMemAlloc, "cuMemAlloc_v2", 1)                                   \
	X(cuMemFree, "cuMemFree_v2", 1)                                     \
	X(cuMemcpyHtoD, "cuMemcpyHtoD_v2", 1)                               \
	X(cuMemcpyDtoH, "cuMemcpyDtoH_v2", 1)                               \
	X(cuLaunchKernel, "cuLaunchKernel", 1)

/* The driver's functions; a field is NULL for a missing optional one.
 * (The field names carry a trailing _ so cuda.h's macros leave them be.) */
struct ub_cu {
#define X(fn, sym, req) __typeof__(fn) *fn##_;
	UB_CU_FUNCS(X)
#undef X
};

struct ub_cuda_device {
	char name[256];
	int major, minor;  /* compute capability */
	int driver;        /* cuDriverGetVersion: 13000 for CUDA 13.0 */
	int sms;           /* multiprocessors */
	size_t mem;        /* bytes of device memory */
};

/* Loads and initializes the driver and device 0 once; later calls return
 * the first outcome.  0, or UB_RUNTIME with the reason ("cuda: ..."). */
int ub_cuda_open(const struct ub_cu **cu, const struct ub_cuda_device **dev,
		 struct ub_error *err);

/* Fails with "cuda: WHAT: CUDA_ERROR_NAME (description)" as UB_RUNTIME. */
int ub_cu_fail(struct ub_error *err, CUresult r, const char *what);

#endif
