/* mma-probe.c — the tensor cores of the GPU against the simulator's model,
 * bit for bit (docs/tensor-cores.md, docs/gpu.md; scripts/gpu-mma runs it).
 *
 *   mma-probe OUTDIR [TILES]
 *
 * For every mma.sync form the device has (f16 and bf16 with f32 and f16
 * accumulators, tf32, e4m3 and e5m2 on sm_89 on, f64) and for wgmma on
 * sm_90, TILES tiles (default 512) of D = A * B + C run through the real
 * instruction (the driver API: the same PTX text, JIT-compiled for the
 * device) and through the interpreter (.target the device's sm), and every
 * element of D is compared bit for bit.  Each tile's rows and columns are
 * random values over every binade, except its diagonal (row i of A, column
 * i of B, C[i][i], i < 8), which holds the published models' test vectors,
 * one feature each: extra alignment bits, truncation against rounding,
 * alignment before a cancellation, the block size, signed zeros,
 * subnormal inputs and outputs, infinities and NaN, overflow.
 * OUTDIR gets mma.txt (per form: elements, mismatches, whether the sim
 * flagged the form, the first differing elements with their inputs) and
 * mma-FORM.bin (A, B, C, D of the GPU, D of the sim, as the tiles hold
 * them).  Exit 0: no mismatch; 1: a mismatch (the model is wrong there);
 * 2 usage; 4 no usable GPU.
 *
 * Without a GPU, ULPBENCH_LIBCUDA pointing at the tests' stand-in driver
 * (tests/fakecuda.c: the driver API over the interpreter) runs it all, the
 * "GPU" being the sim itself (docs/gpu.md, "A dry run"). */
#include "cuda_driver.h"
#include "mma_unit.h"
#include "ptx.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The forms: mnemonic, its least sm, m, k, a format, c format. */
static const struct form {
	const char *name, *mnem;
	int sm, m, k, fa, fc;
} forms[] = {
	{ "f16_f32_k16", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 80, 16, 16,
	  UB_MF16, UB_MF32 },
	{ "f16_f16_k16", "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", 80, 16, 16,
	  UB_MF16, UB_MF16 },
	{ "f16_f32_k8", "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", 75, 16, 8,
	  UB_MF16, UB_MF32 },
	{ "bf16_f32_k16", "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", 80, 16, 16,
	  UB_MBF16, UB_MF32 },
	{ "tf32_f32_k8", "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 80, 16, 8,
	  UB_MTF32, UB_MF32 },
	{ "e4m3_f32_k32", "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32", 89, 16, 32,
	  UB_ME4M3, UB_MF32 },
	{ "e5m2_f32_k32", "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32", 89, 16, 32,
	  UB_ME5M2, UB_MF32 },
	{ "f64_k4", "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", 80, 8, 4, UB_MF64,
	  UB_MF64 },
};

static int bits_of(int f)
{
	return f == UB_MF16 || f == UB_MBF16 ? 16 : f == UB_ME4M3 || f == UB_ME5M2 ? 8 :
	       f == UB_MF64 ? 64 : 32;
}

/* The ISA's fragments (9.7.14.5): lane l, element i (across registers). */
static void frag_a(const struct form *f, int l, int i, int *r, int *c)
{
	int g = l >> 2, t = l & 3, e = bits_of(f->fa) >= 32 ? 1 : 32 / bits_of(f->fa);
	if (f->m == 8) {
		*r = g, *c = t;
		return;
	}
	int reg = i / e, j = i % e;
	*r = g + 8 * (reg & 1);
	*c = 4 * e * (reg >> 1) + e * t + j;
}

static void frag_b(const struct form *f, int l, int i, int *r, int *c)
{
	int g = l >> 2, t = l & 3, e = bits_of(f->fa) >= 32 ? 1 : 32 / bits_of(f->fa);
	if (f->m == 8) {
		*r = t, *c = g;
		return;
	}
	*r = 4 * e * (i / e) + e * t + i % e;
	*c = g;
}

static void frag_c(const struct form *f, int l, int i, int *r, int *c)
{
	int g = l >> 2, t = l & 3;
	*r = f->m == 8 ? g : g + 8 * (i >> 1);
	*c = f->m == 8 ? 2 * t + i : 2 * t + (i & 1);
}

/* The kernel: block t is tile t; lane l of it loads its registers from 32
 * bytes at (t * 32 + l) * 32 of each buffer and stores d there. */
static char *kernel(const struct form *f, int sm, int na, int nb, int nc)
{
	static char text[8192];
	int n = 0, w = bits_of(f->fa) == 64 ? 8 : 4, cw = bits_of(f->fc) == 64 ? 8 : 4;
	const char *ra = w == 8 ? "%fd" : "%r", *rc = cw == 8 ? "%fd" : "%r";
	n += snprintf(text + n, sizeof text - n, ".version 8.0\n.target sm_%d\n"
		      ".address_size 64\n.visible .entry probe(.param .u64 pa, .param .u64 pb, "
		      ".param .u64 pc, .param .u64 pd)\n{\n.reg .b32 %%r<64>;\n"
		      ".reg .b64 %%rd<16>;\n.reg .f64 %%fd<64>;\n"
		      "ld.param.u64 %%rd1, [pa];\nld.param.u64 %%rd2, [pb];\n"
		      "ld.param.u64 %%rd3, [pc];\nld.param.u64 %%rd4, [pd];\n"
		      "mov.u32 %%r1, %%ctaid.x;\nmov.u32 %%r2, %%tid.x;\nshl.b32 %%r3, %%r1, 5;\n"
		      "add.u32 %%r3, %%r3, %%r2;\nmul.wide.u32 %%rd5, %%r3, 32;\n"
		      "add.s64 %%rd1, %%rd1, %%rd5;\nadd.s64 %%rd2, %%rd2, %%rd5;\n"
		      "add.s64 %%rd3, %%rd3, %%rd5;\nadd.s64 %%rd4, %%rd4, %%rd5;\n", sm);
	for (int r = 0; r < na; r++)
		n += snprintf(text + n, sizeof text - n, "ld.global.b%d %s%d, [%%rd1+%d];\n",
			      w * 8, ra, 10 + r, r * w);
	for (int r = 0; r < nb; r++)
		n += snprintf(text + n, sizeof text - n, "ld.global.b%d %s%d, [%%rd2+%d];\n",
			      w * 8, ra, 20 + r, r * w);
	for (int r = 0; r < nc; r++)
		n += snprintf(text + n, sizeof text - n, "ld.global.b%d %s%d, [%%rd3+%d];\n",
			      cw * 8, rc, 30 + r, r * cw);
	n += snprintf(text + n, sizeof text - n, "%s {", f->mnem);
	for (int r = 0; r < nc; r++)
		n += snprintf(text + n, sizeof text - n, "%s%s%d", r ? ", " : "", rc, 40 + r);
	n += snprintf(text + n, sizeof text - n, "}, {");
	for (int r = 0; r < na; r++)
		n += snprintf(text + n, sizeof text - n, "%s%s%d", r ? ", " : "", ra, 10 + r);
	n += snprintf(text + n, sizeof text - n, "}, {");
	for (int r = 0; r < nb; r++)
		n += snprintf(text + n, sizeof text - n, "%s%s%d", r ? ", " : "", ra, 20 + r);
	n += snprintf(text + n, sizeof text - n, "}, {");
	for (int r = 0; r < nc; r++)
		n += snprintf(text + n, sizeof text - n, "%s%s%d", r ? ", " : "", rc, 30 + r);
	n += snprintf(text + n, sizeof text - n, "};\n");
	for (int r = 0; r < nc; r++)
		n += snprintf(text + n, sizeof text - n, "st.global.b%d [%%rd4+%d], %s%d;\n",
			      cw * 8, r * cw, rc, 40 + r);
	snprintf(text + n, sizeof text - n, "ret;\n}\n");
	return text;
}

static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static const int ebs[] = { 5, 8, 8, 4, 5, 8, 11 }, fbs[] = { 10, 7, 10, 3, 2, 23, 52 };
static const int emins[] = { -14, -126, -126, -6, -14, -126, -1022 };

/* The encoding of 2^e * (1 + m / 2^fb) (m < 2^fb; e in range) in format f. */
static uint64_t enc(int f, int neg, int e, uint64_t m)
{
	int fb = fbs[f], bias = (1 << (ebs[f] - 1)) - 1, bits = 1 + ebs[f] + fb;
	if (f == UB_MTF32)   /* an f32 encoding with 10 fraction bits */
		return (uint64_t)neg << 31 | (uint64_t)(e + 127) << 23 | m << 13;
	uint64_t field = e < 1 - bias ? 0 : (uint64_t)(e + bias);
	if (!field)   /* subnormal: m holds the whole significand */
		return (uint64_t)neg << (bits - 1) | m;
	return (uint64_t)neg << (bits - 1) | field << fb | m;
}

static uint64_t c_enc(int fc, double v)
{
	if (fc == UB_MF64) {
		uint64_t u;
		memcpy(&u, &v, 8);
		return u;
	}
	float x = (float)v;
	uint32_t u;
	memcpy(&u, &x, 4);
	if (fc == UB_MF32)
		return u;
	/* f16 of a value exact in f16 (the vectors are) */
	int e = (int)((u >> 23) & 0xff) - 127;
	if (!(u & 0x7fffffff))
		return (u >> 16) & 0x8000;
	return enc(UB_MF16, (int)(u >> 31), e, (u >> 13) & 0x3ff);
}

/* A random value of format f over every binade the format has. */
static uint64_t random_val(int f, uint64_t *s)
{
	uint64_t r = rnd(s);
	int bits = bits_of(f);
	if (f == UB_MTF32)
		return r & 0xffffe000u & ~0x40000000u;   /* |x| < 2, tf32 bits */
	uint64_t v = r & (bits == 64 ? ~0ull : (1ull << bits) - 1);
	int eb = f == UB_MF16 || f == UB_ME5M2 ? 5 : f == UB_ME4M3 ? 4 : f == UB_MF64 ? 11 : 8;
	int fb = bits - 1 - eb;
	uint64_t emax = (1ull << eb) - 1, e = (v >> fb) & emax;
	if (e == emax)   /* no inf or NaN among the random values */
		v &= ~(1ull << (fb + eb - 1));
	return v;
}

/* Test vector k (0..7) of the models' features into row i of A (a),
 * column i of B (b) and C[i][i] (*c); values of format fa, c of fc. */
static void vector(const struct form *f, int k, uint64_t *a, uint64_t *b, uint64_t *c)
{
	int fa = f->fa, K = f->k, lo = emins[fa], fb = fbs[fa];
	for (int q = 0; q < K; q++)
		a[q] = b[q] = 0;
	*c = 0;
	uint64_t one = enc(fa, 0, 0, 0);
	switch (k) {
	case 0:   /* extra alignment bits: c = 1, four products 2^-25 (f16:
		     2^-13 * 2^-12; others from their least normals) */
		*c = c_enc(f->fc, 1.0);
		for (int q = 0; q < 4 && q < K; q++) {
			int e1 = lo > -13 ? lo : -13, e2 = -25 - e1 < lo ? lo : -25 - e1;
			a[q] = enc(fa, 0, e1, 0), b[q] = enc(fa, 0, e2, 0);
		}
		break;
	case 1:   /* truncation: c = 1 and 1.5 * 2^-24 */
		*c = c_enc(f->fc, 1.0);
		a[0] = enc(fa, 0, -12 < lo ? lo : -12, (uint64_t)1 << (fb - 1));
		b[0] = enc(fa, 0, -12 < lo ? lo : -12, 0);
		break;
	case 2:   /* alignment before a cancellation: 2^5*2^5 - 2^5*2^5 + 2^-8*2^-8 */
		a[0] = a[1] = enc(fa, 0, 5, 0), b[0] = enc(fa, 0, 5, 0), b[1] = enc(fa, 1, 5, 0);
		a[2 % K] = b[2 % K] = enc(fa, 0, -8 < lo ? lo : -8, 0);
		break;
	case 3:   /* the block size: 1 at k = 0, four 2^-12 * 2^-13 from k / 2 */
		a[0] = b[0] = one;
		for (int q = K / 2; q < K / 2 + 4 && q < K; q++)
			a[q] = enc(fa, 0, -12 < lo ? lo : -12, 0), b[q] = enc(fa, 0, -13 < lo ? lo : -13, 0);
		break;
	case 4:   /* signed zeros: c = -0, products -0 * 1 */
		*c = f->fc == UB_MF64 ? 1ull << 63 : f->fc == UB_MF16 ? 0x8000 : 0x80000000;
		a[0] = (uint64_t)1 << (bits_of(fa) - 1), b[0] = one;   /* -0 * 1 */
		break;
	case 5:   /* subnormal inputs: the least subnormal times 2^5, and its half */
		a[0] = 1, b[0] = enc(fa, 0, 5, 0);
		a[1] = 2, b[1] = enc(fa, 1, -1, 0);
		break;
	case 6:   /* inf * 0 and inf - inf where the format has infinities */
		if (fa != UB_ME4M3) {   /* inf: the exponent field all ones */
			uint64_t inf = fa == UB_MTF32 ? 0x7f800000 : ((1ull << ebs[fa]) - 1) << fb;
			a[0] = inf, b[0] = 0, a[1] = inf, b[1] = one;
			a[2 % K] = inf | (uint64_t)1 << (bits_of(fa) - 1), b[2 % K] = one;
		} else {
			a[0] = 0x7f, b[0] = one;   /* e4m3's NaN */
		}
		break;
	default:   /* overflow: c = the format's largest, plus products */
		*c = f->fc == UB_MF16 ? 0x7bff : f->fc == UB_MF64 ? 0x7fefffffffffffffull
									: 0x7f7fffff;
		a[0] = b[0] = enc(fa, 0, fa == UB_ME4M3 ? 8 : 5, 0);
	}
}

/* One form's tiles: A (T x m x k), B (T x k x 8), C (T x m x 8) as
 * encodings, and the five buffers of 32 bytes a lane: a, b, c
 * fragments, d of the GPU, d of the sim. */
struct tiles {
	const struct form *f;
	int T, na, nb, nc, ea, ec;
	size_t bytes;
	uint64_t *A, *B, *C;
	unsigned char *buf[5];
};

/* Random values, the vectors on each tile's diagonal, the fragments. */
static void fill(struct tiles *w)
{
	const struct form *f = w->f;
	int M = f->m, N = 8, K = f->k, T = w->T, ba = bits_of(f->fa), bc = bits_of(f->fc);
	uint64_t seed = 0x6d6d61ull + (uint64_t)f->fa;
	for (size_t x = 0; x < (size_t)T * M * K; x++)
		w->A[x] = random_val(f->fa, &seed);
	for (size_t x = 0; x < (size_t)T * K * N; x++)
		w->B[x] = random_val(f->fa, &seed);
	for (size_t x = 0; x < (size_t)T * M * N; x++)
		w->C[x] = random_val(f->fc, &seed);
	for (int t = 0; t < T; t++)
		for (int i = 0; i < 8 && i < M; i++) {
			uint64_t a[32], b[32], c;
			vector(f, (i + t) % 8, a, b, &c);
			for (int q = 0; q < K; q++) {
				w->A[((size_t)t * M + i) * K + q] = a[q];
				w->B[((size_t)t * K + q) * N + i] = b[q];
			}
			w->C[((size_t)t * M + i) * N + i] = c;
		}
	for (int t = 0; t < T; t++)
		for (int l = 0; l < 32; l++) {
			size_t at = ((size_t)t * 32 + l) * 32;
			int r, c;
			for (int i = 0; i < w->na * w->ea; i++) {
				frag_a(f, l, i, &r, &c);
				memcpy(w->buf[0] + at + i * ba / 8, &w->A[((size_t)t * M + r) * K + c],
				       (size_t)ba / 8);
			}
			for (int i = 0; i < w->nb * w->ea; i++) {
				frag_b(f, l, i, &r, &c);
				memcpy(w->buf[1] + at + i * ba / 8, &w->B[((size_t)t * K + r) * N + c],
				       (size_t)ba / 8);
			}
			for (int i = 0; i < w->nc * w->ec; i++) {
				frag_c(f, l, i, &r, &c);
				memcpy(w->buf[2] + at + i * bc / 8, &w->C[((size_t)t * M + r) * N + c],
				       (size_t)bc / 8);
			}
		}
}

/* The kernel on the device: d into buf[3]. */
static int on_gpu(struct tiles *w, const struct ub_cu *cu, const char *ptx,
		  struct ub_error *err)
{
	CUmodule mod = NULL;
	CUfunction fn;
	CUdeviceptr d[4] = { 0 };
	CUresult r = cu->cuModuleLoadData_(&mod, ptx);
	if (r == CUDA_SUCCESS)
		r = cu->cuModuleGetFunction_(&fn, mod, "probe");
	for (int i = 0; r == CUDA_SUCCESS && i < 4; i++)
		r = cu->cuMemAlloc_(&d[i], w->bytes);
	for (int i = 0; r == CUDA_SUCCESS && i < 3; i++)
		r = cu->cuMemcpyHtoD_(d[i], w->buf[i], w->bytes);
	void *args[4] = { &d[0], &d[1], &d[2], &d[3] };
	if (r == CUDA_SUCCESS)
		r = cu->cuLaunchKernel_(fn, (unsigned)w->T, 1, 1, 32, 1, 1, 0, NULL, args, NULL);
	if (r == CUDA_SUCCESS)
		r = cu->cuCtxSynchronize_();
	if (r == CUDA_SUCCESS)
		r = cu->cuMemcpyDtoH_(w->buf[3], d[3], w->bytes);
	for (int i = 0; i < 4; i++)
		if (d[i])
			cu->cuMemFree_(d[i]);
	if (mod)
		cu->cuModuleUnload_(mod);
	return r == CUDA_SUCCESS ? 0 : ub_cu_fail(err, r, w->f->name);
}

/* The kernel on the interpreter: d into buf[4]; *flagged its mma-model. */
static int on_sim(struct tiles *w, const char *ptx, int *flagged, struct ub_error *err)
{
	struct ptx_module *m = NULL;
	int s = ptx_parse(ptx, &m, err);
	if (s)
		return s;
	struct ptx_buffer pb[4];
	uint64_t pa[4];
	unsigned char *sb[4] = { w->buf[0], w->buf[1], w->buf[2], w->buf[4] };
	for (int i = 0; i < 4; i++) {
		pb[i] = (struct ptx_buffer){ sb[i], w->bytes, i == 3, NULL };
		pa[i] = (uint64_t)(uintptr_t)sb[i];
	}
	struct ptx_launch ln = { { (unsigned)w->T, 1, 1 }, { 32, 1, 1 }, pa, 4, pb, 4, 0, 0,
				 0, 0, 0 };
	struct ptx_run_info info;
	s = ptx_run(m, "probe", &ln, &info, err);
	*flagged = (info.approx_mask >> PTX_AX_MMA) & 1;
	ptx_free(m);
	return s;
}

/* The elements of d that differ, the first 20 with their inputs, into
 * the report; how many. */
static int compare(const struct tiles *w, FILE *rep)
{
	const struct form *f = w->f;
	int M = f->m, N = 8, K = f->k, bc = bits_of(f->fc), diff = 0;
	for (int t = 0; t < w->T; t++)
		for (int l = 0; l < 32; l++)
			for (int i = 0; i < w->nc * w->ec; i++) {
				size_t at = ((size_t)t * 32 + l) * 32 + (size_t)i * bc / 8;
				uint64_t g = 0, v = 0;
				int row, col;
				if (!memcmp(w->buf[3] + at, w->buf[4] + at, (size_t)bc / 8) ||
				    diff++ >= 20)
					continue;
				memcpy(&g, w->buf[3] + at, (size_t)bc / 8);
				memcpy(&v, w->buf[4] + at, (size_t)bc / 8);
				frag_c(f, l, i, &row, &col);
				fprintf(rep, "  tile %d D(%d,%d): gpu 0x%llx sim 0x%llx; c 0x%llx; "
					"a, b:", t, row, col, (unsigned long long)g,
					(unsigned long long)v,
					(unsigned long long)w->C[((size_t)t * M + row) * N + col]);
				for (int q = 0; q < K; q++)
					fprintf(rep, " %llx*%llx",
						(unsigned long long)w->A[((size_t)t * M + row) * K + q],
						(unsigned long long)w->B[((size_t)t * K + q) * N + col]);
				fprintf(rep, "\n");
			}
	return diff;
}

/* Runs form f's kernel for T tiles on the device (cu) and on the sim,
 * writes its part of the report and its data.  0, 1 when they differ,
 * else the failure's status. */
static int probe(const struct form *f, int sm, int T, const struct ub_cu *cu,
		 const char *dir, FILE *rep, struct ub_error *err)
{
	struct tiles w = { .f = f, .T = T, .bytes = (size_t)T * 32 * 32 };
	int M = f->m, N = 8, K = f->k, ba = bits_of(f->fa), bc = bits_of(f->fc);
	w.ea = ba >= 32 ? 1 : 32 / ba, w.ec = bc >= 32 ? 1 : 32 / bc;
	w.na = M * K / 32 / w.ea, w.nb = K * N / 32 / w.ea, w.nc = M * N / 32 / w.ec;
	w.A = malloc((size_t)T * M * K * 8);
	w.B = malloc((size_t)T * K * N * 8);
	w.C = malloc((size_t)T * M * N * 8);
	int s = w.A && w.B && w.C ? 0 : ub_fail(err, UB_RUNTIME, "out of memory");
	for (int i = 0; i < 5; i++)
		if (!(w.buf[i] = calloc(1, w.bytes)))
			s = ub_fail(err, UB_RUNTIME, "out of memory");
	if (!s)
		fill(&w);
	const char *ptx = kernel(f, sm, w.na, w.nb, w.nc);
	int flagged = 0, diff = 0;
	if (!s)
		s = on_gpu(&w, cu, ptx, err);
	if (!s)
		s = on_sim(&w, ptx, &flagged, err);
	if (!s) {
		fprintf(rep, "%s (%s): %d tiles, sm_%d, the sim %s\n", f->name, f->mnem, T, sm,
			flagged ? "flagged it (mma-model)" : "calls its model known");
		diff = compare(&w, rep);
		fprintf(rep, "  %zu elements, %d differ\n", (size_t)T * M * N, diff);
		char path[4200];
		snprintf(path, sizeof path, "%s/mma-%s.bin", dir, f->name);
		FILE *o = fopen(path, "wb");
		for (int i = 0; o && i < 5; i++)
			fwrite(w.buf[i], 1, w.bytes, o);
		if (!o || fclose(o))
			s = ub_fail(err, UB_IO, "%s: cannot write: %s", path, strerror(errno));
	}
	for (int i = 0; i < 5; i++)
		free(w.buf[i]);
	free(w.A);
	free(w.B);
	free(w.C);
	return s ? s : diff != 0;
}

int main(int argc, char **argv)
{
	struct ub_error err = { "" };
	const struct ub_cu *cu;
	const struct ub_cuda_device *dev;
	int T = argc > 2 ? atoi(argv[2]) : 512;
	if (argc < 2 || argc > 3 || T < 1 || T > 65535) {
		fprintf(stderr, "usage: mma-probe OUTDIR [TILES]\n");
		return 2;
	}
	if (mkdir(argv[1], 0777) && errno != EEXIST) {
		fprintf(stderr, "mma-probe: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	if (ub_cuda_open(&cu, &dev, &err)) {
		fprintf(stderr, "mma-probe: %s\n", err.msg);
		return 4;
	}
	char path[4200];
	snprintf(path, sizeof path, "%s/mma.txt", argv[1]);
	FILE *rep = fopen(path, "w");
	if (!rep) {
		fprintf(stderr, "mma-probe: %s: %s\n", path, strerror(errno));
		return 2;
	}
	int sm = dev->major * 10 + dev->minor, bad = 0, s = 0;
	fprintf(rep, "device %s, sm_%d, driver %d\n", dev->name, sm, dev->driver);
	for (size_t i = 0; !s && i < sizeof forms / sizeof forms[0]; i++) {
		struct ub_mma_model mo;
		if (sm < forms[i].sm || ub_mma_model_get(sm, UB_MMA_SYNC, forms[i].fa,
							 forms[i].k, &mo) < 0) {
			fprintf(rep, "%s: not on sm_%d\n", forms[i].name, sm);
			continue;
		}
		int r = probe(&forms[i], sm, T, cu, argv[1], rep, &err);
		bad |= r == 1;
		s = r > 1 ? r : 0;
	}
	if (fclose(rep) || s) {
		fprintf(stderr, "mma-probe: %s\n", s ? err.msg : "cannot write mma.txt");
		return 2;
	}
	printf("mma-probe: %s: %s\n", path, bad ? "the GPU and the sim differ" : "no difference");
	return bad;
}
