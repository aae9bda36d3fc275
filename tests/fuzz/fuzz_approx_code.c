/* fuzz_approx_code.c — the table coder of approx_code.c, directly: the
 * first byte picks the coding and whether there is a prediction, the
 * next two the count n (at most 4096), the rest is coded data.  Whatever
 * decodes must encode and decode back to itself (the coder is lossless):
 * a difference traps. */
#include "fuzz.h"
#include "approx_code.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 3)
		return 0;
	enum ub_coding coding = data[0] & 1 ? UB_CODE_DELTA : UB_CODE_RESIDUAL;
	size_t n = ((size_t)data[1] | (size_t)data[2] << 8) % 4097;
	uint32_t *pred = malloc((n + 1) * sizeof *pred);
	uint32_t *y = malloc((n + 1) * sizeof *y), *y2 = malloc((n + 1) * sizeof *y2);
	const uint32_t *p = data[0] & 2 ? pred : NULL;
	for (size_t i = 0; pred && i < n; i++)
		pred[i] = 0x3f800000u + (uint32_t)i * 977u; /* values near 1 */
	struct ub_bytes b = {0};
	if (pred && y && y2 && ub_code_decode(data + 3, size - 3, p, n, coding, y) == 0 &&
	    ub_code_encode(y, p, n, coding, &b) == 0) {
		if (ub_code_decode(b.p, b.len, p, n, coding, y2) != 0 ||
		    memcmp(y, y2, n * sizeof *y))
			__builtin_trap();
	}
	ub_bytes_free(&b);
	free(pred);
	free(y);
	free(y2);
	return 0;
}
