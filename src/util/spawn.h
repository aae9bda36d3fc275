/* spawn.h — running a helper program (nvcc, c++filt, the Triton compiler
 * bridge) without a shell. */
#ifndef UB_SPAWN_H
#define UB_SPAWN_H

#include "ub.h"

/* Runs argv (argv[0] the program's path, or a name looked up in PATH;
 * NULL-terminated) with its standard input from /dev/null and its
 * standard output and error into *out (malloc'd, NUL-terminated), and
 * its exit status into *status (-1 when it died of a signal).  UB_COMPILE
 * "cannot run PROGRAM: why" when it cannot be started. */
int ub_spawn(char *const *argv, char **out, int *status, struct ub_error *err);

#endif
