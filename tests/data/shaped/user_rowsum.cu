// A row sum as users write a first version: one thread per row, a float
// accumulator, the columns from 0 up.
__global__ void rowsum(const float *src, float *dst, int nrows, int ncols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < nrows) {
        float acc = 0.0f;
        for (int j = 0; j < ncols; j++)
            acc += src[r * ncols + j];
        dst[r] = acc;
    }
}
