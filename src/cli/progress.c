/* progress.c — progress on stderr (progress.h). */
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

int ub_progress_mode(FILE *f, int quiet, int verbose)
{
	if (quiet)
		return UB_PROGRESS_OFF;
	if (isatty(fileno(f)))
		return UB_PROGRESS_TTY;
	return verbose ? UB_PROGRESS_LINES : UB_PROGRESS_OFF;
}

/* $name as a number of seconds >= 0, else def. */
static double env_seconds(const char *name, double def)
{
	const char *env = getenv(name);
	char *end;
	double v;
	if (!env || !*env || (v = strtod(env, &end), *end) || !(v >= 0))
		return def; /* unset, or not a number of seconds */
	return v;
}

/* What the stages so far say at time t: the last one, the rate (elements
 * through a stage per second) and the time left if the stages left take
 * as long as those done; "" before the first. */
static void describe(const struct ub_progress *p, double t, char *buf, size_t len)
{
	double spent = t - p->run0;
	buf[0] = '\0';
	if (p->what[0] && p->done > 0 && spent > 0 && !p->n)   /* no elements */
		snprintf(buf, len, "%s (%d/%d)  ETA %.0f s", p->what, p->done, p->total,
			 spent / p->done * (p->total - p->done));
	else if (p->what[0] && p->done > 0 && spent > 0)
		snprintf(buf, len, "%s done (%d/%d)  %.3g elements/s  ETA %.0f s",
			 p->what, p->done, p->total,
			 (double)p->done * (double)p->n / spent,
			 spent / p->done * (p->total - p->done));
}

/* LINES: a line every interval until told to stop. */
static void *lines(void *arg)
{
	struct ub_progress *p = arg;
	pthread_mutex_lock(&p->mu);
	for (double next = now() + p->interval; !p->stop;) {
		double left = next - now();
		if (left > 0) {
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			double at = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec + left;
			ts.tv_sec = (time_t)at;
			ts.tv_nsec = (long)((at - (double)ts.tv_sec) * 1e9);
			pthread_cond_timedwait(&p->cv, &p->mu, &ts);
			continue;
		}
		char line[200];
		double t = now();
		describe(p, t, line, sizeof line);
		fprintf(p->f, "ulpbench: %.0f s: %s%s\n", t - p->t0, p->prefix,
			line[0] ? line : "running, no stage done yet");
		fflush(p->f);
		next += p->interval;
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

void ub_progress_init(struct ub_progress *p, FILE *f, int mode)
{
	memset(p, 0, sizeof *p);
	p->f = f;
	p->mode = mode;
	p->t0 = p->run0 = now();
	p->delay = env_seconds("ULPBENCH_PROGRESS_DELAY", 1.0);
	p->interval = env_seconds("ULPBENCH_PROGRESS_INTERVAL", 30.0);
	if (p->interval < 0.01)
		p->interval = 0.01;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	if (mode == UB_PROGRESS_LINES)
		p->running = pthread_create(&p->th, NULL, lines, p) == 0;
}

void ub_progress_run(struct ub_progress *p, const char *prefix)
{
	pthread_mutex_lock(&p->mu);
	p->run0 = now();
	p->what[0] = '\0';
	snprintf(p->prefix, sizeof p->prefix, "%s", prefix);
	pthread_mutex_unlock(&p->mu);
}

void ub_progress_stage(void *ctx, int done, int total, size_t n,
		       const char *what)
{
	struct ub_progress *p = ctx;
	double t = now();
	if (p->mode == UB_PROGRESS_OFF)
		return;
	pthread_mutex_lock(&p->mu);
	snprintf(p->what, sizeof p->what, "%s", what);
	p->done = done;
	p->total = total;
	p->n = n;
	char line[240], desc[200];
	describe(p, t, desc, sizeof desc);
	if (p->mode == UB_PROGRESS_TTY && desc[0] && t - p->t0 >= p->delay) {
		int len = snprintf(line, sizeof line, "%s%s", p->prefix, desc);
		size_t w = len < 0 ? 0 : (size_t)len >= 79 ? 79 : (size_t)len;
		fprintf(p->f, "\r%.*s%*s", (int)w, line,
			(int)(p->width > w ? p->width - w : 0), "");
		fflush(p->f);
		p->width = w > p->width ? w : p->width;
	}
	pthread_mutex_unlock(&p->mu);
}

void ub_progress_clear(struct ub_progress *p)
{
	pthread_mutex_lock(&p->mu);
	if (p->width) {
		fprintf(p->f, "\r%*s\r", (int)p->width, "");
		fflush(p->f);
		p->width = 0;
	}
	pthread_mutex_unlock(&p->mu);
}

void ub_progress_end(struct ub_progress *p)
{
	ub_progress_clear(p);
	if (p->running) {
		pthread_mutex_lock(&p->mu);
		p->stop = 1;
		pthread_cond_signal(&p->cv);
		pthread_mutex_unlock(&p->mu);
		pthread_join(p->th, NULL);
		p->running = 0;
	}
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cv);
}
