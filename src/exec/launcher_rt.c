/* launcher_rt.c — the CUDA runtime stand-in of a --launcher (launcher_rt.h).
 *
 * The host code, compiled by nvcc against no runtime, registers its
 * kernels when it is loaded (__cudaRegisterFunction: the host stub's
 * address and the kernel's mangled name, which is its .entry in the PTX)
 * and launches them through __cudaPushCallConfiguration, then the stub's
 * __cudaLaunchKernel, or through cudaLaunchKernel.  A launch runs at once,
 * to its end, on the interpreter: the order of the calls is the order of
 * the work, whatever the streams say, as on one GPU stream.  The kernel's
 * parameters are read from the launch's argument pointers at the widths
 * its PTX declares.  Device memory is host memory: the run's arrays (an
 * input read-only) and what cudaMalloc returned (zeroed), every kernel
 * access and every cudaMemcpy or cudaMemset of device memory checked
 * against them.  The first failure is kept and returned by the call;
 * every later runtime call then fails at once, as after a sticky CUDA
 * error.  What the stand-in does not have (textures, graphs, events with
 * timing, symbols) is not exported: the host code then does not load. */
#include "launcher_rt.h"
#include "backend.h"
#include "ptx.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FNS 512
#define MAX_ALLOCS 256

typedef int cudaError_t;
typedef struct { unsigned x, y, z; } dim3;

enum { OK = 0, E_VALUE = 1, E_ALLOC = 2, E_CONFIG = 9, E_LAUNCH = 719,
       E_FUNC = 98, E_UNSUPPORTED = 801 };

/* Every kernel the loaded host code registered: stub address, name. */
static struct { const void *host; char *name; } fns[MAX_FNS];
static int nfns;

/* The call in progress (one at a time: a launcher runs on one thread). */
struct call {
	const char *name, *ptx;
	const struct ub_geom *geom;
	int nbufs;
	struct ptx_buffer bufs[UB_MAX_KARGS + MAX_ALLOCS];
	char names[UB_MAX_KARGS][80];
	int nalloc;
	void *alloc[MAX_ALLOCS];
	dim3 grid, block;    /* the pushed launch configuration */
	size_t shared;
	int launches;
	cudaError_t code;    /* the first failure, kept */
	struct ub_error err;
	uint64_t approx;
};
static struct call *cur;

/* The failure that stops the call: kept (the first), returned. */
static cudaError_t failed(cudaError_t code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static cudaError_t failed(cudaError_t code, const char *fmt, ...)
{
	if (cur && !cur->code) {
		char msg[900];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(msg, sizeof msg, fmt, ap);
		va_end(ap);
		cur->code = code;
		ub_fail(&cur->err, code == E_UNSUPPORTED ? UB_USAGE : UB_RUNTIME, "%s", msg);
	}
	return code;
}

/* The buffer holding [p, p + n), or NULL. */
static const struct ptx_buffer *buffer(const void *p, size_t n)
{
	for (int i = 0; cur && i < cur->nbufs; i++) {
		const char *b = cur->bufs[i].base;
		if ((const char *)p >= b && n <= cur->bufs[i].size &&
		    (size_t)((const char *)p - b) <= cur->bufs[i].size - n)
			return &cur->bufs[i];
	}
	return NULL;
}

/* Device memory [p, p + n), to be written or not: 0, or the failure. */
static cudaError_t device(const void *p, size_t n, int write, const char *what)
{
	const struct ptx_buffer *b = buffer(p, n);
	if (!b)
		return failed(E_VALUE, "%s of %zu bytes outside the run's arrays and the "
			      "launcher's allocations", what, n);
	if (write && !b->writable)
		return failed(E_VALUE, "%s writes %s, which the kernels only read", what,
			      b->name ? b->name : "an input");
	return OK;
}

void **__cudaRegisterFatBinary(void *fat);
void **__cudaRegisterFatBinary(void *fat)
{
	static void *handle;
	(void)fat;
	return &handle;
}

void __cudaRegisterFatBinaryEnd(void **h);
void __cudaRegisterFatBinaryEnd(void **h) { (void)h; }
void __cudaUnregisterFatBinary(void **h);
void __cudaUnregisterFatBinary(void **h)
{
	(void)h;
	for (int i = 0; i < nfns; i++)
		free(fns[i].name);
	nfns = 0;
}
char __cudaInitModule(void **h);
char __cudaInitModule(void **h) { (void)h; return 1; }

void __cudaRegisterFunction(void **h, const char *host, char *dev, const char *name,
			    int limit, void *tid, void *bid, void *bdim, void *gdim, int *wsize);
void __cudaRegisterFunction(void **h, const char *host, char *dev, const char *name,
			    int limit, void *tid, void *bid, void *bdim, void *gdim, int *wsize)
{
	(void)h, (void)dev, (void)limit, (void)tid, (void)bid, (void)bdim, (void)gdim, (void)wsize;
	if (nfns < MAX_FNS && (fns[nfns].name = strdup(name)))
		fns[nfns++].host = host;
}

/* A __device__ variable: the kernels find it in the PTX module; the host
 * cannot reach it (cudaMemcpyToSymbol is not provided). */
void __cudaRegisterVar(void **h, char *host, char *dev, const char *name, int ext,
		       size_t size, int constant, int global);
void __cudaRegisterVar(void **h, char *host, char *dev, const char *name, int ext,
		       size_t size, int constant, int global)
{
	(void)h, (void)host, (void)dev, (void)name, (void)ext, (void)size, (void)constant,
	(void)global;
}

unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, void *stream);
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, void *stream)
{
	(void)stream;
	if (cur) {
		cur->grid = grid;
		cur->block = block;
		cur->shared = shared;
	}
	return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shared, void *stream);
cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shared, void *stream)
{
	*(void **)stream = NULL;
	if (!cur)
		return E_CONFIG;
	*grid = cur->grid;
	*block = cur->block;
	*shared = cur->shared;
	return OK;
}

cudaError_t __cudaGetKernel(void **kernel, const void *host);
cudaError_t __cudaGetKernel(void **kernel, const void *host)
{
	*kernel = (void *)host;
	return OK;
}

/* The bytes of one .param declaration from p to its line's end: its
 * type's width (.u32: 4; the .align, .ptr and state space words are read
 * past), times N for an array NAME[N]. */
static int width(const char *p, const char *end)
{
	int w = 1;
	for (p += 6; p < end; p++) {
		if (p[0] == '.' && strchr("usbf", p[1]) && p[2] >= '0' && p[2] <= '9') {
			int bits = atoi(p + 2);
			w = bits == 64 ? 8 : bits == 32 ? 4 : bits == 16 ? 2 : 1;
		} else if (p[0] == '[') {
			return w * atoi(p + 1);
		} else if (p[0] == '.' && !strncmp(p, ".align", 6)) {
			p += 6;   /* its number is no type */
		}
	}
	return w;
}

/* The widths of kernel name's parameters, from its .entry in ptx: bytes
 * each into sz (at most max); the count, or -1. */
static int widths(const char *ptx, const char *name, int *sz, int max)
{
	char pat[1100];
	snprintf(pat, sizeof pat, ".entry %s(", name);
	const char *p = strstr(ptx, pat), *end = p ? strchr(p, ')') : NULL;
	int n = 0;
	for (p = p ? strstr(p, ".param") : NULL; p && p < end && n < max;
	     p = strstr(p + 6, ".param")) {
		const char *line = strchr(p, '\n') && strchr(p, '\n') < end ? strchr(p, '\n') : end;
		sz[n++] = width(p, line);
	}
	return end ? n : -1;
}

static cudaError_t launch(const void *host, dim3 grid, dim3 block, void **args,
			  size_t shared)
{
	const char *name = NULL;
	int sz[64];
	uint64_t vals[64];
	if (!cur)
		return E_LAUNCH;
	if (cur->code)
		return cur->code;
	for (int i = 0; i < nfns && !name; i++)
		name = fns[i].host == host ? fns[i].name : NULL;
	if (!name)
		return failed(E_FUNC, "a launch of a function the host code did not register "
			      "as a kernel");
	struct ptx_module *m = NULL;
	struct ub_error e = {""};
	int np = widths(cur->ptx, name, sz, 64);
	if (np < 0 || ptx_parse_for(cur->ptx, name, &m, &e))
		return failed(E_LAUNCH, "kernel %s: %s", name, np < 0 ? "not in the PTX" : e.msg);
	for (int i = 0; i < np; i++) {
		vals[i] = 0;
		if (sz[i] > 8) {
			ptx_free(m);
			return failed(E_UNSUPPORTED, "kernel %s: a parameter passed by value of "
				      "more than 8 bytes is not run by the stand-in", name);
		}
		memcpy(&vals[i], args[i], (size_t)sz[i]);   /* little endian */
	}
	struct ptx_launch l = {
		.grid = {grid.x, grid.y, grid.z}, .block = {block.x, block.y, block.z},
		.args = vals, .nargs = np, .bufs = cur->bufs, .nbufs = cur->nbufs,
		.shared_bytes = shared, .atomic_seeded = cur->geom && cur->geom->atomic_seeded,
		.atomic_seed = cur->geom ? cur->geom->atomic_seed : 0,
	};
	struct ptx_run_info info;
	memset(&info, 0, sizeof info);
	cur->launches++;
	int s = ptx_run_traced(m, name, &l, NULL, &info, &e);
	ptx_free(m);
	cur->approx |= info.approx_mask | (info.unmarked_fp ? UB_APPROX_UNMARKED : 0);
	if (s)
		return failed(E_LAUNCH, "launch %d, kernel %s: %s", cur->launches, name, e.msg);
	return OK;
}

cudaError_t __cudaLaunchKernel(void *k, dim3 grid, dim3 block, void **args, size_t shared,
			       void *stream);
cudaError_t __cudaLaunchKernel(void *k, dim3 grid, dim3 block, void **args, size_t shared,
			       void *stream)
{
	(void)stream;
	return launch(k, grid, block, args, shared);
}

cudaError_t __cudaLaunchKernel_ptsz(void *k, dim3 grid, dim3 block, void **args,
				    size_t shared, void *stream);
cudaError_t __cudaLaunchKernel_ptsz(void *k, dim3 grid, dim3 block, void **args,
				    size_t shared, void *stream)
{
	(void)stream;
	return launch(k, grid, block, args, shared);
}

cudaError_t cudaLaunchKernel(const void *f, dim3 grid, dim3 block, void **args,
			     size_t shared, void *stream);
cudaError_t cudaLaunchKernel(const void *f, dim3 grid, dim3 block, void **args,
			     size_t shared, void *stream)
{
	(void)stream;
	return launch(f, grid, block, args, shared);
}

/* Device memory: cudaMalloc'd host memory (zeroed), tracked. */
static int add_alloc(void *p, size_t n)
{
	if (!cur || cur->nalloc == MAX_ALLOCS)
		return -1;
	cur->alloc[cur->nalloc++] = p;
	cur->bufs[cur->nbufs++] = (struct ptx_buffer){p, n, 1, "the launcher's allocation"};
	return 0;
}

cudaError_t cudaMalloc(void **p, size_t n);
cudaError_t cudaMalloc(void **p, size_t n)
{
	if (cur && cur->code)
		return cur->code;
	*p = n ? calloc(1, n) : NULL;
	if (n && (!*p || add_alloc(*p, n))) {
		free(*p);
		*p = NULL;
		return failed(E_ALLOC, "cudaMalloc of %zu bytes: out of memory (or more than "
			      "%d allocations)", n, MAX_ALLOCS);
	}
	return OK;
}

cudaError_t cudaMallocAsync(void **p, size_t n, void *stream);
cudaError_t cudaMallocAsync(void **p, size_t n, void *stream)
{
	(void)stream;
	return cudaMalloc(p, n);
}

cudaError_t cudaFree(void *p);
cudaError_t cudaFree(void *p)
{
	if (!p || !cur)
		return OK;
	for (int i = 0; i < cur->nalloc; i++)
		if (cur->alloc[i] == p) {
			for (int b = 0; b < cur->nbufs; b++)
				if (cur->bufs[b].base == p)
					cur->bufs[b] = cur->bufs[--cur->nbufs];
			cur->alloc[i] = cur->alloc[--cur->nalloc];
			free(p);
			return OK;
		}
	return failed(E_VALUE, "cudaFree of a pointer cudaMalloc did not return");
}

cudaError_t cudaFreeAsync(void *p, void *stream);
cudaError_t cudaFreeAsync(void *p, void *stream)
{
	(void)stream;
	return cudaFree(p);
}

/* cudaMemcpyKind: host to host, host to device, device to host, device to
 * device, default (by where the pointers are). */
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, int kind);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, int kind)
{
	if (cur && cur->code)
		return cur->code;
	int dd = kind == 1 || kind == 3 || (kind == 4 && buffer(dst, n));
	int sd = kind == 2 || kind == 3 || (kind == 4 && buffer(src, n));
	cudaError_t e = kind < 0 || kind > 4 ? failed(E_VALUE, "cudaMemcpy: kind %d", kind) : OK;
	if (!e && dd)
		e = device(dst, n, 1, "cudaMemcpy to device memory");
	if (!e && sd)
		e = device(src, n, 0, "cudaMemcpy from device memory");
	if (!e && n)
		memmove(dst, src, n);
	return e;
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, int kind, void *stream);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, int kind, void *stream)
{
	(void)stream;
	return cudaMemcpy(dst, src, n, kind);
}

cudaError_t cudaMemset(void *p, int v, size_t n);
cudaError_t cudaMemset(void *p, int v, size_t n)
{
	if (cur && cur->code)
		return cur->code;
	cudaError_t e = device(p, n, 1, "cudaMemset");
	if (!e && n)
		memset(p, v, n);
	return e;
}

cudaError_t cudaMemsetAsync(void *p, int v, size_t n, void *stream);
cudaError_t cudaMemsetAsync(void *p, int v, size_t n, void *stream)
{
	(void)stream;
	return cudaMemset(p, v, n);
}

/* Streams: one, the default; synchronizing is a no-op (work ran at once). */
cudaError_t cudaStreamCreate(void **s);
cudaError_t cudaStreamCreate(void **s)
{
	static char stream;
	*s = &stream;
	return OK;
}
cudaError_t cudaStreamCreateWithFlags(void **s, unsigned flags);
cudaError_t cudaStreamCreateWithFlags(void **s, unsigned flags)
{
	(void)flags;
	return cudaStreamCreate(s);
}
cudaError_t cudaStreamDestroy(void *s);
cudaError_t cudaStreamDestroy(void *s) { (void)s; return OK; }
cudaError_t cudaStreamSynchronize(void *s);
cudaError_t cudaStreamSynchronize(void *s) { (void)s; return cur ? cur->code : OK; }
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceSynchronize(void) { return cur ? cur->code : OK; }
cudaError_t cudaGetLastError(void);
cudaError_t cudaGetLastError(void) { return cur ? cur->code : OK; }
cudaError_t cudaPeekAtLastError(void);
cudaError_t cudaPeekAtLastError(void) { return cur ? cur->code : OK; }
cudaError_t cudaFuncSetAttribute(const void *f, int attr, int v);
cudaError_t cudaFuncSetAttribute(const void *f, int attr, int v)
{
	(void)f, (void)attr, (void)v;
	return OK;
}

const char *cudaGetErrorString(cudaError_t e);
const char *cudaGetErrorString(cudaError_t e)
{
	return e == OK ? "no error" : cur && cur->code == e ? cur->err.msg
	       : "an error of ulpbench's CUDA runtime stand-in";
}
const char *cudaGetErrorName(cudaError_t e);
const char *cudaGetErrorName(cudaError_t e)
{
	return e == OK ? "cudaSuccess" : e == E_VALUE ? "cudaErrorInvalidValue" : e == E_ALLOC
	       ? "cudaErrorMemoryAllocation" : "cudaErrorLaunchFailure";
}

/* The device: one, an H100's launch limits (torch_reduce.h's). */
cudaError_t cudaGetDevice(int *d);
cudaError_t cudaGetDevice(int *d) { *d = 0; return OK; }
cudaError_t cudaSetDevice(int d);
cudaError_t cudaSetDevice(int d) { return d == 0 ? OK : E_VALUE; }
cudaError_t cudaDeviceGetAttribute(int *v, int attr, int dev);
cudaError_t cudaDeviceGetAttribute(int *v, int attr, int dev)
{
	(void)dev;
	switch (attr) {
	case 1: *v = 1024; return OK;   /* cudaDevAttrMaxThreadsPerBlock */
	case 8: *v = 49152; return OK;  /* cudaDevAttrMaxSharedMemoryPerBlock */
	case 10: *v = 32; return OK;    /* cudaDevAttrWarpSize */
	case 16: *v = 132; return OK;   /* cudaDevAttrMultiProcessorCount */
	case 39: *v = 2048; return OK;  /* cudaDevAttrMaxThreadsPerMultiProcessor */
	default:
		return failed(E_UNSUPPORTED, "cudaDeviceGetAttribute(%d): an attribute the "
			      "stand-in does not know", attr);
	}
}

int ub_lrt_call(int (*call)(void **a), const char *name, const char *ptx,
		const struct ub_karg *args, int nargs, const struct ub_geom *geom,
		uint64_t *approx, struct ub_error *err)
{
	static struct call c;
	uint64_t store[UB_MAX_KARGS];
	void *a[UB_MAX_KARGS];
	memset(&c, 0, sizeof c);
	c.name = name;
	c.ptx = ptx;
	c.geom = geom;
	for (int i = 0; i < nargs && i < UB_MAX_KARGS; i++) {
		store[i] = args[i].arr ? (uint64_t)(uintptr_t)args[i].arr->data : args[i].value;
		a[i] = &store[i];
		if (!args[i].arr)
			continue;
		struct ptx_buffer *b = &c.bufs[c.nbufs];
		snprintf(c.names[c.nbufs], sizeof c.names[c.nbufs], "%s '%s'",
			 args[i].writable ? "output" : "input", args[i].name ? args[i].name : "?");
		*b = (struct ptx_buffer){args[i].arr->data, ub_karg_bytes(&args[i]),
					 args[i].writable, c.names[c.nbufs]};
		c.nbufs++;
	}
	cur = &c;
	call(a);
	cur = NULL;
	for (int i = 0; i < c.nalloc; i++)   /* the launcher's leftovers */
		free(c.alloc[i]);
	*approx |= c.approx;
	if (c.code) {
		*err = c.err;
		return ub_prefix(err, c.err.msg[0] && c.code == E_UNSUPPORTED ? UB_USAGE
				 : UB_RUNTIME, "--launcher %s: ", name);
	}
	return 0;
}
