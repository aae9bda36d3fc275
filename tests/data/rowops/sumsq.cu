// sumsq.cu — 1 / sqrt of the sum of squares of each row, one thread a row
// (tests/rowops.test).
__global__ void sumsq_rsqrt(const float *x, float *out, int rows, int cols)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= rows)
		return;
	float s = 0.f;
	for (int k = 0; k < cols; k++)
		s += x[r * cols + k] * x[r * cols + k];
	out[r] = 1.0f / sqrtf(s);
}
