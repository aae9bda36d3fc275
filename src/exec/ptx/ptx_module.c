/* ptx_module.c — building a decoded module and freeing it: growing
 * arrays, messages, register slots, appending instructions, resolving
 * calls to .func definitions once every function is read, and the
 * module's accessors (ptx.h). */
#include "ptx_internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ptx_grow(void *p, int *cap, int n, size_t sz)
{
	void **pp = p;
	if (n <= *cap)
		return 0;
	int nc = *cap ? *cap : 16;
	while (nc < n)
		nc *= 2;
	void *nv = realloc(*pp, (size_t)nc * sz);
	if (!nv)
		return UB_RUNTIME;
	*pp = nv;
	*cap = nc;
	return 0;
}

/* Line `line` of the PTX text, blanks squeezed, at most len - 1
 * characters ("" when no token is on it). */
static void quote_line(const struct ptx_pstate *st, uint32_t line, char *buf,
		       size_t len)
{
	size_t lo = 0, hi = st->ntok;   /* the first token on the line */
	buf[0] = '\0';
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (st->t[mid].line < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!st->text || lo == st->ntok || st->t[lo].line != line ||
	    st->t[lo].kind == PTX_TK_END)
		return;
	const char *p = st->t[lo].s;
	while (p > st->text && p[-1] != '\n')
		p--;
	size_t n = 0;
	for (; *p && *p != '\n' && n + 1 < len; p++)
		if (!isspace((unsigned char)*p))
			buf[n++] = *p;
		else if (n && buf[n - 1] != ' ')
			buf[n++] = ' ';
	while (n && buf[n - 1] == ' ')
		n--;
	buf[n] = '\0';
}

int ptx_perr(struct ptx_pstate *st, uint32_t line, const char *fmt, ...)
{
	char buf[700], text[120];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	quote_line(st, line, text, sizeof text);
	if (!text[0])
		return ub_fail(st->err, UB_RUNTIME, "ptx:%u: %s", line, buf);
	return ub_fail(st->err, UB_RUNTIME, "ptx:%u: %s (the PTX line: \"%s\")",
		       line, buf, text);
}

int ptx_tok_is(const struct ptx_tok *t, const char *s)
{
	return t->kind != PTX_TK_END && strlen(s) == t->len &&
	       memcmp(t->s, s, t->len) == 0;
}

char *ptx_dup_tok(const struct ptx_tok *t)
{
	char *s = malloc(t->len + 1u);
	if (s) {
		memcpy(s, t->s, t->len);
		s[t->len] = 0;
	}
	return s;
}

int ptx_new_slot(struct ptx_pstate *st, uint64_t value, unsigned bits,
		 uint32_t *slot)
{
	struct ptx_func *f = st->f;
	if (f->nslots >= PTX_MAX_FUNC_SLOTS || st->module_slots >= PTX_MAX_MODULE_SLOTS)
		return ptx_perr(st, ptx_peek(st, 0)->line, "'%s' has more than %u "
				"registers and constants (the interpreter's limit "
				"per %s)", f->name, f->nslots >= PTX_MAX_FUNC_SLOTS ?
				PTX_MAX_FUNC_SLOTS : PTX_MAX_MODULE_SLOTS,
				f->nslots >= PTX_MAX_FUNC_SLOTS ? "function" : "module");
	if (f->nslots == st->cap_slots) {
		uint32_t nc = st->cap_slots ? st->cap_slots * 2 : 256;
		uint64_t *ni = realloc(f->init, nc * sizeof *ni);
		if (ni)
			f->init = ni;
		uint8_t *nw = ni ? realloc(f->width, nc) : NULL;
		if (!nw)
			return ub_fail(st->err, UB_RUNTIME, "ptx: out of memory");
		f->width = nw;
		st->cap_slots = nc;
	}
	f->init[f->nslots] = value;
	f->width[f->nslots] = (uint8_t)bits;
	*slot = f->nslots++;
	st->module_slots++;
	return 0;
}

int ptx_emit(struct ptx_pstate *st, const struct ptx_insn *in,
	     uint32_t line, const struct ptx_tok *mnem)
{
	struct ptx_func *f = st->f;
	if (f->ncode == st->cap_code) {
		uint32_t nc = st->cap_code ? st->cap_code * 2 : 256;
		struct ptx_insn *c = nc < (1u << 26) ?
			realloc(f->code, nc * sizeof *c) : NULL;
		if (c)
			f->code = c;
		uint32_t *l = c ? realloc(f->lines, nc * sizeof *l) : NULL;
		if (l)
			f->lines = l;
		char **tx = l ? realloc(f->text, nc * sizeof *tx) : NULL;
		if (tx)
			f->text = tx;
		uint32_t *lc = tx ? realloc(f->loc, nc * sizeof *lc) : NULL;
		if (!lc)
			return ptx_perr(st, line, "out of memory");
		f->loc = lc;
		st->cap_code = nc;
	}
	char *text = NULL;
	if (mnem && !(text = ptx_dup_tok(mnem)))
		return ptx_perr(st, line, "out of memory");
	f->code[f->ncode] = *in;
	f->lines[f->ncode] = line;
	f->loc[f->ncode] = st->loc;
	f->text[f->ncode] = text;
	f->ncode++;
	return 0;
}

/* The call c of st->m's function i resolved; UB_RUNTIME with the
 * message when it cannot be. */
static int resolve_call(struct ptx_pstate *st, struct ptx_call *c)
{
	struct ptx_module *m = st->m;
	int j = 0;
	while (j < m->nfuncs && (m->funcs[j].is_entry ||
	       strlen(m->funcs[j].name) != c->len ||
	       memcmp(m->funcs[j].name, c->name, c->len)))
		j++;
	if (j == m->nfuncs)   /* e.g. vprintf, declared .extern */
		return ptx_perr(st, c->line, "call of undefined function '%.*s'",
				(int)c->len, c->name);
	const struct ptx_func *g = &m->funcs[j];
	if (g->nret != c->has_ret || g->nparams - g->nret != c->nargs)
		return ptx_perr(st, c->line, "call of '%s' with %d arguments and %s "
				"return value", g->name, c->nargs,
				c->has_ret ? "a" : "no");
	c->func = j;
	c->name = NULL;
	return 0;
}

/* Points every call at the .func it names, checking its arguments; a
 * function with a call that cannot be resolved cannot run (f->error). */
int ptx_resolve_calls(struct ptx_pstate *st)
{
	struct ptx_module *m = st->m;
	for (int i = 0; i < m->nfuncs; i++)
		for (int k = 0; k < m->funcs[i].ncalls && !m->funcs[i].error; k++)
			if (resolve_call(st, &m->funcs[i].calls[k]) &&
			    !(m->funcs[i].error = strdup(st->err->msg)))
				return ub_fail(st->err, UB_RUNTIME, "ptx: out of memory");
	return 0;
}

/* The first function that kernel e (a function index) reaches through
 * its calls, itself included, that cannot run; -1 if none. */
static int unrunnable(const struct ptx_module *m, int e, uint8_t *seen)
{
	if (seen[e])
		return -1;
	seen[e] = 1;
	if (m->funcs[e].error)
		return e;
	for (int k = 0; k < m->funcs[e].ncalls; k++) {
		int r = m->funcs[e].calls[k].func >= 0 ?
			unrunnable(m, m->funcs[e].calls[k].func, seen) : -1;
		if (r >= 0)
			return r;
	}
	return -1;
}

int ptx_check_runnable(const struct ptx_module *m, const char *entry,
		       struct ub_error *err)
{
	uint8_t *seen = calloc((size_t)m->nfuncs + 1, 1);
	int bad = -1, e = -1;
	if (!seen)
		return ub_fail(err, UB_RUNTIME, "ptx: out of memory");
	for (int i = 0; i < m->nfuncs && bad < 0; i++)
		if (!entry ? m->funcs[i].error != NULL :
		    m->funcs[i].is_entry && !strcmp(m->funcs[i].name, entry))
			bad = entry ? unrunnable(m, e = i, seen) : i;
	free(seen);
	if (bad < 0)
		return 0;
	if (e < 0 || bad == e)
		return ub_fail(err, UB_RUNTIME, "%s", m->funcs[bad].error);
	return ub_fail(err, UB_RUNTIME, "%s (in function '%s', which kernel '%s' "
		       "calls)", m->funcs[bad].error, m->funcs[bad].name, entry);
}

void ptx_free_func(struct ptx_func *f)
{
	free(f->name);
	free(f->error);
	for (int p = 0; p < f->nparams; p++)
		free(f->params[p].name);
	free(f->params);
	for (uint32_t k = 0; k < f->ncode; k++)
		free(f->text[k]);
	free(f->code);
	free(f->lines);
	free(f->loc);
	free(f->text);
	free(f->init);
	free(f->width);
	free(f->relocs);
	free(f->calls);
	free(f->reset);
	for (int k = 0; k < f->nlists; k++)
		free(f->lists[k]);
	free(f->lists);
	free(f->svars);
}

void ptx_free(struct ptx_module *m)
{
	if (!m)
		return;
	if (m->native_release)
		m->native_release(m);
	for (int i = 0; i < m->nfuncs; i++)
		ptx_free_func(&m->funcs[i]);
	free(m->funcs);
	for (int i = 0; i < m->nvars; i++) {
		free(m->vars[i].name);
		free(m->vars[i].data);
	}
	free(m->vars);
	for (int i = 0; i < m->nsvars; i++)
		free(m->svars[i].name);
	free(m->svars);
	for (int i = 0; i < m->nfiles; i++)
		free(m->files[i]);
	free(m->files);
	free(m);
}

int ptx_fusions(const struct ptx_module *m)
{
	return m->nfused;
}

int ptx_entry_nparams(const struct ptx_module *m, const char *entry)
{
	for (int i = 0; i < m->nfuncs; i++)
		if (m->funcs[i].is_entry && !strcmp(m->funcs[i].name, entry))
			return m->funcs[i].nparams;
	return -1;
}
