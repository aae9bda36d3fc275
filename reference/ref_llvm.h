/* ref_llvm.h — LLVM libc's correctly rounded math functions, brought in
 * under private names (ub_llvm_exp, ...) by reference/llvm-libc.sh when
 * configure finds the archive (UB_HAVE_LLVM_LIBC), so that the program's
 * own exp, expf, ... stay glibc's.
 *
 * Declared once: X(NAME, TYPE, ULPS) for each function taken, TYPE its
 * argument and result type, ULPS the error bound the fast reference
 * (ref_fast_fn.c) assumes of it in units in the last place of its result:
 * 1 for those LLVM documents as correctly rounded (0.5 ulp: the bound is
 * twice that), 2 for atan (documented within 1 ulp).  The float functions
 * are correctly rounded; they decide only the single-function case
 * (ref_fast.c).  The build extracts the names from this list. */
#ifndef UB_REF_LLVM_H
#define UB_REF_LLVM_H

#define UB_LLVM_DOUBLE(X)   \
	X(exp, double, 1)   \
	X(expm1, double, 1) \
	X(exp2, double, 1)  \
	X(log, double, 1)   \
	X(log1p, double, 1) \
	X(log2, double, 1)  \
	X(log10, double, 1) \
	X(sin, double, 1)   \
	X(cos, double, 1)   \
	X(asin, double, 1)  \
	X(acos, double, 1)  \
	X(atan, double, 2)  \
	X(cbrt, double, 1)

#define UB_LLVM_FLOAT(X)    \
	X(expf, float, 0)   \
	X(expm1f, float, 0) \
	X(exp2f, float, 0)  \
	X(logf, float, 0)   \
	X(log1pf, float, 0) \
	X(log2f, float, 0)  \
	X(log10f, float, 0) \
	X(sinf, float, 0)   \
	X(cosf, float, 0)   \
	X(asinf, float, 0)  \
	X(acosf, float, 0)  \
	X(atanf, float, 0)  \
	X(cbrtf, float, 0)  \
	X(tanhf, float, 0)  \
	X(sinhf, float, 0)  \
	X(coshf, float, 0)  \
	X(asinhf, float, 0) \
	X(acoshf, float, 0) \
	X(atanhf, float, 0) \
	X(erff, float, 0)

#ifdef UB_HAVE_LLVM_LIBC
#define X(name, type, ulps) type ub_llvm_##name(type);
UB_LLVM_DOUBLE(X)
UB_LLVM_FLOAT(X)
#undef X
#endif

/* 1 when ulpbench was built with LLVM's libc and this CPU runs it (its
 * code uses FMA and AVX2 instructions); checked once. */
int ub_llvm_usable(void);

/* "LLVM libc + MPFR" or "MPFR", for messages. */
const char *ub_llvm_reference_name(void);

#endif
