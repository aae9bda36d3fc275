// helpers.h — device and host helpers shared by sigmoid_y.cu's kernel and
// its launcher, found beside the file as nvcc finds it.
#pragma once
#include <cstdint>

namespace demo {
template <typename T> __device__ __forceinline__ T one_minus(T v) { return T(1) - v; }
inline unsigned blocks_for(int64_t n, unsigned block) { return (unsigned)((n + block - 1) / block); }
} // namespace demo
