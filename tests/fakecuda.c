/* fakecuda.c — a stand-in for the NVIDIA driver (libcuda.so.1), so the
 * cuda backend's code runs and fails on a machine without a GPU.
 *
 * tests/cuda.test compiles it with the PTX interpreter into a shared
 * library and points ulpbench at it with ULPBENCH_LIBCUDA.  It is written
 * from the driver API's documentation, without cuda.h: the exported names
 * are the versioned symbols a real driver exports (cuMemAlloc_v2, ...),
 * the constants those of cuda.h 13.0 (quoted beside each).  "Device memory"
 * is host memory filled with 0xa5 bytes, so a buffer the backend forgets
 * to copy shows; kernels given as PTX run on the interpreter (src/exec/ptx/),
 * so results can be compared with the sim bit for bit.  A CUBIN (an ELF
 * image for EM_CUDA) is recognised and refused with
 * CUDA_ERROR_NOT_SUPPORTED, which tells a test that a CUBIN was made.
 *
 * $FAKECUDA selects a failure: nodevice (cuInit: CUDA_ERROR_NO_DEVICE),
 * zero (no device counted), badimage (cuModuleLoadData:
 * CUDA_ERROR_INVALID_PTX), crash (cuCtxSynchronize:
 * CUDA_ERROR_ILLEGAL_ADDRESS), flip (every copy back to the host has the
 * lowest bit of its first byte flipped: a GPU that differs from the sim),
 * nofree (cuMemFree_v2 frees, then says CUDA_ERROR_INVALID_VALUE).  $FAKECUDA_CC is the compute capability
 * (default 90).  $FAKECUDA_LOG names a file that gets one line per launch:
 * "launch ENTRY grid=X,Y,Z block=X,Y,Z params=N".  Built with
 * -DFAKECUDA_OLD it lacks cuLaunchKernel, as a too old driver would. */
#include "ptx.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;

enum { /* cuda.h 13.0, enum cudaError_enum */
	SUCCESS = 0, INVALID_VALUE = 1, NO_DEVICE = 100, INVALID_IMAGE = 200,
	INVALID_PTX = 218, NOT_FOUND = 500, ILLEGAL_ADDRESS = 700,
	NOT_SUPPORTED = 801,
};
enum { /* cuda.h 13.0, enum CUdevice_attribute_enum */
	ATTR_SMS = 16, ATTR_CC_MAJOR = 75, ATTR_CC_MINOR = 76,
};

static const struct { int code; const char *name, *desc; } errors[] = {
	{SUCCESS, "CUDA_SUCCESS", "no error"},
	{INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
	{NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
	{INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
	{INVALID_PTX, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
	{NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
	{ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered"},
	{NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
};

struct function { struct module *mod; char name[256]; int nparams; struct function *next; };
struct module { struct ptx_module *m; struct function *funcs; };
struct alloc { void *p; size_t size; };

#define MAX_ALLOCS 256
static struct alloc allocs[MAX_ALLOCS];
static CUresult pending; /* a failed launch, returned by the next sync */

static int mode(const char *m)
{
	const char *e = getenv("FAKECUDA");
	return e && strcmp(e, m) == 0;
}

CUresult cuGetErrorName(CUresult r, const char **s)
{
	for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
		if (errors[i].code == r) {
			*s = errors[i].name;
			return SUCCESS;
		}
	return INVALID_VALUE;
}

CUresult cuGetErrorString(CUresult r, const char **s)
{
	for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
		if (errors[i].code == r) {
			*s = errors[i].desc;
			return SUCCESS;
		}
	return INVALID_VALUE;
}

CUresult cuInit(unsigned flags)
{
	return flags ? INVALID_VALUE : mode("nodevice") ? NO_DEVICE : SUCCESS;
}

CUresult cuDriverGetVersion(int *v) { *v = 13000; return SUCCESS; }
CUresult cuDeviceGetCount(int *n) { *n = mode("zero") ? 0 : 1; return SUCCESS; }
CUresult cuDeviceGet(int *d, int ordinal) { *d = ordinal; return ordinal ? INVALID_VALUE : SUCCESS; }

CUresult cuDeviceGetName(char *name, int len, int dev)
{
	(void)dev;
	snprintf(name, (size_t)len, "ulpbench fake device");
	return SUCCESS;
}

CUresult cuDeviceGetAttribute(int *v, int attr, int dev)
{
	const char *e = getenv("FAKECUDA_CC");
	int cc = e ? atoi(e) : 90;
	(void)dev;
	switch (attr) {
	case ATTR_CC_MAJOR: *v = cc / 10; return SUCCESS;
	case ATTR_CC_MINOR: *v = cc % 10; return SUCCESS;
	case ATTR_SMS: *v = 1; return SUCCESS;
	default: return INVALID_VALUE;
	}
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, int dev) { (void)dev; *bytes = (size_t)1 << 30; return SUCCESS; }
CUresult cuDevicePrimaryCtxRetain(void **ctx, int dev) { (void)dev; *ctx = allocs; return SUCCESS; }
CUresult cuCtxSetCurrent(void *ctx) { return ctx == allocs ? SUCCESS : INVALID_VALUE; }

CUresult cuCtxSynchronize(void)
{
	return mode("crash") ? ILLEGAL_ADDRESS : pending;
}

CUresult cuModuleLoadData(struct module **out, const void *image)
{
	const unsigned char *b = image;
	struct ub_error err;
	if (mode("badimage"))
		return INVALID_PTX;
	if (memcmp(b, "\177ELF", 4) == 0) /* e_machine at 18: EM_CUDA = 190 */
		return b[18] + 256 * b[19] == 190 ? NOT_SUPPORTED : INVALID_IMAGE;
	struct module *m = calloc(1, sizeof *m);
	if (!m || ptx_parse(image, &m->m, &err)) {
		free(m);
		return INVALID_PTX;
	}
	*out = m;
	return SUCCESS;
}

CUresult cuModuleUnload(struct module *m)
{
	for (struct function *f = m->funcs, *next; f; f = next) {
		next = f->next;
		free(f);
	}
	ptx_free(m->m);
	free(m);
	return SUCCESS;
}

/* Functions belong to their module, freed with it. */
CUresult cuModuleGetFunction(struct function **out, struct module *m, const char *name)
{
	int np = ptx_entry_nparams(m->m, name);
	if (np < 0)
		return NOT_FOUND;
	struct function *f = calloc(1, sizeof *f);
	if (!f)
		return INVALID_VALUE;
	f->mod = m;
	f->nparams = np;
	f->next = m->funcs;
	m->funcs = f;
	snprintf(f->name, sizeof f->name, "%s", name);
	*out = f;
	return SUCCESS;
}

CUresult cuFuncGetParamInfo(struct function *f, size_t i, size_t *off, size_t *size)
{
	if (i >= (size_t)f->nparams)
		return INVALID_VALUE;
	*off = 8 * i;
	*size = 8;
	return SUCCESS;
}

CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t size)
{
	for (int i = 0; i < MAX_ALLOCS; i++)
		if (!allocs[i].p) {
			if (!size || !(allocs[i].p = malloc(size)))
				return INVALID_VALUE;
			memset(allocs[i].p, 0xa5, size);
			allocs[i].size = size;
			*p = (CUdeviceptr)(uintptr_t)allocs[i].p;
			return SUCCESS;
		}
	return INVALID_VALUE;
}

static struct alloc *find(CUdeviceptr p, size_t bytes)
{
	for (int i = 0; i < MAX_ALLOCS; i++)
		if (allocs[i].p && (uintptr_t)allocs[i].p == p && bytes <= allocs[i].size)
			return &allocs[i];
	return NULL;
}

CUresult cuMemFree_v2(CUdeviceptr p)
{
	struct alloc *a = find(p, 0);
	if (!a)
		return INVALID_VALUE;
	free(a->p);
	a->p = NULL;
	return mode("nofree") ? INVALID_VALUE : SUCCESS;
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n)
{
	struct alloc *a = find(dst, n);
	if (!a)
		return INVALID_VALUE;
	memcpy(a->p, src, n);
	return SUCCESS;
}

CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n)
{
	struct alloc *a = find(src, n);
	if (!a)
		return INVALID_VALUE;
	memcpy(dst, a->p, n);
	if (mode("flip") && n)
		*(unsigned char *)dst ^= 1;
	return SUCCESS;
}

static void log_launch(const struct function *f, const unsigned *g, const unsigned *b)
{
	const char *path = getenv("FAKECUDA_LOG");
	FILE *log = path ? fopen(path, "a") : NULL;
	if (!log)
		return;
	fprintf(log, "launch %s grid=%u,%u,%u block=%u,%u,%u params=%d\n", f->name,
		g[0], g[1], g[2], b[0], b[1], b[2], f->nparams);
	fclose(log);
}

#ifndef FAKECUDA_OLD
CUresult cuLaunchKernel(struct function *f, unsigned gx, unsigned gy, unsigned gz,
			unsigned bx, unsigned by, unsigned bz, unsigned shmem,
			void *stream, void **params, void **extra)
{
	struct ptx_buffer bufs[MAX_ALLOCS];
	uint64_t args[64];
	int nbufs = 0;
	struct ptx_run_info info;
	struct ub_error err;
	if (shmem || stream || extra || !params || f->nparams > 64)
		return INVALID_VALUE;
	for (int i = 0; i < f->nparams; i++) /* every parameter is 8 bytes here */
		memcpy(&args[i], params[i], 8);
	for (int i = 0; i < MAX_ALLOCS; i++)
		if (allocs[i].p)
			bufs[nbufs++] = (struct ptx_buffer){allocs[i].p, allocs[i].size, 1, NULL};
	struct ptx_launch l = {
		.grid = {gx, gy, gz}, .block = {bx, by, bz}, .args = args,
		.nargs = f->nparams, .bufs = bufs, .nbufs = nbufs,
	};
	log_launch(f, l.grid, l.block);
	if (ptx_run(f->mod->m, f->name, &l, &info, &err)) {
		fprintf(stderr, "fakecuda: %s\n", err.msg);
		pending = ILLEGAL_ADDRESS;
	}
	return SUCCESS;
}
#endif
