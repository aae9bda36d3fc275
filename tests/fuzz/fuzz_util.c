/* fuzz_util.c — the helpers of fuzz.h. */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[4096];
static char path[4200];

char *fuzz_text(const uint8_t *data, size_t size)
{
	char *t = malloc(size + 1);
	if (t) {
		memcpy(t, data, size);
		t[size] = 0;
	}
	return t;
}

/* Removes the files fuzz_file wrote (one name at a time: the last path),
 * then the directory. */
static void cleanup(void)
{
	if (path[0])
		unlink(path);
	rmdir(dir);
}

const char *fuzz_file(const char *name, const uint8_t *data, size_t size)
{
	if (!dir[0]) {
		const char *t = getenv("TMPDIR");
		snprintf(dir, sizeof dir, "%s/ubfuzz.XXXXXX", t && *t ? t : "/tmp");
		if (!mkdtemp(dir)) {
			dir[0] = 0;
			return NULL;
		}
		atexit(cleanup);
	}
	if (path[0])
		unlink(path);
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	if (!f)
		return NULL;
	int ok = fwrite(data, 1, size, f) == size;
	ok = fclose(f) == 0 && ok;
	return ok ? path : NULL;
}
