/* progress.h — progress on stderr while a run lasts, in one of two forms:
 *   a line rewritten in place ("\r") with the stage just finished, the
 *   rate and an estimate of the time left, erased at the end: when stderr
 *   is a terminal and --quiet is not given, once the work has lasted
 *   over a second ($ULPBENCH_PROGRESS_DELAY seconds when set);
 *   a plain line every 30 s ($ULPBENCH_PROGRESS_INTERVAL seconds when
 *   set) with the time so far and the last stage finished: when stderr is
 *   not a terminal and --verbose is given, so that a run in a batch job
 *   (a slow or runaway kernel) shows it is alive.  A thread of its own
 *   writes it, so it comes while a kernel runs.
 * Neither reaches stdout, a CSV or a JSON report. */
#ifndef UB_PROGRESS_H
#define UB_PROGRESS_H

#include <pthread.h>
#include <stdio.h>

enum ub_progress_mode { UB_PROGRESS_OFF, UB_PROGRESS_TTY, UB_PROGRESS_LINES };

struct ub_progress {
	FILE *f;
	int mode;        /* enum ub_progress_mode */
	double t0;       /* when the work began (the one-second rule) */
	double delay;    /* seconds before the line shows (default 1) */
	double interval; /* seconds between plain lines (default 30) */
	double run0;     /* when the current run began (rate, ETA) */
	size_t width;    /* characters on screen now; 0: no line shown */
	char prefix[64]; /* e.g. "[2/5] " in a suite */
	char what[120];  /* the last stage finished ("" none yet), */
	int done, total; /* how many of how many, */
	size_t n;        /* of how many elements */
	pthread_mutex_t mu;   /* the fields above against the LINES thread */
	pthread_cond_t cv;
	pthread_t th;
	int running, stop;    /* LINES: the thread is up / is to end */
};

/* The form progress takes on f: TTY when f is a terminal and !quiet,
 * LINES when it is not one and verbose && !quiet, else OFF. */
int ub_progress_mode(FILE *f, int quiet, int verbose);
/* Starts progress in that form (LINES: its thread). */
void ub_progress_init(struct ub_progress *p, FILE *f, int mode);
/* A new run begins (resets rate and ETA); prefix may be "". */
void ub_progress_run(struct ub_progress *p, const char *prefix);
/* The ub_config.progress callback (run.h); ctx is a struct ub_progress. */
void ub_progress_stage(void *ctx, int done, int total, size_t n,
		       const char *what);
/* Erases the line if one is shown. */
void ub_progress_clear(struct ub_progress *p);
/* Ends progress: erases the line, stops the LINES thread. */
void ub_progress_end(struct ub_progress *p);

#endif
