// A row sum through shared memory, one block of 128 threads per row of
// at most 128 columns (--launch block=128,per-block=1), with a bug: only
// the threads with a column store their value, so for a row shorter than
// the block the tree reads the slots past its end, which no thread wrote.
__global__ void rowsum_tail(const float *x, float *out, int rows, int cols)
{
    __shared__ float part[128];
    const int t = threadIdx.x, row = blockIdx.x;
    if (t < cols)
        part[t] = x[(long long)row * cols + t];
    __syncthreads();
    for (int h = 64; h > 0; h >>= 1) {
        if (t < h)
            part[t] += part[t + h];
        __syncthreads();
    }
    if (t == 0)
        out[row] = part[0];
}
