/* ptx_limits.c — the limits a GPU enforces on a launch, checked before
 * it runs (memcheck): what the hardware or ptxas refuses is an error
 * here too, never a run that a GPU would not make.
 *
 * Threads per block at most 1024, block dimensions at most 1024 x 1024 x
 * 64, grid dimensions at most (2^31 - 1) x 65535 x 65535 (CUDA's limits
 * for every architecture since compute capability 3.0).  Static .shared
 * memory of a kernel (the variables it names) at most 48 KiB: ptxas
 * refuses more ("uses too much shared data (0xc004 bytes, 0xc000 max)",
 * for every sm_ target of CUDA 13.0; larger tiles are dynamic).  Static
 * and dynamic together at most the architecture's maximum per block, the
 * opt-in one (cudaFuncAttributeMaxDynamicSharedMemorySize: the launch is
 * taken to set it), from the CUDA C++ Programming Guide's table
 * "Technical Specifications per Compute Capability", "Maximum amount of
 * shared memory per thread block". */
#include "ptx_internal.h"

#include <stdio.h>

#define STATIC_SHARED_MAX 49152u   /* 0xc000: ptxas's */

/* X(sm, KiB): the most .shared memory of a block. */
#define PTX_SMEM_LIMITS(X)                                                \
	X(70, 96) X(72, 96) X(75, 64) X(80, 163) X(86, 99) X(87, 163)     \
	X(89, 99) X(90, 227) X(100, 227) X(120, 99)

/* The limit of sm_NN in bytes; 0 when ulpbench does not know it. */
static uint64_t smem_limit(int sm)
{
#define X(s, kib) if (sm == (s)) return (uint64_t)(kib) * 1024;
	PTX_SMEM_LIMITS(X)
#undef X
	return 0;
}

int ptx_launch_limits(const struct ptx_module *m, const struct ptx_func *f,
		      const struct ptx_launch *l, struct ub_error *err)
{
	static const unsigned bmax[3] = { 1024, 1024, 64 },
			      gmax[3] = { 2147483647u, 65535, 65535 };
	const unsigned *b = l->block, *g = l->grid;
	for (int k = 0; k < 3; k++)
		if (b[k] > bmax[k] || g[k] > gmax[k])
			return ub_fail(err, UB_RUNTIME, "ptx: kernel '%s' launched with "
				       "blocks of %u x %u x %u threads and a grid of %u x %u "
				       "x %u: a GPU allows blocks of at most 1024 x 1024 x 64 "
				       "and grids of at most 2147483647 x 65535 x 65535",
				       f->name, b[0], b[1], b[2], g[0], g[1], g[2]);
	if ((uint64_t)b[0] * b[1] * b[2] > 1024)
		return ub_fail(err, UB_RUNTIME, "ptx: kernel '%s' launched with blocks "
			       "of %u x %u x %u threads: a GPU allows at most 1024 "
			       "threads a block", f->name, b[0], b[1], b[2]);
	if (f->shared_bytes > STATIC_SHARED_MAX)
		return ub_fail(err, UB_RUNTIME, "ptx: kernel '%s' declares %llu bytes "
			       "of static .shared memory: ptxas refuses more than %u "
			       "(48 KiB, \"uses too much shared data\"); more takes "
			       "dynamic shared memory (extern __shared__, --launch "
			       "...,shared=BYTES)", f->name,
			       (unsigned long long)f->shared_bytes, STATIC_SHARED_MAX);
	uint64_t all = f->shared_bytes + l->shared_bytes, max = smem_limit(m->sm);
	if (max && all > max)
		return ub_fail(err, UB_RUNTIME, "ptx: kernel '%s' needs %llu bytes of "
			       ".shared memory a block (%llu static, %llu dynamic: --launch "
			       "...,shared=BYTES): sm_%d allows at most %llu (%llu KiB)",
			       f->name, (unsigned long long)all,
			       (unsigned long long)f->shared_bytes,
			       (unsigned long long)l->shared_bytes, m->sm,
			       (unsigned long long)max, (unsigned long long)max / 1024);
	return 0;
}
