/* check_ptx_block.c — the block executor on hand-written PTX: every atom
 * and red operation on .global and .shared memory by 64 threads (two
 * warps), whose results in the default order (threads one after
 * another) are derived by hand beside each; the same kernel under an
 * atomic order seed (the order-free results equal, the same seed the
 * same bits); and the errors of a shuffle reading a lane the block does
 * not have, of lanes giving different masks, and of a barrier reached by
 * one warp while the other exits before another barrier. */
#include "check_ptx.h"

#include <string.h>

/* 64 threads; p0 points at 16 u32 words (zero at the start), then a f64
 * and an f16x2 word; t = %tid.x. */
static const char atom_ptx[] =
	".version 9.0\n.target sm_90\n.address_size 64\n"
	".visible .entry atoms(.param .u64 p0)\n{\n"
	".shared .align 4 .b8 sh[8];\n"
	".reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n.reg .f64 %fd<2>;\n.reg .pred %p<2>;\n"
	"ld.param.u64 %rd1, [p0];\nmov.u32 %r1, %tid.x;\n"
	"setp.eq.u32 %p1, %r1, 0;\n"                    /* .shared starts unwritten */
	"@%p1 st.shared.u32 [sh], 0;\nbar.sync 0;\n"
	"atom.global.add.u32 %r2, [%rd1], 1;\n"          /* w0 = 64 */
	"sub.s32 %r3, %r1, 10;\n"
	"atom.global.max.s32 %r2, [%rd1+4], %r3;\n"      /* w1 = max(0, 53) = 53 */
	"atom.global.min.s32 %r2, [%rd1+8], %r3;\n"      /* w2 = min(0, -10) = -10 */
	"atom.global.inc.u32 %r2, [%rd1+12], 9;\n"       /* 0..9 cyclic: 64 mod 10 = 4 */
	"atom.global.dec.u32 %r2, [%rd1+16], 5;\n"       /* 5,4,..,0,5..: 64th is 2 */
	"add.s32 %r4, %r1, 1;\n"
	"atom.global.cas.b32 %r2, [%rd1+20], %r1, %r4;\n" /* t in turn: 64 */
	"atom.global.exch.b32 %r5, [%rd1+24], %r1;\n"    /* the last thread: 63 */
	"and.b32 %r6, %r1, 31;\nshl.b32 %r7, 1, %r6;\n"
	"red.global.or.b32 [%rd1+28], %r7;\n"            /* every bit: 0xffffffff */
	"red.global.xor.b32 [%rd1+32], %r7;\n"           /* each bit twice: 0 */
	"atom.global.and.b32 %r2, [%rd1+36], %r7;\n"     /* 0 & ...: 0 */
	"mov.u32 %r8, sh;\n"
	"atom.shared.add.u32 %r2, [%r8], %r1;\n"         /* 0 + .. + 63 = 2016 */
	"bar.sync 0;\n"
	"ld.shared.u32 %r9, [%r8];\n"
	"st.global.u32 [%rd1+40], %r9;\n"
	"st.global.u32 [%rd1+44], %r5;\n"                /* thread 63's old: 62 */
	"mov.f64 %fd1, 0d3FE0000000000000;\n"
	"atom.global.add.f64 %fd1, [%rd1+64], %fd1;\n"   /* 64 * 0.5 = 32 */
	"atom.global.add.noftz.f16x2 %r10, [%rd1+72], 0x3c003c00;\n" /* 64.0 twice */
	"ret;\n}\n";

static void run_atoms(const struct ptx_module *m, uint32_t *w, int seeded,
		      uint64_t seed)
{
	memset(w, 0, 80);
	struct ptx_buffer b = { w, 80, 1, NULL };
	uint64_t arg = (uint64_t)(uintptr_t)w;
	struct ptx_launch l = { { 1, 1, 1 }, { 64, 1, 1 }, &arg, 1, &b, 1, 0, 0, 0,
				seeded, seed };
	struct ptx_run_info info;
	struct ub_error err = { "" };
	ck_assert_msg(ptx_run(m, "atoms", &l, &info, &err) == 0, "%s", err.msg);
}

START_TEST(atomics)
{
	struct ub_error err = { "" };
	struct ptx_module *m = NULL;
	ck_assert_msg(ptx_parse(atom_ptx, &m, &err) == 0, "%s", err.msg);
	uint32_t w[20], v[20], u[20];
	run_atoms(m, w, 0, 0);
	static const uint32_t want[12] = { 64, 53, (uint32_t)-10, 4, 2, 64, 63,
					   0xffffffff, 0, 0, 2016, 62 };
	for (int k = 0; k < 12; k++)
		ck_assert_msg(w[k] == want[k], "word %d: %#x, want %#x", k, w[k], want[k]);
	double d;
	memcpy(&d, &w[16], sizeof d);
	ck_assert(d == 32.0);
	ck_assert_uint_eq(w[18], 0x54005400);   /* f16 64.0 = 0x5400 */
	/* another order: what does not depend on it is the same; the same
	   seed gives the same bits */
	run_atoms(m, v, 1, 3);
	run_atoms(m, u, 1, 3);
	ck_assert(!memcmp(u, v, sizeof u));
	for (int k = 0; k < 5; k++)
		ck_assert_uint_eq(v[k], w[k]);
	ck_assert_uint_eq(v[7], w[7]);
	ck_assert_uint_eq(v[10], 2016);
	int moved = 0;   /* cas and exch see another order */
	for (uint64_t s = 1; s < 5; s++) {
		run_atoms(m, u, 1, s);
		moved |= u[5] != 64 || u[6] != 63;
	}
	ck_assert(moved);
	ptx_free(m);
}
END_TEST

/* bf16x2 adds by two threads in the default order (thread 0, then 1), each
 * half rounded to nearest even on its own, without a flush (docs/
 * block-kernels.md).  Word 0 starts as (hi 1.0, lo 1.0) = 0x3f803f80 and
 * each thread adds (hi 2^-8 = 0x3b80, lo 3*2^-9 = 0x3bc0); near 1 bf16's
 * spacing is 2^-7, so:
 *   hi: 1 + 2^-8 is a tie between 1 and 1 + 2^-7: even, 1 (twice): 0x3f80;
 *   lo: 1 + 0.75*2^-7 rounds up to 1 + 2^-7 (0x3f81); + 0.75*2^-7 gives
 *       1 + 1.75*2^-7, rounded to 1 + 2*2^-7 (0x3f82).
 * Thread 1's atom returns the word after thread 0's add: 0x3f803f81.
 * Word 1 (by red) starts as (hi 2^-133, the least subnormal, lo +0) =
 * 0x00010000 and each thread adds (hi 2^-133, lo -0) = 0x00018000: hi
 * 3*2^-133 = 0x0003 (not flushed), lo +0 + -0 = +0 in round to nearest. */
static const char bf16x2_ptx[] =
	".version 9.0\n.target sm_90\n.address_size 64\n"
	".visible .entry bf(.param .u64 p0)\n{\n"
	".reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n.reg .pred %p<2>;\n"
	"ld.param.u64 %rd1, [p0];\nmov.u32 %r1, %tid.x;\n"
	"mov.b32 %r2, 0x3b803bc0;\n"
	"atom.global.add.noftz.bf16x2 %r3, [%rd1], %r2;\n"
	"mov.b32 %r4, 0x00018000;\n"
	"red.global.add.noftz.bf16x2 [%rd1+4], %r4;\n"
	"setp.eq.u32 %p1, %r1, 1;\n"
	"@%p1 st.global.u32 [%rd1+8], %r3;\n"
	"ret;\n}\n";

START_TEST(bf16x2_add)
{
	struct ub_error err = { "" };
	struct ptx_module *m = NULL;
	ck_assert_msg(ptx_parse(bf16x2_ptx, &m, &err) == 0, "%s", err.msg);
	uint32_t w[3] = { 0x3f803f80, 0x00010000, 0 };
	struct ptx_buffer b = { w, sizeof w, 1, NULL };
	uint64_t arg = (uint64_t)(uintptr_t)w;
	struct ptx_launch l = { { 1, 1, 1 }, { 2, 1, 1 }, &arg, 1, &b, 1, 0, 0, 0, 0, 0 };
	struct ptx_run_info info;
	ck_assert_msg(ptx_run(m, "bf", &l, &info, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(w[0], 0x3f803f82);
	ck_assert_uint_eq(w[1], 0x00030000);
	ck_assert_uint_eq(w[2], 0x3f803f81);
	ptx_free(m);
}
END_TEST

/* A launch of kernel `name` in one block of `threads`; the error. */
static void fails(const char *ptx, const char *name, unsigned threads,
		  const char *msg)
{
	struct ub_error err = { "" };
	struct ptx_module *m = NULL;
	ck_assert_msg(ptx_parse(ptx, &m, &err) == 0, "%s", err.msg);
	struct ptx_launch l = { { 1, 1, 1 }, { threads, 1, 1 }, NULL, 0, NULL, 0, 0, 0,
				0, 0, 0 };
	struct ptx_run_info info;
	ck_assert_int_eq(ptx_run(m, name, &l, &info, &err), UB_RUNTIME);
	ck_assert_msg(strstr(err.msg, msg), "%s: %s", name, err.msg);
	ptx_free(m);
}

START_TEST(errors)
{
	/* 48 threads: lane 0 of warp 1 reads lane 16, which it does not have */
	fails(".entry down()\n{\n.reg .b32 %r<4>;\n.reg .pred %p<2>;\n"
	      "mov.u32 %r1, %tid.x;\n"
	      "shfl.sync.down.b32 %r2|%p1, %r1, 16, 31, -1;\nret;\n}\n", "down", 48,
	      "ptx: kernel 'down': shfl.sync.down.b32 at line 6: lane 0 of warp 1 "
	      "reads lane 16, which does not take part (exited, not in the block, "
	      "or not in the mask): its value is undefined (block 0,0,0 thread 32,0,0)");
	/* the mask is the lane's own id: lanes disagree */
	fails(".entry masks()\n{\n.reg .b32 %r<4>;\n.reg .pred %p<2>;\n"
	      "mov.u32 %r1, %tid.x;\nsetp.eq.u32 %p1, %r1, %r1;\n"
	      "vote.sync.ballot.b32 %r2, %p1, %r1;\nret;\n}\n",
	      "masks", 32, "vote.sync.ballot.b32 at line 7: lanes 0 and 1 of warp 0 "
	      "give different masks (0x00000000, 0x00000001)");
	/* warp 0 waits at the barrier of line 7; warp 1 skips it, waits at line 9 */
	fails(".entry bars()\n{\n.reg .b32 %r<4>;\n.reg .pred %p<2>;\n"
	      "mov.u32 %r1, %tid.x;\nsetp.ge.u32 %p1, %r1, 32;\n"
	      "@%p1 bra SKIP;\nbar.sync 0;\nSKIP:\nbar.sync 0;\nret;\n}\n",
	      "bars", 64, "bar.sync at line 8 is not reached by every thread of the "
	      "block: thread 0 (of the block) waits there, this one at line 10 (a "
	      "deadlock on the GPU) (block 0,0,0 thread 32,0,0)");
}
END_TEST

/* Exited threads do not hold a barrier up (PTX ISA, exit): warp 1 exits,
 * warp 0 passes the barrier; and bar.warp.sync with the warp's lanes. */
START_TEST(exits)
{
	static const char ptx[] =
		".entry ex(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
		".reg .pred %p<2>;\nld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\n"
		"setp.ge.u32 %p1, %r1, 32;\n@%p1 exit;\nbar.sync 0;\n"
		"bar.warp.sync -1;\natom.global.add.u32 %r2, [%rd1], 1;\nret;\n}\n";
	struct ub_error err = { "" };
	struct ptx_module *m = NULL;
	ck_assert_msg(ptx_parse(ptx, &m, &err) == 0, "%s", err.msg);
	uint32_t n = 0;
	struct ptx_buffer b = { &n, sizeof n, 1, NULL };
	uint64_t arg = (uint64_t)(uintptr_t)&n;
	struct ptx_launch l = { { 2, 1, 1 }, { 64, 1, 1 }, &arg, 1, &b, 1, 0, 0, 0,
				0, 0 };
	struct ptx_run_info info;
	ck_assert_msg(ptx_run(m, "ex", &l, &info, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(n, 64);   /* 32 threads of each of 2 blocks */
	ptx_free(m);
}
END_TEST

TCase *ptx_block_tcase(void)
{
	TCase *tc = tcase_create("block");
	tcase_add_test(tc, atomics);
	tcase_add_test(tc, bf16x2_add);
	tcase_add_test(tc, errors);
	tcase_add_test(tc, exits);
	return tc;
}
