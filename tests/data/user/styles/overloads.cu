// overloads.cu — one name, two overloads (float and double), as a C++
// library writes them; chosen with --entry 'name(parameter types)'.
// din = dout / (in*in + 1): atan's backward.
__global__ void atan_backward(const float *in, const float *dout, float *din, int N)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < N)
		din[i] = dout[i] / (in[i] * in[i] + 1.f);
}

__global__ void atan_backward(const double *in, const double *dout, double *din, int N)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < N)
		din[i] = dout[i] / (in[i] * in[i] + 1.);
}
