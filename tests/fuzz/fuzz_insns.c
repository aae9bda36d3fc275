/* fuzz_insns.c — the files of `selftest --insns` (src/cli/selftest_insns.c):
 * a list of instruction forms (--list) and a capture of a GPU's outputs
 * (--replay).  The input's first byte chooses: even, the rest is a list;
 * odd, a capture.  Everything read is freed again. */
#include "fuzz.h"
#include "selftest_insns.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ub_error err;
	if (size < 1)
		return 0;
	int capture = data[0] & 1;
	const char *path = fuzz_file(capture ? "in.cap" : "in.txt", data + 1, size - 1);
	if (!path)
		return 0;
	ub_insns_read_files(capture ? NULL : path, capture ? path : NULL, &err);
	return 0;
}
