// A layer norm forward with one warp per row, writing out, mean and rstd,
// as people write it for rows of a few thousand elements: float4 loads
// when the row allows them (cols a multiple of 4), the two passes (mean,
// then the biased variance about it) each summed per lane and round the
// warp by __shfl_xor_sync, rstd by rsqrtf.  Launch one warp per row with
// --launch block=32,per-block=1 (or W warps a block: block=32*W,
// per-block=W).

__device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

__global__ void layer_norm_warp(const float *__restrict__ x, const float *__restrict__ gamma,
                                const float *__restrict__ beta, float *__restrict__ y,
                                float *__restrict__ mean, float *__restrict__ rstd,
                                int rows, int cols, float eps)
{
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (row >= rows)
        return;
    const float *xr = x + (long long)row * cols;
    const bool vec = (cols & 3) == 0;

    float s = 0.f;
    if (vec) {
        const float4 *x4 = reinterpret_cast<const float4 *>(xr);
        for (int k = lane; k < cols / 4; k += 32) {
            float4 v = x4[k];
            s += v.x; s += v.y; s += v.z; s += v.w;
        }
    } else {
        for (int j = lane; j < cols; j += 32)
            s += xr[j];
    }
    const float mu = warp_sum(s) / cols;

    float q = 0.f;
    if (vec) {
        const float4 *x4 = reinterpret_cast<const float4 *>(xr);
        for (int k = lane; k < cols / 4; k += 32) {
            float4 v = x4[k];
            float a = v.x - mu, b = v.y - mu, c = v.z - mu, d = v.w - mu;
            q += a * a; q += b * b; q += c * c; q += d * d;
        }
    } else {
        for (int j = lane; j < cols; j += 32) {
            float a = xr[j] - mu;
            q += a * a;
        }
    }
    const float rs = rsqrtf(warp_sum(q) / cols + eps);

    for (int j = lane; j < cols; j += 32)
        y[(long long)row * cols + j] = (xr[j] - mu) * rs * gamma[j] + beta[j];
    if (lane == 0) {
        mean[row] = mu;
        rstd[row] = rs;
    }
}
