/* fuzz_suite.c — suite files (src/cli/suite_parse.c): the input is a
 * .suite file, read and checked as `ulpbench suite` does before it runs
 * anything (the run lines through the command's option parser, the ops
 * from the shipped catalog). */
#include "fuzz.h"
#include "suite.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file("in.suite", data, size);
	if (!path)
		return 0;
	struct ub_suite s = {0};
	struct ub_error err;
	ub_suite_load(&s, path, &err);
	ub_suite_free(&s);
	return 0;
}
