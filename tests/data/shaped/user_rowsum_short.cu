// A row sum that forgets its last row (the bound is off by one).
__global__ void rowsum(const float *src, float *dst, int nrows, int ncols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < nrows - 1) {
        float acc = 0.0f;
        for (int j = 0; j < ncols; j++)
            acc += src[r * ncols + j];
        dst[r] = acc;
    }
}
