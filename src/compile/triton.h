/* triton.h — testing the user's own Triton kernel against an op:
 *
 *   ulpbench --op atan_bwd --triton my.py:atan_bwd_kernel \
 *            --args 'x_ptr=x,g_ptr=g,out_ptr=out,n=n' --constexpr BLOCK=1024
 *
 * ulpbench compiles the kernel with the user's own Triton (the Python of
 * --python, $ULPBENCH_PYTHON or python3 on PATH) through a helper script of
 * its own, kernels/triton_compile.py, to PTX for sm_NN (no GPU needed),
 * caches the PTX like NVRTC's (nvrtc_cache.h), and runs it on the sim as
 * Triton's launcher would: ceil(n / BLOCK) programs of 32 * num_warps
 * threads (or --grid programs), the pointer parameters 16-byte aligned.
 *
 * Modes are Triton's own compile knobs under ulpbench's names (struct
 * ub_triton_mode): fma = fp fusion on (Triton 3.9's default), nofma =
 * enable_fp_fusion=False; the other modes have no Triton equivalent and
 * their rows are n/a with the reason. */
#ifndef UB_TRITON_H
#define UB_TRITON_H

#include "result.h"
#include "sim.h"

#define UB_TRITON_MAX_PARAMS 32

/* A parameter of the kernel, as Triton reads its def. */
struct ub_triton_param {
	char name[64];
	int is_constexpr;
	int has_default;
	char dflt[64];        /* its default, as Python writes it */
};

/* What the helper says about the kernel and the Triton that compiles it. */
struct ub_triton_desc {
	char version[32];     /* triton.__version__, "3.9.0" */
	char package[1024];   /* where triton is installed */
	char python[1024];    /* sys.executable */
	char env[1024];       /* environment variables that change Triton's
				 output: "NAME=VALUE;..." (part of the cache key) */
	int line;             /* the kernel's def */
	int nparams;
	struct ub_triton_param params[UB_TRITON_MAX_PARAMS];
};

/* What the command line asks for. */
struct ub_triton_req {
	const char *spec;     /* --triton FILE.py:KERNEL */
	const char *args;     /* --args PARAM=NAME,... (NULL: by name) */
	const char *constexprs; /* --constexpr NAME=V,... (NULL: defaults) */
	const char *grid;     /* --grid N or n/NAME (NULL: ceil(n / BLOCK)) */
	const char *python;   /* --python PATH (NULL: $ULPBENCH_PYTHON, python3) */
	unsigned num_warps;   /* --num-warps (0: Triton's default, 4) */
	int per_row;          /* a shaped op's run (docs/reductions.md): n is
				 its rows and, without --grid, one program
				 a row; its :params (rows, cols) bind too */
	unsigned num_stages;  /* --num-stages (0: Triton's default) */
};

/* A bound kernel: what every mode compiles and how it is launched. */
struct ub_triton {
	char *file, *kernel;  /* FILE.py, KERNEL */
	char *src;            /* the file's text */
	char python[1024];    /* the program that runs the helper */
	char helper[4096];    /* kernels/triton_compile.py */
	char *helper_src;     /* its text (part of the cache key) */
	struct ub_triton_desc d;
	int nargs;            /* the value (non-constexpr) parameters */
	char *args[UB_TRITON_MAX_PARAMS]; /* per value parameter: an input
				 name, "out", "n", or "=0xBITS" (a number) */
	char scalar_ty[UB_TRITON_MAX_PARAMS][8]; /* a number's Triton type:
				 "fp32", "i32", "i64"; "" for the others */
	char constexprs[1024]; /* JSON object of every constexpr's value */
	char shown[512];      /* "BLOCK=1024", for rows and headers */
	unsigned long long per_program; /* elements one program covers (the
				 grid's divisor), 0 with a fixed grid */
	char per_name[64];    /* the constexpr that gives it */
	unsigned grid;        /* --grid N: programs (0: from n) */
	unsigned num_warps;
	unsigned num_stages;  /* 0: Triton's default */
	int per_row;          /* ub_triton_req's */
	char toolkit[48];     /* "triton 3.9.0" */
	char arch[16];        /* "sm_90" */
	char options[UB_NMODES][640]; /* each mode row's CSV options */
	char *sources;        /* "HASH PATH\n" for each file of a module that
				 importing FILE.py loaded (the helper's
				 "source" lines), part of the cache key */
	int uncached;         /* one of them cannot be read: nothing cached */
};

/* Reads req->spec's file, asks the helper for the kernel's parameters,
 * binds them (every value parameter to an input, out, n or a number; every
 * constexpr to --constexpr or its default) and works out the grid.  Then
 * points op->kernel, entry, args, nargs and kernel_dtypes at the kernel
 * (owned by t), cfg->kernel_src at its source and cfg->triton at t, and
 * runs it on the sim backend.  Errors: UB_USAGE, one line naming the file,
 * kernel and parameter at fault, or saying that the Python cannot import
 * Triton and how to install it. */
int ub_triton_bind(const struct ub_triton_req *req, struct ub_op *op,
		   struct ub_config *cfg, struct ub_triton *t,
		   struct ub_error *err);
void ub_triton_free(struct ub_triton *t);

/* What the helper (kernels/triton_compile.py) answers, read back (also
 * by tests/fuzz/fuzz_triton.c): the describe answer's "KEY VALUE" lines
 * into t->d (and t->sources); the compile answer, "meta num_warps=N
 * shared=N fusion=N hidden=N" then the PTX, into out; and the compile
 * request of t in mode for dt as JSON into buf (-1 when it does not fit).
 * Errors: UB_USAGE naming t->file. */
struct ub_triton_ptx;
int ub_triton_parse_desc(struct ub_triton *t, char *text, struct ub_error *err);
int ub_triton_parse_entry(const struct ub_triton *t, enum ub_mode mode,
			  char *text, struct ub_triton_ptx *out,
			  struct ub_error *err);
int ub_triton_request(const struct ub_triton *t, enum ub_mode mode,
		      enum ub_dtype dt, int n64, char *buf, size_t len);
/* The binding part of ub_triton_bind, t->d read (triton_bind.c). */
int ub_triton_bind_params(struct ub_triton *t, const struct ub_triton_req *req,
			  const struct ub_op *op, struct ub_error *err);

/* Why mode does not apply to a Triton kernel (its row is n/a), or NULL
 * when it is one of Triton's knobs (fma, nofma). */
const char *ub_triton_mode_na(enum ub_mode mode);

/* One mode's kernel, compiled. */
struct ub_triton_ptx {
	char *ptx;            /* malloc'd */
	unsigned num_warps;   /* threads a program: 32 * num_warps */
	int hidden;           /* parameters Triton appends (scratch pointers):
				 passed as null pointers */
	unsigned shared;      /* bytes of dynamic .shared memory a program
				 needs (its metadata's "shared": reductions
				 across warps stage through it) */
};

/* The PTX of t in mode (fma or nofma) for dtype dt, from the cache or the
 * helper; n64: n does not fit an i32 (Triton then types it i64).
 * Errors: UB_COMPILE with Triton's message, UB_USAGE. */
int ub_triton_compile(const struct ub_triton *t, enum ub_mode mode,
		      enum ub_dtype dt, int n64, struct ub_triton_ptx *out,
		      struct ub_error *err);

/* The launch of t over n elements: programs and threads a program.
 * UB_USAGE when n needs more programs than CUDA's grid holds. */
int ub_triton_geom(const struct ub_triton *t, const struct ub_triton_ptx *p,
		   size_t n, struct ub_geom *g, struct ub_error *err);

/* "triton 3.9.0 sm_90 my.py:kernel BLOCK=1024 num_warps=4 grid=ceil(n/BLOCK)"
 * into buf, for report headers. */
const char *ub_triton_about(const struct ub_triton *t, char *buf, size_t len);

/* Sets a mode row's toolkit, arch and options to t's. */
void ub_triton_row(const struct ub_triton *t, struct ub_row *r);

#endif
