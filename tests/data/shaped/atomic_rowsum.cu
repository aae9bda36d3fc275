// A row sum by atomicAdd, one block a row (--launch block=64,per-block=1):
// each thread sums its columns t, t + blockDim.x, ... in float, then adds
// its partial into out[row] with atomicAdd, so the partials are added in
// the order the threads reach the atomic, which the GPU does not fix.
// out[row] is zeroed by thread 0 first (a real launch would cudaMemset it).
__global__ void rowsum_atomic(const float *__restrict__ x, float *__restrict__ out,
                              int rows, int cols)
{
    const int row = blockIdx.x;
    if (row >= rows)
        return;
    if (threadIdx.x == 0)
        out[row] = 0.f;
    __syncthreads();
    float acc = 0.f;
    for (int j = threadIdx.x; j < cols; j += blockDim.x)
        acc += x[(long long)row * cols + j];
    atomicAdd(&out[row], acc);
}
