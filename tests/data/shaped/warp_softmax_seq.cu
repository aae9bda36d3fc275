// The same arithmetic as warp_softmax.cu in one thread per row: the 32
// lanes' partial sums one after another, then the butterfly of
// __shfl_xor_sync by hand (lane l adds lane l ^ off's value, off 16, 8,
// 4, 2, 1; lane 0's result).  It must give warp_softmax.cu's bits: a
// check of the warp execution (shuffles, divergence) by a kernel that has
// none.
#include <math.h>

__global__ void softmax_seq(const float *x, float *y, int rows, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows)
        return;
    const float *xr = x + (long long)row * cols;
    float m = -INFINITY;
    for (int j = 0; j < cols; j++)
        m = fmaxf(m, xr[j]);
    float part[32];
    for (int l = 0; l < 32; l++) {
        part[l] = 0.f;
        for (int j = l; j < cols; j += 32)
            part[l] += expf(xr[j] - m);
    }
    for (int off = 16; off > 0; off >>= 1) {
        float next[32];
        for (int l = 0; l < 32; l++)
            next[l] = part[l] + part[l ^ off];
        for (int l = 0; l < 32; l++)
            part[l] = next[l];
    }
    float inv = 1.f / part[0];
    for (int j = 0; j < cols; j++)
        y[(long long)row * cols + j] = expf(xr[j] - m) * inv;
}
