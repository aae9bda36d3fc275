/* nvrtc_cache.c — NVRTC's PTX cached on disk (nvrtc_cache.h).
 *
 * Key: two 64-bit FNV-1a hashes (different offsets) over the source, its
 * name, the options, the architecture, the NVRTC version, the include
 * directories and the text of the kernels' ulpbench.h.  Entry: a file
 * DIR/HEX32.ptx holding a header line "ulpbench-ptx 2 HEX32 LENGTH SUM32"
 * then the PTX, SUM a checksum of the key and the PTX.  Nothing in an
 * entry is trusted: only a regular file is read (opened O_NONBLOCK and
 * O_NOFOLLOW, then fstat'd, so a FIFO cannot block), and one that does not
 * read back whole, with its own key and checksum, is a miss: compiled
 * again and replaced.  Writes go to a fresh temporary file in DIR
 * (ub_tmp_create: O_EXCL, removed on a signal) renamed over the entry, so
 * a reader sees either the old entry or a whole new one, even with runs
 * in parallel. */
#include "nvrtc_cache.h"
#include "paths.h"
#include "tmpfiles.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int hits, misses;
static FILE *notices; /* ub_cache_notices */

struct key {
	uint64_t h[2];
};

/* The two FNV-1a lanes of the keys and checksums over n bytes, h the
 * running state (start: UB_CACHE_HASH0). */
#define UB_CACHE_HASH0 { UINT64_C(0xcbf29ce484222325), UINT64_C(0x84222325cbf29ce4) }

static void ub_cache_hash_lanes(uint64_t h[2], const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h0 = h[0], h1 = h[1];   /* two independent chains, one pass */
	for (size_t i = 0; i < n; i++) {
		h0 = (h0 ^ s[i]) * UINT64_C(0x100000001b3);
		h1 = (h1 ^ s[i]) * UINT64_C(0x100000001b3);
	}
	h[0] = h0;
	h[1] = h1;
}

static void mix(struct key *k, const char *s)
{
	ub_cache_hash_lanes(k->h, s, strlen(s) + 1); /* the NUL separates the fields */
}

int ub_cache_dir(char *buf, size_t len)
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

int ub_cache_mkdir(char *dir)
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
	return ub_cache_path_ext(in, ".ptx", path, len);
}

void ub_cache_hash(const char *data, size_t n, char hex[33])
{
	struct key k = {UB_CACHE_HASH0};
	ub_cache_hash_lanes(k.h, data, n);
	snprintf(hex, 33, "%016" PRIx64 "%016" PRIx64, k.h[0], k.h[1]);
}

int ub_cache_path_ext(const struct ub_cache_key *in, const char *ext,
		      char *path, size_t len)
{
	char dir[3800], hdr[4096] = "";
	struct key k = {UB_CACHE_HASH0};
	if (!ub_cache_dir(dir, sizeof dir))
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
	return snprintf(path, len, "%s/%016" PRIx64 "%016" PRIx64 "%s", dir,
			k.h[0], k.h[1], ext) < (int)len;
}

/* The entry's name (its key) as written in its header. */
static const char *base(const char *path)
{
	const char *b = strrchr(path, '/');
	return b ? b + 1 : path;
}

/* The entry's checksum: the key's two FNV-1a lanes over the key it was
 * made for (its name) and its PTX.  FNV-1a multiplies by an odd number
 * after each byte, a bijection modulo 2^64, so any change of one byte
 * changes both lanes; wider damage (div.rn -> mul.rn changes three bytes)
 * goes unseen only by a chance agreement of both 64-bit lanes.  It guards
 * against damage, not an attacker (FNV is no cryptographic hash): the
 * directory is the user's own (0700). */
static struct key checksum(const char *name, const char *ptx, size_t n)
{
	struct key k = {UB_CACHE_HASH0};
	mix(&k, name);
	for (int j = 0; j < 2; j++)
		for (size_t i = 0; i < n; i++) {
			k.h[j] ^= (unsigned char)ptx[i];
			k.h[j] *= UINT64_C(0x100000001b3);
		}
	return k;
}

char *ub_cache_slurp(const char *path, size_t *len, const char **why)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	char *buf = NULL;
	*why = NULL;
	if (fd < 0) {
		if (errno != ENOENT)
			*why = errno == ELOOP ? "a symbolic link" : strerror(errno);
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode))
		*why = "not a regular file";
	else if (st.st_size >= (off_t)1 << 30)
		*why = "too large";
	else if (!(buf = malloc((size_t)st.st_size + 1)))
		*why = "out of memory";
	size_t got = 0;
	while (buf && !*why && got < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
		if (r <= 0 && !(r < 0 && errno == EINTR))
			*why = r < 0 ? strerror(errno) : "shorter than its size";
		got += r > 0 ? (size_t)r : 0;
	}
	close(fd);
	if (*why) {
		free(buf);
		return NULL;
	}
	buf[got] = '\0';
	*len = got;
	return buf;
}

/* The PTX of the entry in buf (moved to its start), or why it is not one:
 * "ulpbench-ptx 2 KEY LENGTH SUM\n" then LENGTH bytes of PTX, nothing
 * more; KEY the file's own name, SUM its checksum. */
static const char *check_entry(char *buf, size_t len, const char *path)
{
	char name[33], sum[33], want[33];
	size_t n = 0;
	int pos = 0;
	if (sscanf(buf, "ulpbench-ptx 2 %32[0-9a-f] %zu %32[0-9a-f]%n", name, &n,
		   sum, &pos) != 3 || buf[pos] != '\n')
		return "no ulpbench-ptx 2 header";
	if (strlen(name) != 32 || strncmp(name, base(path), 32))
		return "made for another key";
	if (n != len - (size_t)pos - 1)
		return "length differs from its header";
	const char *ptx = buf + pos + 1;
	struct key k = checksum(name, ptx, n);
	snprintf(want, sizeof want, "%016" PRIx64 "%016" PRIx64, k.h[0], k.h[1]);
	if (strcmp(sum, want))
		return "checksum mismatch";
	if (memchr(ptx, 0, n))
		return "holds a NUL byte";
	memmove(buf, ptx, n + 1);
	return NULL;
}

char *ub_cache_peek(const char *path)
{
	size_t len = 0;
	const char *why;
	char *buf = ub_cache_slurp(path, &len, &why);
	if (buf && !check_entry(buf, len, path))
		return buf;
	free(buf);
	return NULL;
}

char *ub_cache_get(const char *path)
{
	size_t len = 0;
	const char *why;
	char *buf = ub_cache_slurp(path, &len, &why);
	if (buf && !(why = check_entry(buf, len, path))) {
		hits++;
		return buf;
	}
	free(buf);
	if (why && notices) /* discarded: compiled again, and rewritten */
		fprintf(notices, "ulpbench: compile cache: %s: %s; compiling "
			"again\n", path, why);
	misses++;
	return NULL;
}

int ub_cache_write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

void ub_cache_put(const char *path, const char *ptx)
{
	char dir[4096], tmp[4200], head[128];
	snprintf(dir, sizeof dir, "%s", path);
	*strrchr(dir, '/') = 0;
	if (ub_cache_mkdir(dir))
		return; /* no cache, no error */
	/* a fresh name of our own (O_EXCL), removed on a signal (tmpfiles.h) */
	int slot, fd = ub_tmp_create(path, tmp, sizeof tmp, &slot);
	if (fd < 0) {
		ub_tmp_discard(slot);
		return;
	}
	char name[33];
	size_t n = strlen(ptx);
	snprintf(name, sizeof name, "%s", base(path)); /* the key, no .ptx */
	struct key k = checksum(name, ptx, n);
	int hl = snprintf(head, sizeof head, "ulpbench-ptx 2 %s %zu %016" PRIx64
			  "%016" PRIx64 "\n", name, n, k.h[0], k.h[1]);
	int ok = ub_cache_write_all(fd, head, (size_t)hl) == 0 && ub_cache_write_all(fd, ptx, n) == 0;
	ok = close(fd) == 0 && ok;
	if (ok && rename(tmp, path) == 0) /* whole, or not at all */
		ub_tmp_forget(slot);
	else
		ub_tmp_discard(slot);
}

void ub_cache_notices(FILE *f)
{
	notices = f;
}

void ub_cache_counts(int *h, int *m)
{
	*h = hits;
	*m = misses;
}

void ub_cache_recount(int h0, int m0, int hit)
{
	hits = h0 + (hit != 0);
	misses = m0 + (hit == 0);
}
