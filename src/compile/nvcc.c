/* nvcc.c — compile a translation unit with the toolkit's nvcc (nvcc.h).
 *
 * nvcc runs as a child process (spawn.h: no shell) with its output and
 * error streams read whole, with -lineinfo (the PTX's .loc lines give
 * the simulator's messages their source lines; the code is the same);
 * the unit's text, the
 * PTX (or CUBIN) and the dependency list (-MD -MF) are temporary files
 * registered with tmpfiles.h, so a signal removes them.  nvcc -x cu
 * compiles the text as CUDA whatever its file name.
 *
 * The cache (nvrtc_cache.h) holds two entries per compilation: KEY.dep,
 * the files the compilation read with a hash of each ("HASH PATH" lines;
 * the unit's own text is in KEY), and the PTX under a key that adds those
 * hashes.  A lookup reads KEY.dep, hashes each file again and finds the
 * PTX only when every one is unchanged; a missing or changed file is a
 * miss, and compiling again rewrites both entries. */
#include "nvcc.h"
#include "host_aside.h"
#include "modes.h"
#include "nvrtc.h"
#include "nvrtc_cache.h"
#include "paths.h"
#include "spawn.h"
#include "tmpfiles.h"
#include "toolkit.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_ARGV (UB_NVCC_MAX_FLAGS + 32)

const char *ub_nvcc_path_tk(const struct ub_toolkit *tk)
{
	static char buf[UB_TK_MAX][4200];
	const char *env = getenv("ULPBENCH_NVCC");
	if (env && env[0] && tk->slot == 0)
		return env;
	if (tk->nvcc[0])
		return tk->nvcc;
	if (!buf[tk->slot][0])   /* once: ub_nvcc_warm's threads only read it */
		snprintf(buf[tk->slot], sizeof buf[0], "%s/bin/nvcc", tk->dir);
	return buf[tk->slot];
}

const char *ub_nvcc_path(void)
{
	return ub_nvcc_path_tk(ub_toolkit_default());
}

int ub_nvcc_has(const struct ub_toolkit *tk)
{
	const char *env = getenv("ULPBENCH_NVCC");
	return tk->nvcc[0] || (env && env[0] && tk->slot == 0) ||
	       access(ub_nvcc_path_tk(tk), X_OK) == 0;
}

const char *ub_nvcc_version(struct ub_error *err)
{
	return ub_nvcc_version_tk(ub_toolkit_default(), err);
}

const char *ub_nvcc_version_tk(const struct ub_toolkit *tk, struct ub_error *err)
{
	static char lines[UB_TK_MAX][256];
	char *line = lines[tk->slot];
	if (line[0])
		return line;
	char *argv[] = { (char *)ub_nvcc_path_tk(tk), (char *)"--version", NULL }, *out;
	int status, s = ub_spawn(argv, &out, &status, err);
	if (s)
		return NULL;
	const char *rel = strstr(out, "release ");
	if (status || !rel) {
		ub_fail(err, UB_COMPILE, "%s --version failed: %.200s", argv[0], out);
		free(out);
		return NULL;
	}
	snprintf(line, sizeof lines[0], "%.*s", (int)strcspn(rel, "\n"), rel);
	free(out);
	return line;
}

/* A temporary file of our own beside /tmp/ulpbench-nvcc (or $TMPDIR):
 * its name into path; the slot to forget or discard. */
static int tmp_file(const char *what, char *path, size_t len, int *slot)
{
	char base[4096];
	const char *dir = getenv("TMPDIR");
	snprintf(base, sizeof base, "%s/ulpbench-nvcc-%s", dir && dir[0] ? dir : "/tmp", what);
	int fd = ub_tmp_create(base, path, len, slot);
	if (fd >= 0)
		close(fd);
	return fd < 0 ? -1 : 0;
}

/* Writes text to path. */
static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	int ok = fputs(text, f) >= 0;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/* Reads path whole (binary): *data malloc'd with a NUL after *n bytes. */
static int read_all(const char *path, char **data, size_t *n)
{
	FILE *f = fopen(path, "rb");
	*data = NULL;
	*n = 0;
	if (!f)
		return -1;
	size_t cap = 65536;
	char *buf = malloc(cap);
	for (size_t r; buf && (r = fread(buf + *n, 1, cap - *n - 1, f)) > 0;) {
		*n += r;
		if (*n + 1 == cap) {
			char *nb = realloc(buf, cap *= 2);
			if (!nb)
				free(buf);
			buf = nb;
		}
	}
	int bad = ferror(f) || !buf;
	fclose(f);
	if (bad) {
		free(buf);
		return -1;
	}
	buf[*n] = '\0';
	*data = buf;
	return 0;
}

/* In the log, every mention of the unit's temporary file and of the
 * user's absolute path becomes the file as given. */
static void rename_paths(char *log, const char *from, const char *to)
{
	size_t fl = strlen(from), tl = strlen(to);
	if (!fl || tl > fl)
		return;
	for (char *p = strstr(log, from); p; p = strstr(p + tl, from)) {
		memcpy(p, to, tl);
		memmove(p + tl, p + fl, strlen(p + fl) + 1);
	}
}

struct outputs {
	char unit[4200], obj[4200], deps[4200];
	int slot[3];
};

static void outputs_discard(struct outputs *o)
{
	for (int i = 0; i < 3; i++)
		ub_tmp_discard(o->slot[i]);
}

/* The argument vector of one compilation into argv (pointers into the
 * options' copy `buf`). */
static int make_argv(const struct ub_toolkit *tk, const struct ub_nvcc_unit *u,
		     const char *opts,
		     const char *arch, int cubin, struct outputs *o,
		     char *buf, size_t len, char **argv, char inc[3][4200],
		     struct ub_error *err)
{
	char kdir[4096], *archopt = inc[2];
	int n = 0;
	if (ub_data_path("kernels", kdir, sizeof kdir, err))
		return UB_USAGE;
	snprintf(inc[0], sizeof inc[0], "-I%s", kdir);
	snprintf(inc[1], sizeof inc[1], "-I%s", INCLUDEDIR);
	snprintf(archopt, sizeof inc[2], "-arch=%s", arch);
	argv[n++] = (char *)ub_nvcc_path_tk(tk);
	if (cubin == UB_NVCC_SHARED) {   /* host code too: a --launcher's */
		argv[n++] = (char *)"-shared";
		argv[n++] = (char *)"-Xcompiler";
		argv[n++] = (char *)"-fPIC";
		argv[n++] = (char *)"-cudart";
		argv[n++] = (char *)"none";
	} else {
		argv[n++] = (char *)(cubin ? "-cubin" : "-ptx");
	}
	argv[n++] = (char *)"-x";
	argv[n++] = (char *)"cu";
	argv[n++] = archopt;
	argv[n++] = (char *)"-lineinfo";   /* .loc: source lines in messages */
	snprintf(buf, len, "%s", ub_mode_nvcc_opts(opts) ? ub_mode_nvcc_opts(opts) : opts);
	for (char *save, *t = strtok_r(buf, " ", &save); t && n < MAX_ARGV - 16;
	     t = strtok_r(NULL, " ", &save))
		argv[n++] = t;
	for (int i = 0; i < u->nflags && n < MAX_ARGV - 12; i++)
		argv[n++] = (char *)u->flags[i];
	argv[n++] = inc[0];   /* ulpbench.h: after the user's own -I */
	argv[n++] = inc[1];
	argv[n++] = (char *)"-MD";
	argv[n++] = (char *)"-MF";
	argv[n++] = o->deps;
	argv[n++] = (char *)"-o";
	argv[n++] = o->obj;
	argv[n++] = o->unit;
	argv[n] = NULL;
	return 0;
}

/* Runs nvcc over u into o->obj; the failure's message as nvcc gave it. */
static int run_nvcc(const struct ub_toolkit *tk, const struct ub_nvcc_unit *u,
		    const char *opts,
		    const char *arch, int cubin, struct outputs *o,
		    struct ub_error *err)
{
	char buf[1024], inc[3][4200], *argv[MAX_ARGV], *log = NULL;
	int status = 0;
	int s = make_argv(tk, u, opts, arch, cubin, o, buf, sizeof buf, argv, inc, err);
	if (!s && write_text(o->unit, u->text))
		s = ub_fail(err, UB_COMPILE, "%s: cannot write %s: %s", u->file,
			    o->unit, strerror(errno));
	if (!s && (s = ub_spawn(argv, &log, &status, err)) != 0)
		ub_prefix(err, s, "%s: ", u->file);
	if (!s && status) {
		char head[800];
		rename_paths(log, u->abspath, u->file);
		rename_paths(log, o->unit, u->file);
		ub_compile_log_head(log, head, sizeof head, 3);
		s = ub_fail(err, UB_COMPILE, "%s: compile failed (%s): %s", u->file,
			    opts[0] ? opts : "default flags", head);
	}
	free(log);
	return s;
}

/* The files of a make rule "target: dep dep \ ..." (spaces in names
 * escaped "\ "), but the unit itself, as a manifest: "HASH PATH\n" per
 * file, malloc'd.  NULL when out of memory or a file cannot be read. */
static char *manifest(const char *deps, const char *unit)
{
	const char *p = strchr(deps, ':');
	char *m = NULL, name[4096];
	size_t ml = 0;
	FILE *f = open_memstream(&m, &ml);
	int bad = !p || !f;
	for (p = p ? p + 1 : deps; !bad && *p;) {
		size_t n = 0;
		while (*p == ' ' || *p == '\t' || *p == '\n' || (*p == '\\' && p[1] == '\n'))
			p += *p == '\\' ? 2 : 1;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n' && n + 1 < sizeof name) {
			if (*p == '\\' && (p[1] == ' ' || p[1] == '#'))
				p++;
			name[n++] = *p++;
		}
		name[n] = '\0';
		if (!n || !strcmp(name, unit) || !strcmp(name, UB_NVCC_UNIT_LINES))
			continue;
		char *data, hex[33];
		size_t dn;
		if (read_all(name, &data, &dn)) {
			bad = 1;
			break;
		}
		ub_cache_hash(data, dn, hex);
		free(data);
		fprintf(f, "%s %s\n", hex, name);
	}
	if (f)
		fclose(f);
	if (bad) {
		free(m);
		return NULL;
	}
	return m;
}

/* Whether every file of the manifest m still hashes as it did. */
static int manifest_holds(const char *m)
{
	for (const char *p = m; *p;) {
		const char *nl = strchr(p, '\n');
		char path[4096], hex[33], *data;
		size_t n, l = nl ? (size_t)(nl - p) : strlen(p);
		if (l < 34 || l - 33 >= sizeof path || p[32] != ' ')
			return 0;
		memcpy(path, p + 33, l - 33);
		path[l - 33] = '\0';
		if (read_all(path, &data, &n))
			return 0;
		ub_cache_hash(data, n, hex);
		free(data);
		if (strncmp(hex, p, 32))
			return 0;
		p += l + (nl != NULL);
	}
	return 1;
}

/* The cache entries of u: .dep under key, and the PTX under key plus the
 * manifest m (NULL: not known yet; then only dep). */
static int entry_paths(const struct ub_cache_key *key, const char *m,
		       char *dep, char *ptx, size_t len)
{
	struct ub_cache_key k2 = *key;
	if (!ub_cache_path_ext(key, ".dep", dep, len))
		return 0;
	if (!m)
		return 1;
	size_t n = strlen(key->includes) + strlen(m) + 2;
	char *inc = malloc(n);
	if (!inc)
		return 0;
	snprintf(inc, n, "%s\n%s", key->includes, m);
	k2.includes = inc;
	int ok = ub_cache_path(&k2, ptx, len);
	free(inc);
	return ok;
}

/* The cached PTX of key, if every file it was made from is unchanged;
 * one hit or one miss in the cache's counts (a changed file: a miss). */
static char *cache_lookup(const struct ub_cache_key *key)
{
	char dep[4096], ptx[4096], *m, *out = NULL;
	int h0, m0;
	ub_cache_counts(&h0, &m0);
	if (entry_paths(key, NULL, dep, ptx, sizeof dep) && (m = ub_cache_get(dep))) {
		if (manifest_holds(m) && entry_paths(key, m, dep, ptx, sizeof dep))
			out = ub_cache_get(ptx);
		free(m);
	}
	ub_cache_recount(h0, m0, out != NULL);
	return out;
}

static void cache_store(const struct ub_cache_key *key, const char *deps,
			const char *unit, const char *ptxtext)
{
	char dep[4096], ptx[4096], *m = manifest(deps, unit);
	if (m && entry_paths(key, m, dep, ptx, sizeof dep)) {
		ub_cache_put(ptx, ptxtext);
		ub_cache_put(dep, m);   /* last: names a PTX entry that exists */
	}
	free(m);
}

int ub_nvcc_compile(const struct ub_nvcc_unit *u, const char *opts,
		    const char *arch, int cubin, char **out, size_t *size,
		    struct ub_error *err)
{
	return ub_nvcc_compile_tk(ub_toolkit_default(), u, opts, arch, cubin, out,
				  size, err);
}

/* u under a toolkit without nvcc: NVRTC over the file with its host code
 * set aside (host_aside.h), then the rest of the unit (its first line
 * #includes the file), with the unit's -I and -D, in nvcc's default
 * dialect (-std=c++17), unannotated functions (the probe's, a header's
 * inline helpers) on the device (-default-device).  The unit's
 * ULPBENCH_PROBE(EXPR) becomes ULPBENCH_PROBE_RTC (the parameters only:
 * NVRTC takes no kernel's address in a device variable's initializer) and
 * EXPR a name expression, which instantiates the kernel; its entry is
 * written into the PTX as a comment that reads as nvcc's variable,
 * "// ulpbench_entry = NAME;" (kernel_find.c reads it).  Not cached: the
 * headers the file includes are not tracked as nvcc's -MD tracks them. */
static int nvrtc_unit(const struct ub_toolkit *tk, const struct ub_nvcc_unit *u,
		      const char *opts, const char *arch, int cubin, char **out,
		      size_t *size, struct ub_error *err)
{
	static const char probe[] = "ULPBENCH_PROBE(";
	char *file = NULL, *aside = NULL, *src = NULL, all[8192], expr[2048] = "&",
	     low[1024] = "";
	const char *rest = strchr(u->text, '\n'), *pr = strstr(u->text, probe);
	int s = read_all(u->abspath, &file, size) ? ub_fail(err, UB_USAGE, "%s: cannot "
			 "read: %s", u->file, strerror(errno)) : 0;
	size_t el = pr ? strcspn(pr + sizeof probe - 1, "\n") : 0;
	*size = 0;
	if (pr && el >= 2 && !strncmp(pr + sizeof probe - 1 + el - 2, ");", 2))
		snprintf(expr, sizeof expr, "%.*s", (int)(el - 2), pr + sizeof probe - 1);
	char dir[4096];
	snprintf(dir, sizeof dir, "%.*s", (int)(strrchr(u->abspath, '/') - u->abspath),
		 u->abspath);
	if (!s && (!(aside = ub_host_aside(file, u->file, dir)) ||
		   !(src = malloc(strlen(aside) + strlen(u->text) + 16))))
		s = ub_fail(err, UB_RUNTIME, "out of memory");
	if (!s) {   /* the file's device code, then the unit's other lines */
		sprintf(src, "%s\n%.*s", aside, pr && rest ? (int)(pr - rest - 1) : rest ?
			(int)strlen(rest + 1) : 0, rest ? rest + 1 : "");
		if (pr)
			sprintf(src + strlen(src), "ULPBENCH_PROBE_RTC(%s", pr + sizeof probe - 1);
	}
	snprintf(all, sizeof all, "-std=c++17 -default-device%s%s", opts[0] ? " " : "", opts);
	for (int i = 0; i < u->nflags; i++)
		snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s",
			 all[0] ? " " : "", u->flags[i]);
	if (!s)
		s = ub_nvrtc_compile_expr(tk, src, u->file, all, arch, cubin,
					  pr ? expr : NULL, low, sizeof low, out, size, err);
	if (!s && !cubin && pr) {
		size_t n = strlen(*out);
		char *p = realloc(*out, n + strlen(low) + 32);
		if (!p)
			s = ub_fail(err, UB_RUNTIME, "out of memory");
		else
			sprintf((*out = p) + n, "\n// ulpbench_entry = %s;\n", low);
	}
	free(file);
	free(aside);
	free(src);
	return s;
}

int ub_nvcc_compile_tk(const struct ub_toolkit *tk, const struct ub_nvcc_unit *u,
		       const char *opts, const char *arch, int cubin, char **out,
		       size_t *size, struct ub_error *err)
{
	if (!ub_nvcc_has(tk))
		return nvrtc_unit(tk, u, opts, arch, cubin, out, size, err);
	struct outputs o = { .slot = { -1, -1, -1 } };
	char flags[8192] = "-lineinfo\n", version[400];   /* make_argv's: in the key */
	const char *line = ub_nvcc_version_tk(tk, err);
	*out = NULL;
	*size = 0;
	if (!line)
		return ub_prefix(err, UB_COMPILE, "%s: --kernel files compile with "
				 "the CUDA toolkit's nvcc (configure --with-cuda=DIR, "
				 "or set ULPBENCH_NVCC): ", u->file);
	for (int i = 0; i < u->nflags; i++)
		snprintf(flags + strlen(flags), sizeof flags - strlen(flags), "%s\n",
			 u->flags[i]);
	/* its identity: the release and its NVRTC's digest (toolkit.h) */
	snprintf(version, sizeof version, "%s %s", line, ub_toolkit_id(tk));
	struct ub_cache_key key = { u->text, u->file, opts, arch, version, flags };
	if (!cubin && (*out = cache_lookup(&key)) != NULL)
		return 0;
	int s = 0;
	if (tmp_file("unit", o.unit, sizeof o.unit, &o.slot[0]) ||
	    tmp_file("out", o.obj, sizeof o.obj, &o.slot[1]) ||
	    tmp_file("deps", o.deps, sizeof o.deps, &o.slot[2]))
		s = ub_fail(err, UB_COMPILE, "%s: cannot make a temporary file: %s",
			    u->file, strerror(errno));
	if (!s)
		s = run_nvcc(tk, u, opts, arch, cubin, &o, err);
	if (!s && read_all(o.obj, out, size))
		s = ub_fail(err, UB_COMPILE, "%s: nvcc wrote no output", u->file);
	if (!s && !cubin) {
		char *deps;
		size_t dn;
		*size = 0;
		if (!read_all(o.deps, &deps, &dn)) {
			cache_store(&key, deps, o.unit, *out);
			free(deps);
		}
	}
	outputs_discard(&o);
	return s;
}

/* The compiles of ub_nvcc_warm: the next to start, how many are done,
 * whether to start no more. */
struct warm {
	const struct ub_nvcc_unit *u;
	const char *const *opts;
	const char *arch;
	int n, next, done, stop;
	pthread_mutex_t mu;
};

static void *warm_worker(void *arg)
{
	struct warm *w = arg;
	for (;;) {
		pthread_mutex_lock(&w->mu);
		int i = w->stop || w->next == w->n ? -1 : w->next++;
		pthread_mutex_unlock(&w->mu);
		if (i < 0)
			return NULL;
		char *out = NULL, what[300];
		size_t size;
		struct ub_error e;
		int s = ub_nvcc_compile(w->u, w->opts[i], w->arch, 0, &out, &size, &e);
		free(out);
		pthread_mutex_lock(&w->mu);
		w->done++;
		w->stop |= s && i == 0;
		snprintf(what, sizeof what, "%s: %s compiled", w->u->file,
			 w->opts[i][0] ? w->opts[i] : "default flags");
		if (w->u->progress)
			w->u->progress(w->u->progress_ctx, w->done, w->n, 0, what);
		pthread_mutex_unlock(&w->mu);
	}
}

void ub_nvcc_warm(const struct ub_nvcc_unit *u, const char *const *opts, int n,
		  const char *arch)
{
	struct warm w = { .u = u, .opts = opts, .arch = arch, .n = n };
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int nt = cpus < 1 ? 1 : cpus < n ? (int)cpus : n, started = 0;
	pthread_t th[64];
	if (!ub_nvcc_version(NULL))   /* set before the threads read it */
		return;
	pthread_mutex_init(&w.mu, NULL);
	for (int t = 0; t < nt && t < 64; t++)
		started += pthread_create(&th[started], NULL, warm_worker, &w) == 0;
	if (!started)
		warm_worker(&w);
	for (int t = 0; t < started; t++)
		pthread_join(th[t], NULL);
	pthread_mutex_destroy(&w.mu);
}
