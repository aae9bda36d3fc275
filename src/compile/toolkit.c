/* toolkit.c — finding CUDA toolkits in installs and in Python wheels
 * (toolkit.h). */
#include "config.h"
#include "toolkit.h"
#include "hash.h"
#include "nvrtc_cache.h"
#include "paths.h"

#include <glob.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The wheels that install a release, pinned: X(release, pip
 * requirements).  13.x: NVRTC with nvcc, its NVVM (cicc, libdevice) and
 * headers; 11.x and 12.x: NVRTC and the runtime's headers (their nvcc
 * wheels hold no nvcc driver). */
#define UB_TK_WHEELS(X)                                                      \
	X("11.8", "nvidia-cuda-nvrtc-cu11==11.8.89 nvidia-cuda-runtime-cu11==11.8.89") \
	X("12.6", "nvidia-cuda-nvrtc-cu12==12.6.85 nvidia-cuda-runtime-cu12==12.6.77") \
	X("12.8", "nvidia-cuda-nvrtc-cu12==12.8.93 nvidia-cuda-runtime-cu12==12.8.90") \
	X("12.9", "nvidia-cuda-nvrtc-cu12==12.9.86 nvidia-cuda-runtime-cu12==12.9.79") \
	X("13.0", "nvidia-cuda-nvrtc==13.0.88 nvidia-cuda-runtime==13.0.96 "     \
	  "nvidia-cuda-nvcc==13.0.88 nvidia-nvvm==13.0.88 nvidia-cuda-crt==13.0.88 " \
	  "nvidia-cuda-cccl==13.0.85")                                        \
	X("13.5", "nvidia-cuda-nvrtc==13.5.37 nvidia-cuda-runtime==13.5.37 "     \
	  "nvidia-cuda-nvcc==13.5.37 nvidia-nvvm==13.5.37 nvidia-cuda-crt==13.5.37")

static const struct { const char *name, *reqs; } wheels[] = {
#define X(name, reqs) {name, reqs},
	UB_TK_WHEELS(X)
#undef X
};
#define NWHEELS (int)(sizeof wheels / sizeof wheels[0])

static int is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* The first path matching pattern into out (sorted order); 0 if none. */
static int first_match(const char *pattern, char *out, size_t len)
{
	glob_t g;
	int ok = glob(pattern, 0, NULL, &g) == 0 && g.gl_pathc > 0;
	if (ok)
		snprintf(out, len, "%s", g.gl_pathv[0]);
	globfree(&g);
	return ok;
}

/* NVRTC in lib: libnvrtc.so, else libnvrtc.so.N (a wheel's only name),
 * and its builtins, whose name gives the release. */
static int find_nvrtc(const char *lib, struct ub_toolkit *tk)
{
	char p[4200];
	snprintf(p, sizeof p, "%s/libnvrtc.so", lib);
	if (!is_file(p)) {
		snprintf(p, sizeof p, "%s/libnvrtc.so.[0-9]*", lib);
		if (!first_match(p, p, sizeof p))
			return -1;
	}
	snprintf(tk->nvrtc, sizeof tk->nvrtc, "%.4095s", p);
	snprintf(p, sizeof p, "%s/libnvrtc-builtins.so.[0-9]*.[0-9]*", lib);
	tk->builtins[0] = tk->name[0] = '\0';
	if (first_match(p, tk->builtins, sizeof tk->builtins)) {
		const char *v = strstr(tk->builtins, ".so.") + 4;
		int major, minor, n = 0;
		if (sscanf(v, "%d.%d%n", &major, &minor, &n) == 2 && !v[n])
			snprintf(tk->name, sizeof tk->name, "%d.%d", major, minor);
	}
	return tk->name[0] ? 0 : -1;
}

static void add_inc(struct ub_toolkit *tk, const char *dir, const char *sub)
{
	char p[4200];
	snprintf(p, sizeof p, "%s%s", dir, sub);
	if (tk->ninc < UB_TK_MAX_INC && is_dir(p))
		snprintf(tk->inc[tk->ninc++], sizeof tk->inc[0], "%.4095s", p);
}

/* path into out if it is an executable file, else "". */
static void tool(char *out, size_t len, const char *dir, const char *name)
{
	snprintf(out, len, "%s/%s", dir, name);
	if (access(out, X_OK) != 0 || !is_file(out))
		out[0] = '\0';
}

/* The wheel NVRTC of release name came from, by its .dist-info in the
 * site-packages sp: "nvidia-cuda-nvrtc-cu12 12.9.86". */
static void wheel_of(const char *sp, struct ub_toolkit *tk)
{
	char pat[4200], p[4200];
	snprintf(pat, sizeof pat, "%s/nvidia_cuda_nvrtc*-%s.*.dist-info", sp, tk->name);
	if (!first_match(pat, p, sizeof p))
		return;
	char *b = strrchr(p, '/') + 1, *dash;
	*strstr(b, ".dist-info") = '\0';
	if (!(dash = strrchr(b, '-')))
		return;
	*dash = '\0';
	for (char *c = b; *c; c++)
		*c = *c == '_' ? '-' : *c;
	snprintf(tk->wheel, sizeof tk->wheel, "%s %s", b, dash + 1);
}

/* dir as a toolkit root (lib64/ or lib/, include/, bin/). */
static int probe_root(const char *dir, struct ub_toolkit *tk)
{
	char lib[4200];
	snprintf(lib, sizeof lib, "%s/lib64", dir);
	if (find_nvrtc(lib, tk)) {
		snprintf(lib, sizeof lib, "%s/lib", dir);
		if (find_nvrtc(lib, tk))
			return -1;
	}
	snprintf(tk->dir, sizeof tk->dir, "%s", dir);
	add_inc(tk, dir, "/include");
	snprintf(lib, sizeof lib, "%s/bin", dir);
	tool(tk->nvcc, sizeof tk->nvcc, lib, "nvcc");
	tool(tk->ptxas, sizeof tk->ptxas, lib, "ptxas");
	tool(tk->cufilt, sizeof tk->cufilt, lib, "cu++filt");
	return 0;
}

/* dir as the nvidia/ folder of 11.x/12.x wheels. */
static int probe_wheels(const char *dir, struct ub_toolkit *tk)
{
	char p[4200];
	snprintf(p, sizeof p, "%s/cuda_nvrtc/lib", dir);
	if (find_nvrtc(p, tk))
		return -1;
	snprintf(tk->dir, sizeof tk->dir, "%s", dir);
	add_inc(tk, dir, "/cuda_nvrtc/include");
	add_inc(tk, dir, "/cuda_runtime/include");
	add_inc(tk, dir, "/cuda_cccl/include");
	snprintf(p, sizeof p, "%s/cuda_nvcc/bin", dir);
	tool(tk->nvcc, sizeof tk->nvcc, p, "nvcc");
	tool(tk->ptxas, sizeof tk->ptxas, p, "ptxas");
	snprintf(p, sizeof p, "%s/cuda_cuxxfilt/bin", dir);
	tool(tk->cufilt, sizeof tk->cufilt, p, "cu++filt");
	snprintf(p, sizeof p, "%s/..", dir);
	wheel_of(p, tk);
	return 0;
}

/* Every toolkit dir holds (at most max into out), the way toolkit.h
 * says; folder: also each subdirectory (a search place). */
static int probe_all(const char *dir, struct ub_toolkit *out, int max, int folder)
{
	char p[4200];
	int n = 0;
	if (max < 1 || !is_dir(dir))
		return 0;
	memset(&out[0], 0, sizeof out[0]);
	if (probe_root(dir, &out[0]) == 0 || probe_wheels(dir, &out[0]) == 0)
		return 1;
	snprintf(p, sizeof p, "%s/nvidia", dir);
	if (is_dir(p)) {   /* a site-packages: 13.x, then 11.x/12.x */
		snprintf(p, sizeof p, "%s/nvidia/cu13", dir);
		memset(&out[n], 0, sizeof out[n]);
		if (probe_root(p, &out[n]) == 0)
			wheel_of(dir, &out[n++]);
		snprintf(p, sizeof p, "%s/nvidia", dir);
		memset(&out[n], 0, sizeof out[n]);
		if (n < max && probe_wheels(p, &out[n]) == 0)
			n++;
		return n;
	}
	glob_t g;
	snprintf(p, sizeof p, "%s/lib/python3*/site-packages", dir);
	if (glob(p, 0, NULL, &g) == 0)   /* a prefix or a venv */
		for (size_t i = 0; i < g.gl_pathc && n < max; i++)
			n += probe_all(g.gl_pathv[i], out + n, max - n, 0);
	globfree(&g);
	snprintf(p, sizeof p, "%s/*/", dir);
	if (n == 0 && folder && glob(p, 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc && n < max; i++) {
			g.gl_pathv[i][strlen(g.gl_pathv[i]) - 1] = '\0';
			n += probe_all(g.gl_pathv[i], out + n, max - n, 0);
		}
		globfree(&g);
	}
	return n;
}

int ub_toolkit_probe(const char *dir, struct ub_toolkit *tk)
{
	struct ub_toolkit all[4];
	if (probe_all(dir, all, 4, 0) < 1)
		return -1;
	*tk = all[0];
	return 0;
}

/* The process's toolkits: reg[0] the default, then those found or
 * given. */
static struct ub_toolkit reg[UB_TK_MAX];
static int nreg, scanned;

static void canon(char *p, size_t len)
{
	char r[PATH_MAX];
	if (realpath(p, r))
		snprintf(p, len, "%s", r);
}

const struct ub_toolkit *ub_toolkit_default(void)
{
	if (nreg)
		return &reg[0];
	struct ub_toolkit *tk = &reg[nreg++];
	const char *env = getenv("ULPBENCH_CUDA");
	char prefix[4096];
	if (env && env[0] && ub_toolkit_probe(env, tk) == 0) {
		tk->origin = "$ULPBENCH_CUDA";
	} else if (access(UB_NVRTC_LIB, F_OK) != 0 &&
		   ub_program_prefix(prefix, sizeof prefix) &&
		   ub_toolkit_probe(prefix, tk) == 0) {
		/* configure's is gone (a wheel built in a build environment):
		 * the toolkit installed beside the program, in its prefix's
		 * site-packages (the wheel's dependencies) */
		tk->origin = "beside the program";
	} else {
		/* configure's: its NVRTC as the link check found it */
		if (ub_toolkit_probe(CUDA_HOME, tk) != 0) {
			memset(tk, 0, sizeof *tk);
			snprintf(tk->dir, sizeof tk->dir, "%s", CUDA_HOME);
			snprintf(tk->name, sizeof tk->name, "default");
			snprintf(tk->inc[tk->ninc++], sizeof tk->inc[0], "%s/include", CUDA_HOME);
		}
		snprintf(tk->nvrtc, sizeof tk->nvrtc, "%s", UB_NVRTC_LIB);
		tk->origin = env && env[0] ? "configured ($ULPBENCH_CUDA holds none)"
					   : "configured";
	}
	tk->slot = 0;
	return tk;
}

/* tk as a registered toolkit (the same library as one already known is
 * that one); NULL when the registry is full. */
static const struct ub_toolkit *enrol(struct ub_toolkit *tk, const char *origin)
{
	char a[PATH_MAX], b[PATH_MAX];
	ub_toolkit_default();
	snprintf(a, sizeof a, "%s", tk->nvrtc);
	canon(a, sizeof a);
	for (int i = 0; i < nreg; i++) {
		snprintf(b, sizeof b, "%s", reg[i].nvrtc);
		canon(b, sizeof b);
		if (!strcmp(a, b))
			return &reg[i];
	}
	if (nreg == UB_TK_MAX)
		return NULL;
	tk->origin = tk->wheel[0] ? "wheel" : origin;
	tk->slot = nreg;
	reg[nreg] = *tk;
	return &reg[nreg++];
}

/* One search place (see toolkit.h): what it holds, registered. */
static void scan_place(const char *dir, int folder)
{
	struct ub_toolkit t[8];
	int n = probe_all(dir, t, 8, folder);
	for (int i = 0; i < n; i++)
		enrol(&t[i], "directory");
}

static void scan_glob(const char *pattern, int folder)
{
	glob_t g;
	if (glob(pattern, 0, NULL, &g) == 0)
		for (size_t i = 0; i < g.gl_pathc; i++)
			scan_place(g.gl_pathv[i], folder);
	globfree(&g);
}

static void scan(void)
{
	char p[4200];
	const char *e;
	if (scanned++)
		return;
	ub_toolkit_default();
	if ((e = getenv("ULPBENCH_TOOLKITS")) != NULL)
		for (const char *s = e; *s;) {
			size_t l = strcspn(s, ":");
			snprintf(p, sizeof p, "%.*s", (int)l, s);
			if (l)
				scan_place(p, 1);
			s += l + (s[l] == ':');
		}
	if ((e = getenv("VIRTUAL_ENV")) != NULL && e[0])
		scan_place(e, 0);
	if ((e = getenv("CONDA_PREFIX")) != NULL && e[0])
		scan_place(e, 0);
	scan_place(ub_toolkit_home(NULL, p, sizeof p), 1);
	snprintf(p, sizeof p, "%s/.toolkits", SRCDIR);
	scan_place(p, 1);
	scan_glob("/usr/local/cuda-*", 0);
	scan_place("/usr/local/cuda", 0);
	if ((e = getenv("HOME")) != NULL && e[0]) {
		snprintf(p, sizeof p, "%s/.local/lib/python3*/site-packages", e);
		scan_glob(p, 0);
	}
	scan_glob("/usr/local/lib/python3*/dist-packages", 0);
	scan_place("/usr/lib/python3/dist-packages", 0);
}

int ub_toolkit_scan(const struct ub_toolkit **all, int max)
{
	int n = 0;
	scan();
	for (int i = 0; i < nreg && n < max; i++)
		all[n++] = &reg[i];
	return n;
}

const char *ub_toolkit_home(const char *name, char *buf, size_t len)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	if (xdg && xdg[0] == '/')
		snprintf(buf, len, "%s/ulpbench/toolkits", xdg);
	else
		snprintf(buf, len, "%s/.local/share/ulpbench/toolkits",
			 home && home[0] ? home : "");
	if (name)
		snprintf(buf + strlen(buf), len - strlen(buf), "/%s", name);
	return buf;
}

const char *ub_toolkit_pip_line(const char *name, const char *dir, char *buf,
				size_t len)
{
	for (int i = 0; i < NWHEELS; i++)
		if (!strcmp(wheels[i].name, name)) {
			snprintf(buf, len, "python3 -m pip install --target %s %s", dir,
				 wheels[i].reqs);
			return buf;
		}
	return NULL;
}

const char *ub_toolkit_pip_names(char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < NWHEELS && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
					 wheels[i].name);
	return buf;
}

/* spec as a release: "12.9" equal, or "12" the major of exactly one. */
static const struct ub_toolkit *by_name(const char *spec, int *several)
{
	const struct ub_toolkit *hit = NULL;
	size_t l = strlen(spec);
	*several = 0;
	for (int i = 0; i < nreg; i++)
		if (!strcmp(reg[i].name, spec))
			return &reg[i];
	for (int i = 0; i < nreg; i++)
		if (!strchr(spec, '.') && !strncmp(reg[i].name, spec, l) &&
		    reg[i].name[l] == '.') {
			if (hit && strcmp(hit->name, reg[i].name))
				*several = 1;
			if (!hit)
				hit = &reg[i];
		}
	return *several ? NULL : hit;
}

int ub_toolkit_resolve(const char *spec, const struct ub_toolkit **tk,
		       struct ub_error *err)
{
	struct ub_toolkit t;
	char found[600] = "", pip[1200], home[4200];
	int several;
	if (!strcmp(spec, "default")) {
		*tk = ub_toolkit_default();
		return 0;
	}
	if (strchr(spec, '/')) {
		if (ub_toolkit_probe(spec, &t) != 0)
			return ub_fail(err, UB_USAGE, "%s: no CUDA toolkit there "
				       "(no libnvrtc.so in lib64/, lib/, cuda_nvrtc/lib/, "
				       "nvidia/cu13/lib/ or a site-packages under it)", spec);
		*tk = enrol(&t, "directory");
		return *tk ? 0 : ub_fail(err, UB_USAGE, "%s: more than %d toolkits",
					 spec, UB_TK_MAX);
	}
	scan();
	if ((*tk = by_name(spec, &several)) != NULL)
		return 0;
	for (int i = 0; i < nreg; i++)
		snprintf(found + strlen(found), sizeof found - strlen(found), "%s%.23s",
			 i ? ", " : "", reg[i].name);
	if (several)
		return ub_fail(err, UB_USAGE, "toolkit %s: several releases match "
			       "(found: %s); name one", spec, found);
	if (ub_toolkit_pip_line(spec, ub_toolkit_home(spec, home, sizeof home), pip,
				sizeof pip))
		return ub_fail(err, UB_USAGE, "toolkit %s not found (found: %s); "
			       "install it with: %s", spec, found, pip);
	return ub_fail(err, UB_USAGE, "toolkit %s not found (found: %s; pinned "
		       "wheels known for %s; or give the toolkit's directory)", spec,
		       found, ub_toolkit_pip_names(pip, sizeof pip));
}

/* The identity of the files: path, device, inode, size, time. */
static int file_id(const char *path, char *out, size_t len)
{
	struct stat st;
	if (!path[0] || stat(path, &st) != 0)
		return snprintf(out, len, "%s -", path), -1;
	snprintf(out, len, "%s %ju %ju %jd %jd.%09ld", path, (uintmax_t)st.st_dev,
		 (uintmax_t)st.st_ino, (intmax_t)st.st_size,
		 (intmax_t)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
	return 0;
}

/* The digest of the files' bytes, continued into h. */
static int digest_file(const char *path, uint64_t h[2])
{
	FILE *f = fopen(path, "rb");
	char *buf = malloc(1 << 20);
	size_t n;
	while (f && buf && (n = fread(buf, 1, 1 << 20, f)) > 0)
		ub_hash_bytes(h, buf, n);
	int bad = !f || !buf || ferror(f);
	if (f)
		fclose(f);
	free(buf);
	return bad ? -1 : 0;
}

const char *ub_toolkit_id(const struct ub_toolkit *tk)
{
	static char ids[UB_TK_MAX][64];
	char *id = ids[tk->slot], fid[9000], a[4400], b[4400], path[4200];
	if (id[0])
		return id;
	int ok = file_id(tk->nvrtc, a, sizeof a) == 0;
	file_id(tk->builtins, b, sizeof b);
	snprintf(fid, sizeof fid, "%s\n%s", a, b);
	struct ub_cache_key key = { "toolkit", fid, "", "", "", "" };
	int cached = ok && ub_cache_path_ext(&key, ".digest", path, sizeof path);
	char *v = cached ? ub_cache_peek(path) : NULL;
	if (v && strlen(v) < sizeof ids[0] && strchr(v, ' ')) {
		snprintf(id, sizeof ids[0], "%s", v);
		free(v);
		return id;
	}
	free(v);
	uint64_t h[2] = UB_HASH0;
	char hex[33];
	if (!ok || digest_file(tk->nvrtc, h) || (tk->builtins[0] && digest_file(tk->builtins, h)))
		return snprintf(id, sizeof ids[0], "%s unknown", tk->name), id;
	ub_hash_hex(h, hex);
	snprintf(id, sizeof ids[0], "%s %s", tk->name, hex);
	if (cached)
		ub_cache_put(path, id);
	return id;
}
