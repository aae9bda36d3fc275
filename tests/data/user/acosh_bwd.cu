/* acosh_bwd.cu — a user's kernel, not in ulpbench's catalog, written the
 * way kernels/atan_bwd.cu is: din = dout / sqrt(in*in - 1), one float per
 * element, a grid-stride loop, ulpbench.h's macros on the arithmetic whose
 * rounding matters.
 *
 * Under the nvcc default (-fmad=true) in*in - 1 becomes one fma.rn.f32: it
 * rounds once where PyTorch's x*x and -1 kernels round twice, and near
 * x = 1 that first rounding is most of the answer (x*x - 1 cancels), so
 * fma is far more accurate than PyTorch there and differs from it by many
 * units.  nofma and rn round every step and match PyTorch's four kernels
 * bit for bit.  -prec-div=false, -prec-sqrt=false and -use_fast_math switch
 * to div.full, sqrt.approx, div.approx (modelled on the sim). */
#include "ulpbench.h"

extern "C" __global__ void acosh_backward(const float *in, const float *dout,
                                          float *din, long long N)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
         i < N; i += (long long)blockDim.x * gridDim.x)
        din[i] = UB_DIV(dout[i], sqrtf(UB_SUB(UB_MUL(in[i], in[i]), 1.f)));
}
