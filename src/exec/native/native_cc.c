/* native_cc.c — builds, caches and loads the native code of a module
 * (native.h).
 *
 * Build: the unit (native_gen.c) goes to the host C compiler configure
 * found (UB_NATIVE_CC; $ULPBENCH_CC overrides it) with
 *   -std=gnu11 -O2 -ffp-contract=off -fno-fast-math -fPIC -shared -w -s
 * and -mfma where the CPU has FMA (checked at run time): no contraction
 * of a*b+c, no fast-math, so every operation is the IEEE one the
 * interpreter performs (fmaf stays the exact fused operation: with -mfma
 * the compiler emits the FMA instruction for it, without it calls libm's
 * fmaf).  -s leaves out the symbol table (dlsym reads the dynamic one),
 * and with it the name of the temporary source file, which holds the
 * process id and a counter: the same unit gives the same bytes in any
 * process.  Symbols the code calls (ptx_cvt, ptx_f32_approx, ...) resolve
 * to ulpbench's own, which it exports (-rdynamic).
 *
 * Cache: beside the PTX cache (nvrtc_cache.h), one file DIR/KEY.so per
 * module: the shared object, then a trailer line
 * "ulpbench-so 2 KEY LENGTH SUM\n" (LENGTH the object's bytes, SUM the
 * checksum (hash.h) of the key and those bytes).  KEY hashes the compiler
 * command and version, the flags and ulpbench's version, and what the
 * unit's C text is made from: the digest of the module's PTX text, whether
 * the measured models are in use (the parse marks the instructions they
 * model), and the digest of the library's sources under src/exec and
 * src/util (made at build time with the prelude: the parser, the
 * translator and the prelude's headers, so a change of any is a new key; two builds of
 * the same sources, such as the sanitizers' and the plain one, share the
 * objects).  A found object is then loaded without translating the
 * module (most of the cost of looking it up before).  A module not parsed
 * from text is keyed by its unit's C text (which holds the prelude,
 * entering through its own digest, computed once per process), translated
 * first.  As for PTX entries, nothing is trusted: only a regular file is
 * read, whole, and one whose trailer, key or checksum is wrong is a miss,
 * built again and replaced (a temporary file renamed over it).  The
 * verified bytes, not the file, are what is loaded: they are copied into
 * an anonymous memory file (memfd_create) that dlopen maps, so the file
 * changing after the check cannot change what runs.  Temporary files are
 * registered with tmpfiles.h, removed on a signal. */
#define _GNU_SOURCE   /* memfd_create */
#include "config.h"
#include "native.h"
#include "nvrtc_cache.h"
#include "ptx_native.h"
#include "hash.h"
#include "mufu.h"
#include "spawn.h"
#include "tmpfiles.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>


#define TRAILER_LEN 97   /* "ulpbench-so 2 " 32 " " 16 " " 32 "\n" */

static const char *compiler(void)
{
	const char *cc = getenv("ULPBENCH_CC");
	return cc && cc[0] ? cc : UB_NATIVE_CC;
}

static const char *flags(void)
{
#if defined(__x86_64__) || defined(__i386__)
	if (__builtin_cpu_supports("fma"))
		return "-std=gnu11 -O2 -ffp-contract=off -fno-fast-math -fPIC -shared -w -s -mfma";
#endif
	return "-std=gnu11 -O2 -ffp-contract=off -fno-fast-math -fPIC -shared -w -s";
}

/* The prelude's own digest, once per process (it is 90 KB of every
 * unit: hashed for each, it was most of the time of looking a kernel's
 * object up). */
static uint64_t prelude_h[2] = UB_HASH0;
static size_t prelude_len;
static pthread_once_t prelude_once = PTHREAD_ONCE_INIT;

static void prelude_digest(void)
{
	prelude_len = strlen(ub_native_prelude);
	ub_hash_bytes(prelude_h, ub_native_prelude, prelude_len);
}

/* The key's fields besides the code: compiler, its version, flags,
 * ulpbench's version; into h. */
static void key_tail(uint64_t h[2])
{
	const char *f[] = { compiler(), UB_NATIVE_CC_VERSION, flags(), PACKAGE_VERSION };
	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
		ub_hash_str(h, f[i]);
}

/* The entry's name from the unit's C text: the hex of the key's two
 * lanes.  A unit that starts with the prelude (every one) is hashed as
 * the prelude's digest, then the rest of its text. */
static void key_of(const char *unit, char *hex)
{
	uint64_t h[2] = UB_HASH0;
	pthread_once(&prelude_once, prelude_digest);
	ub_hash_str(h, "ulpbench-native-unit 2");
	if (!strncmp(unit, ub_native_prelude, prelude_len)) {
		ub_hash_str(h, "prelude");
		ub_hash_bytes(h, prelude_h, sizeof prelude_h);
		unit += prelude_len;
	}
	ub_hash_str(h, unit);
	key_tail(h);
	ub_hash_hex(h, hex);
}

/* The entry's name of m without its translation (see the top): 0 when
 * m's text is unknown (a module not parsed from text). */
static int src_key(const struct ptx_module *m, char *hex)
{
	uint64_t h[2] = UB_HASH0;
	if (!(m->text_key[0] | m->text_key[1]))
		return 0;
	ub_hash_str(h, "ulpbench-native-ptx 1");
	ub_hash_str(h, ub_native_sources);
	ub_hash_bytes(h, m->text_key, sizeof m->text_key);
	ub_hash_str(h, ub_mufu_ready() ? "measured models" : "documented models");
	key_tail(h);
	ub_hash_hex(h, hex);
	return 1;
}

static void sum_of(const char *key, const char *obj, size_t n, char *hex)
{
	uint64_t h[2] = UB_HASH0;
	ub_hash_str(h, key);
	ub_hash_bytes(h, obj, n);
	ub_hash_hex(h, hex);
}

static void trailer(const char *key, const char *obj, size_t n, char *t)
{
	char sum[33];
	sum_of(key, obj, n, sum);
	snprintf(t, TRAILER_LEN + 1, "ulpbench-so 2 %s %016zx %s\n", key, n, sum);
}

/* The object's length in a cache entry of len bytes, or 0 with why. */
static size_t check_entry(const char *buf, size_t len, const char *key,
			  const char **why)
{
	char want[TRAILER_LEN + 1];
	size_t n = len - TRAILER_LEN;
	if (len <= TRAILER_LEN || buf[len - 1] != '\n') {
		*why = "no ulpbench-so trailer";
		return 0;
	}
	trailer(key, buf, n, want);
	if (memcmp(buf + n, want, TRAILER_LEN)) {
		*why = memcmp(buf + n, want, 14 + 32) ? "made for another key"
						      : "checksum mismatch";
		return 0;
	}
	return n;
}

/* A file holding the n bytes at obj that nobody else can change: an
 * anonymous memory file, or (without memfd_create) a fresh temporary of
 * ours (0600, O_EXCL) under $TMPDIR; its path into path, its descriptor
 * (to close after dlopen) or -1. */
static int private_copy(const char *obj, size_t n, char *path, size_t len,
			int *slot)
{
	*slot = -1;
#ifdef HAVE_MEMFD_CREATE
	int fd = memfd_create("ulpbench-native", MFD_CLOEXEC);
	if (fd >= 0)
		snprintf(path, len, "/proc/self/fd/%d", fd);
#else
	const char *t = getenv("TMPDIR");
	char base[4096];
	snprintf(base, sizeof base, "%s/ulpbench-native.so", t && t[0] == '/' ? t : "/tmp");
	int fd = ub_tmp_create(base, path, len, slot);
#endif
	if (fd >= 0 && ub_cache_write_all(fd, obj, n)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* A loaded object: dlopen's handle, and the descriptor of its private
 * copy, kept open while it is loaded: dlopen takes a name it has loaded
 * before for that object again, so no two loaded objects may share a
 * /proc/self/fd/N name. */
struct lib {
	void *h;
	int fd;
};

/* dlopen of the n bytes at obj, through a private copy (see above). */
static int load(const char *obj, size_t n, struct lib *lib, struct ub_error *err)
{
	char path[4200];
	int slot, fd = private_copy(obj, n, path, sizeof path, &slot);
	if (fd < 0) {
		ub_tmp_discard(slot);
		return ub_fail(err, UB_RUNTIME, "cannot copy the native code: %s",
			       strerror(errno));
	}
	lib->h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	lib->fd = fd;
	ub_tmp_discard(slot);
	if (!lib->h) {
		close(fd);
		return ub_fail(err, UB_RUNTIME, "dlopen: %s", dlerror());
	}
	return 0;
}

static void unload(struct lib *lib)
{
	if (lib) {
		dlclose(lib->h);
		close(lib->fd);
		free(lib);
	}
}

/* Splits cmd at blanks into argv (at most max - 1 words, NULL after);
 * several threads build at once (ub_native_use_all). */
static int split(char *cmd, char **argv, int max)
{
	int n = 0;
	char *sv;
	for (char *p = strtok_r(cmd, " \t", &sv); p && n < max - 1; p = strtok_r(NULL, " \t", &sv))
		argv[n++] = p;
	argv[n] = NULL;
	return n;
}

/* The first line of the file at path, into buf ("" when none). */
static void first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	buf[0] = '\0';
	if (f) {
		if (fgets(buf, (int)len, f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
}

/* Runs the compiler on src into out, its stderr into errf; 0 or UB_RUNTIME. */
static int run_cc(const char *src, const char *out, const char *errf,
		  struct ub_error *err)
{
	char cmd[4096], *argv[96];
	int words = snprintf(cmd, sizeof cmd, "%s %s", compiler(), flags()) >= (int)sizeof cmd
		    ? 0 : split(cmd, argv, 90);
	if (!words)
		return ub_fail(err, UB_RUNTIME, "no C compiler command");
	const char *tail[] = { "-o", out, "-x", "c", src };
	for (int i = 0; i < 5; i++)
		argv[words++] = (char *)tail[i];
	argv[words] = NULL;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, errf, O_WRONLY | O_TRUNC, 0);
	struct ub_child child; /* its own TMPDIR: a signal leaves no file of it */
	int rc = ub_child_start(&child, argv, &fa), st = 0;
	posix_spawn_file_actions_destroy(&fa);
	if (rc)
		return ub_fail(err, UB_RUNTIME, "no C compiler '%s' (%s)", argv[0], strerror(rc));
	st = ub_child_wait(&child);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	char line[200];
	first_line(errf, line, sizeof line);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		return ub_fail(err, UB_RUNTIME, "no C compiler '%s'", argv[0]);
	return ub_fail(err, UB_RUNTIME, "%s failed (%s %d)%s%s", argv[0],
		       WIFEXITED(st) ? "exit" : "signal",
		       WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st),
		       line[0] ? ": " : "", line);
}

/* A registered temporary "BASE.EXT.tmpPID.N", its name in tmp. */
static int temp(const char *base, const char *ext, char *tmp, size_t len,
		int *slot)
{
	char b[4200];
	if (snprintf(b, sizeof b, "%s.%s", base, ext) >= (int)sizeof b)
		return errno = ENAMETOOLONG, -1;
	int fd = ub_tmp_create(b, tmp, len, slot);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

/* Compiles unit into a new object (malloc'd, *n bytes); entry, when not
 * NULL, is the cache entry to store it under (key its name). */
static char *build(const char *unit, const char *base, const char *entry,
		   const char *key, size_t *n, struct ub_error *err)
{
	char src[4300], obj[4300], errf[4300];
	int ss = -1, so = -1, se = -1, fd;
	char *bytes = NULL;
	const char *why;
	if (temp(base, "c", src, sizeof src, &ss) || temp(base, "so", obj, sizeof obj, &so) ||
	    temp(base, "err", errf, sizeof errf, &se)) {
		ub_fail(err, UB_RUNTIME, "cannot create a temporary file beside %s: %s",
			base, strerror(errno));
		goto out;
	}
	if ((fd = open(src, O_WRONLY | O_TRUNC | O_CLOEXEC)) < 0 ||
	    ub_cache_write_all(fd, unit, strlen(unit)) || close(fd)) {
		ub_fail(err, UB_RUNTIME, "%s: %s", src, strerror(errno));
		goto out;
	}
	if (run_cc(src, obj, errf, err))
		goto out;
	if (!(bytes = ub_cache_slurp(obj, n, &why))) {
		ub_fail(err, UB_RUNTIME, "%s: %s", obj, why ? why : "missing");
		goto out;
	}
	char t[TRAILER_LEN + 1];
	trailer(key, bytes, *n, t);
	if (entry && (fd = open(obj, O_WRONLY | O_APPEND | O_CLOEXEC)) >= 0) {
		int ok = ub_cache_write_all(fd, t, TRAILER_LEN) == 0;
		if (close(fd) == 0 && ok && rename(obj, entry) == 0)
			ub_tmp_forget(so), so = -1;   /* whole, or not at all */
	}
out:
	ub_tmp_discard(ss);
	ub_tmp_discard(so);
	ub_tmp_discard(se);
	return bytes;
}

/* The loaded object's kernels into m, checked against this build's
 * layout; 0 or UB_RUNTIME. */
static int bind(struct ptx_module *m, void *h, const unsigned char *which,
		struct ub_error *err)
{
	static const size_t sizes[] = PTX_NATIVE_SIZES;
	const char *abi = dlsym(h, "ub_native_abi");
	const size_t *sz = dlsym(h, "ub_native_sizes");
	const int *nf = dlsym(h, "ub_native_nfuncs");
	const ptx_native_fn *fn = dlsym(h, "ub_native_kernels");
	if (!abi || !sz || !nf || !fn || strcmp(abi, PTX_NATIVE_ABI) ||
	    memcmp(sz, sizes, sizeof sizes) || *nf != m->nfuncs)
		return ub_fail(err, UB_RUNTIME, "the native code does not match "
			       "this ulpbench");
	if (!(m->native = calloc((size_t)m->nfuncs, sizeof *m->native)))
		return ub_fail(err, UB_RUNTIME, "out of memory");
	for (int k = 0; k < m->nfuncs; k++)
		m->native[k] = which[k] ? fn[k] : NULL;
	return 0;
}

static void release(struct ptx_module *m)
{
	free(m->native);
	m->native = NULL;
	unload(m->native_lib);
	m->native_lib = NULL;
}

/* m's C unit (malloc'd), or NULL with err set; which[k] as
 * ub_native_translate sets it (the caller's, already so). */
static char *translate(const struct ptx_module *m, unsigned char *which,
		       struct ub_error *err)
{
	char *unit = NULL;
	int s = ub_native_translate(m, &unit, which);
	if (s || !unit) {
		free(unit);
		ub_fail(err, UB_RUNTIME, s ? "out of memory" : "no kernel to translate");
		return NULL;
	}
	return unit;
}

/* The object of m, whose translatable kernels which[] marks: from the
 * cache, or translated and built (and cached). */
static char *object(const struct ptx_module *m, unsigned char *which, size_t *n,
		    struct ub_error *err)
{
	char key[33], dir[3900], entry[4000], base[4096];
	const char *why = NULL;
	char *unit = NULL, *bytes;
	if (!src_key(m, key)) {
		if (!(unit = translate(m, which, err)))
			return NULL;
		key_of(unit, key);
	}
	int cached = ub_cache_dir(dir, sizeof dir) && ub_cache_mkdir(dir) == 0;
	if (cached) {
		snprintf(entry, sizeof entry, "%s/%s.so", dir, key);
		size_t len;
		char *buf = ub_cache_slurp(entry, &len, &why);
		if (buf && (*n = check_entry(buf, len, key, &why)) != 0) {
			free(unit);
			return buf;
		}
		free(buf);
		snprintf(base, sizeof base, "%s/%s", dir, key);
	} else {
		const char *t = getenv("TMPDIR");
		snprintf(base, sizeof base, "%s/ulpbench-%s", t && t[0] == '/' ? t : "/tmp", key);
	}
	if (!unit && !(unit = translate(m, which, err)))
		return NULL;
	bytes = build(unit, base, cached ? entry : NULL, key, n, err);
	free(unit);
	return bytes;
}

int ub_native_attach(struct ptx_module *m, struct ub_error *err)
{
	unsigned char *which = calloc((size_t)m->nfuncs + 1, 1);
	char *obj = NULL;
	size_t n = 0;
	int any = 0, s;
	if (!which)
		return ub_fail(err, UB_RUNTIME, "out of memory");
	for (int k = 0; k < m->nfuncs; k++)   /* what ub_native_translate takes */
		any |= which[k] = (unsigned char)ub_native_eligible(&m->funcs[k]);
	if (!any) {
		free(which);
		return 0;
	}
	struct lib *lib = calloc(1, sizeof *lib);
	s = !lib ? ub_fail(err, UB_RUNTIME, "out of memory")
	    : !(obj = object(m, which, &n, err)) ? UB_RUNTIME : load(obj, n, lib, err);
	if (!s && (s = bind(m, lib->h, which, err)) != 0)
		unload(lib);
	else if (s)
		free(lib);
	if (!s) {
		m->native_lib = lib;
		m->native_release = release;
	}
	free(obj);
	free(which);
	return s;
}
