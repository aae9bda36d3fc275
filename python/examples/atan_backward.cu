// atan_backward.cu — an extension's atan backward kernel, as its author
// wrote it: din = dout / (x*x + 1), one thread per element.
extern "C" __global__ void atan_backward(const float *x, const float *dout,
                                         float *din, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        din[i] = dout[i] / (x[i] * x[i] + 1.0f);
}
