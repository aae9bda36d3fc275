// A row softmax as users write a first version: one thread per row,
// here in double and rounded to float once at the store, so that every
// output is within a hair of the correctly rounded value.
__global__ void softmax_rows(const float *in, float *res, int nrows, int ncols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nrows)
        return;
    const float *row = in + (long long)r * ncols;
    double m = row[0];
    for (int j = 1; j < ncols; j++)
        m = fmax(m, (double)row[j]);
    double s = 0;
    for (int j = 0; j < ncols; j++)
        s += exp(row[j] - m);
    for (int j = 0; j < ncols; j++)
        res[(long long)r * ncols + j] = (float)(exp(row[j] - m) / s);
}
