/* ptx_vars.c — module-level variables: .global and .const arrays with
 * their initializers (the kernel reads them, never writes), and .shared
 * declarations (module level or in a body), laid out in the block's
 * .shared memory, which ptx_block.c allocates for each block.
 *
 * An initializer element is an immediate of the array's type or, for a
 * 64-bit element, an address: NAME or generic(NAME).  A module array's
 * address is its host address; a function's (a kernel or .func whose
 * address the source took, as in `__device__ void *p = &kernel;`) is 0:
 * the sim makes no indirect calls, so nothing can call through it. */
#include "ptx_internal.h"

#include <stdlib.h>
#include <string.h>

static const struct ptx_tok *cur(struct ptx_pstate *st)
{
	return ptx_peek(st, 0);
}

/* A module array's address (its symbol), or 0 for any other name. */
static uint64_t address_of(const struct ptx_pstate *st, const struct ptx_tok *t)
{
	for (int i = 0; i < st->nsyms_module; i++) {
		const struct ptx_sym *s = &st->syms[i];
		if (s->space == 'g' && s->len == t->len && !memcmp(s->name, t->s, t->len))
			return s->value;
	}
	return 0;
}

/* One initializer element of type ty into *v; -1 if it is none. */
static int init_elem(struct ptx_pstate *st, int ty, uint64_t *v)
{
	if (ptx_imm(st, ty, v) == 0)
		return 0;
	int generic = ptx_tok_is(cur(st), "generic") && ptx_tok_is(ptx_peek(st, 1), "(");
	const struct ptx_tok *t = ptx_peek(st, generic ? 2 : 0);
	if (ptx_type_bits(ty) != 64 || t->kind != PTX_TK_WORD || t->s[0] == '%' ||
	    t->s[0] == '.' || (generic && !ptx_tok_is(ptx_peek(st, 3), ")")))
		return -1;
	*v = address_of(st, t);
	st->pos += generic ? 4 : 1;
	return 0;
}

/* [.align N] .type name[N] [= v | {v, ...}]; after .global or .const */
int ptx_parse_var(struct ptx_pstate *st)
{
	const struct ptx_tok *name;
	size_t size;
	unsigned align;
	int open, ty;
	uint32_t line = cur(st)->line;
	struct ptx_space sp = { ptx_tok_is(cur(st), ".const") ? ".const" : ".global",
				PTX_MAX_GLOBAL, " of .global/.const arrays per module",
				NULL };
	st->pos++;
	if (ptx_parse_decl(st, &sp, &name, &size, &align, &ty, &open))
		return UB_RUNTIME;
	unsigned elem = ptx_type_bits(ty) >= 8 ? ptx_type_bits(ty) / 8 : 1;
	uint64_t vals[4096];
	size_t n = 0;
	if (ptx_tok_is(cur(st), "=")) {
		st->pos++;
		int brace = ptx_tok_is(cur(st), "{");
		st->pos += brace;
		do {
			if (n && ptx_tok_is(cur(st), ","))
				st->pos++;
			if (n == sizeof vals / sizeof *vals || init_elem(st, ty, &vals[n]) < 0)
				return ptx_perr(st, line, "unsupported initializer of '%.*s'",
						(int)name->len, name->s);
			n++;
		} while (brace && ptx_tok_is(cur(st), ","));
		if (brace && ptx_expect(st, "}"))
			return UB_RUNTIME;
	}
	if (open)
		size = n * elem;
	if (n * elem > size || size == 0)
		return ptx_perr(st, line, "bad size of '%.*s'", (int)name->len, name->s);
	if (size > PTX_MAX_GLOBAL - st->global_size)   /* all arrays together */
		return ptx_too_large(st, line, &sp, name);
	st->global_size += size;
	struct ptx_module *m = st->m;
	int cap = m->nvars;
	if (ptx_grow(&m->vars, &cap, m->nvars + 1, sizeof *m->vars))
		return ptx_perr(st, line, "out of memory");
	struct ptx_var *v = &m->vars[m->nvars];
	v->name = ptx_dup_tok(name);
	v->data = calloc(1, size);
	v->size = size;
	if (!v->name || !v->data) {
		free(v->name);
		free(v->data);
		return ptx_perr(st, line, "out of memory");
	}
	m->nvars++;
	for (size_t i = 0; i < n; i++)
		for (unsigned b = 0; b < elem; b++)   /* little endian */
			v->data[i * elem + b] = (unsigned char)(vals[i] >> (8 * b));
	if (ptx_add_sym(st, name, 'g', (uint64_t)(uintptr_t)v->data))
		return UB_RUNTIME;
	return ptx_expect(st, ";");
}

/* [.extern] .shared [.align N] .type name[N]; at module level or in a
 * body: a symbol of space 's' whose value is its offset in the block's
 * .shared memory (every function's variables laid out one after another,
 * each at its alignment), or, for name[] (extern), of space 'd': the
 * start of the dynamic part, after all the static ones (the launch says
 * its size). */
int ptx_parse_shared(struct ptx_pstate *st)
{
	const struct ptx_tok *name;
	size_t size;
	unsigned align;
	int open, ty;
	uint32_t line = cur(st)->line;
	struct ptx_space sp = { ".shared", PTX_MAX_SHARED,
				" of .shared memory per module", NULL };
	st->pos++;
	if (ptx_parse_decl(st, &sp, &name, &size, &align, &ty, &open))
		return UB_RUNTIME;
	uint64_t *top = &st->m->shared_static, at = 0;
	if (!open) {
		unsigned a = align ? align : 1;
		at = (*top + a - 1) / a * a;
		if (size > PTX_MAX_SHARED - at)
			return ptx_too_large(st, line, &sp, name);
		*top = at + size;
	}
	if (ptx_add_sym(st, name, open ? 'd' : 's', at))
		return UB_RUNTIME;
	struct ptx_module *m = st->m;
	int cap = m->nsvars;
	if (!open && ptx_grow(&m->svars, &cap, m->nsvars + 1, sizeof *m->svars))
		return ptx_perr(st, line, "out of memory");
	if (!open && !(m->svars[m->nsvars].name = ptx_dup_tok(name)))
		return ptx_perr(st, line, "out of memory");
	if (!open) {
		m->svars[m->nsvars].off = at;
		m->svars[m->nsvars++].size = size;
	}
	return ptx_expect(st, ";");
}
