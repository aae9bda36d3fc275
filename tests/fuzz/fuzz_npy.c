/* fuzz_npy.c — .npy files (src/run/npy.c): the input is the file, read
 * as each dtype an --input can be. */
#include "fuzz.h"
#include "npy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file("in.npy", data, size);
	for (int dt = 0; path && dt < UB_NDTYPES; dt++) {
		struct ub_array a = {0};
		struct ub_shape shape;
		struct ub_error err;
		if (ub_npy_read(path, (enum ub_dtype)dt, &a, &shape, &err) == 0)
			ub_array_free(&a);
	}
	return 0;
}
