// launch_bad.cu — a launcher that copies into its input: refused, naming
// the copy (tests/rowops.test).
#include <cuda_runtime.h>

__global__ void fill(float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = 1.0f;
}

void bad_copy(float *out, const float *x, int rows, int cols)
{
	fill<<<(rows + 63) / 64, 64>>>(out, rows);
	cudaMemcpy((void *)x, out, rows * sizeof(float), cudaMemcpyDeviceToDevice);
}
