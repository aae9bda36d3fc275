/* ptx_insn_more.c — decodes the instructions that real kernels bring
 * beside arithmetic (PTX ISA 9.0): prmt (9.7.9.7), lop3 (9.7.8.6), trap
 * and nanosleep (Miscellaneous Instructions), cp.async with its
 * commit_group, wait_group and wait_all and cp.async.mbarrier.arrive
 * (9.7.9, data movement), mbarrier (9.7.13, parallel synchronization);
 * and the calls of __assertfail and vprintf (device assert and printf)
 * into instructions of their own (ptx_builtin.c runs them).  What each
 * does is in ptx_ops.h; parts of a mnemonic that change nothing here
 * (orderings, scopes, cache and prefetch hints) are accepted, any other
 * part is an error naming it.  cp.async and mbarrier make the function
 * block level: their memory is the block's .shared memory. */
#include "ptx_internal.h"

#include <string.h>

#define COUNT(a) ((int)(sizeof(a) / sizeof *(a)))

static const char *const families[] = { "prmt", "lop3", "trap", "nanosleep",
	"cp", "mbarrier" };

int ptx_is_more_insn(const struct ptx_tok *t)
{
	size_t n = 0;
	while (n < t->len && t->s[n] != '.')
		n++;
	for (int i = 0; i < COUNT(families); i++)
		if (strlen(families[i]) == n && !memcmp(families[i], t->s, n))
			return 1;
	return 0;
}

/* The mnemonic's parts after the base. */
struct parts {
	char base[16];
	char part[10][24];
	int n;
};

static int split(const struct ptx_tok *t, struct parts *p)
{
	memset(p, 0, sizeof *p);
	return ptx_split_mnemonic(t, 200, p->base, sizeof p->base, p->part,
				  (int)COUNT(p->part), &p->n);
}

/* Parts that change nothing on the interpreter: memory orderings and
 * scopes (every access happens in one order), the state spaces these
 * instructions allow (.shared::cluster: a cluster of one block), cache
 * and prefetch hints. */
static const char *const inert[] = { "relaxed", "acquire", "release", "cta",
	"cluster", "gpu", "sys", "shared", "shared::cta", "shared::cluster",
	"global", "ca", "cg", "L2::64B", "L2::128B", "L2::256B", "b64", "b32",
	"u32", "aligned" };

static int is_inert(const char *s)
{
	for (int i = 0; i < COUNT(inert); i++)
		if (!strcmp(inert[i], s))
			return 1;
	return 0;
}

/* Whether part s is among the parts p (after the first skip). */
static int has(const struct parts *p, int skip, const char *s)
{
	for (int i = skip; i < p->n; i++)
		if (!strcmp(p->part[i], s))
			return 1;
	return 0;
}

/* The first part from skip on that is neither inert nor among ok[] (a
 * list ending in NULL); NULL if none. */
static const char *stray(const struct parts *p, int skip, const char *const *ok)
{
	for (int i = skip; i < p->n; i++) {
		int fine = is_inert(p->part[i]);
		for (int k = 0; ok && ok[k] && !fine; k++)
			fine = !strcmp(ok[k], p->part[i]);
		if (!fine)
			return p->part[i];
	}
	return NULL;
}

static const struct ptx_tok *cur(struct ptx_pstate *st)
{
	return ptx_peek(st, 0);
}

static int comma_src(struct ptx_pstate *st, int ty, uint32_t *slot)
{
	return ptx_expect(st, ",") || ptx_opd_src(st, ty, slot);
}

/* An immediate integer operand (immLut, a wait_group count). */
static int imm_int(struct ptx_pstate *st, uint64_t max, uint64_t *v)
{
	if (ptx_imm(st, PTX_T_U64, v) || *v > max)
		return ptx_perr(st, cur(st)->line, "expected an integer constant "
				"of at most %llu, found '%.*s'", (unsigned long long)max,
				(int)cur(st)->len, cur(st)->s);
	return 0;
}

/* prmt.b32{.mode} d, a, b, c */
static const char *prmt(struct ptx_pstate *st, const struct parts *p,
			struct ptx_insn *in)
{
	static const char *const modes[] = { "", "f4e", "b4e", "rc8", "ecl", "ecr",
		"rc16" };
	if (p->n < 1 || strcmp(p->part[0], "b32") || p->n > 2)
		return "needs .b32 and at most one mode";
	for (int k = 1; p->n == 2 && k < COUNT(modes); k++)
		if (!strcmp(p->part[1], modes[k]))
			in->cmp = (uint8_t)k;
	if (p->n == 2 && !in->cmp)
		return "unknown mode (valid: f4e, b4e, rc8, ecl, ecr, rc16)";
	in->op = PTX_PRMT;
	in->bits = 32;
	in->dtype = PTX_T_B32;
	int ty[2] = { PTX_T_B32, PTX_T_B32 };
	return ptx_operands(st, in, PTX_S_ABC, ty) ? "" : NULL;
}

/* lop3.b32 d, a, b, c, immLut  and  lop3.{or,and}.b32 d|p, a, b, c, immLut, q:
 * the second is LOP3 then LOP3_P (d is a .b32 register, q a predicate, so
 * the first cannot overwrite what the second reads). */
static const char *lop3(struct ptx_pstate *st, const struct parts *p,
			struct ptx_insn *in, uint32_t line, const struct ptx_tok *mnem)
{
	int boolop = p->n == 2 ? (!strcmp(p->part[0], "or") ? 1 :
				  !strcmp(p->part[0], "and") ? 2 : -1) : 0;
	if (p->n < 1 || p->n > 2 || strcmp(p->part[p->n - 1], "b32") || boolop < 0)
		return "needs .b32, optionally after .or or .and";
	uint32_t pd = PTX_SLOT_SINK, q = PTX_SLOT_TRUE;
	uint64_t lut;
	in->op = PTX_LOP3;
	in->bits = 32;
	in->dtype = PTX_T_B32;
	if (ptx_opd_dst(st, &in->dst))
		return "";
	if (boolop && (ptx_expect(st, "|") || ptx_opd_dst(st, &pd)))
		return "";
	for (int i = 0; i < 3; i++)
		if (comma_src(st, PTX_T_B32, &in->src[i]))
			return "";
	if (ptx_expect(st, ",") || imm_int(st, 255, &lut))
		return "";
	in->aux = (uint8_t)lut;
	if (boolop && (ptx_expect(st, ",") || ptx_opd_pred(st, &q, NULL)))
		return "";
	if (ptx_expect(st, ";") || ptx_emit(st, in, line, mnem))
		return "";
	if (!boolop)
		return NULL;
	struct ptx_insn pi = { .op = PTX_LOP3_P, .guard = in->guard, .gneg = in->gneg,
			       .bits = 32, .dtype = PTX_T_B32, .cmp = (uint8_t)boolop,
			       .dst = pd, .src = { in->dst, q, PTX_SLOT_TRUE, PTX_SLOT_TRUE } };
	*in = pi;
	return NULL;
}

/* cp.async.{ca,cg}.shared{::cta}.global{.L2::cache_hint}{.L2::NB} [d], [s],
 * cp-size{, src-size | ignore-src}{, policy}: bits = 8 * cp-size; src[2]
 * the bytes read (a register or constant), src[3] the ignore-src
 * predicate (PTX_F_NEGC set when there is one); off: d's offset (low 32
 * bits) and s's (high 32 bits). */
static const char *cp_async_copy(struct ptx_pstate *st, const struct parts *p,
				 struct ptx_insn *in)
{
	static const char *const ok[] = { "async", "L2::cache_hint", NULL };
	int cg = has(p, 0, "cg"), hint = has(p, 0, "L2::cache_hint");
	int64_t doff, soff;
	uint64_t size;
	const char *bad = stray(p, 0, ok);
	if (bad)
		return "a qualifier the interpreter does not model";
	if (!has(p, 0, "shared") && !has(p, 0, "shared::cta"))
		return "needs .shared (or .shared::cta) and .global";
	in->op = PTX_CP_ASYNC;
	in->src[3] = PTX_SLOT_TRUE;
	if (ptx_opd_mem(st, &in->src[0], &doff) || ptx_expect(st, ",") ||
	    ptx_opd_mem(st, &in->src[1], &soff) || ptx_expect(st, ",") ||
	    imm_int(st, 16, &size))
		return "";
	if ((size != 4 && size != 8 && size != 16) || (cg && size != 16))
		return "cp-size must be 4, 8 or 16 (.cg: 16)";
	if (doff < INT32_MIN || doff > INT32_MAX || soff < INT32_MIN || soff > INT32_MAX)
		return "an address offset beyond 32 bits";
	in->off = (int64_t)(((uint64_t)(uint32_t)soff << 32) | (uint32_t)doff);
	in->bits = (uint8_t)(size * 8);
	if (ptx_new_slot(st, size, 32, &in->src[2]))
		return "";
	if (ptx_tok_is(cur(st), ",") && !(hint && ptx_tok_is(ptx_peek(st, 2), ";"))) {
		uint32_t s;
		st->pos++;
		if (ptx_opd_src(st, PTX_T_U32, &s))
			return "";
		if (st->f->width[s] == 1) {
			in->src[3] = s;
			in->flags |= PTX_F_NEGC;
		} else {
			in->src[2] = s;
		}
	}
	if (hint) {   /* the policy: caching does not change what is copied */
		uint32_t pol;
		if (comma_src(st, PTX_T_B64, &pol))
			return "";
	}
	st->f->block_level = 1;
	return NULL;
}

/* mbarrier.OP ... and cp.async.mbarrier.arrive{.noinc}.b64 [a]. */
static const char *mbarrier(struct ptx_pstate *st, const struct parts *p,
			    struct ptx_insn *in, int from_cp)
{
	static const char *const ops[] = { "init", "inval", "arrive", "arrive_drop",
		"test_wait", "try_wait", "pending_count" };
	static const char *const ok[] = { "parity", "noComplete", "noinc", "async",
		"mbarrier", NULL };
	int op = from_cp ? PTX_MB_CP_ARRIVE : -1, first = from_cp ? 3 : 1;
	for (int k = 0; !from_cp && p->n && k < COUNT(ops); k++)
		if (!strcmp(p->part[0], ops[k]))
			op = k;
	if (op < 0)
		return "needs init, inval, arrive, arrive_drop, test_wait, try_wait "
		       "or pending_count";
	if (has(p, 0, "expect_tx") || has(p, 0, "complete_tx"))
		return "transaction counts (.expect_tx, .complete_tx) belong to "
		       "bulk copies, which the interpreter does not run";
	if (stray(p, first, ok))
		return "a qualifier the interpreter does not model";
	if (!has(p, 0, "b64"))
		return "needs .b64";
	in->op = PTX_MBARRIER;
	in->cmp = (uint8_t)op;
	in->bits = 64;
	in->dtype = PTX_T_B64;
	in->dst = PTX_SLOT_SINK;
	in->src[1] = PTX_SLOT_TRUE;   /* a count of 1 */
	in->aux = has(p, 0, "shared") || has(p, 0, "shared::cta") ||
		  has(p, 0, "shared::cluster");   /* else a generic address */
	if (has(p, 0, "parity"))
		in->flags |= PTX_F_NEGC;     /* src[1] is a phase parity */
	if (has(p, 0, "noComplete"))
		in->flags |= PTX_F_SAT;      /* the arrive never completes a phase */
	if (has(p, 0, "noinc"))
		in->flags |= PTX_F_SAT;
	st->f->block_level = 1;
	if (op == PTX_MB_PENDING)
		return ptx_opd_dst(st, &in->dst) || ptx_expect(st, ",") ||
		       ptx_opd_src(st, PTX_T_B64, &in->src[1]) ? "" : NULL;
	if (op != PTX_MB_INIT && op != PTX_MB_INVAL && op != PTX_MB_CP_ARRIVE &&
	    (ptx_opd_dst(st, &in->dst) || ptx_expect(st, ",")))
		return "";
	if (ptx_opd_mem(st, &in->src[0], &in->off))
		return "";
	if (op == PTX_MB_INIT)
		return comma_src(st, PTX_T_U32, &in->src[1]) ? "" : NULL;
	if ((op == PTX_MB_ARRIVE || op == PTX_MB_ARRIVE_DROP) && ptx_tok_is(cur(st), ","))
		return comma_src(st, PTX_T_U32, &in->src[1]) ? "" : NULL;
	if (op == PTX_MB_TEST || op == PTX_MB_TRY) {
		if (comma_src(st, (in->flags & PTX_F_NEGC) ? PTX_T_U32 : PTX_T_B64,
			      &in->src[1]))
			return "";
		uint32_t hint;   /* try_wait's suspendTimeHint: a wait's length */
		if (op == PTX_MB_TRY && ptx_tok_is(cur(st), ",") &&
		    comma_src(st, PTX_T_U32, &hint))
			return "";
	}
	return NULL;
}

/* cp.async.*: a copy, commit_group, wait_group, wait_all, mbarrier.arrive. */
static const char *cp(struct ptx_pstate *st, const struct parts *p,
		      struct ptx_insn *in)
{
	uint64_t n;
	if (p->n < 1 || strcmp(p->part[0], "async"))
		return "only cp.async";
	if (p->n >= 2 && !strncmp(p->part[1], "bulk", 4))
		return "bulk copies (the tensor memory accelerator) are not run by "
		       "the interpreter";
	if (p->n == 2 && !strcmp(p->part[1], "commit_group")) {
		in->op = PTX_CP_COMMIT;
		st->f->block_level = 1;
		return NULL;
	}
	if (p->n == 2 && !strcmp(p->part[1], "wait_all")) {
		in->op = PTX_CP_WAIT;
		in->cmp = 1;
		st->f->block_level = 1;
		return NULL;
	}
	if (p->n == 2 && !strcmp(p->part[1], "wait_group")) {
		in->op = PTX_CP_WAIT;
		if (imm_int(st, 1u << 20, &n))
			return "";
		in->off = (int64_t)n;
		st->f->block_level = 1;
		return NULL;
	}
	if (p->n >= 2 && !strcmp(p->part[1], "mbarrier"))
		return p->n >= 3 && !strcmp(p->part[2], "arrive") ? mbarrier(st, p, in, 1)
		       : "only cp.async.mbarrier.arrive";
	return cp_async_copy(st, p, in);
}

/* call [(r),] name, (args) of __assertfail or vprintf, the call's operand
 * slots in c: in becomes ASSERTFAIL or PRINTF (1), or stays a call (0). */
int ptx_builtin_call(struct ptx_pstate *st, struct ptx_insn *in,
		     const struct ptx_call *c)
{
	int assert_ = c->len == 12 && !memcmp(c->name, "__assertfail", 12);
	int print = c->len == 7 && !memcmp(c->name, "vprintf", 7);
	if (!assert_ && !print)
		return 0;
	for (int i = 0; i < st->m->nfuncs; i++)   /* a body of its own: a call */
		if (strlen(st->m->funcs[i].name) == c->len &&
		    !memcmp(st->m->funcs[i].name, c->name, c->len) &&
		    st->m->funcs[i].ncode)
			return 0;
	if ((assert_ && c->nargs < 4) || (print && c->nargs != 2))
		return 0;
	in->op = assert_ ? PTX_ASSERTFAIL : PTX_PRINTF;
	in->dst = PTX_SLOT_SINK;
	for (int k = 0; k < 4; k++)
		in->src[k] = k < c->nargs ? c->args[k] : PTX_SLOT_TRUE;
	if (print)
		in->src[2] = c->has_ret ? c->ret : PTX_SLOT_SINK;
	return 1;
}

int ptx_decode_more(struct ptx_pstate *st, struct ptx_insn *in,
		    const struct ptx_tok *mnem, uint32_t line)
{
	struct parts p;
	const char *why = NULL;
	if (split(mnem, &p))
		return ptx_perr(st, line, "unsupported instruction '%.*s'",
				(int)mnem->len, mnem->s);
	if (!strcmp(p.base, "prmt")) {
		why = prmt(st, &p, in);
	} else if (!strcmp(p.base, "lop3")) {
		why = lop3(st, &p, in, line, mnem);
		if (!why && in->op == PTX_LOP3)   /* emitted, with its ';' */
			return 0;
		if (!why)
			return ptx_emit(st, in, line, mnem);
	} else if (!strcmp(p.base, "trap")) {
		in->op = PTX_TRAP;
		why = p.n ? "trap has no qualifiers" : NULL;
	} else if (!strcmp(p.base, "nanosleep")) {
		in->op = PTX_NANOSLEEP;
		in->bits = 32;
		why = p.n != 1 || strcmp(p.part[0], "u32") ? "needs .u32"
		      : ptx_opd_src(st, PTX_T_U32, &in->src[0]) ? "" : NULL;
	} else if (!strcmp(p.base, "cp")) {
		why = cp(st, &p, in);
	} else {
		why = mbarrier(st, &p, in, 0);
	}
	if (why && !why[0])   /* an operand's own error, already in st->err */
		return UB_RUNTIME;
	if (why)
		return ptx_perr(st, line, "unsupported instruction '%.*s': %s",
				(int)mnem->len, mnem->s, why);
	if (ptx_expect(st, ";"))
		return UB_RUNTIME;
	return ptx_emit(st, in, line, mnem);
}
