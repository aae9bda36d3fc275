/* check_backend.c — backend selection, the sim backend through the
 * backend interface, and NVRTC's CUBIN path (no GPU needed for any).
 *
 * The driver is pointed at a path that does not exist (the suite sets
 * ULPBENCH_LIBCUDA before any test runs), so these tests behave the same
 * with and without a GPU; tests/cuda.test drives the cuda backend through
 * a stand-in driver. */
#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "nvrtc.h"
#include "ptx.h"

START_TEST(test_names)
{
	char buf[64];
	ck_assert_str_eq(ub_backend_names(buf, sizeof buf), "auto, sim, cuda");
	ck_assert(ub_backend_valid("auto") && ub_backend_valid("sim") &&
		  ub_backend_valid("cuda"));
	ck_assert(!ub_backend_valid("gpu") && !ub_backend_valid(""));
}
END_TEST

START_TEST(test_get)
{
	const struct ub_backend *be = NULL;
	struct ub_error err;
	ck_assert_int_eq(ub_backend_get(NULL, &be, &err), 0);
	ck_assert_str_eq(be->name, "sim");
	ck_assert_int_eq(ub_backend_get("sim", &be, &err), 0);
	ck_assert_str_eq(be->name, "sim");
	/* no driver: cuda fails with the reason, auto falls back */
	ck_assert_int_eq(ub_backend_get("cuda", &be, &err), UB_RUNTIME);
	ck_assert_msg(strncmp(err.msg, "cuda: no NVIDIA driver: /nonexistent/libcuda.so.1", 49) == 0,
		      "%s", err.msg);
	ck_assert_int_eq(ub_backend_get("auto", &be, &err), 0);
	ck_assert_str_eq(be->name, "sim");
	ck_assert_int_eq(ub_backend_get("gpu", &be, &err), UB_USAGE);
	ck_assert_str_eq(err.msg, "unknown backend 'gpu' (valid: auto, sim, cuda)");
	/* arch: the sim compiles for what it is given, cuda without a
	 * device too */
	ck_assert_str_eq(ub_backend_sim.arch("compute_90", 0), "compute_90");
	ck_assert_str_eq(ub_backend_cuda.arch("compute_80", 0), "compute_80");
}
END_TEST

/* out[i] = OP(in[i]) through inline PTX */
static const char *kernel_src =
	"extern \"C\" __global__ void k(const float *in, float *out, long long n)\n"
	"{ long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
	"  if (i >= n) return;\n"
	"  float r; asm(\"%s %%0, %%1;\" : \"=f\"(r) : \"f\"(in[i])); out[i] = r; }\n";

/* Runs the kernel over 1000 elements (4 blocks) with PTX instruction insn
 * on the sim: returns the approx mask, fills out. */
static uint64_t run_insn(const char *insn, struct ub_array *in, struct ub_array *out)
{
	char src[1024];
	struct ub_error err;
	uint64_t approx = 0;
	snprintf(src, sizeof src, kernel_src, insn);
	struct ub_karg args[] = {{.arr = in}, {.arr = out, .writable = 1}, {.value = in->n}};
	struct ub_job job = {.src = src, .name = "k.cu", .opts = "", .arch = "compute_90",
			     .entry = "k", .args = args, .nargs = 3, .n = in->n};
	int s = ub_backend_sim.run(&job, &approx, &err);
	ck_assert_msg(s == 0, "%s", err.msg);
	return approx;
}

START_TEST(test_sim_run)
{
	struct ub_array in, out;
	ck_assert_int_eq(ub_array_alloc(&in, UB_F32, 1000), 0);
	ck_assert_int_eq(ub_array_alloc(&out, UB_F32, 1000), 0);
	for (size_t i = 0; i < in.n; i++)
		ub_array_set(&in, i, 0x3f800000u + (uint32_t)i * 4099u);
	/* IEEE: no bits; the last element written too (host: Python's
	 * sqrt in double rounded to float, a harmless double rounding since
	 * 53 >= 2*24 + 2) */
	ck_assert_int_eq(run_insn("sqrt.rn.f32", &in, &out), 0);
	ck_assert_uint_eq(ub_array_get(&out, 0), 0x3f800000u); /* sqrt(1) = 1 */
	ck_assert_uint_eq(ub_array_get(&out, 999), 0x3f9c259bu);
	/* approximate: its kind, run through the model measured on an sm_90
	 * GPU (compute_90) */
	ck_assert_uint_eq(run_insn("rcp.approx.ftz.f32", &in, &out),
			  UINT64_C(1) << (PTX_AX_MEASURED + PTX_AX_RCP_APPROX));
	/* mul without rounding modifier: the unmarked bit */
	ck_assert_uint_eq(run_insn("mul.f32 %0, %1, %1; //", &in, &out), UB_APPROX_UNMARKED);
	ck_assert_uint_eq(ub_array_get(&out, 0), 0x3f800000u);
	ub_array_free(&in);
	ub_array_free(&out);
}
END_TEST

START_TEST(test_cubin)
{
	void *cubin = NULL;
	size_t size = 0;
	struct ub_error err;
	const char *src = "extern \"C\" __global__ void k(float *x) { x[0] = 1; }";
	int s = ub_nvrtc_compile_cubin(src, "k.cu", "", "sm_90", &cubin, &size, &err);
	ck_assert_msg(s == 0, "%s", err.msg);
	/* an ELF file (magic 7f 'E' 'L' 'F') for machine EM_CUDA = 190 */
	const unsigned char *b = cubin;
	ck_assert(size > 64 && memcmp(b, "\177ELF", 4) == 0);
	ck_assert_uint_eq(b[18] | b[19] << 8, 190);
	free(cubin);
	ck_assert_int_eq(ub_nvrtc_compile_cubin(src, "k.cu", "", "compute_90", &cubin,
						&size, &err), UB_COMPILE);
	ck_assert_str_eq(err.msg, "k.cu: no CUBIN for compute_90 (a real architecture sm_NN is needed)");
	ck_assert_int_eq(ub_nvrtc_compile_cubin("oops", "bad.cu", "", "sm_90", &cubin,
						&size, &err), UB_COMPILE);
	ck_assert_msg(strstr(err.msg, "bad.cu: compile failed (default flags): ") == err.msg, "%s", err.msg);
}
END_TEST

START_TEST(test_best_arch)
{
	/* every NVRTC since 12.0 knows sm_90 and no 91..99, none below 50 */
	ck_assert_int_eq(ub_nvrtc_best_arch(90), 90);
	ck_assert_int_eq(ub_nvrtc_best_arch(95), 90);
	ck_assert_int_eq(ub_nvrtc_best_arch(30), 0);
}
END_TEST

Suite *ub_backend_suite(void)
{
	setenv("ULPBENCH_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
	Suite *s = suite_create("backend");
	TCase *tc = tcase_create("backend");
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_get);
	tcase_add_test(tc, test_sim_run);
	tcase_add_test(tc, test_cubin);
	tcase_add_test(tc, test_best_arch);
	suite_add_tcase(s, tc);
	return s;
}
