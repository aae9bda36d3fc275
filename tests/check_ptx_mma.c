/* check_ptx_mma.c — mma.sync on the interpreter, one warp: each lane loads
 * its fragment registers, runs the mma and stores d.  The fragments are
 * packed here from whole matrices by the PTX ISA's layout formulas
 * (9.7.14.5.x, "Matrix Fragments for mma.m16n8k16 / m16n8k8 / m16n8k32 /
 * m8n8k4"), written as the ISA states them; element (0, 0) of D carries
 * a test vector of check_mma.c whose bits are derived by hand, and every
 * other element must be what the MMA unit's model gives for its row and
 * column (so a fragment misplaced moves it). */
#include "check_ptx.h"
#include "mma_unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The ISA's formulas, for lane l (g = l >> 2, t = l % 4) and element i of
 * the lane's fragment (elements numbered across its registers). */
static void isa_a(int k, int bits, int l, int i, int *row, int *col)
{
	int g = l >> 2, t = l % 4;
	if (k == 4 && bits == 64) {            /* m8n8k4 .f64 */
		*row = g, *col = t;
	} else if (bits == 32) {               /* .tf32: k4 a0,a1; k8 a0..a3 */
		*row = i % 2 ? g + 8 : g;
		*col = i < 2 ? t : t + 4;
	} else if (bits == 16) {               /* k8: a0..a3; k16: a0..a7 */
		*row = (i < 2 || (i >= 4 && i < 6)) ? g : g + 8;
		*col = i < 4 ? t * 2 + (i & 1) : t * 2 + 8 + (i & 1);
	} else {                               /* .e4m3 k32: a0..a15 */
		*row = (i < 4 || (i >= 8 && i < 12)) ? g : g + 8;
		*col = i < 8 ? t * 4 + (i & 3) : t * 4 + 16 + (i & 3);
	}
}

static void isa_b(int k, int bits, int l, int i, int *row, int *col)
{
	int g = l >> 2, t = l % 4;
	*col = g;
	if (k == 4 && bits == 64)
		*row = t;
	else if (bits == 32)
		*row = i == 0 ? t : t + 4;
	else if (bits == 16)
		*row = i < 2 ? t * 2 + (i & 1) : t * 2 + 8 + (i & 1);
	else
		*row = i < 4 ? t * 4 + (i & 3) : t * 4 + 16 + (i & 3);
}

static void isa_c(int m, int l, int i, int *row, int *col)
{
	int g = l >> 2, t = l % 4;
	if (m == 8) {                          /* m8n8k4 .f64: c0, c1 */
		*row = g, *col = t * 2 + i;
		return;
	}
	*row = i < 2 ? g : g + 8;
	*col = t * 2 + (i & 1);
}

struct form {
	const char *mnem;
	int sm, m, k, fa, fc, abits, cbits;
	uint64_t want00;   /* D(0, 0) of the test vector, by hand */
};

static const struct form forms[] = {
	/* check_mma.c "fma size": sm_80 two blocks of 8 give 1.0, sm_90 one
	 * block of 16 keeps the four 2^-25: 1 + 2^-23 */
	{ "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 80, 16, 16, UB_MF16,
	  UB_MF32, 16, 32, 0x3f800000 },
	{ "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 90, 16, 16, UB_MF16,
	  UB_MF32, 16, 32, 0x3f800001 },
	/* bf16: (1 + 2^-7)^2 exactly: 0x3f820200 */
	{ "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", 80, 16, 16, UB_MBF16,
	  UB_MF32, 16, 32, 0x3f820200 },
	/* f16 accumulator: 1 + 0.75 * 2^-10 to nearest: 0x3c01 */
	{ "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", 90, 16, 16, UB_MF16,
	  UB_MF16, 16, 16, 0x3c01 },
	{ "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", 80, 16, 8, UB_MF16,
	  UB_MF32, 16, 32, 0x3f800001 },
	/* tf32: (1 + 2^-23) as tf32 is 1: 0x3f800000 */
	{ "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 80, 16, 8, UB_MTF32,
	  UB_MF32, 32, 32, 0x3f800000 },
	{ "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32", 90, 16, 4, UB_MTF32,
	  UB_MF32, 32, 32, 0x3f800000 },
	/* e4m3 on sm_89: 1 + 2^-12 kept: 0x3f800800 */
	{ "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32", 89, 16, 32, UB_ME4M3,
	  UB_MF32, 8, 32, 0x3f800800 },
	/* f64: 1 + 2^-53 + 2^-53 in two fmas: 1.0 */
	{ "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", 80, 8, 4, UB_MF64,
	  UB_MF64, 64, 64, 0x3ff0000000000000ull },
};

/* The kernel: lane l's registers of a, b, c from 32 bytes at l * 32 of
 * each buffer, d to the fourth. */
static char *kernel(const struct form *f, int na, int nb, int nc)
{
	static char text[8192];
	int n = 0, w = f->abits == 64 ? 8 : 4, cw = f->cbits == 64 ? 8 : 4;
	const char *ra = f->abits == 64 ? "%fd" : "%r", *rc = f->cbits == 64 ? "%fd" : "%r";
	n += snprintf(text + n, sizeof text - n, ".version 8.0\n.target sm_%d\n"
		      ".address_size 64\n.visible .entry k(.param .u64 pa, .param .u64 pb, "
		      ".param .u64 pc, .param .u64 pd)\n{\n.reg .b32 %%r<64>;\n"
		      ".reg .b64 %%rd<16>;\n.reg .f64 %%fd<64>;\n"
		      "ld.param.u64 %%rd1, [pa];\nld.param.u64 %%rd2, [pb];\n"
		      "ld.param.u64 %%rd3, [pc];\nld.param.u64 %%rd4, [pd];\n"
		      "mov.u32 %%r1, %%tid.x;\nmul.wide.u32 %%rd5, %%r1, 32;\n"
		      "add.s64 %%rd1, %%rd1, %%rd5;\nadd.s64 %%rd2, %%rd2, %%rd5;\n"
		      "add.s64 %%rd3, %%rd3, %%rd5;\nadd.s64 %%rd4, %%rd4, %%rd5;\n", f->sm);
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

/* Small values of format f (a few bits, both signs), from seed s. */
static uint64_t sample(int f, unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	unsigned r = *s >> 16, sg = r & 1, m = (r >> 1) & 7, e = (r >> 4) & 3;
	switch (f) {
	case UB_MF16: return (uint64_t)(sg << 15 | (13 + e) << 10 | m << 7);
	case UB_MBF16: return (uint64_t)(sg << 15 | (125 + e) << 7 | m << 4);
	case UB_ME4M3: return (uint64_t)(sg << 7 | (5 + e) << 3 | m);
	case UB_MTF32: case UB_MF32:
		return (uint64_t)(sg << 31 | (125 + e) << 23 | m << 20 | (r & 0x3ff) << 3);
	default: return (uint64_t)sg << 63 | (uint64_t)(1021 + e) << 52 | (uint64_t)m << 49 | 5;
	}
}

/* Row 0 of A, column 0 of B and C(0, 0): the form's test vector. */
static void vector(const struct form *f, uint64_t *A, uint64_t *B, uint64_t *C, int k, int n)
{
	for (int q = 0; q < k; q++)
		A[q] = B[q * n] = 0;
	C[0] = 0;
	switch (f->fa) {
	case UB_MF16:
		if (f->fc == UB_MF16) {   /* 1 (c) + 1.5 * 2^-5 * 2^-6 */
			A[0] = 0x2a00, B[0] = 0x2400, C[0] = 0x3c00;
		} else if (k == 16) {     /* 1 * 1, then 4 x 2^-13 * 2^-12 at k 8.. */
			A[0] = B[0] = 0x3c00;
			for (int q = 8; q < 12; q++)
				A[q] = 0x0800, B[q * n] = 0x0c00;
		} else {                  /* c = 1, 2 x 2^-12 * 2^-12 */
			C[0] = 0x3f800000;
			A[0] = A[1] = B[0] = B[n] = 0x0c00;
		}
		break;
	case UB_MBF16: A[0] = B[0] = 0x3f81; break;
	case UB_MTF32: A[0] = 0x3f800001, B[0] = 0x3f800000; break;
	case UB_ME4M3: A[0] = B[0] = 0x08, C[0] = 0x3f800000; break;
	default:
		A[0] = B[0] = B[n] = B[2 * n] = 0x3ff0000000000000ull;
		A[1] = A[2] = 0x3ca0000000000000ull;
	}
}

START_TEST(mma_sync)
{
	const struct form *f = &forms[_i];
	int m = f->m, n = 8, k = f->k, ea = f->abits == 64 ? 1 : 32 / f->abits;
	int ec = f->cbits == 64 ? 1 : 32 / f->cbits;
	int na = m * k / 32 / ea, nb = k * n / 32 / ea, nc = m * n / 32 / ec;
	uint64_t A[16 * 32], B[32 * 8], C[16 * 8], D[16 * 8];
	unsigned s = 7;
	for (int x = 0; x < m * k; x++)
		A[x] = sample(f->fa, &s);
	for (int x = 0; x < k * n; x++)
		B[x] = sample(f->fa, &s);
	for (int x = 0; x < m * n; x++)
		C[x] = sample(f->fc, &s);
	vector(f, A, B, C, k, n);
	static unsigned char buf[4][32 * 32];
	memset(buf, 0, sizeof buf);
	for (int l = 0; l < 32; l++) {   /* pack the fragments */
		int row, col;
		for (int i = 0; i < na * ea; i++) {
			isa_a(k, f->abits, l, i, &row, &col);
			memcpy(buf[0] + l * 32 + i * f->abits / 8, &A[row * k + col], f->abits / 8);
		}
		for (int i = 0; i < nb * ea; i++) {
			isa_b(k, f->abits, l, i, &row, &col);
			memcpy(buf[1] + l * 32 + i * f->abits / 8, &B[row * n + col], f->abits / 8);
		}
		for (int i = 0; i < nc * ec; i++) {
			isa_c(m, l, i, &row, &col);
			memcpy(buf[2] + l * 32 + i * f->cbits / 8, &C[row * n + col], f->cbits / 8);
		}
	}
	struct ub_error err = { "" };
	struct ptx_module *mod = NULL;
	ck_assert_msg(ptx_parse(kernel(f, na, nb, nc), &mod, &err) == 0, "%s", err.msg);
	struct ptx_buffer bufs[4];
	uint64_t args[4];
	for (int b = 0; b < 4; b++) {
		bufs[b] = (struct ptx_buffer){ buf[b], sizeof buf[b], b == 3, NULL };
		args[b] = (uint64_t)(uintptr_t)buf[b];
	}
	struct ptx_launch ln = { { 1, 1, 1 }, { 32, 1, 1 }, args, 4, bufs, 4, 0, 0, 0, 0, 0 };
	struct ptx_run_info info;
	ck_assert_msg(ptx_run(mod, "k", &ln, &info, &err) == 0, "%s", err.msg);
	for (int l = 0; l < 32; l++)   /* unpack d */
		for (int i = 0; i < nc * ec; i++) {
			int row, col;
			isa_c(m, l, i, &row, &col);
			D[row * n + col] = 0;
			memcpy(&D[row * n + col], buf[3] + l * 32 + i * f->cbits / 8, f->cbits / 8);
		}
	ck_assert_msg(D[0] == f->want00, "%s sm_%d: D(0,0) 0x%llx, want 0x%llx", f->mnem,
		      f->sm, (unsigned long long)D[0], (unsigned long long)f->want00);
	struct ub_mma_model mo;
	ck_assert_int_eq(ub_mma_model_get(f->sm, UB_MMA_SYNC, f->fa, k, &mo), 0);
	for (int i = 0; i < m; i++)
		for (int j = 0; j < n; j++) {
			uint64_t col[32];
			unsigned doubt = 0;
			for (int q = 0; q < k; q++)
				col[q] = B[q * n + j];
			uint64_t want = ub_mma_dot(&mo, f->fa, f->fa, A + i * k, col, k, f->fc,
						   C[i * n + j], &doubt);
			ck_assert_msg(D[i * n + j] == want, "%s sm_%d: D(%d,%d) 0x%llx, want "
				      "0x%llx", f->mnem, f->sm, i, j,
				      (unsigned long long)D[i * n + j], (unsigned long long)want);
		}
	ck_assert_uint_eq(info.approx_mask, 0);   /* known models, no doubt */
	ptx_free(mod);
}
END_TEST

/* What the parser refuses, and what a run refuses. */
START_TEST(mma_errors)
{
	static const char *const bad[][2] = {
		{ ".target sm_80\n", "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 "
		  "{%r1,%r1,%r1,%r1}, {%r1,%r1,%r1,%r1}, {%r1,%r1}, {%r1,%r1,%r1,%r1};",
		  /* fp8 before sm_89 */ },
		{ "", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r1,%r1,%r1,%r1}, "
		  "{%r1,%r1,%r1,%r1}, {%r1,%r1}, {%r1,%r1,%r1,%r1};" },
		{ ".target sm_80\n", "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "
		  "{%r1,%r1,%r1,%r1}, {%r1,%r1,%r1,%r1}, {%r1,%r1}, {%r1,%r1,%r1,%r1};" },
		{ ".target sm_80\n", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
		  "{%r1,%r1,%r1,%r1}, {%r1,%r1,%r1}, {%r1,%r1}, {%r1,%r1,%r1,%r1};" },
	};
	static const char *const why[] = {
		"no tensor-core unit takes e4m3 on sm_80",
		"the module has no .target sm_NN",
		"needs .dtype.atype.btype.ctype",
		"a: expected 4 registers",
	};
	for (size_t x = 0; x < sizeof bad / sizeof *bad; x++) {
		char text[600];
		struct ub_error err = { "" };
		struct ptx_module *mod = NULL;
		snprintf(text, sizeof text, "%s.entry k()\n{\n.reg .b32 %%r<4>;\n%s\nret;\n}\n",
			 bad[x][0], bad[x][1]);
		ck_assert_int_eq(ptx_parse(text, &mod, &err), UB_RUNTIME);
		ck_assert_msg(strstr(err.msg, why[x]), "%s: %s", bad[x][1], err.msg);
	}
}
END_TEST


/* wmma (PTX ISA 9.7.14.4): a, b and c loaded from global memory (a
 * row-major with its stride, b column-major without one, c row-major),
 * multiplied, d stored row-major.  The fragments' layout is the
 * interpreter's own (opaque in the ISA); what must hold is D = the unit's
 * A * B + C in memory, with the "fma size" vector of check_mma.c at (0,0):
 * 1.0 on sm_80, 1 + 2^-23 on sm_90. */
static const char wmma_ptx[] =
	".version 8.0\n.target sm_%d\n.address_size 64\n"
	".visible .entry w(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)\n{\n"
	".reg .b32 %%r<32>;\n.reg .f32 %%f<32>;\n.reg .b64 %%rd<8>;\n"
	"ld.param.u64 %%rd1, [pa];\nld.param.u64 %%rd2, [pb];\n"
	"ld.param.u64 %%rd3, [pc];\nld.param.u64 %%rd4, [pd];\nmov.u32 %%r30, 24;\n"
	"wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%%r1, %%r2, %%r3, %%r4, "
	"%%r5, %%r6, %%r7, %%r8}, [%%rd1], %%r30;\n"
	"wmma.load.b.sync.aligned.col.m16n16k16.f16 {%%r9, %%r10, %%r11, %%r12, "
	"%%r13, %%r14, %%r15, %%r16}, [%%rd2];\n"
	"wmma.load.c.sync.aligned.row.m16n16k16.global.f32 {%%f1, %%f2, %%f3, %%f4, "
	"%%f5, %%f6, %%f7, %%f8}, [%%rd3], 16;\n"
	"wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%%f9, %%f10, %%f11, %%f12, "
	"%%f13, %%f14, %%f15, %%f16}, {%%r1, %%r2, %%r3, %%r4, %%r5, %%r6, %%r7, %%r8}, "
	"{%%r9, %%r10, %%r11, %%r12, %%r13, %%r14, %%r15, %%r16}, {%%f1, %%f2, %%f3, "
	"%%f4, %%f5, %%f6, %%f7, %%f8};\n"
	"wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%%rd4], {%%f9, %%f10, "
	"%%f11, %%f12, %%f13, %%f14, %%f15, %%f16}, 16;\nret;\n}\n";

START_TEST(wmma)
{
	int sm = _i ? 90 : 80;
	static uint16_t a[16 * 24], b[16 * 16];
	static uint32_t c[256], d[256];
	uint64_t A[256], B[256], C[256];
	unsigned s = 11;
	for (int x = 0; x < 256; x++) {
		A[x] = sample(UB_MF16, &s);
		B[x] = sample(UB_MF16, &s);
		C[x] = sample(UB_MF32, &s);
	}
	const struct form f16 = { "", 80, 16, 16, UB_MF16, UB_MF32, 16, 32, 0 };
	vector(&f16, A, B, C, 16, 16);
	for (int i = 0; i < 16; i++)
		for (int j = 0; j < 16; j++) {
			a[i * 24 + j] = (uint16_t)A[i * 16 + j];   /* row-major, stride 24 */
			b[j * 16 + i] = (uint16_t)B[i * 16 + j];   /* column-major */
			c[i * 16 + j] = (uint32_t)C[i * 16 + j];
		}
	memset(d, 0, sizeof d);
	char text[4096];
	snprintf(text, sizeof text, wmma_ptx, sm);
	struct ub_error err = { "" };
	struct ptx_module *mod = NULL;
	ck_assert_msg(ptx_parse(text, &mod, &err) == 0, "%s", err.msg);
	void *p[4] = { a, b, c, d };
	size_t sz[4] = { sizeof a, sizeof b, sizeof c, sizeof d };
	struct ptx_buffer bufs[4];
	uint64_t args[4];
	for (int k = 0; k < 4; k++) {
		bufs[k] = (struct ptx_buffer){ p[k], sz[k], k == 3, NULL };
		args[k] = (uint64_t)(uintptr_t)p[k];
	}
	struct ptx_launch ln = { { 1, 1, 1 }, { 32, 1, 1 }, args, 4, bufs, 4, 0, 0, 0, 0, 0 };
	struct ptx_run_info info;
	ck_assert_msg(ptx_run(mod, "w", &ln, &info, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(d[0], sm == 80 ? 0x3f800000 : 0x3f800001);
	struct ub_mma_model mo;
	ck_assert_int_eq(ub_mma_model_get(sm, UB_MMA_WMMA, UB_MF16, 16, &mo), 0);
	for (int i = 0; i < 16; i++)
		for (int j = 0; j < 16; j++) {
			uint64_t col[16];
			unsigned doubt = 0;
			for (int q = 0; q < 16; q++)
				col[q] = B[q * 16 + j];
			uint64_t want = ub_mma_dot(&mo, UB_MF16, UB_MF16, A + i * 16, col, 16,
						   UB_MF32, C[i * 16 + j], &doubt);
			ck_assert_msg(d[i * 16 + j] == want, "sm_%d D(%d,%d) 0x%08x, want 0x%08llx",
				      sm, i, j, d[i * 16 + j], (unsigned long long)want);
		}
	ptx_free(mod);
}
END_TEST

/* wgmma.mma_async m64n8k16 f32.f16.f16 (sm_90a): a in registers (each
 * warp's 16 rows, mma's m16n8k16 layout), b from a descriptor of a
 * K-major matrix without swizzle (9.7.15.5.1: core matrices of 8 rows of
 * 16 bytes; LBO 128 bytes between the two along K, SBO 256 between the
 * groups of 8 rows), D in the accumulator layout; scale-d 1 keeps the
 * zero-initialised d.  128 threads, one warpgroup. */
static const char wgmma_ptx[] =
	".version 8.0\n.target sm_90a\n.address_size 64\n"
	".visible .entry g(.param .u64 pa, .param .u64 pb, .param .u64 pd)\n{\n"
	".shared .align 128 .b8 sb[256];\n"
	".reg .b32 %r<32>;\n.reg .f32 %f<8>;\n.reg .b64 %rd<16>;\n.reg .pred %p<2>;\n"
	"ld.param.u64 %rd1, [pa];\nld.param.u64 %rd2, [pb];\nld.param.u64 %rd3, [pd];\n"
	"mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd4, %r1, 16;\nadd.s64 %rd5, %rd1, %rd4;\n"
	"ld.global.v4.b32 {%r2, %r3, %r4, %r5}, [%rd5];\n"
	"setp.lt.u32 %p1, %r1, 16;\nmov.u32 %r6, sb;\nshl.b32 %r7, %r1, 4;\n"
	"add.u32 %r8, %r6, %r7;\nadd.s64 %rd6, %rd2, %rd4;\n"
	"@%p1 ld.global.v4.b32 {%r9, %r10, %r11, %r12}, [%rd6];\n"
	"@%p1 st.shared.v4.b32 [%r8], {%r9, %r10, %r11, %r12};\nbar.sync 0;\n"
	"cvt.u64.u32 %rd7, %r6;\nshr.u64 %rd7, %rd7, 4;\n"
	"or.b64 %rd8, %rd7, 0x0000001000080000;\n"    /* LBO 128 >> 4 = 8, SBO 256 >> 4 = 16 */
	"mov.f32 %f1, 0f00000000;\nmov.f32 %f2, 0f00000000;\nmov.f32 %f3, 0f00000000;\n"
	"mov.f32 %f4, 0f00000000;\nsetp.eq.u32 %p1, %r1, %r1;\nwgmma.fence.sync.aligned;\n"
	"wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, "
	"{%r2, %r3, %r4, %r5}, %rd8, %p1, 1, 1, 0;\n"
	"wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\n"
	"add.s64 %rd9, %rd3, %rd4;\nst.global.v4.f32 [%rd9], {%f1, %f2, %f3, %f4};\n"
	"ret;\n}\n";

START_TEST(wgmma)
{
	uint64_t A[64 * 16], B[16 * 8];
	static uint32_t afrag[128 * 4], d[128 * 4];
	static uint16_t bs[128];
	unsigned s = 5;
	for (int x = 0; x < 64 * 16; x++)
		A[x] = sample(UB_MF16, &s);
	for (int x = 0; x < 16 * 8; x++)
		B[x] = sample(UB_MF16, &s);
	for (int t = 0; t < 128; t++)   /* warp t/32's rows of A, as mma's m16n8k16 */
		for (int i = 0; i < 8; i++) {
			int row, col;
			isa_a(16, 16, t % 32, i, &row, &col);
			uint16_t v = (uint16_t)A[(16 * (t / 32) + row) * 16 + col];
			memcpy((char *)afrag + t * 16 + 2 * i, &v, 2);
		}
	/* B's element (k, n) K-major without swizzle: core matrix k / 8 (LBO
	 * 128 bytes apart), row n % 8 (16 bytes), byte 2 (k % 8) */
	for (int k = 0; k < 16; k++)
		for (int n = 0; n < 8; n++)
			bs[(k / 8) * 64 + n * 8 + k % 8] = (uint16_t)B[k * 8 + n];
	memset(d, 0, sizeof d);
	struct ub_error err = { "" };
	struct ptx_module *mod = NULL;
	ck_assert_msg(ptx_parse(wgmma_ptx, &mod, &err) == 0, "%s", err.msg);
	void *p[3] = { afrag, bs, d };
	size_t sz[3] = { sizeof afrag, sizeof bs, sizeof d };
	struct ptx_buffer bufs[3];
	uint64_t args[3];
	for (int k = 0; k < 3; k++) {
		bufs[k] = (struct ptx_buffer){ p[k], sz[k], k == 2, NULL };
		args[k] = (uint64_t)(uintptr_t)p[k];
	}
	struct ptx_launch ln = { { 1, 1, 1 }, { 128, 1, 1 }, args, 3, bufs, 3, 0, 0, 0, 0, 0 };
	struct ptx_run_info info;
	ck_assert_msg(ptx_run(mod, "g", &ln, &info, &err) == 0, "%s", err.msg);
	struct ub_mma_model mo;
	ck_assert_int_eq(ub_mma_model_get(90, UB_MMA_WGMMA, UB_MF16, 16, &mo), 0);
	for (int t = 0; t < 128; t++)
		for (int i = 0; i < 4; i++) {   /* the accumulator layout */
			int l = t % 32, row = 16 * (t / 32) + l / 4 + 8 * (i >> 1);
			int col = 2 * (l % 4) + (i & 1);
			uint64_t bc[16];
			unsigned doubt = 0;
			for (int q = 0; q < 16; q++)
				bc[q] = B[q * 8 + col];
			uint64_t want = ub_mma_dot(&mo, UB_MF16, UB_MF16, A + row * 16, bc, 16,
						   UB_MF32, 0, &doubt);
			ck_assert_msg(d[t * 4 + i] == want, "D(%d,%d) 0x%08x, want 0x%08llx", row,
				      col, d[t * 4 + i], (unsigned long long)want);
		}
	ptx_free(mod);
}
END_TEST

TCase *ptx_mma_tcase(void)
{
	TCase *tc = tcase_create("mma");
	tcase_add_loop_test(tc, mma_sync, 0, (int)(sizeof forms / sizeof *forms));
	tcase_add_test(tc, mma_errors);
	tcase_add_loop_test(tc, wmma, 0, 2);
	tcase_add_test(tc, wgmma);
	return tc;
}
