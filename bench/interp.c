/* interp.c — the PTX interpreter against native C doing the same
 * arithmetic, in one process: kernels/atan_bwd.cu compiled by NVRTC in
 * mode fma (one fma.rn.f32 and one div.rn.f32 per element, inside the
 * grid-stride loop), run over N float32 inputs
 *   (a) by the interpreter, lanes batched (ptx_batch.c, the default),
 *   (b) by the interpreter, thread by thread (ptx_launch.thread_by_thread),
 *   (c) as native C: g / fmaf(x, x, 1).
 * Prints the best of 3 runs of each in ns per element, the ratios, and
 * checks that all three give the same bits (NaN: any NaN).
 * Usage: interp KERNEL.cu [N] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nvrtc.h"
#include "paths.h"
#include "ptx.h"
#include "sim.h"

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* One launch of atan_bwd(x, g, y, n) on the interpreter: seconds. */
static double run_ptx(const struct ptx_module *m, float *x, float *g, float *y,
		      size_t n, int scalar, uint64_t *insns)
{
	struct ptx_buffer bufs[] = { { x, n * 4, 0, "input 'x'" },
				     { g, n * 4, 0, "input 'g'" },
				     { y, n * 4, 1, "output 'out'" } };
	uint64_t args[] = { (uintptr_t)x, (uintptr_t)g, (uintptr_t)y, n };
	size_t blocks = (n + UB_BLOCK - 1) / UB_BLOCK;
	struct ptx_launch l = { .grid = { (unsigned)blocks, 1, 1 },
				.block = { UB_BLOCK, 1, 1 }, .args = args,
				.nargs = 4, .bufs = bufs, .nbufs = 3,
				.thread_by_thread = scalar };
	struct ptx_run_info info;
	struct ub_error err = { 0 };
	double t = now();
	if (ptx_run(m, "atan_bwd", &l, &info, &err)) {
		fprintf(stderr, "interp: %s\n", err.msg);
		exit(1);
	}
	*insns = info.insns;
	return now() - t;
}

static double run_native(const float *x, const float *g, float *y, size_t n)
{
	double t = now();
	for (size_t i = 0; i < n; i++)
		y[i] = g[i] / fmaf(x[i], x[i], 1.0f);
	return now() - t;
}

static int same(const float *a, const float *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (memcmp(&a[i], &b[i], 4) && !(isnan(a[i]) && isnan(b[i])))
			return 0;
	return 1;
}

int main(int argc, char **argv)
{
	size_t n = argc > 2 ? strtoull(argv[2], NULL, 0) : 1u << 20;
	char *src = NULL, *ptx = NULL;
	struct ub_error err = { 0 };
	struct ptx_module *m = NULL;
	if (argc < 2 || !n) {
		fprintf(stderr, "usage: interp KERNEL.cu [N]\n");
		return 2;
	}
	if (ub_read_file(argv[1], &src, &err) ||
	    ub_nvrtc_compile(src, "atan_bwd.cu", "", "compute_90", &ptx, NULL, &err) ||
	    ptx_parse(ptx, &m, &err)) {
		fprintf(stderr, "interp: %s\n", err.msg);
		return 1;
	}
	float *x = malloc(n * 4), *g = malloc(n * 4), *y[3];
	uint64_t s = 0x9e3779b97f4a7c15u, insns = 0;
	for (int k = 0; k < 3; k++)
		y[k] = malloc(n * 4);
	for (size_t i = 0; i < n; i++) {   /* every encoding equally likely */
		uint32_t b[2];
		for (int k = 0; k < 2; k++) {
			s = s * 6364136223846793005u + 1442695040888963407u;
			b[k] = (uint32_t)(s >> 32);
		}
		memcpy(&x[i], &b[0], 4);
		memcpy(&g[i], &b[1], 4);
	}
	double best[3] = { 1e30, 1e30, 1e30 };
	for (int rep = 0; rep < 3; rep++) {
		double t[3] = { run_ptx(m, x, g, y[0], n, 0, &insns),
				run_ptx(m, x, g, y[1], n, 1, &insns),
				run_native(x, g, y[2], n) };
		for (int k = 0; k < 3; k++)
			best[k] = t[k] < best[k] ? t[k] : best[k];
	}
	printf("elements: %zu, PTX instructions per element: %.1f\n", n,
	       (double)insns / (double)n);
	printf("(a) interpreter, batched lanes:  %8.2f ns/element\n", 1e9 * best[0] / (double)n);
	printf("(b) interpreter, thread by thread: %6.2f ns/element\n", 1e9 * best[1] / (double)n);
	printf("(c) native C:                    %8.2f ns/element\n", 1e9 * best[2] / (double)n);
	printf("ratio (a)/(c): batched interpreter takes %.1fx native C\n", best[0] / best[2]);
	printf("ratio (b)/(a): batching is %.1fx faster than thread by thread\n", best[1] / best[0]);
	int ok = same(y[0], y[1], n) && same(y[0], y[2], n);
	printf("bits: %s\n", ok ? "(a), (b) and (c) identical" : "DIFFERENT");
	ptx_free(m);
	free(ptx);
	free(src);
	free(x);
	free(g);
	for (int k = 0; k < 3; k++)
		free(y[k]);
	return ok ? 0 : 1;
}
