/* check_ptx_module.c — what nvcc emits for a whole .cu file, beside the
 * kernel under test: other kernels, with shared memory and a barrier
 * (which run), device malloc and an atomic in a called function (which
 * the sim cannot run), module variables whose
 * initializer is an address (generic(arr), a kernel's name), and a
 * kernel's declaration before its definition.  The text follows nvcc
 * 13.0's output for such a file (kernel names shortened).  Expected: the
 * elementwise kernel runs and reads the array through the pointer
 * variable (out = 2 x + arr[1] = 2 x + 2, by hand); the block-level
 * kernel runs; asking for another kernel gives that kernel's own error,
 * from the parse (malloc) or the run (a call in a block-level kernel);
 * ptx_parse (every function) fails. */
#include "check_ptx.h"

#include <string.h>

static const char file_ptx[] =
	".version 9.0\n.target sm_90\n.address_size 64\n"
	".extern .func (.param .b64 func_retval0) malloc\n(\n"
	".param .b64 malloc_param_0\n)\n;\n"
	".visible .entry scale(\n.param .u64 scale_param_0,\n"
	".param .u64 scale_param_1,\n.param .u32 scale_param_2\n);\n"
	".global .align 4 .b8 arr[16] = {0, 0, 128, 63, 0, 0, 0, 64, 0, 0, 64, 64, 0, 0, 128, 64};\n"
	".global .align 8 .u64 ap = generic(arr);\n"
	".global .align 8 .u64 kp = scale;\n"
	".global .align 1 .b8 $str[4] = {37, 102, 10};\n"
	".extern .shared .align 16 .b8 dyn[];\n"
	".visible .entry reduce(\n.param .u64 reduce_param_0\n)\n{\n"
	".shared .align 4 .b8 tile[1024];\n.reg .b32 %r<3>;\n.reg .f32 %f<2>;\n"
	"mov.u32 %r1, tile;\nst.shared.f32 [%r1], %f1;\nbar.sync 0;\nret;\n}\n"
	".visible .entry talk()\n{\n.reg .b64 %rd<3>;\n.reg .b32 %r<2>;\n"
	"{\n.param .b64 param0;\n.param .b64 retval0;\n"
	"call.uni (retval0), malloc, (param0);\n}\nret;\n}\n"
	".func add1(.param .u64 a)\n{\n.reg .b64 %rd<3>;\n.reg .b32 %r<3>;\n"
	"ld.param.u64 %rd1, [a];\natom.global.add.u32 %r1, [%rd1], 1;\nret;\n}\n"
	".visible .entry count(.param .u64 count_param_0)\n{\n"
	".reg .b64 %rd<3>;\n{\n.param .b64 p0;\nst.param.b64 [p0+0], %rd1;\n"
	"call.uni add1, (p0);\n}\nret;\n}\n"
	".visible .entry scale(\n.param .u64 scale_param_0,\n"
	".param .u64 scale_param_1,\n.param .u32 scale_param_2\n)\n{\n"
	".reg .pred %p<2>;\n.reg .b32 %r<6>;\n.reg .f32 %f<5>;\n.reg .b64 %rd<10>;\n"
	"ld.param.u64 %rd1, [scale_param_0];\nld.param.u64 %rd2, [scale_param_1];\n"
	"ld.param.u32 %r2, [scale_param_2];\nmov.u32 %r3, %ctaid.x;\n"
	"mov.u32 %r4, %ntid.x;\nmov.u32 %r5, %tid.x;\nmad.lo.s32 %r1, %r3, %r4, %r5;\n"
	"setp.ge.s32 %p1, %r1, %r2;\n@%p1 bra $L__BB0_2;\n"
	"cvta.to.global.u64 %rd3, %rd1;\nmul.wide.s32 %rd4, %r1, 4;\n"
	"add.s64 %rd5, %rd3, %rd4;\nld.global.f32 %f1, [%rd5];\n"
	"ld.global.u64 %rd6, [ap];\nld.f32 %f2, [%rd6+4];\n"
	"fma.rn.f32 %f3, %f1, 0f40000000, %f2;\ncvta.to.global.u64 %rd7, %rd2;\n"
	"add.s64 %rd8, %rd7, %rd4;\nst.global.f32 [%rd8], %f3;\n"
	"$L__BB0_2:\nret;\n}\n";

/* Runs scale over 70 elements. */
static void run_scale(const struct ptx_module *m)
{
	float in[70], out[70] = { 0 };
	for (int i = 0; i < 70; i++)
		in[i] = (float)i;
	struct ptx_buffer bufs[2] = { { in, sizeof in, 0, NULL }, { out, sizeof out, 1, NULL } };
	uint64_t args[3] = { (uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out, 70 };
	struct ptx_launch l = { { 1, 1, 1 }, { 70, 1, 1 }, args, 3, bufs, 2, 0, 0, 0, 0, 0 };
	struct ptx_run_info info;
	struct ub_error err;
	ck_assert_msg(ptx_run(m, "scale", &l, &info, &err) == 0, "%s", err.msg);
	for (int i = 0; i < 70; i++)
		ck_assert_msg(out[i] == 2.0f * (float)i + 2.0f, "out[%d] = %a", i, out[i]);
}

START_TEST(whole_file)
{
	struct ub_error err = { "" };
	struct ptx_module *m = NULL;
	ck_assert_msg(ptx_parse_for(file_ptx, "scale", &m, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(ptx_entry_nparams(m, "scale"), 3);
	run_scale(m);
	/* the others fail when asked for, each with its own reason */
	static const struct { const char *entry, *msg; int parses; } other[] = {
		{ "reduce", NULL, 1 },
		{ "talk", "call of undefined function 'malloc'", 0 },
		{ "count", "ptx: kernel 'count' uses block-level instructions (.shared "
			   "memory, barriers, warp or atomic instructions) and calls "
			   "functions ('add1'): not supported", 1 },
	};
	for (size_t k = 0; k < sizeof other / sizeof *other; k++) {
		struct ptx_launch l = { { 1, 1, 1 }, { 1, 1, 1 }, NULL, 1, NULL, 0, 0, 0, 0, 0, 0 };
		uint64_t arg = 0;
		struct ptx_run_info info;
		l.args = &arg;
		l.nargs = ptx_entry_nparams(m, other[k].entry);
		int rc = ptx_run(m, other[k].entry, &l, &info, &err);
		ck_assert_int_eq(rc, other[k].msg ? UB_RUNTIME : 0);
		ck_assert_msg(!other[k].msg || strstr(err.msg, other[k].msg), "%s: %s",
			      other[k].entry, err.msg);
		struct ptx_module *m2 = NULL;
		rc = ptx_parse_for(file_ptx, other[k].entry, &m2, &err);
		ck_assert_int_eq(rc, other[k].parses ? 0 : UB_RUNTIME);
		ck_assert_msg(other[k].parses || strstr(err.msg, other[k].msg), "%s: %s",
			      other[k].entry, err.msg);
		ck_assert(!m2 == !other[k].parses);
		ptx_free(m2);
	}
	ptx_free(m);
	ck_assert_int_eq(ptx_parse(file_ptx, &m, &err), UB_RUNTIME);
	ck_assert_msg(strstr(err.msg, "malloc"), "%s", err.msg);
}
END_TEST

TCase *ptx_module_tcase(void)
{
	TCase *tc = tcase_create("module");
	tcase_add_test(tc, whole_file);
	return tc;
}
