/* host_aside.h — a kernel file's device code for NVRTC, its host code set
 * aside: what a toolkit without nvcc (the 11.x and 12.x wheels) compiles
 * of a --kernel file that nvcc would take whole (host code, main, the C
 * library's headers).
 *
 * Set aside, each replaced by as many newlines as it held (NVRTC's
 * messages keep the file's line numbers):
 *   - #include <...> of any header but the CUDA device headers NVRTC
 *     provides or the toolkit's include directories hold (cuda_fp16.h,
 *     cuda_bf16.h, cuda_fp8.h, cuda/...): stdio.h, vector, cuda_runtime.h,
 *     math.h, ... (NVRTC has the math functions built in);
 *   - every function defined at file or namespace scope whose declaration
 *     says neither __global__ nor __device__ (main, launchers, host
 *     helpers), templates included;
 *   - `using namespace std;`.
 * A header the file #includes "" from beside it is filtered the same way
 * in its place (once; #line directives keep the places in messages).
 * Kept as written: everything else, structs and classes with their
 * members, namespaces (filtered inside), extern "C" blocks, declarations,
 * the preprocessor's other lines.  M_PI and the other <math.h> constants
 * the file may use are defined when it does not, and <cstdint>'s types.
 * The text is C++ as NVRTC reads it; comments, strings and character
 * literals are skipped when braces are counted. */
#ifndef UB_HOST_ASIDE_H
#define UB_HOST_ASIDE_H

/* src's device code, malloc'd (NULL when out of memory); file is its
 * name in messages, dir where its "" headers are.  Not reentrant. */
char *ub_host_aside(const char *src, const char *file, const char *dir);

#endif
