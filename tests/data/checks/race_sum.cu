// A row sum as a block reduction through shared memory, one block of 128
// threads per row (--launch block=128,per-block=1), with a bug: no
// __syncthreads() between the steps of the tree.  Step h = 32 reads the
// partials that warp 1 wrote at step h = 64, and a GPU may run warp 0's
// read before warp 1's write (or after: the value is then right).  The
// steps inside warp 0 race too: lanes run in lockstep on the interpreter,
// but nothing orders a lane's write before another lane's read on a GPU
// since Volta (independent thread scheduling) without __syncwarp().
__global__ void rowsum_race(const float *x, float *out, int rows, int cols)
{
    __shared__ float part[128];
    const int t = threadIdx.x, row = blockIdx.x;
    if (row >= rows)
        return;
    float acc = 0.f;
    for (int j = t; j < cols; j += 128)
        acc += x[(long long)row * cols + j];
    part[t] = acc;
    __syncthreads();
    for (int h = 64; h > 0; h >>= 1) {
        if (t < h) {
            float other = part[t + h];
            part[t] = part[t] + other;
        }
        // missing: __syncthreads();
    }
    if (t == 0)
        out[row] = part[0];
}
