/* atan_bwd.cu — atan backward, din = dout / (in*in + 1), as a user writes
 * it: one float per element, a grid-stride loop.
 *
 * Domain: all floats.  Exact math: g / (x^2 + 1).  Under the nvcc default
 * (-fmad=true) the square and the +1 fuse into one fma.rn, so x*x+1 rounds
 * once where PyTorch (three kernels) rounds twice: a few percent of outputs
 * then differ from PyTorch by one ulp.  nofma and rn round each step and
 * match PyTorch bit for bit; every IEEE mode stays within about 2.5 ulp of
 * the exact value (three roundings of 0.5 ulp, amplified at most 2x by the
 * division's conditioning).  fastmath uses div.approx (2 ulp documented).
 * The catalog launches it four elements a thread (:launch "per-thread=4"
 * in suites/ops.fpcore): fewer threads than elements, as a grid-stride
 * loop is meant to run; each element is computed alone either way. */
#include "ulpbench.h"

extern "C" __global__ void atan_bwd(const float *in, const float *dout,
                                    float *din, long long n)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
         i < n; i += (long long)blockDim.x * gridDim.x)
        din[i] = UB_DIV(dout[i], UB_ADD(UB_MUL(in[i], in[i]), 1.f));
}
