/* approx.h — the approximate PTX instructions that `capture-approx`
 * records, and a predictor of each one's output.
 *
 * The predictor is the value the instruction approximates, computed on
 * the CPU in double with IEEE operations only (+ - * / sqrt fma, exact
 * scalings; never the C library's exp/log/sin, whose last bits vary
 * between libraries), then rounded to float: the same bits on every
 * machine, so a file of outputs stored as their distance from the
 * predictor (approx_code.h) decodes everywhere.  It is not a model of the
 * hardware, only close to it: a GPU's output is usually within a few
 * units of it, which is what makes the stored distances small.  sin and
 * cos follow what ptxas emits (reference/mufu.md in the shared folder):
 * t = x * 0x3e22f983 (1/2pi) rounded toward zero to float, then sin(2 pi t);
 * .ftz forms flush subnormal inputs and results to signed zero.  NaN
 * results are the canonical 0x7fffffff. */
#ifndef UB_APPROX_H
#define UB_APPROX_H

#include <stdint.h>

enum ub_approx_fn {
	UB_AF_RCP, UB_AF_RSQRT, UB_AF_SQRT, UB_AF_EX2, UB_AF_LG2, UB_AF_SIN,
	UB_AF_COS, UB_AF_TANH
};

/* Every instruction recorded, declared once, each .ftz form before the
 * plain one (whose tables may then be stored against it):
 * X(ID, PTX instruction, function, ftz, format, unbiased exponents of the
 * two binades swept through all mantissas).  The format is 32 (f32) or one
 * of 16 (f16) and 17 (bf16), whose instructions are recorded on all 2^16
 * inputs instead.  The binades follow reference/mufu.md: rcp/rsqrt/sqrt 0
 * and 1 (exponent parity), lg2 and ex2 0 and -1, sin/cos 1 and 2 ([2, 8):
 * one whole period of t), tanh -1 and 0.  tanh.approx.f32 has no .ftz
 * form (ptxas refuses it); ex2.approx.bf16 has only its .ftz one. */
#define UB_APPROX_INSNS(X)                                                  \
	X(UB_AI_RCP_FTZ, "rcp.approx.ftz.f32", UB_AF_RCP, 1, 32, 0, 1)      \
	X(UB_AI_RCP, "rcp.approx.f32", UB_AF_RCP, 0, 32, 0, 1)              \
	X(UB_AI_RSQRT_FTZ, "rsqrt.approx.ftz.f32", UB_AF_RSQRT, 1, 32, 0, 1) \
	X(UB_AI_RSQRT, "rsqrt.approx.f32", UB_AF_RSQRT, 0, 32, 0, 1)        \
	X(UB_AI_SQRT_FTZ, "sqrt.approx.ftz.f32", UB_AF_SQRT, 1, 32, 0, 1)   \
	X(UB_AI_SQRT, "sqrt.approx.f32", UB_AF_SQRT, 0, 32, 0, 1)           \
	X(UB_AI_EX2_FTZ, "ex2.approx.ftz.f32", UB_AF_EX2, 1, 32, 0, -1)     \
	X(UB_AI_EX2, "ex2.approx.f32", UB_AF_EX2, 0, 32, 0, -1)             \
	X(UB_AI_LG2_FTZ, "lg2.approx.ftz.f32", UB_AF_LG2, 1, 32, 0, -1)     \
	X(UB_AI_LG2, "lg2.approx.f32", UB_AF_LG2, 0, 32, 0, -1)             \
	X(UB_AI_SIN_FTZ, "sin.approx.ftz.f32", UB_AF_SIN, 1, 32, 1, 2)      \
	X(UB_AI_SIN, "sin.approx.f32", UB_AF_SIN, 0, 32, 1, 2)              \
	X(UB_AI_COS_FTZ, "cos.approx.ftz.f32", UB_AF_COS, 1, 32, 1, 2)      \
	X(UB_AI_COS, "cos.approx.f32", UB_AF_COS, 0, 32, 1, 2)              \
	X(UB_AI_TANH, "tanh.approx.f32", UB_AF_TANH, 0, 32, -1, 0)          \
	X(UB_AI_EX2_F16, "ex2.approx.f16", UB_AF_EX2, 0, 16, 0, 0)          \
	X(UB_AI_EX2_BF16, "ex2.approx.ftz.bf16", UB_AF_EX2, 1, 17, 0, 0)    \
	X(UB_AI_TANH_F16, "tanh.approx.f16", UB_AF_TANH, 0, 16, 0, 0)       \
	X(UB_AI_TANH_BF16, "tanh.approx.bf16", UB_AF_TANH, 0, 17, 0, 0)

enum ub_approx_insn {
#define X(id, ptx, fn, ftz, fmt, e0, e1) id,
	UB_APPROX_INSNS(X)
#undef X
	UB_NAPPROX
};

struct ub_approx_info {
	const char *ptx;
	enum ub_approx_fn fn;
	int ftz;
	int fmt;     /* 32 f32, 16 f16, 17 bf16 */
	int exps[2];
};
extern const struct ub_approx_info ub_approx[UB_NAPPROX];

/* Looks an instruction up by its PTX name; -1 if unknown. */
int ub_approx_find(const char *ptx);

/* The predictor of insn's output for input bits x (see above); for a
 * 16-bit instruction the function at the f16 or bf16 input (its low 16
 * bits) rounded once to the format, returned in the low 16 bits. */
uint32_t ub_approx_predict(enum ub_approx_insn insn, uint32_t x);

/* The function fn at x, a double, rounded to float (no flushing): for sin
 * and cos x is in turns, sin(2 pi x); ex2 at any double; the others at x
 * rounded to float first.  The predictor of tables indexed by fixed-point
 * keys (scripts/mufu-probe.cu). */
uint32_t ub_approx_predict_at(enum ub_approx_fn fn, double x);

#endif
