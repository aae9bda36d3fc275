/* why_copy.c — a changed copy of a kernel's source, compiled as the run
 * compiled the original: NVRTC takes the text itself (under the kernel's
 * name); a --kernel file that nvcc compiles is written to a temporary
 * file (registered, so that a signal removes it; removed after the
 * compile) that the run's unit #includes in the original's place, with
 * the original's directory on the include path so that its own ""
 * headers are found.  The user's file is never written. */
#include "why_internal.h"
#include "tmpfiles.h"
#include "triton.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* s as a C string literal's contents into out (cap bytes); -1 when it
 * does not fit. */
static int c_escape(const char *s, char *out, size_t cap)
{
	size_t n = 0;
	for (; *s; s++) {
		if (n + 3 > cap)
			return -1;
		if (*s == '"' || *s == '\\')
			out[n++] = '\\';
		out[n++] = *s;
	}
	out[n] = '\0';
	return 0;
}

/* The run's unit with the copy at path in place of the original. */
static int unit_for(const struct ub_nvcc_unit *u, const char *path, char *dirflag,
		    struct ub_nvcc_unit *out, char **text, struct ub_error *err)
{
	char from[4200], to[4200];
	const char *at;
	if (c_escape(u->abspath, from, sizeof from) || c_escape(path, to, sizeof to) ||
	    !(at = strstr(u->text, from)) || u->nflags >= UB_NVCC_MAX_FLAGS)
		return ub_fail(err, UB_RUNTIME, "%s: cannot compile a copy", u->file);
	size_t pre = (size_t)(at - u->text);
	if (!(*text = malloc(strlen(u->text) + strlen(to) + 1)))
		return ub_fail(err, UB_RUNTIME, "out of memory");
	memcpy(*text, u->text, pre);
	strcpy(*text + pre, to);
	strcat(*text, at + strlen(from));
	*out = *u;
	out->text = *text;
	const char *slash = strrchr(u->abspath, '/');
	snprintf(dirflag, 4200, "-I%.*s", slash ? (int)(slash - u->abspath) : 1,
		 slash ? u->abspath : ".");
	out->flags[out->nflags++] = dirflag;
	return 0;
}

/* text written whole to a new file `name` (O_EXCL), registered (slot)
 * so that a signal removes it. */
static int write_new(const char *name, const char *text, int *slot,
		     struct ub_error *err)
{
	size_t n = strlen(text), done = 0;
	int fd = -1;
	if ((*slot = ub_tmp_track(name)) < 0 ||
	    (fd = open(name, O_WRONLY | O_CREAT | O_EXCL, 0666)) < 0) {
		int e = errno;
		ub_tmp_forget(*slot);
		*slot = -1;
		return ub_fail(err, UB_IO, "%s: cannot create: %s", name, strerror(e));
	}
	while (done < n) {
		ssize_t w = write(fd, text + done, n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		done += (size_t)w;
	}
	if (close(fd) || done < n) {
		int e = errno ? errno : EIO;
		ub_tmp_discard(*slot);
		*slot = -1;
		return ub_fail(err, UB_IO, "%s: cannot write: %s", name, strerror(e));
	}
	return 0;
}

/* A copy of the file at path (its last component kept, so that its
 * extension and the messages read as the user's) holding text, in
 * $TMPDIR under a name of this process and of the text (the same text
 * compiled twice, a trial and the fix, is one entry of the compile
 * cache). */
static int write_copy(const char *path, const char *text, char *name, size_t len,
		      int *slot, struct ub_error *err)
{
	const char *tmpdir = getenv("TMPDIR"), *base = strrchr(path, '/');
	snprintf(name, len, "%s/ulpbench-why-%ld-%016llx-%s", tmpdir && *tmpdir ? tmpdir
		 : "/tmp", (long)getpid(), (unsigned long long)ub_hash64(UB_HASH64_INIT, text,
		 strlen(text)), base ? base + 1 : path);
	return write_new(name, text, slot, err);
}

int ub_why_compile_copy(const struct ub_why_ctx *x, const char *text,
			const char *opts, const char *extra, char **ptx,
			struct ub_error *err)
{
	const struct ub_nvcc_unit *u = x->cfg->kernel_unit;
	if (!u)
		return ub_why_compile(x, opts, extra, text, NULL, ptx, err);
	char tmp[4300], dirflag[4200], *utext = NULL;
	struct ub_nvcc_unit cu;
	int slot = -1;
	int s = write_copy(u->abspath, text, tmp, sizeof tmp, &slot, err);
	if (!s)
		s = unit_for(u, tmp, dirflag, &cu, &utext, err);
	if (!s)
		s = ub_why_compile(x, opts, extra, NULL, &cu, ptx, err);
	if (slot >= 0)
		ub_tmp_discard(slot);
	free(utext);
	return s;
}

int ub_why_compile_triton_copy(const struct ub_why_ctx *x, const char *text,
			       enum ub_mode mode, char **ptx, struct ub_error *err)
{
	struct ub_triton t = *x->cfg->triton;
	struct ub_triton_ptx p;
	char tmp[4300];
	int slot = -1;
	int s = write_copy(t.file, text, tmp, sizeof tmp, &slot, err);
	t.file = tmp;
	t.src = (char *)text;
	if (!s)
		s = ub_triton_compile(&t, mode, x->row->dt, x->all.n > INT32_MAX, &p, err);
	if (!s)
		*ptx = p.ptx;
	if (slot >= 0)
		ub_tmp_discard(slot);
	return s;
}

int ub_why_save(const struct ub_why_ctx *x, const char *text, char *saved,
		size_t len, struct ub_error *err)
{
	const char *name = x->cfg->kernel_unit ? x->cfg->kernel_unit->abspath
			 : x->cfg->op->kernel;
	char gen[200], path[4200], tmp[4300];
	int slot = -1;
	if (!name) {
		snprintf(gen, sizeof gen, "%s.generated.cu", x->cfg->op->name);
		name = gen;
	}
	const char *base = strrchr(name, '/'), *dot;
	base = base ? base + 1 : name;
	dot = strrchr(base, '.');
	snprintf(path, sizeof path, "%s/%.*s.fixed-%s-%s%s", x->fix_dir,
		 dot ? (int)(dot - base) : (int)strlen(base), base,
		 ub_dtypes[x->row->dt].name, ub_modes[x->mode].name, dot ? dot : "");
	snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
	int s = write_new(tmp, text, &slot, err);
	if (!s && rename(tmp, path)) {
		s = ub_fail(err, UB_IO, "%s: cannot write: %s", path, strerror(errno));
		ub_tmp_discard(slot);
	} else if (!s) {
		ub_tmp_forget(slot);
		snprintf(saved, len, "%s", path);
	}
	return s;
}
