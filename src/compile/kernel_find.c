/* kernel_find.c — the kernel of a --kernel file and its parameter types
 * (kernel_find.h): the file's entries from its PTX, demangled, one
 * chosen by --entry, then the probe unit compiled and read back. */
#include "kernel_find.h"
#include "toolkit.h"
#include "paths.h"
#include "spawn.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_ENTRIES 64

/* One .entry of the file's PTX. */
struct entry {
	char mangled[1024];
	char shown[1024];    /* demangled, without a template's "void " */
	char qual[1024];     /* its name with namespace and template args */
	char base[128];      /* its name alone */
	char params[1024];   /* the parameter types, as the demangler writes them */
};

/* The kernels (.entry NAME, declarations and definitions once) of ptx. */
static int list_entries(const char *ptx, struct entry *e, int max)
{
	int n = 0;
	for (const char *p = strstr(ptx, ".entry "); p && n < max;
	     p = strstr(p + 7, ".entry ")) {
		const char *s = p + 7;
		while (*s == ' ' || *s == '\t')
			s++;
		size_t l = strcspn(s, " \t\n(");
		if (!l || l >= sizeof e->mangled)
			continue;
		int seen = 0;
		for (int i = 0; i < n && !seen; i++)
			seen = strlen(e[i].mangled) == l && !strncmp(e[i].mangled, s, l);
		if (!seen) {
			memset(&e[n], 0, sizeof e[n]);
			memcpy(e[n++].mangled, s, l);
		}
	}
	return n;
}

/* The demangler: the toolkit's cu++filt, else binutils' c++filt. */
static const char *demangler(void)
{
	const struct ub_toolkit *tk = ub_toolkit_default();
	return tk->cufilt[0] ? tk->cufilt : "c++filt";
}

/* Splits a demangled name into qualified name, base name and parameter
 * types (into e). */
static void split(struct entry *e)
{
	const char *s = e->shown;
	int angle = 0;
	size_t lp = 0;
	for (size_t i = 0; s[i] && !lp; i++) {
		angle += (s[i] == '<') - (s[i] == '>');
		if (s[i] == '(' && angle == 0)
			lp = i;
	}
	if (!lp)
		lp = strlen(s);
	snprintf(e->qual, sizeof e->qual, "%.*s", (int)lp, s);
	size_t rp = strlen(s);
	while (rp > lp && s[rp - 1] != ')')
		rp--;
	if (rp > lp + 1)
		snprintf(e->params, sizeof e->params, "%.*s", (int)(rp - lp - 2), s + lp + 1);
	size_t end = strlen(e->qual), b;
	if (end && e->qual[end - 1] == '>')   /* a template's arguments */
		for (int d = 0; end > 0; end--) {
			d += (e->qual[end - 1] == '>') - (e->qual[end - 1] == '<');
			if (d == 0) {
				end--;
				break;
			}
		}
	for (b = end; b > 0 && !(e->qual[b - 1] == ':' && b > 1 && e->qual[b - 2] == ':'); b--)
		;
	snprintf(e->base, sizeof e->base, "%.*s", (int)(end - b), e->qual + b);
}

/* Fills shown, qual, base and params of every entry: C names as they
 * are, C++ names through the demangler (all in one run).  Without a
 * demangler the mangled name is shown (and names only itself). */
static void demangle(struct entry *e, int n)
{
	char *argv[MAX_ENTRIES + 2], *out = NULL;
	int na = 0, status = 1;
	argv[na++] = (char *)demangler();
	for (int i = 0; i < n; i++)
		if (!strncmp(e[i].mangled, "_Z", 2))
			argv[na++] = e[i].mangled;
	argv[na] = NULL;
	struct ub_error ignored;
	if (na > 1 && ub_spawn(argv, &out, &status, &ignored) == 0 && status != 0) {
		free(out);
		out = NULL;
	}
	const char *line = out;
	for (int i = 0; i < n; i++) {
		snprintf(e[i].shown, sizeof e[i].shown, "%s", e[i].mangled);
		if (!strncmp(e[i].mangled, "_Z", 2) && line && *line) {
			size_t l = strcspn(line, "\n");
			int skip = !strncmp(line, "void ", 5) ? 5 : 0;
			snprintf(e[i].shown, sizeof e[i].shown, "%.*s", (int)(l - skip), line + skip);
			line += l + (line[l] == '\n');
		}
		split(&e[i]);
	}
	free(out);
}

/* s without blanks, into buf. */
static const char *squeeze(const char *s, char *buf, size_t len)
{
	size_t n = 0;
	for (; *s && n + 1 < len; s++)
		if (!isspace((unsigned char)*s))
			buf[n++] = *s;
	buf[n] = '\0';
	return buf;
}

/* Whether --entry `want` names entry e. */
static int names_entry(const struct entry *e, const char *want)
{
	char a[1024], b[1024];
	squeeze(want, a, sizeof a);
	return !strcmp(a, e->mangled) || !strcmp(a, squeeze(e->shown, b, sizeof b)) ||
	       !strcmp(a, squeeze(e->qual, b, sizeof b)) || !strcmp(a, e->base);
}

/* "a, b, c" of the entries' shown names. */
static const char *listing(const struct entry *e, int n, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
					 e[i].shown);
	return n ? buf : "none";
}

/* The C++ expression naming entry e. */
static int expr_of(const struct entry *e, char *buf, size_t len,
		   const char *file, struct ub_error *err)
{
	if (strncmp(e->mangled, "_Z", 2))
		return snprintf(buf, len, "&%s", e->mangled) < (int)len ? 0 :
			ub_fail(err, UB_USAGE, "%s: kernel name too long", file);
	if (!strcmp(e->shown, e->mangled))
		return ub_fail(err, UB_USAGE, "%s: cannot demangle %s (no c++filt): "
			       "install binutils, or give --entry as the source "
			       "names it, e.g. 'scale<float>'", file, e->mangled);
	if (strstr(e->shown, "(anonymous namespace)"))
		return ub_fail(err, UB_USAGE, "%s: kernel %s is in an anonymous "
			       "namespace, which no other translation unit can "
			       "name: move it out", file, e->shown);
	return snprintf(buf, len, "static_cast<void (*)(%s)>(&%s)", e->params,
			e->qual) < (int)len ? 0 :
		ub_fail(err, UB_USAGE, "%s: kernel name too long", file);
}

/* A template declared in the file under the name `base`. */
static const struct ub_kdecl *template_named(const struct ub_kdecl *d, int nd,
					     const char *base)
{
	for (int i = 0; i < nd; i++)
		if (d[i].is_template && (!base || !strcmp(d[i].name, base)))
			return &d[i];
	return NULL;
}

/* want (NULL: the only kernel) among the entries, as the expression the
 * probe names it by, into k->expr. */
static int choose(const struct entry *e, int n, const struct ub_kdecl *d,
		  int nd, const char *want, const char *file,
		  struct ub_kfound *k, struct ub_error *err)
{
	char list[2048];
	int hit = -1, hits = 0;
	for (int i = 0; i < n; i++)
		if (!want || names_entry(&e[i], want)) {
			hit = hit < 0 ? i : hit;
			hits++;
		}
	const struct ub_kdecl *t = template_named(d, nd, NULL);
	if (hits == 1)
		return expr_of(&e[hit], k->expr, sizeof k->expr, file, err);
	if (!want && hits == 0 && t)
		return ub_fail(err, UB_USAGE, "%s:%d: %s is a template that the file "
			       "does not instantiate: give the instance to test, e.g. "
			       "--entry '%s<float>'", file, t->line, t->name, t->name);
	if (!want && hits == 0)
		return ub_fail(err, UB_USAGE, "%s: no __global__ kernel in the file", file);
	if (hits > 1)
		return ub_fail(err, UB_USAGE, "%s: %s kernels%s%s: %s: choose one with "
			       "--entry (a name, 'name<type>' or 'name(parameter "
			       "types)')", file, want ? "several" : "several",
			       want ? " named " : "", want ? want : "",
			       listing(e, n, list, sizeof list));
	/* not in the file's PTX: an instance to make, an overload by its
	 * parameter types, or nothing */
	const char *lp = strchr(want, '('), *lt = strchr(want, '<');
	if (lp && strrchr(want, ')') > lp)
		return snprintf(k->expr, sizeof k->expr, "static_cast<void (*)%s>(&%.*s)",
				lp, (int)(lp - want), want) < (int)sizeof k->expr ? 0 :
			ub_fail(err, UB_USAGE, "--entry: too long");
	if (lt)
		return snprintf(k->expr, sizeof k->expr, "&%s", want) < (int)sizeof k->expr
			? 0 : ub_fail(err, UB_USAGE, "--entry: too long");
	if ((t = template_named(d, nd, want)))
		return ub_fail(err, UB_USAGE, "%s:%d: %s is a template: give the "
			       "instance to test, e.g. --entry '%s<float>'", file,
			       t->line, t->name, t->name);
	return ub_fail(err, UB_USAGE, "%s: no __global__ kernel '%s' (valid: %s)",
		       file, want, listing(e, n, list, sizeof list));
}

/* The probe's expression for --entry want as it is, into k->expr: a
 * name or template instance ("&ns::k<float, 4>") or an overload by its
 * parameter types; 0 when want is neither (a mangled name). */
static int direct(const char *want, struct ub_kfound *k)
{
	const char *lp = strchr(want, '(');
	if (!strncmp(want, "_Z", 2) || !(isalpha((unsigned char)want[0]) || want[0] == '_' ||
					  want[0] == ':'))
		return 0;
	if (lp && strrchr(want, ')') > lp)
		return snprintf(k->expr, sizeof k->expr, "static_cast<void (*)%s>(&%.*s)", lp,
				(int)(lp - want), want) < (int)sizeof k->expr;
	return !lp && snprintf(k->expr, sizeof k->expr, "&%s", want) < (int)sizeof k->expr;
}

/* The value of ptx's `.global ... NAME = VALUE;` or NAME[N] = {...} into
 * vals (room for max; bytes of a .b8 array assembled little-endian into
 * 64-bit values); the text of a symbol initializer into sym. */
int ub_ptx_read_var(const char *ptx, const char *name, uint64_t *vals, int max,
		    char *sym, size_t symlen)
{
	char pat[64];
	snprintf(pat, sizeof pat, " %s", name);
	const char *p = strstr(ptx, pat);
	if (!p)
		return -1;
	const char *line = p;
	while (line > ptx && line[-1] != '\n')
		line--;
	int bytes = strstr(line, ".b8 ") && strstr(line, ".b8 ") < p;
	const char *eq = strchr(p, '=');
	if (!eq || eq > strchr(p, ';'))
		return -1;
	for (int i = 0; i < max; i++)
		vals[i] = 0;
	eq++;
	while (*eq == ' ')
		eq++;
	if (sym) {
		snprintf(sym, symlen, "%.*s", (int)strcspn(eq, " ;\n"), eq);
		return 0;
	}
	int k = 0;
	for (const char *q = eq + (*eq == '{'); *q && *q != '}' && *q != ';';) {
		char *end;
		unsigned long long v = strtoull(q, &end, 0);
		if (end == q)
			return -1;
		if (bytes && k / 8 < max)
			vals[k / 8] |= (uint64_t)(v & 0xff) << (8 * (k % 8));
		else if (!bytes && k < max)
			vals[k] = v;
		k++;
		q = end + strspn(end, ", \n\t");
	}
	return 0;
}

/* The parameter from the probe's code c (ulpbench_probe.h). */
void ub_kparam_decode(uint64_t c, struct ub_kparam *p)
{
	static const int fl[] = { -1, UB_F32, UB_F64, UB_F16, UB_BF16 };
	static const int bits[] = { 0, 32, 64, 16, 16 };
	unsigned el = c & 0x7f, kind = (c >> 8) & 3;
	p->code = c;
	p->size = (unsigned)(c >> 16);
	p->wrapped = (c & 0x80) != 0;
	p->is_const = (c >> 10) & 1;
	p->kind = UB_KP_OTHER;
	if (kind == 1 && el >= 1 && el <= 4 && p->size * 8 == (unsigned)bits[el]) {
		p->kind = UB_KP_ARRAY;
		p->dtype = fl[el];
	} else if (kind == 2 && el >= 1 && el <= 4 && p->size * 8 == (unsigned)bits[el]) {
		p->kind = UB_KP_FLOAT;
		p->dtype = fl[el];
		p->bits = bits[el];
	} else if (kind == 2 && el == 5 && !p->wrapped) {
		p->kind = UB_KP_BOOL;
		p->bits = 8;
	} else if ((kind == 1 || kind == 2) && el >= 6 && el <= 16 && !p->wrapped) {
		p->kind = kind == 1 ? UB_KP_IARRAY : UB_KP_INT;
		p->bits = (int)p->size * 8;
		p->is_signed = el == 6 || el == 7 || el % 2 == 1;
	}
}

/* Compiles the probe unit and reads the kernel's entry and types. */
static int probe(const struct ub_nvcc_unit *file_unit, const char *arch,
		 struct ub_kfound *k, struct ub_error *err)
{
	struct ub_nvcc_unit u = *file_unit;
	char *ptx = NULL;
	size_t n = 0, len = strlen(u.abspath) * 2 + strlen(k->expr) + 256;
	uint64_t v[33] = {0};
	if (!(k->unit = malloc(len)))
		return ub_fail(err, UB_RUNTIME, "out of memory");
	snprintf(k->unit, len, "%s#include \"ulpbench_probe.h\"\n"
		 "#line 1 \"" UB_NVCC_UNIT_LINES "\"\nULPBENCH_PROBE((%s));\n",
		 file_unit->text, k->expr);
	u.text = k->unit;
	if (u.warm) {   /* every mode's compile beside this one's */
		const char *opts[32] = { "" };
		int no = 1;
		for (int i = 0; u.warm[i] && no < 32; i++)
			if (u.warm[i][0])
				opts[no++] = u.warm[i];
		ub_nvcc_warm(&u, opts, no, arch);
	}
	int s = ub_nvcc_compile(&u, "", arch, 0, &ptx, &n, err);
	if (s)
		return s;
	if (ub_ptx_read_var(ptx, "ulpbench_entry", NULL, 0, k->entry, sizeof k->entry) ||
	    ub_ptx_read_var(ptx, "ulpbench_params", v, 33, NULL, 0) || v[0] > UB_KSIG_MAX_PARAMS)
		s = ub_fail(err, UB_COMPILE, "%s: the PTX lacks ulpbench_probe.h's "
			    "variables", u.file);
	k->nparams = s ? 0 : (int)v[0];
	for (int i = 0; i < k->nparams; i++)
		ub_kparam_decode(v[i + 1], &k->params[i]);
	k->extern_c = strncmp(k->entry, "_Z", 2) != 0;
	free(ptx);
	return s;
}

/* The entries of the file as it is, demangled. */
static int file_entries(const struct ub_nvcc_unit *u, const char *arch,
			struct entry *e, int *n, struct ub_error *err)
{
	char *ptx = NULL;
	size_t size;
	int s = ub_nvcc_compile(u, "", arch, 0, &ptx, &size, err);
	if (s)
		return s;
	*n = list_entries(ptx, e, MAX_ENTRIES);
	free(ptx);
	demangle(e, *n);
	return 0;
}

int ub_kernel_instances(const struct ub_nvcc_unit *u, const char *arch,
			struct ub_kinst *out, int max, int *n, struct ub_error *err)
{
	struct entry *e = calloc(MAX_ENTRIES, sizeof *e);
	int ne = 0, s = e ? file_entries(u, arch, e, &ne, err)
			  : ub_fail(err, UB_RUNTIME, "out of memory");
	*n = 0;
	for (int i = 0; !s && i < ne && *n < max; i++, ++*n) {
		snprintf(out[*n].mangled, sizeof out[*n].mangled, "%s", e[i].mangled);
		snprintf(out[*n].shown, sizeof out[*n].shown, "%s", e[i].shown);
		snprintf(out[*n].base, sizeof out[*n].base, "%s", e[i].base);
		snprintf(out[*n].params, sizeof out[*n].params, "%s", e[i].params);
	}
	free(e);
	return s;
}

int ub_kernel_find(const struct ub_nvcc_unit *u, const char *src,
		   const char *entry, const char *arch, struct ub_kfound *k,
		   struct ub_error *err)
{
	struct entry *e = calloc(MAX_ENTRIES, sizeof *e);
	struct ub_kdecl *d = calloc(UB_KSIG_MAX_DECLS, sizeof *d);
	int n = 0, nd = 0;
	memset(k, 0, sizeof *k);
	int s = e && d ? 0 : ub_fail(err, UB_RUNTIME, "out of memory");
	if (!s)
		s = ub_ksig_scan(src, u->file, d, UB_KSIG_MAX_DECLS, &nd, err);
	/* an --entry the probe can name as it is: the file as it is need not
	 * be compiled to list its kernels (a long compile for an extension
	 * file); any failure goes the whole way, which says what is wrong */
	int fast = !s && entry && direct(entry, k);
	if (fast && probe(u, arch, k, err)) {
		ub_kfound_free(k);
		fast = 0;
	}
	if (!s && !fast)
		s = file_entries(u, arch, e, &n, err);
	if (!s && !fast)
		s = choose(e, n, d, nd, entry, u->file, k, err);
	if (!s && !fast)
		s = probe(u, arch, k, err);
	struct entry one;   /* how messages name it */
	memset(&one, 0, sizeof one);
	for (int i = 0; !s && i < n && !one.shown[0]; i++)
		if (!strcmp(e[i].mangled, k->entry))
			one = e[i];
	if (!s && !one.shown[0]) {   /* an instance made for the run */
		snprintf(one.mangled, sizeof one.mangled, "%s", k->entry);
		demangle(&one, 1);
	}
	snprintf(k->shown, sizeof k->shown, "%s", one.shown);
	snprintf(k->base, sizeof k->base, "%s", one.base);
	snprintf(k->types, sizeof k->types, "%s", k->extern_c ? "" : one.params);
	if (!s)
		s = ub_kernel_names(d, nd, u, k, err);
	free(e);
	free(d);
	return s;
}

void ub_kfound_free(struct ub_kfound *k)
{
	free(k->unit);
	memset(k, 0, sizeof *k);
}
