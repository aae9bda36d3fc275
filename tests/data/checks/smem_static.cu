// A static shared array of 256 KiB: more than ptxas gives a kernel (48 KiB
// of static shared memory; more must be dynamic) and more than any GPU
// has for a block.
__global__ void recip_static(const float *x, float *out, int n)
{
    __shared__ float big[65536];
    int t = threadIdx.x, base = blockIdx.x * blockDim.x;
    big[65535 - t] = base + t < n ? x[base + t] : 1.f;
    __syncthreads();
    int r = blockDim.x - 1 - t;
    if (base + r < n)
        out[base + r] = 1.0f / big[65535 - r];
}
