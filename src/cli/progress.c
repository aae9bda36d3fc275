/* progress.c — the progress line on stderr (progress.h). */
#include "progress.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int ub_progress_wanted(FILE *f, int quiet)
{
	return !quiet && isatty(fileno(f));
}

void ub_progress_init(struct ub_progress *p, FILE *f, int enabled)
{
	const char *env = getenv("ULPBENCH_PROGRESS_DELAY");
	char *end;
	memset(p, 0, sizeof *p);
	p->f = f;
	p->enabled = enabled;
	p->t0 = p->run0 = now();
	p->delay = 1.0;
	if (env && *env && (p->delay = strtod(env, &end), *end || !(p->delay >= 0)))
		p->delay = 1.0; /* not a number of seconds: the default */
}

void ub_progress_run(struct ub_progress *p, const char *prefix)
{
	p->run0 = now();
	snprintf(p->prefix, sizeof p->prefix, "%s", prefix);
}

void ub_progress_stage(void *ctx, int done, int total, size_t n,
		       const char *what)
{
	struct ub_progress *p = ctx;
	double t = now(), spent = t - p->run0;
	if (!p->enabled || t - p->t0 < p->delay || done <= 0 || spent <= 0)
		return;
	/* rate: elements through a stage per second; ETA if the stages
	   left take as long as those done */
	char line[160];
	int len = snprintf(line, sizeof line, "%s%s done (%d/%d)  %.3g elements/s"
			   "  ETA %.0f s", p->prefix, what, done, total,
			   (double)done * (double)n / spent,
			   spent / done * (total - done));
	size_t w = len < 0 ? 0 : (size_t)len >= 79 ? 79 : (size_t)len;
	fprintf(p->f, "\r%.*s%*s", (int)w, line,
		(int)(p->width > w ? p->width - w : 0), "");
	fflush(p->f);
	p->width = w > p->width ? w : p->width;
}

void ub_progress_clear(struct ub_progress *p)
{
	if (!p->width)
		return;
	fprintf(p->f, "\r%*s\r", (int)p->width, "");
	fflush(p->f);
	p->width = 0;
}
