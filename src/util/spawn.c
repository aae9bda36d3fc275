/* spawn.c — a child process with its output read whole (spawn.h).
 *
 * posix_spawnp, no shell: arguments reach the program as given, whatever
 * they hold.  The child's stdout and stderr share one pipe that is read to
 * its end before the child is reaped, so a chatty child never blocks on a
 * full pipe. */
#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Reads fd to its end into a malloc'd string; NULL when out of memory. */
static char *read_all(int fd)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
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

int ub_spawn(char *const *argv, char **out, int *status, struct ub_error *err)
{
	int fds[2], rc;
	posix_spawn_file_actions_t fa;
	pid_t pid;
	*out = NULL;
	if (pipe(fds))
		return ub_fail(err, UB_COMPILE, "cannot run %s: %s", argv[0], strerror(errno));
	fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
	posix_spawn_file_actions_addclose(&fa, fds[1]);
	rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (rc) {
		close(fds[0]);
		return ub_fail(err, UB_COMPILE, "cannot run %s: %s", argv[0], strerror(rc));
	}
	*out = read_all(fds[0]);
	close(fds[0]);
	int ws;
	while (waitpid(pid, &ws, 0) < 0)
		if (errno != EINTR) {
			ws = -1;
			break;
		}
	*status = ws != -1 && WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
	if (!*out)
		return ub_fail(err, UB_RUNTIME, "out of memory");
	return 0;
}
