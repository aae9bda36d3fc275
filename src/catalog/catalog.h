/* catalog.h — ops as data: the op catalog read from FPCore files.
 *
 * An op is one FPCore form, named (FPCore NAME (ARGS) ...) or anonymous
 * (FPCore (ARGS) ...), then named by its :name (docs/fpcore.md):
 *
 *   (FPCore atan_bwd (x g)
 *     :name "atan backward: g / (x*x + 1)"
 *     :pre (and (<= -inf x inf) (<= -inf g inf))     ; sampling domain
 *     :torch (let* ([s (* x x)] [t (+ s 1)]) (/ g t)) ; PyTorch eager plan
 *     :torch-rounding ([out step])                   ; per step, optional
 *     :kernel "atan_bwd.cu" :entry "atan_bwd"        ; kernel under test
 *     :args (x g out n)                              ; kernel parameters
 *     :dtypes (f32)                                  ; what it is written for
 *     (/ g (+ (* x x) 1)))                           ; exact math
 *
 * The torch plan is a let* whose every binding, and its body, is one
 * separate elementwise kernel whose result is rounded to the tensor dtype
 * (R(.) in the shared torch-backward reference); inside one binding the
 * arithmetic is in float32 (opmath), as PyTorch's kernels do. */
#ifndef UB_CATALOG_H
#define UB_CATALOG_H

#include "expr.h"

struct ub_domain {
	double lo, hi; /* closed interval of values; -inf..inf by default */
	int no_nan;    /* NaN is not a value of it even when it is the whole
			  line (a bound of :pre: (<= -inf x inf) is false
			  for NaN) */
	int from_cli;  /* set by --domain: :pre's bounds of this input are
			  not tested (the other clauses still are) */
};

/* One conjunct of :pre, a condition over the op's inputs. */
struct ub_pre_clause {
	struct ub_expr *e;
	int input;     /* a bound of this input alone, else -1 */
	int exact;     /* its input's domain (dom) says all of it: sampling
			  in the domain never needs to test it */
};

struct ub_plan_step {
	char *name;            /* binding name; "out" for the body */
	struct ub_expr *e;     /* vars: inputs 0..ninputs-1, then earlier
				  steps ninputs.. in order */
	int every_op;          /* :torch-rounding ([name every-op]): in
				  f16/bf16 every operator of this step rounds
				  to the dtype (c10::Half arithmetic), not
				  only its result */
	int per_op;            /* the plan derived without :torch: every
				  operation is one PyTorch kernel, rounded to
				  its dtype in every dtype (codegen.h) */
};

/* A named constant of an op, :params ([alpha 1.0]): a variable of the
 * math, the torch plan and :kernel-expr whose value --param NAME=V sets
 * for all of them, and a kernel's scalar parameter can take. */
#define UB_MAX_PARAMS 8
struct ub_param {
	char *name;
	char *text;            /* its value as written (default or --param) */
	double value;          /* strtod(text) */
};

/* An input PyTorch saves from the forward pass, :saved ([y (tanh x)]):
 * computed per element from the sampled inputs (the forward expression
 * correctly rounded to the dtype), for kernels that take it. */
struct ub_saved {
	char *name;
	struct ub_expr *e;     /* over the inputs (and params) */
	char *desc;            /* "tanh(x) rounded to the dtype (...)" */
};

struct ub_op {
	char *name, *desc;     /* the op's name; :name (NULL) */
	char *ident;           /* an anonymous core: an identifier derived
				  from :name (NULL when none is free) */
	char *alias;           /* FILE#K: the K-th form of its file */
	int anonymous;
	char *description, *cite, *example; /* :description; :cite, :example
				  as written (NULL when absent) */
	int nalt;
	char **alt;            /* :alt expressions, as written */
	int precision;         /* :precision's dtype: the default of --dtype;
				  -1 when none (or real) */
	int ninputs;           /* inputs 0..nsampled-1 are sampled (or read
				  from files); the rest are saved inputs,
				  computed from them (saved[k - nsampled]) */
	int nsampled;
	char *inputs[UB_MAX_INPUTS];
	char *input_doc[UB_MAX_INPUTS]; /* what each sampled input is */
	int arg_prec[UB_MAX_INPUTS]; /* (! :precision P x): P, else -1 */
	struct ub_domain dom[UB_MAX_INPUTS];
	unsigned in_f32;       /* bit k: input k is float32 whatever the dtype
				  (a shaped op's saved statistics) */
	unsigned in_class;     /* bit k: input k holds integers, class indices
				  (a shaped op's targets) */
	int npre;
	struct ub_pre_clause *pre; /* :pre's conjuncts (none: TRUE) */
	struct ub_expr *pre_expr;  /* the whole :pre, for display; NULL */
	struct ub_expr *math;  /* vars: inputs; :spec when given, else the
				  body (the reference's expression) */
	struct ub_expr *kernel_expr; /* the generated kernel's formula when it
					is not the math: :kernel-expr, or the
					body when :spec is given; NULL */
	int has_spec;          /* :spec given: math is it, kernel_expr the body */
	int auto_plan;         /* no :torch: the plan is the body with every
				  operation rounded, derived (codegen.h) */
	int nsteps;
	struct ub_plan_step *torch;
	char *kernel, *entry;  /* kernel file (relative to kernels/) */
	char *launch;          /* :launch, how the :kernel file is launched
				  when no --launch says otherwise, as
				  --launch spells it ("per-thread=4"); NULL:
				  the default (sim.h) */
	const char *entry_shown; /* a --kernel's entry as messages name it
				    (scale<float>(float*, ...)); NULL: entry */
	const char *kernel_skipped; /* a run's dtype the :kernel file is not
				    written for: that file (the kernel is
				    generated from the math instead) */
	unsigned kernel_dtypes; /* bit dt: the kernel is written for dtype dt
				   (:dtypes, default f32 only) */
	int nargs;             /* kernel parameters, in order: an input name,
				  "out" ("out:acc": bound with :acc, sim.h),
				  "n", or "=HEX": a value (the bits a
				  --kernel's scalar parameter takes) */
	char **args;
	const char *const *arg_params; /* a --kernel's parameter names, in
				  order, for messages; NULL: none */
	char *file;            /* where it was defined, for messages */
	int line;
	int nparams;           /* :params */
	struct ub_param params[UB_MAX_PARAMS];
	int nsaved;            /* :saved */
	struct ub_saved saved[UB_MAX_INPUTS];
	struct ub_expr *saved_math; /* :saved-math: vars the inputs, then the
				       saved inputs */
	int use_saved;         /* this run's kernel takes a saved input: they
				  are inputs (ub_op_prepare) */
	char *form;            /* the op's FPCore text, read again by
				  ub_op_prepare */
	char *calls;           /* the cores of its file it calls (inlined),
				  their text where it was, for ub_op_reparse;
				  NULL: none */
	int noargs;            /* a core without arguments (FPCore's
				  (FPCore () ...)): one hidden input "_", its
				  domain +0 alone, out of the body's scope;
				  a run is one element (its value) */
	int nouts;             /* a stand-in for an op over rows (shaped.h):
				  its outputs, which --args binds by name
				  (kernel_roles.h); 0: the one output out */
	const char *const *out_names;
};

/* How ub_op_prepare reads an op again. */
struct ub_parse_env {
	const char *const *values; /* per :params entry, its value (NULL
				      entries: as written); NULL: all */
	int saved;                 /* the :saved inputs are inputs, the
				      math is :saved-math, and a :torch step
				      of a saved input's name is replaced by
				      it (PyTorch's forward output) */
};

/* A core that could not be read: what it is called, where, and why (the
 * one-line FILE:LINE:COL message). */
struct ub_broken {
	char *name, *alias, *file, *msg; /* alias: FILE#K */
	int line;
};

struct ub_rowop;
struct ub_catalog {
	int nops;
	struct ub_op *ops;
	int nbroken;
	struct ub_broken *broken;
	int nrowops;               /* ops over rows (rowop.h) */
	struct ub_rowop *rowops;
};

/* Parses FPCore text: every core that reads becomes an op, every other one
 * a broken entry with its message ("FILE:LINE:COL: message"); only text
 * that is not s-expressions at all is an error (UB_USAGE). */
int ub_catalog_parse(const char *text, const char *file,
		     struct ub_catalog *cat, struct ub_error *err);
int ub_catalog_load(const char *path, struct ub_catalog *cat,
		    struct ub_error *err);
void ub_catalog_free(struct ub_catalog *cat);
/* Moves every op of src to the end of dst, leaving src empty (free it as
 * usual).  A name dst already has is UB_USAGE "FILE:LINE: op 'x' is
 * already defined at FILE:LINE", naming both places; dst is then
 * unchanged. */
int ub_catalog_merge(struct ub_catalog *dst, struct ub_catalog *src,
		     struct ub_error *err);
/* The op called name: its name, its derived identifier or its FILE#K
 * (FILE as given, or its base name); NULL if none. */
const struct ub_op *ub_catalog_find(const struct ub_catalog *cat,
				    const char *name);
/* The broken core called name (its name or FILE#K); NULL if none. */
const struct ub_broken *ub_catalog_find_broken(const struct ub_catalog *cat,
					       const char *name);

/* The row op (rowop.h) called name; NULL if none (catalog_rowops.c). */
const struct ub_rowop *ub_catalog_find_rowop(const struct ub_catalog *cat,
					     const char *name);
/* Reads form (a row op's FPCore text, its lines where they were in file)
 * into cat; UB_USAGE "FILE:LINE:COL: ..." when it does not read or its
 * name is taken. */
int ub_cat_rowop(struct ub_catalog *cat, const char *form, const char *file,
		 struct ub_error *err);
/* src's row ops moved to dst (ub_catalog_merge), and freeing them. */
int ub_cat_rowops_merge(struct ub_catalog *dst, struct ub_catalog *src,
			struct ub_error *err);
void ub_cat_rowops_free(struct ub_catalog *cat);

/* op read again from its text under env, into *out (free with
 * ub_op_free).  Errors as ub_catalog_parse's (none for an op that was
 * read once, but out of memory). */
int ub_op_reparse(const struct ub_op *op, const struct ub_parse_env *env,
		  struct ub_op *out, struct ub_error *err);
void ub_op_free(struct ub_op *op);

#endif
