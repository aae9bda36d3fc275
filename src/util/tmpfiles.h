/* tmpfiles.h — every temporary file ulpbench writes (reports before
 * their rename, --dump staging files, compile cache entries) is
 * registered here while it exists, so that a signal that ends the program
 * (SIGINT, SIGTERM, SIGHUP, SIGPIPE, ...) removes them all before the
 * program dies of it.  Safe to use from several threads. */
#ifndef UB_TMPFILES_H
#define UB_TMPFILES_H

#include <stddef.h>

/* Creates a new file "PATH.tmpPID.N" beside path (O_EXCL, mode 0666 less
 * the umask, as open(2) would make path itself), registered; the name goes
 * to tmp.  Returns its descriptor and *slot, or -1 with errno set (and
 * *slot -1). */
int ub_tmp_create(const char *path, char *tmp, size_t len, int *slot);

/* Registers a name this process is about to create, one no other process
 * uses (it holds the pid); returns the slot, or -1 (errno ENFILE) when too
 * many temporaries exist at once. */
int ub_tmp_track(const char *name);

/* The temporary of slot is gone (renamed into place, or removed): forget
 * it.  A slot of -1 is ignored. */
void ub_tmp_forget(int slot);

/* Removes the temporary of slot and forgets it. */
void ub_tmp_discard(int slot);

/* Installs the handlers: each removes every registered temporary and then
 * ends the program by the signal's default action, so its parent sees it
 * die of the signal.  A signal ignored when the program started (nohup)
 * stays ignored. */
void ub_tmp_handle_signals(void);

#endif
