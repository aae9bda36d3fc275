// short_write.cu — a kernel with an off-by-three bound: the last three
// elements of out are never written.
extern "C" __global__ void scale_short(const float *x, float *out, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i < n - 3)
		out[i] = 2.0f * x[i];
}
