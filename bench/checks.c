/* checks.c — what the simulator's checks (initcheck, racecheck:
 * src/exec/ptx/ptx_check.h) cost on block-level kernels, in one process:
 * each kernel below, compiled by NVRTC for compute_90, runs over N float32
 * inputs on the block executor
 *   (a) with the checks, as every run does: every .shared, .local and
 *       output access tracked;
 *   (b) without them (ptx_run_opts.unchecked: what a GPU faults on is
 *       still refused);
 * and prints the best of 3 runs of each in CPU ns per element and the
 * ratio (a)/(b), checking that both give the same bits.  The kernels: a tile
 * staged in shared memory and read back mirrored after a barrier (one
 * shared store and load per element), and a block sum as a tree in
 * shared memory with a barrier per step (8 steps of 256 threads).
 * Usage: checks [N] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nvrtc.h"
#include "ptx.h"

static const char tile_src[] =
	"extern \"C\" __global__ void tile(const float *x, float *out, int n)\n"
	"{\n"
	"    __shared__ float s[256];\n"
	"    int t = threadIdx.x, base = blockIdx.x * blockDim.x;\n"
	"    s[t] = base + t < n ? x[base + t] : 1.f;\n"
	"    __syncthreads();\n"
	"    int r = blockDim.x - 1 - t;\n"
	"    if (base + r < n)\n"
	"        out[base + r] = 1.0f / s[r];\n"
	"}\n";

static const char tree_src[] =
	"extern \"C\" __global__ void tree(const float *x, float *out, int n)\n"
	"{\n"
	"    __shared__ float s[256];\n"
	"    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;\n"
	"    s[t] = i < n ? x[i] : 0.f;\n"
	"    __syncthreads();\n"
	"    for (int h = 128; h > 0; h >>= 1) {\n"
	"        if (t < h)\n"
	"            s[t] += s[t + h];\n"
	"        __syncthreads();\n"
	"    }\n"
	"    if (i < n)\n"
	"        out[i] = s[0];\n"
	"}\n";

/* The thread's CPU seconds: on a shared machine the wall clock also
 * counts the other programs; the launch runs on this thread alone. */
static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* One launch of entry(x, out, n) in blocks of 256: seconds. */
static double run(const struct ptx_module *m, const char *entry, float *x,
		  float *y, size_t n, int unchecked)
{
	struct ptx_buffer bufs[] = { { x, n * 4, 0, "input 'x'" },
				     { y, n * 4, 1, "output 'out'" } };
	struct ptx_bufcheck bc[] = { { 0, 0, 4, NULL }, { 1, 0, 4, NULL } };
	struct ptx_run_opts opts = { .bufs = bc, .unchecked = unchecked };
	uint64_t args[] = { (uintptr_t)x, (uintptr_t)y, n };
	struct ptx_launch l = { .grid = { (unsigned)((n + 255) / 256), 1, 1 },
				.block = { 256, 1, 1 }, .args = args, .nargs = 3,
				.bufs = bufs, .nbufs = 2 };
	struct ptx_run_info info;
	struct ub_error err = { 0 };
	double t = now();
	if (ptx_run_checked(m, entry, &l, &opts, NULL, &info, &err)) {
		fprintf(stderr, "checks: %s\n", err.msg);
		exit(1);
	}
	t = now() - t;
	if (info.checked == unchecked) {
		fprintf(stderr, "checks: %s ran %s the checks\n", entry,
			info.checked ? "with" : "without");
		exit(1);
	}
	return t;
}

/* Kernel entry of src: (a) and (b), best of 3 each; 0 when their bits
 * are the same. */
static int bench(const char *src, const char *entry, float *x, size_t n)
{
	char *ptx = NULL;
	struct ptx_module *m = NULL;
	struct ub_error err = { 0 };
	if (ub_nvrtc_compile(src, "checks.cu", "", "compute_90", &ptx, NULL, &err) ||
	    ptx_parse(ptx, &m, &err)) {
		fprintf(stderr, "checks: %s\n", err.msg);
		exit(1);
	}
	float *y[2] = { malloc(n * 4), malloc(n * 4) };
	double best[2] = { 1e30, 1e30 };
	for (int rep = 0; rep < 3; rep++)
		for (int k = 0; k < 2; k++) {
			double t = run(m, entry, x, y[k], n, k);
			best[k] = t < best[k] ? t : best[k];
		}
	int same = !memcmp(y[0], y[1], n * 4);
	printf("%-5s (a) with the checks:    %8.2f CPU ns/element\n", entry, 1e9 * best[0] / (double)n);
	printf("%-5s (b) without them:       %8.2f CPU ns/element\n", entry, 1e9 * best[1] / (double)n);
	printf("%-5s ratio (a)/(b): %.2fx; bits: %s\n", entry, best[0] / best[1],
	       same ? "identical" : "DIFFERENT");
	ptx_free(m);
	free(ptx);
	free(y[0]);
	free(y[1]);
	return !same;
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoull(argv[1], NULL, 0) : 1u << 18;
	if (!n) {
		fprintf(stderr, "usage: checks [N]\n");
		return 2;
	}
	float *x = malloc(n * 4);
	uint64_t s = 0x9e3779b97f4a7c15u;
	for (size_t i = 0; i < n; i++) {   /* in [1, 2): no overflow in the sums */
		s = s * 6364136223846793005u + 1442695040888963407u;
		x[i] = 1.0f + (float)(s >> 40) * 0x1p-24f;
	}
	printf("elements: %zu, blocks of 256 threads\n", n);
	int bad = bench(tile_src, "tile", x, n) | bench(tree_src, "tree", x, n);
	free(x);
	return bad;
}
