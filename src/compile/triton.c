/* triton.c — Triton kernels through the user's own Triton (triton.h).
 *
 * The helper kernels/triton_compile.py runs in the user's Python: once to
 * describe the kernel (its parameters, the Triton version), then once per
 * mode and dtype to compile it, each answer in a temporary file (stdout
 * and stderr are the helper's messages).  Compiled PTX goes into the
 * compile cache (nvrtc_cache.h) under a key of the .py file's text, the
 * kernel's name, the request (signature, constexprs, aligned pointers,
 * options, architecture), the helper's own text, the Triton version and
 * install, the environment variables Triton says change its output, the
 * Python, and a hash of each file of the modules that importing the .py
 * loaded (a @triton.jit helper imported from another file: the helper's
 * "source" lines).  The helper runs under a time limit
 * (ULPBENCH_TRITON_TIMEOUT, 300 s by default): a module that loops at
 * import is stopped with a message. */
#include "triton.h"
#include "nvrtc_cache.h"
#include "paths.h"
#include "ptx.h"
#include "spawn.h"
#include "tmpfiles.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The helper's exit statuses (triton_compile.py). */
enum { H_NO_TRITON = 3, H_BAD_INPUT = 4, H_COMPILE_FAILED = 5 };

/* Each mode under Triton: X(mode, enable_fp_fusion (-1: n/a), why n/a). */
#define UB_TRITON_MODES(X)                                                   \
	X(UB_MODE_FMA, 1, NULL)                                              \
	X(UB_MODE_NOFMA, 0, NULL)                                            \
	X(UB_MODE_RN, -1, "Triton has no rounding macros: compare a second "  \
	  "kernel of the file that uses tl.math.div_rn and friends")          \
	X(UB_MODE_FASTMATH, -1, "Triton has no fast-math switch: / is "      \
	  "div.full and tl.exp ex2.approx already")                           \
	X(UB_MODE_FTZ, -1, "Triton has no flush-to-zero switch")            \
	X(UB_MODE_APPROXDIV, -1, "Triton's / on f32 is div.full already; "   \
	  "tl.math.div_rn divides as IEEE does")                              \
	X(UB_MODE_APPROXSQRT, -1, "tl.sqrt is sqrt.approx already; "         \
	  "tl.sqrt_rn is IEEE")                                               \
	X(UB_MODE_NATIVE16, -1, "a Triton kernel's arithmetic type is in its " \
	  "code (.to(tl.float32) or not)")

static const struct {
	int fusion;
	const char *na;
} tmodes[UB_NMODES] = {
#define X(mode, fusion, na) [mode] = { fusion, na },
	UB_TRITON_MODES(X)
#undef X
};

const char *ub_triton_mode_na(enum ub_mode mode)
{
	return tmodes[mode].na;
}

/* The last non-empty line of text, into buf. */
static const char *last_line(const char *text, char *buf, size_t len)
{
	const char *end = text + strlen(text);
	while (end > text && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	const char *start = end;
	while (start > text && start[-1] != '\n')
		start--;
	snprintf(buf, len, "%.*s", (int)(end - start), start);
	return buf[0] ? buf : "(no message)";
}

/* The helper's time limit in seconds (0: none): ULPBENCH_TRITON_TIMEOUT,
 * else 300. */
static int time_limit(double *limit, struct ub_error *err)
{
	const char *v = getenv("ULPBENCH_TRITON_TIMEOUT");
	char *end;
	*limit = 300;
	if (!v || !v[0])
		return 0;
	*limit = strtod(v, &end);
	if (*end || !(*limit >= 0 && *limit <= 1e9))
		return ub_fail(err, UB_USAGE, "ULPBENCH_TRITON_TIMEOUT: '%.100s' is not a "
			       "number of seconds (0: no limit)", v);
	return 0;
}

/* Runs `python helper CMD FILE KERNEL OUT [request]`; *res gets OUT's
 * text when it exits 0.  Errors in the user's terms. */
static int helper(const struct ub_triton *t, const char *cmd,
		  const char *request, const char *ctx, char **res,
		  struct ub_error *err)
{
	char base[4096], tmp[4200], line[1024];
	const char *dir = getenv("TMPDIR");
	int slot, status;
	char *out = NULL;
	double limit;
	*res = NULL;
	if (time_limit(&limit, err))
		return UB_USAGE;
	snprintf(base, sizeof base, "%s/ulpbench-triton", dir && dir[0] ? dir : "/tmp");
	int fd = ub_tmp_create(base, tmp, sizeof tmp, &slot);
	if (fd < 0)
		return ub_fail(err, UB_USAGE, "%s: cannot create a temporary file",
			       base);
	close(fd);
	char *argv[] = { (char *)t->python, (char *)t->helper, (char *)cmd, t->file,
			 t->kernel, tmp, (char *)request, NULL };
	int s = ub_spawn_limit(argv, limit, &out, &status, err);
	if (s) { /* "cannot run PYTHON: why" */
		snprintf(line, sizeof line, "%s", err->msg);
		s = ub_fail(err, UB_USAGE, "--triton: %s (name a Python that has "
			    "Triton with --python PATH)", line);
	}
	else if (status == UB_SPAWN_TIMED_OUT && !strcmp(cmd, "describe"))
		s = ub_fail(err, UB_USAGE, "%s: importing it did not end within %g s (a "
			    "loop at import?): stopped; ULPBENCH_TRITON_TIMEOUT=SECONDS "
			    "sets another limit, 0 none", t->file, limit);
	else if (status == UB_SPAWN_TIMED_OUT)
		s = ub_fail(err, UB_COMPILE, "%s: Triton did not compile %s within %g s: "
			    "stopped; ULPBENCH_TRITON_TIMEOUT=SECONDS sets another limit, "
			    "0 none", t->file, t->kernel, limit);
	else if (status == 0)
		s = ub_read_file(tmp, res, err);
	else if (status == H_NO_TRITON)
		s = ub_fail(err, UB_USAGE, "--triton needs Triton, which %s cannot "
			    "import (%s): install it with '%s -m pip install triton', "
			    "or name a Python that has it with --python PATH",
			    t->python, last_line(out, line, sizeof line), t->python);
	else if (status == H_BAD_INPUT || status == H_COMPILE_FAILED) {
		/* "LINE: message" or "message", about the user's file */
		const char *msg = last_line(out, line, sizeof line);
		int at = msg[0] >= '0' && msg[0] <= '9';
		s = ub_fail(err, status == H_BAD_INPUT ? UB_USAGE : UB_COMPILE,
			    "%s:%s%s%s", t->file, at ? "" : " ", ctx ? ctx : "", msg);
		if (at && ctx) /* FILE:LINE: KERNEL (...): message */
			s = ub_fail(err, UB_COMPILE, "%s:%.*s %s%s", t->file,
				    (int)strcspn(msg, " ") , msg, ctx,
				    msg + strcspn(msg, " ") + 1);
	}
	else
		s = ub_fail(err, UB_USAGE, "%s: the Triton helper %s failed (exit "
			    "%d): %s", t->file, t->helper, status,
			    last_line(out, line, sizeof line));
	free(out);
	ub_tmp_discard(slot);
	return s;
}

/* One "param NAME constexpr|value [DEFAULT]" line into t->d. */
static int desc_param(struct ub_triton *t, const char *v, struct ub_error *err)
{
	struct ub_triton_param *p = &t->d.params[t->d.nparams];
	char kind[16];
	int used = 0;
	if (t->d.nparams == UB_TRITON_MAX_PARAMS)
		return ub_fail(err, UB_USAGE, "%s: %s has more than %d parameters",
			       t->file, t->kernel, UB_TRITON_MAX_PARAMS);
	if (sscanf(v, "%63s %15s %n", p->name, kind, &used) < 2)
		return ub_fail(err, UB_USAGE, "%s: bad answer from the Triton helper", t->file);
	p->is_constexpr = !strcmp(kind, "constexpr");
	p->has_default = v[used] != '\0';
	snprintf(p->dflt, sizeof p->dflt, "%s", v + used);
	t->d.nparams++;
	return 0;
}

/* One "source PATH" line (path NULL: "uncacheable"): the file's hash
 * and path onto t->sources; a file that cannot be read makes the kernel
 * one that is never cached. */
static int add_source(struct ub_triton *t, const char *path, struct ub_error *err)
{
	const char *why;
	char hex[33], *data;
	size_t n = 0, len = t->sources ? strlen(t->sources) : 0;
	if (!path || !(data = ub_cache_slurp(path, &n, &why))) {
		t->uncached = 1;
		return 0;
	}
	ub_cache_hash(data, n, hex);
	free(data);
	size_t add = strlen(path) + 35;
	char *m = realloc(t->sources, len + add);
	if (!m)
		return ub_fail(err, UB_RUNTIME, "out of memory");
	snprintf(m + len, add, "%s %s\n", hex, path);
	t->sources = m;
	return 0;
}

int ub_triton_parse_desc(struct ub_triton *t, char *text, struct ub_error *err)
{
	int s = 0;
	for (char *save, *l = strtok_r(text, "\n", &save); l && !s;
	     l = strtok_r(NULL, "\n", &save)) {
		char *v = strchr(l, ' ');
		v = v ? (*v = '\0', v + 1) : l + strlen(l);
		if (!strcmp(l, "triton"))
			snprintf(t->d.version, sizeof t->d.version, "%s", v);
		else if (!strcmp(l, "package"))
			snprintf(t->d.package, sizeof t->d.package, "%s", v);
		else if (!strcmp(l, "python"))
			snprintf(t->d.python, sizeof t->d.python, "%s", v);
		else if (!strcmp(l, "line"))
			t->d.line = atoi(v);
		else if (!strcmp(l, "env"))
			snprintf(t->d.env + strlen(t->d.env), sizeof t->d.env -
				 strlen(t->d.env), "%s;", v);
		else if (!strcmp(l, "param"))
			s = desc_param(t, v, err);
		else if (!strcmp(l, "source") || !strcmp(l, "uncacheable"))
			s = add_source(t, l[0] == 's' ? v : NULL, err);
	}
	if (!s && !t->d.version[0])
		s = ub_fail(err, UB_USAGE, "%s: no answer from the Triton helper", t->file);
	return s;
}

static const char *tl_dtype(enum ub_dtype dt)
{
	static const char *const names[UB_NDTYPES] = {
		[UB_F32] = "fp32", [UB_F16] = "fp16", [UB_BF16] = "bf16", [UB_F64] = "fp64",
	};
	return names[dt];
}

int ub_triton_request(const struct ub_triton *t, enum ub_mode mode,
		      enum ub_dtype dt, int n64, char *buf, size_t len)
{
	size_t u = (size_t)snprintf(buf, len, "{\"signature\": {");
	char aligned[2048] = "";
	size_t ua = 0;
	for (int k = 0, a = 0; k < t->d.nparams && u < len; k++) {
		const struct ub_triton_param *p = &t->d.params[k];
		char ty[16] = "constexpr";
		if (!p->is_constexpr) {
			const char *b = t->args[a];
			if (b[0] == '=')
				snprintf(ty, sizeof ty, "%s", t->scalar_ty[a]);
			else if (!strcmp(b, "n"))
				snprintf(ty, sizeof ty, "%s", n64 ? "i64" : "i32");
			else {
				snprintf(ty, sizeof ty, "*%s", tl_dtype(dt));
				ua += (size_t)snprintf(aligned + ua, ua < sizeof aligned ?
						       sizeof aligned - ua : 0, "%s\"%s\"",
						       ua ? ", " : "", p->name);
			}
			a++;
		}
		u += (size_t)snprintf(buf + u, len - u, "%s\"%s\": \"%s\"", k ? ", " : "",
				      p->name, ty);
	}
	char stages[32] = "";
	if (t->num_stages)
		snprintf(stages, sizeof stages, ", \"num_stages\": %u", t->num_stages);
	if (u < len)
		u += (size_t)snprintf(buf + u, len - u, "}, \"constexprs\": %s, "
				      "\"aligned\": [%s], \"options\": "
				      "{\"enable_fp_fusion\": %s, \"num_warps\": %u%s}, "
				      "\"arch\": %s}", t->constexprs, aligned,
				      tmodes[mode].fusion ? "true" : "false",
				      t->num_warps, stages, t->arch + 3);
	return u < len && ua < sizeof aligned ? 0 : -1;
}

int ub_triton_parse_entry(const struct ub_triton *t, enum ub_mode mode,
			  char *text, struct ub_triton_ptx *out,
			  struct ub_error *err)
{
	int shared, fusion, hidden, used = 0;
	unsigned warps;
	if (sscanf(text, "meta num_warps=%u shared=%d fusion=%d hidden=%d%n", &warps,
		   &shared, &fusion, &hidden, &used) != 4 || text[used] != '\n' ||
	    warps < 1 || warps > 32 || hidden < 0 || hidden > 8)
		return ub_fail(err, UB_USAGE, "%s: bad answer from the Triton helper",
			       t->file);
	if (fusion != tmodes[mode].fusion)
		return ub_fail(err, UB_USAGE, "%s: Triton compiled %s with "
			       "enable_fp_fusion=%d, not %d", t->file, t->kernel,
			       fusion, tmodes[mode].fusion);
	if (shared < 0 || shared > (1 << 30))
		return ub_fail(err, UB_USAGE, "%s: bad answer from the Triton helper "
			       "(shared=%d)", t->file, shared);
	if (!(out->ptx = strdup(text + used + 1)))
		return ub_fail(err, UB_RUNTIME, "out of memory");
	out->num_warps = warps;
	out->hidden = hidden;
	out->shared = (unsigned)shared;
	return 0;
}

/* Under nofma Triton runs ptxas with --fmad=false, which keeps a mul and
 * an add without rounding modifiers apart; the sim's model of ptxas fuses
 * them (ptx_fuse.c).  Triton's nofma PTX rounds every step explicitly
 * (mul.rn, add.rn), so this never happens; if it did, refuse. */
static int check_unfused(const struct ub_triton *t, enum ub_mode mode,
			 const char *ptx, struct ub_error *err)
{
	struct ptx_module *m = NULL;
	if (tmodes[mode].fusion || ptx_parse(ptx, &m, err))
		return 0;   /* a parse error shows when it runs */
	int n = ptx_fusions(m);
	ptx_free(m);
	if (n)
		return ub_fail(err, UB_RUNTIME, "%s: %s, mode %s: the PTX holds %d "
			       "mul/add pairs without rounding modifiers, which ptxas "
			       "--fmad=false keeps apart and the sim would fuse",
			       t->file, t->kernel, ub_modes[mode].name, n);
	return 0;
}

int ub_triton_compile(const struct ub_triton *t, enum ub_mode mode,
		      enum ub_dtype dt, int n64, struct ub_triton_ptx *out,
		      struct ub_error *err)
{
	char req[8192], name[256], version[3200], path[4096];
	memset(out, 0, sizeof *out);
	if (tmodes[mode].na)
		return ub_fail(err, UB_USAGE, "%s: mode %s: %s", t->file,
			       ub_modes[mode].name, tmodes[mode].na);
	if (ub_triton_request(t, mode, dt, n64, req, sizeof req))
		return ub_fail(err, UB_USAGE, "%s: %s: too many parameters", t->file, t->kernel);
	size_t rl = strlen(req);
	const char *srcs = t->sources ? t->sources : "";
	size_t ol = rl + strlen(t->helper_src) + strlen(srcs) + 3;
	char *opts = malloc(ol);
	if (!opts)
		return ub_fail(err, UB_RUNTIME, "out of memory");
	snprintf(opts, ol, "%s\n%s\n%s", req, t->helper_src, srcs);
	snprintf(name, sizeof name, "triton %s", t->kernel);
	snprintf(version, sizeof version, "triton %s %s %s", t->d.version,
		 t->d.package, t->d.env);
	struct ub_cache_key key = { t->src, name, opts, t->arch, version, t->d.python };
	int cached = !t->uncached && ub_cache_path(&key, path, sizeof path);
	free(opts);
	char *text = cached ? ub_cache_get(path) : NULL;
	char ctx[256];
	snprintf(ctx, sizeof ctx, "%s (%s, mode %s): Triton cannot compile it: ",
		 t->kernel, ub_dtypes[dt].name, ub_modes[mode].name);
	int s = text ? 0 : helper(t, "compile", req, ctx, &text, err);
	if (!s)
		s = ub_triton_parse_entry(t, mode, text, out, err);
	if (!s)
		s = check_unfused(t, mode, out->ptx, err);
	if (!s && cached)
		ub_cache_put(path, text);
	free(text);
	if (s) {
		free(out->ptx);
		out->ptx = NULL;
	}
	return s;
}

int ub_triton_geom(const struct ub_triton *t, const struct ub_triton_ptx *p,
		   size_t n, struct ub_geom *g, struct ub_error *err)
{
	memset(g, 0, sizeof *g);
	g->block = 32 * p->num_warps;
	g->shared = p->shared; /* as Triton's launcher passes it */
	if (t->grid) {
		g->grid = t->grid;
		return 0;
	}
	g->per_block = t->per_program;
	if ((n + t->per_program - 1) / t->per_program > UB_MAX_GRID)
		return ub_fail(err, UB_USAGE, "%s: %s: ceil(%zu / %s) programs are "
			       "more than CUDA's grid of %u", t->file, t->kernel, n,
			       t->per_name, UB_MAX_GRID);
	return 0;
}

const char *ub_triton_about(const struct ub_triton *t, char *buf, size_t len)
{
	char grid[96];
	if (t->grid)
		snprintf(grid, sizeof grid, "%u", t->grid);
	else if (!t->per_name[0])
		snprintf(grid, sizeof grid, "rows (one program a row)");
	else
		snprintf(grid, sizeof grid, "ceil(n/%s)", t->per_name);
	char stages[32] = "";
	if (t->num_stages)
		snprintf(stages, sizeof stages, " num_stages=%u", t->num_stages);
	snprintf(buf, len, "%s %s %s:%s%s%s num_warps=%u%s grid=%s", t->toolkit, t->arch,
		 t->file, t->kernel, t->shown[0] ? " " : "", t->shown, t->num_warps,
		 stages, grid);
	return buf;
}

void ub_triton_row(const struct ub_triton *t, struct ub_row *r)
{
	int m = ub_mode_find(r->mode);
	struct ub_geom g = { .block = 32 * t->num_warps,
			     .per_block = t->grid ? 0 : t->per_program, .grid = t->grid };
	snprintf(r->toolkit, sizeof r->toolkit, "%s", t->toolkit);
	ub_geom_format(&g, r->launch, sizeof r->launch);
	r->arch = t->arch;
	r->options = m >= 0 ? t->options[m] : "";
}

/* The rows' options per mode and the launch, as a header says it. */
static void describe_modes(struct ub_triton *t)
{
	char stages[32] = "";
	if (t->num_stages)
		snprintf(stages, sizeof stages, " num_stages=%u", t->num_stages);
	for (int m = 0; m < UB_NMODES; m++)
		if (tmodes[m].na)
			t->options[m][0] = '\0';
		else
			snprintf(t->options[m], sizeof t->options[m],
				 "enable_fp_fusion=%s num_warps=%u%s%s%s", tmodes[m].fusion ?
				 "True" : "False", t->num_warps, stages, t->shown[0] ? " " : "",
				 t->shown);
	snprintf(t->toolkit, sizeof t->toolkit, "triton %s", t->d.version);
}

/* FILE.py:KERNEL, the Python, the helper, and what it says. */
static int open_kernel(struct ub_triton *t, const struct ub_triton_req *req,
		       const char *arch, struct ub_error *err)
{
	const char *colon = strrchr(req->spec, ':'), *py = getenv("ULPBENCH_PYTHON");
	char *text = NULL;
	if (!colon || colon == req->spec || !colon[1])
		return ub_fail(err, UB_USAGE, "--triton %s: name the kernel after the "
			       "file: FILE.py:KERNEL", req->spec);
	if (!(t->file = strndup(req->spec, (size_t)(colon - req->spec))) ||
	    !(t->kernel = strdup(colon + 1)))
		return ub_fail(err, UB_RUNTIME, "out of memory");
	snprintf(t->python, sizeof t->python, "%s", req->python ? req->python :
		 py && py[0] ? py : "python3");
	const char *digits = strchr(arch, '_');
	snprintf(t->arch, sizeof t->arch, "sm_%d", digits ? atoi(digits + 1) : 90);
	t->num_warps = req->num_warps ? req->num_warps : 4;
	t->num_stages = req->num_stages;
	int s = ub_read_file(t->file, &t->src, err);
	if (!s)
		s = ub_data_path("kernels/triton_compile.py", t->helper, sizeof t->helper, err);
	if (!s)
		s = ub_read_file(t->helper, &t->helper_src, err);
	if (!s)
		s = helper(t, "describe", NULL, NULL, &text, err);
	if (!s)
		s = ub_triton_parse_desc(t, text, err);
	free(text);
	return s;
}

int ub_triton_bind(const struct ub_triton_req *req, struct ub_op *op,
		   struct ub_config *cfg, struct ub_triton *t,
		   struct ub_error *err)
{
	memset(t, 0, sizeof *t);
	if (cfg->backend && !strcmp(cfg->backend, "cuda"))
		return ub_fail(err, UB_USAGE, "--triton: Triton kernels run on the sim "
			       "backend only (--backend sim or auto)");
	int s = open_kernel(t, req, cfg->arch ? cfg->arch : "compute_90", err);
	if (!s)
		s = ub_triton_bind_params(t, req, op, err);
	if (s)
		return s;
	describe_modes(t);
	op->kernel = t->file;
	op->entry = t->kernel;
	op->args = t->args;
	op->nargs = t->nargs;
	op->kernel_dtypes = 1u << UB_F32 | 1u << UB_F16 | 1u << UB_BF16 | 1u << UB_F64;
	cfg->kernel_src = t->src;
	cfg->triton = t;
	cfg->backend = "sim";
	return 0;
}

void ub_triton_free(struct ub_triton *t)
{
	free(t->file);
	free(t->kernel);
	free(t->src);
	free(t->helper_src);
	free(t->sources);
	for (int k = 0; k < t->nargs; k++)
		free(t->args[k]);
	memset(t, 0, sizeof *t);
}
