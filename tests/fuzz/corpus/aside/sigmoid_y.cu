// sigmoid_y.cu — sigmoid's backward from the forward output y it saved, as
// PyTorch computes it: grad_input = grad_output * (1 - y) * y.  Written as a
// C++ translation unit: a template kernel in a namespace with an explicit
// instantiation, a host launcher, a main() and a header beside the file,
// M_PI and <cmath> in host code.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include "helpers.h"

namespace demo {
template <typename scalar_t>
__global__ void sigmoid_backward(scalar_t *__restrict__ grad_input,
				 const scalar_t *__restrict__ grad_output,
				 const scalar_t *__restrict__ output, int64_t n)
{
	int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
	if (i < n)
		grad_input[i] = grad_output[i] * one_minus(output[i]) * output[i];
}
template __global__ void sigmoid_backward<float>(float *, const float *, const float *, int64_t);

void launch_sigmoid_backward(float *gi, const float *go, const float *y, int64_t n,
			     cudaStream_t stream)
{
	sigmoid_backward<float><<<blocks_for(n, 256), 256, 0, stream>>>(gi, go, y, n);
}
} // namespace demo

int main(void)
{
	const int64_t n = 1 << 20;
	float *buf;
	if (cudaMalloc(&buf, 3 * n * sizeof *buf) != cudaSuccess)
		return EXIT_FAILURE;
	cudaMemset(buf, 0, 3 * n * sizeof *buf);
	demo::launch_sigmoid_backward(buf, buf + n, buf + 2 * n, n, 0);
	printf("%s (pi = %.6f)\n", cudaGetErrorString(cudaDeviceSynchronize()), M_PI);
	cudaFree(buf);
	return 0;
}
