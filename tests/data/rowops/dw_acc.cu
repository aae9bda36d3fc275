// dw_acc.cu — dw += x * g, one thread per element (tests/rowops.test).
__global__ void dw_acc(const float *x, const float *g, float *dw, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		dw[i] += x[i] * g[i];
}
