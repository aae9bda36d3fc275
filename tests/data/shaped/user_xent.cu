// Cross-entropy of a row as users write a first version: one thread per
// row, here in double and rounded to float once at the store, so that
// every loss is within a hair of the correctly rounded value.  The class
// indices come as int32 bits in a float array (docs/reductions.md).
__global__ void xent_rows(const float *logits, const float *labels, float *loss, int nrows,
                          int ncols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nrows)
        return;
    const float *row = logits + (long long)r * ncols;
    double m = row[0];
    for (int j = 1; j < ncols; j++)
        m = fmax(m, (double)row[j]);
    double s = 0;
    for (int j = 0; j < ncols; j++)
        s += exp(row[j] - m);
    loss[r] = (float)(log(s) - (row[__float_as_int(labels[r])] - m));
}
