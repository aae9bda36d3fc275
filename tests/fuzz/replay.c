/* replay.c — runs a fuzz harness over files, without libFuzzer: each
 * argument is a file, or a directory whose files are taken in name order,
 * each handed once to LLVMFuzzerTestOneInput.  make check replays the seed
 * corpus and every regression input this way (tests/fuzz.test), under the
 * build's own compiler and, with --enable-sanitizers, ASan and UBSan.
 * Prints the number of inputs replayed; exit 2 when a file cannot be
 * read. */
#include "fuzz.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "replay: %s: cannot open\n", path);
		return -1;
	}
	size_t cap = 4096, n = 0, r;
	uint8_t *buf = malloc(cap);
	while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0)
		if ((n += r) == cap) {
			uint8_t *b = realloc(buf, cap *= 2);
			if (!b)
				free(buf);
			buf = b;
		}
	int bad = !buf || ferror(f);
	fclose(f);
	if (bad) {
		fprintf(stderr, "replay: %s: cannot read\n", path);
		free(buf);
		return -1;
	}
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of dir, in name order; the number replayed or -1. */
static int replay_dir(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "replay: %s: cannot open\n", dir);
		return -1;
	}
	char **names = NULL;
	int n = 0, done = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		char **nn = realloc(names, (size_t)(n + 1) * sizeof *names);
		if (!nn || !(nn[n] = strdup(e->d_name))) {
			names = nn ? nn : names;
			done = -1;
			break;
		}
		names = nn;
		n++;
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof *names, by_name);
	for (int i = 0; i < n; i++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		if (done >= 0)
			done = replay_file(path) ? -1 : done + 1;
		free(names[i]);
	}
	free(names);
	return done;
}

int main(int argc, char **argv)
{
	int total = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		int n = stat(argv[i], &st) ? -1 : S_ISDIR(st.st_mode) ? replay_dir(argv[i])
			: replay_file(argv[i]) ? -1 : 1;
		if (n < 0)
			return 2;
		total += n;
	}
	printf("%d inputs replayed\n", total);
	return 0;
}
