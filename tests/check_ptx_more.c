/* check_ptx_more.c — the instructions real kernels bring beside
 * arithmetic (ptx_insn_more.c, ptx_async.c, ptx_builtin.c), each against
 * a result derived by hand from the PTX ISA 9.0 text beside it: prmt in
 * every mode, lop3 and its predicate forms, WARP_SZ and the special
 * registers, trap, device assert and printf, cp.async with its groups,
 * mbarrier phases and their errors, the atomics of 16 and 64 bits, of
 * vectors and on .shared memory, shfl without .sync, and a 2-D block. */
#include "check_ptx.h"

#include <stdio.h>
#include <string.h>

/* prmt (9.7.9.7) with a = 0x33221100, b = 0x77665544: the bytes of {b, a}
 * are b0..b7 = 0x00, 0x11, .. 0x77, so byte k of the result is 0xkk'
 * where k' is the index chosen.  Without a mode c's nibbles choose
 * (bit 3: the chosen byte's sign in all 8 bits); with one, c's low two
 * bits choose the row of the ISA's table (d.b3 d.b2 d.b1 d.b0). */
static const struct ptx_case prmt_cases[] = {
	{ "prmt.b32 %x3, %x0, %x1, %x2", 0x33221100, 0x77665544, 0x3210, 'x', 0x33221100, 0, 0 },
	/* nibbles 1, 3, 5, 7: cub's PRMT example (0x7531 gives b7 b5 b3 b1) */
	{ "prmt.b32 %x3, %x0, %x1, %x2", 0x33221100, 0x77665544, 0x7531, 'x', 0x77553311, 0, 0 },
	/* a = 0x0000ff7f: nibble 8 = byte 0 (0x7f) by its sign: 0x00; 9 =
	 * byte 1 (0xff) by its sign: 0xff; then byte 0 twice */
	{ "prmt.b32 %x3, %x0, %x1, %x2", 0x0000ff7f, 0, 0x0098, 'x', 0x7f7fff00, 0, 0 },
	{ "prmt.b32.f4e %x3, %x0, %x1, %x2", 0x33221100, 0x77665544, 1, 'x', 0x44332211, 0, 0 },
	{ "prmt.b32.f4e %x3, %x0, %x1, %x2", 0x33221100, 0x77665544, 7, 'x', 0x66554433, 0, 0 },
	{ "prmt.b32.b4e %x3, %x0, %x1, %x2", 0x33221100, 0x77665544, 0, 'x', 0x55667700, 0, 0 },
	{ "prmt.b32.b4e %x3, %x0, %x1, %x2", 0x33221100, 0x77665544, 2, 'x', 0x77001122, 0, 0 },
	{ "prmt.b32.rc8 %x3, %x0, %x1, %x2", 0x33221100, 0x77665544, 2, 'x', 0x22222222, 0, 0 },
	{ "prmt.b32.ecl %x3, %x0, %x1, %x2", 0x33221100, 0x77665544, 1, 'x', 0x33221111, 0, 0 },
	{ "prmt.b32.ecr %x3, %x0, %x1, %x2", 0x33221100, 0x77665544, 2, 'x', 0x22221100, 0, 0 },
	{ "prmt.b32.rc16 %x3, %x0, %x1, %x2", 0x33221100, 0x77665544, 1, 'x', 0x33223322, 0, 0 },
	{ "prmt.b32.f4e %x3, %x0, %x1, %x2", 0x33221100, 0x77665544, 0, 'x', 0x33221100, 0, 0 },
	{ "prmt.b32.f4e %x3, %x0, %x1, %x2", 0x33221100, 0x77665544, 2, 'x', 0x55443322, 0, 0 },
	{ "prmt.b32.b4e %x3, %x0, %x1, %x2", 0x33221100, 0x77665544, 1, 'x', 0x66770011, 0, 0 },
	{ "prmt.b32.b4e %x3, %x0, %x1, %x2", 0x33221100, 0x77665544, 3, 'x', 0x00112233, 0, 0 },
	{ "prmt.b32.rc8 %x3, %x0, %x1, %x2", 0x33221100, 0x77665544, 0, 'x', 0x00000000, 0, 0 },
	{ "prmt.b32.rc8 %x3, %x0, %x1, %x2", 0x33221100, 0x77665544, 3, 'x', 0x33333333, 0, 0 },
	{ "prmt.b32.ecl %x3, %x0, %x1, %x2", 0x33221100, 0x77665544, 0, 'x', 0x33221100, 0, 0 },
	{ "prmt.b32.ecl %x3, %x0, %x1, %x2", 0x33221100, 0x77665544, 2, 'x', 0x33222222, 0, 0 },
	{ "prmt.b32.ecl %x3, %x0, %x1, %x2", 0x33221100, 0x77665544, 3, 'x', 0x33333333, 0, 0 },
	{ "prmt.b32.ecr %x3, %x0, %x1, %x2", 0x33221100, 0x77665544, 0, 'x', 0x00000000, 0, 0 },
	{ "prmt.b32.ecr %x3, %x0, %x1, %x2", 0x33221100, 0x77665544, 1, 'x', 0x11111100, 0, 0 },
	{ "prmt.b32.ecr %x3, %x0, %x1, %x2", 0x33221100, 0x77665544, 3, 'x', 0x33221100, 0, 0 },
	{ "prmt.b32.rc16 %x3, %x0, %x1, %x2", 0x33221100, 0x77665544, 0, 'x', 0x11001100, 0, 0 },
	{ "prmt.b32.rc16 %x3, %x0, %x1, %x2", 0x33221100, 0x77665544, 2, 'x', 0x11001100, 0, 0 },
	{ "prmt.b32.rc16 %x3, %x0, %x1, %x2", 0x33221100, 0x77665544, 3, 'x', 0x33223322, 0, 0 },
	/* lop3 (9.7.8.6): immLut = F(0xF0, 0xCC, 0xAA), so those inputs give
	 * the LUT back; the ISA's own examples on other bits */
	{ "lop3.b32 %x3, %x0, %x1, %x2, 0x96", 0xF0, 0xCC, 0xAA, 'x', 0x96, 0, 0 },
	{ "lop3.b32 %x3, %x0, %x1, %x2, 0x80", 0xffff, 0xff00ff, 0x0f0f0f0f, 'x', 0xf, 0, 0 },
	{ "lop3.b32 %x3, %x0, %x1, %x2, 0xFE", 0xffff, 0xff00ff, 0x0f0f0f0f, 'x', 0x0fffffff, 0, 0 },
	/* ((a & b) | c) ^ a = (0xff | 0x0f0f0f0f) ^ 0xffff = 0x0f0ff000 */
	{ "lop3.b32 %x3, %x0, %x1, %x2, 0x1A", 0xffff, 0xff00ff, 0x0f0f0f0f, 'x', 0x0f0ff000, 0, 0 },
	/* p = (d != 0) OP q, q = %p2 (c != 0) */
	{ "lop3.or.b32 %x3|%p3, %x0, %x1, %x2, 0x80, %p2", 1, 1, 0, 'p', 0, 0, 0 },
	{ "lop3.or.b32 %x3|%p3, %x0, %x1, %x2, 0x80, %p2", 1, 1, 1, 'p', 1, 0, 0 },
	{ "lop3.or.b32 %x3|%p3, %x0, %x1, %x2, 0x01, %p2", 0, 0, 1, 'p', 1, 0, 0 },
	{ "lop3.and.b32 %x3|%p3, %x0, %x1, %x2, 0xFE, %p2", 1, 0, 0, 'p', 0, 0, 0 },
	{ "lop3.and.b32 _|%p3, %x0, %x1, %x2, 0xFE, %p2", 1, 0, 1, 'p', 1, 0, 0 },
	/* WARP_SZ (4.4, predefined identifiers): 32 wherever an immediate is */
	{ "mov.u32 %x3, WARP_SZ", 0, 0, 0, 'x', 32, 0, 0 },
	{ "add.u32 %x3, %x0, WARP_SZ", 5, 0, 0, 'x', 37, 0, 0 },
	/* special registers (chapter 10) of thread 0 of block 0, one block of
	 * one thread, no .shared memory: an sm_90 GPU's 64 warp ids, a
	 * cluster of one block */
	{ "mov.u32 %x3, %nwarpid", 0, 0, 0, 'x', 64, 0, 0 },
	{ "mov.u32 %x3, %nsmid", 0, 0, 0, 'x', 132, 0, 0 },
	{ "mov.u32 %x3, %nclusterid.x", 0, 0, 0, 'x', 1, 0, 0 },
	{ "mov.u32 %x3, %cluster_nctarank", 0, 0, 0, 'x', 1, 0, 0 },
	{ "mov.u32 %x3, %total_smem_size", 0, 0, 0, 'x', 0, 0, 0 },
	{ "mov.u32 %x3, %lanemask_lt", 0, 0, 0, 'x', 0, 0, 0 },
	{ "mov.u32 %x3, %lanemask_le", 0, 0, 0, 'x', 1, 0, 0 },
	{ "mov.u32 %x3, %lanemask_ge", 0, 0, 0, 'x', 0xffffffff, 0, 0 },
	{ "mov.u32 %x3, %lanemask_gt", 0, 0, 0, 'x', 0xfffffffe, 0, 0 },
	{ "nanosleep.u32 %x0;\n\tmov.u32 %x3, %x0", 100, 0, 0, 'x', 100, 0, 0 },
};

START_TEST(one_insn)
{
	ptx_check_case(&prmt_cases[_i]);
}
END_TEST

/* Runs `name` of ptx over one block of (bx, by) threads with the u32
 * array w (n words) as its one parameter; the status, err holding the
 * message. */
static int run_block(const char *ptx, const char *name, unsigned bx, unsigned by,
		     uint32_t *w, size_t n, struct ub_error *err)
{
	struct ptx_module *m = NULL;
	ck_assert_msg(ptx_parse(ptx, &m, err) == 0, "%s", err->msg);
	struct ptx_buffer b = { w, n * sizeof *w, 1, NULL };
	uint64_t arg = (uint64_t)(uintptr_t)w;
	struct ptx_launch l = { { 1, 1, 1 }, { bx, by, 1 }, &arg, 1, &b, 1, 0, 0, 0,
				0, 0 };
	struct ptx_run_info info;
	int rc = ptx_run(m, name, &l, &info, err);
	ptx_free(m);
	return rc;
}

/* A block of 32 x 2 threads: each stores %lanemask_lt, %warpid and its
 * linear index t = %tid.x + 32 %tid.y (16 bytes a thread, the vector
 * store aligned); lane t % 32's lanemask_lt is
 * 2^(t%32) - 1, its warp t / 32 (warps of 32 consecutive linear threads). */
START_TEST(lanes_2d)
{
	static const char ptx[] =
		".version 9.0\n.target sm_90\n.address_size 64\n"
		".visible .entry lanes(.param .u64 p)\n{\n"
		".reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
		"ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, %tid.y;\n"
		"mov.u32 %r3, %ntid.x;\nmad.lo.s32 %r4, %r2, %r3, %r1;\n"
		"mul.wide.u32 %rd2, %r4, 16;\nadd.s64 %rd3, %rd1, %rd2;\n"
		"mov.u32 %r5, %lanemask_lt;\nmov.u32 %r6, %warpid;\n"
		"st.global.v2.u32 [%rd3], {%r5, %r6};\nst.global.u32 [%rd3+8], %r4;\n"
		"ret;\n}\n";
	uint32_t w[64 * 4];
	struct ub_error err = { "" };
	memset(w, 0xff, sizeof w);
	ck_assert_msg(run_block(ptx, "lanes", 32, 2, w, 64 * 4, &err) == 0, "%s", err.msg);
	for (unsigned t = 0; t < 64; t++) {
		ck_assert_uint_eq(w[4 * t], (1u << (t % 32)) - 1);
		ck_assert_uint_eq(w[4 * t + 1], t / 32);
		ck_assert_uint_eq(w[4 * t + 2], t);
	}
}
END_TEST

/* cp.async (9.7.9) by 32 threads, thread t copying word t of g (the
 * parameter, words 0..31 = 3t + 0x10000) into three .shared tiles:
 *   A: 4 bytes, its own group; B: 4 bytes of which src-size 2 are read
 *   (the upper two written zero), a second group; C: a word first set to
 *   0xdead by a store, then a copy with ignore-src true (zeros).
 * A and B start at 0 (stored first: .shared memory starts uninitialized).
 * Each thread records A[t] before any wait (the copy completes at the
 * wait here: still 0), A[t] and B[t] after wait_group 1 (the older group,
 * A, is done: g[t]; B still 0), B[t] after wait_group 0 (g[t] & 0xffff),
 * C[t] after wait_all (0).  Words 32 + 5t .. 36 + 5t. */
START_TEST(cp_async)
{
	/* thread 1 copies 16 bytes to B + 4, which is not 16-aligned */
	static const char misaligned[] =
		".version 9.0\n.target sm_90\n.address_size 64\n"
		".visible .entry cpa(.param .u64 p)\n{\n"
		".shared .align 16 .b8 B[128];\n"
		".reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
		"ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\n"
		"mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
		"shl.b32 %r2, %r1, 2;\nmov.u32 %r4, B;\nadd.s32 %r4, %r4, %r2;\n"
		"cp.async.cg.shared.global.L2::128B [%r4], [%rd3], 16, 0;\n"
		"ret;\n}\n";
	static const char ptx[] =
		".version 9.0\n.target sm_90\n.address_size 64\n"
		".visible .entry cpa(.param .u64 p)\n{\n"
		".shared .align 4 .b8 A[128];\n.shared .align 4 .b8 B[128];\n"
		".shared .align 4 .b8 C[128];\n"
		".reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n.reg .pred %p<2>;\n"
		"ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\n"
		"mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
		"shl.b32 %r2, %r1, 2;\nmov.u32 %r3, A;\nadd.s32 %r3, %r3, %r2;\n"
		"mov.u32 %r4, B;\nadd.s32 %r4, %r4, %r2;\nmov.u32 %r5, C;\n"
		"add.s32 %r5, %r5, %r2;\nst.shared.u32 [%r5], 0xdead;\n"
		"st.shared.u32 [%r3], 0;\nst.shared.u32 [%r4], 0;\n"
		"cp.async.ca.shared.global [%r3], [%rd3], 4;\ncp.async.commit_group;\n"
		"ld.shared.u32 %r6, [%r3];\n"
		"cp.async.ca.shared::cta.global.L2::128B [%r4], [%rd3], 4, 2;\n"
		"cp.async.commit_group;\n"
		"cp.async.wait_group 1;\n"
		"ld.shared.u32 %r7, [%r3];\nld.shared.u32 %r8, [%r4];\n"
		"cp.async.wait_group 0;\nld.shared.u32 %r9, [%r4];\n"
		"setp.eq.u32 %p1, %r1, %r1;\n"
		"cp.async.ca.shared.global [%r5], [%rd3], 4, %p1;\n"
		"cp.async.wait_all;\nld.shared.u32 %r10, [%r5];\n"
		"mul.lo.s32 %r11, %r1, 20;\ncvt.u64.u32 %rd4, %r11;\n"
		"add.s64 %rd5, %rd1, %rd4;\n"
		"bar.sync 0;\n"   /* every thread has read g before it is written */
		"st.global.u32 [%rd5+128], %r6;\nst.global.u32 [%rd5+132], %r7;\n"
		"st.global.u32 [%rd5+136], %r8;\nst.global.u32 [%rd5+140], %r9;\n"
		"st.global.u32 [%rd5+144], %r10;\n"
		"ret;\n}\n";
	uint32_t w[32 + 5 * 32];
	struct ub_error err = { "" };
	memset(w, 0xee, sizeof w);
	for (unsigned t = 0; t < 32; t++)
		w[t] = 3 * t + 0x10000;
	ck_assert_msg(run_block(ptx, "cpa", 32, 1, w, sizeof w / sizeof *w, &err) == 0,
		      "%s", err.msg);
	for (unsigned t = 0; t < 32; t++) {
		const uint32_t *o = &w[32 + 5 * t], g = 3 * t + 0x10000;
		ck_assert_msg(o[0] == 0 && o[1] == g && o[2] == 0 && o[3] == (g & 0xffff) &&
			      o[4] == 0, "thread %u: %#x %#x %#x %#x %#x", t, o[0], o[1],
			      o[2], o[3], o[4]);
	}
	/* a misaligned 16-byte copy is an error naming it */
	ck_assert_int_eq(run_block(misaligned, "cpa", 32, 1, w, sizeof w / sizeof *w,
				   &err), UB_RUNTIME);
	ck_assert_msg(strstr(err.msg, "misaligned copy") != NULL, "%s", err.msg);
}
END_TEST

/* mbarrier (9.7.13) in one block of 64 threads: thread 0 inits it for 64
 * arrivals; warp 1 writes data[t - 32] = t, then every thread arrives and
 * waits for phase 0 (try_wait.parity 0 in a loop).  Warps run in order:
 * warp 0 arrives (32 arrivals) and waits; warp 1 writes, arrives (64: the
 * phase completes) and passes; warp 0 goes on and reads data[t] = t + 32.
 * The state thread t's arrive returns is the object before its arrival:
 * 64 - t arrivals pending (pending_count). */
static const char mbar_ptx[] =
	".version 9.0\n.target sm_90\n.address_size 64\n"
	".visible .entry mb(.param .u64 p, .param .u32 cnt)\n{\n"
	".shared .align 8 .b8 bar[8];\n.shared .align 4 .b8 data[128];\n"
	".reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n.reg .pred %p<4>;\n"
	"ld.param.u64 %rd1, [p];\nld.param.u32 %r9, [cnt];\nmov.u32 %r1, %tid.x;\n"
	"mov.u32 %r2, bar;\nsetp.eq.u32 %p1, %r1, 0;\n"
	"@%p1 mbarrier.init.shared.b64 [%r2], %r9;\n"
	"bar.sync 0;\n"
	"setp.lt.u32 %p2, %r1, 32;\n@%p2 bra ARRIVE;\n"
	"mov.u32 %r3, data;\nshl.b32 %r4, %r1, 2;\nadd.s32 %r5, %r3, %r4;\n"
	"st.shared.u32 [%r5+-128], %r1;\n"
	"ARRIVE:\nmbarrier.arrive.release.cta.shared::cta.b64 %rd2, [%r2];\n"
	"WAIT:\nmbarrier.try_wait.parity.acquire.cta.shared.b64 %p3, [%r2], 0;\n"
	"@!%p3 bra WAIT;\n"
	"mbarrier.pending_count.b64 %r6, %rd2;\n"
	"mov.u32 %r3, data;\nand.b32 %r7, %r1, 31;\nshl.b32 %r4, %r7, 2;\n"
	"add.s32 %r5, %r3, %r4;\nld.shared.u32 %r8, [%r5];\n"
	"mul.wide.u32 %rd3, %r1, 8;\nadd.s64 %rd4, %rd1, %rd3;\n"
	"st.global.v2.u32 [%rd4], {%r8, %r6};\n"
	"ret;\n}\n";

/* A run of mbar_ptx with the init count cnt. */
static int run_mbar(uint32_t *w, uint32_t cnt, struct ub_error *err)
{
	struct ptx_module *m = NULL;
	ck_assert_msg(ptx_parse(mbar_ptx, &m, err) == 0, "%s", err->msg);
	struct ptx_buffer b = { w, 128 * sizeof *w, 1, NULL };
	uint64_t args[2] = { (uint64_t)(uintptr_t)w, cnt };
	struct ptx_launch l = { { 1, 1, 1 }, { 64, 1, 1 }, args, 2, &b, 1, 0, 0, 0, 0, 0 };
	struct ptx_run_info info;
	int rc = ptx_run(m, "mb", &l, &info, err);
	ptx_free(m);
	return rc;
}

START_TEST(mbarrier)
{
	uint32_t w[128];
	struct ub_error err = { "" };
	ck_assert_msg(run_mbar(w, 64, &err) == 0, "%s", err.msg);
	for (unsigned t = 0; t < 64; t++) {
		if (t < 32)
			ck_assert_uint_eq(w[2 * t], t + 32);
		ck_assert_uint_eq(w[2 * t + 1], 64 - t);
	}
	/* 65 expected arrivals of 64 threads: nobody completes the phase */
	ck_assert_int_eq(run_mbar(w, 65, &err), UB_RUNTIME);
	ck_assert_msg(strstr(err.msg, "waits for an mbarrier phase that no thread can "
			     "complete") != NULL, "%s", err.msg);
	/* 0 is no count: init refuses it */
	ck_assert_int_eq(run_mbar(w, 0, &err), UB_RUNTIME);
	ck_assert_msg(strstr(err.msg, "count 0 is not in 1..2^20-1") != NULL, "%s", err.msg);
}
END_TEST

/* Atomics the block tests did not cover, by 32 threads on zeroed words:
 *   w0..1  atom.add.u64 of 2^32 + t:      32 * 2^32 + 496 (0 + .. + 31)
 *   w2..3  atom.min.s64 of t - 40:        -40 in two's complement (t = 0)
 *   w4     atom.cas.b16 at the low half:  thread t swaps t for t + 1, so 32
 *   w6..7  atom.global.v2.f32.add of (1, 0.5): 32, 16
 *   w8     atom.shared.add.f32 of 2^-140 (subnormal): kept on .shared,
 *          32 * 2^-140 = 2^-135 = 2^14 * 2^-149 = 0x00004000; w9 the same
 *          on .global, where
 *          each input is flushed: +0
 *   w10    red with .L2::cache_hint: 32 */
START_TEST(atomics_more)
{
	static const char ptx[] =
		".version 9.0\n.target sm_90\n.address_size 64\n"
		".visible .entry at(.param .u64 p)\n{\n"
		".shared .align 4 .b8 sh[4];\n"
		".reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n.reg .b16 %h<4>;\n.reg .f32 %f<8>;\n"
		".reg .pred %p<2>;\n"
		"ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\n"
		"cvt.u64.u32 %rd2, %r1;\nadd.u64 %rd3, %rd2, 4294967296;\n"
		"atom.global.gpu.relaxed.add.u64 %rd4, [%rd1], %rd3;\n"
		"sub.s64 %rd5, %rd2, 40;\natom.global.cluster.min.s64 %rd4, [%rd1+8], %rd5;\n"
		"cvt.u16.u32 %h1, %r1;\nadd.u16 %h2, %h1, 1;\n"
		"atom.global.cas.b16 %h3, [%rd1+16], %h1, %h2;\n"
		"mov.f32 %f1, 0f3F800000;\nmov.f32 %f2, 0f3F000000;\n"
		"atom.global.v2.f32.add {%f3, %f4}, [%rd1+24], {%f1, %f2};\n"
		"mov.b32 %f5, 0x00000200;\nmov.u32 %r2, sh;\n"
		"setp.eq.u32 %p1, %r1, 0;\n@%p1 st.shared.u32 [%r2], 0;\nbar.sync 0;\n"
		"atom.shared::cta.add.f32 %f6, [%r2], %f5;\n"
		"atom.global.add.f32 %f6, [%rd1+36], %f5;\n"
		"createpolicy.fractional.L2::evict_last.b64 %rd6, 1.0;\n"
		"red.global.add.L2::cache_hint.u32 [%rd1+40], 1, %rd6;\n"
		"bar.sync 0;\nsetp.eq.u32 %p1, %r1, 0;\n"
		"ld.shared.u32 %r3, [%r2];\n@%p1 st.global.u32 [%rd1+32], %r3;\n"
		"ret;\n}\n";
	uint32_t w[12] = { 0 };
	struct ub_error err = { "" };
	ck_assert_msg(run_block(ptx, "at", 32, 1, w, 12, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(w[0], 496);
	ck_assert_uint_eq(w[1], 32);
	ck_assert_uint_eq(w[2], (uint32_t)-40);
	ck_assert_uint_eq(w[3], 0xffffffff);
	ck_assert_uint_eq(w[4] & 0xffff, 32);
	ck_assert_uint_eq(w[6], 0x42000000);   /* 32.0f */
	ck_assert_uint_eq(w[7], 0x41800000);   /* 16.0f */
	ck_assert_uint_eq(w[8], 0x00004000);   /* 2^-135 */
	ck_assert_uint_eq(w[9], 0);
	ck_assert_uint_eq(w[10], 32);
}
END_TEST

/* shfl without .sync (9.7.9.5, PTX for sm_6x): the lanes running it
 * together; shfl.up by 1 of t gives t - 1, lane 0 keeps its own. */
START_TEST(shfl_nosync)
{
	static const char ptx[] =
		".version 9.0\n.target sm_90\n.address_size 64\n"
		".visible .entry up(.param .u64 p)\n{\n"
		".reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n.reg .pred %p<2>;\n"
		"ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\n"
		"shfl.up.b32 %r2|%p1, %r1, 1, 0;\n"
		"mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
		"st.global.u32 [%rd3], %r2;\nret;\n}\n";
	uint32_t w[32];
	struct ub_error err = { "" };
	ck_assert_msg(run_block(ptx, "up", 32, 1, w, 32, &err) == 0, "%s", err.msg);
	for (unsigned t = 0; t < 32; t++)
		ck_assert_uint_eq(w[t], t ? t - 1 : 0);
}
END_TEST

/* trap and __assertfail stop the run with an error naming the thread:
 * the assert's message, file, line and function are the strings nvcc
 * passes (here written by hand), in the thread-by-thread interpreter
 * (thread 2: the first whose guard holds) and in the block executor
 * (a kernel with .shared memory). */
static const char assert_head[] =
	".version 9.0\n.target sm_90\n.address_size 64\n"
	".extern .func __assertfail(.param .b64 a0, .param .b64 a1, .param .b32 a2,"
	" .param .b64 a3, .param .b64 a4);\n"
	".global .align 1 .b8 msg[6] = {105, 32, 60, 32, 50, 0};\n"      /* "i < 2" */
	".global .align 1 .b8 file[5] = {107, 46, 99, 117, 0};\n"        /* "k.cu" */
	".global .align 1 .b8 fn[2] = {107, 0};\n"                       /* "k" */
	".visible .entry as(.param .u64 p)\n{\n"
	".reg .b32 %r<4>;\n.reg .b64 %rd<8>;\n.reg .pred %p<2>;\n";
static const char assert_shared[] = ".shared .b8 s[4];\nmov.u32 %r3, s;\n";
static const char assert_body[] =
	"mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 2;\n@%p1 bra OK;\n"
	"mov.u64 %rd1, msg;\ncvta.global.u64 %rd2, %rd1;\nmov.u64 %rd3, file;\n"
	"cvta.global.u64 %rd4, %rd3;\nmov.u64 %rd5, fn;\ncvta.global.u64 %rd6, %rd5;\n"
	"{\n.param .b64 param0;\nst.param.b64 [param0+0], %rd2;\n"
	".param .b64 param1;\nst.param.b64 [param1+0], %rd4;\n"
	".param .b32 param2;\nst.param.b32 [param2+0], 17;\n"
	".param .b64 param3;\nst.param.b64 [param3+0], %rd6;\n"
	".param .b64 param4;\nst.param.b64 [param4+0], 1;\n"
	"call.uni __assertfail, (param0, param1, param2, param3, param4);\n}\n"
	"OK:\nret;\n}\n";

static void check_assert(int block)
{
	char src[4096];
	snprintf(src, sizeof src, "%s%s%s", assert_head, block ? assert_shared : "",
		 assert_body);
	uint32_t w[1];
	struct ub_error err = { "" };
	ck_assert_int_eq(run_block(src, "as", 4, 1, w, 1, &err), UB_RUNTIME);
	ck_assert_msg(strstr(err.msg, "device assertion failed: k.cu:17: k: Assertion "
			     "`i < 2` failed") != NULL, "%s", err.msg);
	ck_assert_msg(strstr(err.msg, "thread 2,0,0") != NULL, "%s", err.msg);
}

START_TEST(assert_trap)
{
	check_assert(0);
	check_assert(1);
	uint32_t w[1];
	struct ub_error err = { "" };
	ck_assert_int_eq(run_block(".version 9.0\n.target sm_90\n.address_size 64\n"
				   ".visible .entry tr(.param .u64 p)\n{\n.reg .b32 %r<2>;\n"
				   ".reg .pred %p<2>;\nmov.u32 %r1, %tid.x;\n"
				   "setp.eq.u32 %p1, %r1, 3;\n@%p1 trap;\nret;\n}\n",
				   "tr", 8, 1, w, 1, &err), UB_RUNTIME);
	ck_assert_msg(strstr(err.msg, "thread 3,0,0 of block 0,0,0 ran trap") != NULL,
		      "%s", err.msg);
}
END_TEST

/* printf (vprintf with the arguments packed as nvcc packs them: an int,
 * a double, a pointer to a string, a long long, each aligned to its size)
 * by threads 0 and 1 of 2: the run keeps both lines, each after its
 * thread, and vprintf's result, the number of arguments (4), is stored. */
START_TEST(printf_lines)
{
	static const char ptx[] =
		".version 9.0\n.target sm_90\n.address_size 64\n"
		".extern .func (.param .b32 func_retval0) vprintf(.param .b64 a0, .param .b64 a1);\n"
		".global .align 1 .b8 fmt[18] = {37, 100, 58, 37, 46, 50, 102, 32, 37, 115, 32,"
		" 37, 108, 108, 100, 10, 0, 0};\n"                 /* "%d:%.2f %s %lld\n" */
		".global .align 1 .b8 word[3] = {104, 105, 0};\n"  /* "hi" */
		".visible .entry pf(.param .u64 p)\n{\n"
		".local .align 8 .b8 depot[32];\n"
		".reg .b32 %r<4>;\n.reg .b64 %rd<12>;\n.reg .f64 %fd<2>;\n"
		"ld.param.u64 %rd9, [p];\n"
		"mov.u64 %rd1, depot;\ncvta.local.u64 %rd2, %rd1;\nmov.u32 %r1, %tid.x;\n"
		"st.local.u32 [%rd1], %r1;\nmov.f64 %fd1, 0d3FF8000000000000;\n"   /* 1.5 */
		"st.local.f64 [%rd1+8], %fd1;\nmov.u64 %rd3, word;\n"
		"cvta.global.u64 %rd4, %rd3;\nst.local.u64 [%rd1+16], %rd4;\n"
		"mov.u64 %rd5, -5000000000;\nst.local.u64 [%rd1+24], %rd5;\n"
		"mov.u64 %rd6, fmt;\ncvta.global.u64 %rd7, %rd6;\n"
		"{\n.param .b64 param0;\nst.param.b64 [param0+0], %rd7;\n"
		".param .b64 param1;\nst.param.b64 [param1+0], %rd2;\n"
		".param .b32 retval0;\ncall.uni (retval0), vprintf, (param0, param1);\n"
		"ld.param.b32 %r2, [retval0+0];\n}\n"
		"mul.wide.u32 %rd10, %r1, 4;\nadd.s64 %rd11, %rd9, %rd10;\n"
		"st.global.u32 [%rd11], %r2;\nret;\n}\n";
	struct ub_error err = { "" };
	struct ptx_module *m = NULL;
	ck_assert_msg(ptx_parse(ptx, &m, &err) == 0, "%s", err.msg);
	uint32_t w[2] = { 0, 0 };
	struct ptx_buffer b = { w, sizeof w, 1, NULL };
	uint64_t arg = (uint64_t)(uintptr_t)w;
	struct ptx_launch l = { { 1, 1, 1 }, { 2, 1, 1 }, &arg, 1, &b, 1, 0, 0, 0, 0, 0 };
	struct ptx_run_info info;
	ck_assert_msg(ptx_run(m, "pf", &l, &info, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(info.printf_calls, 2);
	ck_assert_str_eq(info.printf_text,
			 "(block 0,0,0 thread 0,0,0): 0:1.50 hi -5000000000\n"
			 "(block 0,0,0 thread 1,0,0): 1:1.50 hi -5000000000\n");
	ck_assert_uint_eq(w[0], 4);
	ck_assert_uint_eq(w[1], 4);
	ptx_free(m);
}
END_TEST

/* %clock64 and %globaltimer count the instructions the launch ran: two
 * reads with two adds between them are 3 apart (the second read counts
 * itself), in one thread; the block executor counts the same. */
START_TEST(clocks)
{
#define CLOCK_HEAD ".version 9.0\n.target sm_90\n.address_size 64\n" \
	".visible .entry ck(.param .u64 p)\n{\n"
#define CLOCK_BODY ".reg .b64 %rd<8>;\n.reg .b32 %r<4>;\n"                 \
	"ld.param.u64 %rd1, [p];\nmov.u64 %rd2, %clock64;\n"                 \
	"add.u32 %r1, %r1, 1;\nadd.u32 %r1, %r1, 1;\n"                       \
	"mov.u64 %rd3, %globaltimer;\nsub.s64 %rd4, %rd3, %rd2;\n"           \
	"st.global.u32 [%rd1], %rd4;\n"
	/* the second reads .shared memory: block level */
	static const char *const src[2] = {
		CLOCK_HEAD CLOCK_BODY "ret;\n}\n",
		CLOCK_HEAD ".shared .b8 s[4];\n" CLOCK_BODY "mov.u32 %r2, s;\nret;\n}\n",
	};
#undef CLOCK_HEAD
#undef CLOCK_BODY
	for (int k = 0; k < 2; k++) {
		uint32_t w[1] = { 0 };
		struct ub_error err = { "" };
		ck_assert_msg(run_block(src[k], "ck", 1, 1, w, 1, &err) == 0, "%s", err.msg);
		ck_assert_uint_eq(w[0], 3);
	}
}
END_TEST

/* The checks see cp.async: thread t copies g[t] (words 0..31 of the
 * parameter) to A[t], waits, and reads A[(t + 1) % 32], a copy of
 * another thread.  (a) With bar.sync before the read: no hazard, and
 * g[(t + 1) % 32] into word 32 + t.  (b) Without: racecheck counts the
 * copy's write and the read of another lane of the warp with nothing
 * between them.  (c) A read of A[t] before the wait: nothing wrote it
 * yet (initcheck, an error). */
#define CPT_PTX(SYNC, EARLY)                                                  \
	".version 9.0\n.target sm_90\n.address_size 64\n"                       \
	".visible .entry cpt(.param .u64 p)\n{\n"                               \
	".shared .align 4 .b8 A[128];\n"                                        \
	".reg .b32 %r<12>;\n.reg .b64 %rd<8>;\n"                                \
	"ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\n"                       \
	"mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"               \
	"shl.b32 %r2, %r1, 2;\nmov.u32 %r3, A;\nadd.s32 %r4, %r3, %r2;\n"       \
	"cp.async.ca.shared.global [%r4], [%rd3], 4;\n" EARLY                   \
	"cp.async.wait_all;\n" SYNC                                             \
	"add.s32 %r5, %r1, 1;\nand.b32 %r6, %r5, 31;\nshl.b32 %r7, %r6, 2;\n"  \
	"add.s32 %r8, %r3, %r7;\nld.shared.u32 %r9, [%r8];\n"                   \
	"st.global.u32 [%rd3+128], %r9;\nret;\n}\n"

static int run_cpt(const char *ptx, uint32_t *w, struct ptx_run_info *info,
		   struct ub_error *err)
{
	struct ptx_module *m = NULL;
	ck_assert_msg(ptx_parse(ptx, &m, err) == 0, "%s", err->msg);
	for (unsigned t = 0; t < 32; t++)
		w[t] = 7 * t + 1, w[32 + t] = 0;
	struct ptx_buffer b = { w, 64 * sizeof *w, 1, NULL };
	uint64_t arg = (uint64_t)(uintptr_t)w;
	struct ptx_launch l = { { 1, 1, 1 }, { 32, 1, 1 }, &arg, 1, &b, 1, 0, 0, 0,
				0, 0 };
	int rc = ptx_run(m, "cpt", &l, info, err);
	ptx_free(m);
	return rc;
}

START_TEST(cp_async_checked)
{
	uint32_t w[64];
	struct ub_error err = { "" };
	struct ptx_run_info info;
	ck_assert_msg(run_cpt(CPT_PTX("bar.sync 0;\n", ""), w, &info, &err) == 0, "%s",
		      err.msg);
	ck_assert_uint_eq(info.hazards, 0);
	for (unsigned t = 0; t < 32; t++)
		ck_assert_uint_eq(w[32 + t], 7 * ((t + 1) % 32) + 1);
	ck_assert_msg(run_cpt(CPT_PTX("", ""), w, &info, &err) == 0, "%s", err.msg);
	ck_assert_uint_gt(info.hazards, 0);
	ck_assert_msg(strstr(info.hazard, "cp.async") != NULL, "%s", info.hazard);
	ck_assert_int_eq(run_cpt(CPT_PTX("", "ld.shared.u32 %r10, [%r4];\n"), w, &info,
				 &err), UB_RUNTIME);
	ck_assert_msg(strstr(err.msg, "which nothing wrote before") != NULL, "%s", err.msg);
}
END_TEST

TCase *ptx_more_tcase(void)
{
	TCase *tc = tcase_create("more");
	tcase_add_loop_test(tc, one_insn, 0, (int)(sizeof prmt_cases / sizeof *prmt_cases));
	tcase_add_test(tc, lanes_2d);
	tcase_add_test(tc, cp_async);
	tcase_add_test(tc, cp_async_checked);
	tcase_add_test(tc, mbarrier);
	tcase_add_test(tc, atomics_more);
	tcase_add_test(tc, shfl_nosync);
	tcase_add_test(tc, assert_trap);
	tcase_add_test(tc, printf_lines);
	tcase_add_test(tc, clocks);
	return tc;
}
