/* check_ptx_batch.c — the lane-batched executor (src/exec/ptx/ptx_batch.c)
 * on kernels whose threads go different ways: loops with a trip count per
 * thread, if/else by branches, a predicated instruction, a guarded early
 * ret, a last batch of fewer than 64 lanes; and errors raised by one lane
 * of a batch (a bad store, a runaway thread), which must name the same
 * thread as the thread-by-thread executor does.
 *
 * Expected values are computed here by hand from the kernel's text (the
 * formula in its comment); the two executors must also agree on the
 * instruction count. */
#include "check_ptx.h"
#include "ptx_batch.h"

#include <stdlib.h>
#include <string.h>

/* out[i] for i < n: t = i % 5, acc = sum over k < t of (k + 3), then
 * odd i: acc * 7, even i: acc + 1000.  Threads with i >= n return first. */
static const char diverge[] =
	".version 9.0\n.target sm_90\n.address_size 64\n"
	".visible .entry div_k(.param .u64 out_p, .param .u32 n_p)\n{\n"
	"\t.reg .pred %p<4>;\n\t.reg .b32 %r<12>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [out_p];\n"
	"\tld.param.u32 %r1, [n_p];\n"
	"\tmov.u32 %r2, %ctaid.x;\n"
	"\tmov.u32 %r3, %ntid.x;\n"
	"\tmov.u32 %r4, %tid.x;\n"
	"\tmad.lo.s32 %r5, %r2, %r3, %r4;\n"
	"\tsetp.ge.u32 %p1, %r5, %r1;\n"
	"\t@%p1 ret;\n"
	"\trem.u32 %r6, %r5, 5;\n"
	"\tmov.u32 %r7, 0;\n"
	"\tmov.u32 %r8, 0;\n"
	"$Lloop:\n"
	"\tsetp.ge.u32 %p2, %r8, %r6;\n"
	"\t@%p2 bra $Ldone;\n"
	"\tadd.s32 %r7, %r7, %r8;\n"
	"\tadd.s32 %r7, %r7, 3;\n"
	"\tadd.s32 %r8, %r8, 1;\n"
	"\tbra.uni $Lloop;\n"
	"$Ldone:\n"
	"\tand.b32 %r9, %r5, 1;\n"
	"\tsetp.ne.u32 %p3, %r9, 0;\n"
	"\t@!%p3 bra $Leven;\n"
	"\tmul.lo.s32 %r7, %r7, 7;\n"
	"\tbra.uni $Lstore;\n"
	"$Leven:\n"
	"\t@!%p3 add.s32 %r7, %r7, 1000;\n"
	"$Lstore:\n"
	"\tmul.wide.u32 %rd2, %r5, 4;\n"
	"\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\tst.global.u32 [%rd3], %r7;\n"
	"\tret;\n}\n";

#define NT 150          /* 3 blocks of 50: batches of 64, 64 and 22 lanes */
#define NV 137          /* threads 137..149 return early */
#define SENTINEL 0xdeadbeefu

static uint32_t expect(uint32_t i)
{
	uint32_t t = i % 5, acc = t * (t - 1) / 2 + 3 * t;
	return i % 2 ? acc * 7 : acc + 1000;
}

static int run_div(const struct ptx_module *m, uint32_t *out, int scalar,
		   uint64_t budget, struct ptx_run_info *info,
		   struct ub_error *err)
{
	for (int i = 0; i < NT; i++)
		out[i] = SENTINEL;
	struct ptx_buffer buf = { out, NT * sizeof *out, 1, NULL };
	uint64_t args[] = { (uint64_t)(uintptr_t)out, NV };
	struct ptx_launch l = { { 3, 1, 1 }, { 50, 1, 1 }, args, 2, &buf, 1,
				budget, scalar, 0, 0, 0 };
	return ptx_run(m, "div_k", &l, info, err);
}

START_TEST(divergent_threads)
{
	struct ub_error err;
	struct ptx_module *m;
	ck_assert_msg(ptx_parse(diverge, &m, &err) == 0, "%s", err.msg);
	uint32_t out[2][NT];
	struct ptx_run_info info[2];
	for (int s = 0; s < 2; s++)
		ck_assert_msg(run_div(m, out[s], s, 0, &info[s], &err) == 0,
			      "%s", err.msg);
	for (uint32_t i = 0; i < NT; i++) {
		uint32_t want = i < NV ? expect(i) : SENTINEL;
		for (int s = 0; s < 2; s++)
			ck_assert_msg(out[s][i] == want, "%s: out[%u] = 0x%08x, "
				      "want 0x%08x", s ? "thread by thread" : "batched",
				      i, out[s][i], want);
	}
	ck_assert_uint_eq(info[0].batch_reruns, 0);   /* it did run batched */
	ck_assert_msg(info[0].insns == info[1].insns, "instructions: batched "
		      "%llu, thread by thread %llu",
		      (unsigned long long)info[0].insns,
		      (unsigned long long)info[1].insns);
	ptx_free(m);
}
END_TEST

/* The budget is per thread: threads of one batch looping different
 * numbers of times must not add up to it.  Counting executed instructions
 * (a guarded one whose guard fails does not count; the check is made at
 * each branch), thread i reaches its last branch after at most 36: 10
 * before the loop, 5 per trip and 2 to leave it (i % 5 = 4 trips: 22),
 * then 4 (odd i).  A batch issues more than 38 (its lanes' paths
 * together), so it is rerun thread by thread, and that run passes. */
START_TEST(budget_is_per_thread)
{
	struct ub_error err;
	struct ptx_module *m;
	ck_assert_msg(ptx_parse(diverge, &m, &err) == 0, "%s", err.msg);
	uint32_t out[NT];
	struct ptx_run_info info;
	ck_assert_msg(run_div(m, out, 0, 38, &info, &err) == 0, "%s", err.msg);
	for (uint32_t i = 0; i < NV; i++)
		ck_assert_msg(out[i] == expect(i), "out[%u] = 0x%08x", i, out[i]);
	ptx_free(m);
}
END_TEST

/* Thread 70 (lane 6 of the second batch) stores out of bounds; thread 100
 * of another kernel never ends.  Both executors name the same thread. */
static const char bad_lane[] =
	".version 9.0\n.target sm_90\n.address_size 64\n"
	".visible .entry bad_k(.param .u64 out_p)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [out_p];\n"
	"\tmov.u32 %r1, %tid.x;\n"
	"\tmul.wide.u32 %rd2, %r1, 4;\n"
	"\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\tst.global.u32 [%rd3], %r1;\n"
	"\tsetp.ne.u32 %p1, %r1, 100;\n"
	"\t@%p1 ret;\n"
	"$Lspin:\n"
	"\tbra.uni $Lspin;\n}\n";

START_TEST(failing_lane)
{
	struct ub_error err[2];
	struct ptx_module *m;
	ck_assert_msg(ptx_parse(bad_lane, &m, &err[0]) == 0, "%s", err[0].msg);
	uint32_t out[128];
	struct ptx_buffer small = { out, 70 * sizeof *out, 1, NULL }, all = { out, sizeof out, 1, NULL };
	uint64_t arg = (uint64_t)(uintptr_t)out;
	struct ptx_run_info info;
	const char *want[] = { "out-of-bounds st.global.u32",
			       "thread 100,0,0 of block 0,0,0 ran more than 1000" };
	for (int k = 0; k < 2; k++) {
		for (int s = 0; s < 2; s++) {
			struct ptx_launch l = { { 1, 1, 1 }, { 128, 1, 1 }, &arg, 1,
						k ? &all : &small, 1, 1000, s, 0, 0, 0 };
			ck_assert_int_eq(ptx_run(m, "bad_k", &l, &info, &err[s]),
					 UB_RUNTIME);
			ck_assert_msg(strstr(err[s].msg, want[k]), "%s", err[s].msg);
		}
		ck_assert_str_eq(err[0].msg, err[1].msg);
		if (!k)
			ck_assert_msg(strstr(err[0].msg, "thread 70,0,0"), "%s",
				      err[0].msg);
	}
	ptx_free(m);
}
END_TEST

/* What ptx_uniform.c computes once per launch in div_k: the two
 * ld.param and mov %ntid.x (instructions 0, 1, 3), nothing that reads
 * %ctaid/%tid, and not `mov.u32 %r7, 0` or `mov.u32 %r8, 0` (their
 * registers are written again in the loop). */
START_TEST(uniform_instructions)
{
	struct ub_error err;
	struct ptx_module *m;
	ck_assert_msg(ptx_parse(diverge, &m, &err) == 0, "%s", err.msg);
	const struct ptx_func *f = &m->funcs[0];
	uint8_t *u = ptx_uniform_insns(f);
	ck_assert_ptr_nonnull(u);
	char got[64] = "", want[64] = "1101";   /* then zeros */
	ck_assert_uint_ge(f->ncode, 27);   /* the 27 instructions of div_k */
	for (uint32_t i = 0; i < f->ncode && i < sizeof got - 1; i++) {
		got[i] = (char)('0' + u[i]);
		if (i >= 4)
			want[i] = '0';
	}
	ck_assert_str_eq(got, want);
	free(u);
	ptx_free(m);
}
END_TEST

/* Reads before writes.  PTX leaves them undefined; the interpreter
 * defines every thread to start as the first one: registers 0, the carry
 * flag clear, .local memory zero.  Thread i stores
 *   out[3i]     %r2 + 1, where only thread 1 sets %r2 = 41 first: 42
 *               for thread 1, else 1 (the mov is one the batched
 *               executor would compute once per launch);
 *   out[3i + 1] the .local word read before this thread stores i: 0;
 *   out[3i + 2] addc of 0 + 0 with the carry flag, before this thread's
 *               add.cc (which sets it for i >= 1): 0. */
static const char unset[] =
	".version 9.0\n.target sm_90\n.address_size 64\n"
	".visible .entry unset_k(.param .u64 out_p)\n{\n"
	"\t.local .align 4 .b8 buf[4];\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<5>;\n"
	"\tld.param.u64 %rd1, [out_p];\n"
	"\tmov.u32 %r1, %tid.x;\n"
	"\tmov.u32 %r6, %ctaid.x;\n"
	"\tmad.lo.s32 %r1, %r6, 50, %r1;\n"
	"\tmul.wide.u32 %rd2, %r1, 12;\n"
	"\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\tsetp.ne.u32 %p1, %r1, 1;\n"
	"\t@%p1 bra $Lskip;\n"
	"\tmov.u32 %r2, 41;\n"
	"$Lskip:\n"
	"\tadd.s32 %r3, %r2, 1;\n"
	"\tst.global.u32 [%rd3], %r3;\n"
	"\tmov.u64 %rd4, buf;\n"
	"\tld.local.u32 %r4, [%rd4];\n"
	"\tst.local.u32 [%rd4], %r1;\n"
	"\tst.global.u32 [%rd3+4], %r4;\n"
	"\taddc.u32 %r5, 0, 0;\n"
	"\tadd.cc.u32 %r7, %r1, 0xffffffff;\n"
	"\tst.global.u32 [%rd3+8], %r5;\n"
	"\tret;\n}\n";

START_TEST(reads_before_writes)
{
	struct ub_error err;
	struct ptx_module *m;
	ck_assert_msg(ptx_parse(unset, &m, &err) == 0, "%s", err.msg);
	static uint32_t out[2][3 * NT];
	struct ptx_run_info info[2];
	for (int s = 0; s < 2; s++) {
		memset(out[s], 0xee, sizeof out[s]);
		struct ptx_buffer buf = { out[s], sizeof out[s], 1, NULL };
		uint64_t arg = (uint64_t)(uintptr_t)out[s];
		struct ptx_launch l = { { 3, 1, 1 }, { 50, 1, 1 }, &arg, 1, &buf, 1,
					0, s, 0, 0, 0 };
		ck_assert_msg(ptx_run(m, "unset_k", &l, &info[s], &err) == 0, "%s",
			      err.msg);
	}
	for (uint32_t i = 0; i < NT; i++)
		for (int s = 0; s < 2; s++) {
			const char *how = s ? "thread by thread" : "batched";
			ck_assert_msg(out[s][3 * i] == (i == 1 ? 42u : 1u),
				      "%s: thread %u read %%r2 + 1 = %u", how, i,
				      out[s][3 * i]);
			ck_assert_msg(out[s][3 * i + 1] == 0, "%s: thread %u read "
				      ".local %u", how, i, out[s][3 * i + 1]);
			ck_assert_msg(out[s][3 * i + 2] == 0, "%s: thread %u read the "
				      "carry flag %u", how, i, out[s][3 * i + 2]);
		}
	ck_assert_uint_eq(info[0].batch_reruns, 0);
	ck_assert_uint_eq(info[0].insns, info[1].insns);
	ptx_free(m);
}
END_TEST

TCase *ptx_batch_tcase(void)
{
	TCase *tc = tcase_create("batch");
	tcase_add_test(tc, divergent_threads);
	tcase_add_test(tc, uniform_instructions);
	tcase_add_test(tc, budget_is_per_thread);
	tcase_add_test(tc, failing_lane);
	tcase_add_test(tc, reads_before_writes);
	return tc;
}
