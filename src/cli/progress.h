/* progress.h — the progress line on stderr: "\r"-updated while a run
 * lasts, with the stage, the rate and an estimate of the time left, and
 * cleared at the end.  Shown only when stderr is a terminal, --quiet is
 * not given and the work has lasted over a second ($ULPBENCH_PROGRESS_DELAY
 * seconds when set); it never reaches a CSV or JSON report, nor a stderr
 * that is a file or a pipe. */
#ifndef UB_PROGRESS_H
#define UB_PROGRESS_H

#include <stdio.h>

struct ub_progress {
	FILE *f;
	int enabled;
	double t0;       /* when the work began (the one-second rule) */
	double delay;    /* seconds before the line shows (default 1) */
	double run0;     /* when the current run began (rate, ETA) */
	size_t width;    /* characters on screen now; 0: no line shown */
	char prefix[64]; /* e.g. "[2/5] " in a suite */
};

/* enabled: !quiet && isatty(fileno(f)), as ub_progress_wanted says. */
void ub_progress_init(struct ub_progress *p, FILE *f, int enabled);
int ub_progress_wanted(FILE *f, int quiet);
/* A new run begins (resets rate and ETA); prefix may be "". */
void ub_progress_run(struct ub_progress *p, const char *prefix);
/* The ub_config.progress callback (run.h); ctx is a struct ub_progress. */
void ub_progress_stage(void *ctx, int done, int total, size_t n,
		       const char *what);
/* Erases the line if one is shown. */
void ub_progress_clear(struct ub_progress *p);

#endif
