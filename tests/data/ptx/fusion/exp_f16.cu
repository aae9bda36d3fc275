/* exp: kernel generated from the op's math, computed in float (double for f64), rounded once; with UB_NATIVE16 in the 16-bit type itself (f16) */
#include "ulpbench.h"
#include <cuda_fp16.h>
extern "C" __global__ void ub_kernel(const __half *v0, __half *out, long long n)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
         i < n; i += (long long)blockDim.x * gridDim.x) {
#ifdef UB_NATIVE16
        __half a0 = v0[i];
        out[i] = hexp(a0);
#else
        float a0 = __half2float(v0[i]);
        out[i] = __float2half_rn(expf(a0));
#endif
    }
}
