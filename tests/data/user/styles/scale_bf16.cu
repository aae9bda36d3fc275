// scale_bf16.cu — out = alpha * x in bf16, eight elements a thread through
// one 128-bit streaming load and store of a packed struct; the tail of n
// one element at a time.  The element type is a typedef, the factor a
// float scalar, the count an int64_t.  Launched with ceil(n/8) threads.
#include <cstdint>
#include <cuda_bf16.h>

typedef __nv_bfloat16 floatX;
struct alignas(16) Packed8 {
	floatX v[8];
};

__global__ void scale_bf16(floatX *out, const floatX *inp, float alpha, int64_t n)
{
	int64_t i = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) * 8;
	if (i + 8 <= n) {
		Packed8 a, r;
		*reinterpret_cast<int4 *>(&a) = __ldcs(reinterpret_cast<const int4 *>(inp + i));
#pragma unroll
		for (int k = 0; k < 8; k++)
			r.v[k] = __float2bfloat16(alpha * __bfloat162float(a.v[k]));
		__stcs(reinterpret_cast<int4 *>(out + i), *reinterpret_cast<int4 *>(&r));
	} else {
		for (; i < n; i++)
			out[i] = __float2bfloat16(alpha * __bfloat162float(inp[i]));
	}
}
