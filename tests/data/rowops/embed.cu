// embed.cu — an embedding forward: one thread per element of the output,
// int32 token ids, a uint8 padding mask (tests/rowops.test).
#include <cstdint>

__global__ void embed(float *out, const int *ids, const uint8_t *mask, const float *wte,
		      const float *wpe, int rows, int cols)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= rows * cols)
		return;
	int r = i / cols, c = i % cols;
	out[i] = mask[r] ? wte[ids[r] * cols + c] + wpe[i] : 0.0f;
}
