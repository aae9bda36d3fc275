// A gradient kernel that accumulates into its output, as backward passes
// that add several contributions into one gradient do: dinp += the
// derivative of atan at inp times dout.  It reads dinp before writing it,
// so the caller must have zeroed it (bind it with dinp=out:acc).
__global__ void atan_backward_acc(const float *inp, const float *dout, float *dinp, int N)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N)
        dinp[i] += dout[i] / (inp[i] * inp[i] + 1.0f);
}
