/* native_rt.h — what every translated kernel (native_gen.c) is compiled
 * with: embedded into ulpbench at build time together with the headers it
 * includes (embed.awk writes native_prelude.c), so the unit needs no file
 * of the source tree.
 *
 * The interpreter's instruction semantics (ptx_cases.h) become one
 * always-inline function per instruction form, nat_OP(in, F_, R_, k_):
 * the case's statements, with REG(s) the thread's fixed slot s (below
 * PTX_SLOT_FIRST: the constant 1, the special registers, the sink, the
 * carry flag) in F_, or the instruction's operand s - PTX_SLOT_FIRST in
 * R_ (the translator numbers an instruction's operand registers from
 * PTX_SLOT_FIRST).  in points into a static const table, so the compiler
 * folds every field: what remains is the arithmetic itself.  ld and st
 * are the interpreter's ptx_ld_at and ptx_st_at (ptx_exec.h). */
#ifndef UB_NATIVE_RT_H
#define UB_NATIVE_RT_H

#include "ptx_native.h"
#include "ptx_cases.h"

/* What the cases count, per thread. */
struct nat_cnt {
	uint64_t unmarked, fused, amask;
};

#define REG(s) (*((s) < PTX_SLOT_FIRST ? &F_[(s)] : &R_[(s) - PTX_SLOT_FIRST]))

#define X(op, ...)                                                           \
	static inline __attribute__((always_inline)) void                  \
	nat_##op(const struct ptx_insn *in, uint64_t *F_, uint64_t *R_,     \
		 struct nat_cnt *k_)                                         \
	{                                                                    \
		uint64_t unmarked = 0, fused = 0, amask = 0;                 \
		{ __VA_ARGS__ }                                              \
		k_->unmarked += unmarked;                                    \
		k_->fused += fused;                                          \
		k_->amask |= amask;                                          \
	}
PTX_REG_CASES(X)
#undef X

#endif
