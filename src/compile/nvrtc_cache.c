/* nvrtc_cache.c — NVRTC's PTX cached on disk (nvrtc_cache.h).
 *
 * Key: two 64-bit FNV-1a hashes (different offsets) over the source, its
 * name, the options, the architecture, the NVRTC version, the include
 * directories and the text of the kernels' ulpbench.h.  Entry: a file
 * DIR/HEX32.ptx holding a header line "ulpbench-ptx HEX32 LENGTH" then the
 * PTX; an entry that does not read back whole with its own key is a miss.
 * Writes go to a temporary file in DIR renamed over the entry, so a reader
 * sees either nothing or a whole entry, even with runs in parallel. */
#include "nvrtc_cache.h"
#include "paths.h"
#include "tmpfiles.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int hits, misses;

struct key {
	uint64_t h[2];
};

static void mix(struct key *k, const char *s)
{
	size_t n = strlen(s) + 1; /* the NUL separates the fields */
	for (int j = 0; j < 2; j++)
		for (size_t i = 0; i < n; i++) {
			k->h[j] ^= (unsigned char)s[i];
			k->h[j] *= UINT64_C(0x100000001b3);
		}
}

/* The cache directory into buf; 0 when the cache is off or unknown. */
static int cache_dir(char *buf, size_t len)
{
	const char *off = getenv("ULPBENCH_CACHE");
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	if (off && (!strcmp(off, "0") || !strcmp(off, "off")))
		return 0;
	if (xdg && xdg[0] == '/')
		return snprintf(buf, len, "%s/ulpbench", xdg) < (int)len;
	if (home && home[0])
		return snprintf(buf, len, "%s/.cache/ulpbench", home) < (int)len;
	return 0;
}

/* mkdir -p of dir (which ends in .../ulpbench). */
static int make_dirs(char *dir)
{
	for (char *p = dir + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			int r = mkdir(dir, 0700);
			*p = '/';
			if (r && errno != EEXIST)
				return -1;
		}
	return mkdir(dir, 0700) && errno != EEXIST ? -1 : 0;
}

int ub_cache_path(const struct ub_cache_key *in, char *path, size_t len)
{
	char dir[3800], hdr[4096] = "";
	struct key k = {{UINT64_C(0xcbf29ce484222325), UINT64_C(0x84222325cbf29ce4)}};
	if (!cache_dir(dir, sizeof dir))
		return 0;
	char *h = NULL;
	struct ub_error e;
	if (!ub_data_path("kernels/ulpbench.h", hdr, sizeof hdr, &e))
		ub_read_file(hdr, &h, &e);
	const char *f[] = {in->src, in->name, in->opts, in->arch, in->version,
			   in->includes, h ? h : ""};
	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
		mix(&k, f[i] ? f[i] : "");
	free(h);
	return snprintf(path, len, "%s/%016" PRIx64 "%016" PRIx64 ".ptx", dir,
			k.h[0], k.h[1]) < (int)len;
}

/* The entry's name (its key) as written in its header. */
static const char *base(const char *path)
{
	const char *b = strrchr(path, '/');
	return b ? b + 1 : path;
}

char *ub_cache_get(const char *path)
{
	FILE *f = fopen(path, "rb");
	char name[64];
	size_t n = 0;
	char *ptx = NULL;
	if (f && fscanf(f, "ulpbench-ptx %63s %zu", name, &n) == 2 &&
	    fgetc(f) == '\n' && !strncmp(name, base(path), 32) && n < (1u << 30) &&
	    (ptx = malloc(n + 1)) && fread(ptx, 1, n, f) == n && fgetc(f) == EOF) {
		ptx[n] = 0;
		fclose(f);
		hits++;
		return ptx;
	}
	free(ptx);
	if (f)
		fclose(f);
	misses++;
	return NULL;
}

void ub_cache_put(const char *path, const char *ptx)
{
	char dir[4096], tmp[4200];
	snprintf(dir, sizeof dir, "%s", path);
	*strrchr(dir, '/') = 0;
	if (make_dirs(dir))
		return; /* no cache, no error */
	int slot, fd = ub_tmp_create(path, tmp, sizeof tmp, &slot);
	FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
	if (!f) {
		if (fd >= 0)
			close(fd);
		ub_tmp_discard(slot);
		return;
	}
	size_t n = strlen(ptx);
	int ok = fprintf(f, "ulpbench-ptx %.32s %zu\n", base(path), n) > 0 &&
		 fwrite(ptx, 1, n, f) == n;
	ok = fclose(f) == 0 && ok;
	if (ok && rename(tmp, path) == 0)
		ub_tmp_forget(slot);
	else
		ub_tmp_discard(slot);
}

void ub_cache_counts(int *h, int *m)
{
	*h = hits;
	*m = misses;
}
