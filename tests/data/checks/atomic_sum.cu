// Each block sums its x with atomicAdd into a float in shared memory and
// every thread writes its block's sum: the partial sums, and so the bits
// of the result, depend on the order in which the atomics land.
__global__ void block_sum_atomic(const float *x, float *out, int n)
{
    __shared__ float acc;
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (t == 0)
        acc = 0.f;
    __syncthreads();
    atomicAdd(&acc, i < n ? x[i] : 0.f);
    __syncthreads();
    if (i < n)
        out[i] = acc;
}
