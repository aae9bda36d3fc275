/* native_gen.c — translates the decoded PTX of a kernel to C (native.h):
 * one function per kernel that runs every thread of a launch, with the
 * registers as locals, labels as gotos and each instruction a call of the
 * interpreter's own semantics, so that meaning is written once.
 *
 * The unit is the prelude (native_rt.h and the interpreter headers it
 * includes, embedded at build time) followed by, per kernel:
 *   - a static const table of its instructions, every field written out
 *     (PTX_INSN_FIELDS), each instruction's operand slots renumbered for
 *     its own small register array (below);
 *   - the function: registers as locals holding their initial values; the
 *     instructions that compute the same value in every thread
 *     (ptx_uniform.c) run once before the threads, as the batched
 *     executor runs them; then the grid in grid order, each thread reset
 *     as the interpreter resets one (ptx_frame_reset: the registers it may
 *     read unset, its .local memory), and its instructions in order.
 * An instruction of PTX_REG_CASES becomes, under its guard,
 *     { uint64_t R_[k] = { <operands> }; nat_OP(&I_[i], F_, R_, &k_); <operands> = R_[..]; }
 * where nat_OP is the case's statements (native_rt.h) and R_ holds its
 * distinct operand registers, copied in and all copied back (the C
 * compiler removes the copies: they are locals); the fixed slots (the
 * constant 1, special registers, the sink, the carry flag) live in F_.
 * ld/st call the interpreter's ptx_ld_at/ptx_st_at on an array of all
 * their operands, with a region cache per instruction (in memory, rc_:
 * prologue); bra, ret and exit
 * are gotos.  Every executed instruction counts one (n++, folded by the
 * compiler), and every executed bra checks the thread's count against the
 * budget as the interpreter does, so the same threads stop.  A failing
 * thread (bad address, budget) returns 1 with its index (ptx_native.h).
 *
 * trap and a failed device assert stop the thread as a failure does.
 * A kernel with an instruction this file does not know (one that is not
 * in PTX_REG_CASES, not ld/st and not bra/ret/exit), with calls, or
 * larger than NAT_MAX_CODE is not translated: the interpreter runs it. */
#include "native.h"
#include "ptx_batch.h"
#include "ptx_cases.h"
/* ptx_cases.h's operand names, not used here (F and A name fields) */
#undef A
#undef B
#undef C3
#undef D
#undef M
#undef SG

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAT_MAX_CODE 50000

/* A growing string. */
struct sbuf {
	char *s;
	size_t len, cap;
	int oom;
};

static void put(struct sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Room for more than need bytes in b (0), or b->oom set (-1). */
static int reserve(struct sbuf *b, size_t need)
{
	if (b->oom)
		return -1;
	if (b->s && need < b->cap)
		return 0;
	size_t cap = b->cap ? b->cap : 1 << 16;
	while (cap <= need)
		cap *= 2;
	char *s = realloc(b->s, cap);
	if (!s) {
		b->oom = 1;
		return -1;
	}
	b->s = s;
	b->cap = cap;
	return 0;
}

static void put(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	for (int pass = 0; pass < 2 && !b->oom; pass++) {
		va_start(ap, fmt);
		int n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->oom = 1;
			return;
		}
		if (b->s && b->len + (size_t)n < b->cap) {
			b->len += (size_t)n;
			return;
		}
		if (reserve(b, b->len + (size_t)n))
			return;
	}
}

/* text appended as it is (the prelude: no format, 90 KB). */
static void put_text(struct sbuf *b, const char *text)
{
	size_t n = strlen(text);
	if (reserve(b, b->len + n))
		return;
	memcpy(b->s + b->len, text, n + 1);
	b->len += n;
}

/* v in decimal, appended (the instruction tables are thousands of
 * numbers: vsnprintf for each was most of the translation's time). */
static void put_int(struct sbuf *b, long long v)
{
	char d[24], *q = d + sizeof d;
	unsigned long long u = v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v;
	*--q = 0;
	do
		*--q = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--q = '-';
	put_text(b, q);
}

static const char *const op_names[] = {
#define X(id, base, var, types, shape) #id,
	PTX_OPS(X)
#undef X
};

/* Ops whose meaning is a case of PTX_REG_CASES. */
static const unsigned char reg_case[PTX_NOPS] = {
#define X(op, ...) [PTX_##op] = 1,
	PTX_REG_CASES(X)
#undef X
};

static int is_store(int op)
{
	return op == PTX_ST_GLOBAL || op == PTX_ST_LOCAL || op == PTX_ST_GENERIC ||
	       op == PTX_ST_PARAM;
}

static int is_mem(int op)
{
	return op == PTX_LD_PARAM || op == PTX_LD_GLOBAL || op == PTX_LD_LOCAL ||
	       op == PTX_LD_GENERIC || op == PTX_ST_GLOBAL || op == PTX_ST_LOCAL ||
	       op == PTX_ST_GENERIC || op == PTX_ST_PARAM;
}

int ub_native_eligible(const struct ptx_func *f)
{
	/* a block-level kernel's threads run together on the interpreter
	   (ptx_block.c); the translation runs one thread after another */
	if (!f->is_entry || f->ncalls || f->ncode == 0 || f->ncode > NAT_MAX_CODE ||
	    f->block_level)
		return 0;
	for (uint32_t i = 0; i < f->ncode; i++) {
		const struct ptx_insn *in = &f->code[i];
		int op = in->op;
		if (op >= PTX_NOPS)
			return 0;
		if (op == PTX_BRA && (in->off < 0 || (uint64_t)in->off >= f->ncode))
			return 0;
		if (!reg_case[op] && !is_mem(op) && op != PTX_BRA && op != PTX_RET &&
		    op != PTX_EXIT && op != PTX_TRAP && op != PTX_ASSERTFAIL)
			return 0;
		if (in->guard >= f->nslots || in->dst >= f->nslots)
			return 0;
		for (int k = 0; k < 4; k++)
			if (in->src[k] >= f->nslots)
				return 0;
	}
	return 1;
}

/* The value of slot s as a C expression (an lvalue but for slot 0). */
static void val(struct sbuf *b, uint32_t s)
{
	put_text(b, s < PTX_SLOT_FIRST ? "F_[" : "r");
	put_int(b, s);
	if (s < PTX_SLOT_FIRST)
		put_text(b, "]");
}

/* The distinct operand slots of in (dst, src[0..3]) into ops; with
 * fixed = 0 only those at or above PTX_SLOT_FIRST.  Their number. */
static int operands(const struct ptx_insn *in, int fixed, uint32_t *ops)
{
	uint32_t all[5] = { in->dst, in->src[0], in->src[1], in->src[2], in->src[3] };
	int n = 0;
	for (int k = 0; k < 5; k++) {
		int seen = !fixed && all[k] < PTX_SLOT_FIRST;
		for (int j = 0; j < n && !seen; j++)
			seen = ops[j] == all[k];
		if (!seen)
			ops[n++] = all[k];
	}
	return n;
}

/* The index slot s has in an instruction whose operands are ops[0..n). */
static uint32_t renumber(uint32_t s, const uint32_t *ops, int n, int fixed)
{
	if (!fixed && s < PTX_SLOT_FIRST)
		return s;
	for (int j = 0; j < n; j++)
		if (ops[j] == s)
			return (uint32_t)j + (fixed ? 0 : PTX_SLOT_FIRST);
	return s;
}

/* The instruction table entry of in, operands renumbered. */
static void table_entry(struct sbuf *b, const struct ptx_insn *in)
{
	uint32_t ops[5];
	int fixed = is_mem(in->op), n = operands(in, fixed, ops);
	struct ptx_insn r = *in;
	r.guard = PTX_SLOT_TRUE;
	r.gneg = 0;
	r.dst = renumber(in->dst, ops, n, fixed);
	for (int k = 0; k < 4; k++)
		r.src[k] = renumber(in->src[k], ops, n, fixed);
	put_text(b, "\t{");
#define F(type, name, what)                                            \
	put_text(b, " ." #name " = ");                                  \
	put_int(b, (long long)r.name);                                  \
	put_text(b, ",");
#define A(type, name, cnt, what)                                       \
	put_text(b, " ." #name " = {");                                 \
	for (int k = 0; k < cnt; k++) {                                 \
		put_text(b, " ");                                       \
		put_int(b, (long long)r.name[k]);                       \
		put_text(b, ",");                                       \
	}                                                               \
	put_text(b, " },");
	PTX_INSN_FIELDS(F, A)
#undef F
#undef A
	put_text(b, " },\n");
}

/* One instruction's statements (without its guard). */
static void body(struct sbuf *b, const struct ptx_func *f, uint32_t i,
		 const uint32_t *cache, const char *fail)
{
	const struct ptx_insn *in = &f->code[i];
	uint32_t ops[5];
	int fixed = is_mem(in->op), n = operands(in, fixed, ops);
	if (in->op == PTX_BRA) {
		put(b, "if (n > budget) goto %s; goto L%lld;", fail, (long long)in->off);
		return;
	}
	if (in->op == PTX_RET || in->op == PTX_EXIT) {
		put(b, "goto done_;");
		return;
	}
	if (in->op == PTX_TRAP || in->op == PTX_ASSERTFAIL) {   /* the
		   interpreter reruns the thread and says what failed */
		put(b, "goto %s;", fail);
		return;
	}
	put_text(b, "{ uint64_t R_[");
	put_int(b, n ? n : 1);
	put_text(b, "] = {");
	for (int j = 0; j < n; j++) {
		put_text(b, j ? ", " : " ");
		val(b, ops[j]);
	}
	put_text(b, " }; ");
	if (fixed)
		put(b, "if (ptx_%s_at(c, &I_[%u], R_, 1, lbuf, &rc_[%u], &rc_[%u])) goto %s; ",
		    is_store(in->op) ? "st" : "ld", i, 2 * cache[i], 2 * cache[i] + 1, fail);
	else {
		put_text(b, "nat_");
		put_text(b, op_names[in->op]);
		put_text(b, "(&I_[");
		put_int(b, i);
		put_text(b, "], F_, R_, &kt_); ");
	}
	for (int j = 0; j < n; j++)
		if (ops[j] != PTX_SLOT_TRUE) {
			val(b, ops[j]);
			put_text(b, " = R_[");
			put_int(b, j);
			put_text(b, "]; ");
		}
	put_text(b, "}");
}

/* in under its guard, counted. */
static void insn(struct sbuf *b, const struct ptx_func *f, uint32_t i,
		 const uint32_t *cache, const char *fail)
{
	const struct ptx_insn *in = &f->code[i];
	put_text(b, "\t\t/* ");
	put_int(b, f->lines[i]);
	put_text(b, ": ");
	put_text(b, f->text[i] ? f->text[i] : "");
	put_text(b, " */ ");
	if (in->guard != PTX_SLOT_TRUE || in->gneg) {
		put_text(b, "if ((");
		val(b, in->guard);
		put_text(b, in->gneg ? " ^ 1) & 1) " : " ^ 0) & 1) ");
	}
	put_text(b, "{ n++; ");
	body(b, f, i, cache, fail);
	put_text(b, " }\n");
}

/* Which instructions are branch targets. */
static unsigned char *targets(const struct ptx_func *f)
{
	unsigned char *t = calloc(f->ncode, 1);
	for (uint32_t i = 0; t && i < f->ncode; i++)
		if (f->code[i].op == PTX_BRA)
			t[f->code[i].off] = 1;
	return t;
}

/* Whether v is the address of a byte of one of m's module variables (or
 * just past it): a constant slot holding a symbol's address, fixed for the
 * module's life but not from one process to the next, so it is read from
 * the frame rather than written into the unit (which would also change
 * the unit's cache key every run). */
static int module_address(const struct ptx_module *m, uint64_t v)
{
	for (int i = 0; i < m->nvars; i++) {
		uint64_t lo = (uint64_t)(uintptr_t)m->vars[i].data;
		if (m->vars[i].data && v >= lo && v - lo <= m->vars[i].size)
			return 1;
	}
	return 0;
}

/* The function's declarations: fixed slots, registers, caches. */
static void prologue(struct sbuf *b, const struct ptx_module *m,
		     const struct ptx_func *f, int k, uint32_t ncache)
{
	put(b, "int ub_nk_%d(struct ptx_native_args *ap_)\n{\n"
	    "\tstruct ptx_ctx *const c = ap_->c;\n"
	    "\tconst uint64_t *const fR_ = c->fr->R;\n"
	    "\tconst unsigned char *const lbuf = c->fr->local;\n"
	    "\tconst uint64_t budget = c->budget;\n"
	    /* the launch's shape in locals: the kernel's stores could
	       alias ap_'s arrays, which would be read again each thread */
	    "\tconst unsigned g_[3] = { ap_->grid[0], ap_->grid[1], ap_->grid[2] };\n"
	    "\tconst unsigned b_[3] = { ap_->block[0], ap_->block[1], ap_->block[2] };\n"
	    "\tstruct nat_cnt k_ = { 0, 0, 0 }, kt_;\n"
	    "\tuint64_t n = 0, total_ = 0, t_ = 0;\n\tuint64_t F_[%d];\n",
	    k, PTX_SLOT_FIRST);
	for (int s = 0; s < PTX_SLOT_FIRST; s++)
		put(b, "\tF_[%d] = fR_[%d];\n", s, s);
	/* every other slot a local holding its initial value: a literal
	 * (immediates, registers' zeros: the compiler folds what is never
	 * written), or the frame's value (symbol addresses: patched in, or
	 * of module variables) */
	unsigned char *rel = calloc(f->nslots, 1);
	for (int i = 0; rel && i < f->nrelocs; i++)
		rel[f->relocs[i].slot] = 1;
	if (!rel)
		b->oom = 1;
	for (uint32_t s = PTX_SLOT_FIRST; rel && s < f->nslots; s++)
		if (rel[s] || module_address(m, f->init[s]))
			put(b, "\tuint64_t r%u = fR_[%u];\n", s, s);
		else
			put(b, "\tuint64_t r%u = %lluull;\n", s, (unsigned long long)f->init[s]);
	free(rel);
	/* the region caches of ld/st (rc_[2k], rc_[2k + 1]: the start and
	 * span of the kth, ptx_ld_at) in memory: the asm makes the array's
	 * address escape, so the compiler keeps it there rather than in
	 * registers, which the thread's code needs (kept in registers, the
	 * caches made it spill and reload registers around its loops) */
	put(b, "\tuint64_t rc_[%u] = { 0 };\n"
	    "\t__asm__ volatile(\"\" : : \"r\"(rc_) : \"memory\");\n",
	    2 * ncache + 1);
	put(b, "\t(void)lbuf; (void)budget;\n");
}

/* The thread loop around the body (grid order: blocks then threads, x
 * fastest), each thread reset as ptx_frame_reset does. */
static void thread_loop(struct sbuf *b, const struct ptx_func *f)
{
	put(b, "\tfor (unsigned bz = 0; bz < g_[2]; bz++)\n"
	    "\tfor (unsigned by = 0; by < g_[1]; by++)\n"
	    "\tfor (unsigned bx = 0; bx < g_[0]; bx++) {\n"
	    "\t\tF_[%d] = bx; F_[%d] = by; F_[%d] = bz;\n"
	    "\tfor (unsigned tz = 0; tz < b_[2]; tz++)\n"
	    "\tfor (unsigned ty = 0; ty < b_[1]; ty++)\n"
	    "\tfor (unsigned tx = 0; tx < b_[0]; tx++) {\n"
	    "\t\tF_[%d] = tx; F_[%d] = ty; F_[%d] = tz;\n"
	    "\t\t{ uint64_t lin_ = tx + (uint64_t)b_[0] * (ty + (uint64_t)b_[1] * tz);\n"
	    "\t\t  F_[%d] = lin_ %% 32; F_[%d] = lin_ / 32; }\n",
	    PTX_SLOT_SREG + PTX_SR_CTAID_X, PTX_SLOT_SREG + PTX_SR_CTAID_Y,
	    PTX_SLOT_SREG + PTX_SR_CTAID_Z, PTX_SLOT_SREG + PTX_SR_TID_X,
	    PTX_SLOT_SREG + PTX_SR_TID_Y, PTX_SLOT_SREG + PTX_SR_TID_Z,
	    PTX_SLOT_SREG + PTX_SR_LANEID, PTX_SLOT_SREG + PTX_SR_WARPID);
	for (uint32_t k = 0; k < f->nreset; k++) {
		put(b, "\t\t");
		val(b, f->reset[k]);
		put(b, " = %lluull;\n", (unsigned long long)f->init[f->reset[k]]);
	}
	if (f->local_size)
		put(b, "\t\tmemset(c->fr->local, 0, %zu);\n", f->local_size);
	put(b, "\t\tn = 0; kt_ = (struct nat_cnt){ 0, 0, 0 };\n");
}

/* Kernel k; cache has room for f->ncode entries: each ld/st's index
 * among the kernel's ld/st, its region cache's (prologue). */
static void kernel(struct sbuf *b, const struct ptx_module *m,
		   const struct ptx_func *f, int k,
		   const uint8_t *uniform, const unsigned char *tgt, uint32_t *cache)
{
	uint32_t ncache = 0;
	for (uint32_t i = 0; i < f->ncode; i++)
		cache[i] = is_mem(f->code[i].op) ? ncache++ : 0;
	put(b, "\n/* kernel %s */\nstatic const struct ptx_insn I_%d[] = {\n", f->name, k);
	for (uint32_t i = 0; i < f->ncode; i++)
		table_entry(b, &f->code[i]);
	put(b, "};\n#define I_ I_%d\n", k);
	prologue(b, m, f, k, ncache);
	put(b, "\t/* the instructions uniform over the launch, once */\n"
	    "\tkt_ = (struct nat_cnt){ 0, 0, 0 };\n");
	for (uint32_t i = 0; i < f->ncode; i++)
		if (uniform[i])
			insn(b, f, i, cache, "fail_");
	put(b, "\tn = 0;\n");
	thread_loop(b, f);
	for (uint32_t i = 0; i < f->ncode; i++) {
		if (tgt[i])
			put(b, "\tL%u:;\n", i);
		if (uniform[i])
			put(b, "\t\t/* %u: computed once */ n++;\n", f->lines[i]);
		else
			insn(b, f, i, cache, "fail_");
	}
	put(b, "\tdone_:\n\t\ttotal_ += n; t_++;\n"
	    "\t\tk_.unmarked += kt_.unmarked; k_.fused += kt_.fused; k_.amask |= kt_.amask;\n"
	    "\t}\n\t}\n"
	    "\tap_->insns = total_; ap_->unmarked = k_.unmarked; ap_->fused = k_.fused;\n"
	    "\tap_->amask = k_.amask;\n\treturn 0;\n"
	    "fail_:\n\tap_->bad = t_; ap_->insns = total_; ap_->unmarked = k_.unmarked;\n"
	    "\tap_->fused = k_.fused; ap_->amask = k_.amask;\n\treturn 1;\n}\n#undef I_\n");
}

int ub_native_translate(const struct ptx_module *m, char **out,
			unsigned char *which)
{
	struct sbuf b = { 0 };
	int any = 0;
	*out = NULL;
	put_text(&b, ub_native_prelude);
	put(&b, "\n/* translated kernels */\n");
	for (int k = 0; k < m->nfuncs; k++) {
		const struct ptx_func *f = &m->funcs[k];
		which[k] = 0;
		if (!ub_native_eligible(f))
			continue;
		uint8_t *uni = ptx_uniform_insns(f);
		unsigned char *tgt = targets(f);
		uint32_t *cache = malloc(f->ncode * sizeof *cache);
		if (uni && tgt && cache) {
			kernel(&b, m, f, k, uni, tgt, cache);
			which[k] = 1;
			any = 1;
		} else {
			b.oom = 1;
		}
		free(uni);
		free(tgt);
		free(cache);
	}
	put(&b, "\nconst char ub_native_abi[] = PTX_NATIVE_ABI;\n"
	    "const size_t ub_native_sizes[] = PTX_NATIVE_SIZES;\n"
	    "const int ub_native_nfuncs = %d;\n"
	    "const ptx_native_fn ub_native_kernels[] = {", m->nfuncs);
	for (int k = 0; k < m->nfuncs; k++)
		put(&b, which[k] ? " ub_nk_%d," : " 0,", k);
	put(&b, " 0 };\n");
	if (b.oom) {
		free(b.s);
		return UB_RUNTIME;
	}
	if (!any) {
		free(b.s);
		return 0;
	}
	*out = b.s;
	return 0;
}
