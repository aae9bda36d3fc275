/* fuzz_capture.c — capture files (src/exec/capture_file.c and the table
 * decoder of approx_code.c): the input is a file for `capture-approx
 * --read`, read whole, and each table described as the summary does. */
#include "fuzz.h"
#include "capture_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file("in.ubx", data, size);
	struct ub_capture c;
	struct ub_error err;
	if (!path)
		return 0;
	/* c is to be freed whatever the outcome, as capture-approx --read does */
	if (ub_capture_read(path, &c, &err) == 0) {
		char buf[128];
		for (int i = 0; i < c.ntables; i++)
			ub_sweep_describe(&c.tables[i], buf, sizeof buf);
	}
	ub_capture_free(&c);
	return 0;
}
