/* sim.h — the sim backend: run a kernel's PTX on the interpreter over
 * ulpbench arrays. */
#ifndef UB_SIM_H
#define UB_SIM_H

#include "ptx.h"

/* Launch geometry shared by every backend: by default 256 threads a block
 * and one thread per element (ceil(n/256) blocks, up to CUDA's grid
 * limit), so grid-stride kernels and one-thread-per-element kernels both
 * work; --launch sets the block size and the elements each thread does. */
#define UB_BLOCK 256
#define UB_MAX_BLOCK 1024   /* CUDA's limit of threads per block */
#define UB_MAX_GRID 2147483647u

/* How a launch covers n elements: blocks of `block` threads (0:
 * UB_BLOCK), each block covering `per_block` elements (0: one a thread),
 * so ceil(n / per_block) blocks, at least one; or exactly `grid` blocks
 * when that is set (a kernel that loops over n itself).  --launch
 * block=B,per-thread=K is block B covering B*K elements; Triton programs
 * are blocks of 32 * num_warps threads covering BLOCK elements. */
struct ub_geom {
	unsigned block;             /* threads a block in x (0: UB_BLOCK) */
	unsigned block_yz[2];       /* in y and z (block=XxYxZ; 0: 1) */
	unsigned long long per_block;
	unsigned grid;
	unsigned grid_yz[2];        /* blocks in y and z (grid=XxYxZ; 0: 1) */
	unsigned long long shared;  /* shared=BYTES: dynamic .shared memory of
				       a block (extern __shared__ arrays) */
	int atomic_seeded;          /* --atomic-order seed=S: another valid
				       order of atomics (ptx_block.c) */
	unsigned long long atomic_seed;
	const char *label;          /* who runs the kernel, before device
				       printf's lines; NULL: its name */
};
/* The grid (blocks in x, at most UB_MAX_GRID) and the threads of a block
 * (all dimensions together) of g (NULL: the default) for n elements. */
void ub_geom_grid(const struct ub_geom *g, size_t n, unsigned *grid,
		  unsigned *block);
/* The same in three dimensions: grid[0..2] blocks, block[0..2] threads. */
void ub_geom_dims(const struct ub_geom *g, size_t n, unsigned *grid,
		  unsigned *block);
/* --launch block=B,per-thread=K|per-block=E|grid=G[,shared=BYTES] (each
 * at most once, in any order; B defaults to UB_BLOCK) into *g (its atomic
 * order kept); B and G may have two or three dimensions, X x Y [x Z]
 * ("block=32x4", "grid=8x2x1"), within CUDA's limits; UB_USAGE naming
 * `what`, the option or property that gave spec ("--launch",
 * ":launch"). */
int ub_geom_parse(const char *what, const char *spec, struct ub_geom *g,
		  struct ub_error *err);
/* g (NULL: the default) as --launch spells it: "block=256,per-thread=1",
 * "block=128,per-block=1000" or "block=128,grid=3", then ",shared=BYTES"
 * when set and " atomic-order=seed=S" when seeded, into buf. */
/* --atomic-order seed=S into *g; UB_USAGE naming the option. */
int ub_atomic_order_parse(const char *spec, struct ub_geom *g,
			  struct ub_error *err);
const char *ub_geom_format(const struct ub_geom *g, char *buf, size_t len);

/* One kernel parameter: an array (read-only or written) or a scalar. */
struct ub_karg {
	const struct ub_array *arr; /* NULL: scalar `value` */
	int writable;
	uint64_t value;
	const char *name;           /* the array's name in the op ("x"), for
				       messages; NULL: none */
	size_t bytes;               /* the array's size when it is not
				       arr->n elements of arr->dt (an array
				       of bytes held in a wider one); 0: it is */
	int acc;                    /* a writable array bound with :acc: it
				       starts at +0, may be read, and must
				       still be written whole (the caller
				       fills it; the run tracks the writes) */
	const char *param;          /* the kernel's name of the parameter
				       ("dinp"), for messages; NULL: none */
};

/* What the simulator's checks (ptx_check.h) saw in the launches of one
 * kernel: ub_checks_add folds each launch's ptx_run_info in. */
/* How a row's kernel was checked (ub_stats.checks): not at all (it ran
 * on a GPU, or is the host's), proved to need no tracking (the PTX has no
 * .shared memory, atomics or read of an output: ptx_prov.c), or run with
 * its memory tracked. */
enum { UB_CHECKS_NONE, UB_CHECKS_PROVED, UB_CHECKS_TRACKED };

struct ub_checks {
	int ran;                /* a launch on the sim was folded in */
	int tracked;            /* 1: memory was tracked (initcheck and
				   racecheck ran); 0: the PTX proves no read
				   of unwritten memory can happen */
	uint64_t hazards;       /* racecheck: the most distinct hazards one
				   launch found */
	char hazard[512];       /* the first launch's first hazard ("": none) */
	int float_atomics;      /* a float atomic add ran */
	uint64_t unwritten, unwritten_at; /* the last launch: elements of its
				   :acc output never written, the first */
};
void ub_checks_add(struct ub_checks *to, const struct ptx_run_info *info);
/* UB_CHECKS_* of what c saw. */
int ub_checks_kind(const struct ub_checks *c);

/* The bytes array argument a spans. */
static inline size_t ub_karg_bytes(const struct ub_karg *a)
{
	return a->bytes ? a->bytes : a->arr->n * (size_t)ub_dtypes[a->arr->dt].bits / 8;
}
/* Parses ptx, checks that `entry` exists and takes nargs parameters, and
 * runs it over n elements on the interpreter.  Errors: UB_RUNTIME naming
 * the entry. */
int ub_sim_run(const char *ptx, const char *entry, const struct ub_karg *args,
	       int nargs, size_t n, struct ptx_run_info *info,
	       struct ub_error *err);

/* The same, launched as geom says (NULL: the default), telling trace (NULL: nobody) of every floating-point
 * instruction executed (ptx.h: struct ptx_trace), for explain. */
int ub_sim_run_traced(const char *ptx, const char *entry,
		      const struct ub_karg *args, int nargs, size_t n,
		      const struct ub_geom *geom, const struct ptx_trace *trace,
		      struct ptx_run_info *info, struct ub_error *err);

/* The same, untraced runs as exec says (enum ub_exec, native.h: native
 * code when it can be built, else the interpreter). */
int ub_sim_run_exec(const char *ptx, const char *entry,
		    const struct ub_karg *args, int nargs, size_t n,
		    const struct ub_geom *geom, const struct ptx_trace *trace,
		    int exec, struct ptx_run_info *info, struct ub_error *err);

/* The same on a module parsed once (ptx_parse) and run many times, by
 * several threads at once (the module is only read). */
int ub_sim_run_module(const struct ptx_module *m, const char *entry,
		      const struct ub_karg *args, int nargs, size_t n,
		      const struct ub_geom *geom, struct ptx_run_info *info,
		      struct ub_error *err);

#endif
