/* fuzz_cache.c — a compile-cache entry (src/compile/nvrtc_cache.c): the
 * input is the file DIR/KEY.ptx; an entry that reads back is PTX and goes
 * to the parser, as a cache hit does. */
#include "fuzz.h"
#include "nvrtc_cache.h"
#include "ptx.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file("0123456789abcdef0123456789abcdef.ptx", data, size);
	char *ptx = path ? ub_cache_get(path) : NULL;
	struct ptx_module *m;
	struct ub_error err;
	if (ptx && ptx_parse(ptx, &m, &err) == 0)
		ptx_free(m);
	free(ptx);
	return 0;
}
