/* ptx_parse.c — reads a PTX module: directives, kernels (.entry), their
 * parameters and register declarations, local and module-level arrays
 * (with initializers), labels.  Instructions are decoded by ptx_insn.c.
 *
 * Accepted and ignored: .version, .target, .address_size,
 * .pragma, .section (skipped whole), linkage (.visible .weak .extern) and
 * performance directives (.maxntid, .minnctapersm, ...); .reqntid is kept
 * (a launch must match it).  .func definitions
 * are decoded like kernels (their return parameter first, then the
 * arguments), declarations dropped, and every call resolved to a
 * definition once the module is read; a call site's .param variables
 * live in the caller's local buffer.  .file and .loc give instructions
 * their source lines (ptx_loc.c).  After each body the ptxas fusion
 * model runs (ptx_fuse.c).  .shared variables get their offsets in the
 * block's .shared memory (ptx_vars.c). */
#include "ptx_internal.h"
#include "hash.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct ptx_tok *cur(struct ptx_pstate *st)
{
	return ptx_peek(st, 0);
}

static int expect(struct ptx_pstate *st, const char *s)
{
	const struct ptx_tok *t = cur(st);
	if (!ptx_tok_is(t, s))
		return ptx_perr(st, t->line, "expected '%s', found '%.*s'", s,
				(int)t->len, t->s);
	st->pos++;
	return 0;
}

/* Skips the rest of the current line (directives without ';'). */
static void skip_line(struct ptx_pstate *st)
{
	uint32_t line = cur(st)->line;
	while (cur(st)->kind != PTX_TK_END && cur(st)->line == line)
		st->pos++;
}

/* Skips to just past the next ';', or past a balanced {...} group. */
static int skip_stmt(struct ptx_pstate *st)
{
	int depth = 0;
	for (;; st->pos++) {
		const struct ptx_tok *t = cur(st);
		if (t->kind == PTX_TK_END)
			return ptx_perr(st, t->line, "unexpected end of input");
		if (ptx_tok_is(t, "{"))
			depth++;
		else if (ptx_tok_is(t, "}") && --depth == 0)
			break;
		else if (ptx_tok_is(t, ";") && depth == 0)
			break;
	}
	st->pos++;
	return 0;
}

/* Type name (".f32") at the current token, or -1. */
static int type_at(struct ptx_pstate *st)
{
	static const char *names[] = {
#define X(id, name, bits, kind) "." name,
		PTX_TYPES(X)
#undef X
	};
	for (int i = 0; i < PTX_NTYPES; i++)
		if (ptx_tok_is(cur(st), names[i]))
			return i;
	return -1;
}

/* A decimal count such as the 21 of %f<21>; -1 if not one. */
static long count_at(struct ptx_pstate *st)
{
	const struct ptx_tok *t = cur(st);
	char buf[24];
	if (t->kind != PTX_TK_WORD || t->len >= sizeof buf)
		return -1;
	memcpy(buf, t->s, t->len);
	buf[t->len] = 0;
	char *end;
	long v = strtol(buf, &end, 0);
	if (*end || v < 0 || v > (1L << 24))
		return -1;
	st->pos++;
	return v;
}

int ptx_add_sym(struct ptx_pstate *st, const struct ptx_tok *name, int space,
		uint64_t value)
{
	if (ptx_grow(&st->syms, &st->cap_syms, st->nsyms + 1, sizeof *st->syms))
		return ptx_perr(st, name->line, "out of memory");
	st->syms[st->nsyms++] = (struct ptx_sym){ name->s, name->len,
						  (uint8_t)space, value };
	return 0;
}

/* .reg .type name<N>, name2, ...;  (inline asm also writes .reg.type as
 * one token) */
static int parse_reg(struct ptx_pstate *st)
{
	uint32_t line = cur(st)->line;
	const struct ptx_tok *t = cur(st);
	int ty = -1;
	if (t->len > 4) {   /* ".reg.b32": the type is the rest */
		struct ptx_tok rest = *t;
		rest.s += 4, rest.len -= 4;
		for (int i = 0; i < PTX_NTYPES && ty < 0; i++)
			if (rest.len == ptx_type_name_len(i) + 1 &&
			    !memcmp(rest.s + 1, ptx_type_name(i), rest.len - 1))
				ty = i;
	} else {
		st->pos++;
		ty = type_at(st);
	}
	if (ty < 0)
		return ptx_perr(st, line, "unsupported register type '%.*s'",
				(int)cur(st)->len, cur(st)->s);
	st->pos++;
	unsigned bits = ptx_type_bits(ty);
	for (;;) {
		const struct ptx_tok *name = cur(st);
		if (name->kind != PTX_TK_WORD)
			return ptx_perr(st, line, "expected a register name");
		st->pos++;
		long count = 0;
		if (ptx_tok_is(cur(st), "<")) {
			st->pos++;
			if ((count = count_at(st)) < 0)
				return ptx_perr(st, line, "bad register count");
			if (expect(st, ">"))
				return UB_RUNTIME;
		}
		if ((uint64_t)count > PTX_MAX_FUNC_SLOTS - st->f->nslots)
			return ptx_perr(st, line, ".reg '%.*s<%ld>' of '%s': more "
					"than %u registers and constants in one "
					"function (the interpreter's limit)",
					(int)name->len, name->s, count,
					st->f->name, PTX_MAX_FUNC_SLOTS);
		if (ptx_grow(&st->regs, &st->cap_regs, st->nregs + 1, sizeof *st->regs))
			return ptx_perr(st, line, "out of memory");
		struct ptx_regdecl *d = &st->regs[st->nregs++];
		*d = (struct ptx_regdecl){ name->s, name->len, st->f->nslots,
					   (uint32_t)count, (uint8_t)bits };
		for (long i = 0; i < (count ? count : 1); i++) {
			uint32_t slot;
			if (ptx_new_slot(st, 0, bits, &slot))
				return UB_RUNTIME;
		}
		if (!ptx_tok_is(cur(st), ","))
			break;
		st->pos++;
	}
	return expect(st, ";");
}

/* "ptx:LINE: SPACE 'name' of 'func' exceeds ...": a declaration that
 * takes its space past the space's limit. */
int ptx_too_large(struct ptx_pstate *st, uint32_t line,
		  const struct ptx_space *sp, const struct ptx_tok *name)
{
	return ptx_perr(st, line, "%s '%.*s'%s%s%s exceeds the interpreter's "
			"limit of %llu bytes%s", sp->what,
			(int)name->len, name->s, sp->func ? " of '" : "",
			sp->func ? sp->func : "", sp->func ? "'" : "",
			(unsigned long long)sp->limit, sp->per);
}

/* A kernel parameter's pointer attributes after its type (PTX ISA
 * 5.1.6.4, "Kernel Function Parameter Attributes"): .ptr, then optionally
 * the space pointed into and .align N, e.g. Triton's ".param .u64 .ptr
 * .global .align 1 k_param_0" (one token or several).  They tell ptxas
 * what a pointer may alias; the interpreter checks every access anyway,
 * so they change nothing.  A .align here is the pointee's, not the
 * parameter's: the parameter keeps its type's alignment. */
static int ptr_attrs(struct ptx_pstate *st)
{
	static const char *const words[] = { "ptr", "global", "const", "local",
					     "shared", "align" };
	const struct ptx_tok *t = cur(st);
	if (t->len < 4 || memcmp(t->s, ".ptr", 4))
		return 0;
	for (;;) {
		t = cur(st);
		if (t->kind != PTX_TK_WORD || t->s[0] != '.')
			return 0;
		size_t i = 0, ok = 1, align = 0;
		while (i < t->len && ok) {   /* .ptr.global.align: word by word */
			size_t j = i + 1, k;
			while (j < t->len && t->s[j] != '.')
				j++;
			for (k = 0; k < sizeof words / sizeof *words; k++)
				if (strlen(words[k]) == j - i - 1 &&
				    !memcmp(t->s + i + 1, words[k], j - i - 1))
					break;
			ok = k < sizeof words / sizeof *words;
			align = ok && k == 5;
			i = j;
		}
		if (!ok)
			return 0;
		st->pos++;
		long a = align ? count_at(st) : 1;
		if (a <= 0 || (a & (a - 1)))
			return ptx_perr(st, t->line, "bad .align after .ptr "
					"(a power of two)");
	}
}

/* [.align N] .type name[dims] — shared by .param, .local and module
 * variables.  Sets *size in bytes (at most the space's limit, else an
 * error naming the variable), *align (a power of two), *type; *open for
 * name[]. */
int ptx_parse_decl(struct ptx_pstate *st, const struct ptx_space *sp,
		   const struct ptx_tok **name, size_t *size, unsigned *align,
		   int *type, int *open)
{
	uint32_t line = cur(st)->line;
	long al = 0;
	*open = 0;
	if (ptx_tok_is(cur(st), ".align")) {
		st->pos++;
		if ((al = count_at(st)) <= 0 || (al & (al - 1)))
			return ptx_perr(st, line, "bad .align (a power of two)");
	}
	int ty = type_at(st);
	if (ty < 0)
		return ptx_perr(st, line, "unsupported type '%.*s'",
				(int)cur(st)->len, cur(st)->s);
	st->pos++;
	*type = ty;
	if (sp->what[1] == 'p' && ptr_attrs(st))   /* a .param */
		return UB_RUNTIME;
	unsigned elem = ptx_type_bits(ty) / 8 ? ptx_type_bits(ty) / 8 : 1;
	*name = cur(st);
	if ((*name)->kind != PTX_TK_WORD)
		return ptx_perr(st, line, "expected a name");
	st->pos++;
	uint64_t n = elem;   /* bytes so far; past limit: too large */
	int over = 0;
	while (ptx_tok_is(cur(st), "[")) {
		st->pos++;
		long d = 0;
		if (ptx_tok_is(cur(st), "]"))
			*open = 1;
		else if ((d = count_at(st)) < 0)
			return ptx_perr(st, line, "bad array size");
		if (expect(st, "]"))
			return UB_RUNTIME;
		over |= __builtin_mul_overflow(n, (uint64_t)d, &n);
	}
	if (over || n > sp->limit)
		return ptx_too_large(st, line, sp, *name);
	*size = (size_t)n;
	*align = al ? (unsigned)al : elem;
	return 0;
}

/* v rounded up to a multiple of a (a power of two, at most 2^24; v at
 * most a limit of ptx_internal.h, so nothing wraps). */
static uint64_t align_up(uint64_t v, unsigned a)
{
	return (v + a - 1) & ~(uint64_t)(a - 1);
}

/* .local [.align N] .type name[N];  also a call site's .param inside a
 * body, which lives in the local buffer too. */
static int parse_local(struct ptx_pstate *st)
{
	const struct ptx_tok *name;
	size_t size;
	unsigned align;
	int open, ty;
	uint32_t line = cur(st)->line;
	struct ptx_space sp = { ptx_tok_is(cur(st), ".param") ? ".param" : ".local",
			    PTX_MAX_LOCAL, " of .local memory per thread",
			    st->f->name };
	st->pos++;
	if (ptx_parse_decl(st, &sp, &name, &size, &align, &ty, &open))
		return UB_RUNTIME;
	if (open)
		return ptx_perr(st, line, "%s array needs a size", sp.what);
	uint64_t off = align_up(st->f->local_size, align);
	if (off > PTX_MAX_LOCAL || size > PTX_MAX_LOCAL - off)
		return ptx_too_large(st, line, &sp, name);
	st->f->local_size = (size_t)(off + size);
	if (ptx_add_sym(st, name, 'l', off))
		return UB_RUNTIME;
	return expect(st, ";");
}

/* ( .param .type name, ... ) of an .entry. */
static int parse_params(struct ptx_pstate *st)
{
	struct ptx_func *f = st->f;
	int cap = f->nparams, first = f->nparams;
	if (!ptx_tok_is(cur(st), "("))
		return 0;
	st->pos++;
	while (!ptx_tok_is(cur(st), ")")) {
		const struct ptx_tok *name;
		size_t size;
		unsigned align;
		int open, ty;
		uint32_t line = cur(st)->line;
		if (f->nparams > first && expect(st, ","))
			return UB_RUNTIME;
		if (expect(st, ".param"))
			return UB_RUNTIME;
		struct ptx_space sp = { ".param", PTX_MAX_PARAM,
				    " of parameters per function", f->name };
		if (ptx_parse_decl(st, &sp, &name, &size, &align, &ty, &open) || open)
			return open ? ptx_perr(st, line, "bad .param") : UB_RUNTIME;
		uint64_t off = align_up(f->param_size, align);
		if (off > PTX_MAX_PARAM || size > PTX_MAX_PARAM - off)
			return ptx_too_large(st, line, &sp, name);
		if (ptx_grow(&f->params, &cap, f->nparams + 1, sizeof *f->params))
			return ptx_perr(st, line, "out of memory");
		struct ptx_param *p = &f->params[f->nparams];
		p->name = ptx_dup_tok(name);
		if (!p->name)
			return ptx_perr(st, line, "out of memory");
		p->offset = (uint32_t)off;
		p->size = (uint32_t)size;
		f->nparams++;
		f->param_size = (uint32_t)(off + size);
		if (ptx_add_sym(st, name, 'p', off))
			return UB_RUNTIME;
	}
	st->pos++;
	return 0;
}

static int add_label(struct ptx_pstate *st, const struct ptx_tok *t)
{
	for (int i = 0; i < st->nlabels; i++)
		if (st->labels[i].len == t->len &&
		    !memcmp(st->labels[i].name, t->s, t->len))
			return ptx_perr(st, t->line, "duplicate label '%.*s'",
					(int)t->len, t->s);
	if (ptx_grow(&st->labels, &st->cap_labels, st->nlabels + 1,
		     sizeof *st->labels))
		return ptx_perr(st, t->line, "out of memory");
	st->labels[st->nlabels++] = (struct ptx_label){ t->s, t->len, st->f->ncode };
	return 0;
}

/* Points every branch at its label. */
static int resolve_labels(struct ptx_pstate *st)
{
	for (int r = 0; r < st->nrefs; r++) {
		const struct ptx_labelref *ref = &st->refs[r];
		int i = 0;
		while (i < st->nlabels && !(st->labels[i].len == ref->len &&
			 !memcmp(st->labels[i].name, ref->name, ref->len)))
			i++;
		if (i == st->nlabels)
			return ptx_perr(st, ref->line, "unknown label '%.*s'",
					(int)ref->len, ref->name);
		st->f->code[ref->insn].off = st->labels[i].insn;
	}
	return 0;
}

/* One statement of a kernel body; *depth tracks { } scopes, whose
 * register declarations end with them. */
static int parse_body_stmt(struct ptx_pstate *st, int *scopes, int *depth)
{
	const struct ptx_tok *t = cur(st);
	if (ptx_tok_is(t, "{")) {
		if (*depth == 64)
			return ptx_perr(st, t->line, "blocks nested too deep");
		scopes[(*depth)++] = st->nregs;
		st->pos++;
		return 0;
	}
	if (ptx_tok_is(t, "}")) {
		st->nregs = scopes[--*depth];
		st->pos++;
		return 0;
	}
	if (ptx_tok_is(t, ".reg") || (t->len > 5 && !memcmp(t->s, ".reg.", 5)))
		return parse_reg(st);
	if (ptx_tok_is(t, ".local") || ptx_tok_is(t, ".param"))
		return parse_local(st);
	if (ptx_tok_is(t, ".pragma"))
		return skip_stmt(st);
	if (ptx_tok_is(t, ".loc")) {
		ptx_parse_loc(st);
		return 0;
	}
	if (ptx_tok_is(t, ".file"))
		return ptx_parse_file(st);
	if (ptx_tok_is(t, ".shared"))
		return ptx_parse_shared(st);
	if (t->kind == PTX_TK_WORD && ptx_tok_is(ptx_peek(st, 1), ":")) {
		st->pos += 2;
		return add_label(st, t);
	}
	if (t->kind == PTX_TK_WORD && t->s[0] == '.')
		return ptx_perr(st, t->line, "unsupported directive '%.*s'",
				(int)t->len, t->s);
	return ptx_decode_insn(st);
}

/* The body at `start` cannot be run: its error (in st->err) becomes the
 * function's (f->error), its code is dropped, and parsing goes on after
 * the body, so that one kernel of a file that the sim cannot run (shared
 * memory, barriers, atomics, printf) does not keep the others from
 * running.  ptx_parse_for and ptx_run report the error when a run reaches
 * the function. */
static int defer(struct ptx_pstate *st, size_t start)
{
	struct ptx_func *f = st->f;
	if (!(f->error = strdup(st->err->msg)))
		return ptx_perr(st, cur(st)->line, "out of memory");
	for (uint32_t k = 0; k < f->ncode; k++)
		free(f->text[k]);
	f->ncode = 0;
	f->ncalls = 0;
	st->pos = start;
	return skip_stmt(st);
}

static int parse_body(struct ptx_pstate *st)
{
	int scopes[64], depth = 1;
	uint32_t line = cur(st)->line;
	size_t start = st->pos;
	if (expect(st, "{"))
		return UB_RUNTIME;
	scopes[0] = st->nregs;
	while (depth > 0) {
		if (cur(st)->kind == PTX_TK_END)
			return ptx_perr(st, line, "unterminated kernel body");
		if (parse_body_stmt(st, scopes, &depth))
			return defer(st, start);
	}
	struct ptx_insn ret = { .op = PTX_RET };  /* falling off the end */
	if (ptx_emit(st, &ret, st->t[st->pos - 1].line, NULL))
		return UB_RUNTIME;
	if (resolve_labels(st) || ptx_fuse_pass(st) || ptx_undef_pass(st))
		return defer(st, start);
	return 0;
}

/* Slots 0 .. PTX_SLOT_FIRST-1: the constant 1, special registers, sink,
 * carry flag. */
static int init_slots(struct ptx_pstate *st)
{
	uint32_t slot;
	if (ptx_new_slot(st, 1, 1, &slot))
		return UB_RUNTIME;
	for (int i = 0; i < PTX_NSREGS; i++)
		if (ptx_new_slot(st, 0, 32, &slot))
			return UB_RUNTIME;
	return ptx_new_slot(st, 0, 64, &slot) || ptx_new_slot(st, 0, 1, &slot);
}

/* A new function named by the token `name`, made current. */
static int new_func(struct ptx_pstate *st, const struct ptx_tok *name,
		    int is_entry)
{
	struct ptx_module *m = st->m;
	if (name->kind != PTX_TK_WORD)
		return ptx_perr(st, name->line, "expected a %s name",
				is_entry ? "kernel" : "function");
	int cap = m->nfuncs;
	if (ptx_grow(&m->funcs, &cap, m->nfuncs + 1, sizeof *m->funcs))
		return ptx_perr(st, name->line, "out of memory");
	st->f = &m->funcs[m->nfuncs++];
	st->loc = 0;
	memset(st->f, 0, sizeof *st->f);
	st->f->is_entry = is_entry;
	if (!(st->f->name = ptx_dup_tok(name)))
		return ptx_perr(st, name->line, "out of memory");
	st->cap_code = st->cap_slots = 0;
	st->nregs = st->nlabels = st->nrefs = 0;
	st->nsyms = st->nsyms_module;
	return init_slots(st);
}

/* .reqntid X[, Y[, Z]] (PTX ISA 11.4.3): the only block size the kernel
 * may be launched with (Triton's kernels: 32 * num_warps threads), kept
 * so that a launch of another size is refused (ptx_run.c). */
static void reqntid(struct ptx_pstate *st)
{
	for (int k = 0; k < 3; k++)
		st->f->reqntid[k] = 1;
	st->pos++;
	for (int k = 0; k < 3; k++) {
		long v = count_at(st);
		st->f->reqntid[k] = v > 0 && v <= 1024 ? (unsigned)v : 0;
		if (v <= 0 || !ptx_tok_is(cur(st), ","))
			break;
		st->pos++;
	}
}

/* Past directives (.maxntid 256, 1, 1 ...) to the body; 1 when the
 * function is only declared (';'), -1 at the end of input. */
static int to_body(struct ptx_pstate *st)
{
	while (!ptx_tok_is(cur(st), "{")) {
		if (cur(st)->kind == PTX_TK_END)
			return -1;
		if (ptx_tok_is(cur(st), ";"))
			return 1;
		if (ptx_tok_is(cur(st), ".reqntid"))
			reqntid(st);
		else
			st->pos++;
	}
	return 0;
}

/* The function just begun (params read) is only declared: dropped. */
static void drop_decl(struct ptx_pstate *st)
{
	st->pos++;
	st->nsyms = st->nsyms_module;
	st->module_slots -= st->f->nslots;
	ptx_free_func(st->f);
	st->m->nfuncs--;
}

/* .entry name (params) directives { body }, or only its declaration
 * (';', as before a module variable that takes its address), dropped. */
static int parse_entry(struct ptx_pstate *st)
{
	st->pos++;
	const struct ptx_tok *name = cur(st);
	if (new_func(st, name, 1))
		return UB_RUNTIME;
	st->pos++;
	if (parse_params(st))
		return UB_RUNTIME;
	int body = to_body(st);
	if (body < 0)
		return ptx_perr(st, name->line, "kernel '%.*s' has no body",
				(int)name->len, name->s);
	if (body > 0) {
		drop_decl(st);
		return 0;
	}
	int rc = parse_body(st);
	st->nsyms = st->nsyms_module;
	return rc;
}

/* .func [(.param ret)] name (params) { body }, or only its declaration
 * (';'), which is dropped: calls are resolved against definitions. */
static int parse_func(struct ptx_pstate *st)
{
	size_t ret_at = ++st->pos;
	if (ptx_tok_is(cur(st), "(")) {
		int depth = 0;
		do {
			if (cur(st)->kind == PTX_TK_END)
				return ptx_perr(st, cur(st)->line, "unexpected end of input");
			depth += ptx_tok_is(cur(st), "(") - ptx_tok_is(cur(st), ")");
			st->pos++;
		} while (depth > 0);
	}
	const struct ptx_tok *name = cur(st);
	size_t args_at = st->pos + 1;
	if (new_func(st, name, 0))
		return UB_RUNTIME;
	st->pos = ret_at;
	if (parse_params(st))
		return UB_RUNTIME;
	st->f->nret = st->f->nparams;
	st->pos = args_at;
	if (st->f->nret > 1)
		return ptx_perr(st, name->line, "more than one return parameter");
	if (parse_params(st))
		return UB_RUNTIME;
	int body = to_body(st);
	if (body < 0)
		return ptx_perr(st, name->line, "function '%.*s' has no body",
				(int)name->len, name->s);
	if (body > 0) {   /* a declaration */
		drop_decl(st);
		return 0;
	}
	int rc = parse_body(st);
	st->nsyms = st->nsyms_module;
	return rc;
}

/* One module-level statement. */
static int parse_top(struct ptx_pstate *st)
{
	const struct ptx_tok *t = cur(st);
	if (ptx_tok_is(t, ".target")) { /* sm_NN[a|f]: the measured models' gate */
		const struct ptx_tok *a = ptx_peek(st, 1);
		if (a->kind == PTX_TK_WORD && a->len >= 5 && !memcmp(a->s, "sm_", 3))
			st->sm = st->m->sm = atoi(a->s + 3);
	}
	if (ptx_tok_is(t, ".file"))
		return ptx_parse_file(st);
	if (ptx_tok_is(t, ".version") || ptx_tok_is(t, ".target") ||
	    ptx_tok_is(t, ".address_size")) {
		skip_line(st);
		return 0;
	}
	if (ptx_tok_is(t, ".visible") || ptx_tok_is(t, ".weak") ||
	    ptx_tok_is(t, ".extern")) {
		st->pos++;
		return 0;
	}
	if (ptx_tok_is(t, ".entry"))
		return parse_entry(st);
	if (ptx_tok_is(t, ".func"))
		return parse_func(st);
	if (ptx_tok_is(t, ".section") || ptx_tok_is(t, ".pragma"))
		return skip_stmt(st);
	if (ptx_tok_is(t, ".global") || ptx_tok_is(t, ".const")) {
		int rc = ptx_parse_var(st);
		st->nsyms_module = st->nsyms;
		return rc;
	}
	if (ptx_tok_is(t, ".shared")) {
		int rc = ptx_parse_shared(st);
		st->nsyms_module = st->nsyms;
		return rc;
	}
	return ptx_perr(st, t->line, "unexpected '%.*s'", (int)t->len, t->s);
}

/* Symbols of extern .shared arrays (relocations of space 'd') now that
 * the static .shared variables of the whole module are known: the
 * dynamic part starts after them, 16-aligned. */
static void dynamic_shared(struct ptx_module *m)
{
	uint64_t base = (m->shared_static + 15) / 16 * 16;
	for (int i = 0; i < m->nfuncs; i++)
		for (int k = 0; k < m->funcs[i].nrelocs; k++)
			if (m->funcs[i].relocs[k].space == 'd')
				m->funcs[i].init[m->funcs[i].relocs[k].slot] =
					base + m->funcs[i].relocs[k].offset;
}

int ptx_parse(const char *text, struct ptx_module **out, struct ub_error *err)
{
	return ptx_parse_for(text, NULL, out, err);
}

int ptx_parse_for(const char *text, const char *entry, struct ptx_module **out,
		  struct ub_error *err)
{
	struct ptx_pstate st = { .err = err, .text = text };
	struct ptx_tok *toks;
	*out = NULL;
	if (ptx_lex(text, &toks, &st.ntok, err))
		return UB_RUNTIME;
	st.t = toks;
	st.m = calloc(1, sizeof *st.m);
	int rc = st.m ? 0 : ub_fail(err, UB_RUNTIME, "ptx: out of memory");
	while (!rc && cur(&st)->kind != PTX_TK_END)
		rc = parse_top(&st);
	if (!rc)
		rc = ptx_resolve_calls(&st);
	if (!rc) {
		dynamic_shared(st.m);
		ptx_share_files(st.m);
		ptx_prov_pass(st.m);
	}
	if (!rc)   /* what the run will need must be runnable */
		rc = ptx_check_runnable(st.m, entry, err);
	free(toks);
	free(st.regs);
	free(st.syms);
	free(st.labels);
	free(st.refs);
	if (rc) {
		ptx_free(st.m);
		return rc;
	}
	uint64_t h[2] = UB_HASH0;
	ub_hash_str(h, text);
	memcpy(st.m->text_key, h, sizeof h);
	*out = st.m;
	return 0;
}
