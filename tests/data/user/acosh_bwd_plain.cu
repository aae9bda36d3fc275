/* acosh_bwd_plain.cu — the same formula written without ulpbench.h: one
 * thread per element, an int count, parameters in another order, and the
 * qualifiers people write (__launch_bounds__, __restrict__, float const *).
 * Mode rn cannot apply to it (nothing to turn into __fmul_rn): the report
 * says n/a for rn. */
extern "C" __global__ void __launch_bounds__(256)
acosh_backward(float *__restrict__ din, const float *__restrict__ in, int N,
               float const *dout /* the incoming gradient */)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N)
        din[i] = dout[i] / sqrtf(in[i] * in[i] - 1.f);
}
