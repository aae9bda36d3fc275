/* fuzz_json.c — JSON reports as `ulpbench compare` reads them
 * (src/report/json_read.c): the input is the file's bytes, parsed, and
 * its runs' rows walked as compare walks them. */
#include "fuzz.h"
#include "json_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ub_jval root;
	struct ub_error err;
	if (ub_json_parse((const char *)data, size, "in.json", &root, &err))
		return 0;
	const struct ub_jval *runs = ub_json_get(&root, "runs");
	for (size_t r = 0; runs && runs->kind == UB_JARR && r < runs->n; r++) {
		const struct ub_jval *rows = ub_json_get(&runs->v[r], "rows");
		for (size_t i = 0; rows && rows->kind == UB_JARR && i < rows->n; i++)
			(void)ub_json_get(&rows->v[i], "mode");
	}
	ub_json_free(&root);
	return 0;
}
