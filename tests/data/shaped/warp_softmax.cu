// A row softmax with one warp per row, as people write it for rows of a
// few hundred to a few thousand elements: each lane takes the columns
// lane, lane + 32, ..., the row's max and sum go round the warp by
// __shfl_xor_sync (a butterfly: every lane ends with the same value), and
// each lane writes its columns.  WARPS warps a block, one row each:
// launch it with --launch block=128,per-block=4 (128 threads, 4 rows a
// block).  Written against blockDim.x, so a launch with a block that is
// not whole warps stops with the shuffle's message, and one with fewer
// rows a block than warps leaves rows unwritten (named).
#include <math.h>

__device__ __forceinline__ float warp_max(float v)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, off));
    return v;
}

__device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

template <typename T>
__global__ void softmax_warp(const T *__restrict__ x, T *__restrict__ y, int rows, int cols)
{
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (row >= rows)
        return;
    const T *xr = x + (long long)row * cols;
    T *yr = y + (long long)row * cols;

    float m = -INFINITY;
    for (int j = lane; j < cols; j += 32)
        m = fmaxf(m, (float)xr[j]);
    m = warp_max(m);

    float s = 0.f;
    for (int j = lane; j < cols; j += 32)
        s += expf((float)xr[j] - m);
    s = warp_sum(s);

    const float inv = 1.f / s;
    for (int j = lane; j < cols; j += 32)
        yr[j] = (T)(expf((float)xr[j] - m) * inv);
}

template __global__ void softmax_warp<float>(const float *, float *, int, int);
