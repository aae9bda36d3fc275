/* fuzz_aside.c — a kernel file's text as a toolkit without nvcc reads it
 * (src/compile/host_aside.c: its host code set aside, its "" headers
 * inlined from the harness's own directory, which holds the input as
 * in.h too), and the two halves of the input as two PTX texts compared
 * (src/compile/ptx_diff.c). */
#include "fuzz.h"
#include "host_aside.h"
#include "ptx_diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file("in.h", data, size);
	char *text = fuzz_text(data, size), *dir = NULL, out[256];
	if (!path || !text)
		goto done;
	if ((dir = strdup(path)) != NULL && strrchr(dir, '/'))
		*strrchr(dir, '/') = '\0';
	free(dir ? ub_host_aside(text, "in.cu", dir) : NULL);
	size_t half = strlen(text) / 2;
	char *b = strdup(text + half);
	text[half] = '\0';
	if (b) {
		ub_ptx_first_diff(text, b, out, sizeof out);
		FILE *f = fopen("/dev/null", "w");
		if (f) {
			ub_ptx_diff_print(f, text, b, "  ", 8);
			fclose(f);
		}
	}
	free(b);
done:
	free(dir);
	free(text);
	return 0;
}
