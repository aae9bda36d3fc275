/* silu_bwd: kernel generated from the op's :kernel-expr, computed in float (double for f64), rounded once; with UB_NATIVE16 in the 16-bit type itself (f16) */
#include "ulpbench.h"
#include <cuda_fp16.h>
extern "C" __global__ void ub_kernel(const __half *v0, const __half *v1, __half *out, long long n)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
         i < n; i += (long long)blockDim.x * gridDim.x) {
#ifdef UB_NATIVE16
        __half a0 = v0[i];
        __half a1 = v1[i];
        out[i] = UB_MUL(UB_MUL(a1, UB_DIV(__ushort_as_half((unsigned short)0x3c00), UB_ADD(__ushort_as_half((unsigned short)0x3c00), hexp((-a0))))), UB_ADD(__ushort_as_half((unsigned short)0x3c00), UB_MUL(a0, UB_SUB(__ushort_as_half((unsigned short)0x3c00), UB_DIV(__ushort_as_half((unsigned short)0x3c00), UB_ADD(__ushort_as_half((unsigned short)0x3c00), hexp((-a0))))))));
#else
        float a0 = __half2float(v0[i]);
        float a1 = __half2float(v1[i]);
        out[i] = __float2half_rn(UB_MUL(UB_MUL(a1, UB_DIV(__int_as_float(0x3f800000), UB_ADD(__int_as_float(0x3f800000), expf((-a0))))), UB_ADD(__int_as_float(0x3f800000), UB_MUL(a0, UB_SUB(__int_as_float(0x3f800000), UB_DIV(__int_as_float(0x3f800000), UB_ADD(__int_as_float(0x3f800000), expf((-a0)))))))));
#endif
    }
}
