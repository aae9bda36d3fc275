/* ref_llvm.c — whether LLVM libc's functions (ref_llvm.h) can be used:
 * built in, and the CPU has the instructions its code was compiled for. */
#include "config.h"
#include "ref_llvm.h"

int ub_llvm_usable(void)
{
#ifdef UB_HAVE_LLVM_LIBC
#if defined(__x86_64__) || defined(__i386__)
	static int usable = -1;
	int u = __atomic_load_n(&usable, __ATOMIC_RELAXED);
	if (u < 0) {
		__builtin_cpu_init();
		u = __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2");
		__atomic_store_n(&usable, u, __ATOMIC_RELAXED);
	}
	return u;
#else
	return 1;
#endif
#else
	return 0;
#endif
}

const char *ub_llvm_reference_name(void)
{
	return ub_llvm_usable() ? "LLVM libc + MPFR" : "MPFR";
}
