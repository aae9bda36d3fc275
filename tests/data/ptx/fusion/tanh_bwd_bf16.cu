/* tanh_bwd: kernel generated from the op's :kernel-expr, computed in float (double for f64), rounded once; with UB_NATIVE16 in the 16-bit type itself (bf16) */
#include "ulpbench.h"
#include <cuda_bf16.h>
extern "C" __global__ void ub_kernel(const __nv_bfloat16 *v0, const __nv_bfloat16 *v1, __nv_bfloat16 *out, long long n)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
         i < n; i += (long long)blockDim.x * gridDim.x) {
#ifdef UB_NATIVE16
        __nv_bfloat16 a0 = v0[i];
        __nv_bfloat16 a1 = v1[i];
        out[i] = UB_MUL(a1, UB_SUB(__ushort_as_bfloat16((unsigned short)0x3f80), UB_MUL(htanh(a0), htanh(a0))));
#else
        float a0 = __bfloat162float(v0[i]);
        float a1 = __bfloat162float(v1[i]);
        out[i] = __float2bfloat16_rn(UB_MUL(a1, UB_SUB(__int_as_float(0x3f800000), UB_MUL(tanhf(a0), tanhf(a0)))));
#endif
    }
}
