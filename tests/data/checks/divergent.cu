// A barrier in divergent code: the first half of each warp waits at a
// __syncthreads() that the second half skips (undefined on a GPU: the
// barrier is .aligned, every thread of a warp must reach the same one).
__global__ void recip_divergent(const float *x, float *out, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? x[i] : 1.f;
    if ((t & 31) < 16)
        __syncthreads();
    if (i < n)
        out[i] = 1.0f / s[t];
}
