// A row sum as a block reduction through shared memory, one block per
// row (launch it with --launch block=256,per-block=1): each thread sums
// the columns t, t + BLOCK, ... in float, writes its partial to shared
// memory, and the partials are folded in halves (s = BLOCK/2, ..., 1:
// thread t < s adds partial t + s), a __syncthreads() between steps.
// __launch_bounds__ and the template fix the block size the kernel is
// written for; it checks blockDim.x itself, as careful kernels do, so a
// launch with another block size writes nothing and is named.
template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
rowsum_block(const float *__restrict__ x, float *__restrict__ out, int rows, int cols)
{
    __shared__ float part[BLOCK];
    if (blockDim.x != BLOCK || blockIdx.x >= rows)
        return;
    const float *xr = x + (long long)blockIdx.x * cols;
    const int t = threadIdx.x;
    float acc = 0.f;
    for (int j = t; j < cols; j += BLOCK)
        acc += xr[j];
    part[t] = acc;
    __syncthreads();
#pragma unroll
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (t < s)
            part[t] += part[t + s];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = part[0];
}

template __global__ void rowsum_block<256>(const float *, float *, int, int);
