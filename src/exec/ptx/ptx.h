/* ptx.h — the sim backend: a PTX parser and interpreter.
 *
 * ptx_parse() reads the PTX text that NVRTC produced, decodes every
 * instruction once into a compact form (registers resolved to indices,
 * immediates to constant slots, labels to instruction indices), and
 * ptx_run() executes one kernel launch, 64 threads per dispatch where it
 * can (ptx_batch.c; else thread by thread, with the same results), with
 * the PTX ISA's semantics: IEEE-exact instructions bit for bit (as on the GPU, NaN results
 * canonical 0x7fffffff), approximate instructions (div.approx, div.full,
 * rcp/ex2/... .approx) modelled within their documented error and reported
 * in ptx_run_info.approx_mask.  Float mul/add/sub without a rounding
 * modifier are run as ptxas compiles them: a mul whose only readers are
 * such adds fused into them (one rounding; ptx_fuse.c), the others as .rn
 * (counted in ptx_run_info.unmarked_fp).
 *
 * Supported: the PTX that NVRTC/nvcc and Triton emit for elementwise
 * kernels and the libdevice functions they call, in every compile mode
 * (see ptx_ops.h for every instruction form): integer and
 * extended-precision (carry) arithmetic, funnel shifts,
 * f16/bf16/f32/f64 arithmetic, setp/set/selp, cvt between all widths
 * (and two f32 into one f16x2/bf16x2), ld/st .global .local .param .const and generic (scalars and
 * .v2/.v4 vectors of every width; cache operators, eviction priorities,
 * .L2::cache_hint with its createpolicy policy: no effect), module
 * .global/.const tables, .func with call (arguments and return value
 * through .param), bra/ret/exit, inline-asm registers named without '%',
 * Triton's kernel parameter attributes (.ptr .global .align N) and its
 * .reqntid (a launch of another block size is refused); and, for
 * kernels that need a block's threads together, .shared memory (static
 * and extern), bar.sync, the warp instructions (shfl, vote, match, redux,
 * activemask, elect), atom/red and the tensor-core instructions
 * (ldmatrix, stmatrix, movmatrix, mma, wmma, wgmma: ptx_mma.h), run block
 * by block in warps of 32 (ptx_block.c).
 * Not supported (a clear error at parse time): textures, surfaces,
 * indirect calls, barriers with a thread count. */
#ifndef UB_PTX_H
#define UB_PTX_H

#include "ub.h"

struct ptx_module;

/* Parses and decodes a whole PTX module.  On error returns UB_RUNTIME with
 * "ptx:LINE: message" in err. */
int ptx_parse(const char *text, struct ptx_module **out, struct ub_error *err);
/* The same for running kernel `entry`: a function that it does not reach
 * through its calls may hold what the sim cannot run (as the other
 * kernels of a whole .cu file may: shared memory, barriers, printf); the
 * module keeps such a function without code, and a run of it fails with
 * its error.  entry NULL: every function must be runnable (ptx_parse). */
int ptx_parse_for(const char *text, const char *entry, struct ptx_module **out,
		  struct ub_error *err);
/* 0 when kernel `entry` (NULL: every function) and every function it
 * calls can run; else UB_RUNTIME with the first one's error ("ptx:LINE:
 * ..."). */
int ptx_check_runnable(const struct ptx_module *m, const char *entry,
		       struct ub_error *err);
void ptx_free(struct ptx_module *m);

/* Number of .param entries of kernel `entry`, or -1 when there is no such
 * .entry in the module. */
int ptx_entry_nparams(const struct ptx_module *m, const char *entry);

/* A region of host memory the kernel may access through ld/st.global.
 * Global addresses in the interpreted program are host addresses; every
 * access is checked against these regions, and one outside them stops the
 * run with an error naming the instruction. */
struct ptx_buffer {
	void *base;
	size_t size;
	int writable;
	const char *name;   /* what it is, for messages ("input 'x'");
			       NULL: nothing to say */
};

/* A launch buffer as the checks see it (ptx_check.h; ptx_run_checked
 * takes one per buffer of the launch, in order).  Without them every
 * buffer holds values from the start and none is tracked for writes. */
struct ptx_bufcheck {
	int fresh;          /* 1: nothing written at the start, a read of an
			       element before a write is an error
			       (initcheck); 0: it holds values (an input, an
			       output that starts at zero) */
	int must_write;     /* 1: every element must be written; the run
			       tracks it (ptx_run_info.unwritten) */
	unsigned elem;      /* bytes per element (0: 1) */
	const char *hint;   /* what to do when the kernel reads it before
			       writing it (NULL: nothing to say) */
};

struct ptx_launch {
	unsigned grid[3], block[3];
	const uint64_t *args; /* one value per .param, stored at the
				 param's declared width (pointers as u64) */
	int nargs;
	const struct ptx_buffer *bufs;
	int nbufs;
	uint64_t budget;      /* instructions one thread may run, its calls
				 included, before the run stops with an
				 error; 0: ptx_budget() */
	int thread_by_thread; /* 1: never batch lanes (ptx_batch.c) nor run
				 native code; the results are the same,
				 tests compare them */
	uint64_t shared_bytes; /* dynamic .shared memory of a block (extern
				 .shared arrays), after the static part */
	int atomic_seeded;    /* 1: the atomic order from atomic_seed
				 (ptx_block.c), else the default order */
	uint64_t atomic_seed;
};

/* Tracing, for `ulpbench explain` (ptx_run_traced): one event per
 * floating-point instruction executed (mnemonic naming f16/bf16/f32/f64, except ld/st/mov), any
 * thread, after it ran.  Operands are the encodings the instruction read,
 * at their registers' (or immediates') widths; the result is the register
 * it wrote (setp/testp: the predicate p, 0 or 1). */
struct ptx_trace_event {
	const char *text;      /* mnemonic as written, "fma.rn.f32"; valid
				  during the call only */
	uint32_t line;         /* line in the PTX text */
	uint64_t thread;       /* linear index of the thread in the grid */
	int nsrc;
	uint64_t src[3];
	unsigned src_bits[3];
	uint64_t dst;
	unsigned dst_bits;
	int measured;          /* an approximate instruction run through its
				  model measured on an sm_90 GPU (mufu.h) */
	/* where the operands live: the function running (its frame's
	 * registers) and the register of each source and of the result, so
	 * that a reader can follow values from one instruction to the next
	 * (`ulpbench why`'s accuracy blame); an immediate is a register no
	 * instruction writes */
	const void *func;
	uint32_t src_reg[3], dst_reg;
};

struct ptx_trace {
	void (*insn)(void *user, const struct ptx_trace_event *ev);
	void *user;
};

/* Approximate instructions, declared once: X(ID, ptx name).  A run sets
 * bit ID of approx_mask for each one it executed. */
#define PTX_APPROX_KINDS(X)                 \
	X(PTX_AX_DIV_APPROX, "div.approx")  \
	X(PTX_AX_DIV_FULL, "div.full")      \
	X(PTX_AX_RCP_APPROX, "rcp.approx")  \
	X(PTX_AX_SQRT_APPROX, "sqrt.approx") \
	X(PTX_AX_RSQRT_APPROX, "rsqrt.approx") \
	X(PTX_AX_EX2_APPROX, "ex2.approx")  \
	X(PTX_AX_LG2_APPROX, "lg2.approx")  \
	X(PTX_AX_SIN_APPROX, "sin.approx")  \
	X(PTX_AX_COS_APPROX, "cos.approx")  \
	X(PTX_AX_TANH_APPROX, "tanh.approx") \
	X(PTX_AX_FMA_CHOICE, "ptxas-fma-choice") /* which of two products \
					    ptxas fuses (ptx_fuse.c) */ \
	X(PTX_AX_MMA, "mma-model") /* a tensor-core instruction whose unit \
					    the sources do not give for its \
					    architecture, or met a case they \
					    leave open (mma_unit.h) */

enum ptx_approx_kind {
#define X(id, name) id,
	PTX_APPROX_KINDS(X)
#undef X
	PTX_AX_COUNT,
	/* bit PTX_AX_MEASURED + k: kind k ran through its model measured on
	 * an sm_90 GPU (src/exec/mufu.h), which is its bits there: not an
	 * approximation of the sim's */
	PTX_AX_MEASURED = 32
};
/* The bits of an approx mask for the modelled kinds, and for the measured
 * ones. */
#define PTX_AX_MODELLED_BITS ((UINT64_C(1) << PTX_AX_MEASURED) - 1)
#define PTX_AX_MEASURED_BITS (((UINT64_C(1) << PTX_AX_COUNT) - 1) << PTX_AX_MEASURED)
const char *ptx_approx_name(int kind);

struct ptx_run_info {
	uint64_t approx_mask;  /* bit k: approximate kind k was executed */
	uint64_t insns;        /* instructions executed, all threads */
	uint64_t unmarked_fp;  /* f16/bf16/f32/f64 mul, add, sub executed without a
				  rounding modifier and not fused by the
				  ptxas model (ptx_fuse.c) */
	uint64_t fused;        /* adds executed as one FMA with a mul's exact
				  product, as ptxas compiles them */
	uint64_t batch_reruns; /* batches of PTX_LANES threads run again thread
				  by thread because a lane failed (ptx_batch.c) */
	uint64_t bad_thread;   /* when a thread failed: its index in grid
				  order; else UINT64_MAX */
	int native;            /* 1: the kernel ran as native code
				  (src/exec/native/), else on the interpreter */
	uint64_t native_reruns; /* native launches a thread of which failed,
				  finished on the interpreter from it */
	/* the checks (ptx_check.h): */
	int checked;           /* 1: the run tracked memory (initcheck,
				  racecheck: block-level kernels, kernels
				  that may read a writable buffer); 0: the
				  PTX proves none was needed */
	uint64_t hazards;      /* racecheck: distinct hazards found */
	char hazard[512];      /* the first, described ("" none) */
	uint64_t unwritten;    /* elements of must_write buffers never
				  written (the first: unwritten_at of buffer
				  unwritten_buf) */
	uint64_t unwritten_at;
	int unwritten_buf;
	int float_atomics;     /* float atom/red add ran: the bits may depend
				  on the order of the atomics */
	uint64_t printf_calls; /* device printf calls that ran (ptx_builtin.c) */
	char printf_text[2048]; /* the lines of the first ones, whole, each
				  "(block X,Y,Z thread X,Y,Z): TEXT\n" */
};

/* The instruction budget of one thread when the launch sets none: a base
 * plus a share per instruction of the module (its functions together,
 * counted up to 2^24), so that a long kernel is not cut off and one that
 * never ends stops after a time in proportion to its size: 2^28 +
 * 2^16 * instructions. */
#define PTX_BUDGET_BASE (1ull << 28)
#define PTX_BUDGET_PER_INSN (1ull << 16)
uint64_t ptx_budget(const struct ptx_module *m);

/* How many add/sub instructions of the module the ptxas model fuses with
 * a mul (statically; 0: ptxas is predicted to change nothing). */
int ptx_fusions(const struct ptx_module *m);
/* The PTX lines of the muls the ptxas model fuses into their adds (at
 * most max of them, in function and code order); how many. */
int ptx_fused_mul_lines(const struct ptx_module *m, uint32_t *lines, int max);

/* Runs kernel `entry` over the whole grid, every thread once (in batches
 * of 64 lanes, or one thread after another: the results are the same).
 * Returns 0, or UB_RUNTIME with a message (bad access, unsupported
 * instruction reached, ...). */
int ptx_run(const struct ptx_module *m, const char *entry,
	    const struct ptx_launch *launch, struct ptx_run_info *info,
	    struct ub_error *err);

/* ptx_run telling trace (NULL: nobody, at no cost) of every floating-point
 * instruction executed. */
int ptx_run_traced(const struct ptx_module *m, const char *entry,
		   const struct ptx_launch *launch,
		   const struct ptx_trace *trace, struct ptx_run_info *info,
		   struct ub_error *err);

/* What a run tells the checks beyond the launch (ptx_run_checked). */
struct ptx_run_opts {
	const struct ptx_bufcheck *bufs; /* one per launch buffer, in order;
					    NULL: every one written from the
					    start */
	/* called as each lane's atomic lands, in order: its block (the
	 * index in grid order) and thread (in the block); NULL: nobody */
	void (*atomic)(void *user, uint64_t block, unsigned thread);
	void *user;
	int unchecked;      /* 1: no initcheck and no racecheck, memory not
			       tracked (bench/checks.c measures their cost;
			       what a GPU faults on is still refused) */
};

/* ptx_run_traced with opts (NULL: as ptx_run_traced). */
int ptx_run_checked(const struct ptx_module *m, const char *entry,
		    const struct ptx_launch *launch, const struct ptx_run_opts *opts,
		    const struct ptx_trace *trace, struct ptx_run_info *info,
		    struct ub_error *err);

#endif
