/* gelu_tanh_bwd: kernel generated from the op's :kernel-expr, computed in float (double for f64), rounded once; with UB_NATIVE16 in the 16-bit type itself (f16) */
#include "ulpbench.h"
#include <cuda_fp16.h>
extern "C" __global__ void ub_kernel(const __half *v0, const __half *v1, __half *out, long long n)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
         i < n; i += (long long)blockDim.x * gridDim.x) {
#ifdef UB_NATIVE16
        __half a0 = v0[i];
        __half a1 = v1[i];
        out[i] = UB_MUL(a1, UB_ADD(UB_MUL(__ushort_as_half((unsigned short)0x3800), UB_ADD(__ushort_as_half((unsigned short)0x3c00), htanh(UB_MUL(hsqrt(UB_DIV(__ushort_as_half((unsigned short)0x4000), __ushort_as_half((unsigned short)0x4248))), UB_ADD(a0, UB_MUL(UB_MUL(UB_MUL(__ushort_as_half((unsigned short)0x29b9), a0), a0), a0)))))), UB_MUL(UB_MUL(UB_MUL(UB_MUL(__ushort_as_half((unsigned short)0x3800), a0), UB_SUB(__ushort_as_half((unsigned short)0x3c00), UB_MUL(htanh(UB_MUL(hsqrt(UB_DIV(__ushort_as_half((unsigned short)0x4000), __ushort_as_half((unsigned short)0x4248))), UB_ADD(a0, UB_MUL(UB_MUL(UB_MUL(__ushort_as_half((unsigned short)0x29b9), a0), a0), a0)))), htanh(UB_MUL(hsqrt(UB_DIV(__ushort_as_half((unsigned short)0x4000), __ushort_as_half((unsigned short)0x4248))), UB_ADD(a0, UB_MUL(UB_MUL(UB_MUL(__ushort_as_half((unsigned short)0x29b9), a0), a0), a0))))))), hsqrt(UB_DIV(__ushort_as_half((unsigned short)0x4000), __ushort_as_half((unsigned short)0x4248)))), UB_ADD(__ushort_as_half((unsigned short)0x3c00), UB_MUL(UB_MUL(UB_MUL(__ushort_as_half((unsigned short)0x4200), __ushort_as_half((unsigned short)0x29b9)), a0), a0)))));
#else
        float a0 = __half2float(v0[i]);
        float a1 = __half2float(v1[i]);
        out[i] = __float2half_rn(UB_MUL(a1, UB_ADD(UB_MUL(__int_as_float(0x3f000000), UB_ADD(__int_as_float(0x3f800000), tanhf(UB_MUL(sqrtf(UB_DIV(__int_as_float(0x40000000), __int_as_float(0x40490fdb))), UB_ADD(a0, UB_MUL(UB_MUL(UB_MUL(__int_as_float(0x3d372713), a0), a0), a0)))))), UB_MUL(UB_MUL(UB_MUL(UB_MUL(__int_as_float(0x3f000000), a0), UB_SUB(__int_as_float(0x3f800000), UB_MUL(tanhf(UB_MUL(sqrtf(UB_DIV(__int_as_float(0x40000000), __int_as_float(0x40490fdb))), UB_ADD(a0, UB_MUL(UB_MUL(UB_MUL(__int_as_float(0x3d372713), a0), a0), a0)))), tanhf(UB_MUL(sqrtf(UB_DIV(__int_as_float(0x40000000), __int_as_float(0x40490fdb))), UB_ADD(a0, UB_MUL(UB_MUL(UB_MUL(__int_as_float(0x3d372713), a0), a0), a0))))))), sqrtf(UB_DIV(__int_as_float(0x40000000), __int_as_float(0x40490fdb)))), UB_ADD(__int_as_float(0x3f800000), UB_MUL(UB_MUL(UB_MUL(__int_as_float(0x40400000), __int_as_float(0x3d372713)), a0), a0))))));
#endif
    }
}
