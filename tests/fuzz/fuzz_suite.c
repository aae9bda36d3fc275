/* fuzz_suite.c — suite files (src/cli/suite_parse.c): the input is a
 * .suite file, read and checked as `ulpbench suite` does before it runs
 * anything (the run lines through the command's option parser, the ops
 * from the shipped catalog).  The shipped catalog is parsed once, not
 * for every input (that parse was most of each execution): each suite
 * starts with it in its cache of catalogs, as a suite that has read one
 * run line does, and gives it back before it is freed. */
#include "fuzz.h"
#include "setup.h"
#include "suite.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ub_suite_catalog shipped;
	static int have = -1;
	struct ub_error err;
	if (have < 0) { /* the key suite_parse.c gives a run without --catalog
			   and --fpcore */
		struct ub_cli none;
		memset(&none, 0, sizeof none);
		have = (shipped.key = strdup("\n")) &&
		       ub_load_catalogs(&none, &shipped.cat, &err) == 0;
	}
	const char *path = fuzz_file("in.suite", data, size);
	if (!path)
		return 0;
	struct ub_suite s = {0};
	if (have && (s.cats = malloc(sizeof *s.cats))) {
		s.cats[0] = shipped;
		s.ncats = 1;
	}
	ub_suite_load(&s, path, &err);
	if (s.ncats > 0) { /* the shipped one, first: not freed */
		memmove(s.cats, s.cats + 1, (size_t)(s.ncats - 1) * sizeof *s.cats);
		s.ncats--;
	}
	ub_suite_free(&s);
	return 0;
}
