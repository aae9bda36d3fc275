/* spawn.c — a child process with its output read whole (spawn.h). */
#include "spawn.h"

#include <errno.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int ub_spawn(char *const *argv, char **out, int *status, struct ub_error *err)
{
	int fd[2];
	pid_t pid;
	posix_spawn_file_actions_t fa;
	*out = NULL;
	if (pipe(fd))
		return ub_fail(err, UB_COMPILE, "cannot run %s: %s", argv[0], strerror(errno));
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
	posix_spawn_file_actions_adddup2(&fa, fd[1], 2);
	posix_spawn_file_actions_addclose(&fa, fd[0]);
	int e = strchr(argv[0], '/') ? posix_spawn(&pid, argv[0], &fa, NULL, argv, environ)
				   : posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fd[1]);
	if (e) {
		close(fd[0]);
		return ub_fail(err, UB_COMPILE, "cannot run %s: %s", argv[0], strerror(e));
	}
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	for (ssize_t r = 1; buf && r != 0;) {
		if (len + 1 == cap) {
			char *nb = realloc(buf, cap *= 2);
			if (!nb)
				free(buf);
			buf = nb;
			if (!buf)
				break;
		}
		r = read(fd[0], buf + len, cap - len - 1);
		if (r < 0 && errno != EINTR)
			break;
		len += r > 0 ? (size_t)r : 0;
	}
	close(fd[0]);
	int ws = 0;
	while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
		;
	*status = WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
	if (!buf)
		return ub_fail(err, UB_RUNTIME, "out of memory");
	buf[len] = '\0';
	*out = buf;
	return 0;
}

