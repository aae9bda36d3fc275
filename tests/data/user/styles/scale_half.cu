// scale_half.cu — out = alpha * x in f16, the element type a struct
// around one __half reached through a `using` alias, the count a size_t,
// a grid-stride loop.
#include <cuda_fp16.h>

struct alignas(2) HalfBox {
	__half v;
};
using elem_t = HalfBox;

extern "C" __global__ void scale_half(const elem_t *__restrict__ x, elem_t *__restrict__ out,
				      float alpha, size_t n)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)blockDim.x * gridDim.x)
		out[i].v = __float2half_rn(alpha * __half2float(x[i].v));
}
