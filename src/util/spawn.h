/* spawn.h — running a helper program (nvcc, c++filt, the C compiler, the
 * Triton compiler bridge) without a shell. */
#ifndef UB_SPAWN_H
#define UB_SPAWN_H

#include <spawn.h>
#include <sys/types.h>

#include "ub.h"

/* *status of a helper that ub_spawn_limit() stopped at its time limit. */
#define UB_SPAWN_TIMED_OUT (-2)

/* Runs argv (argv[0] the program's path, or a name looked up in PATH;
 * NULL-terminated) as ub_child_start() starts it, with its standard input
 * from /dev/null and its standard output and error into *out (malloc'd,
 * NUL-terminated), and its exit status into *status (-1 when it died of
 * a signal).  UB_COMPILE "cannot run PROGRAM: why" when it cannot be
 * started. */
int ub_spawn(char *const *argv, char **out, int *status, struct ub_error *err);

/* The same, stopped (its process group killed) once it has run limit
 * seconds (0: no limit): then *status is UB_SPAWN_TIMED_OUT and *out
 * what it wrote until then. */
int ub_spawn_limit(char *const *argv, double limit, char **out, int *status,
		   struct ub_error *err);

/* A helper program while it runs. */
struct ub_child {
	pid_t pid;
	int slot, dir_slot;   /* tmpfiles.h's, -1 when none */
	char dir[4300];       /* its private TMPDIR ("" when none) */
};

/* Starts argv with the file actions fa (NULL: none) as the leader of a
 * process group of its own, registered with tmpfiles.h (a signal that
 * ends ulpbench kills the group first), its TMPDIR a new private
 * directory that is removed with whatever the helper left in it (nvcc's
 * tmpxft_* files, the C compiler's) when it ends or a signal ends
 * ulpbench.  Returns 0, or an errno value when it cannot be started. */
int ub_child_start(struct ub_child *c, char *const *argv,
		   const posix_spawn_file_actions_t *fa);

/* Reaps the helper (waiting for its end), forgets it and removes its
 * directory; returns waitpid's status, or -1. */
int ub_child_wait(struct ub_child *c);

/* Stops a helper still running (SIGKILL to its group), then as
 * ub_child_wait(). */
int ub_child_kill(struct ub_child *c);

#endif
