/* spawn.c — helper programs (spawn.h).
 *
 * posix_spawnp, no shell: arguments reach the program as given, whatever
 * they hold.  Each helper leads a process group of its own and has a
 * private TMPDIR, both registered with tmpfiles.h before any signal can
 * land (the signals are blocked from before the spawn until then), so a
 * signal that ends ulpbench kills the helper and whatever it started and
 * removes the files they left.  ub_spawn's child's stdout and stderr
 * share one pipe that is read to its end before the child is reaped, so a
 * chatty child never blocks on a full pipe. */
#include "spawn.h"
#include "tmpfiles.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* environ with TMPDIR=dir in place of its own; malloc'd (the strings are
 * environ's and tmpdir's), NULL when out of memory. */
static char **child_env(char *tmpdir)
{
	size_t n = 0, k = 0;
	while (environ[n])
		n++;
	char **env = malloc((n + 2) * sizeof *env);
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "TMPDIR=", 7))
			env[k++] = environ[i];
	env[k++] = tmpdir;
	env[k] = NULL;
	return env;
}

int ub_child_start(struct ub_child *c, char *const *argv,
		   const posix_spawn_file_actions_t *fa)
{
	const char *t = getenv("TMPDIR");
	char base[4096], var[4400];
	posix_spawnattr_t attr;
	sigset_t block, old;
	c->pid = -1;
	c->slot = -1;
	c->dir[0] = '\0';
	snprintf(base, sizeof base, "%s/ulpbench-helper", t && t[0] ? t : "/tmp");
	/* without a directory of its own it runs with the TMPDIR it has */
	if (ub_tmp_mkdir(base, c->dir, sizeof c->dir, &c->dir_slot))
		c->dir[0] = '\0';
	snprintf(var, sizeof var, "TMPDIR=%s", c->dir);
	char **env = c->dir[0] ? child_env(var) : environ;
	if (!env) {
		ub_tmp_discard(c->dir_slot);
		return ENOMEM;
	}
	ub_tmp_signal_set(&block);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setpgroup(&attr, 0);
	posix_spawnattr_setsigmask(&attr, &old);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
	int rc = posix_spawnp(&c->pid, argv[0], fa, &attr, argv, env);
	if (!rc)
		c->slot = ub_tmp_child(c->pid);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	posix_spawnattr_destroy(&attr);
	if (env != environ)
		free(env);
	if (rc) {
		c->pid = -1;
		ub_tmp_discard(c->dir_slot);
	}
	return rc;
}

int ub_child_wait(struct ub_child *c)
{
	siginfo_t info;
	int ws = -1;
	if (c->pid <= 0)
		return -1;
	/* waited for, not reaped: its pid cannot be reused while a signal
	 * handler may still kill its group */
	while (waitid(P_PID, (id_t)c->pid, &info, WEXITED | WNOWAIT) < 0 && errno == EINTR)
		;
	ub_tmp_child_done(c->slot);
	while (waitpid(c->pid, &ws, 0) < 0)
		if (errno != EINTR) {
			ws = -1;
			break;
		}
	ub_tmp_discard(c->dir_slot);
	c->pid = -1;
	c->slot = c->dir_slot = -1;
	return ws;
}

int ub_child_kill(struct ub_child *c)
{
	if (c->pid > 0)
		kill(-c->pid, SIGKILL);
	return ub_child_wait(c);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Reads fd to its end, or until the deadline (0: none), into a malloc'd
 * string; NULL when out of memory; *late when the deadline passed. */
static char *read_all(int fd, double deadline, int *late)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	*late = 0;
	for (;;) {
		if (!buf)
			return NULL;
		if (cap - len < 2) {
			char *nb = realloc(buf, cap *= 2);
			if (!nb)
				free(buf);
			buf = nb;
			continue;
		}
		if (deadline > 0) {
			double left = deadline - now();
			struct pollfd p = { fd, POLLIN, 0 };
			if (left <= 0) {
				*late = 1;
				break;
			}
			int r = poll(&p, 1, (int)(left * 1000) + 1);
			if (r == 0 || (r < 0 && errno == EINTR))
				continue;
		}
		ssize_t r = read(fd, buf + len, cap - len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	buf[len] = '\0';
	return buf;
}

int ub_spawn_limit(char *const *argv, double limit, char **out, int *status,
		   struct ub_error *err)
{
	int fds[2], rc, late = 0;
	posix_spawn_file_actions_t fa;
	struct ub_child c;
	*out = NULL;
	if (pipe(fds))
		return ub_fail(err, UB_COMPILE, "cannot run %s: %s", argv[0], strerror(errno));
	fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
	posix_spawn_file_actions_addclose(&fa, fds[1]);
	rc = ub_child_start(&c, argv, &fa);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (rc) {
		close(fds[0]);
		return ub_fail(err, UB_COMPILE, "cannot run %s: %s", argv[0], strerror(rc));
	}
	*out = read_all(fds[0], limit > 0 ? now() + limit : 0, &late);
	close(fds[0]);
	int ws = late ? ub_child_kill(&c) : ub_child_wait(&c);
	*status = late ? UB_SPAWN_TIMED_OUT : ws != -1 && WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
	if (!*out)
		return ub_fail(err, UB_RUNTIME, "out of memory");
	return 0;
}

int ub_spawn(char *const *argv, char **out, int *status, struct ub_error *err)
{
	return ub_spawn_limit(argv, 0, out, status, err);
}
