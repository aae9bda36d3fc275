// Every thread of the block stages its value at the end of a dynamic
// shared array as large as the launch gives (--launch ...,shared=BYTES):
// the last blockDim.x floats, read back by the mirrored thread.
__global__ void recip_smem(const float *x, float *out, int n, int floats)
{
    extern __shared__ float big[];
    int t = threadIdx.x, base = blockIdx.x * blockDim.x;
    float *tile = big + floats - blockDim.x;
    tile[t] = base + t < n ? x[base + t] : 1.f;
    __syncthreads();
    int r = blockDim.x - 1 - t;
    if (base + r < n)
        out[base + r] = 1.0f / tile[r];
}
