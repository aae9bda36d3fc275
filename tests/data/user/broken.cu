/* broken.cu — a kernel that does not compile: `one` is not declared on
 * line 8. */
#include "ulpbench.h"

extern "C" __global__ void acosh_backward(const float *in, const float *dout,
                                          float *din, long long N)
{
    for (long long i = threadIdx.x; i < N; i += blockDim.x) din[i] = UB_DIV(dout[i], sqrtf(UB_SUB(UB_MUL(in[i], in[i]), one)));
}
