/* modes.h — compile modes: each a set of compiler options and kernel
 * macros, spelled for NVRTC (generated and shipped kernels) and for nvcc
 * (--kernel files), one for one: the two compilers give the same PTX for
 * the same source and mode (tests/nvcc.test checks it).
 * X(ID, name, NVRTC options (space-separated), nvcc options, description) */
#ifndef UB_MODES_H
#define UB_MODES_H

#define UB_MODES(X)                                                          \
	X(UB_MODE_FMA, "fma", "", "",                                        \
	  "nvcc default (-fmad=true): the compiler may fuse a*b+c into one FMA") \
	X(UB_MODE_NOFMA, "nofma", "-fmad=false", "-fmad=false",              \
	  "no contraction: every * and + rounds on its own")                  \
	X(UB_MODE_RN, "rn", "-DUB_MODE_RN", "-DUB_MODE_RN",                  \
	  "kernel macros use __fmul_rn/__fadd_rn/__fsub_rn/__fdiv_rn (never fused); default flags") \
	X(UB_MODE_FASTMATH, "fastmath", "-use_fast_math", "-use_fast_math",  \
	  "flush-to-zero, approximate division and sqrt, __expf and friends") \
	X(UB_MODE_FTZ, "ftz", "-ftz=true", "-ftz=true",                      \
	  "flush subnormal inputs and results to zero")                       \
	X(UB_MODE_APPROXDIV, "approxdiv", "-prec-div=false", "-prec-div=false", \
	  "division by div.full (2 ulp) instead of IEEE div.rn")              \
	X(UB_MODE_APPROXSQRT, "approxsqrt", "-prec-sqrt=false", "-prec-sqrt=false", \
	  "square root by sqrt.approx instead of IEEE sqrt.rn")              \
	X(UB_MODE_NATIVE16, "native16", "-DUB_NATIVE16", "-DUB_NATIVE16",    \
	  "f16/bf16 only: arithmetic in __half/__nv_bfloat16 (add.f16, hexp, ...), default flags")

enum ub_mode {
#define X(id, name, opts, nvcc, desc) id,
	UB_MODES(X)
#undef X
	UB_NMODES
};

struct ub_mode_info {
	const char *name, *opts, *nvcc, *desc;
};
extern const struct ub_mode_info ub_modes[UB_NMODES];

int ub_mode_find(const char *name); /* -1 if unknown */
/* nvcc's spelling of a mode's NVRTC options (UB_TORCH_OPTS too); NULL
 * when no mode has them. */
const char *ub_mode_nvcc_opts(const char *nvrtc_opts);

/* Whether mode m means anything for dtype dt: native16 only for f16 and
 * bf16 (an f32 or f64 kernel is already native: that is mode fma); every
 * other mode for every dtype. */
int ub_mode_applies(int m, int dt);
const char *ub_mode_names(char *buf, unsigned long len);

/* PyTorch's own flags for torch plan kernels: nvcc defaults (fma on, IEEE
 * division and square root). */
#define UB_TORCH_OPTS ""

#endif
