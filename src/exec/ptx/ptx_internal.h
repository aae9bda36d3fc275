/* ptx_internal.h — the decoded form of a PTX module, shared by the parser
 * (ptx_lex.c, ptx_parse.c, ptx_insn.c) and the interpreter (ptx_exec.c,
 * ptx_float.c).
 *
 * Every operand of a decoded instruction is a slot index into one uint64_t
 * register file per thread: slot 0 holds the constant 1 (the guard of an
 * unguarded instruction), then come the special registers (%tid.x, ...),
 * a sink for `_`, and, in declaration order, the declared registers and
 * the immediates (constants whose value never changes).  A value of n bits
 * sits in the low n bits of its slot; predicates are 0 or 1. */
#ifndef UB_PTX_INTERNAL_H
#define UB_PTX_INTERNAL_H

#include "ptx.h"
#include "ptx_ops.h"

#include <stdint.h>

enum ptx_op {
#define X(id, base, var, types, shape) PTX_##id,
	PTX_OPS(X)
#undef X
	PTX_NOPS
};

enum ptx_type {
#define X(id, name, bits, kind) PTX_T_##id,
	PTX_TYPES(X)
#undef X
	PTX_NTYPES
};

enum ptx_rnd {
	PTX_RND_NONE,
#define X(id, name) PTX_RND_##id,
	PTX_RNDS(X)
#undef X
};

enum ptx_cmp {
#define X(id, name) PTX_CMP_##id,
	PTX_CMPS(X)
#undef X
	PTX_NCMPS
};

enum ptx_testp {
#define X(id, name) PTX_TP_##id,
	PTX_TESTPS(X)
#undef X
};

enum ptx_sreg {
#define X(id, name) PTX_SR_##id,
	PTX_SREGS(X)
#undef X
	PTX_NSREGS
};

/* The interpreter's limits on what PTX text declares, far above what
 * compiled kernels use; each is checked (with overflow-checked
 * arithmetic) where the text declares a size, and a declaration beyond
 * one is an error naming the variable and its line:
 *   .local bytes per thread of one function (its call-site .param
 *   variables included): CUDA's own limit of local memory per thread;
 *   .param bytes of one function's parameters;
 *   .global/.const bytes of a module's arrays, all together;
 *   register slots (declared registers, immediates, symbol addresses) of
 *   one function, and of the whole module. */
#define PTX_MAX_LOCAL (512u << 10)
#define PTX_MAX_PARAM 4096u
#define PTX_MAX_GLOBAL (256u << 20)
#define PTX_MAX_SHARED (1u << 20)    /* static .shared bytes; dynamic: the
					launch's shared=BYTES, below too */
#define PTX_MAX_FUNC_SLOTS (1u << 20)
#define PTX_MAX_MODULE_SLOTS (1u << 22)

/* Fixed slots. */
enum {
	PTX_SLOT_TRUE = 0,                   /* constant 1 */
	PTX_SLOT_SREG = 1,                   /* PTX_NSREGS special registers */
	PTX_SLOT_SINK = 1 + PTX_NSREGS,      /* `_`: written, never read */
	PTX_SLOT_CC = 2 + PTX_NSREGS,        /* CC.CF, the carry flag (0/1) */
	PTX_SLOT_FIRST = 3 + PTX_NSREGS      /* first declared register */
};

/* Operand layouts (ptx_ops.h's last column), parsed by ptx_operand.c:
 * A d,a  AB d,a,b  ABC d,a,b,c  CNT d(u32),a  WIDE d(2n),a,b
 * WIDE3 d(2n),a,b,c(2n)  SHIFT d,a,b(u32)  BFE d,a,b(u32),c(u32)
 * BFI d,a,b,c(u32),d(u32)  SETP p[|q],a,b[,[!]c]  SELP d,a,b,c(pred)
 * SLCT d,a,b,c(2nd type)  TESTP p,a  MOV d,a  PACK d,{a,..}  UNPACK {d,..},a
 * SET d,a(2nd type),b(2nd type)  CALL [(r),] name[, (a, ..)]
 * CVT d,a(2nd type)  LD d|{d,..},[a+off]  ST [a+off],b|{b,..}  BRA label
 * POLICY d, then operands that only the cache reads (skipped).
 * LD and ST with .L2::cache_hint take one more operand, the policy (read
 * and ignored: caching does not change what memory holds). */
enum ptx_shape {
	PTX_S_A, PTX_S_AB, PTX_S_ABC, PTX_S_CNT, PTX_S_WIDE, PTX_S_WIDE3,
	PTX_S_SHIFT, PTX_S_BFE, PTX_S_BFI, PTX_S_SETP, PTX_S_SELP, PTX_S_SLCT,
	PTX_S_TESTP, PTX_S_MOV, PTX_S_PACK, PTX_S_UNPACK, PTX_S_CVT, PTX_S_LD,
	PTX_S_ST, PTX_S_BRA, PTX_S_NONE, PTX_S_SET, PTX_S_CALL, PTX_S_POLICY,
	PTX_S_CVT2, PTX_S_BAR, PTX_S_SHFL, PTX_S_VOTE, PTX_S_MATCH,
	PTX_S_REDUX, PTX_S_ACTMASK, PTX_S_ELECT, PTX_S_ATOM, PTX_S_BUILTIN,
	PTX_S_CPASYNC, PTX_S_MBAR, PTX_S_MMA
};

/* Block and warp level operands (ptx_insn_block.c):
 * BAR a (barrier number; BAR_WARP: the mask)
 * SHFL d[|p], a, b, c, mask: src[0..3] a, b, c, mask; off the slot of p
 * VOTE d, [!]a, mask (PTX_F_NEGC: !a)   MATCH d[|p], a, mask (off: p)
 * REDUX d, a, mask   ACTMASK d   ELECT d|p, mask (src[0]: mask, off: p)
 * ATOM d, [a+off], b[, c]: src[0] a, src[1] b, src[2] c; red: d is the sink
 * The sub-operation (shfl mode, vote mode, atom operation) is in cmp. */
enum ptx_bop {
	PTX_B_UP, PTX_B_DOWN, PTX_B_BFLY, PTX_B_IDX,      /* shfl */
	PTX_B_ALL, PTX_B_ANY, PTX_B_UNI, PTX_B_BALLOT,    /* vote, match */
	PTX_B_ADD, PTX_B_MIN, PTX_B_MAX, PTX_B_INC, PTX_B_DEC, PTX_B_AND,
	PTX_B_OR, PTX_B_XOR, PTX_B_EXCH, PTX_B_CAS        /* atom, redux */
};
/* mbarrier's sub-operations (MBARRIER's cmp; ptx_insn_more.c decodes,
 * ptx_async.c runs them): init, inval, arrive, arrive_drop, test_wait,
 * try_wait, pending_count, cp.async.mbarrier.arrive. */
enum { PTX_MB_INIT, PTX_MB_INVAL, PTX_MB_ARRIVE, PTX_MB_ARRIVE_DROP, PTX_MB_TEST,
       PTX_MB_TRY, PTX_MB_PENDING, PTX_MB_CP_ARRIVE };
/* atom/red space (aux): generic, global, shared. */
enum { PTX_AS_GENERIC, PTX_AS_GLOBAL, PTX_AS_SHARED };

/* Instruction flags. */
enum {
	PTX_F_FTZ = 1 << 0,      /* .ftz */
	PTX_F_SAT = 1 << 1,      /* .sat */
	PTX_F_SIGNED = 1 << 2,   /* .s type (integer ops, cvt source) */
	PTX_F_UNMARKED = 1 << 3, /* float mul/add/sub without rounding modifier */
	PTX_F_NAN = 1 << 4,      /* min/max .NaN */
	PTX_F_DSIGNED = 1 << 5,  /* cvt: signed integer destination */
	PTX_F_NEGC = 1 << 6,     /* setp: the combining predicate is !c */
	PTX_F_SRC_F32 = 1 << 7,  /* slct: c is .f32 */
	PTX_F_SEXT = 1 << 8,     /* ld, cvt: a narrow signed result is
				    sign-extended to the register width */
	PTX_F_CC = 1 << 9,       /* .cc: write the carry (borrow) to CC.CF */
	PTX_F_CIN = 1 << 10,     /* addc, subc, madc: CC.CF comes in */
	PTX_F_NEGA = 1 << 11,    /* FUSED: negate a (c - a*b) */
	PTX_F_NEGC3 = 1 << 12,   /* FUSED: negate c (a*b - c) */
	PTX_F_GUESS = 1 << 13,   /* FUSED: which product ptxas fuses is a guess */
	PTX_F_HINT = 1 << 14,    /* ld/st .L2::cache_hint: a policy operand */
	PTX_F_CLAMP = 1 << 15    /* shf .clamp (else .wrap) */
};

/* setp combining operation (aux field). */
enum { PTX_BOOL_NONE, PTX_BOOL_AND, PTX_BOOL_OR, PTX_BOOL_XOR };

/* The fields of a decoded instruction, declared once (the native
 * translator, src/exec/native/, writes every one of them out):
 * F(type, name, comment) a field, A(type, name, count, comment) an array. */
#define PTX_INSN_FIELDS(F, A)                                                  \
	F(uint16_t, op, "enum ptx_op")                                         \
	F(uint16_t, flags, "PTX_F_*")                                          \
	F(uint8_t, rnd, "enum ptx_rnd (float ops: never NONE)")                \
	F(uint8_t, bits, "operand width; cvt/ld: destination width")           \
	F(uint8_t, sbits, "cvt: source width")                                 \
	F(uint8_t, cmp, "setp: enum ptx_cmp; testp: enum ptx_testp; "         \
	  "approximate ops: 1 when the measured sm_90 model runs (mufu.h)")     \
	F(uint8_t, aux, "setp: PTX_BOOL_*; cvt, set: source type; ld/st: "     \
	  "vector length")                                                     \
	F(uint8_t, dtype, "cvt: destination type (enum ptx_type)")             \
	F(uint8_t, gneg, "guard: 1 runs when the predicate is 0 (@!p)")        \
	F(uint8_t, rbits, "ld, cvt: width of the destination register")        \
	F(uint32_t, guard, "slot of the guard predicate")                      \
	F(uint32_t, dst, "slot of d (setp: p)")                                \
	A(uint32_t, src, 4, "slots of a, b, c, d; setp: a, b, c, q; ld "       \
	  "vector: further destinations")                                      \
	F(int64_t, off, "ld/st: address offset; bra: target index; call: "     \
	  "index into the function's calls; shape MMA: its operand list "     \
	  "(uint32_t *, one of the function's lists: ptx_mma.h)")

struct ptx_insn {
#define F(type, name, what) type name;
#define A(type, name, n, what) type name[n];
	PTX_INSN_FIELDS(F, A)
#undef F
#undef A
};

/* A kernel parameter in the param buffer. */
struct ptx_param {
	char *name;
	uint32_t offset, size;   /* bytes */
};

/* A module-level .global or .const array (read-only for the kernel). */
struct ptx_var {
	char *name;
	unsigned char *data;
	size_t size;
};

/* A static .shared variable of the module: where it is in the block's
 * .shared memory, for messages and the limits (ptx_vars.c). */
struct ptx_svar {
	char *name;
	uint64_t off, size;
};

/* A constant slot whose value is an address in the function's local
 * buffer ('l') or parameter buffer ('p'), patched when a run knows where
 * that buffer is. */
struct ptx_reloc {
	uint32_t slot;
	uint64_t offset;
	uint8_t space;
};

/* One call site: `call (ret), name, (args)`; the ret and arg slots hold
 * the addresses of the caller's call-site .param variables (which live in
 * its local buffer). */
#define PTX_MAX_CALL_ARGS 8
struct ptx_call {
	int func;                  /* index into the module's functions */
	int has_ret, nargs;
	uint32_t ret, args[PTX_MAX_CALL_ARGS];
	const char *name;          /* into the PTX text, until resolved */
	uint32_t len, line;
};

struct ptx_func {
	char *name;
	int is_entry;            /* .entry (a kernel), else .func */
	char *error;             /* why the sim cannot run it (a body it
				    cannot decode, a call it cannot resolve;
				    no code then), reported when a run needs
				    it; NULL: none */
	struct ptx_param *params;  /* .func: the return parameter first */
	int nparams, nret;
	uint32_t param_size;
	struct ptx_insn *code;
	uint32_t ncode;
	uint32_t *lines;         /* PTX line of each instruction */
	uint32_t *loc;           /* its source line (.loc, ptx_loc.c): file
				    number and line; 0: none known */
	char *const *files;      /* the module's .file names by number */
	int nfiles;
	char **text;             /* mnemonic of each instruction (messages) */
	uint32_t nslots;
	uint64_t *init;          /* initial value of every slot */
	uint8_t *width;          /* declared width of every slot, in bits */
	struct ptx_reloc *relocs;
	int nrelocs;
	size_t local_size;       /* bytes of .local per thread */
	unsigned reqntid[3];     /* .reqntid X[, Y[, Z]]: the block a launch
				    must have (unset dimensions 1); 0: any */
	uint32_t *reset;         /* slots that may be read before written
				    (ptx_undef.c): reset for every thread */
	uint32_t nreset;
	struct ptx_call *calls;
	int ncalls;
	uint64_t shared_bytes;   /* bytes of the static .shared variables it
				    names (each once), as ptxas counts them */
	int *svars, nsvars;      /* which (indices into the module's) */
	uint64_t read_params;    /* a kernel: the parameters it may read
				    memory through (ptx_prov.c), bit k for
				    parameter k, bit 63 for the 64th on */
	int block_level;         /* uses .shared memory, barriers, warp or
				    atomic instructions: its threads run
				    together, a block at a time (ptx_block.c) */
	uint32_t **lists;        /* the operand lists of its tensor-core
				    instructions (ptx_mma.h), owned here */
	int nlists;
};

/* A kernel translated to native code (src/exec/native/, ptx_native.h):
 * it runs the whole grid of a launch; 0, or 1 when a thread failed. */
struct ptx_native_args;
typedef int (*ptx_native_fn)(struct ptx_native_args *a);

struct ptx_module {
	struct ptx_func *funcs;
	int nfuncs;
	int nfused;              /* adds the ptxas model fuses (ptx_fuse.c) */
	struct ptx_var *vars;
	int nvars;
	uint64_t shared_static;  /* bytes of the static .shared variables
				    (all functions'); dynamic .shared (extern
				    name[]) starts after them, 16-aligned */
	/* native code attached by src/exec/native/ (NULL: none): per
	 * function, its translation or NULL (the interpreter runs it), and
	 * what ptx_free calls to let it go */
	ptx_native_fn *native;
	void *native_lib;
	void (*native_release)(struct ptx_module *m);
	struct ptx_svar *svars;  /* the static .shared variables */
	int nsvars;
	int sm;                  /* .target sm_NN: NN; 0 none */
	char **files;            /* .file names by number (ptx_loc.c) */
	int nfiles;
	uint64_t text_key[2];    /* the digest of the PTX text it was parsed
				    from (hash.h): with the measured models'
				    presence and the parser's and
				    translator's sources, all that its
				    native code depends on (native_cc.c) */
};

/* Arithmetic in the directed rounding modes (ptx_dir.h, inline for f32,
 * and ptx_dir.c), without changing the host's mode; conversions
 * (ptx_cvt.c). */
enum ptx_fop { PTX_FOP_ADD, PTX_FOP_SUB, PTX_FOP_MUL, PTX_FOP_FMA,
	       PTX_FOP_DIV, PTX_FOP_RCP, PTX_FOP_SQRT };
double ptx_f64_rnd(int fop, int rnd, double a, double b, double c);
/* Approximate f32 instruction `op` (PTX_DIV_APPROX_F32, ...), modelled. */
float ptx_f32_approx(int op, float a, float b, int ftz);
/* rcp.approx.ftz.f64, rsqrt.approx{.ftz}.f64, modelled. */
double ptx_f64_approx(int op, double a, int ftz);
/* cvt of the value bits `a` from type stype to type dtype (enum
 * ptx_type), with the rounding, FTZ and saturation of `in`. */
uint64_t ptx_cvt(const struct ptx_insn *in, uint64_t a);
/* The same by the exact integer method alone, for every cvt (ptx_cvt
 * takes float shortcuts where they give the same bits: tests compare). */
uint64_t ptx_cvt_exact(const struct ptx_insn *in, uint64_t a);
/* cvt.{rn,rz}.{f16x2,bf16x2}.f32 d, a, b: a to the upper half, b to the
 * lower one, each rounded once (PTX ISA [data] cvt). */
uint64_t ptx_cvt_x2(const struct ptx_insn *in, uint64_t a, uint64_t b);

/* Binary formats and exact values (ptx_cvt.c), for cvt and the 16-bit
 * float arithmetic of ptx_half.c. */
struct ptx_fmt {
	int p, emin, emax, bits;   /* precision (hidden bit included) */
};
struct ptx_val {                   /* (-1)^sign * mag * 2^exp */
	int cls, sign, exp;        /* cls: 0 zero, 1 finite, 2 inf, 3 NaN */
	uint64_t mag;
};
const struct ptx_fmt *ptx_fmt_of(int ty);   /* f16, bf16 (x2 too), f32, f64 */
struct ptx_val ptx_decode(const struct ptx_fmt *f, uint64_t bits);
/* Rounds v once to format f (PTX_RND_RN..RP); NaN gives the canonical NaN
 * of the format (all ones but the sign). */
uint64_t ptx_round(const struct ptx_fmt *f, struct ptx_val v, int rnd);
double ptx_val_double(struct ptx_val v);   /* exact for v of <= 53 bits */
/* set.CMP.dtype.stype (ptx_set.c). */
uint64_t ptx_set(const struct ptx_insn *in, uint64_t a, uint64_t b);
/* f16/bf16 (and x2) arithmetic, min/max/neg/abs, and values (ptx_half.c). */
uint64_t ptx_half_op(const struct ptx_insn *in, uint64_t a, uint64_t b,
		     uint64_t c);
double ptx_half_value(const struct ptx_insn *in, uint64_t a);
/* ex2/tanh .approx of f16, bf16 and their x2 forms (fn: UB_MF_EX2_H or
 * UB_MF_TANH_H): the measured table where in->cmp, else the function in
 * double rounded to the format (.ftz: flushed), lane by lane. */
uint64_t ptx_half_approx(const struct ptx_insn *in, uint64_t a, int fn);

/* Lexer (ptx_lex.c). */
enum ptx_tok_kind { PTX_TK_END, PTX_TK_WORD, PTX_TK_STRING, PTX_TK_PUNCT };
struct ptx_tok {
	const char *s;     /* text (not terminated) */
	uint32_t len;
	uint32_t line;
	uint8_t kind;
};
/* Mnemonic t ("mma.sync.aligned.m16n8k16") split at its dots: the base
 * ("mma") into base, each suffix into part[0..*n-1] (at most max, each
 * under 24 bytes); -1 when t is maxlen bytes or more, or a piece does not
 * fit (ptx_lex.c). */
int ptx_split_mnemonic(const struct ptx_tok *t, size_t maxlen, char *base, size_t blen,
		       char (*part)[24], int max, int *n);
int ptx_lex(const char *text, struct ptx_tok **out, size_t *n,
	    struct ub_error *err);

/* Parser state shared by ptx_parse.c and ptx_insn.c. */
struct ptx_regdecl {
	const char *name;  /* prefix, e.g. "%f" (points into the text) */
	uint32_t len;
	uint32_t base;     /* first slot */
	uint32_t count;    /* 0: a single register named exactly `name` */
	uint8_t bits;
};
struct ptx_sym {           /* .param / .local / module variable */
	const char *name;
	uint32_t len;
	uint8_t space;     /* 'p' param, 'l' local, 'g' global/const,
			      's' .shared (value: its offset in the
			      block's .shared memory), 'd' extern .shared
			      (at the start of the dynamic part) */
	uint64_t value;    /* param/local offset, or host address */
};
struct ptx_labelref {
	uint32_t insn, line;
	const char *name;
	uint32_t len;
};
struct ptx_label {
	const char *name;
	uint32_t len, insn;
};

struct ptx_pstate {
	const char *text;          /* the PTX text (messages quote it) */
	const struct ptx_tok *t;   /* all tokens */
	size_t pos, ntok;
	struct ub_error *err;
	struct ptx_module *m;
	struct ptx_func *f;        /* function being decoded */
	uint32_t cap_code, cap_slots;
	struct ptx_regdecl *regs;
	int nregs, cap_regs;
	struct ptx_sym *syms;
	int nsyms, cap_syms, nsyms_module;
	struct ptx_label *labels;
	int nlabels, cap_labels;
	struct ptx_labelref *refs;
	int nrefs, cap_refs;
	uint64_t global_size;      /* bytes of the module's arrays so far */
	uint32_t module_slots;     /* slots of all functions so far */
	int sm;                    /* .target sm_NN: NN (90 for sm_90a), 0: none */
	uint32_t loc;              /* the last .loc of the body (ptx_loc.c) */
};

/* The token k places after the current one, or the END token that
 * closes the array when that is nearer: every lookahead of the parser
 * goes through here, so none reads past the tokens. */
static inline const struct ptx_tok *ptx_peek(const struct ptx_pstate *st,
					     size_t k)
{
	size_t last = st->ntok - 1;   /* the END token */
	return &st->t[st->pos >= last || k > last - st->pos ? last : st->pos + k];
}

/* Where a declaration's bytes go, for its limit and messages. */
struct ptx_space {
	const char *what;    /* ".local", ".param", ".global" */
	uint64_t limit;      /* bytes (the limits above) */
	const char *per;     /* " of .local memory per thread", ... */
	const char *func;    /* the function declaring it; NULL: the module */
};
/* [.align N] .type name[dims] — shared by .param, .local and module
 * variables.  Sets *size in bytes (at most the space's limit, else an
 * error naming the variable), *align (a power of two), *type; *open for
 * name[] (ptx_parse.c). */
int ptx_parse_decl(struct ptx_pstate *st, const struct ptx_space *sp,
		   const struct ptx_tok **name, size_t *size, unsigned *align,
		   int *type, int *open);
/* "ptx:LINE: SPACE 'name' of 'func' exceeds ...": a declaration that
 * takes its space past the space's limit. */
int ptx_too_large(struct ptx_pstate *st, uint32_t line,
		  const struct ptx_space *sp, const struct ptx_tok *name);
int ptx_add_sym(struct ptx_pstate *st, const struct ptx_tok *name, int space,
		uint64_t value);
/* Module-level .global/.const arrays and .shared declarations, at the
 * directive's token (ptx_vars.c). */
int ptx_parse_var(struct ptx_pstate *st);
int ptx_parse_shared(struct ptx_pstate *st);
/* Block and warp level instructions (ptx_insn_block.c): 1 if the
 * mnemonic token t is one (then decoded into *in and emitted, or an
 * error), 0 if not. */
int ptx_is_block_insn(const struct ptx_tok *t);
int ptx_decode_block(struct ptx_pstate *st, struct ptx_insn *in,
		     const struct ptx_tok *mnem, uint32_t line);
/* The other instructions of ptx_insn_more.c (prmt, lop3, trap,
 * nanosleep, cp.async, mbarrier): as for the block level ones. */
int ptx_is_more_insn(const struct ptx_tok *t);
int ptx_decode_more(struct ptx_pstate *st, struct ptx_insn *in,
		    const struct ptx_tok *mnem, uint32_t line);
/* A call (its operands in c) of __assertfail or vprintf, which no
 * function of the module defines: in becomes ASSERTFAIL or PRINTF (1);
 * any other call stays one (0). */
struct ptx_call;
int ptx_builtin_call(struct ptx_pstate *st, struct ptx_insn *in,
		     const struct ptx_call *c);
/* Operands for it (ptx_operand.c): a destination register, a source of
 * type ty, a memory operand [base+off]. */
int ptx_opd_dst(struct ptx_pstate *st, uint32_t *slot);
int ptx_opd_src(struct ptx_pstate *st, int ty, uint32_t *slot);
int ptx_opd_mem(struct ptx_pstate *st, uint32_t *base, int64_t *off);

/* Grows *p (of *cap elements of size sz) to hold n; 0 or UB_RUNTIME. */
int ptx_grow(void *p, int *cap, int n, size_t sz);
/* "ptx:LINE: ..." into st->err; returns UB_RUNTIME. */
int ptx_perr(struct ptx_pstate *st, uint32_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int ptx_tok_is(const struct ptx_tok *t, const char *s);
/* New slot of `bits` bits holding `value` initially. */
int ptx_new_slot(struct ptx_pstate *st, uint64_t value, unsigned bits,
		 uint32_t *slot);
/* Immediate at the current token (an optional '-' and a literal:
 * 123, 0x7f, 0f3F800000, 0d3FF0000000000000, 1.5, or WARP_SZ), converted to type ty
 * (enum ptx_type) and advanced past; 0, or -1 with the position unchanged
 * when the token is not a literal. */
int ptx_imm(struct ptx_pstate *st, int ty, uint64_t *v);
unsigned ptx_type_bits(int ty);
const char *ptx_type_name(int ty);     /* "f32" (no dot) */
unsigned ptx_type_name_len(int ty);
int ptx_type_kind(int ty);   /* 'B' 'U' 'S' 'F' 'H' 'P' (ptx_ops.h) */
/* Appends *in to the function's code, with its line and mnemonic. */
int ptx_emit(struct ptx_pstate *st, const struct ptx_insn *in,
	     uint32_t line, const struct ptx_tok *mnem);
/* The operands of shape `sh` (enum ptx_shape) into in; types[0..1] are
 * the instruction's types (ptx_operand.c). */
int ptx_operands(struct ptx_pstate *st, struct ptx_insn *in, int sh,
		 const int *types);
/* A predicate register, negated with '!' when neg is not NULL. */
int ptx_opd_pred(struct ptx_pstate *st, uint32_t *slot, int *neg);
/* Consumes the token p or fails with "expected 'p', found '...'". */
int ptx_expect(struct ptx_pstate *st, const char *p);
/* The ptxas fusion model over the function just decoded (ptx_fuse.c):
 * mul/add pairs without rounding modifier become HOLD/FUSED. */
int ptx_fuse_pass(struct ptx_pstate *st);
/* FUSED: RN(+-a*b +- c) in the instruction's type, flags applied. */
uint64_t ptx_fused(const struct ptx_insn *in, uint64_t a, uint64_t b, uint64_t c);
int ptx_op_shape(int op);    /* enum ptx_shape of an opcode */
/* The registers (slots) `in` writes, into w (room for PTX_MAX_WRITES):
 * their number.  A slot written twice (a vector ld into one register)
 * appears twice. */
#define PTX_MAX_WRITES 132   /* wgmma: 128 accumulator registers */
int ptx_writes(const struct ptx_insn *in, uint32_t *w);
/* The registers (slots) `in` reads, guard and carry flag included, into
 * r (room for PTX_MAX_READS): their number.  Slots of constants may be
 * among them (an operand the shape has and this form leaves unused is
 * slot PTX_SLOT_TRUE). */
#define PTX_MAX_READS 140    /* wgmma: its accumulators and more */
int ptx_reads(const struct ptx_insn *in, uint32_t *r);
/* Which registers f may read before writing them on some path from its
 * entry (ptx_undef.c): sets f->reset, the slots every thread (and every
 * call) restores to their initial value before it runs. */
int ptx_undef_pass(struct ptx_pstate *st);
/* The token's text, NUL-terminated (malloc'd; NULL when out of memory). */
char *ptx_dup_tok(const struct ptx_tok *t);
/* Points every call of the module at the .func it names, checking its
 * arguments; "ptx:LINE: ..." errors. */
int ptx_resolve_calls(struct ptx_pstate *st);
/* Frees what one function holds (not f itself). */
void ptx_free_func(struct ptx_func *f);
/* The limits a GPU puts on launching kernel f of m as l (ptx_limits.c):
 * 0, or UB_RUNTIME with the message. */
int ptx_launch_limits(const struct ptx_module *m, const struct ptx_func *f,
		      const struct ptx_launch *l, struct ub_error *err);
/* Sets every kernel's read_params (ptx_prov.c); 0. */
int ptx_prov_pass(struct ptx_module *m);
/* Source lines (ptx_loc.c): .file at module level, .loc in a body (at
 * the directive's token; each skips its line); the instructions emitted
 * after a .loc take its line. */
#define PTX_LOC_FILE_BITS 10
int ptx_parse_file(struct ptx_pstate *st);
void ptx_parse_loc(struct ptx_pstate *st);
/* Every function sees the module's file names (after parsing). */
void ptx_share_files(struct ptx_module *m);
/* "file.cu:12" (the file's last path component) for instruction pc of f
 * into buf, or NULL when its line is not known. */
const char *ptx_src_line(const struct ptx_func *f, uint32_t pc, char *buf,
			 size_t len);
/* Decodes one instruction statement starting at st->pos (after an
 * optional guard), appending it to st->f->code. */
int ptx_decode_insn(struct ptx_pstate *st);

#endif
