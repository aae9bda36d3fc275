/* result.h — what a run is asked (struct ub_config) and what it gives
 * (rows, and the data behind them), with the helpers every way of running
 * shares: the whole-array pipeline (run.c) and the chunked one (stream.c)
 * build on these, and neither on the other's internals. */
#ifndef UB_RESULT_H
#define UB_RESULT_H

#include "catalog.h"
#include "figures.h"
#include "inputs.h"
#include "metrics.h"
#include "modes.h"
#include "npy.h"
#include "sim.h"
#include "toolkit.h"

struct ub_backend;
struct ub_nvcc_unit;

struct ptx_trace;
struct ub_triton;
struct ub_why_row;

/* One dtype's kernel of a --kernel file when a run of several dtypes
 * needs one each (the instances of a template: user_kernel.h). */
struct ub_kernel_inst {
	const struct ub_nvcc_unit *unit;
	char *entry;          /* as struct ub_op's fields */
	const char *shown;
	char **args;
	int nargs, use_saved;
};

/* The stages of a streamed run whose CPU time --times reports, declared
 * once: the inputs (generated or read), the reference, the kernels (every
 * mode and torch-plan step), the metrics (the rows' statistics). */
#define UB_STAGES(X) X(inputs) X(reference) X(kernels) X(metrics)
enum ub_stage {
#define X(name) UB_STAGE_##name,
	UB_STAGES(X)
#undef X
	UB_NSTAGES
};

struct ub_input_file {
	int input;         /* index into op->inputs */
	const char *path;
};

struct ub_config {
	const struct ub_op *op;
	int ndtypes;
	enum ub_dtype dtypes[UB_NDTYPES];
	int nmodes;
	enum ub_mode modes[UB_NMODES];
	size_t n;
	uint64_t seed;
	int nfiles;
	struct ub_input_file files[UB_MAX_INPUTS];
	const char *arch;    /* NVRTC virtual architecture, "compute_90" */
	const char *backend; /* "sim", "cuda" or "auto" (backend.h); NULL: sim */
	int arch_set;        /* arch was given (--arch): the cuda backend then
				compiles for it, not for the device's own */
	int exhaustive;      /* every encoding of the op's one input instead
				of samples (inputs.h) */
	struct ub_range range; /* --range: the part of the sweep */
	int stream;          /* run in chunks on cfg->threads threads, keeping
				no element (stream.h); res->data then holds
				no arrays (no --dump, explain; --html draws
				from the rows' figures) */
	size_t shard, nshards; /* --shard K/N: only the chunks c of the run
				with c mod N = K (stream.h); nshards 0 or 1:
				every chunk */
	int threads;         /* --threads (0: one per online CPU) */
	int ref_mpfr;        /* --reference mpfr: no fast path (reference.h) */
	double ref_budget;   /* --ref-budget: CPU seconds an element may take
				in the reference (0: no limit) */
	int exec;            /* --exec: enum ub_exec (native.h); 0: as
				$ULPBENCH_EXEC says, else native */
	int sample;          /* --sample: enum ub_sample (inputs.h) */
	/* Called after each stage of the pipeline (reference, torch plan,
	 * each mode; for each dtype) with the stages done of total, the
	 * elements per stage and what ended; NULL: none (progress.h). */
	void (*progress)(void *ctx, int done, int total, size_t n,
			 const char *what);
	void *progress_ctx;
	const struct ptx_trace *trace; /* NULL; explain traces its kernels */
	struct ub_geom geom;  /* --launch, for the kernel under test (zeros:
				 the default, sim.h) */
	const char *kernel_src; /* --kernel: the user's kernel source (op->kernel
				   names its file); NULL: kernels/op->kernel */
	const struct ub_nvcc_unit *kernel_unit; /* --kernel: what nvcc
				   compiles in every mode (nvcc.h); NULL: NVRTC
				   compiles the source */
	struct ub_launcher *launcher; /* --launcher: the host function of the
				   --kernel file that launches its kernels
				   (launcher.h), or NULL */
	const struct ub_kernel_inst *kernel_inst[UB_NDTYPES]; /* --kernel with
				   several dtypes: each one's kernel (a
				   template's instance); NULL: the op's */
	int figures;         /* give every measured row its figures (row->fig,
				figures.h), for the HTML page */
	const char *explain_opts; /* the options an `ulpbench explain` of this
				     run needs besides --op, --dtype and --at
				     (--catalog, --fpcore, --kernel, ...),
				     shell-quoted; "" none; NULL: not known
				     (the page then shows no command) */
	const struct ub_triton *triton; /* --triton: the kernel is Triton's,
				   compiled by ub_triton_compile; NULL: CUDA */
	int times;           /* --times: each stage's CPU time (a streamed
				run) into the data's cpu[] */
	const char *ptx;     /* NULL; else the kernel under test runs from
				this PTX text instead of its compile (sim
				only; `ulpbench why`'s variants, why.h) */
	int schedules;       /* --schedules K: how many schedules a kernel
				the simulator tracks runs under (0: the
				default, schedules.h) */
	/* --toolkit, --torch-toolkit (toolkit.h): what compiles the kernel
	 * under test (toolkit) and the torch plan (torch_toolkit); NULL: the
	 * default toolkit.  A run of several toolkits (ntoolkits > 1,
	 * run_toolkits.c) runs its modes under each of toolkits[]; toolkit
	 * is toolkits[0] then, its first. */
	const struct ub_toolkit *toolkit, *torch_toolkit;
	int ntoolkits;
	const struct ub_toolkit *toolkits[UB_MAX_TOOLKITS];
};

/* Why mode rn does not apply to a kernel file that does not use
 * ulpbench.h's UB_ macros (kernel_sig.h): compiled with -DUB_MODE_RN it is
 * the fma mode over again. */
#define UB_NA_NO_MACROS "the kernel does not use ulpbench.h's UB_ macros"
#define UB_NA_NO_NATIVE16 "the kernel has no #ifdef UB_NATIVE16 variant"

/* Where a row's per-element results are (struct ub_row's out): the
 * index of its mode in cfg->modes (d->out[m]), or one of these. */
enum {
	UB_ROW_TORCH = -1, /* d->torch */
	UB_ROW_NONE = -2,  /* none: a mode that does not apply (n/a) */
};

/* One line of the report: a mode (or "torch") of one op and dtype. */
struct ub_row {
	const char *op;
	enum ub_dtype dt;
	int data;            /* res->data[data] holds its inputs and reference */
	int out;             /* its results in that data: a mode index,
				UB_ROW_TORCH or UB_ROW_NONE (ub_row_output) */
	const char *mode;    /* mode name or "torch" */
	const char *options; /* NVRTC options it was compiled with (Triton's
				for a --triton mode row) */
	const char *backend; /* the backend that ran it: "sim" or "cuda" */
	const char *arch;    /* what its kernels were compiled for */
	struct ub_stats st;  /* st.worst_in: the worst element's inputs;
				st.undecided_in: the first undecided one's */
	int nin;
	const char *in_names[UB_MAX_INPUTS];
	int has_worst;
	int coords;          /* a shaped op's row (shaped.h): worst_in and
				undecided_in are the element's place, row
				(1), row and col (2) or col (3, in
				worst_in[0]), not its inputs */
	int has_torch;       /* the op has a torch plan (else the torch_*
				fields are meaningless: "-" / empty) */
	int sim_exact;       /* no approximate instruction executed */
	uint64_t approx_mask; /* ptx.h kinds; bit 63: UB_APPROX_UNMARKED */
	const char *na;      /* the mode does not apply to this kernel: why
				(then st is empty; tables say n/a, CSV leaves
				the metrics empty with status n/a) */
	char kernel[400];    /* which kernel ran: "kernels/atan_bwd.cu
				atan_bwd", "my.cu scale<float>(float*, ...)",
				"generated" (from the math), "torch plan" */
	char toolkit[80];    /* what compiled it: "nvrtc 13.0", "nvcc 13.0.88",
				"triton 3.9.0" */
	char launch[64];     /* "block=256,per-thread=1" (ub_geom_format) */
	char hazard[512];    /* racecheck's first hazard ("": none; the
				count is st.hazards) */
	const char *note;    /* a line the table prints under the row (a
				shaped run's atomic-order rows), or NULL */
	const char *output;  /* the output measured, of an op of several
				(shaped.h, rowop.h); NULL: the op's one */
	uint64_t rejected;   /* candidate inputs :pre rejected (the data's) */
	struct ub_figs *fig; /* cfg->figures: what the HTML page draws of it
				(owned; NULL for n/a rows) */
	int has_dot_rel;     /* a matrix op's row (shaped_mm.h): */
	double dot_rel;      /* the largest |y - exact| / sum |a_k b_k| */
	const struct ub_why_row *why; /* --why: the analysis of the row
				(why.h; not owned), or NULL */
	/* A run of several toolkits (run_toolkits.c): the row's results
	 * compared element by element with those of the same mode under the
	 * run's first toolkit (has_tkdiff), how many differ in their bits and
	 * by how much at most (ordered distance, as torch_max_dist), and the
	 * first instruction where the two kernels' PTX differ ("" when the
	 * PTX is the same but for its header and register names). */
	int has_tkdiff;
	uint64_t tk_mismatch, tk_max_dist;
	char tk_ptxdiff[200];
};

/* The data behind the rows of one dtype, kept for --dump. */
struct ub_data {
	enum ub_dtype dt;
	size_t n;            /* elements of the run (arrays kept or not) */
	struct ub_shape shape;
	int nin;
	struct ub_array in[UB_MAX_INPUTS];
	struct ub_array cr, torch;
	struct ub_exact *exact;
	int nmodes;          /* out[] used: the modes, then (a run of several
				toolkits) the modes of each further toolkit */
	struct ub_array out[UB_NMODES * UB_MAX_TOOLKITS];
	uint64_t rejected;   /* candidate inputs :pre rejected (inputs.h) */
	double cpu[UB_NSTAGES]; /* cfg->times: CPU seconds of each stage,
				   every thread (enum ub_stage) */
};

struct ub_result {
	const struct ub_config *cfg; /* while a dtype runs: its cfgs[] */
	char inputs[512];    /* "random" or "x=a.npy;g=b.npy" */
	int nrows;
	struct ub_row *rows;
	int ndata;
	struct ub_data data[UB_NDTYPES];
	int stages_done;     /* for cfg->progress */
	/* each dtype's op (prepare.h: :params and saved inputs), its config,
	 * and what was read for it (freed with the result) */
	struct ub_op ops[UB_NDTYPES], held[UB_NDTYPES];
	struct ub_config cfgs[UB_NDTYPES];
	/* a run of several toolkits: its rows' labels, MODE@NAME
	 * (run_toolkits.c), [toolkit * UB_NMODES + mode] */
	char tklabels[UB_MAX_TOOLKITS * UB_NMODES][40];
};

/* A new row of res for one mode (or "torch") of d (one of res->data), its
 * results in d's array out (struct ub_row): what it is and where it ran
 * (the backend cfg resolves to), not yet what it measured. */
struct ub_row *ub_row_new(struct ub_result *res, const struct ub_data *d,
			  int out, int has_torch, const char *mode,
			  const char *opts);
/* Which kernel row r runs (cfg of its dtype; torch: the torch plan's),
 * what compiled it and how it was launched: r->kernel, toolkit, launch. */
void ub_row_kernel(const struct ub_config *cfg, int torch, struct ub_row *r);
/* The op that d (one of res->data) was run with: the dtype's own
 * (prepare.h), whose inputs are d's (saved ones too). */
const struct ub_op *ub_data_op(const struct ub_result *res, const struct ub_data *d);
/* The data of row r, and its per-element results: NULL when it keeps
 * none (an n/a row; every row of a streamed run, cfg->stream). */
const struct ub_data *ub_row_data(const struct ub_result *res,
				  const struct ub_row *r);
const struct ub_array *ub_row_output(const struct ub_result *res,
				     const struct ub_row *r);
/* The approximate instructions a row ran: sets sim_exact and the mask
 * (UB_APPROX_UNMARKED alone keeps a row exact, backend.h). */
void ub_row_set_approx(struct ub_row *r, uint64_t approx);
void ub_result_free(struct ub_result *res);

/* res for cfg before any row: its description of the inputs, room for
 * every row.  UB_RUNTIME when out of memory. */
int ub_result_init(const struct ub_config *cfg, struct ub_result *res,
		   struct ub_error *err);

/* Opens the input files of cfg (npy.h's ub_npy_open, in input order) for
 * dtype dt into f[0..op->ninputs-1]; a saved input without a file (it is
 * computed) gets path NULL.  An input that needs a file and has none, or
 * files whose element counts disagree, fail (UB_USAGE, one line); *shape
 * is the first file's.  On failure nothing is left open. */
int ub_open_inputs(const struct ub_config *cfg, enum ub_dtype dt,
		   struct ub_npy_in *f, struct ub_shape *shape,
		   struct ub_error *err);
void ub_close_inputs(int nin, struct ub_npy_in *f);

/* d's inputs (d->dt set): read from cfg's files, the exhaustive sweep, or
 * generated samples; d->nin and d->shape too. */
int ub_run_inputs(const struct ub_config *cfg, struct ub_data *d,
		  struct ub_error *err);

/* The CUDA source of cfg->op's kernel under test in dtype dt, malloc'd
 * into *src: the --kernel file as ub_user_kernel_bind read it
 * (cfg->kernel_src), else the shipped kernels/op->kernel, else the kernel
 * generated for dt.  Every way of running a kernel (run.c, stream.c and
 * explain through ub_run_mode) compiles what this gives, under the name
 * ub_kernel_name gives. */
int ub_kernel_source(const struct ub_config *cfg, enum ub_dtype dt,
		     char **src, struct ub_error *err);
/* The name NVRTC compiles it under (its "" includes resolve beside it):
 * the kernel file as given, or OP.generated.cu into buf. */
const char *ub_kernel_name(const struct ub_config *cfg, char *buf, size_t len);
/* Why mode does not apply to the kernel src (then its row is n/a), or
 * NULL when it does. */
const char *ub_mode_na(const struct ub_config *cfg, enum ub_mode mode,
		       const char *src);
/* The same for a kernel file (shipped or the user's) of source src:
 * rn needs ulpbench.h's UB_ macros, native16 a UB_NATIVE16 variant. */
const char *ub_kernel_mode_na(enum ub_mode mode, const char *src);

/* The backend cfg asks for (backend.h); ub_run() checked that it is
 * usable. */
const struct ub_backend *ub_config_backend(const struct ub_config *cfg);

/* cfg and op of one dtype (copies of the run's) take that dtype's kernel
 * when the run has one for it (cfg->kernel_inst). */
static inline void ub_kernel_inst_apply(struct ub_config *cfg, struct ub_op *op,
					enum ub_dtype dt)
{
	const struct ub_kernel_inst *k = cfg->kernel_inst[dt];
	if (!k || !op->kernel)
		return;
	cfg->kernel_unit = k->unit;
	op->entry = k->entry;
	op->entry_shown = k->shown;
	op->args = k->args;
	op->nargs = k->nargs;
	op->use_saved = k->use_saved;
}

#endif
