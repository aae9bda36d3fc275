/* stream_internal.h — what stream.c (threads, merge) and stream_chunk.c
 * (one chunk's work) share. */
#ifndef UB_STREAM_INTERNAL_H
#define UB_STREAM_INTERNAL_H

#include "arena.h"
#include "stream.h"
#include "sim.h"
#include "figures.h"

#include <pthread.h>

#define UB_MAX_THREADS 256
#define SK_MAX_ARGS UB_MAX_KARGS
#define SK_MAX_STEPS 16
#define SK_MAX_ROWS (UB_NMODES + 1)

/* On more threads than one, the last UB_TAIL_CHUNKS chunks of a run of
 * more chunks than that are each taken in UB_TAIL_PARTS parts (a chunk of
 * fewer than UB_TAIL_PARTS * 1,024 elements whole), so that the threads
 * end within a part of one another rather than a chunk: the same figures
 * (a chunk's statistics are the merge of its parts', an exact one). */
#define UB_TAIL_CHUNKS 2
#define UB_TAIL_PARTS 4

/* What a kernel parameter takes: an element of the environment (the
 * op's inputs, then the torch steps' results) when >= 0, else: */
enum { SK_OUT = -1, SK_N = -2, SK_UNBOUND = -3, SK_VALUE = -4 /* value[i] */,
       SK_OUT_ACC = -5 /* out, bound with :acc (sim.h) */ };

/* One kernel, compiled and parsed once, run on every chunk. */
struct skern {
	struct ptx_module *m;
	const char *entry;
	int nargs;
	int bind[SK_MAX_ARGS];
	uint64_t value[SK_MAX_ARGS]; /* SK_VALUE parameters: their bits */
	const char *param[SK_MAX_ARGS]; /* the kernel's names of them, or NULL */
	struct ub_geom geom;  /* the launch (zeros: the default) */
	const char *na;       /* the mode does not apply: why (no kernel) */
	int skip;             /* the mode does not apply to the dtype: no row */
	char ctx[256];        /* "FILE: kernel ENTRY, mode M", for messages */
};

/* One chunk's figures for one row (run indices). */
struct slot {
	struct ub_stats st;
};

struct job {
	const struct ub_config *cfg;
	enum ub_dtype dt;
	int nin, nsteps, nrows;   /* rows: each mode, then torch */
	size_t n, nchunks;         /* elements of the run; chunks this
				     process runs (its shard's) */
	size_t shard, nshards;    /* --shard K/N: chunk number s here is
				     chunk K + s N of the run (1 shard: all) */
	struct ub_sweep sw;       /* --exhaustive */
	struct ub_sampling smp;   /* samples */
	int files;                /* --input: file[k] open (ub_open_inputs),
				     each chunk reading its elements */
	struct ub_npy_in file[UB_MAX_INPUTS]; /* path NULL: none, a saved
						 input computed */
	struct skern step[SK_MAX_STEPS], mode[UB_NMODES];
	/* The units the threads take: chunks 0..tail0-1 whole, then the last
	 * UB_TAIL_CHUNKS (units tail0..nunits-1): unit tail0 + k is
	 * tail_c[k]'s part tail_p[k] of tail_np[k] (ub_chunk_part) */
	size_t tail0, nunits;
	size_t tail_c[UB_TAIL_CHUNKS * UB_TAIL_PARTS];
	int tail_p[UB_TAIL_CHUNKS * UB_TAIL_PARTS], tail_np[UB_TAIL_CHUNKS * UB_TAIL_PARTS];
	size_t win;               /* chunks in flight or waiting to merge */
	struct slot *slots;       /* chunk c, row r: [(c % win) * nrows + r] */
	char what[96];            /* for cfg->progress */
	/* under mu: */
	pthread_mutex_t mu;
	pthread_cond_t cv;        /* the merge frontier moved, or a failure */
	unsigned char *ready;     /* [c % win]: chunk c done, not merged */
	unsigned char *left;      /* [c % win]: its parts not yet done */
	size_t frontier;          /* chunks before it are merged into acc */
	struct slot acc[SK_MAX_ROWS]; /* each row's figures so far */
	struct ub_figs *fig[SK_MAX_ROWS]; /* cfg->figures: each row's, merged
					     in any order (figures.h) */
	size_t next, done, bad_chunk;
	uint64_t elems_done, elems_total; /* for cfg->progress */
	uint64_t rejected;        /* candidates :pre rejected, every chunk */
	int bad_status;
	struct ub_error bad_err;
	uint64_t approx[SK_MAX_ROWS];
	double cpu[UB_NSTAGES];   /* cfg->times: every thread's, per stage */
	/* each row's first racecheck hazard, from the lowest chunk (the run's
	   index) that found one: SIZE_MAX none yet */
	size_t hazard_chunk[SK_MAX_ROWS];
	char hazard[SK_MAX_ROWS][512];
};

/* A thread's buffers, UB_STATS_CHUNK elements each: env holds the inputs
 * (made, or read from job->file, chunk by chunk), then each torch step's
 * result.  The arrays, exact and prep's are pieces of one arena
 * (arena.h). */
struct wbuf {
	struct ub_arena arena;
	struct ub_array env[UB_MAX_INPUTS + SK_MAX_STEPS];
	struct ub_array cr, out;
	struct ub_array last;     /* the results of the chunk's last measured
				     row, last_row (-1: none yet): a mode's
				     are kept by swapping out and last */
	int last_row;
	int torch_like;           /* a measured row of the chunk whose results
				     are the torch plan's, bit for bit (-1:
				     none) */
	struct ub_exact *exact;
	struct ub_stats_prep prep;   /* what the chunk's rows share (metrics.h) */
	uint64_t rejected;        /* this thread's chunks' rejected candidates */
	struct ub_figs *fig;  /* cfg->figures: one row's of one chunk */
	double cpu[UB_NSTAGES];   /* cfg->times: this thread's, per stage */
};

int ub_wbuf_init(const struct job *j, struct wbuf *w, struct ub_error *err);
/* The calling thread's CPU seconds so far (--times). */
double ub_thread_cpu(void);
void ub_wbuf_free(const struct job *j, struct wbuf *w);

/* Runs part `part` of np of chunk number c of this process (its place
 * in the window; the run's chunk is ub_chunk_index): its rows' statistics
 * into sl[0..nrows-1] (zeroed first by the caller: a row that does not
 * apply stays so) and its figures into the job's, approx[r] |= the row's
 * approximate instructions. */
int ub_chunk_run(struct job *j, struct wbuf *w, size_t c, int part, int np,
		 struct slot *sl, uint64_t *approx, struct ub_error *err);
/* The run's chunk index of this process's chunk number c, and its first
 * element and length; the same of its part `part` of np: 1,024-element
 * steps (a multiple of every launch's elements per thread), the last part
 * the rest. */
size_t ub_chunk_index(const struct job *j, size_t c);
void ub_chunk_span(const struct job *j, size_t c, size_t *first, size_t *len);
void ub_chunk_part(const struct job *j, size_t c, int part, int np, size_t *first,
		   size_t *len);

#endif
