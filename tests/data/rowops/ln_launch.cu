// ln_launch.cu — a layer norm as host code launching three kernels, with a
// copy of its input, a memset and a scratch buffer (docs/user-kernels.md,
// tests/rowops.test).
#include <cuda_runtime.h>

__global__ void ln_mean(const float *x, float *mean, int rows, int cols)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= rows)
		return;
	for (int k = 0; k < cols; k++)
		mean[r] += x[r * cols + k];
	mean[r] = mean[r] / cols;
}

__global__ void ln_rstd(const float *x, const float *mean, float *var, float *rstd,
			int rows, int cols, float eps)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= rows)
		return;
	float s = 0.f;
	for (int k = 0; k < cols; k++) {
		float d = x[r * cols + k] - mean[r];
		s += d * d;
	}
	var[r] = s / cols;
	rstd[r] = 1.0f / sqrtf(var[r] + eps);
}

__global__ void ln_norm(const float *x, const float *mean, const float *rstd, const float *w,
			const float *b, float *out, int rows, int cols)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= rows * cols)
		return;
	int r = i / cols, c = i % cols;
	out[i] = (x[i] - mean[r]) * rstd[r] * w[c] + b[c];
}

void layernorm(float *out, float *mean, float *rstd, const float *x, const float *weight,
	       const float *bias, float *work, int rows, int cols, cudaStream_t stream)
{
	float *xc;
	cudaMalloc(&xc, (size_t)rows * cols * sizeof(float));
	cudaMemcpyAsync(xc, x, (size_t)rows * cols * sizeof(float), cudaMemcpyDeviceToDevice, stream);
	cudaMemsetAsync(mean, 0, rows * sizeof(float), stream);
	ln_mean<<<(rows + 63) / 64, 64, 0, stream>>>(xc, mean, rows, cols);
	ln_rstd<<<(rows + 63) / 64, 64, 0, stream>>>(xc, mean, work, rstd, rows, cols, 1e-5f);
	ln_norm<<<(rows * cols + 255) / 256, 256, 0, stream>>>(xc, mean, rstd, weight, bias, out,
								rows, cols);
	cudaFree(xc);
}
